"""The check that a row of alike face-up tokens is a print, not a player's tokens."""

from __future__ import annotations

import numpy as np

from vision.results import TokenDetection
from vision.token_rows import (
    alike_backs_turned_over,
    as_the_rules_allow,
    backs_among_unsure,
    backs_in_middles,
    backs_with_no_face,
    ends_among_unsure,
    gap_step,
    over_surer,
    places_between,
    printed_copies,
    printed_groups,
    row_middles,
    step_counts,
)


def _token(x: float, y: float, colour: str | None = "red", diameter: float = 30.0):
    angles = np.linspace(0, 2 * np.pi, 32, endpoint=False)
    outline = np.column_stack([np.cos(angles), np.sin(angles)]) * diameter / 2 + (x, y)
    return TokenDetection(colour, colour is not None, (x, y), outline.astype(np.float32), 0.95)


def test_three_alike_faces_evenly_side_by_side_are_a_print():
    tokens = [_token(100 + 32 * k, 200) for k in range(5)]
    assert printed_copies(tokens) == {0, 1, 2, 3, 4}


def test_each_print_is_its_own_group():
    # two of the mat's columns of moons, far apart: one print each
    tokens = [_token(100, 100 + 32 * k) for k in range(3)]
    tokens += [_token(500, 100 + 32 * k) for k in range(4)]
    assert sorted(printed_groups(tokens)) == [[0, 1, 2], [3, 4, 5, 6]]


def test_a_grid_of_alike_faces_is_a_print_too():
    tokens = [_token(100 + 34 * i, 100 + 34 * j, "black") for i in range(2) for j in range(3)]
    assert printed_copies(tokens) == set(range(6))


def test_a_player_s_row_shows_faces_only_at_its_ends_and_is_kept():
    row = [_token(100, 300), *[_token(100 + 31 * k, 300, None) for k in (1, 2, 3)]]
    row.append(_token(100 + 31 * 4, 300))
    assert printed_copies(row) == set()


def test_a_row_of_two_may_show_two_alike_faces():
    assert printed_copies([_token(100, 100), _token(131, 100), _token(400, 100)]) == set()


def test_alike_faces_lying_apart_are_kept():
    tokens = [_token(100, 100), _token(160, 100), _token(100, 200), _token(250, 300)]
    assert printed_copies(tokens) == set()


def test_alike_faces_unevenly_spaced_are_kept():
    # two touching pairs, a gap apart: a heap of tokens, not a print's even spacing
    tokens = [_token(100, 100), _token(130, 100), _token(175, 100), _token(205, 100)]
    assert printed_copies(tokens) == set()


def test_alike_faces_heaped_off_a_line_are_a_print():
    # small discs cut over and over from the deposit mat's moon, unevenly spaced: by
    # the rules a player's face-up tokens are his row's ends, never three in a heap
    tokens = [_token(x, y, "white", 15.0) for x, y in [(897, 555), (909, 565), (899, 577)]]
    tokens += [_token(x, y, "white", 15.0) for x, y in [(911, 581), (890, 590), (937, 585)]]
    assert printed_copies(tokens) == set(range(6))


def test_faces_of_different_colours_side_by_side_are_kept():
    colours = ["red", "blue", "white", "green"]
    assert printed_copies([_token(100 + 32 * k, 50, c) for k, c in enumerate(colours)]) == set()


def test_a_row_s_middle_lies_between_two_neighbours():
    row = [_token(100 + 31 * k, 300 + 4 * k * k, None) for k in range(5)]  # a bent row
    assert row_middles(row) == {1, 2, 3}


def test_tokens_side_by_side_in_a_corner_are_no_row_s_middle():
    corner = [_token(100, 100, None), _token(131, 100, None), _token(131, 131, None)]
    assert row_middles(corner) == set()


def test_a_face_read_unsurely_in_a_row_s_middle_is_a_back():
    row = [_token(100, 300, "red", 30.0), _token(131, 300, "red"), _token(162, 300, "white")]
    row[1] = TokenDetection("red", True, row[1].center, row[1].polygon, 0.7)
    read = backs_in_middles(row, doubt=0.9)
    assert [(t.colour, t.face_up) for t in read] == [("red", True), (None, False), ("white", True)]


