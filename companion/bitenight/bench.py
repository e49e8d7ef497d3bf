"""How fast the rendezvous resolves a pile, measured in-process (not a timed test).

The goal (issue: under 5 ms per 20-card pile with 4 players) is checked by eye with
``companion rendezvous --bench``: seeded random tables with full collections, piles
drawn from the advanced deck, every choice left to the suggestion (which is the costly
part: B5 weighs every possible gift against the player's own cards still to come).
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

from companion.bitenight.cards import DECK_COPIES
from companion.bitenight.scenario import Scenario, resolve
from companion.bitenight.tiles import ALL_TILES

PLAYERS = ("Anna", "Ben", "Cleo", "Dirk")


def random_scenario(rng: random.Random, pile_size: int = 20) -> Scenario:
    """Four players with 12 tiles each (two in the graveyard) and a pile from all 45 cards."""
    tiles = list(ALL_TILES)
    rng.shuffle(tiles)
    deck = [card for card, copies in DECK_COPIES.items() for _ in range(copies)]
    pile = tuple(rng.sample(deck, pile_size))
    collections = {name: tuple(tiles[12 * i : 12 * i + 12]) for i, name in enumerate(PLAYERS)}
    return Scenario(
        players=PLAYERS,
        starting_player=rng.choice(PLAYERS),
        collections=collections,
        graveyard=tuple(tiles[48:]),
        pile=pile,
        choices={},
        advanced=True,
    )


@dataclass(frozen=True)
class BenchResult:
    piles: int
    repeats: int
    median_ms: float
    p95_ms: float
    max_ms: float

    def report(self) -> str:
        return (
            f"rendezvous: {self.piles} seeded 4-player 20-card piles x {self.repeats} runs: "
            f"median {self.median_ms:.3f} ms, p95 {self.p95_ms:.3f} ms, "
            f"max {self.max_ms:.3f} ms per pile (goal < 5 ms)"
        )


def bench(piles: int = 200, repeats: int = 5, seed: int = 2026) -> BenchResult:
    rng = random.Random(seed)
    scenarios = [random_scenario(rng) for _ in range(piles)]
    times: list[float] = []
    for _ in range(repeats):
        for scenario in scenarios:
            started = time.perf_counter()
            resolve(scenario)
            times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return BenchResult(
        piles,
        repeats,
        statistics.median(times),
        times[min(len(times) - 1, int(0.95 * len(times)))],
        times[-1],
    )
