//! A VRM stays a VRM: the avatar, its spring bones, node constraints and VRM animation written
//! back as the extensions they were read from, each the inverse of its reader in
//! `asset::gltf::vrm*`, so that the written file reads back as an equal avatar posing alike.
//! Node indices are the written nodes': joint i is node i, a mesh's node is the one the node
//! writer placed it on.
//!
//! - A VRM 1.0 avatar (and a model with spring bones but no avatar): `VRMC_vrm` (meta,
//!   humanoid, look-at, expressions), `VRMC_springBone`; its MToon materials are the material
//!   writer's `VRMC_materials_mtoon` (`vrm_mtoon`).
//! - A VRM 0.x avatar stays 0.x (`vrm_0_x`): written facing -Z as its file did (the loader
//!   turned it to face +Z; `facing_as_read` turns it back), with its spring bones and
//!   materials in the `VRM` extension. 0.x rather than a migration to 1.0, because only 0.x
//!   reads back equal: its spring joints without a child, its colours brighter than 1 and its
//!   version have no 1.0 form.
//! - Node constraints: `VRMC_node_constraint` on their nodes.
//! - A VRM animation: `VRMC_vrm_animation` (humanoid bones, expressions' and look-at's nodes).
//!
//! The thumbnail is an image of its own (a material may use the same one).
//! What the model does not keep is not written: first-person mesh annotations, the meta's
//! copyright and references, names of springs and collider groups.

use std::borrow::Cow;

use super::document::Document;
use super::vrm_expressions::MorphPlaces;
use super::{vrm_0_x, vrm_1_0, vrm_animation, vrm_constraints, vrm_springs};
use crate::asset::Model;
use crate::asset::avatar::{VrmAnimation, VrmVersion};
use crate::asset::turn::turn_back_half_around_y;

/// `model` as its file faced: a VRM 0.x avatar turned back to face -Z, any other as it is.
pub fn facing_as_read(model: &Model) -> Cow<'_, Model> {
    match &model.avatar {
        Some(avatar) if avatar.version == VrmVersion::V0 => {
            let mut turned = model.clone();
            turn_back_half_around_y(&mut turned);
            Cow::Owned(turned)
        }
        _ => Cow::Borrowed(model),
    }
}

/// Writes the VRM extensions of `model` (already turned by `facing_as_read`), whose meshes
/// were written as `meshes` (per model mesh) on the nodes `mesh_nodes` ((joint, node) pairs).
pub fn write_vrm(
    document: &mut Document,
    model: &Model,
    meshes: &[Option<gltf_json::Index<gltf_json::Mesh>>],
    mesh_nodes: &[(usize, usize)],
) {
    let places = &MorphPlaces::new(model, meshes, mesh_nodes);
    let springs = &model.spring_bones;
    let has_springs = !springs.joints.is_empty() || !springs.colliders.is_empty();
    match &model.avatar {
        Some(avatar) if avatar.version == VrmVersion::V0 => vrm_0_x::write(document, model, avatar, places),
        avatar => {
            if let Some(avatar) = avatar {
                let json = vrm_1_0::vrm_1_0(model, avatar, places, document);
                document.set_root_extension(vrm_1_0::EXTENSION, json);
            }
            if has_springs {
                let json = vrm_springs::spring_bone_1_0(springs, document);
                document.set_root_extension(vrm_springs::EXTENSION, json);
            }
        }
    }
    for constraint in &model.node_constraints {
        vrm_constraints::write_constraint(document, constraint);
    }
    if model.vrm_animation != VrmAnimation::default() {
        let json = vrm_animation::vrm_animation(&model.vrm_animation);
        document.set_root_extension(vrm_animation::EXTENSION, json);
    }
}

#[cfg(test)]
pub(super) mod tests {
    use std::path::Path;

    use glam::Vec3;

    use serde_json::{Value, json};

