"""A block of touching tiles is completed along the lattice of its recognised tiles."""

from __future__ import annotations

import numpy as np
import pytest

from vision.evaluate import evaluation_photo, score_photo
from vision.lattice import fit_lattice, lattice_cells
from vision.recogniser import Recogniser


def _tile(centre: tuple[float, float], side: float = 40.0, angle_deg: float = 0.0) -> np.ndarray:
    a = np.radians(angle_deg)
    rotation = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    half = side / 2
    corners = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    return (corners @ rotation.T + centre).astype(np.float32)


def _on_lattice(i: int, j: int, pitch: float = 42.0, angle_deg: float = 20.0) -> tuple:
    a = np.radians(angle_deg)
    u = pitch * np.array([np.cos(a), np.sin(a)])
    v = pitch * np.array([-np.sin(a), np.cos(a)])
    c = np.array([300.0, 200.0]) + i * u + j * v
    return float(c[0]), float(c[1])


def test_tiles_in_rows_and_columns_give_the_step_including_the_gap() -> None:
    quads = [_tile(_on_lattice(i, j), angle_deg=20) for i, j in [(0, 0), (1, 0), (0, 1), (2, 1)]]
    lattice, taken = fit_lattice(quads)
    assert sorted(taken) == [(0, 0), (0, 1), (1, 0), (2, 1)]
    predicted = lattice.quad(2, 0).mean(axis=0)
    assert np.allclose(predicted, _on_lattice(2, 0), atol=0.5)
    # the cell keeps the tile's own size, not the pitch
    assert np.linalg.norm(lattice.quad(2, 0)[1] - lattice.quad(2, 0)[0]) == pytest.approx(40.0)


def test_a_single_row_gives_its_step_and_stretches_the_other_direction_alike() -> None:
    quads = [_tile(_on_lattice(i, 0), angle_deg=20) for i in range(3)]
    lattice, _ = fit_lattice(quads)
    assert np.allclose(lattice.quad(0, 1).mean(axis=0), _on_lattice(0, 1), atol=0.5)


def test_a_tile_off_the_lattice_is_left_out() -> None:
    quads = [_tile(_on_lattice(0, 0), angle_deg=20), _tile(_on_lattice(1, 0), angle_deg=20)]
    # half a step along both the row and the column: between four cells
    between = (np.array(_on_lattice(0, 0)) + np.array(_on_lattice(1, 1))) / 2
    stray = _tile((float(between[0]), float(between[1])), angle_deg=20)
    _, taken = fit_lattice([*quads, stray])
    assert sorted(taken) == [(0, 0), (1, 0)]


def test_cells_lie_within_the_block_and_skip_the_recognised_ones() -> None:
    lattice, taken = fit_lattice([_tile((100.0, 100.0), angle_deg=0)])
    cells = lattice_cells(lattice, (50.0, 50.0, 190.0, 150.0), taken)
    # centres at x = 60, 100, 140, 180 and y = 60, 100, 140, less the recognised tile
    assert len(cells) == 11
    assert (0, 0) not in cells and (3, 0) not in cells and (0, 2) not in cells


def test_a_lattice_far_finer_than_the_block_gives_no_cells() -> None:
    lattice, taken = fit_lattice([_tile((100.0, 100.0), side=2.0)])
    assert lattice_cells(lattice, (0.0, 0.0, 640.0, 480.0), taken) == []


def _tilted(point: tuple[float, float]) -> np.ndarray:
    """The table seen 35° from straight down, turned by 30°: an affine view."""
    a = np.radians(30)
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    squash = np.diag([1.0, np.cos(np.radians(35))])
    return turn @ squash @ np.asarray(point, np.float64) + [320.0, 240.0]


def _disc(i: int, j: int, pitch: float = 41.0, radius: float = 20.0) -> np.ndarray:
    """The ellipse box of a round tile on the tilted table (its box turns with the view)."""
    centre = np.array([i * pitch, j * pitch])
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * radius + centre
    return np.array([_tilted(c) for c in corners], np.float32)


def test_round_tiles_in_a_row_give_the_columns_at_right_angles_on_the_table() -> None:
    fitted = fit_lattice([_disc(0, 0), _disc(1, 0), _disc(2, 0)], round_=True)
    assert fitted is not None
    lattice, taken = fitted
    assert sorted(taken) == [(0, 0), (1, 0), (2, 0)]
    # the next row lies one step across on the table (which side counts as +1 is free)
    beside = [lattice.quad(1, j).mean(axis=0) for j in (-1, 1)]
    assert min(np.linalg.norm(b - _tilted((41.0, 41.0))) for b in beside) < 0.5


def test_a_lone_round_tile_says_nothing_about_rows() -> None:
    assert fit_lattice([_disc(0, 0)], round_=True) is None


def test_many_points_are_placed_exactly_as_one_at_a_time() -> None:
    rng = np.random.default_rng(5)
    lattice, _ = fit_lattice([_tile(_on_lattice(i, j), angle_deg=20) for i, j in [(0, 0), (1, 1)]])
    points = rng.normal(size=(9, 2)) * 300
    together = lattice.indices_of(points)
    for point, row in zip(points, together, strict=True):
        assert np.array_equal(lattice.index_of(point), row)


def test_an_anchor_cut_off_its_place_does_not_stretch_the_lattice() -> None:
    # two rows of three; one tile cut a fifth of a step off its cell (along a thick
    # tile's side): carried four rows on, a plain fit puts cells a tenth of a step off
    cells = [(0, 0), (1, 0), (2, 0), (0, -1), (1, -1), (2, -1)]
    centres = [np.array(_on_lattice(i, j)) for i, j in cells]
    centres[-1] = centres[-1] + np.array([6.0, -6.0])
    lattice, taken = fit_lattice([_tile((float(c[0]), float(c[1])), angle_deg=20) for c in centres])
    assert (2, -1) not in taken
    assert np.allclose(lattice.quad(0, -4).mean(axis=0), _on_lattice(0, -4), atol=1.0)


def test_anchors_a_little_off_their_cells_are_all_kept() -> None:
    cells = [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1)]
    wobble = [(1.0, -0.5), (-0.8, 0.6), (0.5, 0.9), (-0.6, -1.0), (0.7, 0.2)]
    quads = [
        _tile((_on_lattice(i, j)[0] + dx, _on_lattice(i, j)[1] + dy), angle_deg=20)
        for (i, j), (dx, dy) in zip(cells, wobble, strict=True)
    ]
    _, taken = fit_lattice(quads)
    assert sorted(taken) == sorted(cells)


def test_a_block_is_completed_on_the_lattice_of_its_anchors_in_place(square_set) -> None:
    # real level, the third photo of nocturne: a block of fifteen whose six anchors
    # span two rows, one cut 20 px off its cell; the lattice through all six cut the
    # far three rows half a tile off, and seven tiles were missed
    photo = evaluation_photo(square_set, 2024, 3, 2)
    score = score_photo(photo, Recogniser(square_set).detect(photo.image), 3, 2)
    assert score.tiles_right == score.tiles == 15
