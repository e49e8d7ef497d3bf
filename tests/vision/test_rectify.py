"""Rectification: one mapping from quadrilateral to patch for templates and candidates."""

from __future__ import annotations

import cv2
import numpy as np

from companion.bitenight.tiles import Tile
from vision.colour import upright
from vision.model import turned_quad
from vision.rectify import (
    Pyramid,
    flatten_alpha,
    full_quad,
    longest_side,
    order_corners,
    rectify,
)
from vision.tileset import TileSet


def test_a_quarter_turn_of_the_quad_is_exactly_a_quarter_turn_of_the_patch(square_set: TileSet):
    face = flatten_alpha(square_set.faces[Tile.parse("red-coffin-heart")])
    upright_patch = rectify(face, full_quad(*face.shape[1::-1]), 40)
    for turn in (90.0, 180.0, 270.0):
        turned = rectify(face, turned_quad(face.shape[1], face.shape[0], turn, 1.0), 40)
        assert np.array_equal(upright(turned, turn), upright_patch)


def test_corners_are_put_clockwise_from_the_top_left():
    shuffled = np.array([[10, 10], [0, 10], [10, 0], [0, 0]], np.float32)
    assert order_corners(shuffled).tolist() == [[0, 0], [10, 0], [10, 10], [0, 10]]


def test_the_pyramid_cuts_a_large_tile_like_a_direct_cut():
    rng = np.random.default_rng(0)
    image = np.kron(rng.integers(0, 255, (5, 5, 3)), np.ones((64, 64, 1))).astype(np.uint8)
    quad = np.array([[32, 32], [288, 32], [288, 288], [32, 288]], np.float32)
    direct = rectify(image, quad, 40).astype(float)
    (from_pyramid,) = Pyramid(image).rectify_many([quad], 40).astype(float)
    assert np.abs(direct - from_pyramid).mean() < 6


def test_many_cuts_at_once_match_direct_cuts_one_at_a_time():
    rng = np.random.default_rng(1)
    image = cv2.GaussianBlur((rng.random((480, 640, 3)) * 255).astype(np.uint8), (0, 0), 4)
    pyramid = Pyramid(image)
    quads = []
    for side in (30, 45, 70, 110, 160):  # from each level of the pyramid
        angle = rng.uniform(0, 2 * np.pi)
        u = side / 2 * np.array([np.cos(angle), np.sin(angle)])
        v = np.array([-u[1], u[0]])
        c = rng.uniform(150, 300, 2)
        quads.append(np.array([c - u - v, c + u - v, c + u + v, c - u + v], np.float32))
    many = pyramid.rectify_many(quads, 40)
    assert many.shape == (5, 40, 40, 3)
    for quad, cut in zip(quads, many, strict=True):
        one = rectify(image, quad, 40)
        assert np.abs(one.astype(int) - cut.astype(int)).mean() < 2.0


def test_cutting_from_the_four_channel_copy_gives_exactly_the_colour_frames_pixels():
    """rectify_many samples a BGRA copy of each level for speed; every patch must hold
    the very bytes a bilinear remap of the BGR level gives, off the frame's edge too."""
    rng = np.random.default_rng(2)
    image = cv2.GaussianBlur((rng.random((360, 640, 3)) * 255).astype(np.uint8), (0, 0), 2)
    pyramid = Pyramid(image)
    quads = []
    for side in (20, 41, 64, 90, 150, 230):  # several levels, some past the frame's edge
        for _ in range(3):
            angle = rng.uniform(0, 2 * np.pi)
            u = side / 2 * np.array([np.cos(angle), np.sin(angle)])
            v = np.array([-u[1], u[0]])
            c = rng.uniform(-20, 660, 2)
            quads.append(np.array([c - u - v, c + u - v, c + u + v, c - u + v], np.float32))
    edge = 40 - 0.5
    target = np.array([[-0.5, -0.5], [edge, -0.5], [edge, edge], [-0.5, edge]], np.float32)
    ys, xs = np.mgrid[0:40, 0:40].astype(np.float32)
    grid = np.stack([xs.ravel(), ys.ravel(), np.ones(1600, np.float32)])
    cuts = pyramid.rectify_many(quads, 40)
    for quad, cut in zip(quads, cuts, strict=True):
        level = pyramid._level_for(longest_side(quad), 40)
        homography = cv2.getPerspectiveTransform(target, quad / 2**level - 0.5)
        mapped = homography.astype(np.float32) @ grid
        map_x, map_y = ((mapped[:2] / mapped[2]).reshape(2, 40, 40)).astype(np.float32)
        expected = cv2.remap(
            pyramid.levels[level], map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        assert np.array_equal(cut, expected)
