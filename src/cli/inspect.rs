//! `rigscope inspect FILE|DIR... [--json]`.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

use super::batch::{self, Input};
use super::extension_report::{self, ExtensionReport, extension_reports};
use super::image_report::{self, ImageReport, image_reports};
use super::inspect_avatar::{self, AvatarReport, VrmAnimationReport};
use super::inspect_decoded::{self, DecodedReport};
use super::motion_summary::MotionSummary;
use crate::asset::{self, Camera, Model, Primitive, Projection, Topology, VertexAttribute, unsupported_extensions};
use crate::inspect::motion::analyse;
use crate::view::counted;

#[derive(Serialize)]
struct Report {
    file: String,
    /// What the file says of itself (FBX: version, writer, axes and units converted).
    file_facts: Vec<String>,
    /// The file's scenes (glTF), and which one the rest of the report describes.
    scenes: Vec<SceneReport>,
    nodes: usize,
    hierarchy_depth: usize,
    /// Joints some skin uses, and nodes some clip animates (each once).
    skinned_joints: usize,
    animated_nodes: usize,
    skins: Vec<SkinReport>,
    meshes: Vec<MeshReport>,
    instances: Vec<InstanceReport>,
    /// Totals over mesh instances (a mesh drawn twice counts twice).
    vertices: usize,
    triangles: usize,
    max_influences: usize,
    morph_targets: usize,
    materials: Vec<String>,
    images: usize,
    /// Each image's container, size and what it decodes to.
    image_formats: Vec<ImageReport>,
    /// KHR_materials_variants: the variants' names.
    material_variants: Vec<String>,
    clips: Vec<ClipReport>,
    cameras: Vec<CameraReport>,
    lights: Vec<LightReport>,
    extensions_used: Vec<String>,
    extensions_required: Vec<String>,
    /// The used or required extensions rigscope does not read.
    unsupported_extensions: Vec<String>,
    /// Every extension the file names, once, with whether it is required and read.
    extensions: Vec<ExtensionReport>,
    /// Geometry decoded from Draco or meshopt compression.
    decoded_geometry: Vec<DecodedReport>,
    /// The VRM avatar the file is.
    avatar: Option<AvatarReport>,
    /// What the VRM animation (`.vrma`) the file is animates.
    vrm_animation: Option<VrmAnimationReport>,
    warnings: Vec<String>,
}

#[derive(Serialize)]
struct SceneReport {
    name: String,
    root_nodes: usize,
    /// The scene shown (and reported): only its nodes were loaded.
    shown: bool,
}

#[derive(Serialize)]
struct CameraReport {
    name: String,
    /// Its index among the file's cameras (what `render --camera N` names).
    index: usize,
    node: NodeRef,
    /// "perspective" or "orthographic".
    kind: &'static str,
    /// The projection's numbers, in words (angles in degrees).
    projection: String,
}

#[derive(Serialize)]
struct LightReport {
    name: String,
    node: NodeRef,
    /// "directional", "point" or "spot".
    kind: &'static str,
    /// Linear RGB.
    color: [f32; 3],
    /// Candela (point, spot) or lux (directional).
    intensity: f32,
    range: Option<f32>,
}

#[derive(Serialize)]
struct AttributeReport {
    semantic: String,
    /// Element and component type as the file stores them; none where the format does not
    /// name attributes (MD5, the demo).
    layout: Option<String>,
}

#[derive(Serialize)]
struct NodeRef {
    node: usize,
    name: String,
}

#[derive(Serialize)]
struct SkinReport {
    name: String,
    joints: usize,
    root: NodeRef,
    /// How many mesh instances this skin deforms.
    used_by: usize,
}

#[derive(Serialize)]
struct MeshReport {
    name: String,
    /// Its morph targets' names (the file's `extras.targetNames`, else "target N").
    morph_targets: Vec<String>,
    primitives: Vec<PrimitiveReport>,
}

