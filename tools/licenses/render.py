#!/usr/bin/env python3
"""Writes the licence files of rigscope's binary from cargo-about's JSON (tools/licenses/generate.sh):

- assets/THIRD-PARTY-LICENSES.txt, which `rigscope --licenses` prints: every crate compiled in with
  its licence, the C and C++ libraries those crates build, and every licence text they ship;
- tools/deb/copyright, the Debian package's copyright file in Debian's machine-readable format
  (https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/).

    render.py ABOUT.json ROOT
"""

import json
import re
import sys
import textwrap
from pathlib import Path

# The C and C++ code built into the binary, or ported to Rust from it, beyond what the crates'
# own licence covers: (library, crate, what it does, SPDX licence, copyright, where its licence
# text is: in the crate's source, or a copy in tools/licenses/texts when the crate ships none).
NATIVE_LIBRARIES = [
    ("ufbx", "ufbx", "C, built by the crate: reads FBX and OBJ", "MIT OR Unlicense",
     "Copyright (c) 2022 Samuli Raivio", ("copy", "ufbx-LICENSE")),
    ("meshoptimizer", "meshopt", "C++, built by the crate: meshopt decoding, simplification", "MIT",
     "Copyright (c) 2016-2026 Arseny Kapoulkine", ("comment", "vendor/src/meshoptimizer.h")),
    ("OpenH264", "openh264-sys2", "C++, built by the crate: the H.264 encoder of MP4 exports",
     "BSD-2-Clause", "Copyright (c) 2013, Cisco Systems", ("file", "upstream/LICENSE")),
    ("Draco", "draco-core", "ported to Rust by the crate from Google's Draco 1.5.7", "Apache-2.0",
     "Copyright the Draco authors (Google LLC)", None),
    ("Basis Universal transcoder", "basisu", "ported to Rust by the crate from Binomial's transcoder",
     "Apache-2.0", "Copyright Binomial LLC", None),
]

# Licences whose text Debian ships in /usr/share/common-licenses (the copyright file points there).
DEBIAN_COMMON_LICENSES = {"Apache-2.0": "Apache-2.0", "CC0-1.0": "CC0-1.0"}

WIDTH = 100


def crate_key(package):
    return (package["name"], package["version"])


def native_text(package, source):
    """The licence text of a native library, as its crate's source (or our copy) holds it."""
    kind, path = source
    if kind == "copy":
        return (Path(__file__).parent / "texts" / path).read_text()
    crate_dir = Path(package["manifest_path"]).parent
    text = (crate_dir / path).read_text()
    if kind == "file":
        return text
    # The last comment block that grants the licence, without its comment markers.
    blocks = re.findall(r"/\*\*?(.*?)\*/", text, re.S)
    block = next(b for b in reversed(blocks) if "Permission is hereby granted" in b)
    return "\n".join(re.sub(r"^\s*\* ?", "", line) for line in block.strip("\n").splitlines()).strip() + "\n"


def wrap(text):
    return "\n".join(textwrap.wrap(text, WIDTH)) + "\n"


def third_party_text(about, root_package, natives):
    """assets/THIRD-PARTY-LICENSES.txt."""
    licenses = about["licenses"]
    # Each crate's licence texts, by their numbers in the list of texts.
    texts_of = {}
    for number, license in enumerate(licenses, 1):
        for used in license["used_by"]:
            texts_of.setdefault(crate_key(used["crate"]), []).append(number)
    crates = sorted(
        {crate_key(c["package"]): c["package"] for c in about["crates"]}.values(),
        key=lambda p: (p["name"].lower(), p["version"]),
    )
    crates = [p for p in crates if p["name"] != root_package["name"]]
    out = []
    title = "Licences of rigscope and of the code compiled into it"
    out += [title, "=" * len(title), ""]
    out.append(wrap(
        f"rigscope {root_package['version']} is copyright the rigscope developers and licensed under "
        "the MIT licence or the Apache License 2.0, at your option (LICENSE-MIT and LICENSE-APACHE in "
        "its source; both texts are below). Its binary also holds the code of the Rust crates and "
        "the C and C++ libraries listed here, each under the licence named, whose texts follow "
        "the lists (a crate that offers a choice of licences is listed with all of them and its "
        "texts of the one chosen)."
    ))
    out.append(wrap(
        "Generated from Cargo.lock by tools/licenses/generate.sh with cargo-about, for the "
        "platforms rigscope is built for (Linux, Windows, macOS); do not edit it by hand."
    ))
    heading = f"Rust crates ({len(crates)})"
    out += [heading, "-" * len(heading), ""]
    # Crates are named `name vVERSION`, as cargo names them: lintian takes "deflate 1.0" in a
    # binary for a copy of zlib (fdeflate's entry would read so).
    for package in crates:
        numbers = ", ".join(f"[{n}]" for n in texts_of.get(crate_key(package), []))
        out.append(f"{package['name']} v{package['version']}: {package['license']} {numbers}".rstrip())
    out.append("")
    heading = "C and C++ libraries in those crates"
    out += [heading, "-" * len(heading), ""]
    for library, package, what, license, copyright, text in natives:
        out.append(f"{library} (in {package['name']} v{package['version']}; {what}): {license}")
        out.append(f"  {copyright}")
        if text:
            out += ["", textwrap.indent(text.strip("\n"), "  "), ""]
    out.append("")
    heading = "Licence texts"
    out += [heading, "-" * len(heading), ""]
    for number, license in enumerate(licenses, 1):
        users = ", ".join(f"{u['crate']['name']} v{u['crate']['version']}" for u in license["used_by"])
        out.append(f"[{number}] {license['name']} ({license['id']}), used by {users}")
        out.append("")
        out.append(license["text"].strip("\n"))
        out.append("")
    return "\n".join(out).replace("\r\n", "\n")


