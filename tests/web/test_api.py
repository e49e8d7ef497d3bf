"""The shared JSON API: games, events with their expected version, undo, seats."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.web.conftest import ORIGIN, csrf, new_tally, post


def events(game_id: str) -> str:
    return f"/api/games/{game_id}/events"


def join(phone: FlaskClient, game: dict, seat: str) -> None:
    answer = post(phone, f"/api/games/{game['id']}/seats/{seat}")
    assert answer.status_code == 200, answer.get_json()


def test_creating_a_game_makes_this_browser_its_host(client: FlaskClient) -> None:
    game = new_tally(client)
    shown = client.get(f"/api/games/{game['id']}").get_json()
    assert shown["you"] == {"seat": None, "host": True}
    assert shown["room"] == game["room"] and len(game["room"]) == 4
    assert shown["seats"] == [{"name": "Anna", "taken": False}, {"name": "Ben", "taken": False}]
    assert shown["join_url"].endswith(f"/r/{game['room']}")
    assert game["url"] == f"/tally/{game['id']}"


def test_a_game_of_an_unknown_kind_is_refused(client: FlaskClient) -> None:
    answer = post(client, "/api/games", {"kind": "chess", "setup": {}})
    assert answer.status_code == 404
    assert "chess" in answer.get_json()["error"]


def test_a_setup_the_rules_refuse_stores_nothing(client: FlaskClient) -> None:
    answer = post(client, "/api/games", {"kind": "tally", "setup": {"limit": 0}})
    assert answer.status_code == 422
    assert answer.get_json()["reason"] == "invalid_setup"
    assert client.get("/api/games").get_json()["games"] == []


def test_past_games_are_listed_newest_first(client: FlaskClient) -> None:
    first = new_tally(client)
    second = new_tally(client)
    listed = client.get("/api/games").get_json()["games"]
    assert {game["id"] for game in listed} == {first["id"], second["id"]}
    assert all(game["url"].startswith("/tally/") for game in listed)


def test_an_unknown_game_is_a_404_in_one_sentence(client: FlaskClient) -> None:
    answer = client.get("/api/games/nosuchgame")
    assert answer.status_code == 404
    assert answer.get_json() == {
        "error": "there is no game with id 'nosuchgame'",
        "reason": "not_found",
        "status": 404,
    }


def test_a_seated_phone_plays_for_its_own_seat(client: FlaskClient, phone: FlaskClient) -> None:
    game = new_tally(client)
    join(phone, game, "Ben")
    answer = post(phone, events(game["id"]), {"kind": "add", "data": {"n": 3}, "version": 0})
    assert answer.status_code == 200
    assert answer.get_json()["view"]["total"] == 3
    assert answer.get_json()["version"] == 1


def test_the_log_records_which_seat_acted(app, client: FlaskClient, phone: FlaskClient) -> None:
    from companion.core.store import Store

    game = new_tally(client)
    join(phone, game, "Ben")
    post(phone, events(game["id"]), {"kind": "add", "data": {"n": 3}, "version": 0})
    with Store(app.config["DATABASE"]) as store:
        assert store.load(game["id"]).game.log[0].actor == "Ben"


def test_a_phone_cannot_act_for_another_seat(client: FlaskClient, phone: FlaskClient) -> None:
    game = new_tally(client)
    join(phone, game, "Ben")
    body = {"kind": "add", "data": {"n": 3, "player": "Anna"}, "version": 0}
    answer = post(phone, events(game["id"]), body)
    assert answer.status_code == 403
    assert "Ben" in answer.get_json()["error"]


def test_the_host_may_act_for_any_seat(client: FlaskClient) -> None:
    game = new_tally(client)
    body = {"kind": "add", "data": {"n": 3, "player": "Anna"}, "version": 0}
    assert post(client, events(game["id"]), body).status_code == 200


def test_a_phone_without_a_seat_cannot_act(client: FlaskClient, phone: FlaskClient) -> None:
    game = new_tally(client)
    answer = post(phone, events(game["id"]), {"kind": "add", "data": {"n": 3}, "version": 0})
    assert answer.status_code == 403
    assert "join" in answer.get_json()["error"]


def test_host_only_events_are_refused_from_seats(client: FlaskClient, phone: FlaskClient) -> None:
    game = new_tally(client)
    join(phone, game, "Ben")
    body = {"kind": "name", "data": {"name": "x"}, "version": 0}
    assert post(phone, events(game["id"]), body).status_code == 403
    assert post(client, events(game["id"]), body).status_code == 200


def test_an_illegal_event_is_refused_with_the_engines_sentence(client: FlaskClient) -> None:
    game = new_tally(client)
    answer = post(client, events(game["id"]), {"kind": "add", "data": {"n": 12}, "version": 0})
    assert answer.status_code == 422
    assert answer.get_json()["error"] == "cannot add 12: only 1 to 9"
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0


def test_a_stale_event_is_applied_once(client: FlaskClient, phone: FlaskClient) -> None:
    """Two phones tap at once on the same state: the second is refused, not doubled."""
    game = new_tally(client)
    join(phone, game, "Ben")
    body = {"kind": "add", "data": {"n": 3}, "version": 0}
    assert post(client, events(game["id"]), body).status_code == 200
    answer = post(phone, events(game["id"]), body)
    assert answer.status_code == 409
    assert answer.get_json()["reason"] == "stale_state"
    assert client.get(f"/api/games/{game['id']}").get_json()["view"]["total"] == 3


def test_undo_and_redo_are_events_sent_by_the_host(client: FlaskClient, phone: FlaskClient) -> None:
    game = new_tally(client)
    post(client, events(game["id"]), {"kind": "add", "data": {"n": 3}, "version": 0})
    join(phone, game, "Ben")
    assert post(phone, f"/api/games/{game['id']}/undo", {"version": 1}).status_code == 403
    undone = post(client, f"/api/games/{game['id']}/undo", {"version": 1}).get_json()
    assert (undone["view"]["total"], undone["version"], undone["can_redo"]) == (0, 2, True)
    redone = post(client, f"/api/games/{game['id']}/redo", {"version": 2}).get_json()
    assert (redone["view"]["total"], redone["version"]) == (3, 3)


def test_undo_with_nothing_to_take_back_is_a_conflict(client: FlaskClient) -> None:
    game = new_tally(client)
    answer = post(client, f"/api/games/{game['id']}/undo", {"version": 0})
    assert answer.status_code == 409
    assert answer.get_json()["reason"] == "nothing_to_undo"


def test_undo_cannot_be_posted_as_an_ordinary_event(client: FlaskClient) -> None:
    game = new_tally(client)
    answer = post(client, events(game["id"]), {"kind": "undo", "version": 0})
    assert answer.status_code == 400


def test_a_free_seat_is_taken_once(client: FlaskClient, phone: FlaskClient, app) -> None:
    game = new_tally(client)
    join(phone, game, "Ben")
    third = app.test_client()
    answer = post(third, f"/api/games/{game['id']}/seats/Ben")
    assert answer.status_code == 409
    assert answer.get_json()["reason"] == "seat_taken"


def test_a_phone_holds_one_seat_per_game(client: FlaskClient, phone: FlaskClient) -> None:
    game = new_tally(client)
    join(phone, game, "Ben")
    assert post(phone, f"/api/games/{game['id']}/seats/Ben").status_code == 200
    assert post(phone, f"/api/games/{game['id']}/seats/Anna").status_code == 409


def test_a_seat_that_is_not_in_the_game_is_a_404(client: FlaskClient, phone: FlaskClient) -> None:
    game = new_tally(client)
    assert post(phone, f"/api/games/{game['id']}/seats/Zed").status_code == 404


def test_the_host_frees_a_lost_phones_seat(client: FlaskClient, phone: FlaskClient, app) -> None:
    game = new_tally(client)
    join(phone, game, "Ben")
    assert post(phone, f"/api/games/{game['id']}/seats/Ben/free").status_code == 403
    assert post(client, f"/api/games/{game['id']}/seats/Ben/free").status_code == 200
    lost = post(phone, events(game["id"]), {"kind": "add", "data": {"n": 1}, "version": 0})
    assert lost.status_code == 403
    join(app.test_client(), game, "Ben")


def test_freeing_a_seat_nobody_holds_is_a_404(client: FlaskClient) -> None:
    game = new_tally(client)
    assert post(client, f"/api/games/{game['id']}/seats/Ben/free").status_code == 404


def test_a_restarted_server_still_knows_every_phone(app) -> None:
    """The cookie key and the token hashes live in the database, not in memory."""
    from web import create_app

    config = {**app.config, "SECRET_KEY": None}
    before = create_app(config).test_client()
    game = new_tally(before)
    cookie = before.get_cookie("companion")
    assert cookie is not None
    after = create_app(config).test_client()
    after.set_cookie("companion", cookie.value)
    assert after.get(f"/api/games/{game['id']}").get_json()["you"]["host"] is True


def test_two_phones_tapping_at_once_apply_the_step_once(app, client: FlaskClient) -> None:
    """Both requests name the same version; the store's transaction lets one through."""
    import threading

    game = new_tally(client)
    phones = [app.test_client(), app.test_client()]
    for phone, seat in zip(phones, ("Anna", "Ben"), strict=True):
        join(phone, game, seat)
    tokens = [csrf(phone) for phone in phones]
    start = threading.Barrier(2)
    statuses: list[int] = []

    def tap(phone: FlaskClient, token: str) -> None:
        start.wait()
        answer = phone.post(
            events(game["id"]),
            json={"kind": "add", "data": {"n": 5}, "version": 0},
            headers={"X-CSRF-Token": token, "Origin": ORIGIN},
        )
        statuses.append(answer.status_code)

    threads = [threading.Thread(target=tap, args=pair) for pair in zip(phones, tokens, strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200, 409]
    shown = client.get(f"/api/games/{game['id']}").get_json()
    assert (shown["view"]["total"], shown["version"]) == (5, 1)
