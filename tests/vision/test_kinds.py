"""Tokens told from tiles by size and company (vision/kinds.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

import vision.kinds as kinds
from tests.vision.drawn import placed_piece
from tests.vision.reading import hard_score
from vision.evaluate import evaluation_photo, score_photo


def _tiles_tried(monkeypatch, tile=None) -> list[float]:
    """The sides of the pieces `kinds.tokens_in_company` tries as tiles, filled in as it
    tries them; each try answers ``tile``."""
    tried: list[float] = []

    def as_tile(scoring, frame, s, size_at, ties=False):
        tried.append(s.candidate.side)
        return tile

    monkeypatch.setattr(kinds, "as_tile", as_tile)
    return tried


def test_a_lone_piece_as_large_as_the_frame_s_tokens_is_not_read_again_as_a_tile(
    round_recogniser, monkeypatch
):
    # a token at a row's end whose neighbour was not read lies alone; cut with a ring of
    # green felt round its white face it can pass for a tile in green, so a lone piece
    # the size of the frame's own clear tokens stays a token (turned down), while one
    # clearly smaller (a tile's figure left by a cloth of its colour) is tried as a tile
    recogniser = round_recogniser
    row = [placed_piece(recogniser, x, 35, 0.95, True) for x in (100, 136)]  # clear: 0.7 of a tile
    tried = _tiles_tried(monkeypatch)
    lone_token = placed_piece(recogniser, 600, 37, 0.7, True)
    lone_figure = placed_piece(recogniser, 900, 24, 0.7, True)
    kept, turned = kinds.tokens_in_company(
        recogniser.scoring, None, [*row, lone_token, lone_figure], lambda point: 50.0
    )
    assert tried == [24]
    assert len(turned) == 2 and kept == row


def test_a_tile_read_where_no_tile_fits_beside_a_token_of_its_row_is_matched_as_a_token(
    round_recogniser,
):
    # a white token at a row's end, cut at a tile's size with green felt round it, reads
    # as a tile whose face is a coloured ring; but a tile there would overlap the token
    # beside it, while a real tile touching a token lies half their sizes apart
    rec = round_recogniser
    token = placed_piece(rec, 100, 35, 0.95, token=True)
    overlapping = placed_piece(rec, 137, 48, 0.93, token=False)
    touching = placed_piece(rec, 143, 50, 0.93, token=False)
    other_split = placed_piece(rec, 137, 48, 0.93, token=False)
    other_split = replace(other_split, candidate=replace(other_split.candidate, split=1))
    # a token there whose rival is a tile by a hair is judged among tokens alone
    tile_group = overlapping.group
    unsure = placed_piece(rec, 64, 35, 0.93, token=True)
    unsure = replace(unsure, match=replace(unsure.match, margin=0.01, runner=tile_group))
    scored = [token, overlapping, touching, other_split, unsure]
    assert kinds.no_room_for_tile(rec.scoring, scored, lambda point: 50.0) == {1, 4}


def test_a_token_far_larger_than_the_frame_s_tokens_is_read_again_as_a_square_tile(
    square_recogniser, round_recogniser, monkeypatch
):
    # on a gingham of its colours a square tile's ground leaves the mask, and the disc of
    # its figure's ground, cut at a tile's size, matches a coloured token well; the
    # frame's clear tokens are 0.7 of a tile, so a "token" of a tile's size is tried as a
    # square tile (kept where one matches clearly), in a row or not; a round set's
    # tile-sized pieces are matched again as round tiles before this (_kind_by_size)
    for rec, expected in ((square_recogniser, [55.0]), (round_recogniser, [])):
        row = [placed_piece(rec, 100, 35, 0.95, True), placed_piece(rec, 136, 35, 0.95, True)]
        large = placed_piece(rec, 190, 55, 0.95, True)
        tile = placed_piece(rec, 190, 50, 0.9, False)
        tried = _tiles_tried(monkeypatch, tile)
        kept, turned = kinds.tokens_in_company(rec.scoring, None, [*row, large], lambda p: 50.0)
        assert tried == pytest.approx(expected, abs=0.5) and not turned
        assert kept == [*row, tile] if expected else kept == [*row, large]


def test_a_token_far_smaller_than_the_frame_s_tokens_where_it_lies_and_in_pixels_is_none(
    round_recogniser, monkeypatch
):
    # tokens are all one size on the table: a disc half the frame's tokens' size, a bit
    # of a tile's checks, is no token even beside others; but a token seen smaller only
    # in pixels (the far side of a tilted frame, where tiles are small too) or only
    # beside the tile size there (where the frame's tiles fit that size poorly) stays
    rec = round_recogniser
    row = [placed_piece(rec, x, 35, 0.95, True) for x in (100, 136, 172, 208)]  # 0.7 of a tile
    tried = _tiles_tried(monkeypatch)
    bit = placed_piece(rec, 236, 18, 0.9, True)
    far = placed_piece(rec, 800, 18, 0.9, True)
    misjudged = placed_piece(rec, 320, 30, 0.9, True)

    def size_at(point):
        return 26.0 if point[0] > 700 else 80.0 if 250 < point[0] < 400 else 50.0

    kept, turned = kinds.tokens_in_company(rec.scoring, None, [*row, bit, far, misjudged], size_at)
    assert tried == [18]  # a bit of a tile's figure may be its tile, found again
    assert kept == [*row, far, misjudged] and len(turned) == 1


def test_two_loose_tokens_a_gap_apart_with_nothing_near_are_turned_down_but_not_side_by_side(
    round_recogniser, monkeypatch
):
    # two dice on a dark table align as tokens (0.77) and keep each other company as a
    # row's two ends with its middle unread would; a row shows more, or reads one of
    # its tokens surely, or lies side by side (a row's end whose rest was not read)
    rec = round_recogniser
    _tiles_tried(monkeypatch)
    dice = [placed_piece(rec, x, 35, 0.77, True) for x in (100, 165)]
    kept, turned = kinds.tokens_in_company(rec.scoring, None, dice, lambda point: 50.0)
    assert kept == [] and len(turned) == 2
    end = [placed_piece(rec, x, 35, 0.77, True) for x in (400, 436)]
    sure = [placed_piece(rec, 700, 35, 0.77, True), placed_piece(rec, 765, 35, 0.9, True)]
    three = [placed_piece(rec, x, 35, 0.77, True) for x in (1000, 1065, 1130)]
    pieces = [*end, *sure, *three]
    kept, turned = kinds.tokens_in_company(rec.scoring, None, pieces, lambda point: 50.0)
    assert kept == pieces and not turned


def test_two_tokens_side_by_side_at_the_frame_s_token_size_are_no_loose_pair_though_cut_small(
    round_recogniser, monkeypatch
):
    # clock seed 2024 #9: a row's white end and the back beside it on a pale cloth, cut
    # 25 and 27 px where the frame's tokens are 30 px, lie 31.6 px apart: over a row's
    # step of their cut sizes, but side by side at the frame's token size, so they are
    # a row's end whose rest was not read, not two dice a gap apart
    rec = round_recogniser
    _tiles_tried(monkeypatch)
    clear = [placed_piece(rec, x, 30, 0.95, True) for x in (700, 731)]
    end, back = placed_piece(rec, 100, 25, 0.76, True), placed_piece(rec, 131.6, 27, 0.71, True)
    pieces = [*clear, end, back]
    kept, turned = kinds.tokens_in_company(rec.scoring, None, pieces, lambda point: 44.0)
    assert kept == pieces and not turned


def test_row_ends_by_size_keeps_a_token_sized_token_a_row_s_step_from_another(round_recogniser):
    # clock seed 7 #1: a row's white end read as a black face misfits black, and read
    # again among the tiles it became a green coffin beside its row's backs; a token of
    # the frame's token size a row's step from another token is a row's token
    rec = round_recogniser
    clear = [placed_piece(rec, x, 35, 0.95, True) for x in (700, 736)]  # 0.7 of a tile
    end = placed_piece(rec, 100, 36, 0.65, True)
    beside = placed_piece(rec, 136, 36, 0.65, True)
    lone = placed_piece(rec, 400, 36, 0.65, True)
    tile_sized = placed_piece(rec, 900, 48, 0.65, True)
    next_to_it = placed_piece(rec, 948, 36, 0.65, True)
    pieces = [*clear, end, beside, lone, tile_sized, next_to_it]
    kept = kinds.row_ends_by_size(rec.scoring, pieces, list(range(len(pieces))), lambda p: 50.0)
    assert 2 in kept and 3 in kept
    assert 4 not in kept and 5 not in kept
    # where the frame's tokens are about the tiles' size (stitch), size cannot tell
    same = [placed_piece(rec, x, 48, 0.95, True) for x in (700, 748)]  # 0.96 of a tile
    pieces = [*same, end, beside]
    assert not kinds.row_ends_by_size(rec.scoring, pieces, [2, 3], lambda p: 50.0)


def test_a_row_end_the_size_model_leaves_between_the_kinds_is_a_token_by_its_pixels(
    style_recogniser,
):
    # hard level, the tenth photo of cabochon seed 2024: a row's blue end in the frame's
    # far corner, cut at the frame's token size in pixels (29.7 px), lay between a
    # token's and a tile's size by the tile block's size model and was read as a tile;
    # its row's other end was then alone and the row unread (6 of 14 tokens, a false
    # tile). Read among the tokens, it is the row's end, and the row is read whole
    cabochon = style_recogniser("cabochon")
    photo = evaluation_photo(cabochon.tileset, 2024, 2, 9)
    score = score_photo(photo, cabochon.detect(photo.image), 2, 9)
    assert score.tokens_right == score.tokens == 14 and score.token_false_positives == 0
    assert score.false_positives == 0


def test_a_piece_between_the_kinds_is_judged_by_its_match_in_a_split_without_a_clear_token(
    style_recogniser,
):
    # hard level, the tenth photo of clock seed 2024: a row's white end, 0.79 as a tile,
    # lies in one split of its blob among pieces of 29-48 px whose "tokens" match at
    # 0.34-0.62. Read among the tokens by its pixels, it made that split win over one
    # from which the row searches read two tokens more (10 of 14)
    clock = style_recogniser("clock")
    photo = evaluation_photo(clock.tileset, 2024, 2, 9)
    score = score_photo(photo, clock.detect(photo.image), 2, 9)
    assert score.tokens_right >= 10 and score.token_false_positives == 0


def test_a_token_cut_a_quarter_larger_than_the_frame_s_tokens_is_read_at_their_size(
    style_recogniser,
):
    # hard level, the sixth photo of stamp seed 2024: a white token touching a blue one
    # on dark wood, cut 1.25 times the frame's tokens, has the wood where its white ring
    # lies and read black (0.84, by the grey disc and bat inside). Cut at the frame's
    # token size it reads 0.90, white
    stamp = style_recogniser("stamp")
    score = hard_score(stamp, 2024, 5)
    assert score.tokens_right == score.tokens == 5 and score.token_false_positives == 0
    assert score.false_positives == 0
