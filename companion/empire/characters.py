"""The nine characters and the secret deal of who is what (RULINGS.md M1).

Characters are numbered 1 to 9; each also has a name to show on the phones (the box's
nobles, clergy and servants by default; a table may rename them to match its cards).
The deal is drawn from a seeded generator so that the same setup always replays to the
same secret: the log stays the only truth, and no secret needs to be stored beside it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from companion.core.events import InvalidSetup

#: The characters' numbers; the number is the id used in every event.
CHARACTERS: tuple[int, ...] = tuple(range(1, 10))
VAMPIRE_COUNT = 3
KNOWN_HUMAN_COUNT = 2
CASTLE_SIZE = 3

DEFAULT_NAMES: tuple[str, ...] = (
    "Lady",
    "Lord",
    "Officer",
    "Bishop",
    "Monk",
    "Nun",
    "Butler",
    "Cook",
    "Maid",
)


@dataclass(frozen=True)
class Deal:
    """Who is secretly what, and which three characters open the castle."""

    vampires: frozenset[int]
    known_humans: frozenset[int]
    castle: tuple[int, ...]


def deal_characters(seed: int) -> Deal:
    """The seeded deal: three vampires, two humans the human player knows, the castle.

    The castle is drawn from the shuffled city like the top three cards of the real
    character deck; the companion tells the table which three to lay face up.
    """
    rng = random.Random(f"vampire-empire:{seed}")
    vampires = frozenset(rng.sample(CHARACTERS, VAMPIRE_COUNT))
    humans = [c for c in CHARACTERS if c not in vampires]
    known_humans = frozenset(rng.sample(humans, KNOWN_HUMAN_COUNT))
    castle = tuple(rng.sample(CHARACTERS, CASTLE_SIZE))
    return Deal(vampires, known_humans, castle)


def character_names(raw: object) -> tuple[str, ...]:
    """The nine names a setup gives (or the defaults), refusing anything else."""
    if raw is None:
        return DEFAULT_NAMES
    if (
        not isinstance(raw, Sequence)
        or isinstance(raw, str)
        or len(raw) != len(CHARACTERS)
        or not all(isinstance(name, str) and name.strip() for name in raw)
    ):
        raise InvalidSetup("'characters' must list nine non-empty names, for characters 1 to 9")
    names = tuple(name.strip() for name in raw)
    if len(set(names)) != len(names):
        raise InvalidSetup("the nine characters need nine different names")
    return names
