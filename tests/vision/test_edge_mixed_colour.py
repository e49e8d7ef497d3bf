"""A set whose colour lies in a thin frame at the faces' edge: each face fitted with its
edge mixed with what lies beyond the piece (vision.colour.edge_mixed_residuals, used by
vision.naming for the shapes whose colour mask reaches the edge)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.colour import (
    _lay,
    beyond_margin,
    edge_mixed_residuals,
    fit_residuals,
    grown_zoom,
    laid_faces,
    rim_colour_share,
)
from vision.evaluate import evaluation_photo, score_photo
from vision.recogniser import Recogniser
from vision.rectify import patch_mask
from vision.results import FrameResult
from vision.synth.scene import SyntheticPhoto

BLUE, PURPLE, RED_CLOTH = (190, 90, 30), (150, 50, 120), (40, 40, 200)  # BGR


def _framed_face(frame: tuple[int, int, int], size: int = 40, width: int = 2) -> np.ndarray:
    face = np.full((size, size, 3), 240, np.uint8)
    face[:width], face[-width:], face[:, :width], face[:, -width:] = (frame,) * 4
    cv2.rectangle(face, (14, 12), (25, 28), (20, 20, 20), -1)  # a black figure
    return face


def _on_cloth(face: np.ndarray, cloth: tuple[int, int, int], blur: float) -> np.ndarray:
    """The face laid on a cloth and blurred as a photo is: the piece cut wider by the
    margin the colour stage cuts beyond it."""
    margin = beyond_margin(len(face))
    wide = cv2.copyMakeBorder(face, *(margin,) * 4, cv2.BORDER_CONSTANT, value=cloth)
    return cv2.GaussianBlur(wide.astype(np.float32), (0, 0), blur)


def _fitted(wide: np.ndarray, faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The faces' residuals on the piece inside ``wide`` fitted alone, and fitted with
    its edge mixed with what lies beyond it (no lamp)."""
    margin = beyond_margin(40)
    patch = wide[margin:-margin, margin:-margin]
    mask = patch_mask(40, False, 0.0)
    alone = fit_residuals(patch, faces.astype(np.float32), np.ones(3), mask)
    return alone, edge_mixed_residuals(patch, wide, faces, np.ones(3), mask)


def test_a_thin_blue_frame_blurred_into_a_red_cloth_reads_blue_not_purple():
    faces = np.stack([_framed_face(BLUE), _framed_face(PURPLE)])
    # fitted alone, the mixed edge pulls the blue frame towards the cloth's red
    alone, mixed = _fitted(_on_cloth(faces[0], RED_CLOTH, 1.5), faces)
    assert alone[1] < alone[0]
    assert mixed[0] < mixed[1]


def test_a_piece_on_a_cloth_of_its_ground_s_colour_fits_its_own_face_best():
    # nothing beyond the piece to mislead: each face fits as the plain fit says
    faces = np.stack([_framed_face(BLUE), _framed_face(PURPLE)])
    _, mixed = _fitted(_on_cloth(faces[1], (240, 240, 240), 1.0), faces)
    assert mixed[1] < mixed[0] and mixed[1] < 0.05


def test_a_piece_cut_too_large_fits_its_face_laid_smaller_in_the_cloth():
    # a yellow frame on a green cloth, cut 2 px too large each way (of 40): the cloth
    # shows inside the cut's own edge, and fitted alone the frame reads green
    yellow, green, cloth = (40, 200, 230), (60, 160, 40), (50, 140, 30)
    faces = np.stack([_framed_face(yellow), _framed_face(green)])
    margin = beyond_margin(40)
    small = cv2.resize(faces[0], (36, 36), interpolation=cv2.INTER_AREA)
    laid = cv2.copyMakeBorder(small, *(2 + margin,) * 4, cv2.BORDER_CONSTANT, value=cloth)
    alone, mixed = _fitted(cv2.GaussianBlur(laid.astype(np.float32), (0, 0), 1.0), faces)
    assert alone[1] < alone[0]
    assert mixed[0] < mixed[1]


