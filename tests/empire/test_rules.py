"""One test per ruling of the moat and cellar game (RULINGS.md M1-M6), named after it."""

from __future__ import annotations

import pytest

from companion.core.events import Event, Game, IllegalEvent, InvalidSetup
from companion.core.store import Store
from companion.empire.cards import BrokenRule, Piles
from companion.empire.rules import (
    EMPIRE,
    Seat,
    Step,
    combat,
    discard_and_draw,
    hide,
    holy_water,
    pass_turn,
    reveal,
)
from tests.empire.table import SEED, bring_to_castle, new_game, pass_turns, step_one


def test_the_seeded_deal_used_by_these_tests():
    state = new_game().state
    assert state.vampires == {4, 6, 9}
    assert state.known_humans == {1, 5}
    assert state.castle == (1, 3, 5)


# -- M1: the table ----------------------------------------------------------------------


def test_m1_each_player_starts_with_eight_cards_drawn_from_his_deck():
    state = new_game(decks={"vampire": 40, "human": 30}).state
    assert state.vampire_cards == Piles(deck=32, hand=8)
    assert state.human_cards == Piles(deck=22, hand=8)


def test_m1_decks_default_to_the_boxs_forty_cards():
    state = new_game().state
    assert state.vampire_cards.total == state.human_cards.total == 40


@pytest.mark.parametrize("seed", range(25))
def test_m1_three_vampires_and_two_humans_the_human_player_knows(seed):
    state = Game(EMPIRE, {"seed": seed}).state
    assert len(state.vampires) == 3
    assert len(state.known_humans) == 2
    assert not state.vampires & state.known_humans


def test_m1_the_same_seed_deals_the_same_secret_and_another_seed_may_not():
    deals = {frozenset(Game(EMPIRE, {"seed": s}).state.vampires) for s in range(10)}
    assert Game(EMPIRE, {"seed": 7}).state == Game(EMPIRE, {"seed": 7}).state
    assert len(deals) > 1


def test_m1_three_characters_lie_face_up_as_the_castle_and_six_form_the_city():
    state = new_game().state
    assert len(state.castle) == 3
    assert state.city == set(range(1, 10)) - set(state.castle)


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ({}, "seed"),
        ({"seed": "x"}, "seed"),
        ({"seed": 1, "decks": {"vampire": 7}}, "8 to"),
        ({"seed": 1, "decks": {"ghoul": 40}}, "'decks'"),
        ({"seed": 1, "players": {"human": " "}}, "name"),
        ({"seed": 1, "characters": ["a"] * 9}, "different"),
        ({"seed": 1, "characters": ["a"]}, "nine"),
        ({"seed": 1, "jokers": 2}, "jokers"),
    ],
)
def test_an_invalid_setup_is_refused_with_its_reason(setup, message):
    with pytest.raises(InvalidSetup, match=message):
        Game(EMPIRE, setup)


# -- M2: turns and steps ------------------------------------------------------------------


def test_m2_the_vampire_player_takes_the_first_turn_a_night():
    state = new_game().state
    assert state.active is Seat.VAMPIRE
    assert state.active.turn_name == "night"
    assert state.step is Step.DISCARD


def test_m2_nights_and_days_alternate():
    game = new_game()
    seen = []
    for _ in range(4):
        seen.append((game.state.active.turn_name, game.state.round))
        pass_turns(game, 1)
    assert seen == [("night", 1), ("day", 1), ("night", 2), ("day", 2)]


def test_m2_step_one_comes_before_the_action():
    game = new_game()
    with pytest.raises(IllegalEvent, match="M2: step 1"):
        game.push(pass_turn(Seat.VAMPIRE))
    assert game.version == 0


def test_m2_step_one_is_taken_once_per_turn():
    game = new_game()
    step_one(game)
    with pytest.raises(IllegalEvent, match=r"M2: step 1 .* already done"):
        step_one(game)


def test_m2_discarded_cards_are_replaced_by_drawing_up_to_eight():
    game = new_game()
    state = step_one(game, cellar=2, moat=3)
    assert state.vampire_cards == Piles(deck=27, hand=8, cellar=2, moat=3)


