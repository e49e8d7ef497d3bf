"""What the phone is told about a photo's tiles: outlines to draw, and which to check."""

from __future__ import annotations

import numpy as np

from companion.bitenight.tiles import Tile
from vision.results import FrameResult, TileDetection
from web.recognition import UNSURE_BELOW, detections_json


def detection(tile: str, confidence: float) -> TileDetection:
    square = np.array([[10, 10], [60, 10], [60, 60], [10, 60]], float)
    return TileDetection(Tile.parse(tile), (35.0, 35.0), square, confidence)


def test_a_tile_read_below_the_bar_is_marked_for_the_player_to_check() -> None:
    result = FrameResult(
        640,
        480,
        tiles=(detection("red-monk", UNSURE_BELOW - 0.01), detection("blue-coffin-heart", 0.98)),
    )
    told = detections_json(result)
    assert [(tile["id"], tile["unsure"]) for tile in told["tiles"]] == [
        ("red-monk", True),
        ("blue-coffin-heart", False),
    ]


def test_a_tile_read_exactly_at_the_bar_is_taken_without_a_mark() -> None:
    told = detections_json(FrameResult(640, 480, tiles=(detection("green-garlic", UNSURE_BELOW),)))
    assert told["tiles"][0]["unsure"] is False
    assert told["tiles"][0]["polygon"][1] == [60.0, 10.0]
