#!/usr/bin/env node
// draco-dump.js — reference dump of every KHR_draco_mesh_compression primitive
// of a .glb/.gltf file, decoded with Google's Draco decoder (npm draco3dgltf,
// WASM build) the way three.js's GLTFLoader + DRACOLoader decode it.
//
// Usage:
//   node draco-dump.js [--decoder-js FILE --decoder-wasm FILE] [--api array|buffer] <in.glb|in.gltf> <outdir>
//
// Output (see README.md for the full schema):
//   <outdir>/mesh<M>_prim<P>_accessor<A>.bin   raw little-endian, tightly packed
//   <outdir>/index.json
//
// Exit status: 0 if every Draco primitive decoded cleanly, 1 if any primitive
// (or attribute) recorded an error, 2 on usage / file-level errors.

'use strict';

const fs = require('fs');
const path = require('path');

const SCHEMA_VERSION = 1;

// glTF componentType -> [typed array ctor, Draco DT_* name]. Same table as
// three.js GLTFLoader WEBGL_COMPONENT_TYPES + DRACOLoader getDracoDataType.
const COMPONENT_TYPES = {
  5120: { ctor: Int8Array, dt: 'DT_INT8', name: 'BYTE' },
  5121: { ctor: Uint8Array, dt: 'DT_UINT8', name: 'UNSIGNED_BYTE' },
  5122: { ctor: Int16Array, dt: 'DT_INT16', name: 'SHORT' },
  5123: { ctor: Uint16Array, dt: 'DT_UINT16', name: 'UNSIGNED_SHORT' },
  5125: { ctor: Uint32Array, dt: 'DT_UINT32', name: 'UNSIGNED_INT' },
  5126: { ctor: Float32Array, dt: 'DT_FLOAT32', name: 'FLOAT' },
};
const TYPE_SIZES = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

function usage(msg) {
  if (msg) console.error('error: ' + msg);
  console.error('usage: node draco-dump.js [--decoder-js FILE --decoder-wasm FILE] [--api array|buffer] <in.glb|in.gltf> <outdir>');
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { decoderJs: null, decoderWasm: null, api: 'array', positional: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--decoder-js') opts.decoderJs = argv[++i];
    else if (a === '--decoder-wasm') opts.decoderWasm = argv[++i];
    else if (a === '--api') opts.api = argv[++i];
    else if (a === '-h' || a === '--help') usage();
    else if (a.startsWith('--')) usage('unknown option ' + a);
    else opts.positional.push(a);
  }
  if (opts.positional.length !== 2) usage('need <input> and <outdir>');
  if ((opts.decoderJs === null) !== (opts.decoderWasm === null)) usage('--decoder-js and --decoder-wasm go together');
  if (opts.api !== 'array' && opts.api !== 'buffer') usage('--api must be array or buffer');
  return opts;
}

// ---------------------------------------------------------------- decoder

async function loadDecoder(opts) {
  let factory;
  let label;
  const config = {};
  if (opts.decoderJs) {
    // An alternative emscripten build with the same JS glue (e.g. three.js's
    // examples/jsm/libs/draco/gltf/draco_wasm_wrapper.js + draco_decoder.wasm).
    // Evaluate as CommonJS whatever the enclosing package.json says (three's
    // package is "type": "module", which would make require() misread it).
    const jsPath = path.resolve(opts.decoderJs);
    const mod = { exports: {} };
    // eslint-disable-next-line no-new-func
    new Function('module', 'exports', 'require', '__filename', '__dirname', fs.readFileSync(jsPath, 'utf8'))(
      mod, mod.exports, require, jsPath, path.dirname(jsPath));
    factory = mod.exports;
    if (typeof factory !== 'function' && factory && factory.DracoDecoderModule) factory = factory.DracoDecoderModule;
    if (typeof factory !== 'function') throw new Error(`${opts.decoderJs} does not export a DracoDecoderModule factory`);
    config.wasmBinary = fs.readFileSync(opts.decoderWasm);
    label = { js: path.resolve(opts.decoderJs), wasm: path.resolve(opts.decoderWasm) };
  } else {
    factory = require('draco3dgltf').createDecoderModule;
    const pkg = require('draco3dgltf/package.json');
    label = { package: 'draco3dgltf', version: pkg.version };
  }
  // The emscripten Module is "thenable"; wrap it so the promise does not try
  // to adopt it (same trick DRACOLoader's worker uses).
  const draco = await new Promise((resolve, reject) => {
    config.onModuleLoaded = (m) => resolve({ m });
    try {
      const r = factory(config);
      if (r && typeof r.then === 'function') r.then((m) => resolve({ m }), reject);
    } catch (e) { reject(e); }
  }).then((w) => w.m);
  return { draco, label };
}