def test_m2_a_player_with_more_than_eight_must_discard_down_to_eight_before_drawing():
    game = new_game()
    step_one(game)
    game.push(pass_turn(Seat.VAMPIRE))
    step_one(game)
    game.push(combat(Seat.HUMAN, drew={"human": 3}))  # a support card drew three more
    pass_turns(game, 1)
    assert game.state.human_cards.hand == 11
    with pytest.raises(IllegalEvent, match=r"M2: .* 10 cards must discard down to eight"):
        step_one(game, moat=1)
    state = step_one(game, cellar=1, moat=2)
    assert state.human_cards.hand == 8
    assert state.human_cards.deck == 29  # nothing drawn: the hand was exactly eight


def test_m2_the_vampire_player_may_reveal_a_vampire_in_step_two():
    game = new_game()
    step_one(game)
    state = game.push(reveal(4))
    assert 4 in state.revealed
    assert state.step is Step.ACTION


def test_m2_revealing_is_refused_before_step_one():
    game = new_game()
    with pytest.raises(IllegalEvent, match=r"M2: step 1 .* before revealing"):
        game.push(reveal(4))


def test_m2_revealing_is_refused_after_the_action_or_a_second_time():
    game = new_game()
    step_one(game)
    game.push(reveal(4))
    with pytest.raises(IllegalEvent, match="M2: one vampire at most"):
        game.push(reveal(6))


def test_m2_only_the_vampire_player_reveals_and_only_at_night():
    game = new_game()
    step_one(game)
    with pytest.raises(IllegalEvent, match="only the vampire player reveals"):
        game.push(Event("reveal", {"character": 4}, "host"))
    game.push(pass_turn(Seat.VAMPIRE))
    step_one(game)
    with pytest.raises(IllegalEvent, match="M2: it is the human player's day"):
        game.push(reveal(4))


def test_m2_a_player_cannot_act_on_the_other_players_turn():
    game = new_game()
    with pytest.raises(IllegalEvent, match="vampire player's night, not yours"):
        game.push(discard_and_draw(Seat.HUMAN))


def test_m2_the_host_may_record_for_the_active_player():
    game = new_game()
    game.push(Event("discard-and-draw", {"moat": 1}, "host"))
    assert game.state.vampire_cards.moat == 1


def test_m2_one_action_ends_the_turn():
    game = new_game()
    step_one(game)
    state = game.push(pass_turn(Seat.VAMPIRE))
    assert (state.active, state.step) == (Seat.HUMAN, Step.DISCARD)


def test_m2_hiding_is_the_vampire_players_action_and_holy_water_the_human_players():
    game = new_game()
    step_one(game)
    with pytest.raises(IllegalEvent, match="only the human player uses holy water"):
        game.push(Event("holy-water", {"character": 1}))
    game.push(pass_turn(Seat.VAMPIRE))
    step_one(game)
    with pytest.raises(IllegalEvent, match="only the vampire player hides"):
        game.push(Event("hide", {"character": 1, "refill": [2]}))


# -- M3: the cellar and the moat ------------------------------------------------------------


def test_m3_cards_go_to_the_cellar_only_in_step_one():
    game = new_game()
    step_one(game)
    with pytest.raises(IllegalEvent, match="M3: cards go to the cellar only in step 1"):
        game.push(Event("combat", {"killed": [], "cellar": 1}, "vampire"))


def test_m3_every_card_played_goes_to_the_moat():
    game = new_game()
    step_one(game)
    state = game.push(combat(Seat.VAMPIRE, played={"vampire": 3, "human": 2}))
    assert state.vampire_cards == Piles(deck=32, hand=5, moat=3)
    assert state.human_cards == Piles(deck=32, hand=6, moat=2)


def test_m3_a_player_cannot_play_more_cards_than_he_holds():
    game = new_game()
    step_one(game)
    with pytest.raises(IllegalEvent, match="cannot play 9 cards from a hand of 8"):
        game.push(combat(Seat.VAMPIRE, played={"vampire": 9}))


# -- M4: the cellar becomes the deck, once ---------------------------------------------------


def test_m4_cellar_becomes_the_deck_once():
    game = new_game(decks={"vampire": 12, "human": 12})  # 4 left in each deck after the deal
    state = step_one(game, cellar=6)  # draws the last 4, then 2 of the cellar's 6
    assert state.vampire_cards == Piles(deck=4, hand=8, cellar=0, moat=0, cellar_made=True)
    game.push(pass_turn(Seat.VAMPIRE))
    pass_turns(game, 1)
    state = step_one(game, moat=8)  # the new deck's 4, and no second cellar
    assert state.vampire_cards == Piles(deck=0, hand=4, cellar=0, moat=8, cellar_made=True)


