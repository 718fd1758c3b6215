//! Looking up what the command line names in a model (clips, joints, cameras) and reading its
//! numbers: shared by every option parser and the viewer's `--select`. A name
//! that matches nothing gets the valid range and the closest names in its error.

use anyhow::{anyhow, bail};

use crate::asset::Model;

/// A clip by name, or else by index (as `inspect` lists them).
pub fn find_clip(model: &Model, wanted: &str) -> anyhow::Result<usize> {
    if let Some(clip) = model.find_clip(wanted) {
        return Ok(clip);
    }
    let file = model.path.display();
    let count = model.clips.len();
    if count == 0 {
        bail!("{file}: this model has no clips (asked for '{wanted}')");
    }
    if wanted.trim().parse::<usize>().is_ok() {
        bail!("{file}: no clip {wanted} (clips are numbered 0 to {})", count - 1);
    }
    let names: Vec<&str> = model.clips.iter().map(|c| c.name()).collect();
    Err(anyhow!("{file}: no clip '{wanted}'{}", suggestion(wanted, &names)))
}

/// A joint by name, by rigscope's joint index (as `joints` lists them), or by the file's node
/// index written `node:N`.
pub fn find_joint(model: &Model, wanted: &str) -> anyhow::Result<usize> {
    let skeleton = &model.skeleton;
    if let Some(joint) = skeleton.find(wanted) {
        return Ok(joint);
    }
    let file = model.path.display();
    if let Some(node) = wanted
        .trim()
        .strip_prefix("node:")
        .and_then(|n| n.parse::<usize>().ok())
    {
        return model.file_node.iter().position(|&n| n == node).ok_or_else(|| {
            anyhow!(
                "{file}: no node {node} (the file's nodes are numbered 0 to {})",
                model.file_node.iter().max().copied().unwrap_or(0)
            )
        });
    }
    if let Ok(index) = wanted.trim().parse::<usize>() {
        return (index < skeleton.len()).then_some(index).ok_or_else(|| {
            anyhow!(
                "{file}: no joint {index} (joints are numbered 0 to {})",
                skeleton.len().saturating_sub(1)
            )
        });
    }
    let names: Vec<&str> = (0..skeleton.len()).map(|j| skeleton.name(j)).collect();
    Err(anyhow!("{file}: no joint '{wanted}'{}", suggestion(wanted, &names)))
}

/// One of the file's cameras (an entry of `Model::cameras`) by name, or else by the file's
/// camera index (`cameras[N]` in glTF, as `inspect` lists them; a camera that several nodes
/// use is seen from its first node); the error lists the cameras there are.
pub fn find_camera(model: &Model, wanted: &str) -> anyhow::Result<usize> {
    let cameras = &model.cameras;
    if let Some(index) = cameras.iter().position(|c| c.name == wanted) {
        return Ok(index);
    }
    if let Ok(index) = wanted.trim().parse::<usize>()
        && let Some(found) = cameras.iter().position(|c| c.index == index)
    {
        return Ok(found);
    }
    let file = model.path.display();
    if cameras.is_empty() {
        bail!("{file}: the file has no cameras (asked for '{wanted}')");
    }
    let listed: Vec<String> = cameras
        .iter()
        .map(|camera| format!("{} '{}'", camera.index, camera.name))
        .collect();
    bail!(
        "{file}: no camera '{wanted}' (the file's cameras: {})",
        listed.join(", ")
    )
}

/// "; did you mean 'X'?" with the names closest to `wanted`: the same but for case, names
/// ending in `:wanted` (a Mixamo prefix), else those a few edits away.
fn suggestion(wanted: &str, names: &[&str]) -> String {
    let lower = wanted.to_lowercase();
    let suffix = format!(":{lower}");
    let tiers: [&dyn Fn(&str) -> bool; 3] = [&|name| name == lower, &|name| name.ends_with(&suffix), &|name| {
        edit_distance(name, &lower) <= 2
    }];
    // The first kind of closeness that finds any names.
    let mut close: Vec<String> = tiers
        .iter()
        .map(|close| {
            let matching = names.iter().filter(|n| close(&n.to_lowercase()));
            matching.take(3).map(|n| format!("'{n}'")).collect::<Vec<_>>()
        })
        .find(|found| !found.is_empty())
        .unwrap_or_default();
    match close.len() {
        0 if names.len() <= 12 => format!(" (there are: {})", names.join(", ")),
        0 => String::new(),
        _ => {
            let last = close.pop().unwrap_or_default();
            let listed = if close.is_empty() {
                last
            } else {
                format!("{} or {last}", close.join(", "))
            };
            format!("; did you mean {listed}?")
        }
    }
}

/// Levenshtein distance between two short names.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

/// `text` as a finite number; `what` names it in the error.
pub fn number(text: &str, what: &str) -> anyhow::Result<f32> {
    text.trim()
        .parse::<f32>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| anyhow!("{what} '{text}' is not a finite number"))
}

/// `X,Y,Z`, finite.
pub fn vector(text: &str, what: &str) -> anyhow::Result<glam::Vec3> {
    let values: Vec<&str> = text.split(',').collect();
    let [x, y, z] = values[..] else {
        anyhow::bail!("{what} '{text}' is not three numbers X,Y,Z");
    };
    Ok(glam::Vec3::new(number(x, what)?, number(y, what)?, number(z, what)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::demo::demo_model;

    #[test]
    fn unknown_names_get_ranges_and_the_closest_names() {
        let mut model = demo_model();
        let error = |result: anyhow::Result<usize>| result.unwrap_err().to_string();
        assert!(error(find_clip(&model, "99")).ends_with("no clip 99 (clips are numbered 0 to 4)"));
        assert!(error(find_clip(&model, "Walk")).ends_with("no clip 'Walk'; did you mean 'walk'?"));
        assert!(error(find_joint(&model, "Elbow.l")).ends_with("did you mean 'elbow.L'?"));
        let joints = model.skeleton.len();
        assert!(error(find_joint(&model, "500")).ends_with(&format!("(joints are numbered 0 to {})", joints - 1)));
        assert_eq!(find_joint(&model, &format!("node:{}", model.file_node[3])).unwrap(), 3);
        let last_node = model.file_node.iter().max().unwrap();
        assert!(error(find_joint(&model, "node:9999")).ends_with(&format!("numbered 0 to {last_node})")));
        model.clips.clear();
        assert!(error(find_clip(&model, "0")).ends_with("this model has no clips (asked for '0')"));
    }

    #[test]
    fn prefixed_names_are_suggested_for_their_last_part() {
        let names = ["mixamorig:Hips", "mixamorig:Head", "mixamorig:Neck"];
        assert_eq!(suggestion("Head", &names), "; did you mean 'mixamorig:Head'?");
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
