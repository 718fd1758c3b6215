//! An OBJ's geometry read in one pass over its text, straight into primitives, as ufbx would
//! have built them: the same meshes, vertices in the same order, the same triangles.
//!
//! ufbx keeps every face corner's three indices as 64-bit numbers, then its mesh, while the
//! primitives are built from it: several times the file's size for a large OBJ. This reader
//! keeps only the vertex values (positions as the 64-bit numbers ufbx keeps, for its quad
//! split), each primitive's vertices and indices as they grow, and one map per primitive from
//! what makes a corner a vertex to that vertex. ufbx still reads the file without its geometry
//! (`ignore_geometry`) for everything else: nodes, meshes' names, materials and their library,
//! warnings.
//!
//! It follows ufbx's rules (ufbx.c, `ufbxi_obj_parse_indices` and `ufbx_triangulate_face`):
//! - a new mesh starts at a face after an `o` line, or after a `g` line while no object has
//!   been named (or always, where ZBrush wrote the file: its groups are one mesh);
//! - a face's material is its mesh's index of the last `usemtl`'s material, counted in the
//!   order the mesh first uses each (a material first used by an earlier mesh counts anew);
//! - a vertex is one combination of position index, normal value and UV value, per primitive
//!   (one per material used and per kind: triangles, lines from `l` and two-corner faces,
//!   points from `p` and one-corner faces), numbered in order of first use;
//! - a quad is split along its shorter diagonal unless the other keeps both halves facing
//!   the same way; a face of more corners is ear-clipped by ufbx's own code; a mesh is smooth
//!   when any of its faces follows an `s` other than `s off`.
//!
//! Where the file needs something else (an index ufbx would clamp, or one to a vertex not yet
//! read; a mesh that gives some corners a normal or UV and not others; vertex colours; an
//! empty face; a line continuation; a number ufbx may read differently), `read` says so with
//! `None`, and the file is read by ufbx whole.

use std::collections::HashMap;
use std::hash::Hasher;

use glam::{Vec2, Vec3};

use super::fast_hash::Fast;
use super::mesh::Normals;
use super::obj_text::{indices, numbers, rest_of_line, tokenize};
use crate::asset::model::{Primitive, Topology};

/// An OBJ's meshes, in the order ufbx makes them.
pub struct ObjGeometry {
    pub meshes: Vec<ObjMesh>,
}

/// One mesh as ufbx would split it from the file.
pub struct ObjMesh {
    /// Its primitives, each with the index of its material among those the mesh uses
    /// (`Mesh::materials` in ufbx's scene), in ufbx's order: by material, then triangles,
    /// lines, points.
    pub primitives: Vec<(usize, Primitive)>,
    /// How many materials the mesh uses (ufbx's `Mesh::materials`).
    pub materials_used: usize,
}

/// Reads the OBJ text's geometry; `None` where the file needs what only ufbx does (see the
/// module's notes).
pub fn read(bytes: &[u8]) -> Option<ObjGeometry> {
    if bytes.contains(&b'\\') || bytes.contains(&0) {
        return None;
    }
    let mut reader = Reader::default();
    let mut tokens: Vec<&[u8]> = Vec::new();
    for line in bytes.split(|&b| b == b'\n') {
        tokenize(line, &mut tokens);
        let Some(&command) = tokens.first() else {
            continue;
        };
        reader.line(command, &tokens, line)?;
    }
    Some(reader.finish())
}

/// The values of one kind of vertex element (UVs or normals), each distinct value once: ufbx
/// tells vertices apart by their values, not by which line holds them.
#[derive(Default)]
struct Distinct<const N: usize> {
    /// Per element of the file (0-based), its value's index in `values`.
    of_element: Vec<u32>,
    values: Vec<[f64; N]>,
    /// Each value's bits to its index; dropped when the file has been read.
    index_of: HashMap<Bits<N>, u32, Fast>,
}

