"""Drive a whole Bite Night game through its events, as the phone pages would."""

from __future__ import annotations

import random
from collections.abc import Sequence

from companion.bitenight.cards import DECK_COPIES
from companion.bitenight.game import BITE_NIGHT, BiteNightState, Phase
from companion.bitenight.tiles import ALL_TILES
from companion.core.events import Event, Game


def new_game(
    players: Sequence[str] = ("Anna", "Ben", "Cleo"), deck: str = "advanced", **options: str
) -> Game[BiteNightState]:
    return Game(BITE_NIGHT, {"players": list(players), "deck": deck, **options})


def place_all(game: Game[BiteNightState]) -> None:
    """Every player places his card, in the round's placing order."""
    while game.state.phase is Phase.PLACING:
        name = game.state.players[game.state.next_to_place]
        game.push(Event("place-card", {"player": name}, name))


def grab(game: Game[BiteNightState], rng: random.Random) -> None:
    """Each player grabs three more tiles from those still on the table."""
    state = game.state
    taken = {tile for held in state.collections for tile in held}
    free = [tile for tile in ALL_TILES if tile not in taken]
    rng.shuffle(free)
    for seat, name in enumerate(state.players):
        tiles = [*state.collections[seat], *free[3 * seat : 3 * seat + 3]]
        game.push(Event("set-collection", {"player": name, "tiles": [t.id for t in tiles]}, name))


def play_rounds(game: Game[BiteNightState], rng: random.Random) -> None:
    """All rounds of the current cycle, up to the start of the rendezvous."""
    while game.state.phase in (Phase.PLACING, Phase.GRABBING):
        place_all(game)
        grab(game, rng)
        game.push(Event("end-round", {}, "host"))


def reveal_pile(game: Game[BiteNightState], pile: Sequence[str]) -> None:
    """Reveal the pile card by card; every ask is answered with the engine's suggestion."""
    for card in pile:
        game.push(Event("reveal-card", {"card": card}, "host"))
        while game.state.table is not None and game.state.table.asks:
            ask = game.state.table.asks[0]
            tiles = [tile.id for tile in ask.suggestion]
            game.push(Event("choose-tiles", {"player": ask.player, "tiles": tiles}, ask.player))


def random_pile(rng: random.Random, size: int, advanced: bool = True) -> list[str]:
    """A pile the deck could give (B13)."""
    deck = [
        card.id
        for card, copies in DECK_COPIES.items()
        for _ in range(copies)
        if advanced or not card.is_advanced
    ]
    return rng.sample(deck, size)
