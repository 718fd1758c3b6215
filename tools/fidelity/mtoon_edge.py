#!/usr/bin/env python3
"""mtoon_edge.py BINARY OUT_DIR [WxH] -- MToon's light/shade edge, rigscope against three-vrm, with and without the key
light's shadow (issue 63, item 2).

Writes OUT_DIR/mtoon-sphere.gltf: spheres.py's UV sphere with one VRMC_materials_mtoon material (a warm white lit
colour, a dark blue shade colour, shadingToonyFactor 0.9: the ramp is a tenth of N·L's range wide, so the edge is a
narrow band), and draws it

- with rigscope: its studio key light (radiance 1.6, towards (0.45, 1, 0.35), with its shadow) and a uniform
  environment of 1/π (tools/peer-vrm/flat-hdr.py), no tone curve, `--no-grid`;
- with three-vrm (render-vrm.mjs): a directional light of 1.6 along the same direction, an ambient light of 1 (the
  same as that environment for MToon), no tone curve, once without shadows and once with (`--shadows`).

Prints, inside the sphere (shrunk by 2 px) and over the edge alone (the pixels of three-vrm's shadowless picture
part way between the shade and the lit colour, widened by 3 px), the mean |difference| of each pair, and how far
each picture's edge wanders: the mean over the picture's rows of |d²x/dy²| of the edge's position (its column at
half way between shade and lit, interpolated), which is near 0 for a smooth curve and grows with stair-steps; and
the edge's mean column against three-vrm's shadowless one (positive: the shade reaches further towards the light).
WxH (default 800x600) is the pictures' size: an edge that moves and wanders twice as many pixels at twice the size
follows something of the model's size (a shadow map's texels), not the screen's pixels.
$PEER_VRM is the installed copy of tools/peer-vrm (see fidelity.py)."""
import json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from spheres import sphere_gltf  # noqa: E402

LIT, SHADE = [1.0, 0.85, 0.7, 1.0], [0.1, 0.15, 0.45]
KEY_TOWARDS, KEY_RADIANCE = (0.45, 1.0, 0.35), 1.6


def write_sphere(path):
    mtoon = {"specVersion": "1.0", "shadeColorFactor": SHADE, "shadingToonyFactor": 0.9, "shadingShiftFactor": 0.0,
             "giEqualizationFactor": 0.9, "parametricRimColorFactor": [0, 0, 0], "outlineWidthMode": "none"}
    material = {"pbrMetallicRoughness": {"baseColorFactor": LIT, "metallicFactor": 0, "roughnessFactor": 1},
                "extensions": {"VRMC_materials_mtoon": mtoon}}
    gltf = sphere_gltf(material)
    gltf["extensionsUsed"] = ["VRMC_materials_mtoon"]
    with open(path, "w") as out:
        json.dump(gltf, out)


def pictures(binary, out, size):
    """Draws the sphere three ways; returns the three pictures' paths: rigscope, three-vrm, three-vrm with shadows."""
    peer = os.path.abspath(os.environ.get("PEER_VRM", os.path.join(HERE, "..", "peer-vrm")))
    sphere, flat = os.path.join(out, "mtoon-sphere.gltf"), os.path.join(out, "flat.hdr")
    write_sphere(sphere)
    subprocess.run(["python3", os.path.join(peer, "flat-hdr.py"), flat, "0.3183098861837907"], check=True,
                   capture_output=True)
    names = ("rigscope.png", "three-vrm.png", "three-vrm-shadows.png")
    rig, three, shadowed = (os.path.join(out, name) for name in names)
    subprocess.run([binary, "render", sphere, "-o", rig, "--size", size, "--environment", flat, "--lights", "studio",
                    "--tone-mapping", "none", "--no-grid"], check=True, capture_output=True)
    light = ["--light-dir", ",".join(str(-c) for c in KEY_TOWARDS), "--light-intensity", str(KEY_RADIANCE),
             "--ambient", "1", "--tone-mapping", "none"]
    for png, extra in ((three, []), (shadowed, ["--shadows"])):
        command = ["node", os.path.join(peer, "render-vrm.mjs"), sphere, "-o", png, "--size", size, *light, *extra]
        subprocess.run(command, check=True, capture_output=True)
    return rig, three, shadowed


def measure(rig, three, shadowed):
    import numpy as np
    from PIL import Image
    load = lambda path: np.asarray(Image.open(path).convert("RGB")).astype(float)
    images = {"rigscope": load(rig), "three-vrm": load(three), "three-vrm, shadows": load(shadowed)}
    inside = np.ones(images["rigscope"].shape[:2], bool)
    for image in images.values():
        inside &= np.abs(image - image[0, 0]).max(2) > 8
    for _ in range(2):
        p = np.pad(inside, 1)
        inside = p[1:-1, 1:-1] & p[:-2, 1:-1] & p[2:, 1:-1] & p[1:-1, :-2] & p[1:-1, 2:]
    # The lit share of each pixel, from the red channel, which the lit and the shade colours differ most in (1.0
    # against 0.1), between the sphere's darkest and brightest red.
    reference = images["three-vrm"][..., 0]
    shade_level, lit_level = np.percentile(reference[inside], 2), np.percentile(reference[inside], 98)
    share = {name: (image[..., 0] - shade_level) / (lit_level - shade_level) for name, image in images.items()}
    band = inside & (share["three-vrm"] > 0.1) & (share["three-vrm"] < 0.9)
    for _ in range(3):
        p = np.pad(band, 1)
        band = p[1:-1, 1:-1] | p[:-2, 1:-1] | p[2:, 1:-1] | p[1:-1, :-2] | p[1:-1, 2:]
    band &= inside
    names = list(images)
    print(f"inside: {inside.sum()} px, the edge's band: {band.sum()} px")
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            d = np.abs(images[a] - images[b]).mean(2)
            print(f"  {a} against {b}: mean |difference| inside {d[inside].mean():.2f}, "
                  f"over the edge {d[band].mean():.2f}")
    edges = {name: edge_columns(share[name], inside) for name in names}
    for name in names:
        shift = [c - r for c, r in zip(edges[name], edges["three-vrm"]) if c is not None and r is not None]
        print(f"  {name}: the edge's wander {wander(edges[name]):.3f} px, "
              f"its mean column from three-vrm's {np.mean(shift):+.2f} px")


def edge_columns(share, inside):
    """Per row, the column where the lit share first crosses 1/2 from the left (interpolated), or None."""
    columns = []
    for row in range(share.shape[0]):
        s, mask = share[row], inside[row]
        found = None
        for x in range(1, s.shape[0]):
            if mask[x] and mask[x - 1] and (s[x - 1] - 0.5) * (s[x] - 0.5) < 0:
                found = x - 1 + (0.5 - s[x - 1]) / (s[x] - s[x - 1])
                break
        columns.append(found)
    return columns


def wander(columns):
    """Mean |second difference| of the edge's column down the rows that have one: 0 for a straight edge, small for a
    smooth curve, larger for stair-steps."""
    import numpy as np
    steps = [abs(columns[r + 1] - 2 * columns[r] + columns[r - 1]) for r in range(1, len(columns) - 1)
             if None not in (columns[r - 1], columns[r], columns[r + 1])]
    return float(np.mean(steps)) if steps else float("nan")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    os.makedirs(sys.argv[2], exist_ok=True)
    measure(*pictures(os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else "800x600"))
