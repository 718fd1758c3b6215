"""A small VRM 1.0 avatar the tests write themselves (no model files in the repository): the
stick figure of the Rust tests (tests/integration/vrm_avatar.rs) with a skinned strip along the
left arm, a morph target the ``happy`` expression drives, and a clip that waves the arm."""

from __future__ import annotations

import base64
import json
import math
import struct
from pathlib import Path

# name, parent, translation
NODES = [
    ("Hips", None, (0.0, 1.0, 0.0)),
    ("Spine", 0, (0.0, 0.2, 0.0)),
    ("Chest", 1, (0.0, 0.2, 0.0)),
    ("Neck", 2, (0.0, 0.2, 0.0)),
    ("Head", 3, (0.0, 0.1, 0.0)),
    ("L_Thigh", 0, (0.1, 0.0, 0.0)),
    ("L_Shin", 5, (0.0, -0.45, 0.0)),
    ("L_Foot", 6, (0.0, -0.45, 0.0)),
    ("R_Thigh", 0, (-0.1, 0.0, 0.0)),
    ("R_Shin", 8, (0.0, -0.45, 0.0)),
    ("R_Foot", 9, (0.0, -0.45, 0.0)),
    ("L_Arm", 2, (0.2, 0.15, 0.0)),
    ("L_Forearm", 11, (0.3, 0.0, 0.0)),
    ("L_Hand", 12, (0.3, 0.0, 0.0)),
    ("L_Thumb1", 13, (0.03, 0.0, 0.03)),
    ("R_Arm", 2, (-0.2, 0.15, 0.0)),
    ("R_Forearm", 15, (-0.3, 0.0, 0.0)),
    ("R_Hand", 16, (-0.3, 0.0, 0.0)),
]

BONES = [
    "hips", "spine", "chest", "neck", "head",
    "leftUpperLeg", "leftLowerLeg", "leftFoot", "rightUpperLeg", "rightLowerLeg", "rightFoot",
    "leftUpperArm", "leftLowerArm", "leftHand", "leftThumbMetacarpal",
    "rightUpperArm", "rightLowerArm", "rightHand",
]


def _world_translation(node: int) -> tuple:
    x = y = z = 0.0
    while node is not None:
        _, parent, (dx, dy, dz) = NODES[node]
        x, y, z = x + dx, y + dy, z + dz
        node = parent
    return (x, y, z)


def write_stick_avatar(path: Path) -> Path:
    """Writes the avatar as a .gltf with its buffer inline; returns ``path``."""
    arm, forearm, hand = _world_translation(11), _world_translation(12), _world_translation(13)
    # A strip from the shoulder to the hand: two vertices at each of three joints.
    positions = []
    for x, y, z in (arm, forearm, hand):
        positions += [(x, y - 0.03, z), (x, y + 0.03, z)]
    morph = [(0.0, 0.0, 0.05)] * len(positions)
    joints = [(11, 0, 0, 0), (11, 0, 0, 0), (11, 12, 0, 0), (11, 12, 0, 0), (12, 13, 0, 0), (12, 13, 0, 0)]
    weights = [(1, 0, 0, 0), (1, 0, 0, 0), (0.5, 0.5, 0, 0), (0.5, 0.5, 0, 0), (0.25, 0.75, 0, 0), (0.25, 0.75, 0, 0)]
    indices = [0, 2, 1, 1, 2, 3, 2, 4, 3, 3, 4, 5]
    inverse_binds = []
    for node in range(len(NODES)):
        x, y, z = _world_translation(node)
        inverse_binds += [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -x, -y, -z, 1]
    half = math.sqrt(0.5)
    times = [0.0, 1.0]
    rotations = [(0.0, 0.0, 0.0, 1.0), (0.0, 0.0, half, half)]

    blob = bytearray()
    views = []
    accessors = []

    def add(data: bytes, count: int, kind: str, component: int, target=None, bounds=None) -> int:
        while len(blob) % 4:
            blob.append(0)
        view = {"buffer": 0, "byteOffset": len(blob), "byteLength": len(data)}
        if target:
            view["target"] = target
        views.append(view)
        blob.extend(data)
        accessor = {"bufferView": len(views) - 1, "componentType": component, "count": count, "type": kind}
        if bounds:
            accessor["min"], accessor["max"] = bounds
        accessors.append(accessor)
        return len(accessors) - 1

    def vec3_bounds(points):
        return [min(p[i] for p in points) for i in range(3)], [max(p[i] for p in points) for i in range(3)]

    floats = lambda values: struct.pack(f"<{len(values)}f", *values)
    position = add(floats([c for p in positions for c in p]), len(positions), "VEC3", 5126, 34962, vec3_bounds(positions))
    morph_position = add(floats([c for p in morph for c in p]), len(morph), "VEC3", 5126, 34962, vec3_bounds(morph))
    joint = add(bytes(c for j in joints for c in j), len(joints), "VEC4", 5121, 34962)
    weight = add(floats([c for w in weights for c in w]), len(weights), "VEC4", 5126, 34962)
    index = add(struct.pack(f"<{len(indices)}H", *indices), len(indices), "SCALAR", 5123, 34963)
    inverse = add(floats(inverse_binds), len(NODES), "MAT4", 5126)
    time = add(floats(times), len(times), "SCALAR", 5126, bounds=([0.0], [1.0]))
    rotation = add(floats([c for r in rotations for c in r]), len(rotations), "VEC4", 5126)

    nodes = []
    for i, (name, _, translation) in enumerate(NODES):
        node = {"name": name, "translation": list(translation)}
        children = [c for c, (_, parent, _) in enumerate(NODES) if parent == i]
        if children:
            node["children"] = children
        nodes.append(node)
    body = len(nodes)
    nodes.append({"name": "Body", "mesh": 0, "skin": 0})
    document = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0, body]}],
        "nodes": nodes,
        "meshes": [
            {
                "name": "ArmStrip",
                "primitives": [
                    {
                        "attributes": {"POSITION": position, "JOINTS_0": joint, "WEIGHTS_0": weight},
                        "indices": index,
                        "targets": [{"POSITION": morph_position}],
                    }
                ],
                "weights": [0.0],
                "extras": {"targetNames": ["Smile"]},
            }
        ],
        "skins": [{"joints": list(range(len(NODES))), "inverseBindMatrices": inverse, "skeleton": 0}],
        "animations": [
            {
                "name": "Wave",
                "channels": [{"sampler": 0, "target": {"node": 11, "path": "rotation"}}],
                "samplers": [{"input": time, "output": rotation, "interpolation": "LINEAR"}],
            }
        ],
        "accessors": accessors,
        "bufferViews": views,
        "buffers": [
            {
                "byteLength": len(blob),
                "uri": "data:application/octet-stream;base64," + base64.b64encode(bytes(blob)).decode(),
            }
        ],
        "extensionsUsed": ["VRMC_vrm"],
        "extensions": {
            "VRMC_vrm": {
                "specVersion": "1.0",
                "meta": {
                    "name": "Stick",
                    "version": "1",
                    "authors": ["rigscope tests"],
                    "licenseUrl": "https://vrm.dev/licenses/1.0/",
                    "avatarPermission": "onlyAuthor",
                    "commercialUsage": "personalNonProfit",
                    "allowRedistribution": False,
                },
                "humanoid": {"humanBones": {bone: {"node": node} for node, bone in enumerate(BONES)}},
                "expressions": {
                    "preset": {"happy": {"morphTargetBinds": [{"node": body, "index": 0, "weight": 1.0}]}}
                },
            }
        },
    }
    path.write_text(json.dumps(document, indent=1))
    return path
