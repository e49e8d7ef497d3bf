"""Outlines: whether a piece's edge shows all round, and where a square's edge runs.

A piece found without a blob of its own (by its rim, beside a block, around the bits
of its figure) has nothing in the object mask to vouch for it; its outline does. A
real tile lying on a cloth of its own colour still has an edge all round (its rim,
its thickness, a printed border), where a tile-sized square imagined around a die on
a plain cloth crosses only cloth. These functions work on the grey working image
(``scale`` full-frame pixels to one of its pixels); quads are full-frame pixels.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import cv2
import numpy as np

from vision.foreground import border_band
from vision.numeric import percentile_of
from vision.pixels import to_frame, to_work

#: A piece's outline is compared with rings this much further in and out.
RINGS = (1.0, 0.85, 1.2)
#: A square's outline is looked for this far (in its sides) from a guess, in steps of
#: this many degrees.
SEARCH_REACH = 0.35
SEARCH_TURN_STEP = 5
#: A square's outline is judged all round by this percentile of its steps (see
#: :func:`outlined_square`).
ALL_ROUND_QUANTILE = 25
#: How evenly an outline steps is judged by this percentile of its steps (see
#: :func:`outline_evenness`).
EVEN_QUANTILE = 20

#: Where a piece's edge may be faint (a dark tile on a cloth as dark as its ground), its
#: outline must still step by this many times the cloth's own step between neighbouring
#: pixels (:func:`cloth_step`): a black record's rim on a dark cloth steps 3-8 grey
#: levels, the cloth 0.8-1.0, and a face imagined round a token or a die there crosses
#: cloth alone (0.9-1.3 grey levels). Squares laid round the empty tables' small dice
#: step 0.7-1.5 times the cloth's step, dark tarot tiles round their figures 3.3-6.8.
CLOTH_NOISE_STEPS = 2.5

_RING_FACTORS = np.array(RINGS)[:, None, None]
#: Offsets (px) across an outline at which its step is taken (:func:`_steps_across`).
_ACROSS = np.array([-1.0, 0.0, 1.0])
#: Points along each side of a square's outline, and round a disc's.
_SIDE_POINTS = 16
_SIDE_ALONG = np.linspace(0.1, 0.9, _SIDE_POINTS)[:, None]
_ELLIPSE_ANGLES = np.linspace(0, 2 * np.pi, 64, endpoint=False)[:, None]
_ELLIPSE_COS, _ELLIPSE_SIN = np.cos(_ELLIPSE_ANGLES), np.sin(_ELLIPSE_ANGLES)


def has_outline(
    grey: np.ndarray,
    quad: np.ndarray,
    scale: float,
    round_: bool,
    step_min: float,
    share_min: float,
) -> bool:
    """Whether a piece's outline stands out all round: the typical step in grey across
    it is a clear edge, not much weaker than the steps a little inside and outside it.

    A tile lying on a cloth of its own colour still has an edge all round (its rim,
    its thickness, a printed border). A tile-sized square imagined around a die on a
    plain cloth crosses only cloth: its steps are the cloth's noise (under 7 grey
    levels where real tiles' were over 35, on the rendered photos).
    """
    step, beside = outline_contrast(grey, quad, scale, round_)
    return step >= step_min and step >= share_min * beside


def outline_contrast(
    grey: np.ndarray, quad: np.ndarray, scale: float, round_: bool
) -> tuple[float, float]:
    """The typical step in grey across a piece's outline (see :func:`outline_steps`),
    and the larger of the same a little inside and a little outside it (0, 0 for a
    piece off the frame): an outline that is the piece's edge stands out of both."""
    rings = _ring_steps(grey, quad, scale, round_)
    if rings is None:
        return 0.0, 0.0
    typical = np.median(rings, axis=1).tolist()  # one call for the three rings
    return typical[0], max(typical[1:])


