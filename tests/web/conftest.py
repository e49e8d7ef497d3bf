"""Fixtures in the flaskr manner: an app on a temporary database, clients that play
the host screen and the phones, and helpers that send JSON like the pages do."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import games
from web import create_app

ORIGIN = "http://localhost"


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    monkeypatch.setitem(games.GAME_KINDS, "tally", "tests.core.toy:TALLY")
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "games.sqlite3"),
            "SECRET_KEY": "test-key",
            "GAME_PAGES": (*create_app_pages(), "tests.web.toy_pages"),
            "STREAM_LIFETIME": 0.5,
            "STREAM_HEARTBEAT": 0.1,
        }
    )
    yield app


def create_app_pages() -> tuple[str, ...]:
    from web.pages import GAME_PAGES

    return GAME_PAGES


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def phone(app: Flask) -> FlaskClient:
    """A second browser: its own cookies, so its own seat."""
    return app.test_client()


def csrf(client: FlaskClient) -> str:
    """The CSRF token of this browser's session, as a page would have it."""
    client.get("/")
    with client.session_transaction() as session:
        return str(session["csrf"])


def post(client: FlaskClient, path: str, body: Any = None, **headers: str):  # type: ignore[no-untyped-def]
    """POST JSON the way the pages' JavaScript does (CSRF header, same origin)."""
    sent = {"X-CSRF-Token": csrf(client), "Origin": ORIGIN, **headers}
    return client.post(path, json={} if body is None else body, headers=sent)


def new_tally(client: FlaskClient, players: tuple[str, ...] = ("Anna", "Ben")) -> dict[str, Any]:
    answer = post(
        client,
        "/api/games",
        {"kind": "tally", "title": "Test night", "setup": {"limit": 20, "players": list(players)}},
    )
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()
