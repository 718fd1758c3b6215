"""Tests of alignment.py: `python3 -m unittest discover -s tools/fidelity` (numpy and PIL)."""
import os, tempfile, unittest

import numpy as np
from PIL import Image

import alignment

BACKGROUND = (30, 36, 46)


def disc(centre, radius=60.0, size=(240, 320), colour=(200, 180, 160), supersampling=8):
    """A picture of an antialiased disc over BACKGROUND: each pixel mixed by the share of its sub-samples inside."""
    height, width = size
    offsets = (np.arange(supersampling) + 0.5) / supersampling
    y = np.arange(height)[:, None, None, None] + offsets[None, None, :, None]
    x = np.arange(width)[None, :, None, None] + offsets[None, None, None, :]
    coverage = (((x - centre[0]) ** 2 + (y - centre[1]) ** 2) < radius**2).mean((2, 3))
    return np.rint(np.asarray(BACKGROUND) + coverage[..., None] * (np.asarray(colour) - BACKGROUND)).astype(int)


def saved(levels, folder, name):
    path = os.path.join(folder, name)
    Image.fromarray(levels.astype(np.uint8)).save(path)
    return path


class OutlineShift(unittest.TestCase):
    def measured(self, shift):
        still = alignment.fidelity.model_mask(disc((160.0, 120.0)))
        moved = alignment.fidelity.model_mask(disc((160.0 + shift[0], 120.0 + shift[1])))
        return alignment.outline_shift(moved, still)

    def test_a_fraction_of_a_pixel(self):
        for shift in [(0.3, -0.2), (-0.5, 0.0), (0.0, 0.25)]:
            np.testing.assert_allclose(self.measured(shift), shift, atol=0.05, err_msg=str(shift))

    def test_whole_pixels_and_a_fraction(self):
        np.testing.assert_allclose(self.measured((3.4, -2.0)), (3.4, -2.0), atol=0.05)

    def test_none(self):
        np.testing.assert_allclose(self.measured((0.0, 0.0)), (0.0, 0.0), atol=1e-9)


class EdgePixels(unittest.TestCase):
    def test_both_sides_of_a_step_and_nothing_else(self):
        levels = np.full((10, 10, 3), 100)
        levels[:, 5:] = 130
        edges = alignment.edge_pixels(levels)
        # The step lies between columns 4 and 5; columns 3 and 6 are within 1 px of their pixels.
        self.assertTrue(edges[:, 3:7].all())
        self.assertFalse(edges[:, :3].any() or edges[:, 7:].any())

    def test_a_gentle_step_is_no_edge(self):
        levels = np.full((10, 10, 3), 100)
        levels[:, 5:] = 100 + alignment.EDGE_STEP
        self.assertFalse(alignment.edge_pixels(levels).any())


class Compare(unittest.TestCase):
    def test_a_difference_on_an_edge_inside_the_model(self):
        # A square with a bright left half and a dark right half; rigscope brighter only on the column right of
        # the edge between them.
        three = np.tile(np.asarray(BACKGROUND), (100, 100, 1))
        three[20:80, 20:50] = 200
        three[20:80, 50:80] = 100
        rig = three.copy()
        rig[20:80, 50] += 30
        with tempfile.TemporaryDirectory() as folder:
            m = alignment.compare(saved(three, folder, "three.png"), saved(rig, folder, "rig.png"))
        self.assertEqual(m["box"], (0, 0))
        self.assertEqual((m["only rigscope"], m["only three.js"]), (0, 0))
        np.testing.assert_allclose(m["shift"], (0, 0), atol=1e-9)
        self.assertAlmostEqual(m["edge share"], 1.0)
        self.assertGreater(m["signed on edges"], 0)
        self.assertEqual(m["signed off edges"], 0)
        self.assertEqual(m["mean off edges"], 0)


if __name__ == "__main__":
    unittest.main()
