"""Faces that differ only in a small figure: a near tie between two motifs is judged by
the share of the two faces' own difference a piece shows (vision.matching.lead_share),
not by the lead in correlation alone."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.bitenight.tiles import ALL_TILES, Motif, Tile
from tests.vision.drawn import COLOURS
from vision.matching import StructureMatch, lead_share, match_structure
from vision.recogniser import Recogniser
from vision.synth.scene import render_photo
from vision.tileset import TileSet, with_disc_alpha

PX = 128
#: Each motif's figure, small and plain, as a polygon in shares of the face.
FIGURES = {
    Motif.VAMPIRE: [(0.36, 0.46), (0.5, 0.52), (0.64, 0.46), (0.6, 0.58), (0.4, 0.58)],
    Motif.MONK: [(0.44, 0.44), (0.56, 0.44), (0.56, 0.62), (0.44, 0.62)],
    Motif.MAIDEN: [(0.5, 0.4), (0.62, 0.64), (0.38, 0.64)],
    Motif.COFFIN: [(0.47, 0.38), (0.53, 0.38), (0.53, 0.68), (0.47, 0.68)],
    Motif.GARLIC: [(0.38, 0.5), (0.62, 0.5), (0.62, 0.56), (0.38, 0.56)],
}


def _halved(tile: Tile) -> np.ndarray:
    """A disc coloured on its upper half, white below, with a small black figure on the
    line between them and a white dot for the heart."""
    img = np.full((PX, PX, 3), 250, np.uint8)
    img[: int(0.55 * PX)] = COLOURS[tile.colour]
    figure = (np.array(FIGURES[tile.motif]) * PX).astype(np.int32)
    cv2.fillPoly(img, [figure], (30, 30, 30), cv2.LINE_AA)
    if tile.heart:
        cv2.circle(img, (int(0.3 * PX), int(0.3 * PX)), PX // 14, (255, 255, 255), -1, cv2.LINE_AA)
    return with_disc_alpha(cv2.cvtColor(img, cv2.COLOR_BGR2BGRA))


@pytest.fixture(scope="module")
def halved() -> TileSet:
    faces = {t: _halved(t) for t in ALL_TILES}
    return TileSet(name="halved", tile_shape="round", tile_size_mm=40, faces=faces)


@pytest.fixture(scope="module")
def halved_recogniser(halved: TileSet) -> Recogniser:
    return Recogniser(halved)


def test_a_piece_lying_on_a_face_shows_all_of_its_difference_from_the_next(
    halved_recogniser: Recogniser,
):
    model = halved_recogniser.model
    bank = model.round
    upright = bank.core & (bank.turn == 0.0)
    maiden = model.group_names.index("maiden")
    face = model.colour_templates[model.groups[maiden][0]]  # a maiden face, upright
    [match] = match_structure(face[None], bank, len(model.groups), core_only=True)
    assert upright.any() and match.group == maiden
    assert match.margin < 0.1  # the faces are nearly alike...
    assert lead_share(face, bank, match) > 0.45  # ...but it is all the way on its own


def test_tiles_whose_faces_differ_only_in_a_small_figure_are_read(
    halved: TileSet, halved_recogniser: Recogniser
):
    photo = render_photo(halved, np.random.default_rng(3), level=0, n_tiles=8, layout="spread")
    result = halved_recogniser.detect(photo.image)
    read = {
        t.tile
        for t in result.tiles
        for truth in photo.tiles
        if np.hypot(*np.subtract(t.center, truth.center)) < 0.2 * photo.tile_px
        and t.tile == truth.tile
    }
    assert read == {t.tile for t in photo.tiles}


def test_a_piece_matched_at_a_turn_the_bank_was_not_cut_at_is_still_judged(
    halved_recogniser: Recogniser,
):
    # later stages may turn a piece by a few degrees; its share is read from the faces
    # of its groups at whatever turn fits it best
    model = halved_recogniser.model
    maiden, monk = model.group_names.index("maiden"), model.group_names.index("monk")
    face = model.colour_templates[model.groups[maiden][0]]
    match = StructureMatch(maiden, 7.5, 0.9, 0.01, monk, 3.3)
    assert lead_share(face, model.round, match) > 0.45
