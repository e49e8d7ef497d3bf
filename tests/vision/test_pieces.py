"""The helpers over lists of pieces (vision/pieces.py)."""

from __future__ import annotations

import numpy as np

from vision.candidates import Candidate
from vision.matching import StructureMatch
from vision.outlines import square_quad
from vision.pieces import Scored, in_view


def _piece(x: float, y: float, side: float, round_: bool = False) -> Scored:
    """A clear match of ``side`` px centred at (``x``, ``y``)."""
    quad = square_quad(np.array([x, y]), side / 2, 0.0).astype(np.float32)
    match = StructureMatch(0, 0.0, 0.9, 0.5, 1, 0.0)
    return Scored(Candidate(quad, round_, 0, 0), np.zeros((40, 40, 3), np.uint8), match)


def test_a_piece_wholly_in_the_frame_is_kept():
    piece = _piece(640, 360, 60)
    assert in_view([piece], (1280, 720)) == ([piece], [])


def test_a_piece_the_frame_s_edge_cuts_a_third_off_is_kept():
    # two thirds of each in view: its figure shows
    pieces = [_piece(10, 360, 60), _piece(640, 709, 60), _piece(1270, 360, 60, round_=True)]
    kept, unseen = in_view(pieces, (1280, 720))
    assert kept == pieces and unseen == []


def test_a_piece_the_frame_shows_less_than_half_of_is_not_read():
    # a square above the frame's top edge, a third of it in view, and a disc centred
    # on the frame's corner (its pixels' outer edges at -0.5), a quarter of it in view:
    # the rest of each cut is the edge's pixels repeated
    above, corner = _piece(640, -10.5, 60), _piece(-0.5, -0.5, 60, round_=True)
    kept, unseen = in_view([above, corner], (1280, 720))
    assert kept == []
    assert [r.reason for r in unseen] == [
        "mostly out of view (33% shown)",
        "mostly out of view (25% shown)",
    ]
