"""A rendezvous scenario file (INTERFACES.md), checked and resolved by the same machine.

:func:`parse_scenario` turns the JSON into value objects and refuses, in one sentence,
anything a real table could not hold: unknown names or ids, a tile in two places, a pile
no deck could give (B13), a choice for a step that asks that player nothing.
:func:`resolve` then feeds the pile card by card to :mod:`companion.bitenight.rendezvous`,
answering every ask from the file's ``choices`` or with the engine's suggestion, and
:func:`result_json` prints the outcome in the INTERFACES.md shape.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.bitenight import rendezvous
from companion.bitenight.cards import Card, UnknownCardError, check_pile
from companion.bitenight.rendezvous import Rendezvous
from companion.bitenight.tiles import Tile, UnknownTileError, sorted_tiles
from companion.core.events import RuleError
from companion.errors import CompanionError


class ScenarioError(CompanionError):
    """A scenario file that cannot be resolved; the message names the problem."""


@dataclass(frozen=True)
class Scenario:
    """A checked scenario: ``choices`` maps (pile index, player) to the tiles he names."""

    players: tuple[str, ...]
    starting_player: str
    collections: Mapping[str, tuple[Tile, ...]]
    graveyard: tuple[Tile, ...]
    pile: tuple[Card, ...]
    choices: Mapping[tuple[int, str], tuple[Tile, ...]]
    advanced: bool


def load_scenario(path: str | Path) -> Scenario:
    """Read and check a scenario file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise ScenarioError(f"cannot read scenario '{path}': {error.strerror}") from None
    except UnicodeDecodeError:
        raise ScenarioError(f"scenario '{path}' is not UTF-8 text") from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as error:
        raise ScenarioError(
            f"scenario '{path}' is not valid JSON ({error.msg} at line {error.lineno}, "
            f"column {error.colno})"
        ) from None
    return parse_scenario(raw)


def parse_scenario(raw: Any) -> Scenario:
    """Check a decoded scenario and turn its ids into value objects."""
    if not isinstance(raw, dict):
        raise ScenarioError("a scenario must be a JSON object")
    players = _players(raw)
    starting = raw.get("starting_player")
    if not isinstance(starting, str):
        raise ScenarioError("'starting_player' must be the name of one of the players")
    if starting not in players:
        raise ScenarioError(f"the starting player '{starting}' is not one of the players")
    collections = _collections(raw, players)
    graveyard = tuple(_tiles(raw.get("graveyard", []), "'graveyard'"))
    deck = raw.get("deck")
    if deck not in (None, "basic", "advanced"):
        raise ScenarioError('\'deck\' must be "basic" or "advanced"')
    pile = _pile(raw, advanced=deck != "basic")
    choices = _choices(raw, players, len(pile))
    try:
        rendezvous.start(players, starting, collections, graveyard)
    except RuleError as error:
        raise ScenarioError(str(error)) from None
    advanced = deck == "advanced" or any(card.is_advanced for card in pile)
    return Scenario(players, starting, collections, graveyard, pile, choices, advanced)


def _players(raw: dict[str, Any]) -> tuple[str, ...]:
    try:
        return rendezvous.check_players(raw.get("players"))
    except RuleError as error:
        raise ScenarioError(str(error)) from None


def _collections(raw: dict[str, Any], players: Sequence[str]) -> dict[str, tuple[Tile, ...]]:
    collections = raw.get("collections")
    if not isinstance(collections, dict):
        raise ScenarioError("'collections' must be an object mapping each player to tile ids")
    for name in collections:
        if name not in players:
            raise ScenarioError(f"'collections' names '{name}', who is not one of the players")
    return {
        name: tuple(_tiles(collections.get(name, []), f"the collection of {name}"))
        for name in players
    }


def _tiles(ids: Any, where: str) -> list[Tile]:
    if not isinstance(ids, list) or not all(isinstance(text, str) for text in ids):
        raise ScenarioError(f"{where} must be a list of tile ids")
    try:
        return [Tile.parse(text) for text in ids]
    except UnknownTileError as error:
        raise ScenarioError(f"{where} holds {error}") from None


def _pile(raw: dict[str, Any], advanced: bool) -> tuple[Card, ...]:
    ids = raw.get("pile")
    if not isinstance(ids, list) or not all(isinstance(text, str) for text in ids):
        raise ScenarioError("'pile' must be a list of card ids")
    try:
        pile = tuple(Card.parse(text) for text in ids)
    except UnknownCardError as error:
        raise ScenarioError(f"the pile holds {error}") from None
    check_pile(pile, advanced)
    return pile


