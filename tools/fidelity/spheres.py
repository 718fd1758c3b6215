#!/usr/bin/env python3
"""spheres.py OUT_DIR -- writes the test spheres and cubes (tests/integration/three_fidelity.rs) as glTF files: a white
and a grey sphere at roughness 0, 0.25, 0.5, 0.75 and 1, metallic 0 and 1; cubes of flat grey (0.05, 0.25 and 0.6),
lit (metallic 0, roughness 1) and unlit (KHR_materials_unlit); sheen spheres (KHR_materials_sheen, colour 1, roughness
0, 0.3 and 0.7, on grey and light grey); and anisotropic white metal spheres (KHR_materials_anisotropy, strength 0.5 and
1, rotation 0 and 45 degrees), also turned inside out and double-sided, so that their outside is drawn as back faces,
and half-grey ones under a directional light of 6 lux from the camera's side, 30 degrees down (KHR_lights_punctual);
each alone in `OUT_DIR/NAME.gltf`.

The meshes are the tests' `uv_sphere(48, 96)`, `inside_out_sphere()` and `cube()` (tests/integration/picture.rs), so
three.js and rigscope draw the same triangles. The anisotropic spheres carry the MikkTSpace tangents rigscope makes for
them (along +U, the bitangent up the texture), since three.js would otherwise take its frame from screen-space
derivatives, whose bitangent runs down the texture. Prints one file name a line."""
import base64, json, math, os, struct, sys

STACKS, SLICES = 48, 96
COLOURS = {"white": [1.0, 1.0, 1.0, 1.0], "grey": [0.18, 0.18, 0.18, 1.0]}
ROUGHNESSES = [0.0, 0.25, 0.5, 0.75, 1.0]
GREYS = [0.05, 0.25, 0.6]
SHEEN_ROUGHNESSES = [0.0, 0.3, 0.7]
# Roughness, strength and rotation (degrees) of the anisotropic spheres under a light.
LIT_ANISOTROPY = [(0.1, 1, 0), (0.3, 1, 0), (0.3, 1, 45), (0.3, 0.5, 45)]
# Each cube face's normal and the two directions across it (across x up = normal), as picture.rs's `cube()`.
CUBE_FACES = [((1, 0, 0), (0, 0, -1), (0, 1, 0)), ((-1, 0, 0), (0, 0, 1), (0, 1, 0)), ((0, 1, 0), (1, 0, 0), (0, 0, -1)),
              ((0, -1, 0), (1, 0, 0), (0, 0, 1)), ((0, 0, 1), (1, 0, 0), (0, 1, 0)), ((0, 0, -1), (-1, 0, 0), (0, 1, 0))]


def packed(positions, normals, uvs, indices):
    """The buffer's parts of a mesh: positions, normals, texture coordinates, indices, and the two counts."""
    flat = lambda rows: b"".join(struct.pack("<%df" % len(r), *r) for r in rows)
    return (flat(positions), flat(normals), flat(uvs), struct.pack("<%dI" % len(indices), *indices), len(positions),
            len(indices))


def cube_bytes():
    """The cube from -1 to 1 with a flat normal per face, as the buffer's parts."""
    positions, normals, uvs, indices = [], [], [], []
    for normal, across, up in CUBE_FACES:
        first = len(positions)
        for u, v in [(-1, -1), (1, -1), (1, 1), (-1, 1)]:
            positions.append(tuple(normal[i] + u * across[i] + v * up[i] for i in range(3)))
            normals.append(normal)
            uvs.append(((u + 1) / 2, (1 - v) / 2))
        indices += [first, first + 1, first + 2, first, first + 2, first + 3]
    return packed(positions, normals, uvs, indices)


def sphere_bytes():
    """Positions (= normals), texture coordinates and indices of the unit UV sphere, as the buffer's parts."""
    positions, uvs, indices = [], [], []
    for stack in range(STACKS + 1):
        polar = stack / STACKS * math.pi
        for slice_ in range(SLICES + 1):
            azimuth = slice_ / SLICES * 2 * math.pi
            positions.append((math.sin(polar) * math.cos(azimuth), math.cos(polar), math.sin(polar) * math.sin(azimuth)))
            uvs.append((slice_ / SLICES, stack / STACKS))
    row = SLICES + 1
    for stack in range(STACKS):
        for slice_ in range(SLICES):
            a = stack * row + slice_
            indices += [a, a + 1, a + row, a + 1, a + row + 1, a + row]
    return packed(positions, positions, uvs, indices)


def sphere_gltf(material):
    """A file of the sphere with `material` (mtoon_edge.py's spheres too)."""
    return mesh_gltf(sphere_bytes(), material)


def sphere_tangents(handedness):
    """The UV sphere's tangents: along +U (the azimuth), `handedness` the w that puts the bitangent up the texture."""
    rows = []
    for _ in range(STACKS + 1):
        for slice_ in range(SLICES + 1):
            azimuth = slice_ / SLICES * 2 * math.pi
            rows.append(struct.pack("<4f", -math.sin(azimuth), 0.0, math.cos(azimuth), handedness))
    return b"".join(rows)


