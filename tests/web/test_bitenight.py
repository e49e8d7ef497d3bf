"""Bite Night's pages: setup, the play page, permissions per seat, photo reading.

The rules themselves are the engine's and are tested in tests/bitenight; here we check
that the pages offer them, pass them through and refuse what a phone may not do.
"""

from __future__ import annotations

from io import BytesIO
from typing import Any

import cv2
import numpy as np
import pytest
from flask.testing import FlaskClient

from tests.web.conftest import post

PLAYERS = ["Anna", "Ben", "Cleo"]


def new_game(client: FlaskClient, **setup: Any) -> dict[str, Any]:
    body = {"kind": "bite-night", "title": "Friday", "setup": {"players": PLAYERS, **setup}}
    answer = post(client, "/api/games", body)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def play(client: FlaskClient, game: dict[str, Any], kind: str, **data: Any):  # type: ignore[no-untyped-def]
    """Send an event made on the state the game is in now (the page knows its version)."""
    version = game.get("version")
    if version is None:
        version = client.get(f"/api/games/{game['id']}").get_json()["version"]
    return post(
        client, f"/api/games/{game['id']}/events", {"kind": kind, "data": data, "version": version}
    )


def test_the_setup_page_offers_players_deck_reading_and_tile_sets(client: FlaskClient) -> None:
    page = client.get("/bite-night/new").get_data(as_text=True)
    assert page.count('name="player"') == 4
    assert 'value="advanced"' in page and 'value="camera"' in page
    assert '<option value="nocturne"' in page and '<option value="lantern"' in page


def test_a_game_starts_with_the_engines_view_and_the_tables_choices(client: FlaskClient) -> None:
    game = new_game(client, deck="advanced", reading="camera", tileset="lantern")
    shown = client.get(f"/api/games/{game['id']}").get_json()
    assert shown["view"]["phase"] == "placing"
    assert shown["view"]["deck"] == "advanced"
    assert (shown["view"]["reading"], shown["view"]["tileset"]) == ("camera", "lantern")
    assert [seat["name"] for seat in shown["seats"]] == PLAYERS


def test_an_unknown_tile_set_is_refused_at_setup(client: FlaskClient) -> None:
    answer = post(
        client,
        "/api/games",
        {"kind": "bite-night", "setup": {"players": PLAYERS, "tileset": "../etc"}},
    )
    assert answer.status_code == 400
    assert "no tile set called '../etc'" in answer.get_json()["error"]


def test_an_unknown_way_of_reading_is_refused_at_setup(client: FlaskClient) -> None:
    answer = post(
        client, "/api/games", {"kind": "bite-night", "setup": {"players": PLAYERS, "reading": "x"}}
    )
    assert answer.status_code == 400


def test_two_players_are_refused_by_the_engine(client: FlaskClient) -> None:
    answer = post(client, "/api/games", {"kind": "bite-night", "setup": {"players": ["A", "B"]}})
    assert answer.status_code == 422
    assert "3 or 4 players" in answer.get_json()["error"]


def test_the_play_page_carries_the_card_and_tile_catalogue(client: FlaskClient) -> None:
    game = new_game(client)
    page = client.get(game["url"]).get_data(as_text=True)
    assert '"id": "combo:maiden+garlic"' in page
    assert 'id="hostbar"' in page and 'id="graveyard"' in page


def test_the_play_page_of_another_kind_of_game_is_a_404(client: FlaskClient) -> None:
    answer = post(client, "/api/games", {"kind": "tally", "setup": {"limit": 3, "players": []}})
    assert client.get(f"/bite-night/{answer.get_json()['id']}").status_code == 404


def test_a_phone_places_only_its_own_card(client: FlaskClient, phone: FlaskClient) -> None:
    game = new_game(client)
    post(phone, f"/api/games/{game['id']}/seats/Ben")
    assert play(phone, game, "place-card", player="Anna").status_code == 403
    assert play(client, game, "place-card", player="Anna").status_code == 200
    assert play(phone, game, "place-card", player="Ben").status_code == 200