def test_a_face_read_clearly_in_a_row_s_middle_stays_a_face():
    row = [_token(100 + 31 * k, 300, c) for k, c in enumerate(["red", "blue", "white"])]
    assert [t.colour for t in backs_in_middles(row, doubt=0.9)] == ["red", "blue", "white"]


def test_a_token_read_unsurely_in_a_row_s_middle_is_a_back():
    sure = [_token(100, 300, "red"), _token(162, 300, None), _token(193, 300, "white")]
    unsure = [_token(131, 300, "red"), _token(400, 300, "red")]
    backs, rest = backs_among_unsure(sure, unsure)
    assert [(t.center, t.colour, t.face_up) for t in backs] == [((131, 300), None, False)]
    assert [t.center for t in rest] == [(400, 300)]


def test_a_face_read_unsurely_one_step_past_a_row_s_backs_is_the_row_s_end():
    # a white token whose figure is white too is a plain disc, read unsurely; one even
    # step past a back with a token on its other side only a row's face-up end can lie
    sure = [_token(100, 300, "red"), _token(131, 300, None), _token(162, 300, None)]
    end = _unsure(_token(193, 300, "white"), 0.3)
    past_a_face = _unsure(_token(69, 300, "blue"), 0.3)
    read_as_back = _unsure(_token(193, 300, None), 0.3)
    ends, rest = ends_among_unsure(sure, [end, past_a_face, read_as_back])
    assert [(t.center, t.colour, t.face_up) for t in ends] == [((193, 300), "white", True)]
    assert [t.center for t in rest] == [(69, 300), (193, 300)]


def test_a_face_read_unsurely_beside_a_lone_back_or_off_the_row_s_step_stays_unsure():
    lone = [_token(100, 300, None)]
    assert ends_among_unsure(lone, [_unsure(_token(131, 300, "white"), 0.3)])[0] == []
    row = [_token(100, 300, "red"), _token(131, 300, None)]
    far = _unsure(_token(175, 300, "white"), 0.3)  # 44 px on from a 31 px step
    assert ends_among_unsure(row, [far])[0] == []


def test_a_row_of_unsure_backs_is_not_lengthened_by_an_unsure_face_past_it():
    # the deposit mat's printed squares: a black face, then pieces read unsurely, which
    # its middles make backs; the one past them may be a print too, and stays unsure
    sure = [_token(100, 300, "black")]
    unsure = [_unsure(_token(100 + 31 * k, 300, "red"), 0.3) for k in (1, 2)]
    unsure.append(_unsure(_token(193, 300, "blue"), 0.3))
    kept, turned_down = as_the_rules_allow(sure, unsure, doubt=0.9)
    assert [(t.colour, t.face_up) for t in kept] == [("black", True), (None, False), (None, False)]
    assert [(t.center, why.split(" ")[0]) for t, why in turned_down] == [((193, 300), "unsure")]


def test_what_the_rules_do_not_allow_is_turned_down_with_its_reason():
    printed = [_token(100 + 32 * k, 50, "black") for k in range(4)]
    row = [_token(100, 300, "red"), _token(131, 300, None), _token(193, 300, "white")]
    unsure = [_token(162, 300, "blue"), _token(500, 500, "blue")]
    kept, turned_down = as_the_rules_allow(printed + row, unsure, doubt=0.9)
    assert sorted((t.center, t.colour) for t in kept) == [
        ((100, 300), "red"),
        ((131, 300), None),
        ((162, 300), None),
        ((193, 300), "white"),
    ]
    reasons = sorted(why.split(" ")[0] for _, why in turned_down)
    assert reasons == ["one"] * 4 + ["unsure"]


