"""The searches on a block's or row's lattice (vision.searches.beside)."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from companion.bitenight.tiles import Tile
from tests.vision.drawn import ringed_tokens
from tests.vision.reading import hard_score, read_at
from vision.candidates import Candidate, find_blobs
from vision.evaluate import evaluation_photo, few_tiles_photo, score_photo
from vision.frame import Frame
from vision.matching import StructureMatch
from vision.outlines import square_quad
from vision.pieces import Scored
from vision.recogniser import Recogniser
from vision.rectify import Pyramid
from vision.searches import beside
from vision.searches.beside import (
    _PAST_BACKS_FAN,
    _far_end_past_backs,
    _gaps_of_one_bridged,
    _lone_token_places,
    _run_along_mask,
    _way_along_blob,
    row_gaps,
    step_counts,
)
from vision.synth.regression import reencoded, style_tileset
from vision.synth.scene import paste


def _mask_frame(discs: list[tuple[float, float]], diameter: int, blocks=()) -> SimpleNamespace:
    """A frame whose object mask (at half size) holds discs ``diameter`` wide at
    ``discs`` and filled ``blocks`` (x, y, w, h), all in frame pixels."""
    mask = np.zeros((300, 400), np.uint8)
    for x, y in discs:
        cv2.circle(mask, (int(x / 2), int(y / 2)), diameter // 4, 255, -1)
    for x, y, w, h in blocks:
        mask[y // 2 : (y + h) // 2, x // 2 : (x + w) // 2] = 255
    return SimpleNamespace(mask=mask, scale=2.0)


def test_the_mask_run_from_a_lone_token_gives_its_rows_way_and_length():
    # a row four steps long at 20 degrees, its second place lost to the cloth: the
    # run goes on past one place held too little, and its way is the row's
    step, angle = 40.0, np.radians(20)
    way = np.array([np.cos(angle), np.sin(angle)])
    start = np.array([100.0, 200.0])
    places = [tuple(start + way * n * step) for n in (1, 3, 4)]
    run = _run_along_mask(_mask_frame(places, 38), start, step)
    assert run is not None
    found, length = run
    assert length == 4
    assert np.degrees(np.arccos(found @ way)) < 3


def test_a_token_beside_a_block_of_tiles_has_no_run_along_the_mask():
    # the mask beside the token is wider than a token: a block, not a row
    frame = _mask_frame([], 0, blocks=[(120, 100, 200, 200)])
    assert _run_along_mask(frame, np.array([100.0, 200.0]), 40.0) is None


def test_a_run_one_place_long_is_no_row():
    frame = _mask_frame([(140.0, 200.0)], 38)
    assert _run_along_mask(frame, np.array([100.0, 200.0]), 40.0) is None


def test_a_place_the_mask_run_went_past_counts_as_held_but_two_in_a_row_do_not():
    # the run along the mask ends only at two places in a row held too little, so a
    # row laid along it may have one such place between two held ones, or at its end
    held = np.array([True, False, True, False, False, True])
    assert list(_gaps_of_one_bridged(held)) == [True, True, True, False, False, True]
    assert list(_gaps_of_one_bridged(np.array([False, True]))) == [True, True]
    assert list(_gaps_of_one_bridged(np.array([False, False]))) == [False, False]


def _blob_frame(mask: np.ndarray) -> SimpleNamespace:
    return SimpleNamespace(blobs=find_blobs(mask, 10), scale=1.0)


def test_a_row_end_joined_to_bits_of_its_backs_runs_along_its_blob():
    # a 24 px end with a bit of the next back above it in one blob, 1.7 times as long
    # as wide: the row runs up from the end, to within the few degrees the search past
    # the backs fans out over (the blob's least rectangle leans 11 degrees)
    scoring = SimpleNamespace(config=SimpleNamespace(single_aspect_max=1.3))
    mask = np.zeros((200, 200), np.uint8)
    cv2.circle(mask, (100, 120), 12, 255, -1)
    cv2.circle(mask, (100, 100), 8, 255, -1)
    end = Candidate(square_quad(np.array([100.0, 120.0]), 12.0, 0.0), True, blob=0, split=1)
    way = _way_along_blob(scoring, _blob_frame(mask), end, 24.0)
    assert way is not None and way @ np.array([0.0, -1.0]) > np.cos(np.radians(_PAST_BACKS_FAN[-1]))
    # a token alone in its blob says no way
    alone = np.zeros_like(mask)
    cv2.circle(alone, (100, 120), 12, 255, -1)
    assert _way_along_blob(scoring, _blob_frame(alone), end, 24.0) is None


def test_rows_whose_pale_backs_left_only_bits_in_the_mask_are_read_from_an_end_turned_down(
    style_recogniser,
):
    # hard level, the fourth photo of riso seed 7: two rows of seven 23 px tokens on a
    # red and cream gingham, their cream backs only bits of the mask. No token was
    # chosen (each row's clear end, 0.81 and 0.82, was turned down with its split), so
    # the frame knew no token size and neither row was looked for (0 of 13 tokens).
    # From each end the row is followed along the mask, or along the end's own blob
    # where the mask holds too little; one back the mask lost, between two it holds,
    # lies on the run the row was found along
    riso = style_recogniser("riso")
    score = hard_score(riso, 7, 3)
    assert score.tokens_right == score.tokens == 13 and score.token_false_positives == 0
    assert score.false_positives == 0


def test_a_row_of_backs_the_mask_lost_is_read_where_it_stands_out_from_the_cloth(style_recogniser):
    # hard level, the sixth photo of azulejo seed 7: a row of eight 23 px tokens whose
    # six white backs lie on a pale laminate, off the mask, and match 0.66-0.85 (each
    # must reach 0.7 over cloth); its two ends (0.78, 0.80) were turned down alone.
    # The cloth a step and a quarter aside reads as no back at all, so the row is kept
    azulejo = style_recogniser("azulejo")
    photo = evaluation_photo(azulejo.tileset, 7, 2, 5)
    score = score_photo(photo, azulejo.detect(photo.image), 2, 5)
    assert score.tokens_right == score.tokens == 12 and score.token_false_positives == 0
    assert score.false_positives == 0


def test_a_chain_a_token_wide_is_looked_through_at_its_two_ends_half_a_step_in():
    # a row of five 20 px discs, touching, slanted: one blob 5 steps long, 1 across
    mask = np.zeros((200, 300), np.uint8)
    way = np.array([np.cos(0.4), np.sin(0.4)])
    centres = [np.array([80.0, 60.0]) + way * 20 * k for k in range(5)]
    for c in centres:
        cv2.circle(mask, (round(c[0]), round(c[1])), 10, 255, -1)
    (blob,) = find_blobs(mask, 50)
    places, chain = _lone_token_places(blob, 1.0, 20.0)
    assert chain
    ends = sorted(places, key=lambda p: p[0])
    assert np.linalg.norm(ends[0] - centres[0]) < 3 and np.linalg.norm(ends[1] - centres[4]) < 3
    # the same discs scattered two abreast are no chain
    heap = np.zeros_like(mask)
    for x, y in [(80, 60), (98, 60), (80, 78), (98, 78), (115, 69)]:
        cv2.circle(heap, (x, y), 10, 255, -1)
    (blob,) = find_blobs(heap, 50)
    assert _lone_token_places(blob, 1.0, 20.0) == ([], False)


def test_a_row_whose_end_was_turned_down_with_its_split_is_read_from_that_end(style_recogniser):
    # hard level, the twelfth photo of terrazzo seed 2024, saved as a JPEG of quality
    # 90: a row of six 34 px tokens whose four backs lie off the mask; one yellow end
    # matched 0.63 and was turned down with its split, so no row was laid and the
    # other end was turned down alone (3 of 9 tokens). Offered as the row's end, it
    # lays the four backs, which stand out from the cloth beside them
    terrazzo = style_recogniser("terrazzo")
    photo = evaluation_photo(terrazzo.tileset, 2024, 2, 11)
    image = reencoded(photo.image, 90)
    score = score_photo(photo, terrazzo.detect(image), 2, 11)
    assert score.tokens_right == score.tokens == 9 and score.token_false_positives == 0
    assert score.false_positives == 0


def test_two_clear_ends_turned_down_where_no_token_was_chosen_lay_their_row(style_recogniser):
    # hard level, the sixth photo of banner's few-tiles table (seed 2024): three tiles
    # and a row of eight 40 px tokens on dark wood, cut with the cloth's grain as a
    # whole as something that is not tiles, so no token was chosen (0 of 8); its ends
    # read 0.95 each, as clearly as a lone token must, and stand in for chosen ones
    banner = style_recogniser("banner")
    score = hard_score(banner, 2024, 5, few_tiles_photo)
    assert score.tokens_right == score.tokens == 8 and score.token_false_positives == 0
    assert score.tiles_right == score.tiles == 3 and score.false_positives == 0


def test_a_row_whose_one_clear_end_was_turned_down_has_its_far_end_looked_for(style_recogniser):
    # hard level, the fourth photo of terrazzo seed 7: a row of seven 23 px tokens on a
    # red gingham, its black end (0.78) turned down with its split; another row was
    # read, but a far end was looked for only from chosen ends, and two ends turned
    # down lay no row together (7 of 13 tokens). From the turned-down end the far end
    # is found along the mask, and the two lay the row
    terrazzo = style_recogniser("terrazzo")
    score = hard_score(terrazzo, 7, 3)
    assert score.tokens_right == score.tokens == 13 and score.token_false_positives == 0
    assert score.false_positives == 0


def test_a_row_end_read_as_a_tile_of_a_tokens_size_is_read_as_the_rows_end(style_recogniser):
    # hard level, the tenth photo of clock seed 2024: a row of six 28 px tokens, a
    # white end and a back read, four backs the mask lost and the other white end read
    # as a green maiden (cut 28 px, as the frame's tokens are; its tiles 42); with it
    # a tile, its row had one end and its backs were never laid (10 of 14 tokens, a
    # false tile). Cut as large as the frame's tokens, it is read among them and
    # offered as the row's end, and the backs are laid between
    clock = style_recogniser("clock")
    score = hard_score(clock, 2024, 9)
    assert score.tokens_right == 13 and score.token_false_positives == 0
    assert score.false_positives == 0


def test_two_row_ends_both_read_as_tiles_lay_their_row(style_recogniser):
    # hard level, the tenth photo of rosary seed 2024: a row of six whose white ends
    # were both read as tiles (29 and 38 px, the frame's tokens 29, its tiles 44) and
    # its four backs lost (8 of 14 tokens, a false tile). Both offered as ends, the
    # pair lays the row, as two chosen ends would
    rosary = style_recogniser("rosary")
    score = hard_score(rosary, 2024, 9)
    assert score.tokens_right == score.tokens == 14 and score.token_false_positives == 0
    assert score.false_positives == 0


def test_a_tile_read_where_a_rows_end_must_lie_is_read_as_that_end(style_recogniser):
    # hard level, the fourth photo of ring seed 7: a row's white end on a red check,
    # cut with the check's red round it a third larger than the row's tokens, read as
    # a red garlic (0.66) one step past the row's outermost back. A back with a token
    # on one side only has its row's end on the other, so the tile there is read
    # again at the row's step, and is the white face
    ring = style_recogniser("ring")
    score = hard_score(ring, 7, 3)
    assert score.tokens_right == score.tokens == 13 and score.token_false_positives == 0
    assert score.false_positives == 0


def test_a_row_read_in_part_is_followed_past_its_outermost_back(style_recogniser):
    # hard level, the fourth photo of rosary seed 7: a row of six 23 px tokens on a red
    # check, its black end and one back read (0.66), three backs lost and the white
    # end, cut with the check round it half as large again, read as a red garlic
    # (9 of 13 tokens, a false tile). A back with a token on one side only has the
    # rest of its row on the other: the backs are read along it to the white end,
    # which the tile gives way to
    rosary = style_recogniser("rosary")
    score = hard_score(rosary, 7, 3)
    assert score.tokens_right == score.tokens == 13 and score.token_false_positives == 0
    assert score.false_positives == 0


def test_a_heap_of_tiles_whose_labels_read_as_tokens_lays_no_row(style_recogniser):
    # hard level, the tenth photo of cabochon seed 7: a heap of fifteen round tiles
    # whose blue domes read as token faces (0.66-0.78) at a token's size; read as row
    # ends, they laid "backs" on the tiles between them (two tiles lost, three false
    # tokens). A piece with tiles read beside it is one of a heap, not a row's end
    cabochon = style_recogniser("cabochon")
    score = hard_score(cabochon, 7, 9)
    assert score.found == score.tiles == 15 and score.token_false_positives == 0
    assert score.tokens_right == score.tokens == 12


@pytest.fixture(scope="module")
def ringed() -> Recogniser:
    return Recogniser(ringed_tokens())


def _drawn_row(recogniser: Recogniser, centres: list[np.ndarray], wide: float, tall: float):
    """A frame of a row of ringed tokens drawn ``wide`` along x and ``tall`` along y (a
    tilted table's ellipses) on a pale cloth, faces at its ends and backs between, its
    object mask empty (backs the mask lost)."""
    tokens = recogniser.tileset
    image = np.full((480, 640, 3), (215, 215, 210), np.uint8)
    for k, c in enumerate(centres):
        sprite = tokens.token_faces["red"] if k in (0, len(centres) - 1) else tokens.token_back
        paste(image, sprite, c, np.array([wide, tall]), 0.0)
    image = cv2.GaussianBlur(image, (0, 0), 1.0)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return Frame(image, Pyramid(image), 1.0, grey, np.zeros((480, 640), np.uint8), [], None, None)


def _end(recogniser: Recogniser, centre: np.ndarray, wide: float, tall: float) -> Scored:
    """A row's end read clearly as a face, cut ``wide`` along x and ``tall`` along y."""
    box = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * np.array([wide, tall]) / 2
    face = recogniser.model.group_names.index("token")
    match = StructureMatch(face, 0.0, 0.9, 0.5, face, 0.0)
    quad = (box + centre).astype(np.float32)
    return Scored(Candidate(quad, True, 0, 0), np.zeros((40, 40, 4), np.uint8), match)


def test_a_gap_whose_count_of_steps_its_ends_cut_leave_in_doubt_is_laid_at_the_other_too():
    # seven 33 px steps, ends cut 30 px: 7.7 of their size, cut at eight, then at seven
    assert step_counts(7 * 33.0, 30.0) == [8, 7]
    # three 23 px steps, ends cut 19.8 px: 3.48, cut at three, then at four
    assert step_counts(3 * 23.0, 19.8) == [3, 4]
    # two steps and a little: four steps would put them a fifth too close
    assert step_counts(2 * 30.0, 28.0) == [2]
    # off any step: none
    assert step_counts(2.5 * 30.0, 30.0) == []


def test_backs_between_two_ends_cut_small_are_laid_at_the_count_their_places_read(ringed):
    # a row of seven 32 px tokens whose two ends were cut 29 px (a face near the
    # cloth's colours is cut small): the gap comes to 6.6 of their size and its
    # places cut at seven steps lie up to a third of a token off the backs (none
    # reads); cut again at six, each place lies on its back
    step, angle = 32.0, np.radians(15)
    way = np.array([np.cos(angle), np.sin(angle)])
    centres = [np.array([180.0, 200.0]) + way * k * step for k in range(7)]
    frame = _drawn_row(ringed, centres, step, step)
    ends = [_end(ringed, centres[k], 0.9 * step, 0.9 * step) for k in (0, -1)]
    out = row_gaps(ringed.scoring, frame, ends, lambda _: 1.4 * step)
    laid = [s for s in out if all(s is not e for e in ends)]
    assert len(laid) == 5
    for back, centre in zip(laid, centres[1:-1], strict=True):
        assert ringed.scoring.is_back(back.group)
        assert np.hypot(*np.subtract(back.candidate.center, centre)) < 0.15 * step


def test_a_row_whose_backs_left_the_mask_has_its_far_end_found_past_them(ringed):
    # a row of eight tokens on a tilted table, ellipses 54 px along the row and 45 px
    # across (their cut's side 49.5), the mask's run a few degrees off the row's way:
    # the backs, read a step of their width along the row apart, run six places,
    # and the far end lies one step past them (seven of the side would fall short)
    wide, tall = 54.0, 45.0
    centres = [np.array([100.0 + k * wide, 240.0]) for k in range(8)]
    frame = _drawn_row(ringed, centres, wide, tall)
    clear = _end(ringed, centres[0], wide, tall)
    for degrees in (0.0, 6.0, -9.0):
        way = np.array([np.cos(np.radians(degrees)), np.sin(np.radians(degrees))])
        end = _far_end_past_backs(ringed.scoring, frame, clear, way, (wide + tall) / 2)
        assert end is not None and not ringed.scoring.is_back(end.group)
        assert np.hypot(*np.subtract(end.candidate.center, centres[-1])) < 0.15 * tall


def test_a_row_of_pale_tokens_split_off_its_pitch_is_read_from_the_ends_of_its_blob(
    style_recogniser,
):
    # hard level, the tenth photo of terrazzo seed 2024: a row of six 30 px tokens on a
    # pale grey laminate is one blob whose split lays its discs 20-42 px apart, its
    # white ends matching 0.68 and 0.43, and the row was lost (8 of 14 tokens). Cut at
    # the frame's token size half a step in from the blob's ends, both read as faces
    # (0.66, 0.69) and the four backs are laid between them
    terrazzo = style_recogniser("terrazzo")
    photo = evaluation_photo(terrazzo.tileset, 2024, 2, 9)
    score = score_photo(photo, terrazzo.detect(photo.image), 2, 9)
    assert score.tokens_right == score.tokens == 14 and score.token_false_positives == 0
    assert score.false_positives == 0


def test_the_cloth_beside_a_row_is_not_read_where_a_place_of_it_is_no_back(ringed, monkeypatch):
    # two red faces five steps apart on a pale cloth with nothing between them (a chance
    # pair, not a row): the places between read as no back, so no reading of the cloth a
    # step aside could lay the row, and the cloth is not cut (each cut costs a place's
    # reading)
    step = 32.0
    centres = [np.array([150.0 + k * step, 220.0]) for k in range(6)]
    image = np.full((480, 640, 3), (215, 215, 210), np.uint8)
    for k in (0, -1):
        paste(image, ringed.tileset.token_faces["red"], centres[k], np.array([step] * 2), 0.0)
    image = cv2.GaussianBlur(image, (0, 0), 1.0)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    frame = Frame(image, Pyramid(image), 1.0, grey, np.zeros((480, 640), np.uint8), [], None, None)
    read: list = []
    cloth_beside = beside._cloth_beside

    def recorded(scoring, frame, chosen, asides):
        read.extend(asides)
        return cloth_beside(scoring, frame, chosen, asides)

    monkeypatch.setattr(beside, "_cloth_beside", recorded)
    ends = [_end(ringed, centres[k], 0.95 * step, 0.95 * step) for k in (0, -1)]
    out = row_gaps(ringed.scoring, frame, ends, lambda _: 1.05 * step)
    assert out == ends and read == []


def test_a_cell_beside_a_block_is_looked_at_though_a_token_was_read_there(tmp_path):
    # hard level, seed 2024's eleventh photo of neon: a block of 177 px tiles read
    # round their tubes; the blue garlic's ring beside the block's top row was read as
    # a lone token (later turned down, 0.76), which kept the tile's cell from being
    # looked at, as a piece already lay there
    tileset = style_tileset("neon", tmp_path)
    photo = evaluation_photo(tileset, 2024, 2, 10)
    result = Recogniser(tileset).detect(photo.image)
    assert read_at(result, (801, 167), reach=20) == [Tile.parse("blue-garlic-heart")]
