"""A block whose pieces all match poorly where its outline cut them is cut again on a
lattice of squares (vision.block_refit), and a block's unclear piece on its clear
neighbour's lattice (vision.searches.beside.complete_blocks): faces sharing a checked
ground match a cell sheared or shrunk by the mask's outline poorly, and their own
squares clearly."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.bitenight.tiles import ALL_TILES, Colour, Motif, Tile
from tests.vision.drawn import COLOURS
from vision.block_refit import refitted_blocks
from vision.candidates import Candidate, find_blobs
from vision.frame import Frame
from vision.pieces import Scored
from vision.recogniser import Recogniser
from vision.rectify import Pyramid
from vision.searches.beside import complete_blocks
from vision.tileset import TileSet

PX = 128
#: Each motif's figure, a thick outline polygon in shares of the face.
FIGURES = {
    Motif.VAMPIRE: [(0.5, 0.45), (0.72, 0.3), (0.64, 0.58), (0.5, 0.72), (0.36, 0.58), (0.28, 0.3)],
    Motif.MONK: [(0.5, 0.22), (0.62, 0.45), (0.7, 0.78), (0.3, 0.78), (0.38, 0.45)],
    Motif.MAIDEN: [(0.5, 0.22), (0.74, 0.78), (0.26, 0.78)],
    Motif.COFFIN: [(0.42, 0.2), (0.58, 0.2), (0.68, 0.4), (0.58, 0.8), (0.42, 0.8), (0.32, 0.4)],
    Motif.GARLIC: [(0.5, 0.2), (0.74, 0.5), (0.62, 0.78), (0.38, 0.78), (0.26, 0.5)],
}
SIDE = 64  # a tile's side in the frame (px)
TOP_LEFT = np.array([280.0, 160.0])  # the column's top left corner
COLUMN = [Tile(Colour.RED, Motif.GARLIC, False), Tile(Colour.RED, Motif.MAIDEN, False)]


def _checked(tile: Tile) -> np.ndarray:
    """A 4×4 checker of the tile's colour and cream under a thick black outline figure;
    a heart is a black dot in a white disc in a corner."""
    img = np.full((PX, PX, 3), (225, 240, 245), np.uint8)
    cell = PX // 4
    for r in range(4):
        for c in range(4):
            if (r + c) % 2 == 0:
                img[r * cell : (r + 1) * cell, c * cell : (c + 1) * cell] = COLOURS[tile.colour]
    figure = (np.array(FIGURES[tile.motif]) * PX).astype(np.int32)
    cv2.polylines(img, [figure], True, (20, 20, 20), PX // 16, cv2.LINE_AA)
    if tile.heart:
        cv2.circle(img, (int(0.85 * PX), int(0.15 * PX)), PX // 10, (250, 250, 250), -1)
        cv2.circle(img, (int(0.85 * PX), int(0.15 * PX)), PX // 24, (20, 20, 20), -1)
    return cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)


@pytest.fixture(scope="module")
def checked() -> Recogniser:
    faces = {t: _checked(t) for t in ALL_TILES}
    return Recogniser(TileSet(name="checked", tile_shape="square", tile_size_mm=40, faces=faces))


def _column_frame() -> Frame:
    """A 640×480 frame (the working size: one pixel a working pixel) of a column of two
    upright tiles on a plain table, and its object mask."""
    image = np.full((480, 640, 3), (90, 120, 100), np.uint8)
    for k, tile in enumerate(COLUMN):
        x, y = (TOP_LEFT + np.array([0, k * SIDE])).astype(int)
        image[y : y + SIDE, x : x + SIDE] = cv2.resize(
            _checked(tile)[..., :3], (SIDE, SIDE), interpolation=cv2.INTER_AREA
        )
    image = cv2.GaussianBlur(image, (0, 0), 0.8)
    mask = np.zeros((480, 640), np.uint8)
    x, y = TOP_LEFT.astype(int)
    mask[y : y + 2 * SIDE, x : x + SIDE] = 255
    cv2.circle(mask, (x, y), 3, 0, -1)  # a corner rounded, as the blur rounds it
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return Frame(image, Pyramid(image), 1.0, grey, mask, find_blobs(mask, 30), None, None)


def _split(recogniser: Recogniser, frame: Frame, quads: list[np.ndarray]) -> list[Scored]:
    """The pieces of one split of the column, matched and aligned as the first look does."""
    candidates = [Candidate(q.astype(np.float32), False, 0, 1, 0.95) for q in quads]
    first = recogniser.scoring.score_structure(frame.pyramid, candidates)
    return recogniser.scoring.realigned(frame.pyramid, first)


def _sheared_cells() -> list[np.ndarray]:
    """The column's two cells as a mask that lost a corner at each end outlines them:
    the sides upright, the ends running 12° off square (aligned, they read as garlic
    0.72 and, the maiden, garlic 0.67)."""
    x0, x1 = TOP_LEFT[0], TOP_LEFT[0] + SIDE
    y = TOP_LEFT[1] + np.array([0.0, SIDE, 2.0 * SIDE])
    rise = np.tan(np.radians(12)) * SIDE
    return [
        np.array([[x0, y[k]], [x1, y[k] + rise], [x1, y[k + 1] + rise], [x0, y[k + 1]]])
        for k in range(2)
    ]


def test_a_block_cut_sheared_is_cut_again_on_its_squares(checked: Recogniser):
    frame = _column_frame()
    first = _split(checked, frame, _sheared_cells())
    names = checked.model.group_names
    assert max(s.score for s in first) < checked.config.sure_tile_min  # the first cut fails
    assert [names[s.group] for s in first] == ["garlic", "garlic"]
    again = refitted_blocks(checked.scoring, frame, first, None)
    truth = [TOP_LEFT + np.array([SIDE / 2, SIDE / 2 + k * SIDE]) for k in range(2)]
    found = {names[s.group]: s for s in again}
    assert set(found) == {"garlic", "maiden"}
    for tile, centre in zip(COLUMN, truth, strict=True):
        piece = found[tile.motif.value]
        assert piece.score >= checked.config.sure_tile_min
        assert np.hypot(*(np.array(piece.candidate.center) - centre)) < 0.1 * SIDE


def test_a_block_with_a_clear_piece_is_not_cut_again(checked: Recogniser):
    frame = _column_frame()
    x0, y0 = TOP_LEFT
    squares = [
        np.array([[x0, y], [x0 + SIDE, y], [x0 + SIDE, y + SIDE], [x0, y + SIDE]])
        for y in (y0, y0 + SIDE)
    ]
    first = _split(checked, frame, squares)
    assert max(s.score for s in first) >= checked.config.sure_tile_min
    assert refitted_blocks(checked.scoring, frame, first, None) == []


def test_an_unclear_tile_of_a_block_is_cut_again_on_its_clear_neighbours_lattice(
    checked: Recogniser,
):
    frame = _column_frame()
    x0, y0 = TOP_LEFT
    rise = np.tan(np.radians(10)) * SIDE  # the lower cell cut 10° off square
    top = np.array([[x0, y0], [x0 + SIDE, y0], [x0 + SIDE, y0 + SIDE], [x0, y0 + SIDE]])
    left, right = [x0, y0 + SIDE], [x0 + SIDE, y0 + SIDE + rise]
    lower = np.array([left, right, [right[0], right[1] + SIDE], [left[0], left[1] + SIDE]])
    first = _split(checked, frame, [top, lower])
    names = checked.model.group_names
    clear, anchor = checked.config.sure_tile_min, checked.config.size_anchor_score
    assert first[0].score >= clear and names[first[0].group] == "garlic"
    assert anchor <= first[1].score < clear and names[first[1].group] != "maiden"
    block = complete_blocks(checked.scoring, frame, first)
    centre = TOP_LEFT + np.array([SIDE / 2, 1.5 * SIDE])
    [piece] = [s for s in block if np.hypot(*(np.array(s.candidate.center) - centre)) < 0.3 * SIDE]
    assert names[piece.group] == "maiden" and piece.score >= clear
    assert np.hypot(*(np.array(piece.candidate.center) - centre)) < 0.1 * SIDE