def _ringed_face(ring: tuple[int, int, int], size: int = 40) -> np.ndarray:
    """A round white face with a black figure and a thin ring of colour at its edge
    (doily: a card of the colour showing past a paper lace's scallops)."""
    face = np.full((size, size, 3), 128, np.uint8)
    centre = (size // 2, size // 2)
    cv2.circle(face, centre, size // 2, ring, -1)
    cv2.circle(face, centre, size // 2 - 2, (240, 240, 240), -1)
    for k in range(12):  # a ring of holes showing the card
        angle = 2 * np.pi * k / 12
        hole = (round(20 + 13 * np.cos(angle)), round(20 + 13 * np.sin(angle)))
        cv2.circle(face, hole, 1, ring, -1)
    cv2.rectangle(face, (15, 12), (24, 28), (20, 20, 20), -1)
    return face


@pytest.mark.parametrize("zoom", [1.0, 1.1, 1.2])
def test_a_round_piece_cut_inside_its_coloured_ring_is_found_larger_than_its_cut(zoom):
    # the cut's outline found where the white paper ends, the thin ring past it as dark
    # as the cloth: the face lies larger than the cut, which grey structure says
    faces = np.stack([_ringed_face((40, 40, 200)), _ringed_face(BLUE)])
    mask = patch_mask(40, True, 0.0)
    margin = beyond_margin(40)
    inside = _lay(mask.astype(np.float32), 40, margin, zoom)[..., None]
    laid = _lay(faces[1].astype(np.float32), 40, margin, zoom)
    wide = inside * laid + (1 - inside) * np.float32([50, 140, 30])
    wide = cv2.GaussianBlur(wide, (0, 0), 1.0)
    assert grown_zoom(wide, *laid_faces(faces, mask)) == pytest.approx(zoom)


def test_only_a_colour_in_the_rim_a_cut_too_small_loses_asks_for_the_cut_s_size():
    # a ring a pixel or two wide at the edge: most of the colour lies outside the middle
    # a cut 10 % too small keeps; a wide ring is mostly inside it
    mask = patch_mask(40, True, 0.0)
    thin = np.stack([_ringed_face((40, 40, 200)), _ringed_face(BLUE)])
    wide = thin.copy()
    for face, colour in zip(wide, [(40, 40, 200), BLUE], strict=True):
        cv2.circle(face, (20, 20), 20, colour, 8)
    assert rim_colour_share(thin, mask, True) > 0.5 > rim_colour_share(wide, mask, True)


def test_only_shapes_whose_colour_lies_at_the_edge_mix_it_with_the_table(
    style_recogniser, square_set
):
    # learnt from the tile set: stamp's colour is a thin frame round white paper
    stamp = style_recogniser("stamp")
    assert stamp.naming.edge_coloured == {False: True, True: True}
    assert Recogniser(square_set).naming.edge_coloured == {False: False, True: False}


@pytest.fixture(scope="module")
def gingham(style_recogniser) -> tuple[SyntheticPhoto, FrameResult]:
    """Hard level, seed 7's fourth photo of stamp (the check style with thin colour
    frames) on a red gingham under a 3400 K lamp, and what stamp's recogniser reads."""
    stamp = style_recogniser("stamp")
    photo = evaluation_photo(stamp.tileset, 7, 2, 3)
    return photo, stamp.detect(photo.image)


def test_thin_blue_frames_on_a_red_gingham_under_a_warm_lamp_read_blue(gingham):
    # the 32 px tiles' frames, 2 px wide, blur into the cloth; fitted alone, four blue
    # tiles read purple and a red one yellow (10 of 15)
    photo, result = gingham
    score = score_photo(photo, result, 2, 3)
    assert score.tiles_right == score.tiles == 15


def test_a_tile_cut_again_at_its_size_is_outlined_at_that_size(gingham):
    # the frames are found where the white paper ends, a little inside the tile; the cut
    # that reads them is the outline shown (it was the first, smaller cut: median 0.93)
    photo, result = gingham
    truth = {t.tile: t for t in photo.tiles}
    ratios = [
        cv2.contourArea(np.float32(t.polygon)) / cv2.contourArea(np.float32(truth[t.tile].corners))
        for t in result.tiles
    ]
    assert float(np.median(ratios)) == pytest.approx(1.0, abs=0.04)


def test_stamp_s_tiles_thin_frames_are_cut_again_at_their_size_its_wide_ringed_tokens_not(
    style_recogniser,
):
    stamp = style_recogniser("stamp")
    tokens = {g for g, name in enumerate(stamp.model.group_names) if name.startswith("token")}
    tiles = set(range(len(stamp.model.groups))) - tokens
    assert set(stamp.naming.laid) == tiles