def test_m4_after_the_cellar_is_made_every_discard_goes_to_the_moat():
    game = new_game(decks={"vampire": 8})
    step_one(game, moat=1)  # the empty deck turns the (empty) cellar into the deck
    game.push(pass_turn(Seat.VAMPIRE))
    pass_turns(game, 1)
    with pytest.raises(IllegalEvent, match="M4: the cellar has already become the deck"):
        step_one(game, cellar=1)


def test_m4_the_cellar_is_not_made_while_the_deck_still_has_cards():
    game = new_game()
    state = step_one(game, cellar=5)
    assert not state.vampire_cards.cellar_made
    assert state.vampire_cards.cellar == 5


def test_m4_with_an_empty_deck_and_no_cellar_the_draw_is_of_nothing():
    game = new_game(decks={"vampire": 8})
    state = step_one(game, moat=3)
    assert state.vampire_cards == Piles(deck=0, hand=5, moat=3, cellar_made=True)
    game.push(pass_turn(Seat.VAMPIRE))
    pass_turns(game, 1)
    state = step_one(game, moat=2)
    assert state.vampire_cards == Piles(deck=0, hand=3, moat=5, cellar_made=True)


def test_m4_drawing_by_a_card_effect_also_makes_the_cellar():
    game = new_game(decks={"vampire": 9})
    assert step_one(game, cellar=1).vampire_cards == Piles(deck=0, hand=8, cellar=1)
    state = game.push(combat(Seat.VAMPIRE, drew={"vampire": 2}))  # the cellar's one card
    assert state.vampire_cards == Piles(deck=0, hand=9, cellar=0, cellar_made=True)


# -- M5: revealed vampires ------------------------------------------------------------------


def test_m5_a_revealed_vampire_stays_revealed_through_the_city_and_back():
    game = new_game()
    step_one(game)
    game.push(reveal(4))
    game.push(hide(1, refill=[4]))  # 4 enters the castle showing its vampire side
    assert 4 in game.state.castle
    pass_turns(game, 1)
    step_one(game)
    game.push(hide(4, refill=[2]))
    assert 4 in game.state.city and 4 in game.state.revealed
    pass_turns(game, 1)
    step_one(game)
    game.push(hide(2, refill=[4]))
    assert 4 in game.state.castle and 4 in game.state.revealed


def test_m5_a_revealed_vampire_cannot_be_revealed_again():
    game = new_game()
    step_one(game)
    game.push(reveal(4))
    game.push(pass_turn(Seat.VAMPIRE))
    pass_turns(game, 1)
    step_one(game)
    with pytest.raises(IllegalEvent, match=r"M5: .* already revealed"):
        game.push(reveal(4))


def test_only_a_living_vampire_can_be_revealed():
    game = new_game()
    step_one(game)
    with pytest.raises(IllegalEvent, match=r"Lady \(1\) is not a vampire"):
        game.push(reveal(1))


# -- the actions ---------------------------------------------------------------------------


def test_hiding_sends_a_castle_character_into_the_city_and_refills_the_castle():
    game = new_game()
    step_one(game)
    state = game.push(hide(3, refill=[7], played={"vampire": 1}))
    assert state.castle == (1, 5, 7)
    assert 3 in state.city and 7 not in state.city
    assert state.vampire_cards.moat == 1


def test_the_hidden_character_may_turn_up_again_from_the_shuffled_city():
    game = new_game()
    step_one(game)
    assert game.push(hide(3, refill=[3])).castle == (1, 5, 3)


@pytest.mark.parametrize("refill", [[], [7, 8], [5], [1]])
def test_m1_the_castle_must_be_refilled_to_three_from_the_city(refill):
    game = new_game()
    step_one(game)
    with pytest.raises(IllegalEvent, match="M1: the castle is refilled to three"):
        game.push(hide(3, refill=refill))


def test_only_a_character_in_the_castle_can_be_hidden():
    game = new_game()
    step_one(game)
    with pytest.raises(IllegalEvent, match=r"Lord \(2\) is not in the castle"):
        game.push(hide(2, refill=[7]))


def test_holy_water_on_a_human_clears_him_for_both_players_and_ends_the_day():
    game = new_game()
    pass_turns(game, 1)
    step_one(game)
    state = game.push(holy_water(3, played={"human": 1}))
    assert 3 in state.cleared
    assert state.active is Seat.VAMPIRE
    assert state.human_cards.moat == 1


