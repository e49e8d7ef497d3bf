"""A token's face told from its back where the two tie (vision/token_sides.py)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from tests.vision.drawn import placed_piece
from vision.rectify import flatten_alpha
from vision.token_sides import face_back_tie, faces_told_from_backs


def _back_on_a_dark_cloth(recogniser) -> np.ndarray:
    """The set's back, washed pale until its art is faint, cut as a patch with a ring of
    dark cloth round it: what a 30 px back on a dark table shows most is its rim (as a
    whole, this patch matches the set's faces 0.41 and its back 0.28)."""
    size = recogniser.config.patch_px
    back = cv2.resize(flatten_alpha(recogniser.tileset.token_back), (size, size))
    faint = (0.15 * back + 0.85 * 235).astype(np.uint8)
    patch = np.full((size, size, 3), 25, np.uint8)
    disc = np.zeros((size, size), np.uint8)
    cv2.circle(disc, (size // 2, size // 2), int(size * 0.47), 255, -1, cv2.LINE_AA)
    patch[disc > 0] = faint[disc > 0]
    return patch


def test_a_back_tied_with_a_face_is_read_as_the_side_that_leads_inside_its_rim(
    round_recogniser,
):
    # a pale back on a dark cloth matches a face as well as its own back or better, since
    # the rim is most of what it shows; without the rim's pattern the back leads. Only
    # ties between the two sides are judged so; other pieces are left as they were
    rec = round_recogniser
    scoring = rec.scoring
    names = rec.model.group_names
    face, back = names.index("token"), names.index("token-back")
    piece = placed_piece(rec, 100, 35, 0.8, True)
    patch = _back_on_a_dark_cloth(rec)
    tied = replace(
        piece,
        patch=patch,
        match=replace(piece.match, group=face, runner=back, margin=0.005),
    )
    assert face_back_tie(scoring, tied)
    clear = replace(tied, match=replace(tied.match, margin=0.2))
    tile = placed_piece(rec, 300, 50, 0.8, False)
    out = faces_told_from_backs(scoring, [tied, clear, tile])
    assert out[1] is clear and out[2] is tile
    assert out[0].group == back and out[0].match.runner == face
    assert out[0].margin >= scoring.config.accept_margin_min
