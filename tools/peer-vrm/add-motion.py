#!/usr/bin/env python3
"""add-motion.py IN OUT [--amplitude 0.3] [--seconds 2] [--rate 30] [--angle 40] [--node N] [--name SpringTest]

Copy a VRM / glTF file and append one glTF animation ("SpringTest") that shakes the
humanoid hips node, so that spring bones have something to react to.

  translation(t) = T_rest + (amplitude * sin(2*pi*t/seconds), 0, 0)
  rotation(t)    = R_rest * rotY(angle_deg * sin(2*pi*t/seconds))     (quaternion product, rotY on the right)

Keys at t_k = k * seconds / n, k = 0..n, n = round(seconds * rate) (= every 1/30 s for the
defaults), interpolation LINEAR, exactly one period: the first and the last key are equal.

The hips node comes from the VRM extension (0.x: extensions.VRM.humanoid.humanBones[] with
bone == "hips"; 1.0: extensions.VRMC_vrm.humanoid.humanBones.hips.node) unless --node N is given
(needed for files without a humanoid, e.g. a VRMC_springBone-only test scene).

Input: a GLB (.vrm/.glb) or a .gltf JSON with external / data-URI buffers. Output is always a
GLB; for GLB input the key data is appended as a new bufferView at the end of the BIN chunk
(4-byte aligned, buffer byteLength and chunk lengths updated). A .gltf input is first packed
into one GLB buffer (external buffers and images embedded). Standard library only.
"""
import argparse
import base64
import json
import math
import os
import struct
import sys
import urllib.parse

GLB_MAGIC = 0x46546C67
CHUNK_JSON = 0x4E4F534A
CHUNK_BIN = 0x004E4942


def pad4(b, fill=b"\x00"):
    return b + fill * ((4 - len(b) % 4) % 4)


def read_glb(data):
    magic, version, length = struct.unpack_from("<III", data, 0)
    if magic != GLB_MAGIC or version != 2:
        raise SystemExit("not a glTF 2.0 GLB")
    off = 12
    doc, bin_chunk = None, None
    while off < min(length, len(data)):
        clen, ctype = struct.unpack_from("<II", data, off)
        chunk = data[off + 8: off + 8 + clen]
        if ctype == CHUNK_JSON and doc is None:
            doc = json.loads(chunk.decode("utf-8"))
        elif ctype == CHUNK_BIN and bin_chunk is None:
            bin_chunk = bytes(chunk)
        off += 8 + clen
    if doc is None:
        raise SystemExit("GLB has no JSON chunk")
    return doc, bin_chunk


def load_uri(uri, base_dir):
    if uri.startswith("data:"):
        header, _, payload = uri.partition(",")
        if header.endswith(";base64"):
            return base64.b64decode(payload)
        return urllib.parse.unquote_to_bytes(payload)
    with open(os.path.join(base_dir, urllib.parse.unquote(uri)), "rb") as f:
        return f.read()


def pack_gltf(doc, base_dir):
    """Turn a .gltf JSON (external/data-URI buffers) into (doc, bin) with a single buffer 0."""
    blob = bytearray()
    starts = []
    for b in doc.get("buffers", []):
        data = load_uri(b["uri"], base_dir) if "uri" in b else b""
        starts.append(len(blob))
        blob += data[: b.get("byteLength", len(data))]
        blob += b"\x00" * ((4 - len(blob) % 4) % 4)
    for bv in doc.get("bufferViews", []):
        bv["byteOffset"] = bv.get("byteOffset", 0) + starts[bv.get("buffer", 0)]
        bv["buffer"] = 0
    mime = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp",
            ".ktx2": "image/ktx2"}
    for img in doc.get("images", []):
        uri = img.get("uri")
        if uri is None:
            continue
        try:
            data = load_uri(uri, base_dir)
        except OSError as e:
            print(f"add-motion: warning: image {uri!r} not embedded ({e})", file=sys.stderr)
            continue
        if uri.startswith("data:"):
            img["mimeType"] = uri[5:].split(";")[0].split(",")[0] or "image/png"
        else:
            img["mimeType"] = mime.get(os.path.splitext(uri)[1].lower(), "image/png")
        del img["uri"]
        img["bufferView"] = len(doc.setdefault("bufferViews", []))
        doc["bufferViews"].append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(data)})
        blob += data
        blob += b"\x00" * ((4 - len(blob) % 4) % 4)
    doc["buffers"] = [{"byteLength": len(blob)}]
    return doc, bytes(blob)


