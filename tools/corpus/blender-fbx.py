# Blender's FBX export for generate.sh: import one glTF/GLB with Blender's glTF importer and
# export it as binary FBX 7400 with Blender's FBX exporter (animations baked, no leaf bones,
# textures embedded; the rest default). Run as:
#   blender -b --factory-startup --python blender-fbx.py -- INPUT OUT.fbx [nosimplify]
# "nosimplify" turns off the exporter's key simplification (bake_anim_simplify_factor=0).
# The corpus was made with Debian bookworm's Blender 3.4.1.
import numpy
if not hasattr(numpy, "bool"): numpy.bool = bool  # Debian numpy 1.24 vs Blender 3.4 glTF addon
import bpy, sys, os
argv = sys.argv[sys.argv.index('--') + 1:]
src, out, extra = argv[0], argv[1], argv[2:]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=src)
options = dict(bake_anim=True, add_leaf_bones=False, path_mode='COPY', embed_textures=True)
if 'nosimplify' in extra:
    options['bake_anim_simplify_factor'] = 0.0
os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
print('RESULT', bpy.ops.export_scene.fbx(filepath=out, **options))
