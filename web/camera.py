"""The table camera: a background loop that reads the camera and keeps what it saw.

A request never waits for recognition: the loop (one thread per server) reads the
configured source at a bounded rate, runs the recogniser, and keeps the latest
frame, its overlay and its detections in memory. Pages fetch JPEG snapshots (or an
MJPEG stream) and the detections as JSON; a game page sorts the detections into seat
zones and offers them to each player as his collection.

Sources: a webcam by number, a video file (played in a loop), or a folder of photos
(the demo's virtual camera: one photo after another, each held for a few seconds).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
from flask import Blueprint, Flask, Response, current_app, jsonify

from companion.errors import CompanionError
from web.errors import Refusal
from web.texts import say

bp = Blueprint("camera", __name__, url_prefix="/camera")

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
#: Most frames per second the loop looks at (recognition usually sets a lower pace).
MAX_FPS = 10.0
#: How long the virtual camera shows each photo of a folder.
PHOTO_SECONDS = 4.0
#: Width of the JPEGs sent to phones (the overlay is drawn at full size first).
SNAPSHOT_WIDTH = 960
MJPEG_LIFETIME = 60.0


class CameraError(CompanionError):
    """The camera source cannot be opened or read."""


class Source(Protocol):
    def read(self) -> np.ndarray | None:
        """The next BGR frame, or None when none is ready yet."""
        ...

    def close(self) -> None: ...


class PhotoFolder:
    """A virtual camera: the photos of a folder, in name order, each for a while."""

    def __init__(self, folder: Path, seconds: float = PHOTO_SECONDS) -> None:
        from vision.imageio import ImageError, read_image

        self._read, self._error = read_image, ImageError
        self.photos = sorted(p for p in folder.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)
        if not self.photos:
            raise CameraError(f"the folder {folder} holds no photos to play as a camera")
        self.seconds = seconds
        self._started = time.monotonic()
        self._shown: tuple[int, np.ndarray] | None = None

    def read(self) -> np.ndarray | None:
        index = int((time.monotonic() - self._started) / self.seconds) % len(self.photos)
        if self._shown is None or self._shown[0] != index:
            try:
                self._shown = (index, self._read(self.photos[index]))
            except self._error:
                return None  # a bad photo in the folder is skipped, not fatal
        return self._shown[1]

    def close(self) -> None:
        self._shown = None


class Capture:
    """A webcam (by number) or a video file (looped) through OpenCV."""

    def __init__(self, spec: int | Path) -> None:
        self.spec = spec
        self.capture = cv2.VideoCapture(spec if isinstance(spec, int) else str(spec))
        if not self.capture.isOpened():
            what = f"webcam {spec}" if isinstance(spec, int) else f"the video {spec}"
            raise CameraError(f"{what} cannot be opened")

    def read(self) -> np.ndarray | None:
        ok, frame = self.capture.read()
        if not ok and not isinstance(self.spec, int):
            self.capture.set(cv2.CAP_PROP_POS_FRAMES, 0)  # a video plays in a loop
            ok, frame = self.capture.read()
        return frame if ok else None

    def close(self) -> None:
        self.capture.release()


def open_source(spec: int | str | Path) -> Source:
    if isinstance(spec, int):
        return Capture(spec)
    path = Path(spec)
    if path.is_dir():
        return PhotoFolder(path)
    if path.is_file():
        return Capture(path)
    raise CameraError(f"the camera source '{spec}' is neither a webcam number nor a file")


@dataclass(frozen=True)
class Sight:
    """What the camera saw last: JPEGs for people, detections for pages."""

    at: float
    width: int
    height: int
    frame_jpeg: bytes
    overlay_jpeg: bytes
    tiles: tuple[dict[str, Any], ...] = ()
    tokens: tuple[dict[str, Any], ...] = ()
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "at": self.at,
            "width": self.width,
            "height": self.height,
            "tiles": list(self.tiles),
            "tokens": list(self.tokens),
            "seconds": round(self.seconds, 3),
        }


@dataclass
class CameraLoop:
    """The background thread: read, recognise, keep the latest :class:`Sight`."""

    source: Source
    detect: Any  # (BGR frame) -> vision.results.FrameResult
    draw: Any  # (frame, result) -> BGR overlay
    max_fps: float = MAX_FPS
    latest: Sight | None = None
    error: str | None = None
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="camera-loop", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop after the frame being looked at (native code must not be cut off at exit)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=60)
        self.source.close()

    def _run(self) -> None:
        pause = 1.0 / self.max_fps
        seen: np.ndarray | None = None
        while not self._stop.is_set():
            began = time.monotonic()
            try:
                frame = self.source.read()
                # A photo folder hands back the same frame for seconds: looking at it again
                # would only take a core away from the phones' requests (companion load).
                if frame is not None and frame is not seen:
                    self.latest = self.look(frame)
                    self.error = None
                    seen = frame
            except Exception as error:  # the loop must outlive one bad frame
                self.error = f"{type(error).__name__}: {error}"
            self._stop.wait(max(pause - (time.monotonic() - began), 0.01))

    def look(self, frame: np.ndarray) -> Sight:
        began = time.perf_counter()
        result = self.detect(frame)
        overlay = self.draw(frame, result)
        from web.recognition import detections_json

        shown = detections_json(result)
        return Sight(
            at=time.time(),
            width=result.width,
            height=result.height,
            frame_jpeg=_jpeg(frame),
            overlay_jpeg=_jpeg(overlay),
            tiles=tuple(shown["tiles"]),
            tokens=tuple(token.to_json() for token in result.tokens),
            seconds=time.perf_counter() - began,
        )


def _jpeg(image: np.ndarray, width: int = SNAPSHOT_WIDTH) -> bytes:
    height = round(image.shape[0] * width / image.shape[1])
    if image.shape[1] > width:
        image = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    if not ok:
        raise CameraError("a camera frame could not be encoded as JPEG")
    return data.tobytes()


# -- seat zones ------------------------------------------------------------------------


def sector_of(point: Sequence[float], width: int, height: int, seats: int) -> int:
    """Which seat's zone a point lies in, without a table calibration.

    The table is split into equal sectors around the image centre, seat 0 at the bottom
    edge (the side of the host screen) and the others following clockwise as seen from
    above. A calibrated table (its seat polygons) replaces this guess.
    """
    dx, dy = point[0] - width / 2, point[1] - height / 2
    # angle 0 = straight down in the image, growing clockwise as seen from above
    angle = math.atan2(-dx, dy) % (2 * math.pi)
    return int((angle + math.pi / seats) / (2 * math.pi / seats)) % seats


def tiles_by_seat(sight: Sight, players: Sequence[str]) -> dict[str, list[str]]:
    """The tile ids the camera sees in front of each player."""
    seen: dict[str, list[str]] = {name: [] for name in players}
    for tile in sight.tiles:
        seat = sector_of(tile["center"], sight.width, sight.height, len(players))
        seen[players[seat]].append(tile["id"])
    return seen


# -- routes ----------------------------------------------------------------------------


def loop() -> CameraLoop:
    running = current_app.extensions.get("companion_camera")
    if running is None:
        raise Refusal(say("refuse.no_camera"), 404, "camera")
    return running


def latest() -> Sight:
    running = loop()
    if running.latest is None:
        reason = f" ({running.error})" if running.error else ""
        raise Refusal(say("refuse.camera_blind", reason=reason), 503, "camera")
    return running.latest


@bp.get("/frame.jpg")
def frame() -> Response:
    return _jpeg_response(latest().overlay_jpeg)


@bp.get("/raw.jpg")
def raw() -> Response:
    return _jpeg_response(latest().frame_jpeg)


@bp.get("/detections")
def detections() -> Response:
    return jsonify(latest().to_json())


@bp.get("/stream.mjpg")
def mjpeg() -> Response:
    """The overlay as an MJPEG stream for a big screen, ending after a minute."""
    running = loop()

    def frames() -> Iterator[bytes]:
        sent = 0.0
        ends = time.monotonic() + MJPEG_LIFETIME
        while time.monotonic() < ends:
            sight = running.latest
            if sight is not None and sight.at != sent:
                sent = sight.at
                yield b"--frame\r\nContent-Type: image/jpeg\r\n\r\n" + sight.overlay_jpeg + b"\r\n"
            time.sleep(1.0 / MAX_FPS)

    return Response(frames(), mimetype="multipart/x-mixed-replace; boundary=frame")


def _jpeg_response(data: bytes) -> Response:
    return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


def init_app(app: Flask) -> None:
    """Start the camera loop when the configuration names a source."""
    spec = app.config.get("CAMERA")
    if spec is None:
        return
    from vision.overlay import draw_overlay
    from vision.recogniser import Recogniser
    from vision.tileset import load_tileset

    source = open_source(spec)
    recogniser = Recogniser(load_tileset(app.config["TILESET"]))
    running = CameraLoop(source, recogniser.detect, draw_overlay)
    running.start()
    app.extensions["companion_camera"] = running
    app.extensions["companion_camera_stop"] = running.stop
