"""The compiled half of rigscope (Rust, PyO3): use the ``rigscope`` package's functions, which
wrap these and turn their JSON into typed objects."""

from typing import List, Optional, Tuple

import numpy as np

class Model:
    """A loaded model (``rigscope.Model`` wraps it)."""

    def summary_json(self) -> str:
        """Joints, skins, meshes, clips, avatar, materials and warnings as JSON."""
    def rest_transforms(self) -> np.ndarray:
        """(N, 4, 4) float32 local rest transforms, row-major, in joint order."""
    def inverse_binds(self) -> List[np.ndarray]:
        """Each skin's (K, 4, 4) float32 inverse bind matrices, row-major."""
    def pose(
        self, clip: Optional[str], time: float, expressions: List[Tuple[str, float]], springs: bool
    ) -> Tuple[
        Optional[str],
        List[Tuple[int, int, int, bool, np.ndarray, np.ndarray]],
        List[int],
        List[str],
        np.ndarray,
    ]:
        """(clip, [(node, mesh, primitive, visible, weights, positions (V, 3))], joint nodes,
        joint names, joint world matrices (J, 4, 4)); releases the GIL."""
    def lint_json(self) -> str:
        """``lint --json``'s report of this model."""

def load(path: str) -> Model:
    """Loads a model; releases the GIL."""

def inspect(path: str) -> str:
    """``rigscope inspect FILE --json``'s output."""

def lint(path: str) -> str:
    """Loads and lints a file: ``lint --json``'s report as JSON; releases the GIL."""

def render(path: str, width: int, height: int, clip: Optional[str], time: float, extra: List[str]) -> np.ndarray:
    """``rigscope render``'s picture, (H, W, 4) uint8; releases the GIL."""

def diff(a: str, b: str) -> str:
    """``rigscope diff A B --json``'s comparison."""

def convert(input: str, output: str, extra: List[str]) -> str:
    """``rigscope convert IN -o OUT --json``'s report."""
