"""The state of a game of Middernacht: rows, graves, garlic, stakes and whose turn it is.

Everything here is a frozen value; the rules build a new state for every event. The
state holds secrets (what lies under unturned lids, the face-down middle of every row,
what lies in every grave): :mod:`companion.middernacht.view` decides what leaves the
server.

A row is a tuple of colours from the left end to the right end. ``None`` stands for a
face-down token whose colour the companion does not know (table mode, see
:mod:`companion.middernacht.rules`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

from companion.middernacht.board import Grave

RAT = "rat"
GARLIC_PER_PLAYER = 3
STAKES_FOR_A_GIFT = 3

Colour = str
Row = tuple[Colour | None, ...]


class Mode(StrEnum):
    """Who knows the lids and the face-down vampires.

    ``table``: the players lay real lids and deal real tokens; a player tells the
    companion which lid he turned and which colour a newly turned row end shows.
    ``seeded``: the companion lays every lid and deals every vampire from the seed and
    tells the players what they turn (a fully refereed game, and the tests' model).
    """

    TABLE = "table"
    SEEDED = "seeded"


class Phase(StrEnum):
    """What the game waits for."""

    DEAL = "deal"  # table mode: every player tells the colours of his two row ends
    TURN = "turn"  # the current player turns a lid
    PLACE = "place"  # he may lay his matching end vampire in the open grave, or pass
    GARLIC = "garlic"  # he may lay a garlic token in the open grave, or pass
    RAT = "rat"  # he may open a grave around the rat, or stop
    GIVING = "giving"  # givers choose which end vampire they hand over
    OVER = "over"  # someone's row is empty: he has won


class End(StrEnum):
    LEFT = "left"
    RIGHT = "right"


@dataclass(frozen=True)
class Vampire:
    """A vampire laid in a grave."""

    colour: Colour


@dataclass(frozen=True)
class Garlic:
    """A garlic token laid in a grave, by the player in seat ``owner``."""

    owner: int


Content = Vampire | Garlic | None


@dataclass(frozen=True)
class Player:
    name: str
    row: Row
    garlic: int = GARLIC_PER_PLAYER  # in his hand
    stakes: int = 0

    def end(self, end: End) -> Colour | None:
        return self.row[0] if end is End.LEFT else self.row[-1]

    def matching_ends(self, colour: Colour) -> tuple[End, ...]:
        """The ends of his row showing ``colour`` (one end only when the row has one token)."""
        ends = (End.LEFT,) if len(self.row) == 1 else (End.LEFT, End.RIGHT)
        return tuple(end for end in ends if self.row and self.end(end) == colour)


@dataclass(frozen=True)
class Transfer:
    """The player in seat ``giver`` owes the player in seat ``receiver`` one vampire."""

    giver: int
    receiver: int


@dataclass(frozen=True)
class Table:
    """One moment of the game."""

    mode: Mode
    colours: tuple[Colour, ...]
    players: tuple[Player, ...]
    lids: tuple[str | None, ...]  # the lid on each grave (colour or RAT), None if unknown
    lidless: frozenset[int]  # graves whose rat lid has left the board
    contents: tuple[Content, ...]
    box: Row  # vampires left over by the deal
    turn: int = 0
    phase: Phase = Phase.TURN
    grave: int | None = None  # the grave lying open (PLACE, GARLIC)
    rat_run: bool = False  # the current turn is opening graves around a rat
    neighbours: tuple[int, ...] = ()  # graves around the rat still to be opened
    pending: tuple[Transfer, ...] = ()
    winner: int | None = None
    news: tuple[str, ...] = ()  # what the last event did, in sentences the table may hear

    @property
    def current(self) -> Player:
        return self.players[self.turn]

    def seat(self, name: object) -> int:
        """The seat of the player called ``name``; the caller turns ValueError into a refusal."""
        for seat, player in enumerate(self.players):
            if player.name == name:
                return seat
        raise ValueError(name)

    def open_grave(self) -> Grave | None:
        return None if self.grave is None else Grave(self.grave)

    def vampires(self) -> Iterator[Colour | None]:
        """Every vampire token of the game: in rows, in graves and in the box."""
        for player in self.players:
            yield from player.row
        for content in self.contents:
            if isinstance(content, Vampire):
                yield content.colour
        yield from self.box
