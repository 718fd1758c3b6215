//! Typed, bounds-checked reading of glTF accessors (glTF 2.0 §3.6), sparse ones included.
//!
//! Every component type is converted to the type asked for: floats honour the `normalized`
//! flag (so KHR_mesh_quantization's integer positions, normals and texture coordinates read
//! like any other), integers are only read from unsigned integer accessors. Each accessor's
//! extent is checked against its buffer view and buffer, and the total decoded size against a
//! budget proportional to the input, so no file can make the loader allocate without bound.

use std::cell::Cell;

use gltf_json::Accessor;
use gltf_json::accessor::{ComponentType, Type};
use gltf_json::validation::Checked;

use super::container::Container;

/// Reads accessors of one document.
pub struct Accessors<'a> {
    container: &'a Container<'a>,
    input_bytes: usize,
    /// Decoded bytes allowed in all, and still allowed.
    budget: usize,
    budget_left: Cell<usize>,
}

/// Decoded data may be this many times the input (the largest widening is 1-byte indices to
/// `u32`), plus a fixed allowance for small files.
const BUDGET_FACTOR: usize = 16;
const BUDGET_ALLOWANCE: usize = 1 << 20;

/// Where an accessor's elements are and how to read them.
struct Layout<'a> {
    data: &'a [u8],
    stride: usize,
    component: ComponentType,
    components: usize,
}

impl Layout<'_> {
    fn element(&self, index: usize) -> &[u8] {
        let start = index * self.stride;
        &self.data[start..start + self.component.size() * self.components]
    }
}

impl<'a> Accessors<'a> {
    pub fn new(container: &'a Container<'a>) -> Self {
        let input_bytes = container.input_bytes;
        // Decompressed geometry counts as read: a Draco file's accessors hold dozens of times
        // its bytes (Khronos's GearboxAssy: 502,386 triangles in 349 KiB), and what was
        // decompressed is itself bounded by the file's size (`compressed`).
        let decompressed: usize = (container.decoded_views.iter().flatten().map(Vec::len))
            .chain(container.decoded_accessors.values().map(Vec::len))
            .sum();
        let budget = (input_bytes.saturating_add(decompressed))
            .saturating_mul(BUDGET_FACTOR)
            .saturating_add(BUDGET_ALLOWANCE);
        Self {
            container,
            input_bytes,
            budget,
            budget_left: Cell::new(budget),
        }
    }

