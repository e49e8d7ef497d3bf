"""Synthetic photos of the sheet with a tile set's pieces in their slots.

For tests, the benchmark and the README walkthrough: the printed page (the very raster
:mod:`calibration.drawing` prints) lies on a table, each tile is dropped into its slot
a little off-centre and askew as a hand would, and the whole is photographed through
the vision engineer's camera model (:func:`vision.synth.camera.photograph`), so teach
is tested against the same lamps, tilts and sensors as recognition.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from calibration.drawing import MM_PER_INCH, draw_page
from calibration.layout import TOKEN_BACK_SLOT, Page
from companion.bitenight.tiles import Tile
from vision.synth.camera import CameraEffects, photograph, random_effects
from vision.synth.scene import TOKEN_SIZE_RATIO, paste, shadow_of
from vision.synth.table import random_table
from vision.tileset import TileSet

#: Scene resolution: finer than any photo it is turned into.
SCENE_PX_PER_MM = 5.0
#: Table around the page, in mm: wide enough that the camera never sees past it.
TABLE_MARGIN_MM = 100.0
#: How carelessly a hand lays a piece: offset (mm) and turn (degrees), at most.
PLACING_SLACK_MM = 1.2
PLACING_TURN_DEG = 3.0


@dataclass(frozen=True, eq=False)
class SheetPhoto:
    image: np.ndarray
    homography_mm_to_px: np.ndarray  # page millimetres -> photo pixels (the truth)
    effects: CameraEffects


def render_sheet_photo(
    page: Page,
    tileset: TileSet,
    rng: np.random.Generator,
    *,
    effects: CameraEffects | None = None,
    size: tuple[int, int] = (1600, 1200),
    level: int = 1,
    leave_out: frozenset[str] = frozenset(),
    swap: Mapping[str, str] | None = None,
) -> SheetPhoto:
    """Photograph ``page`` with the pieces of ``tileset`` in its slots.

    ``leave_out`` names slots left empty; ``swap`` puts another slot's piece in a slot
    (slot id -> slot id whose piece goes there), to make teaching fail on purpose.
    """
    effects = effects or random_effects(rng, level)
    swap = dict(swap or {})
    scale = SCENE_PX_PER_MM
    paper = draw_page(page, scale * MM_PER_INCH)
    margin = round(TABLE_MARGIN_MM * scale)
    height, width = paper.shape
    scene = random_table(rng, width + 2 * margin, height + 2 * margin)
    scene[margin : margin + height, margin : margin + width] = paper[..., None]
    shadow_offset = rng.uniform(-1, 1, 2) * 0.6 * scale

    def to_scene(points_mm: np.ndarray) -> np.ndarray:
        return np.asarray(points_mm, np.float64) * scale + margin - 0.5

    for slot in page.slots:
        if slot.id in leave_out:
            continue
        piece = _piece(tileset, swap.get(slot.id, slot.id))
        if piece is None:
            continue
        sprite, side_mm = piece
        centre = to_scene(slot.center_mm) + rng.uniform(-1, 1, 2) * PLACING_SLACK_MM * scale
        turn = float(rng.uniform(-PLACING_TURN_DEG, PLACING_TURN_DEG))
        size_px = np.array([side_mm, side_mm]) * scale
        paste(scene, shadow_of(sprite), centre + shadow_offset, size_px, turn)
        paste(scene, sprite, centre, size_px, turn)

    corners_mm = np.array([[0, 0], [page.paper_mm[0], 0], [*page.paper_mm], [0, page.paper_mm[1]]])
    photo, homography = photograph(scene, effects, size, rng, content=to_scene(corners_mm))
    mm_to_scene = np.array([[scale, 0, margin - 0.5], [0, scale, margin - 0.5], [0, 0, 1]])
    return SheetPhoto(photo, homography @ mm_to_scene, effects)


def _piece(tileset: TileSet, slot_id: str) -> tuple[np.ndarray, float] | None:
    """The sprite that belongs in slot ``slot_id`` and its side in mm (None if the set lacks it)."""
    token_mm = tileset.tile_size_mm * TOKEN_SIZE_RATIO
    if slot_id == TOKEN_BACK_SLOT:
        return (tileset.token_back, token_mm) if tileset.token_back is not None else None
    if slot_id.startswith("token-"):
        name = slot_id.removeprefix("token-")
        face = tileset.token_faces.get(name)
        return (face, token_mm) if face is not None else None
    face = tileset.faces.get(Tile.parse(slot_id))
    return (face, tileset.tile_size_mm) if face is not None else None
