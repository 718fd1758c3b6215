//! Doom 3 MD5 models: `.md5mesh` + `.md5anim` → `Model`, like a glTF rig.
//!
//! - MD5 is Z-up; glTF and rigscope are Y-up. A root node, "MD5 Z-up to Y-up", rotates
//!   everything by -90° about X (so +Z becomes +Y), and the MD5 joints hang below it: joint
//!   `j` of the file is skeleton joint `j + 1` and skin joint `j`.
//! - The joints' model-space bind transforms become the bind pose (and the rest pose); a vertex's
//!   bind position is `Σ bias · (joint position + joint orientation · weight position)`.
//! - Normals are computed from the triangles (area-weighted). Doom 3 winds triangles clockwise;
//!   they are reversed to glTF's counter-clockwise. Each vertex keeps its 8 strongest weights,
//!   renormalised (`inspect` reports truncation).
//! - A mesh's `shader` names its texture by file stem: `stem.png`, `.tga`, `.jpg` or `.jpeg`
//!   next to the `.md5mesh`; a missing texture leaves a plain material and a warning.
//! - Opening a `.md5mesh` loads every `.md5anim` in its folder as a clip named by file stem
//!   (one that does not fit becomes a warning). Each frame is a key at `frame / frameRate`,
//!   interpolated linearly; the clip lasts `(frames - 1) / frameRate`, Doom 3's convention
//!   for cycles whose last frame repeats the first.

mod files;
mod tokens;

use std::f32::consts::FRAC_PI_2;
use std::path::Path;

use glam::{Mat4, Vec3, Vec4};

use super::LoadErrorKind;
use super::TextureRef;
use super::format::Format;
use super::geometry::{build_skin_weights, compute_normals};
use super::material::Material;
use super::model::{Image, Mesh, MeshInstance, Model, Primitive, Skin, Topology};
use crate::anim::{Channel, ChannelTrack, Clip, Interpolation, JointDesc, Skeleton, Track, TrackError, Transform};
use files::{AnimFile, MeshFile, parse_anim, parse_mesh, quaternion};

/// MD5's Z-up model space → rigscope's Y-up space.
fn z_up_to_y_up() -> Mat4 {
    Mat4::from_rotation_x(-FRAC_PI_2)
}

fn text(bytes: &[u8]) -> Result<&str, LoadErrorKind> {
    std::str::from_utf8(bytes).map_err(|e| LoadErrorKind::NotText(e.valid_up_to()))
}

pub fn load(path: &Path, bytes: &[u8]) -> Result<Model, LoadErrorKind> {
    let file = parse_mesh(text(bytes)?)?;
    let mut warnings = Vec::new();
    let bind: Vec<Mat4> = file
        .joints
        .iter()
        .map(|j| Mat4::from_rotation_translation(j.orientation, j.position))
        .collect();
    let skeleton = skeleton(&file, &bind)?;
    let convert = z_up_to_y_up();
    let (meshes, materials, images) = meshes(path, &file, &bind, &mut warnings);
    let skin = Skin {
        name: "MD5".into(),
        joints: (1..=file.joints.len()).collect(),
        inverse_bind: bind.iter().map(|b| (convert * *b).inverse()).collect(),
        inverse_bind_given: true,
        root: 1,
    };
    let mut model = Model {
        instances: (0..meshes.len())
            .map(|mesh| MeshInstance {
                joint: 0,
                mesh,
                skin: Some(0),
            })
            .collect(),
        skins: vec![skin],
        meshes,
        materials,
        images,
        warnings,
        ..Model::new(path.to_path_buf(), Some(Format::Md5Mesh), skeleton)
    };
    for anim in animations_beside(path) {
        model.source_files.push(anim.clone());
        match std::fs::read(&anim)
            .map_err(LoadErrorKind::Read)
            .and_then(|bytes| load_clip(&model, &anim, &bytes))
        {
            Ok(clip) => model.clips.push(clip),
            Err(error) => model.warnings.push(format!("{}: {error} (not loaded)", anim.display())),
        }
    }
    Ok(model)
}

/// The `.md5anim` files in the folder of `mesh`, sorted by name.
fn animations_beside(mesh: &Path) -> Vec<std::path::PathBuf> {
    let folder = mesh.parent().unwrap_or(Path::new("."));
    let mut anims: Vec<_> = std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|p| Format::from_extension(p) == Some(Format::Md5Anim))
        .collect();
    anims.sort();
    anims
}

