"""Bite Night's phone pages: setup on the host screen, then one page for every phone.

Every decision is the engine's (:mod:`companion.bitenight.game`): the page renders its
``view`` and posts its events through the shared API. This module adds only what a
page needs beyond the shell: the setup form, the play page, the card and tile
catalogues for the pickers, and reading a collection from a phone photo.

The setup the engine receives carries two keys of the table's own besides the
engine's (``players``, ``deck``, ``starting_player``): ``reading`` ("camera" or
"photo": how collections are read) and ``tileset`` (the tile set's folder name).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, current_app, render_template, request

from companion.bitenight import game as engine
from companion.bitenight.cards import ALL_CARDS, DECK_COPIES
from companion.bitenight.tiles import COLOURS, MOTIFS
from companion.core.store import StoredGame
from companion.errors import CompanionError
from web import security
from web.api import game_pages
from web.bitenight import sentences
from web.db import get_store
from web.errors import Refusal, forbidden
from web.pages import GamePages, ScoreTable
from web.texts import say
from web.tileset import default_tileset, tileset_path, tilesets

bp = Blueprint(
    "bitenight",
    __name__,
    url_prefix="/bite-night",
    template_folder="templates",
    static_folder="static",
)

READINGS = ("camera", "photo")
#: Largest photo a phone may send, in bytes.
MAX_PHOTO_BYTES = 20 * 1024 * 1024


def seats(setup: Mapping[str, Any]) -> list[str]:
    return [str(name) for name in setup.get("players", [])]


def view(stored: StoredGame, seat: str | None) -> dict[str, Any]:
    """The engine's view, plus how this table reads collections and with which tiles.

    Bite Night has no secrets between players (cards are face down on the table until
    revealed, and the page learns a card only when it is revealed), so every seat sees
    the same view.
    """
    setup = stored.game.setup
    shown = engine.view(stored.game.state)
    shown["doing"] = sentences.doing(shown["doing"])
    shown["reading"] = setup.get("reading", "photo")
    shown["tileset"] = setup.get("tileset") or default_tileset()
    shown["camera"] = bool(current_app.config.get("CAMERA") is not None)
    shown["used_up"] = used_up(stored.game.state)
    return shown


def used_up(state: engine.BiteNightState) -> dict[str, int]:
    """Card id -> copies in the deck, for every card whose copies have all come up in
    this cycle's rendezvous: revealing it again is refused by the engine (B13), so the
    card picker greys it out and says why, instead of letting a player tap a refusal."""
    if state.table is None:
        return {}
    shown = Counter(step.card for step in state.table.steps)
    return {card.id: DECK_COPIES[card] for card, n in shown.items() if n >= DECK_COPIES[card]}


def check_setup(setup: Mapping[str, Any]) -> None:
    """The table's own setup keys; the engine checks players, deck and starting player."""
    reading = setup.get("reading", "photo")
    if reading not in READINGS:
        raise CompanionError(say("refuse.reading", reading=repr(reading)))
    name = setup.get("tileset", default_tileset())
    if not isinstance(name, str) or name not in tilesets():
        known = ", ".join(tilesets())
        raise CompanionError(say("refuse.unknown_tileset", name=repr(name), known=known))


def catalogue() -> dict[str, Any]:
    """The cards and tiles the pickers offer (data, no rules)."""
    return {
        "cards": [
            {
                "id": card.id,
                "kind": card.kind.value,
                "advanced": card.is_advanced,
                "copies": DECK_COPIES[card],
            }
            for card in ALL_CARDS
        ],
        "colours": [colour.value for colour in COLOURS],
        "motifs": [motif.value for motif in MOTIFS],
    }


@bp.get("/new")
def setup() -> str:
    return render_template(
        "bitenight/setup.html",
        tilesets=list(tilesets()),
        default_tileset=default_tileset(),
        camera=current_app.config.get("CAMERA"),
    )


@bp.get("/<game_id>")
def play(game_id: str) -> str:
    stored = get_store().load(game_id)
    if stored.kind != engine.KIND:
        raise Refusal(say("refuse.not_bitenight", game=game_id), 404, "not_found")
    return render_template("bitenight/play.html", stored=stored, catalogue=catalogue())


@bp.post("/<game_id>/photo")
def photo(game_id: str) -> dict[str, Any]:
    """Read the tiles in a photo a player took of his collection.

    Nothing is stored: the phone shows the detection over its photo and the player
    accepts it (a ``set-collection`` event) or corrects it first.
    """
    from vision.imageio import ImageError  # the vision stack loads only when needed
    from web.recognition import read_photo

    stored = get_store().load(game_id)
    game_pages(stored.kind)
    who = security.caller(game_id)
    player = request.form.get("player", "")
    if player not in seats(stored.game.setup):
        raise Refusal(say("refuse.not_player", player=player), 400, "json")
    if not who.host and who.seat != player:
        raise forbidden(say("refuse.photo_own_seat"))
    upload = request.files.get("photo")
    if upload is None:
        raise Refusal(say("refuse.photo_field"), 400, "json")
    data = upload.read(MAX_PHOTO_BYTES + 1)
    try:
        found = read_photo(data, tileset_path(view_tileset(stored)))
    except ImageError as error:
        raise Refusal(str(error), 422, "image") from None
    return {"player": player, **found}


@bp.get("/<game_id>/camera")
def camera_view(game_id: str) -> dict[str, Any]:
    """What the table camera sees in front of each player, beside his collection.

    ``seen`` is what a phone may accept as its collection; ``missing`` and ``extra``
    say where the table and the game differ (the check before the next card);
    ``unsure`` names the seen tiles read too unsurely to take without a look.
    """
    from web.camera import latest, tiles_by_seat
    from web.seatzones import seat_finder

    stored = get_store().load(game_id)
    game_pages(stored.kind)
    players = seats(stored.game.setup)
    sight = latest()
    held = engine.view(stored.game.state)["collections"]
    seen = tiles_by_seat(sight, players, seat_finder(sight, players))
    unsure = {tile["id"] for tile in sight.tiles if tile.get("unsure")}
    return {
        "at": sight.at,
        "version": stored.game.version,
        "seats": {
            name: {
                "seen": seen[name],
                "missing": [tile for tile in held[name] if tile not in seen[name]],
                "extra": [tile for tile in seen[name] if tile not in held[name]],
                "unsure": [tile for tile in seen[name] if tile in unsure],
            }
            for name in players
        },
    }


def view_tileset(stored: StoredGame) -> str:
    name = stored.game.setup.get("tileset")
    return name if isinstance(name, str) and name in tilesets() else default_tileset()


def summary(stored: StoredGame) -> ScoreTable | None:
    """The score pad for the list of past games: a row per finished cycle."""
    shown = engine.view(stored.game.state)
    pad, players = shown["score_pad"], shown["players"]
    if not pad["rows"]:
        return None
    texts = current_app.extensions["companion_texts"]
    return ScoreTable(
        head=["", *players],
        rows=[
            [texts.text("bitenight.cycle_n", n=row["cycle"]), *(row["points"][p] for p in players)]
            for row in pad["rows"]
        ],
        total=[texts.text("bitenight.sum"), *(pad["sum"][name] for name in players)],
        winners=shown["winners"],
    )


PAGES = GamePages(
    kind=engine.KIND,
    title_key="bitenight.title",
    blueprint=bp,
    seats=seats,
    view=view,
    play_endpoint="bitenight.play",
    setup_endpoint="bitenight.setup",
    host_only=frozenset({"next-cycle"}),
    seat_field="player",
    check_setup=check_setup,
    summary=summary,
    refusal=sentences.refusal,
)