def cloth_step(grey: np.ndarray) -> float:
    """The cloth's own step in grey between pixels two apart, along the frame's border
    (where the table is surely seen), blurred as outlines are
    (:func:`outline_contrast`): the median of the larger of the two directions' steps.
    An outline that steps no more than this is the cloth's noise, not an edge."""
    blurred = cv2.GaussianBlur(grey.astype(np.float32), (0, 0), 1.0)
    across = np.zeros_like(blurred)
    across[:, 1:-1] = np.abs(blurred[:, 2:] - blurred[:, :-2])
    down = np.zeros_like(blurred)
    down[1:-1] = np.abs(blurred[2:] - blurred[:-2])
    return float(np.median(np.maximum(across, down)[border_band(grey.shape)]))


def outline_evenness(grey: np.ndarray, quad: np.ndarray, scale: float, round_: bool) -> float:
    """How evenly a piece's outline steps all round: the lower fifth of its steps
    (:data:`EVEN_QUANTILE`) over their median, 0 where it does not step at all.

    A circle laid on a printed crescent (the deposit mat's moons) steps sharply along
    the crescent's outer arc, over half of it, and hardly at all across the rest: its
    median step is a clear edge, its lower fifth is not. A token's rim steps all round.
    """
    rings = _ring_steps(grey, quad, scale, round_)
    if rings is None:
        return 0.0
    typical = float(np.median(rings[0]))
    return float(np.percentile(rings[0], EVEN_QUANTILE)) / typical if typical > 0 else 0.0


def _ring_steps(
    grey: np.ndarray, quad: np.ndarray, scale: float, round_: bool
) -> np.ndarray | None:
    """The steps across a piece's outline at each of its points (see
    :func:`outline_steps`), on the outline and on each of :data:`RINGS`' further rings
    (a row each); None for a piece off the frame."""
    work = to_work(quad.astype(np.float64), scale)
    centre = work.mean(axis=0)
    # only the piece and a margin around its outer ring are looked at
    reach = np.abs(work - centre).max() * max(RINGS) + 6
    height, width = grey.shape
    x0, y0 = np.maximum(np.floor(centre - reach), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(centre + reach), [width, height]).astype(int)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    blurred = cv2.GaussianBlur(grey[y0:y1, x0:x1].astype(np.float32), (0, 0), 1.0)
    work -= (x0, y0)
    centre = work.mean(axis=0)
    # the three rings in one gather: per ring, the Python calls cost more than the sums
    rings = centre + (work - centre)[None] * _RING_FACTORS
    return _steps_across(blurred, rings, round_)


def outline_steps(blurred: np.ndarray, quad: np.ndarray, round_: bool) -> float:
    """The median step in grey across a piece's outline: a square's four sides, or
    the ellipse inside a round piece's box. Each step is the largest of a few offsets
    across the outline, as it is only known to a pixel or so."""
    return float(np.median(_steps_across(blurred, quad, round_)))


def _steps_across(blurred: np.ndarray, quad: np.ndarray, round_: bool) -> np.ndarray:
    """The step in grey across a piece's outline at each of its points (see
    :func:`outline_steps`); for several quads at once (R×4×2), R rows of them."""
    height, width = blurred.shape
    points, normals = _outline_points(quad, round_)
    across = points[..., None, :] + _ACROSS[:, None] * normals[..., None, :]
    limit = [width - 1, height - 1]
    outer = np.clip(np.rint(across + normals[..., None, :]), 0, limit).astype(int)
    inner = np.clip(np.rint(across - normals[..., None, :]), 0, limit).astype(int)
    step = blurred[outer[..., 1], outer[..., 0]] - blurred[inner[..., 1], inner[..., 0]]
    return np.abs(step).max(axis=-1)


def square_by_outline(
    grey: np.ndarray,
    centre: np.ndarray,
    side: float,
    scale: float,
    periods: tuple[np.ndarray, ...] | None = None,
) -> np.ndarray:
    """The square of ``side`` (full-frame px) near ``centre`` whose outline runs best
    along the frame's edges (see :func:`outlined_square`): its corners, full-frame px."""
    return outlined_square(grey, centre, side, scale, periods)[0]


