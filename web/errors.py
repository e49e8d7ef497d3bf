"""Every refusal becomes one sentence with the right status; nothing shows a traceback.

API calls (paths under ``/api/``, or asking for JSON) get ``{"error": sentence,
"status": code, "reason": kind}`` where ``reason`` is a stable word pages can act on
(``stale_state`` means: refetch and let the player look again). Browsers get the error
page in the dark theme. A bug is logged in full and answered with a polite 500, still
in one sentence: the game itself is safe in the database.
"""

from __future__ import annotations

from flask import Flask, current_app, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from companion.core.events import IllegalEvent, InvalidSetup, NothingToUndo, RuleError, StaleState
from companion.core.store import UnknownGame
from companion.errors import CompanionError
from web.seats import SeatError, SeatTaken


class Refusal(CompanionError):
    """A request the web layer itself refuses, with its HTTP status and reason word."""

    def __init__(self, message: str, status: int = 400, reason: str = "bad_request") -> None:
        super().__init__(message)
        self.status = status
        self.reason = reason


def forbidden(message: str) -> Refusal:
    return Refusal(message, 403, "forbidden")


def not_found(message: str) -> Refusal:
    return Refusal(message, 404, "not_found")


#: Status and reason of each kind of refusal, most specific first.
_STATUS: tuple[tuple[type[Exception], int, str], ...] = (
    (UnknownGame, 404, "not_found"),
    (StaleState, 409, "stale_state"),
    (NothingToUndo, 409, "nothing_to_undo"),
    (SeatTaken, 409, "seat_taken"),
    (SeatError, 400, "seat"),
    (InvalidSetup, 422, "invalid_setup"),
    (IllegalEvent, 422, "illegal_event"),
    (RuleError, 422, "illegal_event"),
    (CompanionError, 400, "bad_request"),
)

#: Sentences for errors raised by Flask itself, by status (keys into the texts).
_HTTP_TEXTS = {
    400: "error.400",
    403: "error.403",
    404: "error.404",
    405: "error.405",
    413: "error.413",
    415: "error.415",
    429: "error.429",
}


def wants_json() -> bool:
    if request.path.startswith("/api/"):
        return True
    best = request.accept_mimetypes.best_match(["application/json", "text/html"])
    return (
        best == "application/json"
        and request.accept_mimetypes[best] > request.accept_mimetypes["text/html"]
    )


def respond(message: str, status: int, reason: str):  # type: ignore[no-untyped-def]
    # One line even when the sentence quotes what was sent (a game id of "\n" in the URL).
    message = " ".join(message.split())
    if wants_json():
        response = jsonify({"error": message, "status": status, "reason": reason})
        response.status_code = status
        return response
    return render_template("error.html", message=message, status=status), status


def _companion_error(error: CompanionError):  # type: ignore[no-untyped-def]
    if isinstance(error, Refusal):
        return respond(str(error), error.status, error.reason)
    for kind, status, reason in _STATUS:
        if isinstance(error, kind):
            return respond(str(error), status, reason)
    return respond(str(error), 400, "bad_request")  # pragma: no cover - CompanionError is last


def _http_error(error: HTTPException):  # type: ignore[no-untyped-def]
    texts = current_app.extensions["companion_texts"]
    status = error.code or 500
    key = _HTTP_TEXTS.get(status)
    message = texts.text(key) if key else (error.description or texts.text("error.500"))
    return respond(message, status, "http")


def _unexpected(error: Exception):  # type: ignore[no-untyped-def]
    if isinstance(error, HTTPException):
        return _http_error(error)
    current_app.logger.exception("unexpected error on %s %s", request.method, request.path)
    return respond(current_app.extensions["companion_texts"].text("error.500"), 500, "bug")


def init_app(app: Flask) -> None:
    app.register_error_handler(CompanionError, _companion_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected)
