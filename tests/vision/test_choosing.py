"""Each blob's split chosen, and its pieces judged (vision/choosing.py)."""

from __future__ import annotations

import numpy as np

from vision.candidates import Candidate
from vision.choosing import choose, in_heaps
from vision.evaluate import evaluation_photo, score_photo
from vision.matching import StructureMatch
from vision.outlines import square_quad
from vision.pieces import Scored
from vision.recogniser import Recogniser
from vision.synth.art import STYLES, make_tileset
from vision.tileset import load_tileset, save_tileset


def _tied_disc(recogniser, x: float, side: float, blob: int, split: int, cover: float) -> Scored:
    """A disc piece of ``side`` at (``x``, 200) matching a monk clearly (0.9) and a
    coffin by a hair less: a round tile in doubt only as to its motif."""
    names = recogniser.model.group_names
    monk, coffin = names.index("monk"), names.index("coffin")
    quad = square_quad(np.array([x, 200.0]), side / 2, 0.0).astype(np.float32)
    match = StructureMatch(monk, 0.0, 0.9, 0.003, coffin, 0.0)
    patch = np.zeros((40, 40, 3), np.float32)
    return Scored(Candidate(quad, True, blob, split, cover), patch, match)


def test_a_piece_turned_down_as_its_split_cut_it_keeps_a_clear_cut_at_its_place(
    round_recogniser,
):
    # a row of three tokens: the chosen split cut its pale end off its place (matched
    # 0.6, under the least a token needs), the row's lattice cut it clearly (0.78) and
    # the rest of the row poorly, so the split wins as a whole
    token = round_recogniser.model.group_names.index("token")
    patch = np.zeros((40, 40, 3), np.float32)

    def piece(x: float, split: int, score: float, side: float = 30.0) -> Scored:
        quad = square_quad(np.array([x, 200.0]), side / 2, 0.0).astype(np.float32)
        candidate = Candidate(quad, True, 0, split, 1.0)
        match = StructureMatch(token, 0.0, score, 0.5, token, 0.0)
        return Scored(candidate, patch, match)

    row = [piece(100, 1, 0.9), piece(132, 1, 0.9), piece(166, 1, 0.6, side=34)]
    lattice = [piece(100, 1000, 0.5), piece(132, 1000, 0.5), piece(164, 1000, 0.78)]
    chosen, rejected, _, _ = choose(round_recogniser.scoring, None, row + lattice, None)
    assert sorted(round(s.candidate.center[0]) for s in chosen) == [100, 132, 164]
    assert rejected == []


def test_a_lone_tile_tied_between_two_motifs_is_offered_for_a_second_look(round_recogniser):
    # a blob shaped like one round tile (split 0) matching a monk clearly, a coffin by
    # a hair less (a pinwheel's four wedges are shared by every face); a die cut as a
    # disc out of a square blob (split 1), smaller than a tile, ties the same way and
    # is not offered
    tile = _tied_disc(round_recogniser, 100, 60.0, blob=0, split=0, cover=1.0)
    die = _tied_disc(round_recogniser, 300, 41.5, blob=1, split=1, cover=1.0)
    chosen, rejected, _, turned_down = choose(round_recogniser.scoring, None, [tile, die], 60.0)
    assert chosen == [] and all(r.reason.startswith("ambiguous") for r in rejected)
    assert turned_down == [tile]


def test_a_lone_blob_a_split_cuts_into_one_disc_of_a_tiles_size_is_offered_for_a_second_look(
    round_recogniser,
):
    # a round tile on a gingham fills its box like a die's rounded square, so its blob
    # is no single disc (split 0); cut by a split into one disc covering it, of the
    # frame's tile size (60 px), it is offered as a tile in doubt, and a die cut as a
    # disc 0.69 of a tile's side is not
    tile = _tied_disc(round_recogniser, 100, 58.0, blob=0, split=1, cover=0.98)
    die = _tied_disc(round_recogniser, 300, 41.5, blob=1, split=1, cover=0.98)
    _, rejected, _, turned_down = choose(round_recogniser.scoring, None, [tile, die], 60.0)
    assert all(r.reason.startswith("ambiguous") for r in rejected)
    assert turned_down == [tile]


