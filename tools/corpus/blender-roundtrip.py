# Blender round-trip for generate.sh: import one glTF/GLB, export it as GLB, separate .gltf and
# embedded .gltf. Run as: blender -b --python blender-roundtrip.py -- INPUT OUTDIR NAME
# Writes OUTDIR/NAME.blender.glb, OUTDIR/NAME.blender-gltf/NAME.gltf (+ .bin, images) and
# OUTDIR/NAME.blender-embedded.gltf. The corpus was made with Debian bookworm's Blender 3.4.1.
import numpy
if not hasattr(numpy, "bool"): numpy.bool = bool  # Debian numpy 1.24 vs Blender 3.4 glTF addon
import bpy, sys, os, traceback
argv = sys.argv[sys.argv.index('--') + 1:]
src, outdir, name = argv[0], argv[1], argv[2]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=src)
os.makedirs(outdir, exist_ok=True)
res = {}
def exp(fn, **kw):
    try:
        r = bpy.ops.export_scene.gltf(filepath=os.path.join(outdir, fn), export_animations=True, export_skins=True, export_morph=True, **kw)
        res[fn] = str(r)
    except Exception as e:
        res[fn] = 'ERROR ' + repr(e)
exp(name + '.blender.glb', export_format='GLB')
os.makedirs(os.path.join(outdir, name + '.blender-gltf'), exist_ok=True)
exp(name + '.blender-gltf/' + name + '.gltf', export_format='GLTF_SEPARATE')
exp(name + '.blender-embedded.gltf', export_format='GLTF_EMBEDDED')
if os.environ.get('TRY_DRACO'): exp(name + '.blender-draco.glb', export_format='GLB', export_draco_mesh_compression_enable=True, export_draco_mesh_compression_level=6)
#exp(name + '.blender-draco-q.glb', export_format='GLB', export_draco_mesh_compression_enable=True, export_draco_mesh_compression_level=10, export_draco_position_quantization=12, export_draco_normal_quantization=8, export_draco_texcoord_quantization=10, export_draco_generic_quantization=10)
print('RESULTS', res)
