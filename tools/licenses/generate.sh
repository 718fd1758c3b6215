#!/usr/bin/env bash
# Regenerates the licences of everything compiled into rigscope from Cargo.lock: run it after
# any change to the dependencies (tests/integration/licenses.rs fails until it is run).
#
# - assets/THIRD-PARTY-LICENSES.txt: printed by `rigscope --licenses` (embedded at build time);
# - tools/deb/copyright: the Debian package's copyright file, in Debian's machine-readable format.
#
# cargo-about reads each crate's licence files (installed here when missing); render.py adds
# the C and C++ libraries the crates build, and writes both files.
#
#   tools/licenses/generate.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

command -v cargo-about >/dev/null 2>&1 || cargo install cargo-about --locked --features cli --version 0.9.3

# cargo-about's findings are kept in target/, so that render.py can be rerun alone (cargo-about
# takes minutes). It would look for about.toml beside Cargo.toml: it is pointed at ours.
about_json=target/licenses/about.json
mkdir -p target/licenses
cargo about generate --locked --fail --format json --config tools/licenses/about.toml \
  --output-file "$about_json"
python3 tools/licenses/render.py "$about_json" .
echo "wrote assets/THIRD-PARTY-LICENSES.txt and tools/deb/copyright"
