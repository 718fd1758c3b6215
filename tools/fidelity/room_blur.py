#!/usr/bin/env python3
"""The room three.js lights with, blurred as three.js blurs it: `room_blur.py IN.hdr OUT.hdr`.

three.js's page lights each model with `PMREMGenerator.fromScene(new RoomEnvironment(), 0.04)`: before the GGX
prefiltering, r187's `_blur` convolves the room's cube capture twice with a spherical Gaussian of sigma 0.04/√2
radians per axis (its blur shader samples each pass to 3 of that pass's sigmas, weighting by solid angle), so the room
three.js reflects is the capture convolved by a Gaussian of sigma 0.04 radians per axis (the variances add).
peer-three's room-hdr.mjs writes the capture unblurred; this does the same two passes to its equirectangular .hdr, on
the sphere, so that rigscope (`render --environment`) is lit by the same light as three.js.

In a pass, each output texel is the mean of the input texels within 3 sigma of it, weighted by
exp(-angle² / 2 sigma²) times the texel's solid angle, and normalised as three.js's shader normalises its samples.
The kernel between two rows depends only on the difference of longitude, so each output row is a sum, over the input
rows within 3 sigma of its latitude, of circular convolutions along the row, done with real FFTs (about a second a
pass for 1024x512)."""
import sys

import numpy as np

SIGMA = 0.04  # radians: fidelity.py's peer page passes 0.04 to fromScene
TRUNCATION = 3.0  # sigmas of a pass, as three.js's blur shader


def read_hdr(path):
    """A flat (not run-length encoded) Radiance .hdr, as room-hdr.mjs writes it, as a height x width x 3 float
    array, each value at the middle of its RGBE step (as Radiance's reader and rigscope read it)."""
    with open(path, "rb") as source:
        data = source.read()
    header_end = data.find(b"\n\n")
    if not data.startswith(b"#?") or header_end < 0:
        raise ValueError(f"{path} is not a Radiance .hdr")
    size_end = data.find(b"\n", header_end + 2)
    words = data[header_end + 2:size_end].split()
    if len(words) != 4 or words[0] != b"-Y" or words[2] != b"+X":
        raise ValueError(f"{path}: unsupported orientation {data[header_end + 2:size_end]!r}")
    height, width = int(words[1]), int(words[3])
    body = np.frombuffer(data, np.uint8, offset=size_end + 1)
    if body.size != height * width * 4:
        raise ValueError(f"{path}: {body.size} bytes of pixels for {width}x{height} (run-length encoded?)")
    rgbe = body.reshape(height, width, 4).astype(np.float64)
    scale = np.where(rgbe[..., 3] > 0, np.ldexp(1.0, rgbe[..., 3].astype(int) - 136), 0.0)
    return (rgbe[..., :3] + 0.5) * scale[..., None]


def write_hdr(path, radiance):
    """Writes a height x width x 3 float array as a flat Radiance .hdr, encoded as room-hdr.mjs encodes (each
    mantissa rounded down under the largest channel's exponent; RGBE holds no negative values)."""
    height, width, _ = radiance.shape
    largest = radiance.max(axis=2)
    lit = largest >= 1e-32
    exponent = np.ceil(np.log2(np.where(lit, largest, 1.0)) + 1e-9).astype(int)
    mantissas = np.clip(np.floor(radiance * np.ldexp(256.0, -exponent)[..., None]), 0, 255)
    rgbe = np.zeros((height, width, 4), np.uint8)
    rgbe[..., :3] = np.where(lit[..., None], mantissas, 0)
    rgbe[..., 3] = np.where(lit, exponent + 128, 0)
    with open(path, "wb") as out:
        out.write(f"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y {height} +X {width}\n".encode())
        out.write(rgbe.tobytes())


def texel_angles(height, width):
    """Each row's polar angle and each column's longitude at the texel centres (radians)."""
    polar = (np.arange(height) + 0.5) * np.pi / height
    longitude = (np.arange(width) + 0.5) * 2 * np.pi / width
    return polar, longitude


def solid_angles(height, width):
    """Each row's texel solid angle (steradians): the band between its edges' polar angles, split into columns."""
    edges = np.arange(height + 1) * np.pi / height
    return (np.cos(edges[:-1]) - np.cos(edges[1:])) * 2 * np.pi / width


def blurred(radiance, sigma=SIGMA):
    """`radiance` (an equirectangular height x width x 3 array) blurred as three.js's PMREMGenerator blurs by
    `sigma` radians: two passes of a Gaussian of sigma/√2."""
    return gaussian_pass(gaussian_pass(radiance, sigma / np.sqrt(2)), sigma / np.sqrt(2))


def gaussian_pass(radiance, sigma):
    """`radiance` convolved on the sphere by a Gaussian of `sigma` radians, truncated at TRUNCATION sigmas, each
    output texel normalised by its kernel's weight."""
    height, width, _ = radiance.shape
    polar, _ = texel_angles(height, width)
    texel_solid_angle = solid_angles(height, width)
    reach = TRUNCATION * sigma
    # Longitude of each column relative to column 0, for kernels laid out as circular convolution wants them.
    offset = np.arange(width) * 2 * np.pi / width
    spectra = np.fft.rfft(radiance, axis=1)
    out = np.empty_like(radiance)
    for row in range(height):
        near = np.flatnonzero(np.abs(polar - polar[row]) <= reach)
        cos_angle = (np.cos(polar[row]) * np.cos(polar[near])[:, None]
                     + np.sin(polar[row]) * np.sin(polar[near])[:, None] * np.cos(offset)[None, :])
        angle = np.arccos(np.clip(cos_angle, -1.0, 1.0))
        kernel = np.where(angle <= reach, np.exp(-0.5 * (angle / sigma) ** 2), 0.0) * texel_solid_angle[near, None]
        summed = np.einsum("rk,rkc->kc", np.fft.rfft(kernel, axis=1), spectra[near])
        out[row] = np.fft.irfft(summed, n=width, axis=0) / kernel.sum()
    # The transforms' rounding leaves specks of about 1e-17 either side of zero where the kernel does not reach.
    return np.maximum(out, 0.0)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    write_hdr(sys.argv[2], blurred(read_hdr(sys.argv[1])))


if __name__ == "__main__":
    main()
