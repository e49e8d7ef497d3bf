"""A whole game of Bite Night on the shared core: :data:`BITE_NIGHT` (kind ``bite-night``).

For the web page. A game is driven by these events (``Event(kind, data, actor)``); every
one is checked first and refused with one sentence (``IllegalEvent``) that changes
nothing, and every one can be undone.

==================  ============================================  =======================
kind                data                                          when
==================  ============================================  =======================
``place-card``      ``{"player": name}`` and optionally           placing: the next player
                    ``"card": card id``                           in placing order put his
                                                                  card face down
``set-collection``  ``{"player": name, "tiles": [tile ids]}``     placing, grabbing,
                                                                  rendezvous (no choice
                                                                  pending): camera or hand
``add-tile``        ``{"player": name, "tile": id}``              same
``remove-tile``     ``{"player": name, "tile": id}``              same
``replace-tile``    ``{"player": name, "tile": id, "by": id}``    same
``set-graveyard``   ``{"tiles": [tile ids]}``                     rendezvous (no choice
                                                                  pending): by hand
``end-round``       ``{}``                                        grabbing: everyone holds
                                                                  3 tiles per round so far
``reveal-card``     ``{"card": card id}``                         rendezvous: the players
                                                                  say which card came up
``choose-tiles``    ``{"player": name, "tiles": [tile ids]}``     rendezvous: answers that
                                                                  player's pending choice
``next-cycle``      ``{}``                                        cycle-scored
==================  ============================================  =======================

A player may tell the engine which card he placed (``card`` in ``place-card``). It is
never shown in :func:`view`; it only lets the B5 suggestion weigh his own cards still to
come, as ``companion rendezvous`` does with the whole pile. Untold cards are simply not
weighed.

Setup: ``{"players": [names in seat order, clockwise], "deck": "basic" | "advanced",
"starting_player": name}`` (the last is optional, default the first player). Three or
four unique non-empty names (B1), else ``InvalidSetup``.

The engine checks the rules, not who sends an event: the web layer decides whether
the ``actor`` may act (a seat places its own card and answers its own ask; the host or
the camera sets collections and reveals cards).

The flow (B1, B2): each cycle has 5 rounds with 3 players, 4 with 4 players; a round is
``placing`` (one card each, from the round's starting player clockwise) then
``grabbing`` (the camera or the players set the collections, then ``end-round``).
After the last round the ``rendezvous`` starts, led by the cycle's first starting player;
``reveal-card`` and ``choose-tiles`` drive :mod:`companion.bitenight.rendezvous`. When
the pile is done the cycle's points go on the score pad (phase ``cycle-scored``, or
``game-over`` after the last cycle, with the winners per B12). The next cycle starts
from a fresh deal: empty collections and graveyard.

:func:`view` gives the plain JSON a page renders (see its docstring);
:func:`next_events` lists the event kinds that make sense now.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from companion.bitenight import rendezvous
from companion.bitenight.cards import DECK_COPIES, Card, UnknownCardError
from companion.bitenight.rendezvous import Rendezvous
from companion.bitenight.rulings import RULINGS
from companion.bitenight.tiles import Tile, UnknownTileError, sorted_tiles
from companion.core.events import Event, IllegalEvent, InvalidSetup

KIND = "bite-night"
TILES_PER_ROUND = 3


class Phase(StrEnum):
    PLACING = "placing"
    GRABBING = "grabbing"
    RENDEZVOUS = "rendezvous"
    CYCLE_SCORED = "cycle-scored"
    GAME_OVER = "game-over"


@dataclass(frozen=True)
class BiteNightState:
    """The table between two events. Seats are indexes into ``players``.

    ``first_starter`` is the seat that held the starting player card in the first round
    of the first cycle; every other starting player follows from it (B2). ``placed`` is
    how many cards this round has so far, ``pile_size`` how many this cycle. During the
    rendezvous ``table`` holds the machine (and the collections live there); ``pad`` has
    one row of points per finished cycle, one column per seat. ``told`` holds, per pile
    position of this cycle, the card its player told the engine he placed, or None.
    """

    players: tuple[str, ...]
    advanced: bool
    first_starter: int
    phase: Phase = Phase.PLACING
    cycle: int = 1
    round: int = 1
    placed: int = 0
    pile_size: int = 0
    collections: tuple[frozenset[Tile], ...] = ()
    table: Rendezvous | None = None
    pad: tuple[tuple[int, ...], ...] = ()
    told: tuple[Card | None, ...] = ()

    @property
    def cycles(self) -> int:
        """As many cycles as players (B1)."""
        return len(self.players)

    @property
    def rounds(self) -> int:
        """5 rounds per cycle with 3 players, 4 with 4 (B1)."""
        return 5 if len(self.players) == 3 else 4

    @property
    def cycle_leader(self) -> int:
        """The starting player of this cycle's first round; he leads the rendezvous (B2).

        He takes the starting player card back for the rendezvous and then passes it one
        seat on, so every player starts one cycle ("each player is the first starting
        player once").
        """
        return (self.first_starter + self.cycle - 1) % len(self.players)

    @property
    def round_starter(self) -> int:
        """The card passes one seat left (clockwise) after every round (B2)."""
        return (self.cycle_leader + self.round - 1) % len(self.players)

    @property
    def placing_order(self) -> tuple[int, ...]:
        n = len(self.players)
        return tuple((self.round_starter + k) % n for k in range(n))

    @property
    def next_to_place(self) -> int | None:
        if self.phase is not Phase.PLACING:
            return None
        return self.placing_order[self.placed]

    def current_collections(self) -> tuple[frozenset[Tile], ...]:
        return self.table.collections if self.table else self.collections

    def graveyard(self) -> frozenset[Tile]:
        return self.table.graveyard if self.table else frozenset()


class BiteNightRules:
    """The core ``Rules`` for Bite Night: pure ``start`` and ``apply``."""

    kind = KIND

    def start(self, setup: Mapping[str, Any]) -> BiteNightState:
        players = rendezvous.check_players(setup.get("players"))
        deck = setup.get("deck", "basic")
        if deck not in ("basic", "advanced"):
            raise InvalidSetup('\'deck\' must be "basic" or "advanced"')
        starting = setup.get("starting_player", players[0])
        if starting not in players:
            raise InvalidSetup(f"the starting player '{starting}' is not one of the players")
        return BiteNightState(
            players=tuple(players),
            advanced=deck == "advanced",
            first_starter=list(players).index(starting),
            collections=tuple(frozenset() for _ in players),
        )

    def apply(self, state: BiteNightState, event: Event) -> BiteNightState:
        handler = _HANDLERS.get(event.kind)
        if handler is None:
            known = ", ".join(_HANDLERS)
            raise IllegalEvent(f"Bite Night has no event '{event.kind}' (known: {known})")
        phases = _PHASES[event.kind]
        busy = state.table is not None and state.table.current is not None
        if state.phase not in phases or (event.kind in _EDITS and busy):
            raise IllegalEvent(f"'{event.kind}' is not possible now: {_doing(state)}")
        return handler(state, event.data)

    def undoable(self, event: Event) -> bool:
        """Everything at the table can be taken back: it is all physical and visible."""
        return True


BITE_NIGHT = BiteNightRules()


# --- reading event data ---------------------------------------------------------------


def _player(state: BiteNightState, data: Mapping[str, Any]) -> int:
    name = data.get("player")
    if name not in state.players:
        raise IllegalEvent(f"'{name}' is not a player at this table")
    return state.players.index(name)


def _tile(data: Mapping[str, Any], key: str) -> Tile:
    try:
        return Tile.parse(data.get(key))
    except UnknownTileError as error:
        raise IllegalEvent(str(error)) from None


def _tile_list(data: Mapping[str, Any]) -> list[Tile]:
    ids = data.get("tiles")
    if not isinstance(ids, list):
        raise IllegalEvent("'tiles' must be a list of tile ids")
    try:
        return [Tile.parse(text) for text in ids]
    except UnknownTileError as error:
        raise IllegalEvent(str(error)) from None


# --- the events -----------------------------------------------------------------------


def _place_card(state: BiteNightState, data: Mapping[str, Any]) -> BiteNightState:
    seat = _player(state, data)
    expected = state.next_to_place
    if seat != expected:
        raise IllegalEvent(
            f"it is {state.players[expected]}'s turn to place a card, not {state.players[seat]}'s"
        )
    told = _told_card(state, data)
    placed = state.placed + 1
    phase = Phase.GRABBING if placed == len(state.players) else Phase.PLACING
    return replace(
        state,
        placed=placed,
        pile_size=state.pile_size + 1,
        phase=phase,
        told=(*state.told, told),
    )


def _told_card(state: BiteNightState, data: Mapping[str, Any]) -> Card | None:
    """The card a player says he placed, if he says it; checked against the deck (B13)."""
    if data.get("card") is None:
        return None
    card = _card(data)
    if card.is_advanced and not state.advanced:
        raise IllegalEvent(f"'{card}' is an advanced card and this is a basic game (B13)")
    if state.told.count(card) >= DECK_COPIES[card]:
        raise IllegalEvent(
            f"'{card}' is already in this cycle's pile as often as the deck holds it (B13)"
        )
    return card


def _card(data: Mapping[str, Any]) -> Card:
    try:
        return Card.parse(data.get("card"))
    except UnknownCardError as error:
        raise IllegalEvent(str(error)) from None


def _with_collection(
    state: BiteNightState, seat: int | None, tiles: Sequence[Tile]
) -> BiteNightState:
    """Give ``seat`` (None: the graveyard) exactly ``tiles``; every tile is in one place."""
    twice = [tile for tile, n in Counter(tiles).items() if n > 1]
    if twice:
        raise IllegalEvent(f"tile '{twice[0]}' is there only once, it cannot be listed twice")
    collections = state.current_collections()
    for tile in tiles:
        for other, held in enumerate(collections):
            if other != seat and tile in held:
                raise IllegalEvent(
                    f"tile '{tile}' is already in {state.players[other]}'s collection"
                )
        if seat is not None and tile in state.graveyard():
            raise IllegalEvent(f"tile '{tile}' is already in the graveyard")
    if seat is None:
        assert state.table is not None  # the graveyard exists only during the rendezvous
        return replace(state, table=replace(state.table, graveyard=frozenset(tiles)))
    new = tuple(
        frozenset(tiles) if index == seat else held for index, held in enumerate(collections)
    )
    if state.table is not None:
        return replace(state, table=replace(state.table, collections=new))
    return replace(state, collections=new)


def _set_graveyard(state: BiteNightState, data: Mapping[str, Any]) -> BiteNightState:
    return _with_collection(state, None, _tile_list(data))


def _set_collection(state: BiteNightState, data: Mapping[str, Any]) -> BiteNightState:
    return _with_collection(state, _player(state, data), _tile_list(data))


def _add_tile(state: BiteNightState, data: Mapping[str, Any]) -> BiteNightState:
    seat, tile = _player(state, data), _tile(data, "tile")
    held = state.current_collections()[seat]
    if tile in held:
        raise IllegalEvent(f"{state.players[seat]} already holds '{tile}'")
    return _with_collection(state, seat, [*held, tile])


def _remove_tile(state: BiteNightState, data: Mapping[str, Any]) -> BiteNightState:
    seat, tile = _player(state, data), _tile(data, "tile")
    held = state.current_collections()[seat]
    if tile not in held:
        raise IllegalEvent(f"{state.players[seat]} does not hold '{tile}'")
    return _with_collection(state, seat, [t for t in held if t != tile])


def _replace_tile(state: BiteNightState, data: Mapping[str, Any]) -> BiteNightState:
    seat, tile, by = _player(state, data), _tile(data, "tile"), _tile(data, "by")
    held = state.current_collections()[seat]
    if tile not in held:
        raise IllegalEvent(f"{state.players[seat]} does not hold '{tile}'")
    if by in held:
        raise IllegalEvent(f"{state.players[seat]} already holds '{by}'")
    return _with_collection(state, seat, [by if t == tile else t for t in held])


def _end_round(state: BiteNightState, data: Mapping[str, Any]) -> BiteNightState:
    expected = TILES_PER_ROUND * state.round
    for name, held in zip(state.players, state.collections, strict=True):
        if len(held) != expected:
            raise IllegalEvent(
                f"{name} holds {len(held)} tiles, but after round {state.round} every player "
                f"holds {expected} (3 per round, B1); correct the collection first"
            )
    if state.round < state.rounds:
        return replace(state, phase=Phase.PLACING, round=state.round + 1, placed=0)
    table = rendezvous.start(
        state.players,
        state.players[state.cycle_leader],
        dict(zip(state.players, state.collections, strict=True)),
        foresight=state.told,
    )
    return replace(state, phase=Phase.RENDEZVOUS, table=table)


def _reveal_card(state: BiteNightState, data: Mapping[str, Any]) -> BiteNightState:
    table = state.table
    assert table is not None
    if table.current is not None:
        waiting_for = ", ".join(ask.player for ask in table.asks)
        raise IllegalEvent(f"'{table.current}' is still waiting for the choice of {waiting_for}")
    card = _card(data)
    if card.is_advanced and not state.advanced:
        raise IllegalEvent(f"'{card}' is an advanced card and this is a basic game (B13)")
    seen = sum(1 for step in table.steps if step.card == card)
    if seen >= DECK_COPIES[card]:
        raise IllegalEvent(
            f"'{card}' has already come up {seen} time{'s' if seen > 1 else ''}; "
            f"the deck has only {DECK_COPIES[card]} (B13)"
        )
    return _after_step(state, rendezvous.reveal(table, card))


def _choose_tiles(state: BiteNightState, data: Mapping[str, Any]) -> BiteNightState:
    assert state.table is not None
    name = state.players[_player(state, data)]
    if state.table.current is None:
        raise IllegalEvent("no card is waiting for a choice")
    return _after_step(state, rendezvous.choose(state.table, name, _tile_list(data)))


def _after_step(state: BiteNightState, table: Rendezvous) -> BiteNightState:
    """Keep the machine; when the last card is done, write the cycle on the score pad."""
    if table.position < state.pile_size or table.current is not None:
        return replace(state, table=table)
    pad = (*state.pad, table.totals())
    phase = Phase.GAME_OVER if state.cycle == state.cycles else Phase.CYCLE_SCORED
    return replace(state, table=table, pad=pad, phase=phase)


def _next_cycle(state: BiteNightState, data: Mapping[str, Any]) -> BiteNightState:
    """A fresh deal (B1): empty collections and graveyard; the card passes on (B2)."""
    return replace(
        state,
        phase=Phase.PLACING,
        cycle=state.cycle + 1,
        round=1,
        placed=0,
        pile_size=0,
        collections=tuple(frozenset() for _ in state.players),
        table=None,
        told=(),
    )


_HANDLERS = {
    "place-card": _place_card,
    "set-collection": _set_collection,
    "add-tile": _add_tile,
    "remove-tile": _remove_tile,
    "replace-tile": _replace_tile,
    "set-graveyard": _set_graveyard,
    "end-round": _end_round,
    "reveal-card": _reveal_card,
    "choose-tiles": _choose_tiles,
    "next-cycle": _next_cycle,
}
_EDITS = ("set-collection", "add-tile", "remove-tile", "replace-tile", "set-graveyard")
_EDIT_PHASES = frozenset({Phase.PLACING, Phase.GRABBING, Phase.RENDEZVOUS})
_PHASES: dict[str, frozenset[Phase]] = {
    "place-card": frozenset({Phase.PLACING}),
    **{kind: _EDIT_PHASES for kind in _EDITS},
    "set-graveyard": frozenset({Phase.RENDEZVOUS}),
    "end-round": frozenset({Phase.GRABBING}),
    "reveal-card": frozenset({Phase.RENDEZVOUS}),
    "choose-tiles": frozenset({Phase.RENDEZVOUS}),
    "next-cycle": frozenset({Phase.CYCLE_SCORED}),
}


# --- what a page needs ----------------------------------------------------------------


def _doing(state: BiteNightState) -> str:
    """What the table is doing now, as the end of a sentence."""
    if state.phase is Phase.PLACING:
        return f"{state.players[state.next_to_place]} is to place a card"
    if state.phase is Phase.GRABBING:
        return f"the tiles of round {state.round} are being grabbed"
    if state.phase is Phase.RENDEZVOUS:
        table = state.table
        if table is not None and table.current is not None:
            names = ", ".join(ask.player for ask in table.asks)
            return f"'{table.current}' waits for the choice of {names}"
        return "the rendezvous waits for the next card"
    if state.phase is Phase.CYCLE_SCORED:
        return f"cycle {state.cycle} is scored and the next cycle is to begin"
    return "the game is over"


def waiting_for(state: BiteNightState) -> list[str]:
    """The players whose action the table waits for; empty when anyone (the host) acts."""
    if state.phase is Phase.PLACING:
        return [state.players[state.next_to_place]]
    if state.table is not None and state.table.asks:
        return [ask.player for ask in state.table.asks]
    return []


def next_events(state: BiteNightState) -> list[str]:
    """The event kinds that can be legal now (their data still has to be right)."""
    busy = state.table is not None and state.table.current is not None
    kinds = [
        kind
        for kind, phases in _PHASES.items()
        if state.phase in phases and not (busy and kind in _EDITS)
    ]
    if state.phase is Phase.RENDEZVOUS:
        kinds.remove("choose-tiles" if not busy else "reveal-card")
    return kinds


def winners(state: BiteNightState) -> list[str]:
    """The players with the most points; equal totals share the win (B12)."""
    totals = score_totals(state)
    best = max(totals)
    return [name for name, points in zip(state.players, totals, strict=True) if points == best]


def score_totals(state: BiteNightState) -> tuple[int, ...]:
    return tuple(sum(row[seat] for row in state.pad) for seat in range(len(state.players)))


def score_pad(state: BiteNightState) -> dict[str, Any]:
    """The pad as the table keeps it (B1): a row per cycle with the cycle's points and the
    running total after it, then the sum over all cycles (the total)."""
    rows = []
    running = [0] * len(state.players)
    for number, row in enumerate(state.pad, start=1):
        running = [total + points for total, points in zip(running, row, strict=True)]
        rows.append(
            {"cycle": number, "points": _by_name(state, row), "total": _by_name(state, running)}
        )
    totals = _by_name(state, score_totals(state))
    return {"rows": rows, "sum": totals, "total": totals}


def _by_name(state: BiteNightState, values: Sequence[Any]) -> dict[str, Any]:
    return dict(zip(state.players, values, strict=True))


def _step_json(state: BiteNightState, step: rendezvous.Step) -> dict[str, Any]:
    shown = step.to_json(state.players)
    shown["index"] = step.index
    shown["ruling"] = RULINGS[step.ruling] if step.ruling else None
    return shown


def view(state: BiteNightState) -> dict[str, Any]:
    """Plain JSON for the phone page. Keys:

    ``kind``, ``players``, ``deck``, ``phase``, ``doing`` (one sentence), ``cycle`` /
    ``cycles``, ``round`` / ``rounds``, ``starting_player`` (this round's),
    ``cycle_leader``, ``placing_order``, ``next_to_place`` (name or null),
    ``cards_placed`` (this round), ``pile_size`` (this cycle), ``collections`` (name ->
    tile ids, canonical order), ``tiles_expected`` (per player after this round),
    ``graveyard``, ``rendezvous`` (null outside the rendezvous, else ``position``,
    ``cards_left``, ``steps`` (each: card, effect, points, moves, index, ruling text or
    null), ``last_step``, ``waiting`` (cards beside the pile), ``skip_left``,
    ``current`` (card waiting for choices or null), ``asks`` (player, card, step,
    action "give"/"take", count, options, suggestion, colours (for "take": one tile
    of each), ruling), ``points`` so far),
    ``score_pad`` (``rows``: [{cycle, points: name -> n, total: running name -> n}],
    ``sum`` and ``total``: name -> n over all cycles so far),
    ``winners`` (names, only when the game is over), ``win_ruling`` (the B12 text when
    the win is shared, else null), ``waiting_for`` (names whose action
    the table needs: the next placer, or the players asked to choose; empty when the host
    or anyone may act), ``next_events``.
    """
    table = state.table
    view_winners = winners(state) if state.phase is Phase.GAME_OVER else []
    shown_rendezvous = None
    if table is not None:
        steps = [_step_json(state, step) for step in table.steps]
        shown_rendezvous = {
            "position": table.position,
            "cards_left": state.pile_size - table.position,
            "steps": steps,
            "last_step": steps[-1] if steps else None,
            "waiting": [card.id for card in table.waiting],
            "skip_left": table.skip_left,
            "current": table.current.id if table.current else None,
            "asks": [ask.to_json() for ask in table.asks],
            "points": _by_name(state, table.totals()),
        }
    return {
        "kind": KIND,
        "players": list(state.players),
        "deck": "advanced" if state.advanced else "basic",
        "phase": state.phase.value,
        "doing": _doing(state),
        "cycle": state.cycle,
        "cycles": state.cycles,
        "round": state.round,
        "rounds": state.rounds,
        "starting_player": state.players[state.round_starter],
        "cycle_leader": state.players[state.cycle_leader],
        "placing_order": [state.players[seat] for seat in state.placing_order],
        "next_to_place": (
            state.players[state.next_to_place] if state.next_to_place is not None else None
        ),
        "cards_placed": state.placed,
        "pile_size": state.pile_size,
        "collections": _by_name(
            state, [[t.id for t in sorted_tiles(held)] for held in state.current_collections()]
        ),
        "tiles_expected": TILES_PER_ROUND * state.round,
        "graveyard": [t.id for t in sorted_tiles(state.graveyard())],
        "rendezvous": shown_rendezvous,
        "score_pad": score_pad(state),
        "winners": view_winners,
        "win_ruling": RULINGS["B12"] if len(view_winners) > 1 else None,
        "waiting_for": waiting_for(state),
        "next_events": next_events(state),
    }
