"""Measuring the recogniser on rendered photos with known truth (``companion evaluate``).

Each level renders its own seeded photos (15 tiles each, every other photo also with
token rows), runs the recogniser and compares: a detection counts for the nearest
unclaimed true tile within 0.4 of a tile's side. A missed tile is wrong on every
count; a detection with no true tile near it is a false positive; a tile mostly hidden
under what was laid after it (the mat on a close-up's crowded table) counts neither
way. Times are wall
clock per frame of ``detect`` alone (rendering excluded).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np

from vision.recogniser import Recogniser
from vision.results import FrameResult
from vision.synth.scene import SyntheticPhoto, TruthTile, TruthToken, render_photo
from vision.tileset import TileSet

#: A true piece of a rendered photo, matched to a detection by :func:`matched`.
T = TypeVar("T", TruthTile, TruthToken)

LEVEL_NAMES = ("easy", "medium", "hard", "real")
#: A piece counts in the truth when at least this share of it is in view.
VISIBLE_MIN = 0.5


@dataclass
class PhotoScore:
    """The comparison of one photo's detections with its truth."""

    level: int
    index: int
    tiles: int = 0
    found: int = 0  # true tiles with a detection on them, right or wrong
    tiles_right: int = 0
    colour_right: int = 0
    motif_right: int = 0
    heart_right: int = 0
    false_positives: int = 0
    tokens: int = 0
    tokens_right: int = 0
    token_false_positives: int = 0
    milliseconds: float = 0.0  # wall clock
    cpu_milliseconds: float = 0.0  # processor time of all threads (fair on a busy machine)

    @property
    def exact(self) -> bool:
        return self.tiles_right == self.tiles and self.false_positives == 0


@dataclass
class LevelReport:
    level: int
    photos: list[PhotoScore] = field(default_factory=list)

    def _share(self, part: str, whole: str) -> float:
        total = sum(getattr(p, whole) for p in self.photos)
        return sum(getattr(p, part) for p in self.photos) / total if total else 1.0

    def figures(self) -> dict[str, float]:
        times = [p.milliseconds for p in self.photos]
        return {
            "photos": len(self.photos),
            "tile_accuracy": self._share("tiles_right", "tiles"),
            "exact_collections": sum(p.exact for p in self.photos) / max(len(self.photos), 1),
            "colour_accuracy": self._share("colour_right", "tiles"),
            "motif_accuracy": self._share("motif_right", "tiles"),
            "heart_accuracy": self._share("heart_right", "tiles"),
            "false_positives": sum(p.false_positives for p in self.photos),
            "token_accuracy": self._share("tokens_right", "tokens"),
            "token_false_positives": sum(p.token_false_positives for p in self.photos),
            "median_ms": float(np.median(times)) if times else 0.0,
            "p95_ms": float(np.percentile(times, 95)) if times else 0.0,
            "median_cpu_ms": float(np.median([p.cpu_milliseconds for p in self.photos]))
            if self.photos
            else 0.0,
        }


def score_photo(photo: SyntheticPhoto, result: FrameResult, level: int, index: int) -> PhotoScore:
    """Compare one frame's detections with the photo's truth.

    A piece mostly hidden under something laid after it (under :data:`VISIBLE_MIN` of
    it in view: a close-up's table may have no room for the mat beside its tiles) counts
    neither way: missing it is no error, and reading it is no false positive.
    """
    tiles = [t for t in photo.tiles if t.visible >= VISIBLE_MIN]
    tokens = [t for t in photo.tokens if t.visible >= VISIBLE_MIN]
    score = PhotoScore(level=level, index=index, tiles=len(tiles), tokens=len(tokens))
    pairs = matched_tiles(photo, result)
    for truth, j in pairs:
        if truth.visible < VISIBLE_MIN:
            continue
        score.found += 1
        found = result.tiles[j].tile
        score.tiles_right += found == truth.tile
        score.colour_right += found.colour == truth.tile.colour
        score.motif_right += found.motif == truth.tile.motif
        score.heart_right += found.heart == truth.tile.heart
    score.false_positives = len(result.tiles) - len(pairs)
    token_reach = 0.5 * max(photo.token_px, 1.0)
    pairs = matched(photo.tokens, [d.center for d in result.tokens], token_reach)
    for truth, j in pairs:
        if truth.visible < VISIBLE_MIN:
            continue
        found = result.tokens[j]
        score.tokens_right += found.face_up == truth.face_up and found.colour == truth.colour
    score.token_false_positives = len(result.tokens) - len(pairs)
    return score


#: A close-up: a phone held over one player's collection, upright.
CLOSE_UP_SIZE = (960, 1280)
CLOSE_UP_LAYOUTS = ("spread", "touching", "groups")


