"""A whole cycle of Bite Night in Chromium at a phone's size, as three players play it.

Anna's phone created the game (it is the host screen too), Ben and Cleo join with the
room code and the QR link. They place their cards, count down "1-2-3" together, read
their collections (one tile added and one changed through the picker, one impossible
correction refused), then play the rendezvous card by card, confirm their graveyard
choices on their own phones, take one step back with undo, and end on the score pad,
which every phone shows the same. Screenshots of each screen go to
artefacts/screenshots/.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.browsers import PHONE, chromium, needs_chromium, shot
from web.bench import run_in_background
from web.bitenight.sentences import tile_name

PLAYERS = ["Anna", "Ben", "Cleo"]
#: The pile of the first cycle, first placed first: point cards, a graveyard card that
#: asks everyone to choose, one with no choice, a skip-two, and a closed graveyard.
PILE = [
    "motif:vampire",
    "color:red",
    "grave:any",
    "pair:monk",
    "combo:vampire+monk",
    "color-set",
    "grave:maiden",
    "skip-two",
    "color:blue",
    "pair:garlic",
    "graveyard-closed",
    "grave:coffin",
    "motif:garlic",
    "color:green",
    "motif:monk",
]

pytestmark = [pytest.mark.browser, needs_chromium]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real server (waitress, as `companion serve` runs it) on a free local port."""
    from waitress import create_server

    from web import create_app

    database = tmp_path_factory.mktemp("browser") / "games.sqlite3"
    app = create_app({"DATABASE": str(database), "STREAM_HEARTBEAT": 5.0})
    httpd = create_server(app, host="127.0.0.1", port=0, threads=24)
    stopping = run_in_background(httpd)
    yield f"http://127.0.0.1:{httpd.effective_port}"  # type: ignore[union-attr]
    stop(app, httpd, stopping)


def stop(app: Any, httpd: Any, stopping: threading.Event) -> None:
    """End the live streams, let their threads finish, then close the server."""
    import time

    app.extensions["companion_changes"].close()
    time.sleep(0.3)
    stopping.set()
    httpd.close()
    stop_camera = app.extensions.get("companion_camera_stop")
    if stop_camera is not None:
        stop_camera()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as browser:
        yield browser


