//! The prepared environment maps (environment.rs: the specular cube map, the irradiance's
//! coefficients, the split-sum table) kept on disk, so that every run after the first uploads
//! them instead of compiling the preparation's shaders and drawing them again: on a software
//! rasteriser that preparation is a fifth to a third of a thumbnail's time, and a file manager
//! runs the thumbnailer on every file it shows.
//!
//! One file per prepared environment in `$XDG_CACHE_HOME/rigscope/` (else `~/.cache/rigscope/`),
//! named by a hash of everything that determines its maps (the caller's `CacheKey`: the
//! environment's source, the preparation's shader text, the maps' sizes and formats, the
//! adapter and driver, the crate's version). A file is written whole under a temporary name and
//! renamed over the old one, so a reader never sees half of it; it is read only when its size,
//! key and checksum all match (anything else is ignored, and replaced by the run that prepares
//! the maps again). A folder that cannot be written costs only the cache. `RIGSCOPE_CACHE=off`
//! turns the cache off.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use super::gpu::Gpu;

/// The first bytes of a cache file: what it is, and the version of its layout.
const MAGIC: &[u8; 16] = b"rigscope-env-v01";
/// The magic, the key and the payload's checksum.
const HEADER_BYTES: usize = MAGIC.len() + 8 + 8;

/// What determines one environment's prepared maps, hashed (SipHash, as the standard library's
/// `DefaultHasher`: were its algorithm to change with the compiler, the keys would change and
/// the cache would miss once, never return the wrong maps).
pub struct CacheKey(DefaultHasher);

impl CacheKey {
    /// A key for this crate's version and this cache file layout; `add` the rest.
    pub fn versioned() -> Self {
        let mut key = Self(DefaultHasher::new());
        key.add(MAGIC).add(env!("CARGO_PKG_VERSION").as_bytes());
        key
    }

    /// Adds `part` (its length first, so that parts cannot run into one another).
    pub fn add(&mut self, part: &[u8]) -> &mut Self {
        self.0.write_usize(part.len());
        self.0.write(part);
        self
    }

    /// Adds a value by its `Hash` (sizes, formats, the adapter's description).
    pub fn add_value(&mut self, value: &impl Hash) -> &mut Self {
        value.hash(&mut self.0);
        self
    }

    fn finish(&self) -> u64 {
        self.0.finish()
    }
}

/// A hash of `bytes` (a user's environment file), for its `CacheKey`.
pub fn content_hash(bytes: &[u8]) -> u64 {
    let mut hasher = DefaultHasher::new();
    hasher.write(bytes);
    hasher.finish()
}

/// The sizes of the prepared maps, which fix the cache file's length, and the order they are
/// stored in: the specular map's levels (largest first, each with its six faces), the
/// irradiance's bytes, the BRDF table.
#[derive(Clone, Copy, Hash)]
pub struct MapShape {
    /// The specular cube map's first level's side, in texels.
    pub specular_size: u32,
    pub specular_levels: u32,
    /// The format of the specular map and the BRDF table.
    pub format: wgpu::TextureFormat,
    /// The irradiance's coefficients, as the uniform buffer holds them.
    pub irradiance_bytes: u32,
    /// The BRDF table's side, in texels.
    pub table_size: u32,
}

impl MapShape {
    fn texel_bytes(&self) -> u32 {
        self.format.block_copy_size(None).unwrap_or(0)
    }

    /// The side of the specular map's `level`.
    fn specular_side(&self, level: u32) -> u32 {
        (self.specular_size >> level).max(1)
    }

    /// The bytes of the six faces of the specular map's `level`.
    fn specular_level_bytes(&self, level: u32) -> usize {
        let side = self.specular_side(level) as usize;
        side * side * 6 * self.texel_bytes() as usize
    }

    fn table_bytes(&self) -> usize {
        let side = self.table_size as usize;
        side * side * self.texel_bytes() as usize
    }

    /// The bytes of all the maps, as a cache file holds them after its header.
    pub fn payload_bytes(&self) -> usize {
        let specular: usize = (0..self.specular_levels)
            .map(|level| self.specular_level_bytes(level))
            .sum();
        specular + self.irradiance_bytes as usize + self.table_bytes()
    }

