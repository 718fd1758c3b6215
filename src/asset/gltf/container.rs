//! The glTF container: a `.glb` (binary header, JSON chunk, BIN chunk) or a `.gltf` JSON file,
//! and the buffers and images it refers to (GLB chunk, `data:` URIs or files beside it).
//!
//! Every length read from the file is checked against the bytes actually there before it is
//! used, so a truncated or corrupt file gives an error instead of a panic or a huge allocation.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use base64::Engine;
use gltf_json::Root;

use super::json::{self, AttributeNames, Document};
use super::pointer::PointerChannel;
use super::target_names::WrittenNames;
use crate::asset::LoadErrorKind;
use crate::asset::format::{Format, GLB_MAGIC};

const PLACEHOLDER: &str = "has no data (no uri, and not the GLB binary chunk)";
const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;

/// A parsed glTF document with its buffers loaded.
pub struct Container<'a> {
    pub root: Root,
    /// Per animation, the file's index of each channel in `root` (see `json`).
    pub channel_numbers: Vec<Vec<usize>>,
    /// Per mesh and primitive, the attribute names as written (see `json`).
    pub attribute_names: AttributeNames,
    /// Per mesh, the morph target names written in its `extras`.
    pub target_names: Vec<Option<WrittenNames>>,
    /// Per animation, its channels that point at properties other than nodes' (see `json`).
    pub pointer_channels: Vec<Vec<PointerChannel>>,
    /// Per file node, its `KHR_node_visibility` `visible`, when it says.
    pub node_visible: Vec<Option<bool>>,
    /// What the JSON adjustments left out.
    pub warnings: Vec<String>,
    /// Each buffer's bytes, or why it has none: that is an error only for what reads from it.
    pub buffers: Vec<Result<Cow<'a, [u8]>, NoData>>,
    /// Folder that relative URIs are resolved against.
    pub base_dir: PathBuf,
    /// Bytes read from disk for this model (the file plus external buffers): the yardstick for
    /// how much decoded data the file may ask for.
    pub input_bytes: usize,
    /// Per buffer view, the bytes decoded from its meshopt compression (see `compressed`),
    /// read in place of its buffer's.
    pub decoded_views: Vec<Option<Vec<u8>>>,
    /// Per accessor a Draco primitive supplies, its elements tightly packed.
    pub decoded_accessors: HashMap<usize, Vec<u8>>,
}

/// Why a buffer has no bytes.
pub enum NoData {
    /// No uri, and not the GLB binary chunk: glTF allows it for data nothing reads (or that an
    /// extension supplies).
    Placeholder,
    /// Its file or URI cannot be read: why.
    Unreadable(String),
}

impl Container<'_> {
    /// The bytes of buffer view `index`: decoded ones, or its buffer's, checked to lie inside it.
    pub fn view(&self, index: usize) -> Result<&[u8], String> {
        if let Some(Some(decoded)) = self.decoded_views.get(index) {
            return Ok(decoded);
        }
        let view = self
            .root
            .buffer_views
            .get(index)
            .ok_or_else(|| format!("buffer view {index} does not exist"))?;
        let buffer_index = view.buffer.value();
        let buffer = match self.buffers.get(buffer_index) {
            Some(Ok(buffer)) => buffer,
            Some(Err(NoData::Placeholder)) => {
                return Err(format!(
                    "buffer view {index} uses buffer {buffer_index}, which {PLACEHOLDER}"
                ));
            }
            Some(Err(NoData::Unreadable(why))) => {
                return Err(format!(
                    "buffer view {index} uses buffer {buffer_index}, which cannot be read ({why})"
                ));
            }
            None => {
                return Err(format!(
                    "buffer view {index} uses buffer {buffer_index}, which does not exist"
                ));
            }
        };
        let start = view.byte_offset.map_or(0, |o| o.0);
        start
            .checked_add(view.byte_length.0)
            .and_then(|end| buffer.get(usize::try_from(start).ok()?..usize::try_from(end).ok()?))
            .ok_or_else(|| format!("buffer view {index} reaches past the end of its buffer"))
    }

    /// Whether buffer view `index` lies in a placeholder buffer (one without data), saying so:
    /// what reads it is left out with a warning rather than failing the file. `None` for any
    /// other view (reading a broken one says how it is broken).
    pub fn view_unavailable(&self, index: usize) -> Option<&'static str> {
        if let Some(Some(_)) = self.decoded_views.get(index) {
            return None;
        }
        let buffer = self.root.buffer_views.get(index)?.buffer.value();
        matches!(self.buffers.get(buffer)?, Err(NoData::Placeholder)).then_some(PLACEHOLDER)
    }

    /// The byte stride buffer view `index` declares, if any.
    pub fn view_stride(&self, index: usize) -> Option<usize> {
        self.root.buffer_views.get(index)?.byte_stride.map(|s| s.0)
    }
}

pub fn is_glb(bytes: &[u8]) -> bool {
    bytes.starts_with(GLB_MAGIC)
}

