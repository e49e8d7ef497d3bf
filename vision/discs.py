"""Stage 2 for round pieces: touching discs (round tiles, tokens) told apart.

A blob of the object mask may hold one disc or several touching ones: a row of
tokens, a cluster or a packed block of round tiles. Each function returns the discs
it finds as ellipse boxes (quads in work px, see :func:`vision.rectify.quad_from_ellipse`).

- :func:`disc_split` reads the mask alone: distance peaks, the arcs and notches of
  the outline, the width of a row's band.
- :func:`circle_split` reads the rims in the grey image (a Hough transform whose
  radius is the one that explains the blob), for blocks packed on all sides.
- :func:`disc_around_part` takes a blob that is the larger part of one disc (a round
  tile half the cloth's colour) for that whole disc.

Nothing here knows a tile set: sizes come from the blob itself (its area, depth,
outline, step), or from the frame's tile size as a first guess only.
"""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.numeric import median_of
from vision.rectify import quad_from_ellipse

if TYPE_CHECKING:
    from vision.candidates import Blob


#: A blob filling this share of its smallest enclosing circle may be the larger part of
#: one round tile (half a disc fills 0.5; a whole disc ragged at its edge fills 0.75 and
#: more, and its enclosing circle is too large)...
PART_OF_DISC = (0.4, 0.7)
#: ...of a tile's size, where the frame's tile size is known (these shares of it)...
PART_SIDES = (0.8, 1.25)
#: ...and is convex as a part of a disc is (two discs side by side fill 0.88 of their
#: hull).
PART_SOLIDITY = 0.93
#: ...but no more of its smallest box than this (a half disc fills 0.79, a square 1).
PART_FILL_MAX = 0.88


def disc_around_part(blob: Blob, side: float | None) -> np.ndarray | None:
    """The disc a blob is the larger part of, as a box (work px), or None.

    A round tile whose face is half the cloth's colour (a disc coloured on one half)
    leaves a half disc in the mask, which no split into discs explains. Its smallest
    enclosing circle is the tile's rim wherever the part left spans half the rim or
    more: the chord's ends then lie on the circle. Offered where the blob fills
    :data:`PART_OF_DISC` of that circle, is convex (:data:`PART_SOLIDITY`) but no
    square (:data:`PART_FILL_MAX`), and (with the frame's tile size known) the circle
    is of a tile's size.
    """
    if is_single_disc(blob):
        return None
    (cx, cy), radius = cv2.minEnclosingCircle(blob.contour)
    share = blob.area / (math.pi * radius**2)
    if not PART_OF_DISC[0] <= share <= PART_OF_DISC[1]:
        return None
    # the part of a disc is convex: two tokens side by side have a waist
    if blob.area < PART_SOLIDITY * cv2.contourArea(cv2.convexHull(blob.contour)):
        return None
    if blob.fill > PART_FILL_MAX:
        return None  # a square (a card's printed box) fills its box, a half disc 0.79
    if side is not None and not PART_SIDES[0] * side <= 2 * radius <= PART_SIDES[1] * side:
        return None
    return quad_from_ellipse((cx, cy), (2 * radius, 2 * radius), 0.0)


def is_single_disc(blob: Blob) -> bool:
    """A blob shaped like one disc (an ellipse, however tilted), without the notches
    that touching discs leave in their outline (a square of four is round too)."""
    return (
        blob.roundness >= 0.93
        and blob.aspect <= 1.5
        and 0.7 <= blob.fill <= 0.82
        and not _notched(blob)
    )