def dep5_field(text):
    """A licence text as the body of a copyright-format field: one space in, blank lines as ` .`."""
    lines = []
    for line in text.replace("\r\n", "\n").strip("\n").splitlines():
        line = line.rstrip().replace("\t", "    ")
        lines.append(" " + line if line else " .")
    return "\n".join(lines)


def copyright_lines(text):
    """The copyright notices a licence text carries (the lines that start with `Copyright`)."""
    return [
        line.strip()
        for line in text.splitlines()
        if re.match(r"\s*(Copyright\s*(\(c\)|©|\d)|\(c\)\s*\d|©)", line, re.I)
        and not re.search(r"<year>|<copyright|\[yyyy\]|\{yyyy\}|\[name of", line, re.I)
    ]


def debian_copyright(about, root_package, natives):
    """tools/deb/copyright."""
    licenses = about["licenses"]
    notices = {}
    # The licences cargo-about chose for each crate: one of a choice (`MIT OR Apache-2.0`), all
    # of a conjunction. The copyright file states those; its Comment what the crate offers.
    chosen = {}
    # The generic text of each licence: the one most crates ship, its copyright lines left out
    # (each crate's own notices are in its Files paragraph).
    generic = {}
    for license in licenses:
        for used in license["used_by"]:
            notices.setdefault(crate_key(used["crate"]), []).extend(copyright_lines(license["text"]))
            ids = chosen.setdefault(crate_key(used["crate"]), [])
            if license["id"] not in ids:
                ids.append(license["id"])
        body = "\n".join(l for l in license["text"].splitlines() if l.strip() not in copyright_lines(license["text"]))
        generic.setdefault(license["id"], {}).setdefault(body.strip(), 0)
        generic[license["id"]][body.strip()] += len(license["used_by"])
    out = [
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/",
        "Upstream-Name: rigscope",
        "Upstream-Contact: The rigscope developers <rigscope@users.noreply.github.com>",
        f"Source: {root_package['repository']}",
        "Comment: /usr/bin/rigscope is built from rigscope's source and the Rust crates below,",
        " each named by the folder Cargo unpacks it into (cargo-registry/NAME-VERSION), and the C and",
        " C++ libraries those crates build. Generated from Cargo.lock by tools/licenses/generate.sh;",
        " `rigscope --licenses` prints the same list with every crate's own licence texts.",
        "",
        "Files: *",
        "Copyright: 2026 the rigscope developers",
        "License: MIT or Apache-2.0",
        "",
    ]
    used_names = {"MIT", "Apache-2.0"}
    crates = sorted(
        {crate_key(c["package"]): c["package"] for c in about["crates"]}.values(),
        key=lambda p: (p["name"].lower(), p["version"]),
    )
    for package in crates:
        if package["name"] == root_package["name"]:
            continue
        key = crate_key(package)
        holders = list(dict.fromkeys(notices.get(key, []))) or [
            ", ".join(package["authors"]) or f"the {package['name']} authors"
        ]
        names = chosen.get(key)
        if not names:
            sys.exit(f"render.py: cargo-about chose no licence for {package['name']} {package['version']}")
        used_names |= set(names)
        out.append(f"Files: cargo-registry/{package['name']}-{package['version']}/*")
        out.append("Copyright: " + "\n ".join(holders))
        out.append("License: " + " and ".join(names))
        out.append(f"Comment: The crate's licence: {package['license']}.")
        out.append("")
    for library, package, what, license, copyright, text in natives:
        # The first of a choice; the library's own text where it has one.
        name = license.split(" OR ")[0]
        out.append(f"Files: cargo-registry/{package['name']}-{package['version']}/{library}/*")
        out.append(f"Copyright: {copyright}")
        if text:
            out.append(f"License: {name}\n" + dep5_field(text))
        else:
            used_names.add(name)
            out.append(f"License: {name}")
        out.append(f"Comment: {library}, {what}; its licence: {license}.")
        out.append("")
    for name in sorted(used_names):
        out.append(f"License: {name}")
        if name in DEBIAN_COMMON_LICENSES:
            out.append(f" On Debian systems, the complete text of this licence is in")
            out.append(f" /usr/share/common-licenses/{DEBIAN_COMMON_LICENSES[name]}.")
        else:
            texts = generic.get(name)
            if not texts:
                sys.exit(f"render.py: no text of the {name} licence among the crates' licences")
            out.append(dep5_field(max(texts.items(), key=lambda t: t[1])[0]))
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def main():
    about = json.loads(Path(sys.argv[1]).read_text())
    root = Path(sys.argv[2])
    by_name = {}
    for crate in about["crates"]:
        by_name.setdefault(crate["package"]["name"], crate["package"])
    root_package = by_name["rigscope"]
    natives = []
    for library, crate, what, license, copyright, source in NATIVE_LIBRARIES:
        package = by_name[crate]
        natives.append((library, package, what, license, copyright, source and native_text(package, source)))
    (root / "assets" / "THIRD-PARTY-LICENSES.txt").write_text(third_party_text(about, root_package, natives))
    (root / "tools" / "deb" / "copyright").write_text(debian_copyright(about, root_package, natives))


if __name__ == "__main__":
    main()
