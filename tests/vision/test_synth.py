"""The photo renderer: seeded, with truth that lands on the tiles it describes."""

from __future__ import annotations

from dataclasses import fields, replace

import cv2
import numpy as np
import pytest

from companion.bitenight.tiles import Colour, Motif, Tile
from vision.synth.camera import (
    CameraEffects,
    kelvin_gains,
    photograph,
    random_effects,
    view_homography,
)
from vision.synth.check_styles import (
    STYLES,
    _cabochon,
    _doily_tile,
    _marquetry,
    _neon_tile,
    _riso,
    _shrunk_figure,
    _wax,
)
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


def test_a_few_tiles_are_seen_at_a_table_cameras_scale_not_as_a_close_up(square_set: TileSet):
    # the table and the view are those of all fifteen tiles: two shown ones stay small
    alone = render_photo(square_set, np.random.default_rng(5), n_tiles=2)
    among = render_photo(square_set, np.random.default_rng(5), n_tiles=15, shown_tiles=2)
    table = render_photo(square_set, np.random.default_rng(5), n_tiles=15)
    assert len(among.tiles) == 2
    assert among.tile_px < 1.5 * table.tile_px < alone.tile_px


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


@pytest.mark.parametrize("name", sorted(STYLES))
def test_the_check_styles_are_valid_tile_sets_of_their_own_shape(name, tmp_path):
    # the styles drawn unlike the samples, to measure recognition on unseen art; one test
    # a style, so that the parallel runners share them out and a failure names its style
    loaded = style_tileset(name, tmp_path)
    assert loaded.tile_shape == STYLES[name][0]
    assert len(loaded.faces) == 50 and loaded.has_tokens


def test_marquetry_grounds_are_another_piece_of_wood_on_every_face():
    # session 22's square style: the grain of the ground differs from face to face, as
    # real veneer does, so no two faces of a motif share their ground
    a = Tile(Colour.RED, Motif.MONK, False)
    b = Tile(Colour.BLUE, Motif.MONK, False)
    faces = [_marquetry(t)[..., :3].astype(float) for t in (a, b)]
    ground = ~_shrunk_figure(Motif.MONK, 160, 0.8)
    ground[:24] = ground[-24:] = False
    ground[:, :24] = ground[:, -24:] = False
    assert np.abs(faces[0] - faces[1])[ground].mean() > 8


def test_doily_shows_its_colour_only_through_the_lace():
    # session 22's round style: a white doily on a card of the colour, which shows only
    # past the scallops, through the holes and in the figure's pricks
    face = _doily_tile(Tile(Colour.RED, Motif.VAMPIRE, False))
    inside = face[..., 3] == 255
    bgr = face[..., :3].astype(int)
    red = (bgr[..., 2] - bgr[..., :2].max(axis=2) > 60) & inside
    assert 0.05 < red.sum() / inside.sum() < 0.3


def test_riso_prints_its_colour_off_register_another_way_on_every_face():
    # session 23's square style: the colour drum's block sits in its paper margin a little
    # off, and not the same way twice, so the faces of one figure differ by where it lies
    def margins(tile: Tile) -> tuple[int, ...]:
        bgr = _riso(tile)[..., :3].astype(int)
        coloured = bgr.max(axis=2) - bgr.min(axis=2) > 60
        rows, cols = np.nonzero(coloured.any(axis=1))[0], np.nonzero(coloured.any(axis=0))[0]
        return rows[0], 159 - rows[-1], cols[0], 159 - cols[-1]

    a = margins(Tile(Colour.RED, Motif.MONK, False))
    b = margins(Tile(Colour.BLUE, Motif.MONK, False))
    assert all(4 <= m <= 18 for m in a + b)
    assert max(abs(x - y) for x, y in zip(a, b, strict=True)) >= 2


def test_wax_blobs_are_never_round_and_never_the_same_outline():
    # session 23's round style: a poured blob of sealing wax, so the face's outline wobbles
    # and runs, another way on every face, inside the round tile's disc
    def radii(tile: Tile) -> np.ndarray:
        alpha = _wax(tile)[..., 3]
        angles = np.linspace(0, 2 * np.pi, 72, endpoint=False)
        steps = np.arange(0, 80, 0.5)
        xs = 79.5 + np.cos(angles)[:, None] * steps
        ys = 79.5 + np.sin(angles)[:, None] * steps
        inside = alpha[ys.round().astype(int), xs.round().astype(int)] > 127
        return inside.sum(axis=1) * 0.5

    a = radii(Tile(Colour.GREEN, Motif.COFFIN, True))
    b = radii(Tile(Colour.GREEN, Motif.COFFIN, False))
    assert a.max() - a.min() > 4 and a.max() <= 80
    assert np.abs(a - b).max() > 2


