"""A block of square tiles cut again on a lattice of squares, where its first cut failed.

A block's grid is laid in the outline the object mask gives it (`candidates.grid_splits`).
Where the mask loses a block's edge cells (a tile whose ground shares the cloth's
colours), the outline comes out small, sheared or turned, and so does every cell of
the grid: a column of two tiles on a gingham came out as two parallelograms 16° off
square, 5 % small, and a column cut 16 % short. Faces whose shared ground outweighs
their figure (a checker under a thin outline) match such cells poorly, with no motif
leading, though cut at their outline the same tiles match at 0.95 and more.

The tiles themselves are squares of the frame's tile size, laid edge to edge, so the
block's cells are laid again as that: a lattice of squares of the frame's tile size
through the same cells, turned along the block's line, searched over small turns and
shifts of the whole lattice and judged by the pieces' summed first-look match. This
runs only for a block cut at the frame's tile size none of whose pieces matches
clearly, though one nearly does (`size_anchor_score`: an ordinary block has a clear
piece, and `searches.beside.complete_blocks` lays its lattice from it; a card or the
deposit mat cut into cells of a tile's size matched 0.3-0.62 on the rendered photos),
so ordinary frames pay nothing; it is kept only where a piece then reads clearly.
"""

from __future__ import annotations

import numpy as np

from vision.candidates import Candidate, explained
from vision.frame import Frame
from vision.lattice import Lattice, fit_lattice
from vision.pieces import Scored, SizeModel, grouped_by_split, split_value
from vision.pixels import to_work
from vision.scoring import Scoring

#: Split number of a block's pieces cut again on a lattice of squares.
REFIT_SPLIT = 3000
#: A block's pieces are of the frame's tile size when their mean side is within this
#: share of it (a finer grid over a card, or a block cut as one piece, is not refitted).
SIZE_SLACK = 0.25
#: Turns (degrees) of the whole lattice tried about the block's line, coarse then fine.
TURNS = (-8.0, -4.0, 0.0, 4.0, 8.0)
FINE_TURNS = (-2.0, 0.0, 2.0)
#: Shifts of the whole lattice along its rows and columns, as shares of a tile's side.
SHIFTS = (-0.2, 0.0, 0.2)
FINE_SHIFTS = (-0.1, 0.0, 0.1)
#: Sizes of the lattice's squares tried about a block's largest cell, where the frame
#: does not yet say how large a tile is.
UNKNOWN_SCALES = (0.96, 1.02, 1.08)
#: At most this many pieces in a block refitted (a block larger than this has a clear one).
MAX_PIECES = 6


def refitted_blocks(
    scoring: Scoring, frame: Frame, scored: list[Scored], sizes: SizeModel | None
) -> list[Scored]:
    """One more split for each block of the frame's tile size none of whose pieces
    matches clearly: its cells laid again as squares of the frame's tile size, at the
    turn and shift where they match best (see the module's note)."""
    if scoring.tileset.tile_shape != "square" or not scoring.tileset.has_tiles:
        return []
    clear = scoring.config.sure_tile_min
    splits = grouped_by_split(scored)
    best: dict[int, tuple[float, list[Scored]]] = {}
    top: dict[int, float] = {}
    for (blob, _), members in splits.items():
        top[blob] = max(top.get(blob, -1.0), *(m.score for m in members))
        value = split_value(members)
        if blob not in best or value > best[blob][0]:
            best[blob] = (value, members)
    out: list[Scored] = []
    for blob, (_, members) in best.items():
        # a piece nearly reads as a tile (a card or the mat cut in cells reads as none),
        # none clearly
        if not scoring.config.size_anchor_score <= top[blob] < clear:
            continue
        if not 2 <= len(members) <= MAX_PIECES or members[0].candidate.round:
            continue
        sides = [(m.cut or m.candidate).side for m in members]
        if sizes is None:
            # the frame does not say how large a tile is: the block's largest cell as
            # first cut, and a few sizes about it (the mask shrinks a block's cells)
            side, scales = max(sides), UNKNOWN_SCALES
        else:
            side, scales = sizes(members[0].candidate.center), (1.0,)
        if abs(float(np.mean(sides)) / side - 1) > SIZE_SLACK:
            continue
        out += _refitted(scoring, frame, blob, members, side, scales)
    return out


