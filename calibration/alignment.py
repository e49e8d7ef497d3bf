"""Turning round tiles upright: a disc's outline cannot show how a hand turned it.

Square tiles are set upright by their edges. For round ones the drawing must tell: the
ten tiles of a motif (five colours, plain and heart) share one drawing, so each tile is
turned, within a hand's few degrees, until its drawing best matches its column's
others. The tiles were laid roughly upright, so the column's average turn is taken as
upright.
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