def disc_split(blob: Blob, mask_shape: tuple[int, int], min_radius: float) -> list[np.ndarray]:
    """Discs in a blob of touching round objects, as ellipse boxes (quads, work px).

    Along a row each disc is a peak of the distance to the blob's edge, and the peaks'
    discs explain the blob's area. Where they do not:

    - a cluster (a square of four, a plus) has one deep peak in its middle instead, a
      disc that the outline does not follow; its outline's notches give it away, and
      the discs whose arcs the outline is made of are used (:func:`_outline_discs`);
    - a row seen at a slant has one peak for two discs; it is cut where the band
      narrows between them (:func:`_row_by_necks`).

    A straight row also gets the discs its peaks missed, and, where its discs are a
    step apart in a band wider than that (the rest is shadow), the step's size
    (:func:`_complete_row`). Any other blob keeps the peaks, each an ellipse fitted
    to its share of the blob.
    """
    x, y, w, h = cv2.boundingRect(blob.contour)
    pad = 2
    local = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.drawContours(local, [blob.contour - [x - pad, y - pad]], -1, 255, -1)
    distance = cv2.distanceTransform(local, cv2.DIST_L2, 5)
    peaks = _disc_centres(distance, min_radius)
    if not peaks:
        return []
    explained = sum(math.pi * r * r for *_, r in peaks) >= 0.88 * blob.area
    # one disc thick and two or more long
    row_like = blob.aspect >= 1.3 and blob.short_side <= 2.6 * max(r for *_, r in peaks)
    if not explained and row_like:
        # one disc thick but not explained by its peaks: a slanted row, whose discs
        # are ellipses overlapping along it, one peak for two?
        row = _row_by_necks(local)
        if row is not None and len(row) > len(peaks):
            return [
                quad_from_ellipse((cx + x - pad, cy + y - pad), axes, angle)
                for (cx, cy), axes, angle in row
            ]
    row_step = None
    if not explained and _notched(blob):
        # the peaks' discs leave part of the blob unexplained: a cluster's middle?
        peaks = _outline_discs(local, distance, peaks, min_radius, blob.area)
    elif row_like:
        peaks, step, angle = _complete_row(peaks, local)
        row_step, row_angle = step, angle
        radius = _row_radius(peaks)
        if step is not None and step < 1.8 * radius:
            # touching discs a step apart, in a band wider than that: the band's
            # width is partly shadow, and the step is the truer size (a slant can
            # shorten the discs along the row by a fifth, hence a little more across)
            axes = (step, min(2 * radius, 1.1 * step))
            return [
                quad_from_ellipse((cx + x - pad, cy + y - pad), axes, angle) for cx, cy, _ in peaks
            ]
    centres = np.array([p[:2] for p in peaks], np.float32)
    radii = np.array([p[2] for p in peaks], np.float32)
    # the shape of each share needs some hundreds of its pixels, not all of them
    step = max(1, int(math.sqrt(blob.area / 4000)))
    ys, xs = np.nonzero(local[::step, ::step])
    xs, ys = xs * step, ys * step
    # each pixel belongs to the disc whose rim it is deepest inside
    dx = xs[:, None].astype(np.float32) - centres[None, :, 0]
    dy = ys[:, None].astype(np.float32) - centres[None, :, 1]
    depth = radii[None, :] - np.sqrt(dx * dx + dy * dy)
    owner = np.argmax(depth, axis=1)
    # each share's mean and covariance, from its moments (all shares in one pass)
    count = np.bincount(owner, minlength=len(peaks)).astype(np.float64)
    xs, ys = xs.astype(np.float64), ys.astype(np.float64)
    moments = [np.bincount(owner, w, len(peaks)) for w in (xs, ys, xs * xs, ys * ys, xs * ys)]
    sx, sy, sxx, syy, sxy = moments
    with np.errstate(divide="ignore", invalid="ignore"):
        mx, my = sx / count, sy / count
        cxx = (sxx - count * mx * mx) / (count - 1)
        cyy = (syy - count * my * my) / (count - 1)
        cxy = (sxy - count * mx * my) / (count - 1)
    shapes = np.nan_to_num(np.stack([np.stack([cxx, cxy], 1), np.stack([cxy, cyy], 1)], 1))
    spreads, directions = np.linalg.eigh(shapes)
    quads = []
    for i in range(len(peaks)):
        if count[i] < 6 or count[i] * step * step < 12:
            continue
        mean = (mx[i], my[i])
        values, vectors = spreads[i], directions[i]
        axes = 4 * np.sqrt(np.maximum(values, 1e-6))  # full axes of a uniform ellipse
        # a neighbour's cut makes the share smaller than the disc: trust the peak radius
        major = max(axes[1], 2 * radii[i])
        minor = max(axes[0], 2 * radii[i])
        angle = math.degrees(math.atan2(vectors[1, 1], vectors[0, 1]))
        centre = (float(mean[0] + x - pad), float(mean[1] + y - pad))
        if axes[0] < 1.6 * radii[i]:  # cut hard by neighbours: keep the peak's own circle
            centre = (float(centres[i, 0] + x - pad), float(centres[i, 1] + y - pad))
            major = minor = 2 * radii[i]
        if row_step is not None and _swollen(centres, radii, i, row_step):
            # a disc swollen past its neighbour a step away: the mask's halo round a
            # pale token on a dark table; discs touching in a row are a step wide
            centre = (float(centres[i, 0] + x - pad), float(centres[i, 1] + y - pad))
            major, minor = row_step, min(2 * radii[i], 1.1 * row_step)
            angle = row_angle
        quads.append(quad_from_ellipse(centre, (major, minor), angle))
    return quads


