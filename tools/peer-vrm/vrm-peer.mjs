#!/usr/bin/env node
// Headless three-vrm reference harness. See README.md for the output format.
//
//   node vrm-peer.mjs FILE [--steps N] [--dt S] [--clip NAME] [--every K]
//        [--expression NAME=W ...] [--look-at X,Y,Z] [--rotations]
//        [--auto-update-human-bones] [--no-render-sync] [--pretty]
//        [--vrma FILE.vrma] [--times T1,T2,...] [--no-springs]
//
// three@0.187.0, @pixiv/three-vrm@3.5.5, @pixiv/three-vrm-animation@3.5.5.
import fs from 'node:fs';
import path from 'node:path';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMLoaderPlugin, VRMUtils } from '@pixiv/three-vrm';
import {
  VRMAnimationLoaderPlugin, VRMLookAtQuaternionProxy, createVRMAnimationClip,
} from '@pixiv/three-vrm-animation';

// ---------------------------------------------------------------- arguments
function usage(msg) {
  if (msg) process.stderr.write(`vrm-peer: ${msg}\n`);
  process.stderr.write(
    'usage: node vrm-peer.mjs FILE [--steps N] [--dt S] [--clip NAME] [--every K]\n' +
    '       [--expression NAME=W ...] [--look-at X,Y,Z] [--rotations]\n' +
    '       [--auto-update-human-bones] [--no-render-sync] [--pretty]\n' +
    '       [--vrma FILE.vrma] [--times T1,T2,...] [--no-springs]\n');
  process.exit(2);
}

const argv = process.argv.slice(2);
const opts = {
  file: null, steps: 0, dt: 1 / 60, clip: null, every: null,
  expressions: [], lookAt: null, rotations: false,
  autoUpdateHumanBones: false, renderSync: true, pretty: false,
  vrma: null, times: null, springs: true,
};
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const next = () => { if (i + 1 >= argv.length) usage(`${a} needs a value`); return argv[++i]; };
  switch (a) {
    case '--steps': opts.steps = parseInt(next(), 10); break;
    case '--dt': opts.dt = parseFloat(next()); break;
    case '--clip': opts.clip = next(); break;
    case '--every': opts.every = parseInt(next(), 10); break;
    case '--expression': {
      const v = next(); const eq = v.lastIndexOf('=');
      if (eq <= 0) usage(`bad --expression ${v} (want NAME=W)`);
      opts.expressions.push([v.slice(0, eq), parseFloat(v.slice(eq + 1))]);
      break;
    }
    case '--look-at': {
      const p = next().split(',').map(Number);
      if (p.length !== 3 || p.some((x) => !Number.isFinite(x))) usage('bad --look-at (want X,Y,Z)');
      opts.lookAt = p; break;
    }
    case '--rotations': opts.rotations = true; break;
    case '--auto-update-human-bones': opts.autoUpdateHumanBones = true; break;
    case '--no-render-sync': opts.renderSync = false; break;
    case '--pretty': opts.pretty = true; break;
    case '--vrma': opts.vrma = next(); break;
    case '--times': {
      const t = next().split(',').map((x) => (x.trim() === '' ? NaN : Number(x)));
      if (!t.length || t.some((x) => !Number.isFinite(x) || x < 0)) usage('bad --times (want T1,T2,... >= 0)');
      opts.times = t; break;
    }
    case '--no-springs': opts.springs = false; break;
    case '-h': case '--help': usage(); break;
    default:
      if (a.startsWith('--')) usage(`unknown option ${a}`);
      if (opts.file) usage('only one FILE');
      opts.file = a;
  }
}
if (!opts.file) usage('missing FILE');
if (!(opts.steps >= 0)) usage('--steps must be >= 0');
if (!(opts.dt > 0)) usage('--dt must be > 0');
if (opts.every != null && !(opts.every >= 1)) usage('--every must be >= 1');
if (opts.vrma && opts.clip != null) usage('--vrma and --clip cannot be combined');
if (opts.times && (opts.steps !== 0 || opts.every != null)) usage('--times replaces --steps/--every');
// A VRM animation clip drives the *normalized* humanoid rig; humanoid.update() must copy it
// onto the raw bones, so --vrma always uses three-vrm's default autoUpdateHumanBones = true.
if (opts.vrma) opts.autoUpdateHumanBones = true;

