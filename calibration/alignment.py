"""Turning round tiles upright: a disc's outline cannot show how a hand turned it.

Square tiles are set upright by their edges. For round ones the drawing must tell: the
ten tiles of a motif (five colours, plain and heart) share one drawing, so each tile is
turned, within a hand's few degrees, until its drawing best matches its column's
others. The tiles were laid roughly upright, so the column's average turn is taken as
upright.

That search goes by whole degrees; :func:`column_corrections` then brings each tile's
drawing onto its column's to a fraction of a pixel and of a degree. A tile and its heart
twin must differ only where the heart is: recognition tells them apart by comparing a
piece with both just there, and a twin cut half a degree or a third of a millimetre
differently differs along every line of its drawing.
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

from calibration.checks import SIDE, drawing_signature
from companion.bitenight.tiles import MOTIFS, Tile

#: The turns tried, in degrees: a hand lays a tile within a few degrees of upright.
TURNS = np.arange(-8.0, 8.5, 1.0)


def upright_turns(faces: Mapping[Tile, np.ndarray]) -> dict[Tile, float]:
    """For each tile, the turn to cut it at (:meth:`PageReader.cut_face`) to have it upright."""
    turns: dict[Tile, float] = {}
    for motif in MOTIFS:
        column = [tile for tile in faces if tile.motif == motif]
        turned = {
            tile: {
                float(angle): drawing_signature(_turn(faces[tile], float(angle))) for angle in TURNS
            }
            for tile in column
        }
        found = {tile: 0.0 for tile in column}
        for _ in range(2):  # each tile against its column as last set upright
            for tile in column:
                others = [turned[other][found[other]] for other in column if other != tile]
                reference = np.mean(others, axis=0)
                found[tile] = max(TURNS, key=lambda a: float(turned[tile][float(a)] @ reference))
        mean = float(np.mean(list(found.values())))
        turns.update({tile: mean - float(angle) for tile, angle in found.items()})
    return turns


def _turn(face: np.ndarray, angle_deg: float) -> np.ndarray:
    """The face as it would look cut ``angle_deg`` further round (at comparison size)."""
    small = cv2.resize(face, (SIDE * 2, SIDE * 2), interpolation=cv2.INTER_AREA)
    centre = (SIDE - 0.5, SIDE - 0.5)
    matrix = cv2.getRotationMatrix2D(centre, -angle_deg, 1.0)
    return cv2.warpAffine(
        small, matrix, (SIDE * 2, SIDE * 2), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


#: Share of a face's half-side whose drawing aligns a tile with its column: the rim
#: beyond it meets the paper and the piece's shadow, which differ from slot to slot.
ALIGN_RADIUS = 0.9
#: A step larger than this (degrees, share of the side) is not a tile's error but ECC
#: sliding to another likeness: the tile is left as it is.
ALIGN_MAX_TURN_DEG, ALIGN_MAX_SHIFT = 4.0, 0.05
#: Rounds of aligning every tile with its column's mean, which sharpens each round.
ALIGN_ROUNDS = 2


def column_corrections(
    faces: Mapping[Tile, np.ndarray], round_: bool = True
) -> dict[Tile, np.ndarray]:
    """For each tile, the rigid motion (3 × 3, face pixels) that brings its drawing onto
    its motif column's: face pixel ``x`` of the corrected cut shows what the given face
    shows at ``correction @ x``.

    Each tile is aligned (ECC, rotation and shift) with the mean of its column, in grey
    and inside the disc (or square); the corrections of a column are then centred on zero, so the
    column as a whole keeps the turn and place it was cut at, and only the tiles' spread
    about it goes.
    """
    corrections: dict[Tile, np.ndarray] = {tile: np.eye(3) for tile in faces}
    for motif in MOTIFS:
        column = [tile for tile in faces if tile.motif == motif]
        if len(column) < 2:
            continue
        greys = {tile: _grey(faces[tile]) for tile in column}
        mask = _inside_mask(next(iter(greys.values())).shape[0], ALIGN_RADIUS, round_)
        for _ in range(ALIGN_ROUNDS):
            moved = {tile: _moved(greys[tile], corrections[tile]) for tile in column}
            reference = np.mean([moved[tile] for tile in column], axis=0).astype(np.float32)
            for tile in column:
                step = _ecc(reference, moved[tile], mask)
                corrections[tile] = corrections[tile] @ step
            _centre_on_zero(corrections, column, mask.shape[0])
    return corrections


def _grey(face: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(np.ascontiguousarray(face[..., :3]), cv2.COLOR_BGR2GRAY).astype(np.float32)


def _inside_mask(side: int, share: float, round_: bool) -> np.ndarray:
    """The inner ``share`` of a face (disc or square), as an 8-bit mask."""
    ys, xs = np.mgrid[0:side, 0:side] - (side - 1) / 2
    reach = np.hypot(xs, ys) if round_ else np.maximum(np.abs(xs), np.abs(ys))
    return ((reach <= share * side / 2) * 255).astype(np.uint8)


def _moved(grey: np.ndarray, correction: np.ndarray) -> np.ndarray:
    """The face as cut with ``correction`` (bilinear), to align against."""
    side = grey.shape[0]
    return cv2.warpAffine(
        grey,
        correction[:2].astype(np.float32),
        (side, side),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )


def _ecc(reference: np.ndarray, grey: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The rigid motion taking reference pixels to where ``grey`` shows the same (3 × 3)."""
    warp = np.eye(2, 3, dtype=np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 50, 1e-4)
    try:
        _, warp = cv2.findTransformECC(
            reference, grey, warp, cv2.MOTION_EUCLIDEAN, criteria, mask, 3
        )
    except cv2.error:  # no convergence (a blank face): leave the tile as it is
        return np.eye(3)
    turn = abs(float(np.degrees(np.arctan2(warp[1, 0], warp[0, 0]))))
    side = reference.shape[0]
    middle = np.full(2, (side - 1) / 2)
    moved = float(np.hypot(*(warp[:, :2] @ middle + warp[:, 2] - middle)))  # the centre's move
    if turn > ALIGN_MAX_TURN_DEG or moved > ALIGN_MAX_SHIFT * side:
        return np.eye(3)  # slid off to another likeness (a plain, symmetric drawing)
    return np.vstack([warp.astype(np.float64), [0.0, 0.0, 1.0]])


def _centre_on_zero(corrections: dict[Tile, np.ndarray], column: list[Tile], side: int) -> None:
    """Take the column's mean rotation and shift, about the face's centre, out of each."""
    centre = np.array([[1.0, 0.0, (side - 1) / 2], [0.0, 1.0, (side - 1) / 2], [0.0, 0.0, 1.0]])
    centred = {t: np.linalg.inv(centre) @ corrections[t] @ centre for t in column}
    angle = float(np.mean([np.arctan2(m[1, 0], m[0, 0]) for m in centred.values()]))
    mean = np.eye(3)
    mean[:2, :2] = [[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]]
    mean[:2, 2] = np.mean([m[:2, 2] for m in centred.values()], axis=0)
    for tile in column:
        corrections[tile] = centre @ np.linalg.inv(mean) @ centred[tile] @ np.linalg.inv(centre)