def test_a_phone_corrects_only_its_own_collection(client: FlaskClient, phone) -> None:
    game = new_game(client)
    post(phone, f"/api/games/{game['id']}/seats/Ben")
    assert play(phone, game, "add-tile", player="Ben", tile="red-monk").status_code == 200
    assert play(phone, game, "add-tile", player="Anna", tile="red-maiden").status_code == 403
    assert play(client, game, "add-tile", player="Anna", tile="red-maiden").status_code == 200


def test_a_tile_already_elsewhere_is_refused_with_the_engines_reason(client: FlaskClient) -> None:
    game = new_game(client)
    play(client, game, "add-tile", player="Ben", tile="red-monk")
    answer = play(client, game, "add-tile", player="Anna", tile="red-monk")
    assert answer.status_code == 422
    assert answer.get_json()["error"] == "the red monk is already in Ben's collection"


def test_only_the_host_starts_the_next_cycle(client: FlaskClient, phone) -> None:
    game = new_game(client)
    post(phone, f"/api/games/{game['id']}/seats/Ben")
    assert play(phone, game, "next-cycle").status_code == 403


def test_the_tiles_pictures_come_from_the_tile_set(client: FlaskClient) -> None:
    with client.get("/tileset/nocturne/faces/red-vampire-heart.png") as answer:
        assert answer.status_code == 200 and answer.mimetype == "image/png"
    with client.get("/tileset/lantern/tokens/back.png") as answer:
        assert answer.status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/tileset/nocturne/faces/red-dragon.png",
        "/tileset/nowhere/faces/red-monk.png",
        "/tileset/nocturne/tokens/..png",
        "/tileset/nocturne/tokens/pink.png",
    ],
)
def test_a_picture_that_is_not_there_is_a_404(client: FlaskClient, path: str) -> None:
    assert client.get(path).status_code == 404


def upload(client: FlaskClient, game: dict[str, Any], player: str, data: bytes):  # type: ignore[no-untyped-def]
    from tests.web.conftest import ORIGIN, csrf

    return client.post(
        f"/bite-night/{game['id']}/photo",
        data={"player": player, "photo": (BytesIO(data), "photo.jpg")},
        headers={"X-CSRF-Token": csrf(client), "Origin": ORIGIN, "Accept": "application/json"},
    )


def test_a_photo_that_is_not_a_picture_is_refused_in_one_sentence(client: FlaskClient) -> None:
    game = new_game(client)
    answer = upload(client, game, "Anna", b"not a picture at all")
    assert answer.status_code == 422
    assert answer.get_json()["error"] == "the photo is not a PNG, JPEG, BMP or WebP picture."


def test_a_phone_reads_only_its_own_collection_from_a_photo(client, phone) -> None:
    game = new_game(client)
    post(phone, f"/api/games/{game['id']}/seats/Ben")
    assert upload(phone, game, "Anna", b"x").status_code == 403
    assert upload(phone, game, "Zed", b"x").status_code == 400


def test_a_photo_of_an_empty_table_finds_no_tiles_and_changes_nothing(client) -> None:
    game = new_game(client)
    table = np.full((480, 640, 3), (40, 90, 60), np.uint8)
    ok, jpeg = cv2.imencode(".jpg", table)
    assert ok
    answer = upload(client, game, "Anna", jpeg.tobytes())
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json() == {"player": "Anna", "width": 640, "height": 480, "tiles": []}
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0


POINT_CARDS = [
    "color-set",
    *(f"motif:{m}" for m in ("vampire", "monk", "maiden", "coffin", "garlic")),
    *(f"color:{c}" for c in ("blue", "red", "yellow", "green", "purple")),
    *(f"pair:{m}" for m in ("vampire", "monk", "maiden", "coffin")),
]


def to_rendezvous(client: FlaskClient, game: dict[str, Any]) -> dict[str, Any]:
    """The host screen plays cycle 1 up to its rendezvous: cards placed, tiles dealt in
    id order. Answers the view; ``game["version"]`` follows."""
    from companion.bitenight.tiles import TILE_IDS

    now = client.get(f"/api/games/{game['id']}").get_json()
    shown, game["version"] = now["view"], now["version"]
    while shown["phase"] != "rendezvous":
        if shown["phase"] == "placing":
            answer = play(client, game, "place-card", player=shown["next_to_place"])
        elif any(len(held) < shown["tiles_expected"] for held in shown["collections"].values()):
            seat = next(
                i
                for i, name in enumerate(PLAYERS)
                if len(shown["collections"][name]) < shown["tiles_expected"]
            )
            tiles = list(TILE_IDS[seat * 15 : seat * 15 + shown["tiles_expected"]])
            answer = play(client, game, "set-collection", player=PLAYERS[seat], tiles=tiles)
        else:
            answer = play(client, game, "end-round")
        assert answer.status_code == 200, answer.get_json()
        shown, game["version"] = answer.get_json()["view"], answer.get_json()["version"]
    return dict(shown)


