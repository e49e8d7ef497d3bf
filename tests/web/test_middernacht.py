"""Middernacht's pages: creation, seats acting only for themselves, secrets kept, row photos."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import web.middernacht
from companion.core.events import Game
from companion.middernacht import moves
from companion.middernacht.rows import SeenToken
from companion.middernacht.rules import RULES
from companion.middernacht.view import view as table_view
from tests.web.conftest import csrf, post
from web import create_app

PLAYERS = ["Anna", "Ben", "Cleo"]


def fake_detector(photo: bytes) -> list[SeenToken]:
    """Stands in for the camera: a photo's bytes name the colours along the row."""
    colours = photo.decode().split(",")
    return [
        SeenToken(None if colour == "down" else colour, (40.0 * i, 10.0))
        for i, colour in enumerate(colours)
    ]


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    yield create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "games.sqlite3"),
            "SECRET_KEY": "test-key",
            "GAME_PAGES": ("web.middernacht",),
            "MIDDERNACHT_DETECT_TOKENS": fake_detector,
        }
    )


def new_game(client: FlaskClient, **setup: Any) -> dict[str, Any]:
    answer = post(
        client, "/middernacht/games", {"title": "Night", "setup": {"players": PLAYERS, **setup}}
    )
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def sit(app: Flask, game_id: str, seat: str) -> FlaskClient:
    phone = app.test_client()
    answer = post(phone, f"/api/games/{game_id}/seats/{seat}")
    assert answer.status_code == 200, answer.get_json()
    return phone


def event(client: FlaskClient, game_id: str, kind: str, **data: Any):  # type: ignore[no-untyped-def]
    version = client.get(f"/api/games/{game_id}").get_json()["version"]
    return post(
        client, f"/api/games/{game_id}/events", {"kind": kind, "data": data, "version": version}
    )


def laid_table(app: Flask, **setup: Any) -> tuple[str, FlaskClient, dict[str, FlaskClient]]:
    host = app.test_client()
    game_id = new_game(host, **setup)["id"]
    phones = {name: sit(app, game_id, name) for name in PLAYERS}
    if setup.get("mode", "table") == "table":
        ends = {"Anna": ("red", "blue"), "Ben": ("yellow", "white"), "Cleo": ("green", "black")}
        for name, (left, right) in ends.items():
            answer = event(phones[name], game_id, "turn-ends", player=name, left=left, right=right)
            assert answer.status_code == 200, answer.get_json()
    return game_id, host, phones


def test_the_setup_and_play_pages_render(app: Flask) -> None:
    client = app.test_client()
    assert client.get("/middernacht/new").status_code == 200
    game_id = new_game(client)["id"]
    page = client.get(f"/middernacht/{game_id}")
    assert page.status_code == 200
    assert b"play.js" in page.data


def test_a_seeded_game_gets_a_seed_that_never_reaches_a_browser(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web.middernacht, "draw_seed", lambda: 918273645)
    game_id, host, phones = laid_table(app, mode="seeded")
    answers = [
        host.get(f"/api/games/{game_id}").get_data(as_text=True),
        event(phones["Anna"], game_id, "turn-lid", player="Anna", grave="C4").get_data(
            as_text=True
        ),
        phones["Ben"].get(f"/api/games/{game_id}").get_data(as_text=True),
    ]
    assert all("918273645" not in text for text in answers)
    # Every page gets exactly the referee's view for its seat, which no secret can move
    # (tests/middernacht/test_view.py shuffles every secret and compares the views).
    referee = Game(RULES, {"players": PLAYERS, "mode": "seeded", "seed": 918273645})
    referee.push(moves.turn_lid("Anna", "C4"))
    for seat, client in [(None, host), *((name, phones[name]) for name in PLAYERS)]:
        shown = client.get(f"/api/games/{game_id}").get_json()["view"]
        index = None if seat is None else PLAYERS.index(seat)
        assert shown == {**table_view(referee.state, index), "camera": False}
    assert host.get(f"/api/games/{game_id}").get_json()["view"]["mode"] == "seeded"


