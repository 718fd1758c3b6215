//! The loaded model, independent of the file format it came from.
//!
//! Every node of the file is a joint of one hierarchy (`skeleton`), stored parents-first; the
//! scene graph is the pose. A mesh instance attaches a mesh to a joint and, when skinned, names
//! the skin whose palette deforms it. Positions are in the mesh's own space; skinned instances
//! come out in model space (glTF ignores the skinned node's own transform), unskinned ones are
//! placed by their joint's model matrix.

use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use glam::{Mat4, Vec2, Vec3, Vec4};

use super::animated::AnimatedProperties;
use super::avatar::{Avatar, VrmAnimation};
use super::camera::Camera;
use super::format::Format;
use super::light::PunctualLight;
use super::material::Material;
use crate::anim::avatar::{NodeConstraint, SpringBones, apply_constraints};
use crate::anim::{Clip, Pose, Skeleton};

/// A loaded model. Construct one with [`Model::new`] and fill in what it has: the fields grow
/// as the formats do.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Model {
    /// The file it was read from (a name of its own for a model made in memory).
    pub path: PathBuf,
    /// The format it was read in (none for a model made in memory, like the demo rig).
    pub format: Option<Format>,
    /// What the file says of itself that the model does not otherwise show, one sentence each
    /// (FBX: its version and writer, its axes and units and what they were converted to).
    pub file_facts: Vec<String>,
    /// Every file the model was read from: `path`, then the external buffers and images it
    /// names (glTF) or its `.md5anim` files (MD5), whether or not they could be read. The
    /// viewer watches them to reload the model when one changes.
    pub source_files: Vec<PathBuf>,
    pub skeleton: Skeleton,
    /// Joints that only carry values, not bones (a VRM animation's expression and look-at
    /// nodes): the skeleton is drawn and framed without them.
    pub value_joints: Vec<usize>,
    /// For each joint, its index among the file's nodes (what `inspect` and `pose` print).
    pub file_node: Vec<usize>,
    pub skins: Vec<Skin>,
    pub meshes: Vec<Mesh>,
    pub instances: Vec<MeshInstance>,
    /// Mesh instances drawn as many copies (glTF's EXT_mesh_gpu_instancing), by instance.
    pub copies: Vec<InstanceCopies>,
    pub materials: Vec<Material>,
    pub images: Vec<Image>,
    /// KHR_lights_punctual lights, one per node that holds one.
    pub lights: Vec<PunctualLight>,
    pub clips: Vec<Clip>,
    /// The file's scenes (glTF; empty for a file without any, and for other formats).
    pub scenes: Vec<SceneInfo>,
    /// The scene shown: only its nodes were loaded (none: every node of the file).
    pub scene: Option<usize>,
    /// The file's cameras, one per node that carries one.
    pub cameras: Vec<Camera>,
    /// Material, texture-transform, camera and light properties the clips animate, and node
    /// visibility (their values live in `Pose::properties`).
    pub properties: AnimatedProperties,
    pub extensions_used: Vec<String>,
    pub extensions_required: Vec<String>,
    /// KHR_materials_variants: the names of the file's material variants (see
    /// `Primitive::material_in`).
    pub material_variants: Vec<String>,
    /// Things that were wrong in the file but could be repaired or ignored.
    pub warnings: Vec<String>,
    /// Rotation keys that were not unit quaternions in the file (normalised on load).
    pub key_repairs: Vec<KeyRepair>,
    /// Geometry decoded from Draco or meshopt compression (glTF).
    pub decoded_geometry: Vec<DecodedGeometry>,
    /// The VRM avatar the file is (VRM 0.x or 1.0).
    pub avatar: Option<Avatar>,
    /// What a VRM animation (`.vrma`) animates by name: empty for other files.
    pub vrm_animation: VrmAnimation,
    /// VRM node constraints (joints that follow another's turn), sources first.
    pub node_constraints: Vec<NodeConstraint>,
    /// VRM spring bones (hair, skirts, tails that swing); empty for most models.
    pub spring_bones: SpringBones,
}

/// One of a file's scenes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SceneInfo {
    /// The file's name for it, or "Scene N".
    pub name: String,
    /// How many nodes it lists (its roots).
    pub root_nodes: usize,
}

/// Rotation keys of one channel that had to be normalised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyRepair {
    pub clip: usize,
    pub joint: usize,
    pub not_unit: usize,
}

