"""Rendezvous cards: the 43 card ids of RULINGS.md as value objects, and the deck.

A card id (``motif:vampire``, ``combo:maiden+garlic``, ``skip-two``) is parsed once at
the edge into a :class:`Card`; the engine then dispatches on ``card.kind`` and reads the
motif or colour the card names from its fields, never from the string.

The deck holds 45 cards under 43 ids: ``grave:any`` and ``skip-two`` come twice
(:data:`DECK_COPIES`). A pile that holds more copies than that, or an advanced card in a
basic game, breaks B13 and is refused by :func:`check_pile`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from companion.bitenight.tiles import COLOURS, MOTIFS, Colour, Motif
from companion.errors import CompanionError


class Kind(StrEnum):
    """What a card does; one value per card family (and per advanced card)."""

    COLOUR_SET = "color-set"
    MOTIF = "motif"
    COLOUR = "color"
    PAIR = "pair"
    COMBO = "combo"
    GRAVE = "grave"
    GRAVE_ANY = "grave-any"
    SKIP_TWO = "skip-two"
    GRAVEYARD_CLOSED = "graveyard-closed"
    RESURRECTION = "resurrection"
    BLOOD_WEDDING = "blood-wedding"
    NECK_BITE = "neck-bite"
    HOARDING = "hoarding"
    SERVANT = "servant"
    VOW_OF_CHASTITY = "vow-of-chastity"
    GARLIC_SOUP = "garlic-soup"
    SUNRISE = "sunrise"
    BANISHMENT = "banishment"


#: Cards that score every player's collection (B4).
POINT_KINDS = frozenset({Kind.COLOUR_SET, Kind.MOTIF, Kind.COLOUR, Kind.PAIR, Kind.COMBO})
#: The graveyard cards that a waiting ``graveyard-closed`` cancels (B7).
CLOSABLE_KINDS = frozenset({Kind.GRAVE, Kind.GRAVE_ANY, Kind.SKIP_TWO})
#: Cards that go face up beside the pile and wait for the card they cancel (B7, B8).
WAITING_KINDS = frozenset({Kind.GRAVEYARD_CLOSED, Kind.SERVANT, Kind.VOW_OF_CHASTITY})
#: Which waiting card cancels which kinds.
CANCELS: dict[Kind, frozenset[Kind]] = {
    Kind.GRAVEYARD_CLOSED: CLOSABLE_KINDS,
    Kind.SERVANT: frozenset({Kind.SUNRISE}),
    Kind.VOW_OF_CHASTITY: frozenset({Kind.BLOOD_WEDDING}),
}
ADVANCED_KINDS = frozenset(
    {
        Kind.RESURRECTION,
        Kind.BLOOD_WEDDING,
        Kind.NECK_BITE,
        Kind.HOARDING,
        Kind.SERVANT,
        Kind.VOW_OF_CHASTITY,
        Kind.GARLIC_SOUP,
        Kind.SUNRISE,
        Kind.BANISHMENT,
    }
)


class UnknownCardError(CompanionError):
    """A string that is not one of the 43 card ids."""


class PileError(CompanionError):
    """A pile that no real deck could have produced (B13)."""


@dataclass(frozen=True)
class Card:
    """One rendezvous card: its kind and the motif(s) or colour it names, if any.

    ``combo`` cards name two motifs, ``motif`` the first one and ``other`` the second,
    in canonical order.
    """

    kind: Kind
    motif: Motif | None = None
    colour: Colour | None = None
    other: Motif | None = None

    @property
    def id(self) -> str:
        if self.kind is Kind.COMBO:
            return f"combo:{self.motif}+{self.other}"
        if self.kind is Kind.GRAVE_ANY:
            return "grave:any"
        if self.motif is not None:
            return f"{self.kind.value}:{self.motif}"
        if self.colour is not None:
            return f"{self.kind.value}:{self.colour}"
        return self.kind.value

    def __str__(self) -> str:
        return self.id

    @property
    def is_advanced(self) -> bool:
        return self.kind in ADVANCED_KINDS

    @property
    def is_point_card(self) -> bool:
        return self.kind in POINT_KINDS

    @classmethod
    def parse(cls, text: str) -> Card:
        """Turn a RULINGS.md card id into a Card, or raise UnknownCardError naming it."""
        try:
            return _BY_ID[text]
        except (KeyError, TypeError):
            raise UnknownCardError(f"'{text}' is not a Bite Night card id") from None


def _all_cards() -> tuple[Card, ...]:
    cards = [Card(Kind.COLOUR_SET)]
    cards += [Card(Kind.MOTIF, motif=m) for m in MOTIFS]
    cards += [Card(Kind.COLOUR, colour=c) for c in COLOURS]
    cards += [Card(Kind.PAIR, motif=m) for m in MOTIFS]
    cards += [Card(Kind.COMBO, motif=a, other=b) for a, b in combinations(MOTIFS, 2)]
    cards += [Card(Kind.GRAVE, motif=m) for m in MOTIFS]
    cards += [Card(Kind.GRAVE_ANY), Card(Kind.SKIP_TWO), Card(Kind.GRAVEYARD_CLOSED)]
    cards += [Card(kind) for kind in Kind if kind in ADVANCED_KINDS]
    return tuple(cards)


#: The 43 card ids in RULINGS.md order.
ALL_CARDS: tuple[Card, ...] = _all_cards()
_BY_ID: dict[str, Card] = {card.id: card for card in ALL_CARDS}
CARD_IDS: tuple[str, ...] = tuple(_BY_ID)

#: How many copies of each card the box holds: 36 basic + 9 advanced = 45.
DECK_COPIES: dict[Card, int] = {
    card: 2 if card.kind in (Kind.GRAVE_ANY, Kind.SKIP_TWO) else 1 for card in ALL_CARDS
}
BASIC_DECK_SIZE = sum(n for card, n in DECK_COPIES.items() if not card.is_advanced)


def parse_cards(ids: Iterable[str]) -> list[Card]:
    """Parse a list of card ids, refusing the first unknown one."""
    return [Card.parse(text) for text in ids]


def check_pile(cards: Iterable[Card], advanced: bool) -> None:
    """Refuse a pile that breaks B13: too many copies, or advanced cards in a basic game."""
    counts = Counter(cards)
    for card, n in counts.items():
        if card.is_advanced and not advanced:
            raise PileError(f"'{card}' is an advanced card and this is a basic game (B13)")
        if n > DECK_COPIES[card]:
            copies = DECK_COPIES[card]
            raise PileError(
                f"the pile holds '{card}' {n} times but the deck has only "
                f"{copies} {'copy' if copies == 1 else 'copies'} of it (B13)"
            )