const r = (x) => Math.round(x * 1e7) / 1e7; // output rounding

// ---------------------------------------------------------------- loading
// three's FileLoader (used for data: URI buffers of .gltf input) needs ProgressEvent,
// which node 20 lacks.
if (typeof globalThis.ProgressEvent === 'undefined') {
  globalThis.ProgressEvent = class ProgressEvent extends Event {
    constructor(type, init = {}) { super(type); Object.assign(this, init); }
  };
}
// Textures cannot be decoded in node (no DOM Image / createImageBitmap), so a
// GLTFLoader plugin answers every texture request with an empty THREE.Texture.
// Materials are irrelevant here; nodes, morphs and VRM extensions are kept intact.
class StubTexturePlugin {
  constructor(parser) { this.parser = parser; this.name = 'PEER_stub_textures'; }
  loadTexture(textureIndex) {
    const t = new THREE.Texture();
    t.name = `stub_texture_${textureIndex}`;
    return Promise.resolve(t);
  }
}

function readInput(file) {
  const buf = fs.readFileSync(file);
  const isGlb = buf.length >= 4 && buf.toString('latin1', 0, 4) === 'glTF';
  if (isGlb) return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  // .gltf JSON: inline external buffers as data: URIs (node's fetch cannot read
  // relative file paths); drop image URIs (textures are stubbed anyway).
  const json = JSON.parse(buf.toString('utf8'));
  const dir = path.dirname(file);
  for (const b of json.buffers ?? []) {
    if (b.uri && !b.uri.startsWith('data:')) {
      const data = fs.readFileSync(path.join(dir, decodeURIComponent(b.uri)));
      b.uri = 'data:application/octet-stream;base64,' + data.toString('base64');
    }
  }
  for (const img of json.images ?? []) {
    if (img.uri && !img.uri.startsWith('data:')) img.uri = 'data:image/png;base64,';
  }
  const text = new TextEncoder().encode(JSON.stringify(json));
  return text.buffer;
}

function silenceConsole(fn) {
  // three / three-vrm print warnings via console.*; keep stdout pure JSON.
  const saved = { log: console.log, info: console.info, warn: console.warn };
  const toErr = (...args) => process.stderr.write(args.map(String).join(' ') + '\n');
  console.log = toErr; console.info = toErr; console.warn = toErr;
  return Promise.resolve().then(fn).finally(() => Object.assign(console, saved));
}

const t0 = performance.now();
const data = readInput(opts.file);
const loader = new GLTFLoader();
loader.register((parser) => new StubTexturePlugin(parser));
loader.register((parser) => new VRMLoaderPlugin(parser, {
  autoUpdateHumanBones: opts.autoUpdateHumanBones,
}));
const gltf = await silenceConsole(() => loader.parseAsync(data, path.dirname(path.resolve(opts.file)) + '/'));
// three-vrm binds morph targets in un-awaited async callbacks; let them settle.
await new Promise((r) => setTimeout(r, 0));
const tLoad = performance.now();

const json = gltf.parser.json;
const vrm = gltf.userData.vrm ?? null; // null when the file has no meta+humanoid
const springBoneManager = vrm?.springBoneManager ?? gltf.userData.vrmSpringBoneManager ?? null;
const expressionManager = vrm?.expressionManager ?? null;
const lookAt = vrm?.lookAt ?? null;
const scene = gltf.scene;

let version = null;
if (vrm?.meta?.metaVersion) version = vrm.meta.metaVersion; // "0" or "1"
else if (json.extensions?.VRMC_vrm || json.extensions?.VRMC_springBone) version = '1';
else if (json.extensions?.VRM) version = '0';

