"""Properties that must hold for any table and any pile (hypothesis, seeded by the profile)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from companion.bitenight import rendezvous
from companion.bitenight.cards import Card
from companion.bitenight.game import BITE_NIGHT, Phase
from companion.bitenight.scoring import score, scores_points
from companion.bitenight.tiles import ALL_TILES, sorted_tiles
from companion.core.events import Event, Game
from tests.bitenight.play import grab, new_game, place_all, random_pile

PLAYERS = ("Anna", "Ben", "Cleo", "Dirk")
#: Each example is a seed for a Random that deals the table; hypothesis varies the seed
#: (drawing every shuffle from hypothesis itself would be far slower for no gain here).
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def random_table(rng: random.Random) -> rendezvous.Rendezvous:
    players = PLAYERS[: rng.choice((3, 4))]
    tiles = list(ALL_TILES)
    rng.shuffle(tiles)
    cut = sorted(rng.sample(range(51), len(players)))
    collections = {name: tiles[a:b] for name, a, b in zip(players, [0, *cut], cut, strict=False)}
    graveyard = tiles[cut[-1] : cut[-1] + rng.randrange(0, 8)]
    pile = [Card.parse(card) for card in random_pile(rng, rng.randrange(1, 21))]
    return rendezvous.start(players, rng.choice(players), collections, graveyard, pile)


def random_answer(rng: random.Random, ask: rendezvous.Ask) -> list:
    if ask.takes:
        return [rng.choice([t for t in ask.options if t.colour is c]) for c in ask.colours]
    return rng.sample(list(ask.options), ask.count)


def resolve_randomly(rng: random.Random, state: rendezvous.Rendezvous):
    for card in state.foresight:
        state = rendezvous.reveal(state, card)
        while state.asks:
            ask = state.asks[rng.randrange(len(state.asks))]
            answer = ask.suggestion if rng.random() < 0.3 else random_answer(rng, ask)
            state = rendezvous.choose(state, ask.player, answer)
    return state


def everything(state: rendezvous.Rendezvous) -> Counter:
    return Counter([*state.graveyard, *(tile for held in state.collections for tile in held)])


@given(SEEDS)
def test_tiles_are_never_created_or_lost_in_a_rendezvous(seed):
    rng = random.Random(seed)
    start = random_table(rng)
    end = resolve_randomly(rng, start)
    assert everything(end) == everything(start)
    assert max(everything(end).values(), default=1) == 1


@given(SEEDS)
def test_points_are_never_negative(seed):
    rng = random.Random(seed)
    end = resolve_randomly(rng, random_table(rng))
    assert all(points >= 0 for step in end.steps for points in step.points)
    assert len(end.steps) == len(end.foresight)


@given(SEEDS)
def test_every_move_starts_where_the_tile_was(seed):
    rng = random.Random(seed)
    state = random_table(rng)
    end = resolve_randomly(rng, state)
    where = {tile: rendezvous.GRAVEYARD for tile in state.graveyard}
    for name, held in zip(state.players, state.collections, strict=True):
        where.update({tile: name for tile in held})
    for step in end.steps:
        for move in step.moves:
            assert where[move.tile] == move.source != move.target
            where[move.tile] = move.target


def play_randomly(rng: random.Random) -> Game:
    """A cycle of a random game with undo and redo sprinkled in, up to some point."""
    game = new_game(PLAYERS[: rng.choice((3, 4))], deck="advanced")
    while game.state.phase in (Phase.PLACING, Phase.GRABBING):
        place_all(game)
        grab(game, rng)
        game.push(Event("end-round", {}, "host"))
        if rng.random() < 0.3:
            game.undo()
            game.redo()
    pile = random_pile(rng, game.state.pile_size)
    for card in pile[: rng.randrange(len(pile) + 1)]:
        answer_asks(game, rng)
        game.push(Event("reveal-card", {"card": card}, "host"))
        answer_asks(game, rng)
        if rng.random() < 0.2:
            game.undo()
    return game


def answer_asks(game: Game, rng: random.Random) -> None:
    while game.state.table.asks:
        ask = game.state.table.asks[0]
        tiles = [tile.id for tile in random_answer(rng, ask)]
        game.push(Event("choose-tiles", {"player": ask.player, "tiles": tiles}, ask.player))


@given(SEEDS)
def test_replaying_the_event_log_rebuilds_the_same_state(seed):
    rng = random.Random(seed)
    game = play_randomly(rng)
    assert game.replay() == game.state
    assert Game(BITE_NIGHT, game.setup, game.log).state == game.state


@given(SEEDS)
def test_undo_then_redo_is_identity(seed):
    rng = random.Random(seed)
    game = play_randomly(rng)
    for _ in range(rng.randrange(1, 4)):
        if not game.can_undo:
            break
        before = game.state
        game.undo()
        assert game.state != before
        game.redo()
        assert game.state == before


def brute_force_gift(collection, options, count, upcoming):
    """B5 by the letter: score every gift on the whole collection left, no shortcuts."""
    cards = [card for card in upcoming if scores_points(card)]

    def rank(gift):
        left = [tile for tile in collection if tile not in gift]
        kept = sum(score(card, left) for card in cards)
        return (-kept, sum(tile.heart for tile in gift), [tile.sort_key for tile in gift])

    return min(combinations(sorted_tiles(options), count), key=rank)


@given(SEEDS)
def test_the_b5_suggestion_is_the_best_gift_by_the_letter_of_the_ruling(seed):
    rng = random.Random(seed)
    collection = rng.sample(ALL_TILES, rng.randrange(3, 16))
    upcoming = [Card.parse(card) for card in random_pile(rng, rng.randrange(0, 6))]
    expected = brute_force_gift(collection, collection, 2, upcoming)
    assert rendezvous.suggest_gift(collection, collection, 2, upcoming) == expected