impl<const N: usize> Distinct<N> {
    fn push(&mut self, value: [f64; N]) {
        let next = self.values.len() as u32;
        let index = *self.index_of.entry(Bits(value.map(f64::to_bits))).or_insert(next);
        if index == next {
            self.values.push(value);
        }
        self.of_element.push(index);
    }
}

/// A face corner as the file indexes it, resolved: its position (0-based, in the file) and
/// its UV's and normal's distinct values (`u32::MAX` where the corner has none).
#[derive(Clone, Copy)]
struct Corner {
    position: u32,
    uv: u32,
    normal: u32,
}

const NONE: u32 = u32::MAX;

/// Whether a mesh's corners carry an element (UV or normal): all or none, as far as this
/// reader goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Carried {
    Unknown,
    All,
    None,
}

impl Carried {
    /// Records one corner; false where it breaks the mesh's rule so far.
    fn record(&mut self, has: bool) -> bool {
        let now = if has { Carried::All } else { Carried::None };
        match *self {
            Carried::Unknown => {
                *self = now;
                true
            }
            before => before == now,
        }
    }
}

/// One mesh as it is read.
struct MeshBuild {
    /// ufbx's `usemtl_base`: the global number of the first material this mesh used (0: none).
    material_base: u32,
    materials_used: usize,
    /// Per material index, its triangles', lines' and points' primitives.
    parts: Vec<[Builder; 3]>,
    smooth: bool,
    uvs: Carried,
    normals: Carried,
}

#[derive(Default)]
struct Reader {
    positions: Vec<[f64; 3]>,
    uvs: Distinct<2>,
    normals: Distinct<3>,
    /// An `o` line has named an object (ufbx never forgets one).
    object_named: bool,
    object_changed: bool,
    group_changed: bool,
    /// ZBrush's files: groups do not start meshes.
    merge_groups: bool,
    /// Per material name (by `usemtl`), its index in `material_number`.
    material_of_name: HashMap<Vec<u8>, usize>,
    /// Per material, the global number it was last given by a mesh (ufbx's `user_id`).
    material_number: Vec<u32>,
    materials_numbered: u32,
    /// The last `usemtl`'s material (none after an empty `usemtl`).
    material: Option<usize>,
    /// An `s` line has been read, and the last one was not `s off`.
    smoothing: bool,
    meshes: Vec<MeshBuild>,
    scratch: Scratch,
}

/// A face's corners and its triangulation, kept between faces.
#[derive(Default)]
struct Scratch {
    corners: Vec<Corner>,
    positions: Vec<ufbx::Vec3>,
    /// Corner numbers, three per triangle.
    triangles: Vec<u32>,
    halves: Vec<Corner>,
}

impl Reader {
    /// Reads one line of tokens (`tokens[0]` is `command`); `None` where ufbx must read the
    /// file instead.
    fn line(&mut self, command: &[u8], tokens: &[&[u8]], line: &[u8]) -> Option<()> {
        match command {
            b"v" => {
                // Six or more numbers carry a colour: left to ufbx.
                if tokens.len() >= 7 {
                    return None;
                }
                self.positions.push(numbers(tokens)?);
            }
            b"vt" => {
                self.uvs.push(numbers(tokens)?);
            }
            b"vn" => {
                self.normals.push(numbers(tokens)?);
            }
            b"f" => {
                if tokens.len() < 2 {
                    return None;
                }
                self.face(&tokens[1..])?;
            }
            b"p" => {
                for corner in tokens[1..].windows(1) {
                    self.face(corner)?;
                }
            }
            b"l" => {
                for corners in tokens[1..].windows(2) {
                    self.face(corners)?;
                }
            }
            b"s" if tokens.len() >= 2 => self.smoothing = tokens[1] != b"off",
            b"o" if tokens.len() >= 2 => {
                self.object_named = true;
                self.object_changed = true;
            }
            b"g" => self.group_changed = true,
            b"mtllib" if tokens.len() < 2 => return None,
            b"usemtl" => {
                self.material = match tokens.len() {
                    0 | 1 => None,
                    _ => {
                        let name = rest_of_line(line, tokens);
                        let next = self.material_number.len();
                        let material = *self.material_of_name.entry(name.to_vec()).or_insert(next);
                        if material == next {
                            self.material_number.push(0);
                        }
                        Some(material)
                    }
                }
            }
            b"#" => self.comment(line)?,
            // Other lines draw nothing; ufbx's own reading warns of those it does not know.
            _ => {}
        }
        Some(())
    }

