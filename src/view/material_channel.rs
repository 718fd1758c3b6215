//! Material debug views, as the glTF Sample Viewer has them: one input of the lighting shown
//! as it is, so a technical artist can see which texture went into which slot.

/// One input of the lighting, drawn instead of the lit picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaterialChannel {
    /// The base colour (factor × texture × vertex colour), as authored.
    BaseColor,
    /// Its alpha, black (0) to white (1).
    Alpha,
    /// Metallic and roughness, black (0) to white (1): with specular-glossiness, metallic is
    /// 0 and roughness is 1 − glossiness.
    Metallic,
    Roughness,
    /// The occlusion texture's value (white without one).
    Occlusion,
    /// Emissive colour × strength (clipped at 1).
    Emissive,
    /// The interpolated vertex normal, and the normal lighting uses (after the normal map),
    /// each as colour: x → red, y → green, z → blue, from −1 (0) to 1 (1).
    GeometricNormal,
    ShadingNormal,
    /// Texture coordinates: u → red, v → green, their fraction (a repeat shows as a repeat).
    TexCoord0,
    TexCoord1,
    /// KHR_materials_transmission's share of the light let through (factor × texture), black
    /// (0) to white (1).
    Transmission,
    /// KHR_materials_volume's thickness over its factor: the thickness texture's share (white
    /// without one; black where the factor is 0).
    Thickness,
    /// KHR_materials_clearcoat's strength, black (0) to white (1).
    Clearcoat,
    /// KHR_materials_sheen's colour, as authored.
    Sheen,
    /// KHR_materials_iridescence's strength, black (0) to white (1).
    Iridescence,
    /// The tangent frame normal maps and anisotropy use (the file's TANGENT or MikkTSpace's,
    /// else from TEXCOORD_0's derivatives), each as colour like the normals.
    Tangent,
    Bitangent,
    /// The normal texture as stored (tangent space: flat is (0.5, 0.5, 1)), black without one.
    NormalTexture,
}

impl MaterialChannel {
    pub const ALL: [MaterialChannel; 18] = [
        Self::BaseColor,
        Self::Alpha,
        Self::Metallic,
        Self::Roughness,
        Self::Occlusion,
        Self::Emissive,
        Self::GeometricNormal,
        Self::ShadingNormal,
        Self::TexCoord0,
        Self::TexCoord1,
        Self::Transmission,
        Self::Thickness,
        Self::Clearcoat,
        Self::Sheen,
        Self::Iridescence,
        Self::Tangent,
        Self::Bitangent,
        Self::NormalTexture,
    ];

    /// What the panel calls it.
    pub fn label(self) -> &'static str {
        match self {
            Self::BaseColor => "Base colour",
            Self::Alpha => "Alpha",
            Self::Metallic => "Metallic",
            Self::Roughness => "Roughness",
            Self::Occlusion => "Occlusion",
            Self::Emissive => "Emissive",
            Self::GeometricNormal => "Geometric normal",
            Self::ShadingNormal => "Shading normal (normal map)",
            Self::TexCoord0 => "Texture coordinates 0",
            Self::TexCoord1 => "Texture coordinates 1",
            Self::Transmission => "Transmission",
            Self::Thickness => "Volume thickness",
            Self::Clearcoat => "Clear coat",
            Self::Sheen => "Sheen colour",
            Self::Iridescence => "Iridescence",
            Self::Tangent => "Tangent",
            Self::Bitangent => "Bitangent",
            Self::NormalTexture => "Normal texture",
        }
    }

    /// Its number in mesh.wgsl (`CHANNEL_*`; 0 is the lit picture).
    pub fn shader_code(self) -> u32 {
        self as u32 + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_channel_has_its_number_in_the_shader() {
        let shader = include_str!("../../shaders/mesh.wgsl");
        for channel in MaterialChannel::ALL {
            // BaseColor → BASE_COLOR, TexCoord0 → TEX_COORD_0.
            let mut name = String::new();
            for (i, c) in format!("{channel:?}").chars().enumerate() {
                if i > 0 && (c.is_ascii_uppercase() || c.is_ascii_digit()) {
                    name.push('_');
                }
                name.push(c.to_ascii_uppercase());
            }
            let declaration = format!("const CHANNEL_{name}: u32 = {}u;", channel.shader_code());
            assert!(shader.contains(&declaration), "mesh.wgsl lacks `{declaration}`");
            assert!(
                shader.contains(&format!("case CHANNEL_{name}:")),
                "mesh.wgsl draws no {name}"
            );
        }
    }
}
