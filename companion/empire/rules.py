"""The turn engine of the moat and cellar card game (RULINGS.md M1-M6).

What the companion keeps, and what it leaves on the table
---------------------------------------------------------
The cards never leave the table. Players tell the companion *how many* cards they
discard and where, and how many they play; the companion keeps each player's deck,
hand, cellar and moat as counts (:mod:`companion.empire.cards`), draws up to eight for
them, and says when the cellar becomes the deck. Card texts (attack values, support
effects) are not modelled: the players resolve them and record the result.

The characters are numbered 1 to 9. The companion deals the secret (three vampires,
two humans the human player knows) and the opening castle from the setup's seed, and
then follows where each character is: in the castle (face up), in the city (the
face-down deck), or dead (out of the game, its identity shown to both).

A turn, as events
-----------------
Nights (the vampire player) and days (the human player) alternate, night first. Each
turn is these events, in this order; anything out of order is refused with the rule:

1. ``discard-and-draw`` ``{"cellar": n, "moat": m}``: the discards, then the draw up to
   eight. Zero discards is a valid step 1 (the player still draws). A hand of more than
   eight must be brought down to eight by these discards (M2). The cellar takes cards
   only here, and only until it has become the deck (M3, M4).
2. ``reveal`` ``{"character": c}``: at night only, optional, sent by the vampire player
   himself (``actor`` ``"vampire"`` or his name) so that a refusal can never tell anyone
   else who is a vampire. The character stays revealed for the rest of the game (M5).
3. One action, which ends the turn:

   * ``hide`` ``{"character": c, "refill": [..]}`` (night): c leaves the castle into the
     city; the castle is refilled.
   * ``holy-water`` ``{"character": c}`` (day): the companion, which knows the secret,
     answers. A vampire is revealed (M5) and may be attacked at once: the turn waits for
     a ``combat`` against that character or a ``pass``. A human is shown as cleared to
     both players and the turn ends.
   * ``combat`` ``{"killed": [..], "refill": [..]}``: the players resolve the fight with
     their cards and record which castle characters died (none, if the attack failed).
     The dead leave the game and the castle is refilled.
   * ``pass`` ``{}``.

   Every action may carry ``"played": {"vampire": n, "human": m}``, the cards each
   player put on the table (they go to the moat, M3), and ``"drew": {...}``, cards drawn
   by card effects (drawn by M4's rules; this is how a hand grows past eight).
   ``"refill"`` names the characters turned up from the city, in order, to bring the
   castle back to three (as many as the city still holds).

A refusal that enforces a ruling is a :class:`~companion.empire.cards.BrokenRule` whose
``rule`` names it ("M4") and whose sentence starts with it; malformed data (an unknown
field, a character that does not exist) is a plain ``IllegalEvent``. Either way the
state is left as it was.

An event's ``actor`` is a seat (its role or the player's name) or anyone else, such as
the host screen recording for the active player. A seat acts only in its own turn.

The game ends as soon as M6 decides it: every human dead or three revealed vampires
together in the castle (the vampire player wins), every vampire dead (the human player
wins), or both players out of cards, when the survivors are counted (human 1 point,
vampire 2; equal is a draw). Then every identity is shown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from companion.core.events import Event, IllegalEvent, InvalidSetup
from companion.empire.cards import BrokenRule, Piles, deal, discard, draw, draw_up_to_eight, play
from companion.empire.characters import (
    CASTLE_SIZE,
    CHARACTERS,
    character_names,
    deal_characters,
)

#: Each side's deck in the box holds 40 cards; a table may set other sizes.
DEFAULT_DECK_SIZE = 40
MAX_DECK_SIZE = 200
HUMAN_POINTS = 1
VAMPIRE_POINTS = 2


class Seat(StrEnum):
    VAMPIRE = "vampire"
    HUMAN = "human"

    @property
    def other(self) -> Seat:
        return Seat.HUMAN if self is Seat.VAMPIRE else Seat.VAMPIRE

    @property
    def turn_name(self) -> str:
        """The vampire player's turns are nights, the human player's days (M2)."""
        return "night" if self is Seat.VAMPIRE else "day"


class Step(StrEnum):
    """Where the active player is in his turn (M2); ``attack`` follows a holy water find."""

    DISCARD = "discard"
    REVEAL = "reveal"
    ACTION = "action"
    ATTACK = "attack"


@dataclass(frozen=True)
class Outcome:
    """How the game ended; ``winner`` None is a draw. Scores only for the final count.

    ``cause`` is a stable word for pages and their texts (``humans-dead``,
    ``vampires-dead``, ``castle``, ``count``, ``all-dead``); ``reason`` says it in English.
    """

    winner: Seat | None
    cause: str
    reason: str
    scores: tuple[tuple[Seat, int], ...] = ()


@dataclass(frozen=True)
class EmpireState:
    """The whole table, secrets included; :mod:`companion.empire.view` strips them per seat."""

    names: tuple[str, ...]
    players: tuple[tuple[Seat, str], ...]
    vampires: frozenset[int]
    known_humans: frozenset[int]
    castle: tuple[int, ...]
    city: frozenset[int]
    vampire_cards: Piles
    human_cards: Piles
    dead: tuple[int, ...] = ()
    revealed: frozenset[int] = frozenset()
    cleared: frozenset[int] = frozenset()
    turn: int = 1
    step: Step = Step.DISCARD
    suspect: int | None = None
    outcome: Outcome | None = None

    @property
    def active(self) -> Seat:
        return Seat.VAMPIRE if self.turn % 2 == 1 else Seat.HUMAN

    @property
    def round(self) -> int:
        """Night 1, day 1, night 2, …: the number shown beside "night" or "day"."""
        return (self.turn + 1) // 2

    def cards(self, seat: Seat) -> Piles:
        return self.vampire_cards if seat is Seat.VAMPIRE else self.human_cards

    def with_cards(self, seat: Seat, piles: Piles) -> EmpireState:
        field = "vampire_cards" if seat is Seat.VAMPIRE else "human_cards"
        return replace(self, **{field: piles})

    def name(self, character: int) -> str:
        return f"{self.names[character - 1]} ({character})"

    def player(self, seat: Seat) -> str:
        return dict(self.players)[seat]

    def seat_of(self, actor: str | None) -> Seat | None:
        """The seat an event's actor sits in: named by role or by the player's name."""
        for seat, name in self.players:
            if actor in (seat.value, name):
                return seat
        return None

    @property
    def alive_vampires(self) -> frozenset[int]:
        return self.vampires - set(self.dead)

    @property
    def alive_humans(self) -> frozenset[int]:
        return frozenset(CHARACTERS) - self.vampires - set(self.dead)


# -- setup --------------------------------------------------------------------------


def _setup_int(setup: Mapping[str, Any], key: str, default: int | None) -> int:
    value = setup.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidSetup(f"the setup needs a whole number '{key}'")
    return value


def _per_seat(setup: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    raw = setup.get(key, {})
    if not isinstance(raw, Mapping) or set(raw) - {s.value for s in Seat}:
        raise InvalidSetup(f"'{key}' must map 'vampire' and/or 'human' to a value")
    return raw


def start(setup: Mapping[str, Any]) -> EmpireState:
    """The table after the deal: secret roles, the castle, eight cards in each hand (M1)."""
    unknown = set(setup) - {"seed", "decks", "players", "characters"}
    if unknown:
        raise InvalidSetup(f"the setup has no option '{sorted(unknown)[0]}'")
    seed = _setup_int(setup, "seed", None)
    decks = _per_seat(setup, "decks")
    players = _per_seat(setup, "players")
    piles: dict[Seat, Piles] = {}
    names: list[tuple[Seat, str]] = []
    for seat in Seat:
        size = decks.get(seat.value, DEFAULT_DECK_SIZE)
        if not isinstance(size, int) or isinstance(size, bool) or not 8 <= size <= MAX_DECK_SIZE:
            raise InvalidSetup(
                f"the {seat.value} player's deck must hold 8 to {MAX_DECK_SIZE} cards"
            )
        piles[seat] = deal(size)
        name = players.get(seat.value, f"{seat.value.capitalize()} player")
        if not isinstance(name, str) or not name.strip():
            raise InvalidSetup(f"the {seat.value} player's name must be a non-empty string")
        names.append((seat, name.strip()))
    (_, vampire), (_, human) = names
    if vampire.casefold() == human.casefold() or any(
        name in ("host", "guest") or name == seat.other.value for seat, name in names
    ):
        raise InvalidSetup(
            "the two players need two different names, and neither may be called "
            "'host', 'guest' or by the other side's role"
        )
    secret = deal_characters(seed)
    return EmpireState(
        names=character_names(setup.get("characters")),
        players=tuple(names),
        vampires=secret.vampires,
        known_humans=secret.known_humans,
        castle=secret.castle,
        city=frozenset(CHARACTERS) - set(secret.castle),
        vampire_cards=piles[Seat.VAMPIRE],
        human_cards=piles[Seat.HUMAN],
    )


# -- reading event data -------------------------------------------------------------

ACTION_FIELDS = frozenset({"played", "drew"})
FIELDS: dict[str, frozenset[str]] = {
    "discard-and-draw": frozenset({"cellar", "moat"}),
    "reveal": frozenset({"character"}),
    "hide": frozenset({"character", "refill"}) | ACTION_FIELDS,
    "holy-water": frozenset({"character"}) | ACTION_FIELDS,
    "combat": frozenset({"killed", "refill"}) | ACTION_FIELDS,
    "pass": frozenset(),
}
ACTIONS = frozenset({"hide", "holy-water", "combat", "pass"})


def _check_fields(event: Event) -> None:
    extra = set(event.data) - FIELDS[event.kind]
    if "cellar" in extra:
        raise BrokenRule("M3", "cards go to the cellar only in step 1; cards played go to the moat")
    if extra:
        raise IllegalEvent(f"'{event.kind}' has no field '{sorted(extra)[0]}'")


def _count(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key, 0)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise IllegalEvent(f"'{key}' must be a number of cards (0 or more), not {value!r}")
    return value


def _character(data: Mapping[str, Any], key: str = "character") -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value not in CHARACTERS:
        raise IllegalEvent(f"'{key}' must be a character number from 1 to 9, not {value!r}")
    return value


def _characters(data: Mapping[str, Any], key: str) -> tuple[int, ...]:
    raw = data.get(key, [])
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        raise IllegalEvent(f"'{key}' must be a list of character numbers")
    found = tuple(_character({key: value}, key) for value in raw)
    if len(set(found)) != len(found):
        raise IllegalEvent(f"'{key}' names a character twice")
    return found


def _seat_counts(data: Mapping[str, Any], key: str) -> dict[Seat, int]:
    raw = data.get(key, {})
    if not isinstance(raw, Mapping) or set(raw) - {s.value for s in Seat}:
        raise IllegalEvent(f"'{key}' must map 'vampire' and/or 'human' to a number of cards")
    return {seat: _count(raw, seat.value) for seat in Seat}


# -- the steps of a turn ------------------------------------------------------------


def _discard_and_draw(state: EmpireState, event: Event) -> EmpireState:
    if state.step is not Step.DISCARD:
        raise BrokenRule(
            "M2", f"step 1 (discard and draw) is already done this {state.active.turn_name}"
        )
    seat = state.active
    piles = discard(state.cards(seat), _count(event.data, "cellar"), _count(event.data, "moat"))
    piles = draw_up_to_eight(piles)
    next_step = Step.REVEAL if seat is Seat.VAMPIRE else Step.ACTION
    return replace(state.with_cards(seat, piles), step=next_step)


def _reveal(state: EmpireState, event: Event) -> EmpireState:
    if state.seat_of(event.actor) is not Seat.VAMPIRE:
        raise BrokenRule("M2", "only the vampire player reveals a vampire, from his own phone")
    if state.active is not Seat.VAMPIRE:
        raise BrokenRule("M2", "a vampire is revealed only at night, in step 2")
    if state.step is Step.DISCARD:
        raise BrokenRule("M2", "step 1 (discard and draw) comes before revealing a vampire")
    if state.step is not Step.REVEAL:
        raise BrokenRule("M2", "one vampire at most is revealed per night, in step 2")
    character = _character(event.data)
    if character not in state.vampires:
        raise IllegalEvent(f"{state.name(character)} is not a vampire")
    if character in state.dead:
        raise IllegalEvent(f"{state.name(character)} is dead")
    if character in state.revealed:
        raise BrokenRule("M5", f"{state.name(character)} is already revealed")
    return replace(state, revealed=state.revealed | {character}, step=Step.ACTION)


def _action(state: EmpireState, event: Event) -> EmpireState:
    if state.step is Step.DISCARD:
        raise BrokenRule("M2", "step 1 (discard and draw) comes before the action")
    if state.step is Step.ATTACK and event.kind not in ("combat", "pass"):
        raise IllegalEvent(
            f"the holy water found {state.name(state.suspect or 0)}: attack it now or pass"
        )
    if event.kind != "pass":
        state = _cards_on_the_table(state, event.data)
    state = ACTION_RULES[event.kind](state, event.data)
    if event.kind == "holy-water" and state.step is Step.ATTACK:
        return state  # a vampire was found: the turn waits for the attack or a pass
    return replace(state, turn=state.turn + 1, step=Step.DISCARD, suspect=None)


def _cards_on_the_table(state: EmpireState, data: Mapping[str, Any]) -> EmpireState:
    """Cards played go to the moat (M3); cards drawn by effects follow M4."""
    played = _seat_counts(data, "played")
    drew = _seat_counts(data, "drew")
    for seat in Seat:
        state = state.with_cards(seat, draw(play(state.cards(seat), played[seat]), drew[seat]))
    return state


def _in_castle(state: EmpireState, character: int) -> None:
    if character not in state.castle:
        raise IllegalEvent(f"{state.name(character)} is not in the castle")


def _refill(state: EmpireState, data: Mapping[str, Any]) -> EmpireState:
    """M1: the castle is brought back to three from the city, as far as the city allows."""
    wanted = min(CASTLE_SIZE - len(state.castle), len(state.city))
    refill = _characters(data, "refill")
    city = ", ".join(str(c) for c in sorted(state.city)) or "nobody"
    if len(refill) != wanted or not set(refill) <= state.city:
        raise BrokenRule(
            "M1",
            f"the castle is refilled to three: name the {wanted} character(s) turned up "
            f"from the city (the city holds {city})",
        )
    return replace(state, castle=state.castle + refill, city=state.city - set(refill))


def _hide(state: EmpireState, data: Mapping[str, Any]) -> EmpireState:
    if state.active is not Seat.VAMPIRE:
        raise BrokenRule("M2", "only the vampire player hides a character in the city, at night")
    character = _character(data)
    _in_castle(state, character)
    state = replace(
        state,
        castle=tuple(c for c in state.castle if c != character),
        city=state.city | {character},
    )
    return _refill(state, data)


def _holy_water(state: EmpireState, data: Mapping[str, Any]) -> EmpireState:
    if state.active is not Seat.HUMAN:
        raise BrokenRule("M2", "only the human player uses holy water, by day")
    character = _character(data)
    _in_castle(state, character)
    if character in state.revealed:
        raise BrokenRule("M5", f"{state.name(character)} is already revealed as a vampire")
    if character in state.vampires:
        return replace(
            state, revealed=state.revealed | {character}, step=Step.ATTACK, suspect=character
        )
    return replace(state, cleared=state.cleared | {character})


def _combat(state: EmpireState, data: Mapping[str, Any]) -> EmpireState:
    killed = _characters(data, "killed")
    for character in killed:
        _in_castle(state, character)
        if state.step is Step.ATTACK and character != state.suspect:
            raise IllegalEvent(
                f"after holy water only {state.name(state.suspect or 0)} can be attacked"
            )
    state = replace(
        state,
        castle=tuple(c for c in state.castle if c not in killed),
        dead=state.dead + killed,
    )
    return _refill(state, data)


def _pass(state: EmpireState, data: Mapping[str, Any]) -> EmpireState:
    return state


ACTION_RULES: dict[str, Callable[[EmpireState, Mapping[str, Any]], EmpireState]] = {
    "hide": _hide,
    "holy-water": _holy_water,
    "combat": _combat,
    "pass": _pass,
}


# -- the end ------------------------------------------------------------------------


def decide(state: EmpireState) -> Outcome | None:
    """M6: the outcome this state has reached, if any."""
    vampires, humans = state.alive_vampires, state.alive_humans
    if not vampires and not humans:
        return Outcome(None, "all-dead", "every character is dead")
    if not vampires:
        return Outcome(Seat.HUMAN, "vampires-dead", "every vampire is dead")
    if not humans:
        return Outcome(Seat.VAMPIRE, "humans-dead", "every human is dead")
    if len(state.revealed & set(state.castle)) == len(state.vampires):
        return Outcome(
            Seat.VAMPIRE, "castle", "three revealed vampires stand together in the castle"
        )
    if state.vampire_cards.out_of_cards and state.human_cards.out_of_cards:
        human = HUMAN_POINTS * len(humans)
        vampire = VAMPIRE_POINTS * len(vampires)
        winner = None if human == vampire else Seat.HUMAN if human > vampire else Seat.VAMPIRE
        return Outcome(
            winner,
            "count",
            "both players are out of cards: each surviving human scores 1, each vampire 2",
            ((Seat.VAMPIRE, vampire), (Seat.HUMAN, human)),
        )
    return None


class EmpireRules:
    """The moat and cellar game on the shared core (``companion.core.events.Rules``)."""

    kind = "vampire-empire"

    def start(self, setup: Mapping[str, Any]) -> EmpireState:
        return start(setup)

    def apply(self, state: EmpireState, event: Event) -> EmpireState:
        if event.kind not in FIELDS:
            known = ", ".join(FIELDS)
            raise IllegalEvent(f"the moat and cellar game has no event '{event.kind}' ({known})")
        if state.outcome is not None:
            raise IllegalEvent(f"the game is over: {state.outcome.reason}")
        _check_fields(event)
        seat = state.seat_of(event.actor)
        if seat is not None and seat is not state.active:
            raise BrokenRule(
                "M2", f"it is the {state.active.value} player's {state.active.turn_name}, not yours"
            )
        if event.kind == "discard-and-draw":
            state = _discard_and_draw(state, event)
        elif event.kind == "reveal":
            state = _reveal(state, event)
        else:
            state = _action(state, event)
        return replace(state, outcome=decide(state))

    def undoable(self, event: Event) -> bool:
        return True


EMPIRE = EmpireRules()


# -- events, as the phones and tests make them --------------------------------------


def discard_and_draw(seat: Seat | str, cellar: int = 0, moat: int = 0) -> Event:
    return Event("discard-and-draw", {"cellar": cellar, "moat": moat}, str(seat))


def reveal(character: int) -> Event:
    return Event("reveal", {"character": character}, Seat.VAMPIRE.value)


def _action_event(
    kind: str,
    seat: Seat | str,
    data: dict[str, Any],
    played: Mapping[str, int] | None,
    drew: Mapping[str, int] | None,
) -> Event:
    if played:
        data["played"] = {str(k): v for k, v in played.items()}
    if drew:
        data["drew"] = {str(k): v for k, v in drew.items()}
    return Event(kind, data, str(seat))


def hide(
    character: int,
    refill: Sequence[int] = (),
    played: Mapping[str, int] | None = None,
    drew: Mapping[str, int] | None = None,
) -> Event:
    data = {"character": character, "refill": list(refill)}
    return _action_event("hide", Seat.VAMPIRE, data, played, drew)


def holy_water(
    character: int,
    played: Mapping[str, int] | None = None,
    drew: Mapping[str, int] | None = None,
) -> Event:
    return _action_event("holy-water", Seat.HUMAN, {"character": character}, played, drew)


def combat(
    seat: Seat | str,
    killed: Sequence[int] = (),
    refill: Sequence[int] = (),
    played: Mapping[str, int] | None = None,
    drew: Mapping[str, int] | None = None,
) -> Event:
    data = {"killed": list(killed), "refill": list(refill)}
    return _action_event("combat", seat, data, played, drew)


def pass_turn(seat: Seat | str) -> Event:
    return Event("pass", {}, str(seat))
