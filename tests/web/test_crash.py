"""Crash safety: a real ``companion serve`` killed with SIGKILL loses nothing and doubles
nothing, and two phones tapping at once apply the step once.

The server runs as a child process on 127.0.0.1 with a temporary database; the phones
are HTTP clients with their own cookies (``web.load.Browser``). A Bite Night game is
played up to its rendezvous, the server is killed between steps and during a burst of
concurrent requests, and restarted on the same database. The event log (the exported
game) is then compared with what the phones were told was confirmed.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.bitenight.tiles import ALL_TILES
from web.load import Browser, Figures, ServerProcess

PLAYERS = ["Anna", "Ben", "Cleo"]
TILES = [tile.id for tile in ALL_TILES]


@dataclass
class Table:
    """A server process and the browsers around it: the host screen and one phone a seat."""

    server: ServerProcess
    host: Browser
    phones: dict[str, Browser]
    game_id: str

    @property
    def path(self) -> str:
        return f"/api/games/{self.game_id}"

    def restart(self) -> None:
        """Start the server again on the same database; the browsers keep their cookies."""
        base = self.server.start()
        for browser in (self.host, *self.phones.values()):
            browser.base = base

    def shown(self, browser: Browser | None = None) -> dict[str, Any]:
        status, payload = (browser or self.host).request("look", "GET", self.path)
        assert status == 200, payload
        return json.loads(payload)

    def act(self, browser: Browser, kind: str, version: int | None = None, **data: Any):  # type: ignore[no-untyped-def]
        """Post an event as the page does; returns (status, answer JSON)."""
        if version is None:
            version = self.shown()["version"]
        body = {"kind": kind, "data": data, "version": version}
        status, payload = browser.request("act", "POST", f"{self.path}/events", body)
        return status, json.loads(payload) if payload else {}

    def log(self) -> list[dict[str, Any]]:
        status, payload = self.host.request("export", "GET", f"{self.path}/export")
        assert status == 200, payload
        return json.loads(payload)["events"]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    server = ServerProcess(tmp_path / "games.sqlite3", tmp_path / "server.log")
    base = server.start()
    try:
        figures = Figures()
        host = Browser(base, figures)
        host.open_page()
        setup = {"players": PLAYERS, "deck": "basic", "reading": "photo"}
        game = host.post_json(
            "create", "/api/games", {"kind": "bite-night", "setup": setup}, expect=201
        )
        phones = {}
        for name in PLAYERS:
            phones[name] = Browser(base, figures)
            phones[name].open_page()
            phones[name].post_json("join", f"/api/games/{game['id']}/seats/{name}", {})
        yield Table(server, host, phones, game["id"])
    finally:
        server.stop()


def play_to_the_rendezvous(table: Table) -> None:
    """Five rounds: every phone places its card and sets its own collection."""
    while (view := table.shown()["view"])["phase"] != "rendezvous":
        if view["phase"] == "placing":
            name = view["next_to_place"]
            status, answer = table.act(table.phones[name], "place-card", player=name)
        elif all(len(held) == view["tiles_expected"] for held in view["collections"].values()):
            status, answer = table.act(table.host, "end-round")
        else:
            name = next(
                n for n, held in view["collections"].items() if len(held) < view["tiles_expected"]
            )
            seat = PLAYERS.index(name)
            tiles = TILES[seat * 15 : seat * 15 + view["tiles_expected"]]
            status, answer = table.act(
                table.phones[name], "set-collection", player=name, tiles=tiles
            )
        assert status == 200, answer


def same_events(log: list[dict[str, Any]], confirmed: dict[int, dict[str, Any]]) -> None:
    """Every confirmed event is in the log at its place (version - 1), exactly once."""
    for version, event in confirmed.items():
        assert log[version - 1] == event, version


# -- the tests ----------------------------------------------------------------------------


def test_a_server_killed_between_steps_continues_from_the_last_confirmed_step(
    table: Table,
) -> None:
    play_to_the_rendezvous(table)
    status, answer = table.act(table.host, "reveal-card", card="color:red")
    assert status == 200
    before, log_before = answer, table.log()

    table.server.kill()
    table.restart()

    after = table.shown()
    assert (after["version"], after["view"]) == (before["version"], before["view"])
    assert table.log() == log_before
    assert table.shown(table.phones["Ben"])["you"]["seat"] == "Ben"  # phones keep their seats
    status, _ = table.act(
        table.phones["Ben"], "reveal-card", before["version"] - 1, card="pair:monk"
    )
    assert status == 409  # a request made before the crash is still stale after it
    status, answer = table.act(
        table.phones["Ben"], "reveal-card", before["version"], card="pair:monk"
    )
    assert status == 200 and answer["version"] == before["version"] + 1


def test_a_server_killed_while_a_choice_is_pending_keeps_the_choices_made(table: Table) -> None:
    play_to_the_rendezvous(table)
    status, answer = table.act(table.host, "reveal-card", card="grave:monk")
    assert status == 200
    asks = answer["view"]["rendezvous"]["asks"]
    assert len(asks) >= 2  # at least two players must give monks to the graveyard
    first = asks[0]
    status, answer = table.act(
        table.phones[first["player"]],
        "choose-tiles",
        player=first["player"],
        tiles=first["suggestion"],
    )
    assert status == 200
    confirmed = answer

    table.server.kill()
    table.restart()

    after = table.shown()
    assert after["version"] == confirmed["version"]
    assert after["view"]["rendezvous"] == confirmed["view"]["rendezvous"]
    waiting = [ask["player"] for ask in after["view"]["rendezvous"]["asks"]]
    assert first["player"] not in waiting and waiting  # the others still owe their choice
    for ask in after["view"]["rendezvous"]["asks"]:
        status, answer = table.act(
            table.phones[ask["player"]],
            "choose-tiles",
            player=ask["player"],
            tiles=ask["suggestion"],
        )
        assert status == 200, answer
    assert table.shown()["view"]["rendezvous"]["current"] is None


def test_a_server_killed_during_a_burst_loses_no_confirmed_event_and_doubles_none(
    table: Table,
) -> None:
    """Every phone toggles its own tiles as fast as it can while the server is killed.

    Each answer 200 names the version its event made; after the restart the log must
    hold each of them at that place. Events whose answer the kill swallowed may or may
    not be in the log (at most one per phone: each waits for its answer), but nothing
    appears that no phone sent, and the log replays.
    """
    play_to_the_rendezvous(table)
    confirmed: dict[int, dict[str, Any]] = {}
    answered: list[int] = []  # the version of every confirmed answer, doubles included
    lock = threading.Lock()
    stop = threading.Event()

    def toggle(name: str) -> None:
        own = TILES[45 + PLAYERS.index(name)]  # a tile nobody holds
        version, held = 0, False
        while not stop.is_set():
            kind = "remove-tile" if held else "add-tile"
            data = {"player": name, "tile": own}
            status, answer = table.act(table.phones[name], kind, version, **data)
            if status == 200:
                with lock:
                    answered.append(answer["version"])
                    confirmed[answer["version"]] = {"kind": kind, "data": data, "actor": name}
            if status == 200 or status == 409:
                try:
                    shown = table.shown(table.phones[name])
                except AssertionError:
                    return  # the server is gone
                version, held = shown["version"], own in shown["view"]["collections"][name]
            else:
                return  # the server is gone

    threads = [threading.Thread(target=toggle, args=(name,)) for name in PLAYERS]
    start = table.shown()["version"]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 30
    while len(confirmed) < 15 and time.monotonic() < deadline:
        stop.wait(0.01)
    table.server.kill()
    stop.set()
    for thread in threads:
        thread.join()
    table.restart()

    log = table.log()
    assert len(confirmed) >= 15 and len(answered) == len(confirmed)  # no version told twice
    same_events(log, confirmed)
    burst = log[start:]
    assert len(confirmed) <= len(burst) <= len(confirmed) + len(PLAYERS)
    for event in burst:
        assert event["actor"] == event["data"]["player"]
        assert event["data"]["tile"] == TILES[45 + PLAYERS.index(event["actor"])]
    assert table.shown()["version"] == len(log)  # the log replays after the restart


def test_two_phones_tapping_the_next_card_at_once_apply_it_once(table: Table) -> None:
    play_to_the_rendezvous(table)
    version = table.shown()["version"]
    barrier = threading.Barrier(2)
    answers: dict[str, int] = {}

    def tap(name: str) -> None:
        barrier.wait()
        answers[name] = table.act(table.phones[name], "reveal-card", version, card="color:blue")[0]

    threads = [threading.Thread(target=tap, args=(name,)) for name in ("Anna", "Ben")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers.values()) == [200, 409]
    log = table.log()
    assert len(log) == version + 1
    assert [event["data"] for event in log if event["kind"] == "reveal-card"] == [
        {"card": "color:blue"}
    ]


def test_two_phones_taking_the_same_free_seat_at_once_get_it_once(table: Table) -> None:
    setup = {"players": PLAYERS, "deck": "basic", "reading": "photo"}
    game = table.host.post_json("create", "/api/games", {"kind": "bite-night", "setup": setup}, 201)
    phones = [Browser(table.host.base, Figures()) for _ in range(2)]
    for phone in phones:
        phone.open_page()
    barrier = threading.Barrier(2)
    answers: list[int] = []

    def claim(phone: Browser) -> None:
        barrier.wait()
        answers.append(phone.request("claim", "POST", f"/api/games/{game['id']}/seats/Anna")[0])

    threads = [threading.Thread(target=claim, args=(phone,)) for phone in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [200, 409]
    seated = [
        json.loads(phone.request("look", "GET", f"/api/games/{game['id']}")[1]) for phone in phones
    ]
    assert sorted(str(shown["you"]["seat"]) for shown in seated) == ["Anna", "None"]