#[derive(Serialize)]
struct PrimitiveReport {
    topology: &'static str,
    vertices: usize,
    triangles: usize,
    attributes: Vec<AttributeReport>,
    max_influences: usize,
    morph_targets: usize,
    material: Option<String>,
}

#[derive(Serialize)]
struct InstanceReport {
    node: usize,
    name: String,
    mesh: usize,
    skin: Option<usize>,
    /// EXT_mesh_gpu_instancing: how many copies it is drawn as (none: once, as it is).
    copies: Option<usize>,
    /// Per-copy attributes of the application's own that the file gives (`_ID`, ...).
    custom_copy_attributes: Vec<String>,
}

#[derive(Serialize)]
struct ClipReport {
    name: String,
    duration: f32,
    channels: usize,
    /// Channel count per interpolation mode.
    interpolation: BTreeMap<&'static str, usize>,
    /// Channel count per animated property.
    properties: BTreeMap<&'static str, usize>,
    animated_nodes: usize,
    /// The JSON pointers of the properties it animates beyond node transforms and weights.
    pointers: Vec<String>,
    /// Its root motion and where the feet stand.
    motion: Option<MotionSummary>,
}

/// One file: its report as text or one JSON object. Several files or directories: each
/// model's report (text, or one JSON line per file with `"ok"`), processed in parallel; a file
/// that fails is reported and the rest go on.
pub fn run(files: &[PathBuf], json: bool, out: &mut dyn Write) -> anyhow::Result<()> {
    if let [file] = files
        && !batch::is_batch(files)
    {
        let report = report(&asset::load(file)?);
        if json {
            serde_json::to_writer_pretty(&mut *out, &report)?;
            writeln!(out)?;
        } else {
            write_text(&report, out)?;
        }
        return Ok(());
    }
    let inputs = batch::expand(files);
    let load = |_: &mut (), input: &Input| Ok(report(&asset::load(&input.path)?));
    let failed = batch::run(
        &inputs,
        || Ok(()),
        load,
        |input, result| {
            if json {
                return batch::write_json_line(out, input, result);
            }
            match result {
                Ok(report) => {
                    write_text(&report, out)?;
                    writeln!(out)?;
                }
                Err(error) => eprintln!("rigscope: {error:#}"),
            }
            Ok(())
        },
    )?;
    batch::finish(inputs.len(), failed, "inspected")
}

fn node_ref(model: &Model, joint: usize) -> NodeRef {
    NodeRef {
        node: model.file_node[joint],
        name: model.skeleton.name(joint).to_string(),
    }
}