def test_neon_lights_only_the_figures_outline_on_a_dark_wall():
    # session 25's square style: the figure is a glowing tube bent along its outline, so
    # the colour lies in a thin bright line and its glow, the wall and the figure's inside
    # near black
    for tile in (Tile(Colour.BLUE, Motif.COFFIN, False), Tile(Colour.YELLOW, Motif.MONK, True)):
        value = _neon_tile(tile)[..., :3].max(axis=2).astype(int)
        figure = _shrunk_figure(tile.motif, 160, 0.8).astype(np.uint8)
        inside = cv2.erode(figure, np.ones((9, 9), np.uint8)) > 0
        square = np.ones((3, 3), np.uint8)
        outline = (cv2.dilate(figure, square) - cv2.erode(figure, square)) > 0
        assert value[:12, :12].mean() < 45 and value[inside].mean() < 70
        assert (value[outline] > 180).mean() > 0.85


def test_cabochon_glass_magnifies_the_figure_and_bends_it_another_way_on_every_face():
    # session 25's round style: a glass dome over a print, laid a little off its middle,
    # so the figure shows larger than printed and not the same shape on any two faces
    def ink(tile: Tile) -> np.ndarray:
        return _cabochon(tile)[..., :3].max(axis=2) < 60

    a = ink(Tile(Colour.RED, Motif.COFFIN, False))
    b = ink(Tile(Colour.GREEN, Motif.COFFIN, False))
    printed = _shrunk_figure(Motif.COFFIN, 160, 0.5).sum()
    assert a.sum() > 1.6 * printed and b.sum() > 1.6 * printed
    assert (a ^ b).sum() > 0.1 * a.sum()


#: What the real level adds to the hard one (each neutral by default).
REAL_CAMERA = (
    "thickness_mm",
    "distortion",
    "vignette",
    "glare",
    "glare_at",
    "glare_radius",
    "second_kelvin",
    "sharpen",
)


def test_the_real_level_is_the_hard_level_with_a_real_camera_added():
    hard = random_effects(np.random.default_rng(5), 2)
    real = random_effects(np.random.default_rng(5), 3)
    neutral = CameraEffects()
    assert {f.name for f in fields(CameraEffects)} >= set(REAL_CAMERA)
    assert replace(real, **{name: getattr(neutral, name) for name in REAL_CAMERA}) == hard
    assert real.thickness_mm > 0 and real.distortion != 0


def _face_fit(photo: np.ndarray, corners: np.ndarray, face: np.ndarray) -> float:
    """How well the photo, cut along ``corners``, correlates with the upright face."""
    square = np.float32([[0, 0], [63, 0], [63, 63], [0, 63]])
    warp = cv2.getPerspectiveTransform(corners.astype(np.float32), square)
    cut = cv2.warpPerspective(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY), warp, (64, 64))
    grey = cv2.cvtColor(cv2.resize(face[..., :3], (64, 64), interpolation=cv2.INTER_AREA), 6)
    return float(np.corrcoef(cut.ravel(), grey.ravel())[0, 1])


@pytest.mark.parametrize("real", [{"thickness_mm": 3.0}, {"distortion": -0.09}])
def test_the_truth_follows_thick_tiles_and_a_bent_lens(square_set: TileSet, real: dict):
    """A face stands its thickness off the cloth, and a webcam's lens bends the frame:
    the truth must follow both, or every real-level figure would be wrong."""
    flat = CameraEffects(tilt_deg=35, tilt_direction_deg=30)
    layout = dict(level=0, n_tiles=12, layout="spread", distractors=False)
    photo = render_photo(
        square_set, np.random.default_rng(8), effects=replace(flat, **real), **layout
    )
    naive = render_photo(square_set, np.random.default_rng(8), effects=flat, **layout)
    for truth, unmoved in zip(photo.tiles, naive.tiles, strict=True):
        face = square_set.faces[truth.tile]
        fit = _face_fit(photo.image, truth.corners, face)
        assert fit > 0.85 and fit > _face_fit(photo.image, unmoved.corners, face) + 0.2
