//! Autodesk FBX (binary and ASCII, 6100 to 7700) and Wavefront OBJ (with its MTL) → `Model`,
//! read by ufbx, the most complete open FBX reader.
//!
//! ufbx resolves what FBX describes beyond glTF's node model: pivots, pre- and post-rotations
//! and rotation orders (into each node's rotation and translation), inherit modes other than
//! the usual (as scale helper nodes), and geometric transforms (applied to the geometry). It
//! also converts units and axes to glTF's: +Y up, +Z forward, metres (`inspect` says from
//! what). Then, as for glTF:
//! - every node under the file's root is a joint, parents first (`nodes`);
//! - each mesh is triangulated and split by material into primitives, and skinned by its skin
//!   deformer's clusters, morphed by its blend shapes (`mesh`);
//! - every animation stack is a clip, baked by ufbx (`anim`), and node visibility hides nodes
//!   at rest and in clips (`visibility`);
//! - materials through ufbx's PBR mapping, embedded and external textures, cameras and lights
//!   (`material`, `scene_objects`);
//! - geometry that is not drawn (NURBS, lines) is named in a warning (`unread`), and ufbx's
//!   own warnings and errors are put in words that name an object or a place (`reader_words`).
//!
//! Work is bounded by the file: ufbx's allocations are limited to a multiple of its size, and an
//! OBJ whose face index is beyond what the file can hold is refused before ufbx reads it
//! (`obj_indices`). An OBJ's geometry is read in one pass straight into primitives where the
//! file allows (`obj_reader`: within 3x the file's size, where ufbx's mesh took 7 to 18x), and
//! ufbx reads the rest without it (`obj_meshes`).

mod anim;
mod fast_hash;
mod material;
mod mesh;
mod nodes;
mod obj_indices;
mod obj_meshes;
mod obj_reader;
mod obj_text;
mod reader_words;
mod rotation_steps;
mod scene_objects;
mod unread;
mod visibility;

use std::path::Path;

use glam::{Mat4, Quat, Vec2, Vec3, Vec4};

use super::LoadErrorKind;
use super::format::Format;
use super::model::Model;

/// ufbx may allocate this many times the file's size, plus `MEMORY_ALLOWANCE`: FBX arrays are
/// deflated (often 5-20:1), and the reader keeps both the file's data and what it builds.
const MEMORY_FACTOR: usize = 64;
const MEMORY_ALLOWANCE: usize = 256 << 20;

pub fn load(path: &Path, bytes: &[u8], format: Format) -> Result<Model, LoadErrorKind> {
    if format == Format::Obj
        && let Some(absurd) = obj_indices::absurd_index(bytes)
    {
        return Err(LoadErrorKind::invalid(
            format!("the OBJ file's line {}", absurd.line),
            format!(
                "face index {} points past anything a file of {} bytes can hold (at most {} vertices)",
                absurd.index,
                bytes.len(),
                absurd.most
            ),
        ));
    }
    let geometry = match format {
        Format::Obj => obj_reader::read(bytes),
        _ => None,
    };
    load_with(path, bytes, format, geometry)
}

