"""Scoring a frame against its rendered truth (vision.evaluate.score_photo)."""

from __future__ import annotations

import numpy as np

from companion.bitenight.tiles import Tile
from vision.evaluate import score_photo
from vision.results import FrameResult, TileDetection
from vision.synth.scene import SyntheticPhoto, TruthTile

SIDE = 50.0


def _truth(name: str, x: float, visible: float = 1.0) -> TruthTile:
    corners = np.array([[x - 25, 75], [x + 25, 75], [x + 25, 125], [x - 25, 125]], float)
    return TruthTile(Tile.parse(name), (x, 100.0), corners, visible)


def _read(name: str, x: float) -> TileDetection:
    return TileDetection(Tile.parse(name), (x, 100.0), np.zeros((4, 2)), 0.9)


def _photo(*tiles: TruthTile) -> SyntheticPhoto:
    image = np.zeros((200, 400, 3), np.uint8)
    return SyntheticPhoto(image, tiles, (), (), SIDE, 0.0)


def test_a_tile_mostly_under_the_mat_is_not_missed_when_it_is_not_read():
    photo = _photo(_truth("red-monk", 100), _truth("blue-garlic-heart", 250, visible=0.02))
    score = score_photo(photo, FrameResult(400, 200, tiles=(_read("red-monk", 101),)), 2, 0)
    assert (score.tiles, score.tiles_right, score.false_positives) == (1, 1, 0)
    assert score.exact


def test_a_tile_mostly_under_the_mat_read_anyway_is_no_false_positive():
    photo = _photo(_truth("red-monk", 100), _truth("blue-garlic-heart", 250, visible=0.3))
    read = (_read("red-monk", 101), _read("blue-garlic-heart", 249))
    score = score_photo(photo, FrameResult(400, 200, tiles=read), 2, 0)
    assert (score.tiles, score.tiles_right, score.false_positives) == (1, 1, 0)


def test_a_tile_half_in_view_still_counts():
    photo = _photo(_truth("red-monk", 100, visible=0.6))
    score = score_photo(photo, FrameResult(400, 200), 2, 0)
    assert (score.tiles, score.tiles_right) == (1, 0)
