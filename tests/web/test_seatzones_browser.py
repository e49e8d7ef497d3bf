"""The host draws the seat zones over the camera frame in headless Chromium.

Three seats, each a quadrilateral tapped corner by corner over the demo photo; saved,
read back after a reload, and shown in artefacts/screenshots/22-seat-zones.png.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.browsers import chromium, needs_chromium, serve, shot
from web import create_app
from web.config import DEFAULT_PHOTOS

pytest.importorskip("playwright.sync_api")

TABLET = {"viewport": {"width": 1024, "height": 900}, "has_touch": True}
PLAYERS = ["Anna", "Ben", "Cleo"]
#: Each seat's corners as fractions of the shown frame: Anna along the bottom edge,
#: Ben on the left, Cleo on the right.
CORNERS = {
    "Anna": [(0.05, 0.62), (0.95, 0.62), (0.95, 0.97), (0.05, 0.97)],
    "Ben": [(0.03, 0.05), (0.48, 0.05), (0.48, 0.58), (0.03, 0.58)],
    "Cleo": [(0.52, 0.05), (0.97, 0.05), (0.97, 0.58), (0.52, 0.58)],
}

pytestmark = [pytest.mark.browser, needs_chromium]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A server whose camera shows one sample photo of the table."""
    folder = tmp_path / "camera"
    folder.mkdir()
    shutil.copy(DEFAULT_PHOTOS / "table-01.jpg", folder)
    app = create_app(
        {"DATABASE": str(tmp_path / "games.sqlite3"), "CAMERA": folder, "STREAM_LIFETIME": 5}
    )
    running = app.extensions["companion_camera"]
    ends = time.monotonic() + 30
    while running.latest is None and time.monotonic() < ends:
        time.sleep(0.05)
    with serve(app) as base:
        yield base
        app.extensions["companion_changes"].close()  # end the live streams first
    running.stop()


def test_the_host_draws_each_seat_zone_over_the_camera_frame(server: str) -> None:
    with chromium() as browser:
        page = browser.new_context(**TABLET).new_page()
        page.goto(f"{server}/")
        game_id = page.evaluate(
            """async (players) => {
                const csrf = document.querySelector('meta[name="csrf-token"]').content;
                const answer = await fetch("/api/games", {method: "POST",
                    headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
                    body: JSON.stringify({kind: "bite-night", setup: {players}})});
                return (await answer.json()).id;
            }""",
            PLAYERS,
        )
        page.goto(f"{server}/g/{game_id}")
        page.locator("#hostbar #seating").get_by_role("link").click()
        page.locator("#seating").filter(has_text="No seat zones yet").wait_for()
        canvas = page.locator("#zone-canvas")
        box = canvas.bounding_box()
        assert box is not None
        for seat, corners in CORNERS.items():
            page.click(f".zone-seat[data-seat='{seat}']")
            for fx, fy in corners:
                canvas.click(position={"x": fx * box["width"], "y": fy * box["height"]})
        page.click("#zone-save")
        page.locator("#seating").filter(has_text="by the seat zones").wait_for()
        page.reload()
        page.locator(".zone-seat[data-seat='Cleo']").filter(has_text="4 corners").wait_for()
        shot(page, "22-seat-zones")
        zones = page.evaluate("fetch('/camera/zones/zones.json').then((r) => r.json())")
        frame = page.evaluate("fetch('/camera/detections').then((r) => r.json())")
    assert [zone["seat"] for zone in zones["zones"]] == PLAYERS  # saved by name
    for zone in zones["zones"]:
        for (x, y), (fx, fy) in zip(zone["polygon"], CORNERS[zone["seat"]], strict=True):
            assert x == pytest.approx(fx * frame["width"], abs=frame["width"] / 100)
            assert y == pytest.approx(fy * frame["height"], abs=frame["height"] / 100)
