//! The glTF document being written: its JSON (`gltf_json::Root`), the one binary buffer every
//! accessor and embedded image lives in, and the warnings for what could not be written as it
//! was read.

use glam::{Mat4, Quat, Vec2, Vec3, Vec4};
use gltf_json as json;
use json::accessor::{ComponentType, GenericComponentType, Type};
use json::validation::{Checked, USize64};

/// The buffer's views start at multiples of this: glTF asks accessors to be aligned to their
/// component size (4 at most for what is written here) and matrices' columns to 4 bytes.
const ALIGNMENT: usize = 4;

/// One element of an accessor: its glTF type and component type, and its bytes as they are
/// laid out in the buffer (little-endian on every platform rigscope runs on).
pub trait Element: bytemuck::Pod {
    const TYPE: Type;
    const COMPONENT: ComponentType;
}

macro_rules! element {
    ($rust:ty, $ty:ident, $component:ident) => {
        impl Element for $rust {
            const TYPE: Type = Type::$ty;
            const COMPONENT: ComponentType = ComponentType::$component;
        }
    };
}

element!(f32, Scalar, F32);
element!(Vec2, Vec2, F32);
element!(Vec3, Vec3, F32);
element!(Vec4, Vec4, F32);
element!(Quat, Vec4, F32);
element!(Mat4, Mat4, F32);
element!(u8, Scalar, U8);
element!(u16, Scalar, U16);
element!(u32, Scalar, U32);
element!([u8; 4], Vec4, U8);
element!([u16; 4], Vec4, U16);

/// Where an accessor's data will be read: vertex attributes and indices get a buffer view
/// with a GPU target, the rest (animation keys, inverse bind matrices) none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Usage {
    Vertices,
    Indices,
    Other,
}

impl Usage {
    /// The buffer view's `target`.
    pub fn target(self) -> Option<Checked<json::buffer::Target>> {
        match self {
            Usage::Vertices => Some(Checked::Valid(json::buffer::Target::ArrayBuffer)),
            Usage::Indices => Some(Checked::Valid(json::buffer::Target::ElementArrayBuffer)),
            Usage::Other => None,
        }
    }
}

/// How an accessor's elements are laid out: glTF type, component type, and whether integer
/// components stand for `0..=1` (unsigned) or `-1..=1` (signed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub kind: Type,
    pub component: ComponentType,
    pub normalized: bool,
}

impl Layout {
    /// The layout of `T` as it is.
    pub fn of<T: Element>() -> Self {
        Self {
            kind: T::TYPE,
            component: T::COMPONENT,
            normalized: false,
        }
    }
}

/// The buffer that views stored compressed lie in (`EXT_meshopt_compression`): it has a length
/// and no data; their compressed bytes are in buffer 0 with the rest.
pub const FALLBACK_BUFFER: u32 = 1;

pub struct Document {
    pub root: json::Root,
    bin: Vec<u8>,
    /// The length of the fallback buffer (`FALLBACK_BUFFER`): none when nothing is compressed.
    fallback_length: usize,
    /// What could not be written as it was read, one sentence each.
    pub warnings: Vec<String>,
    /// Channels gltf_json cannot hold (a KHR_animation_pointer target has no node), as
    /// (animation, channel): added to those animations' channels as the JSON is written.
    pub pointer_channels: Vec<(usize, serde_json::Value)>,
}

impl Document {
    pub fn new(generator: String) -> Self {
        let root = json::Root {
            asset: json::Asset {
                generator: Some(generator),
                version: "2.0".into(),
                ..Default::default()
            },
            ..Default::default()
        };
        Self {
            root,
            bin: Vec::new(),
            fallback_length: 0,
            warnings: Vec::new(),
            pointer_channels: Vec::new(),
        }
    }

    /// Appends `bytes` to the buffer as a view of its own.
    pub fn view(&mut self, bytes: &[u8], usage: Usage) -> json::Index<json::buffer::View> {
        let offset = self.append(bytes);
        self.root.push(json::buffer::View {
            buffer: json::Index::new(0),
            byte_length: USize64::from(bytes.len()),
            byte_offset: (offset > 0).then(|| USize64::from(offset)),
            byte_stride: None,
            name: None,
            target: usage.target(),
            extensions: None,
            extras: None,
        })
    }

    /// Appends `bytes` to the buffer, aligned, without a view; returns their offset.
    pub fn append(&mut self, bytes: &[u8]) -> usize {
        let offset = self.bin.len().next_multiple_of(ALIGNMENT);
        self.bin.resize(offset, 0);
        self.bin.extend_from_slice(bytes);
        offset
    }

    /// Reserves `length` bytes of the fallback buffer (`FALLBACK_BUFFER`) for a view stored
    /// compressed; returns their offset.
    pub fn reserve_fallback(&mut self, length: usize) -> usize {
        let offset = self.fallback_length.next_multiple_of(ALIGNMENT);
        self.fallback_length = offset + length;
        offset
    }

    /// An accessor of `data` in a view of its own. `bounds`: write `min` and `max` (glTF
    /// requires them for positions and animation times).
    pub fn accessor<T: Element>(&mut self, data: &[T], usage: Usage, bounds: bool) -> json::Index<json::Accessor> {
        let view = self.view(bytemuck::cast_slice(data), usage);
        let bounds = bounds.then(|| float_bounds(data)).flatten();
        self.layout_accessor(Some(view), data.len(), Layout::of::<T>(), bounds)
    }

