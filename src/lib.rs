//! rigscope: a viewer and inspector for skinned, animated 3D models.
//!
//! Data flows one way: `asset` turns a file into a [`asset::Model`]; `anim` samples its clips
//! into a [`anim::Pose`]; `skin` deforms the meshes with that pose on the CPU; `render` draws
//! it with wgpu (skinning on the GPU or taking the CPU's vertices); `ui` is the egui panel and
//! the viewer state it edits; `app` is the window; `cli` exposes the same pipeline as headless
//! commands; `lint` checks a model's rig for problems; `inspect` works out what the joint
//! browser, the weight views and the pose modes show; `view` is what the panel and the
//! renderer share without a GPU (camera, framing, picking, view toggles, what moves in a
//! frame); `export` writes pictures and videos; `write` writes models back out as glTF; `diff`
//! compares two versions of a rig (joints, binds, meshes, weights, morph targets, materials,
//! clips); `simd` holds the registers and the AVX dispatch of `anim`'s and `skin`'s hot loops.
//! `main.rs` opens the viewer or runs a command.

pub mod anim;
pub mod app;
pub mod asset;
pub mod cli;
pub mod diff;
pub mod export;
pub mod inspect;
pub mod lint;
pub mod render;
mod simd;
pub mod skin;
#[cfg(test)]
mod test_shapes;
pub mod ui;
pub mod view;
pub mod write;