class OutlineGround(NamedTuple):
    """The grey's gradient (x and y; on a checked cloth less the cloth's own, see
    :func:`cloth_free_gradient`) over a crop of the work image whose top left corner
    lies at ``origin``: what :func:`outlined_square` slides its squares over."""

    gradient: tuple[np.ndarray, np.ndarray]
    origin: tuple[int, int]


def outline_ground(
    grey: np.ndarray,
    centre: np.ndarray,
    side: float,
    scale: float,
    periods: tuple[np.ndarray, ...] | None = None,
) -> OutlineGround:
    """The gradient :func:`outlined_square` searches for a square of ``side`` (full-frame
    px) near ``centre``, over a crop wide enough for any square of that side or less
    there (and, on a checked cloth, a period beyond it).

    Worked out once for the largest of several sizes tried at one place, it serves
    them all: on a checked cloth the cloth-free gradient costs more than the search,
    and a crop each size would work it out again over nearly the same pixels. A smaller
    square then lies further inside its crop, clear of the crop's borders, where a crop
    of its own would have blurred and compared a few pixels against the border.
    """
    work_centre = to_work(np.asarray(centre, np.float64), scale)
    half = side / scale / 2
    reach = SEARCH_REACH * 2 * half
    radius = math.ceil(half * math.sqrt(2) + reach) + 3
    # a period beyond the square, for its edges to be compared with the cloth's
    margin = 0 if periods is None else _longest_period(periods, work_centre) + 2
    height, width = grey.shape
    x0, y0 = (np.floor(work_centre) - radius - margin).astype(int)
    x0, y0 = max(x0, 0), max(y0, 0)
    x1 = min(x0 + 2 * (radius + margin) + 1, width)
    y1 = min(y0 + 2 * (radius + margin) + 1, height)
    blurred = cv2.GaussianBlur(grey[y0:y1, x0:x1].astype(np.float32), (0, 0), 1.0)
    gradient = (
        cv2.Sobel(blurred, cv2.CV_32F, 1, 0, ksize=3),
        cv2.Sobel(blurred, cv2.CV_32F, 0, 1, ksize=3),
    )
    if periods is not None:
        gradient = cloth_free_gradient(gradient, periods, (x0, y0))
    return OutlineGround(gradient, (int(x0), int(y0)))


def outlined_square(
    grey: np.ndarray,
    centre: np.ndarray,
    side: float,
    scale: float,
    periods: tuple[np.ndarray, ...] | None = None,
    ground: OutlineGround | None = None,
) -> tuple[np.ndarray, float]:
    """The square of ``side`` (full-frame px) near ``centre`` whose outline runs best
    along the frame's edges: the one across whose sides the grey changes most (the
    median over its sides, so a figure crossing a side does not decide; on a checked
    cloth the lower quarter, see below). Searched coarsely over places and turns, then
    finely around the best. Returns its corners in full-frame px, and how steeply it
    steps all round (the lower quarter of its steps: :data:`ALL_ROUND_QUANTILE`).

    On a checked cloth whose ``periods`` were read (see
    :attr:`vision.foreground.Foreground.periods`) the cloth's own edges are left out
    (:func:`cloth_free_gradient`): a square a tile wide on a check of cells a third of
    that lies with all four sides on the check's lines wherever it is placed square to
    them, and those lines step as steeply as a tile's edge.

    ``ground``: the gradient worked out once for several sizes at this place (see
    :func:`outline_ground`, for a side at least this one's, with the same ``periods``).
    """
    if ground is None:
        ground = outline_ground(grey, centre, side, scale, periods)
    gradient, (x0, y0) = ground
    work_centre = to_work(np.asarray(centre, np.float64), scale)
    half = side / scale / 2
    reach = SEARCH_REACH * 2 * half
    local = work_centre - (x0, y0)
    step = max(1.0, half / 6)
    shifts = np.arange(-reach, reach + 1e-6, step)
    places = local + np.stack(np.meshgrid(shifts, shifts), axis=-1).reshape(-1, 2)
    turn_step = math.radians(SEARCH_TURN_STEP)
    coarse = np.arange(0, math.pi / 2, turn_step)
    # with the cloth's lines gone a tile's outline steps all round, where a square
    # half off it keeps a side or two on its figure: judged by its lower quarter
    by = 50 if periods is None else ALL_ROUND_QUANTILE
    _, angle, place = _best_square(gradient, places, coarse, half, 6, None, by)
    fine = np.arange(-step, step + 1e-6, step / 2)
    places = place + np.stack(np.meshgrid(fine, fine), axis=-1).reshape(-1, 2)
    turns = angle + np.arange(-1, 1.01, 0.25) * turn_step
    # reported by its lower quarter of steps: a square half off a tile still has
    # three of its sides' halves on the tile's edges or its figure's
    score, angle, place = _best_square(gradient, places, turns, half, 12, ALL_ROUND_QUANTILE, by)
    assert score is not None  # asked for a quantile
    quad = square_quad(place + np.array([x0, y0]), half, angle)
    return to_frame(quad, scale), score


