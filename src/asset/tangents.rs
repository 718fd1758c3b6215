//! Tangents where a normal map needs them and the file has none: MikkTSpace, as glTF asks
//! ("When tangents are not specified, client implementations SHOULD calculate tangents using
//! default MikkTSpace algorithms") and as Blender bakes normal maps against.

use bevy_mikktspace::{Geometry, TangentSpace, generate_tangents};
use glam::{Vec2, Vec3, Vec4};

use super::material::{Material, MaterialTexture};
use super::model::{Model, Primitive, Topology};

/// Gives every triangle primitive whose material (in any variant) reads a tangent frame, and
/// which has normals from the file (or smooth computed ones) and the texture coordinates that
/// frame follows, MikkTSpace tangents when it has none.
pub fn generate_missing(model: &mut Model) {
    let materials = &model.materials;
    for primitive in model.meshes.iter_mut().flat_map(|m| &mut m.primitives) {
        if !primitive.tangents.is_empty() || primitive.flat_shaded || primitive.topology != Topology::Triangles {
            continue;
        }
        let variants = primitive.variant_materials.iter().map(|v| v.material);
        let frame_set = (primitive.material.into_iter().chain(variants))
            .filter_map(|index| materials.get(index))
            .find_map(tangent_frame_set);
        let uvs = match frame_set {
            Some(0) => &primitive.uvs,
            Some(_) => &primitive.uvs1,
            None => continue,
        };
        if uvs.len() != primitive.vertex_count() {
            continue;
        }
        primitive.tangents = mikktspace_tangents(&primitive.positions, &primitive.normals, uvs, &primitive.indices);
        primitive.tangents_generated = true;
    }
}

/// The texture coordinate set whose tangent frame `material` reads (its normal map's, else its
/// clear coat normal map's, else TEXCOORD_0 for anisotropy), or None when it reads none.
fn tangent_frame_set(material: &Material) -> Option<u32> {
    let maps = [MaterialTexture::Normal, MaterialTexture::ClearcoatNormal];
    let map = maps.iter().find_map(|texture| texture.of(material));
    match map {
        Some(texture) => Some(texture.tex_coord),
        None => (material.layers.anisotropy > 0.0).then_some(0),
    }
}

/// MikkTSpace tangents of an indexed triangle list, with glTF's handedness: the bitangent
/// `cross(normal, tangent) * w` points along −V, up the texture, where a normal map's green
/// points. (MikkTSpace's bitangent runs along its second coordinate, so V goes in flipped.)
/// A vertex on degenerate triangles only gets a zero tangent, which the renderer replaces by
/// the texture coordinates' derivatives.
pub fn mikktspace_tangents(positions: &[Vec3], normals: &[Vec3], uvs: &[Vec2], indices: &[u32]) -> Vec<Vec4> {
    let mut geometry = MikkGeometry {
        positions,
        normals,
        uvs,
        indices,
        tangents: vec![Vec4::ZERO; positions.len()],
    };
    // The crate's error type has no values: generation cannot fail.
    let _ = generate_tangents(&mut geometry);
    geometry.tangents
}

struct MikkGeometry<'a> {
    positions: &'a [Vec3],
    normals: &'a [Vec3],
    uvs: &'a [Vec2],
    indices: &'a [u32],
    tangents: Vec<Vec4>,
}

impl MikkGeometry<'_> {
    fn vertex(&self, face: usize, corner: usize) -> usize {
        self.indices[face * 3 + corner] as usize
    }
}

impl Geometry for MikkGeometry<'_> {
    fn num_faces(&self) -> usize {
        self.indices.len() / 3
    }

    fn num_vertices_of_face(&self, _face: usize) -> usize {
        3
    }

    fn position(&self, face: usize, corner: usize) -> [f32; 3] {
        self.positions[self.vertex(face, corner)].to_array()
    }

    fn normal(&self, face: usize, corner: usize) -> [f32; 3] {
        self.normals[self.vertex(face, corner)].to_array()
    }

    fn tex_coord(&self, face: usize, corner: usize) -> [f32; 2] {
        let uv = self.uvs[self.vertex(face, corner)];
        [uv.x, 1.0 - uv.y]
    }

    fn set_tangent(&mut self, tangent: Option<TangentSpace>, face: usize, corner: usize) {
        let vertex = self.vertex(face, corner);
        self.tangents[vertex] = tangent.map_or(Vec4::ZERO, |t| Vec4::from(t.tangent_encoded()));
    }
}

/// The file's tangents made usable: a unit direction (zero where it is not finite or has no
/// length, so the renderer falls back to derivatives there) and a handedness of ±1.
pub fn cleaned(tangent: Vec4) -> Vec4 {
    let direction = tangent.truncate();
    let direction = match direction.is_finite() {
        true => direction.normalize_or_zero(),
        false => Vec3::ZERO,
    };
    direction.extend(if tangent.w < 0.0 { -1.0 } else { 1.0 })
}

