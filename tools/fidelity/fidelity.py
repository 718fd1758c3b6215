#!/usr/bin/env python3
"""The fidelity table (docs/FIDELITY.md): three.js (../shared/peer-three) against rigscope on real files, both lit
by three.js's RoomEnvironment, through rigscope's default `render` view.

    fidelity.py three OUT_DIR            three.js's pictures (about 8 s each; kept, so a rerun only adds new files)
    fidelity.py rigscope BINARY OUT_DIR  rigscope's pictures (`render --environment room.hdr --lights file --no-grid`)
    fidelity.py table THREE_DIR RIG_DIR [BEFORE_DIR]  the Markdown table: per file, inside the model (the pixels
                                         that are model in both pictures, shrunk by 2 px, as interior-diff.py), the
                                         mean and 95th percentile of |rigscope - three.js| and the mean signed
                                         difference (positive: rigscope brighter), with BEFORE_DIR's beside them

The files are listed in files.txt beside this script and read where they lie ($RIGSCOPE_CORPUS, default
/tmp/rigscope-corpus; $RIGSCOPE_ASSETS, default ../shared/assets); nothing is copied. $PEER_THREE is the peer's
folder (default ../shared/peer-three); the room's .hdr is written once into OUT_DIR by its room-hdr.mjs."""
import os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
VIEW = ["--azimuth", "28.6479", "--elevation", "14.3239", "--fov", "40", "--margin", "1.1", "--frame", "clip",
        "--background", "#3c3f45"]
SIZE = "800x600"


def files():
    """(kind, absolute path, short name) for each line of files.txt."""
    corpus = os.environ.get("RIGSCOPE_CORPUS", "/tmp/rigscope-corpus")
    assets = os.environ.get("RIGSCOPE_ASSETS", os.path.join(HERE, "..", "..", "..", "shared", "assets"))
    for line in open(os.path.join(HERE, "files.txt")):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        kind, path = line.split(maxsplit=1)
        full = os.path.join(assets, path[len("assets:"):]) if path.startswith("assets:") else os.path.join(corpus, path)
        yield kind, os.path.abspath(full), path.replace("assets:", "").replace("/", "~")


def outcome(done):
    """"ok", or "failed:" and the last line the renderer wrote to standard error."""
    if done.returncode == 0:
        return "ok"
    lines = done.stderr.strip().splitlines()
    return "failed: " + (lines[-1] if lines else f"exit status {done.returncode}")


def peer():
    return os.path.abspath(os.environ.get("PEER_THREE", os.path.join(HERE, "..", "..", "..", "shared", "peer-three")))


def render_three(out):
    os.makedirs(out, exist_ok=True)
    for _, path, name in files():
        png = os.path.join(out, name + ".png")
        if os.path.exists(png):
            continue
        done = subprocess.run(["node", os.path.join(peer(), "render.mjs"), path, "-o", png, "--size", SIZE, *VIEW],
                              capture_output=True, text=True)
        print(name, outcome(done), flush=True)


def room_hdr(out):
    hdr = os.path.join(out, "room.hdr")
    if not os.path.exists(hdr):
        subprocess.run(["node", os.path.join(peer(), "room-hdr.mjs"), hdr], check=True, capture_output=True)
    return hdr


def render_rigscope(binary, out):
    os.makedirs(out, exist_ok=True)
    hdr = room_hdr(out)
    for _, path, name in files():
        png = os.path.join(out, name + ".png")
        if os.path.exists(png):
            continue
        done = subprocess.run([binary, "render", path, "-o", png, "--size", SIZE, "--environment", hdr,
                               "--lights", "file", "--no-grid"], capture_output=True, text=True)
        print(name, outcome(done), flush=True)


def interior(rig_png, three_png):
    """(mean |difference|, its 95th percentile, mean signed difference) inside the model, or None."""
    import numpy as np
    from PIL import Image
    a = np.asarray(Image.open(rig_png).convert("RGB")).astype(int)
    b = np.asarray(Image.open(three_png).convert("RGB")).astype(int)
    inside = (np.abs(a - a[0, 0]).max(2) > 8) & (np.abs(b - b[0, 0]).max(2) > 8)
    for _ in range(2):
        p = np.pad(inside, 1)
        inside = p[1:-1, 1:-1] & p[:-2, 1:-1] & p[2:, 1:-1] & p[1:-1, :-2] & p[1:-1, 2:]
    if not inside.any():
        return None
    d = (a - b)[inside]
    return np.abs(d).mean(), np.percentile(np.abs(d), 95), d.mean()


def table(three, rig, before=None):
    def cells(directory, name):
        png = os.path.join(directory, name + ".png") if directory else None
        three_png = os.path.join(three, name + ".png")
        if not png or not os.path.exists(png) or not os.path.exists(three_png):
            return "–", "–", "–"
        m = interior(png, three_png)
        return ("–", "–", "–") if m is None else (f"{m[0]:.1f}", f"{m[1]:.0f}", f"{m[2]:+.1f}")
    print("| File | Kind | mean | p95 | signed | before: mean | p95 | signed |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for kind, _, name in files():
        now, then = cells(rig, name), cells(before, name)
        print(f"| {name.replace('~', '/')} | {kind} | {' | '.join(now)} | {' | '.join(then)} |")


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "three" and len(sys.argv) == 3:
        render_three(sys.argv[2])
    elif command == "rigscope" and len(sys.argv) == 4:
        render_rigscope(sys.argv[2], sys.argv[3])
    elif command == "table" and len(sys.argv) in (4, 5):
        table(*sys.argv[2:])
    else:
        sys.exit(__doc__)
