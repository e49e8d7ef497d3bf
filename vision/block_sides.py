"""A block's sides placed on the photo's edges where the object mask lost them.

A block's outline is fitted to the object mask's outline (`candidates.block_outline`).
Where a tile's ground is in the table's own colour near the block's edge (a dark half
of a square cut corner to corner, on a dark table) the mask ends inside the tile, the
side fitted there runs through the tiles, and the grid laid in the outline is sheared
by up to half a tile: every cell is cut off its tile. Such a side is *skewed*: it
runs several degrees off the block's opposite side, which perspective alone turns a
degree or two. The photo still shows the side as a step in grey along its whole length
(the tiles' edge and their shadow), so a skewed side the mask does not fill along is
moved outwards, each end on its own, to where the grey steps most steadily along it,
among the places that run within those few degrees of the opposite side and that
turn the side about the end the mask holds (one end moves at most half as far as the
other). A side the mask fills, or one the mask lost whole (a block's last column, on a
cloth of its colour: both its ends lie a tile in, and later stages find that column
beside the block), is left as it was.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.candidates import Blob, block_outline, line_crossing
from vision.rectify import order_corners

BLOCK_MIN = 1.5  # tiles across from which a blob is a block
SAMPLES = 48  # points along a side
INSIDE_PX = 2.0  # how far inside a side the mask is checked for it (work px)
FILLED_MIN = 0.8  # a side whose inner strip the mask fills this much is kept
REACH = 0.3  # how far out a side may move, as a share of the block's depth (never in)
GAIN_MIN = 1.5  # a moved side must step this many times as steadily as before
SKEW_MIN = 4.0  # degrees off its opposite side from which a side is skewed
PIVOT_SHARE = 0.5  # a moved side's nearer end moves at most this share of its farther


def block_outline_on_edges(
    blob: Blob, side: float | None, mask: np.ndarray, grey: np.ndarray
) -> np.ndarray:
    """The outline of a blob to lay a grid of tiles in (work px): the mask's, with its
    sides placed on the photo's edges (:func:`sides_on_edges`) where the blob is a block,
    at least ``BLOCK_MIN`` tiles of ``side`` across. A smaller blob is one tile, fitted
    to its edge later, or a figure whose tile's ground the mask lost, whose outline says
    nothing of the tile's sides."""
    outline = block_outline(blob)
    if side and blob.short_side < BLOCK_MIN * side:
        return outline
    return sides_on_edges(outline, mask, grey)


def bent_outline_box(blob: Blob, outline: np.ndarray) -> np.ndarray | None:
    """The blob's least rectangle (work px, clockwise) where a block's ``outline`` is
    bent, a side :data:`SKEW_MIN` degrees or more off its opposite side; else None.

    Perspective turns opposite sides a degree or two, so a bent outline is fitted to
    something else than a block's straight sides: the steps between tiles laid a little
    askew to each other (a row laid by hand, each tile turned a degree or two and a few
    pixels off the line), or a side the mask lost that :func:`sides_on_edges` could not
    place. A grid laid in it cuts cells of very different sizes (halftone seed 7 #5: a
    row of three 34 px tiles, outlined 13 degrees bent, was cut at 47, 31 and 23 px and
    none of them was read), so the rectangle is offered as a second outline to lay
    grids in, and matching picks what explains the blob best.
    """
    quad = outline.astype(np.float64)
    runs = [quad[(k + 1) % 4] - quad[k] for k in range(4)]
    # side k and side k + 2 run opposite ways round the outline
    if all(abs(_skew(runs[k], -runs[k + 2])) < SKEW_MIN for k in range(2)):
        return None
    return order_corners(cv2.boxPoints(blob.box)).astype(np.float32)


