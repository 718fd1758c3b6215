# A motion-only FBX, as Mixamo's "without skin" downloads are: import a glTF/GLB rig with
# Blender's glTF importer, keep its armature and one of its animations, and export that as
# binary FBX with Blender's FBX exporter (armature only, the one take baked, no leaf bones).
# For checking `rigscope convert CHARACTER --clips-from MOTION.fbx`. Run as:
#   blender -b --factory-startup --python blender-motion-fbx.py -- IN.glb ANIMATION OUT.fbx
# Made with Debian bookworm's Blender 3.4.1.
import numpy
if not hasattr(numpy, "bool"): numpy.bool = bool  # Debian numpy 1.24 vs Blender 3.4 glTF addon
import bpy, sys, os
argv = sys.argv[sys.argv.index('--') + 1:]
src, animation, out = argv[0], argv[1], argv[2]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=src)
armatures = [o for o in bpy.data.objects if o.type == 'ARMATURE']
if len(armatures) != 1:
    sys.exit('%s: %d armatures, expected one' % (src, len(armatures)))
armature = armatures[0]
# The importer stashes each animation on an NLA track named after it; play only the one asked for.
tracks = armature.animation_data.nla_tracks
chosen = [t for t in tracks if t.name == animation]
if not chosen:
    sys.exit('%s: no animation %r (has %s)' % (src, animation, [t.name for t in tracks]))
action = chosen[0].strips[0].action
for track in list(tracks):
    tracks.remove(track)
armature.animation_data.action = action
start, end = action.frame_range
bpy.context.scene.frame_start, bpy.context.scene.frame_end = int(start), int(round(end))
os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
print('RESULT', bpy.ops.export_scene.fbx(filepath=out, object_types={'ARMATURE'}, bake_anim=True,
                                         bake_anim_use_all_actions=False, bake_anim_use_nla_strips=False,
                                         add_leaf_bones=False))