def _complete_row(
    peaks: list[tuple[float, float, float]], local: np.ndarray
) -> tuple[list[tuple[float, float, float]], float | None, float]:
    """A straight row of touching discs with the discs its distance peaks missed, the
    row's step (None if not measured) and its direction (degrees).

    Where shadows weld a row of tokens into a smooth band, a disc (often the last
    one) leaves no peak of its own. Along the row the discs repeat at one step (the
    peaks' own spacing), so a gap of two steps holds a disc, and so does a band that
    runs on more than a step past the last peak. Only for blobs one disc thick with
    their peaks on one line (the small peaks in the necks between discs are dropped);
    anything else is left as it is."""
    peaks = _without_necks(peaks)
    if len(peaks) < 2:
        return peaks, None, 0.0
    s = max(2, int(math.sqrt(np.count_nonzero(local) / 3000)))
    ys, xs = np.nonzero(local[::s, ::s])
    points = np.stack([xs * s, ys * s], axis=1).astype(np.float64)
    mean = points.mean(axis=0)
    _, vectors = np.linalg.eigh(np.cov((points - mean).T))
    axis, normal = vectors[:, 1], vectors[:, 0]
    radius = _row_radius(peaks)
    across = (points - mean) @ normal
    centres = np.array([p[:2] for p in peaks]) - mean
    angle = math.degrees(math.atan2(axis[1], axis[0]))
    if np.ptp(across) > 2.8 * radius or np.abs(centres @ normal).max() > 0.5 * radius:
        return peaks, None, angle
    along = sorted(float(t) for t in centres @ axis)
    gaps = np.diff(along)
    singles = gaps[(gaps >= 1.3 * radius) & (gaps <= 2.4 * radius)]
    measured = median_of(singles.tolist()) if len(singles) else None
    step = measured or 1.9 * radius
    added = []
    for a, b in itertools.pairwise(along):
        missing = round((b - a) / step) - 1
        added += [a + (b - a) * j / (missing + 1) for j in range(1, missing + 1)]
    ends = (points - mean) @ axis
    t = along[0]
    while t - ends.min() > radius + 0.75 * step:
        t -= step
        added.append(t)
    t = along[-1]
    while ends.max() - t > radius + 0.75 * step:
        t += step
        added.append(t)
    offset = float(np.median(centres @ normal))
    return (
        peaks
        + [
            (
                float(mean[0] + t * axis[0] + offset * normal[0]),
                float(mean[1] + t * axis[1] + offset * normal[1]),
                radius,
            )
            for t in added
        ],
        measured,
        angle,
    )


def _swollen(centres: np.ndarray, radii: np.ndarray, i: int, step: float) -> bool:
    """Whether disc ``i`` of a row is wider in the mask than the row's step allows,
    though its nearest neighbour lies only a step away (a tile beside a token row lies
    a tile's radius and a token's further off, and keeps its own size)."""
    if 2 * radii[i] <= 1.15 * step or len(centres) < 2:
        return False
    apart = np.hypot(*(centres - centres[i]).T)
    apart[i] = np.inf
    return bool(apart.min() <= 1.15 * step)


def _row_radius(peaks: list[tuple[float, float, float]]) -> float:
    """The radius of a row's discs, from its widest ones: a disc much smaller in the mask
    is a dark back of which only the ring shows."""
    largest = max(r for *_, r in peaks)
    return median_of([r for *_, r in peaks if r >= 0.75 * largest])


def _without_necks(peaks: list[tuple[float, float, float]]) -> list[tuple[float, float, float]]:
    """The peaks of a row's discs, without the small ones in the necks between them.

    A neck's peak lies on the rim of the disc beside it (about one large radius from
    its centre), while a smaller disc touching it lies a whole radius of its own
    further out. Size alone cannot tell them apart: on a dark table a token's dark
    back leaves only its pale ring in the mask, a disc two thirds as large as the
    pale face-up tokens at the row's ends. Much smaller peaks are scraps of a disc
    the mask broke up (a token on a gingham of its colours)."""
    largest = max(r for *_, r in peaks)
    kept = []
    for px, py, r in peaks:
        if r < 0.5 * largest:
            continue  # a scrap: a disc broken up by a cloth of its colours, or a neck
        larger = [(kx, ky, kr) for kx, ky, kr in peaks if kr >= r / 0.75]
        if all(math.hypot(px - kx, py - ky) >= kr + 0.5 * r for kx, ky, kr in larger):
            kept.append((px, py, r))
    return kept


