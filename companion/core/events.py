"""The shared game core: a game is an append-only list of events.

Every game (Bite Night, Middernacht, the moat and cellar game) is a :class:`Rules`
object: a pure ``start(setup)`` that builds the first state and a pure
``apply(state, event)`` that checks one event and returns the next state. The
:class:`Game` keeps the log and derives the state by replaying it, which is what gives
the product undo, correction and crash recovery: the log is the only truth, and any state
can be rebuilt from it.

Undo and redo are events too (``undo``/``redo``), so the log itself is never rewritten:
a store can append in a transaction and a crash can only lose an event that was never
confirmed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from companion.errors import CompanionError

UNDO = "undo"
REDO = "redo"
META_KINDS = frozenset({UNDO, REDO})


class RuleError(CompanionError):
    """An event or setup the rules refuse; the game is left unchanged."""


class IllegalEvent(RuleError):
    """The event breaks a rule in the current state (like chess's IllegalMoveError)."""


class InvalidSetup(RuleError):
    """A game cannot start with these players or options."""


class StaleState(RuleError):
    """The event was made on an older state than the current one (someone acted first)."""


class NothingToUndo(RuleError):
    """There is no step that can be taken back (or brought back)."""


@dataclass(frozen=True)
class Event:
    """One thing that happened at the table.

    ``kind`` names what happened in the game's own words (``reveal-card``,
    ``set-collection``); ``data`` holds JSON-able details; ``actor`` is the seat (or
    ``"host"``) that asked for it, kept for the record and for permission checks at the
    edge.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    actor: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "data": dict(self.data), "actor": self.actor}

    @classmethod
    def from_json(cls, raw: Any) -> Event:
        """Parse an event from JSON, refusing anything that is not shaped like one."""
        if not isinstance(raw, Mapping):
            raise RuleError("an event must be a JSON object")
        kind = raw.get("kind")
        data = raw.get("data", {})
        actor = raw.get("actor")
        if not isinstance(kind, str) or not kind:
            raise RuleError("an event needs a 'kind' string")
        if not isinstance(data, Mapping):
            raise RuleError(f"the data of event '{kind}' must be a JSON object")
        if actor is not None and not isinstance(actor, str):
            raise RuleError(f"the actor of event '{kind}' must be a string")
        return cls(kind, dict(data), actor)

    def encode(self) -> str:
        """The event's JSON text; refuses data that JSON cannot hold."""
        try:
            return json.dumps(self.to_json(), sort_keys=True, allow_nan=False)
        except (TypeError, ValueError) as error:
            raise RuleError(f"event '{self.kind}' holds data that is not JSON: {error}") from None


S = TypeVar("S")


class Rules(Protocol[S]):
    """What a game must provide to run on the core.

    ``apply`` must not mutate the state it is given: the core keeps earlier states for
    checking and relies on replay giving the same result every time.
    """

    kind: str

    def start(self, setup: Mapping[str, Any]) -> S:
        """The state before any event; raises InvalidSetup."""
        ...

    def apply(self, state: S, event: Event) -> S:
        """The state after ``event``; raises IllegalEvent and changes nothing."""
        ...

    def undoable(self, event: Event) -> bool:
        """Whether this event may be taken back by ``undo``."""
        ...


def effective_events(log: Iterable[Event], rules: Rules[Any]) -> list[Event]:
    """The events that still count once every undo and redo in the log is applied."""
    effective: list[Event] = []
    undone: list[Event] = []
    for event in log:
        _advance(effective, undone, event, rules)
    return effective


def _advance(effective: list[Event], undone: list[Event], event: Event, rules: Rules[Any]) -> None:
    """Move the (effective, undone) stacks past one logged event, in place."""
    if event.kind == UNDO:
        if not effective or not rules.undoable(effective[-1]):
            raise NothingToUndo("there is no step to take back")
        undone.append(effective.pop())
    elif event.kind == REDO:
        if not undone:
            raise NothingToUndo("there is no undone step to bring back")
        effective.append(undone.pop())
    else:
        effective.append(event)
        undone.clear()


class Game(Generic[S]):
    """A game: its rules, its setup, its log, and the state derived from them.

    ``check`` asks "is it legal?" without changing anything; ``push`` appends. Both
    raise a :class:`RuleError` subclass and leave the game as it was. The state after
    every effective event is kept (states are immutable), so undo is a pop rather than
    a replay.
    """

    def __init__(
        self, rules: Rules[S], setup: Mapping[str, Any], log: Sequence[Event] = ()
    ) -> None:
        self.rules = rules
        self.setup: Mapping[str, Any] = setup
        self._log: list[Event] = []
        self._effective: list[Event] = []
        self._undone: list[Event] = []
        self._states: list[S] = [rules.start(setup)]
        for event in log:
            self.push(event)

    def copy(self) -> Game[S]:
        """An independent game with the same log; cheap, since states are immutable."""
        twin: Game[S] = object.__new__(Game)
        twin.rules = self.rules
        twin.setup = self.setup
        twin._log = list(self._log)
        twin._effective = list(self._effective)
        twin._undone = list(self._undone)
        twin._states = list(self._states)
        return twin

    @property
    def log(self) -> tuple[Event, ...]:
        return tuple(self._log)

    @property
    def effective(self) -> tuple[Event, ...]:
        """The events that count now (undone ones left out), oldest first."""
        return tuple(self._effective)

    @property
    def version(self) -> int:
        """The id of the current state: the number of events in the log."""
        return len(self._log)

    @property
    def state(self) -> S:
        return self._states[-1]

    @property
    def can_undo(self) -> bool:
        return bool(self._effective) and self.rules.undoable(self._effective[-1])

    @property
    def can_redo(self) -> bool:
        return bool(self._undone)

    def replay(self) -> S:
        """Rebuild the state from the setup and the effective events alone."""
        state = self.rules.start(self.setup)
        for event in self._effective:
            state = self.rules.apply(state, event)
        return state

    def check(self, event: Event, expected_version: int | None = None) -> S:
        """The state ``event`` would lead to; raises if it is illegal or stale."""
        if expected_version is not None and expected_version != self.version:
            raise StaleState(
                f"the game has moved on (state {self.version}, not {expected_version}); "
                "look again and retry"
            )
        event.encode()
        if event.kind == UNDO:
            if not self.can_undo:
                raise NothingToUndo("there is no step to take back")
            return self._states[-2]
        if event.kind == REDO:
            if not self._undone:
                raise NothingToUndo("there is no undone step to bring back")
            return self.rules.apply(self.state, self._undone[-1])
        return self.rules.apply(self.state, event)

    def push(self, event: Event, expected_version: int | None = None) -> S:
        """Append ``event`` after checking it; returns the new state."""
        state = self.check(event, expected_version)
        _advance(self._effective, self._undone, event, self.rules)
        self._log.append(event)
        if event.kind == UNDO:
            self._states.pop()
        else:
            self._states.append(state)
        return state

    def undo(self, actor: str | None = None, expected_version: int | None = None) -> S:
        return self.push(Event(UNDO, {}, actor), expected_version)

    def redo(self, actor: str | None = None, expected_version: int | None = None) -> S:
        return self.push(Event(REDO, {}, actor), expected_version)
