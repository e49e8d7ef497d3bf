"""Outlines (vision.outlines): whether a piece's edge shows all round, and where a
square's edge runs."""

from __future__ import annotations

import cv2
import numpy as np

from vision.outlines import has_outline, square_by_outline


def _noisy(grey: np.ndarray, seed: int = 2) -> np.ndarray:
    noise = np.random.default_rng(seed).normal(0, 3, grey.shape).astype(np.int8)
    return cv2.add(grey, noise, dtype=cv2.CV_8U)


def test_a_square_is_found_by_its_outline_near_a_guess_off_its_middle():
    # a tile's dark border on a plain cloth, the guess a quarter of a side away
    grey = np.full((360, 640), 120, np.uint8)
    centre, side, turn = np.array([300.0, 180.0]), 60.0, 20.0
    box = cv2.boxPoints(((centre[0], centre[1]), (side, side), turn))
    cv2.polylines(grey, [np.round(box).astype(np.int32)], True, 30, 2, cv2.LINE_AA)
    grey = cv2.add(
        grey, np.random.default_rng(2).normal(0, 3, grey.shape).astype(np.int8), dtype=cv2.CV_8U
    )
    guess = centre + np.array([0.25, -0.2]) * side
    quad = square_by_outline(grey, guess, side, 1.0)
    # within a twentieth of a side (a border line's two edges are both outlines);
    # alignment settles the last pixels
    assert np.hypot(*(quad.mean(axis=0) - centre)) < 0.05 * side
    sides = np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)
    assert np.allclose(sides, side, atol=1.0)
    edge = quad[1] - quad[0]
    angle = np.degrees(np.arctan2(edge[1], edge[0])) % 90
    assert min(abs(angle - turn), 90 - abs(angle - turn)) < 3.0


def test_a_tile_has_an_outline_and_a_square_imagined_around_a_die_has_none():
    # a dark tile with a pale figure, and a die, on a plain cloth of the tile's colour
    grey = np.full((360, 640), 90, np.uint8)
    cv2.rectangle(grey, (100, 100), (159, 159), 40, -1)
    cv2.circle(grey, (130, 130), 15, 230, -1)
    cv2.rectangle(grey, (400, 120), (419, 139), 240, -1)
    grey = _noisy(grey)
    tile = np.array([[100, 100], [160, 100], [160, 160], [100, 160]], np.float64)
    around_die = tile + np.array([280.0, 0.0])
    assert has_outline(grey, tile, 1.0, False, 12.0, 0.6)
    assert not has_outline(grey, around_die, 1.0, False, 12.0, 0.6)
