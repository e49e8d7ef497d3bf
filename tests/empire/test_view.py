"""Secrets stay with their seat: nothing sent to the other phone or the host depends on them.

The proof is counterfactual. For a table in play, build every other secret that agrees
with what a viewer may know (the revealed, the cleared, the dead, his own secret), and
check that the viewer's view and every refusal he can provoke are byte for byte the same.
What does not depend on the secret cannot contain it.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.events import Event, Game, IllegalEvent
from companion.empire.characters import CHARACTERS
from companion.empire.rules import EMPIRE, EmpireState, Seat, hide, pass_turn, reveal
from companion.empire.view import HOST, history, view
from tests.empire.table import new_game, random_event, step_one
from tests.empire.test_properties import play_at_random


def other_secrets(
    state: EmpireState, viewer: str, vary_known: bool = True
) -> Iterator[EmpireState]:
    """Every state that differs only in secrets ``viewer`` must not learn.

    ``vary_known=False`` keeps the human player's two known humans where the rules never
    read them (refusals), which keeps the search small.
    """
    public_vampires = state.revealed | (state.vampires & set(state.dead))
    public_humans = state.cleared | (set(state.dead) - state.vampires)
    if viewer == Seat.HUMAN:
        public_humans |= state.known_humans
    for vampires in map(frozenset, itertools.combinations(CHARACTERS, 3)):
        if viewer == Seat.VAMPIRE and vampires != state.vampires:
            continue
        if not public_vampires <= vampires or vampires & public_humans:
            continue
        humans = [c for c in CHARACTERS if c not in vampires]
        for known in map(frozenset, itertools.combinations(humans, 2)):
            if (viewer == Seat.HUMAN or not vary_known) and known != state.known_humans:
                continue
            if (vampires, known) != (state.vampires, state.known_humans):
                yield replace(state, vampires=vampires, known_humans=known)


def text(state: EmpireState, viewer: str) -> str:
    return json.dumps(view(state, viewer), sort_keys=True)


def answer(state: EmpireState, event: Event) -> str:
    """What the sender is told: the refusal, or that the event was taken."""
    try:
        EMPIRE.apply(state, event)
    except IllegalEvent as refusal:
        return str(refusal)
    return "taken"


def tables(seed: int, events: int) -> list[EmpireState]:
    game = Game(EMPIRE, {"seed": seed, "decks": {"vampire": 12, "human": 12}})
    rng = random.Random(seed)
    states = [game.state]
    for _ in range(events):
        if play_at_random(game, rng, 1) == 0 and game.state.outcome is None:
            states.append(game.state)
    return [s for s in states if s.outcome is None]


@pytest.mark.parametrize("viewer", [Seat.HUMAN.value, HOST, Seat.VAMPIRE.value])
@settings(max_examples=30)
@given(seed=st.integers(0, 10_000), events=st.integers(0, 40))
def test_a_view_does_not_depend_on_secrets_the_viewer_may_not_know(viewer, seed, events):
    for state in tables(seed, events)[-2:]:
        seen = text(state, viewer)
        for other in other_secrets(state, viewer):
            assert text(other, viewer) == seen


@pytest.mark.parametrize("sender", [Seat.HUMAN.value, HOST])
@settings(max_examples=30)
@given(seed=st.integers(0, 10_000), events=st.integers(0, 40))
def test_no_refusal_to_the_human_player_or_host_depends_on_the_vampires(sender, seed, events):
    rng = random.Random(seed)
    for state in tables(seed, events)[-3:]:
        probes = [random_event(state, rng) for _ in range(6)]
        probes += [Event("reveal", {"character": c}, sender) for c in CHARACTERS]
        probes += [Event("holy-water", {"character": c}, sender) for c in CHARACTERS]
        for probe in probes:
            probe = Event(probe.kind, probe.data, sender)
            told = answer(state, probe)
            for other in other_secrets(state, sender, vary_known=False):
                assert answer(other, probe) == told


def test_the_vampire_player_sees_the_three_vampires():
    identities = {c["id"]: c["identity"] for c in view(new_game().state, "vampire")["characters"]}
    assert [c for c, side in identities.items() if side == "vampire"] == [4, 6, 9]


def test_the_human_player_sees_only_his_two_known_humans():
    characters = view(new_game().state, "human")["characters"]
    assert {c["id"]: c["identity"] for c in characters if c["identity"]} == {1: "human", 5: "human"}
    assert [c["id"] for c in characters if c["told_human"]] == [1, 5]


def test_the_host_screen_shows_no_identity_at_the_start():
    characters = view(new_game().state, HOST)["characters"]
    assert all(c["identity"] is None and not c["told_human"] for c in characters)


def test_m5_a_revealed_vampire_shows_its_vampire_side_in_the_castle_to_everybody():
    game = new_game()
    step_one(game)
    game.push(reveal(4))
    state = game.push(pass_turn(Seat.VAMPIRE))
    for viewer in ("vampire", "human", HOST):
        bishop = view(state, viewer)["characters"][3]
        assert (bishop["identity"], bishop["side"], bishop["place"]) == ("vampire", "human", "city")
    game.undo()
    state = game.push(hide(1, refill=[4]))
    assert view(state, HOST)["characters"][3]["side"] == "vampire"


def test_every_identity_is_shown_when_the_game_is_over():
    game = new_game(decks={"vampire": 8, "human": 8})
    for _ in range(2):
        step_one(game, moat=8)
        if game.state.outcome is None:
            game.push(pass_turn(game.state.active))
    assert game.state.outcome is not None
    assert all(c["identity"] for c in view(game.state, HOST)["characters"])


def test_an_unknown_viewer_is_refused():
    with pytest.raises(ValueError, match="not a seat"):
        view(new_game().state, "spectator")


def test_the_history_tells_what_the_companion_worked_out_newest_first():
    game = new_game(decks={"vampire": 10})
    step_one(game, cellar=3)  # 2 from the deck, then the cellar of 3 becomes the deck
    game.push(hide(1, refill=[4], played={"vampire": 1}))
    step_one(game)
    game.push(Event("holy-water", {"character": 4}, "human"))
    entries = history(EMPIRE.start(game.setup), game.effective)
    assert [(e["time"], e["round"], e["kind"]) for e in entries] == [
        ("day", 1, "holy-water"),
        ("day", 1, "discard-and-draw"),
        ("night", 1, "hide"),
        ("night", 1, "discard-and-draw"),
    ]
    holy, _, hidden, first = entries
    assert holy["facts"] == {"character": 4, "vampire": True}
    assert hidden["played"] == {"vampire": 1, "human": 0}
    assert first["facts"] == {"cellar": 3, "moat": 0, "drawn": 3, "cellar_made": ["vampire"]}
