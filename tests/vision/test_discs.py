"""Telling touching round pieces apart (vision/discs.py), on drawn masks and images.

Each scene is drawn at work size (~640 px wide): discs with a rim and some artwork
inside, on a table with noise; the object mask is the union of the discs, welded
where they touch (shadows fill the gaps between packed discs).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.candidates import find_blobs
from vision.discs import _moved_together, _on_outline, circle_split, disc_split, is_single_disc


def _scene(
    centres: list[tuple[float, float]],
    radius: float,
    *,
    squash: float = 1.0,
    angle: float = 0.0,
    table: int = 90,
    face: int = 200,
    rim: int = 60,
    weld: bool = True,
    seed: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """A grey image and its object mask with discs (ellipses if ``squash`` < 1)."""
    rng = np.random.default_rng(seed)
    grey = np.full((360, 640), table, np.float32)
    mask = np.zeros((360, 640), np.uint8)
    axes = (round(radius), round(radius * squash))
    for cx, cy in centres:
        centre = (round(cx), round(cy))
        cv2.ellipse(grey, centre, axes, angle, 0, 360, face, -1)
        cv2.ellipse(grey, centre, axes, angle, 0, 360, rim, max(1, round(radius / 10)))
        # artwork: a figure of a few strokes, different in every disc
        for _ in range(3):
            a, b = rng.uniform(-0.5, 0.5, 2) * radius, rng.uniform(-0.5, 0.5, 2) * radius
            p = (round(cx + a[0]), round(cy + a[1]))
            q = (round(cx + b[0]), round(cy + b[1]))
            cv2.line(grey, p, q, float(rng.uniform(20, 120)), max(1, round(radius / 8)))
        cv2.ellipse(mask, centre, (axes[0] + 1, axes[1] + 1), angle, 0, 360, 255, -1)
    if weld:
        size = max(3, round(radius * 0.6)) | 1
        mask = cv2.morphologyEx(
            mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        )
    grey += rng.normal(0, 3, grey.shape)
    return np.clip(grey, 0, 255).astype(np.uint8), mask


def _block(rows: int, columns: int, radius: float, origin=(120.0, 80.0), turn: float = 0.0):
    """Centres of a rows × columns block of touching discs, turned by ``turn`` degrees."""
    c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    out = []
    for r in range(rows):
        for k in range(columns):
            u, v = k * 2 * radius, r * 2 * radius
            out.append((origin[0] + c * u - s * v, origin[1] + s * u + c * v))
    return out


def _the_blob(mask: np.ndarray):
    blobs = find_blobs(mask, 30)
    assert len(blobs) == 1
    return blobs[0]


def _matched(quads: list[np.ndarray], centres, tolerance: float) -> int:
    """How many true centres have a found disc within ``tolerance`` px."""
    found = [q.mean(axis=0) for q in quads]
    return sum(any(math.dist(f, c) <= tolerance for f in found) for c in centres)


def _radii(quads: list[np.ndarray]) -> list[float]:
    """The mean half-axis of each ellipse box."""
    return [float(np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[3] - q[0])) / 4 for q in quads]


# -- is_single_disc: one object or several ------------------------------------------------


def test_a_lone_tilted_disc_is_a_single_disc():
    _, mask = _scene([(300.0, 180.0)], 20, squash=0.82, angle=30)
    assert is_single_disc(_the_blob(mask))


def test_a_square_of_four_discs_is_not_a_single_disc():
    _, mask = _scene(_block(2, 2, 12, origin=(300.0, 180.0), turn=45), 12)
    assert not is_single_disc(_the_blob(mask))


# -- disc_split: the mask alone ----------------------------------------------------------


def test_two_touching_discs_are_two_discs():
    centres = [(200.0, 150.0), (240.0, 150.0)]
    _, mask = _scene(centres, 20)
    quads = disc_split(_the_blob(mask), mask.shape, min_radius=5)
    assert len(quads) == 2 and _matched(quads, centres, 4) == 2


def test_a_square_of_four_discs_is_four_discs_not_one_in_the_middle():
    centres = _block(2, 2, 16, origin=(200.0, 150.0))
    _, mask = _scene(centres, 16)
    quads = disc_split(_the_blob(mask), mask.shape, min_radius=4)
    assert len(quads) == 4 and _matched(quads, centres, 4) == 4


def test_a_plus_of_five_discs_is_five_discs():
    r = 14
    centres = [(300.0, 180.0)] + [
        (300.0 + 2 * r * dx, 180.0 + 2 * r * dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
    ]
    _, mask = _scene(centres, r)
    quads = disc_split(_the_blob(mask), mask.shape, min_radius=4)
    assert len(quads) == 5 and _matched(quads, centres, 4) == 5


def test_a_row_of_seven_small_tokens_is_seven_discs_of_their_size():
    centres = [(150.0 + 14 * i, 100.0 + 3 * i) for i in range(7)]
    _, mask = _scene(centres, 7, weld=False)
    quads = disc_split(_the_blob(mask), mask.shape, min_radius=3)
    assert len(quads) == 7 and _matched(quads, centres, 3) == 7
    assert all(6 <= r <= 10 for r in _radii(quads))


def test_a_row_whose_dark_backs_leave_smaller_discs_keeps_them_and_its_ends_a_step_wide():
    # on a dark table a token's dark back leaves only its pale ring in the mask, a disc
    # two thirds as wide as the pale face-up tokens at the row's ends, which the blur
    # swells past the step between the tokens
    step = 16.0
    centres = [(150.0 + step * i, 120.0 + 2 * i) for i in range(5)]
    mask = np.zeros((360, 640), np.uint8)
    for i, (cx, cy) in enumerate(centres):
        radius = 10 if i in (0, 4) else 6.5
        cv2.circle(mask, (round(cx), round(cy)), round(radius), 255, -1)
    ends = [(round(x), round(y)) for x, y in (centres[0], centres[-1])]
    cv2.line(mask, ends[0], ends[1], 255, 7)  # the backs' dark rims, half in the mask
    quads = disc_split(_the_blob(mask), mask.shape, min_radius=3)
    assert len(quads) == 5 and _matched(quads, centres, 3) == 5
    assert max(_radii(quads)) <= 0.6 * step  # the ends too are a step wide, not swollen


def _card(centre, size, angle: float = 12.0) -> np.ndarray:
    return cv2.boxPoints((centre, size, angle)).astype(np.int32)


def test_a_row_welded_into_a_band_keeps_a_disc_per_token():
    centres = [(150.0 + 20 * i, 200.0 - 8 * i) for i in range(7)]
    _, mask = _scene(centres, 10)
    band = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, band)  # shadows fill every neck
    quads = disc_split(_the_blob(mask), mask.shape, min_radius=3)
    assert len(quads) == 7 and _matched(quads, centres, 4) == 7


def test_a_slanted_row_of_tokens_overlapping_as_ellipses_is_cut_at_its_necks():
    # seen at 35°, touching tokens in a row along the tilt are ellipses 0.82 as long
    # as wide, each overlapping the next
    r, squash, turn = 10, 0.82, 70
    step = (
        2 * r * squash * math.cos(math.radians(turn)),
        2 * r * squash * math.sin(math.radians(turn)),
    )
    centres = [(150 + i * step[0], 100 + i * step[1]) for i in range(8)]
    mask = np.zeros((360, 640), np.uint8)
    for cx, cy in centres:
        cv2.ellipse(mask, (round(cx), round(cy)), (round(r * squash), r), turn, 0, 360, 255, -1)
    mask = cv2.dilate(mask, np.ones((3, 3), np.uint8))
    quads = disc_split(_the_blob(mask), mask.shape, min_radius=3)
    assert len(quads) == 8 and _matched(quads, centres, 3) == 8


def test_a_row_of_tokens_is_sized_by_the_tokens_not_their_shadows():
    centres = [(150.0 + 16 * i, 120.0 + 4 * i) for i in range(6)]
    _, mask = _scene(centres, 8, weld=False)
    mask = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7)))  # shadows
    quads = disc_split(_the_blob(mask), mask.shape, min_radius=3)
    assert len(quads) == 6 and _matched(quads, centres, 3) == 6
    assert all(7 <= r <= 9.5 for r in _radii(quads))


def test_a_square_card_is_not_cut_into_discs():
    mask = np.zeros((360, 640), np.uint8)
    cv2.fillConvexPoly(mask, _card((250, 150), (100, 100)), 255)
    quads = disc_split(_the_blob(mask), mask.shape, min_radius=5)
    assert len(quads) <= 1


# -- circle_split: the rims in the grey image --------------------------------------------


def test_a_packed_three_by_five_block_gives_fifteen_discs():
    centres = _block(3, 5, 18, turn=20)
    grey, mask = _scene(centres, 18)
    quads = circle_split(_the_blob(mask), grey, None)
    assert len(quads) == 15 and _matched(quads, centres, 4) == 15
    assert all(15 <= r <= 21 for r in _radii(quads))


def test_a_block_of_small_discs_is_found_without_knowing_their_size():
    centres = _block(3, 5, 9.5, turn=-30)
    grey, mask = _scene(centres, 9.5, seed=1)
    quads = circle_split(_the_blob(mask), grey, None)
    assert _matched(quads, centres, 3) == 15 and len(quads) == 15


def test_a_staggered_block_of_small_discs_is_found():
    # rows shifted by half a disc, as round tiles pack when pushed together
    r = 9.5
    centres = [
        (150 + 2 * r * k + (r if row % 2 else 0), 100 + r * math.sqrt(3) * row)
        for row in range(3)
        for k in range(5)
    ]
    grey, mask = _scene(centres, r, seed=5)
    quads = circle_split(_the_blob(mask), grey, None)
    assert len(quads) == 15 and _matched(quads, centres, 3) == 15


def test_pale_rims_on_a_pale_table_are_enough():
    centres = _block(3, 3, 16, origin=(250.0, 120.0))
    grey, mask = _scene(centres, 16, table=200, face=215, rim=185, seed=2)
    quads = circle_split(_the_blob(mask), grey, None)
    assert len(quads) == 9 and _matched(quads, centres, 4) == 9


def test_a_wrong_size_from_the_frame_does_not_hide_the_block():
    centres = _block(3, 4, 16, origin=(200.0, 100.0))
    grey, mask = _scene(centres, 16, seed=3)
    quads = circle_split(_the_blob(mask), grey, 6.0)  # say, the size of a die
    assert len(quads) == 12 and _matched(quads, centres, 4) == 12


def test_a_block_widened_into_a_slab_is_cut_at_its_discs_size_not_its_peaks():
    # shadows round a 3 × 6 block off into a slab two deep distance peaks long, which
    # add up to its area as a row's discs do; only the rims show the discs' size
    r = 14
    centres = _block(3, 6, r, origin=(150.0, 100.0))
    grey, mask = _scene(centres, r, weld=False)
    (ax, ay), (bx, by) = centres[7], centres[10]  # the middle row's second and fifth
    cv2.circle(mask, (round(ax), round(ay)), round(3.4 * r), 255, -1)
    cv2.circle(mask, (round(bx), round(by)), round(3.4 * r), 255, -1)
    cv2.rectangle(mask, (round(ax), round(ay - 3.4 * r)), (round(bx), round(by + 3.4 * r)), 255, -1)
    quads = circle_split(_the_blob(mask), grey, None)
    assert len(quads) == 18 and _matched(quads, centres, 4) == 18


def test_tilted_discs_in_a_block_are_found():
    centres = [(x, 120 + (y - 120) * 0.82) for x, y in _block(3, 4, 16, origin=(200.0, 120.0))]
    grey, mask = _scene(centres, 16, squash=0.82, seed=4)
    quads = circle_split(_the_blob(mask), grey, None)
    assert len(quads) == 12 and _matched(quads, centres, 5) == 12


def test_a_heap_rounded_off_by_its_shadow_is_cut_at_its_discs_not_read_as_one():
    # pale discs packed in a heap, faint rims between them; the shadow round the heap
    # rounds its outline off into one large, clear rim, but the outline is still
    # notched where the discs meet: one disc is no answer for it
    r = 14
    centres = [
        (250 + 2 * r * k + (r if row % 2 else 0), 120 + r * math.sqrt(3) * row)
        for row in range(4)
        for k in range(4)
    ]
    grey, mask = _scene(centres, r, table=120, face=215, rim=200, seed=6)
    heap = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9)))
    grey[(heap > 0) & (mask == 0)] = 72  # the shadow
    quads = circle_split(_the_blob(heap), grey, None)
    assert len(quads) >= 12 and _matched(quads, centres, 4) == len(quads)


def test_a_printed_card_gives_no_block_of_discs():
    grey = np.full((360, 640), 90, np.uint8)
    mask = np.zeros((360, 640), np.uint8)
    cv2.fillConvexPoly(grey, _card((265, 145), (130, 90)), 220)
    cv2.polylines(grey, [_card((265, 145), (114, 74))], True, 40, 2)  # a printed frame
    cv2.putText(grey, "VAMPIRE", (210, 152), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 30, 2)
    cv2.fillConvexPoly(mask, _card((265, 145), (130, 90)), 255)
    quads = circle_split(_the_blob(mask), grey, None)
    assert len(quads) <= 1


def test_hatched_faces_do_not_make_discs_larger_than_the_tiles():
    # white faces hatched with diagonal lines: their many parallel edges vote everywhere,
    # and a wider ring sums more of them, so discs two or three times the tiles' size
    # outscored the tiles' own rims (a heap of hatched round tiles, none lone to size it)
    radius = 40.0
    centres = _block(3, 5, radius, origin=(150.0, 80.0))
    grey, mask = _scene(centres, radius, table=40, face=230, rim=90, seed=1)
    hatching = np.zeros_like(mask)
    for offset in range(-400, 700, 8):
        cv2.line(hatching, (offset, 0), (offset + 360, 360), 255, 3)
    grey[(hatching > 0) & (mask > 0) & (grey > 150)] = 120
    quads = circle_split(_the_blob(mask), grey, None)
    assert len(quads) == 15 and _matched(quads, centres, 6) == 15


def test_a_sure_size_is_the_only_one_tried():
    # the size read on this frame's blocks (no lone disc that may be a die): a heap's
    # rims are looked for at it alone, where an unsure size gives way to the blob's own
    centres = _block(2, 2, 16, origin=(200.0, 100.0))
    grey, mask = _scene(centres, 16, seed=3)
    quads = circle_split(_the_blob(mask), grey, 16.0, sure=True)
    assert len(quads) == 4 and _matched(quads, centres, 4) == 4
    assert all(r <= 10 for r in _radii(circle_split(_the_blob(mask), grey, 8.0, sure=True)))
    assert all(r >= 13 for r in _radii(circle_split(_the_blob(mask), grey, 8.0)))


def _crown_mask(centres, radius: float) -> np.ndarray:
    """The object mask of a heap of crown caps (21 teeth, 14 % deep)."""
    mask = np.zeros((360, 640), np.uint8)
    teeth = 21
    for cx, cy in centres:
        angles = np.linspace(0, 2 * math.pi, 4 * teeth, endpoint=False)
        reach = np.where(np.arange(4 * teeth) % 4 < 2, radius, 0.86 * radius)
        points = np.stack([cx + reach * np.cos(angles), cy + reach * np.sin(angles)], axis=1)
        cv2.fillPoly(mask, [np.round(points).astype(np.int32)], 255)
    return mask


def test_discs_with_an_arc_of_the_outline_are_moved_onto_it_and_inner_ones_kept():
    # bottlecap seed 2024 #0: toothed rims outvoted by the figures put a heap's discs
    # 0.1-0.15 of a side off their centres; the heap's outline is its border caps' rims
    radius = 28.0
    plus = [(200.0, 150.0), (256.0, 150.0), (144.0, 150.0), (200.0, 206.0), (200.0, 94.0)]
    local = _crown_mask(plus, radius)
    depth = cv2.distanceTransform(local, cv2.DIST_L2, 5)
    off = [(x - 7.0, y + 6.0) for x, y in plus]  # a third of a radius off
    moved = _on_outline(local, depth, off, 0.93 * radius)
    # the arms' discs have a half of their rims on the outline; the middle one only
    # the plus's four notches, no clearer where it is moved than where it is
    assert all(math.dist(m, c) <= 2.5 for m, c in zip(moved[1:], plus[1:], strict=True))
    assert moved[0] == off[0]
    block = _block(3, 3, radius, origin=(150.0, 100.0))
    local = _crown_mask(block, radius)
    local = cv2.morphologyEx(local, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))  # welded
    depth = cv2.distanceTransform(local, cv2.DIST_L2, 5)
    middle = (block[4][0] - 5.0, block[4][1] + 4.0)
    assert _on_outline(local, depth, [middle], 0.93 * radius) == [middle]  # no arc of it


def test_a_heaps_discs_move_onto_the_outline_together_or_not_at_all():
    # bottlecap seed 2024 #0: 8 of a heap's caps 5-9 px off their arcs (radius 28.5);
    # button seed 7 #2, whorl seed 7 #2: one disc 4-7 px off its arc alone, a neck's or
    # a shadow's error, which cost their tiles
    radius = 28.0
    discs = [(100.0 + 56 * i, 100.0, 0.4) for i in range(5)]
    off = [(x + 6.0, y - 4.0) for x, y, _ in discs]
    assert _moved_together(discs, off, radius) == off
    alone = [(x, y) for x, y, _ in discs]
    alone[2] = off[2]
    assert _moved_together(discs, alone, radius) == [(x, y) for x, y, _ in discs]
    # a pixel's move is the arc's own error; a disc with clear rims keeps its place
    nudged = [(x + 1.0, y + 1.0) for x, y, _ in discs]
    assert _moved_together(discs, nudged, radius) == [(x, y) for x, y, _ in discs]
    sure = [(x, y, 0.7) for x, y, _ in discs]
    assert _moved_together(sure, off, radius) == [(x, y) for x, y, _ in sure]