class Phone:
    """One player's phone: its own browser context (cookies), page and screenshots."""

    def __init__(self, browser: Any, base: str, name: str) -> None:
        self.name = name
        self.base = base
        self.context = browser.new_context(viewport=PHONE, device_scale_factor=2, has_touch=True)
        self.page = self.context.new_page()
        self.page.set_default_timeout(8000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def shot(self, name: str, full_page: bool = True) -> None:
        shot(self.page, name, full_page=full_page)

    def game(self, game_id: str) -> dict[str, Any]:
        """The game JSON as this phone is allowed to see it."""
        return self.page.evaluate("(id) => Companion.api('GET', `/api/games/${id}`)", game_id)

    def post(self, game_id: str, kind: str, **data: Any) -> dict[str, Any]:
        """Send an event the way the page does (CSRF token, version shown)."""
        return self.page.evaluate(
            """async ([id, kind, data]) => {
                 const now = await Companion.api('GET', `/api/games/${id}`);
                 return Companion.api('POST', `/api/games/${id}/events`,
                                      {kind, data, version: now.version});
               }""",
            [game_id, kind, data],
        )

    def act(self, selector: str) -> None:
        """Tap something that sends an event, and wait for the page to show its result."""
        before = self.page.evaluate("document.body.dataset.version")
        self.page.click(selector)
        self.page.wait_for_function(
            "(v) => document.body.dataset.version !== v", arg=before, timeout=5000
        )

    def shows(self, version: int, within: float = 5.0) -> None:
        """Wait until the live stream has brought this page to ``version``."""
        self.page.wait_for_function(
            "(v) => document.body.dataset.version === String(v)",
            arg=version,
            timeout=within * 1000,
        )


def deal(view: dict[str, Any]) -> list[str]:
    """The next three tiles nobody holds yet, in id order: the same in every run."""
    from companion.bitenight.tiles import TILE_IDS

    held = {tile for tiles in view["collections"].values() for tile in tiles}
    return [tile for tile in TILE_IDS if tile not in held][:3]


@pytest.fixture(scope="module")
def photo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A phone photo (portrait) of three tiles on a table, and the tiles on it."""
    import cv2
    import numpy as np

    from vision.synth.scene import render_photo
    from vision.tileset import load_tileset
    from web.config import DEFAULT_TILESET

    taken = render_photo(
        load_tileset(DEFAULT_TILESET),
        np.random.default_rng(3),
        level=0,
        n_tiles=3,
        layout="spread",
        size=(960, 1280),
    )
    path = tmp_path_factory.mktemp("photo") / "collection.jpg"
    cv2.imwrite(str(path), taken.image)
    return path, sorted(tile.tile.id for tile in taken.tiles)


def test_a_whole_cycle_on_three_phones(server: str, browser: Any, photo) -> None:
    anna, ben, cleo = (Phone(browser, server, name) for name in PLAYERS)
    phones = {"Anna": anna, "Ben": ben, "Cleo": cleo}

    # The host screen (Anna's phone) creates the game.
    anna.page.goto(f"{server}/")
    anna.shot("01-start")
    anna.page.click("a[href='/bite-night/new']")
    for index, name in enumerate(PLAYERS):
        anna.page.locator("input[name='player']").nth(index).fill(name)
    anna.page.fill("#title", "Browser night")
    anna.shot("02-setup")
    anna.page.click("#create")
    anna.page.wait_for_selector("#stage-placing")
    game_id = anna.page.evaluate("document.body.dataset.gameId")
    room = anna.page.inner_text("#room-code")
    assert len(room) == 4
    anna.page.wait_for_selector("#room-qr[src]")
    anna.shot("03-host-room")

    # Ben types the room code; Cleo follows the QR link; Anna takes her own seat too.
    ben.page.goto(f"{server}/")
    ben.page.fill("#code", room.lower())
    ben.page.click("form.join button")
    ben.page.wait_for_selector("#seats")
    ben.shot("04-join")
    ben.page.click("button[data-seat='Ben']")
    ben.page.wait_for_selector("#stage-placing")
    cleo.page.goto(anna.game(game_id)["join_url"])
    cleo.page.click("button[data-seat='Cleo']")
    anna.page.goto(f"{server}/r/{room}")
    anna.page.click("button[data-seat='Anna']")
    anna.page.wait_for_selector("#stage-placing")
    assert anna.game(game_id)["you"] == {"seat": "Anna", "host": True}
    assert ben.game(game_id)["you"] == {"seat": "Ben", "host": False}

    rounds = anna.game(game_id)["view"]["rounds"]
    for round_number in range(1, rounds + 1):
        # Placing: each phone shows the button only to the player whose turn it is.
        for _ in PLAYERS:
            shown = anna.game(game_id)
            phone = phones[shown["view"]["next_to_place"]]
            phone.shows(shown["version"])
            if round_number == 1 and phone is ben:
                ben.shot("05-placing-ben")
            phone.act("#stage-placing button.primary")
        shown = anna.game(game_id)
        for phone in phones.values():
            phone.shows(shown["version"])
        if round_number == 1:
            # "1-2-3" on Ben's phone counts down on Cleo's too.
            ben.page.click("#stage-grabbing button.primary")
            cleo.page.wait_for_selector("#countdown:not([hidden])")
            cleo.shot("06-countdown")
            cleo.page.wait_for_selector("#countdown", state="hidden", timeout=8000)
        # Reading the collections: each phone sends its own. In the first round Cleo
        # photographs her tiles and Ben corrects his by hand.
        if round_number == 1:
            read_photo(cleo, anna, game_id, *photo)
        for name in PLAYERS:
            if round_number == 1 and name == "Cleo":
                continue
            view = anna.game(game_id)["view"]
            tiles = [*view["collections"][name], *deal(view)]
            if round_number == 1 and name == "Ben":
                correct_by_hand(ben, anna, game_id, tiles)
            else:
                phones[name].post(game_id, "set-collection", player=name, tiles=tiles)
        shown = anna.game(game_id)
        cleo.shows(shown["version"])
        cleo.act("#stage-grabbing button.btn:not(.primary)")  # end the round
        if round_number == 1:
            shown = anna.game(game_id)
            ben.shows(shown["version"])
            ben.shot("09-round-2")

    shown = anna.game(game_id)
    assert shown["view"]["phase"] == "rendezvous"
    for phone in phones.values():
        phone.shows(shown["version"])
    anna.shot("10-rendezvous-start")

    leader = shown["view"]["cycle_leader"]
    for index, card in enumerate(PILE):
        if index == 3:
            cleo.context.set_offline(True)  # Cleo's Wi-Fi drops for two cards
        if index == 5:
            cleo.context.set_offline(False)
            cleo.shows(anna.game(game_id)["version"], within=10)
            assert cleo.page.inner_text("#last-step") == ben.page.inner_text("#last-step")
        revealer = phones[PLAYERS[index % 3]] if index not in (3, 4) else anna
        revealer.shows(anna.game(game_id)["version"])
        revealer.page.click("#stage-rendezvous button.primary")
        revealer.page.wait_for_selector("#picker .card-grid")
        if index == 0:
            revealer.shot("11-card-picker")
        revealer.act(f"#picker button[data-card='{card}']")
        shown = anna.game(game_id)
        if index == 1:
            # Undo from the host screen, with a confirmation, then reveal again.
            anna.shows(shown["version"])
            anna.page.click("#undo")
            anna.page.wait_for_selector("#confirm[open]")
            anna.shot("12-undo-confirm")
            anna.act("#confirm-yes")
            after = anna.game(game_id)
            assert after["view"]["rendezvous"]["position"] == 1
            assert after["view"]["rendezvous"]["last_step"]["card"] == PILE[0]
            revealer.shows(after["version"])
            revealer.page.click("#stage-rendezvous button.primary")
            revealer.act(f"#picker button[data-card='{card}']")
            shown = anna.game(game_id)
        asks = shown["view"]["rendezvous"]["asks"]
        for ask in asks:
            phone = phones[ask["player"]]
            phone.shows(anna.game(game_id)["version"])
            if card == "grave:any" and ask is asks[0]:
                phone.shot("13-graveyard-choice")
            phone.act(f".ask[data-player='{ask['player']}'] button.primary")
        shown = anna.game(game_id)
        if index == 0:
            ben.shows(shown["version"])
            ben.shot("14-first-card-scored")
        if card == "grave:any":
            ben.shows(shown["version"])
            ben.shot("15-after-graveyard")
            ben.shot("15b-graveyard-in-sight", full_page=False)
            assert ben.page.locator("#grave-strip-tiles img").count() == len(
                shown["view"]["graveyard"]
            )

    shown = anna.game(game_id)
    assert shown["view"]["phase"] == "cycle-scored", shown["view"]["doing"]
    assert leader == "Anna"
    pads = []
    for phone in phones.values():
        phone.shows(shown["version"])
        pads.append(phone.page.inner_text("#score-pad"))
    assert pads[0] == pads[1] == pads[2]
    points = shown["view"]["score_pad"]["rows"][0]["points"]
    assert "Cycle 1" in pads[0] and all(str(points[name]) in pads[0] for name in PLAYERS)
    ben.page.locator("#pad-card").scroll_into_view_if_needed()
    ben.shot("16-score-pad-ben")
    anna.shot("17-score-pad-host")

    # A reload loses nothing: the state is in the database.
    cleo.page.reload()
    cleo.shows(shown["version"])
    assert cleo.page.inner_text("#score-pad") == pads[0]

    # The past games list shows it.
    anna.page.goto(f"{server}/games")
    assert "Browser night" in anna.page.inner_text("main")
    anna.shot("18-past-games")

    for phone in phones.values():
        assert phone.errors == [], phone.errors
        phone.context.close()


def read_photo(cleo: Phone, anna: Phone, game_id: str, path: Path, tiles: list[str]) -> None:
    """Cleo photographs her collection; the phone draws what was found over the photo,
    she takes it, and adds by hand what the camera missed."""
    cleo.page.set_input_files(".player[data-player='Cleo'] input[type=file]", str(path))
    cleo.page.wait_for_selector("#review .tiles")
    found = cleo.page.eval_on_selector_all("#review .tiles img", "(all) => all.map((i) => i.alt)")
    assert cleo.page.locator("#review svg polygon").count() == len(found)
    cleo.page.locator("#review").scroll_into_view_if_needed()
    cleo.shot("07a-photo-read")
    cleo.act("#use-found")
    held = anna.game(game_id)["view"]["collections"]["Cleo"]
    assert len(held) == len(found)  # what the phone showed is what the game holds
    if sorted(held) != tiles:  # she sets right what the camera missed or misread
        cleo.post(game_id, "set-collection", player="Cleo", tiles=tiles)


MOTIFS = ["vampire", "monk", "maiden", "coffin", "garlic"]
COLOURS = ["blue", "red", "yellow", "green", "purple"]


def pick(phone: Phone, tile: str) -> None:
    """Choose a tile in the open picker: its motif, colour and heart, by their pictures."""
    colour, motif, *heart = tile.split("-")
    phone.page.click(f"#pick-motif button >> nth={MOTIFS.index(motif)}")
    phone.page.click(f"#pick-colour button >> nth={COLOURS.index(colour)}")
    phone.page.click(f"#pick-heart button >> nth={1 if heart else 0}")


def correct_by_hand(ben: Phone, anna: Phone, game_id: str, tiles: list[str]) -> None:
    """Ben's photo missed a tile and misread another: he fixes both with the picker."""
    first, second, third = tiles
    ben.post(game_id, "set-collection", player="Ben", tiles=[first, "purple-garlic-heart"])
    ben.shows(anna.game(game_id)["version"])
    # Change the misread tile: tap it, pick motif, colour and heart from pictures.
    ben.page.click(".player[data-player='Ben'] button[data-tile='purple-garlic-heart']")
    pick(ben, second)
    ben.shot("07-tile-picker")
    ben.act("#pick-apply")
    ben.page.wait_for_selector(f".player[data-player='Ben'] button[data-tile='{second}']")
    # An impossible correction: a tile Anna already holds is refused with the reason.
    anna_tile = anna.game(game_id)["view"]["collections"]["Anna"][0]
    ben.page.click(".player[data-player='Ben'] button.add")
    pick(ben, anna_tile)
    ben.page.click("#pick-apply")
    toast = ben.page.wait_for_selector(".toast.error")
    said = f"The {tile_name(anna_tile)} is already in Anna's collection"  # a name, not an id
    assert toast.inner_text() == said
    ben.shot("08-refused-correction")
    # The missed tile, added by hand.
    ben.page.click(".player[data-player='Ben'] button.add")
    pick(ben, third)
    ben.act("#pick-apply")
    ben.page.wait_for_selector(f".player[data-player='Ben'] button[data-tile='{third}']")
    assert sorted(anna.game(game_id)["view"]["collections"]["Ben"]) == sorted(tiles)


@pytest.fixture(scope="module")
def camera_server(tmp_path_factory: pytest.TempPathFactory, photo) -> Iterator[str]:
    """A server whose camera is a folder holding the photo of three tiles."""
    from waitress import create_server

    from web import create_app

    folder = photo[0].parent
    database = tmp_path_factory.mktemp("camera") / "games.sqlite3"
    app = create_app({"DATABASE": str(database), "CAMERA": folder})
    httpd = create_server(app, host="127.0.0.1", port=0, threads=12)
    stopping = run_in_background(httpd)
    yield f"http://127.0.0.1:{httpd.effective_port}"  # type: ignore[union-attr]
    stop(app, httpd, stopping)


def placed_game(browser: Any, base: str, reading: str | None = None) -> Phone:
    """A host screen on a new game of the three players, every card placed: the point
    where collections are read (``reading``: the setup's choice, if not the default)."""
    host = Phone(browser, base, "host")
    host.page.goto(f"{base}/bite-night/new")
    for index, name in enumerate(PLAYERS):
        host.page.locator("input[name='player']").nth(index).fill(name)
    if reading is not None:
        host.page.check(f"input[name='reading'][value='{reading}']")
    host.page.click("#create")
    host.page.wait_for_selector("#stage-placing")
    for _ in PLAYERS:
        host.act("#stage-placing button.primary")
    return host


def test_the_overhead_camera_reads_a_collection(camera_server: str, browser: Any, photo) -> None:
    host = placed_game(browser, camera_server, reading="camera")
    host.page.wait_for_selector("#camera-card:not([hidden]) #camera-check p.check")
    # a function, as the other waits pass: a bare expression is polled with eval, which
    # the page's Content-Security-Policy refuses once the image is not there at once
    host.page.wait_for_function("() => document.getElementById('camera-img').naturalWidth > 0")
    checks = host.page.locator("#camera-check p.check")
    assert checks.count() == len(PLAYERS)
    shown = host.game(host.page.evaluate("document.body.dataset.gameId"))
    sees = host.page.evaluate(
        "(id) => Companion.api('GET', `/bite-night/${id}/camera`)", shown["id"]
    )
    detected = host.page.evaluate("() => Companion.api('GET', '/camera/detections')")
    assert sorted(t for seat in sees["seats"].values() for t in seat["seen"]) == sorted(
        tile["id"] for tile in detected["tiles"]
    )
    holder = next(name for name in PLAYERS if sees["seats"][name]["seen"])
    host.page.locator("#camera-card").scroll_into_view_if_needed()
    host.shot("19-camera-check")
    host.act(f"button[data-camera='{holder}']")
    after = host.game(shown["id"])["view"]["collections"][holder]
    assert sorted(after) == sorted(sees["seats"][holder]["seen"])
    host.page.wait_for_selector(f"#camera-check p.check.ok[data-player='{holder}']", timeout=6000)
    host.shot("20-camera-accepted")
    assert host.errors == [], host.errors
    host.context.close()


def test_a_photo_marks_the_tiles_the_camera_is_unsure_of(server: str, browser: Any, photo) -> None:
    """The reading's unsure tiles are drawn in orange and named, so a player checks those."""
    import json

    host = placed_game(browser, server)
    square = [[200, 300], [420, 300], [420, 520], [200, 520]]
    found = {
        "player": "Anna",
        "width": 960,
        "height": 1280,
        "tiles": [
            {"id": "red-monk", "center": [310, 410], "polygon": square, "unsure": False},
            {
                "id": "blue-coffin-heart",
                "center": [610, 410],
                "polygon": [[x + 300, y] for x, y in square],
                "unsure": True,
            },
        ],
    }
    host.page.route(
        "**/photo",
        lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(found)
        ),
    )
    host.page.set_input_files(".player[data-player='Anna'] input[type=file]", str(photo[0]))
    host.page.wait_for_selector("#review .tiles img.unsure")
    assert host.page.locator("#review svg polygon.unsure").count() == 1
    assert host.page.locator("#review .tiles img:not(.unsure)").count() == 1
    said = host.page.inner_text("#review p")
    assert tile_name("blue-coffin-heart") in said and tile_name("red-monk") not in said
    assert "You should hold 3" in said  # two tiles found of the round's three
    host.page.locator("#review").scroll_into_view_if_needed()
    host.shot("07b-photo-unsure")
    assert host.errors == [], host.errors
    host.context.close()


