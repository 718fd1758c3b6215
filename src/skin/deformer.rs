//! Poses a whole model on the CPU: morph targets, then skinning or rigid placement, for every
//! primitive of every mesh instance, in model (world) space.

use glam::{Mat3A, Mat4, Vec3, Vec3A, Vec4};

use super::SkinningMethod;
use super::dual_quat::{DualQuatJoint, dual_quat_palette, skin_dual_quat_blended};
use super::linear::{BindVertices, SkinnedVertices, skin_linear, transform_rigid, unit_or_zero};
use super::morph::morph;
use super::palette::{PaletteRows, normal_palette, row_palette, skin_palette};
use super::split::InfluenceSplit;
use super::split_linear::{LinearPalette, skin_linear_split};
use super::workers;
use crate::anim::Pose;
use crate::asset::{Model, Primitive};

/// One primitive of one mesh instance, posed.
#[derive(Clone, Debug)]
pub struct PosedPrimitive {
    /// Index into `Model::instances`.
    pub instance: usize,
    /// Index into the instance's mesh's primitives.
    pub primitive: usize,
    pub positions: Vec<Vec3>,
    /// Not unit length where linear blend skinning took the split kernels (see
    /// `skin::split_linear`): normalise before use where length matters.
    pub normals: Vec<Vec3>,
    pub tangents: Vec<Vec4>,
    morphed: MorphedBind,
}

/// Bind-space attributes after morph targets (empty when the primitive has none).
#[derive(Clone, Debug, Default)]
struct MorphedBind {
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    tangents: Vec<Vec4>,
}

/// (instance, primitive) pairs in the order `Deformer::primitives` lists them: instance order,
/// then the mesh's primitive order. The renderer keeps its draws in the same order.
pub fn posed_order(model: &Model) -> impl Iterator<Item = (usize, usize)> + '_ {
    model
        .instances
        .iter()
        .enumerate()
        .flat_map(|(i, instance)| (0..model.meshes[instance.mesh].primitives.len()).map(move |p| (i, p)))
}

/// Primitives this big are skinned on every core by default: below it, waking the other
/// threads costs more than they save (measured with `benches/skinning.rs`).
pub const PARALLEL_MIN_VERTICES: usize = 20_000;

/// Owns every buffer posing needs, so that `update` allocates nothing.
pub struct Deformer {
    /// One palette per skin (bind space → model space per skin joint), and its normal matrices.
    palettes: Vec<Vec<Mat4>>,
    normal_palettes: Vec<Vec<Mat3A>>,
    /// Each palette's rows (only kept up to date with linear blend skinning).
    row_palettes: Vec<Vec<PaletteRows>>,
    /// Each palette split for dual-quaternion skinning (only kept up to date with that method).
    dual_quat_palettes: Vec<Vec<DualQuatJoint>>,
    /// Which skins the primitives posed this frame use (their normal, row and dual-quaternion
    /// palettes are brought up to date).
    skins_used: Vec<bool>,
    primitives: Vec<PosedPrimitive>,
    /// Per posed primitive, its influences split by count for linear blend skinning: skinned
    /// primitives without tangents (those with tangents take the general kernel).
    splits: Vec<Option<InfluenceSplit>>,
    /// Primitives with at least this many vertices are skinned on every core.
    parallel_min_vertices: usize,
    /// The model matrices `update_all` computes, for callers that have none of their own.
    model_matrices: Vec<Mat4>,
}

