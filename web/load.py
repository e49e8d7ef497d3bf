"""``companion load``: a busy table of phones against a real ``companion serve``.

By default it starts its own server on a free loopback port with a temporary database
(and the demo camera, when the sample photos are there), creates Bite Night games of
four seats with a long log already (``--history``: every request replays the log, so
the figures are those of a late hour), and runs simulated phones for a set time, each
in its own thread with its own cookies, doing what the phone page does:

- it *polls* the game JSON (``GET /api/games/<id>``) a few times a second, and
- it *acts* about once a second: it adds or removes a tile of its own collection,
  naming the version it last saw, as the page does; a ``409 stale_state`` answer
  (another phone acted first) is the normal outcome of a race, counted apart and not
  as an error, and the phone looks again at once.

A camera viewer fetches the live overlay (``/camera/frame.jpg``) and the detections
(``/camera/detections``) at the camera's rate, as the host screen does, while the
server's own camera loop recognises frames in the background.

Everything is bounded: the run stops by itself after ``--seconds``, each request has a
timeout, and only loopback addresses are accepted, so it cannot be turned on someone
else's server. It prints p50/p95/p99/max latency per kind of request and the errors:
anything that is not the expected answer (a 5xx, an unexpected 4xx, a timeout, a refused
connection).
"""

from __future__ import annotations

