"""Shapes (vision.shapes): tile-sized squares and discs found by their edges alone,
before anything is matched."""

from __future__ import annotations

import cv2
import numpy as np

from vision.shapes import discs_of_radius, rim_ellipse, rim_ellipse_near, squares_of_side


def _noisy(grey: np.ndarray, seed: int = 2) -> np.ndarray:
    noise = np.random.default_rng(seed).normal(0, 3, grey.shape).astype(np.int8)
    return cv2.add(grey, noise, dtype=cv2.CV_8U)


def _against_a_mat(draw) -> np.ndarray:
    """A plain cloth with a dark mat on its left; ``draw`` lays a tile against it."""
    grey = np.full((400, 600), 150, np.uint8)
    cv2.rectangle(grey, (0, 40), (259, 359), 40, -1)
    draw(grey)
    return _noisy(cv2.GaussianBlur(grey, (0, 0), 1.0))


def test_a_square_tile_against_the_mat_is_found_by_its_four_edges():
    # a pale tile turned 20° whose left corner lies on the mat: the mask would join the
    # two, but the tile's four sides still step in grey all along
    centre, side, turn = (320.0, 200.0), 100.0, 20.0
    box = cv2.boxPoints((centre, (side, side), turn))
    grey = _against_a_mat(lambda g: cv2.fillPoly(g, [np.round(box).astype(np.int32)], 220))
    found = squares_of_side(grey, (0, 0, 600, 400), side, 12.0, 0.6)
    assert found, "no square found"
    share, place, angle = found[0]
    assert share > 0.9 and np.hypot(*(place - centre)) < 0.05 * side
    assert min(abs(np.degrees(angle) - turn) % 90, 90 - abs(np.degrees(angle) - turn) % 90) < 5


def test_the_mat_s_long_edges_and_corners_make_no_tile_sized_square():
    # one strong side (or two, at a corner) is a straight edge, never a square
    grey = _against_a_mat(lambda g: None)
    assert squares_of_side(grey, (0, 0, 600, 400), 100.0, 12.0, 0.6) == []


def test_a_round_tile_against_the_mat_is_found_by_its_rim_and_its_tilt_by_its_ellipse():
    # a pale disc seen from a tilted camera (a fifth narrower one way), half on the mat
    centre, axes, turn = (300.0, 200.0), (120.0, 96.0), 30.0
    grey = _against_a_mat(
        lambda g: cv2.ellipse(g, (centre, axes, turn), 220, -1, lineType=cv2.LINE_AA)
    )
    radius = (axes[0] + axes[1]) / 4
    found = discs_of_radius(grey, (0, 0, 600, 400), radius, 12.0, 0.6)
    assert found and np.hypot(*(found[0][1] - centre)) < 0.1 * radius
    rim = rim_ellipse(grey, found[0][1], radius)
    assert rim is not None
    (cx, cy), (a, b), _ = rim
    assert np.hypot(cx - centre[0], cy - centre[1]) < 2.0
    assert np.allclose(sorted((a, b)), sorted(axes), rtol=0.05)


def test_the_mat_s_corner_is_no_disc():
    grey = _against_a_mat(lambda g: None)
    assert discs_of_radius(grey, (0, 0, 600, 400), 50.0, 12.0, 0.6) == []


def test_a_tile_on_a_checked_cloth_stands_out_of_the_check_s_own_squares():
    # a gingham of cells half a tile across: any two by two of them has an edge all
    # round, but the check's lines run on right across it, where a tile's figure
    # stops at its edge
    grey = np.full((400, 600), 150, np.uint8)
    for k in range(0, 600, 100):
        grey[:, k : k + 50] -= 40
    for k in range(0, 400, 100):
        grey[k : k + 50, :] -= 40
    centre, side = (330.0, 190.0), 100.0
    box = cv2.boxPoints((centre, (side, side), 30.0))
    cv2.fillPoly(grey, [np.round(box).astype(np.int32)], 230)
    grey = _noisy(cv2.GaussianBlur(grey, (0, 0), 1.0))
    found = squares_of_side(grey, (0, 0, 600, 400), side, 12.0, 0.6)
    assert np.hypot(*(found[0][1] - centre)) < 0.05 * side
    assert all(share < found[0][0] for share, _, _ in found[1:])


def test_a_tilted_token_in_a_row_is_found_by_its_rim_s_ellipse_in_the_full_frame():
    # a 30 px brown token between two others on a pale table, squeezed by a 35° tilt:
    # its rim, read round the circle the row's split cut, is the token's own ellipse,
    # placed in the frame's pixels however near the frame's edge the crop is cut
    image = np.full((120, 400, 3), 200, np.uint8)
    axes, turn = (33.0, 27.0), 120.0
    for x in (15.0, 44.0, 73.0):  # touching along the row, the first against the edge
        cv2.ellipse(image, ((x, 60.0), axes, turn), (60, 90, 130), -1, lineType=cv2.LINE_AA)
    image = cv2.GaussianBlur(image, (0, 0), 1.0)
    for x in (15.0, 44.0):
        rim = rim_ellipse_near(image, np.array([x + 1.5, 61.0]), 16.0)
        assert rim is not None
        (cx, cy), (a, b), _ = rim
        assert np.hypot(cx - x, cy - 60.0) < 1.5
        assert np.allclose(sorted((a, b)), sorted(axes), rtol=0.08)
