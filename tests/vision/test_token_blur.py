"""Token pieces matched against faces blurred as the photo blurs them (vision/token_blur.py)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.candidates import Candidate
from vision.evaluate import evaluation_photo, score_photo
from vision.matching import StructureMatch
from vision.model import turned_quad
from vision.outlines import square_quad
from vision.pieces import Scored
from vision.recogniser import Recogniser
from vision.rectify import flatten_alpha, rectify
from vision.token_blur import blur_matched, bounded, photo_blur


def _piece(rec: Recogniser, face: np.ndarray, blur: float, side: float, score: float) -> Scored:
    """The face as a piece ``side`` px wide whose patch is blurred by ``blur`` px of
    the patch, matched (as the first look would say) to ``score``."""
    flat = flatten_alpha(face)
    h, w = flat.shape[:2]
    patch = rectify(flat, turned_quad(w, h, 0.0, 1.0), rec.config.patch_px)
    if blur > 0:
        patch = cv2.GaussianBlur(patch, (0, 0), blur)
    quad = square_quad(np.array([100.0, 100.0]), side / 2, 0.0).astype(np.float32)
    back = rec.model.group_names.index("token-back")
    match = StructureMatch(back, 0.0, score, 0.3, 0, 0.0)
    return Scored(Candidate(quad, True, 0, 0), patch, match)


def _clear_tiles(rec: Recogniser, blur: float, side: float) -> list[Scored]:
    """Five of the set's tiles as pieces ``side`` px wide softened by ``blur`` px of
    the patch, each matched clearly (0.9) to its own motif, as the first look says."""
    names = rec.model.group_names
    out = []
    for tile, face in list(rec.tileset.faces.items())[:5]:
        s = _piece(rec, face, blur, side, 0.9)
        motif = StructureMatch(names.index(tile.motif.value), 0.0, 0.9, 0.3, 0, 0.0)
        out.append(Scored(s.candidate, s.patch, motif))
    return out


def test_the_photo_s_blur_is_read_from_its_clear_matches_in_frame_pixels(style_recogniser):
    # tiles 44 px wide softened by 2 px of the 40 px patch were softened by 2.2 px of
    # the frame; too few clear matches say nothing
    rosary = style_recogniser("rosary")
    clear = _clear_tiles(rosary, 2.0, 44.0)
    assert photo_blur(rosary.scoring, clear) == pytest.approx(2.2, abs=0.3)
    assert photo_blur(rosary.scoring, clear[:2]) is None


def test_a_blur_gains_a_piece_no_more_than_its_sharp_match_allows():
    # a template blurred keeps 0.8 of its sharp structure: a blurred photo of the face
    # matches the sharp one at 0.8 of its blurred match, and no gain beyond that counts
    blurred = np.array([0.9, 0.9, 0.5])
    sharp = np.array([0.72, 0.6, 0.2])
    kept = np.array([0.8, 0.8, 0.8])
    assert bounded(blurred, sharp, kept) == pytest.approx([0.9, 0.75, 0.25])
    # a coarse face, which the blur leaves nearly whole, keeps its sharp match
    assert bounded(blurred, sharp, np.array([0.95, 0.8, 0.95])) == pytest.approx([0.72, 0.75, 0.2])


def test_a_finely_drawn_back_on_a_soft_photo_reads_as_the_back(style_recogniser):
    # rosary's back is a thin spiral: a piece of it softened by 2 px of the patch (a
    # 34 px token under a blur of 1.5 px) matches the sharp back at 0.55-0.70; the
    # back blurred as the photo is reads it clearly. A sharp photo's pieces keep
    # their reading
    rosary = style_recogniser("rosary")
    tiles = _clear_tiles(rosary, 1.8, 44.0)
    back = _piece(rosary, rosary.tileset.token_back, 2.5, 34.0, 0.55)
    out, _ = blur_matched(rosary.scoring, [*tiles, back])
    assert out[:5] == tiles
    assert rosary.scoring.is_back(out[5].group) and out[5].score > 0.65
    assert blur_matched(rosary.scoring, [*_clear_tiles(rosary, 0.0, 44.0), back])[0][5] is back


def test_a_row_of_finely_drawn_backs_on_a_soft_photo_is_read(style_recogniser):
    # hard level, the twelfth photo of rosary seed 2024: 34 px tokens under a blur of
    # 1.5 px, a row of four backs (a spiral) matched 0.55-0.70 and was turned down with
    # its two yellow ends; read against the back blurred as the photo is, 0.68-0.83.
    # The row's end, a face drawn as the tiles are (beads round a dark middle), stays a
    # token, though another split cut it as a garlic tile (0.93)
    rosary = style_recogniser("rosary")
    photo = evaluation_photo(rosary.tileset, 2024, 2, 11)
    score = score_photo(photo, rosary.detect(photo.image), 2, 11)
    assert score.tokens_right >= 7 and score.token_false_positives == 0
    assert score.false_positives == 0


def test_the_photo_s_blur_is_read_from_clear_tiles_where_no_round_piece_is_clear(style_recogniser):
    # a square set whose small tokens of fine art all read short of a clear match: the
    # camera's blur is the frame's, read from the clear tiles (44 px, softened by 2 px
    # of the patch: 2.2 px of the frame)
    terrazzo = style_recogniser("terrazzo")
    names = terrazzo.model.group_names
    clear = []
    for tile, face in list(terrazzo.tileset.faces.items())[:5]:
        s = _piece(terrazzo, face, 2.0, 44.0, 0.9)
        motif = StructureMatch(names.index(tile.motif.value), 0.0, 0.9, 0.3, 0, 0.0)
        clear.append(Scored(replace(s.candidate, round=False), s.patch, motif))
    assert photo_blur(terrazzo.scoring, clear) == pytest.approx(2.2, abs=0.3)
    assert photo_blur(terrazzo.scoring, clear[:2]) is None


def test_a_row_whose_backs_the_mask_lost_is_read_against_blurred_backs(style_recogniser):
    # hard level, the twelfth photo of terrazzo seed 2024: 34 px tokens whose faces and
    # back are speckled stone; four pale backs left the mask on a pale cloth and their
    # places matched the sharp back 0.69-0.74 (each must reach 0.7), their two yellow
    # ends lone blobs (0.68, 0.61) turned down with them. Read against the back
    # blurred as the clear tiles say the photo is, the row is kept whole
    terrazzo = style_recogniser("terrazzo")
    photo = evaluation_photo(terrazzo.tileset, 2024, 2, 11)
    score = score_photo(photo, terrazzo.detect(photo.image), 2, 11)
    assert score.tokens_right == score.tokens == 9 and score.token_false_positives == 0
    assert score.false_positives == 0
