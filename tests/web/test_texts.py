"""Every sentence comes from the texts catalogue, so a translation is one folder."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import new_tally, post
from web.texts import Catalogue, say


def test_a_text_has_its_fields_filled() -> None:
    assert Catalogue().text("shell.you_are", seat="Ben") == "This phone is the seat of Ben."


def test_a_missing_key_shows_itself_rather_than_a_blank() -> None:
    assert Catalogue().text("shell.no-such-key") == "shell.no-such-key"


def test_a_language_without_a_folder_falls_back_to_english() -> None:
    assert Catalogue("xx").text("shell.join") == "Join"


def test_the_catalogue_cannot_close_the_script_element_it_travels_in() -> None:
    catalogue = Catalogue()
    catalogue.texts["shell.evil"] = "</script><script>alert(1)</script>"
    assert "</script>" not in catalogue.as_json()


def test_outside_a_request_refusals_are_english() -> None:
    assert say("refuse.host_only") == "only the host screen of this game can do that"


def test_a_refusal_is_said_in_the_served_catalogue(app: Flask, client: FlaskClient, phone) -> None:
    app.extensions["companion_texts"].texts["refuse.host_only"] = "nur der Gastgeber"
    game = new_tally(client)
    answer = post(phone, f"/api/games/{game['id']}/undo", {"version": 0})
    assert answer.get_json()["error"] == "nur der Gastgeber"


def test_every_page_text_of_bite_night_is_in_the_catalogue() -> None:
    """Keys the Bite Night page script asks for exist (a missing one would show its key)."""
    import re
    from pathlib import Path

    script = (Path(__file__).parents[2] / "web/bitenight/static/play.js").read_text()
    used = set(re.findall(r't\("(bitenight\.[a-z_.-]+)"', script))
    missing = sorted(key for key in used if key not in Catalogue().texts)
    assert missing == []
