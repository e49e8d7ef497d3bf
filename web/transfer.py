"""Export and import of a whole game: its setup and event log as one JSON file.

The host downloads a game (to keep it, or to carry it to another laptop) and anyone may
import such a file, which becomes a *new* game with its own room: the host screen that
imported it holds its host token, and no phone of the old room holds a seat in it.
The core validates an import by replaying every event through the game's rules
(:meth:`companion.core.store.Store.import_game`), so a file edited by hand can create a
game only if the game could really have been played that way.

A real game's log outgrows the 64 KB limit of ordinary JSON requests, so an import has
its own, larger limit (:data:`MAX_IMPORT_BYTES`); everything else goes through the same
checks as every other request (:mod:`web.validate`).
"""

from __future__ import annotations

import json
import re

from flask import Blueprint, Response, current_app, jsonify, url_for

from web import security
from web.api import changes, game_pages
from web.db import get_seats, get_store
from web.errors import Refusal
from web.texts import say
from web.validate import Field, read_json

bp = Blueprint("transfer", __name__, url_prefix="/api/games")

#: The exported file's fields (``Store.export_game``), checked before the core replays it.
EXPORTED = {
    "format": Field(str, max_length=40),
    "version": Field(int, minimum=0),
    "kind": Field(str, max_length=40),
    "title": Field(str, required=False, max_length=80),
    "created_at": Field((int, float), required=False),
    "setup": Field(dict, max_length=40),
    "events": Field(list, max_length=20_000),
}

#: Largest export accepted, in bytes (a long evening's log is a few hundred KB);
#: the app's ``MAX_IMPORT_BYTES`` setting overrides it.
MAX_IMPORT_BYTES = 2 * 1024 * 1024

_FILE_NAME_UNSAFE = re.compile(r"[^A-Za-z0-9-]+")


@bp.get("/<game_id>/export")
def export(game_id: str) -> Response:
    """The game as a JSON download; only the host screen may take the whole log away."""
    store = get_store()
    stored = store.load(game_id)
    security.require_host(game_id)
    pages = game_pages(stored.kind)
    if pages.exportable is not None and not pages.exportable(stored):
        raise Refusal(say("refuse.export_secret"), 409, "secret")
    exported = store.export_game(game_id)
    name = _FILE_NAME_UNSAFE.sub("-", stored.title).strip("-") or stored.kind
    return Response(
        json.dumps(exported, indent=1, sort_keys=True, ensure_ascii=False),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}-{game_id}.json"'},
    )


@bp.post("/import")
def import_game() -> tuple[Response, int]:
    """A new game (and room) from an exported file; this browser becomes its host."""
    body = read_json(EXPORTED, limit=current_app.config.get("MAX_IMPORT_BYTES", MAX_IMPORT_BYTES))
    pages = game_pages(body["kind"])
    if pages.check_setup is not None:
        pages.check_setup(body["setup"])
    store = get_store()
    game_id = store.import_game(body)
    with store.transaction():
        opened = get_seats().open_room(game_id)
    security.remember(game_id, "host", opened.host_token)
    changes().announce()
    url = url_for(pages.play_endpoint, game_id=game_id)
    return jsonify({"id": game_id, "room": opened.room.code, "url": url}), 201
