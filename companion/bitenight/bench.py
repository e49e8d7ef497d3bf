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
class Figures:
    """Median, 95th percentile and maximum of some timings, in milliseconds."""

    median: float
    p95: float
    max: float

    @classmethod
    def of(cls, times: list[float]) -> Figures:
        ordered = sorted(times)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        return cls(statistics.median(ordered), p95, ordered[-1])

    def __str__(self) -> str:
        return f"median {self.median:.3f} ms, p95 {self.p95:.3f} ms, max {self.max:.3f} ms"


@dataclass(frozen=True)
class BenchResult:
    """Wall-clock time per pile, and the CPU time this process spent on it.

    On a shared machine the wall clock also counts the time other jobs held the CPU;
    the CPU time shows what the engine itself costs.
    """

    piles: int
    repeats: int
    wall: Figures
    cpu: Figures

    def report(self) -> str:
        return (
            f"rendezvous: {self.piles} seeded 4-player 20-card piles x {self.repeats} runs, "
            f"per pile (goal < 5 ms)\n"
            f"  wall clock: {self.wall}\n"
            f"  CPU time:   {self.cpu}"
        )


def bench(piles: int = 200, repeats: int = 5, seed: int = 2026) -> BenchResult:
    rng = random.Random(seed)
    scenarios = [random_scenario(rng) for _ in range(piles)]
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(repeats):
        for scenario in scenarios:
            started, started_cpu = time.perf_counter(), time.thread_time()
            resolve(scenario)
            wall.append((time.perf_counter() - started) * 1000)
            cpu.append((time.thread_time() - started_cpu) * 1000)
    return BenchResult(piles, repeats, Figures.of(wall), Figures.of(cpu))
