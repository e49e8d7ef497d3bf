"""A few turns of the moat and cellar game in real browsers: host screen and two phones.

Headless Chromium drives three separate browsers against a live server, so the live
stream, the seat cookies and the page's JavaScript are all exercised as at a table.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import web.empire
from tests.web.browsers import chromium, needs_chromium, serve
from web import create_app

playwright = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser, needs_chromium]
#: Set to a folder to keep a screenshot of each screen at the end (to look at the pages).
SHOTS = os.environ.get("COMPANION_SCREENSHOTS")


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setattr(web.empire, "draw_seed", lambda: 11)  # vampires 1, 2, 8; told 4, 7
    app = create_app(
        {
            "DATABASE": str(tmp_path / "games.sqlite3"),
            "SECRET_KEY": "browser-test",
            "GAME_PAGES": ("web.empire",),
            "STREAM_LIFETIME": 3.0,
            "STREAM_HEARTBEAT": 0.5,
        }
    )
    with serve(app) as base:
        yield base


@pytest.fixture
def browser() -> Iterator[object]:
    with chromium() as browser:
        yield browser


def phone(browser, width: int = 390):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": width, "height": 1400})
    context.set_default_timeout(8000)
    return context.new_page()


def test_two_nights_and_two_days_on_three_screens(server, browser):
    expect = playwright.expect
    host = phone(browser, 760)
    host.goto(f"{server}/empire/new")
    host.fill("#title", "Friday")
    host.fill("#vampire-name", "Vlad")
    host.fill("#human-name", "Mina")
    host.fill("#vampire-deck", "20")
    host.fill("#human-deck", "20")
    host.click("#start")
    host.wait_for_url(re.compile(r"/empire/[0-9a-f]{12}$"))
    expect(host.locator("#who")).to_contain_text("Vlad")
    code = host.locator("#room-code").text_content()

    vampire, human = phone(browser), phone(browser)
    for page, name in ((vampire, "Vlad"), (human, "Mina")):
        page.goto(f"{server}/r/{code}")
        page.click(f"#seats [data-seat='{name}']")
        page.wait_for_url(re.compile(r"/empire/[0-9a-f]{12}$"))

    # each phone shows its own secret, the host screen none
    expect(vampire.locator("#secret")).to_contain_text("Lady")
    expect(vampire.locator("#secret .chip")).to_have_count(3)
    expect(human.locator("#secret .chip")).to_have_count(2)
    expect(human.locator("#secret")).to_contain_text("Bishop")
    expect(host.locator("#secret")).to_be_hidden()
    expect(human.locator("#controls")).to_be_hidden()

    # night 1, step 1: two cards to the moat, then draw back up to eight
    vampire.click("[data-name='discard_to_moat'] button[aria-label$='+']")
    vampire.click("[data-name='discard_to_moat'] button[aria-label$='+']")
    vampire.click("#discard-and-draw")
    expect(vampire.locator("[data-seat='vampire'] [data-pile='moat'] dd")).to_have_text("2")
    expect(host.locator("[data-seat='vampire'] [data-pile='deck'] dd")).to_have_text("10")

    # step 2: reveal the Lord; step 3: hide the Monk, the Nun turns up from the city
    vampire.click("[data-reveal='2']")
    vampire.click("#confirm-yes")
    expect(vampire.locator("#step")).to_contain_text("Step 3")
    vampire.click("#action-hide")
    vampire.click("#pick-character [data-character='5']")
    vampire.click("#pick-refill [data-character='6']")
    vampire.click("#record")

    # day 1 on the human phone, which followed live: draw, then holy water on the Bishop
    expect(human.locator("#controls")).to_be_visible()
    expect(human.locator("#when")).to_have_text("Day 1")
    human.click("#discard-and-draw")
    human.click("#action-holy_water")
    human.click("#pick-character [data-character='4']")
    human.click("#record")
    expect(human.locator("#history li").first).to_contain_text("Bishop (4): human")

    # the host screen: the revealed Lord shows its vampire side in the castle; no other secret
    expect(host.locator("#when")).to_have_text("Night 2")
    expect(host.locator("#castle .chip.side-vampire")).to_have_text(re.compile("Lord"))
    expect(host.locator(".tag.vampire")).to_have_count(1)
    expect(human.locator(".tag.vampire")).to_have_count(1)
    expect(vampire.locator("#castle .tag.vampire")).to_have_count(1)

    # night 2: combat, the Nun dies and the Lady turns up; the vampire player played a card
    vampire.click("#discard-and-draw")
    vampire.click("#action-combat")
    vampire.click("#pick-killed [data-character='6']")
    vampire.click("#pick-refill [data-character='1']")
    vampire.click("[data-name='played_vampire'] button[aria-label$='+']")
    vampire.click("#record")
    expect(host.locator("#dead")).to_contain_text("Nun")
    expect(host.locator("[data-seat='vampire'] [data-pile='moat'] dd")).to_have_text("3")

    # day 2: holy water finds the Lady, and the human player attacks her at once
    human.click("#discard-and-draw")
    human.click("#action-holy_water")
    human.click("#pick-character [data-character='1']")
    human.click("#record")
    expect(human.locator("#step")).to_contain_text("found a vampire")
    expect(human.locator("#pick-killed .chip")).to_have_count(1)
    human.click("#pick-killed [data-character='1']")
    human.click("#pick-refill [data-character='3']")
    human.click("#record")
    expect(host.locator("#when")).to_have_text("Night 3")
    expect(host.locator("#dead .tag.vampire")).to_have_count(1)
    expect(host.locator("#dead")).to_contain_text("Lady")
    expect(host.locator(".tag.vampire")).to_have_count(2)

    if SHOTS:
        for page, name in ((host, "host"), (vampire, "vampire"), (human, "human")):
            page.screenshot(path=str(Path(SHOTS) / f"empire-{name}.png"), full_page=True)
