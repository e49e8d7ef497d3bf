"""Tiles by their edges: tile-sized squares and discs found before anything is matched.

A tile that lies against a large object (the deposit mat, a card) is joined to it in
the object mask, and no grid or disc split of that blob lines up with the tile. Its
outline is still in the frame: four straight steps in grey at right angles, a tile's
side apart, or a round tile's rim. These functions look for such outlines at a given
size, over all places (and turns) in a region, so that what they find can be matched
like any other piece.

Each side of a square counts by the share of its length along which the grey steps
clearly across it, and the square by its weakest side: a figure's straight stroke, the
long edge of the mat or a seam makes one strong side, never four. A rim counts the same
way by its weakest quarter. Everything works on the grey working image; places are its
pixels.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.pixels import to_frame

#: A square is looked for on the region shrunk until its side is about this many px
#: (a larger square costs no more to find; a step still spans a pixel or two).
FIND_SIDE = 24
#: Turns tried (degrees; a square repeats after a quarter turn).
TURN_STEP = 7.5
#: The middle share of each side that is looked at (corners are often chipped, shaded
#: or touched by the next tile).
SIDE_SPAN = 0.8
#: Lines across a square are looked for this share of its half-side either side of
#: its middle (its sides' own steps, a pixel or two wide, stay clear of them).
INNER_REACH = 0.6
#: ...and such a line (over twice the side's span) undoes the square where it steps
#: along this share of it (a check's lines all along; a figure's stroke stops at its
#: tile's edge, at half the span at most).
CROSSING_MIN = 0.8
#: Points looked at around a rim.
RIM_POINTS = 32
#: A rim's ellipse is fitted to the steepest step along this many rays, looked for
#: this share of the radius either side of the circle found...
RIM_RAYS = 48
RIM_SLACK = 0.25
#: ...and kept no narrower than this (a table tilted well past the camera's 35°).
RIM_NARROWEST = 0.7


def squares_of_side(
    grey: np.ndarray,
    box: tuple[int, int, int, int],
    side: float,
    step_min: float,
    cover_min: float,
) -> list[tuple[float, np.ndarray, float]]:
    """Squares of ``side`` (work px) inside ``box`` (x0, y0, x1, y1, work px) whose four
    sides each show a step in grey of at least ``step_min`` along at least ``cover_min``
    of their length: (that weakest share, centre in work px, turn in radians), the
    best place of each neighbourhood only, best first."""
    region, shrink, (x0, y0) = _shrunk(grey, box, side)
    if region is None:
        return []
    blurred = cv2.GaussianBlur(region, (0, 0), 1.0)
    half = side / shrink / 2
    best = np.zeros(region.shape, np.float32)
    turn = np.zeros(region.shape, np.float32)
    for degrees in np.arange(0, 90, TURN_STEP).tolist():
        weakest = _weakest_side(blurred, degrees, half, step_min)
        better = weakest > best
        best[better] = weakest[better]
        turn[better] = math.radians(degrees)
    return _peaks(best, turn, cover_min, half, shrink, (x0, y0))


def discs_of_radius(
    grey: np.ndarray,
    box: tuple[int, int, int, int],
    radius: float,
    step_min: float,
    cover_min: float,
) -> list[tuple[float, np.ndarray, float]]:
    """Discs of ``radius`` (work px) inside ``box`` (x0, y0, x1, y1, work px) whose rim
    shows a step in grey of at least ``step_min`` across it along at least
    ``cover_min`` of each of its four quarters: (that weakest share, centre in work px,
    0), the best place of each neighbourhood only, best first. A tilted table's
    ellipse passes within a pixel or two of its circle (the rim is looked for with
    that much slack)."""
    region, shrink, (x0, y0) = _shrunk(grey, box, 2 * radius)
    if region is None:
        return []
    blurred = cv2.GaussianBlur(region, (0, 0), 1.0).astype(np.float32)
    gx = cv2.Sobel(blurred, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(blurred, cv2.CV_32F, 0, 1, ksize=3)
    r = radius / shrink
    height, width = region.shape
    slack = np.ones((3, 3), np.uint8)
    quarters = []
    for quarter in range(4):
        share = np.zeros((height, width), np.float32)
        angles = (quarter + (np.arange(RIM_POINTS // 4) + 0.5) / (RIM_POINTS // 4)) * math.pi / 2
        for angle in angles.tolist():
            cos, sin = math.cos(angle), math.sin(angle)
            across = cv2.dilate(
                (np.abs(gx * cos + gy * sin) >= 4 * step_min).astype(np.uint8), slack
            )
            # the rim point at (cos, sin) * r of each centre: the edge map moved back by it
            dx, dy = round(cos * r), round(sin * r)
            share += _moved(across, -dx, -dy)
        quarters.append(share / (RIM_POINTS // 4))
    weakest = np.minimum(np.minimum(quarters[0], quarters[1]), np.minimum(quarters[2], quarters[3]))
    best = np.rint(weakest * 255).astype(np.float32)
    return _peaks(best, np.zeros(best.shape, np.float32), cover_min, r, shrink, (x0, y0))


def _shrunk(
    grey: np.ndarray, box: tuple[int, int, int, int], size: float
) -> tuple[np.ndarray | None, float, tuple[int, int]]:
    """The part of ``grey`` around ``box`` where a shape ``size`` across may lie, shrunk
    until that shape is :data:`FIND_SIDE` px across; the shrink and the part's origin."""
    height, width = grey.shape
    margin = math.ceil(size * 0.75) + 2
    x0, y0 = max(box[0] - margin, 0), max(box[1] - margin, 0)
    x1, y1 = min(box[2] + margin, width), min(box[3] + margin, height)
    if x1 - x0 < size or y1 - y0 < size:
        return None, 1.0, (x0, y0)
    shrink = max(1.0, size / FIND_SIDE)
    region = grey[y0:y1, x0:x1]
    if shrink > 1:
        shape = (max(round((x1 - x0) / shrink), 1), max(round((y1 - y0) / shrink), 1))
        region = cv2.resize(region, shape, interpolation=cv2.INTER_AREA)
    return region, shrink, (x0, y0)


