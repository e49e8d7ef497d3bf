"""The shared pages: start page, past games, joining by room code or QR, error pages."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.web.conftest import new_tally, post


def test_the_start_page_offers_joining_and_new_games(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert 'name="code"' in page
    assert 'href="/tally/new"' in page


def test_the_start_page_lists_recent_games(client: FlaskClient) -> None:
    new_tally(client)
    assert "Test night" in client.get("/").get_data(as_text=True)


def test_past_games_are_listed_with_their_steps(client: FlaskClient) -> None:
    game = new_tally(client)
    post(client, f"/api/games/{game['id']}/events", {"kind": "add", "data": {"n": 2}, "version": 0})
    page = client.get("/games").get_data(as_text=True)
    assert "Test night" in page and "1 steps" in page


def test_a_typed_room_code_leads_to_its_room(client: FlaskClient) -> None:
    game = new_tally(client)
    typed = f" {game['room'][:2].lower()}-{game['room'][2:].lower()} "
    answer = client.get("/join", query_string={"code": typed})
    assert answer.status_code == 302
    assert answer.headers["Location"] == f"/r/{game['room']}"


def test_an_empty_room_code_goes_back_to_the_start(client: FlaskClient) -> None:
    assert client.get("/join?code=").headers["Location"] == "/"


def test_the_room_page_lists_free_and_taken_seats(client: FlaskClient, phone, app) -> None:
    game = new_tally(client)
    post(phone, f"/api/games/{game['id']}/seats/Ben")
    page = app.test_client().get(f"/r/{game['room']}").get_data(as_text=True)
    assert 'data-seat="Anna"' in page
    assert 'data-seat="Ben" disabled' in page


def test_a_seated_phone_is_sent_on_to_its_game(client: FlaskClient, phone) -> None:
    game = new_tally(client)
    post(phone, f"/api/games/{game['id']}/seats/Ben")
    page = phone.get(f"/r/{game['room']}").get_data(as_text=True)
    assert "This phone is the seat of Ben." in page
    assert f'href="/tally/{game["id"]}"' in page


def test_an_unknown_room_code_is_a_page_saying_so(client: FlaskClient) -> None:
    answer = client.get("/r/ZZZZ")
    assert answer.status_code == 400
    assert "there is no game with room code &#39;ZZZZ&#39;" in answer.get_data(as_text=True)


def test_a_game_link_leads_to_its_own_page(client: FlaskClient) -> None:
    game = new_tally(client)
    assert client.get(f"/g/{game['id']}").headers["Location"] == f"/tally/{game['id']}"


def test_the_qr_code_is_an_svg_of_the_join_address(client: FlaskClient, app) -> None:
    app.config["PUBLIC_URL"] = "http://192.168.1.20:8000/"
    game = new_tally(client)
    answer = client.get(f"/g/{game['id']}/qr.svg")
    assert answer.mimetype == "image/svg+xml"
    assert answer.get_data(as_text=True).startswith("<?xml")
    shown = client.get(f"/api/games/{game['id']}").get_json()
    assert shown["join_url"] == f"http://192.168.1.20:8000/r/{game['room']}"


def test_an_unknown_page_is_a_dark_page_not_a_traceback(client: FlaskClient) -> None:
    answer = client.get("/no/such/page")
    assert answer.status_code == 404
    assert "There is nothing at this address." in answer.get_data(as_text=True)


def test_an_unknown_api_path_answers_json(client: FlaskClient) -> None:
    answer = client.get("/api/nothing")
    assert answer.status_code == 404
    assert answer.get_json()["error"] == "There is nothing at this address."


def test_a_wrong_method_is_a_405_sentence(client: FlaskClient) -> None:
    answer = client.get("/api/games/x/events")
    assert answer.status_code == 405
    assert answer.get_json()["reason"] == "http"


def test_a_bug_is_a_polite_500_with_the_game_safe(client: FlaskClient, app) -> None:
    @app.get("/api/boom")
    def boom() -> str:
        raise RuntimeError("bug")

    answer = client.get("/api/boom")
    assert answer.status_code == 500
    assert "the game is safe" in answer.get_json()["error"]


def test_the_shared_texts_reach_the_pages(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert '"shell.undo": "Undo last step"' in page