impl Deformer {
    pub fn new(model: &Model) -> Self {
        let primitives = posed_order(model)
            .map(|(instance, primitive_index)| {
                let primitive = &model.meshes[model.instances[instance].mesh].primitives[primitive_index];
                let vertices = primitive.vertex_count();
                let morphs = !primitive.morph_targets.is_empty();
                let morph_len = |n: usize| if morphs { n } else { 0 };
                PosedPrimitive {
                    instance,
                    primitive: primitive_index,
                    positions: vec![Vec3::ZERO; vertices],
                    normals: vec![Vec3::ZERO; vertices],
                    tangents: vec![Vec4::ZERO; primitive.tangents.len()],
                    morphed: MorphedBind {
                        positions: vec![Vec3::ZERO; morph_len(vertices)],
                        normals: vec![Vec3::ZERO; morph_len(vertices)],
                        tangents: vec![Vec4::ZERO; morph_len(primitive.tangents.len())],
                    },
                }
            })
            .collect();
        let splits = posed_order(model)
            .map(|(instance, primitive)| {
                let primitive = &model.meshes[model.instances[instance].mesh].primitives[primitive];
                let weights = primitive.skin_weights.as_ref()?;
                let skinned = model.instances[instance].skin.is_some() && primitive.tangents.is_empty();
                skinned.then(|| InfluenceSplit::new(weights.into()))
            })
            .collect();
        Self {
            splits,
            parallel_min_vertices: PARALLEL_MIN_VERTICES,
            palettes: model
                .skins
                .iter()
                .map(|s| vec![Mat4::IDENTITY; s.joints.len()])
                .collect(),
            normal_palettes: model
                .skins
                .iter()
                .map(|s| vec![Mat3A::IDENTITY; s.joints.len()])
                .collect(),
            row_palettes: model
                .skins
                .iter()
                .map(|s| vec![PaletteRows([Vec4::ZERO; 3]); s.joints.len()])
                .collect(),
            dual_quat_palettes: model
                .skins
                .iter()
                .map(|s| vec![DualQuatJoint::default(); s.joints.len()])
                .collect(),
            skins_used: vec![false; model.skins.len()],
            primitives,
            model_matrices: vec![Mat4::IDENTITY; model.skeleton.len()],
        }
    }

    /// Primitives with at least `vertices` vertices are skinned on every core from now on
    /// (default [`PARALLEL_MIN_VERTICES`]; `usize::MAX` keeps skinning on the calling thread).
    #[cfg(any(test, feature = "internals"))]
    pub fn set_parallel_min_vertices(&mut self, vertices: usize) {
        self.parallel_min_vertices = vertices;
    }

    /// The posed primitives, in instance order then primitive order.
    pub fn primitives(&self) -> &[PosedPrimitive] {
        &self.primitives
    }

    /// Skin `skin`'s palette for the last pose: per skin joint, bind space → model space.
    /// The GPU's storage-buffer skinning uploads it as it is.
    pub fn palette(&self, skin: usize) -> &[Mat4] {
        &self.palettes[skin]
    }

    /// Poses `model` (the model this deformer was made for): every skin's palette from
    /// `model_matrices` (the pose's joint → model matrices, computed once by the caller), then
    /// the primitives whose index in `primitives()` passes `wanted` (the GPU skins the
    /// others), blending joints by `method`. Morph weights come from `pose`.
    pub fn update(
        &mut self,
        model: &Model,
        pose: &Pose,
        model_matrices: &[Mat4],
        method: SkinningMethod,
        wanted: impl Fn(usize) -> bool,
    ) {
        self.update_palettes(model, model_matrices, method, &wanted);
        for (index, (posed, split)) in self.primitives.iter_mut().zip(&self.splits).enumerate() {
            if !wanted(index) {
                continue;
            }
            let instance = model.instances[posed.instance];
            let primitive = &model.meshes[instance.mesh].primitives[posed.primitive];
            let morph_weights = &pose.morph_weights()[model.skeleton.morph_weight_range(instance.joint)];
            let (positions, normals, tangents) = morphed_bind_vertices(primitive, morph_weights, &mut posed.morphed);
            let palette = instance.skin.map(|skin| {
                (
                    LinearPalette {
                        matrices: &self.palettes[skin],
                        normals: &self.normal_palettes[skin],
                        rows: &self.row_palettes[skin],
                    },
                    &self.dual_quat_palettes[skin],
                )
            });
            let input = BindVertices {
                positions,
                normals,
                tangents,
            };
            let output = SkinnedVertices {
                positions: &mut posed.positions,
                normals: &mut posed.normals,
                tangents: &mut posed.tangents,
            };
            let workers = (input.positions.len() >= self.parallel_min_vertices).then(workers::global);
            match (palette, &primitive.skin_weights) {
                (Some((palette, dual_quats)), Some(weights)) => match (method, split) {
                    (SkinningMethod::Linear, Some(split)) => {
                        skin_linear_split(palette, split, weights.into(), input, output, workers)
                    }
                    (SkinningMethod::Linear, None) => {
                        skin_linear(palette.matrices, palette.normals, weights.into(), input, output)
                    }
                    (SkinningMethod::DualQuaternion, _) => skin_dual_quat_blended(
                        palette.matrices,
                        palette.normals,
                        dual_quats,
                        &weights.dual_quat_weights,
                        weights.into(),
                        input,
                        output,
                    ),
                },
                // Unskinned (or a skinned node whose primitive has no weights): the joint
                // carries the mesh rigidly.
                _ => transform_rigid(&model_matrices[instance.joint], input, output),
            }
        }
    }