impl Primitive {
    /// Its tangent frame's source, as `inspect` names it.
    pub fn tangent_source(&self) -> Option<&'static str> {
        match (self.tangents.is_empty(), self.tangents_generated) {
            (true, _) => None,
            (false, true) => Some("TANGENT (generated: MikkTSpace)"),
            (false, false) => Some("TANGENT"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit quad in the XY plane facing +Z, U along +X and V down (glTF's image order).
    fn quad() -> (Vec<Vec3>, Vec<Vec3>, Vec<Vec2>, Vec<u32>) {
        let positions = vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y];
        let uvs = vec![
            Vec2::new(0.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 0.0),
            Vec2::ZERO,
        ];
        (positions, vec![Vec3::Z; 4], uvs, vec![0, 1, 2, 0, 2, 3])
    }

    #[test]
    fn the_tangent_runs_along_u_and_the_bitangent_up_the_texture() {
        let (positions, normals, uvs, indices) = quad();
        let tangents = mikktspace_tangents(&positions, &normals, &uvs, &indices);
        for tangent in &tangents {
            assert!(tangent.truncate().distance(Vec3::X) < 1e-5, "{tangent}");
            // V decreases along +Y, so glTF's bitangent (−V) is +Y: cross(Z, X) = Y, w = 1.
            let bitangent = Vec3::Z.cross(tangent.truncate()) * tangent.w;
            assert!(bitangent.distance(Vec3::Y) < 1e-5, "{bitangent}");
        }
    }

    #[test]
    fn mirrored_texture_coordinates_flip_the_handedness() {
        let (positions, normals, mut uvs, indices) = quad();
        uvs.iter_mut().for_each(|uv| uv.x = 1.0 - uv.x);
        let tangents = mikktspace_tangents(&positions, &normals, &uvs, &indices);
        for tangent in &tangents {
            assert!(tangent.truncate().distance(-Vec3::X) < 1e-5, "{tangent}");
            let bitangent = Vec3::Z.cross(tangent.truncate()) * tangent.w;
            assert!(
                bitangent.distance(Vec3::Y) < 1e-5,
                "the bitangent still points up: {bitangent}"
            );
        }
    }

    #[test]
    fn only_materials_that_read_a_tangent_frame_get_tangents() {
        let (positions, normals, uvs, indices) = quad();
        let primitive = |material| Primitive {
            positions: positions.clone(),
            normals: normals.clone(),
            uvs: uvs.clone(),
            indices: indices.clone(),
            material: Some(material),
            ..Primitive::default()
        };
        let mut model = crate::asset::demo::demo_model();
        let plain = Material::default();
        let normal_mapped = Material {
            normal_texture: Some(crate::asset::TextureRef::plain(0)),
            ..Material::default()
        };
        let mut anisotropic = Material::default();
        anisotropic.layers.anisotropy = 0.5;
        model.materials = vec![plain, normal_mapped, anisotropic];
        let mut flat = primitive(1);
        flat.flat_shaded = true;
        let mut given = primitive(1);
        given.tangents = vec![Vec4::new(0.0, 1.0, 0.0, -1.0); 4];
        model.meshes[0].primitives = vec![primitive(0), primitive(1), primitive(2), flat, given];
        generate_missing(&mut model);
        let generated: Vec<bool> = model.meshes[0]
            .primitives
            .iter()
            .map(|p| p.tangents_generated)
            .collect();
        assert_eq!(generated, [false, true, true, false, false]);
        let given = &model.meshes[0].primitives[4];
        assert_eq!(given.tangents[0], Vec4::new(0.0, 1.0, 0.0, -1.0), "the file's are kept");
        assert_eq!(given.tangent_source(), Some("TANGENT"));
        assert_eq!(
            model.meshes[0].primitives[1].tangent_source(),
            Some("TANGENT (generated: MikkTSpace)")
        );
    }

    #[test]
    fn bad_tangents_in_a_file_become_zero_or_unit() {
        assert_eq!(
            cleaned(Vec4::new(f32::NAN, 0.0, 1.0, 1.0)),
            Vec4::new(0.0, 0.0, 0.0, 1.0)
        );
        assert_eq!(cleaned(Vec4::new(0.0, 0.0, 2.0, -0.5)), Vec4::new(0.0, 0.0, 1.0, -1.0));
        assert_eq!(cleaned(Vec4::new(3.0, 0.0, 0.0, 0.0)), Vec4::new(1.0, 0.0, 0.0, 1.0));
    }
}
