"""``companion detect``, ``companion evaluate`` and ``companion render-photos``.

``detect`` follows INTERFACES.md exactly: one JSON array with one object per image in
the order given; an image that cannot be read gets ``{"image", "error"}`` and the exit
status becomes 1 while the others are still processed.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import sys
from datetime import UTC, datetime
from pathlib import Path

import cv2
import numpy as np

from companion.errors import CompanionError, UsageError
from vision.config import VisionConfig
from vision.correction import CameraCorrection
from vision.evaluate import LEVEL_NAMES, evaluate
from vision.imageio import ImageError, read_image
from vision.overlay import draw_overlay
from vision.recogniser import Recogniser
from vision.results import FrameResult
from vision.synth.scene import render_photo
from vision.tileset import load_tileset

DEFAULT_TILESET = Path(__file__).resolve().parent.parent / "samples" / "tilesets" / "nocturne"
LEVELS = tuple(range(len(LEVEL_NAMES)))
LEVEL_HELP = (
    "0 easy, 1 medium, 2 hard (35° tilt, 2700-9500 K, a checked cloth), 3 real (the hard "
    "level with thick pieces, a webcam lens, glare, two lamps and a phone's sharpening)"
)


def register(subparsers: argparse._SubParsersAction) -> None:
    detect = subparsers.add_parser(
        "detect",
        help="find the Moon tiles and vampire tokens in photos",
        description="Find every Moon tile and vampire token lying face up in each photo.",
    )
    detect.add_argument("images", nargs="+", metavar="IMAGE", help="photos to read")
    detect.add_argument("--tileset", required=True, metavar="DIR", help="tile set folder")
    detect.add_argument("--json", action="store_true", help="print one JSON array")
    detect.add_argument(
        "--overlay",
        metavar="OUT.png",
        help="draw what was found (ids, confidence, rejected pieces); several images "
        "give OUT-1.png, OUT-2.png, …",
    )
    detect.add_argument(
        "--table", metavar="FILE", help="table calibration JSON from `companion calibration`"
    )
    detect.add_argument("--config", metavar="FILE", help="recognition settings to override")
    detect.set_defaults(run=run_detect)

    measure = subparsers.add_parser(
        "evaluate",
        help="measure recognition on seeded rendered photos",
        description="Render seeded photos at three difficulty levels, run recognition "
        "and print accuracy and time per 1280×720 frame for each level.",
    )
    measure.add_argument("--tileset", default=str(DEFAULT_TILESET), metavar="DIR")
    measure.add_argument("--photos", type=int, default=20, help="photos per level (20)")
    measure.add_argument(
        "--levels", default="0,1,2", help=f"levels to run, e.g. 2 (0,1,2): {LEVEL_HELP}"
    )
    measure.add_argument("--seed", type=int, default=2024)
    measure.add_argument("--csv", metavar="OUT.csv", help="also write one row per photo")
    measure.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="detect each photo this many times and keep its fastest time: the figure "
        "a busy machine's other work disturbs least (1)",
    )
    measure.add_argument("--config", metavar="FILE", help="recognition settings to override")
    measure.add_argument(
        "--close-ups",
        action="store_true",
        help="upright 960×1280 phone photos of 3 to 7 tiles instead of 1280×720 frames of 15",
    )
    measure.set_defaults(run=run_evaluate)

    render = subparsers.add_parser(
        "render-photos",
        help="render seeded synthetic photos of tiles on a table",
        description="Render photos of random collections (with truth as JSON beside "
        "each) for demos, tests and benchmarks.",
    )
    render.add_argument("out", metavar="DIR")
    render.add_argument("--tileset", default=str(DEFAULT_TILESET), metavar="DIR")
    render.add_argument("--count", type=int, default=8)
    render.add_argument("--level", type=int, choices=LEVELS, default=1, help=LEVEL_HELP)
    render.add_argument("--tiles", type=int, default=15, help="tiles per photo (15)")
    render.add_argument("--token-rows", type=int, default=0)
    render.add_argument("--seed", type=int, default=7)
    render.set_defaults(run=run_render)


def run_detect(args: argparse.Namespace) -> int:
    recogniser = Recogniser(load_tileset(args.tileset), VisionConfig.load(args.config))
    correction = CameraCorrection.load(args.table) if args.table else None
    entries: list[dict] = []
    failed = False
    for index, name in enumerate(args.images):
        try:
            image = read_image(name)
            result = recogniser.detect(image, correction)
        except ImageError as error:
            entries.append({"image": name, "error": str(error)})
            failed = True
            continue
        entries.append(result.to_json(name))
        if args.overlay:
            _write_overlay(args.overlay, index, len(args.images), draw_overlay(image, result))
        if not args.json:
            _print_table(name, result)
    if args.json:
        json.dump(entries, sys.stdout, indent=2)
        print()
    else:
        for entry in entries:
            if "error" in entry:
                print(f"{entry['image']}: {entry['error']}")
    return 1 if failed else 0


def run_evaluate(args: argparse.Namespace) -> int:
    if args.photos < 1:
        raise UsageError("--photos must be at least 1.")
    if args.repeat < 1:
        raise UsageError("--repeat must be at least 1.")
    try:
        levels = tuple(int(part) for part in args.levels.split(","))
    except ValueError:
        raise UsageError("--levels takes numbers from 0 to 3, e.g. 0,1,2.") from None
    if not levels or any(level not in LEVELS for level in levels):
        raise UsageError("--levels takes numbers from 0 to 3, e.g. 0,1,2.")
    tileset = load_tileset(args.tileset)
    recogniser = Recogniser(tileset, VisionConfig.load(args.config))
    reports = evaluate(
        tileset, recogniser, args.photos, levels, args.seed, args.repeat, args.close_ups
    )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    photos = "close-ups (960×1280, 3-7 tiles)" if args.close_ups else "1280×720 photos"
    print(
        f"companion evaluate: tile set '{tileset.name}', {args.photos} {photos} per level, "
        f"seed {args.seed}, fastest of {args.repeat} per photo, "
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, "
        f"{platform.machine()} ×{os.cpu_count()} cores, load {load:.1f}"
    )
    header = (
        f"{'level':<8}{'tiles':>8}{'exact':>8}{'colour':>8}{'motif':>8}{'heart':>8}"
        f"{'false+':>8}{'tokens':>8}{'median':>9}{'p95':>8}{'cpu':>8}"
    )
    print(header)
    for report in reports:
        f = report.figures()
        print(
            f"{LEVEL_NAMES[report.level]:<8}{f['tile_accuracy']:>8.1%}{f['exact_collections']:>8.0%}"
            f"{f['colour_accuracy']:>8.1%}{f['motif_accuracy']:>8.1%}{f['heart_accuracy']:>8.1%}"
            f"{f['false_positives']:>8d}{f['token_accuracy']:>8.1%}"
            f"{f['median_ms']:>7.0f}ms{f['p95_ms']:>6.0f}ms{f['median_cpu_ms']:>6.0f}ms"
        )
    if args.csv:
        _write_csv(Path(args.csv), reports)
    return 0


def run_render(args: argparse.Namespace) -> int:
    if args.count < 1 or not 0 <= args.tiles <= 50:
        raise UsageError("--count must be at least 1 and --tiles from 0 to 50.")
    tileset = load_tileset(args.tileset)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for index in range(args.count):
        rng = np.random.default_rng([args.seed, index])
        photo = render_photo(
            tileset, rng, level=args.level, n_tiles=args.tiles, token_rows=args.token_rows
        )
        stem = out / f"table-{index + 1:02d}"
        if not cv2.imwrite(
            str(stem.with_suffix(".jpg")), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 85]
        ):
            raise CompanionError(f"{stem.with_suffix('.jpg')} could not be written.")
        truth = {
            "tileset": tileset.name,
            "tiles": [
                {"id": t.tile.id, "center": [round(t.center[0], 1), round(t.center[1], 1)]}
                for t in photo.tiles
            ],
            "tokens": [
                {
                    "color": t.colour,
                    "face_up": t.face_up,
                    "center": [round(t.center[0], 1), round(t.center[1], 1)],
                }
                for t in photo.tokens
            ],
        }
        stem.with_suffix(".json").write_text(json.dumps(truth, indent=2) + "\n", encoding="utf-8")
        counts = f"{len(photo.tiles)} tiles, {len(photo.tokens)} tokens"
        print(f"wrote {stem.with_suffix('.jpg')} ({counts})")
    return 0


def _write_overlay(target: str, index: int, count: int, image: np.ndarray) -> None:
    path = Path(target)
    if count > 1:
        path = path.with_name(f"{path.stem}-{index + 1}{path.suffix or '.png'}")
    if not cv2.imwrite(str(path), image):
        raise CompanionError(f"The overlay {path} could not be written (is it a .png or .jpg?).")


def _print_table(name: str, result: FrameResult) -> None:
    counts = f"{len(result.tiles)} tiles, {len(result.tokens)} tokens"
    print(f"{name} ({result.width}×{result.height}): {counts}")
    for tile in result.tiles:
        x, y = tile.center
        print(f"  {tile.tile.id:<24} at {x:7.1f},{y:7.1f}   confidence {tile.confidence:.2f}")
    for token in result.tokens:
        x, y = token.center
        what = f"token {token.colour}" if token.face_up else "token face down"
        print(f"  {what:<24} at {x:7.1f},{y:7.1f}   confidence {token.confidence:.2f}")


def _write_csv(path: Path, reports: list) -> None:
    rows = [photo for report in reports for photo in report.photos]
    fields = [
        "level",
        "index",
        "tiles",
        "found",
        "tiles_right",
        "colour_right",
        "motif_right",
        "heart_right",
        "false_positives",
        "tokens",
        "tokens_right",
        "token_false_positives",
        "milliseconds",
        "cpu_milliseconds",
    ]
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(fields)
        for photo in rows:
            writer.writerow(
                [
                    f"{getattr(photo, f):.1f}" if f.endswith("milliseconds") else getattr(photo, f)
                    for f in fields
                ]
            )
