"""Round tiles found around the small coloured disc in their middle
(:mod:`vision.searches.cores`, :func:`vision.model.colour_core`)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.evaluate import evaluation_photo
from vision.recogniser import Recogniser
from vision.synth.check_styles import check_set


@pytest.fixture(scope="module")
def vinyl() -> Recogniser:
    return Recogniser(check_set("vinyl"))


@pytest.fixture(scope="module")
def coins() -> Recogniser:
    return Recogniser(check_set("coins"))


def test_a_set_printing_its_colour_in_a_small_centred_disc_learns_how_large_it_is(
    vinyl, coins, round_recogniser, square_recogniser
):
    # vinyl's labels are 0.44 of a record's radius, coins' coloured middles 0.68; a
    # ground of the colour reaches the rim (lantern), and squares are not looked for so
    assert 0.40 <= vinyl.scoring.model.colour_core <= 0.48
    assert 0.60 <= coins.scoring.model.colour_core <= 0.70
    assert round_recogniser.scoring.model.colour_core is None
    assert square_recogniser.scoring.model.colour_core is None


def test_black_records_on_a_dark_cloth_are_found_round_their_labels(vinyl):
    # hard level, seed 2024 #10: fifteen black records on a dark blue-grey cloth, the
    # mask holding only their labels and sheen; none was read (the labels taken for
    # tokens), now every one is, and the labels are no tokens
    photo = evaluation_photo(vinyl.tileset, 2024, 2, 10)
    result = vinyl.detect(photo.image)
    truth = {t.tile: t.center for t in photo.tiles}
    right = [
        t
        for t in result.tiles
        if t.tile in truth and np.hypot(*np.subtract(t.center, truth[t.tile])) < 0.2 * photo.tile_px
    ]
    assert len(right) >= 14
    assert not result.tokens


def test_a_token_of_the_colour_is_not_taken_for_a_core(coins):
    # hard level, seed 2024 #13: the coloured face-up tokens at a row's ends are discs of
    # the hue like a coin's middle; cut round them at a coin's size the face shrinks onto
    # the token's rim and is named a token, so every token is still read
    photo = evaluation_photo(coins.tileset, 2024, 2, 13)
    result = coins.detect(photo.image)
    assert len(result.tokens) == len(photo.tokens) == 10
    assert len(result.tiles) == 15
