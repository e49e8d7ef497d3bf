"""Rooms, seats and the tokens that prove who a phone is.

A game created on the host screen gets a *room*: a short code that phones type (or
scan as a QR code) and a host token that the host screen keeps in its cookie. A phone
joining the room takes a free seat and receives a seat token. Tokens are random
(``secrets.token_urlsafe``) and only their SHA-256 is stored, so the database alone
cannot impersonate anyone; a token is revoked by the host (a lost phone), which frees
its seat for another phone.

These tables live in the same SQLite file as the games but are not game state: losing
them would only make phones join again.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import time
from dataclasses import dataclass
from importlib import resources

from companion.errors import CompanionError
from web.texts import say

#: Letters of room codes: no I, O, 0 or 1, which are misread at arm's length.
ROOM_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
ROOM_CODE_LENGTH = 4
TOKEN_BYTES = 32


class SeatError(CompanionError):
    """A seat cannot be taken or a token is not valid."""


class SeatTaken(SeatError):
    """Another phone holds this seat."""


@dataclass(frozen=True)
class Room:
    game_id: str
    code: str


@dataclass(frozen=True)
class NewRoom:
    """A room just opened, with the host token in clear (shown once, kept in a cookie)."""

    room: Room
    host_token: str


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def normalise_code(code: str) -> str:
    """A typed room code as stored: upper case, spaces and dashes dropped."""
    return "".join(ch for ch in code.upper() if ch not in " -")


def install(connection: sqlite3.Connection) -> None:
    """Create the web tables in an open database if they are missing."""
    connection.executescript(resources.files("web").joinpath("schema.sql").read_text())


class SeatBook:
    """The web tables of one database connection (one per request, like the Store)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.db = connection

    # -- settings ----------------------------------------------------------------------

    def setting(self, name: str, make: str) -> str:
        """A persistent setting, created with ``make`` on first use (e.g. the cookie key)."""
        self.db.execute("INSERT OR IGNORE INTO settings (name, value) VALUES (?, ?)", (name, make))
        row = self.db.execute("SELECT value FROM settings WHERE name = ?", (name,)).fetchone()
        return str(row[0])

    # -- rooms -------------------------------------------------------------------------

    def open_room(self, game_id: str) -> NewRoom:
        """Give a new game its room code and host token."""
        host_token = new_token()
        for _ in range(50):
            code = "".join(secrets.choice(ROOM_ALPHABET) for _ in range(ROOM_CODE_LENGTH))
            try:
                self.db.execute(
                    "INSERT INTO rooms (game_id, code, host_hash, created_at) VALUES (?, ?, ?, ?)",
                    (game_id, code, hash_token(host_token), time.time()),
                )
            except sqlite3.IntegrityError:
                continue  # that code is in use: draw another
            return NewRoom(Room(game_id, code), host_token)
        raise SeatError(say("refuse.no_room_code"))

    def room_by_code(self, code: str) -> Room:
        row = self.db.execute(
            "SELECT game_id, code FROM rooms WHERE code = ?", (normalise_code(code),)
        ).fetchone()
        if row is None:
            raise SeatError(say("refuse.no_room", code=normalise_code(code)))
        return Room(row[0], row[1])

    def room_of(self, game_id: str) -> Room | None:
        row = self.db.execute(
            "SELECT game_id, code FROM rooms WHERE game_id = ?", (game_id,)
        ).fetchone()
        return Room(row[0], row[1]) if row else None

    def is_host(self, game_id: str, token: str | None) -> bool:
        if not token:
            return False
        row = self.db.execute(
            "SELECT host_hash FROM rooms WHERE game_id = ?", (game_id,)
        ).fetchone()
        return row is not None and hmac.compare_digest(row[0], hash_token(token))

    # -- seats -------------------------------------------------------------------------

    def claimed_seats(self, game_id: str) -> set[str]:
        rows = self.db.execute(
            "SELECT seat FROM seat_tokens WHERE game_id = ? AND revoked_at IS NULL", (game_id,)
        ).fetchall()
        return {row[0] for row in rows}

    def claim(self, game_id: str, seat: str) -> str:
        """Give ``seat`` to the asking phone; returns its token. The caller checks that
        the seat exists in the game and runs this in a write transaction."""
        if seat in self.claimed_seats(game_id):
            raise SeatTaken(say("refuse.seat_taken", seat=seat))
        token = new_token()
        self.db.execute(
            "INSERT INTO seat_tokens (game_id, seat, token_hash, issued_at) VALUES (?, ?, ?, ?)",
            (game_id, seat, hash_token(token), time.time()),
        )
        return token

    def seat_of(self, game_id: str, token: str | None) -> str | None:
        """The seat a token holds in a game, or None when it is unknown or revoked."""
        if not token:
            return None
        row = self.db.execute(
            "SELECT seat FROM seat_tokens WHERE game_id = ? AND token_hash = ? "
            "AND revoked_at IS NULL",
            (game_id, hash_token(token)),
        ).fetchone()
        return row[0] if row else None

    def free(self, game_id: str, seat: str) -> bool:
        """Revoke every token of a seat; returns whether one was valid."""
        cursor = self.db.execute(
            "UPDATE seat_tokens SET revoked_at = ? WHERE game_id = ? AND seat = ? "
            "AND revoked_at IS NULL",
            (time.time(), game_id, seat),
        )
        return cursor.rowcount > 0