impl Model {
    /// A model of `skeleton` alone, read from `path` as `format` (none: made in memory): no
    /// meshes, skins, clips, materials or warnings yet, each joint the file's node of its own
    /// index, and `path` its one source file (none when made in memory, as nothing is there to
    /// watch). Loaders fill in the rest of what they read.
    pub fn new(path: PathBuf, format: Option<Format>, skeleton: Skeleton) -> Self {
        Self {
            source_files: format.map(|_| path.clone()).into_iter().collect(),
            path,
            format,
            file_facts: Vec::new(),
            value_joints: Vec::new(),
            file_node: (0..skeleton.len()).collect(),
            skeleton,
            skins: Vec::new(),
            meshes: Vec::new(),
            instances: Vec::new(),
            copies: Vec::new(),
            materials: Vec::new(),
            images: Vec::new(),
            lights: Vec::new(),
            clips: Vec::new(),
            scenes: Vec::new(),
            scene: None,
            cameras: Vec::new(),
            properties: AnimatedProperties::default(),
            extensions_used: Vec::new(),
            extensions_required: Vec::new(),
            material_variants: Vec::new(),
            warnings: Vec::new(),
            key_repairs: Vec::new(),
            decoded_geometry: Vec::new(),
            avatar: None,
            vrm_animation: VrmAnimation::default(),
            node_constraints: Vec::new(),
            spring_bones: SpringBones::default(),
        }
    }

    /// Writes into `mask`, per joint, whether it belongs to the rig: a joint of some skin, or
    /// any node where the model has no skin (a rig of nodes moving rigid meshes). Scene roots,
    /// armature objects and mesh nodes beside a skinned rig are not rig joints: the skeleton
    /// view draws them apart, and neither picking nor IK offers them.
    pub fn rig_joints(&self, mask: &mut Vec<bool>) {
        mask.clear();
        mask.resize(self.skeleton.len(), self.skins.is_empty());
        for &joint in self.skins.iter().flat_map(|skin| &skin.joints) {
            if let Some(in_rig) = mask.get_mut(joint) {
                *in_rig = true;
            }
        }
    }

    /// Whether `joint` belongs to the rig, as `rig_joints` decides.
    pub fn is_rig_joint(&self, joint: usize) -> bool {
        self.skins.is_empty() || self.skins.iter().any(|skin| skin.joints.contains(&joint))
    }

    /// Joints that some skin deforms meshes with, each counted once.
    pub fn skinned_joint_count(&self) -> usize {
        self.distinct_joints(self.skins.iter().flat_map(|s| s.joints.iter().copied()))
    }

    /// Nodes that some clip animates, each counted once.
    pub fn animated_node_count(&self) -> usize {
        self.distinct_joints(self.clips.iter().flat_map(|c| c.channels()).map(|c| c.joint))
    }

    /// How many joints of the skeleton `joints` names, each counted once.
    fn distinct_joints(&self, joints: impl Iterator<Item = usize>) -> usize {
        let mut seen = vec![false; self.skeleton.len()];
        for joint in joints {
            if let Some(flag) = seen.get_mut(joint) {
                *flag = true;
            }
        }
        seen.iter().filter(|&&s| s).count()
    }

    /// The copies mesh instance `instance` is drawn as (none: it is drawn once, as it is).
    pub fn copies_of(&self, instance: usize) -> Option<&InstanceCopies> {
        self.copies.iter().find(|c| c.instance == instance)
    }

    /// Turns the joints of `pose` that node constraints drive (`matrices`: scratch).
    pub fn apply_node_constraints(&self, pose: &mut Pose, matrices: &mut Vec<Mat4>) {
        if !self.node_constraints.is_empty() {
            apply_constraints(&self.node_constraints, self.skeleton.rest_pose(), pose, matrices);
        }
    }

    /// Which entries of `Pose::morph_weights` drive the morph targets of `instance` (those of
    /// its node; empty when its mesh has none).
    pub fn morph_weight_range(&self, instance: &MeshInstance) -> Range<usize> {
        self.skeleton.morph_weight_range(instance.joint)
    }

    /// Finds a clip by exact name, or else by index.
    pub fn find_clip(&self, name_or_index: &str) -> Option<usize> {
        self.clips
            .iter()
            .position(|c| c.name() == name_or_index)
            .or_else(|| name_or_index.parse::<usize>().ok().filter(|&i| i < self.clips.len()))
    }

    /// The material variant called `name`; the error lists the variants there are.
    pub fn find_variant(&self, name: &str) -> Result<usize, NoSuchVariant> {
        self.material_variants
            .iter()
            .position(|v| v == name)
            .ok_or_else(|| NoSuchVariant {
                name: name.to_owned(),
                variants: self.material_variants.clone(),
            })
    }

