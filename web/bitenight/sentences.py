"""The engine's sentences in the players' words: card and tile names, from the catalogue.

The engine (:mod:`companion.bitenight`) refuses an event with one English sentence that
names cards and tiles by their RULINGS.md ids (``'grave:any' waits for the choice of
Ben``), and its view says what the table is doing in the same way. A phone should say
"“Graveyard: 2 of your choice” waits for the choice of Ben", in the table's language.

The engine's exceptions carry only their sentence, so each sentence the engine can say
is recognised here by a pattern and said again through the texts catalogue
(``web/texts/en/bitenight.json``, keys ``bitenight.refuse.*`` and
``bitenight.doing.*``), with every card, tile, colour and motif it names turned into
its name. A sentence no pattern knows (an engine sentence added later) passes through
unchanged: still true, only in English with ids; ``tests/web/test_sentences.py`` reads
the engine's source so that such a sentence fails a test rather than a table.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from companion.bitenight.cards import Card, UnknownCardError
from companion.bitenight.tiles import Tile, UnknownTileError
from web.texts import say

#: What the named groups of the patterns hold: an id quoted by the engine, or a word.
_CARD = r"(?P<{}>[a-z:+-]+)"
_TILE = r"(?P<{}>[a-z]+-[a-z]+(?:-heart)?)"
_COLOUR = r"(?P<{}>[a-z]+)"
_NUMBER = r"(?P<{}>\d+)"
_NAME = r"(?P<{}>.+?)"
_KINDS = {
    "card": _CARD,
    "current": _CARD,
    "tile": _TILE,
    "by": _TILE,
    "colour": _COLOUR,
    "motif": _COLOUR,
    "event": r"(?P<{}>[a-z-]+)",
}


def _pattern(template: str) -> re.Pattern[str]:
    """A regular expression from an engine sentence written with ``{field}`` holes.

    A hole's name says what it holds (:data:`_KINDS`; a number when it starts with
    ``n_``, else a player's name or a list of them); a name used twice must match the
    same text twice. Everything else is literal.
    """
    parts = re.split(r"\{(\w+)\}", template)
    out = []
    for index, part in enumerate(parts):
        if index % 2 == 0:
            out.append(re.escape(part))
        elif part in parts[1:index:2]:
            out.append(f"(?P={part})")  # the same word again
        else:
            kind = _KINDS.get(part, _NUMBER if part.startswith("n_") else _NAME)
            out.append(kind.format(part))
    return re.compile("".join(out))


#: Engine sentence (as companion/bitenight says it) -> catalogue key. The first whole
#: match wins, so a sentence that another one contains comes first.
REFUSALS: tuple[tuple[str, str], ...] = (
    ("'{event}' is not possible now: {doing}", "not_now"),
    ("Bite Night has no event '{event}' (known: {known})", "no_event"),
    ("'{name}' is not a player at this table", "not_player"),
    ("'{text}' is not a Moon tile id", "not_tile"),
    ("'{text}' is not a Bite Night card id", "not_card"),
    ("'tiles' must be a list of tile ids", "tile_list"),
    ("it is {name}'s turn to place a card, not {other}'s", "not_your_turn"),
    ("'{card}' is an advanced card and this is a basic game (B13)", "advanced_card"),
    ("'{card}' is already in this cycle's pile as often as the deck holds it (B13)", "pile_full"),
    ("tile '{tile}' is there only once, it cannot be listed twice", "tile_twice"),
    ("tile '{tile}' is already in {name}'s collection", "tile_held_by"),
    ("tile '{tile}' is already in the graveyard", "tile_in_graveyard"),
    ("tile '{tile}' is there only once but appears in {places}", "tile_twice_in"),
    ("{name} already holds '{tile}'", "already_holds"),
    ("{name} does not hold '{tile}'", "does_not_hold"),
    (
        "{name} holds {n_held} tiles, but after round {n_round} every player holds "
        "{n_expected} (3 per round, B1); correct the collection first",
        "wrong_count",
    ),
    ("'{card}' is still waiting for the choice of {names}", "still_waiting"),
    ("'{card}' has already come up {n_seen} time; the deck has only {n_copies} (B13)", "came_up"),
    ("'{card}' has already come up {n_seen} times; the deck has only {n_copies} (B13)", "came_up"),
    ("no card is waiting for a choice", "no_choice"),
    ("{name} has already chosen for '{card}'", "already_chosen"),
    ("{name} has nothing to choose for '{card}'", "nothing_to_choose"),
    ("{name} names tile '{tile}' twice for '{card}'", "named_twice"),
    ("{name} must give up {n_count} tile for '{card}', not {n_given}", "give_count"),
    ("{name} must give up {n_count} tiles for '{card}', not {n_given}", "give_count"),
    ("'{tile}' is not a {motif} tile, so it cannot go for '{card}'", "wrong_motif"),
    ("'{tile}' is not in the graveyard, so {name} cannot take it", "not_in_graveyard"),
    (
        "{name} has no coffin with a heart that may take the {colour} tile '{tile}'",
        "no_coffin_for",
    ),
    ("{name}'s {colour} coffin with a heart takes only one tile", "one_per_coffin"),
    (
        "{name} must choose which {colour} tile his {colour} coffin with a heart takes out "
        "of the graveyard",
        "choose_for_coffin",
    ),
    ('\'deck\' must be "basic" or "advanced"', "deck"),
    ("the starting player '{name}' is not one of the players", "starting_player"),
    ("'players' must be a list of non-empty names", "players_list"),
    ("Bite Night is played by 3 or 4 players, not {n_players} (B1)", "player_count"),
    ("the player name '{name}' is given twice", "name_twice"),
    ("'graveyard' cannot be a player name, it names the graveyard", "name_graveyard"),
    ("the collection of '{name}' belongs to no player", "collection_owner"),
)

#: The view's ``doing`` (the end of a sentence: what the table is doing now).
DOINGS: tuple[tuple[str, str], ...] = (
    ("{name} is to place a card", "placing"),
    ("the tiles of round {n_round} are being grabbed", "grabbing"),
    ("'{card}' waits for the choice of {names}", "choosing"),
    ("the rendezvous waits for the next card", "next_card"),
    ("cycle {n_cycle} is scored and the next cycle is to begin", "scored"),
    ("the game is over", "over"),
)

_REFUSALS = tuple((_pattern(template), f"bitenight.refuse.{key}") for template, key in REFUSALS)
_DOINGS = tuple((_pattern(template), f"bitenight.doing.{key}") for template, key in DOINGS)


def card_name(card_id: str) -> str:
    """The card's name as the pickers show it (``grave:any`` -> "Graveyard: 2 of your
    choice"); an id that is no card stays as it is."""
    try:
        card = Card.parse(card_id)
    except UnknownCardError:
        return card_id
    kind = card.kind.value
    if card.kind.value == "combo":
        return say("bitenight.card.combo", a=_motifs(str(card.motif)), b=_motifs(str(card.other)))
    if card.motif is not None:
        return say(f"bitenight.card.{kind}", motifs=_motifs(str(card.motif)))
    if card.colour is not None:
        return say(f"bitenight.card.{kind}", colour=say(f"bitenight.colour.{card.colour}"))
    return say(f"bitenight.card.{kind}")