    fn accessor(&self, index: usize) -> Result<&'a Accessor, String> {
        self.container
            .root
            .accessors
            .get(index)
            .ok_or_else(|| format!("accessor {index} does not exist"))
    }

    /// How many components each element of accessor `index` has (None: no such accessor, or
    /// an unknown type).
    pub fn components(&self, index: usize) -> Option<usize> {
        match self.accessor(index).ok()?.type_ {
            Checked::Valid(kind) => Some(kind.multiplicity()),
            Checked::Invalid => None,
        }
    }

    /// Whether accessor `index` exists and holds floats (not normalised integers).
    pub fn is_float(&self, index: usize) -> bool {
        self.accessor(index)
            .is_ok_and(|a| matches!(a.component_type, Checked::Valid(t) if t.0 == ComponentType::F32))
    }

    /// Why accessor `index` cannot be read because a buffer it reads has no data (see
    /// `Container::view_unavailable`), naming the buffer view.
    pub fn unavailable(&self, index: usize) -> Option<String> {
        if self.container.decoded_accessors.contains_key(&index) {
            return None;
        }
        let accessor = self.accessor(index).ok()?;
        let sparse = accessor
            .sparse
            .iter()
            .flat_map(|s| [s.indices.buffer_view.value(), s.values.buffer_view.value()]);
        accessor
            .buffer_view
            .map(|v| v.value())
            .into_iter()
            .chain(sparse)
            .find_map(|view| {
                let why = self.container.view_unavailable(view)?;
                Some(format!("accessor {index} reads buffer view {view}, whose buffer {why}"))
            })
    }

    /// Reads `N`-component elements as floats.
    pub fn read_f32<const N: usize>(&self, index: usize) -> Result<Vec<[f32; N]>, String> {
        let values = self.read(index, N, to_f32)?;
        if let Some(bad) = values.iter().position(|v| v.iter().any(|c| !c.is_finite())) {
            return Err(format!("accessor {index}: element {bad} is not a finite number"));
        }
        Ok(values)
    }

    /// Reads `N`-component elements of an unsigned integer accessor.
    pub fn read_u32<const N: usize>(&self, index: usize) -> Result<Vec<[u32; N]>, String> {
        let accessor = self.accessor(index)?;
        match accessor.component_type {
            Checked::Valid(t) if matches!(t.0, ComponentType::U8 | ComponentType::U16 | ComponentType::U32) => {}
            _ => return Err(format!("accessor {index} must hold unsigned integers")),
        }
        self.read(index, N, to_u32)
    }

    fn read<T: Copy + Default, const N: usize>(
        &self,
        index: usize,
        components: usize,
        convert: fn(&[u8], ComponentType, bool) -> T,
    ) -> Result<Vec<[T; N]>, String> {
        let accessor = self.accessor(index)?;
        let context = |problem: String| format!("accessor {index}: {problem}");
        let Checked::Valid(kind) = accessor.type_ else {
            return Err(context("unknown type".into()));
        };
        if kind.multiplicity() != components || matches!(kind, Type::Mat2 | Type::Mat3) {
            return Err(context(format!(
                "its type is {}, where {components} components are needed",
                type_name(kind)
            )));
        }
        let Checked::Valid(component) = accessor.component_type else {
            return Err(context("unknown component type".into()));
        };
        let component = component.0;
        if matches!(kind, Type::Mat4) && component != ComponentType::F32 {
            return Err(context("matrices must be floats".into()));
        }
        let count = accessor.count.0 as usize;
        let element_size = component.size() * components;
        let decoded = count
            .checked_mul(std::mem::size_of::<[T; N]>())
            .ok_or_else(|| context("count is absurd".into()))?;
        // Check that the data is there before allocating room for it.
        let from_draco = self.container.decoded_accessors.get(&index);
        let layout = match (from_draco, accessor.buffer_view) {
            // Decoded from Draco: tightly packed, exactly `count` elements.
            (Some(data), _) if data.len() >= count.saturating_mul(element_size) => Some(Layout {
                data,
                stride: element_size,
                component,
                components,
            }),
            (Some(_), _) => return Err(context("its decoded data is shorter than its count".into())),
            (None, Some(view)) => {
                let offset = accessor.byte_offset.map_or(0, |o| o.0);
                Some(
                    self.layout(view.value(), offset, count, component, components)
                        .map_err(context)?,
                )
            }
            // Without a buffer view the elements are zeros (then sparse values): still, the
            // count must be plausible for the file's size.
            (None, None) if count.saturating_mul(element_size) > self.input_bytes => {
                return Err(context(format!(
                    "{count} elements is more than the file could describe"
                )));
            }
            (None, None) => None,
        };
        self.charge(decoded).map_err(context)?;
        let mut values = vec![[T::default(); N]; count];
        if let Some(layout) = &layout {
            for (value, i) in values.iter_mut().zip(0..) {
                read_element(layout, i, accessor.normalized, convert, value);
            }
        }
        if let Some(sparse) = &accessor.sparse {
            self.apply_sparse(sparse, component, components, accessor.normalized, convert, &mut values)
                .map_err(|e| context(format!("sparse: {e}")))?;
        }
        Ok(values)
    }

    fn charge(&self, bytes: usize) -> Result<(), String> {
        let left = self.budget_left.get();
        if bytes > left {
            return Err(format!(
                "decoding it would exceed the {} MiB this {} KiB file may decode to",
                self.budget >> 20,
                self.input_bytes >> 10
            ));
        }
        self.budget_left.set(left - bytes);
        Ok(())
    }

    /// Checks that `count` elements starting `offset` bytes into buffer view `view` fit.
    fn layout(
        &self,
        view: usize,
        offset: u64,
        count: usize,
        component: ComponentType,
        components: usize,
    ) -> Result<Layout<'a>, String> {
        let view_data = self.container.view(view)?;
        let element_size = component.size() * components;
        let stride = self.container.view_stride(view).unwrap_or(element_size);
        if stride < element_size {
            return Err(format!(
                "byte stride {stride} is smaller than an element ({element_size} bytes)"
            ));
        }
        let data = usize::try_from(offset)
            .ok()
            .and_then(|offset| view_data.get(offset..))
            .ok_or_else(|| format!("byte offset {offset} is past the end of buffer view {view}"))?;
        let needed = match count {
            0 => 0,
            n => (n - 1)
                .checked_mul(stride)
                .and_then(|b| b.checked_add(element_size))
                .ok_or("count is absurd")?,
        };
        if needed > data.len() {
            return Err(format!(
                "{count} elements need {needed} bytes but buffer view {view} has {} from the accessor's offset",
                data.len()
            ));
        }
        Ok(Layout {
            data,
            stride,
            component,
            components,
        })
    }

    fn apply_sparse<T: Copy + Default, const N: usize>(
        &self,
        sparse: &gltf_json::accessor::sparse::Sparse,
        component: ComponentType,
        components: usize,
        normalized: bool,
        convert: fn(&[u8], ComponentType, bool) -> T,
        values: &mut [[T; N]],
    ) -> Result<(), String> {
        let count = sparse.count.0 as usize;
        if count > values.len() {
            return Err(format!("{count} substitutions for {} elements", values.len()));
        }
        let index_type = match sparse.indices.component_type {
            Checked::Valid(t) if matches!(t.0, ComponentType::U8 | ComponentType::U16 | ComponentType::U32) => t,
            _ => return Err("indices must be unsigned integers".into()),
        };
        let indices = self.layout(
            sparse.indices.buffer_view.value(),
            sparse.indices.byte_offset.0,
            count,
            index_type.0,
            1,
        )?;
        let mut substitutes = self.layout(
            sparse.values.buffer_view.value(),
            sparse.values.byte_offset.0,
            count,
            component,
            components,
        )?;
        // Sparse arrays are tightly packed regardless of the views' stride.
        substitutes.stride = component.size() * components;
        let mut index_layout = indices;
        index_layout.stride = index_type.0.size();
        for i in 0..count {
            let target = to_u32(index_layout.element(i), index_type.0, false) as usize;
            let value = values
                .get_mut(target)
                .ok_or_else(|| format!("index {target} is out of range"))?;
            read_element(&substitutes, i, normalized, convert, value);
        }
        Ok(())
    }
}

