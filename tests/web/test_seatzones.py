"""Seat zones on the server: drawn by the host, kept in the database, used by every game."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient

from calibration.seats import SeatZoneError
from tests.web.conftest import ORIGIN, csrf, post
from vision.correction import CameraCorrection
from web import create_app
from web.camera import CameraLoop, Sight

PLAYERS = ["Anna", "Ben", "Cleo"]
#: A 200×100 frame: one tile at the bottom right, one at the top left.
SIGHT = Sight(
    at=1.0,
    width=200,
    height=100,
    frame_jpeg=b"\xff\xd8",
    overlay_jpeg=b"\xff\xd8",
    tiles=({"id": "red-monk", "center": [190, 90]}, {"id": "blue-coffin", "center": [10, 10]}),
)
#: Anna's zone is the right half, Ben's the left half, Cleo has none: the sectors
#: around the centre would give the first tile to Cleo and none to Anna.
HALVES = [
    {"seat": "1", "polygon": [[100, 0], [200, 0], [200, 100], [100, 100]]},
    {"seat": "2", "polygon": [[0, 0], [100, 0], [100, 100], [0, 100]]},
]


def with_camera(app: Flask) -> Flask:
    """The app with a camera that has already seen :data:`SIGHT` (no recogniser run)."""
    running = CameraLoop(source=None, detect=None, draw=None)  # type: ignore[arg-type]
    running.latest = SIGHT
    app.extensions["companion_camera"] = running
    return app


@pytest.fixture
def host(app: Flask) -> FlaskClient:
    return with_camera(app).test_client()


def new_game(client: FlaskClient) -> str:
    answer = post(client, "/api/games", {"kind": "bite-night", "setup": {"players": PLAYERS}})
    assert answer.status_code == 201, answer.get_json()
    return str(answer.get_json()["id"])


def camera_seen(client: FlaskClient, game_id: str) -> dict[str, list[str]]:
    seats = client.get(f"/bite-night/{game_id}/camera").get_json()["seats"]
    return {name: seat["seen"] for name, seat in seats.items()}


def test_without_zones_the_seats_are_sectors_and_the_host_screen_says_so(host) -> None:
    game_id = new_game(host)
    sectors = {"Anna": [], "Ben": ["blue-coffin"], "Cleo": ["red-monk"]}
    assert camera_seen(host, game_id) == sectors
    page = host.get(f"/g/{game_id}", follow_redirects=True).get_data(as_text=True)
    assert 'data-seating="sectors"' in page and "/camera/zones?game=" in page


def test_the_zones_the_host_draws_decide_whose_tiles_are_whose(host) -> None:
    game_id = new_game(host)
    saved = post(host, f"/camera/zones/zones.json?game={game_id}", {"zones": HALVES})
    assert saved.status_code == 200 and saved.get_json()["seating"] == "zones"
    assert camera_seen(host, game_id) == {"Anna": ["red-monk"], "Ben": ["blue-coffin"], "Cleo": []}
    swapped = [{**HALVES[0], "seat": "2"}, {**HALVES[1], "seat": "1"}]
    post(host, f"/camera/zones/zones.json?game={game_id}", {"zones": swapped})
    assert camera_seen(host, game_id) == {"Anna": ["blue-coffin"], "Ben": ["red-monk"], "Cleo": []}
    page = host.get(f"/g/{game_id}", follow_redirects=True).get_data(as_text=True)
    assert 'data-seating="zones"' in page


def test_a_tile_in_no_zone_is_nobodys(host) -> None:
    game_id = new_game(host)
    post(host, f"/camera/zones/zones.json?game={game_id}", {"zones": HALVES[:1]})
    assert camera_seen(host, game_id) == {"Anna": ["red-monk"], "Ben": [], "Cleo": []}


def test_the_zones_belong_to_the_camera_and_outlive_the_game(host) -> None:
    post(host, f"/camera/zones/zones.json?game={new_game(host)}", {"zones": HALVES})
    later = new_game(host)
    assert camera_seen(host, later) == {"Anna": ["red-monk"], "Ben": ["blue-coffin"], "Cleo": []}
    shown = host.get("/camera/zones/zones.json").get_json()
    assert [zone["seat"] for zone in shown["zones"]] == ["1", "2"]


def test_forgetting_the_zones_goes_back_to_sectors(host) -> None:
    game_id = new_game(host)
    post(host, f"/camera/zones/zones.json?game={game_id}", {"zones": HALVES})
    forgotten = post(host, f"/camera/zones/zones.json?game={game_id}", {"zones": []})
    assert forgotten.get_json() == {"seating": "sectors", "units": "px", "zones": []}


def test_only_the_host_may_redraw_the_zones(app: Flask, host, phone) -> None:
    game_id = new_game(host)
    refused = post(phone, f"/camera/zones/zones.json?game={game_id}", {"zones": HALVES})
    assert refused.status_code == 403
    assert host.get("/camera/zones/zones.json").get_json()["seating"] == "sectors"


@pytest.mark.parametrize(
    "zones",
    [
        [{"seat": "1", "polygon": [[0, 0], [10, 10]]}],
        [
            {"seat": "1", "polygon": [[0, 0], [1, 0], [0, 1]]},
            {"seat": "1", "polygon": [[0, 0], [1, 0], [0, 1]]},
        ],
        [{"seat": "1", "polygon": "everywhere"}],
        "all of it",
    ],
)
def test_bad_zones_are_refused_with_a_sentence_and_change_nothing(host, zones) -> None:
    game_id = new_game(host)
    post(host, f"/camera/zones/zones.json?game={game_id}", {"zones": HALVES})
    path = f"/camera/zones/zones.json?game={game_id}"
    refused = post(host, path, {"zones": zones}, Accept="application/json")
    assert refused.status_code == 400
    assert refused.get_json()["error"].count(".") <= 1
    assert len(host.get("/camera/zones/zones.json").get_json()["zones"]) == 2


def test_the_editor_names_each_seat_after_its_player(host) -> None:
    game_id = new_game(host)
    page = host.get(f"/camera/zones?game={game_id}").get_data(as_text=True)
    assert 'data-seat="Anna" data-number="1"' in page and 'data-seat="Ben" data-number="2"' in page


def zones_of_game(client: FlaskClient, game_id: str) -> dict[str, str | None]:
    """Each saved zone's seat -> the player of the game it is for (as the editor sees it)."""
    shown = client.get(f"/camera/zones/zones.json?game={game_id}").get_json()["zones"]
    return {zone["seat"]: zone["player"] for zone in shown}


