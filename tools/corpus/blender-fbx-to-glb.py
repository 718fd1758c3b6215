# Blender's way from FBX to glTF, to time `rigscope convert` against: import one FBX with
# Blender's FBX importer, then export it as GLB with Blender's glTF exporter, every action
# (take) an animation. Run as:
#   blender -b --factory-startup --python blender-fbx-to-glb.py -- IN.fbx OUT.glb
# The FBX importer makes an action per take and object but leaves all but one unassigned; the
# exporter writes every action of the file's one armature (export_anim_single_armature, on by
# default in 3.4) and, so that the other objects' takes are written too, each object's actions
# are stashed on its NLA tracks first. Made with Debian bookworm's Blender 3.4.1.
import numpy
if not hasattr(numpy, "bool"): numpy.bool = bool  # Debian numpy 1.24 vs Blender 3.4 glTF addon
import bpy, sys, os
argv = sys.argv[sys.argv.index('--') + 1:]
src, out = argv[0], argv[1]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.fbx(filepath=src)
# Blender's FBX importer names an object's take "<object>|<take>".
for obj in bpy.data.objects:
    for action in bpy.data.actions:
        if action.name.split('|')[0] != obj.name or obj.type not in {'ARMATURE', 'EMPTY', 'MESH'}:
            continue
        if obj.animation_data is None:
            obj.animation_data_create()
        track = obj.animation_data.nla_tracks.new()
        track.name = action.name.split('|', 1)[-1]
        track.strips.new(track.name, int(action.frame_range[0]), action)
os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
print('RESULT', bpy.ops.export_scene.gltf(filepath=out, export_format='GLB', export_animations=True,
                                          export_skins=True, export_morph=True, export_nla_strips=True))
