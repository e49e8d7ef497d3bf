"""The rendezvous rules B2-B11, one test per rule, through the step-by-step machine."""

from __future__ import annotations

import pytest

from companion.bitenight import rendezvous
from companion.bitenight.cards import Card
from companion.bitenight.rendezvous import Effect, placed_by
from companion.bitenight.tiles import Tile, parse_tiles
from companion.core.events import IllegalEvent, InvalidSetup
from tests.bitenight.helpers import effects, moved, run

VAMPIRES = ["red-vampire", "red-vampire-heart", "blue-vampire"]


def machine(collections, graveyard=(), pile=(), leader="Anna"):
    return rendezvous.start(
        ("Anna", "Ben", "Cleo"),
        leader,
        {name: parse_tiles(tiles) for name, tiles in collections.items()},
        parse_tiles(graveyard),
        foresight=[Card.parse(card) for card in pile],
    )


def reveal(state, card):
    return rendezvous.reveal(state, Card.parse(card))


# --- B2, B3: order -------------------------------------------------------------------


def test_b2_round_cards_are_placed_from_the_round_starter_clockwise():
    # 3 players, leader seat 0: round 1 is 0,1,2; round 2 starts one seat on: 1,2,0.
    assert [placed_by(3, 0, i) for i in range(6)] == [0, 1, 2, 1, 2, 0]
    assert [placed_by(4, 2, i) for i in range(8)] == [2, 3, 0, 1, 3, 0, 1, 2]


def test_b2_advanced_cards_resolve_from_the_leader_clockwise():
    result = run(
        ["garlic-soup"],
        {"Anna": ["red-garlic"], "Ben": ["blue-garlic"], "Cleo": ["green-garlic"]},
        starting_player="Ben",
    )
    assert [move[1] for move in moved(result["steps"][0])] == ["Ben", "Cleo", "Anna"]


def test_b3_the_pile_is_resolved_first_placed_first():
    result = run(["motif:vampire", "grave:vampire", "color:red"], {"Anna": VAMPIRES})
    assert [step["points"]["Anna"] for step in result["steps"]] == [3, 0, 1]


# --- B4 ------------------------------------------------------------------------------


def test_b4_point_cards_score_every_player_and_move_nothing():
    result = run(["motif:vampire"], {"Anna": VAMPIRES, "Ben": ["green-vampire"]})
    step = result["steps"][0]
    assert step == {
        "card": "motif:vampire",
        "effect": "scored",
        "points": {"Anna": 3, "Ben": 1, "Cleo": 0},
        "moves": [],
    }


# --- B5 ------------------------------------------------------------------------------


def test_b5_grave_motif_puts_two_of_that_motif_in_the_graveyard():
    result = run(["grave:vampire"], {"Anna": ["red-vampire", "blue-vampire", "red-monk"]})
    assert moved(result["steps"][0]) == [
        ("blue-vampire", "Anna", "graveyard"),
        ("red-vampire", "Anna", "graveyard"),
    ]
    assert result["collections"]["Anna"] == ["red-monk"]


def test_b5_grave_motif_takes_fewer_when_the_player_has_fewer():
    result = run(["grave:monk"], {"Anna": ["red-monk", "red-garlic"], "Ben": ["blue-garlic"]})
    assert moved(result["steps"][0]) == [("red-monk", "Anna", "graveyard")]
    assert result["steps"][0]["effect"] == "moved"


def test_b5_grave_any_takes_two_tiles_of_the_players_choice():
    result = run(
        ["grave:any"],
        {"Anna": ["red-monk", "blue-garlic", "green-coffin"]},
        choices=[{"step": 0, "player": "Anna", "tiles": ["green-coffin", "red-monk"]}],
    )
    assert result["collections"]["Anna"] == ["blue-garlic"]
    assert result["graveyard"] == ["red-monk", "green-coffin"]


def test_b5_a_player_with_more_tiles_than_he_must_give_is_asked():
    state = reveal(machine({"Anna": VAMPIRES, "Ben": ["green-vampire"]}), "grave:vampire")
    assert state.current == Card.parse("grave:vampire")
    assert [ask.player for ask in state.asks] == ["Anna"]
    assert state.asks[0].count == 2
    assert state.asks[0].options == tuple(parse_tiles(["blue-vampire", *VAMPIRES[:2]]))
    state = rendezvous.choose(state, "Anna", parse_tiles(["red-vampire", "blue-vampire"]))
    assert state.current is None
    assert state.collection("Anna") == {Tile.parse("red-vampire-heart")}
    assert state.collection("Ben") == frozenset()


def test_b5_a_player_without_a_real_choice_is_not_asked():
    state = reveal(machine({"Anna": VAMPIRES[:2], "Ben": ["green-vampire"]}), "grave:vampire")
    assert state.current is None
    assert state.steps[-1].effect is Effect.MOVED