def square(seat: str, left: int = 0) -> dict[str, object]:
    return {"seat": seat, "polygon": [[left, 0], [left + 100, 0], [left + 100, 100], [left, 100]]}


def test_the_editor_shows_a_zone_by_seat_number_or_by_name_as_its_players(host) -> None:
    game_id = new_game(host)
    zones = [square("1", 100), square("Ben"), square("Dan", 50), square("5", 150)]
    post(host, f"/camera/zones/zones.json?game={game_id}", {"zones": zones})
    assert zones_of_game(host, game_id) == {"1": "Anna", "Ben": "Ben", "Dan": None, "5": None}


def test_saving_replaces_the_games_zones_by_name_and_keeps_other_seats(host) -> None:
    game_id = new_game(host)
    zones = [square("1", 100), square("Dan", 50), square("5", 150)]
    post(host, f"/camera/zones/zones.json?game={game_id}", {"zones": zones})
    drawn = [square("Anna"), square("Cleo", 100)]  # as the editor saves them
    post(host, f"/camera/zones/zones.json?game={game_id}", {"zones": drawn})
    assert zones_of_game(host, game_id) == {"Anna": "Anna", "Cleo": "Cleo", "Dan": None, "5": None}
    assert camera_seen(host, game_id) == {"Anna": ["blue-coffin"], "Ben": [], "Cleo": ["red-monk"]}


def test_a_zone_of_another_seat_never_takes_this_games_tiles(host) -> None:
    game_id = new_game(host)
    everywhere = {"seat": "Dan", "polygon": [[0, 0], [200, 0], [200, 100], [0, 100]]}
    post(host, f"/camera/zones/zones.json?game={game_id}", {"zones": [everywhere]})
    post(host, f"/camera/zones/zones.json?game={game_id}", {"zones": HALVES})
    assert camera_seen(host, game_id) == {"Anna": ["red-monk"], "Ben": ["blue-coffin"], "Cleo": []}


def test_players_without_a_zone_of_theirs_are_read_by_sectors_and_told_so(host) -> None:
    game_id = new_game(host)
    others = [square("Dan"), square("Eve", 100)]
    post(host, f"/camera/zones/zones.json?game={game_id}", {"zones": others})
    assert camera_seen(host, game_id) == {"Anna": [], "Ben": ["blue-coffin"], "Cleo": ["red-monk"]}
    page = host.get(f"/g/{game_id}", follow_redirects=True).get_data(as_text=True)
    assert 'data-seating="sectors"' in page
    assert host.get(f"/camera/zones/zones.json?game={game_id}").get_json()["seating"] == "sectors"