if (vrm) VRMUtils.rotateVRM0(vrm); // 0.x only: scene.rotation.y = PI

// ---------------------------------------------------------------- node / mesh maps
const nodeObjects = new Map(); // gltf node index -> Object3D
const meshPrimitive0 = new Map(); // gltf mesh index -> first-primitive Mesh
for (const [obj, assoc] of gltf.parser.associations) {
  if (!obj.isObject3D) continue;
  if (assoc.nodes !== undefined && !nodeObjects.has(assoc.nodes)) nodeObjects.set(assoc.nodes, obj);
  if (assoc.meshes !== undefined && assoc.primitives === 0 && obj.isMesh && !meshPrimitive0.has(assoc.meshes)) {
    meshPrimitive0.set(assoc.meshes, obj);
  }
}
const nodeIndexOf = new Map([...nodeObjects].map(([i, o]) => [o, i]));
const morphMeshIndices = [];
(json.meshes ?? []).forEach((m, i) => {
  if (m.primitives?.[0]?.targets?.length) morphMeshIndices.push(i);
});

// ---------------------------------------------------------------- clip
let mixer = null;
if (opts.clip != null) {
  const clip = gltf.animations.find((c) => c.name === opts.clip)
    ?? (/^\d+$/.test(opts.clip) ? gltf.animations[Number(opts.clip)] : undefined);
  if (!clip) {
    process.stderr.write(`vrm-peer: no animation named ${opts.clip}; have [${gltf.animations.map((c) => c.name).join(', ')}]\n`);
    process.exit(1);
  }
  mixer = new THREE.AnimationMixer(scene);
  mixer.clipAction(clip).setLoop(THREE.LoopRepeat, Infinity).play();
}

// ---------------------------------------------------------------- VRM animation (--vrma)
let vrmaInfo = null;
let action = null;
if (opts.vrma) {
  if (!vrm) {
    process.stderr.write('vrm-peer: --vrma needs a VRM (meta + humanoid)\n');
    process.exit(1);
  }
  const aLoader = new GLTFLoader();
  aLoader.register((parser) => new StubTexturePlugin(parser));
  aLoader.register((parser) => new VRMAnimationLoaderPlugin(parser));
  const aGltf = await silenceConsole(() => aLoader.parseAsync(readInput(opts.vrma),
    path.dirname(path.resolve(opts.vrma)) + '/'));
  const vrmAnimation = aGltf.userData.vrmAnimations?.[0];
  if (!vrmAnimation) {
    process.stderr.write(`vrm-peer: ${opts.vrma} has no VRMC_vrm_animation animation\n`);
    process.exit(1);
  }
  // createVRMAnimationClip() looks for a VRMLookAtQuaternionProxy among vrm.scene's children and
  // creates one (with a console warning) if there is none; create it here, as three-vrm's examples do.
  if (vrm.lookAt && !vrm.scene.children.some((o) => o instanceof VRMLookAtQuaternionProxy)) {
    const proxy = new VRMLookAtQuaternionProxy(vrm.lookAt);
    proxy.name = 'VRMLookAtQuaternionProxy';
    vrm.scene.add(proxy);
  }
  const clip = await silenceConsole(() => createVRMAnimationClip(vrmAnimation, vrm));
  mixer = new THREE.AnimationMixer(vrm.scene);
  action = mixer.clipAction(clip).setLoop(THREE.LoopRepeat, Infinity);
  action.play();
  const hipsNorm = vrm.humanoid.normalizedRestPose.hips?.position;
  vrmaInfo = {
    file: opts.vrma,
    clip_name: clip.name,
    duration: r(clip.duration),
    animations: aGltf.userData.vrmAnimations.length,
    rest_hips_position: vrmAnimation.restHipsPosition.toArray().map(r), // vrma hips, world
    // createVRMAnimationClip scales the hips translation by avatar hips Y / vrma hips Y
    hips_translation_scale: hipsNorm ? r(hipsNorm[1] / vrmAnimation.restHipsPosition.y) : null,
    humanoid_rotation_bones: [...vrmAnimation.humanoidTracks.rotation.keys()],
    humanoid_translation_bones: [...vrmAnimation.humanoidTracks.translation.keys()],
    expression_tracks: [...vrmAnimation.expressionTracks.preset.keys(), ...vrmAnimation.expressionTracks.custom.keys()],
    look_at_track: vrmAnimation.lookAtTrack != null,
    tracks: clip.tracks.map((t) => t.name),
  };
}

