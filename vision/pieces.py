"""Pieces as the recogniser passes them between its stages: a cut matched against the
tile set (:class:`Scored`), and the plain helpers over lists of them (grouped by the
split they were cut in, one per place, clear of each other).

Every stage after matching (:mod:`vision.scoring`, :mod:`vision.choosing`, the
searches in :mod:`vision.searches`) speaks in these; none of it needs the model.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.candidates import Blob, Candidate
from vision.matching import StructureMatch
from vision.numeric import mean_of
from vision.pixels import to_frame
from vision.results import RejectedCandidate

#: The side of a tile in full-frame pixels expected at a point of the frame.
SizeModel = Callable[[tuple[float, float]], float]

#: A piece is read only where the frame shows at least this share of it.
IN_VIEW_MIN = 0.5


@dataclass(frozen=True, eq=False)
class Scored:
    """A piece cut from the frame and matched against the tile set's faces."""

    candidate: Candidate
    patch: np.ndarray
    match: StructureMatch
    #: The piece as first cut, before alignment moved it (None: not moved).
    cut: Candidate | None = None

    @property
    def group(self) -> int:
        return self.match.group

    @property
    def turn(self) -> float:
        return self.match.turn

    @property
    def score(self) -> float:
        return self.match.score

    @property
    def margin(self) -> float:
        return self.match.margin


def grouped_by_split(pieces: list[Scored]) -> dict[tuple[int, int], list[Scored]]:
    """Scored pieces grouped by the (blob, split) they were cut in."""
    groups: dict[tuple[int, int], list[Scored]] = {}
    for s in pieces:
        groups.setdefault((s.candidate.blob, s.candidate.split), []).append(s)
    return groups


def best_few(pieces: list[Scored], count: int) -> list[Scored]:
    """The ``count`` best matches, best first."""
    return sorted(pieces, key=lambda s: -s.score)[:count]


def elongation(quad: np.ndarray) -> float:
    """How many times longer a quad's longest side is than its shortest."""
    corners = quad.tolist()  # plain floats: asked for every piece of every split
    sides = [math.dist(corners[k], corners[k - 1]) for k in range(len(corners))]
    return max(sides) / max(min(sides), 1e-6)


def distance(a: tuple[float, float] | np.ndarray, b: tuple[float, float] | np.ndarray) -> float:
    return float(np.hypot(a[0] - b[0], a[1] - b[1]))


def best_in_place(piece: Scored, scored: list[Scored]) -> Scored:
    """The best match among the pieces of the same blob cut at this place (by any
    split) and of this size: a lattice drifts over a long block under perspective,
    where another split's piece may have been cut better."""
    c = piece.candidate
    best = piece
    for other in scored:
        o = other.candidate
        if (
            o.blob == c.blob
            and o.round == c.round
            and other.score > best.score
            and np.hypot(o.center[0] - c.center[0], o.center[1] - c.center[1]) < 0.3 * c.side
            and 0.8 < o.side / c.side < 1.25
        ):
            best = other
    return best


def blob_centre(blob: Blob, scale: float) -> tuple[float, float]:
    """The middle of a blob's bounding rectangle, in full-frame pixels."""
    (x, y), _, _ = blob.box
    return to_frame(x, scale), to_frame(y, scale)


def clear_of(centre: tuple[float, float] | np.ndarray, pieces: list[Scored]) -> bool:
    """No piece lies at ``centre``: each is further off than 0.6 of its own side."""
    return all(distance(centre, s.candidate.center) >= 0.6 * s.candidate.side for s in pieces)


def shaped_like(shapes: list[Candidate], centre: np.ndarray, side: float) -> np.ndarray:
    """A round piece's box of ``side`` at ``centre``, in the shape of the nearest of
    ``shapes`` (the same tilt of the table there)."""
    near = min(shapes, key=lambda c: distance(c.center, centre))
    shape = (near.quad - near.quad.mean(axis=0)) * (side / near.side)
    return (shape + centre).astype(np.float32)


def chord_along(quad: np.ndarray, way: np.ndarray) -> float:
    """The width through its centre, along the unit vector ``way``, of the ellipse
    inscribed in a round piece's box ``quad``: how far apart two such tokens lie
    touching along ``way``.

    A tilted camera sees the table's round tokens as ellipses, so a row's step (its
    tokens touch) is their width along the row, not their cut's side: a row running
    along the ellipses' long axis steps a tenth or more further than the side (a row
    of 30 px tokens on a tilted laminate: 34 px), and a row's place cut a step wide
    comes out that much too large, or its far end is looked for a token short of it
    after seven steps."""
    half_u = (quad[1] - quad[0]) / 2
    half_v = (quad[3] - quad[0]) / 2
    inverse = np.linalg.solve(np.column_stack([half_u, half_v]).astype(np.float64), way)
    return 2.0 / max(float(np.linalg.norm(inverse)), 1e-9)