    use super::*;
    use crate::anim::avatar::{
        Collider, ColliderShape, ConstraintKind, Expression, LookAt, LookAtKind, NodeConstraint, Override, RangeMap,
        SpringJoint, SpringSettings,
    };
    use crate::asset::avatar::{Avatar, AvatarMeta};
    use crate::asset::demo::demo_model;
    use crate::asset::model::Image;
    use crate::write::{WriteOptions, to_glb};

    /// The demo rig as a VRM `version` avatar: its humanoid map, a meta, a bone look-at, two
    /// expressions, a spring down the left arm and the right arm's colliders.
    fn avatar(version: VrmVersion) -> Model {
        let mut model = demo_model();
        model.images = vec![Image {
            name: "thumbnail.png".into(),
            mime_type: Some("image/png".into()),
            bytes: b"\x89PNG\r\n\x1a\n thumbnail".as_slice().into(),
        }];
        let joint = |name: &str| model.skeleton.find(name).unwrap();
        let humanoid = [
            ("hips", "hips"),
            ("spine", "spine"),
            ("chest", "chest"),
            ("neck", "neck"),
            ("head", "head"),
            ("leftUpperLeg", "hip.L"),
            ("leftLowerLeg", "knee.L"),
            ("leftFoot", "ankle.L"),
            ("rightUpperLeg", "hip.R"),
            ("rightLowerLeg", "knee.R"),
            ("rightFoot", "ankle.R"),
            ("rightUpperArm", "shoulder.R"),
            ("rightLowerArm", "elbow.R"),
            ("rightHand", "wrist.R"),
        ]
        .map(|(bone, name)| (bone, joint(name)))
        .to_vec();
        let rest = model.skeleton.rest_pose();
        let maps = [(90.0, 10.0), (80.0, 12.0), (60.0, 8.0), (45.0, 9.0)].map(|(input_max, output_scale)| RangeMap {
            input_max,
            output_scale,
        });
        let look_at = LookAt::new(
            LookAtKind::Bone,
            joint("head"),
            [None, None],
            Vec3::new(0.0, 0.07, 0.02),
            maps,
            rest,
            &rest.to_model_matrices(),
        );
        let permission = match version {
            VrmVersion::V0 => "Disallow",
            VrmVersion::V1 => "not allowed",
        };
        let expressions = vec![
            Expression {
                name: "blink".into(),
                is_preset: true,
                is_binary: true,
                ..Default::default()
            },
            Expression {
                name: "wink".into(),
                ..Default::default()
            },
        ];
        model.avatar = Some(Avatar {
            version,
            spec_version: if version == VrmVersion::V0 { "0.0" } else { "1.0" }.into(),
            humanoid,
            meta: AvatarMeta {
                title: "Demo".into(),
                version: "3".into(),
                authors: vec!["Someone".into()],
                contact: "someone@example.com".into(),
                licence: "CC0".into(),
                permissions: vec![
                    ("commercial use", permission.into()),
                    ("other licence", "https://x".into()),
                ],
                references: Vec::new(),
                thumbnail: Some(0),
            },
            expressions,
            look_at: Some(look_at),
        });
        let settings = SpringSettings {
            hit_radius: 0.02,
            stiffness: 0.7,
            gravity_power: 0.3,
            gravity_dir: Vec3::new(0.0, -1.0, 0.1),
            drag_force: 0.4,
        };
        let spring = |name: &str, child: Option<&str>| SpringJoint {
            joint: joint(name),
            child: child.map(joint),
            settings,
            center: Some(joint("hips")),
            collider_groups: vec![0],
        };
        let sphere = |offset: Vec3| ColliderShape::Sphere {
            offset,
            radius: 0.05,
            inside: false,
        };
        model.spring_bones.colliders = vec![
            Collider {
                joint: joint("elbow.R"),
                shape: sphere(Vec3::new(0.0, -0.1, 0.05)),
            },
            Collider {
                joint: joint("elbow.R"),
                shape: sphere(Vec3::new(0.01, 0.1, -0.05)),
            },
        ];
        model.spring_bones.collider_groups = vec![vec![0, 1]];
        model.spring_bones.joints = match version {
            // A 0.x bone group swings its root's whole subtree, the last joint without a tail.
            VrmVersion::V0 => vec![
                spring("shoulder.L", Some("elbow.L")),
                spring("elbow.L", Some("wrist.L")),
                spring("wrist.L", None),
            ],
            VrmVersion::V1 => vec![
                spring("shoulder.L", Some("elbow.L")),
                spring("elbow.L", Some("wrist.L")),
            ],
        };
        model.node_constraints = vec![NodeConstraint {
            destination: joint("toe.R"),
            source: joint("toe.L"),
            kind: ConstraintKind::Aim(Vec3::NEG_Y),
            weight: 0.5,
        }];
        model
    }

