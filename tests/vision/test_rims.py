"""Round pieces the object mask missed, found by their rims (vision/searches/rims.py)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from tests.vision.drawn import placed_piece
from vision.candidates import find_blobs
from vision.evaluate import evaluation_photo
from vision.frame import Frame
from vision.recogniser import Recogniser
from vision.rectify import Pyramid
from vision.searches import rims as rim_search
from vision.synth.regression import style_tileset


def test_a_row_of_backs_found_by_their_rims_is_no_print_when_one_rim_steps_unevenly(
    round_recogniser, monkeypatch
):
    # a print's copies go with the one whose rim steps unevenly (an arc of the mat's
    # moons); a player's row of backs lies side by side and evenly spaced too, but a
    # print is of faces: one back's blurred ring leaves only that back out
    rec = round_recogniser
    back = rec.model.group_names.index("token-back")
    row = [placed_piece(rec, 100 + 31 * k, 30, 0.9, True) for k in range(6)]
    row[1:5] = [replace(s, match=replace(s.match, group=back)) for s in row[1:5]]
    # four copies of a face printed side by side below, one of them an uneven arc
    printed = [placed_piece(rec, 100 + 31 * k, 30, 0.75, True) for k in range(4)]
    below = np.float32([0, 300])
    printed = [
        replace(s, candidate=replace(s.candidate, quad=s.candidate.quad + below)) for s in printed
    ]
    uneven = [np.array([162.0, 100.0]), np.array([131.0, 400.0])]

    def evenness(grey, quad, scale, round_):
        return 0.1 if any(np.allclose(quad.mean(axis=0), u, atol=1) for u in uneven) else 0.9

    monkeypatch.setattr(rim_search, "fitted_to_edge", lambda image, quad, *rest: quad)
    monkeypatch.setattr(rim_search, "outline_evenness", evenness)
    pyramid = type("Levels", (), {"levels": [None]})()
    frame = Frame(None, pyramid, 1.0, None, None, [], None, None)
    kept = rim_search.not_printed_arcs(rec.scoring, frame, row + printed)
    assert sorted(s.candidate.center for s in kept) == [
        (100 + 31 * k, 100) for k in (0, 1, 3, 4, 5)
    ]


def test_a_loose_blob_a_token_and_a_half_long_is_searched_for_rims_in_the_full_frame(
    round_recogniser,
):
    # two touching tokens, one half lost to the cloth, leave a blob too short to split
    # in two; a faint rim on a fine check blurs away at the working size, but is still
    # a circle of the tokens' size in the full frame
    yy, xx = np.mgrid[:240, :320]
    full = np.full((240, 320, 3), 150, np.uint8)
    full[((yy // 3 + xx // 3) % 2) == 0] = 110
    cv2.circle(full, (160, 120), 16, (90, 90, 90), 1, cv2.LINE_AA)
    grey = cv2.cvtColor(
        cv2.resize(full, (160, 120), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY
    )
    mask = np.zeros((120, 160), np.uint8)
    cv2.ellipse(mask, (80, 60), (14, 9), 30, 0, 360, 255, -1)
    blobs = find_blobs(mask, 10)
    frame = Frame(full, Pyramid(full), 2.0, grey, mask, blobs, None, None)
    known = [placed_piece(round_recogniser, 40, 32, 0.9, True)]

    def size_at(point):
        return 32.0

    pairs = rim_search.paired_blobs(frame, blobs, size_at, 1.0)
    assert len(pairs) == 1
    assert rim_search.rims(frame, [], known, pairs, size_at, 1.0) == []
    found = rim_search.rims(frame, [], known, pairs, size_at, 1.0, pairs)
    assert [tuple(np.round(c.center)) for c in found] == [(160, 120)]


def test_a_rim_on_a_check_holds_a_piece_where_the_cloth_stops_repeating_inside_it():
    # the break test reads a disc of 0.7 the rim's radius, drawn in a box around it
    # (not a frame-sized mask): a circle half off the frame is judged by its part on it
    broken = np.zeros((120, 200), np.uint8)
    broken[40:80, 60:100] = 255  # a tile the cloth does not repeat across
    assert not rim_search._unbroken(broken, 80.0, 60.0, 20.0)
    assert rim_search._unbroken(broken, 150.0, 60.0, 20.0)
    # a ring of the check's cells round a small break: under a third of its disc
    assert rim_search._unbroken(broken, 110.0, 60.0, 20.0)
    broken[:, :10] = 255
    assert not rim_search._unbroken(broken, 2.0, 60.0, 20.0)
    assert rim_search._unbroken(broken, 198.0, 118.0, 20.0)


def test_a_rim_on_a_check_holds_a_piece_whose_ring_breaks_the_cloth_where_its_middle_does_not():
    # a tile whose ground is the gingham's mixed colour breaks the check round its rim
    broken = np.zeros((120, 200), np.uint8)
    cv2.circle(broken, (80, 60), 20, 255, -1)
    cv2.circle(broken, (80, 60), 13, 0, -1)  # the middle repeats the cloth
    assert not rim_search._unbroken(broken, 80.0, 60.0, 20.0)
    # a ring of the check's cells beside it breaks little of its disc
    assert rim_search._unbroken(broken, 118.0, 60.0, 20.0)


def test_a_tiles_rim_matched_beyond_doubt_needs_no_outline(tmp_path):
    # hard level, seed 7's third photo of a round check style: two red tiles the mask
    # left out were found by their rims and matched beyond doubt, but were turned down
    # for an outline that does not step all round
    tileset = style_tileset("ring", tmp_path)
    photo = evaluation_photo(tileset, 7, 2, 2)
    result = Recogniser(tileset).detect(photo.image)
    for point in [(575, 256), (648, 446)]:
        (truth,) = [t.tile for t in photo.tiles if np.hypot(*np.subtract(t.center, point)) < 10]
        read = [t.tile for t in result.tiles if np.hypot(*np.subtract(t.center, point)) < 10]
        assert read == [truth], point
