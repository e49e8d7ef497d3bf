"""Round tiles and tokens the object mask missed, found by their rims
(:func:`look_again`): circles of the known size among the frame's edges, near the
pieces found and around what nothing explains.

One of the searches of :mod:`vision.searches`.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.candidates import Blob, Candidate
from vision.doubts import kept_sure_or_outlined
from vision.frame import Frame
from vision.numeric import median_of
from vision.outlines import fitted_to_edge, outline_evenness
from vision.pieces import (
    Scored,
    SizeModel,
    blob_centre,
    clear_of,
    displaced,
    distance,
    one_per_place,
    shaped_like,
)
from vision.pixels import to_frame, to_work
from vision.results import TokenDetection
from vision.scoring import Scoring
from vision.token_rows import printed_groups

#: Missed round pieces are looked for within this many of their kind's sides of the
#: pieces found (a row or block continues; the rest of the frame was seen by the mask).
_RIM_REACH = 2.5
#: Rims of a smaller radius than this (working pixels) are looked for in the full frame.
_RIM_FINE = 6.0
#: A rim on a checked cloth holds a piece when the cloth stops repeating itself over at
#: least this share of the disc of 0.7 its radius, or of its whole disc (tiles on a fine
#: check measured 0.63 and more, rings of the check's own cells 0.02 and less).
_RIM_BREAK_MIN = 0.3
#: A loose blob this many tokens long (its box's long side over the tokens' size) and
#: up to :data:`_PAIR_LONG` may be two touching tokens, one half lost to the cloth.
_PAIR_SHORT = 1.3
_PAIR_LONG = 2.4


def look_again(
    scoring: Scoring, frame: Frame, chosen: list[Scored], size_at: SizeModel | None
) -> list[Scored]:
    """The chosen pieces, with round tiles and tokens the object mask missed added,
    found by their rims.

    A piece whose colours are a patterned cloth's own can vanish from the mask, or
    leave only its figure there. Once the frame's pieces give their size, such a
    piece's rim is still a circle of known radius among the frame's edges; each
    circle not already explained is cut in the shape of the nearest recognised
    piece of its kind (the same tilt) and kept only on a clear match, as it has no
    blob to vouch for it. A chosen piece far smaller than the circle (a figure
    taken for a token) or a poor match of the wrong size does not explain it; the
    circle's piece takes its place when it matches better. Rims are looked for
    beside the pieces found and around the blobs nothing explains (the pale ends
    of a row whose middle the cloth hides).
    """
    if size_at is None or scoring.model.round is None:
        return chosen
    loose = []
    loose_blobs = []
    for blob in frame.blobs:
        centre = blob_centre(blob, frame.scale)
        reach = 0.7 * size_at(centre)
        if all(distance(centre, s.candidate.center) >= reach for s in chosen):
            loose.append(centre)
            loose_blobs.append(blob)
    found: list[Scored] = []
    for token in (False, True):
        known = [s for s in chosen if s.candidate.round and scoring.is_token(s) == token]
        if len(known) < (2 if token else 1):
            continue  # a token's size is only known from the frame's tokens
        ratio = median_of([s.candidate.side / size_at(s.candidate.center) for s in known])
        firm = [s for s in chosen if not scoring.doubtful(s, ratio * size_at(s.candidate.center))]
        pairs = paired_blobs(frame, loose_blobs, size_at, ratio) if token else []
        candidates = rims(frame, firm + found, known, loose, size_at, ratio, pairs)
        # a rim of a tile's size holds a tile (its figure alone may look like a token)
        kind = scoring.token_groups if token else ~scoring.token_groups
        # a tile's rim is only placed to a few pixels (see Scoring.score_shifted); shifted
        # token-sized cuts found more dice and figures than tokens
        score = scoring.score_structure if token else scoring.score_shifted
        first = score(frame.pyramid, candidates, kind)
        # a tile's rim matched beyond doubt needs no outline; a token's does (the mat's
        # printed moons are arcs of a token's rim)
        kept = kept_sure_or_outlined(
            scoring,
            frame,
            scoring.realigned_if_worth(frame.pyramid, first, kind),
            scoring.config.second_look_min,
            size_at,
            not token,
        )
        if token:
            kept = not_printed_arcs(scoring, frame, kept)
        found += [s for s in kept if clear_of(s.candidate.center, firm + found)]
    return displaced(chosen, one_per_place(found)[0])


def paired_blobs(
    frame: Frame, blobs: list[Blob], size_at: SizeModel, ratio: float
) -> list[tuple[float, float]]:
    """The centres of the loose blobs a token and a half to two tokens long: two
    touching tokens cut as one piece, which matched nothing.

    Where one token of a touching pair shares the cloth's colours, the mask keeps it
    only in part and the pair's blob is too short for a two-disc split; the rims are
    still there, but at the working size a token's rim is a few pixels wide and
    blurred into a check's cell edges (ember s2024 #19: a yellow and a blue token on a
    blue gingham, neither rim found at the working size, both in the full frame).
    """
    pairs = []
    for blob in blobs:
        centre = blob_centre(blob, frame.scale)
        long_side = max(blob.box[1]) * frame.scale / (ratio * size_at(centre))
        if _PAIR_SHORT <= long_side <= _PAIR_LONG:
            pairs.append(centre)
    return pairs


def rim_steps_all_round(scoring: Scoring, frame: Frame, s: Scored) -> bool:
    """Whether a round piece's rim, fitted to its edge, steps all round
    (:func:`vision.outlines.outline_evenness` at least ``token_outline_even_min``), as
    a token's does and a printed crescent's, an arc over half a rim, does not."""
    quad = fitted_to_edge(frame.pyramid.levels[0], s.candidate.quad, True)
    evenness = outline_evenness(frame.grey, quad, frame.scale, True)
    return evenness >= scoring.config.token_outline_even_min


def not_printed_arcs(scoring: Scoring, frame: Frame, found: list[Scored]) -> list[Scored]:
    """The tokens found by their rims, less the printed arcs among them.

    A token's rim steps all round; a printed crescent (the deposit mat's moons)
    is a circle's arc over half a token's rim, matches a token's face (0.70-0.78
    on the rendered photos) and passes the median outline test, but steps along
    only part of it (:func:`vision.outlines.outline_evenness`). Its copies printed
    beside it (side by side and evenly spaced, as :func:`printed_groups` finds
    them) are the same print even where one of them happens to step evenly, so
    they go with it: else one copy left of three is reported as a token, where
    the three together would have been turned down as a print.
    """
    uneven = {k for k, s in enumerate(found) if not rim_steps_all_round(scoring, frame, s)}
    if not uneven:
        return found
    # only faces are a print's copies: a player's row of backs lies side by side and
    # evenly spaced too, and one of its rims stepping unevenly (a back's pale ring
    # blurred into a pale table) took the whole row with it
    alike = [
        TokenDetection(
            None, not scoring.is_back(s.group), s.candidate.center, s.candidate.polygon(), s.score
        )
        for s in found
    ]
    for group in printed_groups(alike):
        if uneven.intersection(group):
            uneven.update(group)
    return [s for k, s in enumerate(found) if k not in uneven]


def rims(
    frame: Frame,
    taken: list[Scored],
    known: list[Scored],
    loose: list[tuple[float, float]],
    size_at: SizeModel,
    ratio: float,
    pairs: list[tuple[float, float]] | None = None,
) -> list[Candidate]:
    """Circles ``ratio`` times a tile's size among the frame's edges near the known
    pieces and the ``loose`` points, where nothing lies yet, each cut in the shape
    of the nearest known piece. On a checked cloth compared with itself (``broken``,
    see :attr:`vision.foreground.Foreground.broken`) a circle must hold a break of
    its repetition: the check's own cells form rings of a tile's size. Around the
    ``pairs`` (see :func:`paired_blobs`) rims are looked for in the full frame too."""

    def sizes(point: tuple[float, float]) -> float:
        return ratio * size_at(point)

    height, width = frame.grey.shape
    corners = [(0.0, 0.0), (width * frame.scale, 0.0), (0.0, height * frame.scale)]
    corners.append((width * frame.scale, height * frame.scale))
    sides = [sizes(c) for c in corners]
    low, high = 0.8 * min(sides) / 2 / frame.scale, 1.15 * max(sides) / 2 / frame.scale
    # rims under a few pixels across at the working size are looked for in the
    # full frame (a row of small tokens at the far side of a tilted table)
    fine = low < _RIM_FINE
    zoom = frame.scale if fine else 1.0
    if low * zoom < 3:
        return []
    # a lost piece lies beside the others of its kind (in their row or block), or
    # around what the mask kept of it (and each window holds the whole rim of a
    # piece centred within that reach)
    reach = _RIM_REACH * max(s.candidate.side for s in known) / frame.scale + high
    points = [np.array(s.candidate.center) / frame.scale for s in known]
    points += [np.array(p) / frame.scale for p in loose]
    circles: list[tuple[float, float, float]] = []
    for window in _windows(points, reach, frame.grey.shape):
        circles += _circles(frame, window, low, high, zoom if fine else 1.0)
    if pairs and not fine:
        # a pair's rims lie within a token of its blob's middle
        near = [np.array(p) / frame.scale for p in pairs]
        for window in _windows(near, 2 * high + 2, frame.grey.shape):
            circles += _circles(frame, window, low, high, frame.scale)
    candidates: list[Candidate] = []
    for k, (x, y, radius) in enumerate(circles):
        centre = np.array([to_frame(x, frame.scale), to_frame(y, frame.scale)])
        side = sizes((float(centre[0]), float(centre[1])))
        if abs(2 * radius * frame.scale / side - 1) > 0.25:
            continue
        if frame.broken is not None and _unbroken(frame.broken, x, y, radius):
            continue
        if any(distance(s.candidate.center, centre) < 0.6 * side for s in taken):
            continue
        if any(distance(c.center, centre) < 0.6 * side for c in candidates):
            continue  # the same rim seen from two windows
        quad = shaped_like([s.candidate for s in known], centre, side)
        candidates.append(Candidate(quad=quad, round=True, blob=-1 - k, split=0))
    return candidates


def _circles(
    frame: Frame, window: tuple[int, int, int, int], low: float, high: float, zoom: float
) -> list[tuple[float, float, float]]:
    """The circles of radius ``low``..``high`` (working px) among the edges in the
    working-size ``window`` (x0, y0, x1, y1), looked for in the frame ``zoom`` times
    the working size (1: the working frame, ``frame.scale``: the full frame), as
    (x, y, radius) in working px."""
    if zoom != 1.0:
        x0, y0, x1, y1 = (round(v * zoom) for v in window)
        crop = cv2.cvtColor(frame.pyramid.levels[0][y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    else:
        x0, y0, x1, y1 = window
        crop = frame.grey[y0:y1, x0:x1]
    found = cv2.HoughCircles(
        cv2.GaussianBlur(crop, (0, 0), 1.2),
        cv2.HOUGH_GRADIENT_ALT,
        dp=1.0,
        minDist=1.5 * low * zoom,
        param1=120,
        param2=0.6,
        minRadius=int(low * zoom),
        maxRadius=math.ceil(high * zoom),
    )
    if found is None:
        return []
    return [
        (to_work(x + x0, zoom), to_work(y + y0, zoom), radius / zoom) for x, y, radius in found[0]
    ]


def _windows(
    points: list[np.ndarray], reach: float, shape: tuple[int, ...]
) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) reaching ``reach`` around the points, overlapping boxes
    merged: a search over a few small windows instead of one spanning the frame."""
    height, width = shape[:2]
    boxes = [[p[0] - reach, p[1] - reach, p[0] + reach, p[1] + reach] for p in points]
    merged = True
    while merged:
        merged = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                if a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]:
                    boxes[i] = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
                    del boxes[j]
                    merged = True
                    break
            if merged:
                break
    return [
        (
            max(math.floor(x0), 0),
            max(math.floor(y0), 0),
            min(math.ceil(x1), width),
            min(math.ceil(y1), height),
        )
        for x0, y0, x1, y1 in boxes
    ]


