//! Values per vertex that the renderer shows as colours instead of the material. Each value is
//! worked out at the vertex from its own influences (a joint's weight is summed over the
//! vertex's influences on that joint), so colours blend across a triangle but joint indices
//! never do.

use crate::asset::{Model, VertexRepair};

/// What the mesh's colours show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VertexView {
    /// The joint's weight at each vertex (0 to 1); a mesh carried rigidly by the joint is 1.
    Weights(usize),
    /// How many influences (joints with a weight above zero) each vertex has (0 for meshes no
    /// skin deforms).
    Influences,
    /// Vertices whose weights in the file did not sum to 1, or were all zero.
    NotNormalised,
    /// Vertices that had more than 8 influences in the file and lost the weakest.
    Capped,
    /// The distance between the CPU's and the GPU's skinning of each vertex (the renderer
    /// measures it each frame; see `render::skin_compare`); grey where it measures nothing.
    SkinDifference,
    /// The compare view's heat map: how much each vertex's weights changed in the model
    /// compared with (`diff::RigDiff::vertex_weight_change`, 0 to 1; the renderer writes it
    /// from the comparison).
    WeightChange,
}

/// How a view's values map to colours (mirrored in mesh.wgsl's `inspect_color`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ramp {
    /// 0 to 1: blue, cyan, green, yellow, red; below 0 (not measured): grey.
    Heat = 1,
    /// A small whole number: a distinct colour each (0 grey, 1 blue, 2 green, 3 yellow,
    /// 4 orange, 5 and more red to magenta).
    Count = 2,
    /// 0 or 1: grey, or magenta for the vertices flagged.
    Flag = 3,
}

impl VertexView {
    pub fn ramp(self) -> Ramp {
        match self {
            Self::Weights(_) | Self::SkinDifference | Self::WeightChange => Ramp::Heat,
            Self::Influences => Ramp::Count,
            Self::NotNormalised | Self::Capped => Ramp::Flag,
        }
    }

    /// Writes the value of each vertex of one primitive of one mesh instance into `out` (its
    /// vertex count long). `SkinDifference` is measured on the GPU and `WeightChange` comes
    /// from a comparison: they write nothing here.
    pub fn fill(self, model: &Model, instance: usize, primitive: usize, out: &mut [f32]) {
        let instance = model.instances[instance];
        let primitive = &model.meshes[instance.mesh].primitives[primitive];
        let skin = instance.skin.and_then(|s| model.skins.get(s));
        let weights = primitive.skin_weights.as_ref().filter(|_| skin.is_some());
        let flag = |bit: u8| {
            move |repairs: &[u8], out: &mut [f32]| {
                for (value, &repair) in out.iter_mut().zip(repairs) {
                    *value = f32::from(u8::from(repair & bit != 0));
                }
            }
        };
        match (self, skin, weights) {
            (Self::SkinDifference | Self::WeightChange, ..) => {}
            (Self::Weights(joint), Some(skin), Some(weights)) => {
                for (vertex, value) in out.iter_mut().enumerate() {
                    *value = weights
                        .influences(vertex)
                        .filter(|&(slot, _)| skin.joints.get(slot) == Some(&joint))
                        .map(|(_, weight)| weight)
                        .sum();
                }
            }
            // A mesh no skin deforms follows its joint rigidly.
            (Self::Weights(joint), ..) => out.fill(f32::from(u8::from(instance.joint == joint))),
            (Self::Influences, _, Some(weights)) => {
                for (vertex, value) in out.iter_mut().enumerate() {
                    *value = weights.influences(vertex).count() as f32;
                }
            }
            (Self::NotNormalised, _, Some(weights)) => flag(VertexRepair::NOT_NORMALISED)(&weights.repairs, out),
            (Self::Capped, _, Some(weights)) => flag(VertexRepair::CAPPED)(&weights.repairs, out),
            (Self::Influences | Self::NotNormalised | Self::Capped, ..) => out.fill(0.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::demo::demo_model;

    fn values(model: &Model, view: VertexView) -> Vec<Vec<f32>> {
        crate::skin::posed_order(model)
            .map(|(instance, primitive)| {
                let mesh = model.instances[instance].mesh;
                let mut out = vec![f32::NAN; model.meshes[mesh].primitives[primitive].vertex_count()];
                view.fill(model, instance, primitive, &mut out);
                out
            })
            .collect()
    }

    #[test]
    fn the_weights_of_all_joints_add_up_to_one_at_every_skinned_vertex() {
        let model = demo_model();
        let per_joint: Vec<_> = (0..model.skeleton.len())
            .map(|joint| values(&model, VertexView::Weights(joint)))
            .collect();
        let skinned = crate::skin::posed_order(&model)
            .position(|(i, _)| model.instances[i].skin.is_some())
            .unwrap();
        let vertices = per_joint[0][skinned].len();
        for vertex in 0..vertices {
            let sum: f32 = per_joint.iter().map(|v| v[skinned][vertex]).sum();
            assert!((sum - 1.0).abs() < 1e-5, "vertex {vertex}: {sum}");
        }
        let influences = &values(&model, VertexView::Influences)[skinned];
        for (vertex, &count) in influences.iter().enumerate() {
            let nonzero = per_joint.iter().filter(|v| v[skinned][vertex] > 0.0).count();
            assert_eq!(count, nonzero as f32, "vertex {vertex}");
        }
    }

    #[test]
    fn the_demo_needed_no_repairs() {
        let model = demo_model();
        for view in [VertexView::NotNormalised, VertexView::Capped] {
            assert!(values(&model, view).iter().flatten().all(|&v| v == 0.0));
        }
    }
}