def test_b5_suggestion_keeps_points_on_own_cards_to_come():
    # 3 players led by Anna: round 1 is Anna, Ben, Cleo and round 2 Ben, Cleo, Anna, so
    # Anna placed cards 0 and 5. Her pair:maiden is still to come: she keeps the red
    # maiden pair and gives the blue maiden and the monk.
    hand = ["red-maiden", "red-maiden-heart", "blue-maiden", "green-monk"]
    pile = ["grave:any", "motif:monk", "motif:coffin", "color:red", "color:blue", "pair:maiden"]
    result = run(pile, {"Anna": hand})
    assert moved(result["steps"][0]) == [
        ("blue-maiden", "Anna", "graveyard"),
        ("green-monk", "Anna", "graveyard"),
    ]
    assert result["steps"][5]["points"]["Anna"] == 3


def test_b5_suggestion_ignores_cards_placed_by_others():
    # The pair:maiden at index 1 was placed by Ben; Anna does not know it, so she gives
    # the first two tiles without hearts in canonical order.
    hand = ["red-maiden", "red-maiden-heart", "blue-maiden", "green-monk"]
    result = run(["grave:any", "pair:maiden"], {"Anna": hand})
    assert moved(result["steps"][0]) == [
        ("blue-maiden", "Anna", "graveyard"),
        ("red-maiden", "Anna", "graveyard"),
    ]


def test_b5_suggestion_gives_tiles_without_hearts_first():
    hand = ["red-vampire-heart", "blue-vampire-heart", "green-vampire", "purple-vampire-heart"]
    result = run(["grave:vampire"], {"Anna": hand})
    assert moved(result["steps"][0]) == [
        ("blue-vampire-heart", "Anna", "graveyard"),
        ("green-vampire", "Anna", "graveyard"),
    ]


def test_b5_a_choice_of_a_tile_the_player_does_not_hold_is_refused():
    state = reveal(machine({"Anna": VAMPIRES}), "grave:vampire")
    with pytest.raises(IllegalEvent, match="Anna does not hold 'green-vampire'"):
        rendezvous.choose(state, "Anna", parse_tiles(["red-vampire", "green-vampire"]))


def test_b5_a_choice_of_the_wrong_motif_or_number_is_refused():
    state = reveal(machine({"Anna": [*VAMPIRES, "red-monk"]}), "grave:vampire")
    with pytest.raises(IllegalEvent, match="'red-monk' is not a vampire tile"):
        rendezvous.choose(state, "Anna", parse_tiles(["red-vampire", "red-monk"]))
    with pytest.raises(IllegalEvent, match=r"must give up 2 tiles .* not 1"):
        rendezvous.choose(state, "Anna", parse_tiles(["red-vampire"]))
    with pytest.raises(IllegalEvent, match="twice"):
        rendezvous.choose(state, "Anna", parse_tiles(["red-vampire", "red-vampire"]))
    with pytest.raises(IllegalEvent, match="Ben has nothing to choose"):
        rendezvous.choose(state, "Ben", [])


def test_b5_the_next_card_waits_until_everyone_has_chosen():
    state = reveal(
        machine(
            {"Anna": VAMPIRES, "Ben": ["green-vampire", "green-vampire-heart", "yellow-vampire"]}
        ),
        "grave:vampire",
    )
    state = rendezvous.choose(state, "Ben", parse_tiles(["green-vampire", "yellow-vampire"]))
    with pytest.raises(IllegalEvent, match="still waiting for the choice of Anna"):
        reveal(state, "motif:vampire")
    with pytest.raises(IllegalEvent, match="Ben has already chosen"):
        rendezvous.choose(state, "Ben", parse_tiles(["green-vampire-heart", "yellow-vampire"]))


# --- B6 ------------------------------------------------------------------------------


def test_b6_skip_two_puts_away_itself_and_the_next_two_cards():
    result = run(["skip-two", "motif:vampire", "grave:vampire", "color:red"], {"Anna": VAMPIRES})
    assert effects(result) == ["skipped", "skipped", "skipped", "scored"]
    assert result["points"]["Anna"] == 2
    assert result["graveyard"] == []


def test_b6_skip_two_skips_a_graveyard_closed_which_then_does_not_wait():
    result = run(
        ["skip-two", "graveyard-closed", "motif:monk", "grave:vampire"], {"Anna": VAMPIRES}
    )
    assert effects(result) == ["skipped", "skipped", "skipped", "moved"]


def test_b6_skip_two_near_the_end_removes_fewer_cards():
    result = run(["motif:vampire", "skip-two", "color:red"], {"Anna": VAMPIRES})
    assert effects(result) == ["scored", "skipped", "skipped"]