/// Loads the file through ufbx, with the OBJ's `geometry` where `obj_reader` read it (then
/// ufbx reads the rest without it).
fn load_with(
    path: &Path,
    bytes: &[u8],
    format: Format,
    geometry: Option<obj_reader::ObjGeometry>,
) -> Result<Model, LoadErrorKind> {
    let limit = bytes
        .len()
        .saturating_mul(MEMORY_FACTOR)
        .saturating_add(MEMORY_ALLOWANCE);
    let allocator = || ufbx::AllocatorOpts {
        memory_limit: limit,
        ..Default::default()
    };
    let filename = path.to_string_lossy().into_owned();
    let options = ufbx::LoadOpts {
        temp_allocator: allocator(),
        result_allocator: allocator(),
        filename: filename.as_str().into(),
        // An OBJ's .mtl is read beside it; a missing one is a warning.
        load_external_files: true,
        ignore_missing_external_files: true,
        target_axes: ufbx::CoordinateAxes::right_handed_y_up(),
        target_unit_meters: 1.0,
        // Cameras and lights look down −Z with +Y up, as glTF's do.
        target_camera_axes: ufbx::CoordinateAxes::right_handed_y_up(),
        target_light_axes: ufbx::CoordinateAxes::right_handed_y_up(),
        ignore_geometry: geometry.is_some(),
        space_conversion: ufbx::SpaceConversion::ModifyGeometry,
        geometry_transform_handling: ufbx::GeometryTransformHandling::ModifyGeometry,
        inherit_mode_handling: ufbx::InheritModeHandling::HelperNodes,
        file_format: match format {
            Format::Obj => ufbx::FileFormat::Obj,
            _ => ufbx::FileFormat::Fbx,
        },
        ..Default::default()
    };
    let scene = ufbx::load_memory(bytes, options).map_err(|error| reader_error(format, &error, limit))?;
    let mut warnings: Vec<String> = (scene.metadata.warnings.iter())
        .map(|w| reader_words::warning(name(format), w, &scene))
        .collect();
    unread::unread_geometry(&scene, &mut warnings);

    let nodes = nodes::Nodes::new(&scene)?;
    let (images, textures) = material::load_textures(&scene, path, &mut warnings);
    let materials = material::load_materials(&scene, &textures);
    let built = match geometry {
        Some(geometry) => match obj_meshes::built(geometry, &scene, &nodes) {
            Some(built) => built,
            None => return load_with(path, bytes, format, None),
        },
        None => mesh::load_meshes(&scene, &nodes, &mut warnings)?,
    };
    let skeleton = nodes.skeleton(&scene, &built.morph_targets_of_node, built.bind_model)?;
    let mut visibility = visibility::VisibilitySlots::default();
    let clips = anim::load_clips(
        &scene,
        &nodes,
        &skeleton,
        &built.morph_channels,
        limit,
        &mut visibility,
        &mut warnings,
    );
    let (properties, property_rest) = visibility.finish(&scene, &nodes, &mut warnings);
    let skeleton = skeleton.with_properties(property_rest);
    let cameras = scene_objects::cameras(&scene, &nodes, &mut warnings);
    let lights = scene_objects::lights(&scene, &nodes, &mut warnings);

    Ok(Model {
        file_facts: facts(&scene, format),
        file_node: (0..nodes.len()).collect(),
        skins: built.skins,
        meshes: built.meshes,
        instances: built.instances,
        materials,
        images,
        lights,
        clips,
        cameras,
        properties,
        warnings,
        ..Model::new(path.to_path_buf(), Some(format), skeleton)
    })
}

fn name(format: Format) -> &'static str {
    match format {
        Format::Obj => "OBJ",
        _ => "FBX",
    }
}

/// ufbx's error as a load error, in plain words where its kind says more than its text, and
/// where in the reader it stopped when ufbx recorded that.
fn reader_error(format: Format, error: &ufbx::Error, limit: usize) -> LoadErrorKind {
    let mut problem = match error.type_ {
        ufbx::ErrorType::MemoryLimit | ufbx::ErrorType::AllocationLimit => format!(
            "reading it would take more than {} MiB, more than a file of its size may ask for",
            limit >> 20
        ),
        ufbx::ErrorType::TruncatedFile => "the file ends too early (truncated file?)".to_string(),
        ufbx::ErrorType::UnsupportedVersion => format!("its version is one ufbx does not read ({})", error.description),
        _ => format!("ufbx could not read it ({})", error.description),
    };
    let stopped = reader_words::where_it_stopped(&reader_words::frames(error));
    if !stopped.is_empty() {
        problem.push_str(&format!(": the reader stopped {stopped}"));
    }
    LoadErrorKind::invalid(format!("the {} file", name(format)), problem)
}

