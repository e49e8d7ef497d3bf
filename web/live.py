"""Live updates: every phone learns of every change within a second.

A page keeps one server-sent event stream open per game. The stream sends the game's
version (the number of logged events) and a count of seat changes (phones joining or
being freed) whenever either changes; the page then refetches the view JSON. Sending
only the version keeps the stream cheap and the view's permissions in one place (the
view endpoint).

Within one server process a change wakes every waiting stream at once (``announce``);
streams also look at the database every second, so a change made by another process
(a second server on the same file, a CLI) is seen too. A stream ends after
``STREAM_LIFETIME`` seconds and the browser reconnects by itself, so a phone that lost
Wi-Fi for a minute simply reconnects and refetches: nothing is held only in memory.

A stream also holds one of the server's few threads, so a page nobody looks at must
let go of it. The browser reconnects a stream by itself, forever, even from a tab left
open in the background; so the stream's address carries a *lease* (:func:`lease_for`),
signed by the server into the game JSON the page fetches, and a stream is served only
within ``STREAM_LEASE`` seconds of that fetch (and ends when its lease does). A page
that is shown fetches the game again and follows the new address; a hidden page does
not, so its stream ends and stays closed until the page is shown again.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from companion.core.store import Store, UnknownGame


def lease_for(key: bytes, game_id: str, now: float) -> str:
    """A lease on a game's live stream, issued at ``now`` (seconds): when, and a signature."""
    issued = str(round(now * 1000))
    return f"{issued}.{_signature(key, game_id, issued)}"


def lease_age(key: bytes, game_id: str, lease: str, now: float) -> float | None:
    """Seconds since the lease was issued; None for a lease this server did not sign
    for this game (made up, altered, or another game's)."""
    issued, _, signature = lease.partition(".")
    if not issued.isdigit() or len(issued) > 16:
        return None
    if not hmac.compare_digest(signature, _signature(key, game_id, issued)):
        return None
    return now - int(issued) / 1000


def _signature(key: bytes, game_id: str, issued: str) -> str:
    message = f"stream lease\n{game_id}\n{issued}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()[:32]


class Changes:
    """A doorbell rung after every stored event, so waiting streams wake at once.

    It also carries *cues*: moments every phone should act on together but that are not
    game state (the "1-2-3" before a grab). A cue is kept in memory only; a phone that
    connects later does not replay it.
    """

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._cues: dict[str, tuple[int, str]] = {}
        self.closed = False

    def close(self) -> None:
        """The server is stopping: every stream ends now (browsers reconnect later)."""
        with self._condition:
            self.closed = True
            self._condition.notify_all()

    def announce(self) -> None:
        with self._condition:
            self._condition.notify_all()

    def cue(self, game_id: str, name: str) -> int:
        """Ring a cue for every phone following the game; returns its serial number."""
        with self._condition:
            serial = self._cues.get(game_id, (0, ""))[0] + 1
            self._cues[game_id] = (serial, name)
            self._condition.notify_all()
            return serial

    def last_cue(self, game_id: str) -> tuple[int, str]:
        with self._condition:
            return self._cues.get(game_id, (0, ""))

    def wait(self, timeout: float) -> None:
        with self._condition:
            self._condition.wait(timeout)


class StreamLimit:
    """How many live streams each device holds open, so one cannot take every thread.

    A stream holds one of the server's threads for minutes; a device opening dozens
    (a stranger on the Wi-Fi, a page gone wild) would leave none for the phones'
    requests: sixty open streams stopped a real server answering at all. A page needs
    one per game, a few tabs a few more. The server's own machine (loopback: the host
    screen, tests, ``companion load``) is not limited.
    """

    LOOPBACK = frozenset({"127.0.0.1", "::1"})

    def __init__(self, per_device: int) -> None:
        self.per_device = per_device
        self._open: dict[str, int] = {}
        self._lock = threading.Lock()

    def hold(self, address: str, events: Iterator[str]) -> Iterable[str] | None:
        """``events`` counted against ``address`` until closed; None when it holds too many."""
        if address in self.LOOPBACK:
            return events
        with self._lock:
            if self._open.get(address, 0) >= self.per_device:
                return None
            self._open[address] = self._open.get(address, 0) + 1
        return _Held(events, lambda: self._release(address))

    def _release(self, address: str) -> None:
        with self._lock:
            left = self._open.get(address, 1) - 1
            if left > 0:
                self._open[address] = left
            else:
                self._open.pop(address, None)


class _Held:
    """A stream that gives its place back when the server closes it, even unstarted."""

    def __init__(self, events: Iterator[str], release: Callable[[], None]) -> None:
        self.events = events
        self._release: Callable[[], None] | None = release

    def __iter__(self) -> Iterator[str]:
        return self.events

    def close(self) -> None:
        close = getattr(self.events, "close", None)
        if close is not None:
            close()
        if self._release is not None:
            self._release, release = None, self._release
            release()


def version_stream(
    database: str | Path,
    game_id: str,
    changes: Changes,
    *,
    lifetime: float,
    heartbeat: float,
    poll: float = 1.0,
) -> Iterator[str]:
    """Server-sent events: ``version`` on every change, ``ping`` as a heartbeat.

    The heartbeat is an event, not a comment, so that the page can tell a live stream
    from one silently cut by the Wi-Fi and reconnect.
    """
    store = Store(database)
    try:
        yield "retry: 1000\n\n"
        last: tuple[int, int] | None = None
        cue_seen = changes.last_cue(game_id)[0]
        last_sent = time.monotonic()
        ends = last_sent + lifetime
        while time.monotonic() < ends and not changes.closed:
            try:
                version = store.version(game_id)
            except UnknownGame:
                yield "event: gone\ndata: {}\n\n"
                return
            seats = seat_changes(store, game_id)
            now = time.monotonic()
            if (version, seats) != last:
                last, last_sent = (version, seats), now
                payload = json.dumps({"version": version, "seats": seats})
                yield f"event: version\ndata: {payload}\n\n"
            serial, cue = changes.last_cue(game_id)
            if serial != cue_seen:
                cue_seen, last_sent = serial, now
                yield f"event: cue\ndata: {json.dumps({'name': cue, 'serial': serial})}\n\n"
            elif now - last_sent >= heartbeat:
                last_sent = now
                yield "event: ping\ndata: {}\n\n"
            changes.wait(min(poll, heartbeat))
    finally:
        store.close()


def seat_changes(store: Store, game_id: str) -> int:
    """How many times a seat of the game was taken or freed (grows with every change)."""
    row = store.connection.execute(
        "SELECT COUNT(*) + COUNT(revoked_at) FROM seat_tokens WHERE game_id = ?", (game_id,)
    ).fetchone()
    return int(row[0])
