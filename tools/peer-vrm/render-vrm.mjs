// Reference picture of a VRM avatar: what pixiv's three-vrm 3.5.5 (the VRM reference implementation) on three.js
// r187 draws for a .vrm/.glb/.gltf, in headless Chromium with software WebGL (SwiftShader), for side-by-side
// comparison with rigscope's `render`. The page is render-vrm.html; the view options are those of peer-three's
// render.mjs (shared/peer-three), and the default framing is rigscope's, so the silhouettes line up with rigscope's
// default view (checked: within 1 pixel, outlines aside).
//
// Usage: node render-vrm.mjs FILE.vrm|FILE.glb|FILE.gltf -o OUT.png
//          [--azimuth DEG] [--elevation DEG] [--fov DEG] [--margin K] [--frame clip|clip-nodes|pose] [--size WxH]
//          [--background '#3c3f45'] [--clip NAME|INDEX|none] [--time S] [--playback once|loop]
//          [--light-dir X,Y,Z] [--light-intensity I] [--ambient I] [--tone-mapping none|neutral] [--exposure E]
//          [--expression NAME=W ...] [--mtoon-time S] [--no-outline] [--no-antialias]
//          [--environment room] [--gi-equalization] [--shadows] [--mikktspace]
//          [--chromium PATH] [--timeout S] [--verbose]
//
// View (same meaning and defaults as render.mjs, except the defaults below):
//   --azimuth 28.6479 --elevation 14.3239 --fov 40 --margin 1.1 --frame clip --background '#3c3f45' is rigscope's
//   default `render` view and is the DEFAULT here (render.mjs defaults to 30/15/45/1/pose/#3a3d44 instead).
//   Orbit camera about the centre of the framing box, at the distance where the box's bounding sphere fits the
//   narrower field of view times --margin (near = distance/100, far = distance*100, azimuth about +Y from +Z towards
//   +X). --frame clip (default) = rigscope's framing (src/view/framing.rs): the union over 33 evenly spaced times of
//   the clip (the rest pose without a clip) of the vertices after morphs and skinning of the clip's pose alone (no
//   expressions, constraints or springs), plus every glTF node's origin only when the model has no vertices;
//   --frame clip-nodes = render.mjs's --frame clip (node origins always: differs from rigscope where bones stick
//   out of the mesh, e.g. VRMC_materials_mtoon_UV_Animation_Test.vrm); --frame pose = the vertices as drawn.
//   --size default 800x600.
//   --clip default none (rest pose); --clip NAME|INDEX plays the file's glTF clip at --time (--playback once clamps,
//   loop wraps). The clip drives the raw bones; the normalized humanoid rig is not copied onto them
//   (autoUpdateHumanBones = false), so a clip is not overwritten.
//
// VRM: GLTFLoader + VRMLoaderPlugin (its default MToonMaterialLoaderPlugin: MToon materials, outlines as a second
// BackSide material on each MToon mesh, render order from the MToon extension; VRM 0.x materials through the
// v0 compatibility plugin). VRM 0.x (meta.metaVersion "0") is turned with VRMUtils.rotateVRM0 (scene.rotation.y = π,
// so the avatar faces +Z like a VRM 1.0). Frustum culling is off on every object (as three-vrm's examples do).
// After posing, every --expression is set with expressionManager.setValue (clamped to [0,1] by three-vrm), then
// vrm.update(0) runs once with vrm.springBoneManager detached for the call, so expressions, look-at (no target:
// yaw = pitch = 0), node constraints and material uniforms are applied while the spring bones stay exactly at
// rest (not stepped, not length-constrained, not collided). --mtoon-time S then sets every MToon material's UV
// animation to what S seconds of material.update() from 0 would give: scroll offsets = S × scroll speeds, rotation
// phase = S × rotation speed (outline materials included).
//
// Lighting: one white DirectionalLight at -dir (target at the origin), so that its light travels along --light-dir
// (default -1,-1,-1: from (1,1,1), as in three-vrm's examples), intensity --light-intensity (default π, as in
// three-vrm's examples: with r187's physically based light units, MToon's lit colour then equals its base colour,
// since MToon's diffuse is lightColor × colour / π); --ambient I adds a white AmbientLight of intensity I (default
// 0: none; MToon's indirect term is then I × colour / π, i.e. the same as a uniform environment of radiance I/π,
// see flat-hdr.py). No scene.environment, no shadows. --tone-mapping none (default: THREE.NoToneMapping, values
// clipped at 1) or neutral (THREE.NeutralToneMapping, exposure --exposure). Output colour space sRGB. r187 has no
// renderer.useLegacyLights (removed in r165): light units are always the physically based ones.
// --environment room lights the model with three.js's RoomEnvironment, as peer-three's render.mjs does (the
// fidelity table, tools/fidelity): scene.environment is its PMREM (what non-MToon materials reflect), and, because
// three-vrm's MToon reads no environment map, only light probes and ambient lights, a file with MToon also gets a
// LightProbe made from the same room (a cube render, LightProbeGenerator) for MToon; its other materials are then
// compiled without light probes, so the room does not light them twice. With --light-intensity 0 there is no
// directional light at all, so a file without MToon is drawn as render.mjs draws it (with rigscope's framing). three-vrm 3.5.5 declares MToon's giEqualizationFactor but never uses it;
// --gi-equalization applies it as the VRMC_materials_mtoon specification says (the probe's irradiance mixed with the
// mean of straight up and straight down by the factor), to measure what that term changes. --shadows lets every
// directional, spot and point light (the --light-dir light and the file's KHR_lights_punctual lights) cast a shadow
// onto the model (a 4096² PCF map fitted to the framing box), as rigscope's key light and file lights do.
// --mikktspace gives every mesh without a TANGENT attribute whose normal maps read TEXCOORD_0 unturned MikkTSpace
// tangents (three.js's computeMikkTSpaceTangents), as glTF asks and rigscope does (src/asset/tangents.rs), in place of
// GLTFLoader's frame from screen-space derivatives (undoing the normalScale.y flip GLTFLoader makes for that frame).
//
// How: as render.mjs: a loopback HTTP server serves render-vrm.html, node_modules/three, node_modules/@pixiv/three-vrm
// and the model's folder; puppeteer-core drives the system Chromium; the PNG is the canvas's own pixels. Prints a
// JSON summary (vrm version, expressions, camera, bounds, timings) on stdout.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const THREE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.resolve('three'))), '..');
const VRM_LIB = path.dirname(fileURLToPath(import.meta.resolve('@pixiv/three-vrm'))); // .../@pixiv/three-vrm/lib
const USAGE = 'usage: node render-vrm.mjs FILE.vrm|FILE.glb|FILE.gltf -o OUT.png [--azimuth DEG] [--elevation DEG] ' +
  '[--fov DEG] [--margin K] [--frame clip|clip-nodes|pose] [--size WxH] [--background COLOUR] [--clip NAME|INDEX|none] [--time S] ' +
  '[--playback once|loop] [--light-dir X,Y,Z] [--light-intensity I] [--ambient I] [--tone-mapping none|neutral] ' +
  '[--exposure E] [--expression NAME=W ...] [--mtoon-time S] [--no-outline] [--no-antialias] [--environment room] ' +
  '[--gi-equalization] [--shadows] [--mikktspace] [--chromium PATH] ' +
  '[--timeout S] [--verbose]';

