//! What the writer is asked to do besides writing the model as it is.

/// What to write besides the model as it is.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct WriteOptions {
    /// The material variant whose materials become the primitives' own (the viewer's choice);
    /// the variants stay in `KHR_materials_variants`.
    pub material_variant: Option<usize>,
    /// How the meshes' vertices and indices are stored.
    pub compression: Compression,
}

/// How the meshes' vertices and indices are stored: plainly, or compressed by an extension
/// that a reader must support to read the file (the extension is required).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Compression {
    /// Plain accessors, exactly as the model holds them.
    #[default]
    None,
    /// `EXT_meshopt_compression` with `KHR_mesh_quantization`, as gltfpack writes it (see
    /// `meshopt` for what is quantised and by how much).
    Meshopt,
    /// `KHR_draco_mesh_compression` on triangle primitives without morph targets, quantised as
    /// gltf-transform quantises (see `draco`).
    Draco,
}
