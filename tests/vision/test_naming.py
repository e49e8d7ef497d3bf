"""Naming the chosen pieces: what is reported as a tile, and what is turned down."""

from __future__ import annotations

import numpy as np
import pytest

from companion.bitenight.tiles import Tile
from tests.vision.reading import hard_score, read_at
from vision.evaluate import empty_table_photo, evaluation_photo
from vision.naming import SURE_SOMEWHERE, _tosses_kept_by_surer
from vision.recogniser import Recogniser
from vision.results import TileDetection
from vision.synth.check_styles import check_set


def _tile(name: str, confidence: float) -> TileDetection:
    square = np.array([[0, 0], [40, 0], [40, 40], [0, 40]], np.float32)
    return TileDetection(Tile.parse(name), (20.0, 20.0), square, confidence)


def test_a_coin_toss_is_no_tile_where_no_tile_of_the_frame_is_read_surely():
    plain, heart = _tile("red-garlic", 0.49), _tile("red-garlic-heart", 0.0)
    kept, turned = _tosses_kept_by_surer([plain, heart])
    assert kept == [plain]
    assert [r.reason for r in turned] == [
        f"a coin toss, and no tile in the frame read surer than {SURE_SOMEWHERE}"
    ]


def test_a_coin_toss_stays_a_tile_beside_a_tile_read_surely():
    tiles = [_tile("red-garlic", 0.0), _tile("blue-coffin", SURE_SOMEWHERE)]
    assert _tosses_kept_by_surer(tiles) == (tiles, [])


@pytest.fixture(scope="module")
def button() -> Recogniser:
    return Recogniser(check_set("button"))


def test_a_coin_toss_on_an_empty_table_is_no_tile(button: Recogniser):
    # the regression's empty set, button's photo 1: a bit of a hand's fingers read as a
    # tile whose heart is a coin toss (confidence 0), with no tile in the frame to vouch
    # for it. (Glow's photo 3, two dice each read as a blue garlic and settled as the
    # tile and its heart twin, was this test's photo; since session 34 a sure find round
    # a figure must step out of the cloth's noise, and those dice are no longer found.)
    photo = empty_table_photo(button.tileset, 2024, 2, 1)
    result = button.detect(photo.image)
    assert result.tiles == ()
    assert any(r.reason.startswith("a coin toss") for r in result.rejected)


def test_a_grey_die_whose_pips_fit_a_figure_is_no_tile():
    # the regression's empty set, sticker's photo 5: a white die on the bare table read
    # as a purple vampire (confidence 0.50), though the share of its variation that
    # was colour was a fiftieth of the face's; it was turned down for that ("no
    # colour") until session 39, since when sticker's structure is read in a grey that
    # shows its yellow figures and the die matches no face (the rule's own tests are
    # those of `colour_shown` in test_colour)
    sticker = Recogniser(check_set("sticker"))
    photo = empty_table_photo(sticker.tileset, 2024, 2, 5)
    assert sticker.detect(photo.image).tiles == ()


def test_of_two_pieces_read_as_one_tile_the_one_showing_its_heart_keeps_it():
    # bottlecap seed 2024 #10 (hard): a blue garlic and its heart twin both read as the
    # plain one; the surer read overall was the heart's, which then went to the plain
    # tile, and the heart twin to the plain one: both wrong
    bottlecap = Recogniser(check_set("bottlecap"))
    photo = evaluation_photo(bottlecap.tileset, 2024, 2, 10)
    result = bottlecap.detect(photo.image)
    assert read_at(result, (808, 176), reach=30) == [Tile.parse("blue-garlic-heart")]
    assert read_at(result, (454, 382), reach=30) == [Tile.parse("blue-garlic")]


def test_a_clear_tile_whose_motif_and_heart_are_close_calls_is_reported_by_its_colour(
    style_recogniser,
):
    # hard level, the fourth photo of chip seed 7: a yellow maiden with a heart whose
    # face leads the next motif's by 0.05 (chip's faces share their printed rim) and
    # whose heart twin ties it, so it read at 0.27 and was turned down (14 of 15 tiles).
    # It matches a tile clearly, its runner-up is a tile too, and its yellow beats every
    # other colour clearly: it is reported, at its low confidence
    chip = style_recogniser("chip")
    score = hard_score(chip, 7, 3)
    assert score.tiles_right == score.tiles == 15 and score.false_positives == 0


def test_a_piece_whose_colour_is_no_clear_call_is_not_reported_for_its_runner_up_alone():
    # the regression's empty set, sticker's photo 3: a white die on a dark cloth, cut
    # with the cloth round it, matching a purple monk by a small lead over another
    # tile; reported because its runner-up was a tile, it was a false tile. Its colour
    # is no clear call, so it is not
    sticker = Recogniser(check_set("sticker"))
    photo = empty_table_photo(sticker.tileset, 2024, 2, 3)
    assert sticker.detect(photo.image).tiles == ()
