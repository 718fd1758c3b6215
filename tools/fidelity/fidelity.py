#!/usr/bin/env python3
"""The fidelity table (docs/FIDELITY.md): three.js r187 (three-vrm 3.5.5 for VRM files) against rigscope on real
files, both lit only by three.js's RoomEnvironment, through rigscope's default `render` view.

    fidelity.py three OUT_DIR            the reference pictures (10-20 s each), drawn by tools/peer-vrm's
                                         render-vrm.mjs; VRM rows also NAME.gi.png, with MToon's GI equalisation
                                         applied as the specification says (three-vrm 3.5.5 leaves it out)
    fidelity.py rigscope BINARY OUT_DIR  rigscope's pictures (`render --environment room-blurred.hdr --lights file
                                         --no-grid`)
    fidelity.py table THREE_DIR RIG_DIR [BEFORE_DIR]  the Markdown table: per file, inside the model (the pixels
                                         that are model in both pictures, shrunk by 2 px, as interior-diff.py), the
                                         mean and 95th percentile of |rigscope - three.js| and the mean signed
                                         difference (positive: rigscope brighter), with BEFORE_DIR's (an earlier
                                         build's pictures, against the same reference) beside them when given;
                                         then the VRM rows against the GI-equalised pictures, the summary line,
                                         and a warning when the two sides' backgrounds differ (see BACKGROUND)

Both sides keep a picture only while what made it is unchanged (NAME.png.key: the command, and the peer's page or
rigscope's binary and its room, by size and time), so a rerun after a rebuild draws again and otherwise only adds
new files.

The peer is one three.js page for every row (render-vrm.mjs --environment room): the scene of peer-three's
render.mjs (RoomEnvironment's PMREM as scene.environment, Neutral tone mapping, the file's lights), with
rigscope's framing rule (node origins count only for a model without vertices; render.mjs always counts them,
which framed some files smaller) and three-vrm's loader plugin (MToon, outlines, VRM 0.x turned to face +Z; MToon
is lit by a light probe of the same room, since it reads no environment map). The file's lights cast shadows on
both sides (rigscope always shadows its file lights). A normal-mapped mesh without tangents gets MikkTSpace tangents
on both sides, as glTF asks (`--mikktspace`: GLTFLoader would build its frame from screen-space derivatives), and
the peer's background is the one rigscope shows (BACKGROUND), so that dark parts of a model count as model in both
pictures or in neither. A row marked `rest` in files.txt is drawn in its rest pose on both sides (`--pose-mode
rest`, `--clip none`): its first clip animates what three.js does not read.

The files are listed in files.txt beside this script ($FIDELITY_FILES replaces it) and read where they lie
($RIGSCOPE_CORPUS, default /tmp/rigscope-corpus; $RIGSCOPE_ASSETS, default ../shared/assets); nothing is copied.
$PEER_VRM is a copy of tools/peer-vrm with its node_modules installed (`cp -r tools/peer-vrm /tmp/peer-vrm && cd
/tmp/peer-vrm && npm install`; the script refuses a copy whose render-vrm page differs from the repository's);
$PEER_THREE is peer-three's installed folder (default ../shared/peer-three), whose room-hdr.mjs writes the room's
.hdr once into rigscope's OUT_DIR, unblurred; room_blur.py blurs it there as the page's PMREMGenerator.fromScene(room,
0.04) does (room-blurred.hdr), and that is the room rigscope is lit by."""
import hashlib, json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
VIEW = ["--azimuth", "28.6479", "--elevation", "14.3239", "--fov", "40", "--margin", "1.1"]
SIZE = "800x600"
# The peer's background: the one rigscope's pictures show. rigscope clears its scene to (0.045, 0.05, 0.06) linear
# before tone mapping, so under Neutral its background is #1e242e, not the #3c3f45 the colour is without a curve. The
# model masks (model_mask) are the pixels more than 8 levels from the background, so two backgrounds would make them
# differ wherever the model is dark: the peer's #3c3f45 dropped black boots, claws and eyes from its mask alone.
BACKGROUND = "#1e242e"
PEER_PAGE = ("render-vrm.mjs", "render-vrm.html")


def files():
    """(kind, absolute path, short name, rest) for each line of files.txt: `KIND PATH [rest]`."""
    corpus = os.environ.get("RIGSCOPE_CORPUS", "/tmp/rigscope-corpus")
    assets = os.environ.get("RIGSCOPE_ASSETS", os.path.join(HERE, "..", "..", "..", "shared", "assets"))
    for line in open(os.environ.get("FIDELITY_FILES", os.path.join(HERE, "files.txt"))):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        kind, path, *marks = words
        full = os.path.join(assets, path[len("assets:"):]) if path.startswith("assets:") else os.path.join(corpus, path)
        yield kind, os.path.abspath(full), path.replace("assets:", "").replace("/", "~"), "rest" in marks


