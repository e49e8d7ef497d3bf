"""Tiles against a large object that is not a tile (the deposit mat, a card), which the
mask joins into one blob no split explains (:func:`out_of_unexplained`), and squares
and discs found by the frame's edges alone (:func:`squares_by_edges`,
:func:`discs_by_edges`); also the square the edges outline best near a point
(:func:`outlined`), which the other searches use to place a tile.

One of the searches of :mod:`vision.searches`.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.candidates import Candidate, quad_side
from vision.cuts import full
from vision.doubts import kept_settling_ties
from vision.frame import Frame
from vision.outlines import (
    has_outline,
    outline_contrast,
    outline_ground,
    outlined_square,
    square_quad,
)
from vision.pieces import Scored, SizeModel, clear_of, distance, one_per_place
from vision.pixels import to_work
from vision.rectify import quad_from_ellipse
from vision.scoring import Scoring
from vision.searches.beside import BESIDE_ACCEPT_MIN, BESIDE_FIRST_MIN
from vision.shapes import discs_of_radius, rim_ellipse, squares_of_side

#: A piece of a blob no split explains is a tile (against a mat or a card) on a match
#: this clear and an outline all round (on the hard close-ups the mat's printed cells
#: matched 0.6 at most, the one tile that seeded an L of five 0.88: 0.8 read the same,
#: 0.9 lost it)...
_UNEXPLAINED_SEED_MIN = 0.85
#: ...in a blob of at least this many of its areas (a lone tile's blob is judged as is)...
_UNEXPLAINED_AREA = 2.0
#: ...and its neighbours are followed this many tiles on (a longer row is rarer than
#: the cost of a round with nothing to find: one structure match of four cells).
_UNEXPLAINED_ROUNDS = 5
#: A found tile's edges are looked for at these multiples of its matched side (matched
#: sides ran to 0.9 of the tile's on the close-ups; each more size is one more square
#: search per place).
_OUTLINE_ZOOMS = (0.95, 1.0, 1.05, 1.1, 1.15)
#: Where no piece of such a blob matches clearly and the tile size is unknown, squares
#: are looked for by their edges (see :mod:`vision.shapes`), from an eighth of the
#: blob's width to two thirds of it, each size this much larger than the last (a
#: side's step is found within a pixel of its place at 24 px a side)...
_EDGE_SIZES_SPAN = (8.0, 1.5)
_EDGE_SIZE_RATIO = 1.1
#: ...squares whose every side steps along this share of its length, the best this many
#: of each size...
_EDGE_COVER_MIN = 0.6
_EDGE_PER_SIZE = 4
#: ...aligned where their first cut matches this well.
_EDGE_FIRST_MIN = 0.4
#: A disc found so is a tile on a match this clear: on the close-ups, the round tiles
#: against the mat matched 0.87-0.97 once cut along their rim's ellipse (lantern and
#: ember, seeds 2024, 7 and 31: 0.89-0.97); on an empty table (the regression's empty
#: set) a die's pips, the mat's letters and a card's rings matched 0.81-0.85, and once
#: 0.90-0.91 (button's cream half-discs).
_EDGE_DISC_MIN = 0.87


def out_of_unexplained(
    scoring: Scoring,
    frame: Frame,
    scored: list[Scored],
    chosen: list[Scored],
    size_at: SizeModel | None,
) -> list[Scored]:
    """Tiles inside a blob that no split explains: tiles lying against a large
    object that is not a tile (the deposit mat, a card).

    The mask joins such tiles with the object into one blob no grid explains, so
    the whole split is turned down (a printed mat cut into cells). A piece of it
    may still match a tile clearly, with a tile's edge all round: that is a tile
    whatever it lies against. Its own sides then say where its neighbours lie (a
    player lays tiles edge to edge); each neighbour's square is placed by the
    edges the frame shows there, not by the step alone (a tile's side is only
    known to a few per cent, and an error in it grows with every step), and kept
    only on a clear match with an outline all round, like every look-again find.
    Where no piece matches clearly, tiles are looked for by their edges first
    (:func:`squares_by_edges`); round tiles only so (:func:`discs_by_edges`), as
    their rims, not their neighbours' edges, say where each lies.
    """
    if not scoring.tileset.has_tiles:
        return []
    taken = {s.candidate.blob for s in chosen}
    # a size no tile read in the frame vouches for is a clear match of something else
    # (a moon printed on the mat)
    vouched = size_at if any(not scoring.is_token(s) for s in chosen) else None
    # the blobs whose every split was turned down
    unexplained: set[int] = set()
    if vouched is None:
        unexplained = {s.candidate.blob for s in scored if 0 <= s.candidate.blob < len(frame.blobs)}
        unexplained -= taken
    if scoring.tileset.tile_shape != "square":
        return discs_by_edges(scoring, frame, unexplained, chosen, vouched)
    seeds = [
        s
        for s in scored
        if s.candidate.blob not in taken
        and 0 <= s.candidate.blob < len(frame.blobs)
        and not s.candidate.round
        and not scoring.is_token(s)
        and s.score >= _UNEXPLAINED_SEED_MIN
        # an oversized blob: one tile's blob is judged as it is
        and frame.blobs[s.candidate.blob].area * frame.scale**2
        >= _UNEXPLAINED_AREA * s.candidate.side**2
    ]
    seeds = [s for s in one_per_place(seeds)[0] if clear_of(s.candidate.center, chosen)]
    unseeded = unexplained - {s.candidate.blob for s in seeds}
    seeds += squares_by_edges(scoring, frame, unseeded, chosen, vouched)
    if not seeds:
        return []
    sizes = vouched or scoring.size_model(seeds, None)
    if sizes is None:
        return []
    tiles = ~scoring.token_groups
    found: list[Scored] = []
    edges: list[np.ndarray] = []  # each found tile's square as its edges show it
    for s in seeds:
        quad = outlined(scoring, frame, np.array(s.candidate.center), s.candidate.side)
        if quad is not None and scoring.rejection(s, sizes(s.candidate.center)) is None:
            found.append(s)
            edges.append(quad)
    new = list(zip(found, edges, strict=True))
    height, width = frame.mask.shape[:2]
    for _ in range(_UNEXPLAINED_ROUNDS):
        cells: list[Candidate] = []
        squares: list[np.ndarray] = []
        for _, quad in new:
            u = ((quad[1] - quad[0]) + (quad[2] - quad[3])) / 2
            v = ((quad[3] - quad[0]) + (quad[2] - quad[1])) / 2
            side = quad_side(quad)
            for step in (u, -u, v, -v):
                centre = quad.mean(axis=0) + step
                x, y = np.rint(to_work(centre, frame.scale)).astype(int)
                if not (0 <= x < width and 0 <= y < height and frame.mask[y, x]):
                    continue  # beside the blob: the mask saw table there
                if not clear_of(centre, chosen + found) or any(
                    distance(centre, c.center) < 0.6 * side for c in cells
                ):
                    continue
                square = outlined(scoring, frame, centre, side)
                if square is not None:
                    cells.append(Candidate(square.astype(np.float32), False, len(cells), 0))
                    squares.append(square)
        if not cells:
            break
        first = scoring.score_structure(frame.pyramid, cells, tiles)
        first = [s for s in first if s.score >= BESIDE_FIRST_MIN]
        aligned = scoring.realigned(frame.pyramid, first, tiles)
        # (the outline was checked where the edges placed the cut)
        kept = kept_settling_ties(scoring, frame, aligned, BESIDE_ACCEPT_MIN, sizes, outline=False)
        kept = [s for s in one_per_place(kept)[0] if clear_of(s.candidate.center, found)]
        new = [(s, squares[s.candidate.blob]) for s in kept]
        if not new:
            break
        found += [s for s, _ in new]
    return found


def _edge_search(
    scoring: Scoring, frame: Frame, indices: set[int], size_at: SizeModel | None
) -> tuple[int, tuple[int, int, int, int], list[float]] | None:
    """Where and at what sizes tiles are looked for by their edges: the largest of
    the ``indices`` blobs (the object the tiles lie against is larger than any of
    them), its bounding box (x0, y0, x1, y1, work px), and sides (work px) from an
    eighth of its width to two thirds of it, a tenth apart; None where it is too
    small to hold more than one tile, or where the frame's tile size is known
    (``size_at``: its blobs were cut at that size already)."""
    if size_at is not None or not indices:
        return None
    index = max(sorted(indices), key=lambda i: frame.blobs[i].area)
    blob = frame.blobs[index]
    least = max(scoring.config.min_tile_px / frame.scale, blob.short_side / _EDGE_SIZES_SPAN[0])
    most = blob.short_side / _EDGE_SIZES_SPAN[1]
    if most < least or blob.area < _UNEXPLAINED_AREA * least**2:
        return None
    count = int(math.log(most / least) / math.log(_EDGE_SIZE_RATIO)) + 1
    x, y, w, h = cv2.boundingRect(blob.contour)
    return index, (x, y, x + w, y + h), [least * _EDGE_SIZE_RATIO**k for k in range(count)]


def squares_by_edges(
    scoring: Scoring,
    frame: Frame,
    indices: set[int],
    chosen: list[Scored],
    size_at: SizeModel | None,
) -> list[Scored]:
    """Tiles against a large object where the frame does not say how large a tile
    is (no lone tile in it) and no piece of any split matched clearly: every
    split's grid was laid over the tiles and the object together, so each cell cuts
    across a tile's edge.

    The tiles' outlines are still in the frame: squares whose four sides each show
    a step along most of their length (see :func:`vision.shapes.squares_of_side`).
    They are looked for in the frame's largest such blob (the object they lie
    against is larger than any of them), at sizes from an eighth of its width to
    two thirds of it; the best few of each size are matched, and the clear matches
    are the seeds the tiles' neighbours are followed from. Where the frame's tile
    size is known, its blobs were cut at that size already.
    """
    search = _edge_search(scoring, frame, indices, size_at)
    if search is None:
        return []
    index, box, sides = search
    config = scoring.config
    cells: list[Candidate] = []
    for side in sides:
        found = squares_of_side(frame.grey, box, side, config.outline_step_min, _EDGE_COVER_MIN)
        for _, centre, turn in found[:_EDGE_PER_SIZE]:
            if _on_mask(frame, centre):
                quad = square_quad(centre, side / 2, turn)
                cells.append(full(quad, frame.scale, False, index, -1, 0.0))
    if not cells:
        return []
    tiles = ~scoring.token_groups
    first = scoring.score_structure(frame.pyramid, cells, tiles)
    aligned = scoring.realigned(
        frame.pyramid, [s for s in first if s.score >= _EDGE_FIRST_MIN], tiles
    )
    aligned = [s for s in aligned if s.score >= _UNEXPLAINED_SEED_MIN]
    return [s for s in one_per_place(aligned)[0] if clear_of(s.candidate.center, chosen)]


def discs_by_edges(
    scoring: Scoring,
    frame: Frame,
    indices: set[int],
    chosen: list[Scored],
    size_at: SizeModel | None,
) -> list[Scored]:
    """Round tiles against a large object where the frame does not say how large a
    tile is: the round counterpart of :func:`squares_by_edges`.

    No disc split lines up with tiles joined to a mat or a card, but each tile's
    rim is still among the frame's edges (see :func:`vision.shapes.discs_of_radius`).
    Rims are looked for in the frame's largest blob no split explains, at the
    sizes squares are; each disc found is cut, matched (also a tenth of its side
    off its place, as a rim is only placed to a pixel or two) and kept on a clear
    match with an outline all round.
    """
    search = _edge_search(scoring, frame, indices, size_at)
    if search is None:
        return []
    index, box, sides = search
    config = scoring.config
    cells: list[Candidate] = []
    for radius in (side / 2 for side in sides):
        found = discs_of_radius(frame.grey, box, radius, config.outline_step_min, _EDGE_COVER_MIN)
        for _, centre, _ in found[:_EDGE_PER_SIZE]:
            if _on_mask(frame, centre):
                # the rim's own ellipse: a tilted table squeezes a disc
                rim = rim_ellipse(frame.grey, centre, radius)
                quad = quad_from_ellipse(*rim) if rim else square_quad(centre, radius, 0.0)
                cells.append(full(quad, frame.scale, True, index, -1, 0.0))
    if not cells:
        return []
    tiles = ~scoring.token_groups
    aligned = scoring.realigned(
        frame.pyramid, scoring.score_shifted(frame.pyramid, cells, tiles), tiles
    )
    kept = [
        s
        for s in aligned
        if s.score >= _EDGE_DISC_MIN
        and scoring.rejection(s, None) is None
        and has_outline(
            frame.grey,
            s.candidate.quad,
            frame.scale,
            True,
            config.outline_step_min,
            config.outline_share_min,
        )
    ]
    # the discs found say how large a tile is here: a small ring printed on the mat
    # (a letter O) can match a face too
    sizes = scoring.size_model(kept, None)
    if sizes is not None:
        kept = [s for s in kept if scoring.rejection(s, sizes(s.candidate.center)) is None]
    return [s for s in one_per_place(kept)[0] if clear_of(s.candidate.center, chosen)]


def _on_mask(frame: Frame, centre: np.ndarray) -> bool:
    """Whether the working-size point ``centre`` lies on an object of the mask."""
    cx, cy = np.rint(centre).astype(int)
    height, width = frame.mask.shape[:2]
    return bool(0 <= cx < width and 0 <= cy < height and frame.mask[cy, cx])


def outlined(scoring: Scoring, frame: Frame, centre: np.ndarray, side: float) -> np.ndarray | None:
    """The square near ``centre`` whose outline the frame's edges show best, of
    about ``side`` (a matched piece's side is only known to a tenth: the templates
    are slid at a few zooms), or None where no such square has an outline all
    round (see :func:`vision.outlines.has_outline`)."""
    config = scoring.config
    best, best_step = None, 0.0
    grey, scale, periods = frame.grey, frame.scale, frame.periods
    # one gradient for every size: on a check the cloth-free gradient cost most of the
    # search, worked out again for each size over nearly the same pixels
    ground = outline_ground(grey, centre, max(_OUTLINE_ZOOMS) * side, scale, periods)
    for zoom in _OUTLINE_ZOOMS:
        quad, free = outlined_square(grey, centre, zoom * side, scale, periods, ground)
        step, beside = outline_contrast(grey, quad, scale, False)
        shows = step >= config.outline_step_min and step >= config.outline_share_min * beside
        # on a checked cloth the cloth's own lines step as steeply as a tile's edge:
        # the size is judged by the steps the cloth does not repeat
        if periods is not None:
            step = free
        if shows and step > best_step:
            best, best_step = quad, step
    return best