/// Parses `bytes` (the contents of `path`) and loads its buffers.
pub fn open<'a>(path: &Path, bytes: &'a [u8]) -> Result<Container<'a>, LoadErrorKind> {
    let named_glb = Format::from_extension(path).is_some_and(Format::is_glb);
    let (json, bin) = if is_glb(bytes) {
        split_glb(bytes).map_err(|problem| LoadErrorKind::invalid("the GLB container", problem))?
    } else if named_glb && !bytes.trim_ascii_start().starts_with(b"{") {
        return Err(LoadErrorKind::BadMagic {
            found: describe_magic(bytes),
        });
    } else {
        (bytes, None)
    };
    let Document {
        root,
        channel_numbers,
        attribute_names,
        target_names,
        pointer_channels,
        node_visible,
        mut warnings,
    } = json::parse(json)?;
    let base_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut input_bytes = bytes.len();
    let mut buffers = Vec::with_capacity(root.buffers.len());
    for (index, buffer) in root.buffers.iter().enumerate() {
        let data: Cow<'a, [u8]> = match (&buffer.uri, index, bin) {
            (Some(uri), _, _) => match read_uri(&base_dir, uri) {
                Ok(data) => {
                    warnings.extend(backslash_note(uri).map(|note| format!("/buffers/{index}: {note}")));
                    input_bytes += data.len();
                    Cow::Owned(data)
                }
                Err(why) => {
                    warnings.push(format!("/buffers/{index}: {why} (not read)"));
                    buffers.push(Err(NoData::Unreadable(why)));
                    continue;
                }
            },
            (None, 0, Some(bin)) => Cow::Borrowed(bin),
            // A placeholder (glTF allows them, e.g. for data an extension supplies).
            (None, _, _) => {
                buffers.push(Err(NoData::Placeholder));
                continue;
            }
        };
        // Exporters pad buffers without counting the padding, or count it without writing it:
        // the views that fit in the data are read, those past it fail when they are read.
        let declared = buffer.byte_length.0;
        if (data.len() as u64) < declared {
            warnings.push(format!(
                "/buffers/{index}: it declares {declared} bytes but only {} are there (the views that fit are read)",
                data.len()
            ));
        }
        buffers.push(Ok(data));
    }
    Ok(Container {
        root,
        channel_numbers,
        attribute_names,
        target_names,
        pointer_channels,
        node_visible,
        warnings,
        buffers,
        base_dir,
        input_bytes,
        decoded_views: Vec::new(),
        decoded_accessors: HashMap::new(),
    })
}

/// The first four bytes, as text when they are printable, else in hex.
fn describe_magic(bytes: &[u8]) -> String {
    let magic = &bytes[..bytes.len().min(4)];
    if magic.is_empty() {
        "nothing (the file is empty)".into()
    } else if magic.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
        format!("\"{}\"", String::from_utf8_lossy(magic))
    } else {
        let hex: Vec<String> = magic.iter().map(|b| format!("{b:02x}")).collect();
        format!("bytes {}", hex.join(" "))
    }
}

/// Splits a GLB file into its JSON chunk and optional BIN chunk.
fn split_glb(file: &[u8]) -> Result<(&[u8], Option<&[u8]>), String> {
    let word = |bytes: &[u8], offset: usize| -> Option<u32> {
        let slice = bytes.get(offset..offset.checked_add(4)?)?;
        Some(u32::from_le_bytes(slice.try_into().ok()?))
    };
    let version = word(file, 4).ok_or("its header is truncated")?;
    if version != 2 {
        return Err(format!("version {version} is not supported (only glTF 2.0)"));
    }
    let declared = word(file, 8).ok_or("its header is truncated")? as usize;
    if declared > file.len() {
        return Err(format!(
            "its header declares {declared} bytes but the file has {} (truncated file?)",
            file.len()
        ));
    }
    // Chunks are read from the declared length only.
    let bytes = &file[..declared];
    let mut offset = 12;
    let mut json = None;
    let mut bin = None;
    while offset < bytes.len() {
        let (Some(length), Some(kind)) = (word(bytes, offset), word(bytes, offset + 4)) else {
            return Err(format!("the chunk header at byte {offset} is truncated"));
        };
        let start = offset + 8;
        let data = start
            .checked_add(length as usize)
            .and_then(|end| bytes.get(start..end))
            .ok_or_else(|| format!("the chunk at byte {offset} declares {length} bytes, past the end of the file"))?;
        match kind {
            CHUNK_JSON if json.is_none() => json = Some(data),
            CHUNK_BIN if json.is_some() && bin.is_none() => bin = Some(data),
            CHUNK_JSON | CHUNK_BIN => {
                return Err(format!("the chunk at byte {offset} is out of order or repeated"));
            }
            _ => {} // Unknown chunks are to be ignored (glTF 2.0 §4.4.3.2).
        }
        // Chunks are padded to 4 bytes.
        offset = start + (length as usize).div_ceil(4) * 4;
    }
    let json = json.ok_or("it has no JSON chunk")?;
    Ok((json, bin))
}

