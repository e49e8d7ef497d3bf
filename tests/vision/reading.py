"""What the tests that read a whole photo share: the tiles read at a place, and a
rendered hard photo's score."""

from __future__ import annotations

import numpy as np

from companion.bitenight.tiles import Tile
from vision.evaluate import PhotoScore, evaluation_photo, score_photo
from vision.recogniser import Recogniser
from vision.results import FrameResult


def read_at(result: FrameResult, point: tuple[float, float], reach: float = 10.0) -> list[Tile]:
    """The tiles ``result`` reads within ``reach`` px of ``point``."""
    return [t.tile for t in result.tiles if np.hypot(*np.subtract(t.center, point)) < reach]


def hard_score(
    recogniser: Recogniser, seed: int, index: int, render=evaluation_photo
) -> PhotoScore:
    """How ``recogniser`` reads the ``index``-th hard photo of ``seed`` that ``render``
    draws with its tile set (:func:`vision.evaluate.evaluation_photo`, or another of
    the regression's renderers), as the regression scores it."""
    photo = render(recogniser.tileset, seed, 2, index)
    return score_photo(photo, recogniser.detect(photo.image), 2, index)