def test_the_log_cannot_be_downloaded_before_the_game_is_over(app: Flask) -> None:
    host = app.test_client()
    game_id = new_game(host, mode="seeded")["id"]
    answer = host.get(f"/api/games/{game_id}/export", headers={"Accept": "application/json"})
    assert answer.status_code == 409
    assert "once it is over" in answer.get_json()["error"]


def test_a_phone_acts_only_for_its_own_seat_and_only_in_its_turn(app: Flask) -> None:
    game_id, _, phones = laid_table(app)
    answer = event(phones["Ben"], game_id, "turn-lid", player="Anna", grave="C4", lid="red")
    assert answer.status_code == 403
    answer = event(phones["Ben"], game_id, "turn-lid", player="Ben", grave="C4", lid="red")
    assert answer.get_json()["error"] == "it is Anna's turn, not Ben's"
    answer = event(phones["Anna"], game_id, "turn-lid", grave="C4", lid="red")
    assert answer.get_json()["error"] == "a Middernacht event names the player who acts in 'player'"


def test_no_view_tells_where_a_garlic_lies(app: Flask) -> None:
    """Two tables that differ only in the grave Anna's garlic went into look the same."""
    views = []
    for grave in ("C4", "D7"):
        game_id, host, phones = laid_table(app)
        for who, kind, data in [
            ("Anna", "turn-lid", {"grave": grave, "lid": "yellow"}),
            ("Anna", "place-garlic", {}),
            ("Ben", "turn-lid", {"grave": "E5", "lid": "red"}),
            ("Ben", "pass", {}),
        ]:
            answer = event(phones[who], game_id, kind, player=who, **data)
            assert answer.status_code == 200, answer.get_json()
        views.append(
            [
                client.get(f"/api/games/{game_id}").get_json()["view"]
                for client in (host, *phones.values())
            ]
        )
    assert views[0] == views[1]
    assert views[0][1]["players"][0]["garlic_on_board"] == 1


def test_a_transfer_is_guided_for_the_giver(app: Flask) -> None:
    game_id, _, phones = laid_table(app)
    for who, kind, data in [
        ("Anna", "turn-lid", {"grave": "C4", "lid": "yellow"}),
        ("Anna", "place-garlic", {}),
        ("Ben", "turn-lid", {"grave": "C4", "lid": "yellow"}),
    ]:
        assert event(phones[who], game_id, kind, player=who, **data).status_code == 200
    anna = phones["Anna"].get(f"/api/games/{game_id}").get_json()["view"]
    (give,) = anna["actions"]
    assert give["choices"] == [{"end": "left", "colour": "red"}, {"end": "right", "colour": "blue"}]
    assert phones["Cleo"].get(f"/api/games/{game_id}").get_json()["view"]["actions"] == []
    answer = event(
        phones["Anna"], game_id, "give-vampire", player="Anna", end="right", uncovered="white"
    )
    assert answer.get_json()["view"]["players"][0]["right"] == "white"


def photo_check(client: FlaskClient, game_id: str, player: str, colours: str):  # type: ignore[no-untyped-def]
    from io import BytesIO

    return client.post(
        f"/middernacht/{game_id}/row-photo",
        data={"player": player, "photo": (BytesIO(colours.encode()), "row.jpg")},
        headers={
            "X-CSRF-Token": csrf(client),
            "Origin": "http://localhost",
            "Accept": "application/json",
        },
        content_type="multipart/form-data",
    )


def test_a_photo_of_a_row_is_checked_against_the_game(app: Flask) -> None:
    game_id, _, phones = laid_table(app)
    row = ",".join(["blue", *["down"] * 18, "red"])
    answer = photo_check(phones["Anna"], game_id, "Anna", row)
    assert answer.get_json() == {"player": "Anna", "seen": 20, "mismatches": []}
    answer = photo_check(phones["Anna"], game_id, "Anna", "blue,down,green")
    assert answer.get_json()["mismatches"] == [
        "The camera sees 3 vampires in Anna's row; the game counts 20.",
        "The ends of Anna's row look blue and green; the game has blue and red.",
    ]