def test_b6_a_skip_two_that_is_skipped_removes_nothing_more():
    result = run(
        ["skip-two", "motif:vampire", "skip-two", "motif:monk", "motif:maiden"],
        {"Anna": ["red-monk", "red-maiden"]},
    )
    assert effects(result) == ["skipped", "skipped", "skipped", "scored", "scored"]


# --- B7 ------------------------------------------------------------------------------


def test_b7_graveyard_closed_cancels_the_next_graveyard_card():
    result = run(["graveyard-closed", "grave:vampire", "grave:any"], {"Anna": VAMPIRES})
    assert effects(result) == ["waiting", "cancelled", "moved"]
    assert result["collections"]["Anna"] == ["red-vampire-heart"]


def test_b7_graveyard_closed_cancels_skip_two_which_then_removes_no_cards():
    result = run(["graveyard-closed", "skip-two", "motif:vampire"], {"Anna": VAMPIRES})
    assert effects(result) == ["waiting", "cancelled", "scored"]
    assert result["points"]["Anna"] == 3


def test_b7_points_and_advanced_cards_do_not_end_graveyard_closed():
    result = run(
        ["graveyard-closed", "motif:vampire", "sunrise", "grave:vampire"], {"Anna": VAMPIRES}
    )
    assert effects(result) == ["waiting", "scored", "moved", "cancelled"]
    assert result["graveyard"] == []


def test_b7_unused_graveyard_closed_simply_leaves_with_the_pile():
    result = run(["graveyard-closed", "motif:vampire"], {"Anna": VAMPIRES})
    assert effects(result) == ["waiting", "scored"]


def test_b7_graveyard_closed_is_used_up_by_the_card_it_cancels():
    state = machine({"Anna": VAMPIRES[:2]})
    for card in ("graveyard-closed", "skip-two", "grave:vampire"):
        state = reveal(state, card)
    assert [s.effect for s in state.steps] == [Effect.WAITING, Effect.CANCELLED, Effect.MOVED]
    assert state.steps[1].ruling == "B7"


# --- B8 ------------------------------------------------------------------------------

SUNRISE_TABLE = {"Anna": ["red-vampire-heart"], "Ben": ["red-coffin-heart"]}


def test_b8_servant_cancels_the_next_sunrise():
    result = run(["servant", "motif:vampire", "sunrise", "neck-bite"], SUNRISE_TABLE)
    assert effects(result) == ["waiting", "scored", "cancelled", "moved"]
    assert result["collections"]["Ben"] == ["red-coffin-heart"]


def test_b8_servant_does_not_cancel_other_cards():
    result = run(["servant", "grave:coffin", "blood-wedding"], SUNRISE_TABLE)
    assert effects(result) == ["waiting", "moved", "moved"]


def test_b8_vow_of_chastity_cancels_the_next_blood_wedding():
    table = {"Anna": ["blue-maiden-heart"], "Ben": ["blue-monk-heart"]}
    result = run(["vow-of-chastity", "sunrise", "blood-wedding"], table)
    assert effects(result) == ["waiting", "moved", "cancelled"]
    assert result["collections"]["Ben"] == ["blue-monk-heart"]


# --- B9 ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "taker", "target"),
    [
        ("blood-wedding", "maiden", "monk"),
        ("neck-bite", "vampire", "maiden"),
        ("hoarding", "monk", "garlic"),
        ("sunrise", "vampire", "coffin"),
    ],
)
def test_b9_a_heart_tile_takes_its_target_of_the_same_colour(card, taker, target):
    table = {
        "Anna": [f"green-{taker}-heart", f"red-{taker}-heart"],
        "Ben": [f"green-{target}-heart", f"green-{target}", f"blue-{target}-heart"],
        "Cleo": [f"red-{target}-heart"],
    }
    result = run([card], table)
    assert result["steps"][0]["effect"] == "moved"
    assert moved(result["steps"][0]) == [
        (f"red-{target}-heart", "Cleo", "Anna"),
        (f"green-{target}-heart", "Ben", "Anna"),
    ]


def test_b9_a_steal_does_nothing_when_the_target_is_in_the_graveyard_or_his_own():
    table = {"Anna": ["red-vampire-heart", "red-maiden-heart", "blue-vampire-heart"]}
    result = run(["neck-bite"], table, graveyard=["blue-maiden-heart"])
    assert result["steps"][0] == {
        "card": "neck-bite",
        "effect": "moved",
        "points": {"Anna": 0, "Ben": 0, "Cleo": 0},
        "moves": [],
    }


def test_b9_a_plain_tile_neither_takes_nor_is_taken():
    result = run(
        ["sunrise"],
        {
            "Anna": ["red-vampire"],
            "Ben": ["red-coffin-heart"],
            "Cleo": ["blue-vampire-heart", "blue-coffin"],
        },
    )
    assert moved(result["steps"][0]) == []


