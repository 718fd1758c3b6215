//! Basis Universal textures made by the tests: Binomial's encoder (the `basis-universal`
//! crate) writes a `.basis` file, and `ktx2_of_basis` moves its payload into the KTX2
//! container KHR_texture_basisu asks for (the crate's encoder writes `.basis` only).
//!
//! KTX2 layout (KTX 2.0 specification): the 80-byte header and index, one level index entry
//! per mip level, the data format descriptor (one basic block, one sample), for ETC1S the
//! BasisLZ global data (the `.basis` file's codebooks and Huffman tables, which are the same
//! streams, and one image descriptor per level), then the levels' data, smallest first (each a
//! `.basis` slice: ETC1S's compressed slice, or UASTC's 16-byte blocks).

use basis_universal::{BasisTextureFormat, ColorSpace, Compressor, CompressorParams};
use image::RgbaImage;

/// `image` encoded by Basis Universal in `format`, as a `.basis` file (sRGB, no mipmaps).
pub fn encode_basis(image: &RgbaImage, format: BasisTextureFormat) -> Vec<u8> {
    encode(image, format, false)
}

/// `image` encoded by Basis Universal in `format` with its mip chain down to 1×1 (the
/// encoder's own filtered levels), as a `.basis` file of one slice per level (sRGB).
pub fn encode_basis_mipmapped(image: &RgbaImage, format: BasisTextureFormat) -> Vec<u8> {
    encode(image, format, true)
}

fn encode(image: &RgbaImage, format: BasisTextureFormat, mipmaps: bool) -> Vec<u8> {
    let mut params = CompressorParams::new();
    params.set_basis_format(format);
    params.set_color_space(ColorSpace::Srgb);
    params.set_generate_mipmaps(mipmaps);
    params.set_etc1s_quality_level(basis_universal::ETC1S_QUALITY_MAX);
    params.set_uastc_quality_level(basis_universal::UASTC_QUALITY_DEFAULT);
    params
        .source_image_mut(0)
        .init(image.as_raw(), image.width(), image.height(), 4);
    let mut compressor = Compressor::new(1);
    // SAFETY: the parameters above are valid ones (one RGBA image, a known format).
    unsafe {
        assert!(compressor.init(&params));
        compressor.process().expect("the Basis encoder failed");
    }
    compressor.basis_file().to_vec()
}

/// A little-endian unsigned number of `len` bytes at `at` (the `.basis` header packs them so).
fn packed(bytes: &[u8], at: usize, len: usize) -> usize {
    bytes[at..at + len]
        .iter()
        .rev()
        .fold(0, |value, &b| value << 8 | b as usize)
}

/// The slices of a single-image, opaque `.basis` file, one per mip level: its format
/// (0 ETC1S, 1 UASTC), level 0's width and height, each level's data (level 0 first), plus
/// ETC1S's global data streams.
struct BasisPayload<'a> {
    uastc: bool,
    width: u32,
    height: u32,
    slices: Vec<&'a [u8]>,
    endpoints: (usize, &'a [u8]),
    selectors: (usize, &'a [u8]),
    tables: &'a [u8],
}

fn read_basis(basis: &[u8]) -> BasisPayload<'_> {
    assert_eq!(
        packed(basis, 0, 2),
        ('B' as usize) << 8 | 's' as usize,
        "not a .basis file"
    );
    let slice_count = packed(basis, 14, 3);
    assert_eq!(packed(basis, 17, 3), 1, "one image expected");
    assert_eq!(
        packed(basis, 21, 2) & 4,
        0,
        "an opaque image expected (no alpha slices)"
    );
    let stream = |count_at: usize, offset_at: usize, size_len: usize| {
        let offset = packed(basis, offset_at, 4);
        let size = packed(basis, offset_at + 4, size_len);
        (packed(basis, count_at, 2), &basis[offset..offset + size])
    };
    // Slice descriptors of 23 bytes: image (3), level (1), flags (1), width (2), height (2),
    // blocks across and down (2 + 2), data offset (4) and length (4), CRC (2).
    let slice_desc = packed(basis, 65, 4);
    let slices = (0..slice_count)
        .map(|level| {
            let desc = slice_desc + 23 * level;
            assert_eq!(packed(basis, desc + 3, 1), level, "slices in level order");
            let (at, len) = (packed(basis, desc + 13, 4), packed(basis, desc + 17, 4));
            &basis[at..at + len]
        })
        .collect();
    BasisPayload {
        uastc: packed(basis, 20, 1) == 1,
        width: packed(basis, slice_desc + 5, 2) as u32,
        height: packed(basis, slice_desc + 7, 2) as u32,
        slices,
        endpoints: stream(39, 41, 3),
        selectors: stream(48, 50, 3),
        tables: {
            let offset = packed(basis, 57, 4);
            &basis[offset..offset + packed(basis, 61, 4)]
        },
    }
}