def test_a_row_photo_needs_a_seat_and_a_player_of_the_game(app: Flask) -> None:
    game_id, _, _ = laid_table(app)
    stranger = app.test_client()
    assert photo_check(stranger, game_id, "Anna", "red").status_code == 403
    seated = sit(app, new_game(app.test_client())["id"], "Anna")
    assert photo_check(seated, game_id, "Zoe", "red").status_code in (400, 403)


def camera_sees(app: Flask, rows: dict[int, list[str | None]], players: int = 3) -> None:
    """Put a table camera in the app that saw these rows, seat k's in front of seat k."""
    import math
    from types import SimpleNamespace

    from web.camera import Sight, sector_of

    size = 600
    tokens = []
    for seat, colours in rows.items():
        angle = 2 * math.pi * seat / players
        cx, cy = size / 2 - 240 * math.sin(angle), size / 2 + 240 * math.cos(angle)
        for i, colour in enumerate(colours):
            offset = 18 * (i - (len(colours) - 1) / 2)
            center = (cx + offset * math.cos(angle), cy + offset * math.sin(angle))
            assert sector_of(center, size, size, players) == seat
            tokens.append({"color": colour, "face_up": colour is not None, "center": list(center)})
    sight = Sight(
        at=1.0, width=size, height=size, frame_jpeg=b"", overlay_jpeg=b"", tokens=tuple(tokens)
    )
    app.extensions["companion_camera"] = SimpleNamespace(latest=sight, error=None)


def test_the_table_camera_checks_every_row_by_seat_zone(app: Flask) -> None:
    game_id, host, _ = laid_table(app)
    camera_sees(
        app,
        {
            0: ["red", *[None] * 18, "blue"],
            1: ["yellow", *[None] * 18, "white"],
            2: ["green", *[None] * 17, "black"],
        },
    )
    answer = host.get(f"/middernacht/{game_id}/camera-rows").get_json()
    assert answer["seen"] == {"Anna": 20, "Ben": 20, "Cleo": 19}
    assert answer["mismatches"] == [
        {
            "player": "Cleo",
            "sentence": "The camera sees 19 vampires in Cleo's row; the game counts 20.",
        }
    ]
    assert host.get(f"/api/games/{game_id}").get_json()["view"]["camera"] is True


def test_without_a_table_camera_the_rows_are_checked_by_photo(app: Flask) -> None:
    game_id, host, _ = laid_table(app)
    assert host.get(f"/middernacht/{game_id}/camera-rows").status_code == 404
    assert host.get(f"/api/games/{game_id}").get_json()["view"]["camera"] is False


def test_the_real_recogniser_reads_a_clean_photo_of_a_row() -> None:
    """The photo check end to end: a rendered row, the bundled tile set, the recogniser."""
    import cv2
    import numpy as np

    from companion.middernacht.rows import along_row, the_row
    from vision.synth.scene import render_photo
    from vision.tileset import load_tileset
    from web.tileset import default_tileset, tileset_path

    app = create_app({"TESTING": True, "SECRET_KEY": "k", "GAME_PAGES": ("web.middernacht",)})
    with app.app_context():
        tileset = load_tileset(tileset_path(default_tileset()))
        photo = render_photo(
            tileset, np.random.default_rng(0), level=0, n_tiles=0, token_rows=1, distractors=False
        )
        ok, png = cv2.imencode(".png", photo.image)
        assert ok
        seen = along_row(the_row(web.middernacht.detect_tokens(png.tobytes())))
    truth = along_row([SeenToken(t.colour, t.center) for t in photo.tokens])
    assert len(seen) == len(truth)
    assert sorted([seen[0].colour, seen[-1].colour]) == sorted([truth[0].colour, truth[-1].colour])


def test_a_photo_that_is_no_image_is_refused_in_a_sentence(app: Flask) -> None:
    game_id, _, phones = laid_table(app)
    app.config["MIDDERNACHT_DETECT_TOKENS"] = web.middernacht.detect_tokens
    answer = photo_check(phones["Anna"], game_id, "Anna", "not a picture")
    assert answer.status_code == 422
    assert answer.get_json()["reason"] == "image"
