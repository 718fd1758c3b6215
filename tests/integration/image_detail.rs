//! Still images of meshes far denser than the image (`src/view/image_detail.rs`): `render`
//! draws them from a copy simplified within half a pixel, which looks the same as every
//! triangle drawn (`--full-detail`), and leaves them whole where the image shows the mesh's own
//! structure.

use crate::common;

use std::path::{Path, PathBuf};

use common::{rigscope, temp_dir};

/// A UV sphere of radius 1 with `stacks * slices * 2` triangles, as a GLB (positions, normals,
/// indices).
fn write_dense_sphere(dir: &Path, stacks: u32, slices: u32) -> PathBuf {
    let (mut positions, mut indices) = (Vec::new(), Vec::new());
    for stack in 0..=stacks {
        let polar = stack as f32 / stacks as f32 * std::f32::consts::PI;
        for slice in 0..=slices {
            let azimuth = slice as f32 / slices as f32 * std::f32::consts::TAU;
            positions.push([polar.sin() * azimuth.cos(), polar.cos(), polar.sin() * azimuth.sin()]);
        }
    }
    let row = slices + 1;
    for stack in 0..stacks {
        for slice in 0..slices {
            let a = stack * row + slice;
            indices.extend([a, a + row, a + 1, a + 1, a + row, a + row + 1]);
        }
    }
    let vertex_bytes: Vec<u8> = positions.iter().flatten().flat_map(|v| v.to_le_bytes()).collect();
    let index_bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
    let mut binary = vertex_bytes.clone(); // positions, then the same values as unit normals
    binary.extend(&vertex_bytes);
    binary.extend(&index_bytes);
    let vertex_count = positions.len();
    let json = serde_json::json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}],
        "meshes": [{"name": "sphere", "primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1}, "indices": 2}]}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": vertex_count, "type": "VEC3",
             "min": [-1.0, -1.0, -1.0], "max": [1.0, 1.0, 1.0]},
            {"bufferView": 0, "byteOffset": vertex_bytes.len(), "componentType": 5126, "count": vertex_count, "type": "VEC3"},
            {"bufferView": 1, "componentType": 5125, "count": indices.len(), "type": "SCALAR"}
        ],
        "bufferViews": [
            {"buffer": 0, "byteLength": 2 * vertex_bytes.len()},
            {"buffer": 0, "byteOffset": 2 * vertex_bytes.len(), "byteLength": index_bytes.len()}
        ],
        "buffers": [{"byteLength": binary.len()}]
    });
    let mut json = serde_json::to_vec(&json).unwrap();
    json.resize(json.len().next_multiple_of(4), b' ');
    let mut glb = Vec::new();
    glb.extend(b"glTF");
    glb.extend(2u32.to_le_bytes());
    glb.extend(((12 + 8 + json.len() + 8 + binary.len()) as u32).to_le_bytes());
    glb.extend((json.len() as u32).to_le_bytes());
    glb.extend(b"JSON");
    glb.extend(&json);
    glb.extend((binary.len() as u32).to_le_bytes());
    glb.extend(b"BIN\0");
    glb.extend(&binary);
    let path = dir.join("dense-sphere.glb");
    std::fs::write(&path, glb).unwrap();
    path
}

/// Renders `file` at 32x32 with `extra` options; returns the image and what went to stderr.
fn render(file: &Path, out: &Path, extra: &[&str]) -> (image::RgbaImage, String) {
    let mut args = vec![
        "render",
        file.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--size",
        "32x32",
    ];
    args.extend(extra);
    let output = rigscope(&args);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{args:?}: {stderr}");
    (image::open(out).unwrap().to_rgba8(), stderr)
}

#[test]
fn a_mesh_denser_than_the_image_is_drawn_simplified_and_looks_the_same() {
    let dir = temp_dir("image-detail");
    // 240,000 triangles on a 32x32 image: about 230 a pixel.
    let sphere = write_dense_sphere(&dir, 300, 400);
    let (simplified, said) = render(&sphere, &dir.join("simplified.png"), &[]);
    let (whole, said_whole) = render(&sphere, &dir.join("whole.png"), &["--full-detail"]);
    assert!(
        said.contains("mesh 'sphere' primitive 0: 240000 triangles drawn as") && said.contains("at 32x32"),
        "{said}"
    );
    assert!(!said_whole.contains("drawn as"), "{said_whole}");
    let drawn_as: usize = said
        .split("drawn as ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(drawn_as * 4 < 240_000, "simplified to {drawn_as} triangles");
    assert!(common::coverage(&whole) > 0.05, "the sphere is in the picture");
    let differences: Vec<u32> = whole
        .pixels()
        .zip(simplified.pixels())
        .map(|(a, b)| a.0.iter().zip(b.0).map(|(x, y)| x.abs_diff(y) as u32).max().unwrap())
        .collect();
    let mean = differences.iter().sum::<u32>() as f64 / differences.len() as f64;
    let large = differences.iter().filter(|&&d| d > 24).count();
    assert!(
        mean < 1.0 && large <= 4,
        "mean difference {mean} levels, {large} pixels differ by more than 24"
    );
}

#[test]
fn views_of_the_mesh_structure_draw_every_triangle() {
    let dir = temp_dir("image-detail-structure");
    let sphere = write_dense_sphere(&dir, 300, 400);
    for extra in [
        &["--wireframe"][..],
        &["--vertex-view", "influences"],
        &["--bind-ghost"],
    ] {
        let (_, said) = render(&sphere, &dir.join("structure.png"), extra);
        assert!(!said.contains("drawn as"), "{extra:?}: {said}");
    }
    // An image with more pixels than the mesh has triangles draws it whole too.
    let output = rigscope(&[
        "render",
        sphere.to_str().unwrap(),
        "-o",
        dir.join("big.png").to_str().unwrap(),
        "--size",
        "512x512",
    ]);
    assert!(output.status.success());
    assert!(!String::from_utf8_lossy(&output.stderr).contains("drawn as"));
}
