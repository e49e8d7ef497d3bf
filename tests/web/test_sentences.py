"""Bite Night's engine sentences on the phones: cards and tiles by name, from the catalogue."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import companion.bitenight
from tests.web.conftest import post
from tests.web.test_bitenight import new_game, play, reveal, to_rendezvous
from web.bitenight.sentences import card_name, doing, doing_key, refusal, refusal_key, tile_name

ENGINE = Path(companion.bitenight.__file__).parent
#: The exceptions whose sentences reach a phone as a refusal.
REFUSING = {"IllegalEvent", "InvalidSetup", "UnknownTileError", "UnknownCardError"}
#: An id as the engine quotes it: a card or a tile between single quotes.
QUOTED_ID = re.compile(r"'(?:[a-z]+:[a-z+]+|[a-z]+-[a-z]+(?:-heart)?|grave:any)'")


def sample(expression: str) -> str:
    """A value the engine could put where ``expression`` stands in one of its f-strings."""
    samples = [
        ("players[", "Anna"),
        ("_doing(", "Ben is to place a card"),
        ("event.kind", "reveal-card"),
        ("known", "place-card, end-round"),
        ("join(places)", "Anna and graveyard"),
        ("GRAVEYARD", "graveyard"),
        ("'s' if", "s"),
        ("noun", "tiles"),
        ("len(", "2"),
        ("DECK_COPIES", "2"),
        ("count", "2"),
        ("seen", "2"),
        ("round", "2"),
        ("cycle", "2"),
        ("expected", "2"),
        ("colour", "red"),
        ("motif", "coffin"),
        ("card", "grave:any"),
        ("current", "grave:any"),
        ("tile", "red-monk-heart"),
        ("twice", "red-monk-heart"),
        ("by", "red-monk-heart"),
    ]
    return next((value for part, value in samples if part in expression), "Anna")


def said(node: ast.expr) -> str | None:
    """The sentence an f-string (or a plain string) makes with sample values."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if not isinstance(node, ast.JoinedStr):
        return None  # str(error): a sentence made elsewhere, found there
    return "".join(
        part.value if isinstance(part, ast.Constant) else sample(ast.unparse(part.value))
        for part in node.values
    )


def engine_refusals() -> list[str]:
    found = []
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            name = node.exc.func
            if isinstance(name, ast.Name) and name.id in REFUSING and node.exc.args:
                sentence = said(node.exc.args[0])
                if sentence is not None:
                    found.append(sentence)
    return found


def engine_doings() -> list[str]:
    source = (ENGINE / "game.py").read_text(encoding="utf-8")
    function = next(
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef) and node.name == "_doing"
    )
    returned = [said(node.value) for node in ast.walk(function) if isinstance(node, ast.Return)]
    return [sentence for sentence in returned if sentence is not None]


def test_the_engine_says_enough_sentences_for_this_test_to_mean_something() -> None:
    assert len(engine_refusals()) >= 30 and len(engine_doings()) == 6


@pytest.mark.parametrize("sentence", engine_refusals())
def test_every_engine_refusal_is_said_again_from_the_catalogue_without_ids(app, sentence) -> None:
    assert refusal_key(sentence) in app.extensions["companion_texts"].texts
    again = refusal(sentence)
    assert not QUOTED_ID.search(again), again
    assert "{" not in again, again


@pytest.mark.parametrize("sentence", engine_doings())
def test_what_the_table_is_doing_is_said_from_the_catalogue_without_ids(app, sentence) -> None:
    assert doing_key(sentence) in app.extensions["companion_texts"].texts
    again = doing(sentence)
    assert not QUOTED_ID.search(again), again


@pytest.mark.parametrize(
    ("card", "name"),
    [
        ("grave:any", "Graveyard: 2 of your choice"),
        ("combo:vampire+monk", "vampires and monks"),
        ("color:red", "All red tiles"),
        ("pair:coffin", "Pairs of coffins"),
        ("grave:garlic", "Graveyard: 2 garlics"),
        ("skip-two", "Graveyard: the next two do not count"),
        ("vow-of-chastity", "Vow of chastity"),
    ],
)
def test_a_card_is_named_as_the_card_picker_names_it(card: str, name: str) -> None:
    assert card_name(card) == name


def test_a_tile_is_named_by_colour_motif_and_heart() -> None:
    assert tile_name("red-monk") == "red monk"
    assert tile_name("purple-coffin-heart") == "purple coffin with heart"


def test_a_sentence_no_pattern_knows_passes_unchanged() -> None:
    assert refusal_key("the moon fell off the table") is None
    assert refusal("the moon fell off the table") == "the moon fell off the table"


def test_a_used_up_card_is_refused_by_its_name(client: FlaskClient) -> None:
    game: dict[str, Any] = {**new_game(client), "version": None}
    to_rendezvous(client, game)
    reveal(client, game, "pair:maiden")
    answer = play(client, game, "reveal-card", card="pair:maiden")
    assert answer.status_code == 422
    assert answer.get_json()["error"] == (
        "“Pairs of maidens” has come up as often as the deck holds it (1) this cycle (B13)"
    )


def test_the_card_waiting_for_choices_is_named_in_what_the_table_is_doing(client) -> None:
    game: dict[str, Any] = {**new_game(client), "version": None}
    to_rendezvous(client, game)
    shown = reveal(client, game, "grave:any")
    asked = ", ".join(ask["player"] for ask in shown["rendezvous"]["asks"])
    assert shown["doing"] == f"“Graveyard: 2 of your choice” waits for the choice of {asked}"


def test_a_refusal_follows_the_catalogue_so_it_can_be_translated(app: Flask, client) -> None:
    texts = app.extensions["companion_texts"].texts
    texts["bitenight.refuse.tile_held_by"] = "{name} heeft de {tile} al"
    texts["bitenight.tile_name"] = "{colour} {motif}"
    texts["bitenight.colour.red"] = "rode"
    texts["bitenight.motif.monk"] = "monnik"
    game = new_game(client)
    play(client, game, "add-tile", player="Ben", tile="red-monk")
    answer = play(client, game, "add-tile", player="Anna", tile="red-monk")
    assert answer.get_json()["error"] == "Ben heeft de rode monnik al"


def test_a_setup_the_engine_refuses_is_said_from_the_catalogue(app: Flask, client) -> None:
    texts = app.extensions["companion_texts"].texts
    texts["bitenight.refuse.player_count"] = "Bite Night wil 3 of 4 spelers, niet {n_players}"
    body = {"kind": "bite-night", "setup": {"players": ["Anna", "Ben"]}}
    answer = post(client, "/api/games", body)
    assert answer.status_code == 422
    assert answer.get_json()["error"] == "Bite Night wil 3 of 4 spelers, niet 2"