    /// ZBrush's colours (`#MRGB`) are left to ufbx; its files' groups are one mesh.
    fn comment(&mut self, line: &[u8]) -> Option<()> {
        let text = line.trim_ascii_start().strip_prefix(b"#")?.trim_ascii_start();
        let mentions = |word: &[u8]| line.windows(word.len()).any(|w| w == word);
        if mentions(b"MRGB") {
            return None;
        }
        if text.starts_with(b"File exported by ZBrush") {
            if self.meshes.is_empty() {
                self.merge_groups = true;
            }
        } else if mentions(b"ZBrush") {
            return None;
        }
        Some(())
    }

    /// One face (or a point of `p`, a segment of `l`), as ufbx's `ufbxi_obj_parse_indices`
    /// places it.
    fn face(&mut self, tokens: &[&[u8]]) -> Option<()> {
        let mut new_mesh = self.meshes.is_empty();
        if std::mem::take(&mut self.object_changed) {
            new_mesh = true;
        }
        if std::mem::take(&mut self.group_changed) && !self.object_named && !self.merge_groups {
            new_mesh = true;
        }
        if new_mesh {
            self.meshes.push(MeshBuild {
                material_base: 0,
                materials_used: 0,
                parts: Vec::new(),
                smooth: false,
                uvs: Carried::Unknown,
                normals: Carried::Unknown,
            });
        }
        let mesh = self.meshes.last_mut()?;
        let part = match self.material {
            Some(material) => {
                let number = &mut self.material_number[material];
                if mesh.material_base == 0 || *number < mesh.material_base {
                    self.materials_numbered = self.materials_numbered.checked_add(1)?;
                    *number = self.materials_numbered;
                    if mesh.material_base == 0 {
                        mesh.material_base = *number;
                    }
                    mesh.materials_used += 1;
                }
                (*number - mesh.material_base) as usize
            }
            None => 0,
        };
        mesh.smooth |= self.smoothing;

        let scratch = &mut self.scratch;
        scratch.corners.clear();
        for token in tokens {
            let [position, uv, normal] = indices(token)?;
            let index = |index: Option<i64>, count: usize| -> Option<Option<u32>> {
                let Some(index) = index else { return Some(None) };
                let resolved = if index < 0 { count as i64 + index } else { index - 1 };
                (0..count as i64).contains(&resolved).then_some(Some(resolved as u32))
            };
            let position = index(position, self.positions.len())??;
            let uv = index(uv, self.uvs.of_element.len())?;
            let normal = index(normal, self.normals.of_element.len())?;
            if !(mesh.uvs.record(uv.is_some()) && mesh.normals.record(normal.is_some())) {
                return None;
            }
            scratch.corners.push(Corner {
                position,
                uv: uv.map_or(NONE, |i| self.uvs.of_element[i as usize]),
                normal: normal.map_or(NONE, |i| self.normals.of_element[i as usize]),
            });
        }
        if mesh.parts.len() <= part {
            mesh.parts.resize_with(part + 1, || {
                [Topology::Triangles, Topology::Lines, Topology::Points].map(Builder::new)
            });
        }
        let [triangles, lines, points] = &mut mesh.parts[part];
        let values = Values {
            positions: &self.positions,
            uvs: &self.uvs.values,
            normals: &self.normals.values,
        };
        let corners = &scratch.corners;
        let position = |corner: &Corner| values.positions[corner.position as usize];
        match corners[..] {
            [_] => points.add(&values, corners),
            [_, _] => lines.add(&values, corners),
            [_, _, _] => triangles.add(&values, corners),
            [a, b, c, d] => {
                let split = quad_split([a, b, c, d].map(|corner| position(&corner)));
                let halves = if split { [a, b, c, c, d, a] } else { [b, c, d, d, a, b] };
                triangles.add(&values, &halves);
            }
            _ => {
                scratch.positions.clear();
                (scratch.positions).extend(corners.iter().map(|corner| {
                    let [x, y, z] = position(corner);
                    ufbx::Vec3 { x, y, z }
                }));
                triangulate_polygon(&scratch.positions, &mut scratch.triangles);
                scratch.halves.clear();
                (scratch.halves).extend(scratch.triangles.iter().filter_map(|&i| corners.get(i as usize)));
                triangles.add(&values, &scratch.halves);
            }
        }
        Some(())
    }

