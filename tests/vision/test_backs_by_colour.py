"""A token face whose colours the back explains better is read as the back
(vision/naming.py, ``Naming.backs_by_colour``)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from tests.vision.drawn import placed_piece
from vision.colour import kelvin_gains
from vision.rectify import flatten_alpha


def _as_cut(recogniser, face: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """A token's face as a cut patch shows it under a lamp of ``gains``, a little blurred."""
    size = recogniser.config.patch_px
    patch = cv2.resize(flatten_alpha(face), (size, size), interpolation=cv2.INTER_AREA)
    lit = np.clip(patch.astype(np.float32) * gains[None, None, :], 0, 255)
    return cv2.GaussianBlur(lit, (0, 0), 1.2).astype(np.uint8)


def test_a_face_read_where_the_back_lies_is_turned_over_by_its_colours(round_recogniser):
    # structure took every cut for a face; under a warm lamp the back's own colours
    # still explain the back's cut better than any face does, and no face's cut
    rec = round_recogniser
    names = rec.model.group_names
    face_group, back_group = names.index("token"), names.index("token-back")
    gains = kelvin_gains(3200.0)
    sides = [rec.tileset.token_back, *rec.tileset.token_faces.values()]
    piece = placed_piece(rec, 100, 35, 0.8, True)
    chosen = [
        replace(
            piece,
            patch=_as_cut(rec, side, gains),
            match=replace(piece.match, group=face_group, runner=back_group),
        )
        for side in sides
    ]
    backs = rec.naming.backs_by_colour(chosen, list(range(len(chosen))), gains)
    assert set(backs) == {0}
    assert 0 < backs[0] <= 1


def test_only_pieces_read_as_faces_are_turned_over(round_recogniser):
    rec = round_recogniser
    names = rec.model.group_names
    gains = np.ones(3)
    piece = placed_piece(rec, 100, 35, 0.8, True)
    back = replace(
        piece,
        patch=_as_cut(rec, rec.tileset.token_back, gains),
        match=replace(piece.match, group=names.index("token-back")),
    )
    tile = placed_piece(rec, 300, 50, 0.8, False)
    assert rec.naming.backs_by_colour([back, tile], [0, 1], gains) == {}


def test_a_face_turned_over_keeps_the_face_as_its_runner_up(round_recogniser):
    rec = round_recogniser
    names = rec.model.group_names
    piece = placed_piece(rec, 100, 35, 0.8, True)
    face = replace(piece, match=replace(piece.match, group=names.index("token")))
    turned = rec.naming.as_back(face)
    assert turned.group == names.index("token-back")
    assert turned.match.runner == names.index("token")
    assert turned.score == face.score and turned.candidate is face.candidate