def evaluation_photo(
    tileset: TileSet, seed: int, level: int, index: int, close_ups: bool = False
) -> SyntheticPhoto:
    """The ``index``-th photo :func:`evaluate` renders at ``level`` (see there), so that
    a test can name the photo a measured error came from."""
    rng = np.random.default_rng([seed, level, index])
    if close_ups:
        return render_photo(
            tileset,
            rng,
            level=level,
            n_tiles=3 + index % 5,
            layout=CLOSE_UP_LAYOUTS[index % len(CLOSE_UP_LAYOUTS)],
            size=CLOSE_UP_SIZE,
        )
    token_rows = 2 if index % 2 and tileset.has_tokens else 0
    return render_photo(tileset, rng, level=level, n_tiles=15, token_rows=token_rows)


def empty_table_photo(tileset: TileSet, seed: int, level: int, index: int) -> SyntheticPhoto:
    """The ``index``-th photo of a table with no piece on it, only the level's other
    things (cards, dice, a hand, the deposit mat): what the camera over a table sees
    between games, where every tile or token read is a false one. The scene's scale
    is ``tileset``'s (its tiles' size in millimetres sets the camera's)."""
    rng = np.random.default_rng([seed, level, index, 0])
    return render_photo(tileset, rng, level=level, n_tiles=0)


def few_tiles_photo(tileset: TileSet, seed: int, level: int, index: int) -> SyntheticPhoto:
    """The ``index``-th photo of a table with only one to three tiles on it (and, every
    other one, a row of tokens) among the level's other things, seen by the camera over
    the whole table: a game's first grabs, or a player's small collection. Nothing but
    those few pieces says how large a tile is, so every rule that turns an empty
    table's clutter down must leave them read."""
    rng = np.random.default_rng([seed, level, index, 1])
    token_rows = index % 2 if tileset.has_tokens else 0
    return render_photo(
        tileset, rng, level=level, n_tiles=15, token_rows=token_rows, shown_tiles=1 + index % 3
    )


def evaluate(
    tileset: TileSet,
    recogniser: Recogniser,
    photos_per_level: int,
    levels: tuple[int, ...] = (0, 1, 2),
    seed: int = 2024,
    repeat: int = 1,
    close_ups: bool = False,
) -> list[LevelReport]:
    """Render, detect and score ``photos_per_level`` photos at each level.

    The photos are 1280×720 frames of 15 tiles (and, every other one, two rows of
    tokens), as a camera over the table sees them; with ``close_ups``, upright phone
    photos of 3 to 7 tiles, which are large in the frame, lie in any layout, and meet
    the table's seams and the distractors at a scale the table camera never does.
    With ``repeat`` > 1 each photo is detected that many times and its fastest run
    kept (wall clock and processor time alike): other work on the machine only ever
    adds time, so the minimum is the steadiest figure of the code's own cost.
    """
    reports = []
    for level in levels:
        report = LevelReport(level)
        for index in range(photos_per_level):
            photo = evaluation_photo(tileset, seed, level, index, close_ups)
            walls, cpus = [], []
            for _ in range(repeat):
                start, start_cpu = time.perf_counter(), time.process_time()
                result = recogniser.detect(photo.image)
                walls.append((time.perf_counter() - start) * 1000)
                cpus.append((time.process_time() - start_cpu) * 1000)
            score = score_photo(photo, result, level, index)
            score.milliseconds = min(walls)
            score.cpu_milliseconds = min(cpus)
            report.photos.append(score)
        reports.append(report)
    return reports


def matched_tiles(photo: SyntheticPhoto, result: FrameResult) -> list[tuple[TruthTile, int]]:
    """The photo's tiles, each with the index of the detected tile matched to it
    (:func:`matched`, within 0.4 of a tile's side)."""
    return matched(photo.tiles, [d.center for d in result.tiles], 0.4 * max(photo.tile_px, 1.0))


def matched(
    truths: list[T], centres: list[tuple[float, float]], reach: float
) -> list[tuple[T, int]]:
    """Each true piece with the index of the detection it is matched to: the nearest one
    within ``reach`` not matched yet, the pieces taken in order. Pieces mostly hidden
    are matched too (they claim what lies on them); callers leave them out of the count."""
    claimed: set[int] = set()
    pairs = []
    for truth in truths:
        j = _nearest(truth.center, centres, claimed, reach)
        if j is not None:
            claimed.add(j)
            pairs.append((truth, j))
    return pairs


def _nearest(
    point: tuple[float, float],
    centres: list[tuple[float, float]],
    claimed: set[int],
    reach: float,
) -> int | None:
    best, best_distance = None, reach
    for j, centre in enumerate(centres):
        if j in claimed:
            continue
        distance = float(np.hypot(centre[0] - point[0], centre[1] - point[1]))
        if distance < best_distance:
            best, best_distance = j, distance
    return best
