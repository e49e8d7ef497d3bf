"""The camera's rows against the referee's: grouping by seat zone, order, mismatches."""

from __future__ import annotations

import math

from companion.middernacht.rows import (
    SeatZone,
    SeenToken,
    along_row,
    check_rows,
    rows_in_zones,
    the_row,
)
from tests.middernacht.tables import told_game, with_rows


def laid(
    colours: list[str | None], start: tuple[float, float], angle_deg: float
) -> list[SeenToken]:
    """Tokens laid 40 px apart from ``start`` at ``angle_deg`` in the image."""
    dx, dy = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    return [
        SeenToken(colour, (start[0] + 40 * i * dx, start[1] + 40 * i * dy))
        for i, colour in enumerate(colours)
    ]


def box(player: str, x0: float, y0: float, x1: float, y1: float) -> SeatZone:
    return SeatZone(player, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))


def test_a_row_at_any_angle_is_read_from_one_end_to_the_other() -> None:
    for angle in (0, 35, 90, 150):
        row = laid(["red", None, None, None, "blue"], (300, 300), angle)
        shuffled = [row[2], row[4], row[0], row[3], row[1]]
        ordered = [t.colour for t in along_row(shuffled)]
        assert ordered in (["red", None, None, None, "blue"], ["blue", None, None, None, "red"])


def test_tokens_go_to_the_row_of_the_seat_zone_they_lie_in() -> None:
    anna = laid(["red", None, "blue"], (20, 50), 0)
    ben = laid(["yellow", None, None, "white"], (20, 450), 0)
    in_a_grave = [SeenToken("green", (500, 250))]
    rows = rows_in_zones(
        [*ben, *in_a_grave, *anna], [box("Anna", 0, 0, 600, 100), box("Ben", 0, 400, 600, 500)]
    )
    assert [t.colour for t in rows["Anna"]] == ["red", None, "blue"]
    assert [t.colour for t in rows["Ben"]] == ["yellow", None, None, "white"]


def test_rows_matching_the_game_give_no_mismatch() -> None:
    state = with_rows(told_game().state, {"Anna": ("red", "green", "blue")})
    seen = {"Anna": laid(["blue", None, "red"], (0, 0), 0)}  # seen from the other side
    assert check_rows(state, seen) == []


def test_a_row_of_another_length_is_flagged_in_a_sentence() -> None:
    state = with_rows(told_game().state, {"Anna": ("red", "green", "blue")})
    (mismatch,) = check_rows(state, {"Anna": laid(["red", None, None, "blue"], (0, 0), 0)})
    assert mismatch.problem == "length"
    assert mismatch.sentence == "The camera sees 4 vampires in Anna's row; the game counts 3."


def test_other_end_colours_are_flagged_without_naming_a_hidden_colour() -> None:
    state = with_rows(told_game().state, {"Anna": ("red", "green", "blue")})
    (mismatch,) = check_rows(state, {"Anna": laid(["red", None, "yellow"], (0, 0), 0)})
    assert mismatch.problem == "ends"
    assert (
        mismatch.sentence
        == "The ends of Anna's row look red and yellow; the game has blue and red."
    )
    assert "green" not in mismatch.sentence


def test_a_face_up_token_in_the_middle_is_flagged() -> None:
    state = with_rows(told_game().state, {"Anna": ("red", "green", "blue")})
    (mismatch,) = check_rows(state, {"Anna": laid(["red", "green", "blue"], (0, 0), 0)})
    assert mismatch.problem == "face-up-middle"
    assert "only the two ends" in mismatch.sentence


def test_a_detected_token_from_detect_json_keeps_its_colour_only_face_up() -> None:
    up = SeenToken.from_json({"color": "red", "face_up": True, "center": [1.0, 2.0]})
    down = SeenToken.from_json({"color": None, "face_up": False, "center": [3, 4]})
    assert (up, down) == (SeenToken("red", (1.0, 2.0)), SeenToken(None, (3.0, 4.0)))


def test_the_row_is_the_chain_of_touching_tokens_not_the_clutter_around_it() -> None:
    row = laid(["red", None, None, None, "blue"], (300, 300), 20)
    clutter = [
        SeenToken("green", (40, 40), 0.95),  # a confident token far away (the box)
        SeenToken("red", (320, 330), 0.4),  # a weak echo beside the row
        SeenToken("black", (60, 45), 0.92),
    ]
    found = along_row(the_row([clutter[0], *row, clutter[1], clutter[2]]))
    assert [t.colour for t in found] in (
        ["red", None, None, None, "blue"],
        ["blue", None, None, None, "red"],
    )


def test_a_gap_in_the_row_keeps_the_stronger_part() -> None:
    left = laid(["red", None, None, None], (0, 0), 0)
    right = laid([None, "blue"], (400, 0), 0)
    assert len(the_row([*left, *right])) == 4