def play_a_cycle(client: FlaskClient, game: dict[str, Any]) -> dict[str, Any]:
    """The host screen plays cycle 1: cards placed, tiles dealt in id order, 15 point cards."""
    game = {**game}
    to_rendezvous(client, game)
    for card in POINT_CARDS:
        answer = play(client, game, "reveal-card", card=card)
        assert answer.status_code == 200, answer.get_json()
        game["version"] = answer.get_json()["version"]
    return answer.get_json()["view"]


def reveal(client: FlaskClient, game: dict[str, Any], card: str) -> dict[str, Any]:
    answer = play(client, game, "reveal-card", card=card)
    assert answer.status_code == 200, answer.get_json()
    game["version"] = answer.get_json()["version"]
    return dict(answer.get_json()["view"])


def test_a_card_whose_only_copy_came_up_is_used_up(client: FlaskClient) -> None:
    game = {**new_game(client), "version": None}
    assert to_rendezvous(client, game)["used_up"] == {}
    assert reveal(client, game, "motif:vampire")["used_up"] == {"motif:vampire": 1}


def test_a_card_of_two_copies_is_used_up_only_when_both_came_up(client: FlaskClient) -> None:
    game = {**new_game(client), "version": None}
    to_rendezvous(client, game)
    assert reveal(client, game, "skip-two")["used_up"] == {}
    reveal(client, game, "color-set")  # put away by skip-two, as is the next
    reveal(client, game, "motif:monk")
    assert reveal(client, game, "skip-two")["used_up"] == {
        "color-set": 1,
        "motif:monk": 1,
        "skip-two": 2,
    }


def test_every_card_the_view_calls_used_up_is_refused_by_the_engine(client) -> None:
    game = {**new_game(client), "version": None}
    to_rendezvous(client, game)
    for card in ("skip-two", "pair:vampire", "pair:monk", "skip-two", "color:red"):
        shown = reveal(client, game, card)
    for card in shown["used_up"]:
        answer = play(client, game, "reveal-card", card=card)
        assert answer.status_code == 422, card
    assert play(client, game, "reveal-card", card="color:blue").status_code == 200


def test_past_games_are_listed_with_their_score_pads(client: FlaskClient) -> None:
    game = new_game(client)
    unscored = new_game(client)
    shown = play_a_cycle(client, game)
    assert shown["phase"] == "cycle-scored"
    page = client.get("/games").get_data(as_text=True)
    points = shown["score_pad"]["rows"][0]["points"]
    row = "".join(f"<td>{points[name]}</td>" for name in PLAYERS)
    assert f"<tr><td>Cycle 1</td>{row}</tr>" in page
    assert page.count('class="pad small-pad"') == 1  # the unscored game has no pad yet
    assert unscored["id"] in page


def test_a_whole_game_ends_with_the_winner_on_the_past_games_list(client: FlaskClient) -> None:
    game = new_game(client)
    for cycle in range(1, 4):
        shown = play_a_cycle(client, game)
        if cycle < 3:
            assert shown["phase"] == "cycle-scored"
            assert play(client, game, "next-cycle").status_code == 200
    assert shown["phase"] == "game-over"
    assert len(shown["score_pad"]["rows"]) == 3
    page = client.get("/games").get_data(as_text=True)
    assert f"Won by {' &amp; '.join(shown['winners'])}" in page


@pytest.mark.parametrize("name", ["A/B", "Tab\there", "x" * 41])
def test_a_player_name_that_cannot_be_a_seat_is_refused(client: FlaskClient, name: str) -> None:
    answer = post(
        client, "/api/games", {"kind": "bite-night", "setup": {"players": ["Anna", "Ben", name]}}
    )
    assert answer.status_code == 400
    assert client.get("/api/games").get_json()["games"] == []
