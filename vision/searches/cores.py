"""Round tiles of which the object mask kept only the coloured disc in their middle
(:func:`around_cores`).

One of the searches of :mod:`vision.searches`.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.candidates import Blob, Candidate, find_blobs
from vision.cuts import full
from vision.doubts import kept_settling_ties
from vision.foreground import fill_holes
from vision.frame import Frame
from vision.pieces import Scored, SizeModel, clear_of, displaced, distance, one_per_place
from vision.rectify import quad_from_ellipse
from vision.scoring import Scoring

#: The face round a coloured disc is cut at these shares of the size the tile set
#: predicts (the disc's edge in the hue mask is blurred by a pixel or two either way).
_CORE_ZOOMS = (0.9, 1.0, 1.1)
#: The hue mask reaches this many work px further across a core than its edge (read on
#: the frame blurred 3x3, a mixed pixel either side): vinyl's labels 10 and 39 px across
#: were held 12 and 42 px wide.
_CORE_BLUR = 2.0
#: The face aligned round a core is this share of the side its core predicts: a token
#: taken for a core slides onto its own rim, a share of 0.67 (coins).
_CORE_SIZE_RANGE = (0.8, 1.25)
#: A core is a blob of the hue mask shaped like a disc: its area this share of its
#: ellipse's at least, no longer than this, filling this much of its box (looser than
#: :func:`vision.discs.is_single_disc`: a label 10 px across is a ragged disc).
_CORE_ROUNDNESS = 0.8
_CORE_ASPECT = 1.5
_CORE_FILL = (0.65, 0.9)


def around_cores(
    scoring: Scoring, frame: Frame, chosen: list[Scored], size_at: SizeModel | None
) -> list[Scored]:
    """The chosen pieces, with round tiles of which the mask kept only the middle.

    A set that prints its colour in a small disc at the middle of a face of another
    shade (a record's label, :attr:`vision.model.AppearanceModel.colour_core`) loses the
    rest of the face on a cloth of that shade: the mask holds the label and perhaps the
    face's highlights, no disc of a tile's size, so nothing is cut there and the frame
    learns no tile size. Each disc of the hue alone that no piece explains is the core
    of a face the tile set says how large: that face is cut around it, matched, and kept
    only on a clear match (``sure_tile_min``: no blob vouches for it) of the size its
    core predicts, with an outline all round (a token of the colour taken for a core is
    cut too large, and its cloth matches no face, or it slides onto its own rim).
    """
    core = scoring.model.colour_core
    tileset = scoring.tileset
    if core is None or frame.hued is None or tileset.tile_shape != "round":
        return chosen
    scale = frame.scale
    least_side = scoring.config.min_tile_px / scale * core
    # a core is a coloured disc, and is chosen as a token where nothing else is cut
    placed = [s for s in chosen if not scoring.is_token(s)]
    cells: list[Candidate] = []
    predicted: dict[int, float] = {}  # each core's face side, full px
    for index, blob in enumerate(find_blobs(fill_holes(frame.hued), least_side**2 * 0.5)):
        if not _disc_like(blob):
            continue
        (cx, cy), (a, b), angle = cv2.fitEllipse(blob.contour)
        centre = (cx * scale, cy * scale)
        if min(a, b) <= 2 * _CORE_BLUR or not clear_of(centre, placed):
            continue
        a, b = a - _CORE_BLUR, b - _CORE_BLUR
        predicted[index] = max(a, b) * scale / core
        for split, zoom in enumerate(_CORE_ZOOMS):
            axes = (a * zoom / core, b * zoom / core)
            quad = quad_from_ellipse((cx, cy), axes, angle)
            cells.append(full(quad, scale, True, index, split, 1.0))
    if not cells:
        return chosen
    best: dict[int, Scored] = {}
    # matched against the tokens too: a token taken for a core, its face cut round it
    # shrinking onto its rim, is named a token and left alone
    every = np.ones_like(scoring.token_groups)
    for s in scoring.score_shifted(frame.pyramid, cells, every):
        if s.candidate.blob not in best or s.score > best[s.candidate.blob].score:
            best[s.candidate.blob] = s
    aligned = [
        s
        for s in scoring.realigned_if_worth(frame.pyramid, list(best.values()), every)
        if _CORE_SIZE_RANGE[0]
        <= s.candidate.side / predicted[s.candidate.blob]
        <= _CORE_SIZE_RANGE[1]
    ]
    # the faces round cores say the frame's tile size themselves: the size the frame
    # read before may be a label's, cut alone and matched to a face at its own size
    step_min = scoring.least_faint_step(frame)
    kept = kept_settling_ties(
        scoring, frame, aligned, scoring.config.sure_tile_min, _own_side(aligned), True, step_min
    )
    found = [
        s
        for s in one_per_place(kept)[0]
        if not scoring.is_token(s) and clear_of(s.candidate.center, placed)
    ]
    # a token cannot lie on a tile's middle: one chosen there was the tile's core
    covered = {
        id(c)
        for c in chosen
        for s in found
        if scoring.is_token(c)
        and distance(s.candidate.center, c.candidate.center) < 0.5 * core * s.candidate.side
    }
    return displaced([c for c in chosen if id(c) not in covered], found)


def _disc_like(blob: Blob) -> bool:
    """A blob of the hue mask that may be a face's coloured core: one disc, however
    tilted (see :data:`_CORE_ROUNDNESS`)."""
    return (
        blob.roundness >= _CORE_ROUNDNESS
        and blob.aspect <= _CORE_ASPECT
        and _CORE_FILL[0] <= blob.fill <= _CORE_FILL[1]
    )


def _own_side(pieces: list[Scored]) -> SizeModel:
    """Where the frame has no tile size yet: the median side of the faces found round
    cores, so that one cut far off it (a token taken for a core) is turned down."""
    side = float(np.median([s.candidate.side for s in pieces])) if pieces else math.nan

    def size_at(_centre: tuple[float, float]) -> float:
        return side

    return size_at
