"""The rendezvous as a step-by-step machine: reveal a card, ask who must choose, apply.

The state is one immutable :class:`Rendezvous`; the two transitions are pure:

- :func:`reveal` takes the card the players turned over (first placed first, B3) and
  either carries it out at once, or, when some players must choose tiles, records it as
  ``current`` and lists the :class:`Ask` of each such player (in B2 order, each with the
  engine's suggestion).
- :func:`choose` answers one ask; once every ask is answered the card is carried out.

Every card the table turns over becomes one :class:`Step` (card, effect, points per
seat, tile moves), whatever happens to it, so the page and ``companion rendezvous``
print the same story. A player with no real choice (no more tiles than he must give, or
a single candidate in the graveyard) is never asked.

The phone page drives this through ``companion.bitenight.game``; the console command
drives it through ``companion.bitenight.scenario``, which knows the whole pile in advance
and passes it as ``foresight`` so that the B5 suggestion can weigh the cards each player
placed himself. In a live game the pile is face down: ``foresight`` holds the cards the
players chose to tell the engine when they placed them (None for the others), and for a
player who told nothing the suggestion is its tie-break alone (tiles without hearts
first, canonical order).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import combinations
from typing import Any

from companion.bitenight.cards import CANCELS, WAITING_KINDS, Card, Kind
from companion.bitenight.rulings import RULINGS
from companion.bitenight.scoring import (
    Grid,
    card_points,
    cell,
    cells_read,
    grid_of,
    scores_points,
)
from companion.bitenight.tiles import COLOURS, Colour, Motif, Tile, duplicates, sorted_tiles
from companion.core.events import IllegalEvent, InvalidSetup

#: Where tiles go that leave the game for this cycle; a ``from``/``to`` of a move.
GRAVEYARD = "graveyard"


class Effect(StrEnum):
    """What became of a card (INTERFACES.md names)."""

    SCORED = "scored"
    MOVED = "moved"
    CANCELLED = "cancelled"
    SKIPPED = "skipped"
    WAITING = "waiting"


@dataclass(frozen=True)
class Move:
    """One tile moving between a player's collection and the graveyard (or a player)."""

    tile: Tile
    source: str
    target: str

    def to_json(self) -> dict[str, str]:
        return {"tile": self.tile.id, "from": self.source, "to": self.target}


@dataclass(frozen=True)
class Step:
    """One card of the pile and what it did. ``points`` is per seat, in seat order.

    ``ruling`` names the RULINGS.md entry that decided the outcome (``"B7"``), so the
    page can show the ruling's text beside the step; None for a plain card.
    """

    index: int
    card: Card
    effect: Effect
    points: tuple[int, ...]
    moves: tuple[Move, ...] = ()
    ruling: str | None = None

    def to_json(self, players: Sequence[str]) -> dict[str, Any]:
        """The INTERFACES.md shape: card, effect, points for every player, moves."""
        return {
            "card": self.card.id,
            "effect": self.effect.value,
            "points": dict(zip(players, self.points, strict=True)),
            "moves": [move.to_json() for move in self.moves],
        }


@dataclass(frozen=True)
class Ask:
    """A player who must choose tiles before the current card can be carried out.

    For a graveyard card he gives ``count`` of ``options`` (his own tiles). For
    resurrection he takes one graveyard tile of each colour in ``colours`` (the colours
    of his coffins with a heart that find a tile there), out of ``options``; a colour
    with a single candidate may be left out of his answer, it has no choice.
    """

    player: str
    card: Card
    step: int
    count: int
    options: tuple[Tile, ...]
    suggestion: tuple[Tile, ...]
    colours: tuple[Colour, ...] = ()

    @property
    def takes(self) -> bool:
        return self.card.kind is Kind.RESURRECTION

    @property
    def has_choice(self) -> bool:
        """Whether the player really chooses (more candidates than he must give or take)."""
        if self.takes:
            return any(
                sum(1 for tile in self.options if tile.colour is colour) > 1
                for colour in self.colours
            )
        return len(self.options) > self.count

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "card": self.card.id,
            "step": self.step,
            "action": "take" if self.takes else "give",
            "count": self.count,
            "options": [tile.id for tile in self.options],
            "suggestion": [tile.id for tile in self.suggestion],
            "colours": [colour.value for colour in self.colours],
            "ruling": RULINGS["B9" if self.takes else "B5"],
        }


