#!/usr/bin/env bash
# Regenerate everything under out/ (see README.md). Prints each command and its wall time.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p out
G=/work/corpus/files/godot-vrm/Godette_vrm_v4.vrm
TV=/work/corpus/files/three-vrm
SPEC=/work/corpus/files/vrm-spec
run() { # run OUTFILE CMD...   (stdout -> OUTFILE, stderr -> OUTFILE.log or .log)
  local out=$1; shift
  local t0=$(date +%s.%N)
  if [[ $out == - ]]; then "$@" 2>>out/run-all.log; else "$@" >"$out" 2>"${out%.*}.log"; [[ -s "${out%.*}.log" ]] || rm -f "${out%.*}.log"; fi
  local t1=$(date +%s.%N)
  printf '%6.3fs  %s%s\n' "$(echo "$t1 - $t0" | bc)" "$*" "$([[ $out == - ]] || echo " > $out")"
}
: > out/run-all.log
# --- motion copies
run - python3 add-motion.py $G out/Godette_motion.vrm
run - python3 make-cube-spring.py $TV/core-cube/cube.gltf out/cube-spring.vrm
run - python3 add-motion.py out/cube-spring.vrm out/cube-spring_motion.vrm
run - python3 add-motion.py $TV/springbone-plane-collider/plane-collider.gltf out/plane-collider_motion.glb --node 0
run - node validate.mjs out/Godette_motion.vrm out/cube-spring.vrm out/cube-spring_motion.vrm out/plane-collider_motion.glb
# --- spring runs (clip)
run out/godette_clip.json        node vrm-peer.mjs out/Godette_motion.vrm --clip SpringTest --steps 120 --every 30
run out/cube-spring_clip.json    node vrm-peer.mjs out/cube-spring_motion.vrm --clip SpringTest --steps 120 --every 30
run out/plane-collider_clip.json node vrm-peer.mjs out/plane-collider_motion.glb --clip SpringTest --steps 120 --every 30
# three-vrm default (autoUpdateHumanBones=true) for contrast: the raw-node clip is overwritten
run out/godette_clip_autoupdate.json node vrm-peer.mjs out/Godette_motion.vrm --clip SpringTest --steps 120 --every 30 --auto-update-human-bones
# --- rest pose (no steps)
run out/godette_rest.json        node vrm-peer.mjs $G
run out/cube-spring_rest.json    node vrm-peer.mjs out/cube-spring.vrm
# --- expressions
run out/godette_expr.json        node vrm-peer.mjs $G --expression happy=1 --expression blink=0.5 --steps 1
run out/cube-spring_expr.json    node vrm-peer.mjs out/cube-spring.vrm --expression happy=1 --expression blink=0.5 --steps 1
run out/core-cube_expr.json      node vrm-peer.mjs $TV/core-cube/cube.gltf --expression happy=1 --expression blink=0.5 --steps 1
run out/core-cube_expr_aa.json   node vrm-peer.mjs $TV/core-cube/cube.gltf --expression aa=1 --expression blink=0.5 --steps 1
run out/isBinary_Overrides_expr.json  node vrm-peer.mjs $SPEC/VRMC_vrm_expressions_isBinary_Overrides.vrm --expression happy=0.3 --expression blink=0.6 --steps 1
run out/isBinary_Overridden_expr.json node vrm-peer.mjs $SPEC/VRMC_vrm_expressions_isBinary_Overridden.vrm --expression happy=0.3 --expression blink=0.6 --steps 1
# --- look-at
run out/godette_lookat.json      node vrm-peer.mjs $G --look-at 0.5,1.5,1.0 --steps 1 --rotations
run out/cube-spring_lookat.json  node vrm-peer.mjs out/cube-spring.vrm --look-at 0.5,1.5,1.0 --steps 1 --rotations
run out/core-cube_lookat.json    node vrm-peer.mjs $TV/core-cube/cube.gltf --look-at 0.5,1.5,1.0 --steps 1 --rotations
# --- VRM animation (.vrma) via @pixiv/three-vrm-animation, sampled at fixed times, springs off
run out/godette_vrma.json        node vrm-peer.mjs $G --vrma $TV/idle_loop.vrma --times 0,0.5,1.5 --no-springs
run out/core-cube_vrma.json      node vrm-peer.mjs $TV/core-cube/cube.gltf --vrma $TV/idle_loop.vrma --times 0,0.5,1.5 --no-springs
