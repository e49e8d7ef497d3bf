"""SQLite storage of games: one database file, each event appended in its own transaction.

The store keeps only the setup and the event log of each game; the state is always
rebuilt by replay. Appending checks the event against the replayed state inside a
``BEGIN IMMEDIATE`` transaction, so two phones acting at once are serialised, a stale
action is refused, and a killed process leaves either the whole event or none of it.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from companion.core.events import Event, Game, RuleError, Rules
from companion.errors import CompanionError
from companion.games import rules_for

EXPORT_FORMAT = "companion-game"
EXPORT_VERSION = 1


class UnknownGame(CompanionError):
    """No game with that id is stored."""


@dataclass(frozen=True)
class GameSummary:
    """A stored game as the list of past games shows it."""

    id: str
    kind: str
    title: str
    created_at: float
    events: int


@dataclass
class StoredGame:
    """A game loaded from the store, with the facts the store keeps beside it."""

    id: str
    kind: str
    title: str
    created_at: float
    game: Game[Any]


class ReplayCache:
    """Games already replayed in this process, so a request need not replay a whole log.

    A web server loads the game on every request; replaying a few hundred events each
    time is most of a request's cost. The log is append-only, so a cached game is still
    right as long as its version is not ahead of the stored log: the store replays only
    the events added since (by this or another process) and never trusts the cache for
    anything else. Entries are copies in both directions, so a caller's pushes never
    leak into the cache.
    """

    def __init__(self, capacity: int = 64) -> None:
        self.capacity = capacity
        self._games: OrderedDict[tuple[str, str], Game[Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str], rules: Rules[Any], version: int) -> Game[Any] | None:
        with self._lock:
            game = self._games.get(key)
            if game is None or game.rules is not rules or game.version > version:
                return None
            self._games.move_to_end(key)
            return game.copy()

    def put(self, key: tuple[str, str], game: Game[Any]) -> None:
        with self._lock:
            self._games[key] = game.copy()
            self._games.move_to_end(key)
            while len(self._games) > self.capacity:
                self._games.popitem(last=False)

    def drop(self, key: tuple[str, str]) -> None:
        with self._lock:
            self._games.pop(key, None)


#: The process-wide cache every Store on a file database shares.
REPLAY_CACHE = ReplayCache()


def connect(path: str | Path) -> sqlite3.Connection:
    """Open (and if needed create) the database with the settings crash safety needs."""
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(
        str(path), timeout=15, isolation_level=None, check_same_thread=False
    )
    connection.row_factory = sqlite3.Row
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("PRAGMA foreign_keys=ON")
    connection.executescript(resources.files("companion.core").joinpath("schema.sql").read_text())
    return connection


class Store:
    """Games in one SQLite file. Open one Store per thread (or per web request)."""

    def __init__(
        self,
        path: str | Path,
        resolve_rules: Callable[[str], Rules[Any]] = rules_for,
    ) -> None:
        self.path = path
        self.connection = connect(path)
        self._resolve_rules = resolve_rules
        # An in-memory database is private to its connection: nothing to share.
        self._cache_name = None if str(path) == ":memory:" else str(Path(path).resolve())

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction that takes the lock at once, so checks and writes agree."""
        self.connection.execute("BEGIN IMMEDIATE")
        try:
            yield self.connection
        except BaseException:
            self.connection.execute("ROLLBACK")
            raise
        else:
            self.connection.execute("COMMIT")

    # -- games -------------------------------------------------------------------------

    def create_game(self, kind: str, setup: Mapping[str, Any], title: str = "") -> str:
        """Store a new game after checking that its rules accept the setup."""
        rules = self._resolve_rules(kind)
        Game(rules, setup)  # raises InvalidSetup and stores nothing
        game_id = uuid.uuid4().hex[:12]
        with self.transaction() as db:
            db.execute(
                "INSERT INTO games (id, kind, title, setup, created_at) VALUES (?, ?, ?, ?, ?)",
                (game_id, kind, title, _encode(setup), time.time()),
            )
        return game_id

    def load(self, game_id: str) -> StoredGame:
        """The game with this id, its state rebuilt by replaying its log.

        Only the events logged since this process last saw the game are replayed
        (:class:`ReplayCache`); the result is the same as a replay from the start.
        """
        row = self._game_row(game_id)
        rules = self._resolve_rules(row["kind"])
        game = self._cached(game_id, rules)
        if game is None:
            game = Game(rules, json.loads(row["setup"]))
        for text in self._event_texts(game_id, since=game.version):
            game.push(Event.from_json(json.loads(text)))
        self._remember(game_id, game)
        return StoredGame(
            id=row["id"],
            kind=row["kind"],
            title=row["title"],
            created_at=row["created_at"],
            game=game,
        )

    def play(self, game_id: str, event: Event, expected_version: int | None = None) -> StoredGame:
        """Check ``event`` against the stored game and append it, all in one transaction.

        Raises a RuleError (illegal, stale, nothing to undo) and stores nothing when the
        rules refuse.
        """
        with self.transaction() as db:
            stored = self.load(game_id)
            game = stored.game
            game.push(event, expected_version)  # refuses a stale or illegal event
            db.execute(
                "INSERT INTO events (game_id, seq, event, at) VALUES (?, ?, ?, ?)",
                (game_id, game.version - 1, event.encode(), time.time()),
            )
        self._remember(game_id, game)
        return stored

    def version(self, game_id: str) -> int:
        """How many events the game's log holds: a cheap way to see whether it changed."""
        self._game_row(game_id)
        return self._event_count(game_id)

    def list_games(self, kind: str | None = None) -> list[GameSummary]:
        """Stored games, newest first."""
        query = (
            "SELECT g.id, g.kind, g.title, g.created_at, COUNT(e.seq) AS events "
            "FROM games g LEFT JOIN events e ON e.game_id = g.id "
            + ("WHERE g.kind = ? " if kind else "")
            + "GROUP BY g.id ORDER BY g.created_at DESC, g.id"
        )
        rows = self.connection.execute(query, (kind,) if kind else ()).fetchall()
        return [
            GameSummary(r["id"], r["kind"], r["title"], r["created_at"], r["events"]) for r in rows
        ]

    def delete_game(self, game_id: str) -> None:
        with self.transaction() as db:
            self._game_row(game_id)
            db.execute("DELETE FROM events WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))
        if self._cache_name:
            REPLAY_CACHE.drop((self._cache_name, game_id))

    # -- export and import -------------------------------------------------------------

    def export_game(self, game_id: str) -> dict[str, Any]:
        """The whole game as plain JSON: enough to rebuild it anywhere."""
        row = self._game_row(game_id)
        return {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "kind": row["kind"],
            "title": row["title"],
            "created_at": row["created_at"],
            "setup": json.loads(row["setup"]),
            "events": [json.loads(text) for text in self._event_texts(game_id)],
        }

    def import_game(self, exported: Any) -> str:
        """Store an exported game under a new id after replaying every event through the rules."""
        if not isinstance(exported, Mapping) or exported.get("format") != EXPORT_FORMAT:
            raise CompanionError("this file is not an exported companion game")
        if exported.get("version") != EXPORT_VERSION:
            raise CompanionError(
                f"exported game version {exported.get('version')!r} is not supported"
            )
        kind, setup, raw_events = (
            exported.get("kind"),
            exported.get("setup"),
            exported.get("events"),
        )
        title = exported.get("title", "")
        if (
            not isinstance(kind, str)
            or not isinstance(setup, Mapping)
            or not isinstance(raw_events, list)
        ):
            raise CompanionError("an exported game needs 'kind', 'setup' and a list of 'events'")
        if not isinstance(title, str):
            raise CompanionError("an exported game's title must be a string")
        events = [Event.from_json(raw) for raw in raw_events]
        try:
            Game(self._resolve_rules(kind), setup, events)
        except RuleError as error:
            raise CompanionError(f"the exported game does not replay: {error}") from None
        game_id = uuid.uuid4().hex[:12]
        now = time.time()
        with self.transaction() as db:
            db.execute(
                "INSERT INTO games (id, kind, title, setup, created_at) VALUES (?, ?, ?, ?, ?)",
                (game_id, kind, title, _encode(setup), now),
            )
            db.executemany(
                "INSERT INTO events (game_id, seq, event, at) VALUES (?, ?, ?, ?)",
                [(game_id, seq, event.encode(), now) for seq, event in enumerate(events)],
            )
        return game_id

    # -- rows --------------------------------------------------------------------------

    def _game_row(self, game_id: str) -> sqlite3.Row:
        row = self.connection.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGame(f"there is no game with id '{game_id}'")
        return row

    def _event_texts(self, game_id: str, since: int = 0) -> list[str]:
        rows = self.connection.execute(
            "SELECT event FROM events WHERE game_id = ? AND seq >= ? ORDER BY seq",
            (game_id, since),
        ).fetchall()
        return [row[0] for row in rows]

    def _cached(self, game_id: str, rules: Rules[Any]) -> Game[Any] | None:
        if self._cache_name is None:
            return None
        # The game's row was read by the caller: only the log's length is needed here.
        return REPLAY_CACHE.get((self._cache_name, game_id), rules, self._event_count(game_id))

    def _event_count(self, game_id: str) -> int:
        row = self.connection.execute(
            "SELECT COUNT(*) FROM events WHERE game_id = ?", (game_id,)
        ).fetchone()
        return int(row[0])

    def _remember(self, game_id: str, game: Game[Any]) -> None:
        if self._cache_name is not None:
            REPLAY_CACHE.put((self._cache_name, game_id), game)


def _encode(value: Any) -> str:
    try:
        return json.dumps(value, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise CompanionError(f"this setup cannot be stored as JSON: {error}") from None