fn report(model: &Model) -> Report {
    let instance_primitives = || model.instances.iter().flat_map(|i| &model.meshes[i.mesh].primitives);
    Report {
        file: model.path.display().to_string(),
        file_facts: model.file_facts.clone(),
        scenes: (model.scenes.iter().enumerate())
            .map(|(index, scene)| SceneReport {
                name: scene.name.clone(),
                root_nodes: scene.root_nodes,
                shown: model.scene == Some(index),
            })
            .collect(),
        nodes: model.skeleton.len(),
        hierarchy_depth: model.skeleton.hierarchy().depth(),
        skinned_joints: model.skinned_joint_count(),
        animated_nodes: model.animated_node_count(),
        skins: model
            .skins
            .iter()
            .enumerate()
            .map(|(index, skin)| SkinReport {
                name: skin.name.clone(),
                joints: skin.joints.len(),
                root: node_ref(model, skin.root),
                used_by: model.instances.iter().filter(|i| i.skin == Some(index)).count(),
            })
            .collect(),
        meshes: model
            .meshes
            .iter()
            .map(|mesh| MeshReport {
                name: mesh.name.clone(),
                morph_targets: mesh.target_names.clone(),
                primitives: mesh
                    .primitives
                    .iter()
                    .enumerate()
                    .map(|(index, p)| primitive_report(model, p, mesh.attributes.get(index)))
                    .collect(),
            })
            .collect(),
        instances: model
            .instances
            .iter()
            .enumerate()
            .map(|(index, i)| {
                let node = node_ref(model, i.joint);
                let copies = model.copies_of(index);
                InstanceReport {
                    node: node.node,
                    name: node.name,
                    mesh: i.mesh,
                    skin: i.skin,
                    copies: copies.map(|c| c.transforms.len()),
                    custom_copy_attributes: copies.map_or_else(Vec::new, |c| c.custom.clone()),
                }
            })
            .collect(),
        vertices: model.vertex_count(),
        triangles: model.triangle_count(),
        max_influences: instance_primitives()
            .filter_map(|p| p.skin_weights.as_ref())
            .map(|w| w.max_influences())
            .max()
            .unwrap_or(0),
        morph_targets: model
            .meshes
            .iter()
            .map(|m| m.primitives.iter().map(|p| p.morph_targets.len()).max().unwrap_or(0))
            .sum(),
        materials: model.materials.iter().map(|m| m.name.clone()).collect(),
        images: model.images.len(),
        image_formats: image_reports(model),
        material_variants: model.material_variants.clone(),
        clips: model
            .clips
            .iter()
            .enumerate()
            .map(|(index, clip)| {
                let mut interpolation = BTreeMap::new();
                let mut properties = BTreeMap::new();
                let mut animated: Vec<usize> = clip.channels().iter().map(|c| c.joint).collect();
                animated.sort_unstable();
                animated.dedup();
                for channel in clip.channels() {
                    *interpolation.entry(channel.track.interpolation().name()).or_default() += 1;
                    *properties.entry(channel.track.property()).or_default() += 1;
                }
                ClipReport {
                    name: clip.name().to_string(),
                    duration: clip.duration(),
                    channels: clip.channels().len(),
                    interpolation,
                    properties,
                    animated_nodes: animated.len(),
                    pointers: model.properties.pointers_of(clip),
                    motion: analyse(model, index, None).map(|report| MotionSummary::new(model, &report)),
                }
            })
            .collect(),
        cameras: model.cameras.iter().map(|c| camera_report(model, c)).collect(),
        lights: model
            .lights
            .iter()
            .map(|light| LightReport {
                name: light.name.clone(),
                node: node_ref(model, light.joint),
                kind: light.kind.name(),
                color: light.color.to_array(),
                intensity: light.intensity,
                range: light.range,
            })
            .collect(),
        extensions_used: model.extensions_used.clone(),
        extensions_required: model.extensions_required.clone(),
        unsupported_extensions: unsupported_extensions(&model.extensions_used, &model.extensions_required)
            .into_iter()
            .map(|e| e.name)
            .collect(),
        extensions: extension_reports(model),
        decoded_geometry: model.decoded_geometry.iter().map(DecodedReport::from).collect(),
        avatar: AvatarReport::of(model),
        vrm_animation: VrmAnimationReport::of(model),
        warnings: model.warnings.clone(),
    }
}

fn camera_report(model: &Model, camera: &Camera) -> CameraReport {
    let far = |zfar: Option<f32>| zfar.map_or("infinite".to_string(), |z| z.to_string());
    let projection = match camera.projection {
        Projection::Perspective {
            yfov,
            aspect_ratio,
            znear,
            zfar,
        } => format!(
            "yfov {:.1}°, aspect ratio {}, znear {znear}, zfar {}",
            yfov.to_degrees(),
            aspect_ratio.map_or("of the picture".to_string(), |a| a.to_string()),
            far(zfar)
        ),
        Projection::Orthographic {
            xmag,
            ymag,
            znear,
            zfar,
        } => {
            format!("xmag {xmag}, ymag {ymag}, znear {znear}, zfar {zfar}")
        }
    };
    CameraReport {
        name: camera.name.clone(),
        index: camera.index,
        node: node_ref(model, camera.joint),
        kind: camera.kind(),
        projection,
    }
}

