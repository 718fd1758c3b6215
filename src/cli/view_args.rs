//! `render`'s rig-inspection options: pose mode, bind-pose ghost, vertex views, the selected
//! joint and bone names (the viewer's joint browser and weight views, headless).

use anyhow::{anyhow, bail};
use clap::{Args, ValueEnum};
use glam::{Mat4, Vec2};
use image::RgbaImage;

use super::text::TextPainter;
use crate::asset::Model;
use crate::inspect::lookup::find_joint;
use crate::inspect::{PoseMode, VertexView};
use crate::view::{MaterialChannel, Viewport, named_joints};

#[derive(Args, Debug, Default)]
pub struct ViewArgs {
    /// Which pose to draw: the animation, the rest pose (the joints as authored) or the bind
    /// pose (the pose the mesh was bound in).
    #[arg(long, value_enum, default_value_t = PoseModeArg::Animated)]
    pub pose_mode: PoseModeArg,
    /// Draw the mesh in its bind pose as a translucent ghost over the posed one.
    #[arg(long)]
    pub bind_ghost: bool,
    /// Colour the mesh by a value per vertex instead of its materials (`weights` needs
    /// --joint).
    #[arg(long, value_enum)]
    pub vertex_view: Option<VertexViewArg>,
    /// The selected joint (a name, a joint index as `rigscope joints` numbers them, or node:N for the file's node N): its bone and axes are drawn, and
    /// `--vertex-view weights` shows its weights.
    #[arg(long, value_name = "JOINT")]
    pub joint: Option<String>,
    /// Write each joint's name next to it (without it, only the selected joint's).
    #[arg(long)]
    pub bone_names: bool,
    /// Draw one input of the lighting instead of the lit picture, as it is (no exposure or
    /// tone curve: a value v is the sRGB level v), to check which texture is in which slot.
    #[arg(long, value_enum, value_name = "NAME")]
    pub channel: Option<ChannelArg>,
}

/// `--channel`'s names for `MaterialChannel`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ChannelArg {
    /// The base colour (factor × texture × vertex colour), as authored.
    BaseColor,
    /// Alpha, black 0 to white 1.
    Alpha,
    /// Metallic, black 0 to white 1 (0 with specular-glossiness).
    Metallic,
    /// Roughness, black 0 to white 1 (1 − glossiness with specular-glossiness).
    Roughness,
    /// The occlusion texture (white without one).
    Occlusion,
    /// Emissive colour × strength, clipped at 1.
    Emissive,
    /// The vertex normal as colour (x red, y green, z blue; −1 is 0, 1 is 1).
    GeometricNormal,
    /// The normal after the normal map, as colour.
    ShadingNormal,
    /// TEXCOORD_0 (u red, v green, their fraction).
    #[value(name = "texcoord0")]
    TexCoord0,
    /// TEXCOORD_1.
    #[value(name = "texcoord1")]
    TexCoord1,
    /// KHR_materials_transmission's share of light let through, black 0 to white 1.
    Transmission,
    /// KHR_materials_volume's thickness texture's share of the thickness factor.
    Thickness,
    /// KHR_materials_clearcoat's strength, black 0 to white 1.
    Clearcoat,
    /// KHR_materials_sheen's colour.
    Sheen,
    /// KHR_materials_iridescence's strength, black 0 to white 1.
    Iridescence,
    /// The tangent that normal maps use (TANGENT, MikkTSpace's, or TEXCOORD_0's), as colour.
    Tangent,
    /// The bitangent that normal maps use, as colour.
    Bitangent,
    /// The normal texture as stored (black without one).
    NormalTexture,
}

