//! glTF 2.0 (`.glb`, `.gltf`) → `Model`.
//!
//! Every node becomes a joint (reordered parents-first; `Model::file_node` keeps the file's
//! numbering), a node's `matrix` is decomposed into TRS, skins keep their joint lists and
//! inverse bind matrices (identity when absent), and each node with a mesh becomes a mesh
//! instance. Problems that make the file unusable are errors; problems that can be repaired
//! (non-unit rotation keys, weights not summing to 1, ...) are repaired and listed as warnings.

mod accessor;
mod animation;
mod attributes;
mod camera;
pub(crate) mod compressed;
mod container;
mod converted;
pub(crate) mod extensions;
mod factor_ranges;
mod gpu_instancing;
mod json;
mod light;
mod material;
mod material_layers;
mod mesh;
mod mtoon;
mod pointer;
mod quirks;
mod scenes;
mod target_names;
mod variants;
mod vrm;
mod vrm_animation;
mod vrm_constraints;
mod vrm_expressions;
mod vrm_json;
mod vrm_look_at;
mod vrm_mtoon;
mod vrm_springs;

use std::path::Path;

use glam::{Mat4, Quat, Vec3};
use gltf_json::Root;

use crate::anim::transform::is_trs;
use crate::anim::{JointDesc, Skeleton, Transform};
use crate::asset::avatar::VrmVersion;
use crate::asset::format::Format;
use crate::asset::model::{InstanceCopies, Mesh, MeshInstance, Model, Skin};
use crate::asset::turn::turn_half_around_y;
use crate::asset::{LoadErrorKind, SceneChoice};
use accessor::Accessors;
use scenes::NodeJoints;

