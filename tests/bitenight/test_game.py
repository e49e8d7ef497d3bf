"""The whole game on the shared core: setup, B1 cycles and rounds, B2 starting players,
collections with the 50-tile constraint, the rendezvous events, the score pad and B12."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from companion.bitenight.game import BITE_NIGHT, Phase, next_events, view, winners
from companion.core.events import Event, Game, IllegalEvent, InvalidSetup
from companion.core.store import Store
from companion.games import rules_for
from tests.bitenight.play import grab, new_game, place_all, play_rounds, reveal_pile


def event(kind, **data):
    return Event(kind, data, "host")


# --- setup -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [["Anna", "Ben"], ["A", "B", "C", "D", "E"]])
def test_b1_other_player_counts_are_refused(players):
    with pytest.raises(InvalidSetup, match=f"3 or 4 players, not {len(players)}"):
        new_game(players)


@pytest.mark.parametrize(
    ("setup", "problem"),
    [
        ({"players": ["Anna", "Ben", "Anna"]}, "'Anna' is given twice"),
        ({"players": ["Anna", "Ben", " "]}, "non-empty names"),
        ({"players": "Anna, Ben, Cleo"}, "non-empty names"),
        ({"players": ["Anna", "Ben", "Cleo"], "deck": "expert"}, "'deck' must be"),
        ({"players": ["Anna", "Ben", "Cleo"], "starting_player": "Zoe"}, "'Zoe'"),
        ({"players": ["Anna", "Ben", "graveyard"]}, "cannot be a player name"),
    ],
)
def test_a_bad_setup_is_refused_with_a_sentence(setup, problem):
    with pytest.raises(InvalidSetup, match=problem):
        Game(BITE_NIGHT, setup)


def test_bite_night_is_a_known_game_kind():
    assert rules_for("bite-night") is BITE_NIGHT


# --- B1, B2 ----------------------------------------------------------------------------


def test_b1_three_players_play_three_cycles_of_five_rounds():
    state = new_game().state
    assert (state.cycles, state.rounds) == (3, 5)


def test_b1_four_players_play_four_cycles_of_four_rounds():
    state = new_game(["Anna", "Ben", "Cleo", "Dirk"]).state
    assert (state.cycles, state.rounds) == (4, 4)


def test_b2_cards_are_placed_from_the_round_starter_clockwise():
    game = new_game(starting_player="Ben")
    assert view(game.state)["placing_order"] == ["Ben", "Cleo", "Anna"]
    assert view(game.state)["waiting_for"] == ["Ben"]
    with pytest.raises(IllegalEvent, match="it is Ben's turn to place a card, not Anna's"):
        game.push(event("place-card", player="Anna"))


def test_b2_the_starting_player_passes_one_seat_left_every_round():
    game = new_game()
    rng = random.Random(1)
    starters = []
    while game.state.phase is not Phase.RENDEZVOUS:
        starters.append(view(game.state)["starting_player"])
        place_all(game)
        grab(game, rng)
        game.push(event("end-round"))
    assert starters == ["Anna", "Ben", "Cleo", "Anna", "Ben"]


def test_b2_the_cycles_first_starting_player_leads_the_rendezvous_and_each_starts_once():
    game = new_game(["Anna", "Ben", "Cleo"], deck="basic", starting_player="Cleo")
    rng = random.Random(2)
    leaders = []
    for _ in range(3):
        leaders.append(view(game.state)["cycle_leader"])
        assert view(game.state)["starting_player"] == leaders[-1]
        play_rounds(game, rng)
        assert game.state.table.players[game.state.table.leader] == leaders[-1]
        reveal_pile(game, _pile(15))
        if game.state.phase is Phase.CYCLE_SCORED:
            game.push(event("next-cycle"))
    assert leaders == ["Cleo", "Anna", "Ben"]
    assert game.state.phase is Phase.GAME_OVER


def _pile(size):
    cards = [
        "color:red",
        "color:blue",
        "color:yellow",
        "color:green",
        "color:purple",
        "motif:vampire",
        "motif:monk",
        "motif:maiden",
        "motif:coffin",
        "motif:garlic",
        "pair:vampire",
        "pair:monk",
        "pair:maiden",
        "pair:coffin",
        "pair:garlic",
        "color-set",
    ]
    return cards[:size]


# --- collections ------------------------------------------------------------------------


def test_collections_keep_the_50_tile_constraint():
    game = new_game()
    game.push(event("set-collection", player="Anna", tiles=["red-monk", "blue-garlic"]))
    with pytest.raises(IllegalEvent, match="tile 'red-monk' is already in Anna's collection"):
        game.push(event("set-collection", player="Ben", tiles=["red-monk"]))
    with pytest.raises(IllegalEvent, match="listed twice"):
        game.push(event("set-collection", player="Ben", tiles=["red-maiden", "red-maiden"]))
    with pytest.raises(IllegalEvent, match="already in Anna's collection"):
        game.push(event("add-tile", player="Cleo", tile="blue-garlic"))


def test_a_collection_is_corrected_tile_by_tile():
    game = new_game()
    game.push(event("set-collection", player="Anna", tiles=["red-monk", "blue-garlic"]))
    game.push(event("add-tile", player="Anna", tile="green-coffin-heart"))
    game.push(event("remove-tile", player="Anna", tile="blue-garlic"))
    game.push(event("replace-tile", player="Anna", tile="red-monk", by="red-maiden"))
    assert view(game.state)["collections"]["Anna"] == ["red-maiden", "green-coffin-heart"]
    with pytest.raises(IllegalEvent, match="Anna does not hold 'red-monk'"):
        game.push(event("remove-tile", player="Anna", tile="red-monk"))
    with pytest.raises(IllegalEvent, match="is not a Moon tile id"):
        game.push(event("add-tile", player="Anna", tile="red-bat"))
    with pytest.raises(IllegalEvent, match="'Zoe' is not a player"):
        game.push(event("add-tile", player="Zoe", tile="red-monk"))


def test_b1_a_round_ends_only_when_everyone_holds_three_tiles_per_round():
    game = new_game()
    place_all(game)
    with pytest.raises(IllegalEvent, match="Anna holds 0 tiles, but after round 1"):
        game.push(event("end-round"))
    grab(game, random.Random(3))
    game.push(event("end-round"))
    assert (game.state.round, game.state.phase) == (2, Phase.PLACING)


# --- the rendezvous ---------------------------------------------------------------------


def rendezvous_game(deck="advanced"):
    game = new_game(deck=deck)
    play_rounds(game, random.Random(4))
    return game


def test_the_rendezvous_starts_after_the_last_round_with_every_card_placed():
    game = rendezvous_game()
    shown = view(game.state)
    assert shown["phase"] == "rendezvous"
    assert shown["rendezvous"]["cards_left"] == 15
    assert shown["graveyard"] == []
    assert next_events(game.state)[-1] == "reveal-card"


def test_b13_a_card_cannot_come_up_more_often_than_the_deck_holds():
    game = rendezvous_game()
    game.push(event("reveal-card", card="skip-two"))
    game.push(event("reveal-card", card="skip-two"))
    with pytest.raises(IllegalEvent, match="'skip-two' has already come up 2 times"):
        game.push(event("reveal-card", card="skip-two"))


def test_b13_an_advanced_card_cannot_come_up_in_a_basic_game():
    game = rendezvous_game(deck="basic")
    with pytest.raises(IllegalEvent, match="advanced card and this is a basic game"):
        game.push(event("reveal-card", card="neck-bite"))


def test_a_pending_choice_is_shown_with_its_suggestion_and_blocks_other_events():
    game = rendezvous_game()
    game.push(event("reveal-card", card="grave:any"))
    shown = view(game.state)
    asks = shown["rendezvous"]["asks"]
    assert [ask["player"] for ask in asks] == ["Anna", "Ben", "Cleo"]
    assert asks[0]["count"] == 2
    assert asks[0]["suggestion"]
    assert asks[0]["ruling"].startswith("Ruling:")
    assert next_events(game.state) == ["choose-tiles"]
    assert shown["waiting_for"] == ["Anna", "Ben", "Cleo"]
    with pytest.raises(IllegalEvent, match="waits for the choice of Anna, Ben, Cleo"):
        game.push(event("add-tile", player="Anna", tile="red-monk"))
    with pytest.raises(IllegalEvent, match="still waiting for the choice"):
        game.push(event("reveal-card", card="color:red"))


def test_b1_the_cycle_goes_on_the_score_pad_and_the_next_starts_from_a_fresh_deal():
    game = rendezvous_game(deck="basic")
    reveal_pile(game, _pile(15))
    shown = view(game.state)
    assert shown["phase"] == "cycle-scored"
    assert shown["score_pad"]["rows"][0]["points"] == shown["rendezvous"]["points"]
    with pytest.raises(IllegalEvent, match="not possible now"):
        game.push(event("reveal-card", card="color-set"))
    game.push(event("next-cycle"))
    shown = view(game.state)
    assert (shown["cycle"], shown["round"], shown["phase"]) == (2, 1, "placing")
    assert shown["collections"] == {"Anna": [], "Ben": [], "Cleo": []}
    assert shown["rendezvous"] is None


def test_collections_can_be_corrected_during_the_rendezvous_between_cards():
    game = rendezvous_game()
    game.push(event("reveal-card", card="garlic-soup"))
    anna = view(game.state)["collections"]["Anna"]
    buried = view(game.state)["graveyard"]
    assert buried
    with pytest.raises(IllegalEvent, match="already in the graveyard"):
        game.push(event("add-tile", player="Anna", tile=buried[0]))
    game.push(event("remove-tile", player="Anna", tile=anna[0]))
    assert view(game.state)["collections"]["Anna"] == anna[1:]


# --- B12 and the view ---------------------------------------------------------------------


def finished_game(pad):
    state = new_game().state
    return replace(state, pad=pad, phase=Phase.GAME_OVER, cycle=3)


def test_b12_the_most_points_after_the_last_cycle_wins():
    state = finished_game(((5, 9, 1), (5, 0, 3), (0, 2, 3)))
    assert winners(state) == ["Ben"]
    assert view(state)["win_ruling"] is None


def test_b12_equal_totals_share_the_win():
    state = finished_game(((5, 9, 1), (5, 0, 3), (0, 1, 3)))
    assert winners(state) == ["Anna", "Ben"]
    assert view(state)["winners"] == ["Anna", "Ben"]
    assert view(state)["win_ruling"].startswith("Ruling: ")
    pad = view(state)["score_pad"]
    assert pad["sum"] == pad["total"] == {"Anna": 10, "Ben": 10, "Cleo": 7}
    assert [row["total"]["Ben"] for row in pad["rows"]] == [9, 9, 10]


def test_the_view_is_plain_json_in_every_phase():
    game = new_game()
    rng = random.Random(5)
    shown = [view(game.state)]
    play_rounds(game, rng)
    shown.append(view(game.state))
    reveal_pile(game, ["grave:any", "neck-bite", "color:red"])
    shown.append(view(game.state))
    for page in shown:
        assert json.loads(json.dumps(page)) == page
    last = shown[-1]["rendezvous"]["last_step"]
    assert last["card"] == "color:red"
    assert set(last) == {"card", "effect", "points", "moves", "index", "ruling"}


def test_every_event_can_be_undone():
    game = rendezvous_game()
    reveal_pile(game, ["grave:any", "sunrise"])
    assert all(BITE_NIGHT.undoable(e) for e in game.effective)
    before = game.state
    game.undo()
    game.redo()
    assert game.state == before


def test_a_game_survives_the_store(tmp_path):
    with Store(tmp_path / "games.db") as store:
        game_id = store.create_game("bite-night", {"players": ["Anna", "Ben", "Cleo"]})
        store.play(game_id, event("place-card", player="Anna"))
        store.play(game_id, event("set-collection", player="Ben", tiles=["red-monk"]))
    with Store(tmp_path / "games.db") as store:
        state = store.load(game_id).game.state
    assert view(state)["next_to_place"] == "Ben"
    assert view(state)["collections"]["Ben"] == ["red-monk"]


def anna_asked_after_telling(told):
    """Anna places grave:any first and pair:maiden in round 2, telling the engine `told`."""
    game = new_game(deck="basic")
    rng = random.Random(6)
    cards = iter(told)
    while game.state.phase is not Phase.RENDEZVOUS:
        while game.state.phase is Phase.PLACING:
            name = game.state.players[game.state.next_to_place]
            data = {"player": name}
            if name == "Anna":
                data["card"] = next(cards)
            game.push(Event("place-card", data, name))
        grab(game, rng)
        game.push(event("end-round"))
    for name in ("Ben", "Cleo"):
        game.push(event("set-collection", player=name, tiles=[]))
    hand = ["red-maiden", "red-maiden-heart", "blue-maiden", "green-monk"]
    game.push(event("set-collection", player="Anna", tiles=hand))
    game.push(event("reveal-card", card="grave:any"))
    return view(game.state)["rendezvous"]["asks"][0]


def test_b5_a_player_who_told_his_cards_gets_them_weighed_in_the_suggestion():
    told = anna_asked_after_telling(["grave:any", "pair:maiden", None, None, None])
    assert told["suggestion"] == ["blue-maiden", "green-monk"]
    untold = anna_asked_after_telling([None] * 5)
    assert untold["suggestion"] == ["blue-maiden", "red-maiden"]


def test_a_told_card_is_checked_against_the_deck_and_never_shown():
    game = new_game(deck="basic")
    with pytest.raises(IllegalEvent, match="advanced card and this is a basic game"):
        game.push(event("place-card", player="Anna", card="sunrise"))
    with pytest.raises(IllegalEvent, match="is not a Bite Night card id"):
        game.push(event("place-card", player="Anna", card="joker"))
    game.push(event("place-card", player="Anna", card="pair:maiden"))
    with pytest.raises(IllegalEvent, match="as often as the deck holds it"):
        game.push(event("place-card", player="Ben", card="pair:maiden"))
    assert "pair:maiden" not in json.dumps(view(game.state))


def test_the_graveyard_can_be_corrected_by_hand_during_the_rendezvous():
    game = new_game()
    with pytest.raises(IllegalEvent, match="'set-graveyard' is not possible now"):
        game.push(event("set-graveyard", tiles=[]))
    play_rounds(game, random.Random(7))
    game.push(event("reveal-card", card="garlic-soup"))
    buried = view(game.state)["graveyard"]
    held = view(game.state)["collections"]["Ben"][0]
    with pytest.raises(IllegalEvent, match=f"tile '{held}' is already in Ben's collection"):
        game.push(event("set-graveyard", tiles=[*buried, held]))
    game.push(event("set-graveyard", tiles=buried[1:]))
    game.push(event("add-tile", player="Ben", tile=buried[0]))
    assert buried[0] in view(game.state)["collections"]["Ben"]
    assert view(game.state)["graveyard"] == buried[1:]
