"""The ``companion`` console script.

Each area of the product contributes its subcommands through a ``register(subparsers)``
function in its own ``commands`` module, so this file only knows the list of modules.
A subcommand sets ``run`` to a function taking the parsed arguments and returning the
exit status. Refusals (:class:`CompanionError`) become one sentence on stderr and exit
status 1 (2 for usage); a traceback is shown only with ``--debug``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
from collections.abc import Sequence

from companion import __version__
from companion.errors import CompanionError, UsageError

#: Modules that each add subcommands; the order is the order in ``--help``.
COMMAND_MODULES: tuple[str, ...] = (
    "companion.bitenight.commands",
    "calibration.commands",
    "web.commands",
    "web.load",
    "vision.commands",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Table companion for vampire board games: camera scoring, guided "
        "rendezvous and score pad.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    parser.add_argument(
        "--debug", action="store_true", help="show a full traceback when something fails"
    )
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except UsageError as error:
        print(f"companion: {error}", file=sys.stderr)
        return 2
    except CompanionError as error:
        print(f"companion: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``companion detect ... | head``): nothing left to tell.
        # Point stdout at devnull so the interpreter's final flush stays quiet too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception as error:  # a bug: say so in one line unless asked for the details
        if args.debug:
            traceback.print_exc()
        else:
            print(
                f"companion: internal error ({type(error).__name__}: {error}); "
                "run again with --debug for details",
                file=sys.stderr,
            )
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