/// The attributes the file names, or for formats that name none, those the loaded vertices
/// carry.
fn attribute_reports(primitive: &Primitive, in_file: Option<&Vec<VertexAttribute>>) -> Vec<AttributeReport> {
    if let Some(attributes) = in_file {
        let mut reports: Vec<AttributeReport> = attributes
            .iter()
            .map(|a| AttributeReport {
                semantic: a.semantic.clone(),
                layout: Some(a.layout.clone()),
            })
            .collect();
        if primitive.normals_computed {
            reports.push(AttributeReport {
                semantic: computed_normals(primitive).into(),
                layout: None,
            });
        }
        if primitive.tangents_generated {
            reports.push(AttributeReport {
                semantic: primitive.tangent_source().unwrap_or_default().into(),
                layout: None,
            });
        }
        return reports;
    }
    let mut names = vec!["POSITION"];
    names.push(if primitive.normals_computed {
        computed_normals(primitive)
    } else {
        "NORMAL"
    });
    names.extend(primitive.tangent_source());
    if !primitive.uvs.is_empty() {
        names.push("TEXCOORD_0");
    }
    if let Some(weights) = &primitive.skin_weights {
        names.extend(["JOINTS_0", "WEIGHTS_0"]);
        if !weights.joints_extra.is_empty() {
            names.extend(["JOINTS_1", "WEIGHTS_1"]);
        }
    }
    names
        .into_iter()
        .map(|name| AttributeReport {
            semantic: name.to_string(),
            layout: None,
        })
        .collect()
}

fn primitive_report(model: &Model, primitive: &Primitive, in_file: Option<&Vec<VertexAttribute>>) -> PrimitiveReport {
    let attributes = attribute_reports(primitive, in_file);
    PrimitiveReport {
        topology: match primitive.topology {
            Topology::Points => "points",
            Topology::Lines => "lines",
            Topology::Triangles => "triangles",
        },
        vertices: primitive.vertex_count(),
        triangles: primitive.triangle_count(),
        attributes,
        max_influences: primitive.skin_weights.as_ref().map_or(0, |w| w.max_influences()),
        morph_targets: primitive.morph_targets.len(),
        material: primitive.material.map(|m| model.materials[m].name.clone()),
    }
}