    /// The specular map's texture (a cube: six layers).
    pub fn specular_descriptor(&self) -> wgpu::TextureDescriptor<'static> {
        texture_descriptor("specular map", self.specular_size, self.specular_levels, 6, self.format)
    }

    /// The specular map's faces, drawn as the layers of an array before they are copied into
    /// the cube map: wgpu's GL backend cannot copy out of a cube map (it reads back zeros), so
    /// the cache reads this. Seven layers, one more than a cube's six, so that GL makes it an
    /// array and not a cube map.
    pub fn faces_descriptor(&self) -> wgpu::TextureDescriptor<'static> {
        texture_descriptor(
            "specular faces",
            self.specular_size,
            self.specular_levels,
            7,
            self.format,
        )
    }

    pub fn table_descriptor(&self) -> wgpu::TextureDescriptor<'static> {
        texture_descriptor("BRDF table", self.table_size, 1, 1, self.format)
    }
}

/// A square texture the maps are drawn into (the preparation) or written to (an upload), and
/// read back from.
fn texture_descriptor(
    label: &'static str,
    side: u32,
    levels: u32,
    layers: u32,
    format: wgpu::TextureFormat,
) -> wgpu::TextureDescriptor<'static> {
    wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width: side,
            height: side,
            depth_or_array_layers: layers,
        },
        mip_level_count: levels,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT
            | wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::COPY_DST
            | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    }
}

/// An environment's prepared maps on the GPU.
pub struct PreparedMaps {
    /// The specular cube map (`MapShape::specular_descriptor`).
    pub specular: wgpu::Texture,
    /// The irradiance's coefficients: a uniform buffer that can also be copied from.
    pub irradiance: wgpu::Buffer,
    /// The split-sum table (`MapShape::table_descriptor`).
    pub brdf_table: wgpu::Texture,
}

/// The usage of the irradiance's uniform buffer, whether drawn or uploaded.
pub const IRRADIANCE_USAGE: wgpu::BufferUsages = wgpu::BufferUsages::UNIFORM
    .union(wgpu::BufferUsages::COPY_DST)
    .union(wgpu::BufferUsages::COPY_SRC);

/// One place a cache file is kept: its path, the key it must hold and the shape of its maps.
pub struct EnvironmentCache {
    path: PathBuf,
    key: u64,
    shape: MapShape,
}

impl EnvironmentCache {
    /// The cache file for `key` in the user's cache folder; None when the cache is turned off
    /// (`RIGSCOPE_CACHE=off`) or there is no such folder.
    pub fn for_user(key: &CacheKey, shape: MapShape) -> Option<Self> {
        let variable = |name: &str| std::env::var_os(name).map(PathBuf::from);
        let folder = user_cache_folder(
            std::env::var("RIGSCOPE_CACHE").ok().as_deref(),
            variable("XDG_CACHE_HOME"),
            variable("HOME"),
        )?;
        Some(Self::in_folder(&folder, key, shape))
    }

    /// The cache file for `key` in `folder`.
    pub fn in_folder(folder: &Path, key: &CacheKey, shape: MapShape) -> Self {
        let key = key.finish();
        Self {
            path: folder.join(format!("environment-{key:016x}.bin")),
            key,
            shape,
        }
    }

    /// The maps' bytes, when the file is there and whole: its length, key and checksum right.
    pub fn read(&self) -> Option<Vec<u8>> {
        let mut bytes = std::fs::read(&self.path).ok()?;
        if bytes.len() != HEADER_BYTES + self.shape.payload_bytes() {
            return None;
        }
        let (magic, rest) = bytes.split_at(MAGIC.len());
        let (key, rest) = rest.split_at(8);
        let (checksum, payload) = rest.split_at(8);
        let word = |bytes: &[u8]| bytes.try_into().ok().map(u64::from_le_bytes);
        let whole = magic == MAGIC && word(key) == Some(self.key) && word(checksum) == Some(content_hash(payload));
        whole.then(|| bytes.split_off(HEADER_BYTES))
    }

    /// Keeps `payload` (`MapShape::payload_bytes` long) for the next run: written under a
    /// temporary name, then renamed into place. A folder that cannot be written keeps nothing.
    pub fn write(&self, payload: &[u8]) {
        if payload.len() != self.shape.payload_bytes() {
            return;
        }
        let Some(folder) = self.path.parent() else { return };
        // A name of this process's and this write's (a batch prepares one environment a thread).
        static WRITES: AtomicU32 = AtomicU32::new(0);
        let write = WRITES.fetch_add(1, Ordering::Relaxed);
        let temporary = self.path.with_extension(format!("tmp{}-{write}", std::process::id()));
        let mut bytes = Vec::with_capacity(HEADER_BYTES + payload.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&self.key.to_le_bytes());
        bytes.extend_from_slice(&content_hash(payload).to_le_bytes());
        bytes.extend_from_slice(payload);
        let written = std::fs::create_dir_all(folder)
            .and_then(|()| std::fs::write(&temporary, &bytes))
            .and_then(|()| std::fs::rename(&temporary, &self.path));
        if written.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
    }
}