fn skeleton(file: &MeshFile, bind: &[Mat4]) -> Result<Skeleton, LoadErrorKind> {
    let convert = z_up_to_y_up();
    let mut joints = vec![JointDesc {
        name: "MD5 Z-up to Y-up".into(),
        parent: None,
        rest: Transform::from_mat4(&convert),
        bind_model: Some(convert),
        morph_weights: Vec::new(),
    }];
    for (index, joint) in file.joints.iter().enumerate() {
        let local = match joint.parent {
            Some(parent) => bind[parent].inverse() * bind[index],
            None => bind[index],
        };
        joints.push(JointDesc {
            name: joint.name.clone(),
            parent: Some(joint.parent.map_or(0, |p| p as u32 + 1)),
            rest: Transform::from_mat4(&local),
            bind_model: Some(convert * bind[index]),
            morph_weights: Vec::new(),
        });
    }
    Skeleton::new(joints).map_err(|e| LoadErrorKind::invalid("the joints", e.to_string()))
}

fn meshes(
    path: &Path,
    file: &MeshFile,
    bind: &[Mat4],
    warnings: &mut Vec<String>,
) -> (Vec<Mesh>, Vec<Material>, Vec<Image>) {
    let convert = z_up_to_y_up();
    let (mut meshes, mut materials, mut images) = (Vec::new(), Vec::new(), Vec::new());
    for (index, part) in file.meshes.iter().enumerate() {
        let positions: Vec<Vec3> = part
            .weight_ranges
            .iter()
            .map(|&(start, count)| {
                let position: Vec3 = part.weights[start..start + count]
                    .iter()
                    .map(|w| bind[w.joint].transform_point3(w.position) * w.bias)
                    .sum();
                convert.transform_point3(position)
            })
            .collect();
        // Clockwise in Doom 3, counter-clockwise here.
        let indices: Vec<u32> = part.triangles.iter().flat_map(|&[a, b, c]| [a, c, b]).collect();
        let normals = compute_normals(&positions, &indices);
        let skin_weights = build_skin_weights(positions.len(), file.joints.len(), |vertex, out| {
            let (start, count) = part.weight_ranges[vertex];
            out.extend(
                part.weights[start..start + count]
                    .iter()
                    .map(|w| (w.joint as u32, w.bias)),
            );
        });
        let name = Path::new(&part.shader)
            .file_stem()
            .map_or_else(|| format!("mesh {index}"), |s| s.to_string_lossy().into_owned());
        // Named by its name, as lint names meshes, and its place in the file (meshes may share
        // a shader).
        let subject = format!("mesh {index} '{name}'");
        skin_weights.report_repairs(&subject, warnings);
        let texture = find_texture(path, &part.shader);
        if texture.is_none() && !part.shader.is_empty() {
            warnings.push(format!(
                "{subject}: no texture found for shader '{}' (plain material)",
                part.shader
            ));
        }
        let base_color_texture = texture.map(|(file_name, bytes)| {
            images.push(Image {
                name: file_name,
                mime_type: None,
                bytes: bytes.into(),
            });
            TextureRef::plain(images.len() - 1)
        });
        materials.push(Material {
            name: name.clone(),
            base_color: Vec4::ONE,
            base_color_texture,
            metallic: 0.0,
            roughness: 0.7,
            ..Material::default()
        });
        meshes.push(Mesh {
            name,
            primitives: vec![Primitive {
                topology: Topology::Triangles,
                indices,
                normals,
                normals_computed: true,
                uvs: part.uvs.clone(),
                skin_weights: Some(skin_weights),
                material: Some(materials.len() - 1),
                positions,
                ..Primitive::default()
            }],
            attributes: Vec::new(),
            target_names: Vec::new(),
        });
    }
    (meshes, materials, images)
}

/// The texture a shader names: its file stem with an image extension, next to the mesh.
fn find_texture(mesh_path: &Path, shader: &str) -> Option<(String, Vec<u8>)> {
    let stem = Path::new(shader).file_stem()?;
    let folder = mesh_path.parent().unwrap_or(Path::new("."));
    ["png", "tga", "jpg", "jpeg"].iter().find_map(|extension| {
        let candidate = folder.join(stem).with_extension(extension);
        let bytes = std::fs::read(&candidate).ok()?;
        Some((candidate.file_name()?.to_string_lossy().into_owned(), bytes))
    })
}