def _refitted(
    scoring: Scoring,
    frame: Frame,
    blob: int,
    members: list[Scored],
    side: float,
    scales: tuple[float, ...],
) -> list[Scored]:
    """The block's cells on the best lattice of squares of ``side``, realigned; none
    where no lattice matches better than the block's first cut."""
    members = sorted(members, key=lambda m: -m.score)
    quads = [(m.cut or m.candidate).quad for m in members]
    fitted = fit_lattice(quads)
    if fitted is None:
        return []
    lattice, cells = fitted
    if len(cells) < 2:
        return []
    # the size and turn first, then the shift, then all three finer: each stage
    # matches a few dozen cells where one search over all at once matched hundreds
    turns = [(scale, turn, 0.0, 0.0) for scale in scales for turn in TURNS]
    scale, turn, *_ = _best(scoring, frame, blob, lattice, cells, side, turns)
    shifts = [(scale, turn, du, dv) for du in SHIFTS for dv in SHIFTS]
    scale, turn, du, dv, *_ = _best(scoring, frame, blob, lattice, cells, side, shifts)
    fine = [
        (scale, turn + t, du + a, dv + b)
        for t in FINE_TURNS
        for a in FINE_SHIFTS
        for b in FINE_SHIFTS
    ]
    *_, total, pieces = _best(scoring, frame, blob, lattice, cells, side, fine)
    if total / len(cells) <= split_value(members) / members[0].candidate.cover:
        return []
    pieces = scoring.realigned(frame.pyramid, pieces)
    if max(s.score for s in pieces) < scoring.config.sure_tile_min:
        return []  # no piece reads clearly on the squares either: they explain nothing
    work = [to_work(s.candidate.quad, frame.scale) for s in pieces]
    cover = explained(frame.blobs[blob], work, False)
    return [
        Scored(
            Candidate(s.candidate.quad, False, blob, REFIT_SPLIT, cover), s.patch, s.match, s.cut
        )
        for s in pieces
    ]


def _square_lattice(lattice: Lattice, cells: list[tuple[int, int]], side: float) -> Lattice:
    """A lattice of squares of ``side`` through the block's cells: centred where its
    cells' centres are, its rows along the block's longer line of cells (the mask keeps
    a block's long sides better than its ends), its columns at right angles."""
    index = np.array(cells, np.float64)
    middle = _middle(lattice, index)
    spans = index.max(axis=0) - index.min(axis=0)
    along = lattice.u if spans[0] >= spans[1] else lattice.v
    along = along / np.linalg.norm(along)
    across = np.array([-along[1], along[0]])
    if spans[0] < spans[1]:
        u, v = -across, along
        if np.dot(u, lattice.u) < 0:
            u = -u
    else:
        u, v = along, across
        if np.dot(v, lattice.v) < 0:
            v = -v
    u, v = u * side, v * side
    origin = middle - index.mean(axis=0) @ np.array([u, v])
    half = (u + v) / 2, (u - v) / 2
    corners = np.array([-half[0], half[1], half[0], -half[1]])
    return Lattice(origin, u, v, corners)


def _turned(
    lattice: Lattice, cells: list[tuple[int, int]], turn: float, du: float, dv: float
) -> Lattice:
    """The lattice turned by ``turn`` degrees about its cells' middle and shifted by
    ``du``, ``dv`` steps along its rows and columns."""
    index = np.array(cells, np.float64)
    middle = _middle(lattice, index)
    c, s = np.cos(np.radians(turn)), np.sin(np.radians(turn))
    rotation = np.array([[c, -s], [s, c]])
    u, v = rotation @ lattice.u, rotation @ lattice.v
    shift = du * lattice.u + dv * lattice.v
    origin = middle + shift - index.mean(axis=0) @ np.array([u, v])
    return Lattice(origin, u, v, lattice.corners @ rotation.T)


def _middle(lattice: Lattice, index: np.ndarray) -> np.ndarray:
    """Where the middle of the lattice's cells ``index`` (N×2, row and column) lies:
    the point a refit lattice is laid and turned about."""
    return lattice.origin + index.mean(axis=0) @ np.array([lattice.u, lattice.v])


def _best(
    scoring: Scoring,
    frame: Frame,
    blob: int,
    lattice: Lattice,
    cells: list[tuple[int, int]],
    side: float,
    moves: list[tuple[float, float, float, float]],
) -> tuple[float, float, float, float, float, list[Scored]]:
    """Of the ``moves`` (size, turn, shifts) of the block's lattice laid as squares of
    ``side``, the one whose cells match best in sum (first look)."""
    squares = {scale: _square_lattice(lattice, cells, scale * side) for scale, *_ in moves}
    candidates = [
        Candidate(
            quad=_turned(squares[move[0]], cells, *move[1:]).quad(i, j),
            round=False,
            blob=blob,
            split=REFIT_SPLIT,
        )
        for move in moves
        for i, j in cells
    ]
    scored = scoring.score_structure(frame.pyramid, candidates)
    n = len(cells)
    totals = [sum(s.score for s in scored[k * n : (k + 1) * n]) for k in range(len(moves))]
    k = int(np.argmax(totals))
    return (*moves[k], totals[k], scored[k * n : (k + 1) * n])