/// What the file says of itself, for `inspect`: its version and writer, its axes and units and
/// what they were converted to, and its animation stacks.
fn facts(scene: &ufbx::Scene, format: Format) -> Vec<String> {
    let metadata = &scene.metadata;
    let settings = &scene.settings;
    let mut facts = Vec::new();
    match format {
        Format::Obj => facts.push("Wavefront OBJ".to_string()),
        _ => {
            let encoding = if metadata.ascii { "ASCII" } else { "binary" };
            let application = &metadata.original_application;
            let creator = match application.name.is_empty() {
                true => metadata.creator.to_string(),
                false => format!("{} {} {}", application.vendor, application.name, application.version),
            };
            let writer = match creator.trim() {
                "" => "a program it does not name",
                named => named,
            };
            facts.push(format!("FBX {} {encoding}, written by {writer}", metadata.version));
        }
    }
    facts.push(conversion(settings.axes.up, settings.unit_meters));
    if format == Format::Fbx {
        let stacks: Vec<String> = scene
            .anim_stacks
            .iter()
            .map(|s| format!("'{}'", s.element.name))
            .collect();
        if !stacks.is_empty() {
            facts.push(format!("takes (animation stacks): {}", stacks.join(", ")));
        }
        facts.push(format!("{} frames per second", settings.frames_per_second));
    }
    facts
}

/// What the file's up axis and unit were, and what was converted to glTF's +Y up and metres.
fn conversion(up: ufbx::CoordinateAxis, unit_meters: f64) -> String {
    let up = match up {
        ufbx::CoordinateAxis::PositiveX => Some("+X"),
        ufbx::CoordinateAxis::NegativeX => Some("−X"),
        ufbx::CoordinateAxis::PositiveY => Some("+Y"),
        ufbx::CoordinateAxis::NegativeY => Some("−Y"),
        ufbx::CoordinateAxis::PositiveZ => Some("+Z"),
        ufbx::CoordinateAxis::NegativeZ => Some("−Z"),
        ufbx::CoordinateAxis::Unknown => None,
    };
    let unit = match unit_meters {
        m if !(m.is_finite() && m > 0.0) => None,
        m if (m - 1.0).abs() < 1e-9 => Some("metres".to_string()),
        m if (m - 0.01).abs() < 1e-9 => Some("centimetres".into()),
        m if (m - 0.001).abs() < 1e-12 => Some("millimetres".into()),
        m if (m - 0.0254).abs() < 1e-9 => Some("inches".into()),
        m => Some(format!("units of {m} m")),
    };
    match (up, unit) {
        (None, None) => "no axes or units given: read as +Y up, metres".into(),
        (Some("+Y"), Some(unit)) if unit == "metres" => "+Y up, metres, as glTF".into(),
        (Some("+Y"), Some(unit)) => format!("+Y up, {unit}: converted to metres"),
        (up, unit) => format!(
            "{} up, {}: converted to +Y up, metres",
            up.unwrap_or("unknown"),
            unit.unwrap_or_else(|| "no unit".into())
        ),
    }
}

fn vec2(v: ufbx::Vec2) -> Vec2 {
    Vec2::new(v.x as f32, v.y as f32)
}

fn vec3(v: ufbx::Vec3) -> Vec3 {
    Vec3::new(v.x as f32, v.y as f32, v.z as f32)
}

fn vec4(v: ufbx::Vec4) -> Vec4 {
    Vec4::new(v.x as f32, v.y as f32, v.z as f32, v.w as f32)
}

fn quat(q: ufbx::Quat) -> Quat {
    Quat::from_xyzw(q.x as f32, q.y as f32, q.z as f32, q.w as f32)
}

/// ufbx's affine matrix (rows of three columns plus translation).
fn mat4(m: &ufbx::Matrix) -> Mat4 {
    Mat4::from_cols(
        Vec4::new(m.m00 as f32, m.m10 as f32, m.m20 as f32, 0.0),
        Vec4::new(m.m01 as f32, m.m11 as f32, m.m21 as f32, 0.0),
        Vec4::new(m.m02 as f32, m.m12 as f32, m.m22 as f32, 0.0),
        Vec4::new(m.m03 as f32, m.m13 as f32, m.m23 as f32, 1.0),
    )
}
