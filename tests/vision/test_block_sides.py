"""A block's sides are placed on the photo's edges where the object mask lost them."""

from __future__ import annotations

import cv2
import numpy as np

from vision.block_sides import bent_outline_box, sides_on_edges
from vision.candidates import block_outline, find_blobs

TILE = 60
LEFT, TOP, COLS, ROWS = 100, 80, 4, 3
TRUE = np.array(
    [
        [LEFT, TOP],
        [LEFT + COLS * TILE, TOP],
        [LEFT + COLS * TILE, TOP + ROWS * TILE],
        [LEFT, TOP + ROWS * TILE],
    ],
    np.float32,
)


def _block_of_halved_tiles() -> tuple[np.ndarray, np.ndarray]:
    """A grey photo of a block of square tiles, each cut corner to corner into a pale
    half and a half a little darker than the table, and the object mask of it that lost
    the dark halves of the left column (as it does on a table of their colour)."""
    rng = np.random.default_rng(3)
    grey = np.full((360, 480), 110, np.float32)
    mask = np.zeros((360, 480), np.uint8)
    cv2.rectangle(mask, (LEFT, TOP), (LEFT + COLS * TILE - 1, TOP + ROWS * TILE - 1), 255, -1)
    for row in range(ROWS):
        for col in range(COLS):
            x, y = LEFT + col * TILE, TOP + row * TILE
            tl, tr, br, bl = (x, y), (x + TILE, y), (x + TILE, y + TILE), (x, y + TILE)
            cv2.fillConvexPoly(grey, np.array([tl, tr, br, bl]), 90)
            pale = [tl, tr, br] if (row + col) % 2 else [tl, br, bl]
            cv2.fillConvexPoly(grey, np.array(pale), 190)
    # the bottom left tile's dark half ends the mask a third of a tile in
    cv2.rectangle(mask, (LEFT, TOP + 2 * TILE), (LEFT + TILE // 3, TOP + 3 * TILE), 0, -1)
    grey = cv2.GaussianBlur(grey, (0, 0), 1.2) + rng.normal(0, 3, grey.shape)
    return np.clip(grey, 0, 255).astype(np.uint8), mask


def test_a_side_the_mask_lost_is_placed_on_the_photos_edge():
    grey, mask = _block_of_halved_tiles()
    blob = find_blobs(mask, 30)[0]
    as_masked = block_outline(blob)
    assert np.abs(as_masked - TRUE).max() > 0.1 * TILE  # the mask's outline is sheared
    assert np.abs(sides_on_edges(as_masked, mask, grey) - TRUE).max() < 3


def test_a_block_the_mask_holds_whole_keeps_its_outline():
    grey, _ = _block_of_halved_tiles()
    mask = np.zeros_like(grey)
    cv2.rectangle(mask, (LEFT, TOP), (LEFT + COLS * TILE - 1, TOP + ROWS * TILE - 1), 255, -1)
    cv2.circle(mask, (LEFT, TOP), 3, 0, -1)  # a corner rounded, as the blur rounds it
    outline = block_outline(find_blobs(mask, 30)[0])
    assert np.array_equal(sides_on_edges(outline, mask, grey), outline)


def test_a_row_of_discs_keeps_its_outline():
    grey = np.full((200, 400), 110, np.uint8)
    mask = np.zeros_like(grey)
    for x in (80, 140, 200, 260):
        cv2.circle(grey, (x, 100), 30, 200, -1)
        cv2.circle(mask, (x, 100), 30, 255, -1)
    outline = block_outline(find_blobs(mask, 30)[0])
    assert np.array_equal(sides_on_edges(outline, mask, grey), outline)


def _row_mask(tilts: tuple[float, ...], drops: tuple[float, ...], side: int = 17) -> np.ndarray:
    """The object mask of a row of square tiles ``side`` px across, each turned by its
    tilt (degrees) and dropped by its drop (px) off the line, as a hand lays them."""
    mask = np.zeros((80, 120), np.uint8)
    for k, (tilt, drop) in enumerate(zip(tilts, drops, strict=True)):
        centre = (20 + side / 2 + k * side, 40 + drop)
        corners = cv2.boxPoints((centre, (side, side), tilt)).astype(np.int32)
        cv2.fillConvexPoly(mask, corners, 255)
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))


def test_bent_outline_box_offered_for_a_row_laid_askew():
    blob = find_blobs(_row_mask((3, -5, 2), (2, -1, -3)), 30)[0]
    outline = block_outline(blob)
    box = bent_outline_box(blob, outline)
    assert box is not None
    # the rectangle's sides are a tile deep and three tiles long, unlike the bent outline's
    sides = sorted(np.linalg.norm(box - np.roll(box, -1, axis=0), axis=1))
    assert 17 <= sides[0] <= 24 and 49 <= sides[-1] <= 56
    straight = find_blobs(_row_mask((2, 2, 2), (0, 0, 0)), 30)[0]
    assert bent_outline_box(straight, block_outline(straight)) is None
