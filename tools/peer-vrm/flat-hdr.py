#!/usr/bin/env python3
"""Write an equirectangular Radiance .hdr (RGBE) of one constant colour: a uniform environment.

    python3 flat-hdr.py OUT.hdr R [G B] [--size 64x32] [--three-ambient]

R G B are linear radiance values (one value = grey). With --three-ambient they are instead read as the
intensity of a white three.js AmbientLight (render-vrm.mjs --ambient I) and divided by pi: a uniform
environment of radiance L lights a Lambertian surface with irradiance pi*L, so its diffuse colour is
albedo*L, while three.js's AmbientLight of intensity I gives albedo*I/pi (MeshStandardMaterial and
three-vrm's MToon indirect term alike). So `--ambient 3.14159` on the three-vrm side matches
`flat-hdr.py flat.hdr 1` (= `flat-hdr.py flat.hdr 3.14159 --three-ambient`) on the rigscope side:
`rigscope render FILE --environment flat.hdr`.

The file: header `#?RADIANCE`, `FORMAT=32-bit_rle_rgbe`, `EXPOSURE=1.0`, resolution line `-Y H +X W`,
then H scanlines, new-style run-length encoded (each component as one or more runs) when 8 <= W <= 32767,
flat RGBE otherwise. RGBE stores a colour with 8-bit mantissas sharing one exponent, so a value is
stored exactly only when it is m/256 * 2^k with integer m; the value as stored (read back both the way
Radiance does, (m+0.5)*2^(e-136), and the way most libraries do, m*2^(e-136)) is printed on stdout.
Standard library only.
"""
import argparse
import math
import sys


def to_rgbe(rgb):
    v = max(rgb)
    if v < 1e-32:
        return bytes([0, 0, 0, 0])
    m, e = math.frexp(v)  # v = m * 2**e, 0.5 <= m < 1
    scale = m * 256.0 / v
    return bytes([min(255, int(c * scale)) for c in rgb] + [e + 128])


def from_rgbe(px, half):
    if px[3] == 0:
        return (0.0, 0.0, 0.0)
    f = math.ldexp(1.0, px[3] - 136)
    return tuple((c + (0.5 if half else 0.0)) * f for c in px[:3])


def rle_scanline(pixel, width):
    """New-style RLE scanline of `width` copies of one RGBE pixel: 2, 2, width>>8, width&255, then for
    each component runs of at most 127 (count byte 128+n, then the value)."""
    out = bytearray([2, 2, width >> 8, width & 255])
    for c in range(4):
        left = width
        while left > 0:
            n = min(127, left)
            out += bytes([128 + n, pixel[c]])
            left -= n
    return bytes(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('out', help='the .hdr to write')
    ap.add_argument('colour', nargs='+', type=float, help='R [G B]: linear radiance (one value: grey)')
    ap.add_argument('--size', default='64x32', help='WIDTHxHEIGHT (default 64x32; equirectangular is 2:1)')
    ap.add_argument('--three-ambient', action='store_true',
                    help='the values are a three.js AmbientLight intensity: divide by pi')
    a = ap.parse_args()
    if len(a.colour) not in (1, 3):
        ap.error('give one value (grey) or three (R G B)')
    rgb = a.colour * 3 if len(a.colour) == 1 else a.colour
    if any(c < 0 or not math.isfinite(c) for c in rgb):
        ap.error('colour values must be finite and >= 0')
    if a.three_ambient:
        rgb = [c / math.pi for c in rgb]
    try:
        w, h = (int(x) for x in a.size.lower().split('x'))
        assert w > 0 and h > 0
    except (ValueError, AssertionError):
        ap.error('--size is WIDTHxHEIGHT, e.g. 64x32')
    px = to_rgbe(rgb)
    line = rle_scanline(px, w) if 8 <= w <= 32767 else px * w
    header = f'#?RADIANCE\n# flat-hdr.py: uniform radiance {rgb[0]:.9g} {rgb[1]:.9g} {rgb[2]:.9g}\n' \
             f'FORMAT=32-bit_rle_rgbe\nEXPOSURE=1.0\n\n-Y {h} +X {w}\n'
    with open(a.out, 'wb') as f:
        f.write(header.encode('ascii'))
        for _ in range(h):
            f.write(line)
    fmt = lambda t: ' '.join(f'{c:.9g}' for c in t)
    print(f'{a.out}: {w}x{h}, radiance asked {fmt(rgb)}; RGBE {list(px)} reads back as {fmt(from_rgbe(px, False))} '
          f'(m*2^(e-136)) or {fmt(from_rgbe(px, True))} (Radiance, (m+0.5)*2^(e-136))')


if __name__ == '__main__':
    sys.exit(main())