def _unbroken(broken: np.ndarray, x: float, y: float, radius: float) -> bool:
    """Whether the circle at (``x``, ``y``) of ``radius`` (working px) lies on cloth that
    repeats itself (``broken``: 255 where it does not): neither its middle (a disc of
    0.7 the radius) nor its whole disc breaks the repetition over
    :data:`_RIM_BREAK_MIN` of it.

    A piece whose middle shares the cloth's colours (a pink ground on a red-and-white
    gingham, whose mixed cells are pink) breaks the check round its rim, not in its
    middle, where a ring of the check's own cells breaks nothing anywhere (whorl seed 7
    #2: two red tiles in a column on a red gingham, middles 0.26-0.28 broken, whole
    discs 0.35-0.40). The disc is drawn in a box around it, not a frame-sized mask: a
    checked frame's rim search judges dozens of circles (a full-frame mask each cost
    ~0.15 ms)."""
    cx, cy, r = round(x), round(y), max(1, round(radius))
    height, width = broken.shape[:2]
    x0, y0 = max(cx - r - 1, 0), max(cy - r - 1, 0)
    x1, y1 = min(cx + r + 2, width), min(cy + r + 2, height)
    if x1 <= x0 or y1 <= y0:
        return False
    cloth = broken[y0:y1, x0:x1] > 0
    for share in (0.7, 1.0):
        disc = np.zeros(cloth.shape, np.uint8)
        cv2.circle(disc, (cx - x0, cy - y0), max(1, round(share * radius)), 255, -1)
        inside = disc > 0
        if not inside.any() or float(np.mean(cloth[inside])) >= _RIM_BREAK_MIN:
            return False
    return True