/// The data format descriptor of a Basis texture: ETC1S (model 163, one RGB sample of 64
/// bits) or UASTC (model 166, one RGBA sample of 128 bits), 4×4 blocks, BT.709, sRGB.
fn data_format_descriptor(uastc: bool) -> Vec<u8> {
    let mut dfd = Vec::new();
    let u32s = |dfd: &mut Vec<u8>, values: &[u32]| values.iter().for_each(|v| dfd.extend(v.to_le_bytes()));
    u32s(&mut dfd, &[44, 0]); // total size; vendor 0 (Khronos), descriptor type 0 (basic)
    dfd.extend(2u16.to_le_bytes()); // version
    dfd.extend(40u16.to_le_bytes()); // block size: 24 + one 16-byte sample
    let model = if uastc { 166 } else { 163 };
    dfd.extend([model, 1, 2, 0]); // colour model, BT.709 primaries, sRGB transfer, straight alpha
    dfd.extend([3, 3, 0, 0]); // 4×4 texel blocks
    dfd.extend([if uastc { 16 } else { 0 }, 0, 0, 0, 0, 0, 0, 0]); // bytes per plane
    let (bits, channel) = if uastc { (127u16, 3u8) } else { (63, 0) }; // UASTC RGBA / ETC1S RGB
    dfd.extend(0u16.to_le_bytes()); // bit offset
    dfd.extend([bits as u8, channel]); // bit length − 1, channel
    dfd.extend([0, 0, 0, 0]); // sample position
    u32s(&mut dfd, &[0, u32::MAX]); // sample lower and upper
    dfd
}

/// The KTX2 file holding the texture of a `.basis` file with one opaque image, with as many
/// levels as the file has; a UASTC level is Zstandard-supercompressed when `zstandard` says so
/// (as `toktx --zcmp` writes them).
pub fn ktx2_of_basis(basis: &[u8], zstandard: bool) -> Vec<u8> {
    let payload = read_basis(basis);
    assert!(
        !zstandard || payload.uastc,
        "ETC1S has its own supercompression (BasisLZ)"
    );
    // Each level's data as stored, and its unpacked length (0 for BasisLZ).
    let levels: Vec<(Vec<u8>, usize)> = (payload.slices.iter())
        .map(|slice| match (zstandard, payload.uastc) {
            (true, _) => (
                ruzstd::encoding::compress_to_vec(*slice, ruzstd::encoding::CompressionLevel::Fastest),
                slice.len(),
            ),
            (false, true) => (slice.to_vec(), slice.len()),
            (false, false) => (slice.to_vec(), 0),
        })
        .collect();
    let dfd = data_format_descriptor(payload.uastc);
    // BasisLZ global data: counts and lengths, one image descriptor per level, then the streams.
    let mut sgd = Vec::new();
    if !payload.uastc {
        sgd.extend((payload.endpoints.0 as u16).to_le_bytes());
        sgd.extend((payload.selectors.0 as u16).to_le_bytes());
        for length in [
            payload.endpoints.1.len(),
            payload.selectors.1.len(),
            payload.tables.len(),
            0,
        ] {
            sgd.extend((length as u32).to_le_bytes());
        }
        // Image flags (not a P-frame), RGB slice offset (in its level) and length, no alpha slice.
        for (data, _) in &levels {
            for value in [0, 0, data.len() as u32, 0, 0] {
                sgd.extend(value.to_le_bytes());
            }
        }
        sgd.extend(payload.endpoints.1);
        sgd.extend(payload.selectors.1);
        sgd.extend(payload.tables);
    }
    let dfd_at = 80 + 24 * levels.len();
    let sgd_at = (dfd_at + dfd.len()).next_multiple_of(8);
    // The levels' data, smallest first, each on a 16-byte boundary (UASTC's block size).
    let mut level_at = vec![0; levels.len()];
    let mut end = sgd_at + sgd.len();
    for (index, (data, _)) in levels.iter().enumerate().rev() {
        level_at[index] = end.next_multiple_of(16);
        end = level_at[index] + data.len();
    }
    let mut file = b"\xABKTX 20\xBB\r\n\x1A\n".to_vec();
    let supercompression = match (payload.uastc, zstandard) {
        (false, _) => 1, // BasisLZ
        (true, false) => 0,
        (true, true) => 2, // Zstandard
    };
    let level_count = levels.len() as u32;
    for value in [
        0,
        1,
        payload.width,
        payload.height,
        0,
        0,
        1,
        level_count,
        supercompression,
    ] {
        file.extend(u32::to_le_bytes(value));
    }
    for value in [dfd_at as u32, dfd.len() as u32, 0, 0] {
        file.extend(value.to_le_bytes());
    }
    let sgd_index = if sgd.is_empty() { (0, 0) } else { (sgd_at, sgd.len()) };
    for value in [sgd_index.0, sgd_index.1] {
        file.extend((value as u64).to_le_bytes());
    }
    for ((data, unpacked), at) in levels.iter().zip(&level_at) {
        for value in [*at, data.len(), *unpacked] {
            file.extend((value as u64).to_le_bytes());
        }
    }
    file.extend(&dfd);
    file.resize(sgd_at, 0);
    file.extend(&sgd);
    for (index, (data, _)) in levels.iter().enumerate().rev() {
        file.resize(level_at[index], 0);
        file.extend(data);
    }
    file
}

/// Decodes a `.basis` file to RGBA8 with Binomial's own (C++) transcoder.
pub fn reference_rgba(basis: &[u8]) -> Vec<u8> {
    use basis_universal::{TranscodeParameters, Transcoder, TranscoderTextureFormat};
    let mut transcoder = Transcoder::new();
    assert!(transcoder.prepare_transcoding(basis).is_ok());
    let rgba = transcoder
        .transcode_image_level(
            basis,
            TranscoderTextureFormat::RGBA32,
            TranscodeParameters {
                image_index: 0,
                level_index: 0,
                ..Default::default()
            },
        )
        .expect("the reference transcoder failed");
    transcoder.end_transcoding();
    rgba
}