def test_holy_water_on_a_vampire_reveals_it_and_the_day_waits_for_an_attack():
    game = new_game()
    bring_to_castle(game, [4])  # a night of hiding: the Lady leaves, the Bishop turns up
    step_one(game)
    state = game.push(holy_water(4))
    assert 4 in state.revealed
    assert (state.active, state.step, state.suspect) == (Seat.HUMAN, Step.ATTACK, 4)
    with pytest.raises(IllegalEvent, match=r"attack it now or pass"):
        game.push(holy_water(1))
    with pytest.raises(IllegalEvent, match=r"only Bishop \(4\) can be attacked"):
        game.push(combat(Seat.HUMAN, killed=[3], refill=[2]))
    state = game.push(combat(Seat.HUMAN, killed=[4], refill=[2]))
    assert 4 in state.dead and state.active is Seat.VAMPIRE


def test_holy_water_is_not_wasted_on_a_vampire_already_revealed():
    game = new_game()
    step_one(game)
    game.push(reveal(4))
    game.push(hide(1, refill=[4]))
    step_one(game)
    with pytest.raises(IllegalEvent, match=r"M5: .* already revealed as a vampire"):
        game.push(holy_water(4))


def test_combat_removes_the_killed_and_refills_the_castle():
    game = new_game()
    step_one(game)
    state = game.push(combat(Seat.VAMPIRE, killed=[1, 3], refill=[2, 8], played={"vampire": 2}))
    assert state.dead == (1, 3)
    assert state.castle == (5, 2, 8)
    assert state.city == {4, 6, 7, 9}


def test_a_failed_attack_kills_nobody():
    game = new_game()
    step_one(game)
    state = game.push(combat(Seat.VAMPIRE, played={"vampire": 1, "human": 1}))
    assert state.dead == () and state.castle == (1, 3, 5)


def test_a_pass_plays_no_cards():
    game = new_game()
    step_one(game)
    with pytest.raises(IllegalEvent, match="'pass' has no field 'played'"):
        game.push(Event("pass", {"played": {"vampire": 1}}, "vampire"))


# -- M6: the end -------------------------------------------------------------------------------


def kill(game: Game, characters: list[int]) -> None:
    """Night by night, bring each character into the castle and kill it in combat."""
    for character in characters:
        bring_to_castle(game, [character])
        if game.state.active is Seat.HUMAN:
            pass_turns(game, 1)
        step_one(game)
        castle = [c for c in game.state.castle if c != character]
        city = sorted(game.state.city)
        game.push(combat(Seat.VAMPIRE, killed=[character], refill=city[:1]))
        if game.state.outcome is None and castle:
            pass_turns(game, 1)


def test_m6_the_vampire_player_wins_when_every_human_is_dead():
    game = new_game()
    kill(game, [1, 2, 3, 5, 7])
    assert game.state.outcome is None
    kill(game, [8])
    assert game.state.outcome.winner is Seat.VAMPIRE
    assert game.state.outcome.reason == "every human is dead"


def test_m6_the_human_player_wins_when_every_vampire_is_dead():
    game = new_game()
    kill(game, [4, 6])
    assert game.state.outcome is None
    kill(game, [9])
    assert game.state.outcome.winner is Seat.HUMAN


def test_m6_three_revealed_vampires_together_in_the_castle_win_for_the_vampire_player():
    game = new_game()
    for vampire in (4, 6):
        step_one(game)
        game.push(reveal(vampire))
        game.push(pass_turn(Seat.VAMPIRE))
        pass_turns(game, 1)
    bring_to_castle(game, [4, 6, 9])
    assert game.state.outcome is None  # 9 is not revealed yet
    if game.state.active is Seat.HUMAN:
        pass_turns(game, 1)
    step_one(game)
    state = game.push(reveal(9))
    assert state.outcome.winner is Seat.VAMPIRE
    assert "three revealed vampires" in state.outcome.reason


def run_out_of_cards(game: Game) -> None:
    """Both players (with eight-card decks) throw their hands to the moat and pass."""
    for _ in range(2):
        if game.state.outcome is None:
            step_one(game, moat=game.state.cards(game.state.active).hand)
            if game.state.outcome is None:
                game.push(pass_turn(game.state.active))


