"""The table camera: a background loop that reads the camera and keeps what it saw.

A request never waits for recognition: the loop (one thread per server) reads the
configured source (:func:`vision.sources.open_source`: a webcam, a video file, a folder
of photos), runs the recogniser with the table calibration, and keeps the latest frame,
its overlay and its detections in memory. Pages fetch JPEG snapshots (or an MJPEG
stream) and the detections as JSON; a game page sorts the detections into seat zones
(:mod:`web.seatzones`) and offers them to each player as his collection.

Recognition takes most of a second, so the loop looks again only when the picture has
changed (a small grey thumbnail differs from the one last recognised) and no more often
than ``CAMERA_RECOGNITIONS_PER_SECOND``: a table nobody touches costs no core.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import cv2
import numpy as np
from flask import Blueprint, Flask, Response, current_app, jsonify

from companion.errors import CompanionError
from vision.sources import FrameSource, open_source
from web.errors import Refusal
from web.texts import say

bp = Blueprint("camera", __name__, url_prefix="/camera")

#: Most frames per second the loop reads (recognition sets a lower pace).
MAX_FPS = 10.0
#: Most recognitions per second of a loop made without the app's configuration
#: (the app passes ``CAMERA_RECOGNITIONS_PER_SECOND``, see :class:`web.config.Config`).
RECOGNITIONS_PER_SECOND = 1.0
#: Width of the grey thumbnail compared between frames, and the mean difference
#: (grey levels, 0-255) above which a frame counts as changed: webcam noise stays
#: well below it, a tile laid down or taken away is far above it.
THUMBNAIL_WIDTH = 64
CHANGE_LEVEL = 2.0
#: Width of the JPEGs sent to phones (the overlay is drawn at full size first).
SNAPSHOT_WIDTH = 960
MJPEG_LIFETIME = 60.0


class CameraError(CompanionError):
    """A camera frame that cannot be passed on."""


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


def thumbnail(frame: np.ndarray, width: int = THUMBNAIL_WIDTH) -> np.ndarray:
    """A small grey copy of a frame: cheap to compare, blind to sensor noise."""
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    height = max(1, round(grey.shape[0] * width / grey.shape[1]))
    return cv2.resize(grey, (width, height), interpolation=cv2.INTER_AREA).astype(np.float32)


def changed(before: np.ndarray | None, after: np.ndarray, level: float = CHANGE_LEVEL) -> bool:
    """Whether two thumbnails differ enough to be worth recognising again."""
    if before is None or before.shape != after.shape:
        return True
    return float(np.mean(np.abs(after - before))) > level


@dataclass
class CameraLoop:
    """The background thread: read, recognise what changed, keep the latest :class:`Sight`.

    ``reopen`` opens the source again when it runs out (a video file plays in a loop,
    a webcam that dropped out is retried).
    """

    source: FrameSource
    detect: Callable[[np.ndarray], Any]  # (BGR frame) -> vision.results.FrameResult
    draw: Callable[[np.ndarray, Any], np.ndarray]  # (frame, result) -> BGR overlay
    reopen: Callable[[], FrameSource] | None = None
    max_fps: float = MAX_FPS
    recognitions_per_second: float = RECOGNITIONS_PER_SECOND
    latest: Sight | None = None
    error: str | None = None
    #: Frames read and frames recognised, for ``companion load`` and the tests.
    reads: int = 0
    recognitions: int = 0
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
        gap = 1.0 / self.recognitions_per_second if self.recognitions_per_second > 0 else 0.0
        recognised: np.ndarray | None = None  # thumbnail of the frame last recognised
        next_look = 0.0
        while not self._stop.is_set():
            began = time.monotonic()
            try:
                frame = self._read()
                if frame is not None and began >= next_look:
                    small = thumbnail(frame)
                    if changed(recognised, small):
                        self.latest = self.look(frame)
                        self.recognitions += 1
                        recognised, next_look = small, began + gap
                self.error = None
            except Exception as error:  # the loop must outlive one bad frame
                self.error = f"{type(error).__name__}: {error}"
            self._stop.wait(max(pause - (time.monotonic() - began), 0.01))

    def _read(self) -> np.ndarray | None:
        frame = self.source.read()
        if frame is None and self.reopen is not None:
            self.source.close()
            self.source = self.reopen()
            frame = self.source.read()
        if frame is not None:
            self.reads += 1
        return frame

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


# -- seats without zones ---------------------------------------------------------------

Point = tuple[float, float]


def sector_of(point: Sequence[float], width: int, height: int, seats: int) -> int:
    """Which seat's sector a point lies in: the guess used while no seat zones are known.

    The table is split into equal sectors around the image centre, seat 0 at the bottom
    edge (the side of the host screen) and the others following clockwise as seen from
    above. Seat zones (:mod:`web.seatzones`) replace this guess.
    """
    dx, dy = point[0] - width / 2, point[1] - height / 2
    # angle 0 = straight down in the image, growing clockwise as seen from above
    angle = math.atan2(-dx, dy) % (2 * math.pi)
    return int((angle + math.pi / seats) / (2 * math.pi / seats)) % seats


def sectors(sight: Sight, players: Sequence[str]) -> Callable[[Point], str | None]:
    """The player whose sector holds a point (every point is someone's)."""
    return lambda point: players[sector_of(point, sight.width, sight.height, len(players))]


def tiles_by_seat(
    sight: Sight, players: Sequence[str], seat_of: Callable[[Point], str | None] | None = None
) -> dict[str, list[str]]:
    """The tile ids the camera sees in front of each player (``seat_of``: sectors by default).

    A tile in no player's zone (the box, the middle of the table) is nobody's.
    """
    seat_of = seat_of or sectors(sight, players)
    seen: dict[str, list[str]] = {name: [] for name in players}
    for tile in sight.tiles:
        player = seat_of((float(tile["center"][0]), float(tile["center"][1])))
        if player in seen:
            seen[player].append(tile["id"])
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


def setting(
    config: Mapping[str, Any], name: str, *, above: float | None = None, least: float | None = None
) -> float:
    """A number of the configuration (an environment variable arrives as text).

    A value that is not a number, or out of range, stops the server at start with one
    sentence naming the setting, rather than a camera that silently never looks.
    """
    value = config[name]
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    fits = math.isfinite(number) and (above is None or number > above)
    fits = fits and (least is None or number >= least)
    if not fits:
        bound = f"> {above:g}" if above is not None else f">= {least:g}"
        raise CompanionError(say("refuse.setting", name=name, bound=bound, value=repr(value)))
    return number


def init_app(app: Flask) -> None:
    """Start the camera loop when the configuration names a source.

    ``CAMERA`` is what :func:`vision.sources.open_source` takes (a webcam number, a
    folder of photos, a video file); ``TABLE`` the table calibration JSON
    (:class:`vision.correction.CameraCorrection`) applied to every frame.
    """
    from web import seatzones

    seatzones.init_app(app)
    spec = app.config.get("CAMERA")
    if spec is None:
        return
    from vision.overlay import draw_overlay
    from vision.recogniser import Recogniser
    from vision.tileset import load_tileset

    photo_fps = 1.0 / setting(app.config, "CAMERA_PHOTO_SECONDS", above=0.0)
    reopen = partial(open_source, spec if isinstance(spec, int) else str(spec), fps=photo_fps)
    recogniser = Recogniser(load_tileset(app.config["TILESET"]))
    running = CameraLoop(
        reopen(),
        partial(recogniser.detect, correction=seatzones.table_correction(app)),
        draw_overlay,
        reopen=reopen,
        recognitions_per_second=setting(app.config, "CAMERA_RECOGNITIONS_PER_SECOND", least=0.0),
    )
    running.start()
    app.extensions["companion_camera"] = running
    app.extensions["companion_camera_stop"] = running.stop