    fn finish(self) -> ObjGeometry {
        let Reader {
            positions,
            uvs,
            normals,
            meshes,
            ..
        } = self;
        // What the builders no longer need goes before their primitives are made.
        drop((
            positions,
            uvs.index_of,
            uvs.of_element,
            normals.index_of,
            normals.of_element,
        ));
        let meshes = meshes
            .into_iter()
            .map(|mesh| {
                let smooth = mesh.smooth;
                let primitives = (mesh.parts.into_iter().enumerate())
                    .flat_map(|(part, builders)| {
                        builders
                            .into_iter()
                            .filter(|b| !b.indices.is_empty())
                            .map(move |b| (part, b.finish(smooth)))
                    })
                    .collect();
                ObjMesh {
                    primitives,
                    materials_used: mesh.materials_used,
                }
            })
            .collect();
        ObjGeometry { meshes }
    }
}

/// ufbx's quad split (`ufbx_triangulate_face`, in its 64-bit arithmetic): true for the
/// diagonal from the first corner to the third, false for the second to the fourth.
fn quad_split([v0, v1, v2, v3]: [[f64; 3]; 4]) -> bool {
    let sub = |a: [f64; 3], b: [f64; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let cross = |a: [f64; 3], b: [f64; 3]| {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    };
    // UFBX_EPSILON for 64-bit reals.
    let normalize = |a: [f64; 3]| {
        let length = dot(a, a).sqrt();
        if length > 1.4916681462400413e-154 {
            let inverse = 1.0 / length;
            a.map(|x| x * inverse)
        } else {
            [0.0; 3]
        }
    };
    let a = sub(v2, v0);
    let b = sub(v3, v1);
    let na1 = normalize(cross(a, sub(v1, v0)));
    let na3 = normalize(cross(a, sub(v0, v3)));
    let nb0 = normalize(cross(b, sub(v1, v0)));
    let nb2 = normalize(cross(b, sub(v2, v1)));
    let dot_na = dot(na1, na3);
    let dot_nb = dot(nb0, nb2);
    if dot_na < 0.0 || dot_nb < 0.0 {
        dot_na >= dot_nb
    } else {
        dot(a, a) <= dot(b, b)
    }
}

/// ufbx's own triangulation of a face of five or more corners at `positions` (in order), as
/// corner numbers, three per triangle, in `triangles`: ufbx ear-clips such faces in a plane
/// fitted to them, and only its own code gives the very same triangles.
fn triangulate_polygon(positions: &[ufbx::Vec3], triangles: &mut Vec<u32>) {
    let count = positions.len();
    let corners: Vec<u32> = (0..count as u32).collect();
    triangles.clear();
    triangles.resize(count.saturating_sub(2) * 3, 0);
    let face = ufbx::Face {
        index_begin: 0,
        num_indices: count as u32,
    };
    let mut mesh = std::mem::MaybeUninit::<ufbx::Mesh>::zeroed();
    let mesh = mesh.as_mut_ptr();
    // SAFETY: `ufbx_triangulate_face` reads of the mesh only its index count and its positions'
    // values and indices (ufbx.c, `ufbx_catch_triangulate_face` and `ufbxi_triangulate_ngon`),
    // written here to point at `positions` and `corners`, which outlive the call; the rest
    // stays zero and is never made a Rust value. `triangles` has the room ufbx asks for.
    let made = unsafe {
        std::ptr::addr_of_mut!((*mesh).num_indices).write(count);
        std::ptr::addr_of_mut!((*mesh).vertex_position.values.data).write(positions.as_ptr());
        std::ptr::addr_of_mut!((*mesh).vertex_position.values.count).write(count);
        std::ptr::addr_of_mut!((*mesh).vertex_position.indices.data).write(corners.as_ptr());
        std::ptr::addr_of_mut!((*mesh).vertex_position.indices.count).write(count);
        ufbx::ufbx_triangulate_face(triangles.as_mut_ptr(), triangles.len(), mesh, face)
    };
    triangles.truncate(made as usize * 3);
}

/// The vertex values corners point into.
struct Values<'a> {
    positions: &'a [[f64; 3]],
    uvs: &'a [[f64; 2]],
    normals: &'a [[f64; 3]],
}

