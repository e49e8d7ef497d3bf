"""Middernacht, Vampierenjacht: one test per rule of RULINGS.md V1–V4, then properties."""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.events import Event, Game, IllegalEvent, InvalidSetup
from companion.core.store import Store
from companion.middernacht import moves
from companion.middernacht.board import Grave
from companion.middernacht.rules import RULES, VAMPIRE_COUNT
from companion.middernacht.state import RAT, Garlic, Phase, Table, Vampire
from tests.middernacht.tables import (
    NAMES,
    PLAYERS,
    play,
    player_counts,
    random_event,
    random_game,
    seeded_game,
    seeds,
    step_counts,
    told_game,
    with_rows,
)

ANNA, BEN, CLEO = 0, 1, 2


def stakes(state: Table) -> list[int]:
    return [p.stakes for p in state.players]


def lengths(state: Table) -> list[int]:
    return [len(p.row) for p in state.players]


# -- V1: players, tokens, lids, garlic ---------------------------------------------------------


@pytest.mark.parametrize("count", [1, 7])
def test_v1_refuses_fewer_than_two_or_more_than_six_players(count: int) -> None:
    with pytest.raises(InvalidSetup, match="2 to 6 players"):
        RULES.start({"players": [f"P{i}" for i in range(count)]})


def test_v1_refuses_players_without_names_of_their_own() -> None:
    with pytest.raises(InvalidSetup, match="name of their own"):
        RULES.start({"players": ["Anna", "Anna"]})


def test_v1_seeded_board_has_six_rats_and_at_most_ten_lids_of_a_colour() -> None:
    lids = Counter(seeded_game(seed=3).state.lids)
    assert lids[RAT] == 6
    assert sum(lids.values()) == 60
    assert all(lids[colour] <= 10 for colour in seeded_game().state.colours)
    assert sum(lids[colour] for colour in seeded_game().state.colours) == 54


def test_v1_the_host_sets_the_seed_of_the_lids_and_the_deal() -> None:
    assert seeded_game(seed=11).state == seeded_game(seed=11).state
    assert seeded_game(seed=11).state.lids != seeded_game(seed=12).state.lids


def test_v1_a_seeded_game_needs_a_seed() -> None:
    with pytest.raises(InvalidSetup, match="seed"):
        RULES.start({"players": list(PLAYERS), "mode": "seeded"})


def test_v1_a_tile_set_may_name_other_colours() -> None:
    colours = ["ruby", "amber", "ivory", "azure", "jade", "onyx"]
    state = RULES.start({"players": ["A", "B"], "mode": "seeded", "seed": 1, "colours": colours})
    assert set(state.vampires()) == set(colours)


def test_v1_every_player_has_three_garlic_tokens() -> None:
    assert [p.garlic for p in told_game().state.players] == [3, 3, 3]


