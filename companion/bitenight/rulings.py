"""The "Ruling: …" sentences the phone shows where a ruling changes an outcome.

They live in one place so that the engine can attach the key of the ruling to a step
(``Step.ruling``) and the web page can show the text beside it. The wording is our own;
RULINGS.md is the binding source and docs/bitenight.md explains each one at length.
"""

from __future__ import annotations

RULINGS: dict[str, str] = {
    "B5": (
        "Ruling: a player who holds more tiles than he must give up chooses; the suggestion "
        "keeps the most points on the cards still to come that he placed himself, then "
        "gives tiles without hearts first."
    ),
    "B6": (
        "Ruling: skip-two and the next two cards are put away without effect, whatever they are."
    ),
    "B7": (
        "Ruling: graveyard-closed waits beside the pile and cancels the next graveyard card "
        "(grave or skip-two); a cancelled skip-two removes no cards."
    ),
    "B8": (
        "Ruling: the servant cancels the next sunrise and the vow of chastity the next "
        "blood wedding; each waits beside the pile until then."
    ),
    "B9": (
        "Ruling: every heart tile is unique, so a steal names one tile; it moves only if "
        "another player holds it. Resurrection suggests a heart tile first, then the "
        "canonical motif order."
    ),
    "B12": "Ruling: the most points after the last cycle wins; equal totals share the win.",
}


def ruling(key: str) -> str:
    """The text of one ruling, by its RULINGS.md number (``"B7"``)."""
    return RULINGS[key]
