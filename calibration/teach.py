"""Teaching a tile set: photos of the sheet's pages with the pieces in place -> a TileSet.

The whole of ``companion teach`` apart from reading files and writing the folder. Every
refusal is one :class:`TeachError` sentence naming what to fix (a page missing, a slot
empty, a tile in the wrong slot), raised before anything is written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from calibration.alignment import column_corrections, upright_turns
from calibration.checks import Misplaced, misplaced_tile, misplaced_token
from calibration.layout import TOKEN_BACK_SLOT, Slot
from calibration.locate import LocatedPage, locate_page
from calibration.slots import PageReader, SlotReading, fit_disc, ring_centre
from calibration.twins import matched_twins
from companion.bitenight.tiles import Tile
from companion.errors import CompanionError
from companion.middernacht.tokens import DEFAULT_TOKEN_COLOURS
from vision.tileset import TileSet


class TeachError(CompanionError):
    """Photos of the sheet that cannot become a tile set; the message says why."""


@dataclass(frozen=True, eq=False)
class _Reading:
    reader: PageReader
    reading: SlotReading


def teach(
    photos: Sequence[tuple[str, np.ndarray]],
    *,
    name: str,
    shape: str | None = None,
    token_colours: tuple[str, ...] = DEFAULT_TOKEN_COLOURS,
) -> TileSet:
    """A tile set from one photo per page (any order); ``shape`` None detects it."""
    if not photos:
        raise TeachError("give at least one photo of the calibration sheet")
    pages = [locate_page(image, source, token_colours) for source, image in photos]
    _check_one_sheet(pages)
    readings: dict[str, _Reading] = {}
    for located in pages:
        reader = PageReader(located)
        for slot in located.page.slots:
            readings[slot.id] = _Reading(reader, reader.read(slot))
    layout = pages[0].layout
    all_slots = [slot for page in layout.pages for slot in page.slots]
    tile_slots = [slot for slot in all_slots if not slot.is_token]
    token_slots = [slot for slot in all_slots if slot.is_token]
    given = {located.page.number for located in pages}

    with_tiles = _wanted(tile_slots, readings)
    with_tokens = _wanted(token_slots, readings)
    if not with_tiles and not with_tokens:
        shown = ", ".join(source for source, _ in photos)
        raise TeachError(f"every slot is empty in {shown}; lay the pieces in their slots")
    for wanted, slots in ((with_tiles, tile_slots), (with_tokens, token_slots)):
        if wanted:
            _check_complete(slots, readings, given, layout.pages)

    faces: dict[Tile, np.ndarray] = {}
    tile_size = 0.0
    tile_shape = shape or "square"
    if with_tiles:
        tile_readings = [readings[slot.id] for slot in tile_slots]
        if shape is None:
            rounds = sum(r.reading.round_ for r in tile_readings)
            tile_shape = "round" if rounds > len(tile_readings) / 2 else "square"
        tile_size = _common_size([r.reading for r in tile_readings], tile_shape == "round")
        round_ = tile_shape == "round"
        by_tile = {Tile.parse(r.reading.slot.id): r for r in tile_readings}
        if round_:
            by_tile = {
                tile: _Reading(r.reader, _centred(r.reading, tile_size))
                for tile, r in by_tile.items()
            }
        faces = {
            tile: r.reader.cut_face(r.reading, tile_size, round_) for tile, r in by_tile.items()
        }
        turns: dict[Tile, float | None] = dict.fromkeys(by_tile)
        if round_:
            turns.update(upright_turns(faces))
            faces = {
                tile: r.reader.cut_face(r.reading, tile_size, True, turns[tile])
                for tile, r in by_tile.items()
            }
        # every tile's drawing exactly onto its column's, so that twins match (and a
        # heart is not mistaken for the faint difference of two cuts)
        corrections = column_corrections(faces, round_)
        faces = {
            tile: r.reader.cut_face(r.reading, tile_size, round_, turns[tile], corrections[tile])
            for tile, r in by_tile.items()
        }
        _refuse(misplaced_tile(faces), "tile")
        faces = matched_twins(faces, round_)

    token_faces: dict[str, np.ndarray] = {}
    back = None
    if with_tokens:
        token_readings = [readings[slot.id] for slot in token_slots]
        diameter = _common_size([r.reading for r in token_readings], round_=True)
        for r in token_readings:
            face = r.reader.cut_face(_centred(r.reading, diameter), diameter, round_=True)
            if r.reading.slot.id == TOKEN_BACK_SLOT:
                back = face
            else:
                token_faces[r.reading.slot.label] = face
        _refuse(misplaced_token(token_faces), "token")
        if not with_tiles:
            tile_size = diameter

    return TileSet(
        name=name,
        tile_shape=tile_shape,  # type: ignore[arg-type]
        tile_size_mm=round(tile_size * 2) / 2,
        faces=faces,
        token_faces=token_faces,
        token_back=back,
    )


def _centred(reading: SlotReading, diameter_mm: float) -> SlotReading:
    """The reading of a round piece centred on its printed rings, else on its edge fitted
    to its known size."""
    centre = ring_centre(reading) or fit_disc(reading, diameter_mm)[0]
    return replace(reading, centre_mm=centre)


def _common_size(readings: list[SlotReading], round_: bool) -> float:
    """The size all pieces of a kind share: the median of what each outline shows."""
    if round_:
        return float(np.median([fit_disc(reading)[1] for reading in readings]))
    return float(np.median([reading.side_mm for reading in readings]))


def _check_one_sheet(pages: list[LocatedPage]) -> None:
    """All photos show pages of one sheet, each page once."""
    first = pages[0]
    for located in pages[1:]:
        if located.layout.size != first.layout.size:
            raise TeachError(
                f"photo {first.source} shows the {first.layout.size.name} sheet but photo "
                f"{located.source} the {located.layout.size.name} one; use pages of one sheet"
            )
    seen: dict[int, str] = {}
    for located in pages:
        number = located.page.number
        if number in seen:
            raise TeachError(f"photos {seen[number]} and {located.source} both show page {number}")
        seen[number] = located.source


def _wanted(slots: list[Slot], readings: dict[str, _Reading]) -> bool:
    """A kind of piece (tiles or tokens) is taught when any of its slots holds one."""
    return any(slot.id in readings and readings[slot.id].reading.occupied for slot in slots)


def _check_complete(
    slots: list[Slot], readings: dict[str, _Reading], given: set[int], pages: tuple
) -> None:
    for page in pages:
        if page.number not in given and any(slot in page.slots for slot in slots):
            raise TeachError(f"page {page.number} is missing")
    empty = [slot.id for slot in slots if not readings[slot.id].reading.occupied]
    if empty:
        more = f" (and {len(empty) - 1} more)" if len(empty) > 1 else ""
        raise TeachError(f"slot {empty[0]} is empty{more}")


def _refuse(misplaced: Misplaced | None, kind: str) -> None:
    if misplaced is not None:
        raise TeachError(
            f"slot {misplaced.slot} holds what looks like {misplaced.looks_like}'s {kind}"
        )
