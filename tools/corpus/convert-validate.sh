#!/usr/bin/env bash
# Converts every model file under the given folders with `rigscope convert`, and checks each
# output with the Khronos glTF-Validator: what shows that what rigscope writes from other
# programs' files is valid glTF.
#
#   tools/corpus/convert-validate.sh CORPUS_DIR [MORE_DIRS...]
#
# Model files are found by extension (.glb .gltf .vrm .vrma .fbx .obj .md5mesh .md5camera, in
# any case). Each is converted on its own (`rigscope convert --json IN -o OUT`, so that one
# refusal or crash stops nothing else) to OUT_DIR/<folder>/<path>.glb, or .vrm and .vrma for
# VRM avatars and animations, as `convert --out-dir` names them; the full name is kept so that
# `x.gltf` and `x.glb` beside it do not overwrite each other. Then one validator process reads
# every output (tools/validate/validate.mjs; `npm ci --prefix tools/validate` installs it).
#
# Prints one line per file:
#   ok       PATH: N clips; validator: E errors, W warnings [CODE xN, ...]
#   refused  PATH: rigscope's reason            (exit status 1: the file was judged unusable)
#   CRASHED  PATH: exit status and last line    (anything else: a panic, a timeout, a signal)
# and then the totals, with every validator code and how many outputs have it. Exit status 0
# when nothing crashed and every output was validated without an error, 1 otherwise.
#
# Environment: RIGSCOPE, the binary (default target/release/rigscope where built, else
# target/debug/rigscope); RIGSCOPE_CONVERT_OUT, where outputs go (default a new folder under
# /tmp, named in the totals); RIGSCOPE_CONVERT_TIMEOUT, seconds per file (default 600).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 CORPUS_DIR [MORE_DIRS...]" >&2; exit 2; }
rigscope=${RIGSCOPE:-}
if [ -z "$rigscope" ]; then
  rigscope=$repo/target/release/rigscope
  [ -x "$rigscope" ] || rigscope=$repo/target/debug/rigscope
fi
[ -x "$rigscope" ] || { echo "no rigscope binary at $rigscope (cargo build, or set RIGSCOPE)" >&2; exit 2; }
[ -f "$repo/tools/validate/node_modules/gltf-validator/package.json" ] ||
  { echo "the validator is not installed: npm ci --prefix $repo/tools/validate" >&2; exit 2; }
out=${RIGSCOPE_CONVERT_OUT:-$(mktemp -d /tmp/rigscope-convert-validate.XXXXXX)}
mkdir -p "$out"
timeout_s=${RIGSCOPE_CONVERT_TIMEOUT:-600}
records=$out/records.tsv # input <TAB> output <TAB> status <TAB> detail (the JSON line, or the reason)
: >"$records"

# The output's extension: VRM avatars and animations stay VRM; everything else becomes GLB.
output_extension() {
  case ${1,,} in
    *.vrm) echo vrm ;;
    *.vrma) echo vrma ;;
    *) echo glb ;;
  esac
}

for dir in "$@"; do
  root=$(cd "$dir" && pwd)
  base=$(basename "$root")
  while IFS= read -r -d '' input; do
    rel=${input#"$root"/}
    output=$out/$base/$rel.$(output_extension "$rel")
    mkdir -p "$(dirname "$output")"
    rm -f "$output"
    status=0
    json=$(timeout "$timeout_s" "$rigscope" convert --json "$input" -o "$output" 2>"$out/stderr") || status=$?
    reason=$(tr '\t\n' '  ' <"$out/stderr" | sed 's/^rigscope: //; s/ *$//')
    if [ $status = 0 ]; then
      printf '%s\t%s\tok\t%s\n' "$base/$rel" "$output" "$json" >>"$records"
    elif [ $status = 1 ]; then
      printf '%s\t%s\trefused\t%s\n' "$base/$rel" "$output" "${reason#"$input": }" >>"$records"
    else
      printf '%s\t%s\tCRASHED\texit status %s: %s\n' "$base/$rel" "$output" "$status" "${reason: -300}" >>"$records"
    fi
  done < <(find "$root" -type f -regextype posix-extended \
    -iregex '.*\.(glb|gltf|vrm|vrma|fbx|obj|md5mesh|md5camera)' -print0 | sort -z)
done

# One validator run over every output (it takes a while to start); one JSON line per file.
awk -F'\t' '$3 == "ok" { print $2 }' "$records" | tr '\n' '\0' |
  xargs -0 -r node "$repo/tools/validate/validate.mjs" >"$out/validator.jsonl" || true

python3 - "$records" "$out/validator.jsonl" "$out" <<'EOF'
import collections, json, sys

records_path, validator_path, out = sys.argv[1:4]
reports = {}
for line in open(validator_path, encoding='utf-8'):
    report = json.loads(line)
    reports[report['file']] = report
counts = collections.Counter()
codes = {0: collections.Counter(), 1: collections.Counter()}
for line in open(records_path, encoding='utf-8'):
    name, output, status, detail = line.rstrip('\n').split('\t', 3)
    counts['files'] += 1
    if status != 'ok':
        counts[status] += 1
        print(f'{status:<8} {name}: {detail}')
        continue
    counts['converted'] += 1
    clips = json.loads(detail).get('clips', 0)
    report = reports.get(output)
    if report is None or 'failure' in report:
        counts['unvalidated'] += 1
        why = report['failure'] if report else 'no validator report'
        print(f'{"ok":<8} {name}: {clips} clips; NOT VALIDATED: {why}')
        continue
    seen = collections.Counter(m['code'] for m in report['messages'] if m['severity'] <= 1)
    for severity in (0, 1):
        for code in {m['code'] for m in report['messages'] if m['severity'] == severity}:
            codes[severity][code] += 1
    counts['with errors'] += report['errors'] > 0
    counts['with warnings'] += report['warnings'] > 0
    listed = ', '.join(f'{code} x{n}' for code, n in sorted(seen.items()))
    print(f'{"ok":<8} {name}: {clips} clips; validator: {report["errors"]} errors, '
          f'{report["warnings"]} warnings' + (f' [{listed}]' if listed else ''))
print(f'\ntotals: {counts["files"]} files, {counts["converted"]} converted, {counts["refused"]} refused, '
      f'{counts["CRASHED"]} crashed; outputs (in {out}): {counts["with errors"]} with validator errors, '
      f'{counts["with warnings"]} with warnings, {counts["unvalidated"]} not validated')
for severity, label in ((0, 'error'), (1, 'warning')):
    for code, n in sorted(codes[severity].items(), key=lambda item: (-item[1], item[0])):
        print(f'  {label} {code}: {n} outputs')
sys.exit(1 if counts['with errors'] or counts['CRASHED'] or counts['unvalidated'] else 0)
EOF