/// The folder of rigscope's cache: `$XDG_CACHE_HOME/rigscope` (an absolute path, as the XDG
/// specification asks), else `$HOME/.cache/rigscope`; None when `RIGSCOPE_CACHE` is `off` (or
/// `0`, `no`, `false`) or neither variable names a folder.
fn user_cache_folder(switch: Option<&str>, xdg_cache_home: Option<PathBuf>, home: Option<PathBuf>) -> Option<PathBuf> {
    if switch.is_some_and(|value| ["off", "0", "no", "false"].contains(&value.trim().to_ascii_lowercase().as_str())) {
        return None;
    }
    let base = match xdg_cache_home.filter(|path| path.is_absolute()) {
        Some(base) => base,
        None => home.filter(|path| path.is_absolute())?.join(".cache"),
    };
    Some(base.join("rigscope"))
}

/// Copies the specular map's faces, drawn into `faces` (`MapShape::faces_descriptor`), into the
/// cube map `cube`.
pub fn copy_faces_to_cube(
    encoder: &mut wgpu::CommandEncoder,
    faces: &wgpu::Texture,
    cube: &wgpu::Texture,
    shape: &MapShape,
) {
    for level in 0..shape.specular_levels {
        let side = shape.specular_side(level);
        for face in 0..6 {
            let layer = |texture| wgpu::TexelCopyTextureInfo {
                texture,
                mip_level: level,
                origin: wgpu::Origin3d { x: 0, y: 0, z: face },
                aspect: wgpu::TextureAspect::All,
            };
            let size = wgpu::Extent3d {
                width: side,
                height: side,
                depth_or_array_layers: 1,
            };
            encoder.copy_texture_to_texture(layer(faces), layer(cube), size);
        }
    }
}

/// The maps' bytes, in the cache file's order, read back from the GPU (waiting for their
/// preparation to finish), the specular map's from `specular_faces`
/// (`MapShape::faces_descriptor`); None when the read-back fails.
pub fn read_back(gpu: &Gpu, maps: &PreparedMaps, specular_faces: &wgpu::Texture, shape: &MapShape) -> Option<Vec<u8>> {
    let regions = Regions::new(shape);
    let device = &gpu.device;
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("environment read-back"),
        size: regions.staging_bytes,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    for region in &regions.list {
        let layout = wgpu::TexelCopyBufferLayout {
            offset: region.offset,
            bytes_per_row: Some(region.padded_row),
            rows_per_image: Some(region.side),
        };
        let texture = match region.part {
            Part::Specular(level) => Some((specular_faces, level, 6)),
            Part::Table => Some((&maps.brdf_table, 0, 1)),
            Part::Irradiance => None,
        };
        match texture {
            // One copy a layer: GL reads back one layer a copy.
            Some((texture, level, layers)) => {
                for layer in 0..layers {
                    let layer_bytes = region.padded_row as u64 * region.side as u64;
                    encoder.copy_texture_to_buffer(
                        wgpu::TexelCopyTextureInfo {
                            texture,
                            mip_level: level,
                            origin: wgpu::Origin3d { x: 0, y: 0, z: layer },
                            aspect: wgpu::TextureAspect::All,
                        },
                        wgpu::TexelCopyBufferInfo {
                            buffer: &staging,
                            layout: wgpu::TexelCopyBufferLayout {
                                offset: region.offset + layer as u64 * layer_bytes,
                                ..layout
                            },
                        },
                        wgpu::Extent3d {
                            width: region.side,
                            height: region.side,
                            depth_or_array_layers: 1,
                        },
                    );
                }
            }
            None => encoder.copy_buffer_to_buffer(
                &maps.irradiance,
                0,
                &staging,
                region.offset,
                shape.irradiance_bytes as u64,
            ),
        }
    }
    gpu.queue.submit([encoder.finish()]);
    let slice = staging.slice(..);
    let (sender, receiver) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |result| {
        let _ = sender.send(result);
    });
    device.poll(wgpu::PollType::wait_indefinitely()).ok()?;
    receiver.recv().ok()?.ok()?;
    let mapped = slice.get_mapped_range().ok()?;
    let mut payload = Vec::with_capacity(shape.payload_bytes());
    for region in &regions.list {
        let start = region.offset as usize;
        for row in 0..region.rows {
            let row_start = start + row as usize * region.padded_row as usize;
            payload.extend_from_slice(mapped.get(row_start..row_start + region.row_bytes as usize)?);
        }
    }
    Some(payload)
}

