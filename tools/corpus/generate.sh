#!/usr/bin/env bash
# Regenerates the "generated here" part of rigscope's external test corpus (see README.md):
# gltf-transform Draco, meshopt, quantize, weld and instance variants, gltfpack variants,
# KTX2 variants (ktx2-encoder) and, where `blender` is on PATH, Blender round-trips and Blender's
# FBX exports (FBX-MANIFEST.tsv).
#
#   tools/corpus/generate.sh CORPUS_DIR [NAME...]
#
# Inputs: the shared samples ($RIGSCOPE_ASSETS/gltf, default ../shared/assets/gltf beside the
# repository) and the fetched corpus files under CORPUS_DIR named in INPUTS below (those that
# are missing are skipped, with a note). NAME... limits the run to those inputs (e.g. Fox
# CesiumMan). Outputs go to CORPUS_DIR/<variant-folder>/NAME/..., exactly as MANIFEST.tsv
# names them; an output the manifest does not list (the corpus dropped byte-identical
# duplicates) is not kept unless RIGSCOPE_CORPUS_ALL=1.
#
# The npm tools are installed, at the versions in package-lock.json, into
# $RIGSCOPE_CORPUS_TOOLS (default ${XDG_CACHE_HOME:-$HOME/.cache}/rigscope-corpus-tools),
# never into the repository. RIGSCOPE_CORPUS_STEPS picks the steps (default: all of
# "draco variants instance gltfpack ktx2 blender fbx").
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
assets=${RIGSCOPE_ASSETS:-$repo/../shared/assets}
tools=${RIGSCOPE_CORPUS_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/rigscope-corpus-tools}
steps=" ${RIGSCOPE_CORPUS_STEPS:-draco variants instance gltfpack ktx2 blender fbx} "

