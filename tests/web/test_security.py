"""Forgery checks, cookies and headers: only this server's own pages can act."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.web.conftest import ORIGIN, csrf, new_tally, post

GAME = {"kind": "tally", "setup": {"limit": 5, "players": ["Anna"]}}


def test_a_change_without_the_csrf_token_is_refused(client: FlaskClient) -> None:
    csrf(client)
    answer = client.post("/api/games", json=GAME, headers={"Origin": ORIGIN})
    assert answer.status_code == 403
    assert answer.get_json()["reason"] == "csrf"


def test_a_change_with_another_sessions_token_is_refused(client: FlaskClient, phone) -> None:
    token = csrf(phone)
    csrf(client)
    answer = client.post("/api/games", json=GAME, headers={"Origin": ORIGIN, "X-CSRF-Token": token})
    assert answer.status_code == 403


def test_a_change_from_another_site_is_refused(client: FlaskClient) -> None:
    answer = post(client, "/api/games", GAME, Origin="http://evil.example")
    assert answer.status_code == 403
    assert "another site" in answer.get_json()["error"]


def test_a_referer_from_another_site_is_refused_when_origin_is_missing(client: FlaskClient) -> None:
    token = csrf(client)
    answer = client.post(
        "/api/games", json=GAME, headers={"X-CSRF-Token": token, "Referer": "http://evil.example/x"}
    )
    assert answer.status_code == 403


def test_a_same_site_request_without_origin_passes(client: FlaskClient) -> None:
    token = csrf(client)
    answer = client.post(
        "/api/games", json=GAME, headers={"X-CSRF-Token": token, "Referer": f"{ORIGIN}/tally/new"}
    )
    assert answer.status_code == 201


def test_the_session_cookie_is_strict_and_hidden_from_scripts(client: FlaskClient) -> None:
    answer = post(client, "/api/games", GAME)
    cookie = answer.headers["Set-Cookie"]
    assert "SameSite=Strict" in cookie and "HttpOnly" in cookie


def test_pages_forbid_framing_and_foreign_scripts(client: FlaskClient) -> None:
    headers = client.get("/").headers
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"


def test_tokens_are_stored_only_as_hashes(app, client: FlaskClient, phone) -> None:
    import sqlite3

    game = new_tally(client)
    post(phone, f"/api/games/{game['id']}/seats/Anna")
    with phone.session_transaction() as session:
        token = session["games"][game["id"]]["seat"]
    with client.session_transaction() as session:
        host_token = session["games"][game["id"]]["host"]
    dump = "\n".join(sqlite3.connect(app.config["DATABASE"]).iterdump())
    assert token not in dump and host_token not in dump


def test_a_forged_seat_token_holds_no_seat(client: FlaskClient, phone) -> None:
    game = new_tally(client)
    with phone.session_transaction() as session:
        session["games"] = {game["id"]: {"seat": "made-up", "host": "made-up"}}
    shown = phone.get(f"/api/games/{game['id']}").get_json()
    assert shown["you"] == {"seat": None, "host": False}
