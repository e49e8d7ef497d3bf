"""The live stream: a version event at once and after every change, then a heartbeat."""

from __future__ import annotations

import threading

from flask.testing import FlaskClient

from tests.web.conftest import new_tally, post
from web.live import Changes


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
