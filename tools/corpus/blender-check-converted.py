#!/usr/bin/env python3
# Does Blender open what `rigscope convert` wrote, with the clips rigscope says it wrote?
#
#   python3 tools/corpus/blender-check-converted.py [--rigscope BIN] [--blender BIN] OUT.glb...
#
# Imports each GLB with Blender's glTF importer in background mode and lists its clips as
# Blender sees them: the importer makes one action per animation and object and stashes them
# on NLA tracks named after the animation, so a clip is a track name. Sets those names beside
# what `rigscope inspect --json OUT` lists, and the longest action of each track (Blender's
# frames at its scene rate) beside rigscope's duration. Prints a table, one row per file:
#   ok|DIFFERENT|FAILED  FILE  rigscope N clips  blender M clips  [what differs]
# Exit status 1 when some file did not open or its clips differ.
#
# The Blender side runs this same file inside Blender (`blender -b --factory-startup --python
# THIS -- --inside FILES...`), with a plain environment: Blender's embedded Python must see the
# system's NumPy, not a virtualenv's (see ../shared/peer-blender/README.md). Made with Debian
# bookworm's Blender 3.4.1.
import json
import os
import subprocess
import sys

# Blender's frames and rigscope's seconds agree within one frame at Blender's default 24 fps.
DURATION_TOLERANCE_S = 1.0 / 24.0


def inside_blender(files):
    """Runs in Blender: one JSON line per file with its tracks and their lengths."""
    import numpy

    if not hasattr(numpy, "bool"):
        numpy.bool = bool  # Debian's NumPy 1.24 against Blender 3.4's glTF add-on
    import bpy

    for path in files:
        bpy.ops.wm.read_factory_settings(use_empty=True)
        try:
            bpy.ops.import_scene.gltf(filepath=path)
        except Exception as error:  # the importer raises on what it cannot read
            print("CHECK " + json.dumps({"file": path, "error": repr(error)[:300]}), flush=True)
            continue
        fps = bpy.context.scene.render.fps / bpy.context.scene.render.fps_base
        tracks = {}
        holders = [o for o in bpy.data.objects] + [k for k in bpy.data.shape_keys]
        for holder in holders:
            animation = holder.animation_data
            for track in animation.nla_tracks if animation else []:
                for strip in track.strips:
                    end = strip.action.frame_range[1] if strip.action else strip.frame_end
                    tracks[track.name] = max(tracks.get(track.name, 0.0), end / fps)
        print("CHECK " + json.dumps({"file": path, "clips": tracks, "actions": len(bpy.data.actions)}), flush=True)


def blender_clips(blender, files):
    """Blender's view of each file: {file: {"clips": {name: seconds}} or {"error": ...}}."""
    environment = {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/tmp")}
    command = [blender, "-b", "--factory-startup", "--python", os.path.abspath(__file__), "--", "--inside", *files]
    result = subprocess.run(command, capture_output=True, text=True, env=environment)
    found = {}
    for line in result.stdout.splitlines():
        if line.startswith("CHECK "):
            report = json.loads(line[len("CHECK "):])
            found[report["file"]] = report
    return found, result


def rigscope_clips(rigscope, path):
    """rigscope's view: [(name, duration in seconds)], in its order."""
    result = subprocess.run([rigscope, "inspect", "--json", path], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(result.stderr.strip()[:300])
    return [(clip["name"], clip["duration"]) for clip in json.loads(result.stdout)["clips"]]


def main(arguments):
    here = os.path.dirname(os.path.abspath(__file__))
    rigscope = os.path.join(here, "..", "..", "target", "debug", "rigscope")
    blender = "blender"
    files = []
    while arguments:
        argument = arguments.pop(0)
        if argument == "--rigscope":
            rigscope = arguments.pop(0)
        elif argument == "--blender":
            blender = arguments.pop(0)
        else:
            files.append(os.path.abspath(argument))
    if not files:
        sys.exit("usage: blender-check-converted.py [--rigscope BIN] [--blender BIN] OUT.glb...")
    found, run = blender_clips(blender, files)
    failures = 0
    for path in files:
        name = os.path.relpath(path)
        try:
            listed = rigscope_clips(rigscope, path)
        except RuntimeError as error:
            print("FAILED     %s  rigscope: %s" % (name, error))
            failures += 1
            continue
        report = found.get(path)
        if report is None or "error" in report:
            why = report["error"] if report else "no report (Blender said: %s)" % run.stderr.strip()[-300:]
            print("FAILED     %s  rigscope %d clips  blender: %s" % (name, len(listed), why))
            failures += 1
            continue
        seen, expected = report["clips"], dict(listed)
        problems = []
        if len(listed) != len(seen):
            problems.append("%d clips in rigscope, %d in blender" % (len(listed), len(seen)))
        if set(seen) != set(expected):
            problems.append("only rigscope: %s; only blender: %s" % (
                sorted(set(expected) - set(seen)), sorted(set(seen) - set(expected))))
        for clip in sorted(set(seen) & set(expected)):
            if abs(seen[clip] - expected[clip]) > DURATION_TOLERANCE_S:
                problems.append("%s lasts %.3f s in rigscope, %.3f s in blender" % (clip, expected[clip], seen[clip]))
        failures += bool(problems)
        print("%-10s %s  rigscope %d clips  blender %d clips (%d actions)%s" % (
            "DIFFERENT" if problems else "ok", name, len(listed), len(seen), report["actions"],
            "  " + "; ".join(problems) if problems else ""))
    print("%d files, %d differ or failed" % (len(files), failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    if "--inside" in sys.argv:
        inside_blender(sys.argv[sys.argv.index("--inside") + 1:])
    else:
        main(sys.argv[1:])
