// A skin's matrices as two uniform arrays, for adapters without storage buffers in the vertex
// stage: the joints' model matrices (joint → model space) and their inverse bind matrices
// (bind space → joint), multiplied per vertex. `__MAX_JOINTS__` is the device's array length.
// A crowd's `pose` array holds as many instances' joints as fit, one block after another
// (`skin_block`, skinning.wgsl); the inverse bind matrices are every instance's.

const MAX_JOINTS: u32 = __MAX_JOINTS__u;

@group(1) @binding(0) var<uniform> pose: array<mat4x4<f32>, MAX_JOINTS>;
@group(1) @binding(1) var<uniform> inv_bind_pose: array<mat4x4<f32>, MAX_JOINTS>;

// Bind space → model space for skin joint `joint`.
fn skin_matrix(joint: u32) -> mat4x4<f32> {
    let j = min(joint, MAX_JOINTS - 1u);
    return pose[min(skin_block + joint, MAX_JOINTS - 1u)] * inv_bind_pose[j];
}