@dataclass(frozen=True)
class Rendezvous:
    """Everything the rendezvous needs, after the steps resolved so far.

    ``leader`` is the seat of the cycle's first starting player (B2). ``foresight`` is
    the pile as far as the engine knows it (None where a card is unknown), used only for
    the B5 suggestion, never to decide what a revealed card does. ``waiting`` holds
    the cards lying face up beside the pile (B7, B8); ``skip_left`` how many more cards a
    skip-two still puts away (B6). ``current`` is a revealed card still waiting for the
    ``asks``; ``answers`` holds the choices already made for it.
    """

    players: tuple[str, ...]
    leader: int
    collections: tuple[frozenset[Tile], ...]
    graveyard: frozenset[Tile] = frozenset()
    foresight: tuple[Card | None, ...] = ()
    steps: tuple[Step, ...] = ()
    waiting: tuple[Card, ...] = ()
    skip_left: int = 0
    current: Card | None = None
    asks: tuple[Ask, ...] = ()
    answers: tuple[tuple[str, tuple[Tile, ...]], ...] = ()

    @property
    def position(self) -> int:
        """The 0-based pile index of the card being (or next to be) resolved."""
        return len(self.steps)

    @property
    def seat_order(self) -> tuple[int, ...]:
        """Seats in B2 order: the leader first, then clockwise."""
        n = len(self.players)
        return tuple((self.leader + k) % n for k in range(n))

    def seat(self, player: str) -> int:
        try:
            return self.players.index(player)
        except ValueError:
            raise IllegalEvent(f"'{player}' is not a player at this table") from None

    def collection(self, player: str) -> frozenset[Tile]:
        return self.collections[self.seat(player)]

    def totals(self) -> tuple[int, ...]:
        """Points per seat over the steps so far."""
        totals = [0] * len(self.players)
        for step in self.steps:
            for seat, points in enumerate(step.points):
                totals[seat] += points
        return tuple(totals)


#: Bite Night is for three or four players (B1).
PLAYER_COUNTS = (3, 4)


def check_players(players: Any) -> tuple[str, ...]:
    """The players in seat order, or InvalidSetup naming what is wrong with them (B1).

    Shared by the game's setup and the console's scenario files, so both refuse alike.
    """
    if not isinstance(players, list | tuple) or not all(
        isinstance(name, str) and name.strip() for name in players
    ):
        raise InvalidSetup("'players' must be a list of non-empty names")
    if len(players) not in PLAYER_COUNTS:
        raise InvalidSetup(f"Bite Night is played by 3 or 4 players, not {len(players)} (B1)")
    if len(set(players)) != len(players):
        twice = next(name for name in players if players.count(name) > 1)
        raise InvalidSetup(f"the player name '{twice}' is given twice")
    if GRAVEYARD in players:
        raise InvalidSetup(f"'{GRAVEYARD}' cannot be a player name, it names the graveyard")
    return tuple(players)


