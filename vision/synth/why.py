"""Which field of each misnamed tile was wrong: its colour, its motif or its heart.

A regression line says how many tiles a photo read right of those it found; a tile found
but named wrong may have its colour, its motif or its heart wrong, and each has its own
causes (the lamp or the edge for colour, structure for motif, a small spot for a heart).
This reads again the photos of a regression file (``vision.synth.regression run``) that
found more tiles than they read right, and prints one line a misnamed tile: the photo,
the fields that were wrong, the truth and the reading, its confidence and the frame's
lamp; then a table by style and field.

``python -m vision.synth.why BASE.txt [--reencode Q] [--styles a,b]``
"""

from __future__ import annotations

import argparse
import pickle
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from companion.bitenight.tiles import Tile
from vision.evaluate import VISIBLE_MIN, matched_tiles
from vision.recogniser import Recogniser
from vision.results import FrameResult
from vision.synth.regression import photo_path, reencoded, style_tileset
from vision.synth.scene import SyntheticPhoto

FIELDS = ("colour", "motif", "heart")


@dataclass(frozen=True)
class Misnamed:
    """A true tile found but named wrong."""

    truth: Tile
    read: Tile
    confidence: float

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(f for f in FIELDS if getattr(self.truth, f) != getattr(self.read, f))


def misnamed(photo: SyntheticPhoto, result: FrameResult) -> list[Misnamed]:
    """The photo's tiles found but named wrong, matched to detections as
    :func:`vision.evaluate.score_photo` matches them."""
    out = []
    for truth, j in matched_tiles(photo, result):
        found = result.tiles[j]
        if truth.visible >= VISIBLE_MIN and found.tile != truth.tile:
            out.append(Misnamed(truth.tile, found.tile, found.confidence))
    return out


def photos_with_misnamed(path: Path) -> dict[str, list[int]]:
    """Each set's photos (label without the re-encoding suffix: indices) whose line found
    more tiles than it read right."""
    out: dict[str, list[int]] = defaultdict(list)
    for line in path.read_text().splitlines():
        words = line.split()
        if line.startswith("=") or len(words) < 6:
            continue
        if int(words[5]) > int(words[3].split("/")[0]):
            out[re.sub(r"-j\d+$", "", words[0])].append(int(words[1][1:]))
    return out


def _name(tile: Tile) -> str:
    return f"{tile.colour.value}/{tile.motif.value}/{'heart' if tile.heart else '-'}"


def table(rows: list[tuple[str, Misnamed]]) -> str:
    """Misnamed tiles by style and wrong field (a tile wrong in two fields counts in both)."""
    by_style: dict[str, Counter] = defaultdict(Counter)
    for style, m in rows:
        by_style[style]["tiles"] += 1
        by_style[style].update(m.fields)
    total: Counter = Counter()
    lines = [f"{'style':10} {'tiles':>5} {'colour':>6} {'motif':>6} {'heart':>6}"]
    for style, counts in [
        *sorted(by_style.items(), key=lambda kv: -kv[1]["tiles"]),
        ("all", total),
    ]:
        lines.append(
            f"{style:10} {counts['tiles']:5} " + " ".join(f"{counts[f]:6}" for f in FIELDS)
        )
        if style != "all":
            total.update(counts)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("base", type=Path, help="a regression run's output")
    parser.add_argument("--reencode", type=int, metavar="Q")
    parser.add_argument("--styles", help="comma-separated styles (all by default)")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/regression-cache"))
    args = parser.parse_args(argv)
    styles = set(args.styles.split(",")) if args.styles else None
    recognisers: dict[str, Recogniser] = {}
    rows: list[tuple[str, Misnamed]] = []
    for label, indices in photos_with_misnamed(args.base).items():
        style = label.rsplit("-", 2)[0]
        if styles is not None and style not in styles:
            continue
        if style not in recognisers:
            recognisers[style] = Recogniser(style_tileset(style, args.cache))
        for index in indices:
            with photo_path(args.cache, label, index).open("rb") as f:
                photo = pickle.load(f)
            image = reencoded(photo.image, args.reencode) if args.reencode else photo.image
            result = recognisers[style].detect(image)
            lamp = " ".join(f"{g:.2f}" for g in result.light_gains)
            for m in misnamed(photo, result):
                rows.append((style, m))
                print(
                    f"{label} #{index:<2} {'+'.join(m.fields):18} true {_name(m.truth):24} "
                    f"read {_name(m.read):24} conf {m.confidence:.2f} lamp {lamp}",
                    flush=True,
                )
    print(table(rows))


if __name__ == "__main__":
    main()
