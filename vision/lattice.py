"""Completing a block of touching square tiles from the tiles already found in it.

Cutting a block by its outline fails when the outline lies: a shadow along one side,
a tile missing from a corner, or the mask broken where a dark tile meets a dark
table. But once a few tiles of the block are recognised clearly, their aligned
outlines say exactly how the block is laid: a player lays tiles edge to edge in rows,
so every tile of the block sits on one lattice, and each step along a row or a column
is one tile plus its gap. This module fits that lattice to the recognised tiles and
lists the lattice cells the block still covers, to be matched like any other piece.

Coordinates are full-frame pixels.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: An anchor whose lattice coordinates are further than this from whole numbers
#: does not lie in the same rows and columns as the best one (a neighbouring block).
_OFF_LATTICE = 0.3
#: An anchor further than this share of a step from the cell the other anchors give
#: it was cut off its place (a gap between tiles and a cut's play are a few hundredths
#: of a step; 0.1 dropped a 46 px tile's anchor 5 px off, nocturne seed 2024 real #7,
#: whose cell then lost its heart; the anchor 20 px off a 113 px step is 0.18)...
_OFF_PLACE = 0.15
#: ...and is left out only where this many anchors remain to fit the lattice.
_LEAVE_ONE_MIN = 4
#: More cells than this in one block's box means the lattice is not a tile's.
_MAX_CELLS = 200


@dataclass(frozen=True)
class Lattice:
    """Cell (i, j) of a block has its centre at ``origin + i·u + j·v``."""

    origin: np.ndarray  # 2
    u: np.ndarray  # 2: one step along a row (a tile and its gap)
    v: np.ndarray  # 2: one step along a column
    corners: np.ndarray  # 4×2: a tile's corners around its centre

    def quad(self, i: int, j: int) -> np.ndarray:
        centre = self.origin + i * self.u + j * self.v
        return (centre + self.corners).astype(np.float32)

    def index_of(self, point: np.ndarray) -> np.ndarray:
        """The (fractional) lattice coordinates of a point."""
        basis = np.column_stack([self.u, self.v])
        return np.linalg.solve(basis, np.asarray(point, np.float64) - self.origin)

    def indices_of(self, points: np.ndarray) -> np.ndarray:
        """:meth:`index_of` for many points (N×2) in one call: the same 2×2 system
        stacked once per point, which solves each exactly as alone (one right-hand
        side per system; several at once would round differently)."""
        offsets = np.asarray(points, np.float64).reshape(-1, 2) - self.origin
        basis = np.broadcast_to(np.column_stack([self.u, self.v]), (len(offsets), 2, 2))
        return np.linalg.solve(basis, offsets[..., None])[..., 0]


def fit_lattice(
    quads: list[np.ndarray], round_: bool = False
) -> tuple[Lattice, list[tuple[int, int]]] | None:
    """The lattice through the recognised tiles of one block (best first).

    The best tile gives the directions and a first pitch: a square tile its own
    sides; a round tile (an ellipse's box, see :func:`vision.rectify.quad_from_ellipse`)
    the step to its nearest recognised neighbour, and the step at right angles to it
    *on the table*, which the ellipse's shape tells under any tilt. The other tiles,
    placed on that lattice, refine the steps by least squares when they span rows
    and columns (or a row: then only the step along it). Returns the lattice and the
    cells the given tiles occupy (those off the lattice are left out), or None for a
    lone round tile, which says nothing about rows.
    """
    best = np.asarray(quads[0], np.float64)
    centre = best.mean(axis=0)
    if round_:
        steps = _round_steps(best, [np.asarray(q, np.float64).mean(axis=0) for q in quads[1:]])
        if steps is None:
            return None
        u, v = steps
    else:
        u = ((best[1] - best[0]) + (best[2] - best[3])) / 2
        v = ((best[3] - best[0]) + (best[2] - best[1])) / 2
    lattice = Lattice(centre, u, v, best - centre)
    centres = [np.asarray(quad, np.float64).mean(axis=0) for quad in quads]
    points, cells = [], []
    for c, index in zip(centres, lattice.indices_of(np.array(centres)), strict=True):
        whole = np.rint(index)
        if np.abs(index - whole).max() <= _OFF_LATTICE and tuple(whole) not in cells:
            points.append(c)
            cells.append((int(whole[0]), int(whole[1])))
    if not round_:  # a heap of discs packs loosely: only squares lie edge to edge
        points, cells = _without_one_off_place(points, cells)
    design = np.array([[1.0, i, j] for i, j in cells])
    spans_rows = len({i for i, _ in cells}) > 1
    spans_columns = len({j for _, j in cells}) > 1
    if spans_rows and spans_columns and len(cells) >= 3:
        (origin, u, v), *_ = np.linalg.lstsq(design, np.array(points), rcond=None)
    elif spans_rows or spans_columns:
        axis = 1 if spans_rows else 2
        (origin, step), *_ = np.linalg.lstsq(design[:, [0, axis]], np.array(points), rcond=None)
        # the other direction keeps the best tile's side, stretched like this step
        if spans_rows:
            u, v = step, v * np.linalg.norm(step) / np.linalg.norm(u)
        else:
            u, v = u * np.linalg.norm(step) / np.linalg.norm(v), step
    else:
        origin = centre
    return Lattice(np.asarray(origin), np.asarray(u), np.asarray(v), best - centre), cells


def _without_one_off_place(
    points: list[np.ndarray], cells: list[tuple[int, int]]
) -> tuple[list[np.ndarray], list[tuple[int, int]]]:
    """The anchors less the one the others place furthest off its cell, where that is
    more than :data:`_OFF_PLACE` of a step.

    Tiles laid edge to edge lie on their lattice to within the gap between them, so a
    clear piece further off its cell than that was cut off its place (along a thick
    tile's cut side, a shadow, a neighbour's edge), and a least-squares fit through it
    tilts and stretches the steps: the error grows with every row the lattice is carried
    past its anchors (nocturne seed 2024 real #2: one anchor 20 px off, a 7 % long step,
    seven cells of a block of fifteen cut half a tile off). Each anchor is judged
    against the lattice of all the others, so it does not hide its own error; only
    where the rest still span rows and columns with :data:`_LEAVE_ONE_MIN` anchors.
    """
    if len(cells) < _LEAVE_ONE_MIN + 1:
        return points, cells
    design = np.array([[1.0, i, j] for i, j in cells])
    target = np.array(points)
    worst, worst_off, step = -1, 0.0, np.inf
    for k in range(len(cells)):
        keep = [m for m in range(len(cells)) if m != k]
        rows = {cells[m][0] for m in keep}
        columns = {cells[m][1] for m in keep}
        if len(rows) < 2 or len(columns) < 2:
            continue
        (origin, u, v), *_ = np.linalg.lstsq(design[keep], target[keep], rcond=None)
        off = float(np.linalg.norm(target[k] - (origin + cells[k][0] * u + cells[k][1] * v)))
        step = min(step, float(np.linalg.norm(u)), float(np.linalg.norm(v)))
        if off > worst_off:
            worst, worst_off = k, off
    if worst < 0 or worst_off <= _OFF_PLACE * step:
        return points, cells
    return points[:worst] + points[worst + 1 :], cells[:worst] + cells[worst + 1 :]


def _round_steps(box: np.ndarray, others: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray] | None:
    """Row and column steps from a disc's ellipse box and its recognised neighbours.

    The box's half-sides map the unit circle on the table to the ellipse in the
    frame; through that map, the nearest neighbour a diameter or so away gives one
    step, and the same step turned a quarter on the table gives the other.
    """
    centre = box.mean(axis=0)
    to_frame = np.column_stack([(box[1] - box[0]) / 2, (box[3] - box[0]) / 2])
    to_table = np.linalg.inv(to_frame)
    near = [c - centre for c in others if 1.6 <= np.linalg.norm(to_table @ (c - centre)) <= 2.6]
    if not near:
        return None
    u = min(near, key=lambda d: float(np.linalg.norm(to_table @ d)))
    quarter = np.array([[0.0, -1.0], [1.0, 0.0]])
    return u, to_frame @ quarter @ to_table @ u


def lattice_cells(
    lattice: Lattice, box: tuple[float, float, float, float], taken: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Cells whose centre lies within ``box`` (x0, y0, x1, y1) and not yet taken."""
    x0, y0, x1, y1 = box
    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
    reach = lattice.indices_of(corners)
    low, high = np.floor(reach.min(axis=0)).astype(int), np.ceil(reach.max(axis=0)).astype(int)
    if np.prod(high - low + 1) > _MAX_CELLS:
        return []  # a lattice far finer than the block: not a tile's
    # every cell's centre at once, by the same sums as one at a time
    rows, columns = np.arange(low[0], high[0] + 1), np.arange(low[1], high[1] + 1)
    i, j = (a.ravel() for a in np.meshgrid(rows, columns, indexing="ij"))
    c = lattice.origin + i[:, None] * lattice.u + j[:, None] * lattice.v
    inside = (x0 <= c[:, 0]) & (c[:, 0] <= x1) & (y0 <= c[:, 1]) & (c[:, 1] <= y1)
    return [
        (a, b)
        for a, b in zip(i[inside].tolist(), j[inside].tolist(), strict=True)
        if (a, b) not in taken
    ]