/// Loads `bytes` (the contents of `path`, detected as `format`: glTF or a format made of it),
/// showing the scene `scene` chooses.
pub fn load(path: &Path, bytes: &[u8], format: Format, scene: &SceneChoice) -> Result<Model, LoadErrorKind> {
    let mut container = container::open(path, bytes)?;
    let mut warnings = container.warnings.clone();
    extensions::check(&container.root, &mut warnings)?;
    let decoded = compressed::decode(&container)?;
    container.decoded_views = decoded.views;
    container.decoded_accessors = decoded.accessors;
    warnings.extend(decoded.warnings);
    for (accessor, count) in decoded.recounted {
        container.root.accessors[accessor].count = gltf_json::validation::USize64(count as u64);
    }
    let container = container;
    let root = &container.root;
    let accessors = Accessors::new(&container);

    let (order, parent_node) = parents_first_order(root)?;
    let (scenes, shown_scene) = scenes::choose(root, scene)?;
    let taken = scenes::nodes_taken(root, &parent_node, shown_scene);
    let file_node: Vec<usize> = order.into_iter().filter(|&node| taken[node]).collect();
    let joint_of_node = NodeJoints::new(&file_node, root.nodes.len());

    let (skins, skin_of_file) = load_skins(root, &accessors, &joint_of_node, &mut warnings)?;
    let skeleton = build_skeleton(
        root,
        &file_node,
        &parent_node,
        &joint_of_node,
        &skins,
        container.input_bytes,
        &mut warnings,
    )?;

    let (instances, copies) = load_instances(root, &accessors, &joint_of_node, &skin_of_file, &mut warnings)?;
    let cameras = camera::load_cameras(root, &joint_of_node, &mut warnings);
    let mut materials = material::load_materials(root, &mut warnings)?;
    if let Some((VrmVersion::V0, extension)) = vrm::extension(root) {
        vrm_mtoon::convert(root, extension, &mut materials, &mut warnings);
    }
    let images = material::load_images(&container, &mut warnings)?;
    let lights = light::load_lights(root, &joint_of_node, &mut warnings);
    let material_variants = variants::load_variant_names(root, &mut warnings);
    // Influences must name joints of every skin a mesh is drawn with (and fit glTF's 16 bits).
    let mut joint_limit = vec![u16::MAX as usize + 1; root.meshes.len()];
    for instance in &instances {
        if let Some(skin) = instance.skin {
            joint_limit[instance.mesh] = joint_limit[instance.mesh].min(skins[skin].joints.len());
        }
    }
    let mut meshes = Vec::with_capacity(root.meshes.len());
    // A primitive that cannot be read leaves the others showing; a file none of whose
    // primitives can be read is refused with the first one's problem.
    let (mut first_failure, mut any_read) = (None, false);
    for (index, mesh) in root.meshes.iter().enumerate() {
        let mut primitives = Vec::with_capacity(mesh.primitives.len());
        for (primitive_index, primitive) in mesh.primitives.iter().enumerate() {
            let object = format!("/meshes/{index}/primitives/{primitive_index}");
            if let Some(why) = mesh::unavailable(&accessors, primitive) {
                warnings.push(format!("{object}: {why} (not drawn)"));
                primitives.push(mesh::empty());
                continue;
            }
            let loaded = mesh::load_primitive(&accessors, &object, primitive, materials.len(), joint_limit[index]);
            let mut loaded = match loaded {
                Ok(loaded) => loaded,
                Err(error) => {
                    warnings.push(format!("{error} (primitive not drawn)"));
                    first_failure.get_or_insert(error);
                    primitives.push(mesh::empty());
                    continue;
                }
            };
            any_read = true;
            loaded.variant_materials = variants::load_mappings(
                primitive.extensions.as_ref().map(|e| &e.others),
                &object,
                material_variants.len(),
                materials.len(),
                &mut warnings,
            );
            if let Some(weights) = &loaded.skin_weights {
                let named = format!("{object} (mesh '{}')", mesh.name.as_deref().unwrap_or("unnamed"));
                weights.report_repairs(&named, &mut warnings);
            }
            primitives.push(loaded);
        }
        let target_count = primitives.iter().map(|p| p.morph_targets.len()).max().unwrap_or(0);
        let written_names = container.target_names.get(index).and_then(Option::as_ref);
        meshes.push(Mesh {
            name: mesh.name.clone().unwrap_or_else(|| format!("Mesh {index}")),
            target_names: target_names::resolve(written_names, target_count, &mut warnings),
            primitives,
            attributes: (0..mesh.primitives.len())
                .map(|p| {
                    let names = container.attribute_names.get(index).and_then(|m| m.get(p));
                    attributes::describe(root, names.map_or(&[][..], Vec::as_slice))
                })
                .collect(),
        });
    }

    if let (Some(failure), false) = (first_failure, any_read) {
        return Err(failure);
    }
    let scene = pointer::Scene {
        root,
        joint_of_node: &joint_of_node,
        joint_count: file_node.len(),
        materials: &materials,
        meshes: &meshes,
        instances: &instances,
        cameras: &cameras,
        lights: &lights,
        node_visible: &container.node_visible,
    };
    let vrm_extension = vrm::extension(root);
    let rig = vrm_expressions::Rig {
        joint_of_node: &joint_of_node,
        skeleton: &skeleton,
        instances: &instances,
        materials: &materials,
    };
    let listed = (vrm_extension
        .map(|(version, extension)| vrm_expressions::list(version, extension, &rig, &mut warnings)))
    .unwrap_or_default();
    // The expressions' binds and weights, and (last) the rotation the eyes look by.
    let mut set = listed.pointers.clone();
    set.extend(vrm_extension.map(|_| vrm_look_at::ROTATION_POINTER.to_owned()));
    let resolved = pointer::resolve(&scene, &container.pointer_channels, &set, &mut warnings);
    let look_at_entry = (resolved.set_slots.get(listed.pointers.len()))
        .and_then(|slot| slot.as_ref().ok())
        .map(|slot| slot.offset);
    let expressions = listed.finish(&resolved.set_slots, &resolved.rest);
    let skeleton = skeleton.with_properties(resolved.rest);
    let mut clips = Vec::with_capacity(root.animations.len());
    let mut key_repairs = Vec::new();
    for (index, animation) in root.animations.iter().enumerate() {
        let file = animation::FileAnimation {
            index,
            json: animation,
            channel_numbers: container.channel_numbers.get(index).map_or(&[][..], Vec::as_slice),
            pointer_channels: container.pointer_channels.get(index).map_or(&[][..], Vec::as_slice),
            pointer_slots: resolved.channel_slots.get(index).map_or(&[][..], Vec::as_slice),
        };
        clips.push(animation::load_clip(
            &accessors,
            file,
            &joint_of_node,
            &skeleton,
            &mut warnings,
            &mut key_repairs,
        )?);
    }

    // The files its buffers and images name (not `data:` URIs), for the viewer to watch.
    let uris = root.buffers.iter().filter_map(|b| b.uri.as_deref());
    let uris = uris.chain(root.images.iter().filter_map(|i| i.uri.as_deref()));
    let named_files = uris
        .filter(|uri| !uri.starts_with("data:"))
        .filter_map(|uri| container::uri_file(&container.base_dir, uri).ok());
    let mut source_files = vec![path.to_path_buf()];
    for file in named_files {
        if !source_files.contains(&file) {
            source_files.push(file);
        }
    }

    let avatar =
        vrm_extension.map(|extension| vrm::load_avatar(extension, root, &joint_of_node, expressions, &mut warnings));
    let node_constraints = vrm_constraints::load_constraints(root, &joint_of_node, &mut warnings);
    let spring_bones = vrm_springs::load_springs(root, vrm_extension, &joint_of_node, &mut warnings);
    let mut model = Model {
        source_files,
        file_facts: converted::conversion_facts(root),
        value_joints: vrm_animation::value_joints(root, &joint_of_node),
        file_node,
        skins,
        meshes,
        instances,
        copies,
        materials,
        images,
        lights,
        clips,
        scenes,
        scene: shown_scene,
        cameras,
        properties: resolved.properties,
        extensions_used: root.extensions_used.clone(),
        extensions_required: root.extensions_required.clone(),
        material_variants,
        warnings,
        key_repairs,
        decoded_geometry: decoded.report,
        avatar,
        spring_bones,
        vrm_animation: vrm_animation::load(root, &joint_of_node),
        node_constraints,
        ..Model::new(path.to_path_buf(), Some(format), skeleton)
    };
    if model
        .avatar
        .as_ref()
        .is_some_and(|avatar| avatar.version == VrmVersion::V0)
    {
        turn_half_around_y(&mut model);
        model
            .file_facts
            .push("A VRM 0.x avatar faces -Z: it was turned half around to face +Z, as three-vrm turns it".to_owned());
    }
    // The look-at measures from the rest pose as shown (turned).
    if let (Some(avatar), Some((_, extension))) = (&mut model.avatar, vrm_extension) {
        avatar.look_at = vrm_look_at::load_look_at(extension, avatar, &model.skeleton).map(|mut look_at| {
            look_at.rotation_entry = look_at_entry;
            look_at
        });
    }
    Ok(model)
}

