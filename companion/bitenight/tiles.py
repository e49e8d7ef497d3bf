"""Moon tiles: the 50 value objects every part of the product names the same way.

A tile id is ``<colour>-<motif>`` or ``<colour>-<motif>-heart`` (RULINGS.md). Ids are
parsed once at the edge (JSON, camera, web form) into :class:`Tile`; the engine never
passes raw strings around.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class Colour(StrEnum):
    """The five tile colours, in the order RULINGS.md lists them."""

    BLUE = "blue"
    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    PURPLE = "purple"


class Motif(StrEnum):
    """The five motifs; this order is canonical (combination ids and suggestions use it)."""

    VAMPIRE = "vampire"
    MONK = "monk"
    MAIDEN = "maiden"
    COFFIN = "coffin"
    GARLIC = "garlic"


COLOURS: tuple[Colour, ...] = tuple(Colour)
MOTIFS: tuple[Motif, ...] = tuple(Motif)


class UnknownTileError(ValueError):
    """A string that is not one of the 50 tile ids."""


@dataclass(frozen=True, order=True)
class Tile:
    """One Moon tile. Every heart tile is unique, and so is every plain one."""

    colour: Colour
    motif: Motif
    heart: bool = False

    @property
    def id(self) -> str:
        base = f"{self.colour.value}-{self.motif.value}"
        return f"{base}-heart" if self.heart else base

    def __str__(self) -> str:
        return self.id

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Turn a RULINGS.md tile id into a Tile, or raise UnknownTileError naming it."""
        try:
            return _BY_ID[text]
        except (KeyError, TypeError):
            raise UnknownTileError(f"'{text}' is not a Moon tile id") from None

    @property
    def sort_key(self) -> tuple[int, int, int]:
        """Canonical order: colour, then motif, plain before heart."""
        return (COLOURS.index(self.colour), MOTIFS.index(self.motif), int(self.heart))


ALL_TILES: tuple[Tile, ...] = tuple(
    Tile(colour, motif, heart) for colour in COLOURS for motif in MOTIFS for heart in (False, True)
)
_BY_ID: dict[str, Tile] = {tile.id: tile for tile in ALL_TILES}
TILE_IDS: tuple[str, ...] = tuple(_BY_ID)


def parse_tiles(ids: Iterable[str]) -> list[Tile]:
    """Parse a list of tile ids, refusing the first unknown one."""
    return [Tile.parse(text) for text in ids]


def sorted_tiles(tiles: Iterable[Tile]) -> list[Tile]:
    return sorted(tiles, key=lambda tile: tile.sort_key)


def duplicates(tiles: Iterable[Tile]) -> list[Tile]:
    """Tiles that occur more than once: there is only one of each in the box."""
    return sorted_tiles(tile for tile, n in Counter(tiles).items() if n > 1)