def placed_by(players: int, leader: int, index: int) -> int:
    """The seat that placed pile card ``index`` (B2): round r starts one seat further on."""
    return (leader + index // players + index % players) % players


def start(
    players: Sequence[str],
    leader: str,
    collections: Mapping[str, Iterable[Tile]],
    graveyard: Iterable[Tile] = (),
    foresight: Sequence[Card | None] = (),
) -> Rendezvous:
    """The rendezvous before the first card; refuses a tile that is in two places."""
    players = tuple(players)
    if leader not in players:
        raise InvalidSetup(f"the starting player '{leader}' is not one of the players")
    unknown = [name for name in collections if name not in players]
    if unknown:
        raise InvalidSetup(f"the collection of '{unknown[0]}' belongs to no player")
    held = [tuple(collections.get(name, ())) for name in players]
    grave = tuple(graveyard)
    twice = duplicates([tile for tiles in held for tile in tiles] + list(grave))
    if twice:
        places = [name for name, tiles in zip(players, held, strict=True) if twice[0] in tiles]
        places += [GRAVEYARD] * grave.count(twice[0])
        raise InvalidSetup(
            f"tile '{twice[0]}' is there only once but appears in {' and '.join(places)}"
        )
    return Rendezvous(
        players=players,
        leader=players.index(leader),
        collections=tuple(frozenset(tiles) for tiles in held),
        graveyard=frozenset(grave),
        foresight=tuple(foresight),
    )


# --- the two transitions -------------------------------------------------------------


def reveal(state: Rendezvous, card: Card) -> Rendezvous:
    """The next card of the pile is turned over: carry it out, or ask for choices."""
    if state.current is not None:
        waiting_for = ", ".join(ask.player for ask in state.asks)
        raise IllegalEvent(f"'{state.current}' is still waiting for the choice of {waiting_for}")
    index = state.position
    stopped = _stopped(state, card)
    if stopped is not None:
        effect, ruling, used = stopped
        step = Step(index, card, effect, _zeros(state), (), ruling)
        if effect is Effect.SKIPPED:
            skip_left = (
                2 if card.kind is Kind.SKIP_TWO and not state.skip_left else state.skip_left - 1
            )
            return _record(state, step, skip_left=skip_left)
        if effect is Effect.WAITING:
            return _record(state, step, waiting=(*state.waiting, card))
        rest = list(state.waiting)
        rest.remove(used)
        return _record(state, step, waiting=tuple(rest))
    asks = tuple(ask for ask in asks_for(state, card) if ask.has_choice)
    if asks:
        return replace(state, current=card, asks=asks, answers=())
    return _carry_out(state, card, {})


def _stopped(state: Rendezvous, card: Card) -> tuple[Effect, str, Card | None] | None:
    """Why ``card`` would not be carried out now (B6-B8), or None if it would.

    Returns the effect, the ruling that decides it, and the waiting card it uses up.
    """
    if state.skip_left:
        return Effect.SKIPPED, "B6", None
    for waiting in state.waiting:
        if card.kind in CANCELS[waiting.kind]:
            return Effect.CANCELLED, _ruling_of(waiting), waiting
    if card.kind in WAITING_KINDS:
        return Effect.WAITING, _ruling_of(card), None
    if card.kind is Kind.SKIP_TWO:
        return Effect.SKIPPED, "B6", None
    return None


def _ruling_of(waiting: Card) -> str:
    return "B7" if waiting.kind is Kind.GRAVEYARD_CLOSED else "B8"


def choose(state: Rendezvous, player: str, tiles: Sequence[Tile]) -> Rendezvous:
    """``player`` answers his ask for the current card; the card runs once all answered."""
    if state.current is None:
        raise IllegalEvent("no card is waiting for a choice")
    state.seat(player)  # refuses a name that is not at the table
    ask = next((a for a in state.asks if a.player == player), None)
    if ask is None:
        if any(name == player for name, _ in state.answers):
            raise IllegalEvent(f"{player} has already chosen for '{state.current}'")
        raise IllegalEvent(f"{player} has nothing to choose for '{state.current}'")
    check_choice(state, ask, tiles)
    answers = (*state.answers, (player, tuple(tiles)))
    asks = tuple(a for a in state.asks if a is not ask)
    if asks:
        return replace(state, asks=asks, answers=answers)
    card = state.current
    done = replace(state, current=None, asks=(), answers=())
    return _carry_out(done, card, dict(answers))


def check_choice(state: Rendezvous, ask: Ask, tiles: Sequence[Tile]) -> None:
    """Refuse a choice that the card does not allow, naming the first problem."""
    player, card = ask.player, ask.card
    seat = state.seat(player)
    if duplicates(tiles):
        raise IllegalEvent(f"{player} names tile '{duplicates(tiles)[0]}' twice for '{card}'")
    if ask.takes:
        _check_resurrection(state, ask, tiles)
        return
    if len(tiles) != ask.count:
        noun = "tile" if ask.count == 1 else "tiles"
        raise IllegalEvent(
            f"{player} must give up {ask.count} {noun} for '{card}', not {len(tiles)}"
        )
    for tile in tiles:
        if tile not in state.collections[seat]:
            raise IllegalEvent(f"{player} does not hold '{tile}'")
        if tile not in ask.options:
            raise IllegalEvent(f"'{tile}' is not a {card.motif} tile, so it cannot go for '{card}'")


def _check_resurrection(state: Rendezvous, ask: Ask, tiles: Sequence[Tile]) -> None:
    """One graveyard tile per coffin with a heart; a coffin with one candidate may be left out."""
    player = ask.player
    for tile in tiles:
        if tile not in state.graveyard:
            raise IllegalEvent(f"'{tile}' is not in the graveyard, so {player} cannot take it")
        if tile.colour not in ask.colours:
            raise IllegalEvent(
                f"{player} has no coffin with a heart that may take the {tile.colour} tile '{tile}'"
            )
    colours = [tile.colour for tile in tiles]
    for colour in ask.colours:
        if colours.count(colour) > 1:
            raise IllegalEvent(f"{player}'s {colour} coffin with a heart takes only one tile")
        if not colours.count(colour) and len(_graveyard_of(state.graveyard, colour)) > 1:
            raise IllegalEvent(
                f"{player} must choose which {colour} tile his {colour} coffin with a heart "
                "takes out of the graveyard"
            )


# --- who must choose, and what the engine suggests ----------------------------------


def asks_for(state: Rendezvous, card: Card) -> tuple[Ask, ...]:
    """Every player who would have a say in ``card`` if it came up now, in B2 order.

    This includes players whose choice is forced (no more tiles than they must give, a
    single candidate in the graveyard): :func:`reveal` asks only those with a real
    choice (``Ask.has_choice``), while a scenario may still name the forced choice, and
    is then checked against it. Empty when the card would be skipped or cancelled.
    """
    if state.current is not None or _stopped(state, card) is not None:
        return ()
    if card.kind in (Kind.GRAVE, Kind.GRAVE_ANY):
        asks = []
        for seat in state.seat_order:
            options = _gift_options(state.collections[seat], card)
            if len(options) > 2:
                upcoming = _own_cards_to_come(state, seat)
                suggestion = suggest_gift(state.collections[seat], options, 2, upcoming)
            else:
                suggestion = options
            asks.append(
                Ask(state.players[seat], card, state.position, len(suggestion), options, suggestion)
            )
        return tuple(asks)
    if card.kind is Kind.RESURRECTION:
        asks = []
        for seat in state.seat_order:
            colours = tuple(
                colour
                for colour in _coffin_heart_colours(state.collections[seat])
                if _graveyard_of(state.graveyard, colour)
            )
            if colours:
                options = tuple(t for c in colours for t in _graveyard_of(state.graveyard, c))
                suggestion = tuple(suggest_resurrection(options, c) for c in colours)
                ask = Ask(
                    state.players[seat],
                    card,
                    state.position,
                    len(colours),
                    options,
                    suggestion,
                    colours,
                )
                asks.append(ask)
        return tuple(asks)
    return ()


def _gift_options(collection: frozenset[Tile], card: Card) -> tuple[Tile, ...]:
    """The tiles a graveyard card lets a player give up, in canonical order."""
    if card.kind is Kind.GRAVE_ANY:
        return tuple(sorted_tiles(collection))
    return tuple(sorted_tiles(tile for tile in collection if tile.motif is card.motif))


def _own_cards_to_come(state: Rendezvous, seat: int) -> list[Card]:
    """The cards after the current one that this seat placed (the ones he knows, B5)."""
    n = len(state.players)
    return [
        card
        for index, card in enumerate(state.foresight)
        if card is not None and index > state.position and placed_by(n, state.leader, index) == seat
    ]


def suggest_gift(
    collection: Iterable[Tile], options: Sequence[Tile], count: int, upcoming: Sequence[Card]
) -> tuple[Tile, ...]:
    """The B5 suggestion: give up the ``count`` tiles that keep the most points.

    Points are counted statically on the collection left after giving, over the point
    cards (and garlic soup) in ``upcoming``. Ties go to the choice with the fewest heart
    tiles, then to the first in canonical tile order.
    """
    weigh = _Weigher(collection, [card for card in upcoming if scores_points(card)])
    best: tuple[tuple[int, int], tuple[Tile, ...]] | None = None
    for gift in combinations(sorted_tiles(options), count):
        rank = (-weigh.kept(gift), sum(tile.heart for tile in gift))
        if best is None or rank < best[0]:
            best = (rank, gift)
    return best[1] if best else ()


class _Weigher:
    """Points kept on some cards after giving tiles away, rescoring only what changes.

    A gift only changes the cards that read the cells it empties (``cells_read``), and
    gifts that empty the same cells keep the same points, so each is scored once.
    """

    def __init__(self, collection: Iterable[Tile], cards: Sequence[Card]) -> None:
        self.grid = [list(row) for row in grid_of(collection)]
        self.cards = cards
        frozen: Grid = tuple(tuple(row) for row in self.grid)
        self.points = [card_points(card, frozen) for card in cards]
        self.reads = [cells_read(card) for card in cards]
        self.total = sum(self.points)
        self.known: dict[tuple[tuple[int, int], ...], int] = {}

    def kept(self, gift: Sequence[Tile]) -> int:
        if not self.cards:
            return 0
        cells = tuple(sorted(cell(tile) for tile in gift))
        if cells not in self.known:
            self.known[cells] = self._kept_without(cells)
        return self.known[cells]

    def _kept_without(self, cells: tuple[tuple[int, int], ...]) -> int:
        touched = [i for i, reads in enumerate(self.reads) if any(c in reads for c in cells)]
        if not touched:
            return self.total
        for c, m in cells:
            self.grid[c][m] -= 1
        grid: Grid = tuple(tuple(row) for row in self.grid)
        for c, m in cells:
            self.grid[c][m] += 1
        lost = sum(self.points[i] - card_points(self.cards[i], grid) for i in touched)
        return self.total - lost


def suggest_resurrection(options: Iterable[Tile], colour: Colour) -> Tile:
    """The B9 suggestion for one coffin: a heart tile first, then canonical motif order."""
    candidates = [tile for tile in options if tile.colour is colour]
    return min(candidates, key=lambda tile: (not tile.heart, tile.sort_key))


def _coffin_heart_colours(collection: frozenset[Tile]) -> list[Colour]:
    return [c for c in COLOURS if Tile(c, Motif.COFFIN, True) in collection]


def _graveyard_of(graveyard: frozenset[Tile], colour: Colour) -> list[Tile]:
    return sorted_tiles(tile for tile in graveyard if tile.colour is colour)


# --- carrying a card out --------------------------------------------------------------

#: The steal cards of B9: (the heart tile's motif that takes, the motif of what it takes).
STEALS: dict[Kind, tuple[Motif, Motif]] = {
    Kind.BLOOD_WEDDING: (Motif.MAIDEN, Motif.MONK),
    Kind.NECK_BITE: (Motif.VAMPIRE, Motif.MAIDEN),
    Kind.HOARDING: (Motif.MONK, Motif.GARLIC),
    Kind.SUNRISE: (Motif.VAMPIRE, Motif.COFFIN),
}


class _Table:
    """Mutable scratch copy of collections and graveyard while one card is carried out."""

    def __init__(self, state: Rendezvous) -> None:
        self.players = state.players
        self.collections = [set(tiles) for tiles in state.collections]
        self.graveyard = set(state.graveyard)
        self.moves: list[Move] = []

    def bury(self, seat: int, tiles: Iterable[Tile]) -> None:
        for tile in sorted_tiles(tiles):
            self.collections[seat].remove(tile)
            self.graveyard.add(tile)
            self.moves.append(Move(tile, self.players[seat], GRAVEYARD))

    def take(self, seat: int, tile: Tile) -> None:
        """Move ``tile`` to ``seat`` from the graveyard or another player."""
        if tile in self.graveyard:
            self.graveyard.remove(tile)
            source = GRAVEYARD
        else:
            owner = next(s for s, tiles in enumerate(self.collections) if tile in tiles)
            self.collections[owner].remove(tile)
            source = self.players[owner]
        self.collections[seat].add(tile)
        self.moves.append(Move(tile, source, self.players[seat]))

    def owner(self, tile: Tile) -> int | None:
        return next((s for s, tiles in enumerate(self.collections) if tile in tiles), None)


def _carry_out(state: Rendezvous, card: Card, answers: Mapping[str, Sequence[Tile]]) -> Rendezvous:
    index = state.position
    kind = card.kind
    if card.is_point_card:
        points = tuple(card_points(card, grid_of(tiles)) for tiles in state.collections)
        return _record(state, Step(index, card, Effect.SCORED, points))
    table = _Table(state)
    points = _zeros(state)
    ruling = None
    if kind in (Kind.GRAVE, Kind.GRAVE_ANY):
        for seat in state.seat_order:
            given = answers.get(state.players[seat])
            if given is None:
                given = _gift_options(state.collections[seat], card)[:2]
            table.bury(seat, given)
        ruling = "B5" if answers else None
    elif kind is Kind.GARLIC_SOUP:
        points = tuple(card_points(card, grid_of(tiles)) for tiles in state.collections)
        for seat in state.seat_order:
            table.bury(seat, [t for t in state.collections[seat] if t.motif is Motif.GARLIC])
    elif kind is Kind.BANISHMENT:
        for seat in state.seat_order:
            for colour in COLOURS:
                if Tile(colour, Motif.GARLIC, True) in table.collections[seat]:
                    table.bury(
                        seat,
                        [
                            t
                            for t in table.collections[seat]
                            if t.colour is colour and t.motif is Motif.VAMPIRE
                        ],
                    )
    elif kind in STEALS:
        taker, target = STEALS[kind]
        for seat in state.seat_order:
            for colour in COLOURS:
                if Tile(colour, taker, True) not in table.collections[seat]:
                    continue
                prey = Tile(colour, target, True)
                owner = table.owner(prey)
                if owner is not None and owner != seat:
                    table.take(seat, prey)
        ruling = "B9"
    elif kind is Kind.RESURRECTION:
        for seat in state.seat_order:
            chosen = {tile.colour: tile for tile in answers.get(state.players[seat], ())}
            for colour in _coffin_heart_colours(frozenset(table.collections[seat])):
                candidates = _graveyard_of(frozenset(table.graveyard), colour)
                if candidates:
                    table.take(seat, chosen.get(colour) or suggest_resurrection(candidates, colour))
        ruling = "B9"
    else:  # every kind is handled above or in reveal()
        raise AssertionError(f"no rule carries out '{card}'")
    effect = Effect.SCORED if kind is Kind.GARLIC_SOUP else Effect.MOVED
    step = Step(index, card, effect, points, tuple(table.moves), ruling)
    return _record(
        state,
        step,
        collections=tuple(frozenset(tiles) for tiles in table.collections),
        graveyard=frozenset(table.graveyard),
    )


def _zeros(state: Rendezvous) -> tuple[int, ...]:
    return (0,) * len(state.players)


def _record(state: Rendezvous, step: Step, **changes: Any) -> Rendezvous:
    return replace(state, steps=(*state.steps, step), **changes)