function dataTypeName(draco, v) {
  for (const k of ['DT_INVALID', 'DT_INT8', 'DT_UINT8', 'DT_INT16', 'DT_UINT16', 'DT_INT32', 'DT_UINT32',
    'DT_INT64', 'DT_UINT64', 'DT_FLOAT32', 'DT_FLOAT64', 'DT_BOOL']) {
    if (draco[k] === v) return k;
  }
  return 'DT_?' + v;
}

function attributeTypeName(draco, v) {
  for (const k of ['POSITION', 'NORMAL', 'COLOR', 'TEX_COORD', 'GENERIC']) {
    if (draco[k] === v) return k;
  }
  return 'INVALID(' + v + ')';
}

// ---------------------------------------------------------------- glTF I/O

function readGltf(file) {
  const raw = fs.readFileSync(file);
  let json;
  let glbBin = null;
  if (raw.length >= 12 && raw.readUInt32LE(0) === 0x46546c67) { // 'glTF'
    const version = raw.readUInt32LE(4);
    if (version !== 2) throw new Error(`GLB version ${version} (only 2 supported)`);
    const total = Math.min(raw.readUInt32LE(8), raw.length);
    let off = 12;
    while (off + 8 <= total) {
      const len = raw.readUInt32LE(off);
      const type = raw.readUInt32LE(off + 4);
      const start = off + 8;
      if (start + len > total) throw new Error(`GLB chunk at ${off} overruns the file`);
      if (type === 0x4e4f534a && json === undefined) json = JSON.parse(raw.subarray(start, start + len).toString('utf8')); // JSON
      else if (type === 0x004e4942 && glbBin === null) glbBin = raw.subarray(start, start + len); // BIN
      off = start + len;
    }
    if (json === undefined) throw new Error('GLB has no JSON chunk');
  } else {
    let text = raw.toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    json = JSON.parse(text);
  }
  const baseDir = path.dirname(path.resolve(file));
  const bufferCache = new Map();
  function getBuffer(i) {
    if (bufferCache.has(i)) return bufferCache.get(i);
    const def = (json.buffers || [])[i];
    if (!def) throw new Error(`buffer ${i} does not exist`);
    let data;
    if (def.uri === undefined) {
      if (i !== 0 || glbBin === null) throw new Error(`buffer ${i} has no uri and there is no GLB BIN chunk for it`);
      data = glbBin;
    } else if (def.uri.startsWith('data:')) {
      const comma = def.uri.indexOf(',');
      if (comma < 0) throw new Error(`buffer ${i}: malformed data: URI`);
      const meta = def.uri.slice(5, comma);
      const payload = def.uri.slice(comma + 1);
      data = /;base64$/i.test(meta) ? Buffer.from(payload, 'base64') : Buffer.from(decodeURIComponent(payload), 'latin1');
    } else {
      data = fs.readFileSync(path.join(baseDir, decodeURIComponent(def.uri)));
    }
    if (def.byteLength !== undefined && data.length < def.byteLength) {
      throw new Error(`buffer ${i}: ${data.length} bytes, byteLength says ${def.byteLength}`);
    }
    bufferCache.set(i, data);
    return data;
  }
  function getBufferView(i) {
    const bv = (json.bufferViews || [])[i];
    if (!bv) throw new Error(`bufferView ${i} does not exist`);
    const buf = getBuffer(bv.buffer);
    const off = bv.byteOffset || 0;
    if (off + bv.byteLength > buf.length) throw new Error(`bufferView ${i} overruns buffer ${bv.buffer}`);
    // Copy: the decoder gets its own ArrayBuffer, as in three.js (bufferView
    // dependency is buffer.slice(...)).
    return new Int8Array(buf.buffer.slice(buf.byteOffset + off, buf.byteOffset + off + bv.byteLength));
  }
  return { json, getBufferView };
}

// ---------------------------------------------------------------- decoding

