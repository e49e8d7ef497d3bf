"""A short game of Middernacht in headless Chromium at a phone's size.

The host screen creates a seeded six-player game and plays four players; Anna and Ben
play on phones. Anna lays a garlic, Ben finds it and Anna's phone guides her gift, then
Anna, who (through the test's own copy of the referee) knows every lid, lays her whole
row in one turn and wins. The test's copy only chooses the taps; every check reads the
pages.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from companion.core.events import Game
from companion.middernacht import moves
from companion.middernacht.board import Grave
from companion.middernacht.rules import RULES
from companion.middernacht.state import RAT, Phase, Table
from tests.web.browsers import chromium, needs_chromium, serve
from web import create_app

pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser, needs_chromium]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
PLAYERS = ["Anna", "Ben", "Cleo", "Dirk", "Eva", "Finn"]
SEED = 2026


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    app: Flask = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "games.sqlite3"),
            "SECRET_KEY": "test-key",
            "GAME_PAGES": ("web.middernacht",),
            "STREAM_LIFETIME": 5,
        }
    )
    with serve(app) as base:
        yield base


def empty_graves(state: Table) -> list[Grave]:
    return [
        Grave(g)
        for g, content in enumerate(state.contents)
        if content is None and g not in state.lidless and state.lids[g] != RAT
    ]


def matching(state: Table) -> tuple[Grave, str]:
    """An empty grave whose lid matches an end of the current row, and that end."""
    player = state.current
    for grave in empty_graves(state):
        ends = player.matching_ends(str(state.lids[grave.index]))
        if ends:
            return grave, ends[0].value
    raise AssertionError(f"no empty grave matches {player.name}'s ends")


def test_a_short_game_on_phones(server: str, tmp_path: Path) -> None:
    referee = Game(RULES, {"players": PLAYERS, "mode": "seeded", "seed": SEED})
    with chromium() as browser:
        host = browser.new_context(**PHONE).new_page()
        host.goto(f"{server}/middernacht/new")
        for n, name in enumerate(PLAYERS, start=1):
            host.fill(f"#player-{n}", name)
        host.check('input[name="mode"][value="seeded"]')
        host.fill("#seed", str(SEED))
        host.click("#start")
        host.wait_for_url(re.compile(r".*/middernacht/[0-9a-f]+$"))
        game_url = host.url
        code = host.locator("#room-code").inner_text()

        phones = {}
        for name in ("Anna", "Ben"):
            phone = browser.new_context(**PHONE).new_page()
            phone.goto(f"{server}/r/{code}")
            phone.click(f'#seats .seat[data-seat="{name}"]')
            phone.wait_for_url(game_url)
            phone.locator("#me").filter(has_text=f"You are {name}.").wait_for()
            phones[name] = phone
        anna, ben = phones["Anna"], phones["Ben"]

        def tap(page, grave: Grave) -> None:  # type: ignore[no-untyped-def]
            page.locator(f'[data-grave="{grave.name}"]:not([disabled])').click()

        # Anna turns a lid that matches neither end and lays a garlic.
        state = referee.state
        garlic_grave = next(
            g
            for g in empty_graves(state)
            if not state.current.matching_ends(str(state.lids[g.index]))
        )
        tap(anna, garlic_grave)
        anna.click("#garlic")
        referee.push(moves.turn_lid("Anna", garlic_grave.name))
        referee.push(moves.place_garlic("Anna"))

        # Ben turns that lid: Anna's garlic. Anna's phone asks which end she gives.
        tap(ben, garlic_grave)
        referee.push(moves.turn_lid("Ben", garlic_grave.name))
        left, right = referee.state.players[0].row[0], referee.state.players[0].row[-1]
        anna.get_by_text("Anna gives Ben one of the end vampires: which one?").wait_for()
        assert [
            " ".join(text.split()) for text in anna.locator("[data-end]").all_inner_texts()
        ] == [
            f"{left} {left} (left end)",
            f"{right} {right} (right end)",
        ]
        anna.screenshot(path=str(tmp_path / "middernacht-gift.png"), full_page=True)
        anna.click('[data-end="left"]')
        referee.push(moves.give_vampire("Anna", "left"))
        ben.locator('[data-player="Ben"]').filter(has_text="11 vampires").wait_for()

        # The host screen plays Cleo to Finn: each turns a lid and lets it be.
        for name in PLAYERS[2:]:
            state = referee.state
            grave = empty_graves(state)[-1]
            tap(host, grave)
            referee.push(moves.turn_lid(name, grave.name))
            if referee.state.phase in (Phase.PLACE, Phase.GARLIC):
                host.click("#pass")
                referee.push(moves.pass_(name))
            host.locator("#who").filter(has_text=f"{referee.state.current.name}'s turn").wait_for()

        # Anna lays her whole row in one turn.
        anna.locator("#who").filter(has_text="Anna's turn").wait_for()
        while referee.state.phase is not Phase.OVER:
            grave, end = matching(referee.state)
            tap(anna, grave)
            anna.click(f'[data-end="{end}"]')
            referee.push(moves.turn_lid("Anna", grave.name))
            referee.push(moves.place_vampire("Anna", end))
            left_in_row = len(referee.state.players[0].row)
            anna.locator(
                f'[data-player="Anna"] .count:text-is("{left_in_row} vampires")'
            ).wait_for()
        for page in (anna, ben, host):
            page.locator("#who").filter(has_text="Anna wins!").wait_for()
        assert anna.locator("#controls").is_hidden()
        assert anna.locator('[data-player="Anna"] .count').inner_text() == "0 vampires"
        anna.screenshot(path=str(tmp_path / "middernacht-won.png"), full_page=True)


def test_a_table_mode_turn_asks_for_the_lid_and_the_new_end(server: str) -> None:
    """With real lids the player says what he turned, and what his new end shows."""
    with chromium() as browser:
        host = browser.new_context(**PHONE).new_page()
        host.goto(f"{server}/middernacht/new")
        host.fill("#player-1", "Anna")
        host.fill("#player-2", "Ben")
        host.click("#start")
        host.wait_for_url(re.compile(r".*/middernacht/[0-9a-f]+$"))
        code = host.locator("#room-code").inner_text()
        ben = browser.new_context(**PHONE).new_page()
        ben.goto(f"{server}/r/{code}")
        ben.click('#seats .seat[data-seat="Ben"]')
        ben.locator("#ends-Ben").wait_for()
        # The host is half-way through Anna's ends when Ben's phone sends his: the
        # host's page updates, and Anna's half-made choice stays.
        host.select_option("#left-Anna", "red")
        ben.select_option("#left-Ben", "green")
        ben.select_option("#right-Ben", "white")
        ben.click("#ends-Ben")
        host.locator("#news").filter(has_text="Ben's ends show green and white.").wait_for()
        host.select_option("#right-Anna", "blue")
        host.click("#ends-Anna")
        host.locator("#news").filter(has_text="Every row is laid: Anna begins.").wait_for()
        assert host.locator('[data-player="Anna"] .chip').all_inner_texts() == ["red", "blue"]
        host.locator('[data-grave="C4"]:not([disabled])').click()
        host.get_by_text("Which lid did you turn on C4?").wait_for()
        host.click('[data-lid="blue"]')
        host.locator('[data-end="right"]').wait_for()
        host.click('[data-end="right"]')  # no new end chosen yet: refused, nothing changes
        host.locator(".toast.error").filter(
            has_text="the newly turned end must be one of"
        ).wait_for()
        host.locator("#controls select").select_option("yellow")
        host.click('[data-end="right"]')
        anna = host.locator('[data-player="Anna"]')
        anna.filter(has_text="29 vampires").wait_for()
        assert anna.locator(".chip").all_inner_texts() == ["red", "yellow"]
        assert host.locator('[data-grave="C4"]').is_enabled()  # Anna's turn goes on
