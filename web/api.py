"""The JSON API every game's pages share: games, seats, events, undo, the live stream.

No rules here: an event is checked by the game's engine inside the store's
transaction; this layer only decides *who* may send it (seat or host) and refuses
stale or malformed requests before they reach the engine.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, url_for

from companion.core.events import META_KINDS, REDO, UNDO, Event, IllegalEvent, InvalidSetup
from companion.core.store import StoredGame
from companion.games import rules_for
from web import security
from web.db import get_seats, get_store
from web.errors import Refusal, forbidden, not_found
from web.live import Changes, StreamLimit, lease_age, lease_for, version_stream
from web.pages import GamePages
from web.security import Caller
from web.texts import say
from web.validate import Field, read_json

bp = Blueprint("api", __name__, url_prefix="/api")

_CUE_NAME = re.compile(r"^[a-z][a-z-]{0,19}$")
VERSION = Field(int, minimum=0)


def game_pages(kind: str) -> GamePages:
    pages = current_app.extensions["companion_pages"].get(kind)
    if pages is None:
        raise not_found(say("refuse.no_pages", kind=kind))
    return pages


def changes() -> Changes:
    return current_app.extensions["companion_changes"]


def join_url(code: str) -> str:
    """The address phones open to join (the LAN address when the server knows it)."""
    base = current_app.config.get("PUBLIC_URL") or url_for("home.index", _external=True)
    return f"{base.rstrip('/')}/r/{code}"


def game_json(stored: StoredGame, who: Caller) -> dict[str, Any]:
    """What every game page gets: the shell's facts, and the game's own view."""
    pages = game_pages(stored.kind)
    room = get_seats().room_of(stored.id)
    taken = get_seats().claimed_seats(stored.id)
    game = stored.game
    return {
        "id": stored.id,
        "kind": stored.kind,
        "title": stored.title,
        "version": game.version,
        "room": room.code if room else None,
        "join_url": join_url(room.code) if room else None,
        "you": {"seat": who.seat, "host": who.host},
        "seats": [{"name": seat, "taken": seat in taken} for seat in pages.seats(game.setup)],
        "can_undo": game.can_undo,
        "can_redo": game.can_redo,
        "stream": url_for("api.stream", game_id=stored.id, lease=stream_lease(stored.id)),
        "view": pages.view(stored, who.seat),
    }


def lease_key() -> bytes:
    return str(current_app.secret_key).encode()


def stream_lease(game_id: str) -> str:
    """The lease the game JSON gives its page for the live stream (:mod:`web.live`)."""
    return lease_for(lease_key(), game_id, time.time())


@contextmanager
def in_words(pages: GamePages) -> Iterator[None]:
    """An engine's refusal said again in the players' words, where the game can."""
    try:
        yield
    except (IllegalEvent, InvalidSetup) as error:
        if pages.refusal is None:
            raise
        raise type(error)(pages.refusal(str(error))) from None


def actor_for(pages: GamePages, who: Caller, kind: str, data: dict[str, Any]) -> str:
    """The name the log records for this event, or a refusal saying who may send it."""
    if kind in META_KINDS:
        raise Refusal(say("refuse.undo_button"), 400, "json")
    if kind in pages.host_only:
        if not who.host:
            raise forbidden(say("refuse.host_only"))
        return "host"
    named = data.get(pages.seat_field) if pages.seat_field else None
    if who.seat is not None and (named is None or named == who.seat):
        return who.seat
    if who.host:
        return "host"
    if who.seat is None:
        raise forbidden(say("refuse.no_seat"))
    raise forbidden(say("refuse.other_seat", seat=who.seat))


#: Longest seat (player) name: it is shown on buttons and travels in addresses.
MAX_SEAT_NAME = 40


def check_seat_names(names: list[str]) -> None:
    """Seat names travel in addresses (``/seats/<name>``) and cookies: keep them plain."""
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise Refusal(say("refuse.name_missing"), 400, "json")
        if len(name) > MAX_SEAT_NAME:
            raise Refusal(say("refuse.name_long", start=name[:20], n=MAX_SEAT_NAME))
        if "/" in name or any(not ch.isprintable() for ch in name):
            raise Refusal(say("refuse.name_chars", name=name), 400, "json")


# -- games ------------------------------------------------------------------------------


@bp.post("/games")
def create_game() -> tuple[Response, int]:
    body = read_json(
        {
            "kind": Field(str, max_length=40),
            "title": Field(str, required=False, max_length=80),
            "setup": Field(dict, max_length=40),
        }
    )
    return open_game(game_pages(body["kind"]), body["setup"], body.get("title", ""))


def open_game(pages: GamePages, setup: Mapping[str, Any], title: str) -> tuple[Response, int]:
    """Create a game and its room; the browser that asked becomes its host screen.

    The one way every game is created, whether through ``POST /api/games`` or a game's
    own creation route, so that every setup passes the same checks.
    """
    if pages.prepare_setup is not None:
        setup = pages.prepare_setup(setup)
    if pages.check_setup is not None:
        pages.check_setup(setup)
    with in_words(pages):
        rules_for(pages.kind).start(setup)  # the engine refuses a bad setup first
    check_seat_names(pages.seats(setup))
    store = get_store()
    game_id = store.create_game(pages.kind, setup, title.strip())
    with store.transaction():
        opened = get_seats().open_room(game_id)
    security.remember(game_id, "host", opened.host_token)
    changes().announce()
    return jsonify(
        {
            "id": game_id,
            "room": opened.room.code,
            "url": url_for(pages.play_endpoint, game_id=game_id),
        }
    ), 201


@bp.get("/games")
def list_games() -> Response:
    pages = current_app.extensions["companion_pages"]
    games = []
    for summary in get_store().list_games():
        if summary.kind not in pages:
            continue
        room = get_seats().room_of(summary.id)
        games.append(
            {
                "id": summary.id,
                "kind": summary.kind,
                "title": summary.title,
                "created_at": summary.created_at,
                "events": summary.events,
                "room": room.code if room else None,
                "url": url_for(pages[summary.kind].play_endpoint, game_id=summary.id),
            }
        )
    return jsonify({"games": games})


@bp.get("/games/<game_id>")
def show_game(game_id: str) -> Response:
    stored = get_store().load(game_id)
    return jsonify(game_json(stored, security.caller(game_id)))


@bp.post("/games/<game_id>/events")
def post_event(game_id: str) -> Response:
    body = read_json(
        {"kind": Field(str, max_length=40), "data": Field(dict, required=False), "version": VERSION}
    )
    store = get_store()
    stored = store.load(game_id)
    who = security.caller(game_id)
    data = body.get("data", {})
    pages = game_pages(stored.kind)
    actor = actor_for(pages, who, body["kind"], data)
    with in_words(pages):
        stored = store.play(game_id, Event(body["kind"], data, actor), body["version"])
    changes().announce()
    return jsonify(game_json(stored, who))


@bp.post("/games/<game_id>/undo")
def undo(game_id: str) -> Response:
    return _meta(game_id, UNDO)


@bp.post("/games/<game_id>/redo")
def redo(game_id: str) -> Response:
    return _meta(game_id, REDO)


def _meta(game_id: str, kind: str) -> Response:
    body = read_json({"version": VERSION})
    store = get_store()
    store.load(game_id)  # an unknown game is a 404 before permissions are looked at
    who = security.require_host(game_id)
    stored = store.play(game_id, Event(kind, {}, "host"), body["version"])
    changes().announce()
    return jsonify(game_json(stored, who))


@bp.post("/games/<game_id>/cue")
def cue(game_id: str) -> Response:
    """Ring a cue (the "1-2-3" of a grab) on every phone of the game at once."""
    body = read_json({"name": Field(str, max_length=20)})
    if not _CUE_NAME.match(body["name"]):
        raise Refusal(say("refuse.cue_name"), 400, "json")
    get_store().load(game_id)
    who = security.caller(game_id)
    if who.seat is None and not who.host:
        raise forbidden(say("refuse.no_seat"))
    serial = changes().cue(game_id, body["name"])
    return jsonify({"name": body["name"], "serial": serial})


@bp.get("/games/<game_id>/stream")
def stream(game_id: str) -> Response:
    """The live stream, at the address the game JSON gives (``?lease=``).

    A lease older than ``STREAM_LEASE`` (the page has not fetched the game since: a tab
    nobody looks at) or not signed by this server is refused with 410, which ends the
    browser's reconnecting; the stream ends when its lease runs out. A request without
    a lease is served only to the server's own machine (tools, tests, ``companion load``).
    """
    get_store().load(game_id)
    config = current_app.config
    lifetime = float(config["STREAM_LIFETIME"])
    lease = request.args.get("lease")
    if lease is not None or request.remote_addr not in StreamLimit.LOOPBACK:
        age = lease_age(lease_key(), game_id, lease or "", time.time())
        left = None if age is None else float(config["STREAM_LEASE"]) - age
        if left is None or left <= 0:
            raise Refusal(say("refuse.stream_lease"), 410, "stream_lease")
        lifetime = min(lifetime, left)
    limit = current_app.extensions.setdefault(
        "companion_streams", StreamLimit(config.get("STREAMS_PER_DEVICE", 6))
    )
    events = version_stream(
        config["DATABASE"],
        game_id,
        changes(),
        lifetime=lifetime,
        heartbeat=config["STREAM_HEARTBEAT"],
    )
    held = limit.hold(request.remote_addr or "", events)
    if held is None:
        raise Refusal(say("refuse.too_many_streams"), 429, "too_many_streams")
    return Response(
        held,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


# -- seats ------------------------------------------------------------------------------


@bp.post("/games/<game_id>/seats/<seat>")
def claim_seat(game_id: str, seat: str) -> Response:
    read_json({})
    store = get_store()
    stored = store.load(game_id)
    pages = game_pages(stored.kind)
    if seat not in pages.seats(stored.game.setup):
        raise not_found(say("refuse.no_such_seat", seat=seat))
    who = security.caller(game_id)
    if who.seat == seat:
        return jsonify({"seat": seat, "url": url_for(pages.play_endpoint, game_id=game_id)})
    if who.seat is not None:
        raise Refusal(say("refuse.has_seat", seat=who.seat), 409, "seat_taken")
    with store.transaction():
        token = get_seats().claim(game_id, seat)
    security.remember(game_id, "seat", token)
    changes().announce()
    return jsonify({"seat": seat, "url": url_for(pages.play_endpoint, game_id=game_id)})


@bp.post("/games/<game_id>/seats/<seat>/free")
def free_seat(game_id: str, seat: str) -> Response:
    read_json({})
    store = get_store()
    store.load(game_id)
    security.require_host(game_id)
    with store.transaction():
        freed = get_seats().free(game_id, seat)
    if not freed:
        raise not_found(say("refuse.seat_not_held", seat=seat))
    changes().announce()
    return jsonify({"seat": seat, "freed": True})
