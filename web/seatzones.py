"""Seat zones on the server: whose tiles and tokens are whose, for every game.

The zones belong to the camera, not to a game: the host draws them once over a camera
frame (``/camera/zones``) and every later game at that table uses them. They are kept
as :class:`calibration.seats.SeatZones` JSON in the database's settings table (a
restarted server keeps them), or given at start with ``companion serve --seats FILE``
(the JSON ``companion calibration seats`` writes, in image pixels or, with ``--table``,
in table millimetres). A zone's seat is a seat number ("1" is the first player of a
game's setup, as on the printed seat markers) or a player's name.

The editor works on one game: it shows each of the game's players with his zone,
whichever way the zone names him, and saves the zones by player name (the file's other
form). Saving replaces the zones of that game's players only; zones kept for other
seats (another evening's players, a seat number beyond this game) stay, and a game
reads only the zones of its own players.

Only while no zones are known does the server fall back to equal sectors around the
image centre (:func:`web.camera.sector_of`), and the host screen says so.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request

from calibration.seats import SeatZoneError, SeatZones, assign_to_seats
from vision.correction import CameraCorrection
from web.camera import Point, Sight, sectors
from web.db import get_store
from web.errors import Refusal
from web.security import require_host
from web.validate import Field, read_json

bp = Blueprint("seatzones", __name__, url_prefix="/camera/zones")

SETTING = "seat-zones"


def table_correction(app: Flask) -> CameraCorrection | None:
    """The table calibration ``--table`` named (colour matrix and px→mm homography)."""
    return app.extensions.get("companion_table")


def saved_zones() -> SeatZones | None:
    """The zones kept in the database, or None while the host has drawn none."""
    row = (
        get_store()
        .connection.execute("SELECT value FROM settings WHERE name = ?", (SETTING,))
        .fetchone()
    )
    return None if row is None else SeatZones.from_json(str(row[0]), "the saved seat zones")


def save_zones(connection: Any, zones: SeatZones | None) -> None:
    """Keep the zones (None forgets them: the server goes back to sectors)."""
    with connection:
        if zones is None or not zones.zones:
            connection.execute("DELETE FROM settings WHERE name = ?", (SETTING,))
        else:
            connection.execute(
                "INSERT INTO settings (name, value) VALUES (?, ?) "
                "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                (SETTING, zones.to_json()),
            )


def zones_in_pixels() -> SeatZones | None:
    """The known zones in image pixels, ready to hold detections' centres."""
    zones = saved_zones()
    if zones is None or zones.units == "px":
        return zones
    table: CameraCorrection | None = current_app.extensions.get("companion_table")
    if table is None or table.homography_px_to_mm is None:
        return None  # refused at start; a calibration since removed means no zones
    return zones.to_pixels(table.homography_px_to_mm)


def player_of_zone(seat: str, players: Sequence[str]) -> str | None:
    """The player a zone is for: by name, or by seat number in the setup's order."""
    if seat in players:
        return seat
    if seat.isdigit() and 1 <= int(seat) <= len(players):
        return players[int(seat) - 1]
    return None


def zones_of(zones: SeatZones | None, players: Sequence[str]) -> SeatZones | None:
    """Only the zones of these players (by name or seat number); None when they have none.

    Zones kept for other people must not take this game's tiles where they overlap, and
    a table of new players with no zone of theirs is better read by sectors than as
    nobody's.
    """
    if zones is None:
        return None
    mine = tuple(zone for zone in zones.zones if player_of_zone(zone.seat, players) is not None)
    return SeatZones(zones.units, mine) if mine else None


def seat_finder(sight: Sight, players: Sequence[str]) -> Callable[[Point], str | None]:
    """The player whose zone holds a point (image pixels), or None outside every zone.

    Without zones for these players, the sectors around the image centre (every point
    is someone's).
    """
    zones = zones_of(zones_in_pixels(), players)
    if zones is None:
        return sectors(sight, players)

    def seat_of(point: Point) -> str | None:
        (seat,) = assign_to_seats([point], zones)
        return None if seat is None else player_of_zone(seat, players)

    return seat_of


