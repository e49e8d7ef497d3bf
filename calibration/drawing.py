"""Drawing a sheet page: the layout's millimetres turned into a grey-level raster.

The same raster is printed (PNG or PDF), used by ``teach`` as the picture of what the
paper looks like where no tile lies, and used by the renderer as the scene that
synthetic tiles are laid on, so print, inference and test data can never disagree.
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.layout import (
    BAND_GAP_MM,
    FRAME_MM,
    GREY_LEVEL,
    LABEL_BAND_MM,
    MARKER_DICTIONARY,
    MARKER_MM,
    PATCH_MM,
    Marker,
    Page,
    Patch,
    Slot,
)

WHITE = 255
BLACK = 0
_FONT = cv2.FONT_HERSHEY_SIMPLEX
MM_PER_INCH = 25.4


def aruco_dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, MARKER_DICTIONARY))


def draw_page(page: Page, dpi: float) -> np.ndarray:
    """The page as a single-channel uint8 image at ``dpi`` (255 is bare paper)."""
    scale = dpi / MM_PER_INCH
    width, height = (round(side * scale) for side in page.paper_mm)
    canvas = np.full((height, width), WHITE, np.uint8)
    for marker in page.markers:
        _draw_marker(canvas, marker, scale)
    for patch in page.patches:
        _draw_patch(canvas, patch, scale)
    for slot in page.slots:
        draw_slot(canvas, slot, scale)
    _draw_captions(canvas, page, scale)
    return canvas


def frame_rect_mm(slot: Slot) -> tuple[float, float, float, float]:
    """Outer edges (left, top, right, bottom) of a slot's grey frame and label band."""
    cx, cy = slot.center_mm
    half = slot.size_mm / 2
    return (
        cx - half - FRAME_MM,
        cy - half - FRAME_MM,
        cx + half + FRAME_MM,
        cy + half + LABEL_BAND_MM,
    )


def draw_slot(canvas: np.ndarray, slot: Slot, scale: float) -> None:
    """Grey frame, white inside, label in the frame's wide bottom band."""
    cx, cy = slot.center_mm
    half = slot.size_mm / 2
    _fill_rect(canvas, frame_rect_mm(slot), GREY_LEVEL, scale)
    _fill_rect(canvas, (cx - half, cy - half, cx + half, cy + half), WHITE, scale)
    if slot.is_token:  # a thin circle shows where the round token goes
        centre = (round(cx * scale * 16), round(cy * scale * 16))
        radius = round((half - 0.6) * scale * 16)
        cv2.circle(canvas, centre, radius, 200, max(1, round(0.3 * scale)), cv2.LINE_AA, 4)
    label_y = cy + half + LABEL_BAND_MM / 2
    put_text(canvas, slot.label, (cx, label_y), 0.62 * LABEL_BAND_MM, scale, BLACK)


def _draw_marker(canvas: np.ndarray, marker: Marker, scale: float) -> None:
    draw_marker_at(canvas, marker.id, marker.corners_mm[0], MARKER_MM, scale)


def draw_marker_at(
    canvas: np.ndarray,
    marker_id: int,
    origin_mm: tuple[float, float],
    size_mm: float,
    scale: float,
) -> None:
    """Each of the 6 × 6 cells (with the black border) filled exactly at its millimetres."""
    bits = cv2.aruco.generateImageMarker(aruco_dictionary(), marker_id, 6, borderBits=1)
    x0, y0 = origin_mm
    cell = size_mm / 6
    for row in range(6):
        for col in range(6):
            if bits[row, col] == 0:
                rect = (
                    x0 + col * cell,
                    y0 + row * cell,
                    x0 + (col + 1) * cell,
                    y0 + (row + 1) * cell,
                )
                _fill_rect(canvas, rect, BLACK, scale)


def _draw_patch(canvas: np.ndarray, patch: Patch, scale: float) -> None:
    cx, cy = patch.center_mm
    half = patch.size_mm / 2
    rect = (cx - half, cy - half, cx + half, cy + half)
    if patch.kind == "grey":
        _fill_rect(canvas, rect, GREY_LEVEL, scale)
    else:  # bare paper, outlined so a person sees it is a patch
        line = 0.3
        _fill_rect(
            canvas, (rect[0] - line, rect[1] - line, rect[2] + line, rect[3] + line), BLACK, scale
        )
        _fill_rect(canvas, rect, WHITE, scale)


