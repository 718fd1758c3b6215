"""``load`` and ``Model.pose`` against ``rigscope pose --format json`` (to 1e-6) and
``inspect --json``, for Fox, CesiumMan and a VRM avatar."""

from __future__ import annotations

import numpy as np
import pytest

import rigscope
from conftest import CESIUM_MAN, FOX, cli_json

TOLERANCE = 1e-6


def assert_pose_equals_cli(model: rigscope.Model, clip, time: float, cli: dict, pose: rigscope.Pose) -> None:
    """Every primitive's positions and weights and every joint's world matrix as the CLI's."""
    assert pose.clip == cli["clip"]
    assert [(p.node, p.mesh, p.primitive, p.visible) for p in pose.primitives] == [
        (p["node"], p["mesh"], p["primitive"], p["visible"]) for p in cli["primitives"]
    ]
    for ours, theirs in zip(pose.primitives, cli["primitives"]):
        assert ours.positions.dtype == np.float32 and ours.positions.shape == (len(theirs["positions"]), 3)
        np.testing.assert_allclose(ours.positions, np.array(theirs["positions"]), rtol=TOLERANCE, atol=TOLERANCE)
        np.testing.assert_allclose(ours.weights, np.array(theirs["weights"], dtype=np.float32), atol=TOLERANCE)
    assert pose.joint_nodes == [j["node"] for j in cli["joints"]]
    assert pose.joint_names == [j["name"] for j in cli["joints"]]
    # The CLI's matrices are column-major, ours row-major.
    theirs = np.array([j["world"] for j in cli["joints"]]).reshape(-1, 4, 4).transpose(0, 2, 1)
    np.testing.assert_allclose(pose.joint_world, theirs, rtol=TOLERANCE, atol=TOLERANCE)


CASES = [
    (FOX, "Walk", 0.5, {}),
    (FOX, "Survey", 1.25, {}),
    (FOX, None, 0.0, {}),
    (CESIUM_MAN, 0, 0.75, {}),
]


@pytest.mark.parametrize("path, clip, time, expressions", CASES)
def test_pose_equals_the_command(path, clip, time, expressions):
    model = rigscope.load(path)
    pose = model.pose(clip, time)
    words = ["pose", path, "--format", "json", f"--time={time}", "--no-springs"]
    words += [] if clip is None else [f"--clip={clip}"]
    assert_pose_equals_cli(model, clip, time, cli_json(*words), pose)


def test_a_vrm_pose_with_an_expression_and_springs_equals_the_command(stick_avatar):
    model = rigscope.load(stick_avatar)
    pose = model.pose("Wave", 0.5, expressions={"happy": 1.0})
    cli = cli_json("pose", stick_avatar, "--clip=Wave", "--time=0.5", "--expression=happy=1", "--no-springs")
    assert_pose_equals_cli(model, "Wave", 0.5, cli, pose)
    # The expression moved the strip by its morph target.
    assert pose.primitives[0].weights.tolist() == [1.0]
    np.testing.assert_allclose(pose.primitives[0].positions[:, 2], 0.05, atol=1e-6)
    sprung = model.pose("Wave", 0.5, springs=True)
    cli = cli_json("pose", stick_avatar, "--clip=Wave", "--time=0.5")
    assert_pose_equals_cli(model, "Wave", 0.5, cli, sprung)


def test_the_summary_matches_inspect():
    model = rigscope.load(CESIUM_MAN)
    report = cli_json("inspect", "--json", CESIUM_MAN)
    assert rigscope.inspect(CESIUM_MAN) == report
    assert len(model.joints) == model.rest_transforms.shape[0] and model.rest_transforms.shape[1:] == (4, 4)
    assert [clip.name for clip in model.clips] == [clip["name"] for clip in report["clips"]]
    vertices = sum(p.vertices for mesh in model.meshes for p in mesh.primitives)
    triangles = sum(p.triangles for mesh in model.meshes for p in mesh.primitives)
    assert (vertices, triangles) == (report["vertices"], report["triangles"])
    assert "POSITION" in model.meshes[0].primitives[0].attributes
    assert model.avatar is None
    # A root has no parent; every other joint's parent comes before it.
    parents = model.parents
    assert parents[0] == -1 and all(p < j for j, p in enumerate(parents) if p >= 0)


def test_rest_transforms_and_inverse_binds_agree_with_the_rest_pose():
    # At rest, each skinned joint's world matrix times its inverse bind is the skin's bind
    # placement; for Fox the rest pose is the bind pose, so world @ inverse_bind is identity.
    model = rigscope.load(FOX)
    rest = model.pose(None, 0.0)
    world_by_node = dict(zip(rest.joint_nodes, rest.joint_world))
    # The rest transforms, composed parents first, give the rest pose's world matrices.
    world = []
    for joint, parent in enumerate(model.parents):
        local = model.rest_transforms[joint].astype(np.float64)
        world.append(local if parent < 0 else world[parent] @ local)
    for joint, matrix in enumerate(world):
        np.testing.assert_allclose(matrix, world_by_node[model.joints[joint].node], atol=1e-4)
    skin = model.skins[0]
    assert skin.inverse_binds.shape == (len(skin.joints), 4, 4)
    for joint, inverse in zip(skin.joints, skin.inverse_binds):
        product = world[joint] @ inverse
        np.testing.assert_allclose(product, np.eye(4), atol=1e-3)


def test_the_avatar_map_expressions_and_morph_targets(stick_avatar):
    model = rigscope.load(stick_avatar)
    assert model.avatar is not None
    assert model.joints[model.avatar.humanoid["leftHand"]].name == "L_Hand"
    assert "happy" in model.avatar.expressions
    assert model.morph_targets == [("ArmStrip", ["Smile"])]
    (clip,) = model.clips
    assert (clip.name, clip.duration) == ("Wave", 1.0)
    assert [(model.joints[c.joint].name, c.property, c.keys) for c in clip.channels] == [("L_Arm", "rotation", 2)]


def test_an_unknown_clip_is_an_options_error_in_the_commands_words():
    model = rigscope.load(FOX)
    with pytest.raises(rigscope.OptionsError) as raised:
        model.pose("Dance", 0.0)
    assert "Dance" in str(raised.value) and isinstance(raised.value, ValueError)