// ---------------------------------------------------------------- expressions / look-at
const missingExpressions = [];
for (const [name, w] of opts.expressions) {
  if (!expressionManager?.getExpression(name)) missingExpressions.push(name);
  expressionManager?.setValue(name, w);
}
let lookAtTarget = null;
if (opts.lookAt && lookAt) {
  lookAtTarget = new THREE.Object3D(); // standalone root: its world position is exactly X,Y,Z
  lookAtTarget.position.fromArray(opts.lookAt);
  lookAtTarget.updateMatrixWorld(true);
  lookAt.target = lookAtTarget;
  lookAt.autoUpdate = true;
}

// ---------------------------------------------------------------- spring init (as on load)
scene.updateMatrixWorld(true);
if (springBoneManager && opts.springs) springBoneManager.setInitState();

// ---------------------------------------------------------------- sampling
const _p = new THREE.Vector3(); const _q = new THREE.Quaternion(); const _s = new THREE.Vector3();
const _m = new THREE.Matrix4(); const _l = new THREE.Matrix4();
// World matrix of o. With render sync (default) scene.updateMatrixWorld() has just run, so
// matrixWorld is current. With --no-render-sync it is recomputed from the local transforms
// without touching any three.js state (matrixWorld of nodes outside the spring-bone
// ancestors would otherwise be stale).
function worldMatrixOf(o, target) {
  if (opts.renderSync) return target.copy(o.matrixWorld);
  target.identity();
  for (let c = o; c; c = c.parent) {
    const local = c.matrixAutoUpdate ? _l.compose(c.position, c.quaternion, c.scale) : _l.copy(c.matrix);
    target.premultiply(local);
  }
  return target;
}
function sample(step, time = step * opts.dt) {
  const out = { step, time: r(time), nodes: {} };
  if (opts.rotations) out.rotations = {};
  for (let i = 0; i < (json.nodes ?? []).length; i++) {
    const o = nodeObjects.get(i);
    if (!o) continue; // node not in the loaded scene
    worldMatrixOf(o, _m).decompose(_p, _q, _s);
    out.nodes[i] = [r(_p.x), r(_p.y), r(_p.z)];
    if (opts.rotations) out.rotations[i] = [r(_q.x), r(_q.y), r(_q.z), r(_q.w)];
  }
  out.morphs = {};
  for (const m of morphMeshIndices) {
    const mesh = meshPrimitive0.get(m);
    if (mesh?.morphTargetInfluences) out.morphs[m] = Array.from(mesh.morphTargetInfluences, r);
  }
  if (expressionManager) {
    // expressions: the raw weight (what setValue stored, saturated to [0,1]).
    // expressions_applied: the weight three-vrm's VRMExpression.applyWeight() hands to the
    // binds in expressionManager.update(): outputWeight (isBinary: weight > 0.5 ? 1 : 0) times
    // the override multiplier from the manager's own _calculateWeightMultipliers(), and 0 for a
    // binary expression whose product is < 1. Computed from the current weights, i.e. it equals
    // what the last vrm.update() applied as long as nothing changed the weights since.
    const mult = expressionManager._calculateWeightMultipliers();
    out.expressions = {};
    out.expressions_applied = {};
    for (const e of expressionManager.expressions) {
      const name = e.expressionName;
      out.expressions[name] = r(e.weight);
      let m = 1;
      if (expressionManager.blinkExpressionNames.includes(name)) m *= mult.blink;
      if (expressionManager.lookAtExpressionNames.includes(name)) m *= mult.lookAt;
      if (expressionManager.mouthExpressionNames.includes(name)) m *= mult.mouth;
      let w = e.outputWeight * m;
      if (e.isBinary && w < 1) w = 0;
      out.expressions_applied[name] = r(w);
    }
  }
  out.look_at = lookAt ? { yaw: r(lookAt.yaw), pitch: r(lookAt.pitch) } : null;
  return out;
}

