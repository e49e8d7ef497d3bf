"""The photo renderer: seeded, with truth that lands on the tiles it describes."""

from __future__ import annotations

import cv2
import numpy as np

from vision.synth.camera import CameraEffects, kelvin_gains, photograph, view_homography
from vision.synth.check_styles import STYLES
from vision.synth.regression import style_tileset
from vision.synth.scene import render_photo
from vision.tileset import TileSet


def test_the_same_seed_renders_the_same_photo(square_set: TileSet):
    a = render_photo(square_set, np.random.default_rng(5), level=2, n_tiles=6)
    b = render_photo(square_set, np.random.default_rng(5), level=2, n_tiles=6)
    assert np.array_equal(a.image, b.image) and [t.tile for t in a.tiles] == [
        t.tile for t in b.tiles
    ]


def test_truth_centres_lie_inside_their_tiles(square_set: TileSet):
    photo = render_photo(square_set, np.random.default_rng(3), level=1, n_tiles=10)
    assert photo.image.shape == (720, 1280, 3) and len(photo.tiles) == 10
    for truth in photo.tiles:
        assert np.allclose(truth.corners.mean(axis=0), truth.center, atol=0.05 * photo.tile_px)


def test_token_rows_have_face_up_ends_and_face_down_middles(round_set: TileSet):
    photo = render_photo(round_set, np.random.default_rng(4), level=0, n_tiles=0, token_rows=1)
    faces = [t.face_up for t in photo.tokens]
    assert faces[0] and faces[-1] and not any(faces[1:-1])
    assert all((t.colour is None) == (not t.face_up) for t in photo.tokens)


def test_a_tilted_camera_keeps_straight_lines_straight():
    effects = CameraEffects(tilt_deg=35, tilt_direction_deg=20, roll_deg=10)
    homography = view_homography((800, 600), (1280, 720), effects)
    line = np.array([[[0.0, 0.0]], [[400.0, 300.0]], [[800.0, 600.0]]])

    mapped = cv2.perspectiveTransform(line, homography)[:, 0]
    u, v = mapped[1] - mapped[0], mapped[2] - mapped[0]
    assert abs(u[0] * v[1] - u[1] * v[0]) < 1e-6 * float(v @ v)


def test_a_warm_lamp_raises_red_and_lowers_blue():
    blue, green, red = kelvin_gains(2700)
    assert red > green > blue and green == 1.0
    assert np.allclose(kelvin_gains(6500), 1.0)


def test_photograph_fits_the_content_in_the_frame():
    scene = np.full((400, 600, 3), 90, np.uint8)
    photo, homography = photograph(scene, CameraEffects(fill=0.5), (320, 180))
    corners = np.array([[[0.0, 0.0]], [[600.0, 400.0]]])

    mapped = cv2.perspectiveTransform(corners, homography)[:, 0]
    assert photo.shape == (180, 320, 3)
    assert (mapped >= 0).all() and mapped[1, 0] <= 320 and mapped[1, 1] <= 180


def test_tiles_laid_apart_are_wholly_in_view(square_set: TileSet):
    photo = render_photo(square_set, np.random.default_rng(3), level=1, n_tiles=10)
    # (tiles laid edge to edge share a millimetre's row of pixels at most)
    assert all(t.visible > 0.98 for t in photo.tiles)


def test_a_tile_the_deposit_mat_is_laid_over_is_known_to_be_hidden(square_set: TileSet):
    # a close-up's table is sized for its few tiles, and the mat laid after them may
    # cover some: the third evaluation close-up at the hard level has three under it
    from vision.evaluate import evaluation_photo

    photo = evaluation_photo(square_set, 2024, 2, 2, close_ups=True)
    hidden = [t for t in photo.tiles if t.visible < 0.1]
    assert len(hidden) == 3
    # where a hidden tile's face should be, the photo shows something else
    for truth in hidden:
        x, y = (round(v) for v in truth.center)
        face = cv2.resize(square_set.faces[truth.tile][..., :3], (9, 9)).astype(float)
        seen = cv2.resize(photo.image[y - 20 : y + 20, x - 20 : x + 20], (9, 9)).astype(float)
        assert np.abs(face - seen).mean() > 30


def test_the_check_styles_are_valid_tile_sets_of_their_own_shape(tmp_path):
    # the styles drawn unlike the samples, to measure recognition on unseen art
    for name in STYLES:
        loaded = style_tileset(name, tmp_path)
        assert loaded.tile_shape == STYLES[name][0]
        assert len(loaded.faces) == 50 and loaded.has_tokens