def cloth_free_gradient(
    gradient: tuple[np.ndarray, np.ndarray],
    periods: tuple[np.ndarray, ...],
    origin: tuple[int, int],
) -> tuple[np.ndarray, np.ndarray]:
    """The grey's gradient (x and y, of a crop whose top left corner lies at
    ``origin`` in the work image) less the cloth's own: at each pixel, less the
    gradient one period away (either way along either axis, the field ``periods``)
    that is most like it.

    A checked cloth repeats itself a period on, edges and all, so its edges cancel;
    a tile's edge has plain cloth a period beside it and stays, even where the tile's
    paper is as pale as the cloth's pale cells (its printed or shaded border still
    steps). Light and shadow change little over a period.
    """
    gx, gy = gradient
    h, w = gx.shape
    xs = np.arange(w, dtype=np.float32)[None, :]
    ys = np.arange(h, dtype=np.float32)[:, None]
    fx, fy = xs + origin[0], ys + origin[1]
    least = np.full((h, w), np.inf, np.float32)
    rest_x, rest_y = gx.copy(), gy.copy()
    for coef in periods:
        vx = coef[0, 0] + coef[1, 0] * fx + coef[2, 0] * fy
        vy = coef[0, 1] + coef[1, 1] * fx + coef[2, 1] * fy
        for sign in (1.0, -1.0):
            map_x = (xs + sign * vx).astype(np.float32)
            map_y = (ys + sign * vy).astype(np.float32)
            # a period that leaves the crop compares a pixel with itself: no cancelling
            there_x = cv2.remap(
                gx,
                map_x,
                map_y,
                cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_CONSTANT,
                borderValue=np.inf,
            )
            there_y = cv2.remap(
                gy,
                map_x,
                map_y,
                cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_CONSTANT,
                borderValue=np.inf,
            )
            dx, dy = gx - there_x, gy - there_y
            apart = dx * dx + dy * dy
            closer = apart < least
            least[closer] = apart[closer]
            rest_x[closer] = dx[closer]
            rest_y[closer] = dy[closer]
    return rest_x, rest_y


def _longest_period(periods: tuple[np.ndarray, ...], point: np.ndarray) -> int:
    """The length (work px, rounded up) of the longest of the cloth's periods at ``point``."""
    x, y = point
    return max(
        math.ceil(float(np.hypot(*(coef[0] + x * coef[1] + y * coef[2])))) for coef in periods
    )


def square_quad(centre: np.ndarray, half: float, angle: float) -> np.ndarray:
    """The corners of a square of half-side ``half`` turned by ``angle`` (radians)
    about ``centre``, in :func:`vision.rectify.rectify` corner order."""
    u = np.array([math.cos(angle), math.sin(angle)]) * half
    v = np.array([-u[1], u[0]])
    return np.array([-u - v, u - v, u + v, v - u]) + centre


