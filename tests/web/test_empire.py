"""The moat and cellar game's pages: creation, seats, and secrets kept to their phone."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import web.empire
from tests.web.conftest import post
from web import create_app

#: Seeds 11 and 86 deal the same castle (5, 4, 2) and tell the human player the same two
#: humans (4, 7), but the vampires differ: 1, 2, 8 against 1, 2, 3.
TWIN_SEEDS = (11, 86)
PLAYERS = {"vampire": "Vlad", "human": "Mina"}
JSON = "application/json"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    yield create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "games.sqlite3"),
            "SECRET_KEY": "test-key",
            "GAME_PAGES": ("web.empire",),
        }
    )


def new_game(client: FlaskClient, seed: int, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    monkeypatch.setattr(web.empire, "draw_seed", lambda: seed)
    answer = post(
        client,
        "/empire/games",
        {"title": "Friday", "setup": {"players": PLAYERS, "decks": {"vampire": 20, "human": 20}}},
    )
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def sit(phone: FlaskClient, game_id: str, seat: str) -> None:
    answer = post(phone, f"/api/games/{game_id}/seats/{seat}")
    assert answer.status_code == 200, answer.get_json()


def table(app: Flask, seed: int, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    host, vampire, human = app.test_client(), app.test_client(), app.test_client()
    created = new_game(host, seed, monkeypatch)
    sit(vampire, created["id"], "Vlad")
    sit(human, created["id"], "Mina")
    return created, host, vampire, human


def send(client: FlaskClient, game_id: str, kind: str, data: dict[str, Any] | None = None):  # type: ignore[no-untyped-def]
    version = client.get(f"/api/games/{game_id}").get_json()["version"]
    return post(
        client,
        f"/api/games/{game_id}/events",
        {"kind": kind, "data": data or {}, "version": version},
    )


def test_the_setup_page_offers_names_and_deck_sizes(client):
    page = client.get("/empire/new").get_data(as_text=True)
    assert 'id="vampire-deck"' in page and 'value="40"' in page
    assert "Bishop" in page


def test_a_new_game_deals_on_the_server_and_seats_the_two_players(app, client, monkeypatch):
    created = new_game(client, 11, monkeypatch)
    shown = client.get(f"/api/games/{created['id']}").get_json()
    assert [seat["name"] for seat in shown["seats"]] == ["Vlad", "Mina"]
    assert shown["view"]["castle"] == [5, 4, 2]
    assert client.get(created["url"]).status_code == 200


def test_the_browser_cannot_choose_the_seed_of_the_secret_deal(client):
    answer = post(client, "/empire/games", {"setup": {"seed": 3}}, Accept=JSON)
    assert answer.status_code == 400
    assert "drawn by the server" in answer.get_json()["error"]


def test_the_shared_creation_route_does_not_let_the_browser_choose_the_seed_either(client):
    setup = {"players": PLAYERS, "seed": 3}
    answer = post(client, "/api/games", {"kind": "vampire-empire", "setup": setup}, Accept=JSON)
    assert answer.status_code == 400
    assert "drawn by the server" in answer.get_json()["error"]


def test_the_host_screen_cannot_download_the_log_before_the_game_is_over(app, monkeypatch):
    created, host, _vampire, _human = table(app, 11, monkeypatch)
    answer = host.get(f"/api/games/{created['id']}/export", headers={"Accept": JSON})
    assert answer.status_code == 409
    assert "once it is over" in answer.get_json()["error"]
    assert "seed" not in answer.get_data(as_text=True)


def test_a_bad_setup_is_refused_with_a_sentence(client):
    answer = post(client, "/empire/games", {"setup": {"decks": {"human": 3}}}, Accept=JSON)
    assert answer.status_code == 422
    assert "8 to 200" in answer.get_json()["error"]


def test_each_phone_sees_its_own_secret_and_the_host_none(app, monkeypatch):
    created, host, vampire, human = table(app, 11, monkeypatch)

    def known(client: FlaskClient) -> dict[int, str]:
        characters = client.get(f"/api/games/{created['id']}").get_json()["view"]["characters"]
        return {c["id"]: c["identity"] for c in characters if c["identity"]}

    assert [c for c, side in known(vampire).items() if side == "vampire"] == [1, 2, 8]
    assert known(human) == {4: "human", 7: "human"}
    assert known(host) == {}


def test_a_phone_acts_only_in_its_own_turn_and_only_the_vampire_phone_reveals(app, monkeypatch):
    created, host, vampire, human = table(app, 11, monkeypatch)
    game_id = created["id"]
    assert send(human, game_id, "discard-and-draw").status_code == 422
    assert send(vampire, game_id, "discard-and-draw", {"moat": 2}).status_code == 200
    refused = send(host, game_id, "reveal", {"character": 2})
    assert refused.status_code == 422
    assert "only the vampire player reveals" in refused.get_json()["error"]
    shown = send(vampire, game_id, "reveal", {"character": 2}).get_json()
    assert shown["view"]["history"][0]["kind"] == "reveal"
    assert send(app.test_client(), game_id, "pass").status_code == 403  # no seat, not host


def test_the_host_screen_may_record_for_the_player_whose_turn_it_is(app, monkeypatch):
    created, host, _vampire, _human = table(app, 11, monkeypatch)
    shown = send(host, created["id"], "discard-and-draw", {"cellar": 1}).get_json()
    assert shown["view"]["cards"]["vampire"]["cellar"] == 1


def play_a_few_turns(game_id: str, host, vampire, human, seen: dict[str, list[str]]) -> None:  # type: ignore[no-untyped-def]
    """The same public turns at both tables, keeping every answer to the human phone and host."""
    watchers = {"host": host, "human": human}

    def act(client: FlaskClient, kind: str, data: dict[str, Any] | None = None) -> None:
        answer = send(client, game_id, kind, data)
        for who, watcher in watchers.items():
            if watcher is client:
                seen[who].append(answer.get_data(as_text=True))
            seen[who].append(watcher.get(f"/api/games/{game_id}").get_data(as_text=True))
            page = watcher.get(f"/empire/{game_id}").get_data(as_text=True)
            seen[who].append(re.sub(r'name="csrf-token" content="[^"]*"', "", page))

    act(vampire, "discard-and-draw", {"cellar": 2, "moat": 1})
    act(human, "reveal", {"character": 3})  # refused, in the same words at both tables
    act(vampire, "reveal", {"character": 2})
    act(vampire, "hide", {"character": 5, "refill": [6]})
    act(human, "discard-and-draw", {"moat": 3})
    act(human, "holy-water", {"character": 2})  # already revealed: refused
    act(human, "holy-water", {"character": 4})
    act(host, "discard-and-draw", {})
    act(vampire, "pass")
    act(human, "discard-and-draw", {"cellar": 1})
    act(human, "combat", {"killed": [6], "refill": [7]})


#: The live stream's lease in a game JSON: signed with the time of asking, not the secret.
LEASE = re.compile(r"lease=\d+\.[0-9a-f]+")


def test_no_answer_to_the_human_phone_or_the_host_depends_on_who_the_vampires_are(app, monkeypatch):
    answers: list[dict[str, list[str]]] = []
    for seed in TWIN_SEEDS:
        created, host, vampire, human = table(app, seed, monkeypatch)
        seen: dict[str, list[str]] = {"host": [], "human": []}
        play_a_few_turns(created["id"], host, vampire, human, seen)
        for texts in seen.values():
            texts[:] = [
                LEASE.sub("lease=LEASE", t)
                .replace(created["id"], "GAME")
                .replace(created["room"], "ROOM")
                for t in texts
            ]
        answers.append(seen)
    first, second = answers
    assert first == second
    last = json.loads(first["human"][-3])["view"]
    assert last["dead"] == [6] and 2 in [c["id"] for c in last["characters"] if c["revealed"]]
    assert any(
        '"reason": "illegal_event"' in text or '"reason":"illegal_event"' in text
        for text in first["human"]
    )


def test_the_vampire_phone_is_never_told_the_human_players_two_humans(app, monkeypatch):
    created, _host, vampire, human = table(app, 11, monkeypatch)
    for client in (vampire, human):
        send(client, created["id"], "discard-and-draw")
        send(client, created["id"], "pass")
        answer = vampire.get(f"/api/games/{created['id']}").get_json()
        assert not any(c["told_human"] for c in answer["view"]["characters"])


def test_when_both_run_out_of_cards_the_count_is_shown_with_every_identity(app, monkeypatch):
    monkeypatch.setattr(web.empire, "draw_seed", lambda: 11)
    host, vampire, human = app.test_client(), app.test_client(), app.test_client()
    setup = {"players": PLAYERS, "decks": {"vampire": 8, "human": 8}}
    created = post(host, "/empire/games", {"setup": setup}).get_json()
    sit(vampire, created["id"], "Vlad")
    sit(human, created["id"], "Mina")
    for client in (vampire, human):
        send(client, created["id"], "discard-and-draw", {"moat": 8})
        send(client, created["id"], "pass")
    shown = host.get(f"/api/games/{created['id']}").get_json()["view"]
    assert shown["outcome"] == {
        "winner": None,
        "cause": "count",
        "reason": "both players are out of cards: each surviving human scores 1, each vampire 2",
        "scores": {"vampire": 6, "human": 6},
    }
    assert [c["identity"] for c in shown["characters"]].count("vampire") == 3