def test_backs_with_no_face_up_token_beside_them_are_no_player_s_row():
    # a row's ends lie face up: backs alone, or side by side with backs only, are
    # something else (the grooved rims of record-like tiles on a dark cloth)
    row = [_token(100, 300, "red"), _token(131, 300, None), _token(162, 300, "white")]
    lone = [_token(400, 100, None)]
    clump = [_token(600, 500, None), _token(631, 500, None), _token(615, 527, None)]
    tokens = row + lone + clump
    assert backs_with_no_face(tokens) == {3, 4, 5, 6}
    kept, turned_down = as_the_rules_allow(tokens, [], doubt=0.9)
    assert sorted(t.center for t in kept) == [(100, 300), (131, 300), (162, 300)]
    assert {why for _, why in turned_down} == {"a back with no face-up token in its row"}


def test_a_straight_even_line_of_backs_is_a_row_whose_ends_were_missed():
    backs = [_token(100 + 31 * k, 300 + 5 * k, None) for k in range(4)]
    assert backs_with_no_face(backs) == set()
    uneven = [_token(x, 300, None) for x in (100, 131, 175)]
    assert backs_with_no_face(uneven) == {0, 1, 2}


def test_a_back_in_line_with_a_row_past_tokens_not_read_is_the_row_s():
    # the row's end and two backs beyond the lone one were missed
    row = [_token(100 + 31 * k, 300, None if k < 2 else "red") for k in range(3)]
    beyond = _token(100 - 31 * 3, 300, None)
    off_line = _token(100 - 31 * 2, 360, None)
    assert backs_with_no_face([*row, beyond, off_line]) == {4}


def test_backs_a_few_steps_past_a_row_but_off_its_line_are_not_the_row_s():
    # stitch seed 2024 #3 at the real level: tiles of a heap read as backs lay within
    # 25 degrees of a row's line three and four steps past its end, but a token and a
    # half aside of it
    row = [_token(300 + 31 * k, 300, None if k < 2 else "red") for k in range(3)]
    clump = [_token(207, 258, None), _token(176, 252, None), _token(192, 225, None)]
    assert backs_with_no_face([*row, *clump]) == {3, 4, 5}
    along = _token(207, 290, None)
    assert backs_with_no_face([*row, along]) == set()


def test_backs_beside_a_face_too_unsure_to_report_may_still_be_a_row():
    # the row's end was read face up, but too unsurely to report
    backs = [_token(131, 300, None), _token(162, 300, None)]
    assert backs_with_no_face(backs, [_unsure(_token(100, 300, "white"), 0.3)]) == set()


def test_unsure_backs_with_no_face_reported_beside_them_are_no_row():
    # the deposit mat's printed circles (inkwash seed 2024 #11): four evenly spaced
    # "backs" read at 0.19-0.34 between two "faces" too unsure to report
    backs = [_unsure(_token(131 + 31 * k, 300, None), 0.3) for k in range(4)]
    ends = [_unsure(_token(100, 300, "white"), 0.35), _unsure(_token(255, 300, "red"), 0.38)]
    assert backs_with_no_face(backs, ends) == {0, 1, 2, 3}
    assert backs_with_no_face(backs) == {0, 1, 2, 3}
    sure = [_unsure(back, 0.9) for back in backs]
    assert backs_with_no_face(sure, ends) == set()
    assert backs_with_no_face(sure) == set()


def test_a_print_with_one_copy_not_read_is_still_a_print():
    # the mat's moons on a dim table: the third of four matched no token
    tokens = [_token(100, 200 + 31 * k, "black") for k in (0, 1, 3)]
    assert printed_copies(tokens) == {0, 1, 2}


def _unsure(token: TokenDetection, confidence: float = 0.7) -> TokenDetection:
    return TokenDetection(token.colour, token.face_up, token.center, token.polygon, confidence)


def test_alike_faces_between_a_row_s_two_ends_are_its_backs_not_a_print():
    # a row's small blurred backs all read as one colour's faces: its ends lie past them
    row = [_token(100, 300, "red")]
    row += [_unsure(_token(100 + 31 * k, 300, "white")) for k in (1, 2, 3)]
    row.append(_token(100 + 31 * 4, 300, "blue"))
    assert printed_copies(row) == set()
    kept, turned_down = as_the_rules_allow(row, [], doubt=0.9)
    assert [(t.colour, t.face_up) for t in kept] == [
        ("red", True),
        *[(None, False)] * 3,
        ("blue", True),
    ]
    assert turned_down == []