    /// `model` written as GLB, read back from it (as a file called `name`), the written JSON
    /// and the writer's warnings.
    pub(in crate::write) fn round_trip(model: &Model, name: &str) -> (Model, Value, Vec<String>) {
        let (glb, warnings) = to_glb(model, &WriteOptions::default()).expect("the model is written");
        let length = u32::from_le_bytes([glb[12], glb[13], glb[14], glb[15]]) as usize;
        let json = serde_json::from_slice(&glb[20..20 + length]).expect("the JSON chunk is JSON");
        let read = crate::asset::load_bytes(Path::new(name), &glb).expect("the GLB reads back");
        (read, json, warnings)
    }

    /// The avatar, spring bones and constraints of `read` are `written`'s, and so is the rest pose.
    fn assert_same_avatar(read: &Model, written: &Model) {
        let (mut read_avatar, avatar) = (read.avatar.clone().unwrap(), written.avatar.as_ref().unwrap());
        // Where clips set the gaze: a slot the loader gives every avatar.
        if let (Some(read), Some(written)) = (&mut read_avatar.look_at, &avatar.look_at) {
            read.rotation_entry = written.rotation_entry;
        }
        for expression in &mut read_avatar.expressions {
            expression.weight_entry = None;
        }
        assert_eq!(&read_avatar, avatar);
        assert_eq!(read.spring_bones, written.spring_bones);
        // Sources first either way, in the written nodes' order.
        let by_node = |model: &Model| {
            let mut constraints = model.node_constraints.clone();
            constraints.sort_by_key(|c| c.destination);
            constraints
        };
        assert_eq!(by_node(read), by_node(written));
        let rest = |model: &Model| model.skeleton.rest_pose().to_model_matrices();
        for (joint, (a, b)) in rest(read).iter().zip(rest(written)).enumerate() {
            assert!(a.abs_diff_eq(b, 1e-6), "joint {joint}: {a} is not {b}");
        }
    }

    #[test]
    fn a_vrm_1_0_avatar_reads_back_equal() {
        let mut model = avatar(VrmVersion::V1);
        let joint = |name: &str| model.skeleton.find(name).unwrap();
        let (hips, wrist) = (joint("hips"), joint("wrist.L"));
        let avatar = model.avatar.as_mut().unwrap();
        avatar.expressions[1].override_mouth = Override::Blend;
        avatar.expressions[1].override_blink = Override::Block;
        // Each shape the extended collider adds, and one on a joint without a group.
        for shape in [
            ColliderShape::Sphere {
                offset: Vec3::X,
                radius: 0.5,
                inside: true,
            },
            ColliderShape::Capsule {
                offset: Vec3::Y,
                tail: Vec3::Z,
                radius: 0.25,
                inside: true,
            },
            ColliderShape::Plane {
                offset: Vec3::new(0.0, 0.1, 0.0),
                normal: Vec3::Y,
            },
        ] {
            model.spring_bones.colliders.push(Collider { joint: hips, shape });
        }
        model.spring_bones.collider_groups.push(vec![2, 3, 4]);
        model.spring_bones.joints[1].collider_groups = vec![0, 1];
        model.node_constraints.push(NodeConstraint {
            destination: wrist,
            source: hips,
            kind: ConstraintKind::Roll(Vec3::Z),
            weight: 1.0,
        });
        let (read, json, warnings) = round_trip(&model, "written.vrm");
        assert!(warnings.is_empty(), "{warnings:?}");
        let used = &json["extensionsUsed"];
        for extension in [
            vrm_1_0::EXTENSION,
            vrm_springs::EXTENSION,
            vrm_constraints::EXTENSION,
            "VRMC_springBone_extended_collider",
        ] {
            assert!(
                used.as_array().unwrap().contains(&json!(extension)),
                "{extension} in {used}"
            );
        }
        assert_eq!(
            json["extensions"][vrm_1_0::EXTENSION]["meta"]["commercialUsage"],
            json!(false)
        );
        // Two springs: the groups differ between the shoulder and the elbow.
        assert_eq!(
            json["extensions"]["VRMC_springBone"]["springs"]
                .as_array()
                .map(Vec::len),
            Some(2)
        );
        assert_same_avatar(&read, &model);
        assert_eq!(read.avatar.unwrap().version, VrmVersion::V1);
    }