def toon(kind):
    """Whether a row's KIND (comma-separated) says VRM (vrm0, vrm1) or MToon: drawn with its springs at rest, and
    also against the GI-equalised MToon."""
    return any(word.startswith("vrm") or word == "mtoon" for word in kind.split(","))


def outcome(done):
    """"ok", or "failed:" and the last line the renderer wrote to standard error."""
    if done.returncode == 0:
        return "ok"
    lines = done.stderr.strip().splitlines()
    return "failed: " + (lines[-1] if lines else f"exit status {done.returncode}")


def stamp(path):
    """What identifies a program's version without reading it: its size and modification time."""
    status = os.stat(path)
    return f"{status.st_size}:{status.st_mtime_ns}"


def draw(png, command, made_by):
    """Runs `command` (which writes `png`) unless `png` was made by the same command from the same `made_by`; a
    failed command leaves no picture."""
    key_path = png + ".key"
    key = hashlib.sha1(json.dumps([command, made_by]).encode()).hexdigest()
    if os.path.exists(png) and os.path.exists(key_path) and open(key_path).read() == key:
        return
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode == 0:
        with open(key_path, "w") as out:
            out.write(key)
    else:  # an older picture would be measured as if it were this command's
        for stale in (png, key_path):
            if os.path.exists(stale):
                os.remove(stale)
    print(os.path.basename(png), outcome(done), flush=True)


def peer_vrm():
    """The installed copy of tools/peer-vrm; exits when it lacks node_modules or its page differs from ours."""
    peer = os.path.abspath(os.environ.get("PEER_VRM", os.path.join(HERE, "..", "peer-vrm")))
    if not os.path.isdir(os.path.join(peer, "node_modules")):
        sys.exit(f"{peer} has no node_modules: cp -r tools/peer-vrm /tmp/peer-vrm && "
                 "(cd /tmp/peer-vrm && npm install), "
                 "then PEER_VRM=/tmp/peer-vrm")
    for name in PEER_PAGE:
        mine = open(os.path.join(HERE, "..", "peer-vrm", name), "rb").read()
        if open(os.path.join(peer, name), "rb").read() != mine:
            sys.exit(f"{peer}/{name} differs from tools/peer-vrm/{name}: copy it again")
    return peer


def peer_three():
    return os.path.abspath(os.environ.get("PEER_THREE", os.path.join(HERE, "..", "..", "..", "shared", "peer-three")))


def render_three(out):
    peer = peer_vrm()
    made_by = [stamp(os.path.join(peer, name)) for name in PEER_PAGE]
    os.makedirs(out, exist_ok=True)
    for kind, path, name, rest in files():
        command = ["node", os.path.join(peer, "render-vrm.mjs"), path, "--size", SIZE, *VIEW, "--frame", "clip",
                   "--background", BACKGROUND, "--clip", "none" if rest else "0", "--environment", "room",
                   "--light-intensity", "0", "--tone-mapping", "neutral", "--shadows", "--mikktspace"]
        png = os.path.join(out, name + ".png")
        draw(png, [*command, "-o", png], made_by)
        if toon(kind):
            png = os.path.join(out, name + ".gi.png")
            draw(png, [*command, "--gi-equalization", "-o", png], made_by)


def room_hdr(out):
    """OUT_DIR's room.hdr: three.js's room as room-hdr.mjs captures it, before the page's blur."""
    hdr = os.path.join(out, "room.hdr")
    if not os.path.exists(hdr):
        subprocess.run(["node", os.path.join(peer_three(), "room-hdr.mjs"), hdr], check=True, capture_output=True)
    return hdr


def blurred_room(out):
    """OUT_DIR's room-blurred.hdr, the room as three.js's page lights with it: made again when older than room.hdr
    or room_blur.py."""
    import room_blur
    hdr, blurred = room_hdr(out), os.path.join(out, "room-blurred.hdr")
    made_from = max(os.stat(path).st_mtime_ns for path in (hdr, room_blur.__file__))
    if not os.path.exists(blurred) or os.stat(blurred).st_mtime_ns < made_from:
        room_blur.write_hdr(blurred, room_blur.blurred(room_blur.read_hdr(hdr)))
    return blurred


def render_rigscope(binary, out):
    os.makedirs(out, exist_ok=True)
    hdr = blurred_room(out)
    for kind, path, name, rest in files():
        png = os.path.join(out, name + ".png")
        # VRM springs stay at rest, as the peer leaves them.
        extra = (["--pose-mode", "rest"] if rest else []) + (["--no-springs"] if toon(kind) else [])
        command = [binary, "render", path, "-o", png, "--size", SIZE, "--environment", hdr, "--lights", "file",
                   "--no-grid", *extra]
        draw(png, command, [stamp(binary), stamp(hdr)])