def test_alike_faces_running_on_into_a_row_s_other_end_are_its_end_and_backs():
    # one end read as the backs' colour too: the other end still lies past the group
    row = [_token(100, 300, "white")]
    row += [_unsure(_token(100 + 31 * k, 300, "white")) for k in (1, 2, 3)]
    row.append(_token(100 + 31 * 4, 300, "green"))
    kept, _ = as_the_rules_allow(row, [], doubt=0.9)
    assert [(t.colour, t.face_up) for t in kept] == [
        ("white", True),
        *[(None, False)] * 3,
        ("green", True),
    ]


def test_a_print_beside_a_token_off_its_line_is_still_a_print():
    printed = [_token(100 + 32 * k, 50, "black") for k in range(4)]
    beside = _token(148, 82, "red")  # below the print's middle, not in its line
    assert printed_copies([*printed, beside]) == {0, 1, 2, 3}


def test_a_row_s_places_lie_a_diameter_apart_between_its_ends():
    assert step_counts(90.0, 30.0) == [3]
    assert step_counts(45.0, 30.0) == []  # one and a half diameters: no row
    assert step_counts(50.0, 30.0) == []  # two discs overlapping between them: no row
    # a long row's ends, sized to a tenth, allow more counts; the nearest comes first
    assert step_counts(163.7, 21.5)[:2] == [8, 7]
    places = places_between(np.array([100.0, 300.0]), np.array([220.0, 300.0]), 4)
    assert np.allclose(places, [[130, 300], [160, 300], [190, 300]])


def test_a_gap_in_a_row_is_stepped_as_an_end_lies_beside_its_neighbour_not_as_it_is_cut():
    # a black end and the back beside it, 40 px apart, then a gap the mask lost and a
    # yellow end on a cloth near its colour, cut 29 px: by the cut sizes the gap is
    # five steps, by the row's own step four
    centres = np.array([[0.0, 0.0], [0.0, 40.0], [0.0, 200.0]])
    cut = np.array([46.0, 34.0, 29.0])
    assert round(160 / ((cut[1] + cut[2]) / 2)) == 5
    assert round(160 / gap_step(centres, cut, 1, 2)) == 4


def test_a_gap_between_two_lone_tokens_is_stepped_as_they_are_cut():
    centres = np.array([[0.0, 0.0], [120.0, 0.0], [0.0, 40.0]])  # the third is no row of theirs
    assert gap_step(centres, np.array([40.0, 44.0, 40.0]), 0, 1) == 42.0


def test_a_token_lying_over_a_surer_one_is_a_cut_between_two_and_is_turned_down():
    # tokens do not lie on one another: a back read half a token from two others is a
    # row cut at the wrong places; tokens side by side, a diameter apart, all stay
    row = [_token(100, 300, "red"), _token(130, 300, None), _token(160, 300, "white")]
    between = TokenDetection(None, False, (115, 303), row[1].polygon - (15, -3), 0.9)
    assert over_surer(row) == set()
    assert over_surer([*row, between]) == {3}
    kept, turned_down = as_the_rules_allow([*row, between], [], doubt=0.9)
    assert kept == row and [why for _, why in turned_down] == ["lies over a surer token"]


def test_a_gap_between_two_lone_ends_is_stepped_as_the_frames_tokens_lie_side_by_side():
    # gesso seed 7 #3: two ends 141 px apart cut 20 and 21 px, no back read between
    # them; by their cuts the gap is seven steps, by the step of another row's backs
    # side by side in the frame (23.5 px) six, as it is
    centres = np.array([[0.0, 0.0], [141.0, 0.0]])
    cut = np.array([20.0, 21.0])
    assert round(141 / gap_step(centres, cut, 0, 1)) == 7
    assert round(141 / gap_step(centres, cut, 0, 1, frame_step=23.5)) == 6


