"""A face may explain a piece only at a brightness the frame's light allows
(vision.colour.bounded_residuals, used by FrameColours for every piece)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.colour import (
    FitTable,
    FrameColours,
    bounded_residuals,
    frame_scale,
    half_mask,
    half_size,
    told_by_brightness,
)
from vision.evaluate import evaluation_photo, score_photo
from vision.recogniser import Recogniser
from vision.rectify import patch_mask
from vision.synth.regression import style_tileset

SIZE = 40


def _crossed_disc(disc: tuple[int, int, int], cross: tuple[int, int, int]) -> np.ndarray:
    """A token's face: a coloured disc with a cross, on the dark ring round it."""
    face = np.full((SIZE, SIZE, 3), 25, np.float32)
    cv2.circle(face, (SIZE // 2, SIZE // 2), 17, disc, -1)
    cv2.rectangle(face, (17, 8), (22, 31), cross, -1)
    cv2.rectangle(face, (8, 17), (31, 22), cross, -1)
    return face


#: A black face whose disc is a little warmer than its black cross, and a yellow one.
FACES = np.stack(
    [_crossed_disc((30, 35, 35), (25, 25, 25)), _crossed_disc((30, 190, 225), (25, 25, 25))]
)
BLACK, YELLOW = 0, 1


def _frame(yellow_brightness: float) -> tuple[list[np.ndarray], FitTable, np.ndarray]:
    """Four black tokens and one yellow one (at ``yellow_brightness`` of the light)."""
    patches = [FACES[BLACK] * 0.9 + 5 for _ in range(4)]
    patches.append(FACES[YELLOW] * yellow_brightness + 5)
    mask = patch_mask(SIZE, True)
    small = list(half_size(np.stack(patches)))
    return patches, FitTable(small, [half_size(FACES)] * 5, half_mask(mask)), mask


def test_a_yellow_disc_is_not_a_faint_warm_black_face_scaled_up():
    # free, the black face's faint warm disc scaled up explains the yellow disc nearly as
    # well as the yellow face (a tint is all its disc differs from its cross by)
    _, table, _ = _frame(0.9)
    free = table.residuals(np.ones(3))
    assert free[4, BLACK] < 0.3
    scale = frame_scale(table, np.ones(3), free)
    assert scale == pytest.approx(0.9, rel=0.05)
    held = bounded_residuals(table, np.ones(3), free, scale)
    assert held[4, BLACK] > 0.5 > held[4, YELLOW]
    # the black tokens, fitted at the frame's light, keep their free fit
    np.testing.assert_allclose(held[:4], free[:4])


def test_a_yellow_token_in_shade_is_still_yellow():
    patches, _, mask = _frame(0.3)
    frame = FrameColours(patches, [FACES] * 5, mask, gains=np.ones(3))
    assert frame.decide(4)[0] == YELLOW
    assert [frame.decide(k)[0] for k in range(4)] == [BLACK] * 4


def test_yellow_tokens_with_a_black_cross_under_a_warm_lamp_read_yellow(style_recogniser):
    # hard level, seed 2024's twelfth photo of the check style whose tokens are a coloured
    # disc with a black cross, under a 4060 K lamp: three yellow tokens, one on a beige
    # cloth and two in shade, read black (0.074-0.089 free against yellow's 0.081-0.099),
    # the black face fitted at 11-22 times the frame's brightness
    stencil = style_recogniser("stencil")
    photo = evaluation_photo(stencil.tileset, 2024, 2, 11)
    score = score_photo(photo, stencil.detect(photo.image), 2, 11)
    assert score.tokens_right == score.tokens == 9
    assert score.token_false_positives == 0


#: Measured on aquarelle seed 7 #3 (members black, blue, green, red, white, yellow): the
#: free fit's misfits and those at the frame's brightness scale.
WHITE_UNDER_A_WARM_LAMP = (
    np.array([0.692, 1.0, 0.766, 0.233, 0.139, 0.125]),
    np.array([0.704, 1.876, 0.894, 0.926, 0.141, 0.952]),
)
BLACK_ON_A_RED_GINGHAM = (
    np.array([0.32, 0.989, 0.636, 0.336, 0.353, 0.233]),
    np.array([0.564, 1.068, 0.77, 1.099, 0.761, 1.265]),
)


def test_a_token_read_as_a_shade_it_fits_only_far_off_the_light_takes_the_colour_the_light_allows():
    assert told_by_brightness(*WHITE_UNDER_A_WARM_LAMP, member=5) == 4
    assert told_by_brightness(*BLACK_ON_A_RED_GINGHAM, member=5) == 0


def test_a_token_keeps_its_free_reading_where_the_light_says_no_more():
    free, pinned = WHITE_UNDER_A_WARM_LAMP
    # a reading the light upholds, or no near rival the light prefers by enough
    assert told_by_brightness(free, pinned, member=4) == 4
    assert told_by_brightness(free, pinned + np.array([0, 0, 0, 0, 0.7, 0]), member=5) == 5
    # a rival the light prefers but whose free fit is far worse
    assert told_by_brightness(np.array([0.1, 0.5]), np.array([0.9, 0.1]), member=0) == 0


def test_a_white_and_a_black_token_under_a_warm_lamp_on_a_red_gingham_are_not_yellow(tmp_path):
    # aquarelle's tokens (a wash of the colour with a brown ring) at the hard level, seed
    # 7's fourth photo: a white token read yellow (0.125 free against white's 0.139) and a
    # black one on the red gingham read yellow scaled down to a fifth
    recogniser = Recogniser(style_tileset("aquarelle", tmp_path))
    photo = evaluation_photo(recogniser.tileset, 7, 2, 3)
    score = score_photo(photo, recogniser.detect(photo.image), 2, 3)
    assert score.tokens_right == score.tokens == 13
