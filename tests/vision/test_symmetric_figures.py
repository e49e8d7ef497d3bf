"""Round tiles whose figure looks the same turned (a ring, a star): the heart is looked
for in every turn the figure allows (vision.recogniser, colour stage)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.bitenight.tiles import ALL_TILES, Colour, Motif
from vision.recogniser import Recogniser
from vision.synth.art import with_disc_alpha
from vision.synth.scene import paste
from vision.tileset import TileSet

PX = 128
INK = (40, 40, 40)
PAPER = (215, 230, 238)
COLOURS = {
    Colour.BLUE: (170, 90, 30),
    Colour.RED: (40, 40, 200),
    Colour.YELLOW: (40, 200, 235),
    Colour.GREEN: (70, 160, 60),
    Colour.PURPLE: (150, 60, 140),
}


def _star(centre: float, outer: float, inner: float) -> np.ndarray:
    angles = np.linspace(-np.pi / 2, 1.5 * np.pi, 10, endpoint=False)
    radii = np.where(np.arange(10) % 2 == 0, outer, inner)
    return np.stack([centre + radii * np.cos(angles), centre + radii * np.sin(angles)], 1)


def _coin(colour: tuple[int, int, int], motif: Motif, heart: bool) -> np.ndarray:
    """A pale coin with a coloured figure: a ring (coffin), a five-pointed star (vampire),
    a diamond (maiden), a crescent (monk) or a barred triangle (garlic); the heart is a
    small dark heart outline near the rim."""
    n, c = PX * 4, PX * 2
    img = np.full((n, n, 3), PAPER, np.uint8)
    cv2.circle(img, (c, c), int(0.47 * n), (60, 70, 90), n // 50, cv2.LINE_AA)
    if motif == Motif.COFFIN:
        cv2.circle(img, (c, c), int(0.3 * n), colour, int(0.09 * n), cv2.LINE_AA)
    elif motif == Motif.VAMPIRE:
        star = _star(c, 0.34 * n, 0.15 * n).astype(np.int32)
        cv2.fillPoly(img, [star], colour, cv2.LINE_AA)
    elif motif == Motif.MAIDEN:
        diamond = c + n * np.array([[0, -0.33], [0.28, 0], [0, 0.33], [-0.28, 0]])
        cv2.fillPoly(img, [diamond.astype(np.int32)], colour, cv2.LINE_AA)
    elif motif == Motif.MONK:
        cv2.circle(img, (c, c), int(0.3 * n), colour, -1, cv2.LINE_AA)
        cv2.circle(img, (int(c + 0.12 * n), int(c - 0.05 * n)), int(0.26 * n), PAPER, -1)
    else:
        triangle = c + n * np.array([[0, -0.33], [0.3, 0.25], [-0.3, 0.25]])
        cv2.fillPoly(img, [triangle.astype(np.int32)], colour, cv2.LINE_AA)
        cv2.line(img, (c, int(c - 0.1 * n)), (c, int(c + 0.15 * n)), PAPER, n // 30, cv2.LINE_AA)
    if heart:
        t = np.linspace(0, 2 * np.pi, 60)
        x, y = 16 * np.sin(t) ** 3, -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t))
        r = 0.07 * n
        points = np.stack([c + x / 17 * r, 0.86 * n + y / 17 * r], 1).astype(np.int32)
        cv2.polylines(img, [points], True, INK, n // 80, cv2.LINE_AA)
    small = cv2.resize(img, (PX, PX), interpolation=cv2.INTER_AREA)
    return with_disc_alpha(cv2.cvtColor(small, cv2.COLOR_BGR2BGRA))


@pytest.fixture(scope="module")
def coins() -> Recogniser:
    faces = {t: _coin(COLOURS[t.colour], t.motif, t.heart) for t in ALL_TILES}
    return Recogniser(TileSet(name="coins", tile_shape="round", tile_size_mm=40, faces=faces))


def _group(recogniser: Recogniser, motif: Motif) -> int:
    return recogniser.model.group_names.index(motif.value)


def test_a_ring_looks_the_same_in_every_turn_and_a_crescent_in_none(coins: Recogniser):
    alike = coins.naming.alike_turns
    assert len(alike[_group(coins, Motif.COFFIN)]) > 30
    # a crescent only looks alike a template step either way (the step's blur)
    assert all(min(t, 360 - t) <= 20 for t in alike.get(_group(coins, Motif.MONK), ()))


def test_a_five_pointed_star_looks_the_same_every_fifth_of_a_turn(coins: Recogniser):
    alike = coins.naming.alike_turns[_group(coins, Motif.VAMPIRE)]
    assert {72.0, 144.0, 216.0, 288.0} <= set(alike)


def test_the_heart_of_a_ring_is_found_whichever_way_the_coin_lies(coins: Recogniser):
    # rings and stars, with and without a heart, each turned so that the heart lies
    # elsewhere than where the figure's own turn would put it
    table = np.full((720, 1280, 3), (60, 55, 50), np.uint8)
    laid = []
    turns = (25.0, 100.0, 160.0, 230.0, 300.0, 65.0)
    names = (
        "red-coffin-heart",
        "blue-coffin",
        "green-vampire-heart",
        "yellow-coffin-heart",
        "purple-vampire",
        "blue-vampire-heart",
    )
    for k, (name, turn) in enumerate(zip(names, turns, strict=True)):
        tile = next(t for t in ALL_TILES if str(t) == name)
        centre = np.array([200.0 + 170 * k, 360.0 + 60 * math.sin(k)])
        face = _coin(COLOURS[tile.colour], tile.motif, tile.heart)
        paste(table, face, centre, np.array([110.0, 110.0]), turn)
        laid.append((tile, centre))
    noise = np.random.default_rng(3).normal(0, 2, table.shape)
    table = np.clip(cv2.GaussianBlur(table, (0, 0), 0.8) + noise, 0, 255).astype(np.uint8)
    result = coins.detect(table)
    for tile, centre in laid:
        read = [t.tile for t in result.tiles if np.hypot(*np.subtract(t.center, centre)) < 20]
        assert read == [tile], str(tile)


def test_a_small_coins_turn_is_chosen_where_its_heart_shows_not_where_it_fits_best(
    coins: Recogniser,
):
    # small (60 px), soft, noisy and squeezed by a tilted table: the cut's own error
    # moves the overall fit from one allowed turn to the next more than a heart a few
    # pixels wide does, so only the comparison of the twins where they differ finds the
    # heart's turn (and a plain coin still reads plain in all of them)
    rng = np.random.default_rng(2)
    figures = [t for t in ALL_TILES if t.motif in (Motif.COFFIN, Motif.VAMPIRE, Motif.MAIDEN)]
    picked = [figures[i] for i in rng.choice(len(figures), 12, replace=False)]
    table = np.full((720, 1280, 3), (60, 55, 50), np.uint8)
    laid = []
    for k, tile in enumerate(picked):
        centre = np.array([150.0 + 190 * (k % 6), 200.0 + 300 * (k // 6)])
        face = _coin(COLOURS[tile.colour], tile.motif, tile.heart)
        paste(table, face, centre, np.array([60.0, 51.0]), float(rng.uniform(0, 360)))
        laid.append((tile, centre))
    noise = rng.normal(0, 4, table.shape)
    table = np.clip(cv2.GaussianBlur(table, (0, 0), 1.2) + noise, 0, 255).astype(np.uint8)
    result = coins.detect(table)
    assert sum(tile.heart for tile, _ in laid) >= 4
    for tile, centre in laid:
        read = [t.tile for t in result.tiles if np.hypot(*np.subtract(t.center, centre)) < 20]
        assert read == [tile], str(tile)
