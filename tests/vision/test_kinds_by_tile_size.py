"""Tokens the size of the frame's tiles, in a set that draws its tiles like its tokens,
read again as tiles (vision/kinds.py: no_token_size, with vision/scoring.py:
tiles_pass_for_tokens)."""

from __future__ import annotations

import pytest

from vision.evaluate import evaluation_photo, score_photo
from vision.recogniser import Recogniser
from vision.synth.regression import style_tileset


@pytest.fixture(scope="module")
def sets(tmp_path_factory):
    return tmp_path_factory.mktemp("sets")


def test_a_set_draws_its_tiles_like_its_tokens_where_most_tile_faces_pass_for_a_token(sets):
    # a sealing-wax blob: tile and token a seal in the colour, the figure only a relief
    # (0.95 of its tile faces match a token template over accept_token_min); a pebble's
    # painted figure matches no token
    wax = Recogniser(style_tileset("wax", sets))
    pebble = Recogniser(style_tileset("pebble", sets))
    assert wax.scoring.tiles_pass_for_tokens
    assert not pebble.scoring.tiles_pass_for_tokens
    assert not Recogniser(style_tileset("nocturne", sets)).scoring.tiles_pass_for_tokens


def test_tokens_the_size_of_the_frame_s_tiles_are_tiles_where_the_set_draws_both_alike(sets):
    # wax, hard level, seed 2024's eleventh photo: 15 large tiles (177 px) and no token on
    # the table; 7 tiles read as tokens 1.1 times the frame's clear tiles (the frame's
    # "tokens" all that size), so no token was told from a tile by size
    wax = Recogniser(style_tileset("wax", sets))
    photo = evaluation_photo(wax.tileset, 2024, 2, 10)
    score = score_photo(photo, wax.detect(photo.image), 2, 10)
    assert score.token_false_positives == 0
    assert score.found >= 10
