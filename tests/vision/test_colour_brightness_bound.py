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
)
from vision.evaluate import evaluation_photo, score_photo
from vision.recogniser import Recogniser
from vision.rectify import patch_mask
from vision.synth.check_styles import check_set
from vision.tileset import load_tileset, save_tileset

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


@pytest.fixture(scope="module")
def stencil(tmp_path_factory) -> Recogniser:
    folder = tmp_path_factory.mktemp("sets") / "stencil"
    save_tileset(check_set("stencil"), folder)
    return Recogniser(load_tileset(folder))


def test_yellow_tokens_with_a_black_cross_under_a_warm_lamp_read_yellow(stencil):
    # hard level, seed 2024's twelfth photo of the check style whose tokens are a coloured
    # disc with a black cross, under a 4060 K lamp: three yellow tokens, one on a beige
    # cloth and two in shade, read black (0.074-0.089 free against yellow's 0.081-0.099),
    # the black face fitted at 11-22 times the frame's brightness
    photo = evaluation_photo(stencil.tileset, 2024, 2, 11)
    score = score_photo(photo, stencil.detect(photo.image), 2, 11)
    assert score.tokens_right == score.tokens == 9
    assert score.token_false_positives == 0
