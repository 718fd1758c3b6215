//! `.md5mesh` and `.md5anim` as written (Doom 3's MD5 version 10), parsed and checked: every
//! count is checked against what is left of the file before anything is allocated for it, and
//! every index is range-checked. Coordinates are as in the file (Z up).

use glam::{Quat, Vec2, Vec3};

use super::tokens::{Tokens, at_line};
use crate::asset::LoadErrorKind;

/// A unit quaternion from its x, y, z; w is recovered as `-sqrt(1 - x² - y² - z²)` (0 when
/// rounding makes that negative), Doom 3's convention.
pub fn quaternion([x, y, z]: [f32; 3]) -> Quat {
    let t = 1.0 - x * x - y * y - z * z;
    let w = if t < 0.0 { 0.0 } else { -t.sqrt() };
    Quat::from_xyzw(x, y, z, w).normalize()
}

pub struct Joint {
    pub name: String,
    pub parent: Option<usize>,
    /// Model space (bind pose).
    pub position: Vec3,
    pub orientation: Quat,
}

pub struct Weight {
    pub joint: usize,
    pub bias: f32,
    /// In the joint's space.
    pub position: Vec3,
}

pub struct MeshPart {
    pub shader: String,
    pub uvs: Vec<Vec2>,
    /// Per vertex: its range in `weights`.
    pub weight_ranges: Vec<(usize, usize)>,
    pub triangles: Vec<[u32; 3]>,
    pub weights: Vec<Weight>,
}

pub struct MeshFile {
    pub joints: Vec<Joint>,
    pub meshes: Vec<MeshPart>,
}

fn header(tokens: &mut Tokens) -> Result<(), LoadErrorKind> {
    tokens.expect_word("MD5Version")?;
    let line = tokens.line();
    let version = tokens.int()?;
    if version != 10 {
        return Err(at_line(
            line,
            format!("MD5 version {version} is not supported (only 10)"),
        ));
    }
    if tokens.peek_word() == Some("commandline") {
        tokens.expect_word("commandline")?;
        tokens.text()?;
    }
    Ok(())
}

/// `"name" parent` at the start of joint `index`: the parent is -1 (none) or an earlier joint.
fn named_joint(tokens: &mut Tokens, index: usize) -> Result<(String, Option<usize>), LoadErrorKind> {
    let name = tokens.text()?.to_string();
    let line = tokens.line();
    let parent = match tokens.int()? {
        -1 => None,
        p if p >= 0 && (p as usize) < index => Some(p as usize),
        p => {
            let problem = format!("joint {index} ('{name}') has parent {p}, which is not an earlier joint");
            return Err(at_line(line, problem));
        }
    };
    Ok((name, parent))
}

pub fn parse_mesh(text: &str) -> Result<MeshFile, LoadErrorKind> {
    let mut tokens = Tokens::new(text)?;
    header(&mut tokens)?;
    let joint_count = tokens.keyed_count("numJoints", 10)?;
    let mesh_count = tokens.keyed_count("numMeshes", 4)?;
    tokens.expect_word("joints")?;
    tokens.expect_symbol('{')?;
    let mut joints = Vec::with_capacity(joint_count);
    for index in 0..joint_count {
        let (name, parent) = named_joint(&mut tokens, index)?;
        joints.push(Joint {
            name,
            parent,
            position: Vec3::from(tokens.vec3()?),
            orientation: quaternion(tokens.vec3()?),
        });
    }
    tokens.expect_symbol('}')?;
    let mut meshes = Vec::with_capacity(mesh_count);
    for _ in 0..mesh_count {
        meshes.push(parse_part(&mut tokens, joint_count)?);
    }
    Ok(MeshFile { joints, meshes })
}

fn parse_part(tokens: &mut Tokens, joint_count: usize) -> Result<MeshPart, LoadErrorKind> {
    tokens.expect_word("mesh")?;
    tokens.expect_symbol('{')?;
    let shader = if tokens.peek_word() == Some("shader") {
        tokens.expect_word("shader")?;
        tokens.text()?.to_string()
    } else {
        String::new()
    };
    let vertex_count = tokens.keyed_count("numverts", 8)?;
    let mut uvs = Vec::with_capacity(vertex_count);
    let mut weight_ranges = Vec::with_capacity(vertex_count);
    for index in 0..vertex_count {
        tokens.expect_word("vert")?;
        let line = tokens.line();
        if tokens.int()? != index as i64 {
            return Err(at_line(line, format!("expected vertex {index}")));
        }
        tokens.expect_symbol('(')?;
        uvs.push(Vec2::new(tokens.float()?, tokens.float()?));
        tokens.expect_symbol(')')?;
        let start = tokens.int()?;
        let count = tokens.int()?;
        weight_ranges.push((start, count));
    }
    let triangle_count = tokens.keyed_count("numtris", 5)?;
    let mut triangles = Vec::with_capacity(triangle_count);
    for index in 0..triangle_count {
        tokens.expect_word("tri")?;
        let line = tokens.line();
        if tokens.int()? != index as i64 {
            return Err(at_line(line, format!("expected triangle {index}")));
        }
        let corner = |tokens: &mut Tokens| tokens.index(vertex_count, "vertex").map(|v| v as u32);
        triangles.push([corner(tokens)?, corner(tokens)?, corner(tokens)?]);
    }
    let weight_count = tokens.keyed_count("numweights", 8)?;
    let mut weights = Vec::with_capacity(weight_count);
    for index in 0..weight_count {
        tokens.expect_word("weight")?;
        let line = tokens.line();
        if tokens.int()? != index as i64 {
            return Err(at_line(line, format!("expected weight {index}")));
        }
        weights.push(Weight {
            joint: tokens.index(joint_count, "joint")?,
            bias: tokens.float()?,
            position: Vec3::from(tokens.vec3()?),
        });
    }
    tokens.expect_symbol('}')?;
    // Weight ranges are checked once the weight count is known.
    let weight_ranges = weight_ranges
        .into_iter()
        .enumerate()
        .map(|(vertex, (start, count))| {
            usize::try_from(start)
                .ok()
                .zip(usize::try_from(count).ok())
                .filter(|&(s, c)| s.checked_add(c).is_some_and(|end| end <= weight_count))
                .ok_or_else(|| {
                    LoadErrorKind::invalid(
                        format!("vertex {vertex}"),
                        format!("it uses weights {start}..{start}+{count}, outside the {weight_count} weights"),
                    )
                })
        })
        .collect::<Result<_, _>>()?;
    Ok(MeshPart {
        shader,
        uvs,
        weight_ranges,
        triangles,
        weights,
    })
}

