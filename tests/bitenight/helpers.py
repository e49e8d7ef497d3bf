"""Short ways to write a rendezvous in a test: a scenario dict, run by the real engine."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.bitenight.scenario import parse_scenario, resolve, result_json

PLAYERS = ("Anna", "Ben", "Cleo")


def scenario(
    pile: Sequence[str],
    collections: Mapping[str, Sequence[str]],
    graveyard: Sequence[str] = (),
    choices: Sequence[Mapping[str, Any]] = (),
    players: Sequence[str] = PLAYERS,
    starting_player: str | None = None,
) -> dict[str, Any]:
    return {
        "players": list(players),
        "starting_player": starting_player or players[0],
        "collections": {name: list(collections.get(name, [])) for name in players},
        "graveyard": list(graveyard),
        "pile": list(pile),
        "choices": [dict(choice) for choice in choices],
    }


def run(pile: Sequence[str], collections: Mapping[str, Sequence[str]], **options: Any) -> dict:
    """The INTERFACES.md result of resolving this pile."""
    return result_json(resolve(parse_scenario(scenario(pile, collections, **options))))


def effects(result: dict) -> list[str]:
    return [step["effect"] for step in result["steps"]]


def moved(step: dict) -> list[tuple[str, str, str]]:
    return [(move["tile"], move["from"], move["to"]) for move in step["moves"]]