def _row_by_necks(
    local: np.ndarray,
) -> list[tuple[tuple[float, float], tuple[float, float], float]] | None:
    """The discs of a straight row, cut where the band narrows between them.

    Seen at a slant, touching tokens in a row are ellipses that overlap along it: the
    band's distance peaks run together, but its width still dips at every neck. The
    width is measured slice by slice along the row's axis; each stretch between two
    dips (or a dip and an end) is one disc, an ellipse as long as the stretch and as
    wide as the band. Returns (centre, axes, angle) in ROI px, or None if the blob is
    not a straight band one disc thick or shows fewer than two discs."""
    # a pixel in every s × s is plenty for a large blob (its discs are large too)
    s = max(1, int(math.sqrt(np.count_nonzero(local) / 3000)))
    ys, xs = np.nonzero(local[::s, ::s])
    if len(xs) < 30:
        return None
    points = np.stack([xs, ys], axis=1).astype(np.float64) * s
    mean = points.mean(axis=0)
    _, vectors = np.linalg.eigh(np.cov((points - mean).T))
    axis, normal = vectors[:, 1], vectors[:, 0]
    along, across = (points - mean) @ axis, (points - mean) @ normal
    slices = np.floor((along - along.min()) / s).astype(int)  # slices s px thick
    width = np.bincount(slices).astype(np.float64) * s  # px across
    width = np.convolve(width, [0.25, 0.5, 0.25], mode="same")
    band = float(np.percentile(width, 90))
    if band < 4 or np.ptp(across) > 1.3 * band:
        return None  # not one disc thick, or bent
    # dips: narrower than the bumps on both sides by a few percent, a disc apart
    reach = max(2, round(0.3 * band / s))
    padded = np.pad(width, reach, mode="edge")
    windows = np.lib.stride_tricks.sliding_window_view(padded, 2 * reach + 1)
    left = windows[:, :reach].max(axis=1)
    right = windows[:, reach + 1 :].max(axis=1)
    lowest = width <= windows.min(axis=1)
    dips = np.nonzero(lowest & (width < 0.93 * np.minimum(left, right)))[0]
    cuts: list[int] = []
    for i in dips[(dips >= reach) & (dips < len(width) - reach)]:
        if not cuts or (i - cuts[-1]) * s >= 0.45 * band:
            cuts.append(int(i))
    bounds = [0, *cuts, len(width)]
    lengths = np.diff(bounds) * s
    if len(lengths) < 2 or lengths.max() > 1.7 * lengths.min():
        return None  # one long stretch with a chance dip: not a row of alike discs
    if not 0.6 <= float(np.median(lengths)) / band <= 1.25:
        return None  # a slant shortens a disc by a third at most: a cluster, not a row
    angle = math.degrees(math.atan2(axis[1], axis[0]))
    # the band's ends and width are partly shadow; the steps between the necks are not
    inner = lengths[1:-1] if len(lengths) > 2 else lengths
    step = float(np.median(inner))
    size = (step, min(band, 1.1 * step))  # a slant shortens discs along the row a little
    discs = []
    for i, (a, b) in enumerate(itertools.pairwise(bounds)):
        inside = (slices >= a) & (slices < b)
        a, b = a * s, b * s
        middle = b - step / 2 if i == 0 else a + step / 2 if i == len(lengths) - 1 else (a + b) / 2
        t = along.min() + middle
        u = float(np.median(across[inside]))
        centre = (
            float(mean[0] + t * axis[0] + u * normal[0]),
            float(mean[1] + t * axis[1] + u * normal[1]),
        )
        discs.append((centre, size, angle))
    return discs


def _notched(blob: Blob) -> bool:
    """Whether the outline has the notches of touching discs: even welded by shadows,
    two touching discs fill less than 94 % of their convex hull (a pair, 88 %; a
    square of four, 83 %), while a lone disc, a card or a die fill it all."""
    return blob.area < 0.94 * cv2.contourArea(cv2.convexHull(blob.contour))


def _outline_discs(
    local: np.ndarray,
    distance: np.ndarray,
    peaks: list[tuple[float, float, float]],
    min_radius: float,
    area: float,
) -> list[tuple[float, float, float]]:
    """The discs whose arcs the blob's outline is made of, where the distance peaks
    are not all such discs: each outline point votes for the centre one radius inside
    it (see :func:`_best_discs`). A disc in a row collects half its rim or more, the
    deep middle of a cluster (a square of four, a plus) almost none."""
    deepest = float(distance.max())
    low = max(min_radius, deepest / 3)  # a cluster's middle is at most 3 radii deep
    outline = _Rims.of(local, local, _reduction(low), share=1.0, depth=distance)
    if outline is None:
        return peaks
    radius = median_of([r for *_, r in peaks])
    shares = outline.shares_at(peaks, radius)
    if min(shares) >= 0.25:
        return peaks
    expected = _room(area, radius)
    own = float(sum(sorted(shares, reverse=True)[:expected]) / expected)
    arcs = _best_discs(outline, area, low, 1.15 * deepest)
    if arcs is None or arcs[0] <= own + 0.05 or len(arcs[2]) <= len(peaks):
        return peaks
    return [(cx, cy, arcs[1]) for cx, cy, _ in arcs[2]]


