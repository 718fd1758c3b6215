// A skin's matrices as its palette (model matrix times inverse bind matrix per skin joint,
// computed once per frame on the CPU) in a storage buffer of any length; a crowd's instances
// one block after another (`skin_block`, skinning.wgsl).

@group(1) @binding(0) var<storage, read> palette: array<mat4x4<f32>>;

// Bind space → model space for skin joint `joint`.
fn skin_matrix(joint: u32) -> mat4x4<f32> {
    return palette[min(skin_block + joint, arrayLength(&palette) - 1u)];
}
