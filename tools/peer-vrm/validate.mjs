// node validate.mjs FILE... : run the Khronos glTF validator (npm gltf-validator) on GLB files
import fs from 'node:fs';
import validator from 'gltf-validator';
for (const f of process.argv.slice(2)) {
  const r = await validator.validateBytes(new Uint8Array(fs.readFileSync(f)), { maxIssues: 50, ignoredIssues: ['UNUSED_OBJECT'] });
  const msgs = r.issues.messages.filter((m) => m.severity <= 1).map((m) => `${['E','W'][m.severity]} ${m.code} ${m.pointer ?? ''} ${m.message}`);
  console.log(`${f}: errors=${r.issues.numErrors} warnings=${r.issues.numWarnings} anims=${r.info?.animationCount}`);
  for (const m of msgs.slice(0, 15)) console.log('   ', m);
}
