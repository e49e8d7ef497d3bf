"""A regression run over every rendered style: one line per photo, to compare two trees.

``companion evaluate`` gives one tile set's figures; a change to recognition must be
judged on all of them at once, photo by photo, since a rule that mends one style often
costs another a tile. This runs the fixed sets below and writes a text file whose lines
can be compared with :func:`compare` (``python -m vision.synth.regression compare A B``).

The photos are exactly ``companion evaluate``'s (:func:`vision.evaluate.evaluation_photo`)
and are cached as pickles, since rendering costs about a second a photo and the detection
a tenth of that; delete the cache whenever the renderer or a style's art changes.

Sets (``--sets``):

* ``studied``: the sample sets and the held-out ``slate`` and ``ember``, seed 2024, all
  three levels, 20 photos: what ``companion evaluate`` reports in the README.
* ``fresh``: the same four styles at the hard level, seeds 7, 31 and 555, 10 photos each.
* ``check``: every check style (``vision.synth.check_styles``) at the hard level, seed
  2024 (20 photos) and seed 7 (10 photos).
* ``empty``: every style above, hard level, seed 2024, 8 photos of a table with no
  piece on it, only the cards, dice, hand and deposit mat (:func:`empty_table_photo`):
  every tile or token read there is a false one, and nothing else measures a frame
  with no tile to say how large one is.
* ``few``: every style above, hard level, seed 2024, 6 photos of a table with one to
  three tiles (every other one with a token row too) among the same things
  (:func:`few_tiles_photo`): what a rule against the empty table's clutter must still
  read, where no block of tiles tells a tile's size.
* ``real``: every style above at the real level (3: thick pieces, a webcam's lens, glare,
  two lamps, a phone's sharpening), seed 2024, 10 photos. Not in the default run: it
  measures photography none of the styles was studied on.

``--reencode Q`` saves every photo once more as a JPEG of quality Q before reading it
(what a phone's upload or a second save does): a rule that holds only on one exact set of
pixels shows there. ``--scenes s7-L2-3,s2024-L2-19`` reads only those photos of each set
(seed, level, index): a change that can act on a few scenes only (a checked cloth's) is
judged in minutes on every style.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import pickle
import time
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

from vision.evaluate import (
    LevelReport,
    PhotoScore,
    empty_table_photo,
    evaluation_photo,
    few_tiles_photo,
    score_photo,
)
from vision.recogniser import Recogniser
from vision.results import FrameResult
from vision.synth.art import STYLES as ART_STYLES
from vision.synth.art import make_tileset
from vision.synth.check_styles import STYLES as CHECK_STYLES
from vision.synth.check_styles import check_set
from vision.synth.scene import SyntheticPhoto
from vision.tileset import TileSet, load_tileset, save_tileset

#: How each sparse table's photos are rendered (:attr:`PhotoSet.table`).
RENDERS = {"empty": empty_table_photo, "few": few_tiles_photo}

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "tilesets"
STUDIED = ("nocturne", "lantern", "slate", "ember")


@dataclass(frozen=True)
class PhotoSet:
    """``photos`` photos of one style, rendered from one seed at one level; ``table``
    names a set of sparse tables (``empty``, ``few``), the full table by default."""

    style: str
    seed: int
    level: int
    photos: int
    table: str = ""

    @property
    def label(self) -> str:
        return f"{self.style}-s{self.seed}-L{self.level}" + self._suffix

    def scene(self, index: int) -> str:
        """The photo's scene, the same in every style (``--scenes``)."""
        return f"s{self.seed}-L{self.level}-{index}" + self._suffix

    @property
    def _suffix(self) -> str:
        return f"-{self.table}" if self.table else ""