def _best_square(
    gradient: tuple[np.ndarray, np.ndarray],
    places: np.ndarray,
    angles: np.ndarray,
    half: float,
    per_side: int,
    quantile: float | None = 50,
    by: int = 50,
) -> tuple[float | None, float, np.ndarray]:
    """Of squares turned by each of ``angles`` (radians) and centred at each of
    ``places`` (K×2, px), the one whose sides the grey crosses most steeply (sampled
    at ``per_side`` points a side; judged by the ``by`` percentile of its steps, the
    median unless told): that ``quantile`` of its steps (None unless asked: a coarse
    search wants only the place, and the percentile's own cost is a fifth of the
    search's), its angle and its centre."""
    gx, gy = gradient
    u = np.stack([np.cos(angles), np.sin(angles)], axis=-1)  # A×2
    v = np.stack([-u[:, 1], u[:, 0]], axis=-1)
    along = np.linspace(-0.8, 0.8, per_side)[None, :, None] * half
    sides = [(-v, u), (u, v), (v, u), (-u, v)]  # (outward normal, direction along)
    ring = np.concatenate([n[:, None] * half + along * a[:, None] for n, a in sides], axis=1)
    facing = np.concatenate([np.repeat(n[:, None], per_side, axis=1) for n, _ in sides], axis=1)
    # x and y summed apart (A×K×48 each): broadcast as pairs, NumPy's inner loop would
    # run two elements at a time, and the sum alone cost more than the rest
    xs = np.rint(places[None, :, None, 0] + ring[:, None, :, 0]).astype(np.int32)
    ys = np.rint(places[None, :, None, 1] + ring[:, None, :, 1]).astype(np.int32)
    xs = np.clip(xs, 0, gx.shape[1] - 1)
    ys = np.clip(ys, 0, gx.shape[0] - 1)
    flat = ys * gx.shape[1] + xs  # one gather per gradient image, not two index arrays
    normal = facing[:, None]  # A×1×48×2
    steps = np.abs(gx.ravel().take(flat) * normal[..., 0] + gy.ravel().take(flat) * normal[..., 1])
    rank = steps.shape[-1] * by // 100
    scores = np.partition(steps, rank, axis=-1)[..., rank]  # A×K
    a, k = np.unravel_index(int(np.argmax(scores)), scores.shape)
    score = None if quantile is None else percentile_of(steps[a, k], quantile)
    return score, float(angles[a]), places[k]


#: How far a lone piece's cut may shrink or grow onto its edge (shares of its size),
#: in steps of :data:`FIT_STEP`; of the sizes where the outline's step peaks, the
#: outermost at least :data:`FIT_CLOSE` of the steepest is taken, so a printed border
#: just inside the tile's edge does not pull the cut in.
FIT_RANGE = (0.84, 1.06)
FIT_STEP = 0.02
FIT_CLOSE = 0.7
#: A piece whose colour is a frame round its edge (see ``framed`` below) has table
#: just outside its edge (this many sizes out): colour as far from the piece's own as
#: the table further out is, within :data:`FIT_TABLE` of the piece's distance from it...
FIT_OUTSIDE = 2
FIT_TABLE = 0.5
#: ...which is told only where the table changes by less than this share of the
#: piece's distance from it over as many size steps (a plain table; on a check, the
#: colour outside changes from cell to cell, and round a print with no edge of its own
#: it changes steadily all the way out).
FIT_STEADY = 0.15
#: A framed piece's ground (its paper) is followed out from this share of its cut's
#: half-side: its colour there is the ground's (see :func:`ground_reach`).
GROUND_FROM = 0.6
#: ...and it ends where the colour has risen this share of the way to the furthest it
#: gets: not half way, as a frame near the ground's colour (yellow on cream) before a
#: table far from it would put half the rise at the frame's outer edge.
GROUND_RISE = 0.25
#: Only a ground reaching this far (a share of the half-side) can be taken for the edge:
#: a cut a twentieth too small puts its edge among the sizes the fit tries (down to
#: :data:`FIT_RANGE`'s 0.84).
GROUND_IN_RANGE = 0.8


