"""Middernacht's phone pages: the host's setup form, then one page for every phone.

The referee is the engine (:mod:`companion.middernacht.rules`); the page renders its
view and posts its events through the shared API, so the web decides only who may send
an event (a phone acts for its own seat, named in the event's ``player``).

Two routes of our own:

- creating a game: in a seeded game the layout's seed is drawn here, on the server,
  unless the host sets one, so it never passes through a browser by accident;
- checking the rows: from the table camera (tokens sorted into the players' rows by
  seat zone), or from a phone's photo of one row. Each row is compared with the
  referee's (length, end colours, nothing face up in the middle) and the mismatches come
  back as sentences. Nothing is stored: the players fix the table, or the host corrects
  the game with undo.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, current_app, render_template, request

from companion.core.store import StoredGame
from companion.middernacht.rows import SeenToken, along_row, check_rows, group_rows, the_row
from companion.middernacht.rules import RULES
from companion.middernacht.state import Table
from companion.middernacht.view import view as table_view
from web import security
from web.api import open_game
from web.db import get_store
from web.errors import Refusal, forbidden
from web.pages import GamePages
from web.validate import Field, read_json

KIND = RULES.kind
#: Largest photo a phone may send, in bytes.
MAX_PHOTO_BYTES = 20 * 1024 * 1024

bp = Blueprint(
    "middernacht",
    __name__,
    url_prefix="/middernacht",
    template_folder="templates",
    static_folder="static",
)


def draw_seed() -> int:
    """The seed of a seeded game's lids and deal, when the host leaves it to chance."""
    return secrets.randbits(62)


def seats(setup: Mapping[str, Any]) -> list[str]:
    return [str(name).strip() for name in setup.get("players", [])]


def view(stored: StoredGame, seat: str | None) -> dict[str, Any]:
    """The table as every player sees it, what the phone of ``seat`` may do, and whether
    a table camera watches the rows."""
    state: Table = stored.game.state
    sits = None if seat is None else state.seat(seat)
    shown = table_view(state, sits)
    shown["camera"] = "companion_camera" in current_app.extensions
    return shown


@bp.get("/new")
def setup() -> str:
    return render_template("middernacht/setup.html")


@bp.post("/games")
def create() -> tuple[Response, int]:
    """Create a game like ``POST /api/games``; a seeded game gets its seed here."""
    body = read_json(
        {"title": Field(str, required=False, max_length=80), "setup": Field(dict, max_length=8)}
    )
    return open_game(PAGES, body["setup"], body.get("title", ""))


def prepare_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    """A seeded game whose host left the seed to chance gets one drawn here."""
    if setup.get("mode") == "seeded" and setup.get("seed") is None:
        return {**setup, "seed": draw_seed()}
    return dict(setup)


def exportable(stored: StoredGame) -> bool:
    """The log says what lies in every grave, which nobody may see before the end."""
    state: Table = stored.game.state
    return state.winner is not None


def _load(game_id: str) -> StoredGame:
    stored = get_store().load(game_id)
    if stored.kind != KIND:
        raise Refusal(f"game {game_id} is not a game of Middernacht", 404, "not_found")
    return stored


@bp.get("/<game_id>")
def play(game_id: str) -> str:
    stored = _load(game_id)
    return render_template("middernacht/play.html", game_id=game_id, title=stored.title)


def detect_tokens(photo: bytes) -> list[SeenToken]:
    """The vampire tokens the recogniser finds in a photo (vision loads only when needed).

    Tests set ``MIDDERNACHT_DETECT_TOKENS`` in the app config to a stand-in.
    """
    from vision.imageio import decode_image
    from web.recognition import recogniser
    from web.tileset import default_tileset, tileset_path

    image = decode_image(photo, name="the photo")
    found = recogniser(tileset_path(default_tileset())).detect(image)
    return [
        SeenToken(token.colour if token.face_up else None, token.center, token.confidence)
        for token in found.tokens
    ]


@bp.post("/<game_id>/row-photo")
def row_photo(game_id: str) -> dict[str, Any]:
    """Compare the row in a photo of one player's row with the referee's row."""
    stored = _load(game_id)
    who = security.caller(game_id)
    player = request.form.get("player", "")
    if player not in seats(stored.game.setup):
        raise Refusal(f"'{player}' is not a player at this table", 400, "json")
    if not who.host and who.seat is None:
        raise forbidden("this phone has no seat in this game; join the game first")
    upload = request.files.get("photo")
    if upload is None:
        raise Refusal("send the photo in a 'photo' field", 400, "json")
    data = upload.read(MAX_PHOTO_BYTES + 1)
    if len(data) > MAX_PHOTO_BYTES:
        raise Refusal("the photo is larger than 20 MB", 413, "too_large")
    from vision.imageio import ImageError

    detector = current_app.config.get("MIDDERNACHT_DETECT_TOKENS", detect_tokens)
    try:
        tokens = detector(data)
    except ImageError as error:
        raise Refusal(str(error), 422, "image") from None
    mismatches = check_rows(stored.game.state, {player: along_row(the_row(tokens))})
    return {
        "player": player,
        "seen": len(tokens),
        "mismatches": [m.sentence for m in mismatches],
    }


@bp.get("/<game_id>/camera-rows")
def camera_rows(game_id: str) -> dict[str, Any]:
    """The rows the table camera sees last, each checked against the referee's.

    Tokens go to the seat whose zone holds them (the camera's seat zones, or sectors
    around the image centre while none are drawn); the referee's sentences name only
    what the table may see.
    """
    from web.camera import latest
    from web.seatzones import seat_finder

    stored = _load(game_id)
    sight = latest()
    players = seats(stored.game.setup)
    tokens = [SeenToken.from_json(token) for token in sight.tokens]
    rows = group_rows(tokens, players, seat_finder(sight, players))
    return {
        "at": sight.at,
        "seen": {player: len(row) for player, row in rows.items()},
        "mismatches": [
            {"player": m.player, "sentence": m.sentence}
            for m in check_rows(stored.game.state, rows)
        ],
    }


PAGES = GamePages(
    kind=KIND,
    title_key="middernacht.title",
    blueprint=bp,
    seats=seats,
    view=view,
    play_endpoint="middernacht.play",
    setup_endpoint="middernacht.setup",
    seat_field="player",
    prepare_setup=prepare_setup,
    exportable=exportable,
)