function decodePrimitive(draco, api, array) {
  const decoder = new draco.Decoder();
  let buffer = null;
  let geometry = null;
  try {
    // GetEncodedGeometryType(Int8Array) (what three.js calls) only looks at
    // byte 7 of the header; the DecoderBuffer form runs the C++ header parser.
    let geometryType;
    if (api === 'buffer') {
      buffer = new draco.DecoderBuffer();
      buffer.Init(array, array.byteLength);
      geometryType = decoder.GetEncodedGeometryType(buffer);
    } else {
      geometryType = decoder.GetEncodedGeometryType(array);
    }
    let status;
    let kind;
    if (geometryType === draco.TRIANGULAR_MESH) {
      kind = 'mesh';
      geometry = new draco.Mesh();
      status = api === 'buffer' ? decoder.DecodeBufferToMesh(buffer, geometry)
        : decoder.DecodeArrayToMesh(array, array.byteLength, geometry);
    } else if (geometryType === draco.POINT_CLOUD) {
      kind = 'point_cloud';
      geometry = new draco.PointCloud();
      status = api === 'buffer' ? decoder.DecodeBufferToPointCloud(buffer, geometry)
        : decoder.DecodeArrayToPointCloud(array, array.byteLength, geometry);
    } else {
      throw new Error(`unexpected Draco geometry type ${geometryType} (header byte 7 = ${array.length > 7 ? array[7] : 'n/a'})`);
    }
    if (!status.ok() || geometry.ptr === 0) {
      throw new Error('Draco decoding failed: ' + status.error_msg());
    }
    return { decoder, buffer, geometry, kind };
  } catch (e) {
    if (geometry) draco.destroy(geometry);
    if (buffer) draco.destroy(buffer);
    draco.destroy(decoder);
    throw e;
  }
}

function copyOut(draco, ptr, byteLength) {
  // Same memory three.js reads (draco.HEAPF32.buffer); HEAPU8 views the same
  // ArrayBuffer. Re-read the heap after each call: it may have grown.
  return Buffer.from(new Uint8Array(draco.HEAPU8.buffer, ptr, byteLength).slice().buffer);
}

function dumpAttribute(draco, ctx, name, uniqueId, prim) {
  const { json, decoder, geometry, outdir, M, P } = ctx;
  const rec = {
    name,
    accessor: null,
    unique_id: uniqueId,
    component_type: null,
    requested_data_type: null,
    draco_data_type: null,
    draco_attribute_type: null,
    num_components: null,
    accessor_num_components: null,
    normalized: null,
    draco_normalized: null,
    count: null,
    accessor_count: null,
    byte_length: null,
    file: null,
    error: null,
    warnings: [],
  };
  const accIndex = (prim.attributes || {})[name];
  if (accIndex === undefined) {
    // three.js: attributeTypeMap has no entry -> self[undefined] -> throws on
    // BYTES_PER_ELEMENT, failing the whole primitive.
    rec.error = `primitive.attributes has no "${name}" (three.js would fail this primitive)`;
    return rec;
  }
  rec.accessor = accIndex;
  const acc = (json.accessors || [])[accIndex];
  if (!acc) { rec.error = `accessor ${accIndex} does not exist`; return rec; }
  rec.component_type = acc.componentType;
  rec.accessor_num_components = TYPE_SIZES[acc.type] ?? null;
  rec.accessor_count = acc.count;
  rec.normalized = acc.normalized === true; // what GLTFLoader sets on the BufferAttribute
  const ct = COMPONENT_TYPES[acc.componentType];
  if (!ct) { rec.error = `accessor ${accIndex}: unsupported componentType ${acc.componentType}`; return rec; }
  rec.requested_data_type = ct.dt;

  const attribute = decoder.GetAttributeByUniqueId(geometry, uniqueId);
  if (!attribute || attribute.ptr === 0) {
    rec.error = `Draco geometry has no attribute with unique id ${uniqueId}`;
    return rec;
  }
  rec.draco_data_type = dataTypeName(draco, attribute.data_type());
  rec.draco_attribute_type = attributeTypeName(draco, attribute.attribute_type());
  rec.draco_normalized = !!attribute.normalized();

  // three.js: itemSize = attribute.num_components(), count = num_points();
  // the accessor's type is NOT consulted for the decode.
  const numComponents = attribute.num_components();
  const numPoints = geometry.num_points();
  rec.num_components = numComponents;
  rec.count = numPoints;
  if (rec.accessor_num_components !== numComponents) {
    rec.warnings.push(`accessor type ${acc.type} has ${rec.accessor_num_components} components, Draco attribute has ${numComponents}; dump follows Draco (as three.js does)`);
  }
  if (acc.count !== numPoints) rec.warnings.push(`accessor count ${acc.count} != Draco num_points ${numPoints}`);

  const byteLength = numPoints * numComponents * ct.ctor.BYTES_PER_ELEMENT;
  rec.byte_length = byteLength;
  const ptr = draco._malloc(Math.max(byteLength, 1));
  try {
    const ok = decoder.GetAttributeDataArrayForAllPoints(geometry, attribute, draco[ct.dt], byteLength, ptr);
    if (!ok) {
      // three.js ignores this return value and would read uninitialised heap.
      rec.error = `GetAttributeDataArrayForAllPoints(${ct.dt}, ${byteLength}) returned false (three.js ignores this and reads uninitialised memory)`;
      return rec;
    }
    const bytes = copyOut(draco, ptr, byteLength);
    rec.file = `mesh${M}_prim${P}_accessor${accIndex}.bin`;
    fs.writeFileSync(path.join(outdir, rec.file), bytes);
  } finally {
    draco._free(ptr);
  }
  return rec;
}

