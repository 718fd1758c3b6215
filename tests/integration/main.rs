//! The integration tests, in one binary: each file is a module (linking the viewer's
//! dependencies once instead of once per file is most of a clean build's time). The tests that
//! count allocations (one global allocator a process), measure time, or set process-wide
//! environment stay binaries of their own beside this folder.

#[path = "../common/mod.rs"]
mod common;

mod animated_pictures;
mod animated_properties;
mod batch;
mod blended_display;
mod blending;
mod cli;
mod compare_view;
mod compressed_geometry;
mod convert;
mod convert_compressed;
mod corpus;
mod crowd;
mod curve_view;
mod curves;
mod desktop;
mod diff;
mod edge_resolve;
mod environment_cache;
mod export_panel;
mod exporter_quirks;
mod fbx_and_obj;
mod fbx_blended_skinning;
mod fbx_curves;
mod gltf_assets;
mod ik;
mod image_detail;
mod inspection;
mod khronos_validator;
mod layers;
mod licenses;
mod lint;
mod local_to_model;
mod material_variants;
mod md5;
mod morph;
mod motion;
mod mtoon;
mod mutation_smoke;
mod notices;
mod output_convention;
mod panel;
mod panel_text;
mod picture;
mod public_api;
mod reload;
mod render;
mod retarget;
mod sampling_fast_path;
mod scene_shapes;
mod scenes_and_copies;
mod shadow_terminator;
mod shared;
mod texture_formats;
mod three_fidelity;
mod timeline;
mod trails;
mod validator;
mod video;
mod viewer_load_errors;
mod views;
mod vrm_avatar;
mod vrm_motion;
mod vrm_springs;
mod vrm_write;
mod window;
