"""Which pieces a search aligns (vision/scoring.py, Scoring.realigned_if_worth)."""

from __future__ import annotations

import cv2
import numpy as np

from companion.bitenight.tiles import Tile
from vision.candidates import Candidate
from vision.outlines import square_quad
from vision.rectify import Pyramid
from vision.synth.scene import paste


def test_a_search_aligns_only_the_pieces_whose_first_look_reaches_the_blob_floor(
    square_set, square_recogniser, monkeypatch
):
    # a search lays squares where nothing was recognised: one over a tile the mask lost,
    # one over bare cloth; only the first is worth the alignment, and the floor is the one
    # under which a blob's own piece is not aligned either (align_min_score)
    rec = square_recogniser
    table = np.full((720, 1280, 3), (60, 70, 80), np.uint8)
    side = 70.0
    tile_at, cloth_at = np.array([400.0, 360.0]), np.array([900.0, 360.0])
    paste(table, square_set.faces[Tile.parse("green-maiden")], tile_at, np.array([side] * 2), 10.0)
    table = cv2.add(
        table, np.random.default_rng(1).normal(0, 3, table.shape).astype(np.int8), dtype=cv2.CV_8U
    )
    pyramid = Pyramid(table)
    cuts = [
        Candidate(square_quad(at, side / 2, np.radians(10.0)).astype(np.float32), False, -1 - k, 0)
        for k, at in enumerate((tile_at, cloth_at))
    ]
    on_tile, on_cloth = rec.scoring.score_structure(pyramid, cuts, ~rec.scoring.token_groups)
    assert on_cloth.score < rec.config.align_min_score <= on_tile.score

    seen: list = []
    realigned = rec.scoring.realigned

    def recorded(pyramid, pieces, allowed=None):
        seen.extend(pieces)
        return realigned(pyramid, pieces, allowed)

    monkeypatch.setattr(rec.scoring, "realigned", recorded)
    out = rec.scoring.realigned_if_worth(pyramid, [on_tile, on_cloth])
    assert seen == [on_tile]
    assert out[1] is on_cloth
