"""Tiles whose motif or turn is in doubt, judged again (vision/doubts.py)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from companion.bitenight.tiles import Tile
from vision.candidates import Candidate
from vision.doubts import other_motifs
from vision.matching import StructureMatch
from vision.outlines import square_quad
from vision.rectify import Pyramid
from vision.synth.scene import paste


def test_a_tile_cut_off_its_place_whose_first_look_named_another_motif_is_still_read(
    square_set, square_recogniser
):
    # a 70 px maiden on a plain table, cut 6 % of its side off its place and turned 7°
    # (a row's grid on the hard photos): its fine outlines match no face well there, and
    # the first look named the garlic, whose template alone aligned finds no tile
    rec = square_recogniser
    names = rec.model.group_names
    table = np.full((720, 1280, 3), (60, 70, 80), np.uint8)
    centre, side, angle = np.array([640.0, 360.0]), 70.0, 25.0
    paste(table, square_set.faces[Tile.parse("green-maiden")], centre, np.array([side] * 2), angle)
    table = cv2.add(
        table, np.random.default_rng(1).normal(0, 3, table.shape).astype(np.int8), dtype=cv2.CV_8U
    )
    pyramid = Pyramid(table)
    quad = square_quad(centre + np.array([0.06 * side, 0.0]), side / 2, np.radians(angle + 7))
    piece = rec.scoring.score_structure(pyramid, [Candidate(quad.astype(np.float32), False, 0, 1)])[
        0
    ]
    garlic = StructureMatch(names.index("garlic"), 90.0, 0.2, 0.01, -1, 0.0)
    piece = replace(piece, match=garlic)
    assert rec.scoring.realigned(pyramid, [piece])[0].score < rec.config.accept_structure_min

    chosen, _ = other_motifs(rec.scoring, pyramid, [], [piece], [], lambda point: side)
    assert [names[s.group] for s in chosen] == ["maiden"]
    assert chosen[0].score >= 0.9
