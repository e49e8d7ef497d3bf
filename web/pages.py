"""How a game plugs its phone pages into the table server.

A game's web module (``web/bitenight/__init__.py``, ...) defines ``PAGES``, a
:class:`GamePages` saying which rules kind it serves, its blueprint (pages, own
templates), who sits at the table in a given setup, how its state looks to a page, and
which events only the host may send. Registering the game is one line in
:data:`GAME_PAGES`. Everything shared (creating games, rooms and seats, tokens,
posting events with their expected version, undo, the live stream, errors, texts, the
base template) comes from the shell; a game adds no routes for those.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint

from companion.core.store import StoredGame

#: The games whose pages the server shows: one module per game, each with a ``PAGES``.
GAME_PAGES: tuple[str, ...] = (
    "web.bitenight",
    "web.empire",
    "web.middernacht",
)


@dataclass(frozen=True)
class ScoreTable:
    """A game's score pad for the list of past games: a header row, the rows, a total
    row, and who won (empty while the game goes on)."""

    head: list[str]
    rows: list[list[Any]]
    total: list[Any]
    winners: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class GamePages:
    """One game's pages and what the shell needs to know to serve them.

    ``seats(setup)`` names the seats in table order (what phones choose from when
    joining). ``view(stored, seat)`` is the JSON the game's page renders, for the
    player in ``seat`` (None for the host screen or a spectator): strip here anything
    that player must not see. ``host_only`` events are refused from seat tokens; other
    events are accepted from a seat only for itself: when the event's data has
    ``seat_field``, it must name the caller's seat (the host may act for anyone).
    ``play_endpoint`` and ``setup_endpoint`` are the blueprint's endpoints taking
    ``game_id`` and nothing, respectively. ``check_setup`` refuses (CompanionError)
    setup keys that belong to the page rather than the engine; the engine's own keys
    are checked by its ``start``. ``summary`` gives the score table the list of past
    games shows under the game (None while there is nothing to show).

    ``prepare_setup`` turns the setup a browser sent into the one stored: it draws what
    the server must choose itself (the seed of a secret deal, which no browser may
    pick) and refuses what the browser may not set. ``exportable`` says whether the
    host screen may take the whole log away now: a game whose log holds what the host
    screen must not see (hidden roles, what lies under the lids) says no until it is
    over. Both default to "as sent" and "always".

    ``refusal(sentence)`` says an engine refusal (an illegal event, a setup it does not
    accept) again in the players' words, through the texts catalogue: the engines speak
    English with ids. None passes the engine's sentence through.
    """

    kind: str
    title_key: str
    blueprint: Blueprint
    seats: Callable[[Mapping[str, Any]], list[str]]
    view: Callable[[StoredGame, str | None], dict[str, Any]]
    play_endpoint: str
    setup_endpoint: str
    host_only: frozenset[str] = field(default_factory=frozenset)
    seat_field: str | None = "player"
    check_setup: Callable[[Mapping[str, Any]], None] | None = None
    summary: Callable[[StoredGame], ScoreTable | None] | None = None
    prepare_setup: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None
    exportable: Callable[[StoredGame], bool] | None = None
    refusal: Callable[[str], str] | None = None


def load_pages(modules: tuple[str, ...] | list[str]) -> dict[str, GamePages]:
    """The GamePages of each module, by rules kind."""
    found: dict[str, GamePages] = {}
    for name in modules:
        pages = importlib.import_module(name).PAGES
        if not isinstance(pages, GamePages):
            raise TypeError(f"{name}.PAGES must be a GamePages")
        found[pages.kind] = pages
    return found
