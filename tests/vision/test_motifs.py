"""Faces that share most of their pattern (a striped ground, the figure small in a white
disc) are told apart where their motifs differ (vision.doubts.motifs_where_they_differ)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.bitenight.tiles import ALL_TILES, Colour, Motif, Tile
from tests.vision.drawn import COLOURS
from vision.candidates import Candidate
from vision.colour import upright
from vision.doubts import motifs_where_they_differ
from vision.matching import StructureMatch
from vision.model import Label
from vision.pieces import Scored
from vision.recogniser import Recogniser
from vision.tileset import TileSet

PX = 128
#: Each motif's figure, a polygon in shares of the face, small in the middle.
FIGURES = {
    Motif.VAMPIRE: [(0.5, 0.47), (0.64, 0.41), (0.6, 0.53), (0.5, 0.57), (0.4, 0.53), (0.36, 0.41)],
    Motif.MONK: [(0.5, 0.38), (0.56, 0.48), (0.6, 0.62), (0.4, 0.62), (0.44, 0.48)],
    Motif.MAIDEN: [(0.5, 0.38), (0.59, 0.62), (0.41, 0.62)],
    Motif.COFFIN: [
        (0.46, 0.36),
        (0.54, 0.36),
        (0.58, 0.45),
        (0.54, 0.64),
        (0.46, 0.64),
        (0.42, 0.45),
    ],
    Motif.GARLIC: [(0.5, 0.36), (0.6, 0.5), (0.55, 0.62), (0.45, 0.62), (0.4, 0.5)],
}


def _striped(tile: Tile) -> np.ndarray:
    """White stripes across the tile's colour, a white disc, a small dark figure."""
    img = np.full((PX, PX, 3), COLOURS[tile.colour], np.uint8)
    for x in range(-PX, 2 * PX, PX // 10):
        cv2.line(img, (x, 0), (x + PX, PX), (245, 245, 245), PX // 40)
    cv2.circle(img, (PX // 2, PX // 2), int(0.3 * PX), (245, 245, 245), -1, cv2.LINE_AA)
    figure = (np.array(FIGURES[tile.motif]) * PX).astype(np.int32)
    cv2.fillPoly(img, [figure], (30, 25, 40), cv2.LINE_AA)
    if tile.heart:
        cv2.circle(img, (PX // 2, int(0.85 * PX)), PX // 24, (245, 245, 245), -1, cv2.LINE_AA)
    return cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)


@pytest.fixture(scope="module")
def striped() -> Recogniser:
    faces = {t: _striped(t) for t in ALL_TILES}
    return Recogniser(TileSet(name="striped", tile_shape="square", tile_size_mm=40, faces=faces))


def _piece(recogniser: Recogniser, shows: Motif, read_as: Motif, quarters: int) -> Scored:
    """A blurred, noisy red tile showing ``shows`` upright, matched as ``read_as`` turned
    by ``quarters`` quarter turns, its lead a close call."""
    face = recogniser.model.colour_templates[_index(recogniser, shows)]
    patch = cv2.GaussianBlur(face, (0, 0), 1.0)
    patch += np.random.default_rng(3).normal(0, 4, patch.shape).astype(np.float32)
    group = _group(recogniser, read_as)
    match = StructureMatch(group, 90.0 * quarters, 0.88, 0.03, -1, 0.0)
    quad = np.array([[0, 0], [40, 0], [40, 40], [0, 40]], np.float32)
    return Scored(Candidate(quad, False, 0, 0), patch, match)


def _index(recogniser: Recogniser, motif: Motif) -> int:
    """The template of the plain red tile of ``motif``."""
    return recogniser.model.labels.index(Label(tile=Tile(Colour.RED, motif, False)))


def _group(recogniser: Recogniser, motif: Motif) -> int:
    index = _index(recogniser, motif)
    return next(g for g, members in enumerate(recogniser.model.groups) if index in members)


@pytest.mark.parametrize("quarters", [0, 1, 3])
def test_a_piece_read_as_the_wrong_motif_is_read_where_the_motifs_differ(striped, quarters):
    # the shared stripes and disc make every motif match well; only the figure differs
    piece = _piece(striped, Motif.VAMPIRE, Motif.COFFIN, quarters)
    (read,) = motifs_where_they_differ(striped.scoring, [piece])
    assert read.group == _group(striped, Motif.VAMPIRE)
    # and in the turn that shows it upright
    shown = upright(read.patch, read.turn)
    assert np.abs(shown - piece.patch).mean() < 1.0


def test_a_piece_read_as_its_own_motif_keeps_it(striped):
    for motif in Motif:
        piece = _piece(striped, motif, motif, 0)
        (read,) = motifs_where_they_differ(striped.scoring, [piece])
        assert read.group == piece.group and read.turn == piece.turn, motif
