//! A written texture as a material's slot refers to it: the core `textureInfo` of glTF's own
//! slots, or the JSON of one inside a material extension (KHR_materials_*, VRMC_materials_mtoon).

use gltf_json as json;
use serde_json::{Map, Value, json};

/// A reference to a written texture, as a material's slot holds it.
pub struct TextureInfo {
    /// The glTF texture.
    pub index: json::Index<json::Texture>,
    /// The TEXCOORD set it reads.
    pub tex_coord: u32,
    /// KHR_texture_transform, where the transform is not the identity.
    pub extensions: Map<String, Value>,
}

impl TextureInfo {
    /// As a core `textureInfo` (base colour, metallic-roughness, emissive).
    pub fn core(&self) -> json::texture::Info {
        json::texture::Info {
            index: self.index,
            tex_coord: self.tex_coord,
            extensions: self.core_extensions(),
            extras: None,
        }
    }

    /// Its extensions in gltf_json's struct of a core texture info's (none without any).
    pub fn core_extensions<T: HasOthers + Default>(&self) -> Option<T> {
        if self.extensions.is_empty() {
            return None;
        }
        let mut extensions = T::default();
        extensions.others().extend(self.extensions.clone());
        Some(extensions)
    }

    /// As the JSON of a texture info inside an extension: `index`, `texCoord` where it is not
    /// 0, `extensions` where there are any.
    pub fn to_json(&self) -> Map<String, Value> {
        let mut info = Map::new();
        info.insert("index".into(), json!(self.index.value()));
        if self.tex_coord != 0 {
            info.insert("texCoord".into(), json!(self.tex_coord));
        }
        if !self.extensions.is_empty() {
            info.insert("extensions".into(), Value::Object(self.extensions.clone()));
        }
        info
    }
}

/// gltf_json's extension structs of texture infos, which hold everything in `others`.
pub trait HasOthers {
    /// The extensions by name, as raw JSON.
    fn others(&mut self) -> &mut Map<String, Value>;
}

macro_rules! has_others {
    ($($ty:ty),*) => {
        $(impl HasOthers for $ty {
            fn others(&mut self) -> &mut Map<String, Value> {
                &mut self.others
            }
        })*
    };
}

has_others!(
    json::extensions::texture::Info,
    json::extensions::material::NormalTexture,
    json::extensions::material::OcclusionTexture
);
