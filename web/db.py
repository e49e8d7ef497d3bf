"""One Store (and the seat book on the same connection) per request, kept on ``g``.

The core's Store is not shared between threads, so each request opens its own and the
teardown closes it, as flaskr does with its database.
"""

from __future__ import annotations

import secrets

from flask import Flask, current_app, g

from companion.core.store import Store
from web import seats


def get_store() -> Store:
    if "store" not in g:
        g.store = Store(current_app.config["DATABASE"])
    return g.store


def get_seats() -> seats.SeatBook:
    if "seats" not in g:
        g.seats = seats.SeatBook(get_store().connection)
    return g.seats


def close_store(_error: BaseException | None = None) -> None:
    store = g.pop("store", None)
    g.pop("seats", None)
    if store is not None:
        store.close()


def init_app(app: Flask) -> None:
    """Create the web tables and, unless one is configured, the persistent cookie key.

    The key lives in the database so that a restarted server still recognises every
    phone's cookie: restarting loses nothing.
    """
    with Store(app.config["DATABASE"]) as store:
        seats.install(store.connection)
        if not app.config.get("SECRET_KEY"):
            book = seats.SeatBook(store.connection)
            app.config["SECRET_KEY"] = book.setting("cookie-key", secrets.token_urlsafe(32))
    app.teardown_appcontext(close_store)
