//! A VRM stays a VRM: every VRM avatar and VRM animation the tests have or make, VRM 1.0 and
//! 0.x, written with `rigscope::write::save` to a `.vrm` (`.vrma`) reads back as the same
//! avatar (humanoid map, meta, expressions and their binds, look-at), the same spring bones,
//! node constraints and MToon materials, and poses as it did: with its expressions set, its
//! eyes on a point and its springs stepped through a clip, joints and vertices within 1e-5 of
//! the bounding diagonal. A 0.x avatar stays 0.x. The Khronos validator finds no error in what
//! is written (it does not know VRM's extensions).
//!
//! Besides the other VRM tests' files (the stick figures of both versions, the face, the tail,
//! the wave animation), two rich avatars are made here, one per version, on one rig: a skinned
//! body with two morph targets over the stick figure, a tail and hair that swing, eyes, three
//! constrained nodes, MToon materials with textures, and a clip.

use crate::common;
use crate::common::validator::{WARNING, khronos_validate_all};
use crate::vrm_avatar::{avatar_json, vrm_0_x, vrm_1_0, write_face_avatar};
use crate::vrm_motion::write_wave;
use crate::vrm_springs::write_spring_avatar;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use glam::{Mat4, Vec3};
use rigscope::anim::Pose;
use rigscope::asset::avatar::{AvatarMeta, VrmVersion};
use rigscope::asset::material::{AlphaMode, Material, MaterialTexture};
use rigscope::asset::{self, Model};
use rigscope::skin::{Deformer, SkinningMethod};
use rigscope::view::avatar_motion::AvatarMotion;
use rigscope::write::{self, WriteOptions};
use serde_json::{Value, json};

/// The rig's nodes after the stick figure's 18.
const BODY: usize = 18;
const TAIL: usize = 19;
const LEFT_EYE: usize = 23;
const RIGHT_EYE: usize = 24;
const TWIST: usize = 25;
const AIMER: usize = 26;
const FOLLOWER: usize = 27;
const HAIR: usize = 28;

/// (name, parent, translation) of the nodes added to the stick figure; the body is `BODY`.
const MORE_NODES: [(&str, usize, [f32; 3]); 12] = [
    ("Tail1", 0, [0.0, -0.05, -0.1]),
    ("Tail2", TAIL, [0.0, -0.02, -0.15]),
    ("Tail3", TAIL + 1, [0.0, -0.02, -0.15]),
    ("Tail4", TAIL + 2, [0.0, 0.0, -0.1]),
    ("L_Eye", 4, [0.03, 0.05, 0.08]),
    ("R_Eye", 4, [-0.03, 0.05, 0.08]),
    ("L_ArmTwist", 11, [0.15, 0.0, 0.0]),
    ("Aimer", 2, [0.0, 0.1, 0.15]),
    ("Follower", 0, [0.0, 0.0, 0.3]),
    ("Hair1", 4, [0.0, 0.15, -0.05]),
    ("Hair2", HAIR, [0.0, -0.05, -0.08]),
    ("Hair3", HAIR + 1, [0.0, -0.05, -0.08]),
];

/// A 2×2 PNG of `colour` and white, as a data URI.
fn png(colour: [u8; 4]) -> String {
    let pixels = image::RgbaImage::from_fn(2, 2, |x, y| {
        image::Rgba(if (x + y) % 2 == 0 { colour } else { [255; 4] })
    });
    let mut bytes = std::io::Cursor::new(Vec::new());
    pixels.write_to(&mut bytes, image::ImageFormat::Png).unwrap();
    common::data_uri(&bytes.into_inner())
}