# -- V2: the deal and the rows ---------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_v2_vampires_are_dealt_evenly_and_the_remainder_stays_in_the_box(count: int) -> None:
    for setup in ({"mode": "seeded", "seed": 5}, {"mode": "table"}):
        state = RULES.start({"players": [f"P{i}" for i in range(count)], **setup})
        assert lengths(state) == [60 // count] * count
        assert len(state.box) == 60 % count


def test_v2_in_table_mode_every_player_turns_both_ends_before_the_first_lid() -> None:
    game = Game(RULES, {"players": ["Anna", "Ben"]})
    game.push(moves.turn_ends("Anna", "red", "blue"))
    with pytest.raises(IllegalEvent, match="row ends of Ben"):
        game.check(moves.turn_lid("Anna", "A1", "red"))
    game.push(moves.turn_ends("Ben", "red", "red"))
    assert game.state.phase is Phase.TURN
    assert game.state.players[ANNA].row[0] == "red"
    assert game.state.players[ANNA].row[-1] == "blue"


def test_v2_only_an_end_vampire_can_be_played() -> None:
    state = play(told_game().state, moves.turn_lid("Anna", "A1", "red"))
    with pytest.raises(IllegalEvent, match="right end of Anna's row is blue, not red"):
        RULES.apply(state, moves.place_vampire("Anna", "right", uncovered="green"))


def test_v2_when_an_end_leaves_the_next_token_is_turned_face_up() -> None:
    game = seeded_game()
    anna = game.state.players[ANNA].row
    matching = next(i for i, lid in enumerate(game.state.lids) if lid == anna[0])
    game.push(moves.turn_lid("Anna", Grave(matching).name))
    game.push(moves.place_vampire("Anna", "left"))
    assert game.state.players[ANNA].row == anna[1:]
    assert f"Anna's new left end shows {anna[1]}." in game.state.news


def test_v2_in_table_mode_the_player_says_which_colour_his_new_end_shows() -> None:
    state = play(told_game().state, moves.turn_lid("Anna", "A1", "red"))
    with pytest.raises(IllegalEvent, match="Anna must say which colour"):
        RULES.apply(state, moves.place_vampire("Anna"))
    state = RULES.apply(state, moves.place_vampire("Anna", uncovered="green"))
    assert state.players[ANNA].row[0] == "green"
    assert state.players[ANNA].row[-1] == "blue"


# -- V3: a turn ------------------------------------------------------------------------------


def test_v3_a_matching_lid_on_an_empty_grave_lets_him_lay_that_vampire_and_go_on() -> None:
    state = play(told_game().state, moves.turn_lid("Anna", "C4", "blue"))
    assert state.phase is Phase.PLACE
    state = RULES.apply(state, moves.place_vampire("Anna", uncovered="white"))
    assert state.contents[Grave.parse("C4").index] == Vampire("blue")
    assert (state.phase, state.turn) == (Phase.TURN, ANNA)
    assert lengths(state) == [19, 20, 20]


def test_v3_a_lid_matching_neither_end_offers_garlic_and_ends_his_turn() -> None:
    state = play(told_game().state, moves.turn_lid("Anna", "C4", "yellow"))
    assert state.phase is Phase.GARLIC
    with pytest.raises(IllegalEvent, match="cannot place-vampire now"):
        RULES.apply(state, moves.place_vampire("Anna"))
    state = RULES.apply(state, moves.place_garlic("Anna"))
    assert state.contents[Grave.parse("C4").index] == Garlic(ANNA)
    assert state.players[ANNA].garlic == 2
    assert (state.phase, state.turn) == (Phase.TURN, BEN)


def test_v3_letting_an_offer_go_ends_his_turn() -> None:
    for lid in ("red", "yellow"):
        state = play(told_game().state, moves.turn_lid("Anna", "C4", lid), moves.pass_("Anna"))
        assert (state.phase, state.turn) == (Phase.TURN, BEN)
        assert state.contents[Grave.parse("C4").index] is None


def test_v3_without_garlic_left_a_lid_matching_no_end_ends_his_turn() -> None:
    state = told_game().state
    state = replace(state, players=(replace(state.players[ANNA], garlic=0), *state.players[1:]))
    state = play(state, moves.turn_lid("Anna", "C4", "yellow"))
    assert (state.phase, state.turn) == (Phase.TURN, BEN)
    assert "no garlic is left" in state.news[0]


def test_v3_the_lid_goes_back_so_the_same_grave_shows_the_same_lid_again() -> None:
    state = play(told_game().state, moves.turn_lid("Anna", "C4", "yellow"), moves.pass_("Anna"))
    with pytest.raises(IllegalEvent, match="different one when it was turned before"):
        RULES.apply(state, moves.turn_lid("Ben", "C4", "white"))
    state = RULES.apply(state, moves.turn_lid("Ben", "C4", "yellow"))
    assert state.phase is Phase.PLACE  # yellow is Ben's left end


def test_v3_a_grave_holding_a_vampire_gives_him_a_stake_and_ends_his_turn() -> None:
    state = play(
        told_game().state,
        moves.turn_lid("Anna", "C4", "blue"),
        moves.place_vampire("Anna", uncovered="white"),
        moves.turn_lid("Anna", "C4", "blue"),
    )
    assert stakes(state) == [1, 0, 0]
    assert (state.phase, state.turn) == (Phase.TURN, BEN)


def test_v3_third_stake_makes_every_other_player_give_one() -> None:
    state = told_game().state
    state = replace(
        state,
        players=(replace(state.players[ANNA], stakes=2), *state.players[1:]),
        contents=(Vampire("green"), *state.contents[1:]),
        lids=("green", *state.lids[1:]),
    )
    state = play(state, moves.turn_lid("Anna", "A1", "green"))
    assert stakes(state) == [0, 0, 0]  # his stakes go back
    assert state.phase is Phase.GIVING
    assert [(t.giver, t.receiver) for t in state.pending] == [(BEN, ANNA), (CLEO, ANNA)]
    state = play(
        state,
        moves.give_vampire("Cleo", "left", uncovered="red"),
        moves.give_vampire("Ben", "right", uncovered="red"),
    )
    assert lengths(state) == [22, 19, 19]
    assert sorted(c for c in state.players[ANNA].row[1:-1] if c) == ["green", "white"]
    assert (state.phase, state.turn) == (Phase.TURN, BEN)


def test_v3_another_players_garlic_makes_that_player_give_the_finder_one() -> None:
    state = play(
        told_game().state,
        moves.turn_lid("Anna", "C4", "yellow"),
        moves.place_garlic("Anna"),  # Anna's garlic
        moves.turn_lid("Ben", "C4", "yellow"),  # Ben finds it
    )
    assert [(t.giver, t.receiver) for t in state.pending] == [(ANNA, BEN)]
    state = RULES.apply(state, moves.give_vampire("Anna", "left", uncovered="white"))
    assert lengths(state) == [19, 21, 20]
    assert (state.phase, state.turn) == (Phase.TURN, CLEO)


def test_v3_his_own_garlic_makes_every_other_player_give_him_one() -> None:
    state = told_game().state
    state = replace(
        state, contents=(Garlic(ANNA), *state.contents[1:]), lids=("white", *state.lids[1:])
    )
    state = play(state, moves.turn_lid("Anna", "A1", "white"))
    assert [(t.giver, t.receiver) for t in state.pending] == [(BEN, ANNA), (CLEO, ANNA)]


def test_v3_a_found_garlic_goes_back_to_its_owner() -> None:
    state = play(
        told_game().state,
        moves.turn_lid("Anna", "C4", "yellow"),
        moves.place_garlic("Anna"),
        moves.turn_lid("Ben", "C4", "yellow"),
    )
    assert state.players[ANNA].garlic == 3
    assert state.contents[Grave.parse("C4").index] is None


def test_v3_a_given_vampire_is_one_of_the_givers_ends_his_choice() -> None:
    state = play(
        told_game().state,
        moves.turn_lid("Anna", "C4", "yellow"),
        moves.place_garlic("Anna"),
        moves.turn_lid("Ben", "C4", "yellow"),
    )
    with pytest.raises(IllegalEvent, match=r"which end to give up: left \(red\) or right \(blue\)"):
        RULES.apply(state, moves.give_vampire("Anna"))
    state = RULES.apply(state, moves.give_vampire("Anna", "right", uncovered="black"))
    assert state.players[ANNA].row[-1] == "black"
    assert "blue" in state.players[BEN].row


def test_v3_a_received_vampire_goes_face_down_into_the_middle_and_the_ends_stay() -> None:
    state = with_rows(
        play(told_game().state, moves.turn_lid("Anna", "C4", "yellow"), moves.place_garlic("Anna")),
        {"Ben": ("yellow", "red", "white")},
    )
    state = play(
        state,
        moves.turn_lid("Ben", "C4", "yellow"),
        moves.give_vampire("Anna", "left", uncovered="red"),
    )
    assert state.players[BEN].row == ("yellow", "red", "red", "white")


def test_v3_a_one_token_row_takes_a_received_vampire_as_its_new_end() -> None:
    state = with_rows(
        play(told_game().state, moves.turn_lid("Anna", "C4", "yellow"), moves.place_garlic("Anna")),
        {"Ben": ("yellow",)},
    )
    state = play(
        state,
        moves.turn_lid("Ben", "C4", "yellow"),
        moves.give_vampire("Anna", "left", uncovered="red"),
    )
    assert state.players[BEN].row == ("yellow", "red")


def test_v3_an_owed_vampire_blocks_every_other_event() -> None:
    state = play(
        told_game().state,
        moves.turn_lid("Anna", "C4", "yellow"),
        moves.place_garlic("Anna"),
        moves.turn_lid("Ben", "C4", "yellow"),
    )
    with pytest.raises(IllegalEvent, match="Anna must first give Ben a vampire"):
        RULES.apply(state, moves.turn_lid("Anna", "D4", "red"))
    with pytest.raises(IllegalEvent, match="Cleo owes nobody a vampire"):
        RULES.apply(state, moves.give_vampire("Cleo", "left"))


@pytest.mark.parametrize(("grave", "around"), [("C4", 8), ("A1", 3), ("F5", 5)])
def test_v3_a_rat_leaves_the_board_and_opens_the_graves_around_it(grave: str, around: int) -> None:
    state = play(told_game().state, moves.turn_lid("Anna", grave, RAT))
    assert Grave.parse(grave).index in state.lidless
    assert (state.phase, len(state.neighbours)) == (Phase.RAT, around)
    with pytest.raises(IllegalEvent, match="no lid any more"):
        RULES.apply(play(state, moves.stop("Anna")), moves.turn_lid("Ben", grave, RAT))


def test_v3_graves_around_the_rat_are_opened_one_after_another_until_he_stops() -> None:
    state = play(
        told_game().state,
        moves.turn_lid("Anna", "C4", RAT),
        moves.open_neighbour("Anna", "B3", "red"),
        moves.place_vampire("Anna", uncovered="green"),
    )
    assert state.phase is Phase.RAT
    assert len(state.neighbours) == 7
    with pytest.raises(IllegalEvent, match="B3 is not a closed grave around the rat"):
        RULES.apply(state, moves.open_neighbour("Anna", "B3", "red"))
    state = RULES.apply(state, moves.stop("Anna"))
    assert (state.phase, state.turn) == (Phase.TURN, BEN)


def test_v3_an_opened_grave_that_ends_the_turn_ends_the_rats_run() -> None:
    state = play(
        told_game().state,
        moves.turn_lid("Anna", "C4", RAT),
        moves.open_neighbour("Anna", "B3", "white"),
    )
    assert state.phase is Phase.GARLIC
    state = RULES.apply(state, moves.place_garlic("Anna"))
    assert (state.phase, state.turn, state.neighbours) == (Phase.TURN, BEN, ())


def test_v3_a_rat_among_the_graves_around_a_rat_leaves_the_board_too() -> None:
    state = play(
        told_game().state,
        moves.turn_lid("Anna", "A1", RAT),
        moves.open_neighbour("Anna", "A2", RAT),
    )
    assert state.lidless == {0, 1}
    assert (state.phase, len(state.neighbours)) == (Phase.RAT, 2)


# -- V4: the win -------------------------------------------------------------------------------


def test_v4_laying_his_last_vampire_wins_at_once() -> None:
    state = with_rows(told_game().state, {"Anna": ("red",)})
    state = play(state, moves.turn_lid("Anna", "C4", "red"), moves.place_vampire("Anna"))
    assert (state.phase, state.winner) == (Phase.OVER, ANNA)
    assert "Anna wins" in state.news[-1]


def test_v4_a_giver_who_hands_over_his_last_vampire_wins_at_once() -> None:
    state = play(
        told_game().state, moves.turn_lid("Anna", "C4", "yellow"), moves.place_garlic("Anna")
    )
    state = with_rows(state, {"Anna": ("red",)})
    state = play(state, moves.turn_lid("Ben", "C4", "yellow"), moves.give_vampire("Anna"))
    assert (state.phase, state.winner, state.pending) == (Phase.OVER, ANNA, ())


def test_v4_the_first_empty_row_wins_even_while_others_still_owe() -> None:
    state = told_game().state
    state = replace(
        state, contents=(Garlic(ANNA), *state.contents[1:]), lids=("white", *state.lids[1:])
    )
    state = with_rows(state, {"Cleo": ("black",)})
    state = play(state, moves.turn_lid("Anna", "A1", "white"), moves.give_vampire("Cleo"))
    assert (state.phase, state.winner, state.pending) == (Phase.OVER, CLEO, ())


def test_v4_the_game_refuses_every_event_once_won() -> None:
    state = with_rows(told_game().state, {"Anna": ("red",)})
    state = play(state, moves.turn_lid("Anna", "C4", "red"), moves.place_vampire("Anna"))
    with pytest.raises(IllegalEvent, match="the game is over: Anna has won"):
        RULES.apply(state, moves.turn_lid("Anna", "D4", "red"))


# -- what the table tells the companion is checked -------------------------------------------


def test_table_mode_refuses_an_eleventh_vampire_of_a_colour() -> None:
    game = Game(RULES, {"players": ["Anna", "Ben"]})
    state = with_rows(game.state, {"Anna": ("red",) * 10 + (None,) * 20})
    with pytest.raises(IllegalEvent, match="only 10 red vampires"):
        RULES.apply(state, moves.turn_ends("Ben", "red", "blue"))


def test_table_mode_refuses_a_seventh_rat() -> None:
    state = told_game().state
    for grave in ("A1", "A3", "A5", "A7", "A9", "C1"):
        name = state.current.name
        state = play(state, moves.turn_lid(name, grave, RAT), moves.stop(name))
    with pytest.raises(IllegalEvent, match="at most 6 rat lids"):
        RULES.apply(state, moves.turn_lid(state.current.name, "E5", RAT))


def test_table_mode_needs_the_lid_and_seeded_mode_refuses_one() -> None:
    with pytest.raises(IllegalEvent, match="say which lid lies on C4"):
        RULES.apply(told_game().state, moves.turn_lid("Anna", "C4"))
    with pytest.raises(IllegalEvent, match="leave out 'lid'"):
        RULES.apply(seeded_game().state, moves.turn_lid("Anna", "C4", "red"))


@pytest.mark.parametrize(
    "event",
    [
        Event("dance", {}),
        moves.turn_lid("Anna", "G1", "red"),
        moves.turn_lid("Anna", "A11", "red"),
        moves.turn_lid("Anna", "A1", "purple"),
        Event("turn-lid", {"grave": 12, "lid": "red"}),
        moves.place_vampire("Anna"),
        moves.give_vampire("Zoe", "left"),
    ],
)
def test_bad_events_are_refused_with_a_sentence(event: Event) -> None:
    with pytest.raises(IllegalEvent):
        RULES.apply(told_game().state, event)


def test_the_store_keeps_a_middernacht_game(tmp_path) -> None:
    store = Store(tmp_path / "games.db")
    game_id = store.create_game(
        "middernacht", {"players": ["Anna", "Ben"], "mode": "seeded", "seed": 4}, "t"
    )
    store.play(game_id, moves.turn_lid("Anna", "B2"), expected_version=0)
    assert store.load(game_id).game.state == seeded_game(4, ("Anna", "Ben")).push(
        moves.turn_lid("Anna", "B2")
    )


# -- properties over random seeded games -------------------------------------------------------


@given(seeds, player_counts, step_counts)
def test_the_sixty_vampires_are_always_all_somewhere(seed: int, players: int, steps: int) -> None:
    game = seeded_game(seed, NAMES[:players])
    rng = random.Random(seed)
    every_colour = Counter({colour: 10 for colour in game.state.colours})
    for _ in range(steps):
        event = random_event(game.state, rng)
        if event is None:
            break
        game.push(event)
        assert Counter(game.state.vampires()) == every_colour
        assert sum(1 for _ in game.state.vampires()) == VAMPIRE_COUNT


@given(seeds, player_counts, step_counts)
def test_replay_rebuilds_the_same_state(seed: int, players: int, steps: int) -> None:
    game = random_game(seed, players, steps)
    assert game.replay() == game.state
    assert Game(RULES, game.setup, game.log).state == game.state


def test_undo_takes_back_a_placed_vampire() -> None:
    game = told_game()
    before = game.state
    game.push(moves.turn_lid("Anna", "C4", "blue"))
    game.push(moves.place_vampire("Anna", uncovered="white"))
    game.undo()
    game.undo()
    assert game.state == before


@given(seeds, player_counts, step_counts, st.sampled_from(range(12)))
def test_refusals_change_nothing(seed: int, players: int, steps: int, pick: int) -> None:
    game = random_game(seed, players, steps)
    state = game.state
    attempts = [
        moves.turn_lid("Anna", "C4"),
        moves.turn_lid("Anna", "C4", "red"),
        moves.open_neighbour("Anna", "A1"),
        moves.place_vampire("Anna", "left"),
        moves.place_vampire("Anna", "right", uncovered="red"),
        moves.place_garlic("Anna"),
        moves.pass_("Anna"),
        moves.stop("Anna"),
        moves.give_vampire("Anna", "left"),
        moves.give_vampire("Ben"),
        moves.turn_ends("Anna", "red", "red"),
        Event("turn-lid", {"grave": "Z9"}),
    ]
    snapshot = replace(state)
    version = game.version
    with contextlib.suppress(IllegalEvent):
        game.push(attempts[pick])
        return  # this one was legal here
    assert (game.state, game.version) == (snapshot, version)
    assert game.replay() == snapshot


def test_only_the_player_whose_turn_it_is_turns_a_lid() -> None:
    with pytest.raises(IllegalEvent, match="it is Anna's turn, not Ben's"):
        RULES.apply(told_game().state, moves.turn_lid("Ben", "C4", "red"))
    with pytest.raises(IllegalEvent, match="there is no player 'Zoe'"):
        RULES.apply(told_game().state, moves.turn_lid("Zoe", "C4", "red"))


def test_v4_laying_the_last_vampire_in_a_grave_around_a_rat_wins_at_once() -> None:
    state = with_rows(told_game().state, {"Anna": ("red",)})
    state = play(
        state, moves.turn_lid("Anna", "C4", RAT), moves.open_neighbour("Anna", "B3", "red")
    )
    state = RULES.apply(state, moves.place_vampire("Anna"))
    assert (state.phase, state.winner, state.neighbours) == (Phase.OVER, ANNA, ())


def test_table_mode_knows_a_new_end_when_the_middle_holds_one_known_colour() -> None:
    state = with_rows(told_game().state, {"Anna": ("red", "green", "green", "blue")})
    state = play(state, moves.turn_lid("Anna", "C4", "red"), moves.place_vampire("Anna"))
    assert state.players[ANNA].row == ("green", "green", "blue")
    with pytest.raises(IllegalEvent, match="holds no white vampire"):
        RULES.apply(
            play(state, moves.turn_lid("Anna", "D4", "blue")),
            moves.place_vampire("Anna", uncovered="white"),
        )