def test_b9_resurrection_takes_the_only_tile_of_the_coffins_colour():
    result = run(
        ["resurrection"], {"Ben": ["red-coffin-heart"]}, graveyard=["red-monk", "blue-monk"]
    )
    assert moved(result["steps"][0]) == [("red-monk", "graveyard", "Ben")]
    assert result["graveyard"] == ["blue-monk"]


def test_b9_resurrection_asks_when_the_graveyard_offers_a_choice():
    state = machine(
        {"Ben": ["red-coffin-heart"], "Cleo": ["blue-coffin-heart"]},
        graveyard=["red-monk", "red-garlic", "blue-maiden"],
    )
    state = reveal(state, "resurrection")
    assert [ask.player for ask in state.asks] == ["Ben"]
    assert state.asks[0].options == tuple(parse_tiles(["red-monk", "red-garlic"]))
    with pytest.raises(IllegalEvent, match="not in the graveyard"):
        rendezvous.choose(state, "Ben", parse_tiles(["red-vampire"]))
    with pytest.raises(IllegalEvent, match="no coffin with a heart that may take the blue"):
        rendezvous.choose(state, "Ben", parse_tiles(["blue-maiden"]))
    state = rendezvous.choose(state, "Ben", parse_tiles(["red-garlic"]))
    assert state.collection("Ben") == set(parse_tiles(["red-coffin-heart", "red-garlic"]))
    assert state.collection("Cleo") == set(parse_tiles(["blue-coffin-heart", "blue-maiden"]))
    assert state.graveyard == {Tile.parse("red-monk")}


def test_b9_resurrection_suggests_a_heart_tile_first_then_motif_order():
    result = run(
        ["resurrection"],
        {"Anna": ["green-coffin-heart"]},
        graveyard=["green-vampire", "green-garlic-heart", "green-monk-heart"],
    )
    assert moved(result["steps"][0]) == [("green-monk-heart", "graveyard", "Anna")]
    result = run(
        ["resurrection"], {"Anna": ["green-coffin-heart"]}, graveyard=["green-garlic", "green-monk"]
    )
    assert moved(result["steps"][0]) == [("green-monk", "graveyard", "Anna")]


def test_b9_resurrection_with_an_empty_graveyard_moves_nothing():
    result = run(["resurrection"], {"Anna": ["green-coffin-heart"]})
    assert effects(result) == ["moved"]
    assert result["steps"][0]["moves"] == []


# --- B10, B11 ------------------------------------------------------------------------


def test_b10_garlic_soup_scores_three_per_garlic_then_buries_every_garlic():
    table = {"Anna": ["red-garlic", "red-garlic-heart", "red-monk"], "Cleo": ["blue-garlic"]}
    result = run(["garlic-soup", "motif:garlic"], table)
    soup = result["steps"][0]
    assert soup["effect"] == "scored"
    assert soup["points"] == {"Anna": 6, "Ben": 0, "Cleo": 3}
    assert moved(soup) == [
        ("red-garlic", "Anna", "graveyard"),
        ("red-garlic-heart", "Anna", "graveyard"),
        ("blue-garlic", "Cleo", "graveyard"),
    ]
    assert result["steps"][1]["points"] == {"Anna": 0, "Ben": 0, "Cleo": 0}


def test_b11_banishment_buries_the_owners_vampires_of_the_garlic_hearts_colour():
    table = {
        "Anna": ["red-garlic-heart", "red-vampire", "red-vampire-heart", "blue-vampire"],
        "Ben": ["blue-garlic-heart", "green-vampire"],
        "Cleo": ["blue-vampire-heart"],
    }
    result = run(["banishment"], table)
    assert moved(result["steps"][0]) == [
        ("red-vampire", "Anna", "graveyard"),
        ("red-vampire-heart", "Anna", "graveyard"),
    ]
    assert result["collections"]["Cleo"] == ["blue-vampire-heart"]


# --- the machine itself ----------------------------------------------------------------


def test_a_tile_in_two_places_cannot_start_a_rendezvous():
    with pytest.raises(InvalidSetup, match=r"'red-monk' .* Anna and graveyard"):
        machine({"Anna": ["red-monk"]}, graveyard=["red-monk"])


def test_a_choice_without_a_waiting_card_is_refused():
    with pytest.raises(IllegalEvent, match="no card is waiting"):
        rendezvous.choose(machine({}), "Anna", [])


def test_every_step_has_points_for_every_player_and_a_list_of_moves():
    pile = ["skip-two", "motif:monk", "color:red", "graveyard-closed", "grave:any", "servant"]
    for step in run(pile, {"Anna": VAMPIRES})["steps"]:
        assert set(step["points"]) == {"Anna", "Ben", "Cleo"}
        assert isinstance(step["moves"], list)
