"""``companion rendezvous``: resolve one Bite Night rendezvous from a scenario file.

The command runs the same machine as the phone page (see
:mod:`companion.bitenight.scenario`); ``--bench`` measures it instead.
"""

from __future__ import annotations

import argparse
import json

from companion.bitenight.bench import bench
from companion.bitenight.scenario import load_scenario, resolve, result_json, result_table
from companion.errors import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "rendezvous",
        help="resolve a Bite Night rendezvous from a scenario file",
        description="Resolve one Bite Night rendezvous (pile, collections, graveyard, "
        "choices) by the rules engine and print every step, the points and the tiles "
        "left. Choices not in the file take the engine's suggestion (RULINGS.md B5, B9).",
    )
    parser.add_argument("scenario", nargs="?", metavar="SCENARIO.json", help="scenario file")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument(
        "--bench",
        action="store_true",
        help="instead, time seeded random 4-player 20-card piles and print median/p95 ms",
    )
    parser.add_argument("--piles", type=int, default=200, help="piles in the benchmark")
    parser.add_argument("--repeats", type=int, default=5, help="runs over the piles")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the benchmark piles")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.bench:
        if args.piles < 1 or args.repeats < 1:
            raise UsageError("--piles and --repeats must be at least 1")
        print(bench(args.piles, args.repeats, args.seed).report())
        return 0
    if args.scenario is None:
        raise UsageError("rendezvous needs a SCENARIO.json file (or --bench)")
    state = resolve(load_scenario(args.scenario))
    if args.json:
        print(json.dumps(result_json(state), indent=2))
    else:
        print(result_table(state))
    return 0
