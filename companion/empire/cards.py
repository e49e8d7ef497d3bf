"""One player's cards as counts: deck, hand, cellar and moat.

The cards stay on the table; the companion only keeps how many lie in each pile, which
is all the rules need (RULINGS.md M1, M3, M4) and all an honest count can check. Every
function here moves cards between piles and never creates or loses one, so the total a
player started with holds for the whole game.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.core.events import IllegalEvent

#: A player draws up to this many cards in step 1 (M2).
HAND_SIZE = 8


class BrokenRule(IllegalEvent):
    """A refusal that names the ruling it enforces (``rule`` is ``"M1"`` … ``"M6"``).

    Pages and tests can act on the rule rather than parse the sentence, which still
    starts with the rule so that players read why ("M4: …").
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule


@dataclass(frozen=True)
class Piles:
    """How many cards one player has where.

    ``cellar_made`` records M4's "the cellar is made once": after the first draw from an
    empty deck the cellar has become the deck, and from then on no card goes to it.
    """

    deck: int
    hand: int = 0
    cellar: int = 0
    moat: int = 0
    cellar_made: bool = False

    @property
    def total(self) -> int:
        return self.deck + self.hand + self.cellar + self.moat

    @property
    def out_of_cards(self) -> bool:
        """No card in hand and none left to draw: the deck is empty and no cellar can refill it."""
        return self.hand == 0 and self.deck == 0 and (self.cellar_made or self.cellar == 0)


def deal(deck_size: int) -> Piles:
    """A player's piles once the opening hand of eight is drawn (M1)."""
    return draw(Piles(deck=deck_size), HAND_SIZE)


def discard(piles: Piles, cellar: int, moat: int) -> Piles:
    """Step 1's discards: ``cellar`` cards to the cellar and ``moat`` cards to the moat.

    M4: once the cellar has become the deck, every discard goes to the moat.
    """
    if cellar and piles.cellar_made:
        raise BrokenRule(
            "M4", "the cellar has already become the deck, so every discard now goes to the moat"
        )
    if cellar + moat > piles.hand:
        raise IllegalEvent(f"cannot discard {cellar + moat} cards from a hand of {piles.hand}")
    return replace(
        piles, hand=piles.hand - cellar - moat, cellar=piles.cellar + cellar, moat=piles.moat + moat
    )


def play(piles: Piles, cards: int) -> Piles:
    """Cards played from the hand; M3: every card played goes to the moat."""
    if cards > piles.hand:
        raise IllegalEvent(f"cannot play {cards} cards from a hand of {piles.hand}")
    return replace(piles, hand=piles.hand - cards, moat=piles.moat + cards)


def draw(piles: Piles, cards: int) -> Piles:
    """Draw ``cards`` one by one, following M4 when the deck runs out.

    The first time a card must be drawn from an empty deck, the cellar is shuffled into a
    new deck (even an empty cellar: the cellar is made once). With the deck empty and the
    cellar already made, the remaining draws bring nothing.
    """
    wanted = cards
    while wanted:
        if piles.deck == 0:
            if piles.cellar_made:
                break
            piles = replace(piles, deck=piles.cellar, cellar=0, cellar_made=True)
            continue
        taken = min(wanted, piles.deck)
        piles = replace(piles, deck=piles.deck - taken, hand=piles.hand + taken)
        wanted -= taken
    return piles


def draw_up_to_eight(piles: Piles) -> Piles:
    """Step 1's draw: fill the hand to eight, as far as the cards allow (M2, M4)."""
    if piles.hand > HAND_SIZE:
        raise BrokenRule(
            "M2", f"a player holding {piles.hand} cards must discard down to eight before drawing"
        )
    return draw(piles, HAND_SIZE - piles.hand)
