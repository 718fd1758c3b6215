//! What a pose's animated properties (`asset::animated`) change in the drawn model: the
//! uniforms of animated materials, rewritten each frame from the pose's values over the
//! file's; the lights' animated values; and which draws and lights are hidden
//! (KHR_node_visibility hides a node and its subtree). The skeleton overlay still draws
//! hidden joints: it shows the rig, not the scene.
//! Everything here is sized once per model, so a frame allocates nothing.

use super::layer_variant::LayerVariant;
use super::textures::MaterialBinding;
use super::uniforms::MaterialUniform;
use crate::anim::Pose;
use crate::asset::{Material, Model, PunctualLight};

pub struct AnimatedState {
    /// The model's materials, with this frame's animated values written over them.
    materials: Vec<Material>,
    /// Per joint, whether it is shown this frame.
    visible: Vec<bool>,
}

impl AnimatedState {
    pub fn new(model: &Model) -> Self {
        let animates_materials = !model.properties.animated_materials().is_empty();
        Self {
            materials: if animates_materials {
                model.materials.clone()
            } else {
                Vec::new()
            },
            visible: vec![true; model.skeleton.len()],
        }
    }

    /// Rewrites the uniforms of the materials some clip animates, with `pose`'s values, and
    /// which pipelines their draws take (a clip may turn a layer or transmission on or off).
    pub fn upload_materials(
        &mut self,
        queue: &wgpu::Queue,
        model: &Model,
        pose: &Pose,
        bindings: &mut [MaterialBinding],
    ) {
        model
            .properties
            .apply_to_materials(pose.properties(), &mut self.materials);
        for &index in model.properties.animated_materials() {
            let (Some(material), Some(binding)) = (self.materials.get(index), bindings.get_mut(index)) else {
                continue;
            };
            binding.layers = LayerVariant::of(material, &binding.present);
            binding.transmissive = material.layers.transmits();
            let uniform = MaterialUniform::new(material, binding.present);
            queue.write_buffer(&binding.uniform, 0, bytemuck::bytes_of(&uniform));
        }
    }

    /// Works out which joints `pose` shows; false when the model hides nothing ever (then
    /// every joint is shown and nothing was worked out).
    pub fn update_visibility(&mut self, model: &Model, pose: &Pose) -> bool {
        if !model.properties.has_visibility() {
            return false;
        }
        model
            .properties
            .visible_joints(model.skeleton.hierarchy(), pose.properties(), &mut self.visible);
        true
    }

    /// Whether `joint` is shown, as of the last `update_visibility`.
    pub fn is_visible(&self, joint: usize) -> bool {
        self.visible.get(joint).copied().unwrap_or(true)
    }
}

/// The file's lights as the pose animates them, less those on hidden nodes. Kept by the
/// renderer across frames and models: its buffers are reused.
#[derive(Default)]
pub struct AnimatedLights {
    lights: Vec<PunctualLight>,
    visible: Vec<bool>,
}

impl AnimatedLights {
    /// `model`'s lights in `pose` that shine (their nodes are shown).
    pub fn shown<'a>(&'a mut self, model: &Model, pose: &Pose) -> impl Iterator<Item = &'a PunctualLight> {
        let properties = &model.properties;
        // Field by field: a derived `clone_from` would allocate each light's name anew every
        // frame, where String's own reuses the buffer.
        self.lights.truncate(model.lights.len());
        for (index, light) in model.lights.iter().enumerate() {
            match self.lights.get_mut(index) {
                Some(kept) => {
                    kept.name.clone_from(&light.name);
                    let PunctualLight {
                        kind,
                        color,
                        intensity,
                        range,
                        joint,
                        ..
                    } = *light;
                    (kept.kind, kept.color, kept.intensity, kept.range, kept.joint) =
                        (kind, color, intensity, range, joint);
                }
                None => self.lights.push(light.clone()),
            }
        }
        properties.apply_to_lights(pose.properties(), &mut self.lights);
        self.visible.resize(model.skeleton.len(), true);
        properties.visible_joints(model.skeleton.hierarchy(), pose.properties(), &mut self.visible);
        let visible = &self.visible;
        self.lights
            .iter()
            .filter(move |light| visible.get(light.joint).copied().unwrap_or(true))
    }
}
