"""The calibration sheet's geometry: where every marker, patch and slot lies, in millimetres.

Everything else in ``calibration/`` is derived from this one description: the printer
draws it, ``teach`` rectifies photos against it, the renderer lays synthetic tiles on
it, and ``--layout`` writes it out (INTERFACES.md) so that outside tools can do the same.

Design decisions a reader should know:

- **One geometry for A4 and Letter.** Everything is drawn inside the rectangle both
  papers share (210 × 279.4 mm, less a printer-safe margin), centred on the page. A photo
  therefore never needs to tell the two papers apart: positions relative to the markers
  are identical, only the page offset differs.
- **Two slot sizes.** Tiles up to 33 mm get the compact sheet: portrait pages, one
  5 × 5 grid per page (colours as rows, motifs as columns; plain tiles, then hearts, then
  tokens). Tiles up to 41 mm do not fit five across a portrait page, so the large sheet
  turns the pages to landscape and flows the same rows four to a page (three pages
  either way).
- **Markers.** DICT_4X4_50, one marker in each corner of the content rectangle, ids
  ``base + 4 × (page − 1) + corner`` (corners clockwise from top-left), compact sheets
  from base 0, large from base 12. The id alone names the sheet, the page and the corner,
  so a photo showing only two markers is still located without ambiguity.
- **Slots.** Each slot is a white square (a circle for tokens) framed by a neutral grey
  band; the frame is the placing guide, the local white-balance reference, and it
  carries the slot's label. ``size_mm`` is the inside of the frame: the largest piece
  the slot takes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from companion.bitenight.tiles import COLOURS, MOTIFS, Tile
from companion.errors import CompanionError
from companion.middernacht.tokens import DEFAULT_TOKEN_COLOURS

MARKER_DICTIONARY = "DICT_4X4_50"
#: The printer-safe area both papers share, portrait (width, height) in mm.
COMMON_AREA_MM = (198.0, 267.4)
MARKER_MM = 14.0
#: Gap between a marker band and the grid.
BAND_GAP_MM = 2.0
FRAME_MM = 2.0
#: The frame's bottom edge is wider: it carries the slot's label.
LABEL_BAND_MM = 5.0
PATCH_MM = 12.0
#: Grey level (0–255) of the frames and grey patches, as printed.
GREY_LEVEL = 128
COLUMNS = 5
PAGES = 3
TOKEN_BACK_SLOT = "token-back"
#: Ids 0–23 belong to the sheet; seat markers (calibration.seats) use ids from 40.
SHEET_MARKER_IDS = range(0, 24)


class Paper(StrEnum):
    A4 = "a4"
    LETTER = "letter"

    @property
    def size_mm(self) -> tuple[float, float]:
        """Portrait (width, height)."""
        return {Paper.A4: (210.0, 297.0), Paper.LETTER: (215.9, 279.4)}[self]


class SheetError(CompanionError):
    """A sheet that cannot be made (tiles too large, bad token names)."""


@dataclass(frozen=True)
class SheetSize:
    """One of the two slot sizes; see the module docstring."""

    name: str
    slot_mm: float
    landscape: bool
    rows_per_page: int
    marker_base: int

    @property
    def largest_tile_mm(self) -> float:
        return self.slot_mm - 1.0


COMPACT = SheetSize("compact", slot_mm=34.0, landscape=False, rows_per_page=5, marker_base=0)
LARGE = SheetSize("large", slot_mm=42.0, landscape=True, rows_per_page=4, marker_base=12)
SHEET_SIZES: tuple[SheetSize, ...] = (COMPACT, LARGE)


def sheet_size_for(tile_size_mm: float) -> SheetSize:
    """The smallest sheet whose slots take tiles of ``tile_size_mm``."""
    for size in SHEET_SIZES:
        if tile_size_mm <= size.largest_tile_mm:
            return size
    raise SheetError(
        f"tiles of {tile_size_mm:g} mm do not fit the sheet's slots; the largest is "
        f"{LARGE.largest_tile_mm:g} mm"
    )


@dataclass(frozen=True)
class Marker:
    id: int
    corners_mm: tuple[tuple[float, float], ...]  # TL, TR, BR, BL as printed


@dataclass(frozen=True)
class Patch:
    kind: str  # "white" or "grey"
    center_mm: tuple[float, float]
    size_mm: float


@dataclass(frozen=True)
class Slot:
    """Where one tile or token lies: ``<tile-id>``, ``token-<colour>`` or ``token-back``."""

    id: str
    center_mm: tuple[float, float]
    size_mm: float

    @property
    def is_token(self) -> bool:
        return self.id.startswith("token-")

    @property
    def label(self) -> str:
        return self.id.removeprefix("token-") if self.is_token else self.id


@dataclass(frozen=True)
class Page:
    number: int  # 1-based
    paper_mm: tuple[float, float]
    markers: tuple[Marker, ...]
    patches: tuple[Patch, ...]
    slots: tuple[Slot, ...]
    title: str

    @property
    def landscape(self) -> bool:
        return self.paper_mm[0] > self.paper_mm[1]


@dataclass(frozen=True)
class SheetLayout:
    paper: Paper
    size: SheetSize
    token_colours: tuple[str, ...]
    pages: tuple[Page, ...]

    def slot(self, slot_id: str) -> Slot:
        for page in self.pages:
            for slot in page.slots:
                if slot.id == slot_id:
                    return slot
        raise KeyError(slot_id)

    def to_json(self, png_names: list[str] | None = None, dpi: int = 0) -> str:
        """The INTERFACES.md geometry document (``png`` names are filled in when given)."""
        pages = []
        for index, page in enumerate(self.pages):
            pages.append(
                {
                    "paper_mm": list(page.paper_mm),
                    "png": png_names[index] if png_names else None,
                    "dpi": dpi or None,
                    "markers": [
                        {
                            "dictionary": MARKER_DICTIONARY,
                            "id": marker.id,
                            "corners_mm": [list(c) for c in marker.corners_mm],
                        }
                        for marker in page.markers
                    ],
                    "patches": [
                        {"kind": p.kind, "center_mm": list(p.center_mm), "size_mm": p.size_mm}
                        for p in page.patches
                    ],
                    "slots": [
                        {"id": s.id, "center_mm": list(s.center_mm), "size_mm": s.size_mm}
                        for s in page.slots
                    ],
                }
            )
        return json.dumps({"pages": pages}, indent=2)


def tile_slot_ids() -> list[list[str]]:
    """The ten rows of tile slots: five colours without a heart, then five with one."""
    return [
        [Tile(colour, motif, heart).id for motif in MOTIFS]
        for heart in (False, True)
        for colour in COLOURS
    ]


def token_slot_ids(token_colours: tuple[str, ...]) -> list[str]:
    return [f"token-{colour}" for colour in token_colours] + [TOKEN_BACK_SLOT]


def check_token_colours(colours: tuple[str, ...]) -> tuple[str, ...]:
    """Six distinct lower-case names (RULINGS.md V1), or a SheetError naming the problem."""
    if len(colours) != 6:
        raise SheetError(f"vampire tokens come in six colours, not {len(colours)}")
    for colour in colours:
        if not colour.isascii() or not colour.isalpha() or not colour.islower():
            raise SheetError(f"token colour '{colour}' must be one lower-case word")
    if len(set(colours)) != 6:
        raise SheetError("the six token colours must all differ")
    if "back" in colours:
        raise SheetError("'back' names the back of a token, not a colour")
    return colours


def build_layout(
    paper: Paper = Paper.A4,
    tile_size_mm: float = 40.0,
    token_colours: tuple[str, ...] = DEFAULT_TOKEN_COLOURS,
) -> SheetLayout:
    """The whole sheet for ``paper`` and tiles of ``tile_size_mm`` (pure geometry)."""
    return layout_for_size(paper, sheet_size_for(tile_size_mm), token_colours)


def layout_for_size(
    paper: Paper, size: SheetSize, token_colours: tuple[str, ...] = DEFAULT_TOKEN_COLOURS
) -> SheetLayout:
    token_colours = check_token_colours(tuple(token_colours))
    rows = [*tile_slot_ids()]
    tokens = token_slot_ids(token_colours)
    rows += [tokens[i : i + COLUMNS] for i in range(0, len(tokens), COLUMNS)]
    per_page = size.rows_per_page
    page_rows = [rows[i : i + per_page] for i in range(0, len(rows), per_page)]
    assert len(page_rows) == PAGES, "both sheet sizes print on three pages"
    pages = tuple(
        _page(paper, size, number, slot_rows) for number, slot_rows in enumerate(page_rows, 1)
    )
    return SheetLayout(paper, size, token_colours, pages)


def _page(paper: Paper, size: SheetSize, number: int, slot_rows: list[list[str]]) -> Page:
    width, height = paper.size_mm
    area_w, area_h = COMMON_AREA_MM
    if size.landscape:
        width, height = height, width
        area_w, area_h = area_h, area_w
    left, top = (width - area_w) / 2, (height - area_h) / 2
    right, bottom = left + area_w, top + area_h

    band = MARKER_MM + BAND_GAP_MM
    if size.landscape:  # bands at the left and right ends
        grid = (left + band, top, right - band, bottom)
    else:  # bands at the top and bottom
        grid = (left, top + band, right, bottom - band)

    base = size.marker_base + 4 * (number - 1)
    m = MARKER_MM
    origins = [(left, top), (right - m, top), (right - m, bottom - m), (left, bottom - m)]
    markers = tuple(
        Marker(base + corner, ((x, y), (x + m, y), (x + m, y + m), (x, y + m)))
        for corner, (x, y) in enumerate(origins)
    )
    patches = _patches(size.landscape, (left, top, right, bottom))
    slots = _slots(size, grid, slot_rows)
    what = "tokens" if all(s.is_token for s in slots) else "tiles"
    title = f"companion calibration sheet - page {number} of {PAGES} ({size.name}, {what})"
    return Page(number, (width, height), markers, patches, slots, title)


def _patches(landscape: bool, area: tuple[float, float, float, float]) -> tuple[Patch, ...]:
    """A grey and a white patch near the far end of each band, diagonally opposite."""
    left, top, right, bottom = area
    inset = MARKER_MM + BAND_GAP_MM + PATCH_MM / 2
    step = PATCH_MM + BAND_GAP_MM
    half = MARKER_MM / 2
    if landscape:
        first = [(left + half, bottom - inset), (left + half, bottom - inset - step)]
        second = [(right - half, top + inset), (right - half, top + inset + step)]
    else:
        first = [(right - inset, top + half), (right - inset - step, top + half)]
        second = [(left + inset, bottom - half), (left + inset + step, bottom - half)]
    kinds = ("grey", "white")
    return tuple(
        Patch(kind, _round_point(centre), PATCH_MM)
        for centres in (first, second)
        for kind, centre in zip(kinds, centres, strict=True)
    )


def _slots(
    size: SheetSize, grid: tuple[float, float, float, float], slot_rows: list[list[str]]
) -> tuple[Slot, ...]:
    x0, y0, x1, y1 = grid
    cell_w = (x1 - x0) / COLUMNS
    cell_h = (y1 - y0) / size.rows_per_page
    # The frame with its label band is taller than wide; centre the whole, not the slot.
    shift = (LABEL_BAND_MM - FRAME_MM) / 2
    slots = []
    for row, ids in enumerate(slot_rows):
        offset = (COLUMNS - len(ids)) / 2  # short rows (tokens) are centred
        for column, slot_id in enumerate(ids):
            cx = x0 + (column + offset + 0.5) * cell_w
            cy = y0 + (row + 0.5) * cell_h - shift
            slots.append(Slot(slot_id, _round_point((cx, cy)), size.slot_mm))
    return tuple(slots)


def _round_point(point: tuple[float, float]) -> tuple[float, float]:
    return (round(point[0], 3), round(point[1], 3))


def marker_owner(marker_id: int) -> tuple[SheetSize, int, int] | None:
    """(sheet size, page number, corner 0–3) that printed ``marker_id``, or None."""
    for size in SHEET_SIZES:
        offset = marker_id - size.marker_base
        if 0 <= offset < 4 * PAGES:
            return size, offset // 4 + 1, offset % 4
    return None


def write_layout(
    path: str | Path, layout: SheetLayout, png_names: list[str] | None, dpi: int
) -> None:
    Path(path).write_text(layout.to_json(png_names, dpi) + "\n", encoding="utf-8")
