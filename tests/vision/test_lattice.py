"""A block of touching tiles is completed along the lattice of its recognised tiles."""

from __future__ import annotations

import numpy as np
import pytest

from vision.lattice import fit_lattice, lattice_cells


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
