"""Helpers that play the moat and cellar game the way a table would, for the tests."""

from __future__ import annotations

import random
from collections.abc import Iterable

from companion.core.events import Event, Game
from companion.empire.rules import (
    EMPIRE,
    EmpireState,
    Seat,
    Step,
    discard_and_draw,
    hide,
    pass_turn,
)

#: seed 1 deals vampires 4, 6, 9; the human player is told 1 and 5; castle 1, 3, 5.
SEED = 1


def new_game(**setup: object) -> Game[EmpireState]:
    return Game(EMPIRE, {"seed": SEED, **setup})


def step_one(game: Game[EmpireState], cellar: int = 0, moat: int = 0) -> EmpireState:
    return game.push(discard_and_draw(game.state.active, cellar, moat))


def pass_turns(game: Game[EmpireState], turns: int) -> None:
    """Whole turns of drawing nothing new and passing."""
    for _ in range(turns):
        step_one(game)
        game.push(pass_turn(game.state.active))


def bring_to_castle(game: Game[EmpireState], wanted: Iterable[int]) -> None:
    """Use nights of hiding to turn the wanted characters up into the castle."""
    wanted = list(wanted)
    for character in wanted:
        if character in game.state.castle:
            continue
        if game.state.active is Seat.HUMAN:
            pass_turns(game, 1)
        step_one(game)
        leaving = next(c for c in game.state.castle if c not in wanted)
        game.push(hide(leaving, refill=[character]))
    assert set(wanted) <= set(game.state.castle)


def random_event(state: EmpireState, rng: random.Random) -> Event:
    """A plausible event for this state: mostly legal, sometimes not, as phones would send."""
    seat = state.active
    piles = state.cards(seat)
    if state.step is Step.DISCARD:
        discards = rng.randint(0, piles.hand)
        cellar = 0 if piles.cellar_made and rng.random() < 0.9 else rng.randint(0, discards)
        return discard_and_draw(seat, cellar, discards - cellar)
    if state.step is Step.REVEAL and rng.random() < 0.3:
        return Event("reveal", {"character": rng.randint(1, 9)}, Seat.VAMPIRE.value)
    kinds = ["combat", "pass", "hide" if seat is Seat.VAMPIRE else "holy-water"]
    kind = rng.choice(kinds)
    if kind == "pass" or not state.castle:
        return pass_turn(seat)
    data: dict[str, object] = {
        "played": {s.value: rng.randint(0, min(2, state.cards(s).hand)) for s in Seat},
        "drew": {seat.value: rng.choice([0, 0, 0, 1, 3])},
    }
    leaving: list[int] = []
    if kind in ("hide", "holy-water"):
        data["character"] = rng.choice(state.castle)
        if kind == "hide":
            leaving = [data["character"]]  # type: ignore[list-item]
    else:
        targets = [state.suspect] if state.suspect else list(state.castle)
        leaving = rng.sample(targets, rng.randint(0, min(2, len(targets))))
        data["killed"] = leaving
    if kind != "holy-water":
        city = sorted(state.city | (set(leaving) if kind == "hide" else set()))
        data["refill"] = rng.sample(city, min(len(leaving), len(city)))
    return Event(kind, data, seat.value)
