"""``companion calibration …`` and ``companion teach``: the console side of calibration.

Each function here only parses, calls one library function and reports; the work lives
in the modules named in the imports.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np

from calibration.layout import Paper, build_layout, check_token_colours
from calibration.printing import DEFAULT_DPI, write_pages, write_sheet
from calibration.render import render_sheet_photo
from calibration.seats import seat_marker_pages, zones_from_markers
from calibration.table import calibrate_table, table_calibration_path
from calibration.teach import TeachError, teach
from companion.errors import CompanionError, UsageError
from companion.middernacht.tokens import DEFAULT_TOKEN_COLOURS
from vision.correction import CameraCorrection
from vision.imageio import read_image
from vision.synth.camera import random_effects
from vision.tileset import TILE_SHAPES, load_tileset, save_tileset


def register(subparsers: argparse._SubParsersAction) -> None:
    calibration = subparsers.add_parser(
        "calibration",
        help="print the calibration sheet, calibrate a table camera, mark seats",
        description="Print the calibration sheet, calibrate a fixed table camera, and mark "
        "where each player's collection lies.",
    )
    commands = calibration.add_subparsers(title="commands", metavar="COMMAND", required=True)
    _register_sheet(commands)
    _register_render_sheet(commands)
    _register_table(commands)
    _register_seat_markers(commands)
    _register_seats(commands)
    _register_benchmark(commands)
    _register_teach(subparsers)


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


def _register_teach(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "teach",
        help="learn your tiles' artwork from photos of the calibration sheet",
        description="Turn photos of the calibration sheet's pages, with the tiles and "
        "tokens in their slots, into a tile set folder. One photo per page, any order. "
        "Nothing is written unless every page and slot is in order.",
    )
    parser.add_argument("photos", metavar="PHOTO", nargs="+", type=Path)
    parser.add_argument("--out", metavar="DIR", type=Path, required=True)
    parser.add_argument(
        "--shape", choices=TILE_SHAPES, help="shape of your tiles (default: seen in the photos)"
    )
    _token_colours_option(parser)
    parser.set_defaults(run=_run_teach)


def _run_teach(args: argparse.Namespace) -> int:
    out: Path = args.out
    if out.exists() and not (out / "tileset.json").is_file():
        raise TeachError(f"{out} exists and is not a tile set; choose another --out folder")
    colours = check_token_colours(args.token_colors)
    started = time.perf_counter()
    photos = [(str(path), read_image(path)) for path in args.photos]
    tileset = teach(photos, name=out.name, shape=args.shape, token_colours=colours)
    save_tileset(tileset, out)
    seconds = time.perf_counter() - started
    parts = []
    if tileset.faces:
        parts.append(
            f"{len(tileset.faces)} {tileset.tile_shape} tiles of {tileset.tile_size_mm:g} mm"
        )
    if tileset.token_faces:
        parts.append(f"{len(tileset.token_faces)} token colours and the back")
    print(f"taught {' and '.join(parts)} into {out} in {seconds:.1f} s")
    return 0


def _register_render_sheet(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "render-sheet",
        help="render a synthetic photo of the sheet with a tile set's pieces in their slots",
        description="Render photos of the calibration sheet's pages holding the pieces of "
        "a tile set, as a phone would take them (tilted, under a lamp): for trying "
        "'companion teach' without printing. Writes OUT-1.jpg, OUT-2.jpg, ... (one per "
        "page) unless --page picks one.",
    )
    parser.add_argument("--tileset", metavar="DIR", type=Path, required=True)
    parser.add_argument("--out", metavar="OUT.jpg|OUT.png", type=Path, required=True)
    parser.add_argument("--paper", choices=[p.value for p in Paper], default=Paper.A4.value)
    parser.add_argument("--page", type=int, help="render only this page")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--level",
        type=int,
        choices=(0, 1, 2),
        default=1,
        help="how hard the photo is: 0 easy, 1 medium (default), 2 hard (35° tilt, 2700 K)",
    )
    parser.add_argument(
        "--leave-out",
        metavar="SLOT,...",
        type=_colour_list,
        default=(),
        help="slots to leave empty",
    )
    parser.set_defaults(run=_run_render_sheet)


def _run_render_sheet(args: argparse.Namespace) -> int:
    if args.out.suffix.lower() not in (".jpg", ".jpeg", ".png"):
        raise UsageError(f"{args.out} must end in .jpg or .png")
    tileset = load_tileset(args.tileset)
    colours = DEFAULT_TOKEN_COLOURS  # the set's own names only where they differ
    if len(tileset.token_colours) == 6 and set(tileset.token_colours) != set(colours):
        colours = tileset.token_colours
    layout = build_layout(Paper(args.paper), tileset.tile_size_mm, colours)
    pages = layout.pages
    if args.page is not None:
        if not 1 <= args.page <= len(pages):
            raise UsageError(f"--page must be between 1 and {len(pages)}")
        pages = (pages[args.page - 1],)
    rng = np.random.default_rng(args.seed)
    for page in pages:
        effects = random_effects(rng, args.level)
        photo = render_sheet_photo(
            page, tileset, rng, effects=effects, leave_out=frozenset(args.leave_out)
        )
        path = (
            args.out
            if len(pages) == 1
            else args.out.with_name(f"{args.out.stem}-{page.number}{args.out.suffix}")
        )
        if not cv2.imwrite(str(path), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 92]):
            raise CompanionError(f"{path} could not be written")
        print(path)
    return 0


def _register_table(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "table",
        help="calibrate a fixed table camera from one frame with the sheet on the table",
        description="From one frame of a fixed camera with any page of the calibration "
        "sheet lying flat on the table: the mapping from pixels to millimetres on the "
        "table and a colour correction for the lamp, saved for that camera. Use it with "
        "'companion detect --table FILE'.",
    )
    parser.add_argument("frame", metavar="FRAME", type=Path)
    parser.add_argument("--camera", default="camera", help="a name for this camera")
    parser.add_argument(
        "--out",
        metavar="FILE",
        type=Path,
        help="where to save it (default: the camera's file in the user data folder)",
    )
    parser.set_defaults(run=_run_table)


def _run_table(args: argparse.Namespace) -> int:
    correction = calibrate_table(read_image(args.frame), str(args.frame), args.camera)
    out = args.out or table_calibration_path(args.camera)
    out.parent.mkdir(parents=True, exist_ok=True)
    correction.save(out)
    gains = np.diag(correction.colour_matrix)
    mm_per_px = correction.mm_per_px((0.0, 0.0))
    print(
        f"saved {out}: {1 / mm_per_px:.2f} px per mm at the image corner, colour gains "
        f"B {gains[0]:.2f} G {gains[1]:.2f} R {gains[2]:.2f}"
    )
    return 0


def _register_seat_markers(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "seat-markers",
        help="write printable seat markers (PDF or PNG)",
        description="Write one marker per seat to print, cut out and lay on the table "
        "where each player's collection goes; 'companion calibration seats' then finds "
        "them in a camera frame.",
    )
    parser.add_argument("out", metavar="OUT.pdf|OUT.png", type=Path)
    parser.add_argument("--seats", type=int, default=4, help="how many seats (2-6, default 4)")
    parser.add_argument("--paper", choices=[p.value for p in Paper], default=Paper.A4.value)
    parser.set_defaults(run=_run_seat_markers)


def _run_seat_markers(args: argparse.Namespace) -> int:
    paper = Paper(args.paper)
    pages = seat_marker_pages(args.seats, paper, DEFAULT_DPI)
    for path in write_pages(args.out, pages, [paper.size_mm] * len(pages), DEFAULT_DPI):
        print(path)
    return 0


def _register_seats(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "seats",
        help="derive seat zones from the seat markers in a camera frame",
        description="Find the printed seat markers in a frame of the table camera and give "
        "each seat the part of the table nearest its marker. With --table the zones are "
        "worked out in table millimetres, so the camera's tilt favours no seat.",
    )
    parser.add_argument("frame", metavar="FRAME", type=Path)
    parser.add_argument("--out", metavar="zones.json", type=Path, required=True)
    parser.add_argument("--table", metavar="FILE", type=Path, help="the camera's table calibration")
    parser.set_defaults(run=_run_seats)


def _run_seats(args: argparse.Namespace) -> int:
    homography = None
    if args.table is not None:
        homography = CameraCorrection.load(args.table).homography_px_to_mm
    zones = zones_from_markers(read_image(args.frame), str(args.frame), homography)
    args.out.write_text(zones.to_json() + "\n", encoding="utf-8")
    seats = ", ".join(zone.seat for zone in zones.zones)
    print(f"saved {args.out}: zones for seats {seats} (in {zones.units})")
    return 0


#: The tile set shipped in samples/, found from the package (the command may run anywhere).
BUNDLED_TILESET = Path(__file__).resolve().parent.parent / "samples" / "tilesets" / "nocturne"


def _register_benchmark(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "benchmark",
        help="time 'companion teach' on rendered photos of the sheet and print the figures",
        description="Render the sheet's pages holding a tile set (seeded, warm lamp, tilted), "
        "then time teaching from them several times: reading the photos, teaching, writing "
        "the folder. Prints the median and range of each.",
    )
    parser.add_argument(
        "--tileset",
        metavar="DIR",
        type=Path,
        default=BUNDLED_TILESET,
        help="the tile set whose pieces lie on the sheet (default: the bundled nocturne set)",
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.set_defaults(run=_run_benchmark)


def _run_benchmark(args: argparse.Namespace) -> int:
    import statistics
    import tempfile

    if args.runs < 1:
        raise UsageError("--runs must be at least 1")
    tileset = load_tileset(args.tileset)
    layout = build_layout(Paper.A4, tileset.tile_size_mm)
    rng = np.random.default_rng(args.seed)
    figures: dict[str, list[float]] = {"read photos": [], "teach": [], "write folder": []}
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for page in layout.pages:
            photo = render_sheet_photo(page, tileset, rng, level=1)
            path = Path(folder) / f"page-{page.number}.jpg"
            cv2.imwrite(str(path), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
            paths.append(path)
        height, width = photo.image.shape[:2]
        for _ in range(args.runs):
            clock = time.perf_counter()
            photos = [(str(path), read_image(path)) for path in paths]
            figures["read photos"].append(time.perf_counter() - clock)
            clock = time.perf_counter()
            taught = teach(photos, name="benchmark")
            figures["teach"].append(time.perf_counter() - clock)
            clock = time.perf_counter()
            save_tileset(taught, Path(folder) / "taught")
            figures["write folder"].append(time.perf_counter() - clock)
    totals = [sum(run) for run in zip(*figures.values(), strict=True)]
    print(
        f"teach benchmark: {len(paths)} photos of {width}×{height} px, tile set "
        f"{tileset.name}, {args.runs} runs (seconds: median, min–max)"
    )
    for name, values in [*figures.items(), ("total", totals)]:
        print(f"  {name:<13} {statistics.median(values):6.2f}  {min(values):.2f}–{max(values):.2f}")
    return 0