def tangent_sphere_gltf(material, inside_out=False):
    """A file of the sphere with tangents and `material`; `inside_out`: normals in, triangles wound the other way."""
    position, normal, uv, index, vertices, count = sphere_bytes()
    if inside_out:
        normal = struct.pack("<%df" % (vertices * 3), *[-x for x in struct.unpack("<%df" % (vertices * 3), normal)])
        order = list(struct.unpack("<%dI" % count, index))
        for first in range(0, count, 3):
            order[first + 1], order[first + 2] = order[first + 2], order[first + 1]
        index = struct.pack("<%dI" % count, *order)
    tangent = sphere_tangents(1.0 if inside_out else -1.0)
    gltf = mesh_gltf((position, normal, uv, index, vertices, count), material)
    data = position + normal + uv + index + tangent
    gltf["buffers"] = [{"byteLength": len(data), "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()}]
    gltf["bufferViews"].append({"buffer": 0, "byteOffset": len(data) - len(tangent), "byteLength": len(tangent)})
    gltf["accessors"].append({"bufferView": 4, "componentType": 5126, "count": vertices, "type": "VEC4"})
    gltf["meshes"][0]["primitives"][0]["attributes"]["TANGENT"] = 4
    return gltf


def mesh_gltf(mesh, material):
    """A file of one mesh (`mesh`: the buffer's parts) with `material`."""
    position, normal, uv, index, vertices, count = mesh
    data = position + normal + uv + index
    views, offset = [], 0
    for part in (position, normal, uv, index):
        views.append({"buffer": 0, "byteOffset": offset, "byteLength": len(part)})
        offset += len(part)
    return {
        "asset": {"version": "2.0"},
        "buffers": [{"byteLength": len(data), "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()}],
        "bufferViews": views,
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": vertices, "type": "VEC3", "min": [-1, -1, -1], "max": [1, 1, 1]},
            {"bufferView": 1, "componentType": 5126, "count": vertices, "type": "VEC3"},
            {"bufferView": 2, "componentType": 5126, "count": vertices, "type": "VEC2"},
            {"bufferView": 3, "componentType": 5125, "count": count, "type": "SCALAR"},
        ],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2}, "indices": 3, "material": 0}]}],
        "materials": [material],
        **({"extensionsUsed": list(material["extensions"])} if "extensions" in material else {}),
        "nodes": [{"mesh": 0}],
        "scenes": [{"nodes": [0]}],
    }


def under_light(gltf):
    """`gltf` with a directional light of 6 lux from the camera's side, 30 degrees down (the tests' file light)."""
    gltf["extensionsUsed"] = sorted(set(gltf.get("extensionsUsed", [])) | {"KHR_lights_punctual"})
    gltf["extensions"] = {"KHR_lights_punctual": {"lights": [{"type": "directional", "intensity": 6}]}}
    gltf["nodes"].append({"rotation": [-0.258819, 0, 0, 0.965926], "extensions": {"KHR_lights_punctual": {"light": 0}}})
    gltf["scenes"] = [{"nodes": [0, 1]}]
    return gltf


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for colour, factor in COLOURS.items():
        for metallic in (0, 1):
            for roughness in ROUGHNESSES:
                name = f"{colour}-m{metallic}-r{roughness:.2f}"
                material = {"pbrMetallicRoughness": {"baseColorFactor": factor, "metallicFactor": metallic, "roughnessFactor": roughness}}
                with open(os.path.join(out, name + ".gltf"), "w") as f:
                    json.dump(sphere_gltf(material), f)
                print(name)
    for grey in GREYS:
        colour = {"baseColorFactor": [grey, grey, grey, 1.0]}
        lit = {"pbrMetallicRoughness": {**colour, "metallicFactor": 0, "roughnessFactor": 1}}
        unlit = {"pbrMetallicRoughness": colour, "extensions": {"KHR_materials_unlit": {}}}
        for name, material in ((f"cube-lit-{grey}", lit), (f"cube-unlit-{grey}", unlit)):
            with open(os.path.join(out, name + ".gltf"), "w") as f:
                json.dump(mesh_gltf(cube_bytes(), material), f)
            print(name)
    for base_name, base in (("grey", 0.18), ("light", 0.8)):
        for roughness in SHEEN_ROUGHNESSES:
            name = f"sheen-{base_name}-r{roughness}"
            material = {"pbrMetallicRoughness": {"baseColorFactor": [base, base, base, 1.0], "metallicFactor": 0,
                                                 "roughnessFactor": 0.5},
                        "extensions": {"KHR_materials_sheen": {"sheenColorFactor": [1, 1, 1], "sheenRoughnessFactor": roughness}}}
            with open(os.path.join(out, name + ".gltf"), "w") as f:
                json.dump(sphere_gltf(material), f)
            print(name)
    for roughness, strength, degrees in LIT_ANISOTROPY:
        name = f"lit-anisotropic-r{roughness}-s{strength}-rot{degrees}"
        material = {"pbrMetallicRoughness": {"baseColorFactor": [0.5, 0.5, 0.5, 1.0], "metallicFactor": 1,
                                             "roughnessFactor": roughness},
                    "extensions": {"KHR_materials_anisotropy": {"anisotropyStrength": strength,
                                                                "anisotropyRotation": math.radians(degrees)}}}
        with open(os.path.join(out, name + ".gltf"), "w") as f:
            json.dump(under_light(tangent_sphere_gltf(material)), f)
        print(name)
    for inside_out in (False, True):
        for strength in (0.5, 1):
            for degrees in (0, 45):
                name = f"{'inside-out-' if inside_out else ''}anisotropic-r0.3-s{strength}-rot{degrees}"
                material = {"doubleSided": inside_out,
                            "pbrMetallicRoughness": {"baseColorFactor": [1.0, 1.0, 1.0, 1.0], "metallicFactor": 1,
                                                     "roughnessFactor": 0.3},
                            "extensions": {"KHR_materials_anisotropy": {"anisotropyStrength": strength,
                                                                        "anisotropyRotation": math.radians(degrees)}}}
                with open(os.path.join(out, name + ".gltf"), "w") as f:
                    json.dump(tangent_sphere_gltf(material, inside_out), f)
                print(name)


if __name__ == "__main__":
    main()