    pub fn vertex_count(&self) -> usize {
        self.instances
            .iter()
            .flat_map(|i| &self.meshes[i.mesh].primitives)
            .map(Primitive::vertex_count)
            .sum()
    }

    /// The space skin `skin`'s vertices are in, as a matrix to model space at bind: `G` with
    /// `bind_j · inverse_bind_j = G` for its joints (`bind_model`: the skeleton's bind pose in
    /// model space). Identity for glTF, whose skinned vertices are in model space already; an
    /// FBX mesh's vertices are in its node's space, whose bind placement `G` is. Read from the
    /// skin's first joint; identity where that is not finite or is within rounding of it.
    pub fn skin_vertex_space(&self, skin: &Skin, bind_model: &[Mat4]) -> Mat4 {
        let first = skin.joints.iter().zip(&skin.inverse_bind);
        let space = first
            .map(|(&joint, inverse_bind)| Some(*bind_model.get(joint)? * *inverse_bind))
            .next()
            .flatten();
        space
            .filter(|m| m.is_finite() && !m.abs_diff_eq(Mat4::IDENTITY, 1e-5))
            .unwrap_or(Mat4::IDENTITY)
    }

    pub fn triangle_count(&self) -> usize {
        self.instances
            .iter()
            .flat_map(|i| &self.meshes[i.mesh].primitives)
            .map(Primitive::triangle_count)
            .sum()
    }
}

#[derive(Clone, Debug)]
pub struct Skin {
    pub name: String,
    /// Joint indices into the skeleton; vertex joint indices refer to positions in this list.
    pub joints: Vec<usize>,
    /// Model space → joint space in the bind pose, one per entry of `joints`.
    pub inverse_bind: Vec<Mat4>,
    /// Whether the file gave inverse bind matrices (glTF's default is identities).
    pub inverse_bind_given: bool,
    /// The joint the file names as the skeleton root, or else the topmost joint of the skin.
    pub root: usize,
}

#[derive(Clone, Debug)]
pub struct Mesh {
    pub name: String,
    pub primitives: Vec<Primitive>,
    /// Per primitive, the vertex attributes the file names (glTF); empty for formats whose
    /// vertices have fixed contents.
    pub attributes: Vec<Vec<VertexAttribute>>,
    /// One name per morph target (as many as its primitive with the most targets has, which
    /// is how many morph weights a node using it carries): the file's, else "target N".
    pub target_names: Vec<String>,
}

/// A vertex attribute as the file stores it, drawn or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VertexAttribute {
    /// Its semantic: POSITION, NORMAL, TEXCOORD_0, COLOR_0, JOINTS_0, _CUSTOM, ...
    pub semantic: String,
    /// Element type and component type, e.g. "VEC3 float", "VEC4 unsigned byte normalized".
    pub layout: String,
}

/// Geometry the file stored compressed, and what it decoded to (what `inspect` reports).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodedGeometry {
    /// What was decoded and by which extension: a buffer view (meshopt) or a primitive
    /// (Draco), e.g. "/bufferViews/3 (EXT_meshopt_compression)".
    pub object: String,
    /// Elements decoded: a meshopt view's elements, a Draco primitive's vertices.
    pub elements: usize,
    /// A Draco primitive's decoded indices (none for meshopt, or a primitive without).
    pub indices: Option<usize>,
    /// meshopt: element size, mode and filter; Draco: the attributes it held.
    pub layout: String,
    pub compressed_bytes: usize,
    pub decoded_bytes: usize,
}

/// A mesh placed on a joint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeshInstance {
    pub joint: usize,
    pub mesh: usize,
    pub skin: Option<usize>,
}

/// A mesh instance drawn as copies (EXT_mesh_gpu_instancing) in place of itself: each copy is
/// the instance as posed, moved by its transform within the space of the instance's joint.
#[derive(Clone, Debug, PartialEq)]
pub struct InstanceCopies {
    /// Index into `Model::instances`.
    pub instance: usize,
    /// Per copy, its placement in the joint's space (translation × rotation × scale).
    pub transforms: Vec<Mat4>,
    /// The per-copy attributes of the application's own (`_ID`, ...), which are not drawn.
    pub custom: Vec<String>,
}