/// File node indices in parents-first order (depth-first, children in file order), and each
/// file node's parent. Fails on a node with two parents, a child out of range, or a cycle.
fn parents_first_order(root: &Root) -> Result<(Vec<usize>, Vec<Option<usize>>), LoadErrorKind> {
    let count = root.nodes.len();
    let mut parent = vec![None; count];
    for (index, node) in root.nodes.iter().enumerate() {
        for child in node.children.iter().flatten() {
            let child = child.value();
            if child >= count {
                return Err(LoadErrorKind::invalid(
                    format!("/nodes/{index}/children"),
                    format!("child {child} does not exist"),
                ));
            }
            if parent[child].replace(index).is_some() {
                return Err(LoadErrorKind::invalid(
                    format!("/nodes/{child}"),
                    "the node has more than one parent",
                ));
            }
        }
    }
    let mut order = Vec::with_capacity(count);
    let mut stack: Vec<usize> = (0..count).rev().filter(|&n| parent[n].is_none()).collect();
    while let Some(node) = stack.pop() {
        order.push(node);
        let children = root.nodes[node].children.iter().flatten();
        stack.extend(children.map(|c| c.value()).rev());
    }
    if order.len() != count {
        let mut reached = vec![false; count];
        order.iter().for_each(|&n| reached[n] = true);
        let stuck = reached.iter().position(|r| !r).unwrap_or(0);
        return Err(LoadErrorKind::invalid(
            format!("/nodes/{stuck}"),
            "the node hierarchy has a cycle through this node",
        ));
    }
    Ok((order, parent))
}

