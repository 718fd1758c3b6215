#!/usr/bin/env bash
# Dumps every Draco primitive of every glTF, GLB and VRM file under FOLDER, as Google's decoder
# gives them to three.js, into OUT/<one folder per file>. Then compare with rigscope's decoder:
#   RIGSCOPE_DRACO_REFERENCE=OUT cargo test --lib byte_for_byte -- --ignored --nocapture
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 FOLDER OUT" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
[ -d "$here/node_modules/draco3dgltf" ] || (cd "$here" && npm install --no-audit --no-fund >/dev/null)
mkdir -p "$2"
find "$1" -type f \( -iname '*.glb' -o -iname '*.gltf' -o -iname '*.vrm' \) -print0 | sort -z |
  while IFS= read -r -d '' file; do
    # Only files that name the extension.
    grep -aq KHR_draco_mesh_compression "$file" || continue
    name=$(realpath --relative-to="$1" "$file" | tr '/ ' '__')
    node "$here/draco-dump.js" "$file" "$2/$name" >/dev/null 2>&1 || echo "$file: some primitives failed in Google's decoder too (see $2/$name/index.json)"
  done
echo "dumps in $2"
