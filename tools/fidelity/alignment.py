#!/usr/bin/env python3
"""alignment.py THREE_DIR RIG_DIR -- whether a row of the fidelity table (fidelity.py) differs in where the model is
drawn or in how it is shaded. For each row of files.txt ($FIDELITY_FILES replaces it) with both pictures, one line of
a Markdown table:

    shift x, y      where rigscope's outline lies against three.js's, in pixels (+x right, +y down): the whole
                    pixels of the model masks' phase correlation, then the fraction by least squares on the masks'
                    difference along the outline, five times over (Lucas-Kanade: a thresholded mask flips pixels
                    along the outline in proportion to a sub-pixel shift, so the fraction is measured to about
                    0.05 px on a model's outline)
    box w, h        the width and height of the model's bounding box, rigscope's less three.js's, in pixels
    only rigscope,  the pixels that are model in one picture alone, as a share of three.js's model: where the
    only three.js   outlines agree, these are model colours within fidelity.py's 8 levels of one picture's background
    mean            fidelity.py's mean |rigscope - three.js| inside the model
    on edges        the share of the inside within 1 px of an edge in three.js's picture (a step of over 24 levels
                    between neighbours: depth edges inside the model, texture edges), and its share of the mean
    signed          the mean signed difference (positive: rigscope brighter) on those edge pixels and off them
    off edges       the mean |rigscope - three.js| off the edges: what the row reads without them

The masks, the inside and the mean are fidelity.py's (model_mask, shrunk, interior)."""
import os, sys

import numpy as np

import fidelity

EDGE_STEP = 24


def whole_pixel_shift(moved, still):
    """(dx, dy) in whole pixels that best carries mask `still` onto mask `moved` (phase correlation)."""
    product = np.fft.fft2(moved) * np.conj(np.fft.fft2(still))
    correlation = np.fft.ifft2(product / (np.abs(product) + 1e-9)).real
    y, x = np.unravel_index(correlation.argmax(), correlation.shape)
    height, width = correlation.shape
    return (x if x <= width // 2 else x - width), (y if y <= height // 2 else y - height)


def moved_by(mask, shift):
    """`mask` (floats) carried by `shift` (dx, dy) pixels, fractions mixed linearly between whole-pixel moves."""
    whole_x, whole_y = int(np.floor(shift[0])), int(np.floor(shift[1]))
    fraction_x, fraction_y = shift[0] - whole_x, shift[1] - whole_y
    at = lambda dx, dy: np.roll(mask, (whole_y + dy, whole_x + dx), axis=(0, 1))
    return ((1 - fraction_y) * ((1 - fraction_x) * at(0, 0) + fraction_x * at(1, 0))
            + fraction_y * ((1 - fraction_x) * at(0, 1) + fraction_x * at(1, 1)))


def outline_shift(moved, still, rounds=5):
    """(dx, dy) in pixels, fractions included, that carries mask `still` onto mask `moved`: the whole pixels of
    their phase correlation, then `rounds` of least squares on their difference along the outline (Lucas-Kanade)."""
    moved, still = moved.astype(float), still.astype(float)
    shift = np.asarray(whole_pixel_shift(moved, still), float)
    for _ in range(rounds):
        carried = moved_by(still, shift)
        gradient_y, gradient_x = np.gradient((moved + carried) / 2)
        outline = (gradient_x != 0) | (gradient_y != 0)
        if not outline.any():
            break
        # moved(p) = carried(p - s) for the remaining s, so moved - carried = -s . gradient to first order.
        slopes = np.stack([gradient_x[outline], gradient_y[outline]], 1)
        step, *_ = np.linalg.lstsq(slopes, -(moved - carried)[outline], rcond=None)
        shift += step
    return float(shift[0]), float(shift[1])


def grown(mask, pixels):
    """`mask` and every pixel within `pixels` steps (4-neighbour) of it."""
    for _ in range(pixels):
        p = np.pad(mask, 1)
        mask = p[1:-1, 1:-1] | p[:-2, 1:-1] | p[2:, 1:-1] | p[1:-1, :-2] | p[1:-1, 2:]
    return mask


def edge_pixels(levels):
    """The pixels within 1 px of a step of over EDGE_STEP levels (in the mean of R, G and B) between neighbours."""
    brightness = levels.mean(2)
    across, down = np.abs(np.diff(brightness, axis=1)) > EDGE_STEP, np.abs(np.diff(brightness, axis=0)) > EDGE_STEP
    step = np.zeros(brightness.shape, bool)
    step[:, :-1] |= across
    step[:, 1:] |= across
    step[:-1, :] |= down
    step[1:, :] |= down
    return grown(step, 1)


def box(mask):
    """(width, height) of the mask's bounding box in pixels."""
    rows, columns = np.nonzero(mask)
    return columns.max() - columns.min() + 1, rows.max() - rows.min() + 1


def compare(three_png, rig_png):
    """The row's numbers (see the module's text) as a dict, or None when either picture shows no model."""
    rig, three = fidelity.levels(rig_png), fidelity.levels(three_png)
    rig_mask, three_mask = fidelity.model_mask(rig), fidelity.model_mask(three)
    inside = fidelity.shrunk(rig_mask & three_mask, 2)
    if not inside.any():
        return None
    difference = (rig - three).mean(2)
    on_edges = inside & edge_pixels(three)
    off_edges = inside & ~on_edges
    absolute = np.abs(rig - three).mean(2)
    (rig_width, rig_height), (three_width, three_height) = box(rig_mask), box(three_mask)
    signed = lambda where: difference[where].mean() if where.any() else 0.0
    return {
        "shift": outline_shift(rig_mask, three_mask),
        "box": (rig_width - three_width, rig_height - three_height),
        "only rigscope": (rig_mask & ~three_mask).sum() / three_mask.sum(),
        "only three.js": (three_mask & ~rig_mask).sum() / three_mask.sum(),
        "mean": absolute[inside].mean(),
        "edge pixels": on_edges.sum() / inside.sum(),
        "edge share": absolute[on_edges].sum() / max(absolute[inside].sum(), 1e-9),
        "signed on edges": signed(on_edges),
        "signed off edges": signed(off_edges),
        "mean off edges": absolute[off_edges].mean() if off_edges.any() else 0.0,
    }


def row(name, m):
    """The Markdown line of `m` (compare's dict) for the file called `name`."""
    return (f"| {name} | {m['shift'][0]:+.2f} | {m['shift'][1]:+.2f} | {m['box'][0]:+d} | {m['box'][1]:+d} | "
            f"{100 * m['only rigscope']:.1f}% | {100 * m['only three.js']:.1f}% | {m['mean']:.1f} | "
            f"{100 * m['edge pixels']:.0f}% | {100 * m['edge share']:.0f}% | {m['signed on edges']:+.1f} | "
            f"{m['mean off edges']:.1f} | {m['signed off edges']:+.1f} |")


def main(three, rig):
    print("| File | shift x | shift y | box w | box h | only rigscope | only three.js | mean | on edges: pixels | "
          "of the mean | signed | off edges: mean | signed |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for _, _, name, _ in fidelity.files():
        three_png, rig_png = (os.path.join(directory, name + ".png") for directory in (three, rig))
        if os.path.exists(three_png) and os.path.exists(rig_png):
            m = compare(three_png, rig_png)
            if m is not None:
                print(row(name.replace("~", "/"), m))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