fn write_text(report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "{}", report.file)?;
    for fact in &report.file_facts {
        writeln!(out, "  {fact}")?;
    }
    for (index, scene) in report.scenes.iter().enumerate() {
        writeln!(
            out,
            "  scene {index} '{}': {}{}",
            scene.name,
            counted(scene.root_nodes, "root node", "root nodes"),
            if scene.shown { " (shown)" } else { "" }
        )?;
    }
    writeln!(
        out,
        "  {} (depth {}): {}, {}",
        counted(report.nodes, "node", "nodes"),
        report.hierarchy_depth,
        counted(report.skinned_joints, "skinned joint", "skinned joints"),
        counted(report.animated_nodes, "animated node", "animated nodes"),
    )?;
    writeln!(
        out,
        "  {}, {}, {}",
        counted(report.skins.len(), "skin", "skins"),
        counted(report.meshes.len(), "mesh", "meshes"),
        counted(report.instances.len(), "instance", "instances")
    )?;
    writeln!(
        out,
        "  {}, {}, up to {} per vertex, {}",
        counted(report.vertices, "vertex", "vertices"),
        counted(report.triangles, "triangle", "triangles"),
        counted(report.max_influences, "influence", "influences"),
        counted(report.morph_targets, "morph target", "morph targets")
    )?;
    writeln!(
        out,
        "  {}, {}",
        counted(report.materials.len(), "material", "materials"),
        counted(report.images, "image", "images")
    )?;
    for instance in &report.instances {
        let Some(copies) = instance.copies else { continue };
        let custom = match instance.custom_copy_attributes.as_slice() {
            [] => String::new(),
            names => format!(", with {} per instance (not drawn)", names.join(", ")),
        };
        writeln!(
            out,
            "  node {} '{}' draws mesh {} as {} (EXT_mesh_gpu_instancing{custom})",
            instance.node,
            instance.name,
            instance.mesh,
            counted(copies, "instance", "instances")
        )?;
    }
    image_report::write_text(&report.image_formats, &report.material_variants, out)?;
    for skin in &report.skins {
        writeln!(
            out,
            "  skin '{}': {} joints, root node {} '{}', deforms {} instance(s)",
            skin.name, skin.joints, skin.root.node, skin.root.name, skin.used_by
        )?;
    }
    for (index, mesh) in report.meshes.iter().enumerate() {
        writeln!(out, "  mesh {index} '{}':", mesh.name)?;
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            writeln!(
                out,
                "    primitive {p}: {} {}, {} vertices, {} triangles{}{}",
                primitive.topology,
                primitive
                    .material
                    .as_deref()
                    .map_or("(no material)".to_string(), |m| format!("material '{m}'")),
                primitive.vertices,
                primitive.triangles,
                if primitive.max_influences > 0 {
                    format!(", up to {} influences", primitive.max_influences)
                } else {
                    String::new()
                },
                if primitive.morph_targets > 0 {
                    format!(", {} morph targets", primitive.morph_targets)
                } else {
                    String::new()
                },
            )?;
            let attributes: Vec<String> = primitive
                .attributes
                .iter()
                .map(|a| match &a.layout {
                    Some(layout) => format!("{} ({layout})", a.semantic),
                    None => a.semantic.clone(),
                })
                .collect();
            writeln!(out, "      attributes: {}", attributes.join(", "))?;
        }
        if !mesh.morph_targets.is_empty() {
            // Numbered, as `--morph MESH:TARGET=WEIGHT` accepts either.
            let targets: Vec<String> = (mesh.morph_targets.iter().enumerate())
                .map(|(target, name)| format!("{target} '{name}'"))
                .collect();
            writeln!(out, "    morph targets: {}", targets.join(", "))?;
        }
    }
    if report.clips.is_empty() {
        writeln!(out, "  no clips")?;
    }
    for clip in &report.clips {
        let modes: Vec<String> = clip.interpolation.iter().map(|(m, n)| format!("{n} {m}")).collect();
        writeln!(
            out,
            "  clip '{}': {:.3} s, {} channels on {} nodes ({})",
            clip.name,
            clip.duration,
            clip.channels,
            clip.animated_nodes,
            modes.join(", ")
        )?;
        for pointer in &clip.pointers {
            writeln!(out, "    animates {pointer}")?;
        }
        if let Some(motion) = &clip.motion {
            motion.write_text("    ", out)?;
        }
    }
    for camera in &report.cameras {
        writeln!(
            out,
            "  camera {} '{}': {}, {}, on node {} '{}'",
            camera.index, camera.name, camera.kind, camera.projection, camera.node.node, camera.node.name
        )?;
    }
    for (index, light) in report.lights.iter().enumerate() {
        let [r, g, b] = light.color;
        let range = light.range.map_or("unlimited".to_string(), |r| r.to_string());
        writeln!(
            out,
            "  light {index} '{}': {}, colour ({r}, {g}, {b}), intensity {}, range {range}, on node {} '{}'",
            light.name, light.kind, light.intensity, light.node.node, light.node.name
        )?;
    }
    extension_report::write_text(&report.extensions, out)?;
    inspect_decoded::write_text(&report.decoded_geometry, out)?;
    inspect_avatar::write_text(report.avatar.as_ref(), out)?;
    inspect_avatar::write_vrm_animation_text(report.vrm_animation.as_ref(), out)?;
    for warning in &report.warnings {
        writeln!(out, "  warning: {warning}")?;
    }
    Ok(())
}

/// How the normals a file lacks are made: per face (`flat_shaded`) or smoothed.
fn computed_normals(primitive: &Primitive) -> &'static str {
    match primitive.flat_shaded {
        true => "NORMAL (computed: flat, per face)",
        false => "NORMAL (computed: smooth)",
    }
}
