"""Tables to test on: games with told lids (every situation by hand) and seeded games."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace

from hypothesis import strategies as st

from companion.core.events import Event, Game
from companion.middernacht import moves
from companion.middernacht.rules import RULES
from companion.middernacht.state import Row, Table
from companion.middernacht.view import view

PLAYERS = ("Anna", "Ben", "Cleo")
ENDS = {"Anna": ("red", "blue"), "Ben": ("yellow", "white"), "Cleo": ("green", "black")}


def told_game(players: tuple[str, ...] = PLAYERS) -> Game[Table]:
    """A table-mode game past the deal: ends as in ENDS, every middle still unknown."""
    game = Game(RULES, {"players": list(players)})
    for name in players:
        game.push(moves.turn_ends(name, *ENDS[name]))
    return game


def seeded_game(seed: int = 7, players: tuple[str, ...] = PLAYERS) -> Game[Table]:
    return Game(RULES, {"players": list(players), "mode": "seeded", "seed": seed})


def with_rows(state: Table, rows: Mapping[str, Row]) -> Table:
    """The table with some rows laid by hand (for short rows and known middles)."""
    players = tuple(
        replace(p, row=tuple(rows[p.name])) if p.name in rows else p for p in state.players
    )
    return replace(state, players=players)


def play(state: Table, *events: Event) -> Table:
    for event in events:
        state = RULES.apply(state, event)
    return state


def random_event(state: Table, rng: random.Random) -> Event | None:
    """One of the events the view offers to whoever may act (seeded games), or None."""
    for seat in range(len(state.players)):
        offered = view(state, seat)["actions"]
        if offered:
            break
    else:
        return None
    action = rng.choice(offered)
    name = state.players[seat].name
    kind = action["kind"]
    if kind == "turn-lid":
        return moves.turn_lid(name, rng.choice(action["graves"]))
    if kind == "open-neighbour":
        return moves.open_neighbour(name, rng.choice(action["graves"]))
    if kind == "place-vampire":
        return moves.place_vampire(name, rng.choice(action["choices"])["end"])
    if kind == "give-vampire":
        return moves.give_vampire(name, rng.choice(action["choices"])["end"])
    if kind == "place-garlic":
        return moves.place_garlic(name)
    if kind == "pass":
        return moves.pass_(name)
    assert kind == "stop", kind
    return moves.stop(name)


NAMES = ("Anna", "Ben", "Cleo", "Dirk", "Eva", "Finn")
seeds = st.integers(0, 10**6)
player_counts = st.integers(2, 6)
step_counts = st.integers(0, 400)  # seeded games end within a few hundred events


def random_game(seed: int, players: int, steps: int) -> Game[Table]:
    """A seeded game played for ``steps`` events picked among those the view offers."""
    game = seeded_game(seed, NAMES[:players])
    rng = random.Random(seed)
    for _ in range(steps):
        event = random_event(game.state, rng)
        if event is None:
            break
        game.push(event)
    return game