def tile_name(tile_id: str) -> str:
    """The tile's name ("red monk with heart"); an id that is no tile stays as it is."""
    try:
        tile = Tile.parse(tile_id)
    except UnknownTileError:
        return tile_id
    key = "bitenight.tile_name_heart" if tile.heart else "bitenight.tile_name"
    colour, motif = say(f"bitenight.colour.{tile.colour}"), say(f"bitenight.motif.{tile.motif}")
    return say(key, colour=colour, motif=motif)


def _motifs(motif: str) -> str:
    return say(f"bitenight.motifs.{motif}")


def _word(kind: str, value: str) -> str:
    key = f"bitenight.{kind}.{value}"
    said = say(key)
    return value if said == key else said


#: How each kind of field is said.
_SAY: Mapping[str, Callable[[str], str]] = {
    "card": card_name,
    "current": card_name,
    "tile": tile_name,
    "by": tile_name,
    "colour": lambda value: _word("colour", value),
    "motif": lambda value: _word("motif", value),
    "event": lambda value: _word("event", value),
    "doing": lambda value: doing(value),
}


Patterns = tuple[tuple[re.Pattern[str], str], ...]


def _match(sentence: str, patterns: Patterns) -> tuple[str, dict[str, str]] | None:
    """The catalogue key of the first pattern the whole sentence fits, and its fields."""
    for pattern, key in patterns:
        found = pattern.fullmatch(sentence)
        if found is not None:
            return key, found.groupdict()
    return None


def _say_again(sentence: str, patterns: Patterns) -> str:
    matched = _match(sentence, patterns)
    if matched is None:
        return sentence
    key, fields = matched
    return say(key, **{name: _SAY.get(name, str)(value) for name, value in fields.items()})


def refusal_key(sentence: str) -> str | None:
    """The catalogue key an engine refusal is said by, None when no pattern knows it."""
    matched = _match(sentence, _REFUSALS)
    return None if matched is None else matched[0]


def doing_key(sentence: str) -> str | None:
    """The catalogue key the view's ``doing`` is said by, None when no pattern knows it."""
    matched = _match(sentence, _DOINGS)
    return None if matched is None else matched[0]


def refusal(sentence: str) -> str:
    """An engine refusal in the players' words (unchanged when no pattern knows it)."""
    return _say_again(sentence, _REFUSALS)


def doing(sentence: str) -> str:
    """The view's ``doing`` in the players' words (unchanged when no pattern knows it)."""
    return _say_again(sentence, _DOINGS)