def find_hips(doc):
    ext = doc.get("extensions", {})
    v1 = ext.get("VRMC_vrm")
    if v1 is not None:
        hips = v1.get("humanoid", {}).get("humanBones", {}).get("hips")
        if hips is not None and "node" in hips:
            return hips["node"], "1"
    v0 = ext.get("VRM")
    if v0 is not None:
        for hb in v0.get("humanoid", {}).get("humanBones", []):
            if hb.get("bone") == "hips" and "node" in hb:
                return hb["node"], "0"
    return None, None


def quat_mul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz)


def decompose(m):
    """column-major 4x4 -> (t, r, s); assumes no shear."""
    t = [m[12], m[13], m[14]]
    cols = [m[0:3], m[4:7], m[8:11]]
    s = [math.sqrt(sum(c * c for c in col)) for col in cols]
    det = (m[0] * (m[5] * m[10] - m[6] * m[9]) - m[4] * (m[1] * m[10] - m[2] * m[9])
           + m[8] * (m[1] * m[6] - m[2] * m[5]))
    if det < 0:
        s[0] = -s[0]
    r = [[cols[j][i] / s[j] if s[j] else 0.0 for j in range(3)] for i in range(3)]  # r[row][col]
    tr = r[0][0] + r[1][1] + r[2][2]
    if tr > 0:
        k = 0.5 / math.sqrt(tr + 1.0)
        q = ((r[2][1] - r[1][2]) * k, (r[0][2] - r[2][0]) * k, (r[1][0] - r[0][1]) * k, 0.25 / k)
    elif r[0][0] > r[1][1] and r[0][0] > r[2][2]:
        k = 2.0 * math.sqrt(1.0 + r[0][0] - r[1][1] - r[2][2])
        q = (0.25 * k, (r[0][1] + r[1][0]) / k, (r[0][2] + r[2][0]) / k, (r[2][1] - r[1][2]) / k)
    elif r[1][1] > r[2][2]:
        k = 2.0 * math.sqrt(1.0 + r[1][1] - r[0][0] - r[2][2])
        q = ((r[0][1] + r[1][0]) / k, 0.25 * k, (r[1][2] + r[2][1]) / k, (r[0][2] - r[2][0]) / k)
    else:
        k = 2.0 * math.sqrt(1.0 + r[2][2] - r[0][0] - r[1][1])
        q = ((r[0][2] + r[2][0]) / k, (r[1][2] + r[2][1]) / k, 0.25 * k, (r[1][0] - r[0][1]) / k)
    return t, list(q), s


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--amplitude", type=float, default=0.3, help="X translation amplitude (m)")
    ap.add_argument("--seconds", type=float, default=2.0, help="period = clip duration (s)")
    ap.add_argument("--rate", type=float, default=30.0, help="keys per second (default 30)")
    ap.add_argument("--angle", type=float, default=40.0, help="Y rotation amplitude (deg)")
    ap.add_argument("--node", type=int, default=None, help="animate this node instead of the hips")
    ap.add_argument("--name", default="SpringTest", help="animation name")
    a = ap.parse_args()

    with open(a.input, "rb") as f:
        data = f.read()
    if data[:4] == b"glTF":
        doc, bin_chunk = read_glb(data)
        if bin_chunk is None:
            bin_chunk = b""
            doc.setdefault("buffers", [])
            if doc["buffers"] and "uri" not in doc["buffers"][0]:
                raise SystemExit("GLB declares buffer 0 without a BIN chunk")
            doc["buffers"].insert(0, {"byteLength": 0})
            for bv in doc.get("bufferViews", []):
                bv["buffer"] = bv.get("buffer", 0) + 1
        if not doc.get("buffers") or "uri" in doc["buffers"][0]:
            raise SystemExit("GLB buffer 0 is not the BIN chunk")
        if len(doc["buffers"]) > 1:
            print("add-motion: note: GLB has extra (external) buffers; they are left as they are",
                  file=sys.stderr)
    else:
        doc = json.loads(data.decode("utf-8"))
        doc, bin_chunk = pack_gltf(doc, os.path.dirname(os.path.abspath(a.input)))

    node_index, vrm_version = find_hips(doc)
    if a.node is not None:
        node_index = a.node
    if node_index is None:
        raise SystemExit("no humanoid hips found (no VRM / VRMC_vrm humanoid); pass --node N")
    nodes = doc.get("nodes", [])
    if not 0 <= node_index < len(nodes):
        raise SystemExit(f"node {node_index} out of range (file has {len(nodes)} nodes)")
    node = nodes[node_index]
    if "matrix" in node:  # animated nodes must use TRS
        t, r, s = decompose(node.pop("matrix"))
        node["translation"], node["rotation"], node["scale"] = t, r, s
        print(f"add-motion: node {node_index} had a matrix; replaced by TRS", file=sys.stderr)
    t_rest = node.get("translation", [0.0, 0.0, 0.0])
    r_rest = node.get("rotation", [0.0, 0.0, 0.0, 1.0])

    n = max(1, int(round(a.seconds * a.rate)))
    times, trans, rots = [], [], []
    for k in range(n + 1):
        t = a.seconds * k / n
        ph = math.sin(2.0 * math.pi * k / n) if k not in (0, n) else 0.0  # exact period ends
        times.append(t)
        trans.append((t_rest[0] + a.amplitude * ph, t_rest[1], t_rest[2]))
        half = math.radians(a.angle * ph) / 2.0
        q = quat_mul(r_rest, (0.0, math.sin(half), 0.0, math.cos(half)))
        ql = math.sqrt(sum(c * c for c in q))
        rots.append(tuple(c / ql for c in q))

    def f32(vals):
        return struct.pack("<%df" % len(vals), *vals)

    blob_t = f32(times)
    blob_tr = f32([c for v in trans for c in v])
    blob_r = f32([c for v in rots for c in v])
    base = len(bin_chunk) + ((4 - len(bin_chunk) % 4) % 4)
    new_bin = pad4(bin_chunk) + blob_t + blob_tr + blob_r
    views = doc.setdefault("bufferViews", [])
    accs = doc.setdefault("accessors", [])
    bv = len(views)
    views.append({"buffer": 0, "byteOffset": base, "byteLength": len(blob_t) + len(blob_tr) + len(blob_r),
                  "name": a.name + "_keys"})
    ai = len(accs)
    # float32-rounded min/max for the input accessor (required by the spec)
    tmin, tmax = struct.unpack("<2f", struct.pack("<2f", times[0], times[-1]))
    accs.append({"bufferView": bv, "byteOffset": 0, "componentType": 5126, "count": n + 1,
                 "type": "SCALAR", "min": [tmin], "max": [tmax]})
    accs.append({"bufferView": bv, "byteOffset": len(blob_t), "componentType": 5126, "count": n + 1,
                 "type": "VEC3"})
    accs.append({"bufferView": bv, "byteOffset": len(blob_t) + len(blob_tr), "componentType": 5126,
                 "count": n + 1, "type": "VEC4"})
    anims = doc.setdefault("animations", [])
    if any(an.get("name") == a.name for an in anims):
        print(f"add-motion: warning: an animation named {a.name!r} already exists", file=sys.stderr)
    anims.append({
        "name": a.name,
        "samplers": [{"input": ai, "output": ai + 1, "interpolation": "LINEAR"},
                     {"input": ai, "output": ai + 2, "interpolation": "LINEAR"}],
        "channels": [{"sampler": 0, "target": {"node": node_index, "path": "translation"}},
                     {"sampler": 1, "target": {"node": node_index, "path": "rotation"}}],
    })
    doc["buffers"][0]["byteLength"] = len(new_bin)
    new_bin = pad4(new_bin)

    js = pad4(json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode("utf-8"), b" ")
    total = 12 + 8 + len(js) + 8 + len(new_bin)
    out = bytearray(struct.pack("<III", GLB_MAGIC, 2, total))
    out += struct.pack("<II", len(js), CHUNK_JSON) + js
    out += struct.pack("<II", len(new_bin), CHUNK_BIN) + new_bin
    with open(a.output, "wb") as f:
        f.write(out)
    print(f"add-motion: {a.output}: animation {a.name!r} ({len(anims) - 1}) on node {node_index} "
          f"({nodes[node_index].get('name', '')!r}, VRM {vrm_version or 'none'}), {n + 1} keys, "
          f"{len(out)} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