def circle_split(
    blob: Blob, grey: np.ndarray, radius: float | None, sure: bool = False
) -> list[np.ndarray]:
    """Discs packed on all sides (rows and columns of round tiles), by their rims.

    Where round tiles touch in a block, their shadows weld them into one slab with no
    distance peaks; but every rim is still an edge. Each edge point votes for the two
    points one radius away along its gradient (a Hough transform at one radius); a
    disc's centre collects a vote from every point of its rim, whatever the contrast.
    The radius is the one whose discs carry the most rim for the number of discs the
    blob's area implies (see :func:`_best_discs`). ``radius`` (the frame's tile size,
    when known) is tried first; but a frame's lone "discs" may be tokens or dice, so
    if their rims are not clear the radii the blob's own shape allows are tried: about
    the size of its distance peaks if they explain it (a row), else every radius from
    a fifth of its depth (a 5 × 5 block) to all of it (one disc). With no size from
    the frame, a row's size is taken only where its rims confirm it (clear, and room
    for about as many discs as peaks): two shadows can widen a packed block into a
    slab whose few deep peaks, larger than its discs and overlapping, add up to its
    area as a row's do; every radius is tried then too.
    A ``sure`` radius (read on tiles of this frame's blocks, see
    :func:`vision.choosing.recut_unexplained`) is the only one tried.
    Returns ellipse boxes (circles) in work px.
    """
    x, y, w, h = cv2.boundingRect(blob.contour)
    pad = 3
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(grey.shape[1], x + w + pad), min(grey.shape[0], y + h + pad)
    local = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(local, [blob.contour - [x0, y0]], -1, 255, -1)
    depth = cv2.distanceTransform(local, cv2.DIST_L2, 5)
    deepest = float(depth.max())
    # a single disc fills the blob; a block of 5 × 5 is 5 radii deep
    every = (max(3.5, deepest / 5), 1.15 * deepest)
    peaks = _disc_centres(depth, 3.5)
    row = None
    if peaks and sum(math.pi * r * r for *_, r in peaks) >= 0.88 * blob.area:
        # a row: the distance peaks are its discs, and their size is the one to try
        typical = median_of([r for *_, r in peaks])
        row = (max(3.5, 0.75 * typical), 1.2 * typical)
    ranges = [row or every]
    if radius is not None and sure:
        ranges = [(max(3.5, 0.8 * radius), 1.25 * radius)]
    elif radius is not None and ranges[0][0] / 1.3 < radius < 1.3 * ranges[0][1]:
        ranges.insert(0, (max(3.5, 0.8 * radius), 1.25 * radius))
    if row and radius is None:
        # with no size from the frame, the peaks' size is only a guess: a block's few
        # deep peaks add up to its area too where shadows widen it into a slab
        ranges.append(every)
    patch = grey[y0:y1, x0:x1]
    # a blob notched where touching discs meet is several discs: its bumpy outline,
    # bright against the table, can read as one large rim more complete than the faint
    # rims between pale tiles (a heap of 15 white round tiles, no lone one to size
    # them by), so one disc is no answer there; a card or a lone disc has no notches
    least = 2 if _notched(blob) else 1
    edges: dict[int, _Rims | None] = {}

    def search(net: bool) -> tuple[float, float, list, _Rims] | None:
        best = None
        for low, high in ranges:
            k = _reduction(low)
            if k not in edges:
                edges[k] = _Rims.of(patch, local, k, depth=depth)
            rims = edges[k]
            found = _best_discs(rims, blob.area, low, high, least, net) if rims else None
            if found and (best is None or found[0] > best[0]):
                best = (*found, rims)
            # a row's rims confirm its peaks' size if they find about as many discs as
            # there are peaks (a peak may be lost in a welded neck), not room for many more
            crowded = found is not None and _room(blob.area, found[1]) > _some_more(peaks)
            unconfirmed = (low, high) == row and crowded
            if best is not None and best[0] >= _CLEAR_RIMS and not unconfirmed:
                break
        return best

    best = search(net=False)
    # only where the artwork's edges give the reading most of its rim (hatching) are
    # the discs weighed by what stands above them: on a card's print, whose best
    # reading is poor at every radius, that only picked other small discs
    if best is not None and least > 1 and best[3].texture(best[1]) > _TEXTURED * best[0]:
        best = search(net=True) or best
    if best is None:
        return []
    r = best[1]
    centres = [(cx, cy) for cx, cy, _ in best[2]]
    if _may_move_together(best[2]):
        centres = _moved_together(best[2], _on_outline(local, depth, centres, r), r)
    return [quad_from_ellipse((cx + x0, cy + y0), (2 * r, 2 * r), 0.0) for cx, cy in centres]


#: A disc is moved onto the blob's outline where an arc of this share of its rim lies
#: within :data:`_OUTLINE_REACH` radii of where its rims put it.
_OUTLINE_ARC = 0.15

#: How far (in radii) a disc's centre may move onto the arc of the blob's outline.
_OUTLINE_REACH = 0.3

#: A disc is moved only onto an arc this many times clearer than the outline's arc at
#: its place: where the rims already centred it, the outline only adds its own error.
_OUTLINE_GAIN = 1.5

#: The least move onto the outline's arc, in radii and in px: the arc's peak is found
#: to a pixel, so a smaller move is its own error, not the rim's (tokens' discs of
#: 3-8 px were moved 1-2 px and read worse: bottlecap seed 2024 #3, rosary seed 7 #7)
_LEAST_MOVE = (0.15, 2.5)


def _least_move(radius: float) -> float:
    """How far a disc of this radius must move onto the outline for the move to count."""
    return max(_LEAST_MOVE[0] * radius, _LEAST_MOVE[1])


#: A heap's discs are moved only where this many of them (and this share) are off
#: their outline's arcs: a rim the Hough cannot centre (a toothed crown) is the tile
#: set's, and pulls every disc of the heap off centre; one disc off its arc alone is
#: more likely the outline's error (a neck, a shadow: whorl seed 7 #2, button seed 7 #2)
_HEAP_SHIFTED = (3, 0.4)


