"""Phone pages of the moat and cellar game: the host screen and both players' phones.

Every page renders from the game JSON of the shared API, whose ``view`` is built here by
:func:`companion.empire.view.view` for the asking phone: the vampire player's phone gets
the three vampires, the human player's his two known humans, the host screen and
watchers neither. Nothing secret is ever written into the HTML.

The one route of our own is the game's creation: the seed of the secret deal is drawn
here, on the server, so that it never passes through a browser (the host screen could
otherwise work the vampires out from it).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, render_template

from companion.core.store import StoredGame
from companion.empire.characters import DEFAULT_NAMES
from companion.empire.rules import DEFAULT_DECK_SIZE, EMPIRE, EmpireState, Seat
from companion.empire.view import HOST, history
from companion.empire.view import view as seat_view
from web.api import open_game
from web.db import get_store
from web.errors import Refusal
from web.pages import GamePages
from web.validate import Field, read_json

KIND = EMPIRE.kind

bp = Blueprint(
    "empire",
    __name__,
    url_prefix="/empire",
    template_folder="templates",
    static_folder="static",
)


def draw_seed() -> int:
    """The seed of a new game's secret deal (tests replace it to fix the deal)."""
    return secrets.randbits(62)


@bp.get("/new")
def setup() -> str:
    return render_template("empire/setup.html", names=DEFAULT_NAMES, deck_size=DEFAULT_DECK_SIZE)


@bp.post("/games")
def create() -> tuple[Response, int]:
    """Create a game like ``POST /api/games``, with the seed drawn on the server."""
    body = read_json(
        {"title": Field(str, required=False, max_length=80), "setup": Field(dict, max_length=8)}
    )
    return open_game(PAGES, body["setup"], body.get("title", ""))


def prepare_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    """The secret deal's seed is drawn here: a browser that chose it would know the vampires."""
    if "seed" in setup:
        raise Refusal("the secret deal is drawn by the server; leave out 'seed'", 400, "json")
    return {**setup, "seed": draw_seed()}


def exportable(stored: StoredGame) -> bool:
    """The log names the vampires, which the host screen must not see before the end."""
    state: EmpireState = stored.game.state
    return state.outcome is not None


@bp.get("/<game_id>")
def play(game_id: str) -> str:
    stored = get_store().load(game_id)
    if stored.kind != KIND:
        raise Refusal(f"game '{game_id}' is not a game of the moat and cellar", 404, "not_found")
    return render_template("empire/play.html", game_id=game_id, title=stored.title)


def seats(setup: dict[str, Any]) -> list[str]:
    """The two seats, by the players' names: the vampire player first (he starts)."""
    state: EmpireState = EMPIRE.start(setup)
    return [state.player(Seat.VAMPIRE), state.player(Seat.HUMAN)]


def view(stored: StoredGame, seat: str | None) -> dict[str, Any]:
    """The table as this phone may see it, and the public record of the last steps."""
    game = stored.game
    state: EmpireState = game.state
    sits = state.seat_of(seat) if seat is not None else None
    shown = seat_view(state, sits.value if sits else HOST)
    shown["history"] = history(EMPIRE.start(game.setup), game.effective)
    return shown


PAGES = GamePages(
    kind=KIND,
    title_key="empire.title",
    blueprint=bp,
    seats=seats,
    view=view,
    play_endpoint="empire.play",
    setup_endpoint="empire.setup",
    seat_field=None,
    prepare_setup=prepare_setup,
    exportable=exportable,
)
