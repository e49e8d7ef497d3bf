"""Which field of a misnamed tile was wrong (vision/synth/why.py)."""

from __future__ import annotations

import numpy as np

from companion.bitenight.tiles import Tile
from vision.evaluate import PhotoScore
from vision.results import FrameResult, TileDetection
from vision.synth.regression import photo_line
from vision.synth.scene import SyntheticPhoto, TruthTile
from vision.synth.why import misnamed, photos_with_misnamed, table

SQUARE = np.zeros((4, 2))


def _photo(*tiles: tuple[str, tuple[float, float]]) -> SyntheticPhoto:
    truth = tuple(TruthTile(Tile.parse(name), centre, SQUARE) for name, centre in tiles)
    return SyntheticPhoto(np.zeros((10, 10, 3), np.uint8), truth, (), (), 40.0, 30.0)


def _read(*tiles: tuple[str, tuple[float, float]]) -> FrameResult:
    found = tuple(TileDetection(Tile.parse(n), c, SQUARE, 0.5) for n, c in tiles)
    return FrameResult(100, 100, tiles=found)


def test_a_tile_read_in_another_colour_and_without_its_heart_is_wrong_in_those_two_fields():
    photo = _photo(("blue-monk-heart", (50.0, 50.0)), ("red-garlic", (150.0, 50.0)))
    result = _read(("purple-monk", (52.0, 50.0)), ("red-garlic", (150.0, 51.0)))
    [wrong] = misnamed(photo, result)
    assert wrong.fields == ("colour", "heart")
    assert str(wrong.truth) == "blue-monk-heart"
    assert table([("stamp", wrong)]).splitlines()[1].split() == ["stamp", "1", "1", "0", "1"]


def test_only_photos_that_found_more_tiles_than_they_read_right_are_read_again(tmp_path):
    def line(index: int, right: int, found: int) -> str:
        score = PhotoScore(level=2, index=index, tiles=15, found=found, tiles_right=right)
        return photo_line("stamp-s7-L2-j90", score, "0")

    path = tmp_path / "base.txt"
    path.write_text("\n".join([line(0, 15, 15), line(1, 13, 15), line(2, 13, 13)]) + "\n")
    assert photos_with_misnamed(path) == {"stamp-s7-L2": [1]}