/// Reads a buffer or image URI: a base64 `data:` URI or a path relative to `base_dir`.
pub fn read_uri(base_dir: &Path, uri: &str) -> Result<Vec<u8>, String> {
    if let Some(rest) = uri.strip_prefix("data:") {
        if let Some((_, payload)) = rest.split_once(";base64,") {
            return base64::engine::general_purpose::STANDARD
                .decode(payload)
                .map_err(|e| format!("data URI is not valid base64: {e}"));
        }
        // RFC 2397's other form: the data itself, %-escaped.
        let (_, payload) = rest.split_once(',').ok_or("data URI has no ',' before its data")?;
        return percent_decode(payload);
    }
    let path = uri_file(base_dir, uri)?;
    std::fs::read(&path).map_err(|e| format!("cannot read '{}': {e}", path.display()))
}

/// The file a URI that is not a `data:` URI names: a path relative to `base_dir`. Windows
/// exporters write `\` between folders (`textures\wood.png`): where no file has the name as
/// written, `\` is read as `/`, as a browser reads it for three.js.
pub fn uri_file(base_dir: &Path, uri: &str) -> Result<PathBuf, String> {
    let relative =
        String::from_utf8(percent_decode(uri)?).map_err(|_| format!("URI '{uri}' is not UTF-8 after %-decoding"))?;
    if uri.contains("://") || Path::new(&relative).is_absolute() {
        return Err(format!("URI '{uri}' is not a relative file path"));
    }
    let path = base_dir.join(&relative);
    let slashes = base_dir.join(relative.replace('\\', "/"));
    Ok(if !path.exists() && slashes.exists() {
        slashes
    } else {
        path
    })
}

/// What to say of a URI that separates folders with `\` (which `uri_file` reads as `/`).
pub fn backslash_note(uri: &str) -> Option<String> {
    let backslash = uri.contains('\\') || uri.to_ascii_lowercase().contains("%5c");
    (backslash && !uri.starts_with("data:"))
        .then(|| format!("its uri '{uri}' separates folders with '\\' (read as '/')"))
}

/// Decodes `%XX` escapes (glTF URIs are RFC 3986 references).
fn percent_decode(uri: &str) -> Result<Vec<u8>, String> {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| format!("URI '{uri}' has a bad %-escape"))?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glb(chunks: &[(u32, &[u8])]) -> Vec<u8> {
        let mut body = Vec::new();
        for (kind, data) in chunks {
            let padded = data.len().div_ceil(4) * 4;
            body.extend_from_slice(&(padded as u32).to_le_bytes());
            body.extend_from_slice(&kind.to_le_bytes());
            body.extend_from_slice(data);
            body.resize(body.len() + padded - data.len(), b' ');
        }
        let mut file = b"glTF".to_vec();
        file.extend_from_slice(&2u32.to_le_bytes());
        file.extend_from_slice(&((body.len() + 12) as u32).to_le_bytes());
        file.extend(body);
        file
    }

    #[test]
    fn splits_json_and_bin_chunks() {
        let file = glb(&[(CHUNK_JSON, b"{}"), (0x1234, b"skip"), (CHUNK_BIN, &[1, 2, 3, 4])]);
        let (json, bin) = split_glb(&file).unwrap();
        assert_eq!(json.trim_ascii(), b"{}");
        assert_eq!(bin, Some(&[1u8, 2, 3, 4][..]));
    }

    #[test]
    fn rejects_truncated_and_inconsistent_headers() {
        let file = glb(&[(CHUNK_JSON, b"{}")]);
        assert!(split_glb(&file[..10]).unwrap_err().contains("truncated"));
        assert!(split_glb(&file[..file.len() - 1]).unwrap_err().contains("declares"));
        let mut huge_chunk = file.clone();
        huge_chunk[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(split_glb(&huge_chunk).unwrap_err().contains("past the end"));
        let mut version = file;
        version[4] = 1;
        assert!(split_glb(&version).unwrap_err().contains("version 1"));
    }

    #[test]
    fn decodes_data_uris_and_escapes() {
        assert_eq!(
            read_uri(Path::new("."), "data:application/octet-stream;base64,AAEC").unwrap(),
            vec![0, 1, 2]
        );
        assert_eq!(read_uri(Path::new("."), "data:text/plain,hi%21").unwrap(), b"hi!");
        assert!(read_uri(Path::new("."), "data:text/plain").is_err());
        assert_eq!(percent_decode("my%20file.bin").unwrap(), b"my file.bin");
        assert!(percent_decode("bad%2").is_err());
        assert!(read_uri(Path::new("."), "https://example.com/a.bin").is_err());
        assert!(
            read_uri(Path::new("."), "/etc/passwd")
                .unwrap_err()
                .contains("not a relative")
        );
    }
}
