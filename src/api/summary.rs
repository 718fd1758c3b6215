//! What a loaded model holds, as plain data: the Python module's `Model` attributes. Matrices
//! are row-major 4 x 4 (`m[row][column]`, so `m @ [x, y, z, 1]` transforms a point).

use glam::Mat4;
use serde::Serialize;

use crate::asset::Model;

/// A model's rig, meshes, clips, avatar, materials and the loader's warnings.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct Summary {
    /// The file the model was loaded from.
    pub path: String,
    /// Joints in the skeleton's order (parents first).
    pub joints: Vec<Joint>,
    pub skins: Vec<Skin>,
    pub meshes: Vec<Mesh>,
    pub clips: Vec<Clip>,
    /// A VRM avatar's humanoid map and expressions; `None` for other files.
    pub avatar: Option<Avatar>,
    /// Material names, in the file's order.
    pub materials: Vec<String>,
    /// What the loader had to repair or leave out, one sentence each.
    pub warnings: Vec<String>,
}

/// One joint (every node of the file's scene is one).
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct Joint {
    pub name: String,
    /// Index in `Summary::joints` of the parent; `None` for a root.
    pub parent: Option<usize>,
    /// The file's node index (what `pose --format json` calls `node`).
    pub node: usize,
    /// Rest transform, local (joint → parent space), row-major.
    pub rest: [f32; 16],
}

/// A skin: the joints that deform its meshes and their inverse bind matrices.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct Skin {
    pub name: String,
    /// Indices into `Summary::joints`.
    pub joints: Vec<usize>,
    /// One per joint, model (bind) space → joint space, row-major.
    pub inverse_binds: Vec<[f32; 16]>,
}

/// A mesh and its primitives.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct Mesh {
    pub name: String,
    pub primitives: Vec<Primitive>,
    /// Morph-target names (empty strings where the file names none).
    pub morph_targets: Vec<String>,
}

/// One primitive's size and vertex attributes.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct Primitive {
    pub vertices: usize,
    /// 0 for lines and points.
    pub triangles: usize,
    /// Attribute semantics as the file names them (POSITION, NORMAL, JOINTS_0, ...).
    pub attributes: Vec<String>,
    /// Index into `Summary::materials`, if the primitive has one.
    pub material: Option<usize>,
}

/// An animation clip.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct Clip {
    pub name: String,
    /// Seconds.
    pub duration: f32,
    pub channels: Vec<Channel>,
}

/// What one channel of a clip animates.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct Channel {
    /// Index into `Summary::joints`.
    pub joint: usize,
    /// `translation`, `rotation`, `scale`, `weights` or `pointer`.
    pub property: &'static str,
    pub keys: usize,
}

/// A VRM avatar's humanoid bones and expressions.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct Avatar {
    /// (humanoid bone, index into `Summary::joints`), e.g. `("hips", 3)`.
    pub humanoid: Vec<(&'static str, usize)>,
    /// Expression names (presets such as `happy`, `blink`, `aa`, and the file's own).
    pub expressions: Vec<String>,
}

/// `matrix` as 16 numbers, row by row.
pub(crate) fn row_major(matrix: Mat4) -> [f32; 16] {
    matrix.transpose().to_cols_array()
}

/// What `model` holds.
pub fn summary(model: &Model) -> Summary {
    let skeleton = &model.skeleton;
    let rest = skeleton.rest_pose().local();
    Summary {
        path: model.path.display().to_string(),
        joints: (0..skeleton.len())
            .map(|joint| Joint {
                name: skeleton.name(joint).to_owned(),
                parent: skeleton.parent(joint),
                node: model.file_node.get(joint).copied().unwrap_or(joint),
                rest: row_major(rest[joint].to_mat4()),
            })
            .collect(),
        skins: (model.skins.iter())
            .map(|skin| Skin {
                name: skin.name.clone(),
                joints: skin.joints.clone(),
                inverse_binds: skin.inverse_bind.iter().map(|&m| row_major(m)).collect(),
            })
            .collect(),
        meshes: (model.meshes.iter())
            .map(|mesh| Mesh {
                name: mesh.name.clone(),
                primitives: (mesh.primitives.iter().enumerate())
                    .map(|(index, primitive)| Primitive {
                        vertices: primitive.positions.len(),
                        triangles: primitive.triangle_count(),
                        attributes: (mesh.attributes.get(index).into_iter().flatten())
                            .map(|attribute| attribute.semantic.clone())
                            .collect(),
                        material: primitive.material,
                    })
                    .collect(),
                morph_targets: mesh.target_names.clone(),
            })
            .collect(),
        clips: (model.clips.iter())
            .map(|clip| Clip {
                name: clip.name().to_owned(),
                duration: clip.duration(),
                channels: (clip.channels().iter())
                    .map(|channel| Channel {
                        joint: channel.joint,
                        property: channel.track.property(),
                        keys: channel.track.times().len(),
                    })
                    .collect(),
            })
            .collect(),
        avatar: model.avatar.as_ref().map(|avatar| Avatar {
            humanoid: avatar.humanoid.clone(),
            expressions: avatar.expressions.iter().map(|e| e.name.clone()).collect(),
        }),
        materials: model.materials.iter().map(|m| m.name.clone()).collect(),
        warnings: model.warnings.clone(),
    }
}

/// `summary` as JSON, in its field names.
pub fn summary_json(summary: &Summary) -> String {
    // A summary of strings and numbers always serialises.
    serde_json::to_string(summary).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::demo::demo_model;

    #[test]
    fn the_summary_names_joints_parents_first_with_row_major_rest_transforms() {
        let model = demo_model();
        let summary = summary(&model);
        assert_eq!(summary.joints.len(), model.skeleton.len());
        assert_eq!(summary.joints[0].parent, None);
        for (index, joint) in summary.joints.iter().enumerate() {
            assert_eq!(joint.name, model.skeleton.name(index));
            assert!(joint.parent.is_none_or(|parent| parent < index));
            let rest = model.skeleton.rest_pose().local()[index];
            let translation = [joint.rest[3], joint.rest[7], joint.rest[11]];
            assert_eq!(translation, rest.translation.to_array());
        }
        assert_eq!(summary.clips.len(), model.clips.len());
        assert!(
            summary
                .clips
                .iter()
                .all(|clip| !clip.channels.is_empty() && clip.duration > 0.0)
        );
        let json: serde_json::Value = serde_json::from_str(&summary_json(&summary)).unwrap();
        assert_eq!(json["joints"].as_array().map(Vec::len), Some(summary.joints.len()));
    }

    #[test]
    fn inverse_binds_are_row_major() {
        let matrix = Mat4::from_translation(glam::Vec3::new(1.0, 2.0, 3.0));
        let rows = row_major(matrix);
        assert_eq!([rows[3], rows[7], rows[11], rows[15]], [1.0, 2.0, 3.0, 1.0]);
    }
}