/// One primitive's vertices as they are gathered.
struct Builder {
    topology: Topology,
    /// Each vertex by what makes it one.
    vertex_of: HashMap<VertexKey, u32, Fast>,
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    uvs: Vec<Vec2>,
    indices: Vec<u32>,
}

impl Builder {
    fn new(topology: Topology) -> Self {
        Self {
            topology,
            vertex_of: HashMap::default(),
            positions: Vec::new(),
            normals: Vec::new(),
            uvs: Vec::new(),
            indices: Vec::new(),
        }
    }

    /// Adds whole triangles, lines or points, sharing the vertices of corners alike.
    fn add(&mut self, values: &Values, corners: &[Corner]) {
        for corner in corners {
            let key = VertexKey([corner.position, corner.uv, corner.normal]);
            let next = self.positions.len() as u32;
            let vertex = *self.vertex_of.entry(key).or_insert(next);
            if vertex == next {
                self.push(values, *corner);
            }
            self.indices.push(vertex);
        }
    }

    /// A new vertex's values, as ufbx's path converts them (`mesh.rs`): 32-bit, normals made
    /// unit (+Z where they cannot be), V flipped for glTF's top-left image origin.
    fn push(&mut self, values: &Values, corner: Corner) {
        let [x, y, z] = values.positions[corner.position as usize];
        self.positions.push(Vec3::new(x as f32, y as f32, z as f32));
        if let Some(&[x, y, z]) = values.normals.get(corner.normal as usize) {
            let normal = Vec3::new(x as f32, y as f32, z as f32);
            self.normals.push(normal.try_normalize().unwrap_or(Vec3::Z));
        }
        if let Some(&[u, v]) = values.uvs.get(corner.uv as usize) {
            self.uvs.push(Vec2::new(u as f32, 1.0 - v as f32));
        }
    }

    /// The primitive; `smooth`: its mesh has a face that follows an `s` other than `s off`.
    fn finish(self, smooth: bool) -> Primitive {
        drop(self.vertex_of);
        let normals = Normals::of(self.normals, self.topology, &self.positions, &self.indices, smooth);
        Primitive {
            topology: self.topology,
            indices: self.indices,
            positions: self.positions,
            normals: normals.normals,
            normals_computed: normals.computed,
            flat_shaded: normals.flat_shaded,
            tangents: Vec::new(),
            tangents_generated: false,
            uvs: self.uvs,
            uvs1: Vec::new(),
            colors: Vec::new(),
            skin_weights: None,
            morph_targets: Vec::new(),
            material: None,
            variant_materials: Vec::new(),
        }
    }
}

/// A value's bits, hashed a word at a time.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Bits<const N: usize>([u64; N]);

impl<const N: usize> std::hash::Hash for Bits<N> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.iter().for_each(|&word| state.write_u64(word));
    }
}

/// What makes a corner a vertex: its position index and its UV's and normal's distinct values
/// (12 bytes, where a `u128` would take 16 and align the map's entries to 32).
#[derive(Clone, Copy, PartialEq, Eq)]
struct VertexKey([u32; 3]);