    /// An accessor of `count` elements laid out as `layout` in `view` (none: an extension
    /// supplies the data, as Draco does), with `bounds` as its `min` and `max`.
    pub fn layout_accessor(
        &mut self,
        view: Option<json::Index<json::buffer::View>>,
        count: usize,
        layout: Layout,
        bounds: Option<(json::Value, json::Value)>,
    ) -> json::Index<json::Accessor> {
        let (min, max) = bounds.unzip();
        self.root.push(json::Accessor {
            buffer_view: view,
            byte_offset: None,
            count: USize64::from(count),
            component_type: Checked::Valid(GenericComponentType(layout.component)),
            extensions: None,
            extras: None,
            type_: Checked::Valid(layout.kind),
            min,
            max,
            name: None,
            normalized: layout.normalized,
            sparse: None,
        })
    }

    /// Notes what could not be written as it was read.
    pub fn warn(&mut self, warning: String) {
        self.warnings.push(warning);
    }

    /// Puts `json` at the root as extension `name`, declared (not required: a reader without
    /// it still has the glTF).
    pub fn set_root_extension(&mut self, name: &str, json: serde_json::Value) {
        let extensions = self.root.extensions.get_or_insert_with(Default::default);
        extensions.others.insert(name.into(), json);
        self.use_extension(name, false);
    }

    /// Names `extension` in `extensionsUsed` (and `extensionsRequired` when `required`),
    /// once.
    pub fn use_extension(&mut self, extension: &str, required: bool) {
        for (list, wanted) in [
            (&mut self.root.extensions_used, true),
            (&mut self.root.extensions_required, required),
        ] {
            if wanted && !list.iter().any(|e| e == extension) {
                list.push(extension.to_owned());
            }
        }
    }

    /// The finished document: its JSON (with the one buffer's length filled in; `uri` names
    /// an external buffer file, none for GLB's own chunk) and the buffer's bytes.
    pub fn finish(mut self, uri: Option<String>) -> Result<(Vec<u8>, Vec<u8>, Vec<String>), serde_json::Error> {
        let padded = self.bin.len().next_multiple_of(ALIGNMENT);
        self.bin.resize(padded, 0);
        if !self.bin.is_empty() {
            self.root.buffers = vec![json::Buffer {
                byte_length: USize64::from(self.bin.len()),
                name: None,
                uri,
                extensions: None,
                extras: None,
            }];
        }
        if self.fallback_length > 0 {
            let mut extensions = json::extensions::buffer::Buffer::default();
            let fallback = serde_json::json!({ "fallback": true });
            extensions.others.insert("EXT_meshopt_compression".into(), fallback);
            self.root.buffers.push(json::Buffer {
                byte_length: USize64::from(self.fallback_length),
                name: None,
                uri: None,
                extensions: Some(extensions),
                extras: None,
            });
        }
        if self.pointer_channels.is_empty() {
            return Ok((self.root.to_vec()?, self.bin, self.warnings));
        }
        let mut json = serde_json::to_value(&self.root)?;
        for (animation, channel) in self.pointer_channels {
            // An animation of pointer channels alone has no "channels" yet.
            let animation = json.get_mut("animations").and_then(|list| list.get_mut(animation));
            let channels = (animation.and_then(|a| a.as_object_mut())).and_then(|a| {
                a.entry("channels")
                    .or_insert_with(|| json::Value::Array(Vec::new()))
                    .as_array_mut()
            });
            if let Some(channels) = channels {
                channels.push(channel);
            }
        }
        Ok((serde_json::to_vec(&json)?, self.bin, self.warnings))
    }
}

/// The component-wise minimum and maximum of float elements, as JSON arrays (none for other
/// component types, and for no elements).
pub fn float_bounds<T: Element>(data: &[T]) -> Option<(json::Value, json::Value)> {
    if T::COMPONENT != ComponentType::F32 || data.is_empty() {
        return None;
    }
    let floats: &[f32] = bytemuck::cast_slice(data);
    let width = floats.len() / data.len();
    let mut min = vec![f32::INFINITY; width];
    let mut max = vec![f32::NEG_INFINITY; width];
    for element in floats.chunks_exact(width) {
        for (i, &value) in element.iter().enumerate() {
            min[i] = min[i].min(value);
            max[i] = max[i].max(value);
        }
    }
    Some((json::Value::from(min), json::Value::from(max)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_are_aligned_and_positions_carry_their_bounds() {
        let mut document = Document::new("test".into());
        document.accessor(&[1u8, 2, 3], Usage::Other, false);
        let positions = [Vec3::new(1.0, -2.0, 3.0), Vec3::new(-1.0, 5.0, 0.5)];
        let accessor = document.accessor(&positions, Usage::Vertices, true);
        let accessor = &document.root.accessors[accessor.value()];
        assert_eq!(accessor.min, Some(json::Value::from(vec![-1.0f32, -2.0, 0.5])));
        assert_eq!(accessor.max, Some(json::Value::from(vec![1.0f32, 5.0, 3.0])));
        let view = &document.root.buffer_views[1];
        assert_eq!(
            view.byte_offset,
            Some(USize64(4)),
            "after the 3 bytes, on a multiple of 4"
        );
        let (_, bin, _) = document.finish(None).unwrap();
        assert_eq!(bin.len(), 28);
        assert_eq!(&bin[4..8], &1.0f32.to_le_bytes());
    }
}
