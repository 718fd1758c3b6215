"""Tests of room_blur.py: `python3 -m unittest discover -s tools/fidelity` (numpy)."""
import os, tempfile, unittest

import numpy as np

import room_blur

HEIGHT, WIDTH = 256, 512
# E[angle²] of a 2D Gaussian truncated at 3 sigma, in units of 2 sigma²: (1 - e^-4.5 (1 + 4.5)) / (1 - e^-4.5); the
# same for two passes of sigma/√2, each truncated at 3 of its sigmas, as their second moments add.
TRUNCATED_SECOND_MOMENT = (1 - np.exp(-4.5) * 5.5) / (1 - np.exp(-4.5))


def directions():
    """Each texel centre's unit direction, HEIGHT x WIDTH x 3."""
    polar, longitude = room_blur.texel_angles(HEIGHT, WIDTH)
    return np.stack([np.sin(polar)[:, None] * np.cos(longitude), np.sin(polar)[:, None] * np.sin(longitude),
                     np.cos(polar)[:, None] * np.ones(WIDTH)], axis=-1)


def energy(radiance):
    """The solid-angle-weighted sum of each channel."""
    return (radiance * room_blur.solid_angles(HEIGHT, WIDTH)[:, None, None]).sum(axis=(0, 1))


def single_texel(row, column):
    radiance = np.zeros((HEIGHT, WIDTH, 3))
    radiance[row, column] = (1.0, 2.0, 3.0)
    return radiance


class Blurred(unittest.TestCase):
    def test_a_bright_texel_spreads_as_a_gaussian_of_sigma_on_the_sphere(self):
        texel_directions = directions()
        for row, column in [(128, 100), (60, 7), (3, 0)]:  # the equator, mid-latitude, beside the pole
            spread = room_blur.blurred(single_texel(row, column))[..., 0]
            angle = np.arccos(np.clip(texel_directions @ texel_directions[row, column], -1, 1))
            weight = spread * room_blur.solid_angles(HEIGHT, WIDTH)[:, None]
            second_moment = (weight * angle**2).sum() / weight.sum()
            sigma = np.sqrt(second_moment / (2 * TRUNCATED_SECOND_MOMENT))
            self.assertAlmostEqual(sigma / room_blur.SIGMA, 1.0, delta=0.01, msg=f"row {row}")
            # Nothing past two passes' 3 sigma/√2 (give or take a texel, for where the texels' centres lie).
            reach = angle[spread > 1e-9 * spread.max()].max()
            self.assertAlmostEqual(reach, 2 * 3 * room_blur.SIGMA / np.sqrt(2), delta=1.5 * np.pi / HEIGHT,
                                   msg=f"row {row}")

    def test_one_pass_is_a_gaussian_truncated_at_3_sigma(self):
        texel_directions = directions()
        spread = room_blur.gaussian_pass(single_texel(128, 100), room_blur.SIGMA)[..., 0]
        angle = np.arccos(np.clip(texel_directions @ texel_directions[128, 100], -1, 1))
        inside = spread > 1e-9 * spread.max()
        self.assertAlmostEqual(angle[inside].max(), 3 * room_blur.SIGMA, delta=np.pi / HEIGHT)
        expected = spread.max() * np.exp(-0.5 * (angle[inside] / room_blur.SIGMA) ** 2)
        np.testing.assert_allclose(spread[inside], expected, rtol=1e-3)  # each row normalised alone

    def test_energy_is_conserved(self):
        for radiance in [np.random.default_rng(7).random((HEIGHT, WIDTH, 3)), single_texel(128, 5),
                         single_texel(0, 0)]:
            np.testing.assert_allclose(energy(room_blur.blurred(radiance)), energy(radiance), rtol=0.005)

    def test_a_uniform_map_stays_uniform(self):
        uniform = np.full((HEIGHT, WIDTH, 3), (0.5, 1.0, 4.0))
        np.testing.assert_allclose(room_blur.blurred(uniform), uniform, rtol=1e-9)


class RadianceFile(unittest.TestCase):
    def test_written_and_read_back_within_half_a_step(self):
        radiance = np.random.default_rng(3).random((4, 6, 3)) * np.logspace(-3, 2, 6)[None, :, None]
        radiance[0, 0] = 0.0
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "room.hdr")
            room_blur.write_hdr(path, radiance)
            read = room_blur.read_hdr(path)
        self.assertTrue((read[0, 0] == 0).all())
        # Half a step of the largest channel's exponent is at most 1/256 of that channel.
        self.assertTrue((np.abs(read - radiance) <= radiance.max(axis=2, keepdims=True) / 256).all())

if __name__ == "__main__":
    unittest.main()
