// Encodes every texture of a glTF/GLB as KTX2 (KHR_texture_basisu) with ktx2-encoder's glTF-Transform
// transform. Usage: node ktx2.mjs INPUT OUTPUT etc1s|uastc. generate.sh copies it next to its
// node_modules (ES modules resolve packages from the script's own folder) and runs it there.
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import draco3d from 'draco3dgltf';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';
import { ktx2 } from 'ktx2-encoder/gltf-transform';
import sharp from 'sharp';
const [,, input, output, mode] = process.argv;
const io = new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({
  'draco3d.decoder': await draco3d.createDecoderModule(),
  'draco3d.encoder': await draco3d.createEncoderModule(),
  'meshopt.decoder': MeshoptDecoder, 'meshopt.encoder': MeshoptEncoder,
});
const doc = await io.read(input);
const imageDecoder = async (buffer) => {
  const { data, info } = await sharp(buffer).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
};
await doc.transform(ktx2({ isUASTC: mode === 'uastc', generateMipmap: true, imageDecoder }));
await io.write(output, doc);
console.log('wrote', output);
