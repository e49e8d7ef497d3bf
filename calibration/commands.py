"""``companion calibration …`` and ``companion teach``: the console side of calibration.

Each function here only parses, calls one library function and reports; the work lives
in the modules named in the imports.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from calibration.layout import Paper, build_layout
from calibration.printing import DEFAULT_DPI, write_sheet
from companion.errors import UsageError
from companion.middernacht.tokens import DEFAULT_TOKEN_COLOURS


def register(subparsers: argparse._SubParsersAction) -> None:
    calibration = subparsers.add_parser(
        "calibration",
        help="print the calibration sheet, calibrate a table camera, mark seats",
        description="Print the calibration sheet, calibrate a fixed table camera, and mark "
        "where each player's collection lies.",
    )
    commands = calibration.add_subparsers(title="commands", metavar="COMMAND", required=True)
    _register_sheet(commands)


def _register_sheet(commands: argparse._SubParsersAction) -> None:
    sheet = commands.add_parser(
        "sheet",
        help="write the printable calibration sheet (PDF or PNG)",
        description="Write the printable calibration sheet: three pages with a labelled "
        "slot for each of the 50 Moon tiles and the vampire tokens. A PNG name gets one "
        "file per page (OUT-1.png, OUT-2.png, ...). Print at 100 %% (actual size).",
    )
    sheet.add_argument("out", metavar="OUT.pdf|OUT.png", type=Path)
    sheet.add_argument("--paper", choices=[p.value for p in Paper], default=Paper.A4.value)
    sheet.add_argument(
        "--layout", metavar="OUT.json", type=Path, help="also write the sheet's geometry"
    )
    sheet.add_argument(
        "--tile-size",
        metavar="MM",
        type=float,
        default=40.0,
        help="side of your tiles in mm (default 40: slots take tiles up to 41 mm; "
        "33 or less gives the compact sheet, one 5×5 grid per page)",
    )
    sheet.add_argument("--dpi", type=int, default=DEFAULT_DPI, help=argparse.SUPPRESS)
    _token_colours_option(sheet)
    sheet.set_defaults(run=_run_sheet)


def _token_colours_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--token-colors",
        metavar="a,b,...",
        type=_colour_list,
        default=DEFAULT_TOKEN_COLOURS,
        help="the six vampire token colours (default: " + ",".join(DEFAULT_TOKEN_COLOURS) + ")",
    )


def _colour_list(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def _run_sheet(args: argparse.Namespace) -> int:
    if not 72 <= args.dpi <= 1200:
        raise UsageError("--dpi must be between 72 and 1200")
    layout = build_layout(Paper(args.paper), args.tile_size, args.token_colors)
    written = write_sheet(args.out, layout, args.dpi, args.layout)
    for path in written:
        print(path)
    return 0