def sides_on_edges(outline: np.ndarray, mask: np.ndarray, grey: np.ndarray) -> np.ndarray:
    """The block ``outline`` (4×2, work px, clockwise) with each side the mask does not
    fill moved onto the grey image's steadiest step nearby (see the module's note).

    Only a block with a side the mask does fill moves any: a row of discs (tokens)
    fills none of its sides (its discs touch each side at a point), and the table beside
    it has no steady step to offer.
    """
    quad = outline.astype(np.float64)
    sides = [(quad[k], quad[(k + 1) % 4], _outward(quad, k)) for k in range(4)]
    filled = [_filled(mask, *side) >= FILLED_MIN for side in sides]
    if all(filled) or not any(filled):
        return outline
    moved = []
    for k, (start, end, normal) in enumerate(sides):
        opposite = quad[(k + 2) % 4] - quad[(k + 3) % 4]  # run the same way as this side
        if filled[k] or abs(_skew(end - start, opposite)) < SKEW_MIN:
            moved.append((start, end))
            continue
        depth = (
            np.linalg.norm(quad[(k + 2) % 4] - quad[(k + 1) % 4])
            + np.linalg.norm(quad[(k + 3) % 4] - quad[k])
        ) / 2
        offsets = np.arange(int(REACH * depth) + 1, dtype=np.float64)
        ends = np.stack(np.meshgrid(offsets, offsets, indexing="ij"), axis=-1).reshape(-1, 2)
        turned = (end - start) + (ends[:, 1] - ends[:, 0])[:, None] * normal
        parallel = np.abs(_skew(turned, opposite)) < SKEW_MIN
        pivots = ends.min(axis=1) <= PIVOT_SHARE * ends.max(axis=1)
        ends = np.concatenate([[[0.0, 0.0]], ends[parallel & pivots]])
        steadiness = _steadiness(grey, start, end, normal, ends)
        best = int(np.argmax(steadiness))
        if steadiness[best] <= GAIN_MIN * steadiness[0]:
            moved.append((start, end))
            continue
        moved.append((start + ends[best, 0] * normal, end + ends[best, 1] * normal))
    lines = [(start, end - start) for start, end in moved]
    corners = [line_crossing(lines[k - 1], lines[k]) for k in range(4)]
    if any(c is None for c in corners):
        return outline
    return np.array(corners, np.float32)


def _skew(side: np.ndarray, opposite: np.ndarray) -> np.ndarray:
    """How many degrees ``side`` (…×2 vectors) runs off ``opposite``, signed."""
    cross = side[..., 0] * opposite[1] - side[..., 1] * opposite[0]
    dot = side[..., 0] * opposite[0] + side[..., 1] * opposite[1]
    return np.degrees(np.arctan2(cross, dot))


def _outward(quad: np.ndarray, k: int) -> np.ndarray:
    """The unit normal of side ``k`` pointing away from the quad's middle."""
    start, end = quad[k], quad[(k + 1) % 4]
    direction = (end - start) / max(np.linalg.norm(end - start), 1e-9)
    normal = np.array([-direction[1], direction[0]])
    if (quad.mean(axis=0) - (start + end) / 2) @ normal > 0:
        normal = -normal
    return normal


def _filled(mask: np.ndarray, start: np.ndarray, end: np.ndarray, normal: np.ndarray) -> float:
    """The share of a side's inner strip (``INSIDE_PX`` in) the mask holds."""
    t = np.linspace(0.05, 0.95, SAMPLES)[:, None]
    points = start + t * (end - start) - INSIDE_PX * normal
    xs = np.clip(np.round(points[:, 0]).astype(int), 0, mask.shape[1] - 1)
    ys = np.clip(np.round(points[:, 1]).astype(int), 0, mask.shape[0] - 1)
    return float(np.mean(mask[ys, xs] > 0))


def _steadiness(
    grey: np.ndarray, start: np.ndarray, end: np.ndarray, normal: np.ndarray, ends: np.ndarray
) -> np.ndarray:
    """For the side moved along ``normal`` by each pair of whole offsets in ``ends``
    (E×2: its start's, its end's), the median along the moved side of the grey's step
    across it: a block's edge steps all along, a line through its tiles only where it
    crosses a figure."""
    reach = int(ends.max()) + 1
    offsets = np.arange(-1, reach + 1, dtype=np.float32)
    t = np.linspace(0.05, 0.95, SAMPLES, dtype=np.float32)
    base = (start + t[:, None] * (end - start)).astype(np.float32)  # SAMPLES×2
    xs = base[:, 0:1] + offsets[None, :] * np.float32(normal[0])
    ys = base[:, 1:2] + offsets[None, :] * np.float32(normal[1])
    seen = cv2.remap(grey, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    # the step across the side at each point and offset 0..reach (a pixel either side)
    across = np.abs(seen[:, 2:].astype(np.float32) - seen[:, :-2])
    at = np.rint(ends[:, :1] + (ends[:, 1:] - ends[:, :1]) * t).astype(int)  # E×SAMPLES
    return np.median(across[np.arange(SAMPLES), at], axis=1)