def _may_move_together(discs: list[tuple[float, float, float]]) -> bool:
    """Whether enough of a heap's discs have rims unsure enough to be moved at all: the
    outline's arcs are looked for only then (most heaps' rims are sure)."""
    unsure = sum(share < _SURE_RIM for _, _, share in discs)
    return _enough_of_heap(unsure, len(discs))


def _enough_of_heap(count: int, discs: int) -> bool:
    """Whether ``count`` of a heap of ``discs`` is enough to move it (:data:`_HEAP_SHIFTED`)."""
    return count >= max(_HEAP_SHIFTED[0], _HEAP_SHIFTED[1] * discs)


def _moved_together(
    discs: list[tuple[float, float, float]], moved: list[tuple[float, float]], radius: float
) -> list[tuple[float, float]]:
    """The discs' centres, moved onto the outline's arcs where the heap's rims are off.

    A disc whose rims are clear is where they say: the outline's arc only adds its own
    error there (a row's neck bends it; whorl seed 7 #2 lost 7 tiles). A move within
    the arc's own pixel says nothing. And a rim the Hough cannot centre (a toothed
    crown) is the tile set's, so it pulls many of a heap's discs off centre at once;
    a disc off its arc alone was the outline's error (``discs`` as
    :meth:`_Rims.discs` gives them: centre and rim share).
    """
    centres = [
        (cx, cy)
        if share >= _SURE_RIM or math.dist(place, (cx, cy)) < _least_move(radius)
        else place
        for place, (cx, cy, share) in zip(moved, discs, strict=True)
    ]
    shifted = sum(c != (cx, cy) for c, (cx, cy, _) in zip(centres, discs, strict=True))
    if not _enough_of_heap(shifted, len(centres)):
        return [(cx, cy) for cx, cy, _ in discs]
    return centres


#: A disc whose rim share (see :meth:`_Rims.discs`) reaches this keeps its place.
_SURE_RIM = 0.6

#: The radii (shares of the disc's) at which an arc of the outline is looked for.
_OUTLINE_GROWTHS = (1.0, 1.15)


def _on_outline(
    local: np.ndarray, depth: np.ndarray, centres: list[tuple[float, float]], radius: float
) -> list[tuple[float, float]]:
    """Each disc's centre, moved to where the blob's outline holds an arc of its rim.

    The rims in the image are the faint edges between touching tiles; where a rim is
    toothed or scalloped (a crown cap, a rosette's border) its edge normals point
    every way but the centre, and its few votes are outweighed by the figure's sharp
    edges: a heap's discs came out 0.1-0.15 of a side off their centres, toward their
    figures (bottlecap seed 2024 #0), so the face was cut off-centre and its turn and
    heart read wrong. Where a disc lies on the heap's border, the mask's outline is
    its own rim, clean of artwork, and its arc says where its centre is (within 4 px
    of the truth there). Discs deep inside a heap have no such arc and keep their
    place.
    """
    outline = _Rims.of(local, local, 1, share=1.0, depth=depth)
    if outline is None:
        return centres
    # a shadow round the heap widens its outline: still a circle about the disc's
    # centre, only larger, so the arc is looked for a step out from its own radius
    # too (larger steps fitted arcs of two caps at once: bottlecap seed 2024 #17)
    maps = [outline.votes(radius * grow) for grow in _OUTLINE_GROWTHS]
    h, w = maps[0].shape
    reach = max(1, round(_OUTLINE_REACH * radius))
    out = []
    for cx, cy in centres:
        x, y = round(cx), round(cy)
        xa, ya = max(0, x - reach), max(0, y - reach)
        here = max(float(acc[min(h - 1, y), min(w - 1, x)]) for acc in maps)
        best = (max(_OUTLINE_ARC, _OUTLINE_GAIN * here), cx, cy)
        for acc in maps:
            window = acc[ya : min(h, y + reach + 1), xa : min(w, x + reach + 1)]
            if window.size and window.max() >= best[0]:
                iy, ix = np.unravel_index(int(np.argmax(window)), window.shape)
                best = (float(window[iy, ix]), float(xa + ix), float(ya + iy))
        out.append(best[1:3])
    return out


#: Discs whose rims are this complete on average (counting the missing ones as empty)
#: are taken without looking at other radii.
_CLEAR_RIMS = 0.35

#: A reading whose rims are votes the blob's texture gives any place for more than
#: this share of them is the texture's (hatched faces: 0.86 for discs twice a tile).
_TEXTURED = 0.5


def _room(area: float, radius: float) -> int:
    """How many discs of this radius a blob's area has room for (packed discs and the
    gaps between them: a disc's area and a fifth more)."""
    return max(1, round(area / (math.pi * radius * radius * 1.2)))


