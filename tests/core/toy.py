"""A tiny game for testing the core: players add numbers to a running total."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.core.events import Event, IllegalEvent, InvalidSetup


@dataclass(frozen=True)
class Tally:
    total: int
    limit: int
    names: tuple[str, ...] = ()


class TallyRules:
    """``add`` n (1..9) while the total stays within the limit; ``name`` cannot be undone."""

    kind = "tally"

    def start(self, setup: Mapping[str, Any]) -> Tally:
        limit = setup.get("limit")
        if not isinstance(limit, int) or limit < 1:
            raise InvalidSetup("a tally needs a positive whole 'limit'")
        return Tally(0, limit)

    def apply(self, state: Tally, event: Event) -> Tally:
        if event.kind == "add":
            n = event.data.get("n")
            if not isinstance(n, int) or not 1 <= n <= 9:
                raise IllegalEvent(f"cannot add {n!r}: only 1 to 9")
            if state.total + n > state.limit:
                raise IllegalEvent(f"adding {n} would pass the limit of {state.limit}")
            return replace(state, total=state.total + n)
        if event.kind == "name":
            return replace(state, names=(*state.names, str(event.data.get("name"))))
        raise IllegalEvent(f"a tally has no event '{event.kind}'")

    def undoable(self, event: Event) -> bool:
        return event.kind != "name"


TALLY = TallyRules()


def add(n: int) -> Event:
    return Event("add", {"n": n}, "host")
