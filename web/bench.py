"""How quickly every phone learns of a change: ``python -m web.bench``.

Starts the real server (waitress, a fresh database in a temporary folder) on
127.0.0.1, opens one live stream per phone, then has the host post events (a tile added
to and taken from a collection, in turn). It prints, over all events, how long a post
takes and how long after the tap (the post leaving) each phone's stream delivered the
new version, as medians and 95th percentiles. The goal is "every phone within a second".
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import statistics
import tempfile
import threading
import time
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any


class Browser:
    """Just enough of a browser: one cookie jar, the page's CSRF token, JSON calls."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies = SimpleCookie()
        self.csrf = ""

    def request(self, method: str, path: str, body: object = None) -> dict:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Cookie": "; ".join(f"{k}={v.value}" for k, v in self.cookies.items())}
        data = None
        if body is not None:
            data = json.dumps(body)
            headers.update(
                {
                    "Content-Type": "application/json",
                    "X-CSRF-Token": self.csrf,
                    "Origin": f"http://127.0.0.1:{self.port}",
                }
            )
        connection.request(method, path, body=data, headers=headers)
        answer = connection.getresponse()
        for header in answer.headers.get_all("Set-Cookie") or []:
            self.cookies.load(header)
        text = answer.read().decode()
        connection.close()
        if path == "/":
            self.csrf = re.search(r'name="csrf-token" content="([^"]+)"', text).group(1)  # type: ignore[union-attr]
            return {}
        return json.loads(text)


def follow(port: int, game_id: str, seen: list[tuple[int, float]], ready: threading.Event) -> None:
    """A phone's live stream: note when each version arrives."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    connection.request("GET", f"/api/games/{game_id}/stream")
    answer = connection.getresponse()
    event = ""
    while True:
        line = answer.fp.readline().decode()
        if not line:
            return
        if line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:") and event == "version":
            seen.append((json.loads(line[5:])["version"], time.perf_counter()))
            ready.set()


def run_in_background(server: Any) -> threading.Event:
    """Run a waitress ``server`` in a daemon thread; gives the event to set just before
    closing it.

    Waitress closes its sockets from the thread that asks it to, while its own thread
    may be waiting in ``select`` on them: that wait then fails with a bad file
    descriptor, printed as the thread's error (and reported by pytest against whichever
    test runs next in its worker). Once the event is set, that error is the close
    itself."""
    closing = threading.Event()

    def run() -> None:
        try:
            server.run()
        except OSError:
            if not closing.is_set():
                raise

    threading.Thread(target=run, daemon=True).start()
    return closing


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m web.bench", description=__doc__)
    parser.add_argument("--phones", type=int, default=6)
    parser.add_argument("--events", type=int, default=60)
    args = parser.parse_args(argv)

    from waitress import create_server

    from web import create_app

    folder = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    app = create_app({"DATABASE": str(folder / "bench.sqlite3")})
    server = create_server(app, host="127.0.0.1", port=0, threads=48)
    closing = run_in_background(server)
    port = server.effective_port  # type: ignore[union-attr]

    host = Browser(port)
    host.request("GET", "/")
    setup = {"players": ["Anna", "Ben", "Cleo"]}
    game_id = host.request("POST", "/api/games", {"kind": "bite-night", "setup": setup})["id"]

    streams: list[list[tuple[int, float]]] = []
    for _ in range(args.phones):
        seen: list[tuple[int, float]] = []
        ready = threading.Event()
        threading.Thread(target=follow, args=(port, game_id, seen, ready), daemon=True).start()
        ready.wait(10)
        streams.append(seen)

    posts: list[float] = []
    delays: list[float] = []
    version = 0
    for n in range(args.events):
        kind = "add-tile" if n % 2 == 0 else "remove-tile"
        began = time.perf_counter()
        body = {"kind": kind, "data": {"player": "Anna", "tile": "red-monk"}, "version": version}
        version = host.request("POST", f"/api/games/{game_id}/events", body)["version"]
        returned = time.perf_counter()
        posts.append(returned - began)
        ends = returned + 5
        while time.perf_counter() < ends and not all(
            any(v == version for v, _ in seen) for seen in streams
        ):
            time.sleep(0.001)
        for seen in streams:
            arrived = next((at for v, at in seen if v == version), None)
            delays.append((arrived - began) if arrived is not None else float("inf"))
    closing.set()
    server.close()  # type: ignore[union-attr]

    lost = sum(1 for delay in delays if delay == float("inf"))
    shown = [delay for delay in delays if delay != float("inf")]
    print(f"phones {args.phones}, events {args.events}")
    print(
        f"post an event:       median {statistics.median(posts) * 1000:7.1f} ms, "
        f"p95 {percentile(posts, 0.95) * 1000:7.1f} ms"
    )
    print(
        f"every phone sees it: median {statistics.median(shown) * 1000:7.1f} ms, "
        f"p95 {percentile(shown, 0.95) * 1000:7.1f} ms, max {max(shown) * 1000:7.1f} ms"
    )
    print(f"updates not seen within 5 s: {lost}")
    return 0 if lost == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
