"""What the tests that read a whole photo share: the tiles read at a place."""

from __future__ import annotations

import numpy as np

from companion.bitenight.tiles import Tile
from vision.results import FrameResult


def read_at(result: FrameResult, point: tuple[float, float], reach: float = 10.0) -> list[Tile]:
    """The tiles ``result`` reads within ``reach`` px of ``point``."""
    return [t.tile for t in result.tiles if np.hypot(*np.subtract(t.center, point)) < reach]
