"""Events of Middernacht built by name, so callers never spell event kinds or keys by hand.

``actor`` is who asked (a player's name or ``"host"``); the rules never read it, the web
edge checks it against the phone's seat.
"""

from __future__ import annotations

from typing import Any

from companion.core.events import Event


def _event(kind: str, actor: str | None, **data: Any) -> Event:
    return Event(kind, {key: value for key, value in data.items() if value is not None}, actor)


def turn_ends(player: str, left: str, right: str, actor: str | None = None) -> Event:
    return _event("turn-ends", actor or player, player=player, left=left, right=right)


def turn_lid(grave: str, lid: str | None = None, actor: str | None = None) -> Event:
    return _event("turn-lid", actor, grave=grave, lid=lid)


def open_neighbour(grave: str, lid: str | None = None, actor: str | None = None) -> Event:
    return _event("open-neighbour", actor, grave=grave, lid=lid)


def place_vampire(
    end: str | None = None, uncovered: str | None = None, actor: str | None = None
) -> Event:
    return _event("place-vampire", actor, end=end, uncovered=uncovered)


def place_garlic(actor: str | None = None) -> Event:
    return _event("place-garlic", actor)


def pass_(actor: str | None = None) -> Event:
    return _event("pass", actor)


def stop(actor: str | None = None) -> Event:
    return _event("stop", actor)


def give_vampire(
    player: str, end: str | None = None, uncovered: str | None = None, actor: str | None = None
) -> Event:
    return _event("give-vampire", actor or player, player=player, end=end, uncovered=uncovered)