def forget(client: FlaskClient, game_id: str):  # type: ignore[no-untyped-def]
    sent = {"X-CSRF-Token": csrf(client), "Origin": ORIGIN}
    return client.delete(f"/camera/zones/zones.json?game={game_id}", json={}, headers=sent)


def test_forgetting_all_zones_forgets_other_seats_too(host, phone) -> None:
    game_id = new_game(host)
    post(host, f"/camera/zones/zones.json?game={game_id}", {"zones": [*HALVES, square("Dan")]})
    assert forget(phone, game_id).status_code == 403
    assert forget(host, game_id).get_json() == {"seating": "sectors", "units": "px", "zones": []}


def start(app: Flask, **config: str) -> Flask:
    return with_camera(create_app({**app.config, **config}))


def test_zones_given_at_start_are_used(app: Flask, tmp_path: Path) -> None:
    file = tmp_path / "zones.json"
    file.write_text(json.dumps({"units": "px", "zones": HALVES[::-1]}))
    client = start(app, SEATS=str(file)).test_client()
    assert camera_seen(client, new_game(client)) == {
        "Anna": ["red-monk"],
        "Ben": ["blue-coffin"],
        "Cleo": [],
    }


def test_zones_given_at_start_by_name_are_shown_for_their_players(app, tmp_path: Path) -> None:
    file = tmp_path / "zones.json"
    file.write_text(json.dumps({"units": "px", "zones": [square("Cleo"), square("Anna", 100)]}))
    client = start(app, SEATS=str(file)).test_client()
    assert zones_of_game(client, new_game(client)) == {"Cleo": "Cleo", "Anna": "Anna"}


def test_zones_in_millimetres_follow_the_table_calibration(app: Flask, tmp_path: Path) -> None:
    table = tmp_path / "table.json"
    CameraCorrection(np.eye(3), np.diag([2.0, 2.0, 1.0])).save(table)  # 1 px = 2 mm
    zones = tmp_path / "zones.json"
    right = [[200, 0], [400, 0], [400, 200], [200, 200]]  # the right half, in mm
    zones.write_text(json.dumps({"units": "mm", "zones": [{"seat": "Ben", "polygon": right}]}))
    client = start(app, SEATS=str(zones), TABLE=str(table)).test_client()
    assert camera_seen(client, new_game(client)) == {"Anna": [], "Ben": ["red-monk"], "Cleo": []}
    shown = client.get("/camera/zones/zones.json").get_json()["zones"][0]["polygon"]
    assert shown == [[100, 0], [200, 0], [200, 100], [100, 100]]


def test_zones_in_millimetres_without_a_table_calibration_stop_the_start(app, tmp_path) -> None:
    zones = tmp_path / "zones.json"
    zones.write_text(json.dumps({"units": "mm", "zones": HALVES}))
    with pytest.raises(SeatZoneError, match="need --table"):
        create_app({**app.config, "SEATS": str(zones)})


def test_middernacht_reads_each_row_in_its_seat_zone(app: Flask) -> None:
    from tests.web.test_middernacht import camera_sees, laid_table

    game_id, host, _ = laid_table(app)
    # Anna's row lies at the bottom, Ben's top left, Cleo's top right (sectors agree).
    camera_sees(app, {0: ["red", *[None] * 18, "blue"], 2: ["green", *[None] * 17, "black"]})
    zones = [
        {"seat": "3", "polygon": [[0, 400], [600, 400], [600, 600], [0, 600]]},
        {"seat": "Anna", "polygon": [[300, 0], [600, 0], [600, 400], [300, 400]]},
    ]
    assert (
        post(host, f"/camera/zones/zones.json?game={game_id}", {"zones": zones}).status_code == 200
    )
    answer = host.get(f"/middernacht/{game_id}/camera-rows").get_json()
    assert answer["seen"] == {"Anna": 19, "Ben": 0, "Cleo": 20}


@pytest.mark.parametrize("kind", ["middernacht", "vampire-empire"])
def test_every_game_page_tells_the_host_how_the_seats_are_read(host, kind: str) -> None:
    from companion.games import GAME_KINDS

    setups = {
        "middernacht": {"players": PLAYERS},
        "vampire-empire": {"players": {"vampire": "Anna", "human": "Ben"}},
    }
    assert kind in GAME_KINDS
    created = post(host, "/api/games", {"kind": kind, "setup": setups[kind]})
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    page = host.get(f"/g/{game_id}", follow_redirects=True).get_data(as_text=True)
    assert 'data-seating="sectors"' in page and f"/camera/zones?game={game_id}" in page