/// The name glTF writes for an accessor type.
fn type_name(kind: Type) -> &'static str {
    match kind {
        Type::Scalar => "SCALAR",
        Type::Vec2 => "VEC2",
        Type::Vec3 => "VEC3",
        Type::Vec4 => "VEC4",
        Type::Mat2 => "MAT2",
        Type::Mat3 => "MAT3",
        Type::Mat4 => "MAT4",
    }
}

fn read_element<T, const N: usize>(
    layout: &Layout,
    index: usize,
    normalized: bool,
    convert: fn(&[u8], ComponentType, bool) -> T,
    out: &mut [T; N],
) {
    let bytes = layout.element(index);
    let size = layout.component.size();
    for (c, slot) in out.iter_mut().enumerate() {
        *slot = convert(&bytes[c * size..(c + 1) * size], layout.component, normalized);
    }
}

/// One component as a float; normalised integers map to [0, 1] or [-1, 1] (glTF 2.0 §3.11).
fn to_f32(bytes: &[u8], component: ComponentType, normalized: bool) -> f32 {
    let raw = |n: usize| -> [u8; 4] {
        let mut word = [0; 4];
        word[..n].copy_from_slice(&bytes[..n]);
        word
    };
    match (component, normalized) {
        (ComponentType::F32, _) => f32::from_le_bytes(raw(4)),
        (ComponentType::I8, true) => (bytes[0] as i8 as f32 / 127.0).max(-1.0),
        (ComponentType::I8, false) => bytes[0] as i8 as f32,
        (ComponentType::U8, true) => bytes[0] as f32 / 255.0,
        (ComponentType::U8, false) => bytes[0] as f32,
        (ComponentType::I16, true) => (i16::from_le_bytes([bytes[0], bytes[1]]) as f32 / 32767.0).max(-1.0),
        (ComponentType::I16, false) => i16::from_le_bytes([bytes[0], bytes[1]]) as f32,
        (ComponentType::U16, true) => u16::from_le_bytes([bytes[0], bytes[1]]) as f32 / 65535.0,
        (ComponentType::U16, false) => u16::from_le_bytes([bytes[0], bytes[1]]) as f32,
        (ComponentType::U32, _) => u32::from_le_bytes(raw(4)) as f32,
    }
}

/// One unsigned integer component (callers have checked the type is unsigned).
fn to_u32(bytes: &[u8], component: ComponentType, _normalized: bool) -> u32 {
    match component {
        ComponentType::U8 | ComponentType::I8 => bytes[0] as u32,
        ComponentType::U16 | ComponentType::I16 => u16::from_le_bytes([bytes[0], bytes[1]]) as u32,
        ComponentType::U32 | ComponentType::F32 => u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
    }
}
