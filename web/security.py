"""Who is asking, and may they? Seat and host tokens, forgery checks, safe headers.

A browser's tokens live in its signed session cookie (SameSite=Strict, HttpOnly):
``session["games"][game_id] = {"seat": token, "host": token}``. The tokens are checked
against their hashes on every request, so revoking one takes effect at once.

Every request that changes something must
- come from a page of this server (its ``Origin``, or failing that ``Referer``, names
  this host), and
- carry the session's CSRF token (header ``X-CSRF-Token``, or form field ``csrf``).
Together with SameSite=Strict cookies that stops another site from acting for a phone.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, request, session

from web.db import get_seats
from web.errors import Refusal, forbidden
from web.texts import say

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: How many games one browser remembers tokens for (the cookie stays small).
REMEMBERED_GAMES = 12

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data: blob:; media-src 'self' data: blob:; "
    "style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
    "base-uri 'none'; form-action 'self'"
)


@dataclass(frozen=True)
class Caller:
    """The browser asking about one game: the seat it holds (if any), and host or not."""

    game_id: str
    seat: str | None
    host: bool

    @property
    def name(self) -> str:
        """How the event log records this caller."""
        return self.seat or ("host" if self.host else "guest")


def csrf_token() -> str:
    token = session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        session["csrf"] = token
    return token


def caller(game_id: str) -> Caller:
    tokens = _tokens(game_id)
    book = get_seats()
    seat = book.seat_of(game_id, tokens.get("seat"))
    host = book.is_host(game_id, tokens.get("host"))
    return Caller(game_id, seat, host)


def require_host(game_id: str) -> Caller:
    who = caller(game_id)
    if not who.host:
        raise forbidden(say("refuse.host_only"))
    return who


def remember(game_id: str, role: str, token: str) -> None:
    """Keep a seat or host token in this browser's cookie."""
    games: dict[str, Any] = dict(session.get("games") or {})
    entry = dict(games.pop(game_id, {}) or {})
    entry[role] = token
    games[game_id] = entry
    while len(games) > REMEMBERED_GAMES:
        games.pop(next(iter(games)))
    session["games"] = games
    session.permanent = True


def forget(game_id: str, role: str) -> None:
    games: dict[str, Any] = dict(session.get("games") or {})
    entry = dict(games.get(game_id) or {})
    entry.pop(role, None)
    games[game_id] = entry
    session["games"] = games


def _tokens(game_id: str) -> dict[str, str]:
    games = session.get("games")
    entry = games.get(game_id) if isinstance(games, dict) else None
    if not isinstance(entry, dict):
        return {}
    return {key: value for key, value in entry.items() if isinstance(value, str)}


def _same_origin(url: str) -> bool:
    parts = urlsplit(url)
    return bool(parts.netloc) and parts.netloc.lower() == request.host.lower()


def check_request() -> None:
    """Refuse a state-changing request that another site could have made."""
    if request.method in SAFE_METHODS:
        return
    origin = request.headers.get("Origin")
    referer = request.headers.get("Referer")
    if origin is not None and origin != "null":
        if not _same_origin(origin):
            raise forbidden(say("refuse.other_site"))
    elif referer is not None and not _same_origin(referer):
        raise forbidden(say("refuse.other_site"))
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf", "")
    expected = session.get("csrf")
    if not isinstance(expected, str) or not hmac.compare_digest(sent, expected):
        raise Refusal(
            say("refuse.csrf"),
            403,
            "csrf",
        )


def add_headers(response):  # type: ignore[no-untyped-def]
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    if request.path.startswith("/api/"):
        response.headers.setdefault("Cache-Control", "no-store")
    return response


def init_app(app: Flask) -> None:
    app.before_request(check_request)
    app.after_request(add_headers)
    app.jinja_env.globals["csrf_token"] = csrf_token
