//! The meshes of an OBJ whose geometry `obj_reader` read, joined to the scene ufbx read
//! without it: each mesh takes ufbx's mesh's name, nodes and materials, as `mesh` gives them
//! on ufbx's own path.

use super::mesh::{Built, mesh_name};
use super::nodes::Nodes;
use super::obj_reader::ObjGeometry;
use crate::asset::model::{Mesh, MeshInstance};

/// The model's meshes from `geometry` and `scene` (read with `ignore_geometry`); `None` where
/// the two do not agree on the meshes or their materials, and ufbx must read the geometry.
pub fn built(geometry: ObjGeometry, scene: &ufbx::Scene, nodes: &Nodes) -> Option<Built> {
    let agree = geometry.meshes.len() == scene.meshes.len()
        && (geometry.meshes.iter().zip(&scene.meshes)).all(|(read, mesh)| read.materials_used == mesh.materials.len());
    if !agree {
        #[cfg(test)]
        tests::DISAGREED.with(|count| count.set(count.get() + 1));
        return None;
    }
    let mut built = Built {
        meshes: Vec::with_capacity(geometry.meshes.len()),
        instances: Vec::new(),
        skins: Vec::new(),
        morph_targets_of_node: vec![Vec::new(); nodes.len()],
        bind_model: vec![None; nodes.len()],
        morph_channels: Vec::new(),
    };
    for (read, mesh) in geometry.meshes.into_iter().zip(&scene.meshes) {
        let mesh_index = built.meshes.len();
        for joint in mesh.element.instances.iter().filter_map(|n| nodes.joint(n)) {
            built.instances.push(MeshInstance {
                joint,
                mesh: mesh_index,
                skin: None,
            });
        }
        let primitives = (read.primitives.into_iter())
            .map(|(part, mut primitive)| {
                let material = mesh.materials.get(part).map(|m| m.element.typed_id as usize);
                primitive.material = material.filter(|&m| m < scene.materials.len());
                primitive
            })
            .collect();
        built.meshes.push(Mesh {
            name: mesh_name(mesh),
            primitives,
            attributes: Vec::new(),
            target_names: Vec::new(),
        });
    }
    built.instances.sort_by_key(|i| i.joint);
    Some(built)
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::path::{Path, PathBuf};

    use super::super::{load_with, obj_reader};
    use crate::asset::format::Format;

    thread_local! {
        /// How many times `built` found the scene and the one-pass reader's meshes apart.
        pub static DISAGREED: Cell<usize> = const { Cell::new(0) };
    }

    /// A material library the files below name.
    const MTL: &str = "newmtl red\nKd 1 0 0\nnewmtl blue\nKd 0 0 1\nd 0.5\nmap_Kd -s 2 2 1 missing.png\n";

    /// Files that use what the one-pass reader reads: objects, groups, materials used again by
    /// later meshes, quads (one folded), lines, points, smoothing, negative indices, normals
    /// written twice with one value, a ZBrush file's groups.
    const STREAMED: &[(&str, &str)] = &[
        (
            "cube.obj",
            "mtllib lib.mtl\nv -1 -1 1\nv 1 -1 1\nv 1 1 1\nv -1 1 1\nv -1 -1 -1\nv 1 -1 -1\nv 1 1 -1\nv -1 1 -1\n\
             vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvn 0 0 1\nvn 0 0 -1\nvn 1 0 0\nvn -1 0 0\nvn 0 1 0\nvn 0 -1 0\n\
             o Cube\ng front\nusemtl red\ns 1\nf 1/1/1 2/2/1 3/3/1 4/4/1\nf 6/1/2 5/2/2 8/3/2 7/4/2\n\
             g sides\nusemtl blue\nf 2/1/3 6/2/3 7/3/3 3/4/3\nf 5/1/4 1/2/4 4/3/4 8/4/4\n\
             usemtl red\nf 4/1/5 3/2/5 7/3/5 8/4/5\ns off\nf 5/1/6 6/2/6 2/3/6 1/4/6\n",
        ),
        (
            "groups.obj",
            "mtllib lib.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 4 1 0\nv 1 1 0\nvn 0 0 1\nvn 0 0 1.0\n\
             g A\nusemtl blue\nf -6//1 -5//2 -4//1\ng\nf 1 2 5 3\nl 1 2 3 4\np 1 2 2\n\
             g B\nusemtl red\nf 1 5 3 6\nusemtl blue\nf 2 3 4\nusemtl\nf 1 3 4\n\
             o Later\nusemtl red\nf 1//1 2//2 3//1\nusemtl blue\nf 1//2 3//2 4//2\n\
             o Later\nusemtl blue\nf 4 3 2 1\n",
        ),
        (
            "zbrush.obj",
            "# File exported by ZBrush version 2022\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\n\
             g one\nf 1/1 2/2 3/2\ng two\nf 3/1 2/2 1/1\n",
        ),
        (
            "polygons.obj",
            "v 0 0 0\nv 1 0 0\nv 2 1 0\nv 1 2 0\nv 0 1 0\nv 3 0 0\nv 3 1 0\nv 1 1 0\nv 1 3 0\nv 0 3 0\n\
             v 0 0 1\nv 2 0 1.5\nv 4 0.5 1\nv 5 2 1\nv 4.5 3 1.2\nv 3 3.5 1\nv 2 2.5 1\nv 1 4 1\nv 0 3 1\nv -1 2 1\n\
             v -0.5 1 1.1\nv 0.5 1.5 1\nv 1 0.5 1\nv 0.2 0.2 1\n\
             f 1 2 3 4 5\nf 1 6 7 8 9 10\nf 11 12 13 14 15 16 17 18 19 20 21 22 23 24\n",
        ),
        (
            "flat.obj",
            "v 0 0 0\nv 2 0 0\nv 2 2 0\nv 0 2 1e-1\nv 1 1 5\nf 1 2 3 4\nf 1 2 5\n# a comment\nvp 1 2\n",
        ),
    ];

    /// Files the one-pass reader leaves to ufbx: corners with and without UVs in one mesh, vertex colours, an index past the end (clamped), an empty face.
    const LEFT_TO_UFBX: &[(&str, &str)] = &[
        (
            "mixed.obj",
            "v 0 0 0\nv 1 0 0\nv 1 1 0\nvt 0 0\nf 1/1 2/1 3/1\nf 1 2 3\n",
        ),
        ("colours.obj", "v 0 0 0 1 0 0\nv 1 0 0 0 1 0\nv 1 1 0 0 0 1\nf 1 2 3\n"),
        ("clamped.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 4\n"),
        ("empty.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nf\nf 1 2 3\n"),
    ];

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("rigscope-obj-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The model (or error) `path` loads to with its geometry read in one pass where it can
    /// be, and through ufbx, as text: `Model` compares by what it holds, every number included.
    fn both_ways(path: &Path) -> (String, String) {
        let bytes = std::fs::read(path).unwrap();
        let streamed = super::super::load(path, &bytes, Format::Obj);
        let through_ufbx = load_with(path, &bytes, Format::Obj, None);
        (format!("{streamed:#?}"), format!("{through_ufbx:#?}"))
    }

    /// Where two texts first part, with a little of each.
    fn first_difference(a: &str, b: &str) -> String {
        let at = a
            .bytes()
            .zip(b.bytes())
            .position(|(x, y)| x != y)
            .unwrap_or(a.len().min(b.len()));
        let line = a[..at].lines().count();
        let near = |s: &str| {
            s.lines()
                .skip(line.saturating_sub(3))
                .take(6)
                .collect::<Vec<_>>()
                .join("\n")
        };
        format!("at line {line}:\n--- one pass\n{}\n--- ufbx\n{}", near(a), near(b))
    }

    /// Asserts `path` loads alike both ways; true when its geometry was read in one pass.
    fn assert_same(path: &Path) -> bool {
        let disagreed = DISAGREED.get();
        let read = std::fs::read(path).is_ok_and(|bytes| obj_reader::read(&bytes).is_some());
        let (streamed, through_ufbx) = both_ways(path);
        assert!(
            streamed == through_ufbx,
            "{} loads differently: {}",
            path.display(),
            first_difference(&streamed, &through_ufbx)
        );
        read && DISAGREED.get() == disagreed
    }

    #[test]
    fn the_one_pass_reader_builds_what_ufbx_builds() {
        let dir = temp_dir("equal");
        std::fs::write(dir.join("lib.mtl"), MTL).unwrap();
        for (name, text) in STREAMED {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            assert!(assert_same(&path), "{name} is read in one pass");
        }
        for (name, text) in LEFT_TO_UFBX {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            assert!(!assert_same(&path), "{name} is left to ufbx");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Every OBJ under the shared assets, and under the folders `RIGSCOPE_OBJ_CORPUS` names
    /// (separated by `:`), loads alike both ways.
    #[test]
    fn every_obj_at_hand_loads_alike_both_ways() {
        let corpus = std::env::var("RIGSCOPE_OBJ_CORPUS").unwrap_or_default();
        let mut files = Vec::new();
        let mut folders: Vec<PathBuf> = std::iter::once(crate::asset::sample_assets())
            .chain(corpus.split(':').filter(|f| !f.is_empty()).map(PathBuf::from))
            .collect();
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    folders.push(path);
                } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("obj")) {
                    files.push(path);
                }
            }
        }
        files.sort();
        let left: Vec<String> = (files.iter().filter(|path| !assert_same(path)))
            .map(|path| path.display().to_string())
            .collect();
        eprintln!(
            "{} OBJ files load alike both ways, {} of them read in one pass; left to ufbx: {left:#?}",
            files.len(),
            files.len() - left.len()
        );
    }
}