[ $# -ge 1 ] || { echo "usage: $0 CORPUS_DIR [NAME...]" >&2; exit 2; }
corpus=$1; shift
mkdir -p "$corpus"
corpus=$(cd "$corpus" && pwd)
only=" $* "

# name, where the input is (shared: under $assets/gltf; corpus: under CORPUS_DIR), its path,
# and what is made from it.
INPUTS='
AnimatedCube                shared AnimatedCube/glTF/AnimatedCube.gltf                           draco,variants,gltfpack,ktx2,blender
AnimatedMorphCube           shared AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb           draco,variants,gltfpack,blender,fbx
AnimatedMorphCube-Quantized shared AnimatedMorphCube/glTF-Quantized/AnimatedMorphCube.gltf       draco,variants,gltfpack,blender
AnimatedTriangle            shared AnimatedTriangle/glTF/AnimatedTriangle.gltf                   draco,variants,gltfpack,blender
BoxAnimated                 shared BoxAnimated/glTF-Binary/BoxAnimated.glb                       draco,variants,gltfpack,blender
CesiumMan                   shared CesiumMan/glTF-Binary/CesiumMan.glb                           draco,variants,gltfpack,ktx2,blender,fbx
CesiumMilkTruck             shared CesiumMilkTruck/glTF-Binary/CesiumMilkTruck.glb               draco,variants,gltfpack,ktx2,blender
Fox                         shared Fox/glTF-Binary/Fox.glb                                       draco,variants,gltfpack,ktx2,blender,fbx
InterpolationTest           shared InterpolationTest/glTF-Binary/InterpolationTest.glb           draco,variants,gltfpack,blender
RiggedFigure                shared RiggedFigure/glTF-Binary/RiggedFigure.glb                     draco,variants,gltfpack,blender,fbx
RiggedSimple                shared RiggedSimple/glTF-Binary/RiggedSimple.glb                     draco,variants,gltfpack,blender,fbx
SimpleMorph                 shared SimpleMorph/glTF/SimpleMorph.gltf                             draco,variants,gltfpack,blender
SimpleSkin                  shared SimpleSkin/glTF/SimpleSkin.gltf                               draco,variants,gltfpack,blender,fbx
SimpleSkin-Embedded         shared SimpleSkin/glTF-Embedded/SimpleSkin.gltf                      draco,variants,gltfpack,blender
SimpleSparseAccessor        shared SimpleSparseAccessor/glTF/SimpleSparseAccessor.gltf           draco,variants,gltfpack,blender
Xbot                        shared Xbot/Xbot.glb                                                 draco,variants,gltfpack,blender,fbx
BrainStem                   corpus khronos-sample-models/BrainStem/BrainStem.glb                 draco,variants,gltfpack,blender,fbx
RobotExpressive             corpus three-js-examples/RobotExpressive.glb                         draco,variants,gltfpack,blender,fbx
Michelle                    corpus three-js-examples/Michelle.glb                                draco,variants,gltfpack,ktx2,blender,fbx
mannequiny                  corpus godot-demos/mannequiny.glb                                    draco,variants,gltfpack,fbx
rpm-halfBodyAPIv2           corpus rpm-visage/halfBodyAPIv2.glb                                  draco,variants,gltfpack,ktx2,blender,fbx
godot-platformer-player     corpus godot-demos/platformer/player.glb                             draco,variants,gltfpack,blender,fbx
AnimatedMorphSphere         corpus khronos-sample-models/AnimatedMorphSphere/AnimatedMorphSphere.glb fbx
Soldier                     corpus three-js-examples/Soldier.glb                                 fbx
UinoMan                     corpus t3d-js/UinoMan/UinoMan.gltf                                   fbx
SimpleMeshes                corpus khronos-sample-models/SimpleMeshes/SimpleMeshes.gltf          instance
2CylinderEngine             corpus khronos-sample-models/2CylinderEngine-Draco/2CylinderEngine.gltf instance
Buggy                       corpus khronos-sample-models/Buggy-Draco/Buggy.gltf                  instance
ShapeCollection             corpus gltf-transform/ShapeCollection.glb                            instance
'

# --- bookkeeping -------------------------------------------------------------------------

declare -A listed=()
while IFS=$'\t' read -r path _; do listed[$path]=1; done < <(tail -q -n +2 "$here/MANIFEST.tsv" "$here/FBX-MANIFEST.tsv")
wrote=0 failed=0 dropped=0 missing=0
log=$(mktemp); trap 'rm -f "$log"' EXIT

wanted() { [ "${RIGSCOPE_CORPUS_ALL:-0}" = 1 ] || [ -n "${listed[$1]:-}" ]; }

# Removes an output, and its folder when it sits in a folder of its own (a .gltf with its
# .bin and images).
clear_output() {
  case $1 in
    *-gltf/*.gltf) rm -rf "${corpus:?}/$(dirname "$1")" ;;
    *) rm -f "${corpus:?}/$1" ;;
  esac
}

# run OUT_REL COMMAND...: runs the command (which writes $corpus/OUT_REL) unless the manifest
# does not list OUT_REL; reports what happened.
run() {
  local rel=$1; shift
  wanted "$rel" || return 0
  clear_output "$rel"
  mkdir -p "$(dirname "$corpus/$rel")"
  if "$@" >"$log" 2>&1 && [ -s "$corpus/$rel" ]; then
    echo "wrote   $rel"; wrote=$((wrote + 1))
  else
    echo "FAILED  $rel: $*" >&2; tail -n 5 "$log" >&2; failed=$((failed + 1))
    clear_output "$rel"
  fi
}

# --- tools -------------------------------------------------------------------------------

install_npm_tools() {
  command -v npm >/dev/null || { echo "npm (Node.js 18 or later) is needed" >&2; exit 1; }
  mkdir -p "$tools"
  if ! cmp -s "$here/package-lock.json" "$tools/package-lock.json" ||
     [ ! -x "$tools/node_modules/.bin/gltf-transform" ]; then
    echo "installing pinned npm tools into $tools"
    cp "$here/package.json" "$here/package-lock.json" "$tools/"
    (cd "$tools" && npm ci --no-audit --no-fund --loglevel=error)
  fi
  # ES modules resolve packages from the script's folder, so ktx2.mjs runs from there.
  cp "$here/ktx2.mjs" "$tools/ktx2.mjs"
  gltf_transform=$tools/node_modules/.bin/gltf-transform
  gltfpack=$tools/node_modules/.bin/gltfpack
}

# --- one function per tool -----------------------------------------------------------------

# gltf-transform draco (@gltf-transform/cli 4.5.1, draco3dgltf 1.5.7).
draco_variants() {
  local name=$1 in=$2 d=draco-gltf-transform/$1/$1
  run "$d.draco-edgebreaker.glb"      "$gltf_transform" draco "$in" "$corpus/$d.draco-edgebreaker.glb" --method edgebreaker
  run "$d.draco-sequential.glb"       "$gltf_transform" draco "$in" "$corpus/$d.draco-sequential.glb" --method sequential
  run "$d.draco-eb-enc0-dec0.glb"     "$gltf_transform" draco "$in" "$corpus/$d.draco-eb-enc0-dec0.glb" --method edgebreaker --encode-speed 0 --decode-speed 0
  run "$d.draco-eb-enc10-dec10.glb"   "$gltf_transform" draco "$in" "$corpus/$d.draco-eb-enc10-dec10.glb" --method edgebreaker --encode-speed 10 --decode-speed 10
  run "$d.draco-seq-enc10-dec0.glb"   "$gltf_transform" draco "$in" "$corpus/$d.draco-seq-enc10-dec0.glb" --method sequential --encode-speed 10 --decode-speed 0
  run "$d.draco-q8-low.glb"           "$gltf_transform" draco "$in" "$corpus/$d.draco-q8-low.glb" \
    --quantize-position 8 --quantize-normal 6 --quantize-texcoord 8 --quantize-color 6 --quantize-generic 8
  run "$d.draco-q16-high.glb"         "$gltf_transform" draco "$in" "$corpus/$d.draco-q16-high.glb" \
    --quantize-position 16 --quantize-normal 16 --quantize-texcoord 16 --quantize-color 16 --quantize-generic 16
  run "$d.draco-seq-q14-scenevol.glb" "$gltf_transform" draco "$in" "$corpus/$d.draco-seq-q14-scenevol.glb" \
    --method sequential --quantize-position 14 --quantization-volume scene
  run "draco-gltf-transform/$name/$name.draco-gltf/$name.gltf" \
    "$gltf_transform" draco "$in" "$corpus/draco-gltf-transform/$name/$name.draco-gltf/$name.gltf"
}

# gltf-transform meshopt / quantize / weld (@gltf-transform/cli 4.5.1).
gltf_transform_variants() {
  local g=gltf-transform-variants/$1/$1 in=$2
  run "$g.meshopt.glb"          "$gltf_transform" meshopt "$in" "$corpus/$g.meshopt.glb"
  run "$g.meshopt-medium.glb"   "$gltf_transform" meshopt "$in" "$corpus/$g.meshopt-medium.glb" --level medium
  run "$g.quantize.glb"         "$gltf_transform" quantize "$in" "$corpus/$g.quantize.glb"
  run "$g.quantize-p16-n12.glb" "$gltf_transform" quantize "$in" "$corpus/$g.quantize-p16-n12.glb" \
    --quantize-position 16 --quantize-normal 12 --quantize-texcoord 16
  run "$g.weld.glb"             "$gltf_transform" weld "$in" "$corpus/$g.weld.glb"
}

# gltf-transform instance --min 2 (EXT_mesh_gpu_instancing).
instance_variant() {
  local g=gltf-transform-variants/$1/$1
  run "$g.instance-min2.glb" "$gltf_transform" instance "$2" "$corpus/$g.instance-min2.glb" --min 2
}

# gltfpack 1.3.0 (npm, WebAssembly build; no BasisU).
gltfpack_variants() {
  local name=$1 in=$2 p=gltfpack/$1/$1
  run "$p.gltfpack.glb"                 "$gltfpack" -i "$in" -o "$corpus/$p.gltfpack.glb"
  run "$p.gltfpack-c.glb"               "$gltfpack" -i "$in" -o "$corpus/$p.gltfpack-c.glb" -c
  run "$p.gltfpack-cc.glb"              "$gltfpack" -i "$in" -o "$corpus/$p.gltfpack-cc.glb" -cc
  run "$p.gltfpack-kn-km.glb"           "$gltfpack" -i "$in" -o "$corpus/$p.gltfpack-kn-km.glb" -kn -km
  run "$p.gltfpack-c-vp16-vt16.glb"     "$gltfpack" -i "$in" -o "$corpus/$p.gltfpack-c-vp16-vt16.glb" -c -vp 16 -vt 16
  run "$p.gltfpack-cc-vp10-vt10-vpn.glb" "$gltfpack" -i "$in" -o "$corpus/$p.gltfpack-cc-vp10-vt10-vpn.glb" -cc -vp 10 -vt 10 -vpn
  run "$p.gltfpack-noq.glb"             "$gltfpack" -i "$in" -o "$corpus/$p.gltfpack-noq.glb" -noq
  run "gltfpack/$name/$name.gltfpack-c-kn-km-gltf/$name.gltf" \
    "$gltfpack" -i "$in" -o "$corpus/gltfpack/$name/$name.gltfpack-c-kn-km-gltf/$name.gltf" -c -kn -km
}

# ktx2-encoder 0.6.0 (ETC1S and UASTC, mipmaps), then Draco / meshopt on top.
ktx2_variants() {
  local k=ktx2-encoder/$1/$1 in=$2
  run "$k.ktx2-etc1s.glb" node "$tools/ktx2.mjs" "$in" "$corpus/$k.ktx2-etc1s.glb" etc1s
  run "$k.ktx2-uastc.glb" node "$tools/ktx2.mjs" "$in" "$corpus/$k.ktx2-uastc.glb" uastc
  if [ -s "$corpus/$k.ktx2-etc1s.glb" ]; then
    run "$k.ktx2-etc1s.draco.glb" "$gltf_transform" draco "$corpus/$k.ktx2-etc1s.glb" "$corpus/$k.ktx2-etc1s.draco.glb"
  fi
  if [ -s "$corpus/$k.ktx2-uastc.glb" ]; then
    run "$k.ktx2-uastc.meshopt.glb" "$gltf_transform" meshopt "$corpus/$k.ktx2-uastc.glb" "$corpus/$k.ktx2-uastc.meshopt.glb"
  fi
}

# Blender round-trip: import, export GLB, separate .gltf, embedded .gltf (one Blender run).
blender_roundtrip() {
  local name=$1 in=$2 dir=blender-3.4-roundtrip/$1 rel
  local outs=("$dir/$name.blender.glb" "$dir/$name.blender-gltf/$name.gltf" "$dir/$name.blender-embedded.gltf")
  local any=0
  for rel in "${outs[@]}"; do wanted "$rel" && any=1; done
  [ $any = 1 ] || return 0
  for rel in "${outs[@]}"; do clear_output "$rel"; done
  mkdir -p "$corpus/$dir"
  blender -b --factory-startup --python "$here/blender-roundtrip.py" -- "$in" "$corpus/$dir" "$name" >"$log" 2>&1 || true
  for rel in "${outs[@]}"; do
    if ! wanted "$rel"; then
      clear_output "$rel"; dropped=$((dropped + 1))
    elif [ -s "$corpus/$rel" ]; then
      echo "wrote   $rel"; wrote=$((wrote + 1))
    else
      echo "FAILED  $rel: blender round-trip of $in" >&2; tail -n 5 "$log" >&2; failed=$((failed + 1))
    fi
  done
}

# Blender's FBX export (binary FBX 7400, animations baked): what most FBX files users have look
# like, with the glTF they came from to compare against. Fox also without the exporter's key
# simplification.
blender_fbx() {
  local name=$1 in=$2 rel extra
  for rel in "fbx-blender-export/$name.fbx" "fbx-blender-export/$name-nosimplify.fbx"; do
    wanted "$rel" || continue
    extra=; [[ $rel == *-nosimplify.fbx ]] && extra=nosimplify
    clear_output "$rel"
    blender -b --factory-startup --python "$here/blender-fbx.py" -- "$in" "$corpus/$rel" $extra >"$log" 2>&1 || true
    if [ -s "$corpus/$rel" ]; then
      echo "wrote   $rel"; wrote=$((wrote + 1))
    else
      echo "FAILED  $rel: blender FBX export of $in" >&2; tail -n 5 "$log" >&2; failed=$((failed + 1))
    fi
  done
}

# --- main ----------------------------------------------------------------------------------

install_npm_tools
if [[ $steps == *" blender "* || $steps == *" fbx "* ]]; then
  if ! command -v blender >/dev/null; then
    echo "note: blender is not on PATH; skipping the Blender round-trips and FBX exports"
    steps=${steps/ blender / }; steps=${steps/ fbx / }
  elif ! blender --version 2>/dev/null | grep -q '^Blender 3\.4\.1'; then
    echo "note: the corpus used Blender 3.4.1; this is $(blender --version 2>/dev/null | head -n 1), so its round-trips will differ"
  fi
fi

while read -r name where path makes; do
  [ -n "$name" ] || continue
  [ "$only" = "  " ] || [[ $only == *" $name "* ]] || continue
  case $where in
    shared) in=$assets/gltf/$path ;;
    corpus) in=$corpus/$path ;;
  esac
  if [ ! -f "$in" ]; then
    echo "missing input $in (for $name); skipped"; missing=$((missing + 1)); continue
  fi
  for step in ${makes//,/ }; do
    [[ $steps == *" $step "* ]] || continue
    case $step in
      draco) draco_variants "$name" "$in" ;;
      variants) gltf_transform_variants "$name" "$in" ;;
      instance) instance_variant "$name" "$in" ;;
      gltfpack) gltfpack_variants "$name" "$in" ;;
      ktx2) ktx2_variants "$name" "$in" ;;
      blender) blender_roundtrip "$name" "$in" ;;
      fbx) blender_fbx "$name" "$in" ;;
    esac
  done
done <<<"$INPUTS"

echo "wrote $wrote files; $failed failed; $missing inputs missing; $dropped unlisted duplicates not kept"
[ $failed = 0 ]