function dumpIndex(draco, ctx, prim) {
  const { json, decoder, geometry, outdir, M, P } = ctx;
  const numFaces = geometry.num_faces();
  const numIndices = numFaces * 3;
  const rec = {
    accessor: prim.indices === undefined ? null : prim.indices,
    component_type: null,
    api: null,
    count: numIndices,
    accessor_count: null,
    byte_length: null,
    file: null,
    error: null,
    warnings: [],
  };
  let ctype = 5125;
  if (prim.indices !== undefined) {
    const acc = (json.accessors || [])[prim.indices];
    if (!acc) { rec.error = `index accessor ${prim.indices} does not exist`; return rec; }
    ctype = acc.componentType;
    rec.accessor_count = acc.count;
    if (acc.count !== numIndices) rec.warnings.push(`index accessor count ${acc.count} != 3 * num_faces ${numIndices}`);
  } else {
    rec.warnings.push('primitive has no indices accessor; dumping Draco faces as uint32 (three.js always sets a Uint32 index for Draco meshes)');
  }
  rec.component_type = ctype;

  // Reference values: UInt32 exactly as three.js's decodeIndex gets them.
  const bl32 = numIndices * 4;
  const p32 = draco._malloc(Math.max(bl32, 1));
  let u32;
  try {
    const ok = decoder.GetTrianglesUInt32Array(geometry, bl32, p32);
    if (!ok) { rec.error = `GetTrianglesUInt32Array(${bl32}) returned false`; return rec; }
    u32 = new Uint32Array(copyOut(draco, p32, bl32).buffer.slice(0));
  } finally {
    draco._free(p32);
  }

  let bytes;
  if (ctype === 5125) {
    rec.api = 'GetTrianglesUInt32Array';
    bytes = Buffer.from(u32.buffer);
  } else if (ctype === 5123) {
    rec.api = 'GetTrianglesUInt16Array';
    const bl16 = numIndices * 2;
    const p16 = draco._malloc(Math.max(bl16, 1));
    try {
      const ok = decoder.GetTrianglesUInt16Array(geometry, bl16, p16);
      if (!ok) {
        rec.error = `GetTrianglesUInt16Array(${bl16}) returned false (num_points ${geometry.num_points()} > 65535?)`;
        return rec;
      }
      bytes = copyOut(draco, p16, bl16);
    } finally {
      draco._free(p16);
    }
    const u16 = new Uint16Array(bytes.buffer, bytes.byteOffset, numIndices);
    for (let i = 0; i < numIndices; i++) {
      if (u16[i] !== u32[i]) { rec.error = `UInt16 and UInt32 triangle arrays disagree at index ${i}`; return rec; }
    }
  } else if (ctype === 5121) {
    // Draco has no UInt8 triangle getter: narrow the UInt32 result.
    rec.api = 'GetTrianglesUInt32Array->uint8';
    const u8 = new Uint8Array(numIndices);
    for (let i = 0; i < numIndices; i++) {
      if (u32[i] > 255) { rec.error = `index ${i} = ${u32[i]} does not fit UNSIGNED_BYTE`; return rec; }
      u8[i] = u32[i];
    }
    bytes = Buffer.from(u8.buffer);
  } else {
    rec.error = `index accessor componentType ${ctype} is not a valid index type`;
    return rec;
  }
  rec.byte_length = bytes.length;
  rec.file = prim.indices === undefined ? `mesh${M}_prim${P}_indices.bin` : `mesh${M}_prim${P}_accessor${prim.indices}.bin`;
  fs.writeFileSync(path.join(outdir, rec.file), bytes);
  return rec;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const [input, outdir] = opts.positional;
  let gltf;
  try {
    gltf = readGltf(input);
  } catch (e) {
    console.error(`${input}: cannot read glTF: ${e.message}`);
    process.exit(2);
  }
  fs.mkdirSync(outdir, { recursive: true });
  // Stale dumps from an earlier run would confuse compare.py.
  for (const f of fs.readdirSync(outdir)) {
    if (/^mesh\d+_prim\d+_(accessor\d+|indices)\.bin$/.test(f) || f === 'index.json') fs.unlinkSync(path.join(outdir, f));
  }
  const { draco, label } = await loadDecoder(opts);
  const json = gltf.json;
  const out = {
    schema: SCHEMA_VERSION,
    tool: 'tools/draco-reference/draco-dump.js',
    decoder: label,
    decode_api: opts.api,
    source: path.basename(input),
    source_path: path.resolve(input),
    primitives: [],
  };
  let failures = 0;
  (json.meshes || []).forEach((mesh, M) => {
    (mesh.primitives || []).forEach((prim, P) => {
      const ext = prim.extensions && prim.extensions.KHR_draco_mesh_compression;
      if (!ext) return;
      const rec = {
        mesh: M,
        primitive: P,
        mode: prim.mode === undefined ? 4 : prim.mode,
        buffer_view: ext.bufferView,
        draco_byte_length: null,
        geometry_type: null,
        num_points: null,
        num_faces: null,
        num_attributes: null,
        attributes: [],
        index: null,
        error: null,
        warnings: [],
      };
      out.primitives.push(rec);
      let dec = null;
      try {
        const array = gltf.getBufferView(ext.bufferView);
        rec.draco_byte_length = array.byteLength;
        dec = decodePrimitive(draco, opts.api, array);
        rec.geometry_type = dec.kind;
        rec.num_points = dec.geometry.num_points();
        rec.num_faces = dec.kind === 'mesh' ? dec.geometry.num_faces() : 0;
        rec.num_attributes = dec.geometry.num_attributes();
        const ctx = { json, decoder: dec.decoder, geometry: dec.geometry, outdir, M, P };
        for (const name of Object.keys(ext.attributes || {})) {
          const a = dumpAttribute(draco, ctx, name, ext.attributes[name], prim);
          rec.attributes.push(a);
          if (a.error) rec.error = rec.error || `attribute ${name}: ${a.error}`;
        }
        for (const name of Object.keys(prim.attributes || {})) {
          if (!(name in (ext.attributes || {}))) rec.warnings.push(`attribute ${name} is not in the Draco extension (loaded from its accessor, not dumped)`);
        }
        if (dec.kind === 'mesh') {
          rec.index = dumpIndex(draco, ctx, prim);
          if (rec.index.error) rec.error = rec.error || `indices: ${rec.index.error}`;
          if (rec.mode !== 4) rec.warnings.push(`primitive mode ${rec.mode} but Draco geometry is a triangle mesh`);
        } else if (prim.indices !== undefined) {
          rec.warnings.push(`point cloud but primitive has indices accessor ${prim.indices}; not dumped`);
        }
      } catch (e) {
        rec.error = rec.error || e.message;
      } finally {
        if (dec) {
          draco.destroy(dec.geometry);
          if (dec.buffer) draco.destroy(dec.buffer);
          draco.destroy(dec.decoder);
        }
      }
      if (rec.error) {
        failures++;
        console.error(`mesh ${M} primitive ${P}: FAILED: ${rec.error}`);
      } else {
        const attrs = rec.attributes.map((a) => `${a.name}=${a.file}`).join(' ');
        console.log(`mesh ${M} primitive ${P}: ${rec.geometry_type} points=${rec.num_points} faces=${rec.num_faces} ${attrs}` +
          (rec.index ? ` index=${rec.index.file}` : ''));
      }
      for (const w of rec.warnings.concat(...rec.attributes.map((a) => a.warnings.map((x) => `${a.name}: ${x}`)),
        rec.index ? rec.index.warnings : [])) {
        console.error(`mesh ${M} primitive ${P}: warning: ${w}`);
      }
    });
  });
  fs.writeFileSync(path.join(outdir, 'index.json'), JSON.stringify(out, null, 2) + '\n');
  console.log(`${out.primitives.length} Draco primitive(s), ${failures} failed -> ${path.join(outdir, 'index.json')}`);
  process.exit(failures ? 1 : 0);
}

main().catch((e) => { console.error(e && e.stack || e); process.exit(2); });
