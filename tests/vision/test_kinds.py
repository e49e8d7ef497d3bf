"""Tokens told from tiles by size and company (vision/kinds.py)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import vision.kinds as kinds
from vision.candidates import Candidate
from vision.matching import StructureMatch
from vision.outlines import square_quad
from vision.pieces import Scored
from vision.recogniser import Recogniser


def test_a_lone_piece_as_large_as_the_frame_s_tokens_is_not_read_again_as_a_tile(
    round_recogniser, monkeypatch
):
    # a token at a row's end whose neighbour was not read lies alone; cut with a ring of
    # green felt round its white face it can pass for a tile in green, so a lone piece
    # the size of the frame's own clear tokens stays a token (turned down), while one
    # clearly smaller (a tile's figure left by a cloth of its colour) is tried as a tile
    recogniser = round_recogniser
    token_group = int(np.flatnonzero(recogniser.scoring.token_groups)[0])

    def piece(x: float, side: float, score: float) -> Scored:
        quad = np.array(
            [
                [x - side / 2, 100 - side / 2],
                [x + side / 2, 100 - side / 2],
                [x + side / 2, 100 + side / 2],
                [x - side / 2, 100 + side / 2],
            ],
            np.float32,
        )
        match = StructureMatch(token_group, 0.0, score, 0.5, token_group, 0.0)
        return Scored(Candidate(quad, True, 0, 0), np.zeros((40, 40, 4), np.uint8), match)

    row = [piece(100, 35, 0.95), piece(136, 35, 0.95)]  # clear tokens: 0.7 of a tile
    tried: list[float] = []

    def as_tile(scoring, frame, s, size_at):
        tried.append(s.candidate.side)
        return None

    monkeypatch.setattr(kinds, "as_tile", as_tile)
    lone_token, lone_figure = piece(600, 37, 0.7), piece(900, 24, 0.7)
    kept, turned = kinds.tokens_in_company(
        recogniser.scoring, None, [*row, lone_token, lone_figure], lambda point: 50.0
    )
    assert tried == [24]
    assert len(turned) == 2 and kept == row


def _piece(recogniser: Recogniser, x: float, side: float, score: float, token: bool) -> Scored:
    """A piece of blob 0's first split at (x, 100), matched to a token or a tile."""
    quad = square_quad(np.array([x, 100.0]), side / 2, 0.0).astype(np.float32)
    group = int(np.flatnonzero(recogniser.scoring.token_groups == token)[0])
    match = StructureMatch(group, 0.0, score, 0.5, group, 0.0)
    return Scored(Candidate(quad, True, 0, 0), np.zeros((40, 40, 4), np.uint8), match)


def test_a_tile_read_where_no_tile_fits_beside_a_token_of_its_row_is_matched_as_a_token(
    round_recogniser,
):
    # a white token at a row's end, cut at a tile's size with green felt round it, reads
    # as a tile whose face is a coloured ring; but a tile there would overlap the token
    # beside it, while a real tile touching a token lies half their sizes apart
    rec = round_recogniser
    token = _piece(rec, 100, 35, 0.95, token=True)
    overlapping = _piece(rec, 137, 48, 0.93, token=False)
    touching = _piece(rec, 143, 50, 0.93, token=False)
    other_split = _piece(rec, 137, 48, 0.93, token=False)
    other_split = replace(other_split, candidate=replace(other_split.candidate, split=1))
    # a token there whose rival is a tile by a hair is judged among tokens alone
    tile_group = overlapping.group
    unsure = _piece(rec, 64, 35, 0.93, token=True)
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
        row = [_piece(rec, 100, 35, 0.95, True), _piece(rec, 136, 35, 0.95, True)]
        large = _piece(rec, 190, 55, 0.95, True)
        tile = _piece(rec, 190, 50, 0.9, False)
        tried: list[float] = []

        def as_tile(scoring, frame, s, size_at, tile=tile, tried=tried):
            tried.append(s.candidate.side)
            return tile

        monkeypatch.setattr(kinds, "as_tile", as_tile)
        kept, turned = kinds.tokens_in_company(rec.scoring, None, [*row, large], lambda p: 50.0)
        assert tried == pytest.approx(expected, abs=0.5) and not turned
        assert kept == [*row, tile] if expected else kept == [*row, large]
