//! rigscope: a viewer and inspector for skinned, animated 3D models.
//!
//! Data flows one way: `asset` turns a file into a [`asset::Model`]; `anim` samples its clips
//! into a [`anim::Pose`]; `skin` deforms the meshes with that pose on the CPU; `cli` exposes the
//! same pipeline as headless commands.

pub mod anim;
pub mod asset;
pub mod cli;
pub mod skin;
