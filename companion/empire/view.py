"""What each seat may see of the table (like boardgame.io's ``playerView``).

The engine's state holds both players' secrets. Nothing leaves the server without
passing through :func:`view`, which builds the picture for one seat from public facts
plus that seat's own secret:

* public: the castle (a revealed vampire there shows its vampire side, M5), the city, the
  dead (a killed character's identity is turned face up), revealed vampires, humans
  cleared by holy water, every pile's count, the turn and step, the outcome;
* the vampire player: which three characters are vampires;
* the human player: the two characters he was told are human (M1);
* the host screen: nothing secret.

When the game is over every identity is shown to everybody, as the table would turn the
tokens over.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.core.events import Event
from companion.empire.cards import Piles
from companion.empire.characters import CHARACTERS
from companion.empire.rules import EMPIRE, EmpireState, Seat

HOST = "host"
VIEWERS = (Seat.VAMPIRE.value, Seat.HUMAN.value, HOST)


def known_identities(state: EmpireState, viewer: str) -> dict[int, str]:
    """The characters whose side ``viewer`` knows: character -> "vampire" or "human"."""
    if viewer not in VIEWERS:
        raise ValueError(f"'{viewer}' is not a seat at this table ({', '.join(VIEWERS)})")
    everyone_knows = state.outcome is not None or viewer == Seat.VAMPIRE
    known: dict[int, str] = {}
    for character in CHARACTERS:
        vampire = character in state.vampires
        if (
            everyone_knows
            or character in state.dead
            or character in state.revealed
            or character in state.cleared
            or (viewer == Seat.HUMAN and character in state.known_humans)
        ):
            known[character] = "vampire" if vampire else "human"
    return known


def _place(state: EmpireState, character: int) -> str:
    if character in state.dead:
        return "dead"
    return "castle" if character in state.castle else "city"


def _piles(piles: Piles) -> dict[str, Any]:
    return {
        "deck": piles.deck,
        "hand": piles.hand,
        "cellar": piles.cellar,
        "moat": piles.moat,
        "cellar_made": piles.cellar_made,
        "out_of_cards": piles.out_of_cards,
    }


def view(state: EmpireState, viewer: str) -> dict[str, Any]:
    """The JSON-able table as ``viewer`` ("vampire", "human" or "host") may see it."""
    known = known_identities(state, viewer)
    characters = []
    for character in CHARACTERS:
        revealed = character in state.revealed
        place = _place(state, character)
        characters.append(
            {
                "id": character,
                "name": state.names[character - 1],
                "place": place,
                "revealed": revealed,
                # M5: a revealed vampire in the castle shows its vampire side to all
                "side": "vampire" if revealed and place == "castle" else "human",
                "identity": known.get(character),
                "told_human": viewer == Seat.HUMAN and character in state.known_humans,
            }
        )
    outcome = state.outcome
    return {
        "viewer": viewer,
        "players": {seat.value: name for seat, name in state.players},
        "turn": state.turn,
        "round": state.round,
        "active": state.active.value,
        "time": state.active.turn_name,
        "step": state.step.value,
        "suspect": state.suspect,
        "castle": list(state.castle),
        "city": sorted(state.city),
        "dead": list(state.dead),
        "characters": characters,
        "cards": {seat.value: _piles(state.cards(seat)) for seat in Seat},
        "outcome": None
        if outcome is None
        else {
            "winner": outcome.winner.value if outcome.winner else None,
            "cause": outcome.cause,
            "reason": outcome.reason,
            "scores": {seat.value: points for seat, points in outcome.scores},
        },
    }


def history(start: EmpireState, events: Sequence[Event], last: int = 12) -> list[dict[str, Any]]:
    """What happened, newest first, as every seat may read it (nothing here is secret).

    Each entry names the turn, the step's event and its public facts, including what the
    companion worked out: how many cards were really drawn, whether the cellar became
    the deck (M4), what the holy water showed, whether the game ended.
    """
    entries: list[dict[str, Any]] = []
    state = start
    for event in events:
        after = EMPIRE.apply(state, event)
        seat = state.active
        before_cards, after_cards = state.cards(seat), after.cards(seat)
        facts: dict[str, Any] = {
            key: value for key, value in event.data.items() if key not in ("played", "drew")
        }
        if event.kind == "discard-and-draw":
            discarded = int(event.data.get("cellar", 0)) + int(event.data.get("moat", 0))
            facts["drawn"] = after_cards.hand - (before_cards.hand - discarded)
        if event.kind == "holy-water":
            facts["vampire"] = event.data["character"] in after.revealed
        for other in Seat:
            if after.cards(other).cellar_made and not state.cards(other).cellar_made:
                facts.setdefault("cellar_made", []).append(other.value)
        played = dict(event.data.get("played", {}))
        entries.append(
            {
                "turn": state.turn,
                "round": state.round,
                "time": seat.turn_name,
                "seat": seat.value,
                "kind": event.kind,
                "facts": facts,
                "played": {s.value: int(played.get(s.value, 0)) for s in Seat},
                "ended": after.outcome is not None and state.outcome is None,
            }
        )
        state = after
    return entries[::-1][:last]
