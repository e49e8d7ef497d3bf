"""Blobs cut into pieces (vision/cuts.py)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.evaluate import evaluation_photo, score_photo
from vision.recogniser import Recogniser
from vision.synth.regression import style_tileset
from vision.synth.scene import paste


def test_a_token_face_printed_side_by_side_is_no_player_s_tokens(round_set, round_recogniser):
    # one token face printed five times in an even row (a mat's pattern), beside a real
    # player's row: only the row's tokens are read
    table = np.full((720, 1280, 3), (70, 60, 55), np.uint8)
    red = round_set.token_faces["red"]
    for k in range(5):
        paste(table, red, np.array([300.0, 150.0 + 62 * k]), np.array([56.0, 56.0]), 0.0)
    row = [round_set.token_faces["white"], *[round_set.token_back] * 3, red]
    for k, sprite in enumerate(row):
        paste(table, sprite, np.array([600.0 + 62 * k, 500.0]), np.array([56.0, 56.0]), 15.0 * k)
    table = cv2.add(
        table, np.random.default_rng(2).normal(0, 3, table.shape).astype(np.int8), dtype=cv2.CV_8U
    )
    result = round_recogniser.detect(table)
    assert sorted((k.center[0] // 10, k.colour) for k in result.tokens) == [
        (60, "white"),
        *[(x // 10, None) for x in (662.0, 724.0, 786.0)],
        (84, "red"),
    ]
    assert sum("printed side by side" in r.reason for r in result.rejected) == 5


def test_a_heap_of_round_tiles_with_only_tokens_alone_beside_it_is_split(tmp_path):
    # sticker seed 2024 #7 at the real level: every tile lies in one packed heap (one
    # deep distance peak, one "disc" seven times the frame's lone discs), and those lone
    # discs are tokens: the size they give is no tile's, and the heap was read as one
    # piece, 1 of its 15 tiles found
    sticker = Recogniser(style_tileset("sticker", tmp_path))
    photo = evaluation_photo(sticker.tileset, 2024, 3, 7)
    result = sticker.detect(photo.image)
    assert score_photo(photo, result, 3, 7).tiles_right >= 14
