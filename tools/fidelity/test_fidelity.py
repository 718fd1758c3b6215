"""Tests of fidelity.py's measures: `python3 -m unittest discover -s tools/fidelity` (numpy and PIL)."""
import os, tempfile, unittest
from unittest import mock

import numpy as np
from PIL import Image

import fidelity, room_blur


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


class BlurredRoom(unittest.TestCase):
    def test_made_from_room_hdr_and_made_again_when_the_room_changes(self):
        with tempfile.TemporaryDirectory() as folder:
            room = os.path.join(folder, "room.hdr")
            room_blur.write_hdr(room, np.ones((8, 16, 3)))
            blurred = fidelity.blurred_room(folder)
            made = fidelity.stamp(blurred)
            np.testing.assert_allclose(room_blur.read_hdr(blurred), room_blur.read_hdr(room))
            self.assertEqual(fidelity.blurred_room(folder), blurred)
            self.assertEqual(fidelity.stamp(blurred), made)
            room_blur.write_hdr(room, np.full((8, 16, 3), 2.0))
            os.utime(room, ns=(os.stat(blurred).st_mtime_ns + 1,) * 2)
            fidelity.blurred_room(folder)
            self.assertNotEqual(fidelity.stamp(blurred), made)
            np.testing.assert_allclose(room_blur.read_hdr(blurred), room_blur.read_hdr(room))

    def test_pictures_drawn_again_when_the_room_changes(self):
        with tempfile.TemporaryDirectory() as folder:
            # A stand-in for rigscope that writes its -o picture and counts its runs.
            binary = os.path.join(folder, "rigscope")
            with open(binary, "w") as out:
                out.write("#!/bin/sh\necho run >> \"$(dirname \"$0\")/runs\"\n"
                          "while [ \"$1\" != -o ]; do shift; done; touch \"$2\"\n")
            os.chmod(binary, 0o755)
            listing = os.path.join(folder, "files.txt")
            with open(listing, "w") as out:
                out.write("gltf model.glb\n")
            room_blur.write_hdr(os.path.join(folder, "room.hdr"), np.ones((8, 16, 3)))

            def runs():
                with open(os.path.join(folder, "runs")) as log:
                    return log.read().count("run")

            with mock.patch.dict(os.environ, {"FIDELITY_FILES": listing}):
                fidelity.render_rigscope(binary, folder)
                fidelity.render_rigscope(binary, folder)
                self.assertEqual(runs(), 1)
                room = os.path.join(folder, "room.hdr")
                room_blur.write_hdr(room, np.full((8, 16, 3), 2.0))
                os.utime(room, ns=(os.stat(os.path.join(folder, "room-blurred.hdr")).st_mtime_ns + 1,) * 2)
                fidelity.render_rigscope(binary, folder)
                self.assertEqual(runs(), 2)


if __name__ == "__main__":
    unittest.main()
