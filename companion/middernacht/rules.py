"""The referee of Middernacht, Vampierenjacht (RULINGS.md V1–V4), as a :class:`Rules`.

Who knows what
--------------
On a real table the players shuffle the lids onto the board and deal the vampires
themselves, so nobody, the companion included, knows a lid before it is turned or a
face-down vampire before it becomes an end. The honest referee for that table
(``mode: "table"``, the default) therefore *learns*: the player taps the grave whose lid
he turned and says what the lid shows (a colour or a rat), and when an end vampire
leaves a row he says the colour of the newly turned end. What the companion remembers
is what players forget: what lies *in* every grave (a vampire, whose garlic, or
nothing), every lid it has seen (a lid reported differently later is refused), and how
many tokens of each colour are accounted for (an eleventh red is refused).

``mode: "seeded"`` is the fully refereed game: the companion lays the 66 lids and deals
the 60 vampires from the setup's ``seed`` (the host may set it), so events carry no
lid and no uncovered colour and the phone tells each player what he turns. Both modes
run the same rules below; only where a colour comes from differs.

Events (``data`` keys in brackets)
----------------------------------
Every event names in ``player`` who acts; only the current player may act, except a
player telling his ends or handing over an owed vampire.

``turn-ends`` [player, left, right]: table mode, before the first turn.
``turn-lid`` [player, grave, lid]: the current player turns the lid of a grave.
``place-vampire`` [player, end, uncovered]: he lays his matching end vampire in the open grave.
``place-garlic`` [player]: he lays one of his garlic tokens in the open grave.
``pass`` [player]: he lets the offer (vampire or garlic) go; his turn ends.
``open-neighbour`` [player, grave, lid]: after a rat, he opens a grave around it.
``stop`` [player]: he opens no more graves around the rat; his turn ends.
``give-vampire`` [player, end, uncovered]: a giver hands over one of his end vampires.

Where the rulings are silent
----------------------------
- Only a placed vampire lets a turn go on; every other outcome ends it (a found garlic
  too), and passing up an offer ends it as well.
- A rat opens a *neighbourhood* that replaces the rest of the turn: each opened grave is
  resolved as a turned lid; a placed vampire lets the player open the next one, any other
  outcome ends the turn, as does ``stop`` or running out of graves. A rat found among the
  neighbours leaves the board but opens no neighbourhood of its own. Graves without a lid
  (their rat left) cannot be turned or opened.
- A received vampire goes into the middle of the row; a row of one token has no middle,
  so the gift becomes its new right end, face up.
- Transfers that are owed block every other event; givers may answer in any order. A
  giver who hands over his last vampire has an empty row and wins at once (V4).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from companion.core.events import Event, IllegalEvent, InvalidSetup
from companion.middernacht.board import GRAVE_COUNT, Grave
from companion.middernacht.state import (
    RAT,
    STAKES_FOR_A_GIFT,
    Colour,
    End,
    Garlic,
    Mode,
    Phase,
    Player,
    Row,
    Table,
    Transfer,
    Vampire,
)
from companion.middernacht.tokens import DEFAULT_TOKEN_COLOURS, TOKENS_PER_COLOUR

KIND = "middernacht"
MIN_PLAYERS = 2
MAX_PLAYERS = 6
RAT_LIDS = 6
VAMPIRE_COUNT = TOKENS_PER_COLOUR * len(DEFAULT_TOKEN_COLOURS)


# -- setup ---------------------------------------------------------------------------------


def _players(setup: Mapping[str, Any]) -> tuple[str, ...]:
    names = setup.get("players")
    if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
        raise InvalidSetup("Middernacht needs 'players': a list of names in seat order")
    names = tuple(n.strip() for n in names)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise InvalidSetup(f"Middernacht is for 2 to 6 players, not {len(names)}")
    if any(not n for n in names) or len(set(names)) != len(names):
        raise InvalidSetup("every player needs a name of their own")
    return names


def _colours(setup: Mapping[str, Any]) -> tuple[Colour, ...]:
    colours = setup.get("colours", DEFAULT_TOKEN_COLOURS)
    if (
        not isinstance(colours, list | tuple)
        or len(colours) != len(DEFAULT_TOKEN_COLOURS)
        or not all(isinstance(c, str) and c.strip() and c != RAT for c in colours)
        or len(set(colours)) != len(colours)
    ):
        raise InvalidSetup("'colours' must name six different vampire colours")
    return tuple(colours)


def _mode(setup: Mapping[str, Any]) -> Mode:
    try:
        return Mode(setup.get("mode", Mode.TABLE.value))
    except ValueError:
        raise InvalidSetup("'mode' is either 'table' or 'seeded'") from None


def deal(setup: Mapping[str, Any]) -> Table:
    """The table before the first lid (V1, V2): rows dealt, lids laid, garlic handed out."""
    names, colours, mode = _players(setup), _colours(setup), _mode(setup)
    per_player, left_over = divmod(VAMPIRE_COUNT, len(names))
    if mode is Mode.TABLE:
        rows: list[Row] = [(None,) * per_player for _ in names]
        return Table(
            mode=mode,
            colours=colours,
            players=tuple(Player(name, row) for name, row in zip(names, rows, strict=True)),
            lids=(None,) * GRAVE_COUNT,
            lidless=frozenset(),
            contents=(None,) * GRAVE_COUNT,
            box=(None,) * left_over,
            phase=Phase.DEAL,
            news=("Every player lays the dealt vampires face down in a row and turns both ends.",),
        )
    seed = setup.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise InvalidSetup("a seeded game needs a whole-number 'seed'")
    rng = random.Random(seed)
    vampires = [colour for colour in colours for _ in range(TOKENS_PER_COLOUR)]
    rng.shuffle(vampires)
    lids: list[str] = [colour for colour in colours for _ in range(TOKENS_PER_COLOUR)]
    rng.shuffle(lids)
    lids = lids[RAT_LIDS:] + [RAT] * RAT_LIDS  # six coloured lids set aside unseen
    rng.shuffle(lids)
    players = tuple(
        Player(name, tuple(vampires[seat * per_player : (seat + 1) * per_player]))
        for seat, name in enumerate(names)
    )
    return Table(
        mode=mode,
        colours=colours,
        players=players,
        lids=tuple(lids),
        lidless=frozenset(),
        contents=(None,) * GRAVE_COUNT,
        box=tuple(vampires[len(names) * per_player :]),
        news=(f"The vampires are dealt and the lids laid: {names[0]} begins.",),
    )


# -- small helpers -------------------------------------------------------------------------


def _player_arg(state: Table, data: Mapping[str, Any]) -> int:
    name = data.get("player")
    if name is None:
        raise IllegalEvent("a Middernacht event names the player who acts in 'player'")
    try:
        return state.seat(name)
    except ValueError:
        raise IllegalEvent(f"there is no player {name!r} in this game") from None


def _colour_arg(state: Table, value: object, what: str) -> Colour:
    if value not in state.colours:
        raise IllegalEvent(f"{what} must be one of {', '.join(state.colours)}, not {value!r}")
    return str(value)


def _end_arg(value: object) -> End | None:
    if value is None:
        return None
    try:
        return End(value)
    except ValueError:
        raise IllegalEvent(f"an end is 'left' or 'right', not {value!r}") from None


def _check_colour_count(state: Table, colour: Colour, more: int = 1) -> None:
    """Refuse a told colour that would make more tokens of it than the game has."""
    if Counter(state.vampires())[colour] + more > TOKENS_PER_COLOUR:
        raise IllegalEvent(
            f"there are only {TOKENS_PER_COLOUR} {colour} vampires and all are accounted for; "
            "look again"
        )


def _with_player(state: Table, seat: int, **changes: Any) -> tuple[Player, ...]:
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return tuple(players)


def _with_content(
    state: Table, grave: int, content: Vampire | Garlic | None
) -> tuple[Vampire | Garlic | None, ...]:
    contents = list(state.contents)
    contents[grave] = content
    return tuple(contents)


# -- rows ----------------------------------------------------------------------------------


def _take_end(
    state: Table, seat: int, end: End | None, uncovered: object
) -> tuple[Colour, Row, str | None]:
    """The colour taken from one end of a row, the row after, and the new end's colour.

    In table mode the face-down middle is a bag (its order is not known), so the newly
    turned end is the colour the player reports, taken out of the bag.
    """
    player = state.players[seat]
    row = player.row
    if end is None:
        if len(row) > 1:
            raise IllegalEvent(
                f"{player.name} must say which end to give up: left ({row[0]}) or right ({row[-1]})"
            )
        end = End.LEFT
    colour = player.end(end)
    assert colour is not None, "ends are known once the game has begun"
    rest = row[1:] if end is End.LEFT else row[:-1]
    if len(rest) < 2:  # the other end (if any) is already face up: nothing to turn
        if uncovered is not None and (not rest or uncovered != rest[0]):
            raise IllegalEvent(f"no new end of {player.name}'s row is turned, it stays as it is")
        return colour, rest, None
    if state.mode is Mode.SEEDED:
        if uncovered is not None:
            raise IllegalEvent(
                "in a seeded game the companion turns the new end: leave out 'uncovered'"
            )
        new_end = rest[0] if end is End.LEFT else rest[-1]
        assert new_end is not None
        return colour, rest, new_end
    middle = list(row[1:-1])
    if uncovered is None and not must_tell_new_end(state, seat):
        uncovered = middle[0]
    if uncovered is None:
        raise IllegalEvent(f"{player.name} must say which colour the newly turned end shows")
    new_end = _colour_arg(state, uncovered, "the newly turned end")
    if new_end in middle:
        middle.remove(new_end)
    elif None in middle:
        _check_colour_count(state, new_end)
        middle.remove(None)
    else:
        raise IllegalEvent(
            f"the middle of {player.name}'s row holds no {new_end} vampire; look again"
        )
    other = row[-1] if end is End.LEFT else row[0]
    new_row = (new_end, *middle, other) if end is End.LEFT else (other, *middle, new_end)
    return colour, new_row, new_end


def must_tell_new_end(state: Table, seat: int) -> bool:
    """Whether giving up an end of this row turns a token only the player can see."""
    row = state.players[seat].row
    if state.mode is Mode.SEEDED or len(row) < 3:
        return False
    middle = row[1:-1]
    return None in middle or len(set(middle)) > 1


def _receive(row: Row, colour: Colour) -> Row:
    """The row with a received vampire added face down in its middle (V3)."""
    if len(row) < 2:
        return (*row, colour)
    middle = len(row) // 2
    return (*row[:middle], colour, *row[middle:])


# -- turn flow -----------------------------------------------------------------------------


def _next_turn(state: Table) -> Table:
    following = (state.turn + 1) % len(state.players)
    return replace(
        state,
        turn=following,
        phase=Phase.TURN,
        grave=None,
        rat_run=False,
        neighbours=(),
        news=(*state.news, f"It is {state.players[following].name}'s turn."),
    )


def _end_turn(state: Table) -> Table:
    """The turn is over; owed vampires are handed over before the next player goes."""
    state = replace(state, grave=None, rat_run=False, neighbours=())
    if state.pending:
        return replace(state, phase=Phase.GIVING)
    return _next_turn(state)


def _go_on(state: Table) -> Table:
    """After a placed vampire: turn another lid, or open the next grave around the rat."""
    state = replace(state, grave=None)
    if not state.rat_run:
        return replace(
            state, phase=Phase.TURN, news=(*state.news, f"{state.current.name} turns another lid.")
        )
    if state.neighbours:
        return replace(state, phase=Phase.RAT)
    return _end_turn(replace(state, news=(*state.news, "No grave around the rat is left.")))


def _win(state: Table, seat: int) -> Table:
    name = state.players[seat].name
    return replace(
        state,
        phase=Phase.OVER,
        winner=seat,
        pending=(),
        grave=None,
        rat_run=False,
        neighbours=(),
        news=(*state.news, f"{name}'s row is empty: {name} wins!"),
    )


def _others(state: Table, seat: int) -> tuple[int, ...]:
    """Every other seat, clockwise from the one after ``seat``."""
    count = len(state.players)
    return tuple((seat + step) % count for step in range(1, count))


def _told_lid(state: Table, grave: Grave, told: object) -> str:
    """The lid on ``grave``: from the seeded layout, or as the player reports it."""
    known = state.lids[grave.index]
    if state.mode is Mode.SEEDED:
        if told is not None:
            raise IllegalEvent("in a seeded game the companion turns the lid: leave out 'lid'")
        assert known is not None
        return known
    if told is None:
        raise IllegalEvent(f"say which lid lies on {grave}: a colour or a rat")
    lid = RAT if told == RAT else _colour_arg(state, told, f"the lid of {grave}")
    if known is not None:
        if known != lid:
            raise IllegalEvent(
                f"the lid of {grave} was a different one when it was turned before; look again"
            )
        return lid
    seen = Counter(state.lids)[lid]
    limit = RAT_LIDS if lid == RAT else TOKENS_PER_COLOUR
    if seen >= limit:
        raise IllegalEvent(
            f"the board has at most {limit} {lid} lids and all have been seen; look again"
        )
    return lid


def _resolve(state: Table, grave: Grave, lid: str) -> Table:
    """What the turned lid (or opened neighbour) ``grave`` brings the current player (V3)."""
    g = grave.index
    player = state.current
    lids = list(state.lids)
    lids[g] = lid
    state = replace(state, lids=tuple(lids))
    if lid == RAT:
        lidless = state.lidless | {g}
        if state.rat_run:
            state = replace(
                state,
                lidless=lidless,
                news=(f"{player.name} finds another rat on {grave}: it leaves the board too.",),
            )
            return _go_on(state)
        neighbours = tuple(n.index for n in grave.neighbours() if n.index not in lidless)
        state = replace(
            state,
            lidless=lidless,
            rat_run=True,
            neighbours=neighbours,
            news=(
                f"{player.name} turns a rat on {grave}: it leaves the board, and "
                f"{player.name} may open the {len(neighbours)} graves around it one by one.",
            ),
        )
        return replace(state, phase=Phase.RAT) if neighbours else _end_turn(state)

    content = state.contents[g]
    opened = f"{player.name} turns a {lid} lid on {grave}"
    if isinstance(content, Vampire):
        stakes = player.stakes + 1
        news = f"{opened}: a vampire lies there, {player.name} takes a stake ({stakes} of 3)."
        if stakes < STAKES_FOR_A_GIFT:
            players = _with_player(state, state.turn, stakes=stakes)
            return _end_turn(replace(state, players=players, news=(news,)))
        players = _with_player(state, state.turn, stakes=0)
        owed = tuple(Transfer(giver, state.turn) for giver in _others(state, state.turn))
        return _end_turn(
            replace(
                state,
                players=players,
                pending=owed,
                news=(
                    news,
                    f"A third stake: every other player gives {player.name} a vampire, "
                    "and the stakes go back.",
                ),
            )
        )
    if isinstance(content, Garlic):
        owner = state.players[content.owner]
        players = _with_player(state, content.owner, garlic=owner.garlic + 1)
        state = replace(state, players=players, contents=_with_content(state, g, None))
        if content.owner == state.turn:
            owed = tuple(Transfer(giver, state.turn) for giver in _others(state, state.turn))
            news = (
                f"{opened}: {player.name}'s own garlic! "
                f"Every other player gives {player.name} a vampire."
            )
        else:
            owed = (Transfer(content.owner, state.turn),)
            news = f"{opened}: {owner.name}'s garlic! {owner.name} gives {player.name} a vampire."
        news_back = f"The garlic goes back to {owner.name}."
        return _end_turn(replace(state, pending=owed, news=(news, news_back)))
    if player.matching_ends(lid):
        return replace(
            state,
            phase=Phase.PLACE,
            grave=g,
            news=(
                f"{opened}: the grave is empty and {lid} is an end of the row; "
                f"{player.name} may lay that vampire in it.",
            ),
        )
    if player.garlic:
        return replace(
            state,
            phase=Phase.GARLIC,
            grave=g,
            news=(
                f"{opened}: the grave is empty and {lid} is not an end of the row; "
                f"{player.name} may lay a garlic in it.",
            ),
        )
    return _end_turn(
        replace(
            state,
            news=(f"{opened}: the grave is empty, no end matches and no garlic is left.",),
        )
    )


# -- events --------------------------------------------------------------------------------


def _turn_ends(state: Table, data: Mapping[str, Any]) -> Table:
    seat = _player_arg(state, data)
    left = _colour_arg(state, data.get("left"), "the left end")
    right = _colour_arg(state, data.get("right"), "the right end")
    player = state.players[seat]
    row: Row = (None,) * len(player.row)
    cleared = replace(state, players=_with_player(state, seat, row=row))
    _check_colour_count(cleared, left, 2 if left == right else 1)
    if left != right:
        _check_colour_count(cleared, right)
    players = _with_player(state, seat, row=(left, *row[1:-1], right))
    state = replace(
        state, players=players, news=(f"{player.name}'s ends show {left} and {right}.",)
    )
    if all(p.row[0] is not None for p in players):
        return replace(
            state,
            phase=Phase.TURN,
            news=(*state.news, f"Every row is laid: {players[0].name} begins."),
        )
    return state


def _turn_lid(state: Table, data: Mapping[str, Any]) -> Table:
    grave = Grave.parse(data.get("grave"))
    if grave.index in state.lidless:
        raise IllegalEvent(f"{grave} has no lid any more: its rat left the board")
    return _resolve(state, grave, _told_lid(state, grave, data.get("lid")))


def _open_neighbour(state: Table, data: Mapping[str, Any]) -> Table:
    grave = Grave.parse(data.get("grave"))
    if grave.index not in state.neighbours:
        around = ", ".join(Grave(n).name for n in state.neighbours)
        raise IllegalEvent(f"{grave} is not a closed grave around the rat (those are {around})")
    lid = _told_lid(state, grave, data.get("lid"))
    state = replace(state, neighbours=tuple(n for n in state.neighbours if n != grave.index))
    return _resolve(state, grave, lid)


def _place_vampire(state: Table, data: Mapping[str, Any]) -> Table:
    assert state.grave is not None
    grave = Grave(state.grave)
    lid = state.lids[state.grave]
    assert lid is not None
    player = state.current
    ends = player.matching_ends(lid)
    end = _end_arg(data.get("end"))
    if end is None and len(ends) == 1:
        end = ends[0]
    elif end is None:
        raise IllegalEvent(f"both ends of {player.name}'s row are {lid}: say which one to lay")
    elif end not in ends:
        raise IllegalEvent(f"the {end} end of {player.name}'s row is {player.end(end)}, not {lid}")
    colour, row, new_end = _take_end(state, state.turn, end, data.get("uncovered"))
    state = replace(
        state,
        players=_with_player(state, state.turn, row=row),
        contents=_with_content(state, grave.index, Vampire(colour)),
        news=(f"{player.name} lays a {colour} vampire in {grave}.",),
    )
    if not row:
        return _win(state, state.turn)
    if new_end is not None:
        state = replace(
            state, news=(*state.news, f"{player.name}'s new {end} end shows {new_end}.")
        )
    return _go_on(state)


def _place_garlic(state: Table, data: Mapping[str, Any]) -> Table:
    assert state.grave is not None
    player = state.current
    state = replace(
        state,
        players=_with_player(state, state.turn, garlic=player.garlic - 1),
        contents=_with_content(state, state.grave, Garlic(state.turn)),
        news=(f"{player.name} lays a garlic in {Grave(state.grave)}: the turn ends.",),
    )
    return _end_turn(state)


def _pass(state: Table, data: Mapping[str, Any]) -> Table:
    name = state.current.name
    return _end_turn(
        replace(state, news=(f"{name} lets it be; the lid goes back and the turn ends.",))
    )


def _stop(state: Table, data: Mapping[str, Any]) -> Table:
    name = state.current.name
    return _end_turn(replace(state, news=(f"{name} opens no more graves: the turn ends.",)))


def _give_vampire(state: Table, data: Mapping[str, Any]) -> Table:
    seat = _player_arg(state, data)
    owed = next((t for t in state.pending if t.giver == seat), None)
    giver = state.players[seat]
    if owed is None:
        raise IllegalEvent(f"{giver.name} owes nobody a vampire")
    colour, row, new_end = _take_end(state, seat, _end_arg(data.get("end")), data.get("uncovered"))
    receiver = state.players[owed.receiver]
    players = list(_with_player(state, seat, row=row))
    players[owed.receiver] = replace(receiver, row=_receive(receiver.row, colour))
    pending = list(state.pending)
    pending.remove(owed)
    news = [f"{giver.name} gives {receiver.name} a {colour} vampire."]
    if new_end is not None:
        news.append(f"{giver.name}'s new end shows {new_end}.")
    state = replace(state, players=tuple(players), pending=tuple(pending), news=tuple(news))
    if not row:
        return _win(state, seat)
    return state if pending else _next_turn(state)


Handler = Callable[[Table, Mapping[str, Any]], Table]

#: event kind -> (the phases it may come in, what it does)
EVENTS: dict[str, tuple[frozenset[Phase], Handler]] = {
    "turn-ends": (frozenset({Phase.DEAL}), _turn_ends),
    "turn-lid": (frozenset({Phase.TURN}), _turn_lid),
    "place-vampire": (frozenset({Phase.PLACE}), _place_vampire),
    "place-garlic": (frozenset({Phase.GARLIC}), _place_garlic),
    "pass": (frozenset({Phase.PLACE, Phase.GARLIC}), _pass),
    "open-neighbour": (frozenset({Phase.RAT}), _open_neighbour),
    "stop": (frozenset({Phase.RAT}), _stop),
    "give-vampire": (frozenset({Phase.GIVING}), _give_vampire),
}


#: events a player sends for himself outside his turn; every other one is the current player's
NOT_ONLY_THE_CURRENT_PLAYER = frozenset({"turn-ends", "give-vampire"})


def waiting_for(state: Table) -> str:
    """What the game waits for, as a sentence (used in refusals and on the phone)."""
    name = state.current.name
    if state.phase is Phase.DEAL:
        missing = [p.name for p in state.players if p.row[0] is None]
        return f"the game waits for the row ends of {', '.join(missing)}"
    if state.phase is Phase.GIVING:
        owed = state.pending[0]
        return (
            f"{state.players[owed.giver].name} must first give "
            f"{state.players[owed.receiver].name} a vampire"
        )
    if state.phase is Phase.OVER:
        assert state.winner is not None
        return f"the game is over: {state.players[state.winner].name} has won"
    return {
        Phase.TURN: f"it is {name}'s turn to turn a lid",
        Phase.PLACE: f"{name} may lay the matching vampire in the open grave or pass",
        Phase.GARLIC: f"{name} may lay a garlic in the open grave or pass",
        Phase.RAT: f"{name} may open a grave around the rat or stop",
    }[state.phase]


class MiddernachtRules:
    """The referee: ``start`` deals, ``apply`` checks one event and returns the next table."""

    kind = KIND

    def start(self, setup: Mapping[str, Any]) -> Table:
        return deal(setup)

    def apply(self, state: Table, event: Event) -> Table:
        try:
            phases, handler = EVENTS[event.kind]
        except KeyError:
            known = ", ".join(EVENTS)
            raise IllegalEvent(
                f"Middernacht has no event '{event.kind}' (it knows {known})"
            ) from None
        if state.phase not in phases:
            raise IllegalEvent(f"cannot {event.kind} now: {waiting_for(state)}")
        seat = _player_arg(state, event.data)
        if event.kind not in NOT_ONLY_THE_CURRENT_PLAYER and seat != state.turn:
            raise IllegalEvent(
                f"it is {state.current.name}'s turn, not {state.players[seat].name}'s"
            )
        return handler(state, event.data)

    def undoable(self, event: Event) -> bool:
        return True


RULES = MiddernachtRules()