impl InstanceCopies {
    /// Each copy's world → world matrix when the instance's joint has model matrix `joint`:
    /// `joint × transform × joint⁻¹`, applied to the instance's posed (world-space) vertices.
    /// This places a static mesh's copies at `joint × transform × vertex`, as the extension
    /// says, and moves a skinned mesh's copies the same way within the joint's space.
    pub fn placements(&self, joint: Mat4) -> impl Iterator<Item = Mat4> + '_ {
        // A joint scaled to nothing has no space to move copies in: they stay where it is.
        let inverse = (joint.determinant().abs() > f32::MIN_POSITIVE).then(|| joint.inverse());
        (self.transforms.iter()).map(move |t| inverse.map_or(Mat4::IDENTITY, |inverse| joint * *t * inverse))
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Topology {
    Points,
    Lines,
    #[default]
    Triangles,
}

#[derive(Clone, Debug, Default)]
pub struct Primitive {
    pub topology: Topology,
    /// Vertex indices, as a list of points, lines (pairs) or triangles (triples). Strips, loops
    /// and fans are converted to lists at load.
    pub indices: Vec<u32>,
    pub positions: Vec<Vec3>,
    pub normals: Vec<Vec3>,
    /// True when the file had no normals and they were computed (area-weighted).
    pub normals_computed: bool,
    /// Shaded with one normal per triangle, the posed triangle's own (so it follows morphs
    /// and skinning): what glTF requires where a primitive has no NORMAL, and how Blender and
    /// three.js draw OBJ faces without normals. `normals` then serve the vertex views only.
    pub flat_shaded: bool,
    /// xyz tangent and w handedness (glTF's: the bitangent is `cross(normal, tangent) * w`);
    /// empty when the file has none and no normal map needs them (`tangents::generate_missing`).
    pub tangents: Vec<Vec4>,
    /// `tangents` were generated (MikkTSpace), not read from the file.
    pub tangents_generated: bool,
    /// TEXCOORD_0; empty when the file has none.
    pub uvs: Vec<Vec2>,
    /// TEXCOORD_1 (occlusion maps often use it); empty when the file has none.
    pub uvs1: Vec<Vec2>,
    /// COLOR_0 as linear RGBA (alpha 1 for RGB colours), multiplied into the base colour;
    /// empty when the file has none.
    pub colors: Vec<Vec4>,
    pub skin_weights: Option<SkinWeights>,
    pub morph_targets: Vec<MorphTarget>,
    pub material: Option<usize>,
    /// KHR_materials_variants: the material it draws with in each variant that maps one
    /// (`material` in the others).
    pub variant_materials: Vec<VariantMaterial>,
}

/// The material a primitive draws with in one material variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantMaterial {
    /// Index into `Model::material_variants`.
    pub variant: usize,
    /// Index into `Model::materials`.
    pub material: usize,
}

impl Primitive {
    pub fn vertex_count(&self) -> usize {
        self.positions.len()
    }

    /// The material it draws with in material variant `variant` (None: the default).
    pub fn material_in(&self, variant: Option<usize>) -> Option<usize> {
        let mapped = variant.and_then(|v| self.variant_materials.iter().find(|m| m.variant == v));
        mapped.map(|m| m.material).or(self.material)
    }

    pub fn triangle_count(&self) -> usize {
        match self.topology {
            Topology::Triangles => self.indices.len() / 3,
            _ => 0,
        }
    }
}

/// Up to eight joint influences per vertex, strongest first, weights summing to 1.
#[derive(Clone, Debug, Default)]
pub struct SkinWeights {
    /// The four strongest influences: indices into the skin's joint list.
    pub joints: Vec<[u16; 4]>,
    pub weights: Vec<[f32; 4]>,
    /// Influences five to eight; empty when no vertex has more than four.
    pub joints_extra: Vec<[u16; 4]>,
    pub weights_extra: Vec<[f32; 4]>,
    /// Per vertex, its share of dual-quaternion skinning when that is chosen, the rest linear
    /// (Maya's per-vertex blended skinning, from FBX files); empty: 1 for every vertex.
    pub dual_quat_weights: Vec<f32>,
    /// Per vertex, what the loader had to repair (`VertexRepair` bits), for the weight views.
    pub repairs: Vec<u8>,
    /// Vertices whose weights in the file did not sum to 1 (they were renormalised).
    pub renormalised: usize,
    /// Vertices whose weights in the file were all zero (bound fully to their first joint).
    pub unweighted: usize,
    /// Influences dropped because their joint index was outside the skin.
    pub out_of_range: usize,
    /// Vertices that had more than `MAX_INFLUENCES` influences (the weakest were dropped).
    pub truncated: usize,
    /// Influences with a negative weight in the file (counted as zero).
    pub negative: usize,
    /// Influences that name a joint other than the first but carry no weight (harmless, but
    /// often a sign of an exporter padding or a cleanup that was not done).
    pub zero_weight: usize,
}

/// Bits of `SkinWeights::repairs`.
pub struct VertexRepair;

