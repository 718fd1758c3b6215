"""rigscope for Python: load skinned, animated models (glTF, VRM, FBX, OBJ, MD5), read their
rigs, pose them into NumPy arrays, lint them, render them and compare or convert them.

Every function runs the code the ``rigscope`` command runs, so results equal the command's:
``Model.pose`` equals ``rigscope pose --format json``, :func:`lint` equals ``lint --json``,
:func:`render` equals ``render``'s PNG. Loading, posing, linting and rendering release the
GIL, so threads run them in parallel.

    >>> import rigscope
    >>> fox = rigscope.load("Fox.glb")
    >>> [clip.name for clip in fox.clips]
    ['Survey', 'Walk', 'Run']
    >>> pose = fox.pose("Walk", 0.5)
    >>> pose.primitives[0].positions.shape
    (1728, 3)
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

# As the rigscope command does (src/render/gpu.rs, leave_out_vulkan_device_selection): keep
# Mesa's Vulkan device-selection layer, which connects to a Wayland compositor and complains
# without one, out of headless rendering, unless the user chose a device.
if not any(name == "NODEVICE_SELECT" or name.startswith("MESA_VK_DEVICE_SELECT") for name in os.environ):
    os.environ["NODEVICE_SELECT"] = "1"

from . import _native, exceptions  # noqa: E402
from .exceptions import (
    InvalidFileError,
    NotFoundError,
    OptionsError,
    RenderError,
    RigscopeError,
    UnreadableError,
    UnsupportedError,
    WriteError,
)

PathLike = Union[str, "os.PathLike[str]"]

__all__ = [
    "load",
    "inspect",
    "lint",
    "render",
    "diff",
    "convert",
    "Model",
    "Joint",
    "Skin",
    "Mesh",
    "Primitive",
    "Clip",
    "Channel",
    "Avatar",
    "Pose",
    "PosedPrimitive",
    "LintReport",
    "Finding",
]
__all__ += exceptions.__all__


@dataclass(frozen=True)
class Joint:
    """One joint (every node of the file's scene is one)."""

    name: str
    #: Index in ``Model.joints`` of the parent, or None for a root.
    parent: Optional[int]
    #: The file's node index (``pose``'s ``node``).
    node: int


@dataclass(frozen=True)
class Skin:
    """A skin: the joints that deform its meshes and their inverse bind matrices."""

    name: str
    #: Indices into ``Model.joints``.
    joints: List[int]
    #: (K, 4, 4) float32, one per joint: model (bind) space to joint space, row-major.
    inverse_binds: np.ndarray


@dataclass(frozen=True)
class Primitive:
    """One primitive's size and vertex attributes."""

    vertices: int
    #: 0 for lines and points.
    triangles: int
    #: Attribute semantics as the file names them (POSITION, NORMAL, JOINTS_0, ...).
    attributes: List[str]
    #: Index into ``Model.materials``, or None.
    material: Optional[int]


@dataclass(frozen=True)
class Mesh:
    """A mesh: its primitives and morph-target names."""

    name: str
    primitives: List[Primitive]
    morph_targets: List[str]


@dataclass(frozen=True)
class Channel:
    """What one channel of a clip animates."""

    #: Index into ``Model.joints``.
    joint: int
    #: ``translation``, ``rotation``, ``scale``, ``weights`` or ``pointer``.
    property: str
    keys: int


@dataclass(frozen=True)
class Clip:
    """An animation clip."""

    name: str
    #: Seconds.
    duration: float
    channels: List[Channel]


@dataclass(frozen=True)
class Avatar:
    """A VRM avatar's humanoid map and expressions."""

    #: Humanoid bone name (``hips``, ``leftHand``, ...) to index into ``Model.joints``.
    humanoid: Dict[str, int]
    #: Expression names (presets such as ``happy``, ``blink``, ``aa``, and the file's own).
    expressions: List[str]


@dataclass(frozen=True)
class PosedPrimitive:
    """One posed primitive."""

    #: The file's node the primitive's mesh hangs on.
    node: int
    mesh: int
    primitive: int
    #: False where KHR_node_visibility hides the node in this pose.
    visible: bool
    #: The node's morph-target weights, float32.
    weights: np.ndarray
    #: (V, 3) float32 world-space positions after morphing and skinning.
    positions: np.ndarray


@dataclass(frozen=True)
class Pose:
    """A posed model, as ``rigscope pose --format json`` gives it."""

    #: The clip the pose comes from, or None for the rest pose.
    clip: Optional[str]
    #: In the file's order: by node, mesh, primitive.
    primitives: List[PosedPrimitive]
    #: The joints' file nodes, in node order (``pose``'s ``joints``).
    joint_nodes: List[int]
    joint_names: List[str]
    #: (J, 4, 4) float32 model (world) matrices, row-major: ``world[j] @ [x, y, z, 1]``.
    joint_world: np.ndarray


@dataclass(frozen=True)
class Finding:
    """One lint finding, as ``lint --json`` reports it."""

    #: The rule (``weights-not-normalised``, ...).
    code: str
    #: ``error``, ``warning`` or ``note``.
    severity: str
    message: str
    #: What it is about: ``mesh 'Body' primitive 0``, ``joint 'hand.L'``, ...
    location: str
    #: How many vertices, influences, keys or joints.
    count: int


@dataclass(frozen=True)
class LintReport:
    """One model's lint, as ``lint --json``'s line for it."""

    errors: int
    warnings: int
    notes: int
    findings: List[Finding] = field(default_factory=list)

    @classmethod
    def _from_json(cls, text: str) -> "LintReport":
        report = json.loads(text)
        findings = [
            Finding(
                code=f["rule"],
                severity=f["severity"],
                message=f["message"],
                location=f["subject"],
                count=f["count"],
            )
            for f in report["findings"]
        ]
        return cls(report["errors"], report["warnings"], report["notes"], findings)


class Model:
    """A loaded model: its rig, meshes, clips, avatar, materials and the loader's warnings.

    Made by :func:`load`. Joints are in the skeleton's order (parents first); matrices are
    row-major float32 arrays.
    """

    def __init__(self, native: Any) -> None:
        self._native = native
        summary = json.loads(native.summary_json())
        #: The file the model was loaded from.
        self.path: str = summary["path"]
        self.joints: List[Joint] = [Joint(j["name"], j["parent"], j["node"]) for j in summary["joints"]]
        #: (N, 4, 4) float32 rest transforms, local (joint to parent space).
        self.rest_transforms: np.ndarray = native.rest_transforms()
        binds = native.inverse_binds()
        self.skins: List[Skin] = [Skin(s["name"], s["joints"], b) for s, b in zip(summary["skins"], binds)]
        self.meshes: List[Mesh] = [
            Mesh(
                m["name"],
                [Primitive(p["vertices"], p["triangles"], p["attributes"], p["material"]) for p in m["primitives"]],
                m["morph_targets"],
            )
            for m in summary["meshes"]
        ]
        self.clips: List[Clip] = [
            Clip(c["name"], c["duration"], [Channel(ch["joint"], ch["property"], ch["keys"]) for ch in c["channels"]])
            for c in summary["clips"]
        ]
        avatar = summary["avatar"]
        #: The VRM avatar, or None for files that are not VRM.
        self.avatar: Optional[Avatar] = (
            Avatar({bone: joint for bone, joint in avatar["humanoid"]}, avatar["expressions"]) if avatar else None
        )
        self.materials: List[str] = summary["materials"]
        #: What the loader had to repair or leave out, one sentence each.
        self.warnings: List[str] = summary["warnings"]

    @property
    def joint_names(self) -> List[str]:
        """The joints' names, in ``joints``' order."""
        return [joint.name for joint in self.joints]

    @property
    def parents(self) -> np.ndarray:
        """Each joint's parent index (-1 for a root), int64."""
        return np.array([-1 if j.parent is None else j.parent for j in self.joints], dtype=np.int64)

    @property
    def morph_targets(self) -> List[Tuple[str, List[str]]]:
        """(mesh name, its morph-target names) for each mesh that has any."""
        return [(mesh.name, mesh.morph_targets) for mesh in self.meshes if mesh.morph_targets]

    def pose(
        self,
        clip: Union[str, int, None] = None,
        time: float = 0.0,
        *,
        expressions: Optional[Mapping[str, float]] = None,
        springs: bool = False,
    ) -> Pose:
        """Poses the model at ``time`` seconds into ``clip`` (a name or index; None for the
        rest pose), with VRM ``expressions`` set to weights from 0 to 1 and, with ``springs``,
        the spring bones simulated from time 0. Equals ``rigscope pose --format json`` with the
        same options (``--no-springs`` unless ``springs``). Releases the GIL."""
        words = [] if expressions is None else [(str(k), float(v)) for k, v in expressions.items()]
        name = None if clip is None else str(clip)
        clip_name, primitives, nodes, names, world = self._native.pose(name, float(time), words, bool(springs))
        return Pose(clip_name, [PosedPrimitive(*p) for p in primitives], nodes, names, world)

    def lint(self) -> LintReport:
        """This model's lint findings (``rigscope lint --json``'s)."""
        return LintReport._from_json(self._native.lint_json())

    def __repr__(self) -> str:
        return f"<rigscope.Model {self.path!r}: {len(self.joints)} joints, {len(self.meshes)} meshes, {len(self.clips)} clips>"


def load(path: PathLike) -> Model:
    """Loads a model (.glb, .gltf, .vrm, .vrma, .fbx, .obj or .md5mesh). Releases the GIL.

    Raises :class:`NotFoundError` (a :class:`FileNotFoundError`) for a missing file,
    :class:`InvalidFileError` for broken data, :class:`UnsupportedError` for a type rigscope
    does not read."""
    return Model(_native.load(os.fspath(path)))


def inspect(path: PathLike) -> Dict[str, Any]:
    """``rigscope inspect FILE --json``: the file's summary as a dict."""
    return json.loads(_native.inspect(os.fspath(path)))


def lint(path: PathLike) -> LintReport:
    """Loads and lints a file: ``rigscope lint --json``'s findings. Releases the GIL."""
    return LintReport._from_json(_native.lint(os.fspath(path)))


def render(
    path: PathLike,
    width: int = 800,
    height: int = 600,
    *,
    clip: Union[str, int, None] = None,
    time: float = 0.0,
    options: Sequence[str] = (),
) -> np.ndarray:
    """``rigscope render FILE --size WIDTHxHEIGHT``'s picture as an (H, W, 4) uint8 RGBA
    array: the same pixels as the PNG. ``clip`` defaults to the first clip, as ``render``'s
    does; ``options`` are more ``render`` options as words (``["--skeleton", "--yaw", "30"]``).
    Releases the GIL."""
    name = None if clip is None else str(clip)
    return _native.render(os.fspath(path), int(width), int(height), name, float(time), [str(o) for o in options])


def diff(a: PathLike, b: PathLike) -> Dict[str, Any]:
    """``rigscope diff A B --json``: what changed from ``a`` to ``b`` (its ``differs`` says
    whether anything differs beyond the default tolerances)."""
    return json.loads(_native.diff(os.fspath(a), os.fspath(b)))


def convert(source: PathLike, output: PathLike, options: Sequence[str] = ()) -> Dict[str, Any]:
    """``rigscope convert SOURCE -o OUTPUT --json``: writes ``output`` (.glb, .gltf, .vrm or
    .vrma) and returns the command's report; ``options`` are more ``convert`` options as words
    (``["--draco"]``)."""
    return json.loads(_native.convert(os.fspath(source), os.fspath(output), [str(o) for o in options]))
