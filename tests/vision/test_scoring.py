"""A piece's kind, size and why it is turned down (vision/scoring.py)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.candidates import Candidate
from vision.frame import Frame
from vision.matching import StructureMatch
from vision.outlines import square_quad
from vision.pieces import Scored
from vision.rectify import Pyramid


def _piece(recogniser, name: str, centre: tuple[float, float], side: float) -> Scored:
    """A piece of ``side`` at ``centre`` matching ``name``'s faces clearly (0.9, a clear lead)."""
    group = recogniser.model.group_names.index(name)
    quad = square_quad(np.array(centre), side / 2, 0.0).astype(np.float32)
    match = StructureMatch(group, 0.0, 0.9, 0.5, group, 0.0)
    return Scored(Candidate(quad, True, 0, 0, 1.0), np.zeros((40, 40, 3), np.float32), match)


def _block_and_row(recogniser, token_side: float) -> list[Scored]:
    """A block of 3x5 tiles cut 25 px wide and a row of four tokens of ``token_side``."""
    tiles = [
        _piece(recogniser, "monk", (100.0 + 26 * col, 100.0 + 26 * row), 25.0)
        for row in range(3)
        for col in range(5)
    ]
    tokens = [_piece(recogniser, "token", (150.0 + 40 * i, 300.0), token_side) for i in range(4)]
    return tiles + tokens


def test_clear_tokens_too_large_beside_the_tiles_leave_the_tile_size_unknown(round_recogniser):
    # tiles whose ground the mask lost are cut at their figures' size; tokens whose
    # faces match clearly say a tile is far larger (azulejo seed 2024 #3: eight clear
    # tokens turned down as 1.43 times a tile)
    scoring = round_recogniser.scoring
    assert scoring.size_model(_block_and_row(round_recogniser, 36.0), None) is None


def test_clear_tokens_smaller_than_the_tiles_leave_their_size_as_it_is(round_recogniser):
    size_at = round_recogniser.scoring.size_model(_block_and_row(round_recogniser, 18.0), None)
    assert size_at is not None
    assert abs(size_at((400.0, 300.0)) - 25.0) < 1.0


def test_the_least_tile_is_about_a_fiftieth_of_the_frame_s_width(round_recogniser):
    # the empty table's photos (1280 x 720): with nothing in the frame to say how large
    # a tile is, the deposit mat's printed moons and a die's pips, cut as 15-25 px
    # pieces, matched faces and were read as tiles; true tiles there are 32 px and more
    scoring = round_recogniser.scoring
    assert 22 < scoring.least_tile_side((1280, 720)) < 25


def test_the_least_tile_is_a_share_of_the_frame_not_a_number_of_pixels(round_recogniser):
    scoring = round_recogniser.scoring
    assert scoring.least_tile_side((4032, 3024)) == 4 * scoring.least_tile_side((1008, 756))


def test_the_least_tile_is_the_same_in_a_camera_s_4_3_and_16_9_frames(round_recogniser):
    # a webcam's 16:9 mode cuts the top and bottom off its 4:3 one: the same tiles
    scoring = round_recogniser.scoring
    assert scoring.least_tile_side((1280, 960)) == scoring.least_tile_side((1280, 720))
    assert scoring.least_tile_side((960, 1280)) == scoring.least_tile_side((1280, 960))


def _cloth(noise: float) -> Frame:
    """A frame of plain grey cloth whose grey varies by ``noise`` from pixel to pixel."""
    rng = np.random.default_rng(1)
    grey = np.clip(90 + rng.normal(0, noise, (180, 320)), 0, 255).astype(np.uint8)
    image = cv2.cvtColor(cv2.resize(grey, (640, 360)), cv2.COLOR_GRAY2BGR)
    empty = np.zeros_like(grey)
    return Frame(image, Pyramid(image), 2.0, grey, empty, [], None, None)


def test_a_faint_outline_must_step_a_few_times_the_cloth_s_noise(round_recogniser):
    # a square laid round a die on a plain cloth steps as the cloth does (0.7-1.5 times
    # its noise on the empty tables); a dark tile on a cloth as dark steps 3.3-6.8 times
    scoring = round_recogniser.scoring
    smooth, rough = _cloth(2.0), _cloth(5.0)
    assert 0 < scoring.least_faint_step(smooth) < scoring.least_faint_step(rough)
    assert scoring.least_faint_step(smooth) == 2.5 * smooth.cloth_step


def test_a_faint_outline_need_never_step_more_than_a_clear_one(round_recogniser):
    scoring = round_recogniser.scoring
    assert scoring.least_faint_step(_cloth(40.0)) == scoring.config.outline_step_min
