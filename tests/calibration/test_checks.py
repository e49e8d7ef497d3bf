"""The misplaced-tile check, on drawn faces (no photo): what it must not take for a mistake."""

from __future__ import annotations

import cv2
import numpy as np

from calibration.checks import misplaced_tile
from companion.bitenight.tiles import COLOURS, MOTIFS, Tile

SIDE = 144
GROUNDS = [(200, 120, 40), (40, 60, 200), (40, 200, 220), (60, 160, 60), (150, 60, 130)]
INK, PALE = (20, 20, 20, 255), (235, 235, 235, 255)


def _face(ground: tuple[int, int, int], motif: int, heart: bool) -> np.ndarray:
    """Colour as background, a pale figure per motif; the last motif is a bulb with lines
    down its middle, and its heart is drawn as a pale heart hiding some of them, where
    the other motifs have an outlined badge."""
    face = np.zeros((SIDE, SIDE, 4), np.uint8)
    face[...] = (*ground, 255)
    points = np.random.default_rng(motif).integers(30, 114, (6, 2)).astype(np.int32)
    cv2.fillPoly(face, [points.reshape(-1, 1, 2)], PALE)
    cv2.polylines(face, [points.reshape(-1, 1, 2)], True, INK, 3)
    cv2.circle(face, (72, 72), 70, INK, 3)
    bulb = motif == len(MOTIFS) - 1
    if bulb:
        for x in (56, 66, 78, 88):
            cv2.line(face, (x, 50), (x, 115), INK, 2)
    if heart and bulb:
        cv2.circle(face, (72, 100), 14, PALE, -1)
    elif heart:
        cv2.circle(face, (72, 100), 9, PALE, -1)
        cv2.circle(face, (72, 100), 9, INK, 2)
    return face


def _all_faces() -> dict[Tile, np.ndarray]:
    return {
        Tile(colour, motif, heart): _face(ground, index, heart)
        for colour, ground in zip(COLOURS, GROUNDS, strict=True)
        for index, motif in enumerate(MOTIFS)
        for heart in (False, True)
    }


def test_a_motif_whose_heart_is_drawn_differently_is_not_taken_for_a_swap() -> None:
    faces = _all_faces()
    assert misplaced_tile(faces) is None


def test_a_swapped_pair_is_still_found_in_such_a_set() -> None:
    faces = _all_faces()
    plain, heart = Tile(COLOURS[0], MOTIFS[-1], False), Tile(COLOURS[0], MOTIFS[-1], True)
    faces[plain], faces[heart] = faces[heart], faces[plain]
    found = misplaced_tile(faces)
    assert found is not None and {found.slot, found.looks_like} == {plain.id, heart.id}
