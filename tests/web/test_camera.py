"""The table camera: the background loop, seat sectors and the camera routes.

The sources themselves are vision's (tests/vision/test_sources.py)."""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from flask import Flask

from companion.errors import CompanionError
from tests.web.conftest import post
from vision.results import FrameResult
from vision.sources import PhotoFolder
from web import create_app
from web.camera import CameraLoop, Sight, sector_of, tiles_by_seat
from web.config import DEFAULT_TILESET

PLAYERS = ["Anna", "Ben", "Cleo"]


@pytest.fixture(scope="module")
def photo_folder(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """One synthetic photo of six tiles on a plain table, and what the recogniser finds
    in it (the loop must pass that on unchanged; how well it reads is vision's test)."""
    from vision.imageio import read_image
    from vision.recogniser import Recogniser
    from vision.synth.scene import render_photo
    from vision.tileset import load_tileset

    tileset = load_tileset(DEFAULT_TILESET)
    photo = render_photo(tileset, np.random.default_rng(7), level=0, n_tiles=6, layout="spread")
    folder = tmp_path_factory.mktemp("camera")
    cv2.imwrite(str(folder / "table.jpg"), photo.image)
    found = Recogniser(tileset).detect(read_image(folder / "table.jpg"))
    return folder, sorted(tile.tile.id for tile in found.tiles)


@pytest.fixture
def camera_app(app: Flask, photo_folder: tuple[Path, list[str]]):  # type: ignore[no-untyped-def]
    """The test app with the folder as its camera; waits for the first frame."""
    with_camera = create_app(
        {**app.config, "CAMERA": photo_folder[0], "CAMERA_PHOTO_SECONDS": 0.05}
    )
    running = with_camera.extensions["companion_camera"]
    ends = time.monotonic() + 20
    while running.latest is None and time.monotonic() < ends:
        time.sleep(0.05)
    yield with_camera
    running.stop()


class Counted:
    """A recogniser stand-in that counts its calls (what it finds is vision's business)."""

    def __init__(self) -> None:
        self.calls = 0

    def detect(self, frame: np.ndarray) -> FrameResult:
        self.calls += 1
        return FrameResult(width=frame.shape[1], height=frame.shape[0])


def run_loop(running: CameraLoop, reads: int) -> None:
    running.start()
    ends = time.monotonic() + 10
    while running.reads < reads and time.monotonic() < ends:
        time.sleep(0.01)
    running.stop()


def test_a_picture_that_does_not_change_is_recognised_once(photo_folder) -> None:
    counted = Counted()
    source = PhotoFolder(photo_folder[0], fps=100)  # one photo, read again and again
    running = CameraLoop(source, counted.detect, lambda frame, _: frame, max_fps=100)
    run_loop(running, reads=8)
    assert running.reads >= 8
    assert counted.calls == running.recognitions == 1
    assert running.latest is not None and running.error is None


class Alternating:
    """A camera whose picture changes on every frame: black, white, black, ..."""

    name = "alternating"

    def __init__(self) -> None:
        self.count = 0

    def read(self) -> np.ndarray:
        self.count += 1
        return np.full((48, 64, 3), 255 * (self.count % 2), np.uint8)

    def close(self) -> None:
        pass


def test_a_changing_picture_is_recognised_no_faster_than_the_cap() -> None:
    counted = Counted()
    running = CameraLoop(
        Alternating(),
        counted.detect,
        lambda frame, _: frame,
        max_fps=100,
        recognitions_per_second=4,
    )
    began = time.monotonic()
    run_loop(running, reads=30)
    elapsed = time.monotonic() - began
    assert running.reads >= 30
    assert 1 <= counted.calls <= 1 + elapsed * 4
    assert counted.calls < running.reads / 2


def test_a_source_that_runs_out_is_opened_again(photo_folder) -> None:
    counted = Counted()
    opened: list[PhotoFolder] = []

    def reopen() -> PhotoFolder:
        opened.append(PhotoFolder(photo_folder[0], loop=False))
        return opened[-1]

    running = CameraLoop(
        reopen(), counted.detect, lambda frame, _: frame, reopen=reopen, max_fps=100
    )
    run_loop(running, reads=4)
    assert running.reads >= 4 and len(opened) >= 4


@pytest.mark.parametrize(
    ("point", "seat"), [((50, 95), 0), ((5, 50), 1), ((50, 5), 2), ((95, 50), 3)]
)
def test_seats_follow_clockwise_from_the_bottom_edge(point: tuple[int, int], seat: int) -> None:
    assert sector_of(point, 100, 100, 4) == seat


def test_tiles_are_sorted_into_the_zones_in_front_of_the_players() -> None:
    sight = Sight(
        at=0.0,
        width=100,
        height=100,
        frame_jpeg=b"",
        overlay_jpeg=b"",
        tiles=({"id": "red-monk", "center": [50, 95]}, {"id": "blue-coffin", "center": [50, 5]}),
    )
    assert tiles_by_seat(sight, ["Anna", "Ben"]) == {"Anna": ["red-monk"], "Ben": ["blue-coffin"]}


def test_without_a_camera_the_routes_say_so(client) -> None:
    answer = client.get("/camera/frame.jpg", headers={"Accept": "application/json"})
    assert answer.status_code == 404
    assert "no camera" in answer.get_json()["error"]


def test_the_loop_keeps_the_latest_frame_and_what_it_saw(camera_app: Flask, photo_folder) -> None:
    client = camera_app.test_client()
    seen = client.get("/camera/detections").get_json()
    assert sorted(tile["id"] for tile in seen["tiles"]) == photo_folder[1]
    with client.get("/camera/frame.jpg") as frame:
        assert frame.mimetype == "image/jpeg"
        image = cv2.imdecode(np.frombuffer(frame.data, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape[1] == 960


def test_a_phone_sees_the_camera_per_seat_against_the_collections(camera_app, photo_folder) -> None:
    client = camera_app.test_client()
    game = post(client, "/api/games", {"kind": "bite-night", "setup": {"players": PLAYERS}})
    game_id = game.get_json()["id"]
    shown = client.get(f"/bite-night/{game_id}/camera").get_json()
    seats = shown["seats"]
    assert sorted(tile for seat in seats.values() for tile in seat["seen"]) == photo_folder[1]
    assert all(seat["missing"] == [] and seat["extra"] == seat["seen"] for seat in seats.values())


def test_the_seat_check_names_the_tiles_the_camera_is_unsure_of(app: Flask, client) -> None:
    sure = {"id": "red-monk", "center": [50, 95], "unsure": False}
    doubtful = {"id": "blue-coffin", "center": [55, 95], "unsure": True}
    seen = Sight(0.0, 100, 100, b"", b"", tiles=(sure, doubtful))
    # a loop that is never started: what it saw last is all the route reads
    app.extensions["companion_camera"] = CameraLoop(
        Alternating(), Counted().detect, lambda frame, _: frame, latest=seen
    )
    game = post(client, "/api/games", {"kind": "bite-night", "setup": {"players": PLAYERS}})
    seats = client.get(f"/bite-night/{game.get_json()['id']}/camera").get_json()["seats"]
    assert seats["Anna"]["seen"] == ["red-monk", "blue-coffin"]
    assert seats["Anna"]["unsure"] == ["blue-coffin"]
    assert seats["Ben"]["unsure"] == seats["Cleo"]["unsure"] == []


def test_the_raw_frame_and_the_mjpeg_stream_are_served(camera_app: Flask) -> None:
    client = camera_app.test_client()
    with client.get("/camera/raw.jpg") as raw:
        assert raw.mimetype == "image/jpeg" and raw.data[:2] == b"\xff\xd8"
    stream = client.get("/camera/stream.mjpg", buffered=False)
    try:
        assert stream.mimetype == "multipart/x-mixed-replace"
        first = next(iter(stream.response))
        assert first.startswith(b"--frame\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8")
    finally:
        stream.close()


def test_before_the_first_frame_the_camera_says_it_is_not_ready(app: Flask, tmp_path) -> None:
    from web.camera import CameraLoop

    class Dark:
        def read(self) -> None:
            return None

        def close(self) -> None:
            pass

    app.extensions["companion_camera"] = CameraLoop(Dark(), detect=None, draw=None)
    answer = app.test_client().get("/camera/detections", headers={"Accept": "application/json"})
    assert answer.status_code == 503
    assert answer.get_json()["error"] == "the camera has not seen anything yet"


def test_the_camera_pace_has_documented_defaults_in_the_config(app: Flask) -> None:
    assert float(app.config["CAMERA_PHOTO_SECONDS"]) == 4.0
    assert float(app.config["CAMERA_RECOGNITIONS_PER_SECOND"]) == 1.0


def test_the_configured_recognition_pace_reaches_the_loop(app: Flask, photo_folder) -> None:
    configured = {"CAMERA": photo_folder[0], "CAMERA_RECOGNITIONS_PER_SECOND": "0.25"}
    with_camera = create_app({**app.config, **configured})
    running = with_camera.extensions["companion_camera"]
    running.stop()
    assert running.recognitions_per_second == 0.25


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("CAMERA_PHOTO_SECONDS", "0"),
        ("CAMERA_PHOTO_SECONDS", "soon"),
        ("CAMERA_RECOGNITIONS_PER_SECOND", -1),
        ("CAMERA_RECOGNITIONS_PER_SECOND", "nan"),
    ],
)
def test_a_camera_pace_that_is_no_number_stops_the_start_in_one_sentence(
    app: Flask, photo_folder, name: str, value: object
) -> None:
    with pytest.raises(CompanionError, match=f"^the setting {name} must be a number") as raised:
        create_app({**app.config, "CAMERA": photo_folder[0], name: value})
    assert str(raised.value).count(".") <= 1