def _choices(
    raw: dict[str, Any], players: Sequence[str], pile_size: int
) -> dict[tuple[int, str], tuple[Tile, ...]]:
    entries = raw.get("choices", [])
    if not isinstance(entries, list):
        raise ScenarioError("'choices' must be a list of {step, player, tiles} objects")
    choices: dict[tuple[int, str], tuple[Tile, ...]] = {}
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise ScenarioError(f"choice {number} must be an object with step, player and tiles")
        step, player = entry.get("step"), entry.get("player")
        if not isinstance(step, int) or isinstance(step, bool):
            raise ScenarioError(f"choice {number} needs a whole 'step' (0-based pile index)")
        if not 0 <= step < pile_size:
            steps = f"steps 0 to {pile_size - 1}" if pile_size else "no steps"
            raise ScenarioError(f"choice {number} is for step {step}, but the pile has {steps}")
        if not isinstance(player, str) or player not in players:
            raise ScenarioError(f"choice {number} names '{player}', who is not one of the players")
        if (step, player) in choices:
            raise ScenarioError(f"there are two choices for {player} at step {step}")
        choices[(step, player)] = tuple(_tiles(entry.get("tiles"), f"choice {number}'s 'tiles'"))
    return choices


def begin(scenario: Scenario) -> Rendezvous:
    """The machine before the first card, knowing the whole pile (for B5 suggestions)."""
    return rendezvous.start(
        scenario.players,
        scenario.starting_player,
        scenario.collections,
        scenario.graveyard,
        foresight=scenario.pile,
    )


def resolve(scenario: Scenario) -> Rendezvous:
    """Run the whole pile; every ask is answered from the file or by the suggestion."""
    state = begin(scenario)
    unused = dict(scenario.choices)
    for index, card in enumerate(scenario.pile):
        try:
            _check_forced_choices(state, card, unused)
            state = rendezvous.reveal(state, card)
            while state.asks:
                ask = state.asks[0]
                tiles = unused.pop((index, ask.player), ask.suggestion)
                state = rendezvous.choose(state, ask.player, tiles)
        except RuleError as error:
            raise ScenarioError(f"step {index} ('{card}'): {error}") from None
    return state


def _check_forced_choices(
    state: Rendezvous, card: Card, unused: dict[tuple[int, str], tuple[Tile, ...]]
) -> None:
    """Check (and use up) choices the file gives where the player has no real choice.

    A file may spell out a forced choice (both of his two vampires for
    ``grave:vampire``); it must then be exactly what the rules take. A choice for a step
    that asks the player nothing at all (a point card, a skipped or cancelled card, a
    player without a coffin with a heart) is refused.
    """
    index = state.position
    named = [player for step, player in unused if step == index]
    if not named:
        return
    asks = {ask.player: ask for ask in rendezvous.asks_for(state, card)}
    for player in named:
        ask = asks.get(player)
        if ask is None:
            raise ScenarioError(
                f"the choice of {player} at step {index} answers nothing: "
                f"'{card}' asks {player} no choice there"
            )
        if not ask.has_choice:
            rendezvous.check_choice(state, ask, unused.pop((index, player)))


def result_json(state: Rendezvous) -> dict[str, Any]:
    """The INTERFACES.md output: steps, points, collections and graveyard."""
    return {
        "steps": [step.to_json(state.players) for step in state.steps],
        "points": dict(zip(state.players, state.totals(), strict=True)),
        "collections": {
            name: [tile.id for tile in sorted_tiles(tiles)]
            for name, tiles in zip(state.players, state.collections, strict=True)
        },
        "graveyard": [tile.id for tile in sorted_tiles(state.graveyard)],
    }


def result_table(state: Rendezvous) -> str:
    """A readable table of the same result, for people at a terminal."""
    names = state.players
    card_width = max([len("card"), *(len(step.card.id) for step in state.steps)])
    widths = [max(len(name), 3) for name in names]
    header = (
        f"{'step':>4}  {'card':<{card_width}}  {'effect':<9}  "
        + "  ".join(f"{name:>{w}}" for name, w in zip(names, widths, strict=True))
        + "  moves"
    )
    lines = [header, "-" * len(header)]
    for step in state.steps:
        points = "  ".join(f"{p:>{w}}" for p, w in zip(step.points, widths, strict=True))
        moves = ", ".join(f"{m.tile} {m.source}->{m.target}" for m in step.moves)
        lines.append(
            f"{step.index:>4}  {step.card.id:<{card_width}}  {step.effect.value:<9}  {points}"
            + (f"  {moves}" if moves else "")
        )
    totals = "  ".join(f"{p:>{w}}" for p, w in zip(state.totals(), widths, strict=True))
    lines += ["-" * len(header), f"{'':>4}  {'total':<{card_width}}  {'':<9}  {totals}", ""]
    for name, tiles in zip(names, state.collections, strict=True):
        lines.append(f"{name}: {' '.join(t.id for t in sorted_tiles(tiles)) or '(none)'}")
    lines.append(f"graveyard: {' '.join(t.id for t in sorted_tiles(state.graveyard)) or '(empty)'}")
    return "\n".join(lines)