def _moved(image: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """``image`` shifted by (dx, dy) px, zeros where nothing moved in."""
    out = np.zeros_like(image)
    height, width = image.shape
    xs, xd = (
        (slice(0, width - dx), slice(dx, width))
        if dx >= 0
        else (slice(-dx, width), slice(0, width + dx))
    )
    ys, yd = (
        (slice(0, height - dy), slice(dy, height))
        if dy >= 0
        else (slice(-dy, height), slice(0, height + dy))
    )
    out[yd, xd] = image[ys, xs]
    return out


def _peaks(
    best: np.ndarray,
    turn: np.ndarray,
    cover_min: float,
    half: float,
    shrink: float,
    origin: tuple[int, int],
) -> list[tuple[float, np.ndarray, float]]:
    """The places where ``best`` (shares, 0-255, each with a fraction that breaks ties)
    reaches ``cover_min`` and is the best of its neighbourhood (a shape's half-size
    ``half`` around it), best first, as (share, centre in the unshrunk image, turn
    there); of equal shares (a plateau), the middle of it."""
    least = math.ceil(cover_min * 255)
    score = best + cv2.GaussianBlur(best, (0, 0), 1.5) / 65536
    reach = max(int(half / 2), 1) * 2 + 1
    peaks = (best >= least) & (score >= cv2.dilate(score, np.ones((reach, reach), np.uint8)))
    ys, xs = np.nonzero(peaks)
    found: list[tuple[float, np.ndarray, float]] = []
    # the places within ``half`` of a peak are marked as it is kept: a plateau's
    # thousands of places are each looked up once, not measured against every peak
    taken = np.zeros(best.shape, bool)
    r = math.ceil(half)
    offsets = np.arange(-r, r + 1)
    disc = offsets[:, None] ** 2 + offsets[None, :] ** 2 < half**2
    for k in np.argsort(-score[ys, xs], kind="stable").tolist():
        x, y = int(xs[k]), int(ys[k])
        if taken[y, x]:
            continue
        top, left = max(y - r, 0), max(x - r, 0)
        bottom, right = min(y + r + 1, best.shape[0]), min(x + r + 1, best.shape[1])
        taken[top:bottom, left:right] |= disc[
            top - y + r : bottom - y + r, left - x + r : right - x + r
        ]
        place = to_frame(np.array([x, y], np.float64), shrink) + origin
        found.append((math.floor(best[y, x]) / 255, place, float(turn[y, x])))
    return found


def _weakest_side(blurred: np.ndarray, degrees: float, half: float, step_min: float) -> np.ndarray:
    """For each pixel, the square turned by ``degrees`` about it with half-side
    ``half``: the least share (0-255) of any of its four sides along which the grey
    steps by ``step_min`` or more across that side (each step allowed a pixel either
    way)."""
    height, width = blurred.shape
    # turn the region so that the square's sides run along the rows and columns
    centre = (width / 2, height / 2)
    cos, sin = abs(math.cos(math.radians(degrees))), abs(math.sin(math.radians(degrees)))
    wide = math.ceil(width * cos + height * sin) + 2
    high = math.ceil(width * sin + height * cos) + 2
    forward = cv2.getRotationMatrix2D(centre, degrees, 1.0)
    forward[:, 2] += (wide / 2 - centre[0], high / 2 - centre[1])
    turned = cv2.warpAffine(
        blurred, forward, (wide, high), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    # a step across two pixels, in grey levels (as :func:`vision.outlines.outline_steps`)
    limit = 4 * step_min
    step_x = np.abs(cv2.Sobel(turned, cv2.CV_16S, 1, 0, ksize=3))
    step_y = np.abs(cv2.Sobel(turned, cv2.CV_16S, 0, 1, ksize=3))
    length = max(round(2 * half * SIDE_SPAN), 1)
    h = max(round(half), 1)
    weakest = np.zeros((high, wide), np.float32)
    if high <= 2 * h or wide <= 2 * h:
        return np.zeros((height, width), np.float32)
    # sides across x run down the columns, those across y along the rows: each side's
    # share with a pixel's slack either way, and (to tell the turns apart where a
    # strong edge fills the slack at several) with none, on the step's crest only
    for slack, x_kernel, y_kernel in ((True, (1, 3), (3, 1)), (False, None, None)):
        if slack:
            across_x = cv2.dilate(
                ((step_x >= limit) * 255).astype(np.uint8), np.ones(x_kernel, np.uint8)
            )
            across_y = cv2.dilate(
                ((step_y >= limit) * 255).astype(np.uint8), np.ones(y_kernel, np.uint8)
            )
        else:
            across_x = ((step_x >= limit) & _crest(step_x, 1)) * np.uint8(255)
            across_y = ((step_y >= limit) & _crest(step_y, 0)) * np.uint8(255)
        columns = cv2.blur(across_x.astype(np.uint8), (1, length)).astype(np.float32)
        rows = cv2.blur(across_y.astype(np.uint8), (length, 1)).astype(np.float32)
        least = np.minimum(
            np.minimum(columns[h:-h, 2 * h :], columns[h:-h, : wide - 2 * h]),
            np.minimum(rows[2 * h :, h:-h], rows[: high - 2 * h, h:-h]),
        )
        if slack:
            # a straight line right across the square, parallel to a side and running on
            # beyond it both ways, is a cloth's check or a board's seam, not a tile's
            # figure (which stops at the tile's edge)
            inner = round(INNER_REACH * h) * 2 + 1
            spans = round(4 * half * SIDE_SPAN)
            crossing = np.maximum(
                cv2.dilate(cv2.blur(across_x, (1, spans)), np.ones((1, inner), np.uint8)),
                cv2.dilate(cv2.blur(across_y, (spans, 1)), np.ones((inner, 1), np.uint8)),
            )[h:-h, h:-h].astype(np.float32)
            least[crossing >= CROSSING_MIN * 255] = 0
        weakest[h : high - h, h : wide - h] += least if slack else least / 256
    back = cv2.invertAffineTransform(forward)
    return cv2.warpAffine(weakest, back, (width, height), flags=cv2.INTER_NEAREST)


def _crest(step: np.ndarray, axis: int) -> np.ndarray:
    """Where ``step`` is at least as large as its two neighbours along ``axis``."""
    before = np.roll(step, 1, axis=axis)
    after = np.roll(step, -1, axis=axis)
    return (step >= before) & (step >= after)


def rim_ellipse(
    grey: np.ndarray, centre: np.ndarray, radius: float
) -> tuple[tuple[float, float], tuple[float, float], float] | None:
    """The ellipse a round piece's rim traces near the circle of ``radius`` about
    ``centre`` (work px), as :func:`cv2.fitEllipse` gives it, or None where the rim
    does not show. A tilted table turns a disc into an ellipse up to a fifth narrower
    than it is long, and a cut shaped like the circle then squeezes the face.

    Along each of a ring of rays from the centre, the rim is the steepest step in grey
    between a quarter of the radius inside and outside the circle; an ellipse is fitted
    to those points, then again to the half that lie closest to the first fit (the
    mat's straight edge or a figure crossing a ray gives a point off the rim)."""
    blurred = cv2.GaussianBlur(grey, (0, 0), 1.0).astype(np.float32)
    height, width = blurred.shape
    angles = np.linspace(0, 2 * np.pi, RIM_RAYS, endpoint=False)[:, None]
    rays = np.concatenate([np.cos(angles), np.sin(angles)], axis=1)  # R×2
    reach = np.linspace(1 - RIM_SLACK, 1 + RIM_SLACK, max(round(2 * RIM_SLACK * radius), 3))
    along = centre + rays[:, None, :] * (reach[None, :, None] * radius)  # R×S×2
    outer = along + rays[:, None, :]
    inner = along - rays[:, None, :]

    def at(points: np.ndarray) -> np.ndarray:
        xs = np.clip(np.rint(points[..., 0]), 0, width - 1).astype(int)
        ys = np.clip(np.rint(points[..., 1]), 0, height - 1).astype(int)
        return blurred[ys, xs]

    steps = np.abs(at(outer) - at(inner))
    best = steps.argmax(axis=1)
    strong = steps[np.arange(len(rays)), best] > 0
    points = along[np.arange(len(rays)), best][strong].astype(np.float32)
    if len(points) < RIM_RAYS // 2:
        return None
    first = cv2.fitEllipse(points)
    (cx, cy), (a, b), angle = first
    if min(a, b) <= 0:
        return None
    # each point's distance from the first fit, in radii (after undoing its turn)
    turn = np.radians(angle)
    local = points - (cx, cy)
    u = local[:, 0] * np.cos(turn) + local[:, 1] * np.sin(turn)
    v = -local[:, 0] * np.sin(turn) + local[:, 1] * np.cos(turn)
    off = np.abs(np.hypot(u / (a / 2), v / (b / 2)) - 1)
    closest = points[np.argsort(off)[: len(points) // 2]]
    (cx, cy), (a, b), angle = cv2.fitEllipse(closest)
    if min(a, b) < RIM_NARROWEST * max(a, b) or abs((a + b) / 4 / radius - 1) > RIM_SLACK:
        return None
    return (float(cx), float(cy)), (float(a), float(b)), float(angle)


def rim_ellipse_near(
    image: np.ndarray, centre: np.ndarray, radius: float
) -> tuple[tuple[float, float], tuple[float, float], float] | None:
    """:func:`rim_ellipse` read from a BGR ``image`` (full-frame px) in a crop round the
    circle only: a token is 20-40 px across, a pixel or two of its rim is the squeeze
    a tilt puts on it, and blurring the whole frame for each of a row's tokens would
    cost a millisecond apiece."""
    reach = radius * (1 + RIM_SLACK) + 6
    height, width = image.shape[:2]
    x0, y0 = (max(math.floor(v - reach), 0) for v in centre)
    x1 = min(math.ceil(centre[0] + reach) + 1, width)
    y1 = min(math.ceil(centre[1] + reach) + 1, height)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    grey = cv2.cvtColor(np.ascontiguousarray(image[y0:y1, x0:x1, :3]), cv2.COLOR_BGR2GRAY)
    rim = rim_ellipse(grey, np.asarray(centre, np.float64) - (x0, y0), radius)
    if rim is None:
        return None
    (cx, cy), axes, angle = rim
    return (cx + x0, cy + y0), axes, angle