/// The maps made from `payload` (a cache file's, `MapShape::payload_bytes` long).
pub fn upload(gpu: &Gpu, payload: &[u8], shape: &MapShape) -> Option<PreparedMaps> {
    if payload.len() != shape.payload_bytes() {
        return None;
    }
    let device = &gpu.device;
    let maps = PreparedMaps {
        specular: device.create_texture(&shape.specular_descriptor()),
        irradiance: device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("irradiance"),
            size: wgpu::COPY_BYTES_PER_ROW_ALIGNMENT as u64,
            usage: IRRADIANCE_USAGE,
            mapped_at_creation: false,
        }),
        brdf_table: device.create_texture(&shape.table_descriptor()),
    };
    let mut offset = 0;
    for region in Regions::new(shape).list {
        let bytes = payload.get(offset..offset + region.rows as usize * region.row_bytes as usize)?;
        offset += bytes.len();
        let layout = wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(region.row_bytes),
            rows_per_image: Some(region.side),
        };
        let (texture, level, layers) = match region.part {
            Part::Specular(level) => (&maps.specular, level, 6),
            Part::Table => (&maps.brdf_table, 0, 1),
            Part::Irradiance => {
                gpu.queue.write_buffer(&maps.irradiance, 0, bytes);
                continue;
            }
        };
        let destination = wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: level,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        };
        let size = wgpu::Extent3d {
            width: region.side,
            height: region.side,
            depth_or_array_layers: layers,
        };
        gpu.queue.write_texture(destination, bytes, layout, size);
    }
    Some(maps)
}

/// Which map a region of the payload holds.
#[derive(Clone, Copy)]
enum Part {
    /// The specular map's level.
    Specular(u32),
    Irradiance,
    Table,
}

/// Where one map's bytes lie in the read-back buffer, whose rows are padded to the copy
/// alignment (the payload's are not).
struct Region {
    part: Part,
    /// The image's side (1 for the irradiance).
    side: u32,
    /// Rows of all its layers.
    rows: u32,
    row_bytes: u32,
    padded_row: u32,
    /// In the read-back buffer.
    offset: u64,
}

/// The regions of the read-back buffer, in the payload's order.
struct Regions {
    list: Vec<Region>,
    staging_bytes: u64,
}

