"""Rendered photos of the sheet holding the sample tile sets, shared by the tests.

Rendering a page costs about a second, so each distinct photo is made once per run.
Every photo is taken at an angle under a warm lamp: the conditions teaching must survive.
"""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path

import numpy as np

from calibration.layout import Paper, SheetLayout, build_layout
from calibration.render import render_sheet_photo
from vision.synth.camera import CameraEffects
from vision.tileset import TileSet, load_tileset

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "tilesets"

#: 30° from straight down, a 2700 K lamp half corrected by the camera, a gradient and a
#: shadow across the sheet, soft focus, sensor noise and JPEG.
WARM_TILTED = CameraEffects(
    tilt_deg=30.0,
    tilt_direction_deg=35.0,
    roll_deg=8.0,
    fill=0.92,
    kelvin=2700.0,
    white_balance=0.3,
    exposure=0.8,
    gradient=0.3,
    gradient_angle_deg=120.0,
    shadows=1,
    shadow_strength=0.3,
    blur_sigma=1.0,
    noise_sigma=3.0,
    jpeg_quality=85,
)


@cache
def sample(name: str) -> TileSet:
    return load_tileset(SAMPLES / name)


@cache
def sheet_for(name: str) -> SheetLayout:
    return build_layout(Paper.A4, sample(name).tile_size_mm)


@lru_cache(maxsize=64)
def page_photo(
    name: str,
    page: int,
    *,
    leave_out: frozenset[str] = frozenset(),
    swap: tuple[tuple[str, str], ...] = (),
    effects: CameraEffects = WARM_TILTED,
) -> np.ndarray:
    """Page ``page`` (1-based) of the sheet with sample set ``name``'s pieces in it."""
    rng = np.random.default_rng(page * 101 + len(leave_out) + 7 * len(swap))
    layout = sheet_for(name)
    photo = render_sheet_photo(
        layout.pages[page - 1],
        sample(name),
        rng,
        effects=effects,
        leave_out=leave_out,
        swap=dict(swap),
    )
    return photo.image


def all_pages(name: str, **changes: object) -> list[tuple[str, np.ndarray]]:
    """(source, photo) for every page, ``changes`` applied to the page they concern."""
    photos = []
    for page in sheet_for(name).pages:
        ids = {slot.id for slot in page.slots}
        leave_out = frozenset(changes.get("leave_out", frozenset())) & ids  # type: ignore[arg-type]
        swap = tuple(
            (a, b)
            for a, b in changes.get("swap", ())
            if a in ids  # type: ignore[attr-defined]
        )
        image = page_photo(name, page.number, leave_out=leave_out, swap=swap)
        photos.append((f"page-{page.number}.jpg", image))
    return photos