def levels(png):
    """A PNG's RGB levels as a height x width x 3 array of ints."""
    import numpy as np
    from PIL import Image
    return np.asarray(Image.open(png).convert("RGB")).astype(int)


def model_mask(rgb):
    """Where a picture shows the model: more than 8 levels from the background (its corner) in some channel."""
    import numpy as np
    return np.abs(rgb - rgb[0, 0]).max(2) > 8


def shrunk(mask, pixels):
    """`mask` less every pixel within `pixels` steps (4-neighbour) of its outside."""
    import numpy as np
    for _ in range(pixels):
        p = np.pad(mask, 1)
        mask = p[1:-1, 1:-1] & p[:-2, 1:-1] & p[2:, 1:-1] & p[1:-1, :-2] & p[1:-1, 2:]
    return mask


def interior(rig_png, three_png):
    """(mean |difference|, its 95th percentile, mean signed difference) inside the model, or None."""
    import numpy as np
    a, b = levels(rig_png), levels(three_png)
    inside = shrunk(model_mask(a) & model_mask(b), 2)
    if not inside.any():
        return None
    d = (a - b)[inside]
    return np.abs(d).mean(), np.percentile(np.abs(d), 95), d.mean()


def measure(three_png, rig_png):
    """interior() when both pictures exist, else None."""
    if not rig_png or not os.path.exists(rig_png) or not os.path.exists(three_png):
        return None
    return interior(rig_png, three_png)


def backgrounds_differ(three_png, rig_png):
    """Whether both pictures exist and their corners (the background) differ by more than 2 levels: then their model
    masks differ wherever the model is near one background and not the other."""
    import numpy as np
    if not rig_png or not os.path.exists(rig_png) or not os.path.exists(three_png):
        return False
    return np.abs(levels(three_png)[0, 0] - levels(rig_png)[0, 0]).max() > 2


def cells(m):
    return ("–", "–", "–") if m is None else (f"{m[0]:.1f}", f"{m[1]:.0f}", f"{m[2]:+.1f}")


def table(three, rig, before=None):
    rows = list(files())
    picture = lambda directory, name, suffix=".png": os.path.join(directory, name + suffix) if directory else None
    now = {name: measure(picture(three, name), picture(rig, name)) for _, _, name, _ in rows}
    print("| File | Kind | mean | p95 | signed |" + (" before: mean | p95 | signed |" if before else ""))
    print("|---|---|---:|---:|---:|" + ("---:|---:|---:|" if before else ""))
    for kind, _, name, rest in rows:
        row = [name.replace("~", "/"), kind + (" (rest pose)" if rest else ""), *cells(now[name])]
        if before:
            row += cells(measure(picture(three, name), picture(before, name)))
        print(f"| {' | '.join(row)} |")
    equalised = {name: measure(picture(three, name, ".gi.png"), picture(rig, name))
                 for kind, _, name, _ in rows if toon(kind)}
    if equalised:
        print("\nVRM and MToon rows against three-vrm with MToon's GI equalisation as the specification says:\n")
        print("| File | mean | p95 | signed |")
        print("|---|---:|---:|---:|")
        for name, m in equalised.items():
            print(f"| {name.replace('~', '/')} | {' | '.join(cells(m))} |")
    print()
    summary("", now)
    if equalised:
        summary("With those rows against the GI-equalised MToon: ", {**now, **equalised})
    unlike = [name.replace("~", "/") for _, _, name, _ in rows
              if backgrounds_differ(picture(three, name), picture(rig, name))]
    if unlike:
        print(f"\nThe backgrounds differ on {len(unlike)} of {len(rows)} files ({', '.join(unlike[:3])}"
              f"{', ...' if len(unlike) > 3 else ''}), so their model masks do too: see fidelity.py's BACKGROUND.")


def summary(lead, measured):
    """The table's summary line: how many files are within 2 levels, within ±3 signed, brighter."""
    m = [v for v in measured.values() if v is not None]
    print(f"{lead}mean inside the model within 2 levels on {sum(v[0] <= 2 for v in m)} of {len(m)} files; "
          f"mean signed difference within ±3 on {sum(abs(v[2]) <= 3 for v in m)}; "
          f"rigscope brighter on {sum(v[2] > 0 for v in m)}.")


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "three" and len(sys.argv) == 3:
        render_three(sys.argv[2])
    elif command == "rigscope" and len(sys.argv) == 4:
        render_rigscope(os.path.abspath(sys.argv[2]), sys.argv[3])
    elif command == "table" and len(sys.argv) in (4, 5):
        table(*sys.argv[2:])
    else:
        sys.exit(__doc__)