def test_tile_like_pieces_in_doubt_keep_their_split_reading(round_recogniser):
    # a column of three round tiles (one split) and a disc cut onto the cloth beside
    # it: two tiles tie between two motifs (0.9, margin 0.003), the third matches a
    # garlic clearly, the cloth's disc matches nothing. The two in doubt are tiles, not
    # cells of print, so the split reads: its clear tile is kept, the two in doubt are
    # looked at again
    names = round_recogniser.model.group_names
    garlic, monk, coffin = (names.index(n) for n in ("garlic", "monk", "coffin"))
    patch = np.zeros((40, 40, 3), np.float32)

    def disc(x: float, y: float, match: StructureMatch) -> Scored:
        quad = square_quad(np.array([x, y]), 30.0, 0.0).astype(np.float32)
        return Scored(Candidate(quad, True, 0, 0, 0.7), patch, match)

    tied = StructureMatch(monk, 0.0, 0.9, 0.003, coffin, 0.0)
    column = [disc(100, 200, tied), disc(100, 260, tied)]
    clear = disc(100, 320, StructureMatch(garlic, 0.0, 0.95, 0.05, monk, 0.0))
    cloth = disc(40, 230, StructureMatch(garlic, 0.0, 0.2, 0.01, monk, 0.0))
    chosen, _, _, turned_down = choose(
        round_recogniser.scoring, None, [*column, clear, cloth], 60.0
    )
    assert chosen == [clear]
    assert all(s in turned_down for s in column)  # a second look, as a block's pieces


def test_in_heaps_keeps_blobs_read_as_several_tiles():
    # cut again at the frame's tile size, a heap reads as four tiles, a card's print
    # as one tile-sized piece: only the heap's are kept
    match = StructureMatch(0, 0.0, 0.9, 0.1, 1, 0.0)
    patch = np.zeros((40, 40, 3), np.float32)

    def disc(x: float, blob: int) -> Scored:
        quad = square_quad(np.array([x, 200.0]), 18.0, 0.0).astype(np.float32)
        return Scored(Candidate(quad, True, blob, 1, 1.0), patch, match)

    heap = [disc(100 + 36 * k, blob=3) for k in range(4)]
    card = disc(400, blob=5)
    assert in_heaps([*heap, card]) == heap


def _token_pair(recogniser, cover: float, score: float) -> list[Scored]:
    """Two touching tokens at (100, 200) and (132, 200), the one split of their blob,
    which covers ``cover`` of it (a mask swollen round them on a checked cloth)."""
    token = recogniser.model.group_names.index("token")
    patch = np.zeros((40, 40, 3), np.float32)
    pieces = []
    for x in (100.0, 132.0):
        quad = square_quad(np.array([x, 200.0]), 16.0, 0.0).astype(np.float32)
        match = StructureMatch(token, 0.0, score, 0.5, token, 0.0)
        pieces.append(Scored(Candidate(quad, True, 0, 1, cover), patch, match))
    return pieces


def test_clear_tokens_with_a_rim_all_round_are_kept_however_little_of_their_blob_they_cover(
    round_recogniser,
):
    pair = _token_pair(round_recogniser, cover=0.5, score=0.9)
    chosen, rejected, _, _ = choose(
        round_recogniser.scoring, None, pair, None, outlined=lambda s: True
    )
    assert len(chosen) == 2 and rejected == []


def test_a_split_covering_little_of_its_blob_is_turned_down_without_rims_all_round(
    round_recogniser,
):
    # a print's arc (rim stepping over half its length), an unclear match, or no rim
    # test at all: the cover test stands
    for outlined, score in ((lambda s: False, 0.9), (lambda s: True, 0.6), (None, 0.9)):
        pair = _token_pair(round_recogniser, cover=0.5, score=score)
        chosen, rejected, _, _ = choose(
            round_recogniser.scoring, None, pair, None, outlined=outlined
        )
        assert chosen == [] and len(rejected) == 2


def test_a_lone_token_reading_gives_way_to_the_tile_a_better_cut_reads_there(tmp_path):
    # hard level, the tenth photo of the held-out `ember` style: a tile read as a
    # back (0.66) by one split, with no token of its split beside it, is the tile a
    # better cut at its place reads; only a token in a row (another token of its split
    # touching it) keeps its kind against such a cut (see test_token_blur for that side)
    save_tileset(make_tileset(STYLES["ember"]), tmp_path / "ember")
    tileset = load_tileset(tmp_path / "ember")
    photo = evaluation_photo(tileset, 2024, 2, 9)
    score = score_photo(photo, Recogniser(tileset).detect(photo.image), 2, 9)
    assert score.tiles_right == score.tiles == 15
    assert score.token_false_positives == 0
