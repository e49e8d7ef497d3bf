"""What the tests that draw their own tile art share: a plain palette of the five
tile colours (BGR), strong enough to read under any of the tests' lamps, a token
set whose backs are fine rings, and a matched piece placed by hand."""

from __future__ import annotations

import cv2
import numpy as np

from companion.bitenight.tiles import Colour
from vision.candidates import Candidate
from vision.matching import StructureMatch
from vision.outlines import square_quad
from vision.pieces import Scored
from vision.recogniser import Recogniser
from vision.tileset import TileSet

COLOURS = {
    Colour.BLUE: (180, 110, 20),
    Colour.RED: (50, 30, 210),
    Colour.YELLOW: (30, 190, 245),
    Colour.GREEN: (60, 170, 40),
    Colour.PURPLE: (160, 50, 120),
}

#: The side the ringed tokens are drawn at (px).
_N = 224


def _disc(img: np.ndarray) -> np.ndarray:
    alpha = np.zeros((_N, _N), np.uint8)
    cv2.circle(alpha, (_N // 2, _N // 2), _N // 2, 255, -1, cv2.LINE_AA)
    return np.dstack([img, alpha])


def ringed_tokens() -> TileSet:
    """A token set (no tiles) whose back forgives no size error: faces a coloured disc
    with a pale moon, the back grey with three thin pale rings."""
    faces = {}
    for name, colour in {
        "red": (40, 40, 200),
        "blue": (190, 90, 30),
        "green": (60, 160, 40),
    }.items():
        img = np.full((_N, _N, 3), colour, np.uint8)
        cv2.circle(img, (100, 112), 60, (245, 245, 245), -1, cv2.LINE_AA)
        cv2.circle(img, (125, 99), 52, colour, -1, cv2.LINE_AA)
        faces[name] = _disc(img)
    back = np.full((_N, _N, 3), (120, 118, 125), np.uint8)
    for r in (0.15, 0.27, 0.39):
        cv2.circle(back, (_N // 2, _N // 2), int(r * _N), (205, 205, 210), 6, cv2.LINE_AA)
    return TileSet("rings", "round", 40, token_faces=faces, token_back=_disc(back))


def placed_piece(
    recogniser: Recogniser, x: float, side: float, score: float, token: bool
) -> Scored:
    """A piece of blob 0's first split at (x, 100), matched to a token or a tile."""
    quad = square_quad(np.array([x, 100.0]), side / 2, 0.0).astype(np.float32)
    group = int(np.flatnonzero(recogniser.scoring.token_groups == token)[0])
    match = StructureMatch(group, 0.0, score, 0.5, group, 0.0)
    return Scored(Candidate(quad, True, 0, 0), np.zeros((40, 40, 4), np.uint8), match)
