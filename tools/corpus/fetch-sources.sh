#!/usr/bin/env bash
# Fetches the corpus files taken from public repositories: every MANIFEST.tsv and
# FBX-MANIFEST.tsv row whose source is `owner/repo:path` (not `GENERATED: ...`) is copied from
# that repository at the row's commit to CORPUS_DIR/<row path>; a .gltf also gets the .bin and
# image files it names, beside it as its URIs say, and an .obj the .mtl files it names and their
# images where the repository has them (some OBJ files name files that were never there).
#
#   tools/corpus/fetch-sources.sh CORPUS_DIR
#
# Needs git (2.27 or later) and python3. Each repository is fetched once per commit, shallow and
# without file contents (--depth 1 --filter=blob:none); only the listed files are then read,
# so even the large repositories cost little. Clones are kept in $RIGSCOPE_CORPUS_CLONES
# (default ${XDG_CACHE_HOME:-$HOME/.cache}/rigscope-corpus-clones). Where repositories come
# from: $RIGSCOPE_CORPUS_GIT_URL, with {repo} for owner/name, {owner} and {name} (default
# https://github.com/{repo}.git).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ $# -eq 1 ] || { echo "usage: $0 CORPUS_DIR" >&2; exit 2; }
mkdir -p "$1"
corpus=$(cd "$1" && pwd)
clones=${RIGSCOPE_CORPUS_CLONES:-${XDG_CACHE_HOME:-$HOME/.cache}/rigscope-corpus-clones}
github='https://github.com/{repo}.git'
url_template=${RIGSCOPE_CORPUS_GIT_URL:-$github}
ok=0 failed=0

# A clone of REPO holding COMMIT (without blobs; they come when read). Prints its folder.
clone_at() {
  local repo=$1 commit=$2 dir=$clones/${1/\//+} url
  url=${url_template//\{repo\}/$repo}
  url=${url//\{owner\}/${repo%%/*}}
  url=${url//\{name\}/${repo#*/}}
  if [ ! -d "$dir/.git" ]; then
    git init --quiet "$dir" || return 1
    git -C "$dir" remote add origin "$url" || return 1
    git -C "$dir" config remote.origin.promisor true
    git -C "$dir" config remote.origin.partialclonefilter blob:none
  fi
  if ! git -C "$dir" cat-file -e "$commit^{commit}" 2>/dev/null; then
    git -C "$dir" fetch --quiet --depth 1 --filter=blob:none origin "$commit" </dev/null >&2 || return 1
  fi
  echo "$dir"
}

# copy DIR COMMIT REPO_PATH DEST: the file at REPO_PATH in COMMIT, written to DEST.
copy() {
  mkdir -p "$(dirname "$4")"
  git -C "$1" cat-file blob "$2:$3" </dev/null >"$4.part" && mv "$4.part" "$4" || { rm -f "$4.part"; return 1; }
}

# The files a .gltf names (buffers, images; not data: URIs), one per line:
# URI as a relative path <TAB> path in the repository.
gltf_dependencies() {
  python3 - "$1" "$2" <<'EOF'
import json, posixpath, sys, urllib.parse
gltf, repo_path = sys.argv[1], sys.argv[2]
doc = json.load(open(gltf, encoding='utf-8-sig'))
for key in ('buffers', 'images'):
    for item in doc.get(key, []):
        uri = item.get('uri')
        if not uri or uri.startswith('data:'):
            continue
        rel = posixpath.normpath(urllib.parse.unquote(uri))
        if rel.startswith('../') or rel.startswith('/'):
            sys.exit('%s: %s is outside its folder' % (gltf, uri))
        print(rel + '\t' + posixpath.normpath(posixpath.join(posixpath.dirname(repo_path), rel)))
EOF
}

# The .mtl files an .obj names, or the images an .mtl names, one per line: the name as a
# relative path <TAB> path in the repository.
obj_dependencies() {
  python3 - "$1" "$2" <<'EOF'
import posixpath, sys
text, repo_path = open(sys.argv[1], 'rb').read().decode('utf-8', 'replace'), sys.argv[2]
for line in text.splitlines():
    words = line.split()
    if not words or not (words[0] == 'mtllib' or words[0].startswith('map_') or words[0] in ('bump', 'disp', 'norm')):
        continue
    names = words[1:] if words[0] == 'mtllib' else words[-1:]
    for name in names:
        rel = posixpath.normpath(name.replace('\\', '/'))
        if not rel.startswith('../') and not rel.startswith('/'):
            print(rel + '\t' + posixpath.normpath(posixpath.join(posixpath.dirname(repo_path), rel)))
EOF
}

# The files beside an .obj: its .mtl files, then their images; best effort.
copy_obj_sidecars() {
  local dir=$1 commit=$2 repo_path=$3 dest=$4 rel dep_path
  while IFS=$'\t' read -r rel dep_path; do
    [ -n "$rel" ] || continue
    copy "$dir" "$commit" "$dep_path" "$(dirname "$dest")/$rel" 2>/dev/null || continue
    [[ $rel == *.mtl ]] && copy_obj_sidecars "$dir" "$commit" "$dep_path" "$(dirname "$dest")/$rel"
  done < <(obj_dependencies "$dest" "$repo_path")
  return 0
}

while IFS=$'\t' read -r path source commit _; do
  case $source in GENERATED:*) continue ;; esac
  repo=${source%%:*} repo_path=${source#*:}
  dest=$corpus/$path
  if dir=$(clone_at "$repo" "$commit") && copy "$dir" "$commit" "$repo_path" "$dest"; then
    status=ok
    if [[ $path == *.gltf ]]; then
      if deps=$(gltf_dependencies "$dest" "$repo_path"); then
        while IFS=$'\t' read -r rel dep_path; do
          [ -n "$rel" ] || continue
          copy "$dir" "$commit" "$dep_path" "$(dirname "$dest")/$rel" || status=failed
        done <<<"$deps"
      else
        status=failed
      fi
    elif [[ $path == *.obj ]]; then
      copy_obj_sidecars "$dir" "$commit" "$repo_path" "$dest"
    fi
  else
    status=failed
  fi
  if [ $status = ok ]; then
    echo "fetched $path"; ok=$((ok + 1))
  else
    echo "FAILED  $path ($repo@$commit:$repo_path)" >&2; failed=$((failed + 1))
  fi
done < <(tail -q -n +2 "$here/MANIFEST.tsv" "$here/FBX-MANIFEST.tsv")

echo "fetched $ok files; $failed failed"
[ $failed = 0 ]