impl std::hash::Hash for VertexKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let [position, uv, normal] = self.0;
        state.write_u64(u64::from(position) | u64::from(uv) << 32);
        state.write_u32(normal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quads_split_along_the_shorter_diagonal_unless_it_folds() {
        let square = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]];
        assert!(quad_split(square), "equal diagonals: from the first corner");
        let long = [[0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [4.0, 3.0, 0.0], [0.0, 1.0, 0.0]];
        assert!(!quad_split(long), "1-3 is the shorter");
        // A dart whose fourth corner points in: 0-2 is shorter but would fold the halves.
        let dart = [[0.0, 0.0, 0.0], [4.0, 1.0, 0.0], [0.0, 2.0, 0.0], [1.0, 1.0, 0.0]];
        assert!(!quad_split(dart));
    }

    #[test]
    fn polygons_are_ear_clipped_into_triangles_that_cover_them() {
        // An L: concave at its fourth corner, so not every fan from a corner covers it.
        let l = [[0.0, 0.0], [3.0, 0.0], [3.0, 1.0], [1.0, 1.0], [1.0, 3.0], [0.0, 3.0]];
        let positions: Vec<ufbx::Vec3> = l.iter().map(|&[x, y]| ufbx::Vec3 { x, y, z: 0.0 }).collect();
        let mut triangles = Vec::new();
        triangulate_polygon(&positions, &mut triangles);
        assert_eq!(triangles.len(), 4 * 3);
        let areas: Vec<f64> = (triangles.chunks_exact(3))
            .map(|t| {
                let [a, b, c] = [t[0], t[1], t[2]].map(|i| l[i as usize]);
                ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / 2.0
            })
            .collect();
        assert!(areas.iter().all(|&a| a > 0.0), "all face one way: {areas:?}");
        assert_eq!(areas.iter().sum::<f64>(), 5.0, "and cover the L once");
    }

    #[test]
    fn meshes_materials_and_vertices_follow_ufbx_rules() {
        let obj = b"v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\nvn 0 0 1.0\n\
            o A\nusemtl red\nf 1//1 2//1 3//2\nusemtl blue\nf 1//2 3//2 4//2\nl 1//1 2//1 3//1\n\
            o B\nusemtl blue\ns 1\np 1 2\nf -4 -3 -2 -1\n";
        let geometry = read(obj).unwrap();
        let [a, b] = &geometry.meshes[..] else {
            panic!("two meshes")
        };
        assert_eq!((a.materials_used, b.materials_used), (2, 1));
        let summary = |mesh: &ObjMesh| -> Vec<(usize, Topology, usize, usize)> {
            (mesh.primitives.iter())
                .map(|(part, p)| (*part, p.topology, p.positions.len(), p.indices.len()))
                .collect()
        };
        // Normals 1 and 2 hold one value: corners 1//1 and 1//2 are one vertex.
        assert_eq!(
            summary(a),
            [
                (0, Topology::Triangles, 3, 3),
                (1, Topology::Triangles, 3, 3),
                (1, Topology::Lines, 3, 4)
            ]
        );
        assert_eq!(
            summary(b),
            [(0, Topology::Triangles, 4, 6), (0, Topology::Points, 2, 2)]
        );
        let (_, lines) = &a.primitives[2];
        assert!(!lines.normals_computed && !lines.flat_shaded);
        let (_, quad) = &b.primitives[0];
        assert!(quad.normals_computed && !quad.flat_shaded, "mesh B is smooth");
    }

    #[test]
    fn what_only_ufbx_reads_is_left_to_it() {
        for obj in [
            &b"v 0 0 0\nf 1 2 3\n"[..],
            b"v 0 0 0\nv 1 0 0\nv 1 1 0\nvt 0 0\nf 1/1 2 3\n",
            b"v 0 0 0 1 0 0\n",
            b"f\n",
            b"v 0 0 \\\n 0\n",
            b"v 0 0 zero\n",
            b"#MRGB ff0000ff\n",
        ] {
            assert!(read(obj).is_none(), "{}", String::from_utf8_lossy(obj));
        }
    }
}