def stepped_like(
    shapes: list[Candidate], centre: np.ndarray, step: float, way: np.ndarray
) -> np.ndarray:
    """A round piece's box at ``centre`` in the shape of the nearest of ``shapes``,
    sized so that it is ``step`` wide along ``way`` (a unit vector): a row's place cut
    from the row's step (see :func:`chord_along`)."""
    near = min(shapes, key=lambda c: distance(c.center, centre))
    return shaped_like([near], centre, step * near.side / chord_along(near.quad, way))


def step_along(piece: Candidate, way: np.ndarray, side: float) -> float:
    """The step along ``way`` (a unit vector) of a row of tokens shaped like ``piece``
    whose side is ``side``: their width along the row (see :func:`chord_along`)."""
    return side * chord_along(piece.quad, way) / piece.side


def scaled_quad(quad: np.ndarray, factor: float) -> np.ndarray:
    """The quad scaled by ``factor`` about its centre (float32)."""
    centre = quad.mean(axis=0)
    return ((quad - centre) * factor + centre).astype(np.float32)


def displaced(chosen: list[Scored], found: list[Scored]) -> list[Scored]:
    """``found`` added to ``chosen``, each replacing the chosen pieces it covers that
    match worse (a figure taken for a token, a piece cut at the wrong size)."""
    gone = {
        id(c)
        for c in chosen
        for s in found
        if distance(s.candidate.center, c.candidate.center) < 0.6 * s.candidate.side
        and c.score < s.score
    }
    return [c for c in chosen if id(c) not in gone] + found


def in_view(
    pieces: list[Scored], size: tuple[int, int]
) -> tuple[list[Scored], list[RejectedCandidate]]:
    """The pieces the frame (``size``: width, height) shows at least half of
    (:data:`IN_VIEW_MIN`), and the rest turned down.

    A cut reaching past the frame's edge is filled there with the edge's own pixels
    repeated, and those streaks matched faces: a square at the frame's corner, 47 %
    of it in view, over a hand (leaded seed 7 #6, 0.82), and one 9 % in view over a
    coaster (leaded seed 2024 #15, 0.84). A tile whose middle the camera does not see
    is not one a person would count either. One the edge cuts two fifths off is still
    read where its figure shows, so a made-up third is let be: a square above a
    block's top row, 71 % in view, still matched 0.82 (leaded seed 2024 #10).
    """
    width, height = size
    view = np.array(
        [[-0.5, -0.5], [width - 0.5, -0.5], [width - 0.5, height - 0.5], [-0.5, height - 0.5]],
        np.float32,
    )
    kept: list[Scored] = []
    unseen: list[RejectedCandidate] = []
    for s in pieces:
        c = s.candidate
        outline = c.polygon().astype(np.float32)
        area = cv2.contourArea(outline)
        shown = cv2.intersectConvexConvex(outline, view)[0] / area if area > 0 else 0.0
        if shown >= IN_VIEW_MIN:
            kept.append(s)
        else:
            reason = f"mostly out of view ({shown:.0%} shown)"
            unseen.append(RejectedCandidate(c.center, outline, reason))
    return kept, unseen


def one_per_place(chosen: list[Scored]) -> tuple[list[Scored], list[RejectedCandidate]]:
    """Two aligned pieces that slid onto the same object: keep the better match."""
    kept: list[Scored] = []
    doubles: list[RejectedCandidate] = []
    for s in sorted(chosen, key=lambda s: -s.score):
        c = s.candidate
        near = any(
            np.hypot(c.center[0] - k.candidate.center[0], c.center[1] - k.candidate.center[1])
            < 0.5 * min(c.side, k.candidate.side)
            for k in kept
        )
        if near:
            doubles.append(RejectedCandidate(c.center, c.polygon(), "same place as a better match"))
        else:
            kept.append(s)
    return kept, doubles


def split_value(members: list[Scored]) -> float:
    """How well one split explains its blob: how well its pieces match, times how much
    of the blob they cover."""
    match = mean_of([max(m.score, 0.0) for m in members])
    return match * members[0].candidate.cover
