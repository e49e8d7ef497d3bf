"""A game's pages for the core's toy tally, so the shell is tested apart from any real game."""

from __future__ import annotations

from flask import Blueprint, render_template_string

from companion.core.store import StoredGame
from web.pages import GamePages

bp = Blueprint("tally", __name__, url_prefix="/tally")


@bp.get("/new")
def setup() -> str:
    return render_template_string("{% extends 'base.html' %}{% block content %}new{% endblock %}")


@bp.get("/<game_id>")
def play(game_id: str) -> str:
    return render_template_string(
        "{% extends 'base.html' %}{% block content %}{% include 'shell/hostbar.html' %}"
        "{% endblock %}"
    )


def view(stored: StoredGame, seat: str | None) -> dict[str, object]:
    return {"total": stored.game.state.total, "names": list(stored.game.state.names), "seat": seat}


PAGES = GamePages(
    kind="tally",
    title_key="shell.app",
    blueprint=bp,
    seats=lambda setup: list(setup.get("players", [])),
    view=view,
    play_endpoint="tally.play",
    setup_endpoint="tally.setup",
    host_only=frozenset({"name"}),
)
