//! The files a glTF document is written as: one GLB (a 12-byte header, the JSON chunk padded
//! with spaces and the binary chunk padded with zeros, each to four bytes), or a `.gltf` JSON
//! file with its buffer in a `.bin` file beside it.

use super::WriteError;

const GLB_MAGIC: &[u8; 4] = b"glTF";
const GLB_VERSION: u32 = 2;
const JSON_CHUNK: &[u8; 4] = b"JSON";
const BIN_CHUNK: &[u8; 4] = b"BIN\0";

/// A GLB file of `json` and `bin` (no binary chunk when `bin` is empty).
pub fn glb(json: &[u8], bin: &[u8]) -> Result<Vec<u8>, WriteError> {
    let json_length = json.len().next_multiple_of(4);
    let bin_length = bin.len().next_multiple_of(4);
    let bin_chunk = if bin.is_empty() { 0 } else { 8 + bin_length };
    let total = 12 + 8 + json_length + bin_chunk;
    let Ok(total_u32) = u32::try_from(total) else {
        return Err(WriteError::TooLarge { bytes: total as u64 });
    };
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(GLB_MAGIC);
    out.extend_from_slice(&GLB_VERSION.to_le_bytes());
    out.extend_from_slice(&total_u32.to_le_bytes());
    chunk(&mut out, JSON_CHUNK, json, b' ');
    if !bin.is_empty() {
        chunk(&mut out, BIN_CHUNK, bin, 0);
    }
    Ok(out)
}

/// Appends a chunk of `kind` holding `data`, padded to four bytes with `pad`.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8], pad: u8) {
    let length = data.len().next_multiple_of(4);
    // Each chunk is under the file's total, which fits in a u32.
    out.extend_from_slice(&(length as u32).to_le_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    out.resize(out.len() + length - data.len(), pad);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_are_padded_to_four_bytes_and_the_header_counts_them() {
        let file = glb(b"{\"a\":1}", &[1, 2, 3, 4, 5]).unwrap();
        assert_eq!(&file[0..4], b"glTF");
        assert_eq!(u32::from_le_bytes(file[8..12].try_into().unwrap()) as usize, file.len());
        assert_eq!(
            u32::from_le_bytes(file[12..16].try_into().unwrap()),
            8,
            "7 bytes of JSON padded"
        );
        assert_eq!(&file[20..28], b"{\"a\":1} ");
        assert_eq!(&file[32..36], b"BIN\0");
        assert_eq!(&file[36..44], &[1, 2, 3, 4, 5, 0, 0, 0]);
        assert_eq!(file.len(), 44);
    }
}
