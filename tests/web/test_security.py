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


# -- seats, roles and revocation (issue 8) --------------------------------------------------


def add(client: FlaskClient, game: dict, version: int, **data: object):  # type: ignore[no-untyped-def]
    body = {"kind": "add", "data": {"n": 1, **data}, "version": version}
    return post(client, f"/api/games/{game['id']}/events", body)


def test_a_revoked_seat_token_can_no_longer_act_nor_see_itself_seated(
    app, client: FlaskClient, phone: FlaskClient
) -> None:
    game = new_tally(client)
    post(phone, f"/api/games/{game['id']}/seats/Ben")
    assert add(phone, game, 0).status_code == 200
    assert post(client, f"/api/games/{game['id']}/seats/Ben/free").status_code == 200
    assert add(phone, game, 1).status_code == 403
    assert post(phone, f"/api/games/{game['id']}/cue", {"name": "grab"}).status_code == 403
    assert phone.get(f"/api/games/{game['id']}").get_json()["you"] == {"seat": None, "host": False}
    assert post(app.test_client(), f"/api/games/{game['id']}/seats/Ben").status_code == 200
    assert add(phone, game, 1).status_code == 403  # the new holder's seat is not the old token's


def test_a_seat_token_holds_no_seat_in_another_game(
    client: FlaskClient, phone: FlaskClient
) -> None:
    first, second = new_tally(client), new_tally(client)
    post(phone, f"/api/games/{first['id']}/seats/Anna")
    with phone.session_transaction() as session:
        token = session["games"][first["id"]]["seat"]
        session["games"] = {**session["games"], second["id"]: {"seat": token}}
    assert phone.get(f"/api/games/{second['id']}").get_json()["you"]["seat"] is None
    assert add(phone, second, 0).status_code == 403


def test_a_host_token_rules_only_its_own_game(client: FlaskClient, phone: FlaskClient) -> None:
    mine = new_tally(phone)
    theirs = new_tally(client)
    with phone.session_transaction() as session:
        token = session["games"][mine["id"]]["host"]
        session["games"] = {**session["games"], theirs["id"]: {"host": token}}
    assert post(phone, f"/api/games/{theirs['id']}/undo", {"version": 0}).get_json()["reason"] == (
        "forbidden"
    )
    assert phone.get(f"/api/games/{theirs['id']}/export").status_code == 403


def test_a_phone_cannot_free_a_seat_nor_play_host_only_events(
    client: FlaskClient, phone: FlaskClient
) -> None:
    game = new_tally(client)
    post(phone, f"/api/games/{game['id']}/seats/Anna")
    assert post(phone, f"/api/games/{game['id']}/seats/Anna/free").status_code == 403
    body = {"kind": "name", "data": {"name": "x"}, "version": 0}
    assert post(phone, f"/api/games/{game['id']}/events", body).status_code == 403
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0


def test_a_seat_acting_for_another_seat_is_refused_and_nothing_changes(
    client: FlaskClient, phone: FlaskClient
) -> None:
    game = new_tally(client)
    post(phone, f"/api/games/{game['id']}/seats/Anna")
    answer = add(phone, game, 0, player="Ben")
    assert answer.status_code == 403
    assert answer.get_json()["error"] == (
        "this phone holds the seat of Anna and can only act for that seat"
    )
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0


def test_seat_and_host_tokens_are_unguessable(client: FlaskClient, app) -> None:
    """256 random bits each (secrets.token_urlsafe(32)), never reused."""
    game = new_tally(client, players=tuple(f"P{n}" for n in range(8)))
    tokens = set()
    for seat in range(8):
        phone = app.test_client()
        post(phone, f"/api/games/{game['id']}/seats/P{seat}")
        with phone.session_transaction() as session:
            tokens.add(session["games"][game["id"]]["seat"])
    with client.session_transaction() as session:
        tokens.add(session["games"][game["id"]]["host"])
    assert len(tokens) == 9
    assert all(len(token) >= 43 for token in tokens)


# -- forgery -------------------------------------------------------------------------------


def test_a_form_posted_by_another_site_is_refused(client: FlaskClient) -> None:
    """What an HTML form on a stranger's page sends: no token, no Origin through some proxies."""
    game = new_tally(client)
    answer = client.post(
        f"/api/games/{game['id']}/events",
        data={"kind": "add", "version": "0"},
        headers={"Referer": "http://evil.example/form.html"},
    )
    assert answer.status_code == 403
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0


def test_a_same_site_post_without_the_token_is_refused(client: FlaskClient) -> None:
    game = new_tally(client)
    answer = client.post(
        f"/api/games/{game['id']}/events",
        json={"kind": "add", "data": {"n": 1}, "version": 0},
        headers={"Origin": ORIGIN},
    )
    assert answer.get_json()["reason"] == "csrf"