function die(msg) { console.error(msg); process.exit(2); }

function parseArgs(argv) {
  const valued = new Set(['-o', '--output', '--clip', '--time', '--azimuth', '--elevation', '--fov', '--margin',
    '--frame', '--size', '--playback', '--background', '--exposure', '--chromium', '--timeout', '--light-dir',
    '--light-intensity', '--ambient', '--tone-mapping', '--mtoon-time', '--environment']);
  const o = { flags: new Set() }, files = [], expressions = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') { console.log(USAGE); process.exit(0); }
    if (a === '--expression') {
      if (i + 1 >= argv.length) die('--expression needs NAME=W');
      const m = /^(.+)=([^=]+)$/.exec(argv[++i]);
      if (!m || !Number.isFinite(Number(m[2]))) die(`--expression is NAME=WEIGHT, got ${argv[i]}`);
      expressions.push([m[1], Number(m[2])]);
    } else if (valued.has(a)) { if (i + 1 >= argv.length) die(`${a} needs a value`); o[a.replace(/^-+/, '')] = argv[++i]; }
    else if (a.startsWith('--')) {
      const flags = ['--no-outline', '--no-antialias', '--verbose', '--gi-equalization', '--shadows', '--mikktspace'];
      if (!flags.includes(a)) die(`unknown option ${a}\n${USAGE}`);
      o.flags.add(a);
    } else files.push(a);
  }
  if (files.length !== 1) die(USAGE);
  const out = o.o ?? o.output;
  if (!out) die('-o OUT.png is required\n' + USAGE);
  const size = (o.size ?? '800x600').split('x').map(Number);
  if (size.length !== 2 || !size.every((n) => Number.isInteger(n) && n > 0)) die('--size is WxH, e.g. 800x600');
  const num = (k, d) => { const v = o[k] === undefined ? d : Number(o[k]); if (!Number.isFinite(v)) die(`--${k} needs a number`); return v; };
  const playback = o.playback ?? 'once';
  if (!['once', 'loop'].includes(playback)) die('--playback is once or loop');
  const frame = o.frame ?? 'clip';
  if (!['pose', 'clip', 'clip-nodes'].includes(frame)) die('--frame is pose, clip or clip-nodes');
  const toneMapping = o['tone-mapping'] ?? 'none';
  if (!['none', 'neutral'].includes(toneMapping)) die('--tone-mapping is none or neutral');
  const environment = o.environment ?? 'none';
  if (!['none', 'room'].includes(environment)) die('--environment is room');
  const lightDir = (o['light-dir'] ?? '-1,-1,-1').split(',').map(Number);
  if (lightDir.length !== 3 || !lightDir.every(Number.isFinite) || Math.hypot(...lightDir) === 0) die('--light-dir is X,Y,Z (not all 0)');
  return {
    file: path.resolve(files[0]), out: path.resolve(out),
    params: {
      clip: o.clip ?? 'none', time: num('time', 0), playback,
      azimuth: num('azimuth', 28.6479), elevation: num('elevation', 14.3239), fov: num('fov', 40),
      margin: num('margin', 1.1), frame, size, background: o.background ?? '#3c3f45',
      lightDir, lightIntensity: num('light-intensity', Math.PI), ambient: num('ambient', 0),
      toneMapping, exposure: num('exposure', 1), expressions,
      mtoonTime: o['mtoon-time'] === undefined ? null : num('mtoon-time', 0),
      outline: !o.flags.has('--no-outline'), antialias: !o.flags.has('--no-antialias'),
      environment, giEqualization: o.flags.has('--gi-equalization'), shadows: o.flags.has('--shadows'),
      mikktspace: o.flags.has('--mikktspace'),
    },
    chromium: o.chromium, timeout: num('timeout', 300) * 1000, verbose: o.flags.has('--verbose'),
  };
}

