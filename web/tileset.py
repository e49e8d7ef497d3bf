"""Pictures of the configured tile set, for the pickers and collections on the phones.

The images are served straight from the tile set folder (the same one the camera
compares against), so a set taught from the players' own print run also shows up on
their phones. Names are checked against the known ids before any file is touched.
"""

from __future__ import annotations

import re
from pathlib import Path

from flask import Blueprint, Response, current_app, send_from_directory

from companion.bitenight.tiles import TILE_IDS
from web.errors import not_found

bp = Blueprint("tileset", __name__, url_prefix="/tileset")

_TOKEN_NAME = re.compile(r"^[a-z][a-z0-9-]{0,30}$")
CACHE_SECONDS = 3600


def folder() -> Path:
    return Path(current_app.config["TILESET"])


@bp.get("/faces/<tile_id>.png")
def face(tile_id: str) -> Response:
    if tile_id not in TILE_IDS:
        raise not_found(f"'{tile_id}' is not a Moon tile id")
    return _send(folder() / "faces", f"{tile_id}.png")


@bp.get("/tokens/<name>.png")
def token(name: str) -> Response:
    if not _TOKEN_NAME.match(name):
        raise not_found(f"'{name}' is not a token of this tile set")
    return _send(folder() / "tokens", f"{name}.png")


def _send(directory: Path, name: str) -> Response:
    if not (directory / name).is_file():
        raise not_found(f"the tile set has no picture '{name}'")
    return send_from_directory(directory, name, max_age=CACHE_SECONDS)