def _draw_captions(canvas: np.ndarray, page: Page, scale: float) -> None:
    """Title, placing instruction and a 100 mm ruler in the marker bands."""
    (mx0, my0), *_ = page.markers[0].corners_mm  # top-left marker
    _, _, (bx2, by2), _ = page.markers[2].corners_mm  # bottom-right marker
    left, top, right, bottom = mx0, my0, bx2, by2
    band = MARKER_MM
    title = page.title
    hint = "Lay each piece face up in its slot, upright as you read its label. Print at 100 %."
    ruler_text = "This bar is 100 mm at true scale"
    if not page.landscape:
        put_text(canvas, title, (left + band + 4, top + 5.0), 3.0, scale, BLACK, anchor="left")
        put_text(canvas, hint, (left + band + 4, top + 10.5), 2.2, scale, BLACK, anchor="left")
        x1 = right - band - 4
        _ruler(canvas, (x1 - 100, bottom - 4.5), scale, vertical=False)
        put_text(canvas, ruler_text, (x1 - 50, bottom - 10), 2.4, scale, BLACK)
    else:  # texts run up the left band, the ruler up the right band
        x_mid = left + band / 2
        y_start = bottom - band - 2 * (PATCH_MM + BAND_GAP_MM) - 4  # above the patches
        put_text(
            canvas, title, (x_mid - 3.5, y_start), 3.0, scale, BLACK, anchor="left", rotate=True
        )
        put_text(
            canvas, hint, (x_mid + 3.0, y_start), 2.2, scale, BLACK, anchor="left", rotate=True
        )
        y1 = bottom - band - 4
        _ruler(canvas, (right - 4.5, y1), scale, vertical=True)
        put_text(canvas, ruler_text, (right - 10, y1 - 50), 2.4, scale, BLACK, rotate=True)


def _ruler(canvas: np.ndarray, start: tuple[float, float], scale: float, vertical: bool) -> None:
    """A 100 mm bar with centimetre ticks; vertical bars run upwards from ``start``."""
    x, y = start
    thick, tick = 0.5, 2.0
    if vertical:
        _fill_rect(canvas, (x - thick / 2, y - 100, x + thick / 2, y), BLACK, scale)
        for cm in range(11):
            _fill_rect(canvas, (x - tick, y - cm * 10 - 0.15, x, y - cm * 10 + 0.15), BLACK, scale)
    else:
        _fill_rect(canvas, (x, y - thick / 2, x + 100, y + thick / 2), BLACK, scale)
        for cm in range(11):
            _fill_rect(canvas, (x + cm * 10 - 0.15, y - tick, x + cm * 10 + 0.15, y), BLACK, scale)


def _fill_rect(
    canvas: np.ndarray, rect_mm: tuple[float, float, float, float], value: int, scale: float
) -> None:
    x0, y0, x1, y1 = (round(v * scale) for v in rect_mm)
    canvas[max(y0, 0) : max(y1, 0), max(x0, 0) : max(x1, 0)] = value


def put_text(
    canvas: np.ndarray,
    text: str,
    at_mm: tuple[float, float],
    height_mm: float,
    scale: float,
    value: int,
    anchor: str = "centre",
    rotate: bool = False,
) -> None:
    """Text whose capitals are ``height_mm`` tall, centred (or left-aligned) on ``at_mm``.

    Rotated text runs bottom to top; it is drawn flat on a scratch image and turned.
    """
    height_px = height_mm * scale
    (_, h1), _ = cv2.getTextSize(text, _FONT, 1.0, 2)
    font_scale = height_px / h1
    thickness = max(1, round(font_scale * 1.6))
    (w, h), base = cv2.getTextSize(text, _FONT, font_scale, thickness)
    pad = thickness + 2
    scratch = np.full((h + base + 2 * pad, w + 2 * pad), WHITE, np.uint8)
    cv2.putText(scratch, text, (pad, pad + h), _FONT, font_scale, value, thickness, cv2.LINE_AA)
    if rotate:
        scratch = np.ascontiguousarray(np.rot90(scratch))
    sh, sw = scratch.shape
    x, y = at_mm[0] * scale, at_mm[1] * scale
    if rotate:
        x0 = round(x - sw / 2)
        y0 = round(y - sh) if anchor == "left" else round(y - sh / 2)
    else:
        x0 = round(x) - pad if anchor == "left" else round(x - sw / 2)
        y0 = round(y - sh / 2)
    ch, cw = canvas.shape
    ys, xs = slice(max(y0, 0), min(y0 + sh, ch)), slice(max(x0, 0), min(x0 + sw, cw))
    part = scratch[ys.start - y0 : ys.stop - y0, xs.start - x0 : xs.stop - x0]
    canvas[ys, xs] = np.minimum(canvas[ys, xs], part)