    #[test]
    fn a_vrm_0_x_avatar_stays_0_x_and_faces_as_its_file_did() {
        let model = avatar(VrmVersion::V0);
        let (read, json, warnings) = round_trip(&model, "written.vrm");
        assert!(warnings.is_empty(), "{warnings:?}");
        let extensions = json["extensions"].as_object().unwrap();
        assert!(extensions.contains_key("VRM"), "{extensions:?}");
        assert!(!extensions.contains_key(vrm_1_0::EXTENSION) && !extensions.contains_key(vrm_springs::EXTENSION));
        // Written facing -Z: the hips' rest pose turned half around (the loader turns it back).
        let hips = json["nodes"][0]["rotation"].as_array().unwrap();
        assert_eq!(
            hips.iter().map(|v| v.as_f64().unwrap()).collect::<Vec<_>>(),
            [0.0, -1.0, 0.0, 0.0]
        );
        assert_eq!(json["extensions"]["VRM"]["humanoid"]["humanBones"][0]["bone"], "hips");
        assert_same_avatar(&read, &model);
        assert_eq!(read.clips.len(), model.clips.len());
        let (mut a, mut b) = (model.skeleton.rest_pose().clone(), read.skeleton.rest_pose().clone());
        model.clips[1].sample(0.3, &mut a, &mut model.clips[1].cursor());
        read.clips[1].sample(0.3, &mut b, &mut read.clips[1].cursor());
        for (a, b) in a.to_model_matrices().iter().zip(b.to_model_matrices()) {
            assert!(a.abs_diff_eq(b, 1e-6), "{a} is not {b}");
        }
    }

    #[test]
    fn what_vrm_0_x_cannot_hold_is_a_warning() {
        let mut model = avatar(VrmVersion::V0);
        let avatar = model.avatar.as_mut().unwrap();
        avatar.meta.authors.push("Someone else".into());
        avatar.expressions[0].override_look_at = Override::Block;
        model.spring_bones.joints.pop();
        model.spring_bones.colliders[1].shape = ColliderShape::Plane {
            offset: Vec3::ZERO,
            normal: Vec3::Y,
        };
        model.images[0].bytes = b"BM not a PNG".as_slice().into();
        model.materials[0].layers.mtoon = Some(Default::default());
        let (read, _, warnings) = round_trip(&model, "written.vrm");
        let warned = |words: &[&str]| warnings.iter().any(|w| words.iter().all(|word| w.contains(word)));
        assert!(warned(&["2 authors"]), "{warnings:?}");
        assert!(warned(&["'blink'", "overrides"]), "{warnings:?}");
        assert!(warned(&["1 joints below spring joints"]), "{warnings:?}");
        assert!(warned(&["collider group 0", "not an outside sphere"]), "{warnings:?}");
        assert!(
            warned(&["thumbnail 'thumbnail.png'", "not a PNG or JPEG"]),
            "{warnings:?}"
        );
        assert!(warned(&["material 'clay'", "no metal or roughness"]), "{warnings:?}");
        assert_eq!(read.avatar.unwrap().meta.thumbnail, None);
    }
}
