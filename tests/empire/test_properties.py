"""Properties of whole games played at random: cards are counted honestly, replay is exact."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from companion.core.events import Game, IllegalEvent
from companion.empire.rules import EMPIRE, Seat
from tests.empire.table import random_event

decks = st.integers(min_value=8, max_value=24)


def play_at_random(game: Game, rng: random.Random, events: int) -> int:
    """Push ``events`` random events; returns how many the rules refused."""
    refused = 0
    for _ in range(events):
        if game.state.outcome is not None:
            break
        before = game.state
        try:
            game.push(random_event(game.state, rng))
        except IllegalEvent:
            refused += 1
            assert game.state is before
    return refused


@given(seed=st.integers(0, 10_000), vampire=decks, human=decks, events=st.integers(0, 120))
def test_no_card_appears_or_vanishes_across_deck_hand_cellar_and_moat(seed, vampire, human, events):
    game = Game(EMPIRE, {"seed": seed, "decks": {"vampire": vampire, "human": human}})
    rng = random.Random(seed)
    for _ in range(events):
        if game.state.outcome is not None:
            break
        try:
            state = game.push(random_event(game.state, rng))
        except IllegalEvent:
            continue
        assert state.vampire_cards.total == vampire
        assert state.human_cards.total == human
        for seat in Seat:
            piles = state.cards(seat)
            assert min(piles.deck, piles.hand, piles.cellar, piles.moat) >= 0
            assert not (piles.cellar_made and piles.cellar)  # M4: no second cellar


@given(seed=st.integers(0, 10_000), events=st.integers(0, 80))
def test_every_character_is_in_exactly_one_place(seed, events):
    game = Game(EMPIRE, {"seed": seed, "decks": {"vampire": 12, "human": 12}})
    play_at_random(game, random.Random(seed), events)
    state = game.state
    places = [*state.castle, *state.city, *state.dead]
    assert sorted(places) == list(range(1, 10))
    assert len(state.castle) == min(3, 9 - len(state.dead)) or state.outcome is not None
    assert state.revealed <= state.vampires


@given(seed=st.integers(0, 10_000), events=st.integers(0, 80), undos=st.integers(0, 5))
def test_replaying_the_log_rebuilds_the_same_table(seed, events, undos):
    game = Game(EMPIRE, {"seed": seed, "decks": {"vampire": 10, "human": 14}})
    play_at_random(game, random.Random(seed), events)
    for _ in range(min(undos, len(game.effective))):
        game.undo()
    assert game.replay() == game.state
    assert Game(EMPIRE, game.setup, game.log).state == game.state


def test_random_games_reach_every_ending():
    """The random player is good enough to explore the rules, so the properties mean something."""
    reasons = set()
    for seed in range(150):
        game = Game(EMPIRE, {"seed": seed, "decks": {"vampire": 10, "human": 10}})
        play_at_random(game, random.Random(seed), 400)
        if game.state.outcome is not None:
            reasons.add(game.state.outcome.reason.split(":")[0])
    assert reasons >= {
        "every vampire is dead",
        "every human is dead",
        "both players are out of cards",
    }