def fitted_to_edge(
    image: np.ndarray, quad: np.ndarray, round_: bool, framed: float = 0.0
) -> np.ndarray:
    """A lone piece's cut (full-frame px) scaled about its centre onto the piece's edge.

    The object mask outlines a high-contrast piece a pixel or two wide of its edge
    (the photo's blur spreads the edge past the mask's threshold), which cuts a small
    tile 5-15 % too large: more than its first look's templates forgive. The edge is
    where the grey changes most steeply across the outline, read at full resolution.

    ``framed``: the tile set carries its colour in a frame round the faces' edge
    (:func:`vision.colour.colour_mask`). There the steepest step may be the frame's
    inner edge (white paper against a dark frame), while the frame against the table
    may hardly step in grey at all (blue on brown wood), and a cut inside the frame
    leaves the tile no colour. So the step chosen must have table outside it; where it
    has not, the edge is where the colour turns to the table's. ``framed`` (0 for a set
    that is not framed) is how far out the faces' ground reaches (:func:`ground_reach`,
    a share of the half-side): on a check the colour outside changes anyway, and a frame
    against it hardly steps in grey, so a small tile's steepest step is its paper's edge
    (its frame's inner edge); the cut is never inside the frame the faces say lies round
    the paper, as far out as the range allows. Only a ground reaching into the range of
    sizes tried can be taken for the edge: a set whose colour reaches the edge round a
    pale disc in the middle (``mosaic``, its ground reaching 0.6) is left as it was.
    """
    centre = quad.mean(axis=0)
    factors = np.arange(FIT_RANGE[0], FIT_RANGE[1] + 1e-6, FIT_STEP)
    reach = np.abs(quad - centre).max() * FIT_RANGE[1] + 4
    height, width = image.shape[:2]
    x0, y0 = np.maximum(np.floor(centre - reach), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(centre + reach), [width, height]).astype(int)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return quad
    crop = image[y0:y1, x0:x1, :3]
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    blurred = cv2.GaussianBlur(grey, (0, 0), 1.0)
    gx = cv2.Sobel(blurred, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(blurred, cv2.CV_32F, 0, 1, ksize=3)
    local = quad - centre
    points, normals = _outline_points(local, round_)
    # every size at once: F×N points, each the outline point moved with its size
    # sampled between pixels: a small tile's sizes lie under a pixel apart
    where = (centre - (x0, y0) + factors[:, None, None] * points[None]).astype(np.float32)
    xs, ys = where[..., 0], where[..., 1]
    along_x = cv2.remap(gx, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    along_y = cv2.remap(gy, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    steps = np.abs(along_x * normals[None, :, 0] + along_y * normals[None, :, 1])
    typical = np.median(steps, axis=1)
    padded = np.pad(typical, 1, constant_values=-1.0)
    peaks = (typical >= padded[:-2]) & (typical >= padded[2:])
    close = np.flatnonzero(peaks & (typical >= FIT_CLOSE * typical.max()))
    edge = int(close[-1])
    if framed:
        colours = cv2.remap(
            cv2.GaussianBlur(crop, (0, 0), 1.0).astype(np.float32),
            xs,
            ys,
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )  # F×N×3
        edge = _edge_against_table(colours, edge)
    if framed >= GROUND_IN_RANGE:
        reach = ground_reach(cv2.GaussianBlur(crop, (0, 0), 1.0), centre - (x0, y0), points)
        if reach is not None:
            beyond = np.flatnonzero(factors <= reach / framed + FIT_STEP / 2)
            edge = max(edge, int(beyond[-1]) if beyond.size else 0)
    return (centre + local * float(factors[edge])).astype(np.float32)


def ground_reach(image: np.ndarray, centre: np.ndarray, points: np.ndarray) -> float | None:
    """How far out (a share of the outline ``points``, relative to ``centre``; image px)
    a framed piece's ground reaches: where the colour along rings, followed out from
    :data:`GROUND_FROM`, has risen :data:`GROUND_RISE` of the way from the ground's to
    the furthest it gets within :data:`FIT_RANGE`. Read the same way from the faces and
    from a photo, so the two compare whatever the frame's width and the table's colour.
    ``None`` where nothing differs from the ground.
    """
    factors = np.arange(GROUND_FROM, FIT_RANGE[1] + 1e-6, FIT_STEP)
    where = (centre + factors[:, None, None] * points[None]).astype(np.float32)
    colours = cv2.remap(
        image.astype(np.float32),
        where[..., 0],
        where[..., 1],
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )  # F×N×3
    ground = np.median(colours[0], axis=0)
    apart = np.median(np.linalg.norm(colours - ground, axis=-1), axis=1)  # F
    # the ground's own spread (noise, the figure's edge) is where the rise starts
    threshold = float(apart[0]) + GROUND_RISE * float(apart.max() - apart[0])
    if apart.max() <= apart[0] or float(apart[0]) >= threshold:
        return None
    k = int(np.argmax(apart >= threshold))
    low, high = float(apart[k - 1]), float(apart[k])
    return float(factors[k - 1] + FIT_STEP * (threshold - low) / max(high - low, 1e-9))


def face_ground_reach(faces: np.ndarray, round_: bool) -> float:
    """How far out the ground of a set's faces (K×P×P×3, upright) reaches, a share of
    the half-side (:func:`ground_reach`): the median over the faces."""
    size = faces.shape[1]
    half = size / 2
    centre = np.array([(size - 1) / 2, (size - 1) / 2])
    quad = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    points, _ = _outline_points(quad, round_)
    reaches = [ground_reach(face, centre, points) for face in faces]
    found = [r for r in reaches if r is not None]
    return float(np.median(found)) if found else 1.0


def _edge_against_table(colours: np.ndarray, edge: int) -> int:
    """The size (index) at or outside ``edge`` where a framed piece meets the table, from
    the colours along its outline at every size (F×N×3; the outermost is table)."""
    apart = np.median(np.linalg.norm(colours - colours[-1][None], axis=-1), axis=1)  # F
    piece = float(apart[: edge + 1].max())
    steady = apart[-1 - FIT_OUTSIDE] <= FIT_STEADY * piece
    outside = min(edge + FIT_OUTSIDE, len(apart) - 1)
    if steady and apart[outside] > FIT_TABLE * piece:
        beyond = np.flatnonzero(apart[edge:] <= FIT_TABLE * piece)
        if beyond.size:
            edge += max(int(beyond[0]) - 1, 0)
    return edge


def _outline_points(quad: np.ndarray, round_: bool) -> tuple[np.ndarray, np.ndarray]:
    """Points along a piece's outline (a square's four sides, or the ellipse inside a
    round piece's box) and their unit outward normals; for several quads at once
    (R×4×2), R rows of them. Worked out for all sides (and quads) in one go: called
    for every outline judged, its Python calls cost more than its arithmetic."""
    centre = quad.mean(axis=-2, keepdims=True)
    if round_:
        right = (quad[..., 1:2, :] + quad[..., 2:3, :]) / 2 - centre
        down = (quad[..., 2:3, :] + quad[..., 3:4, :]) / 2 - centre
        points = centre + _ELLIPSE_COS * right + _ELLIPSE_SIN * down
        normals = points - centre
    else:
        ends = np.roll(quad, -1, axis=-2)
        points = quad[..., None, :] + _SIDE_ALONG * (ends - quad)[..., None, :]
        points = points.reshape(*quad.shape[:-2], -1, 2)
        facing = np.stack([quad[..., 1] - ends[..., 1], ends[..., 0] - quad[..., 0]], axis=-1)
        normals = np.repeat(facing, _SIDE_POINTS, axis=-2)
        normals *= np.sign(np.sum(normals * (points - centre), axis=-1))[..., None]
    normals = normals / np.maximum(np.linalg.norm(normals, axis=-1, keepdims=True), 1e-6)
    return points, normals
