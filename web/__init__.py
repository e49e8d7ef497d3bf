"""The table server: a Flask app that every phone at the table opens.

``create_app`` builds it the flaskr way: configuration, the database (the core's
store plus the web's own tables), security checks, error pages, the shared blueprints
(``home`` pages, the JSON ``api``, the ``tileset`` pictures, the ``camera``), then one
blueprint per game listed in :data:`web.pages.GAME_PAGES`. See docs/web.md for how a game plugs in.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from flask import Flask

from web import db, errors, security
from web.config import Config
from web.live import Changes
from web.pages import GAME_PAGES, load_pages
from web.texts import Catalogue


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.config.from_object(Config)
    app.config["GAME_PAGES"] = GAME_PAGES
    if test_config:
        app.config.update(test_config)

    texts = Catalogue(app.config["LANGUAGE"])
    app.extensions["companion_texts"] = texts
    app.extensions["companion_changes"] = Changes()
    app.jinja_env.globals["t"] = texts.text
    app.jinja_env.globals["texts_json"] = texts.as_json
    app.jinja_env.filters["datetime"] = _local_time

    db.init_app(app)
    security.init_app(app)
    errors.init_app(app)

    from web import api, camera, home, tileset, transfer

    for blueprint in (home.bp, api.bp, transfer.bp, tileset.bp, camera.bp):
        app.register_blueprint(blueprint)
    camera.init_app(app)

    pages = load_pages(app.config["GAME_PAGES"])
    app.extensions["companion_pages"] = pages
    for game in pages.values():
        app.register_blueprint(game.blueprint)
    return app


def _local_time(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))
