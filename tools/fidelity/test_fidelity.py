"""Tests of fidelity.py's measures: `python3 -m unittest discover -s tools/fidelity` (numpy and PIL)."""
import os, tempfile, unittest

import numpy as np
from PIL import Image

import fidelity


def saved(levels, folder, name):
    path = os.path.join(folder, name)
    Image.fromarray(np.asarray(levels, np.uint8)).save(path)
    return path


def square_over(background, model=(200, 150, 100), size=40):
    """A size x size picture of `background` with a 20 x 20 square of `model` in its middle."""
    picture = np.tile(np.asarray(background), (size, size, 1))
    picture[10:30, 10:30] = model
    return picture


class Interior(unittest.TestCase):
    def test_the_square_shrunk_by_two_pixels(self):
        with tempfile.TemporaryDirectory() as folder:
            three = saved(square_over((30, 36, 46)), folder, "three.png")
            rig = saved(square_over((30, 36, 46), model=(204, 150, 100)), folder, "rig.png")
            mean, p95, signed = fidelity.interior(rig, three)
        self.assertAlmostEqual(mean, 4 / 3)
        self.assertAlmostEqual(signed, 4 / 3)
        self.assertEqual(fidelity.shrunk(fidelity.model_mask(square_over((30, 36, 46))), 2).sum(), 16 * 16)

    def test_a_model_colour_near_one_background_is_model_in_the_other_picture_alone(self):
        dark_model = (62, 64, 70)
        self.assertFalse(fidelity.model_mask(square_over((60, 63, 69), dark_model)).any())
        self.assertEqual(fidelity.model_mask(square_over((30, 36, 46), dark_model)).sum(), 20 * 20)


class BackgroundsDiffer(unittest.TestCase):
    def test_corners_compared(self):
        with tempfile.TemporaryDirectory() as folder:
            three = saved(square_over((30, 36, 46)), folder, "three.png")
            same = saved(square_over((31, 36, 45)), folder, "same.png")
            other = saved(square_over((60, 63, 69)), folder, "other.png")
            self.assertFalse(fidelity.backgrounds_differ(three, same))
            self.assertTrue(fidelity.backgrounds_differ(three, other))
            self.assertFalse(fidelity.backgrounds_differ(three, os.path.join(folder, "missing.png")))


if __name__ == "__main__":
    unittest.main()
