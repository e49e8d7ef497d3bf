"""The live stream: a version event at once and after every change, then a heartbeat."""

from __future__ import annotations

import threading
import time

import pytest
from flask.testing import FlaskClient

from tests.web.conftest import new_tally, post
from web.live import Changes, lease_age, lease_for


def read_stream(client: FlaskClient, game_id: str) -> str:
    return client.get(f"/api/games/{game_id}/stream").get_data(as_text=True)


def test_the_stream_sends_the_version_at_once(client: FlaskClient) -> None:
    game = new_tally(client)
    answer = client.get(f"/api/games/{game['id']}/stream")
    assert answer.mimetype == "text/event-stream"
    text = answer.get_data(as_text=True)
    assert text.startswith("retry: 1000\n\n")
    assert 'event: version\ndata: {"version": 0, "seats": 0}\n\n' in text


def test_the_stream_says_it_is_still_there(client: FlaskClient) -> None:
    game = new_tally(client)
    assert "event: ping\ndata: {}\n\n" in read_stream(client, game["id"])


def test_a_change_during_the_stream_is_sent_within_the_poll(client: FlaskClient, app) -> None:
    game = new_tally(client)
    app.config["STREAM_LIFETIME"] = 1.5
    timer = threading.Timer(
        0.3,
        lambda: post(app.test_client(), f"/api/games/{game['id']}/seats/Anna"),
    )
    timer.start()
    text = read_stream(client, game["id"])
    timer.join()
    assert '{"version": 0, "seats": 1}' in text


def test_a_stream_of_an_unknown_game_is_a_404(client: FlaskClient) -> None:
    assert client.get("/api/games/nosuch/stream").status_code == 404


def test_announcing_wakes_a_waiting_stream_at_once() -> None:
    changes = Changes()
    woke = threading.Event()

    def wait() -> None:
        changes.wait(5.0)
        woke.set()

    waiter = threading.Thread(target=wait)
    waiter.start()
    while not woke.is_set():
        changes.announce()
        woke.wait(0.01)
    waiter.join(1.0)
    assert woke.is_set()


def test_a_stopping_server_ends_every_stream_at_once(app) -> None:
    from web.live import version_stream

    changes = Changes()
    game = new_tally(app.test_client())
    stream = version_stream(
        app.config["DATABASE"], game["id"], changes, lifetime=30.0, heartbeat=10.0
    )
    assert next(stream) == "retry: 1000\n\n"
    assert next(stream).startswith("event: version")
    changes.close()
    assert list(stream) == []


def test_a_cue_reaches_every_stream_once(app, client: FlaskClient, phone) -> None:
    game = new_tally(client)
    post(phone, f"/api/games/{game['id']}/seats/Ben")
    app.config["STREAM_LIFETIME"] = 1.5
    timer = threading.Timer(
        0.3, lambda: post(phone, f"/api/games/{game['id']}/cue", {"name": "grab"})
    )
    timer.start()
    text = read_stream(client, game["id"])
    timer.join()
    assert text.count('event: cue\ndata: {"name": "grab", "serial": 1}\n\n') == 1


def test_a_cue_from_a_phone_without_a_seat_is_refused(client: FlaskClient, phone) -> None:
    game = new_tally(client)
    answer = post(phone, f"/api/games/{game['id']}/cue", {"name": "grab"})
    assert answer.status_code == 403


def test_a_cue_name_is_a_short_word(client: FlaskClient) -> None:
    game = new_tally(client)
    answer = post(client, f"/api/games/{game['id']}/cue", {"name": "<b>"})
    assert answer.status_code == 400


# -- a stream lasts only a while after its page last fetched the game ---------------------

LAN = {"REMOTE_ADDR": "192.168.1.20"}  # a phone on the table's Wi-Fi


def stream_address(client: FlaskClient, game_id: str) -> str:
    return str(client.get(f"/api/games/{game_id}").get_json()["stream"])


def lease_aged(app, game_id: str, seconds: float) -> str:
    key = str(app.secret_key).encode()
    return lease_for(key, game_id, time.time() - seconds)


def test_the_game_json_gives_the_stream_address_a_phone_may_follow(client, app) -> None:
    game = new_tally(client)
    address = stream_address(client, game["id"])
    assert address.startswith(f"/api/games/{game['id']}/stream?lease=")
    answer = app.test_client().get(address, environ_base=LAN)
    assert answer.status_code == 200
    assert "event: version" in answer.get_data(as_text=True)


def test_a_phone_without_a_lease_gets_no_stream(client, app) -> None:
    game = new_tally(client)
    answer = app.test_client().get(f"/api/games/{game['id']}/stream", environ_base=LAN)
    assert answer.status_code == 410 and answer.get_json()["reason"] == "stream_lease"


def test_a_lease_older_than_the_page_may_be_away_is_refused(client, app) -> None:
    game = new_tally(client)
    old = lease_aged(app, game["id"], app.config["STREAM_LEASE"] + 1)
    answer = client.get(f"/api/games/{game['id']}/stream?lease={old}")
    assert answer.status_code == 410
    fresh = lease_aged(app, game["id"], app.config["STREAM_LEASE"] - 30)
    assert client.get(f"/api/games/{game['id']}/stream?lease={fresh}").status_code == 200


@pytest.mark.parametrize("lease", ["", "123", "99999999999999.abc", "1.2.3", "x" * 100])
def test_a_lease_this_server_did_not_sign_is_refused(client, app, lease: str) -> None:
    game = new_tally(client)
    answer = app.test_client().get(f"/api/games/{game['id']}/stream?lease={lease}")
    assert answer.status_code == 410


def test_a_lease_is_for_one_game_only(client, app) -> None:
    first, second = new_tally(client), new_tally(client)
    lease = lease_aged(app, first["id"], 0)
    answer = app.test_client().get(f"/api/games/{second['id']}/stream?lease={lease}")
    assert answer.status_code == 410


def test_a_stream_ends_when_its_lease_runs_out(client, app) -> None:
    game = new_tally(client)
    app.config["STREAM_LIFETIME"] = 30.0
    lease = lease_aged(app, game["id"], app.config["STREAM_LEASE"] - 0.6)
    began = time.monotonic()
    answer = client.get(f"/api/games/{game['id']}/stream?lease={lease}")
    assert "event: version" in answer.get_data(as_text=True)
    assert time.monotonic() - began < 5.0


def test_a_refused_stream_holds_no_place_of_the_device(client, app) -> None:
    game = new_tally(client)
    phone = app.test_client()
    for _ in range(app.config.get("STREAMS_PER_DEVICE", 6) + 2):
        phone.get(f"/api/games/{game['id']}/stream", environ_base=LAN)
    assert phone.get(stream_address(client, game["id"]), environ_base=LAN).status_code == 200


def test_a_lease_says_its_age_and_nothing_for_another_key() -> None:
    lease = lease_for(b"key", "g1", 1000.0)
    assert lease_age(b"key", "g1", lease, 1012.5) == pytest.approx(12.5)
    assert lease_age(b"other key", "g1", lease, 1012.5) is None