// vrm.update(dt), or with --no-springs the same sequence as three-vrm's VRM.update()
// (VRMCore.update: humanoid, lookAt, expressions; then node constraints, [springs], materials)
// with the spring-bone step left out.
function vrmUpdate(dt) {
  if (vrm) {
    if (opts.springs) { vrm.update(dt); return; }
    vrm.humanoid.update();
    vrm.lookAt?.update(dt);
    vrm.expressionManager?.update();
    vrm.nodeConstraintManager?.update();
    vrm.materials?.forEach((m) => m.update?.(dt));
  } else if (opts.springs) {
    springBoneManager?.update(dt); // springs-only file (no meta/humanoid)
  }
}

const samples = [];
const every = opts.every ?? (opts.steps > 0 ? opts.steps : 1);
if (opts.times) {
  // --times: jump to each time (no stepping): mixer.setTime(t) -> vrm update with delta 0 ->
  // scene.updateMatrixWorld(true) -> sample. "step" is the index into --times.
  await silenceConsole(() => {
    opts.times.forEach((t, i) => {
      if (mixer) mixer.setTime(t);
      vrmUpdate(0);
      scene.updateMatrixWorld(true);
      samples.push(sample(i, t));
    });
  });
} else if (opts.steps === 0) samples.push(sample(0));
await silenceConsole(() => {
  for (let i = 1; !opts.times && i <= opts.steps; i++) {
    if (mixer) mixer.update(opts.dt);
    vrmUpdate(opts.dt);
    // A browser app renders after vrm.update(); WebGLRenderer.render calls
    // scene.updateMatrixWorld(). Emulate that so all world matrices are fresh.
    if (opts.renderSync) scene.updateMatrixWorld();
    if (i % every === 0 || (opts.every == null && i === opts.steps)) samples.push(sample(i));
  }
});
const tRun = performance.now();

// ---------------------------------------------------------------- output
const springJoints = [];
if (springBoneManager) {
  springBoneManager._sortJoints?.();
  const order = springBoneManager._sortedJoints ?? Array.from(springBoneManager.joints);
  for (const j of order) springJoints.push(nodeIndexOf.get(j.bone) ?? null);
}
const result = {
  file: opts.file,
  version,
  is_vrm: !!vrm,
  three: THREE.REVISION,
  options: {
    steps: opts.steps, dt: opts.dt, every, clip: opts.clip,
    expressions: Object.fromEntries(opts.expressions), look_at: opts.lookAt,
    auto_update_human_bones: opts.autoUpdateHumanBones, render_sync: opts.renderSync,
    vrma: opts.vrma, times: opts.times, springs: opts.springs,
  },
  spring_joints: springJoints,
  expressions: expressionManager ? expressionManager.expressions.map((e) => e.expressionName) : [],
  missing_expressions: missingExpressions,
  look_at_type: lookAt ? (lookAt.applier?.constructor?.type ?? null) : null,
  clips: gltf.animations.map((c) => c.name),
  vrma: vrmaInfo, // null without --vrma
  timing_ms: { load: Math.round(tLoad - t0), run: Math.round(tRun - tLoad) },
  samples,
};
process.stdout.write(JSON.stringify(result, null, opts.pretty ? 1 : undefined) + '\n');
