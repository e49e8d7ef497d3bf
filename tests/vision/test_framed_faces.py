"""Tiles coloured only by a thin frame round their edge (white paper, a black figure):
the colour stage keeps the edge it otherwise leaves out (vision.colour.colour_mask)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.bitenight.tiles import ALL_TILES, Motif, Tile
from tests.vision.drawn import COLOURS
from vision.colour import colour_mask, decide_member, kelvin_gains
from vision.outlines import fitted_to_edge
from vision.recogniser import Recogniser
from vision.rectify import order_corners, patch_mask
from vision.tileset import TileSet

PX = 128
#: Each motif's figure, as a polygon in shares of the face.
FIGURES = {
    Motif.VAMPIRE: [(0.5, 0.42), (0.8, 0.3), (0.72, 0.55), (0.5, 0.62), (0.28, 0.55), (0.2, 0.3)],
    Motif.MONK: [(0.5, 0.22), (0.62, 0.45), (0.7, 0.75), (0.3, 0.75), (0.38, 0.45)],
    Motif.MAIDEN: [(0.5, 0.25), (0.68, 0.75), (0.32, 0.75)],
    Motif.COFFIN: [
        (0.42, 0.22),
        (0.58, 0.22),
        (0.66, 0.4),
        (0.58, 0.78),
        (0.42, 0.78),
        (0.34, 0.4),
    ],
    Motif.GARLIC: [(0.5, 0.22), (0.7, 0.5), (0.6, 0.72), (0.4, 0.72), (0.3, 0.5)],
}


def _framed(tile: Tile) -> np.ndarray:
    """White paper, a black figure, a red heart in a corner, and the tile's colour only
    in a frame a twentieth of the side wide."""
    img = np.full((PX, PX, 3), (245, 245, 240), np.uint8)
    frame = PX // 20
    cv2.rectangle(img, (0, 0), (PX - 1, PX - 1), COLOURS[tile.colour], 2 * frame)
    figure = (np.array(FIGURES[tile.motif]) * PX).astype(np.int32)
    cv2.fillPoly(img, [figure], (25, 25, 25), cv2.LINE_AA)
    if tile.heart:
        cv2.circle(img, (int(0.8 * PX), int(0.2 * PX)), PX // 14, (40, 40, 220), -1, cv2.LINE_AA)
    return cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)


@pytest.fixture(scope="module")
def framed() -> TileSet:
    faces = {t: _framed(t) for t in ALL_TILES}
    return TileSet(name="framed", tile_shape="square", tile_size_mm=40, faces=faces)


def test_a_tile_set_coloured_by_a_thin_frame_keeps_the_edge_for_colour(framed: TileSet):
    recogniser = Recogniser(framed)
    mask = recogniser.naming.colour_masks[False]
    assert mask.sum() > patch_mask(40, False).sum()
    assert mask[1, 20] and mask[20, 1]  # the frame's pixels are looked at


def test_a_tile_set_coloured_all_over_leaves_the_edge_out(square_recogniser: Recogniser):
    assert np.array_equal(square_recogniser.naming.colour_masks[False], patch_mask(40, False))


def test_faces_differing_nowhere_leave_the_standard_mask():
    alike = np.full((5, 40, 40, 3), 128, np.uint8)
    assert np.array_equal(colour_mask([alike], True, 40), patch_mask(40, True))


def test_tiles_coloured_only_by_a_thin_frame_are_read_in_their_colours(framed: TileSet):
    recogniser = Recogniser(framed)
    model = recogniser.model
    mask = recogniser.naming.colour_masks[False]
    lamp = kelvin_gains(3500) ** 0.5
    rng = np.random.default_rng(4)
    for motif in Motif:
        group = model.group_names.index(motif.value)
        members = recogniser.naming.member_faces[group]
        for truth in range(len(members)):
            seen = members[truth] * lamp * 0.9 + 8 + rng.normal(0, 3, members[truth].shape)
            patch = np.clip(seen, 0, 255).astype(np.float32)
            assert decide_member(patch, members, lamp, mask)[0] == truth


def test_a_framed_tile_on_a_check_is_cut_round_its_frame_not_round_its_paper(framed: TileSet):
    # a small blue-framed tile on a red and white check: the frame against the check
    # hardly steps in grey, and the colour outside changes anyway, so the steepest step
    # round the tile is its paper's edge, a frame's width inside the tile's
    k, side, cell = 4, 34.0, 12
    rows, cols = np.indices((240 * k, 320 * k)) // (cell * k)
    table = np.where(((rows + cols) % 2 == 0)[..., None], (60, 50, 200), (225, 225, 235))
    image = table.astype(np.uint8)
    centre = np.array([160.0, 120.0])
    box = cv2.boxPoints(((centre[0], centre[1]), (side, side), 12.0))
    paper = centre + (box - centre) * 0.9
    figure = centre + (box - centre) * 0.4
    for quad, colour in ((box, (180, 110, 20)), (paper, (245, 245, 240)), (figure, (25, 25, 25))):
        cv2.fillConvexPoly(image, np.round((quad + 0.5) * k - 0.5).astype(np.int32), colour)
    image = cv2.resize(image, (320, 240), interpolation=cv2.INTER_AREA)
    image = cv2.GaussianBlur(image, (0, 0), 0.8)
    truth = order_corners(box)
    reach = Recogniser(framed).naming.framed[False]
    fitted = fitted_to_edge(image, truth, False, framed=reach)
    ratio = np.linalg.norm(fitted[1] - fitted[0]) / np.linalg.norm(truth[1] - truth[0])
    assert abs(ratio - 1) < 0.05, ratio