# -- input limits ---------------------------------------------------------------------------


def test_json_nested_too_deeply_is_a_400_not_a_crash(client: FlaskClient) -> None:
    token = csrf(client)
    answer = client.post(
        "/api/games",
        data="[" * 30_000,
        content_type="application/json",
        headers={"X-CSRF-Token": token, "Origin": ORIGIN},
    )
    assert answer.status_code == 400
    assert answer.get_json()["error"] == "the request's JSON is nested too deeply"


def test_text_that_is_not_unicode_is_refused_before_it_reaches_the_database(
    client: FlaskClient,
) -> None:
    token = csrf(client)
    answer = client.post(
        "/api/games",
        data='{"kind": "tally", "title": "\\ud800", "setup": {"limit": 5}}',
        content_type="application/json",
        headers={"X-CSRF-Token": token, "Origin": ORIGIN},
    )
    assert answer.status_code == 400
    assert answer.get_json()["error"] == "the request holds text that is not valid Unicode"


def png_bomb(width: int, height: int) -> bytes:
    """A real PNG of ``width`` × ``height`` black pixels: tiny on disk, huge decoded."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = zlib.compress(b"\0" * ((width + 1) * height), 9)
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit grey
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")
    )


def test_a_decompression_bomb_photo_is_refused_before_decoding(client: FlaskClient) -> None:
    from io import BytesIO

    answer = post(
        client,
        "/api/games",
        {"kind": "bite-night", "setup": {"players": ["Anna", "Ben", "Cleo"], "reading": "photo"}},
    )
    game = answer.get_json()
    bomb = png_bomb(8000, 8000)  # 64 megapixels in about 64 KB
    assert len(bomb) < 100_000
    answer = client.post(
        f"/bite-night/{game['id']}/photo",
        data={"player": "Anna", "photo": (BytesIO(bomb), "photo.png")},
        headers={"X-CSRF-Token": csrf(client), "Origin": ORIGIN, "Accept": "application/json"},
    )
    assert answer.status_code == 422
    assert "64 megapixels" in answer.get_json()["error"]


def test_a_refusal_quoting_what_was_sent_stays_one_line(client: FlaskClient) -> None:
    """Found by the fuzz test: a game id of a newline came back inside the sentence."""
    answer = client.get("/api/games/%0A%0Dx/export")
    assert answer.status_code == 404
    assert answer.get_json()["error"] == "there is no game with id ' x'"


def test_one_device_cannot_hold_every_live_connection(app, client: FlaskClient) -> None:
    """Each open stream holds a server thread: sixty from one device stopped a real
    server answering anyone, so a device gets a few and is refused beyond."""
    app.config["STREAMS_PER_DEVICE"] = 2
    game = new_tally(client)
    path = client.get(f"/api/games/{game['id']}").get_json()["stream"]  # with its lease
    stranger = {"REMOTE_ADDR": "192.168.1.66"}
    held = [client.get(path, environ_base=stranger, buffered=False) for _ in range(2)]
    assert [answer.status_code for answer in held] == [200, 200]
    refused = client.get(path, environ_base=stranger)
    assert refused.status_code == 429
    assert refused.get_json()["reason"] == "too_many_streams"
    other = client.get(path, environ_base={"REMOTE_ADDR": "192.168.1.67"}, buffered=False)
    assert other.status_code == 200  # every other phone still follows the game
    held.pop().close()
    again = client.get(path, environ_base=stranger, buffered=False)
    assert again.status_code == 200  # a closed stream gives its place back
    for answer in (*held, other, again):
        answer.close()


def test_the_server_machine_itself_is_not_limited(app, client: FlaskClient) -> None:
    app.config["STREAMS_PER_DEVICE"] = 1
    game = new_tally(client)
    path = f"/api/games/{game['id']}/stream"
    held = [client.get(path, buffered=False) for _ in range(3)]
    assert [answer.status_code for answer in held] == [200, 200, 200]
    for answer in held:
        answer.close()


def test_the_seat_zone_editor_refuses_a_json_bomb_like_every_endpoint(client: FlaskClient) -> None:
    """Found by reading the routes the fuzz test lists: this one parsed JSON itself."""
    game = new_tally(client)
    answer = client.post(
        f"/camera/zones/zones.json?game={game['id']}",
        data="[" * 30_000,
        content_type="application/json",
        headers={"X-CSRF-Token": csrf(client), "Origin": ORIGIN, "Accept": "application/json"},
    )
    assert answer.status_code == 400
    assert answer.get_json()["reason"] == "json"