/// The skins whose joints the shown scene took (the others are used only by meshes outside
/// it), and per file skin, its index among them.
fn load_skins(
    root: &Root,
    accessors: &Accessors,
    joint_of_node: &NodeJoints,
    warnings: &mut Vec<String>,
) -> Result<(Vec<Skin>, Vec<Option<usize>>), LoadErrorKind> {
    let mut skins = Vec::with_capacity(root.skins.len());
    let mut skin_of_file = vec![None; root.skins.len()];
    for (index, skin) in root.skins.iter().enumerate() {
        let context = |problem: String| LoadErrorKind::invalid(format!("/skins/{index}"), problem);
        if skin.joints.is_empty() {
            warnings.push(format!(
                "/skins/{index}: it has no joints (its meshes are drawn unskinned)"
            ));
            continue;
        }
        if let Some(node) = skin
            .joints
            .iter()
            .map(|n| n.value())
            .find(|&n| n >= joint_of_node.node_count())
        {
            return Err(context(format!("a joint names node {node}, which does not exist")));
        }
        let Some(joints) = (skin.joints.iter())
            .map(|node| joint_of_node.get(node.value()))
            .collect::<Option<Vec<_>>>()
        else {
            continue; // a skin of meshes outside the scene shown
        };
        if joints.len() > u16::MAX as usize + 1 {
            return Err(context(format!(
                "{} joints is more than glTF's 16-bit joint indices reach",
                joints.len()
            )));
        }
        let inverse_bind = match skin.inverse_bind_matrices {
            Some(accessor) => {
                let matrices = accessors
                    .read_f32::<16>(accessor.value())
                    .map_err(|e| LoadErrorKind::invalid(format!("/skins/{index}/inverseBindMatrices"), e))?;
                if matrices.len() < joints.len() {
                    return Err(context(format!(
                        "{} inverse bind matrices for {} joints",
                        matrices.len(),
                        joints.len()
                    )));
                }
                matrices.iter().take(joints.len()).map(Mat4::from_cols_array).collect()
            }
            None => vec![Mat4::IDENTITY; joints.len()],
        };
        let inverse_bind_given = skin.inverse_bind_matrices.is_some();
        let root_joint = match skin.skeleton {
            Some(node) => joint_of_node
                .get(node.value())
                .ok_or_else(|| context("its skeleton root does not exist".into()))?,
            // Parents-first order: the smallest joint index is the topmost joint.
            None => joints.iter().copied().min().unwrap_or(0),
        };
        skin_of_file[index] = Some(skins.len());
        skins.push(Skin {
            name: skin.name.clone().unwrap_or_else(|| format!("Skin {index}")),
            joints,
            inverse_bind,
            inverse_bind_given,
            root: root_joint,
        });
    }
    Ok((skins, skin_of_file))
}

fn build_skeleton(
    root: &Root,
    file_node: &[usize],
    parent_node: &[Option<usize>],
    joint_of_node: &NodeJoints,
    skins: &[Skin],
    input_bytes: usize,
    warnings: &mut Vec<String>,
) -> Result<Skeleton, LoadErrorKind> {
    // The bind pose comes from the first skin that lists a joint.
    let mut bind_model: Vec<Option<Mat4>> = vec![None; file_node.len()];
    for (skin_index, skin) in skins.iter().enumerate() {
        for (&joint, inverse_bind) in skin.joints.iter().zip(&skin.inverse_bind) {
            if bind_model[joint].is_some() {
                continue;
            }
            if inverse_bind.determinant().abs() < 1e-12 {
                warnings.push(format!(
                    "/skins/{skin_index}: the inverse bind matrix of node {} cannot be inverted",
                    file_node[joint]
                ));
                continue;
            }
            bind_model[joint] = Some(inverse_bind.inverse());
        }
    }

    let mut joints = Vec::with_capacity(file_node.len());
    let mut total_morph_weights = 0usize;
    for (joint, &node_index) in file_node.iter().enumerate() {
        let node = &root.nodes[node_index];
        let rest = node_transform(node_index, node, warnings)?;
        // The scene took every ancestor of a node it took.
        let parent = parent_node[node_index]
            .and_then(|p| joint_of_node.get(p))
            .map(|p| p as u32);
        let target_count = node.mesh.and_then(|m| root.meshes.get(m.value())).map_or(0, |mesh| {
            mesh.primitives
                .iter()
                .map(|p| p.targets.as_ref().map_or(0, Vec::len))
                .max()
                .unwrap_or(0)
        });
        let defaults = node.weights.as_ref().or_else(|| {
            node.mesh
                .and_then(|m| root.meshes.get(m.value()))
                .and_then(|m| m.weights.as_ref())
        });
        // Each node using a mesh carries its own weights: bound their total by the file's size.
        total_morph_weights += target_count;
        if total_morph_weights > input_bytes {
            return Err(LoadErrorKind::invalid(
                format!("/nodes/{node_index}"),
                format!(
                    "the nodes up to this one carry {total_morph_weights}+ morph weights, more than the file could describe"
                ),
            ));
        }
        let mut morph_weights = vec![0.0; target_count];
        if let Some(defaults) = defaults {
            if defaults.len() != target_count {
                warnings.push(format!(
                    "/nodes/{node_index}: {} default morph weights for {target_count} targets",
                    defaults.len()
                ));
            }
            for (weight, default) in morph_weights.iter_mut().zip(defaults) {
                *weight = if default.is_finite() { *default } else { 0.0 };
            }
        }
        joints.push(JointDesc {
            name: node.name.clone().unwrap_or_else(|| format!("Node {node_index}")),
            parent,
            rest,
            bind_model: bind_model[joint],
            morph_weights,
        });
    }
    Skeleton::new(joints).map_err(|e| LoadErrorKind::invalid("/nodes", e.to_string()))
}