POINT_CARDS = [
    "color-set",
    *(f"motif:{m}" for m in ("vampire", "monk", "maiden", "coffin", "garlic")),
    *(f"color:{c}" for c in ("blue", "red", "yellow", "green", "purple")),
    *(f"pair:{m}" for m in ("vampire", "monk", "maiden", "coffin")),
]


def missing_tiles(view: dict[str, Any]) -> list[str]:
    """The players who hold fewer tiles than the round asks for."""
    expected = view["tiles_expected"]
    return [name for name, held in view["collections"].items() if len(held) < expected]


def test_the_last_cycle_ends_on_the_winner_and_the_full_pad(server: str, browser: Any) -> None:
    """Three cycles played quickly through the page's own API calls, then the end screen."""
    host = Phone(browser, server, "host")
    host.page.goto(f"{server}/")
    setup = {"players": PLAYERS}
    game_id = host.page.evaluate(
        "(setup) => Companion.api('POST', '/api/games', {kind: 'bite-night', setup})"
        ".then((game) => game.id)",
        setup,
    )
    host.page.goto(f"{server}/bite-night/{game_id}")
    for cycle in range(1, 4):
        view = host.game(game_id)["view"]
        while view["phase"] != "rendezvous":
            if view["phase"] == "placing":
                view = host.post(game_id, "place-card", player=view["next_to_place"])["view"]
            elif short := missing_tiles(view):
                name = short[0]
                tiles = [*view["collections"][name], *deal(view)]
                view = host.post(game_id, "set-collection", player=name, tiles=tiles)["view"]
            else:
                view = host.post(game_id, "end-round")["view"]
        for card in POINT_CARDS:
            view = host.post(game_id, "reveal-card", card=card)["view"]
        if cycle < 3:
            host.post(game_id, "next-cycle")
    shown = host.game(game_id)
    host.shows(shown["version"])
    winners = " & ".join(shown["view"]["winners"])
    assert winners in host.page.inner_text("#winner")
    assert host.page.locator("#score-pad tbody tr").count() == 4  # three cycles and the total
    host.shot("21-game-over")
    assert host.errors == [], host.errors
    host.context.close()