def seating(game_id: str | None = None) -> str | None:
    """How this server tells the seats apart (of a game's players, given its id):
    "zones", "sectors", or None without camera."""
    if "companion_camera" not in current_app.extensions:
        return None
    zones = zones_in_pixels()
    if game_id is not None:
        zones = zones_of(zones, game_players(game_id))
    return "zones" if zones is not None else "sectors"


def game_players(game_id: str) -> list[str]:
    """The seats of a game, in table order (seat number 1 first)."""
    stored = get_store().load(game_id)
    pages = current_app.extensions["companion_pages"]
    return list(pages[stored.kind].seats(stored.game.setup))


def merged(saved: SeatZones | None, drawn: SeatZones, players: Sequence[str]) -> SeatZones:
    """The drawn zones of a game's players, then every saved zone of another seat
    (both in pixels: the saved ones as :func:`zones_in_pixels` gives them).

    A saved zone is replaced when it names one of these players, by name or by seat
    number, or the very seat of a drawn zone.
    """
    if saved is None:
        return drawn
    drawn_seats = {zone.seat for zone in drawn.zones}
    kept = tuple(
        zone
        for zone in saved.zones
        if zone.seat not in drawn_seats and player_of_zone(zone.seat, players) is None
    )
    return SeatZones(drawn.units, drawn.zones + kept)


# -- the editor ------------------------------------------------------------------------


@bp.get("")
def editor() -> str:
    """The host draws each seat's zone by tapping its corners over the camera frame."""
    game_id = request.args.get("game", "")
    stored = get_store().load(game_id)
    return render_template("camera/zones.html", stored=stored, players=game_players(game_id))


@bp.get("/zones.json")
def show() -> Response:
    """The zones in image pixels (as the editor draws them) and where they come from.

    With ``?game=ID`` each zone also says which of that game's players it is for
    (``player``, null for a zone of another seat), and ``seating`` is that game's.
    """
    game_id = request.args.get("game")
    zones = zones_in_pixels()
    shown = [] if zones is None else json.loads(zones.to_json())["zones"]
    if game_id is not None:
        players = game_players(game_id)
        for zone in shown:
            zone["player"] = player_of_zone(zone["seat"], players)
    return jsonify({"seating": seating(game_id), "units": "px", "zones": shown})


@bp.post("/zones.json")
def replace() -> Response:
    """Replace the zones of a game's players (``{"zones": []}`` forgets theirs); zones of
    other seats stay. Only that game's host may."""
    game_id = request.args.get("game", "")
    require_host(game_id)
    body = read_json({"zones": Field(list, max_length=64)})  # the shared checks: size, depth
    try:
        drawn = SeatZones.from_json(json.dumps({"units": "px", "zones": body["zones"]}))
    except SeatZoneError as error:
        raise Refusal(str(error), 400, "seat_zones") from None
    save_zones(get_store().connection, merged(zones_in_pixels(), drawn, game_players(game_id)))
    return show()


@bp.delete("/zones.json")
def forget() -> Response:
    """Forget every zone, of every seat: the camera goes back to sectors."""
    require_host(request.args.get("game", ""))
    read_json({})
    save_zones(get_store().connection, None)
    return show()


# -- start -----------------------------------------------------------------------------


def init_app(app: Flask) -> None:
    """Read ``TABLE`` (a table calibration file) and ``SEATS`` (seat zones to use).

    A bad file stops the server at start with one sentence, never a table that
    silently reads the seats wrong. Zones given with ``--seats`` replace the saved ones.
    """
    app.register_blueprint(bp)
    app.jinja_env.globals["camera_seating"] = seating
    table = app.config.get("TABLE")
    if table:
        app.extensions["companion_table"] = CameraCorrection.load(table)
    seats = app.config.get("SEATS")
    if not seats:
        return
    path = Path(seats)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise SeatZoneError(f"{path} cannot be read ({error.strerror or error})") from None
    zones = SeatZones.from_json(text, str(path))
    correction = table_correction(app)
    if zones.units == "mm" and (correction is None or correction.homography_px_to_mm is None):
        raise SeatZoneError(f"{path} holds zones in millimetres, which need --table")
    from companion.core.store import Store

    with Store(app.config["DATABASE"]) as store:
        save_zones(store.connection, zones)
