"""Tile sets: which ones a game may use, and their pictures for the phones.

The pictures are served straight from the tile set folder (the same one the camera
compares against), so a set taught from the players' own print run also shows up in
their pickers. Names are checked against the known ids before any file is touched.
"""

from __future__ import annotations

import re
from pathlib import Path

from flask import Blueprint, Response, current_app, send_from_directory

from companion.bitenight.tiles import TILE_IDS
from web.config import SAMPLES
from web.errors import not_found
from web.texts import say

bp = Blueprint("tileset", __name__, url_prefix="/tileset")

_TOKEN_NAME = re.compile(r"^[a-z][a-z0-9-]{0,30}$")
CACHE_SECONDS = 3600


def tilesets() -> dict[str, Path]:
    """The tile sets a game can be played with, by folder name: the configured one
    first, then the bundled ones."""
    configured = Path(current_app.config["TILESET"])
    found = {configured.name: configured}
    bundled = SAMPLES / "tilesets"
    if bundled.is_dir():
        for folder in sorted(bundled.iterdir()):
            if (folder / "tileset.json").is_file():
                found.setdefault(folder.name, folder)
    return found


def default_tileset() -> str:
    return Path(current_app.config["TILESET"]).name


def tileset_path(name: str) -> Path:
    sets = tilesets()
    if name not in sets:
        raise not_found(say("refuse.no_tileset", name=name))
    return sets[name]


@bp.get("/<name>/faces/<tile_id>.png")
def face(name: str, tile_id: str) -> Response:
    if tile_id not in TILE_IDS:
        raise not_found(say("refuse.not_tile", tile=tile_id))
    return _send(tileset_path(name) / "faces", f"{tile_id}.png")


@bp.get("/<name>/tokens/<token>.png")
def token(name: str, token: str) -> Response:
    if not _TOKEN_NAME.match(token):
        raise not_found(say("refuse.not_token", token=token))
    return _send(tileset_path(name) / "tokens", f"{token}.png")


def _send(directory: Path, name: str) -> Response:
    if not (directory / name).is_file():
        raise not_found(say("refuse.no_picture", name=name))
    return send_from_directory(directory, name, max_age=CACHE_SECONDS)