/// Loads an `.md5anim` as a clip of `model` (an MD5 model: its joints must match the
/// animation's hierarchy by name and parent). The clip is named by the file's stem.
pub fn load_clip(model: &Model, path: &Path, bytes: &[u8]) -> Result<Clip, LoadErrorKind> {
    let anim = parse_anim(text(bytes)?)?;
    check_hierarchy(model, &anim)?;
    let name = path
        .file_stem()
        .map_or_else(|| "animation".into(), |s| s.to_string_lossy().into_owned());
    clip(name, &anim)
}

fn check_hierarchy(model: &Model, anim: &AnimFile) -> Result<(), LoadErrorKind> {
    let skeleton = &model.skeleton;
    if anim.joints.len() + 1 != skeleton.len() {
        return Err(LoadErrorKind::invalid(
            "the hierarchy",
            format!(
                "the animation has {} joints and the mesh {}",
                anim.joints.len(),
                skeleton.len().saturating_sub(1)
            ),
        ));
    }
    for (index, joint) in anim.joints.iter().enumerate() {
        let mesh_parent = skeleton.parent(index + 1).and_then(|p| p.checked_sub(1));
        if skeleton.name(index + 1) != joint.name || mesh_parent != joint.parent {
            return Err(LoadErrorKind::invalid(
                format!("joint {index}"),
                format!(
                    "it is '{}' (parent {:?}) in the animation but '{}' (parent {:?}) in the mesh",
                    joint.name,
                    joint.parent,
                    skeleton.name(index + 1),
                    mesh_parent
                ),
            ));
        }
    }
    Ok(())
}

/// One translation and one rotation track per joint, a key per frame.
fn clip(name: String, anim: &AnimFile) -> Result<Clip, LoadErrorKind> {
    let times: Vec<f32> = (0..anim.frames.len()).map(|f| f as f32 / anim.frame_rate).collect();
    // A tiny frame rate can push the last frame's time past what a float holds.
    if times.last().is_some_and(|t| !t.is_finite()) {
        return Err(LoadErrorKind::invalid(
            "frameRate",
            format!(
                "{} frames at {} per second last longer than rigscope can time",
                times.len(),
                anim.frame_rate
            ),
        ));
    }
    let mut channels = Vec::with_capacity(anim.joints.len() * 2);
    for (index, joint) in anim.joints.iter().enumerate() {
        let (base_position, base_orientation) = anim.base[index];
        let mut translations = Vec::with_capacity(anim.frames.len());
        let mut rotations = Vec::with_capacity(anim.frames.len());
        for frame in &anim.frames {
            // Flags pick which of tx, ty, tz, qx, qy, qz the frame replaces, in that order.
            let mut components = [
                base_position[0],
                base_position[1],
                base_position[2],
                base_orientation[0],
                base_orientation[1],
                base_orientation[2],
            ];
            let mut next = joint.start;
            for (bit, component) in components.iter_mut().enumerate() {
                if joint.flags & (1 << bit) != 0 {
                    *component = frame[next];
                    next += 1;
                }
            }
            translations.push(Vec3::new(components[0], components[1], components[2]));
            rotations.push(quaternion([components[3], components[4], components[5]]));
        }
        let invalid =
            |e: TrackError| LoadErrorKind::invalid(format!("joint {index} ('{}')", joint.name), e.to_string());
        channels.push(Channel {
            joint: index + 1,
            track: ChannelTrack::Translation(
                Track::new(Interpolation::Linear, times.clone(), translations).map_err(invalid)?,
            ),
        });
        channels.push(Channel {
            joint: index + 1,
            track: ChannelTrack::Rotation(
                Track::new(Interpolation::Linear, times.clone(), rotations).map_err(invalid)?,
            ),
        });
    }
    Ok(Clip::new(name, channels))
}

/// The per-frame bounds (min, max) an `.md5anim` declares, in rigscope's Y-up space.
#[cfg(any(test, feature = "internals"))]
pub fn frame_bounds(bytes: &[u8]) -> Result<Vec<(Vec3, Vec3)>, LoadErrorKind> {
    let anim = parse_anim(text(bytes)?)?;
    let convert = z_up_to_y_up();
    Ok(anim
        .bounds
        .iter()
        .map(|(min, max)| {
            let (a, b) = (convert.transform_point3(*min), convert.transform_point3(*max));
            (a.min(b), a.max(b))
        })
        .collect())
}