def photo_sets(groups: list[str], styles: set[str] | None = None) -> list[PhotoSet]:
    sets: list[PhotoSet] = []
    if "studied" in groups:
        sets += [PhotoSet(s, 2024, level, 20) for s in STUDIED for level in (0, 1, 2)]
    if "fresh" in groups:
        sets += [PhotoSet(s, seed, 2, 10) for s in STUDIED for seed in (7, 31, 555)]
    if "check" in groups:
        for name in CHECK_STYLES:
            sets += [PhotoSet(name, 2024, 2, 20), PhotoSet(name, 7, 2, 10)]
    if "empty" in groups:
        sets += [PhotoSet(s, 2024, 2, 8, "empty") for s in (*STUDIED, *CHECK_STYLES)]
    if "few" in groups:
        sets += [PhotoSet(s, 2024, 2, 6, "few") for s in (*STUDIED, *CHECK_STYLES)]
    if "real" in groups:
        sets += [PhotoSet(s, 2024, 3, 10) for s in (*STUDIED, *CHECK_STYLES)]
    return [s for s in sets if styles is None or s.style in styles]


def style_tileset(style: str, cache: Path) -> TileSet:
    """The style's tile set as ``companion evaluate --tileset`` would load it."""
    if (SAMPLES / style).is_dir():
        return load_tileset(SAMPLES / style)
    folder = cache / "tilesets" / style
    if not folder.is_dir():
        drawn = check_set(style) if style in CHECK_STYLES else make_tileset(ART_STYLES[style])
        save_tileset(drawn, folder)
    return load_tileset(folder)


def photo_path(cache: Path, label: str, index: int) -> Path:
    """Where the ``index``-th photo of the set ``label`` is kept in ``cache``."""
    return cache / "photos" / f"{label}-{index}.pkl"


def cached_photos(
    photo_set: PhotoSet,
    tileset: TileSet,
    cache: Path,
    scenes: frozenset[str] | None = None,
) -> Iterator[tuple[int, SyntheticPhoto]]:
    """The set's photos with their indices, rendered only when first asked for; with
    ``scenes``, only those."""
    (cache / "photos").mkdir(parents=True, exist_ok=True)
    for index in range(photo_set.photos):
        if scenes is not None and photo_set.scene(index) not in scenes:
            continue
        path = photo_path(cache, photo_set.label, index)
        if path.exists():
            with path.open("rb") as f:
                yield index, pickle.load(f)
            continue
        render = RENDERS.get(photo_set.table, evaluation_photo)
        photo = render(tileset, photo_set.seed, photo_set.level, index)
        # Written aside and renamed, so that runs sharing the cache never read half a pickle.
        partial = path.with_suffix(f".{os.getpid()}.part")
        with partial.open("wb") as f:
            pickle.dump(photo, f)
        partial.replace(path)
        yield index, photo


def reencoded(image: np.ndarray, quality: int) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError(f"OpenCV could not encode a photo as a JPEG of quality {quality}")
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def photo_line(label: str, s: PhotoScore, digest: str) -> str:
    return (
        f"{label} #{s.index:<2} tiles {s.tiles_right}/{s.tiles} found {s.found} "
        f"false {s.false_positives} tokens {s.tokens_right}/{s.tokens} "
        f"false {s.token_false_positives} read {digest} ms {s.milliseconds:.0f}"
    )


def readings_digest(result: FrameResult) -> str:
    """Eight hex digits that change with any piece's name or place (to the pixel): two
    trees whose lines agree on it read the photo alike, not only score it alike, which
    is what a change meant to be faster only must show."""
    pieces = sorted(
        [(str(t.tile), round(t.center[0]), round(t.center[1])) for t in result.tiles]
        + [(str(t.colour), round(t.center[0]), round(t.center[1])) for t in result.tokens]
    )
    return hashlib.sha1(repr(pieces).encode()).hexdigest()[:8]


def summary_line(label: str, scores: list[PhotoScore]) -> str:
    """The set's figures as ``companion evaluate`` counts them (:class:`LevelReport`)."""
    f = LevelReport(scores[0].level if scores else 0, scores).figures()
    return (
        f"= {label} tiles {100 * f['tile_accuracy']:.1f} "
        f"exact {100 * f['exact_collections']:.1f} "
        f"tokens {100 * f['token_accuracy']:.1f} "
        f"false {f['false_positives']} tokfalse {f['token_false_positives']} "
        f"median_ms {f['median_ms']:.0f}"
    )


