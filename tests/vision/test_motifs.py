"""Faces that share most of their pattern (a striped ground, the figure small in a white
disc) are told apart where their motifs differ (vision.doubts.motifs_where_they_differ)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.bitenight.tiles import ALL_TILES, Colour, Motif, Tile
from tests.vision.drawn import COLOURS
from vision.candidates import Candidate
from vision.colour import upright
from vision.doubts import clear_ties, motifs_where_they_differ, near_ties_settled
from vision.evaluate import evaluation_photo
from vision.matching import StructureMatch
from vision.model import Label
from vision.pieces import Scored
from vision.recogniser import Recogniser
from vision.results import RejectedCandidate
from vision.scoring import CLEAR_LEAD
from vision.synth.check_styles import check_set
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


def _labelled(tile: Tile) -> np.ndarray:
    """A round tile: the colour round a white square label, a small figure on it in
    the colour (every face shares the label's four straight edges)."""
    img = np.full((PX, PX, 3), COLOURS[tile.colour], np.uint8)
    cv2.rectangle(img, (PX // 4, PX // 4), (3 * PX // 4, 3 * PX // 4), (245, 245, 245), -1)
    figure = (np.array(FIGURES[tile.motif]) * PX).astype(np.int32)
    cv2.fillPoly(img, [figure], COLOURS[tile.colour], cv2.LINE_AA)
    if tile.heart:
        cv2.circle(img, (PX // 2, int(0.15 * PX)), PX // 24, (245, 245, 245), -1, cv2.LINE_AA)
    return cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)


@pytest.fixture(scope="module")
def labelled() -> Recogniser:
    faces = {t: _labelled(t) for t in ALL_TILES}
    return Recogniser(TileSet(name="labelled", tile_shape="round", tile_size_mm=40, faces=faces))


def _round_piece(recogniser: Recogniser, shows: Motif, read_as: Motif, turn: float) -> Scored:
    """A blurred, noisy round red tile showing ``shows`` turned by ``turn``, matched as
    ``read_as`` at that turn, its lead a close call."""
    face = recogniser.model.colour_templates[_index(recogniser, shows)]
    size = face.shape[0]
    matrix = cv2.getRotationMatrix2D(((size - 1) / 2, (size - 1) / 2), -turn, 1.0)
    patch = cv2.warpAffine(face, matrix, (size, size), borderMode=cv2.BORDER_REPLICATE)
    patch = cv2.GaussianBlur(patch, (0, 0), 1.0)
    patch += np.random.default_rng(4).normal(0, 4, patch.shape).astype(np.float32)
    match = StructureMatch(_group(recogniser, read_as), turn, 0.9, 0.01, -1, 0.0)
    quad = np.array([[0, 0], [40, 0], [40, 40], [0, 40]], np.float32)
    return Scored(Candidate(quad, True, 0, 0), patch, match)


@pytest.mark.parametrize("turn", [0.0, 20.0])
def test_a_round_piece_read_as_the_wrong_motif_is_read_where_the_motifs_differ(labelled, turn):
    # the label's edges match every motif alike; only the small figure differs
    piece = _round_piece(labelled, Motif.MONK, Motif.COFFIN, turn)
    (read,) = motifs_where_they_differ(labelled.scoring, [piece])
    assert read.group == _group(labelled, Motif.MONK) and read.turn == turn


def test_a_round_piece_read_as_its_own_motif_keeps_it(labelled):
    for motif in Motif:
        piece = _round_piece(labelled, motif, motif, 20.0)
        (read,) = motifs_where_they_differ(labelled.scoring, [piece])
        assert read.group == piece.group and read.turn == piece.turn, motif


def _turned_down(
    recogniser: Recogniser, piece: Scored, runner: Motif
) -> tuple[Scored, list[RejectedCandidate]]:
    """The piece as `choose` turns a near tie down: a tie with ``runner``, among the
    rejected and the turned-down pieces of a readable split."""
    tie = replace(piece.match, margin=0.0, runner=_group(recogniser, runner))
    piece = Scored(piece.candidate, piece.patch, tie, piece.cut)
    c = piece.candidate
    return piece, [RejectedCandidate(c.center, c.polygon(), "ambiguous (0.00)")]


@pytest.mark.parametrize("read_as", [Motif.MONK, Motif.COFFIN])
def test_a_near_tie_the_motifs_differing_pixels_settle_is_a_tile(labelled, read_as):
    # a monk read as a monk or a coffin by a hair over the whole face
    shown = _round_piece(labelled, Motif.MONK, read_as, 20.0)
    other = Motif.COFFIN if read_as == Motif.MONK else Motif.MONK
    piece, rejected = _turned_down(labelled, shown, other)
    chosen, still = near_ties_settled(labelled.scoring, [], [piece], rejected, None)
    assert [s.group for s in chosen] == [_group(labelled, Motif.MONK)] and still == []


def _judged(recogniser: Recogniser, pieces: list[Scored]) -> list[Scored]:
    """The pieces as the last motif step leaves them: judged where the motifs differ,
    settled ties taken as clear."""
    judged = motifs_where_they_differ(recogniser.scoring, pieces)
    return clear_ties(recogniser.scoring, pieces, judged)


def test_a_clear_tile_whose_tie_the_motifs_differing_pixels_settle_leads_clearly(labelled):
    # a monk matched 0.9 that leads a coffin by 0.004 over the whole face (the label)
    shown = _round_piece(labelled, Motif.MONK, Motif.MONK, 20.0)
    tie = replace(
        shown.match, margin=0.004, runner=_group(labelled, Motif.COFFIN), runner_turn=20.0
    )
    pieces = [Scored(shown.candidate, shown.patch, tie)]
    (read,) = _judged(labelled, pieces)
    assert read.group == shown.group and labelled.scoring.lead(read) >= 0.08


def test_a_settled_tie_leads_clearly_however_small_its_lead_over_the_whole_face(labelled):
    # a monk leading a coffin by 0.04: over accept_margin_min (0.02), under a clear
    # lead, as a coloured rim shared by every face outweighs a small figure
    shown = _round_piece(labelled, Motif.MONK, Motif.MONK, 20.0)
    tie = replace(shown.match, margin=0.04, runner=_group(labelled, Motif.COFFIN), runner_turn=20.0)
    pieces = [Scored(shown.candidate, shown.patch, tie)]
    (read,) = _judged(labelled, pieces)
    assert read.group == shown.group and labelled.scoring.lead(read) >= CLEAR_LEAD


def test_a_tie_the_motifs_differing_pixels_turn_the_other_way_is_the_other_motif(labelled):
    # a coffin read as a monk by a hair is read as the coffin, and clearly
    shown = _round_piece(labelled, Motif.COFFIN, Motif.MONK, 20.0)
    tie = replace(
        shown.match, margin=0.004, runner=_group(labelled, Motif.COFFIN), runner_turn=20.0
    )
    pieces = [Scored(shown.candidate, shown.patch, tie)]
    (read,) = _judged(labelled, pieces)
    assert read.group == _group(labelled, Motif.COFFIN) and labelled.scoring.lead(read) >= 0.08


def test_a_poor_match_tied_between_motifs_stays_a_tie(labelled):
    # under sure_tile_min it may be no tile at all (a gingham's cells)
    shown = _round_piece(labelled, Motif.MONK, Motif.MONK, 20.0)
    tie = replace(shown.match, score=0.7, margin=0.004, runner=_group(labelled, Motif.COFFIN))
    pieces = [Scored(shown.candidate, shown.patch, tie)]
    (read,) = _judged(labelled, pieces)
    assert read.match.runner >= 0


def test_a_tie_settled_by_a_piece_its_motif_fits_poorly_stays_a_tie(labelled):
    # a monk cut 0.4 of a side off its place, that share of the piece a gingham cloth:
    # the monk still fits it best where the motifs differ, but poorly (0.68)
    shown = _round_piece(labelled, Motif.MONK, Motif.MONK, 20.0)
    size = shown.patch.shape[0]
    rows, cols = np.mgrid[:size, :size]
    cells = (rows // (size // 8) + cols // (size // 8)) % 2 == 0
    cloth = np.where(cells[..., None], shown.patch[size // 2, 2], 240.0).astype(np.float32)
    patch = np.where((cols < 0.4 * size)[..., None], cloth, shown.patch).astype(np.float32)
    tie = replace(
        shown.match, margin=0.004, runner=_group(labelled, Motif.COFFIN), runner_turn=20.0
    )
    pieces = [Scored(shown.candidate, patch, tie)]
    (read,) = _judged(labelled, pieces)
    assert read.group == shown.group and read.match.runner >= 0


@pytest.fixture(scope="module")
def chip() -> Recogniser:
    return Recogniser(check_set("chip"))


def test_a_group_is_compared_side_by_side_where_hearts_move_the_figure(chip):
    # chip prints the figure left of the middle on a heart's face: each group's pairs
    # are its plain faces' and its hearts', each side against the others' same side
    pairs = chip.scoring.motif_pairs[True]
    for group, p in pairs.items():
        assert sorted(set(p.sides.tolist())) == [0, 1, 2], group
        assert len(p.challengers) == 3 * 4 * (len(pairs) - 1)


def test_plain_monks_on_a_chip_are_not_read_as_coffins_turned_half_round(chip):
    # hard level, seed 2024's eighteenth photo: two plain 84 px monks whose whole-face lead
    # was a hair (0.02) were judged where the motifs differ against the mean of each
    # group's twins, a figure seen twice; a coffin turned half round fitted that better
    # (0.96 against 0.94), and both were read as coffins
    _assert_read_in_place(
        chip, evaluation_photo(chip.tileset, 2024, 2, 17), "green-monk", "purple-monk"
    )


def test_a_set_whose_hearts_only_add_a_heart_judges_each_group_as_one(labelled):
    # the drawn round set puts a heart dot above the label and moves nothing: its groups'
    # pairs are of their mean faces only, as before
    for p in labelled.scoring.motif_pairs[True].values():
        assert set(p.sides.tolist()) == {0}


@pytest.fixture(scope="module")
def vinyl() -> Recogniser:
    return Recogniser(check_set("vinyl"))


def test_a_colour_printing_its_figures_in_the_opposite_ink_is_judged_apart(vinyl, chip):
    # vinyl prints its figures white on four labels and black on the yellow one: yellow
    # is an ink of its own, every group's pairs are in two inks; chip prints all alike
    assert vinyl.scoring.model.inks == (
        frozenset(Colour) - {Colour.YELLOW},
        frozenset({Colour.YELLOW}),
    )
    assert len(chip.scoring.model.inks) == 1
    for p in vinyl.scoring.motif_pairs[True].values():
        assert set(p.inks.tolist()) == {0, 1}
    for p in chip.scoring.motif_pairs[True].values():
        assert set(p.inks.tolist()) == {0}


def test_yellow_records_inked_black_keep_their_motifs(vinyl):
    # hard level, seed 2024's fifth photo: a yellow maiden and a yellow garlic, both with
    # hearts, were judged where the motifs differ against each motif's mean over all five
    # labels, in which the yellow's black figure cancelled part of the others' white one,
    # and read as vampires; judged against the yellow faces they keep their motifs
    photo = evaluation_photo(vinyl.tileset, 2024, 2, 4)
    _assert_read_in_place(vinyl, photo, "yellow-maiden-heart", "yellow-garlic-heart")


def _assert_read_in_place(recogniser: Recogniser, photo, *names: str) -> None:
    """Each named tile of the photo is read, and read right, where it lies."""
    result = recogniser.detect(photo.image)
    for name in names:
        (truth,) = [t for t in photo.tiles if t.tile == Tile.parse(name)]
        read = [t.tile for t in result.tiles if np.hypot(*np.subtract(t.center, truth.center)) < 10]
        assert read == [truth.tile], name


def _dial(tile: Tile) -> np.ndarray:
    """A round tile: a white dial with a small figure in the tile's colour, and two black
    hands at another time on every face (as ``clock`` draws them)."""
    img = np.full((PX, PX, 3), 235, np.uint8)
    figure = (np.array(FIGURES[tile.motif]) * PX).astype(np.int32)
    cv2.fillPoly(img, [figure], COLOURS[tile.colour], cv2.LINE_AA)
    cv2.polylines(img, [figure], True, (40, 40, 40), 1, cv2.LINE_AA)
    seed = ALL_TILES.index(tile)
    centre = np.array([PX / 2, PX / 2])
    for length, hours in ((0.25, seed * 5 % 12), (0.38, seed * 7 % 12)):
        angle = hours / 12 * 2 * np.pi
        end = centre + length * PX * np.array([np.sin(angle), -np.cos(angle)])
        cv2.line(img, (PX // 2, PX // 2), tuple(int(v) for v in end), (20, 20, 20), 3, cv2.LINE_AA)
    if tile.heart:
        cv2.circle(img, (PX // 2, int(0.15 * PX)), PX // 30, COLOURS[tile.colour], -1, cv2.LINE_AA)
    return cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)


@pytest.fixture(scope="module")
def dials() -> Recogniser:
    faces = {t: _dial(t) for t in ALL_TILES}
    return Recogniser(TileSet(name="dials", tile_shape="round", tile_size_mm=40, faces=faces))


def test_a_set_whose_faces_differ_beyond_colour_judges_motifs_by_single_faces_too(dials, labelled):
    # the hands stand at another time on every face: a motif's mean face is a blur of
    # them that no tile prints, and its own faces are judged singly too
    pairs = dials.scoring.motif_pairs[True]
    assert all(p.singles_judge for p in pairs.values())
    assert not any(p.singles_judge for p in labelled.scoring.motif_pairs[True].values())
    moved = {True: 0, False: 0}
    for judge in (True, False):
        dials.scoring.motif_pairs[True] = {
            g: replace(p, singles_judge=judge) for g, p in pairs.items()
        }
        try:
            for tile in ALL_TILES:
                face = dials.model.colour_templates[dials.model.labels.index(Label(tile=tile))]
                patch = cv2.GaussianBlur(face, (0, 0), 1.0)
                patch += np.random.default_rng(4).normal(0, 4, patch.shape).astype(np.float32)
                group = _group(dials, tile.motif)
                match = StructureMatch(group, 0.0, 0.9, 0.01, -1, 0.0)
                quad = np.array([[0, 0], [40, 0], [40, 40], [0, 40]], np.float32)
                piece = Scored(Candidate(quad, True, 0, 0), patch, match)
                (read,) = motifs_where_they_differ(dials.scoring, [piece])
                moved[judge] += read.group != group
        finally:
            dials.scoring.motif_pairs[True] = pairs
    # against the means alone more faces are read as another motif
    assert moved[True] < moved[False] and moved[True] <= 1, moved