    /// Every skin's palette; the normal palettes, and the row (linear blend) or split (dual
    /// quaternion) palettes, of the
    /// skins that the primitives `wanted` this frame use.
    fn update_palettes(
        &mut self,
        model: &Model,
        model_matrices: &[Mat4],
        method: SkinningMethod,
        wanted: &impl Fn(usize) -> bool,
    ) {
        self.skins_used.fill(false);
        for (index, posed) in self.primitives.iter().enumerate() {
            if let Some(skin) = model.instances[posed.instance].skin
                && wanted(index)
            {
                self.skins_used[skin] = true;
            }
        }
        for (((((skin, palette), normals), rows), dual_quats), used) in model
            .skins
            .iter()
            .zip(&mut self.palettes)
            .zip(&mut self.normal_palettes)
            .zip(&mut self.row_palettes)
            .zip(&mut self.dual_quat_palettes)
            .zip(&self.skins_used)
        {
            skin_palette(&skin.joints, &skin.inverse_bind, model_matrices, palette);
            if !used {
                continue;
            }
            normal_palette(palette, normals);
            match method {
                SkinningMethod::Linear => row_palette(palette, rows),
                SkinningMethod::DualQuaternion => dual_quat_palette(palette, dual_quats),
            }
        }
    }

    /// Poses every primitive with `pose`, for callers without a frame's model matrices (the
    /// `pose` command, framing, tests): computes them itself, see `model_matrices`.
    pub fn update_all(&mut self, model: &Model, pose: &Pose, method: SkinningMethod) {
        // Taken out while `update` borrows the deformer (an empty Vec costs no allocation).
        let mut model_matrices = std::mem::take(&mut self.model_matrices);
        pose.model_matrices(&mut model_matrices);
        self.update(model, pose, &model_matrices, method, |_| true);
        self.model_matrices = model_matrices;
    }

    /// The joint → model matrices of the pose `update_all` last posed.
    pub fn model_matrices(&self) -> &[Mat4] {
        &self.model_matrices
    }
}

/// The primitive's bind-space attributes after its morph targets (its own arrays when it has
/// none). Normals and tangents are renormalised; tangents keep their handedness.
fn morphed_bind_vertices<'a>(
    primitive: &'a Primitive,
    weights: &[f32],
    morphed: &'a mut MorphedBind,
) -> (&'a [Vec3], &'a [Vec3], &'a [Vec4]) {
    if primitive.morph_targets.is_empty() {
        return (&primitive.positions, &primitive.normals, &primitive.tangents);
    }
    let targets = || primitive.morph_targets.iter().zip(weights.iter().copied());
    morph(
        &primitive.positions,
        targets().map(|(t, w)| (&t.positions[..], w)),
        &mut morphed.positions,
    );
    morph(
        &primitive.normals,
        targets().map(|(t, w)| (&t.normals[..], w)),
        &mut morphed.normals,
    );
    for normal in &mut morphed.normals {
        *normal = Vec3::from(unit_or_zero(Vec3A::from(*normal)));
    }
    morphed.tangents.copy_from_slice(&primitive.tangents);
    for (target, weight) in targets() {
        if weight == 0.0 || target.tangents.len() != morphed.tangents.len() {
            continue;
        }
        for (tangent, delta) in morphed.tangents.iter_mut().zip(&target.tangents) {
            *tangent += (*delta * weight).extend(0.0);
        }
    }
    for tangent in &mut morphed.tangents {
        *tangent = Vec3::from(unit_or_zero(Vec3A::from_vec4(*tangent))).extend(tangent.w);
    }
    (&morphed.positions, &morphed.normals, &morphed.tangents)
}
