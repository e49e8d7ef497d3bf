"""The sheet's geometry: everything on the paper, nothing overlapping, every piece once."""

from __future__ import annotations

import itertools
import json

import pytest

from calibration.drawing import frame_rect_mm
from calibration.layout import (
    COMPACT,
    LARGE,
    SHEET_MARKER_IDS,
    Paper,
    SheetError,
    build_layout,
    layout_for_size,
    marker_owner,
)
from calibration.seats import FIRST_SEAT_MARKER, MAX_SEATS
from companion.bitenight.tiles import ALL_TILES, COLOURS, MOTIFS

#: What a home printer cannot print near the paper's edge.
PRINTER_MARGIN_MM = 5.0

LAYOUTS = [layout_for_size(paper, size) for paper in Paper for size in (COMPACT, LARGE)]
NAMES = [f"{layout.paper.value}-{layout.size.name}" for layout in LAYOUTS]


def _boxes(page):
    for marker in page.markers:
        xs, ys = zip(*marker.corners_mm, strict=True)
        yield f"marker {marker.id}", (min(xs), min(ys), max(xs), max(ys))
    for patch in page.patches:
        (x, y), h = patch.center_mm, patch.size_mm / 2
        yield f"{patch.kind} patch", (x - h, y - h, x + h, y + h)
    for slot in page.slots:
        yield f"slot {slot.id}", frame_rect_mm(slot)


@pytest.mark.parametrize("layout", LAYOUTS, ids=NAMES)
def test_everything_lies_within_the_printable_part_of_the_paper(layout) -> None:
    for page in layout.pages:
        width, height = page.paper_mm
        for name, (x0, y0, x1, y1) in _boxes(page):
            assert x0 >= PRINTER_MARGIN_MM and y0 >= PRINTER_MARGIN_MM, name
            assert x1 <= width - PRINTER_MARGIN_MM and y1 <= height - PRINTER_MARGIN_MM, name


@pytest.mark.parametrize("layout", LAYOUTS, ids=NAMES)
def test_nothing_on_a_page_overlaps(layout) -> None:
    for page in layout.pages:
        for (a, ra), (b, rb) in itertools.combinations(_boxes(page), 2):
            apart = ra[2] <= rb[0] or rb[2] <= ra[0] or ra[3] <= rb[1] or rb[3] <= ra[1]
            assert apart, f"{a} overlaps {b} on page {page.number}"


@pytest.mark.parametrize("layout", LAYOUTS, ids=NAMES)
def test_every_tile_and_token_has_exactly_one_slot(layout) -> None:
    ids = [slot.id for page in layout.pages for slot in page.slots]
    tiles = [tile.id for tile in ALL_TILES]
    tokens = [
        "token-red",
        "token-yellow",
        "token-white",
        "token-blue",
        "token-green",
        "token-black",
        "token-back",
    ]
    assert sorted(ids) == sorted(tiles + tokens)


def test_the_compact_sheet_has_one_five_by_five_grid_per_page_colours_as_rows() -> None:
    layout = build_layout(Paper.A4, tile_size_mm=32)
    for page, heart in zip(layout.pages[:2], (False, True), strict=True):
        rows = sorted({slot.center_mm[1] for slot in page.slots})
        columns = sorted({slot.center_mm[0] for slot in page.slots})
        assert len(rows) == 5 and len(columns) == 5
        for slot in page.slots:
            tile = next(t for t in ALL_TILES if t.id == slot.id)
            assert tile.heart is heart
            assert rows.index(slot.center_mm[1]) == COLOURS.index(tile.colour)
            assert columns.index(slot.center_mm[0]) == MOTIFS.index(tile.motif)


def test_tiles_too_large_for_five_across_get_the_large_sheet_and_larger_are_refused() -> None:
    assert build_layout(Paper.A4, 33).size is COMPACT
    assert build_layout(Paper.A4, 40).size is LARGE
    with pytest.raises(SheetError, match="tiles of 45 mm do not fit"):
        build_layout(Paper.A4, 45)


def test_slots_take_the_tiles_they_are_made_for() -> None:
    for tile_mm in (25, 33, 38, 40, 41):
        layout = build_layout(Paper.LETTER, tile_mm)
        assert all(slot.size_mm >= tile_mm for page in layout.pages for slot in page.slots)


def test_a4_and_letter_put_everything_at_the_same_place_relative_to_the_markers() -> None:
    for size in (COMPACT, LARGE):
        a4, letter = layout_for_size(Paper.A4, size), layout_for_size(Paper.LETTER, size)
        for page_a4, page_letter in zip(a4.pages, letter.pages, strict=True):
            ox, oy = (
                a - b
                for a, b in zip(
                    page_a4.markers[0].corners_mm[0],
                    page_letter.markers[0].corners_mm[0],
                    strict=True,
                )
            )
            for sa, sl in zip(page_a4.slots, page_letter.slots, strict=True):
                assert sa.center_mm == pytest.approx((sl.center_mm[0] + ox, sl.center_mm[1] + oy))


def test_marker_ids_name_the_sheet_the_page_and_the_corner() -> None:
    seen = {}
    for size in (COMPACT, LARGE):
        for page in layout_for_size(Paper.A4, size).pages:
            for corner, marker in enumerate(page.markers):
                assert marker.id not in seen
                seen[marker.id] = (size, page.number, corner)
                assert marker_owner(marker.id) == (size, page.number, corner)
    assert set(seen) == set(SHEET_MARKER_IDS)
    seat_ids = set(range(FIRST_SEAT_MARKER, FIRST_SEAT_MARKER + MAX_SEATS))
    assert not seat_ids & set(seen) and max(seat_ids) < 50


def test_the_layout_json_has_the_interfaces_shape() -> None:
    layout = build_layout(Paper.A4, 40)
    data = json.loads(layout.to_json(["s-1.png", "s-2.png", "s-3.png"], 150))
    page = data["pages"][0]
    assert page["paper_mm"] == [297.0, 210.0] and page["png"] == "s-1.png" and page["dpi"] == 150
    assert page["markers"][0]["dictionary"] == "DICT_4X4_50"
    assert len(page["markers"][0]["corners_mm"]) == 4
    assert {p["kind"] for p in page["patches"]} == {"white", "grey"}
    assert set(page["slots"][0]) == {"id", "center_mm", "size_mm"}


def test_token_colours_must_be_six_distinct_words() -> None:
    with pytest.raises(SheetError, match="six colours, not 5"):
        build_layout(Paper.A4, 40, ("a", "b", "c", "d", "e"))
    with pytest.raises(SheetError, match="must all differ"):
        build_layout(Paper.A4, 40, ("a", "b", "c", "d", "e", "a"))