def _some_more(peaks: list) -> int:
    """A few more discs than peaks: a peak lost in a row's welded neck, or a disc more
    where the rims chose the smallest size tried."""
    return len(peaks) + max(1, len(peaks) // 2)


def _reduction(smallest_radius: float, least: float = 6.0) -> int:
    """How coarse the grid of disc centres can be so that the smallest disc looked
    for still spans ``least`` cells of it: large pieces need no pixel-fine search."""
    return max(1, int(smallest_radius // least))


def _best_discs(
    rims: _Rims, area: float, low: float, high: float, least: int = 1, net: bool = False
) -> tuple[float, float, list[tuple[float, float, float]]] | None:
    """The radius between ``low`` and ``high`` whose discs (at ``least`` this many)
    explain the blob best, as (value, radius, discs); None if none is found.

    A radius too small finds the artwork's curves but not the many discs the blob
    would then hold; one too large finds no rim at all. Tried in steps of 20 %, then
    refined by 7 % on either side of the best."""
    if high <= low:
        return None
    best = None
    coarse = np.geomspace(low, high, max(2, math.ceil(math.log(high / low) / math.log(1.2)) + 1))
    for r in coarse:
        found, value = rims.discs(float(r), area, net)
        if len(found) >= least and (best is None or value > best[0]):
            best = (value, float(r), found)
    if best is None:
        return None
    for r in (best[1] / 1.07, best[1] * 1.07):
        found, value = rims.discs(r, area, net)
        if len(found) >= least and value > best[0]:
            best = (value, r, found)
    return best


class _Rims:
    """The edges of a blob's image, ready to vote for disc centres.

    Edges are found at full resolution (a thin rim survives), but their votes go to a
    grid ``k`` times coarser, enough for discs of large radius and far cheaper.
    Coordinates and radii in and out are ROI pixels.
    """

    def __init__(self, xs, ys, nx, ny, depth: np.ndarray, k: int):
        half = (k - 1) / 2
        # edge points and their normals in grid cells, both ways along the normal
        self.xs = np.concatenate([xs, xs]).astype(np.float32)
        self.ys = np.concatenate([ys, ys]).astype(np.float32)
        self.gx = ((self.xs - half) / k).astype(np.float32)
        self.gy = ((self.ys - half) / k).astype(np.float32)
        self.nx = (np.concatenate([nx, -nx]) / k).astype(np.float32)
        self.ny = (np.concatenate([ny, -ny]) / k).astype(np.float32)
        # x and y as the rows of one array each: a radius's votes are placed in one pass
        # (the same float32 sums as apart; the sweep asks for a dozen radii per blob)
        self.grid = np.stack([self.gx, self.gy])
        self.normal = np.stack([self.nx, self.ny])
        self.k = k
        self.depth = depth[k // 2 :: k, k // 2 :: k]  # distance to the outline, per cell

    @classmethod
    def of(
        cls,
        image: np.ndarray,
        local: np.ndarray,
        k: int = 1,
        share: float = 0.85,
        depth: np.ndarray | None = None,
    ) -> _Rims | None:
        """Thin edges (gradient maxima across the edge) near the blob, the weakest
        ``1 - share`` left out: pale rims on a pale table are weak but they are there."""
        g = cv2.GaussianBlur(image.astype(np.float32), (0, 0), 1.0)
        gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
        mag = cv2.magnitude(gx, gy)
        region = cv2.dilate(local, np.ones((5, 5), np.uint8)) > 0
        ridge = _across_maxima(gx, gy, mag) & region
        values = mag[ridge]
        if values.size < 12:
            return None
        if share < 1.0:
            ridge &= mag >= np.quantile(values, 1 - share)
        ys, xs = np.nonzero(ridge)
        m = mag[ys, xs]
        if depth is None:
            depth = cv2.distanceTransform(local, cv2.DIST_L2, 5)
        return cls(xs, ys, gx[ys, xs] / m, gy[ys, xs] / m, depth, k)

    def _cell(self, x: np.ndarray | float, y: np.ndarray | float):
        """The grid cell of ROI pixel coordinates (rounded)."""
        half = (self.k - 1) / 2
        return np.rint((np.asarray(x) - half) / self.k), np.rint((np.asarray(y) - half) / self.k)

    def _pixel(self, cx: float, cy: float) -> tuple[float, float]:
        half = (self.k - 1) / 2
        return cx * self.k + half, cy * self.k + half

    def votes(self, radius: float) -> np.ndarray:
        """Share of a rim of this radius that voted for each cell as its centre."""
        h, w = self.depth.shape
        cx, cy = np.rint(self.grid + radius * self.normal).astype(np.int32)
        # a negative place read unsigned is past any side: one comparison per axis
        ok = (cx.view(np.uint32) < w) & (cy.view(np.uint32) < h)
        acc = np.bincount((cy * w + cx)[ok], minlength=h * w).astype(np.float32)
        # spread by an eighth of the radius: forgives a rim that is an ellipse or a bit off
        sigma = max(0.7, 0.12 * radius / self.k)
        size = 2 * math.ceil(2.5 * sigma) + 1
        acc = cv2.GaussianBlur(acc.reshape(h, w), (size, size), sigma)
        return acc * (sigma * sigma / radius)  # a full, sharp rim scores about 1

    def discs(
        self, radius: float, area: float, net: bool = False
    ) -> tuple[list[tuple[float, float, float]], float]:
        """The discs of one radius (centre x, y, rim share), and how well they explain
        the blob: their mean rim share, counting as empty every disc the blob's area
        has room for but that was not found; ``net``: less what the blob's texture
        gives any place (see :func:`_texture_votes`)."""
        # a disc whose centre lies this deep in the blob is three quarters inside it
        acc = self.votes(radius)
        inside = self.depth >= 0.55 * radius
        texture = _texture_votes(acc, inside) if net else 0.0
        acc[~inside] = 0.0
        peaks = (acc >= cv2.dilate(acc, np.ones((3, 3), np.uint8))) & (acc > 0.08)
        ys, xs = np.nonzero(peaks)
        if not len(xs):
            return [], 0.0
        values = acc[ys, xs]
        strong = values >= 0.5 * values.max()  # rims far weaker than the best are not discs
        xs, ys, values = xs[strong], ys[strong], values[strong]
        expected = _room(area, radius)
        apart = (1.5 * radius / self.k) ** 2
        kept: list[tuple[float, float, float]] = []
        for i in np.argsort(-values):
            px, py = float(xs[i]), float(ys[i])
            if any((px - kx) ** 2 + (py - ky) ** 2 < apart for kx, ky, _ in kept):
                continue
            kept.append((px, py, float(values[i])))
            if len(kept) >= 2 * expected:
                break
        top = [v for *_, v in kept[:expected]]
        value = float(sum(top) / expected) - texture
        return [(*self._pixel(px, py), v) for px, py, v in kept], value

    def texture(self, radius: float) -> float:
        """What the blob's texture alone gives any place at this radius (see
        :func:`_texture_votes`)."""
        return _texture_votes(self.votes(radius), self.depth >= 0.55 * radius)

    def shares_at(self, discs: list[tuple[float, float, float]], radius: float) -> list[float]:
        """The rim share (as in :meth:`discs`) of each of some discs found another way."""
        acc = self.votes(radius)
        h, w = acc.shape
        shares = []
        for x, y, _ in discs:
            cx, cy = self._cell(x, y)
            shares.append(float(acc[int(np.clip(cy, 0, h - 1)), int(np.clip(cx, 0, w - 1))]))
        return shares


def _texture_votes(acc: np.ndarray, inside: np.ndarray) -> float:
    """The share of a rim that a blob's texture alone gives any place: the median vote
    where a disc's centre could lie.

    Artwork of many fine edges (hatching, dots) votes everywhere, and the more so the
    larger the radius, as a wider ring spreads over more of it: a heap of hatched round
    tiles read 0.79 of a rim everywhere for discs two tiles wide and 0.36 for its own
    tiles, so two discs twice too large explained it better (0.92) than its fifteen
    tiles (0.79). What a rim stands out by above that level is its own; plain faces
    leave the level near nothing.
    """
    if not inside.any():
        return 0.0
    return float(np.median(acc[inside]))


def _across_maxima(gx: np.ndarray, gy: np.ndarray, mag: np.ndarray) -> np.ndarray:
    """Pixels where the gradient is largest across the edge (the thin line of an edge)."""
    h, w = mag.shape
    ax, ay = np.abs(gx), np.abs(gy)
    # the gradient's direction to the nearest eighth of a turn, without an arctangent
    horizontal = ay <= 0.4142 * ax
    vertical = ax <= 0.4142 * ay
    diagonal = ~(horizontal | vertical)
    rising = (gx * gy) > 0  # down-right in image coordinates
    padded = np.pad(mag, 1)

    def beyond(dy: int, dx: int) -> np.ndarray:
        ahead = padded[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w]
        behind = padded[1 - dy : 1 - dy + h, 1 - dx : 1 - dx + w]
        return (mag >= ahead) & (mag >= behind)

    keep = horizontal & beyond(0, 1)
    keep |= vertical & beyond(1, 0)
    keep |= diagonal & rising & beyond(1, 1)
    keep |= diagonal & ~rising & beyond(1, -1)
    return keep & (mag > 0)


def _disc_centres(distance: np.ndarray, min_radius: float) -> list[tuple[float, float, float]]:
    """Peaks of the distance map, strongest first; two kept peaks are at least three
    quarters of their radii apart (touching discs are a full two radii apart, while a
    small peak in the neck between them is not)."""
    dilated = cv2.dilate(distance, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((distance >= dilated - 1e-3) & (distance >= min_radius))
    order = np.argsort(-distance[ys, xs])
    kept: list[tuple[float, float, float]] = []
    for i in order:
        px, py, r = float(xs[i]), float(ys[i]), float(distance[ys[i], xs[i]])
        if all(math.hypot(px - kx, py - ky) >= 0.75 * (r + kr) for kx, ky, kr in kept):
            kept.append((px, py, r))
    return kept