def run_set(job: tuple[PhotoSet, Path, int | None, frozenset[str] | None]) -> list[str]:
    photo_set, cache, quality, scenes = job
    tileset = style_tileset(photo_set.style, cache)
    recogniser = Recogniser(tileset)
    label = photo_set.label + (f"-j{quality}" if quality else "")
    scores, lines = [], []
    for index, photo in cached_photos(photo_set, tileset, cache, scenes):
        image = reencoded(photo.image, quality) if quality else photo.image
        start = time.perf_counter()
        result = recogniser.detect(image)
        milliseconds = (time.perf_counter() - start) * 1000
        score = score_photo(photo, result, photo_set.level, index)
        score.milliseconds = milliseconds
        scores.append(score)
        lines.append(photo_line(label, score, readings_digest(result)))
    return [*lines, summary_line(label, scores)] if scores else []


def run(
    out: Path,
    groups: list[str],
    styles: set[str] | None,
    cache: Path,
    jobs: int,
    quality: int | None,
    scenes: frozenset[str] | None = None,
) -> None:
    sets = photo_sets(groups, styles)
    if scenes is not None:
        sets = [s for s in sets if any(s.scene(i) in scenes for i in range(s.photos))]
    for style in {s.style for s in sets}:  # drawn once, before the workers share the cache
        style_tileset(style, cache)
    with out.open("w") as f, Pool(jobs) as pool:
        for lines in pool.imap(run_set, [(s, cache, quality, scenes) for s in sets]):
            if not lines:  # none of its photos among ``scenes``
                continue
            f.write("\n".join(lines) + "\n")
            f.flush()
            print(lines[-1], flush=True)


def _key(line: str) -> str:
    """A line's set and photo (``label #index``), or a summary's set."""
    words = line.split()
    return words[1] if line.startswith("=") else " ".join(words[:2])


def compare(a: Path, b: Path) -> None:
    """Print the photos and summaries whose readings differ (times are left out)."""

    def read(path: Path) -> dict[str, str]:
        return {_key(line): " ".join(line.split()) for line in path.read_text().splitlines()}

    def without_time(line: str) -> str:
        return line.rsplit(" ms ", 1)[0].rsplit(" median_ms ", 1)[0]

    old, new = read(a), read(b)
    for key in new:
        if key in old and without_time(old[key]) != without_time(new[key]):
            marker = "  " if not new[key].startswith("=") else ""
            print(f"{marker}- {old[key]}\n{marker}+ {new[key]}")
    missing = [k for k in old if k not in new]
    if missing:
        print(f"{len(missing)} lines only in {a}")
    print(f"median ms over all photos: {_median_ms(old):.1f} → {_median_ms(new):.1f}")


def _median_ms(lines: dict[str, str]) -> float:
    times = [float(line.rsplit(" ms ", 1)[1]) for line in lines.values() if " ms " in line]
    return float(np.median(times)) if times else 0.0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    go = sub.add_parser("run", help="read every set and write one line per photo")
    go.add_argument("out", type=Path)
    go.add_argument("--sets", default="studied,fresh,check,empty,few")
    go.add_argument("--styles", help="comma-separated styles (all by default)")
    go.add_argument("--cache", type=Path, default=Path("/tmp/regression-cache"))
    go.add_argument("--jobs", type=int, default=1)
    go.add_argument("--reencode", type=int, metavar="Q", help="JPEG quality to save again at")
    go.add_argument("--scenes", help="only these photos of each set: s7-L2-3,s2024-L2-19")
    diff = sub.add_parser("compare", help="the lines two runs read differently")
    diff.add_argument("a", type=Path)
    diff.add_argument("b", type=Path)
    args = parser.parse_args(argv)
    if args.command == "compare":
        compare(args.a, args.b)
        return
    styles = set(args.styles.split(",")) if args.styles else None
    scenes = frozenset(args.scenes.split(",")) if args.scenes else None
    run(args.out, args.sets.split(","), styles, args.cache, args.jobs, args.reencode, scenes)


if __name__ == "__main__":
    main()