impl Regions {
    fn new(shape: &MapShape) -> Self {
        let texel = shape.texel_bytes();
        let mut parts: Vec<(Part, u32, u32, u32)> = (0..shape.specular_levels)
            .map(|level| {
                let side = shape.specular_side(level);
                (Part::Specular(level), side, side * 6, side * texel)
            })
            .collect();
        parts.push((Part::Irradiance, 1, 1, shape.irradiance_bytes));
        parts.push((
            Part::Table,
            shape.table_size,
            shape.table_size,
            shape.table_size * texel,
        ));
        let alignment = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let mut offset = 0;
        let list = parts
            .into_iter()
            .map(|(part, side, rows, row_bytes)| {
                let padded_row = row_bytes.div_ceil(alignment) * alignment;
                let region = Region {
                    part,
                    side,
                    rows,
                    row_bytes,
                    padded_row,
                    offset,
                };
                offset += rows as u64 * padded_row as u64;
                region
            })
            .collect();
        Self {
            list,
            staging_bytes: offset,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHAPE: MapShape = MapShape {
        specular_size: 8,
        specular_levels: 2,
        format: wgpu::TextureFormat::Rgba16Float,
        irradiance_bytes: 144,
        table_size: 4,
    };

    fn key(source: &[u8]) -> CacheKey {
        let mut key = CacheKey::versioned();
        key.add(source);
        key
    }

    fn folder(name: &str) -> PathBuf {
        let folder = std::env::temp_dir().join(format!("rigscope-environment-cache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        folder
    }

    fn payload() -> Vec<u8> {
        (0..SHAPE.payload_bytes()).map(|i| (i * 7 % 251) as u8).collect()
    }

    #[test]
    fn the_payload_holds_every_level_face_coefficient_and_table_texel() {
        // Levels of 8 and 4 texels, six faces, 8 bytes each; 144 bytes; 4 × 4 × 8.
        assert_eq!(SHAPE.payload_bytes(), (64 + 16) * 6 * 8 + 144 + 128);
        let regions = Regions::new(&SHAPE);
        let rows: usize = regions.list.iter().map(|r| (r.rows * r.row_bytes) as usize).sum();
        assert_eq!(rows, SHAPE.payload_bytes());
        assert!(
            regions
                .list
                .iter()
                .all(|r| r.padded_row % 256 == 0 && r.offset % 256 == 0)
        );
    }

    #[test]
    fn what_is_written_is_read_back_under_its_key_only() {
        let folder = folder("round-trip");
        let cache = EnvironmentCache::in_folder(&folder, &key(b"studio"), SHAPE);
        assert_eq!(cache.read(), None, "nothing written yet");
        cache.write(&payload());
        assert_eq!(cache.read(), Some(payload()));
        let other = EnvironmentCache::in_folder(&folder, &key(b"studio2"), SHAPE);
        assert_ne!(other.path, cache.path);
        assert_eq!(other.read(), None);
        // No temporary file is left behind.
        assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 1);
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn truncated_wrong_size_and_altered_files_are_not_trusted() {
        let folder = folder("damaged");
        let cache = EnvironmentCache::in_folder(&folder, &key(b"studio"), SHAPE);
        cache.write(&payload());
        let whole = std::fs::read(&cache.path).unwrap();
        let damaged = [
            whole[..whole.len() / 2].to_vec(),
            [&whole[..], b"x"].concat(),
            Vec::new(),
            {
                let mut altered = whole.clone();
                let last = altered.len() - 1;
                altered[last] ^= 1;
                altered
            },
            {
                let mut other_key = whole.clone();
                other_key[MAGIC.len()] ^= 1;
                other_key
            },
            [b"rigscope-env-v00", &whole[MAGIC.len()..]].concat(),
        ];
        for bytes in damaged {
            std::fs::write(&cache.path, &bytes).unwrap();
            assert_eq!(cache.read(), None, "{} bytes", bytes.len());
        }
        // The next preparation replaces it.
        cache.write(&payload());
        assert_eq!(cache.read(), Some(payload()));
        // A payload of the wrong size is never written.
        cache.write(&payload()[1..]);
        assert_eq!(cache.read(), Some(payload()));
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn a_folder_that_cannot_be_made_is_no_error() {
        let folder = folder("blocked");
        std::fs::create_dir_all(&folder).unwrap();
        // A file where the cache folder should be.
        let blocked = folder.join("rigscope");
        std::fs::write(&blocked, b"not a folder").unwrap();
        let cache = EnvironmentCache::in_folder(&blocked, &key(b"studio"), SHAPE);
        cache.write(&payload());
        assert_eq!(cache.read(), None);
        assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 1, "nothing left behind");
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn the_folder_follows_xdg_and_the_switch() {
        let xdg = Some(PathBuf::from("/xdg/cache"));
        let home = Some(PathBuf::from("/home/me"));
        assert_eq!(
            user_cache_folder(None, xdg.clone(), home.clone()),
            Some(PathBuf::from("/xdg/cache/rigscope"))
        );
        assert_eq!(
            user_cache_folder(Some("on"), None, home.clone()),
            Some(PathBuf::from("/home/me/.cache/rigscope"))
        );
        // A relative XDG_CACHE_HOME is ignored, as the specification says.
        assert_eq!(
            user_cache_folder(None, Some(PathBuf::from("cache")), home.clone()),
            Some(PathBuf::from("/home/me/.cache/rigscope"))
        );
        assert_eq!(user_cache_folder(None, None, None), None);
        for off in ["off", "OFF", "0", "no", "false"] {
            assert_eq!(user_cache_folder(Some(off), xdg.clone(), home.clone()), None, "{off}");
        }
    }

    #[test]
    fn keys_differ_with_any_part() {
        let finish = |parts: &[&[u8]]| {
            let mut key = CacheKey::versioned();
            for part in parts {
                key.add(part);
            }
            key.finish()
        };
        assert_eq!(finish(&[b"studio"]), finish(&[b"studio"]));
        assert_ne!(finish(&[b"studio"]), finish(&[b"studio", b""]));
        assert_ne!(finish(&[b"ab", b"c"]), finish(&[b"a", b"bc"]));
        assert_ne!(content_hash(b"one image"), content_hash(b"another image"));
    }
}
