"""Events of Middernacht built by name, so callers never spell event kinds or keys by hand.

Every event names in ``player`` the player who acts (the one whose turn it is, a giver,
or a player telling his ends): the web shell lets a phone send events only for its own
seat, and the rules refuse an event from a player who may not act now. ``actor`` is who
pressed the button (that player or ``"host"``), kept for the record.
"""

from __future__ import annotations

from typing import Any

from companion.core.events import Event


def _event(kind: str, player: str, actor: str | None, **data: Any) -> Event:
    fields = {key: value for key, value in data.items() if value is not None}
    return Event(kind, {"player": player, **fields}, actor or player)


def turn_ends(player: str, left: str, right: str, actor: str | None = None) -> Event:
    return _event("turn-ends", player, actor, left=left, right=right)


def turn_lid(player: str, grave: str, lid: str | None = None, actor: str | None = None) -> Event:
    return _event("turn-lid", player, actor, grave=grave, lid=lid)


def open_neighbour(
    player: str, grave: str, lid: str | None = None, actor: str | None = None
) -> Event:
    return _event("open-neighbour", player, actor, grave=grave, lid=lid)


def place_vampire(
    player: str, end: str | None = None, uncovered: str | None = None, actor: str | None = None
) -> Event:
    return _event("place-vampire", player, actor, end=end, uncovered=uncovered)


def place_garlic(player: str, actor: str | None = None) -> Event:
    return _event("place-garlic", player, actor)


def pass_(player: str, actor: str | None = None) -> Event:
    return _event("pass", player, actor)


def stop(player: str, actor: str | None = None) -> Event:
    return _event("stop", player, actor)


def give_vampire(
    player: str, end: str | None = None, uncovered: str | None = None, actor: str | None = None
) -> Event:
    return _event("give-vampire", player, actor, end=end, uncovered=uncovered)
