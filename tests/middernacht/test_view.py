"""The phone's view: what the table sees, what the viewer may do, and never a secret."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from hypothesis import given

from companion.middernacht import moves
from companion.middernacht.state import RAT, Table
from companion.middernacht.view import view
from tests.middernacht.tables import (
    play,
    player_counts,
    random_game,
    seeds,
    step_counts,
    told_game,
    with_rows,
)


def scramble_secrets(state: Table, rng: random.Random) -> Table:
    """The same table as the players see it, with every secret shuffled."""
    players = []
    for player in state.players:
        middle = list(player.row[1:-1])
        rng.shuffle(middle)
        row = (*player.row[:1], *middle, *player.row[-1:]) if len(player.row) > 1 else player.row
        players.append(replace(player, row=row))
    closed = [g for g in range(60) if g != state.grave]
    lids, contents = list(state.lids), list(state.contents)
    shuffled = rng.sample(closed, len(closed))
    for old, new in zip(closed, shuffled, strict=True):
        lids[new], contents[new] = state.lids[old], state.contents[old]
    box = list(state.box)
    rng.shuffle(box)
    return replace(
        state, players=tuple(players), lids=tuple(lids), contents=tuple(contents), box=tuple(box)
    )


@given(seeds, player_counts, step_counts)
def test_no_view_depends_on_a_middle_a_closed_lid_or_a_closed_grave(
    seed: int, players: int, steps: int
) -> None:
    state = random_game(seed, players, steps).state
    hidden = scramble_secrets(state, random.Random(seed))
    for seat in [None, *range(players)]:
        assert view(hidden, seat) == view(state, seat)


def test_a_view_shows_row_lengths_and_ends_but_not_the_middle() -> None:
    state = with_rows(told_game().state, {"Anna": ("red", "white", "white", "blue")})
    anna = view(state, 0)["players"][0]
    assert anna == {
        "name": "Anna",
        "row_length": 4,
        "left": "red",
        "right": "blue",
        "stakes": 0,
        "garlic_in_hand": 3,
        "garlic_on_board": 0,
    }
    assert "white" not in json.dumps(view(state, 1)["players"][0])


def test_only_the_current_player_may_turn_a_lid() -> None:
    state = told_game().state
    assert [a["kind"] for a in view(state, 0)["actions"]] == ["turn-lid"]
    assert view(state, 1)["actions"] == []
    assert view(state, None)["actions"] == []


def test_a_turned_matching_lid_offers_the_matching_end_or_a_pass() -> None:
    page = view(play(told_game().state, moves.turn_lid("Anna", "C4", "blue")), 0)
    assert page["open_grave"] == {"grave": "C4", "lid": "blue"}
    place, let_go = page["actions"]
    assert place["choices"] == [{"end": "right", "colour": "blue"}]
    assert place["tell_new_end"] is True
    assert let_go == {"kind": "pass"}


def test_a_giver_is_asked_red_or_blue() -> None:
    state = play(
        told_game().state,
        moves.turn_lid("Anna", "C4", "yellow"),
        moves.place_garlic("Anna"),
        moves.turn_lid("Ben", "C4", "yellow"),
    )
    anna = view(state, 0)
    assert anna["pending"] == [
        {
            "giver": "Anna",
            "receiver": "Ben",
            "choices": [{"end": "left", "colour": "red"}, {"end": "right", "colour": "blue"}],
        }
    ]
    assert anna["actions"][0]["kind"] == "give-vampire"
    assert view(state, 1)["actions"] == []


def test_a_rat_shows_which_graves_may_be_opened() -> None:
    page = view(play(told_game().state, moves.turn_lid("Anna", "A1", RAT)), 0)
    assert page["lidless"] == ["A1"]
    assert page["neighbours"] == ["A2", "B1", "B2"]
    assert [a["kind"] for a in page["actions"]] == ["open-neighbour", "stop"]


def test_the_winner_is_named_and_nobody_may_act() -> None:
    state = with_rows(told_game().state, {"Anna": ("red",)})
    page = view(play(state, moves.turn_lid("Anna", "C4", "red"), moves.place_vampire("Anna")), 0)
    assert page["winner"] == "Anna"
    assert page["actions"] == []
