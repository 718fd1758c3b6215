//! Morph-target weights named as `MESH:TARGET=WEIGHT` (`--morph`, for `render`, `pose` and the
//! viewer): the weights they set, for a model's poses, or an error that lists what is there.

use anyhow::{Context, anyhow, bail};

use super::lookup::number;
use crate::anim::MorphOverride;
use crate::asset::Model;

/// The weights `specs` set (each `MESH:TARGET=WEIGHT`), for `model`'s poses. Fails on a spec
/// that is not `MESH:TARGET=WEIGHT` or names a mesh or target that is not there (listing those
/// that are). Every node drawing a named mesh takes its weight.
pub fn morph_overrides(model: &Model, specs: &[String]) -> anyhow::Result<MorphOverride> {
    let mut overrides = MorphOverride::new(model.skeleton.rest_pose().morph_weights().len());
    for spec in specs {
        let (mesh, target, weight) = parse(model, spec).with_context(|| format!("--morph {spec}"))?;
        for instance in model.instances.iter().filter(|i| i.mesh == mesh) {
            overrides.set(model.morph_weight_range(instance).start + target, weight);
        }
    }
    Ok(overrides)
}

/// `MESH:TARGET=WEIGHT` → (mesh, target, weight). Mesh names may hold ':' themselves, so the
/// first ':' after which the rest names a target of a mesh called what comes before wins.
fn parse(model: &Model, spec: &str) -> anyhow::Result<(usize, usize, f32)> {
    let (names, weight) = spec
        .rsplit_once('=')
        .ok_or_else(|| anyhow!("expected MESH:TARGET=WEIGHT"))?;
    let weight = number(weight, "WEIGHT")?;
    // An error about a target of a mesh that exists says more than one about a mesh name.
    let (mut target_error, mut mesh_error) = (None, None);
    for (at, _) in names.match_indices(':') {
        let mesh = match find_mesh(model, &names[..at]) {
            Ok(mesh) => mesh,
            Err(error) => {
                mesh_error.get_or_insert(error);
                continue;
            }
        };
        match find_target(model, mesh, &names[at + 1..]) {
            Ok(target) => return Ok((mesh, target, weight)),
            Err(error) => {
                target_error.get_or_insert(error);
            }
        }
    }
    Err(target_error
        .or(mesh_error)
        .unwrap_or_else(|| anyhow!("expected MESH:TARGET=WEIGHT")))
}

/// A mesh with morph targets, by name or index.
fn find_mesh(model: &Model, wanted: &str) -> anyhow::Result<usize> {
    let morphed = |index: &usize| !model.meshes[*index].target_names.is_empty();
    let by_name = (0..model.meshes.len()).find(|&m| model.meshes[m].name == wanted);
    let by_index = wanted.trim().parse::<usize>().ok().filter(|&m| m < model.meshes.len());
    let file = model.path.display();
    let listed: Vec<String> = (0..model.meshes.len())
        .filter(morphed)
        .map(|m| format!("{m} '{}'", model.meshes[m].name))
        .collect();
    match by_name.or(by_index) {
        Some(mesh) if morphed(&mesh) => Ok(mesh),
        _ if listed.is_empty() => bail!("{file}: no mesh has morph targets (asked for '{wanted}')"),
        Some(mesh) => bail!(
            "{file}: mesh {mesh} '{}' has no morph targets (meshes with targets: {})",
            model.meshes[mesh].name,
            listed.join(", ")
        ),
        None => bail!(
            "{file}: no mesh '{wanted}' (meshes with morph targets: {})",
            listed.join(", ")
        ),
    }
}

/// One of `mesh`'s morph targets, by name or index.
fn find_target(model: &Model, mesh: usize, wanted: &str) -> anyhow::Result<usize> {
    let names = &model.meshes[mesh].target_names;
    if let Some(target) = names.iter().position(|name| name == wanted) {
        return Ok(target);
    }
    if let Some(target) = wanted.trim().parse::<usize>().ok().filter(|&t| t < names.len()) {
        return Ok(target);
    }
    let listed: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(t, name)| format!("{t} '{name}'"))
        .collect();
    bail!(
        "{}: mesh '{}' has no morph target '{wanted}' (its targets: {})",
        model.path.display(),
        model.meshes[mesh].name,
        listed.join(", ")
    )
}
