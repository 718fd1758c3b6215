// node tools/validate/validate.mjs FILE... : validates each GLB or .gltf file with the Khronos
// glTF-Validator (npm gltf-validator, pinned in package.json beside this file; install it with
// `npm ci --prefix tools/validate`). A .gltf file's external buffers and images are read from
// beside it, so that they are validated too.
//
// Prints one JSON object a file, one a line, in the order given:
//   {"file", "errors", "warnings", "infos", "hints", "messages": [{code, severity, message, pointer, offset}],
//    "truncated"}
// with severity 0 error, 1 warning, 2 info, 3 hint, pointer (JSON) or offset (GLB bytes) null where
// the message has none, and at most MAX_MESSAGES messages (the counts
// are always complete). A file that could not be validated at all (unreadable, or neither glTF
// nor GLB) prints {"file", "failure"} instead.
//
// Exit status: 0 when every file was validated, whatever the validator found (the caller
// judges); 1 when some file could not be validated; 2 when the validator itself cannot run.
import fs from 'node:fs/promises';
import path from 'node:path';

/** Messages kept per file: enough to diagnose, short enough for a test's failure message. */
const MAX_MESSAGES = 100;

/** The validator's `format` option by file extension; others are detected from the first byte. */
const FORMAT_OF_EXTENSION = { '.glb': 'glb', '.gltf': 'gltf' };

let validator;
try {
  validator = await import('gltf-validator');
} catch (error) {
  console.error(`the Khronos glTF-Validator is not installed (run \`npm ci --prefix tools/validate\`): ${error.message}`);
  process.exit(2);
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node tools/validate/validate.mjs FILE...');
  process.exit(2);
}

let exitStatus = 0;
for (const file of files) {
  try {
    console.log(JSON.stringify(await validate(file)));
  } catch (error) {
    console.log(JSON.stringify({ file, failure: String(error?.message ?? error) }));
    exitStatus = 1;
  }
}
process.exit(exitStatus);

/** The summary line of one file's validation report. */
async function validate(file) {
  const data = new Uint8Array(await fs.readFile(file));
  const report = await validator.validateBytes(data, {
    uri: path.basename(file),
    // As the validator's own command line does: by the extension, so that an empty or broken
    // GLB is reported as one (GLB_UNEXPECTED_END_OF_HEADER) rather than refused as unknown.
    format: FORMAT_OF_EXTENSION[path.extname(file).toLowerCase()],
    // 0 is unlimited: the counts must be complete, whatever this script prints of the messages.
    maxIssues: 0,
    writeTimestamp: false,
    externalResourceFunction: (uri) => readBeside(file, uri),
  });
  const issues = report.issues;
  return {
    file,
    errors: issues.numErrors,
    warnings: issues.numWarnings,
    infos: issues.numInfos,
    hints: issues.numHints,
    // A message locates its issue by JSON pointer, or by byte offset for the GLB container's.
    messages: issues.messages.slice(0, MAX_MESSAGES).map(({ code, severity, message, pointer, offset }) => ({
      code,
      severity,
      message,
      pointer: pointer ?? null,
      offset: offset ?? null,
    })),
    truncated: issues.messages.length > MAX_MESSAGES,
  };
}

/**
 * The bytes of an external resource, `uri` (percent-encoded, as glTF stores it) relative to
 * `file`. A non-relative URI (a scheme, or an absolute path) is not read: the validator reports
 * it as an IO_ERROR besides its NON_RELATIVE_URI warning (this npm build asks for every URI, where
 * its command line skips those), which suits a writer whose files must travel on their own.
 */
async function readBeside(file, uri) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(uri) || uri.startsWith('/')) {
    throw new Error(`non-relative URI not read: ${uri}`);
  }
  const resource = path.resolve(path.dirname(file), decodeURIComponent(uri));
  return new Uint8Array(await fs.readFile(resource));
}