/// A node's local transform from its `matrix` or its TRS properties.
fn node_transform(
    index: usize,
    node: &gltf_json::Node,
    warnings: &mut Vec<String>,
) -> Result<Transform, LoadErrorKind> {
    let not_finite =
        || LoadErrorKind::invalid(format!("/nodes/{index}"), "its transform is not made of finite numbers");
    if let Some(matrix) = node.matrix {
        let matrix = Mat4::from_cols_array(&matrix);
        if !matrix.is_finite() {
            return Err(not_finite());
        }
        if !is_trs(&matrix, 1e-4) {
            warnings.push(format!(
                "/nodes/{index}/matrix: it has shear or projection, which TRS cannot hold (approximated)"
            ));
        }
        return Ok(Transform::from_mat4(&matrix));
    }
    let translation = Vec3::from(node.translation.unwrap_or([0.0; 3]));
    let scale = Vec3::from(node.scale.unwrap_or([1.0; 3]));
    let rotation = node.rotation.map_or(Quat::IDENTITY, |r| Quat::from_array(r.0));
    let transform = Transform::new(translation, rotation, scale);
    if !transform.is_finite() {
        return Err(not_finite());
    }
    if rotation.length() <= f32::EPSILON {
        warnings.push(format!(
            "/nodes/{index}/rotation: it is a zero quaternion (identity used)"
        ));
    }
    let rotation = animation::normalize_or_identity(rotation);
    Ok(Transform::new(transform.translation, rotation, transform.scale))
}

/// The meshes of the nodes the shown scene took, in joint order, and the copies of those
/// drawn as many (EXT_mesh_gpu_instancing); `skin_of_file` maps file skins to the model's.
fn load_instances(
    root: &Root,
    accessors: &Accessors,
    joint_of_node: &NodeJoints,
    skin_of_file: &[Option<usize>],
    warnings: &mut Vec<String>,
) -> Result<(Vec<MeshInstance>, Vec<InstanceCopies>), LoadErrorKind> {
    let mut instances = Vec::new();
    for (index, node) in root.nodes.iter().enumerate() {
        let Some(joint) = joint_of_node.get(index) else {
            continue;
        };
        let skin = node.skin.map(|s| s.value());
        if let Some(skin) = skin
            && skin >= root.skins.len()
        {
            return Err(LoadErrorKind::invalid(
                format!("/nodes/{index}/skin"),
                format!("skin {skin} does not exist"),
            ));
        }
        let Some(mesh) = node.mesh.map(|m| m.value()) else {
            if skin.is_some() {
                warnings.push(format!("/nodes/{index}: it has a skin but no mesh (ignored)"));
            }
            continue;
        };
        if mesh >= root.meshes.len() {
            return Err(LoadErrorKind::invalid(
                format!("/nodes/{index}/mesh"),
                format!("mesh {mesh} does not exist"),
            ));
        }
        let instance = MeshInstance {
            joint,
            mesh,
            // The scene took the joints of its meshes' skins, so their skins were loaded.
            skin: skin.and_then(|s| skin_of_file[s]),
        };
        let copies = gpu_instancing::load_copies(accessors, index, node.extensions.as_ref(), warnings);
        instances.push((instance, copies));
    }
    instances.sort_by_key(|(instance, _)| instance.joint);
    let copies = (instances.iter().enumerate())
        .filter_map(|(index, (_, copies))| {
            Some(InstanceCopies {
                instance: index,
                ..copies.clone()?
            })
        })
        .collect();
    Ok((instances.into_iter().map(|(instance, _)| instance).collect(), copies))
}
