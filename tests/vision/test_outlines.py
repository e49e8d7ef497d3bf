"""Outlines (vision.outlines): whether a piece's edge shows all round, and where a
square's edge runs."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np

from vision import outlines
from vision.config import VisionConfig
from vision.outlines import (
    cloth_free_gradient,
    cloth_step,
    fitted_to_edge,
    has_outline,
    outline_evenness,
    outline_ground,
    outlined_square,
    square_by_outline,
)
from vision.rectify import order_corners
from vision.searches import edges


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


def _pale_tile_on_a_check() -> tuple[np.ndarray, np.ndarray, float]:
    """A pale tile (its paper the check's pale cells, a thin grey border, a dark dot
    off its middle) turned 30° on a fine grey check of period 14 px, a tile 1.4 periods
    wide; drawn at four times the size and shrunk. Its grey, centre and side."""
    k = 4
    ys, xs = np.mgrid[0 : 180 * k, 0 : 320 * k]
    on_x, on_y = (xs // (7 * k)) % 2 == 0, (ys // (7 * k)) % 2 == 0
    grey = np.where(on_x & on_y, 70, np.where(on_x | on_y, 140, 215)).astype(np.uint8)
    centre, side = np.array([160.0, 90.0]), 20.0
    box = np.round(cv2.boxPoints(((160.0 * k, 90.0 * k), (side * k, side * k), 30.0)))
    cv2.fillPoly(grey, [box.astype(np.int32)], 215)
    cv2.polylines(grey, [box.astype(np.int32)], True, 150, k // 2, cv2.LINE_AA)
    cv2.circle(grey, (163 * k, 90 * k), 4 * k, 60, -1)
    return _noisy(cv2.resize(grey, (320, 180), interpolation=cv2.INTER_AREA), 3), centre, side


def test_on_a_check_a_square_is_found_by_the_edges_the_cloth_does_not_repeat():
    # the check's lines step as steeply as the tile's edge, and a square placed square
    # to them lies on lines all round: from half the guesses a quarter of a side off,
    # the square then found is drawn off the tile. A period on, the cloth repeats its
    # own edges and not the tile's, so with the cloth's periods every guess finds it.
    grey, centre, side = _pale_tile_on_a_check()
    periods = tuple(
        np.array([[*v], [0.0, 0.0], [0.0, 0.0]], np.float32) for v in [(14, 0), (0, 14)]
    )
    guesses = [
        centre + np.array([dx, dy]) * side for dx in (-0.25, 0, 0.25) for dy in (-0.12, 0.12)
    ]
    drawn_off = [
        np.hypot(*(square_by_outline(grey, g, side, 1.0).mean(axis=0) - centre)) for g in guesses
    ]
    assert max(drawn_off) > 0.2 * side
    for guess in guesses:
        quad = square_by_outline(grey, guess, side, 1.0, periods)
        assert np.hypot(*(quad.mean(axis=0) - centre)) < 0.1 * side


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


def _lone_tile(round_: bool, border: bool) -> tuple[np.ndarray, np.ndarray]:
    """A yellow tile with a pale figure (and a dark printed border just inside its edge)
    on a dark table, blurred as a photo is; and its true cut (full-frame px). Drawn at
    four times the size and shrunk, so its edge lies where its cut says."""
    k = 4
    frame = np.full((240 * k, 320 * k, 3), (40, 30, 25), np.uint8)
    centre, side, turn = np.array([160.0, 120.0]), 40.0, 25.0
    angle = np.radians(turn)
    u = side / 2 * np.array([np.cos(angle), np.sin(angle)])
    v = np.array([-u[1], u[0]])
    box = np.array([-u - v, u - v, u + v, v - u]) + centre

    def big(points: np.ndarray) -> np.ndarray:
        return np.round((points + 0.5) * k - 0.5).astype(np.int32)

    middle = tuple(big(centre))
    if round_:
        cv2.circle(frame, middle, round(side / 2 * k), (30, 190, 220), -1)
        if border:
            cv2.circle(frame, middle, round(0.9 * side / 2 * k), (20, 20, 20), k)
    else:
        cv2.fillConvexPoly(frame, big(box), (30, 190, 220))
        if border:
            inner = centre + (box - centre) * 0.9
            cv2.polylines(frame, [big(inner)], True, (20, 20, 20), k)
    cv2.circle(frame, middle, 8 * k, (235, 240, 245), -1)
    frame = cv2.resize(frame, (320, 240), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(frame, (0, 0), 1.2), box.astype(np.float32)


def _side(quad: np.ndarray) -> float:
    return float(np.mean(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)))


def test_a_lone_tile_cut_wider_than_its_edge_is_fitted_onto_it():
    # the object mask outlines a blurred high-contrast tile a pixel or two wide
    for round_ in (False, True):
        frame, truth = _lone_tile(round_, border=False)
        centre = truth.mean(axis=0)
        wide = (centre + (truth - centre) * 1.12).astype(np.float32)
        fitted = fitted_to_edge(frame, wide, round_)
        assert abs(_side(fitted) / _side(truth) - 1) < 0.03, round_


def test_a_printed_border_just_inside_the_edge_does_not_pull_the_cut_in():
    for round_ in (False, True):
        frame, truth = _lone_tile(round_, border=True)
        fitted = fitted_to_edge(frame, truth, round_)
        # (not to the border, a tenth in: within the step between sizes of the edge)
        assert abs(_side(fitted) / _side(truth) - 1) < 0.05, round_


def test_a_tile_framed_in_its_colour_is_cut_at_its_edge_not_inside_its_frame():
    # white paper framed in blue, a twentieth of the side wide, on a brown table of about
    # the frame's grey: in grey the frame's inner edge is the steepest step by far
    k = 4
    frame = np.full((240 * k, 320 * k, 3), (40, 90, 170), np.uint8)
    centre, side = np.array([160.0, 120.0]), 60.0
    box = cv2.boxPoints(((centre[0], centre[1]), (side, side), 20.0))
    inner = centre + (box - centre) * 0.9
    cv2.fillConvexPoly(frame, np.round((box + 0.5) * k - 0.5).astype(np.int32), (180, 110, 20))
    cv2.fillConvexPoly(frame, np.round((inner + 0.5) * k - 0.5).astype(np.int32), (245, 245, 240))
    frame = cv2.GaussianBlur(cv2.resize(frame, (320, 240), interpolation=cv2.INTER_AREA), (0, 0), 1)
    truth = order_corners(box)
    wide = (centre + (truth - centre) * 1.06).astype(np.float32)
    fitted = fitted_to_edge(frame, wide, False, framed=0.9)  # its paper reaches 0.9
    assert abs(_side(fitted) / _side(truth) - 1) < 0.03


def test_a_token_has_an_outline_all_round_and_a_circle_on_a_printed_crescent_has_not():
    # a black token with its pale printed ring on a grey cloth, and the deposit mat's
    # pale crescent moon on its dark print: the crescent's outer arc is a circle over
    # half a token's rim, a sharp step there and none across the rest
    grey = np.full((200, 320), 120, np.uint8)
    cv2.rectangle(grey, (160, 0), (319, 199), 35, -1)
    radius = 12
    cv2.circle(grey, (80, 100), radius, 30, -1, cv2.LINE_AA)
    cv2.circle(grey, (80, 100), radius - 2, 210, 1, cv2.LINE_AA)
    cv2.circle(grey, (240, 100), radius, 225, -1, cv2.LINE_AA)
    cv2.circle(grey, (246, 96), radius - 1, 35, -1, cv2.LINE_AA)
    grey = cv2.GaussianBlur(_noisy(grey), (0, 0), 0.8)

    def box(x: float, y: float) -> np.ndarray:
        r = radius + 0.5
        return np.array([[x - r, y - r], [x + r, y - r], [x + r, y + r], [x - r, y + r]])

    token, on_crescent = box(80, 100), box(240, 100)
    # the median step alone passes both
    assert has_outline(grey, token, 1.0, True, 12.0, 0.6)
    assert has_outline(grey, on_crescent, 1.0, True, 12.0, 0.6)
    # but only the token's rim steps all round (the least share a real token found by
    # its rim showed on the rendered photos was 0.39)
    assert outline_evenness(grey, token, 1.0, True) > 0.5
    assert outline_evenness(grey, on_crescent, 1.0, True) < 0.2


def test_a_square_searched_over_a_ground_worked_out_for_a_larger_size_is_the_same():
    # edges.outlined tries five sizes at one place: the cloth-free gradient, the most
    # costly part of each search on a check, is worked out once for the largest and
    # serves the smaller ones, which lie further inside its crop
    grey, centre, side = _pale_tile_on_a_check()
    periods = tuple(
        np.array([[*v], [0.0, 0.0], [0.0, 0.0]], np.float32) for v in [(14, 0), (0, 14)]
    )
    guess = centre + np.array([0.25, -0.12]) * side
    ground = outline_ground(grey, guess, 1.15 * side, 1.0, periods)
    for zoom in (0.95, 1.0, 1.05, 1.1, 1.15):
        alone, alone_step = outlined_square(grey, guess, zoom * side, 1.0, periods)
        shared, shared_step = outlined_square(grey, guess, zoom * side, 1.0, periods, ground)
        assert np.abs(shared - alone).max() < 0.5
        assert abs(shared_step - alone_step) <= 0.05 * alone_step


def test_an_outline_search_works_the_cloth_free_gradient_out_once_for_all_its_sizes(
    monkeypatch,
):
    grey, centre, side = _pale_tile_on_a_check()
    periods = tuple(
        np.array([[*v], [0.0, 0.0], [0.0, 0.0]], np.float32) for v in [(14, 0), (0, 14)]
    )
    calls = []

    def counted(*args):
        calls.append(args)
        return cloth_free_gradient(*args)

    monkeypatch.setattr(outlines, "cloth_free_gradient", counted)
    frame = SimpleNamespace(grey=grey, scale=1.0, periods=periods)
    scoring = SimpleNamespace(config=VisionConfig())
    quad = edges.outlined(scoring, frame, centre, side)
    assert quad is not None and np.hypot(*(quad.mean(axis=0) - centre)) < 0.1 * side
    assert len(calls) == 1


def test_the_cloths_own_step_is_read_along_the_border():
    flat = np.full((90, 160), 60, np.uint8)
    assert cloth_step(flat) == 0.0
    rng = np.random.default_rng(0)
    noisy = np.clip(60 + rng.normal(0, 6, flat.shape), 0, 255).astype(np.uint8)
    assert 1.0 < cloth_step(noisy) < 6.0
    # what lies in the middle is not the cloth: a bright block there changes nothing
    blocked = noisy.copy()
    blocked[30:60, 50:110] = 250
    assert cloth_step(blocked) == cloth_step(noisy)
