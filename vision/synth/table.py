"""Table tops for synthetic photos: wood, felt, checked cloth, slate and light laminate.

Recognition must not care what the table looks like, so tests draw from several
textures with grain, weave and pattern at many scales, all seeded.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np


def _noise(rng: np.random.Generator, width: int, height: int, scale: float) -> np.ndarray:
    """Smooth noise in 0..1 with features about ``scale`` pixels across."""
    small = rng.random((max(2, int(height / scale)) + 1, max(2, int(width / scale)) + 1))
    up = cv2.resize(small.astype(np.float32), (width, height), interpolation=cv2.INTER_CUBIC)
    return np.clip(up, 0, 1)


def wood(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    base = np.array(rng.choice([(40, 80, 130), (60, 110, 160), (30, 55, 90), (90, 140, 190)]))
    ys = np.arange(height, dtype=np.float32)[:, None]
    warp = _noise(rng, width, height, 200) * 40
    grain = np.sin((ys + warp) / rng.uniform(3, 8)) * 0.5 + 0.5
    streak = _noise(rng, width, height, 60)
    shade = 0.75 + 0.2 * grain * streak + 0.15 * _noise(rng, width, height, 400)
    board = rng.uniform(120, 300)
    seams = (np.abs(((ys + 10) % board) - 1) < 1.5).astype(np.float32)
    shade = shade * (1 - 0.4 * seams)
    image = base[None, None, :] * shade[..., None]
    if rng.random() < 0.5:
        image = image.transpose(1, 0, 2)
        image = cv2.resize(image, (width, height))
    return np.clip(image, 0, 255).astype(np.uint8)


def felt(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    base = np.array(rng.choice([(50, 100, 40), (90, 40, 30), (40, 40, 110), (70, 70, 70)]))
    shade = 0.85 + 0.15 * _noise(rng, width, height, 3) + 0.1 * _noise(rng, width, height, 150)
    return np.clip(base[None, None, :] * shade[..., None], 0, 255).astype(np.uint8)


def checked_cloth(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    colour = np.array(rng.choice([(60, 60, 180), (150, 90, 40), (70, 130, 70)]))
    cell = rng.uniform(25, 70)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    stripes = ((xs // cell) % 2) + ((ys // cell) % 2)
    pale = np.array([225, 230, 235], np.float32)
    mix = (stripes / 2)[..., None]
    image = pale * (1 - mix) + colour * mix
    image *= (0.9 + 0.1 * _noise(rng, width, height, 2))[..., None]
    return np.clip(image, 0, 255).astype(np.uint8)


def slate(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    grey = rng.uniform(35, 70)
    shade = grey * (
        0.8 + 0.3 * _noise(rng, width, height, 80) + 0.1 * _noise(rng, width, height, 4)
    )
    image = np.repeat(shade[..., None], 3, axis=2) * np.array([1.05, 1.0, 0.97])
    return np.clip(image, 0, 255).astype(np.uint8)


def laminate(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """A pale table top: tiles with light edges must still be found on it."""
    base = np.array(rng.choice([(200, 210, 215), (180, 200, 210), (210, 205, 200)]))
    shade = 0.92 + 0.08 * _noise(rng, width, height, 40) + 0.04 * _noise(rng, width, height, 3)
    return np.clip(base[None, None, :] * shade[..., None], 0, 255).astype(np.uint8)


TABLES: dict[str, Callable[[np.random.Generator, int, int], np.ndarray]] = {
    "wood": wood,
    "felt": felt,
    "checked-cloth": checked_cloth,
    "slate": slate,
    "laminate": laminate,
}


#: Tables by difficulty: a pale top is harder than a dark one, a checked cloth hardest.
LEVEL_TABLES: tuple[tuple[str, ...], ...] = (
    ("wood", "felt", "slate"),
    ("wood", "felt", "slate", "laminate"),
    ("wood", "felt", "slate", "laminate", "checked-cloth"),
)


def random_table(rng: np.random.Generator, width: int, height: int, level: int = 2) -> np.ndarray:
    """A table of the level's kinds (the real level, 3, has the hard level's)."""
    names = LEVEL_TABLES[min(level, len(LEVEL_TABLES) - 1)]
    name = names[int(rng.integers(len(names)))]
    return TABLES[name](rng, width, height)