def test_a_gap_whose_end_has_a_neighbour_keeps_the_rows_own_step_over_the_frames():
    centres = np.array([[0.0, 0.0], [0.0, 40.0], [0.0, 200.0]])
    cut = np.array([46.0, 34.0, 29.0])
    assert gap_step(centres, cut, 1, 2, frame_step=30.0) == 40.0


def test_a_face_read_unsurely_between_unsure_backs_is_a_back():
    # a row of small backs read every other one unsurely (diagonal seed 2024 #9
    # re-encoded): the sure pieces alone lie two steps apart, none side by side
    sure = [_token(100, 300, "blue"), _token(131, 300, "white"), _token(193, 300, "white")]
    sure = [sure[0], _unsure(sure[1], 0.43), _unsure(sure[2], 0.41)]
    unsure = [_unsure(_token(162, 300, "white"), 0.35), _unsure(_token(224, 300, "white"), 0.3)]
    sure.append(_token(255, 300, "red"))
    read = backs_in_middles(sure, doubt=0.9, unsure=unsure)
    assert [(t.colour, t.face_up) for t in read] == [
        ("blue", True),
        (None, False),
        (None, False),
        ("red", True),
    ]
    alone = backs_in_middles(sure, doubt=0.9)
    assert [t.colour for t in alone] == ["blue", "white", "white", "red"]


def test_a_face_read_unsurely_past_an_unsure_back_ends_the_row_where_a_sure_back_lies_before():
    # a row of six on a pale cloth (sticker seed 2024 #9): the last back read 0.22,
    # the plain white end 0.24, the back before them 0.92
    sure = [_token(100, 300, "red"), _token(131, 300, None), _token(162, 300, None)]
    last_back = _unsure(_token(193, 300, None), 0.22)
    end = _unsure(_token(224, 300, "white"), 0.24)
    kept, _ = as_the_rules_allow(sure, [last_back, end], doubt=0.9)
    assert sorted((t.center, t.colour) for t in kept)[-2:] == [
        ((193, 300), None),
        ((224, 300), "white"),
    ]
    # past two unsure backs, or past an unsure back beside a face, it stays unsure
    two = [_unsure(_token(193, 300, None), 0.22), _unsure(_token(224, 300, None), 0.22)]
    far_end = _unsure(_token(255, 300, "white"), 0.24)
    assert ends_among_unsure(sure, [far_end], two)[0] == []
    face = [_token(100, 300, "red")]
    back = [_unsure(_token(131, 300, None), 0.22)]
    assert ends_among_unsure(face, [_unsure(_token(162, 300, "white"), 0.24)], back)[0] == []


def test_alike_faces_read_surely_between_a_row_s_two_ends_are_its_backs():
    # backs of fine art read as faces of one colour however surely (cookie seed 2024
    # #9: yellow at 0.94-1.0 between a blue and a red end): a line of copies that a
    # token continues is a row, and its middle lies face down
    row = [_token(100, 300, "blue")]
    row += [_token(100 + 31 * k, 300, "yellow") for k in (1, 2, 3, 4)]
    row.append(_token(100 + 31 * 5, 300, "red"))
    kept, turned_down = as_the_rules_allow(row, [], doubt=0.9)
    assert [(t.colour, t.face_up) for t in kept] == [
        ("blue", True),
        *[(None, False)] * 4,
        ("red", True),
    ]
    assert turned_down == []


def test_alike_faces_read_surely_keep_the_row_s_end_among_them_and_a_print_its_faces():
    # the row's end read in the backs' colour stays a face (no neighbour past it); a
    # print's copies with nothing in line past them are no row
    row = [_token(100 + 31 * k, 300, "white") for k in range(4)] + [_token(224, 300, "green")]
    assert [(t.colour, t.face_up) for t in alike_backs_turned_over(row)] == [
        ("white", True),
        *[(None, False)] * 3,
        ("green", True),
    ]
    printed = [_token(100 + 32 * k, 50, "black") for k in range(4)]
    assert alike_backs_turned_over(printed) == printed
