#!/usr/bin/env python3
"""make-cube-spring.py [CUBE_GLTF] OUT.vrm

Build a small synthetic VRM 1.0 test avatar: three-vrm's core-cube example (VRMC_vrm humanoid,
expressions, bone lookAt) plus a VRMC_springBone extension, packed into one GLB. The corpus
has no VRM 1.0 file with both a humanoid and spring bones, so this fills that gap.

Added nodes (indices 22..29):
  22 HairRoot (child of Head 3)   23 Hair1   24 Hair2   25 HairEnd        (spring "hair")
  26 Tail1    (child of Hips 1)   27 Tail2   28 Tail3   29 TailEnd        (spring "tail")
Colliders:
  0: Head  sphere  offset (0, 0.2, 0)  radius 0.15                      group 0 "head"
  1: Hips  capsule offset (0, -0.1, -0.1) tail (0, -0.5, -0.1) radius 0.08  group 1 "body"
  2: Root  plane (VRMC_springBone_extended_collider) normal +Y through the origin,
           fallback sphere offset (0, -10000, 0) radius 10000               group 1 "body"
Springs:
  hair: joints 22,23,24 (+ tail node 25), center = Hips (node 1), colliderGroups [0]
  tail: joints 26,27,28 (+ tail node 29), no center, gravityPower 1, colliderGroups [1]
"""
import importlib.util
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("add_motion", os.path.join(HERE, "add-motion.py"))
am = importlib.util.module_from_spec(spec)
spec.loader.exec_module(am)

DEFAULT = "/work/corpus/files/three-vrm/core-cube/cube.gltf"


def main():
    args = sys.argv[1:]
    if len(args) == 1:
        src, out = DEFAULT, args[0]
    elif len(args) == 2:
        src, out = args
    else:
        raise SystemExit(__doc__)
    with open(src, "rb") as f:
        doc = json.loads(f.read().decode("utf-8"))
    doc, blob = am.pack_gltf(doc, os.path.dirname(os.path.abspath(src)))
    nodes = doc["nodes"]
    assert len(nodes) == 22 and nodes[1]["name"] == "Hips" and nodes[3]["name"] == "Head", "unexpected cube.gltf"

    def add(name, parent, t):
        i = len(nodes)
        nodes.append({"name": name, "translation": t})
        nodes[parent].setdefault("children", []).append(i)
        return i

    hr = add("HairRoot", 3, [0.0, 0.35, -0.05])
    h1 = add("Hair1", hr, [0.0, 0.0, -0.1])
    h2 = add("Hair2", h1, [0.0, -0.1, -0.05])
    he = add("HairEnd", h2, [0.0, -0.1, 0.0])
    t1 = add("Tail1", 1, [0.0, -0.05, -0.1])
    t2 = add("Tail2", t1, [0.0, 0.0, -0.2])
    t3 = add("Tail3", t2, [0.0, 0.0, -0.2])
    te = add("TailEnd", t3, [0.0, 0.0, -0.2])

    def joint(n, **kw):
        d = {"node": n}
        d.update(kw)
        return d

    hair_set = dict(hitRadius=0.02, stiffness=1.0, gravityPower=0.5, gravityDir=[0.0, -1.0, 0.0], dragForce=0.4)
    tail_set = dict(hitRadius=0.05, stiffness=0.5, gravityPower=1.0, gravityDir=[0.0, -1.0, 0.0], dragForce=0.2)
    doc.setdefault("extensions", {})["VRMC_springBone"] = {
        "specVersion": "1.0",
        "colliders": [
            {"node": 3, "shape": {"sphere": {"offset": [0.0, 0.2, 0.0], "radius": 0.15}}},
            {"node": 1, "shape": {"capsule": {"offset": [0.0, -0.1, -0.1], "radius": 0.08,
                                              "tail": [0.0, -0.5, -0.1]}}},
            {"node": 0, "shape": {"sphere": {"offset": [0.0, -10000.0, 0.0], "radius": 10000.0}},
             "extensions": {"VRMC_springBone_extended_collider": {
                 "specVersion": "1.0", "shape": {"plane": {"offset": [0.0, 0.0, 0.0], "normal": [0.0, 1.0, 0.0]}}}}},
        ],
        "colliderGroups": [{"name": "head", "colliders": [0]}, {"name": "body", "colliders": [1, 2]}],
        "springs": [
            {"name": "hair", "center": 1, "colliderGroups": [0],
             "joints": [joint(hr, **hair_set), joint(h1, **hair_set), joint(h2, **hair_set), joint(he)]},
            {"name": "tail", "colliderGroups": [1],
             "joints": [joint(t1, **tail_set), joint(t2, **tail_set), joint(t3, **tail_set), joint(te)]},
        ],
    }
    used = doc.setdefault("extensionsUsed", [])
    for e in ("VRMC_springBone", "VRMC_springBone_extended_collider"):
        if e not in used:
            used.append(e)
    doc["asset"]["generator"] = "peer-vrm make-cube-spring.py (from three-vrm core-cube example)"

    js = am.pad4(json.dumps(doc, separators=(",", ":")).encode("utf-8"), b" ")
    blob = am.pad4(blob)
    total = 12 + 8 + len(js) + 8 + len(blob)
    with open(out, "wb") as f:
        f.write(struct.pack("<III", am.GLB_MAGIC, 2, total))
        f.write(struct.pack("<II", len(js), am.CHUNK_JSON) + js)
        f.write(struct.pack("<II", len(blob), am.CHUNK_BIN) + blob)
    print(f"make-cube-spring: {out}: {len(nodes)} nodes, {total} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