function findChromium(given) {
  for (const c of [given, process.env.CHROMIUM_PATH].filter(Boolean)) if (fs.existsSync(c)) return c;
  for (const name of ['chromium-headless-shell', 'chromium', 'chromium-browser', 'google-chrome']) {
    for (const dir of (process.env.PATH || '').split(path.delimiter)) {
      const p = path.join(dir, name);
      if (dir && fs.existsSync(p)) return p;
    }
  }
  die('no Chromium found: apt-get install -y chromium-headless-shell (or chromium), or pass --chromium PATH');
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.json': 'application/json',
  '.wasm': 'application/wasm', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp',
  '.ktx2': 'image/ktx2', '.gltf': 'model/gltf+json', '.glb': 'model/gltf-binary', '.vrm': 'model/gltf-binary',
  '.bin': 'application/octet-stream' };

// Serves /render-vrm.html, /three/** (the three package), /three-vrm/** (@pixiv/three-vrm's lib folder) and
// /fs/ABSOLUTE/PATH for the model file and glTF buffer/image files, nothing else.
const MODEL_EXT = new Set(['.gltf', '.glb', '.vrm', '.bin', '.png', '.jpg', '.jpeg', '.webp', '.ktx2', '.basis']);
function serve(modelFile) {
  const within = (root, rel) => { const f = path.resolve(root, rel); return f.startsWith(root + path.sep) ? f : null; };
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = null;
    if (url === '/' || url === '/render-vrm.html') file = path.join(HERE, 'render-vrm.html');
    else if (url.startsWith('/three/')) file = within(THREE_ROOT, url.slice('/three/'.length));
    else if (url.startsWith('/three-vrm/')) file = within(VRM_LIB, url.slice('/three-vrm/'.length));
    else if (url.startsWith('/fs/')) {
      const f = path.resolve('/', url.slice('/fs/'.length));
      if (f === modelFile || MODEL_EXT.has(path.extname(f).toLowerCase())) file = f;
    }
    if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) { res.writeHead(404); res.end('not found'); return; }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file).toLowerCase()] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(a.file)) die(`no such file: ${a.file}`);
  const t0 = Date.now();
  const server = await serve(a.file);
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await puppeteer.launch({
    executablePath: findChromium(a.chromium),
    headless: true,
    protocolTimeout: a.timeout,
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist',
      '--disable-dev-shm-usage', `--window-size=${a.params.size[0]},${a.params.size[1]}`],
  });
  try {
    const page = await browser.newPage();
    page.on('console', (m) => { if (a.verbose || ['error', 'warn', 'warning'].includes(m.type())) console.error(`[page ${m.type()}] ${m.text()}`); });
    page.on('pageerror', (e) => console.error(`[page error] ${e.message}`));
    await page.setViewport({ width: a.params.size[0], height: a.params.size[1], deviceScaleFactor: 1 });
    await page.goto(`${base}/render-vrm.html`, { waitUntil: 'load', timeout: a.timeout });
    await page.waitForFunction('window.pageReady === true', { timeout: a.timeout });
    const params = { ...a.params, url: `${base}/fs${a.file.split(path.sep).map(encodeURIComponent).join('/')}` };
    const t1 = Date.now();
    const result = await page.evaluate((p) => window.renderModel(p), params);
    fs.mkdirSync(path.dirname(a.out), { recursive: true });
    fs.writeFileSync(a.out, Buffer.from(result.png.split(',')[1], 'base64'));
    result.info.ms.start = t1 - t0; // server, Chromium launch, page load
    result.info.ms.total = Date.now() - t0;
    console.log(JSON.stringify({ file: a.file, out: a.out, size: a.params.size, ...result.info }));
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((e) => { console.error(e && e.message ? e.message : e); process.exit(1); });