impl VertexRepair {
    /// The weights in the file did not sum to 1 (renormalised), or were all zero.
    pub const NOT_NORMALISED: u8 = 1;
    /// The vertex had more than `MAX_INFLUENCES` influences: the weakest were dropped.
    pub const CAPPED: u8 = 2;
}

impl SkinWeights {
    /// One vertex's influences with a weight above zero: (index into the skin's joint list,
    /// weight), over all eight slots.
    pub fn influences(&self, vertex: usize) -> impl Iterator<Item = (usize, f32)> + '_ {
        let first = self.joints.get(vertex).zip(self.weights.get(vertex));
        let extra = self.joints_extra.get(vertex).zip(self.weights_extra.get(vertex));
        first
            .into_iter()
            .chain(extra)
            .flat_map(|(joints, weights)| joints.iter().zip(weights))
            .filter(|&(_, &weight)| weight > 0.0)
            .map(|(&joint, &weight)| (joint as usize, weight))
    }

    /// The largest number of non-zero influences on any vertex.
    pub fn max_influences(&self) -> usize {
        (0..self.joints.len())
            .map(|v| self.influences(v).count())
            .max()
            .unwrap_or(0)
    }

    /// Adds a warning for each kind of repair made to these weights, prefixed by `context`.
    pub fn report_repairs(&self, context: &str, warnings: &mut Vec<String>) {
        let repairs = [
            (
                self.renormalised,
                "vertices whose weights did not sum to 1 (renormalised)",
            ),
            (
                self.unweighted,
                "vertices without any weight (bound to the skin's first joint)",
            ),
            (self.out_of_range, "influences on joints outside the skin (dropped)"),
            (self.truncated, "vertices with more than 8 influences (weakest dropped)"),
            (self.negative, "negative weights (counted as zero)"),
        ];
        for (count, what) in repairs {
            if count > 0 {
                warnings.push(format!("{context}: {count} {what}"));
            }
        }
    }
}

/// Differences from the base mesh, scaled by the target's weight (its name is the mesh's
/// `target_names` entry).
#[derive(Clone, Debug, Default)]
pub struct MorphTarget {
    pub positions: Vec<Vec3>,
    /// Empty when the target leaves normals alone.
    pub normals: Vec<Vec3>,
    /// Empty when the target leaves tangents alone.
    pub tangents: Vec<Vec3>,
}

/// A material variant asked for by a name the model does not have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("there is no material variant '{name}'{}", listed(variants))]
pub struct NoSuchVariant {
    pub name: String,
    /// The model's variants.
    pub variants: Vec<String>,
}

fn listed(variants: &[String]) -> String {
    if variants.is_empty() {
        ": the model has none".into()
    } else {
        format!("; the model's variants are: {}", variants.join(", "))
    }
}

/// An image as stored in the file (PNG, JPEG, ...); decoding is left to whoever displays it.
#[derive(Clone, Debug)]
pub struct Image {
    pub name: String,
    pub mime_type: Option<String>,
    /// Encoded bytes; empty when an external image file could not be read (see warnings).
    /// Shared: images reading the same buffer view hold one copy, so a file cannot multiply
    /// its bytes by naming one view from many images.
    pub bytes: Arc<[u8]>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::{JointDesc, Transform};

    fn two_joints() -> Skeleton {
        let joint = |name: &str, parent| JointDesc {
            name: name.into(),
            parent,
            rest: Transform::IDENTITY,
            bind_model: None,
            morph_weights: Vec::new(),
        };
        Skeleton::new(vec![joint("root", None), joint("tip", Some(0))]).unwrap()
    }

    #[test]
    fn a_new_model_of_a_file_has_its_skeleton_and_the_file_alone() {
        let model = Model::new(PathBuf::from("rig.glb"), Some(Format::GltfBinary), two_joints());
        assert_eq!(model.path, PathBuf::from("rig.glb"));
        assert_eq!(model.format, Some(Format::GltfBinary));
        assert_eq!(model.source_files, [PathBuf::from("rig.glb")]);
        assert_eq!(model.skeleton.len(), 2);
        assert_eq!(model.file_node, [0, 1]);
        assert!(model.meshes.is_empty() && model.skins.is_empty() && model.clips.is_empty());
        assert!(model.warnings.is_empty() && model.avatar.is_none() && model.scene.is_none());
        assert_eq!((model.vertex_count(), model.triangle_count()), (0, 0));
    }

    #[test]
    fn a_model_made_in_memory_has_no_files_to_watch() {
        let model = Model::new(PathBuf::from("demo"), None, two_joints());
        assert!(model.source_files.is_empty());
        assert_eq!(model.file_node, [0, 1]);
    }
}
