"""The pages every game shares: the start page, past games, joining a room by code or QR."""

from __future__ import annotations

import io

import segno
from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from web import security
from web.api import game_pages, join_url
from web.db import get_seats, get_store
from web.seats import normalise_code

bp = Blueprint("home", __name__)


@bp.get("/")
def index() -> str:
    pages = current_app.extensions["companion_pages"]
    recent = [game for game in get_store().list_games() if game.kind in pages][:8]
    return render_template("shell/index.html", games=pages.values(), recent=recent)


#: How many past games the list shows with their score pads.
PAST_GAMES_SHOWN = 50


@bp.get("/games")
def past_games() -> str:
    """Past games, newest first, each with its score pad where the game has one."""
    pages = current_app.extensions["companion_pages"]
    store = get_store()
    games = [game for game in store.list_games() if game.kind in pages][:PAST_GAMES_SHOWN]
    pads = {}
    for game in games:
        summary = pages[game.kind].summary
        if summary is not None:
            pads[game.id] = summary(store.load(game.id))
    return render_template("shell/games.html", games=games, pages=pages, pads=pads)


@bp.get("/join")
def join() -> BaseResponse:
    code = normalise_code(request.args.get("code", ""))
    if not code:
        return redirect(url_for("home.index"))
    return redirect(url_for("home.room", code=code))


@bp.get("/r/<code>")
def room(code: str) -> str:
    """Where the QR code leads: choose a free seat of the game (or go on to it)."""
    found = get_seats().room_by_code(code)
    stored = get_store().load(found.game_id)
    pages = game_pages(stored.kind)
    who = security.caller(found.game_id)
    taken = get_seats().claimed_seats(found.game_id)
    seats = [(seat, seat in taken) for seat in pages.seats(stored.game.setup)]
    return render_template(
        "shell/join.html",
        stored=stored,
        code=found.code,
        seats=seats,
        you=who,
        play_url=url_for(pages.play_endpoint, game_id=found.game_id),
        title_key=pages.title_key,
    )


@bp.get("/g/<game_id>")
def game(game_id: str) -> BaseResponse:
    stored = get_store().load(game_id)
    return redirect(url_for(game_pages(stored.kind).play_endpoint, game_id=game_id))


@bp.get("/g/<game_id>/qr.svg")
def qr(game_id: str) -> Response:
    """The QR code of the game's join address, for the host screen to show."""
    get_store().load(game_id)
    found = get_seats().room_of(game_id)
    if found is None:
        return Response("", status=204)
    svg = io.BytesIO()
    segno.make(join_url(found.code), error="m").save(svg, kind="svg", scale=8, border=2)
    return Response(svg.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})
