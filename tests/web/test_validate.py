"""Every JSON body is checked before any game is touched: one sentence and a 4xx."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.web.conftest import ORIGIN, csrf, new_tally, post


def test_a_body_that_is_not_json_is_refused(client: FlaskClient) -> None:
    answer = client.post(
        "/api/games", data="kind=tally", headers={"X-CSRF-Token": csrf(client), "Origin": ORIGIN}
    )
    assert answer.status_code == 415


def test_json_that_is_not_an_object_is_refused(client: FlaskClient) -> None:
    answer = post(client, "/api/games", ["tally"])
    assert answer.status_code == 400
    assert answer.get_json()["error"] == "the request body must be one JSON object"


def test_broken_json_is_refused(client: FlaskClient) -> None:
    answer = client.post(
        "/api/games",
        data="{not json",
        content_type="application/json",
        headers={"X-CSRF-Token": csrf(client), "Origin": ORIGIN},
    )
    assert answer.status_code == 400


def test_an_unexpected_field_is_refused(client: FlaskClient) -> None:
    answer = post(client, "/api/games", {"kind": "tally", "setup": {}, "admin": True})
    assert answer.get_json()["error"] == "unexpected field 'admin' in the request"


def test_a_missing_field_is_named(client: FlaskClient) -> None:
    answer = post(client, "/api/games", {"kind": "tally"})
    assert answer.get_json()["error"] == "the request needs a 'setup' field"


def test_true_is_not_a_version(client: FlaskClient) -> None:
    game = new_tally(client)
    answer = post(client, f"/api/games/{game['id']}/undo", {"version": True})
    assert answer.status_code == 400
    assert answer.get_json()["error"] == "'version' must be a whole number"


def test_a_negative_version_is_refused(client: FlaskClient) -> None:
    game = new_tally(client)
    answer = post(client, f"/api/games/{game['id']}/undo", {"version": -1})
    assert answer.get_json()["error"] == "'version' must be at least 0"


def test_an_overlong_title_is_refused(client: FlaskClient) -> None:
    answer = post(client, "/api/games", {"kind": "tally", "title": "x" * 81, "setup": {}})
    assert answer.get_json()["error"] == "'title' is longer than 80"


def test_an_oversized_json_body_is_refused(client: FlaskClient) -> None:
    game = new_tally(client)
    body = {"kind": "add", "data": {"n": 1, "pad": "x" * 70_000}, "version": 0}
    answer = post(client, f"/api/games/{game['id']}/events", body)
    assert answer.status_code == 413


def test_a_body_over_the_upload_limit_is_refused(client: FlaskClient, app) -> None:
    app.config["MAX_CONTENT_LENGTH"] = 1000
    answer = client.post(
        "/api/games",
        data=b"x" * 2000,
        content_type="application/json",
        headers={"X-CSRF-Token": csrf(client), "Origin": ORIGIN},
    )
    assert answer.status_code == 413