impl From<ChannelArg> for MaterialChannel {
    fn from(arg: ChannelArg) -> Self {
        match arg {
            ChannelArg::BaseColor => Self::BaseColor,
            ChannelArg::Alpha => Self::Alpha,
            ChannelArg::Metallic => Self::Metallic,
            ChannelArg::Roughness => Self::Roughness,
            ChannelArg::Occlusion => Self::Occlusion,
            ChannelArg::Emissive => Self::Emissive,
            ChannelArg::GeometricNormal => Self::GeometricNormal,
            ChannelArg::ShadingNormal => Self::ShadingNormal,
            ChannelArg::TexCoord0 => Self::TexCoord0,
            ChannelArg::TexCoord1 => Self::TexCoord1,
            ChannelArg::Transmission => Self::Transmission,
            ChannelArg::Thickness => Self::Thickness,
            ChannelArg::Clearcoat => Self::Clearcoat,
            ChannelArg::Sheen => Self::Sheen,
            ChannelArg::Iridescence => Self::Iridescence,
            ChannelArg::Tangent => Self::Tangent,
            ChannelArg::Bitangent => Self::Bitangent,
            ChannelArg::NormalTexture => Self::NormalTexture,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, ValueEnum)]
pub enum PoseModeArg {
    #[default]
    Animated,
    Rest,
    Bind,
}

impl From<PoseModeArg> for PoseMode {
    fn from(arg: PoseModeArg) -> Self {
        match arg {
            PoseModeArg::Animated => PoseMode::Animated,
            PoseModeArg::Rest => PoseMode::Rest,
            PoseModeArg::Bind => PoseMode::Bind,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum VertexViewArg {
    /// The selected joint's weight: blue 0 to red 1.
    Weights,
    /// Influences per vertex: grey 0, blue 1, green 2, yellow 3, orange 4, red 5, magenta 6,
    /// violet 7+.
    Influences,
    /// Vertices whose weights in the file did not sum to 1 (magenta).
    NotNormalised,
    /// Vertices that lost influences to the 8-influence cap (magenta).
    Capped,
    /// Distance between CPU and GPU skinning, blue (1e-7 of the model's size or less) to red
    /// (1% or more), grey where only the CPU skins; the numbers go to standard error.
    SkinDifference,
}

impl ViewArgs {
    /// The selected joint and the vertex view, checked against `model`.
    pub fn selection(&self, model: &Model) -> anyhow::Result<(Option<usize>, Option<VertexView>)> {
        let joint = self
            .joint
            .as_deref()
            .map(|name| find_joint(model, name).map_err(|e| anyhow!("--joint: {e}")))
            .transpose()?;
        let view = match (self.vertex_view, joint) {
            (None, _) => None,
            (Some(VertexViewArg::Weights), Some(joint)) => Some(VertexView::Weights(joint)),
            (Some(VertexViewArg::Weights), None) => bail!("--vertex-view weights needs --joint JOINT"),
            (Some(VertexViewArg::Influences), _) => Some(VertexView::Influences),
            (Some(VertexViewArg::NotNormalised), _) => Some(VertexView::NotNormalised),
            (Some(VertexViewArg::Capped), _) => Some(VertexView::Capped),
            (Some(VertexViewArg::SkinDifference), _) => Some(VertexView::SkinDifference),
        };
        Ok((joint, view))
    }
}

/// Writes joints' names next to them, with a dark shadow so names read over any background:
/// every joint's when `all`, else the selected one's (in yellow), as the viewer does.
pub fn draw_bone_names(
    image: &mut RgbaImage,
    model: &Model,
    matrices: &[Mat4],
    view: &Viewport,
    (all, selected): (bool, Option<usize>),
) {
    let painter = TextPainter::new();
    let size = (image.height() as f32 / 50.0).clamp(10.0, 18.0);
    for (joint, pixel) in named_joints(matrices, view, all, [selected, None]) {
        let at = pixel + Vec2::new(5.0, -size * 0.5);
        let name = model.skeleton.name(joint);
        let color = if selected == Some(joint) {
            [255, 230, 80]
        } else {
            [235, 235, 240]
        };
        painter.draw(image, name, (at.x + 1.0, at.y + 1.0), size, f32::INFINITY, [10, 10, 12]);
        painter.draw(image, name, (at.x, at.y), size, f32::INFINITY, color);
    }
}
