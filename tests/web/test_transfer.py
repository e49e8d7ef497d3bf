"""Export and import of a whole game: the host takes the log away, an import replays it."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.browsers import chromium, needs_chromium, serve
from tests.web.conftest import new_tally, post
from web import create_app


def played_tally(client: FlaskClient) -> dict:
    """A tally game with three steps, one of them undone."""
    game = new_tally(client)
    path = f"/api/games/{game['id']}"
    for version, n in enumerate((3, 4)):
        answer = post(
            client, f"{path}/events", {"kind": "add", "data": {"n": n}, "version": version}
        )
        assert answer.status_code == 200, answer.get_json()
    assert post(client, f"{path}/undo", {"version": 2}).status_code == 200
    return game


def exported(client: FlaskClient, game: dict) -> dict:
    answer = client.get(f"/api/games/{game['id']}/export")
    assert answer.status_code == 200, answer.get_json()
    return json.loads(answer.data)


def rows(app: Flask) -> tuple[int, int, int]:
    """How many games, events and rooms the database holds."""
    db = sqlite3.connect(app.config["DATABASE"])
    try:
        return tuple(
            db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
            for t in ("games", "events", "rooms")
        )  # type: ignore[return-value]
    finally:
        db.close()


def test_the_host_downloads_the_whole_log_as_a_json_file(client: FlaskClient) -> None:
    game = played_tally(client)
    answer = client.get(f"/api/games/{game['id']}/export")
    assert answer.mimetype == "application/json"
    assert answer.headers["Content-Disposition"] == (
        f'attachment; filename="Test-night-{game["id"]}.json"'
    )
    log = json.loads(answer.data)
    assert log["format"] == "companion-game" and log["kind"] == "tally"
    assert [event["kind"] for event in log["events"]] == ["add", "add", "undo"]


def test_only_the_host_may_export(client: FlaskClient, phone: FlaskClient) -> None:
    game = played_tally(client)
    post(phone, f"/api/games/{game['id']}/seats/Anna")
    answer = phone.get(f"/api/games/{game['id']}/export")
    assert answer.status_code == 403
    assert answer.get_json()["reason"] == "forbidden"


def test_an_import_is_a_new_game_in_the_same_state_with_its_own_room(
    client: FlaskClient, phone: FlaskClient
) -> None:
    game = played_tally(client)
    log = exported(client, game)
    answer = post(phone, "/api/games/import", log)
    assert answer.status_code == 201, answer.get_json()
    copy = answer.get_json()
    assert copy["id"] != game["id"] and copy["room"] != game["room"]
    assert copy["url"] == f"/tally/{copy['id']}"
    original = client.get(f"/api/games/{game['id']}").get_json()
    shown = phone.get(f"/api/games/{copy['id']}").get_json()
    assert shown["you"] == {"seat": None, "host": True}
    assert (shown["version"], shown["view"]["total"], shown["can_redo"]) == (3, 3, True)
    assert (shown["view"], shown["title"]) == (original["view"], original["title"])
    assert exported(phone, copy)["events"] == log["events"]


def test_the_exporting_host_is_not_the_host_of_the_import(
    client: FlaskClient, phone: FlaskClient
) -> None:
    game = played_tally(client)
    copy = post(phone, "/api/games/import", exported(client, game)).get_json()
    assert client.get(f"/api/games/{copy['id']}").get_json()["you"]["host"] is False


def test_an_import_that_does_not_replay_is_refused_and_stores_nothing(
    app: Flask, client: FlaskClient
) -> None:
    log = exported(client, played_tally(client))
    log["events"][1]["data"]["n"] = 40  # past the limit of 20: the rules refuse it
    before = rows(app)
    answer = post(client, "/api/games/import", log)
    assert answer.status_code == 400
    assert "does not replay" in answer.get_json()["error"]
    assert rows(app) == before


def test_a_file_that_is_not_an_export_is_refused(app: Flask, client: FlaskClient) -> None:
    before = rows(app)
    answer = post(
        client, "/api/games/import", {"kind": "tally", "setup": {"limit": 5}, "events": []}
    )
    assert answer.status_code == 400
    assert answer.get_json()["error"] == "the request needs a 'format' field"
    log = {
        "format": "something-else",
        "version": 1,
        "kind": "tally",
        "setup": {"limit": 5},
        "events": [],
    }
    assert post(client, "/api/games/import", log).get_json()["error"] == (
        "this file is not an exported companion game"
    )
    assert rows(app) == before


def test_an_export_of_a_game_this_server_has_no_pages_for_is_refused(client: FlaskClient) -> None:
    log = exported(client, played_tally(client))
    log["kind"] = "chess"
    answer = post(client, "/api/games/import", log)
    assert answer.status_code == 404
    assert "chess" in answer.get_json()["error"]


def test_an_import_larger_than_its_limit_is_refused(app: Flask, client: FlaskClient) -> None:
    app.config["MAX_IMPORT_BYTES"] = 1000
    log = exported(client, played_tally(client))
    log["title"] = "x" * 80
    log["events"] = log["events"] * 20
    answer = post(client, "/api/games/import", log)
    assert answer.status_code == 413
    assert answer.get_json()["reason"] == "too_large"


def test_an_import_may_be_larger_than_an_ordinary_request(app: Flask, client: FlaskClient) -> None:
    log = exported(client, played_tally(client))
    app.config["MAX_JSON_BYTES"] = 300  # a real evening's log outgrows the real 64 KB
    assert len(json.dumps(log)) > 300
    assert post(client, "/api/games/import", log).status_code == 201


# -- in a browser: the host bar's download, the start page's import ------------------------


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[str]:
    """The real app on a free loopback port, in a thread."""
    app = create_app({"DATABASE": str(tmp_path / "games.sqlite3"), "SECRET_KEY": "browser"})
    with serve(app) as base:
        yield base


@pytest.mark.browser
@needs_chromium
def test_a_downloaded_game_opens_again_from_the_start_page(
    live_server: str, tmp_path: Path
) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    setup = {"players": ["Anna", "Ben", "Cleo"], "reading": "photo"}
    with chromium() as browser:
        host = browser.new_context(accept_downloads=True).new_page()
        host.goto(f"{live_server}/")
        game = host.evaluate(
            "(setup) => Companion.api('POST', '/api/games', {kind: 'bite-night', setup})", setup
        )
        host.goto(live_server + game["url"])
        with host.expect_download() as download:
            host.click("#export-game")
        saved = tmp_path / "saved.json"
        download.value.save_as(saved)
        assert json.loads(saved.read_text())["kind"] == "bite-night"

        other = browser.new_context().new_page()  # another laptop: not the old host
        other.goto(f"{live_server}/")
        other.set_input_files("#import-game input[type=file]", str(saved))
        other.click("#import-game button")
        other.wait_for_url(re.compile(r"/bite-night/[0-9a-f]{12}$"))
        assert game["id"] not in other.url
        sync_api.expect(other.locator("#hostbar")).to_be_visible()
        sync_api.expect(other.locator("#room-code")).not_to_have_text(game["room"])

        other.goto(f"{live_server}/")
        bad = tmp_path / "notes.json"
        bad.write_text("shopping list")
        other.set_input_files("#import-game input[type=file]", str(bad))
        other.click("#import-game button")
        sync_api.expect(other.locator(".toast")).to_contain_text("not a saved game")