@pytest.mark.parametrize(
    ("killed", "winner", "scores"),
    [
        ([], None, {Seat.VAMPIRE: 6, Seat.HUMAN: 6}),
        ([1], Seat.VAMPIRE, {Seat.VAMPIRE: 6, Seat.HUMAN: 5}),
        ([4], Seat.HUMAN, {Seat.VAMPIRE: 4, Seat.HUMAN: 6}),
    ],
)
def test_m6_when_both_run_out_of_cards_humans_score_1_and_vampires_2(killed, winner, scores):
    game = new_game(decks={"vampire": 20, "human": 20})
    kill(game, killed)
    decks_empty = {"vampire": 8, "human": 8}
    game = Game(EMPIRE, {"seed": SEED, "decks": decks_empty}, game.effective)
    run_out_of_cards(game)
    outcome = game.state.outcome
    assert outcome.winner is winner
    assert dict(outcome.scores) == scores


def test_m6_the_game_goes_on_while_one_player_still_has_cards():
    game = new_game(decks={"vampire": 8})
    step_one(game, moat=8)
    game.push(pass_turn(Seat.VAMPIRE))
    assert game.state.vampire_cards.out_of_cards
    assert game.state.outcome is None


def test_nothing_can_be_recorded_once_the_game_is_over():
    game = new_game(decks={"vampire": 8, "human": 8})
    run_out_of_cards(game)
    with pytest.raises(IllegalEvent, match="the game is over"):
        step_one(game)


# -- the record ----------------------------------------------------------------------------------


def test_an_illegal_event_is_refused_and_changes_nothing():
    game = new_game()
    step_one(game)
    before = game.state
    with pytest.raises(IllegalEvent):
        game.push(hide(2, refill=[7]))
    assert game.state is before and game.version == 1


@pytest.mark.parametrize(
    "event",
    [
        Event("shuffle"),
        Event("discard-and-draw", {"moat": -1}),
        Event("discard-and-draw", {"moat": True}),
        Event("discard-and-draw", {"moat": 9}),
    ],
)
def test_malformed_events_are_refused_with_a_sentence(event):
    with pytest.raises(IllegalEvent):
        new_game().push(event)


def test_undo_takes_back_the_last_step():
    game = new_game()
    step_one(game, cellar=2)
    game.push(reveal(4))
    game.undo("vampire")
    assert game.state.step is Step.REVEAL and not game.state.revealed


def test_a_stored_game_replays_to_the_same_table(tmp_path):
    with Store(tmp_path / "games.db") as store:
        game_id = store.create_game("vampire-empire", {"seed": SEED}, "Friday")
        store.play(game_id, discard_and_draw(Seat.VAMPIRE, cellar=1, moat=2), 0)
        store.play(game_id, reveal(6), 1)
        loaded = store.load(game_id).game
    assert loaded.state.revealed == {6}
    assert loaded.state.vampire_cards == Piles(deck=29, hand=8, cellar=1, moat=2)


def test_players_act_under_their_own_names():
    game = new_game(players={"vampire": "Anna", "human": "Ben"})
    game.push(Event("discard-and-draw", {}, "Anna"))
    game.push(Event("reveal", {"character": 4}, "Anna"))
    with pytest.raises(IllegalEvent, match="vampire player's night, not yours"):
        game.push(Event("pass", {}, "Ben"))
    game.push(Event("pass", {}, "Anna"))
    game.push(Event("discard-and-draw", {}, "Ben"))
    assert game.state.active is Seat.HUMAN and game.state.revealed == {4}


@pytest.mark.parametrize(
    "players",
    [{"vampire": "Anna", "human": "anna"}, {"human": "host"}, {"vampire": "human"}],
)
def test_the_players_need_two_distinct_names_that_are_not_roles(players):
    with pytest.raises(InvalidSetup, match="two different names"):
        new_game(players=players)


def refusal(game: Game, event: Event) -> BrokenRule:
    with pytest.raises(BrokenRule) as raised:
        game.push(event)
    return raised.value


def test_refusals_name_the_rule_they_enforce():
    game = new_game(decks={"vampire": 8})
    assert refusal(game, pass_turn(Seat.VAMPIRE)).rule == "M2"
    step_one(game, moat=1)  # the deck is empty: the (empty) cellar becomes the deck
    assert refusal(game, hide(3, refill=[])).rule == "M1"
    assert refusal(game, Event("pass", {"cellar": 1}, "vampire")).rule == "M3"
    game.push(reveal(4))
    game.push(pass_turn(Seat.VAMPIRE))
    pass_turns(game, 1)
    assert refusal(game, discard_and_draw(Seat.VAMPIRE, cellar=1)).rule == "M4"
    step_one(game)
    assert refusal(game, reveal(4)).rule == "M5"