pub struct AnimJoint {
    pub name: String,
    pub parent: Option<usize>,
    pub flags: u32,
    pub start: usize,
}

pub struct AnimFile {
    pub frame_rate: f32,
    pub joints: Vec<AnimJoint>,
    /// Per frame: (min, max) in model space.
    #[cfg(any(test, feature = "internals"))]
    pub bounds: Vec<(Vec3, Vec3)>,
    /// Per joint: position and orientation (x, y, z) in the parent's space (model space for
    /// roots).
    pub base: Vec<([f32; 3], [f32; 3])>,
    /// Per frame, the animated components.
    pub frames: Vec<Vec<f32>>,
}

pub fn parse_anim(text: &str) -> Result<AnimFile, LoadErrorKind> {
    let mut tokens = Tokens::new(text)?;
    header(&mut tokens)?;
    let frame_count = tokens.keyed_count("numFrames", 3)?;
    let joint_count = tokens.keyed_count("numJoints", 4)?;
    tokens.expect_word("frameRate")?;
    let line = tokens.line();
    let frame_rate = tokens.float()?;
    if frame_rate.is_nan() || frame_rate <= 0.0 {
        return Err(at_line(line, format!("frame rate {frame_rate} must be positive")));
    }
    let components = tokens.keyed_count("numAnimatedComponents", 0)?;
    if components.saturating_mul(frame_count) > tokens.remaining() {
        return Err(at_line(
            line,
            format!("{frame_count} frames of {components} components are more than the file holds"),
        ));
    }
    if frame_count == 0 {
        return Err(at_line(line, "the animation has no frames"));
    }
    tokens.expect_word("hierarchy")?;
    tokens.expect_symbol('{')?;
    let mut joints = Vec::with_capacity(joint_count);
    for index in 0..joint_count {
        let (name, parent) = named_joint(&mut tokens, index)?;
        let line = tokens.line();
        let flags = u32::try_from(tokens.int()?)
            .ok()
            .filter(|f| *f < 64)
            .ok_or_else(|| at_line(line, "flags must be 0 to 63"))?;
        let line = tokens.line();
        let start = usize::try_from(tokens.int()?)
            .ok()
            .filter(|s| s.saturating_add(flags.count_ones() as usize) <= components)
            .ok_or_else(|| {
                at_line(
                    line,
                    format!("joint {index}'s components run past the {components} per frame"),
                )
            })?;
        joints.push(AnimJoint {
            name,
            parent,
            flags,
            start,
        });
    }
    tokens.expect_symbol('}')?;
    tokens.expect_word("bounds")?;
    tokens.expect_symbol('{')?;
    let mut bounds = Vec::with_capacity(frame_count);
    for _ in 0..frame_count {
        bounds.push((Vec3::from(tokens.vec3()?), Vec3::from(tokens.vec3()?)));
    }
    tokens.expect_symbol('}')?;
    tokens.expect_word("baseframe")?;
    tokens.expect_symbol('{')?;
    let mut base = Vec::with_capacity(joint_count);
    for _ in 0..joint_count {
        base.push((tokens.vec3()?, tokens.vec3()?));
    }
    tokens.expect_symbol('}')?;
    let mut frames = Vec::with_capacity(frame_count);
    for index in 0..frame_count {
        tokens.expect_word("frame")?;
        let line = tokens.line();
        if tokens.int()? != index as i64 {
            return Err(at_line(line, format!("expected frame {index}")));
        }
        tokens.expect_symbol('{')?;
        let values = (0..components).map(|_| tokens.float()).collect::<Result<Vec<_>, _>>()?;
        tokens.expect_symbol('}')?;
        frames.push(values);
    }
    Ok(AnimFile {
        frame_rate,
        joints,
        #[cfg(any(test, feature = "internals"))]
        bounds,
        base,
        frames,
    })
}