import argparse
import http.client
import http.cookiejar
import json
import math
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from companion.bitenight.tiles import ALL_TILES
from companion.errors import CompanionError, UsageError

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
SEATS_PER_GAME = 4  # Bite Night's largest table (B1)
#: Tiles each seat toggles in and out of its collection: its own, so seats never clash.
TILES_PER_SEAT = len(ALL_TILES) // 8
REQUEST_TIMEOUT = 10.0
SERVER_START_TIMEOUT = 90.0
MAX_SECONDS = 600.0
#: The issue's goal for a busy table: every request answered within this, at p99.
GOAL_P99_MS = 100
_CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)"')
_SERVER_URL = re.compile(r"open (http://\S+) on the phones")
_VERSION_EVENT = re.compile(r'event: version\r?\ndata: \{"version": (\d+)')


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "load",
        help="simulate a table of busy phones against a table server and print latencies",
        description="Run simulated phones (polling and acting) and a camera viewer against "
        "a table server on this machine for a set time, then print p50/p95/p99 latency per "
        "kind of request and the error counts. By default it starts its own server on a "
        "free loopback port with a temporary database.",
    )
    parser.add_argument(
        "--url", help="an already running server on this machine (default: start one)"
    )
    parser.add_argument("--phones", type=int, default=8, help="simulated phones (default 8)")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to run (default 20)")
    parser.add_argument(
        "--camera-fps",
        type=float,
        default=10.0,
        help="camera frames per second the viewer fetches (default 10; 0: none)",
    )
    parser.add_argument(
        "--poll-hz", type=float, default=2.0, help="game polls per second per phone (default 2)"
    )
    parser.add_argument(
        "--act-hz", type=float, default=1.0, help="actions per second per phone (default 1)"
    )
    parser.add_argument(
        "--camera",
        metavar="N|PATH",
        help="camera source for the server it starts (default: the demo's sample photos)",
    )
    parser.add_argument(
        "--history",
        type=int,
        default=300,
        help="events already in each game's log, as late in an evening (default 300)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(run=run)


# -- measuring ---------------------------------------------------------------------------


@dataclass
class Tally:
    """Latencies (seconds) and outcomes of one kind of request, shared by all threads."""

    latencies: list[float] = field(default_factory=list)
    stale: int = 0
    errors: int = 0


@dataclass
class Figures:
    kinds: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    problems: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    #: What the camera loop did: recognition time of each new frame the viewer saw.
    camera_frames: dict[float, float] = field(default_factory=dict)
    #: Live updates: when each confirmed event was sent (game, version it made), and what
    #: each phone's stream announced (game, [(when, version)]).
    sent: list[tuple[str, int, float]] = field(default_factory=list)
    seen: list[tuple[str, list[tuple[float, int]]]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, kind: str, seconds: float, outcome: str, problem: str = "") -> None:
        with self.lock:
            tally = self.kinds[kind]
            tally.latencies.append(seconds)
            if outcome == "stale":
                tally.stale += 1
            elif outcome == "error":
                tally.errors += 1
                self.problems[f"{kind}: {problem}"] += 1

    @property
    def errors(self) -> int:
        return sum(tally.errors for tally in self.kinds.values())

    def summary(self) -> dict[str, Any]:
        kinds = {}
        for kind, tally in sorted(self.kinds.items()):
            ordered = sorted(tally.latencies)
            kinds[kind] = {
                "requests": len(ordered),
                "p50_ms": _ms(percentile(ordered, 50)),
                "p95_ms": _ms(percentile(ordered, 95)),
                "p99_ms": _ms(percentile(ordered, 99)),
                "max_ms": _ms(ordered[-1] if ordered else math.nan),
                "stale": tally.stale,
                "errors": tally.errors,
            }
        everything = sorted(s for tally in self.kinds.values() for s in tally.latencies)
        return {
            "kinds": kinds,
            "all": {
                "requests": len(everything),
                "p50_ms": _ms(percentile(everything, 50)),
                "p95_ms": _ms(percentile(everything, 95)),
                "p99_ms": _ms(percentile(everything, 99)),
                "max_ms": _ms(everything[-1] if everything else math.nan),
            },
            "errors": self.errors,
            "problems": dict(sorted(self.problems.items())),
            "live_update": self.live_update(),
            "camera_frames": len(self.camera_frames),
            "recognition_p50_ms": _ms(percentile(sorted(self.camera_frames.values()), 50)),
        }

    def live_update(self) -> dict[str, Any]:
        """From a phone sending an event to every other phone's stream announcing it."""
        delays = []
        for game_id, sightings in self.seen:
            for game, version, sent_at in self.sent:
                if game != game_id:
                    continue
                first = next(
                    (at for at, shown in sightings if shown >= version and at >= sent_at), None
                )
                if first is not None:
                    delays.append(first - sent_at)
        ordered = sorted(delays)
        return {
            "count": len(ordered),
            "p50_ms": _ms(percentile(ordered, 50)),
            "p99_ms": _ms(percentile(ordered, 99)),
            "max_ms": _ms(ordered[-1] if ordered else math.nan),
        }


def percentile(ordered: list[float], p: float) -> float:
    """The nearest-rank percentile of sorted values (NaN when there are none)."""
    if not ordered:
        return math.nan
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def _ms(seconds: float) -> float | None:
    return None if math.isnan(seconds) else round(seconds * 1000, 1)


# -- one browser -------------------------------------------------------------------------


class Browser:
    """A phone or the host screen: its own cookies and CSRF token, like a real browser."""

    def __init__(self, base: str, figures: Figures) -> None:
        self.base = base.rstrip("/")
        self.figures = figures
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        self.csrf = ""

    def open_page(self) -> None:
        """Load the start page, as a phone does first; it carries the CSRF token."""
        status, body = self.request("page", "GET", "/")
        found = _CSRF_META.search(body.decode("utf-8", "replace"))
        if status != 200 or not found:
            raise CompanionError(f"the start page of {self.base} did not load (status {status})")
        self.csrf = found.group(1)

    def request(
        self, kind: str, method: str, path: str, body: Any = None, expect: tuple[int, ...] = (200,)
    ) -> tuple[int, bytes]:
        """Send one request, time it, and record its outcome; returns status and body."""
        headers = {"Accept": "application/json"}
        data = None
        if method == "POST":
            headers |= {"Content-Type": "application/json", "X-CSRF-Token": self.csrf}
            headers["Origin"] = self.base
            data = json.dumps(body if body is not None else {}).encode()
        sent = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        began = time.perf_counter()
        try:
            status, payload = self._fetch(sent)
        except (OSError, http.client.HTTPException) as error:  # refused, reset, cut off
            self.figures.record(kind, time.perf_counter() - began, "error", type(error).__name__)
            return 0, b""
        seconds = time.perf_counter() - began
        if status in expect:
            self.figures.record(kind, seconds, "ok")
        elif status == 409 and _reason(payload) == "stale_state":
            self.figures.record(kind, seconds, "stale")
        else:
            self.figures.record(kind, seconds, "error", f"HTTP {status} {_reason(payload)}")
        return status, payload

    def _fetch(self, sent: urllib.request.Request) -> tuple[int, bytes]:
        try:
            with self.opener.open(sent, timeout=REQUEST_TIMEOUT) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:  # a 4xx or 5xx answer, body and all
            return error.code, error.read()

    def post_json(self, kind: str, path: str, body: Any, expect: int = 200) -> dict[str, Any]:
        status, payload = self.request(kind, "POST", path, body, expect=(expect,))
        if status != expect:
            raise CompanionError(f"{kind} failed with HTTP {status}: {_reason(payload)}")
        return json.loads(payload)


def _reason(payload: bytes) -> str:
    try:
        answer = json.loads(payload)
    except ValueError:
        return "not json"
    return str(answer.get("reason", "")) if isinstance(answer, dict) else ""


# -- the table ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    game_id: str
    name: str
    tiles: tuple[str, ...]  # the tiles this seat toggles; no other seat uses them


def set_tables(
    base: str, phones: int, history: int, figures: Figures
) -> list[tuple[Browser, Seat]]:
    """Create as many four-seat games as the phones need and seat every phone.

    Each game starts with ``history`` events already in its log, as at the end of an
    evening (every request replays the log, so a fresh game would flatter the figures):
    it is imported as an exported game whose host added and removed a tile that no
    phone toggles later.
    """
    host = Browser(base, figures)
    host.open_page()
    seated: list[tuple[Browser, Seat]] = []
    tiles = [tile.id for tile in ALL_TILES]
    for first in range(0, phones, SEATS_PER_GAME):
        players = [f"Phone-{n + 1}" for n in range(first, first + SEATS_PER_GAME)]
        setup = {"players": players, "deck": "basic", "reading": "photo"}
        exported = {
            "format": "companion-game",
            "version": 1,
            "kind": "bite-night",
            "title": f"Load test {first // SEATS_PER_GAME + 1}",
            "setup": setup,
            "events": past_events(players[0], tiles[-1], history),
        }
        game = host.post_json("import game", "/api/games/import", exported, expect=201)
        for offset, name in enumerate(players[: phones - first]):
            phone = Browser(base, figures)
            phone.open_page()
            phone.post_json("join", f"/api/games/{game['id']}/seats/{name}", {})
            own = tiles[offset * TILES_PER_SEAT : (offset + 1) * TILES_PER_SEAT]
            seated.append((phone, Seat(game["id"], name, tuple(own))))
    return seated


def past_events(player: str, tile: str, count: int) -> list[dict[str, Any]]:
    """``count`` logged events: the host adding and taking back one tile of a player."""
    kinds = ("add-tile", "remove-tile")
    return [
        {"kind": kinds[n % 2], "data": {"player": player, "tile": tile}, "actor": "host"}
        for n in range(count)
    ]


def play_phone(
    phone: Browser, seat: Seat, until: float, poll_hz: float, act_hz: float, number: int
) -> None:
    """Poll the game and toggle own tiles until ``until``, as a player's page would."""
    path = f"/api/games/{seat.game_id}"
    version, held = 0, set[str]()
    turn = number  # which of the seat's tiles to toggle next
    next_poll = next_act = time.monotonic() + (number % 10) / 10  # spread the phones out
    while (now := time.monotonic()) < until:
        if now >= next_poll:
            next_poll = now + 1 / poll_hz
            status, payload = phone.request("poll game", "GET", path)
            if status == 200:
                shown = json.loads(payload)
                version, held = shown["version"], set(shown["view"]["collections"][seat.name])
        if act_hz > 0 and now >= next_act:
            next_act = now + 1 / act_hz
            tile = seat.tiles[turn % len(seat.tiles)]
            turn += 1
            kind = "remove-tile" if tile in held else "add-tile"
            body = {"kind": kind, "data": {"player": seat.name, "tile": tile}, "version": version}
            status, payload = phone.request("act", "POST", f"{path}/events", body)
            if status == 200:  # the page shows the answer at once
                shown = json.loads(payload)
                version, held = shown["version"], set(shown["view"]["collections"][seat.name])
                with phone.figures.lock:
                    phone.figures.sent.append((seat.game_id, version, now))
            elif status == 409:  # someone acted first: the page looks again at once
                next_poll = now
        time.sleep(max(0.0, min(next_poll, next_act) - time.monotonic()))


def follow_stream(base: str, game_id: str, until: float, figures: Figures) -> None:
    """The page's live stream (server-sent events), held open for the whole run.

    It reads the raw socket so that it can stop at ``until`` whatever the server sends;
    the server ends a stream after a few minutes and the page reconnects, as here, at
    the address (with its lease) of a fresh fetch of the game.
    """
    parts = urlsplit(base)
    sightings: list[tuple[float, int]] = []
    with figures.lock:
        figures.seen.append((game_id, sightings))
    while time.monotonic() < until:
        began = time.perf_counter()
        try:
            with urllib.request.urlopen(f"{base.rstrip('/')}/api/games/{game_id}") as answer:
                address = json.load(answer)["stream"]
            request = (
                f"GET {address} HTTP/1.0\r\nHost: {parts.netloc}\r\n"
                "Accept: text/event-stream\r\nConnection: close\r\n\r\n"
            ).encode()
            with socket.create_connection((parts.hostname, parts.port or 80), timeout=5) as sock:
                sock.sendall(request)
                sock.settimeout(0.25)
                buffer, answered = "", False
                while time.monotonic() < until:
                    try:
                        chunk = sock.recv(65536)
                    except TimeoutError:
                        continue
                    if not chunk:
                        break  # the server ended this stream: connect again
                    if not answered:
                        answered = True
                        figures.record("stream connect", time.perf_counter() - began, "ok")
                    buffer += chunk.decode("utf-8", "replace")
                    *blocks, buffer = buffer.split("\n\n")
                    for block in blocks:
                        found = _VERSION_EVENT.search(block)
                        if found:
                            sightings.append((time.monotonic(), int(found.group(1))))
        except OSError as error:
            figures.record(
                "stream connect", time.perf_counter() - began, "error", type(error).__name__
            )
            time.sleep(1)  # as the page's ``retry: 1000``


def watch_camera(viewer: Browser, until: float, fps: float) -> None:
    """The host screen's live view: the overlay and the detections at the camera's rate."""
    next_frame = time.monotonic()
    while (now := time.monotonic()) < until:
        if now >= next_frame:
            next_frame += 1 / fps
            viewer.request("camera frame", "GET", "/camera/frame.jpg")
            status, payload = viewer.request("camera detections", "GET", "/camera/detections")
            if status == 200:
                sight = json.loads(payload)
                with viewer.figures.lock:
                    viewer.figures.camera_frames[sight["at"]] = sight["seconds"]
        time.sleep(max(0.0, next_frame - time.monotonic()))


def has_camera(base: str) -> bool:
    """Whether the server runs a camera that has seen a frame (waits a little for one)."""
    viewer = Browser(base, Figures())
    ends = time.monotonic() + 30
    while time.monotonic() < ends:
        status, _ = viewer.request("camera", "GET", "/camera/detections")
        if status == 200:
            return True
        if status != 503:  # 404: this server has no camera at all
            return False
        time.sleep(0.2)
    return False


# -- the server --------------------------------------------------------------------------


class ServerProcess:
    """``companion serve`` in a child process on a free loopback port.

    Its output goes to a file (``log``) where the address it picked is read, so a
    chatty server can never block on a full pipe. ``kill`` is SIGKILL: no cleanup at
    all, which is what the crash tests need.
    """

    def __init__(self, database: Path, log: Path, camera: str | None = None) -> None:
        self.command = [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1"]
        self.command += ["--port", "0", "--db", str(database)]
        if camera is not None:
            self.command += ["--camera", camera]
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = SERVER_START_TIMEOUT) -> str:
        """Start the server and return its address once it listens."""
        offset = self.log.stat().st_size if self.log.exists() else 0  # a restart appends
        with open(self.log, "ab") as output:
            self.process = subprocess.Popen(
                self.command, stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
            )
        ends = time.monotonic() + timeout
        while time.monotonic() < ends:
            found = _SERVER_URL.search(self._output(offset))
            if found:
                return found.group(1).rstrip("/")
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.kill()
        lines = self._output(offset).strip().splitlines() or ["no output"]
        raise CompanionError(f"the table server did not start: {lines[-1]}")

    def _output(self, offset: int) -> str:
        with open(self.log, "rb") as output:
            output.seek(offset)
            return output.read().decode("utf-8", "replace")

    def cpu_seconds(self) -> float | None:
        """CPU time the server has used so far (Linux's /proc; None elsewhere)."""
        if self.process is None:
            return None
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()
        self.process = None

    def kill(self) -> None:
        """SIGKILL: the process gets no chance to finish anything."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@contextmanager
def spawned_server(camera: str | None) -> Iterator[tuple[str, ServerProcess | None]]:
    """``companion serve`` on a free loopback port with a temporary database."""
    with tempfile.TemporaryDirectory(prefix="companion-load-") as folder:
        server = ServerProcess(Path(folder) / "load.sqlite3", Path(folder) / "server.log", camera)
        try:
            yield server.start(), server
        finally:
            server.stop()


# -- the command -------------------------------------------------------------------------


def check_arguments(args: argparse.Namespace) -> None:
    if not 1 <= args.phones <= 64:
        raise UsageError(f"--phones must be between 1 and 64, not {args.phones}")
    if not 0 < args.seconds <= MAX_SECONDS:
        raise UsageError(f"--seconds must be more than 0 and at most {MAX_SECONDS:.0f}")
    if not 0 <= args.camera_fps <= 30:
        raise UsageError(f"--camera-fps must be between 0 and 30, not {args.camera_fps}")
    if not 0 <= args.history <= 5000:
        raise UsageError(f"--history must be between 0 and 5000, not {args.history}")
    if not 0 < args.poll_hz <= 20 or not 0 <= args.act_hz <= 20:
        raise UsageError("--poll-hz must be more than 0 and --act-hz at least 0, both at most 20")
    if args.url is not None:
        parts = urlsplit(args.url)
        if parts.scheme != "http" or parts.hostname not in LOOPBACK_HOSTS:
            raise UsageError("--url must be an http:// address on this machine (loopback only)")


def measure(base: str, args: argparse.Namespace) -> tuple[Figures, bool]:
    """Seat the phones, then run them (and the camera viewer) until the time is up."""
    figures = Figures()
    seated = set_tables(base, args.phones, args.history, figures)
    camera = args.camera_fps > 0 and has_camera(base)
    until = time.monotonic() + args.seconds
    threads = [
        threading.Thread(
            target=play_phone,
            args=(phone, seat, until, args.poll_hz, args.act_hz, number),
            name=f"phone-{number}",
        )
        for number, (phone, seat) in enumerate(seated)
    ]
    threads += [
        threading.Thread(target=follow_stream, args=(base, seat.game_id, until, figures))
        for _, seat in seated
    ]
    if camera:
        viewer = Browser(base, figures)
        threads.append(threading.Thread(target=watch_camera, args=(viewer, until, args.camera_fps)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return figures, camera


def report(summary: dict[str, Any], args: argparse.Namespace, base: str, camera: bool) -> str:
    lines = [
        f"{args.phones} phones for {args.seconds:g} s against {base} "
        f"(games of {args.history} past events; poll {args.poll_hz:g}/s, act {args.act_hz:g}/s "
        "each; camera viewer "
        + (f"{args.camera_fps:g} fps)" if camera else "off: the server has no camera)"),
        f"{'request':<20}{'count':>7}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}"
        f"{'stale':>7}{'errors':>8}",
    ]
    rows = [*summary["kinds"].items(), ("all", {**summary["all"], "stale": "", "errors": ""})]
    for kind, row in rows:
        lines.append(
            f"{kind:<20}{row['requests']:>7}{_cell(row['p50_ms'])}{_cell(row['p95_ms'])}"
            f"{_cell(row['p99_ms'])}{_cell(row['max_ms'])}{row['stale']:>7}{row['errors']:>8}"
        )
    live = summary["live_update"]
    if live["count"]:
        lines.append(
            f"live updates: {live['count']} seen on the phones' live streams, from the tap "
            f"p50 {_cell(live['p50_ms']).strip()} ms, p99 {_cell(live['p99_ms']).strip()} ms, "
            f"max {_cell(live['max_ms']).strip()} ms"
        )
    if camera:
        lines.append(
            f"camera loop: {summary['camera_frames']} new frames seen in {args.seconds:g} s, "
            f"recognition {_cell(summary['recognition_p50_ms']).strip()} ms per frame (median)"
        )
    cpu = summary.get("server_cpu_seconds")
    if cpu is not None:
        share = 100 * summary["server_cpu_share"]
        lines.append(f"server CPU: {cpu:.1f} s during the run ({share:.0f}% of one core)")
    p99 = summary["all"]["p99_ms"]
    if p99 is not None:
        verdict = "within" if p99 < GOAL_P99_MS else "over"
        lines.append(f"p99 of all requests {p99:.1f} ms: {verdict} the {GOAL_P99_MS} ms goal")
    lines.append(f"errors: {summary['errors']}")
    lines += [f"  {count} × {problem}" for problem, count in summary["problems"].items()]
    return "\n".join(lines)


def _cell(value: float | None) -> str:
    return f"{'-' if value is None else f'{value:.1f}':>9}"


def run(args: argparse.Namespace) -> int:
    check_arguments(args)
    with spawned_server(args.camera) if args.url is None else _given(args.url) as (base, server):
        cpu_before, began = server.cpu_seconds() if server else None, time.monotonic()
        figures, camera = measure(base, args)
        cpu_after, ended = server.cpu_seconds() if server else None, time.monotonic()
    summary = figures.summary()
    if cpu_before is not None and cpu_after is not None:
        summary["server_cpu_seconds"] = round(cpu_after - cpu_before, 2)
        summary["server_cpu_share"] = round((cpu_after - cpu_before) / (ended - began), 2)
    if args.json:
        print(json.dumps({"url": base, "camera": camera, **summary}, indent=1))
    else:
        print(report(summary, args, base, camera))
    return 0 if figures.errors == 0 else 1


@contextmanager
def _given(url: str) -> Iterator[tuple[str, ServerProcess | None]]:
    yield url.rstrip("/"), None