/// The rich rig's glTF with `extension` (VRM 1.0's or 0.x's) at the root as `name`, its four
/// materials `materials`.
fn rich_rig(name: &str, extension: Value, materials: Value) -> Value {
    let mut file = avatar_json([0.3, 0.0, 0.0], name, extension);
    let nodes = file["nodes"].as_array_mut().unwrap();
    nodes.push(json!({ "name": "Body", "mesh": 0, "skin": 0 }));
    for (index, &(node_name, parent, translation)) in MORE_NODES.iter().enumerate() {
        nodes.push(json!({ "name": node_name, "translation": translation }));
        let children = nodes[parent]
            .as_object_mut()
            .unwrap()
            .entry("children")
            .or_insert(json!([]));
        children.as_array_mut().unwrap().push(json!(TAIL + index));
    }
    // World positions (every rotation is the identity) and parents, for the skin.
    let count = nodes.len();
    let mut parent = vec![None; count];
    for (index, node) in nodes.iter().enumerate() {
        for child in node["children"].as_array().into_iter().flatten() {
            parent[child.as_u64().unwrap() as usize] = Some(index);
        }
    }
    let translation = |node: usize| -> Vec3 {
        let t = &nodes[node]["translation"];
        Vec3::new(
            t[0].as_f64().unwrap() as f32,
            t[1].as_f64().unwrap() as f32,
            t[2].as_f64().unwrap() as f32,
        )
    };
    let world: Vec<Vec3> = (0..count)
        .map(|mut node| {
            let mut at = Vec3::ZERO;
            while node != BODY {
                at += translation(node);
                match parent[node] {
                    Some(p) => node = p,
                    None => break,
                }
            }
            at
        })
        .collect();
    let joints: Vec<usize> = (0..count).filter(|&n| n != BODY).collect();
    file["scenes"][0]["nodes"] = json!([0, BODY]);

    // One vertex per joint, weighted 0.7 to it and 0.3 to its parent; four primitives of two
    // triangles each, one per material; two morph targets (forward, up).
    let skin_index = |node: usize| joints.iter().position(|&j| j == node).unwrap() as u16;
    let (mut positions, mut normals, mut uvs, mut weights) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut joint_indices: Vec<u8> = Vec::new();
    for (k, &node) in joints.iter().enumerate() {
        positions.extend((world[node] + Vec3::new(0.02, 0.01 * (k % 3) as f32, 0.03)).to_array());
        normals.extend([0.0, 0.0, 1.0]);
        uvs.extend([(k % 5) as f32 * 0.25, (k % 4) as f32 * 0.3]);
        let up = parent[node].filter(|&p| p != BODY).map_or(skin_index(node), skin_index);
        for index in [skin_index(node), up, 0, 0] {
            joint_indices.extend(index.to_le_bytes());
        }
        weights.extend(if up == skin_index(node) {
            [1.0, 0.0, 0.0, 0.0]
        } else {
            [0.7, 0.3, 0.0, 0.0]
        });
    }
    let vertices = joints.len();
    let forward = [0.0, 0.0, 0.1].repeat(vertices);
    let up = [0.0, 0.05, 0.0].repeat(vertices);
    let inverse_binds: Vec<f32> = joints
        .iter()
        .flat_map(|&j| Mat4::from_translation(-world[j]).to_cols_array())
        .collect();
    let times = [0.0, 0.5, 1.0];
    let hips_moves = [0.0, 1.0, 0.0, 0.2, 1.05, 0.1, 0.0, 1.0, 0.0];
    let turn = |angle: f32, axis: Vec3| glam::Quat::from_axis_angle(axis, angle).to_array();
    let hips_turns: Vec<f32> = [0.0, 0.6, -0.2].iter().flat_map(|&a| turn(a, Vec3::Y)).collect();
    let forearm_turns: Vec<f32> = [0.0, 0.9, 0.3].iter().flat_map(|&a| turn(a, Vec3::X)).collect();
    let blocks: Vec<Vec<u8>> = vec![
        common::f32_bytes(&positions),
        common::f32_bytes(&normals),
        common::f32_bytes(&uvs),
        joint_indices,
        common::f32_bytes(&weights),
        common::f32_bytes(&forward),
        common::f32_bytes(&up),
        common::f32_bytes(&inverse_binds),
        common::f32_bytes(&times),
        common::f32_bytes(&hips_moves),
        common::f32_bytes(&hips_turns),
        common::f32_bytes(&forearm_turns),
        (0..24u16).flat_map(|i| i.to_le_bytes()).collect(),
    ];
    let (mut bytes, mut views) = (Vec::new(), Vec::new());
    for block in &blocks {
        views.push(json!({ "buffer": 0, "byteOffset": bytes.len(), "byteLength": block.len() }));
        bytes.extend(block);
    }
    let accessor = |view: usize, component: u32, count: usize, kind: &str| json!({ "bufferView": view, "componentType": component, "count": count, "type": kind });
    let (min, max) = positions.chunks(3).fold(([f32::MAX; 3], [f32::MIN; 3]), |(lo, hi), p| {
        (
            std::array::from_fn(|i| lo[i].min(p[i])),
            std::array::from_fn(|i| hi[i].max(p[i])),
        )
    });
    let mut accessors = vec![
        json!({ "bufferView": 0, "componentType": 5126, "count": vertices, "type": "VEC3", "min": min, "max": max }),
        accessor(1, 5126, vertices, "VEC3"),
        accessor(2, 5126, vertices, "VEC2"),
        accessor(3, 5123, vertices, "VEC4"),
        accessor(4, 5126, vertices, "VEC4"),
        json!({ "bufferView": 5, "componentType": 5126, "count": vertices, "type": "VEC3", "min": [0.0, 0.0, 0.1], "max": [0.0, 0.0, 0.1] }),
        json!({ "bufferView": 6, "componentType": 5126, "count": vertices, "type": "VEC3", "min": [0.0, 0.05, 0.0], "max": [0.0, 0.05, 0.0] }),
        accessor(7, 5126, joints.len(), "MAT4"),
        json!({ "bufferView": 8, "componentType": 5126, "count": 3, "type": "SCALAR", "min": [0.0], "max": [1.0] }),
        accessor(9, 5126, 3, "VEC3"),
        accessor(10, 5126, 3, "VEC4"),
        accessor(11, 5126, 3, "VEC4"),
    ];
    let primitives: Vec<Value> = (0..4)
        .map(|p| {
            accessors.push(
                json!({ "bufferView": 12, "byteOffset": 12 * p, "componentType": 5123, "count": 6, "type": "SCALAR" }),
            );
            json!({
                "attributes": { "POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2, "JOINTS_0": 3, "WEIGHTS_0": 4 },
                "indices": 12 + p, "material": p,
                "targets": [{ "POSITION": 5 }, { "POSITION": 6 }]
            })
        })
        .collect();
    file["buffers"] = json!([{ "byteLength": bytes.len(), "uri": common::data_uri(&bytes) }]);
    file["bufferViews"] = json!(views);
    file["accessors"] = json!(accessors);
    file["meshes"] =
        json!([{ "name": "Body", "primitives": primitives, "extras": { "targetNames": ["forward", "up"] } }]);
    file["skins"] = json!([{ "joints": joints, "inverseBindMatrices": 7, "skeleton": 0 }]);
    file["animations"] = json!([{
        "name": "Sway",
        "samplers": [{ "input": 8, "output": 9 }, { "input": 8, "output": 10 }, { "input": 8, "output": 11 }],
        "channels": [
            { "sampler": 0, "target": { "node": 0, "path": "translation" } },
            { "sampler": 1, "target": { "node": 0, "path": "rotation" } },
            { "sampler": 2, "target": { "node": 12, "path": "rotation" } }
        ]
    }]);
    file["images"] = json!([{ "uri": png([200, 30, 30, 255]) }, { "uri": png([30, 30, 200, 255]) }]);
    file["samplers"] = json!([{ "magFilter": 9728, "wrapS": 33071 }]);
    file["textures"] = json!([{ "source": 0 }, { "source": 1 }, { "source": 0, "sampler": 0 }]);
    file["materials"] = materials;
    file
}

/// The humanoid bones of the rich rig by VRM 1.0 name and node: the stick figure's and the eyes.
fn rich_bones() -> Vec<(&'static str, usize)> {
    let stick = vrm_1_0();
    let mut bones: Vec<(&'static str, usize)> = (stick["humanoid"]["humanBones"].as_object().unwrap().iter())
        .filter_map(|(name, bone)| {
            let bone_name = rigscope::asset::human_bone::human_bone(name)?.name;
            Some((bone_name, bone["node"].as_u64()? as usize)).filter(|&(_, node)| node < BODY)
        })
        .collect();
    bones.extend([("leftEye", LEFT_EYE), ("rightEye", RIGHT_EYE)]);
    bones
}

/// The rich VRM 1.0 avatar.
fn write_rich_1_0(path: &Path) {
    let bones: serde_json::Map<String, Value> = (rich_bones().into_iter())
        .map(|(bone, node)| (bone.to_owned(), json!({ "node": node })))
        .collect();
    let texture = |index: usize| json!({ "index": index });
    let vrm = json!({
        "specVersion": "1.0",
        "meta": {
            "name": "Rich", "version": "1.2", "authors": ["A", "B"], "copyrightInformation": "(c) A",
            "contactInformation": "a@example.com", "licenseUrl": "https://vrm.dev/licenses/1.0/",
            "avatarPermission": "everyone", "allowExcessivelyViolentUsage": true,
            "allowExcessivelySexualUsage": false, "commercialUsage": "personalProfit",
            "allowPoliticalOrReligiousUsage": false, "allowAntisocialOrHateUsage": false,
            "creditNotation": "required", "allowRedistribution": true, "modification": "allowModification",
            "otherLicenseUrl": "https://example.com/licence", "thumbnailImage": 1,
            "references": ["https://example.com/original-avatar"]
        },
        "humanoid": { "humanBones": bones },
        "lookAt": {
            "type": "bone", "offsetFromHeadBone": [0.0, 0.06, 0.02],
            "rangeMapHorizontalInner": { "inputMaxValue": 80.0, "outputScale": 12.0 },
            "rangeMapHorizontalOuter": { "inputMaxValue": 70.0, "outputScale": 15.0 },
            "rangeMapVerticalDown": { "inputMaxValue": 60.0, "outputScale": 9.0 },
            "rangeMapVerticalUp": { "inputMaxValue": 50.0, "outputScale": 11.0 }
        },
        "expressions": {
            "preset": {
                "happy": {
                    "morphTargetBinds": [{ "node": BODY, "index": 0, "weight": 1.0 }],
                    "materialColorBinds": [
                        { "material": 0, "type": "color", "targetValue": [1.0, 0.0, 0.0, 1.0] },
                        { "material": 0, "type": "shadeColor", "targetValue": [0.0, 0.0, 1.0] }
                    ],
                    "overrideBlink": "block"
                },
                "blink": { "morphTargetBinds": [{ "node": BODY, "index": 1, "weight": 1.0 }], "isBinary": true },
                "aa": {
                    "textureTransformBinds": [{ "material": 0, "scale": [2.0, 1.5], "offset": [0.25, 0.5] }],
                    "overrideLookAt": "blend"
                }
            },
            "custom": {
                "wink": {
                    "morphTargetBinds": [{ "node": BODY, "index": 1, "weight": 0.5 }],
                    "materialColorBinds": [
                        { "material": 1, "type": "rimColor", "targetValue": [0.5, 1.0, 0.0] },
                        { "material": 0, "type": "emissionColor", "targetValue": [0.2, 0.3, 0.4] },
                        { "material": 1, "type": "outlineColor", "targetValue": [0.9, 0.1, 0.1] },
                        { "material": 2, "type": "matcapColor", "targetValue": [0.5, 0.5, 0.5] }
                    ],
                    "overrideMouth": "block"
                }
            }
        }
    });
    let mtoon = |more: Value| {
        let mut json = json!({
            "specVersion": "1.0", "shadeColorFactor": [0.6, 0.4, 0.5], "shadingShiftFactor": -0.1,
            "shadingToonyFactor": 0.7, "giEqualizationFactor": 0.6, "matcapFactor": [0.9, 0.8, 0.7],
            "parametricRimColorFactor": [0.2, 0.1, 0.0], "parametricRimFresnelPowerFactor": 3.0,
            "parametricRimLiftFactor": 0.1, "rimLightingMixFactor": 0.4, "outlineWidthMode": "worldCoordinates",
            "outlineWidthFactor": 0.004, "outlineColorFactor": [0.1, 0.0, 0.2], "outlineLightingMixFactor": 0.6,
            "uvAnimationScrollXSpeedFactor": 0.1, "uvAnimationScrollYSpeedFactor": -0.2,
            "uvAnimationRotationSpeedFactor": 0.3
        });
        json.as_object_mut().unwrap().extend(more.as_object().unwrap().clone());
        json
    };
    let transformed =
        json!({ "index": 0, "extensions": { "KHR_texture_transform": { "offset": [0.1, 0.2], "scale": [1.5, 1.5] } } });
    let materials = json!([
        {
            "name": "Skin", "alphaMode": "MASK", "alphaCutoff": 0.4, "doubleSided": true,
            "pbrMetallicRoughness": { "baseColorFactor": [0.8, 0.7, 0.6, 1.0], "baseColorTexture": transformed },
            "normalTexture": { "index": 1, "scale": 0.8 }, "emissiveTexture": texture(2), "emissiveFactor": [0.1, 0.05, 0.0],
            "extensions": { "VRMC_materials_mtoon": mtoon(json!({
                "shadeMultiplyTexture": texture(1), "shadingShiftTexture": { "index": 0, "scale": 0.5 },
                "matcapTexture": texture(2), "rimMultiplyTexture": texture(0),
                "outlineWidthMultiplyTexture": { "index": 1, "texCoord": 0 }, "uvAnimationMaskTexture": texture(2)
            })) }
        },
        {
            "name": "Hair", "alphaMode": "BLEND",
            "pbrMetallicRoughness": { "baseColorFactor": [0.3, 0.2, 0.1, 0.8] },
            "extensions": { "VRMC_materials_mtoon": mtoon(json!({ "transparentWithZWrite": true, "renderQueueOffsetNumber": 2 })) }
        },
        {
            "name": "Glass", "alphaMode": "BLEND",
            "extensions": { "VRMC_materials_mtoon": mtoon(json!({ "renderQueueOffsetNumber": -1, "outlineWidthMode": "screenCoordinates" })) }
        },
        { "name": "Plain", "pbrMetallicRoughness": { "metallicFactor": 0.5, "roughnessFactor": 0.25 } }
    ]);
    let mut file = rich_rig("VRMC_vrm", vrm, materials);
    let joint = |node: usize, stiffness: f32| {
        json!({ "node": node, "hitRadius": 0.03, "stiffness": stiffness, "gravityPower": 0.8,
                "gravityDir": [0.0, -1.0, 0.0], "dragForce": 0.3 })
    };
    let extended =
        |shape: Value| json!({ "VRMC_springBone_extended_collider": { "specVersion": "1.0", "shape": shape } });
    file["extensions"]["VRMC_springBone"] = json!({
        "specVersion": "1.0",
        "colliders": [
            { "node": 5, "shape": { "sphere": { "offset": [0.0, -0.35, -0.2], "radius": 0.1 } } },
            { "node": 8, "shape": { "capsule": { "offset": [0.0, -0.2, -0.25], "radius": 0.06, "tail": [0.0, -0.45, -0.25] } } },
            { "node": 4, "shape": { "sphere": { "offset": [0.0, 0.1, 0.0], "radius": 0.0 } },
              "extensions": extended(json!({ "sphere": { "offset": [0.0, 0.1, 0.0], "radius": 0.4, "inside": true } })) },
            { "node": 0, "shape": { "sphere": { "offset": [0.0, 0.0, 0.0], "radius": 0.0 } },
              "extensions": extended(json!({ "plane": { "offset": [0.0, -0.3, 0.0], "normal": [0.0, 1.0, 0.0] } })) }
        ],
        "colliderGroups": [{ "colliders": [0, 1, 3] }, { "colliders": [2] }],
        "springs": [
            { "name": "tail", "joints": [joint(TAIL, 1.0), joint(TAIL + 1, 0.6), joint(TAIL + 2, 0.4), joint(TAIL + 3, 0.4)], "colliderGroups": [0] },
            { "name": "hair", "joints": [joint(HAIR, 0.5), joint(HAIR + 1, 0.5), joint(HAIR + 2, 0.5)], "colliderGroups": [1], "center": 4 }
        ]
    });
    let constrain =
        |constraint: Value| json!({ "VRMC_node_constraint": { "specVersion": "1.0", "constraint": constraint } });
    file["nodes"][TWIST]["extensions"] = constrain(json!({ "roll": { "source": 12, "rollAxis": "X", "weight": 0.8 } }));
    file["nodes"][AIMER]["extensions"] = constrain(json!({ "aim": { "source": 4, "aimAxis": "PositiveY" } }));
    file["nodes"][FOLLOWER]["extensions"] = constrain(json!({ "rotation": { "source": 0, "weight": 0.5 } }));
    let used = file["extensionsUsed"].as_array_mut().unwrap();
    used.extend(
        [
            "VRMC_springBone",
            "VRMC_springBone_extended_collider",
            "VRMC_node_constraint",
            "VRMC_materials_mtoon",
            "KHR_texture_transform",
        ]
        .map(|e| json!(e)),
    );
    std::fs::write(path, serde_json::to_string_pretty(&file).unwrap()).unwrap();
}

/// The rich VRM 0.x avatar: the same rig, with 0.x's humanoid names, blend shapes, first
/// person, secondary animation and material properties.
fn write_rich_0_x(path: &Path) {
    let bones: Vec<Value> = (rich_bones().into_iter())
        .map(|(bone, node)| {
            let bone = match bone {
                "leftThumbMetacarpal" => "leftThumbProximal",
                other => other,
            };
            json!({ "bone": bone, "node": node, "useDefaultValues": true })
        })
        .collect();
    let range = |x: f32, y: f32| json!({ "curve": [0, 0, 0, 1, 1, 1, 1, 0], "xRange": x, "yRange": y });
    let vrm = json!({
        "exporterVersion": "UniVRM-0.99", "specVersion": "0.0",
        "meta": { "title": "Old Rich", "version": "0.9", "author": "C", "contactInformation": "c@example.com",
                  "licenseName": "CC_BY", "allowedUserName": "Everyone", "violentUssageName": "Disallow",
                  "sexualUssageName": "Disallow", "commercialUssageName": "Allow",
                  "otherPermissionUrl": "https://example.com/permissions", "otherLicenseUrl": "", "texture": 1,
                  "reference": "Original by D" },
        "humanoid": { "humanBones": bones },
        "firstPerson": {
            "firstPersonBone": 4, "firstPersonBoneOffset": { "x": 0.0, "y": 0.06, "z": 0.02 },
            "lookAtTypeName": "Bone",
            "lookAtHorizontalInner": range(80.0, 12.0), "lookAtHorizontalOuter": range(70.0, 15.0),
            "lookAtVerticalDown": range(60.0, 9.0), "lookAtVerticalUp": range(50.0, 11.0)
        },
        "blendShapeMaster": { "blendShapeGroups": [
            { "name": "Joy", "presetName": "joy",
              "binds": [{ "mesh": 0, "index": 0, "weight": 100 }],
              "materialValues": [
                  { "materialName": "Skin", "propertyName": "_Color", "targetValue": [1.0, 0.0, 0.0, 1.0] },
                  { "materialName": "Skin", "propertyName": "_MainTex_ST", "targetValue": [2.0, 1.5, 0.25, 0.1] }
              ] },
            { "name": "Blink", "presetName": "blink", "binds": [{ "mesh": 0, "index": 1, "weight": 100 }], "isBinary": true },
            { "name": "Wink", "presetName": "unknown",
              "binds": [{ "mesh": 0, "index": 1, "weight": 50 }],
              "materialValues": [
                  { "materialName": "Hair", "propertyName": "_RimColor", "targetValue": [0.5, 1.0, 0.0, 1.0] },
                  { "materialName": "Skin", "propertyName": "_ShadeColor", "targetValue": [0.0, 0.0, 1.0, 1.0] }
              ] }
        ] },
        "secondaryAnimation": {
            "boneGroups": [
                { "comment": "tail", "stiffiness": 0.6, "gravityPower": 0.8, "gravityDir": { "x": 0.0, "y": -1.0, "z": 0.0 },
                  "dragForce": 0.3, "center": -1, "hitRadius": 0.03, "bones": [TAIL], "colliderGroups": [0] },
                { "comment": "hair", "stiffiness": 0.5, "gravityPower": 0.2, "gravityDir": { "x": 0.0, "y": -1.0, "z": 0.0 },
                  "dragForce": 0.4, "center": 4, "hitRadius": 0.02, "bones": [HAIR], "colliderGroups": [0, 1] }
            ],
            "colliderGroups": [
                { "node": 5, "colliders": [{ "offset": { "x": 0.0, "y": -0.35, "z": 0.2 }, "radius": 0.1 }] },
                { "node": 4, "colliders": [{ "offset": { "x": 0.0, "y": 0.1, "z": -0.05 }, "radius": 0.08 },
                                           { "offset": { "x": 0.05, "y": 0.0, "z": 0.0 }, "radius": 0.03 }] }
            ]
        },
        "materialProperties": [
            { "name": "Skin", "shader": "VRM/MToon", "renderQueue": 2450,
              "keywordMap": { "_ALPHATEST_ON": true, "_NORMALMAP": true },
              "floatProperties": { "_Cutoff": 0.4, "_CullMode": 0, "_BumpScale": 0.8, "_ShadeShift": -0.2, "_ShadeToony": 0.8,
                                   "_IndirectLightIntensity": 0.25, "_RimFresnelPower": 3, "_RimLift": 0.1, "_RimLightingMix": 0.4,
                                   "_OutlineWidthMode": 1, "_OutlineWidth": 0.4, "_OutlineColorMode": 1, "_OutlineLightingMix": 0.6,
                                   "_UvAnimScrollX": 0.1, "_UvAnimScrollY": 0.2, "_UvAnimRotation": 0.3 },
              "vectorProperties": { "_Color": [0.8, 0.7, 0.6, 1.0], "_ShadeColor": [0.6, 0.4, 0.5, 1.0],
                                    "_RimColor": [0.2, 0.1, 0.0, 1.0], "_OutlineColor": [0.1, 0.0, 0.2, 1.0],
                                    "_EmissionColor": [1.5, 0.2, 0.0, 1.0], "_MainTex": [0.1, 0.2, 1.5, 1.5] },
              "textureProperties": { "_MainTex": 0, "_ShadeTexture": 1, "_BumpMap": 1, "_EmissionMap": 2, "_SphereAdd": 2,
                                     "_RimTexture": 0, "_OutlineWidthTexture": 1, "_UvAnimMaskTexture": 2 } },
            { "name": "Hair", "shader": "VRM/MToon", "renderQueue": 2502,
              "keywordMap": { "_ALPHABLEND_ON": true },
              "floatProperties": { "_ZWrite": 1, "_ShadeToony": 0.5, "_OutlineWidthMode": 2, "_OutlineWidth": 0.2 },
              "vectorProperties": { "_Color": [0.3, 0.2, 0.1, 0.8] } },
            { "name": "Glass", "shader": "VRM/UnlitTransparent", "renderQueue": 3000,
              "vectorProperties": { "_Color": [0.5, 0.6, 0.7, 0.5] }, "textureProperties": { "_MainTex": 2 } },
            { "name": "Plain", "shader": "VRM_USE_GLTFSHADER" }
        ]
    });
    let materials = json!([
        { "name": "Skin" }, { "name": "Hair" }, { "name": "Glass" },
        { "name": "Plain", "pbrMetallicRoughness": { "metallicFactor": 0.5, "roughnessFactor": 0.25 } }
    ]);
    let file = rich_rig("VRM", vrm, materials);
    std::fs::write(path, serde_json::to_string_pretty(&file).unwrap()).unwrap();
}

/// Every VRM file the tests have or make, by name, with the extension to write it as.
fn vrm_files(dir: &Path) -> Vec<(PathBuf, &'static str)> {
    let file = |name: &str| dir.join(name);
    let (stick, old_stick) = (file("stick.gltf"), file("old-stick.gltf"));
    std::fs::write(&stick, avatar_json([0.3, 0.0, 0.0], "VRMC_vrm", vrm_1_0()).to_string()).unwrap();
    std::fs::write(&old_stick, avatar_json([-0.3, 0.0, 0.0], "VRM", vrm_0_x()).to_string()).unwrap();
    let (face, tail) = (file("face.gltf"), file("tail.gltf"));
    write_face_avatar(&face);
    write_spring_avatar(&tail);
    let (rich, old_rich) = (file("rich.gltf"), file("old-rich.gltf"));
    write_rich_1_0(&rich);
    write_rich_0_x(&old_rich);
    let motion = file("wave.gltf");
    write_wave(&motion);
    let avatars = [stick, old_stick, face, tail, rich, old_rich].map(|f| (f, "vrm"));
    avatars.into_iter().chain([(motion, "vrma")]).collect()
}

#[test]
fn every_vrm_reads_back_as_the_same_avatar_posing_alike() {
    let dir = common::temp_dir("vrm-write");
    let mut written = Vec::new();
    for (file, extension) in vrm_files(&dir) {
        let source = asset::load(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let output = file.with_extension(extension);
        let saved = write::save(&source, &output, &WriteOptions::default()).unwrap();
        let back = asset::load(&output).unwrap_or_else(|e| panic!("{}: {e}", output.display()));
        let name = file.display().to_string();
        let unexpected: Vec<&String> = (back.warnings.iter())
            .filter(|w| !source.warnings.contains(w))
            .collect();
        assert!(
            unexpected.is_empty(),
            "{name}: reading the written file: {unexpected:?}"
        );
        assert!(
            saved.warnings.iter().all(|w| w.starts_with("read with a warning")),
            "{name}: {:?}",
            saved.warnings
        );
        assert_same_avatar(&back, &source, &name);
        assert_same_materials(&back, &source, &name);
        assert_eq!(back.vrm_animation, source.vrm_animation, "{name}");
        assert_eq!(back.value_joints, source.value_joints, "{name}");
        let difference = largest_pose_difference(&source, &back);
        assert!(
            difference <= 1e-5,
            "{name}: poses differ by {difference:.2e} of the diagonal"
        );
        written.push(output);
    }
    let json = common::gltf_json(&dir.join("old-rich.vrm"));
    let extensions = json["extensions"].as_object().unwrap();
    assert!(
        extensions.contains_key("VRM") && !extensions.contains_key("VRMC_vrm"),
        "0.x stays 0.x"
    );
    assert!(
        json["materials"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m.pointer("/extensions/VRMC_materials_mtoon").is_none())
    );
    // The warnings there may be: VRM 0.x's extension name has no vendor prefix, and the rich
    // avatars' normal maps come without tangents (as their sources do).
    let known = [
        "INVALID_EXTENSION_NAME_FORMAT",
        "MESH_PRIMITIVE_GENERATED_TANGENT_SPACE",
    ];
    for report in khronos_validate_all(&written) {
        assert_eq!(report.errors, 0, "{}", report.describe());
        let warnings = report.codes_of_severity(WARNING);
        eprintln!("{}: validator warnings {warnings:?}", report.file.display());
        assert!(warnings.iter().all(|w| known.contains(w)), "{}", report.describe());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Whether `a` and `b` agree within 1e-5 (relative to their size beyond 1).
fn close(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-5 * a.abs().max(b.abs()).max(1.0)
}

/// Whether `a` and `b` are as long and `close` one by one.
fn close_all(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(a, b)| close(*a, *b))
}

/// The mesh name and target of each morph bind in `binds` of `model`, with its weight.
fn morph_binds(model: &Model, binds: &[(usize, f32)]) -> Vec<(String, usize, f32)> {
    let mut named: Vec<(String, usize, f32)> = binds
        .iter()
        .map(|&(entry, weight)| {
            let joint = (0..model.skeleton.len())
                .find(|&j| model.skeleton.morph_weight_range(j).contains(&entry))
                .unwrap();
            let instance = model.instances.iter().find(|i| i.joint == joint).unwrap();
            let start = model.skeleton.morph_weight_range(joint).start;
            (model.meshes[instance.mesh].name.clone(), entry - start, weight)
        })
        .collect();
    named.sort_by(|a, b| a.partial_cmp(b).unwrap());
    named
}

/// The property each property bind sets (`entry_name`: its pointer and component), its change.
fn property_binds(model: &Model, binds: &[(usize, f32)]) -> Vec<(String, f32)> {
    let mut named: Vec<(String, f32)> = binds
        .iter()
        .map(|&(entry, change)| (model.properties.entry_name(entry).unwrap(), change))
        .collect();
    named.sort_by(|a, b| a.partial_cmp(b).unwrap());
    named
}

/// The avatar of `read` is `source`'s (its binds by what they set, the thumbnail by its bytes),
/// and so are the spring bones and node constraints.
fn assert_same_avatar(read: &Model, source: &Model, name: &str) {
    let (Some(read_avatar), Some(avatar)) = (&read.avatar, &source.avatar) else {
        assert!(
            read.avatar.is_none() && source.avatar.is_none(),
            "{name}: an avatar either way"
        );
        return;
    };
    assert_eq!(read_avatar.version, avatar.version, "{name}");
    assert_eq!(read_avatar.spec_version, avatar.spec_version, "{name}");
    assert_eq!(read_avatar.humanoid, avatar.humanoid, "{name}");
    // The thumbnail is written as an image of its own: the same bytes, maybe another index.
    let thumbnail = |model: &Model, meta: &AvatarMeta| meta.thumbnail.map(|image| model.images[image].bytes.clone());
    assert_eq!(
        thumbnail(read, &read_avatar.meta),
        thumbnail(source, &avatar.meta),
        "{name}"
    );
    assert!(
        avatar.meta.thumbnail.is_some() || !name.contains("rich"),
        "{name}: the rich avatars have one"
    );
    let without_thumbnail = |meta: &AvatarMeta| AvatarMeta {
        thumbnail: None,
        ..meta.clone()
    };
    assert_eq!(
        without_thumbnail(&read_avatar.meta),
        without_thumbnail(&avatar.meta),
        "{name}"
    );
    let mut read_look_at = read_avatar.look_at.clone();
    if let (Some(read), Some(source)) = (&mut read_look_at, &avatar.look_at) {
        read.rotation_entry = source.rotation_entry;
    }
    assert_eq!(read_look_at, avatar.look_at, "{name}");
    assert_eq!(read_avatar.expressions.len(), avatar.expressions.len(), "{name}");
    for (a, b) in read_avatar.expressions.iter().zip(&avatar.expressions) {
        let at = format!("{name}: expression '{}'", b.name);
        assert_eq!(
            (
                &a.name,
                a.is_preset,
                a.is_binary,
                a.override_blink,
                a.override_look_at,
                a.override_mouth
            ),
            (
                &b.name,
                b.is_preset,
                b.is_binary,
                b.override_blink,
                b.override_look_at,
                b.override_mouth
            ),
            "{at}"
        );
        let (morphs, source_morphs) = (morph_binds(read, &a.morph_binds), morph_binds(source, &b.morph_binds));
        assert_eq!(morphs.len(), source_morphs.len(), "{at}: {morphs:?} {source_morphs:?}");
        for (m, s) in morphs.iter().zip(&source_morphs) {
            assert!(
                m.0 == s.0 && m.1 == s.1 && close(m.2, s.2),
                "{at}: {morphs:?} {source_morphs:?}"
            );
        }
        let (values, source_values) = (
            property_binds(read, &a.property_binds),
            property_binds(source, &b.property_binds),
        );
        assert_eq!(values.len(), source_values.len(), "{at}: {values:?} {source_values:?}");
        for (v, s) in values.iter().zip(&source_values) {
            assert!(v.0 == s.0 && close(v.1, s.1), "{at}: {values:?} {source_values:?}");
        }
    }
    assert_eq!(read.spring_bones, source.spring_bones, "{name}");
    let by_node = |model: &Model| {
        let mut constraints = model.node_constraints.clone();
        constraints.sort_by_key(|c| c.destination);
        constraints
    };
    assert_eq!(by_node(read), by_node(source), "{name}");
    assert_eq!(read_avatar.version == VrmVersion::V0, avatar.version == VrmVersion::V0);
}

/// Every material alike: its factors within 1e-5 (VRM 0.x's are converted on the way in and
/// out), its textures the same image bytes, sampler, coordinates and transform, its MToon.
fn assert_same_materials(read: &Model, source: &Model, name: &str) {
    assert_eq!(read.materials.len(), source.materials.len(), "{name}");
    for (a, b) in read.materials.iter().zip(&source.materials) {
        let at = format!("{name}: material '{}'", b.name);
        assert_eq!(a.name, b.name, "{at}");
        let factors = |m: &Material| {
            let cutoff = match m.alpha {
                AlphaMode::Mask { cutoff } => cutoff,
                _ => -1.0,
            };
            let mut factors = m.base_color.to_array().to_vec();
            factors.extend(m.emissive.to_array());
            factors.extend([
                m.metallic,
                m.roughness,
                m.normal_scale,
                m.occlusion_strength,
                m.emissive_strength,
                cutoff,
            ]);
            factors
        };
        assert!(
            close_all(&factors(a), &factors(b)),
            "{at}: {:?} {:?}",
            factors(a),
            factors(b)
        );
        assert_eq!(
            std::mem::discriminant(&a.alpha),
            std::mem::discriminant(&b.alpha),
            "{at}"
        );
        assert_eq!((a.double_sided, a.unlit), (b.double_sided, b.unlit), "{at}");
        for slot in MaterialTexture::ALL {
            let (x, y) = (slot.of(a), slot.of(b));
            assert_eq!(x.is_some(), y.is_some(), "{at}: {}", slot.name());
            let (Some(x), Some(y)) = (x, y) else { continue };
            assert_eq!(
                read.images[x.image].bytes,
                source.images[y.image].bytes,
                "{at}: {}",
                slot.name()
            );
            assert_eq!(
                (x.tex_coord, x.sampler),
                (y.tex_coord, y.sampler),
                "{at}: {}",
                slot.name()
            );
            let transform = |t: &rigscope::asset::TextureRef| {
                let t = t.transform;
                [t.offset.x, t.offset.y, t.rotation, t.scale.x, t.scale.y]
            };
            assert!(
                close_all(&transform(&x), &transform(&y)),
                "{at}: {} {x:?} {y:?}",
                slot.name()
            );
        }
        let (Some(x), Some(y)) = (&a.layers.mtoon, &b.layers.mtoon) else {
            assert!(
                a.layers.mtoon.is_none() && b.layers.mtoon.is_none(),
                "{at}: MToon either way"
            );
            continue;
        };
        let mtoon = |m: &rigscope::asset::mtoon::MToon| {
            let mut values = vec![
                m.shading_shift,
                m.shading_shift_texture_scale,
                m.shading_toony,
                m.gi_equalization,
                m.parametric_rim_fresnel_power,
                m.parametric_rim_lift,
                m.rim_lighting_mix,
                m.outline_width,
                m.outline_lighting_mix,
                m.uv_scroll_x,
                m.uv_scroll_y,
                m.uv_rotation,
            ];
            for colour in [m.shade_color, m.matcap, m.parametric_rim_color, m.outline_color] {
                values.extend(colour.to_array());
            }
            values
        };
        assert!(close_all(&mtoon(x), &mtoon(y)), "{at}: {x:?} {y:?}");
        assert_eq!(
            (x.transparent_with_z_write, x.render_queue_offset, x.outline_width_mode),
            (y.transparent_with_z_write, y.render_queue_offset, y.outline_width_mode),
            "{at}"
        );
    }
}

/// One frame of `model` posed: its joints' model matrices, its posed vertices by mesh and
/// primitive, and its animated properties (the expressions' material values).
type Frame = (Vec<Mat4>, BTreeMap<(usize, usize), Vec<Vec<Vec3>>>, Vec<f32>);

/// 30 frames at 60 a second of `model`'s first clip (the rest pose without one) with every
/// expression at 0.6, the eyes on a point to the avatar's left, the constraints and the
/// springs stepped from the first frame.
fn frames(model: &Model) -> Vec<Frame> {
    let mut motion = AvatarMotion::new(model);
    motion.expressions.fill(0.6);
    motion.look_target = Some(Vec3::new(0.6, 1.9, 1.0));
    let mut deformer = Deformer::new(model);
    let (mut pose, mut matrices) = (model.skeleton.rest_pose().clone(), Vec::new());
    let clip = model.clips.first();
    let mut cursor = clip.map(|c| c.cursor());
    (0..30)
        .map(|frame| {
            pose.copy_from(model.skeleton.rest_pose());
            if let (Some(clip), Some(cursor)) = (clip, &mut cursor) {
                clip.sample(frame as f32 / 60.0, &mut pose, cursor);
            }
            motion.apply(model, 0, &mut pose, &mut matrices, 1.0 / 60.0);
            deformer.update_all(model, &pose, SkinningMethod::Linear);
            let vertices = crate::convert::vertices_by_primitive(model, &deformer);
            (deformer.model_matrices().to_vec(), vertices, properties(model, &pose))
        })
        .collect()
}

/// The pose's animated properties by name, each with its value.
fn properties(model: &Model, pose: &Pose) -> Vec<f32> {
    let mut named: Vec<(String, f32)> = (0..pose.properties().len())
        .filter_map(|entry| Some((model.properties.entry_name(entry)?, pose.properties()[entry])))
        .filter(|(name, _)| name.starts_with("/materials/"))
        .collect();
    named.sort_by(|a, b| a.0.cmp(&b.0));
    named.into_iter().map(|(_, value)| value).collect()
}

/// The largest distance between the joints and vertices of `written`'s frames and `source`'s,
/// as a fraction of the source's rest diagonal (its joints' where it has no vertices); the
/// material values must agree within 1e-5.
fn largest_pose_difference(source: &Model, written: &Model) -> f32 {
    let (before, after) = (frames(source), frames(written));
    let rest = &before[0];
    let mut points: Vec<Vec3> = rest.1.values().flatten().flatten().copied().collect();
    if points.is_empty() {
        points = rest.0.iter().map(|m| m.w_axis.truncate()).collect();
    }
    let min = points.iter().copied().fold(Vec3::splat(f32::INFINITY), Vec3::min);
    let max = points.iter().copied().fold(Vec3::splat(f32::NEG_INFINITY), Vec3::max);
    let diagonal = (max - min).length().max(1e-6);
    let mut largest = 0.0f32;
    for ((joints, vertices, values), (written_joints, written_vertices, written_values)) in before.iter().zip(&after) {
        assert!(
            written_joints.len() >= joints.len(),
            "nodes for meshes may follow the joints"
        );
        for (a, b) in joints.iter().zip(written_joints) {
            largest = largest.max((0..4).map(|c| (a.col(c) - b.col(c)).length()).fold(0.0, f32::max));
        }
        assert_eq!(
            vertices.keys().collect::<Vec<_>>(),
            written_vertices.keys().collect::<Vec<_>>()
        );
        for (a, b) in vertices.values().flatten().zip(written_vertices.values().flatten()) {
            assert_eq!(a.len(), b.len(), "vertices");
            largest = a.iter().zip(b).map(|(a, b)| a.distance(*b)).fold(largest, f32::max);
        }
        assert!(
            close_all(values, written_values),
            "material values: {values:?} {written_values:?}"
        );
    }
    largest / diagonal
}
