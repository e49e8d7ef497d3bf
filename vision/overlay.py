"""Drawing what recognition found, for a person to check against the table."""

from __future__ import annotations

import cv2
import numpy as np

from vision.results import FrameResult

_ACCEPTED = (60, 220, 60)
_DOUBTFUL = (0, 200, 255)
_REJECTED = (60, 60, 230)
_TOKEN = (255, 200, 60)


def draw_overlay(image: np.ndarray, result: FrameResult, doubt_below: float = 0.6) -> np.ndarray:
    """A copy of ``image`` with every detection outlined and labelled.

    Tiles are green with their id and confidence (orange when the confidence is below
    ``doubt_below``), tokens blue with their colour or "back", rejected candidates red
    with the reason, so a wrong reading can be traced to the stage that made it.
    """
    canvas = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    scale = max(canvas.shape[1] / 1280, 0.5)
    for rejected in result.rejected:
        _outline(canvas, rejected.polygon, _REJECTED, scale, thickness=1)
        _label(canvas, rejected.center, [rejected.reason], _REJECTED, scale * 0.8)
    for tile in result.tiles:
        colour = _ACCEPTED if tile.confidence >= doubt_below else _DOUBTFUL
        _outline(canvas, tile.polygon, colour, scale)
        t = tile.tile
        lines = [t.colour.value, t.motif.value, f"heart {tile.confidence:.2f}"]
        if not t.heart:
            lines[2] = f"{tile.confidence:.2f}"
        _label(canvas, tile.center, lines, colour, scale, _width(tile.polygon))
    for token in result.tokens:
        _outline(canvas, token.polygon, _TOKEN, scale)
        name = token.colour if token.face_up else "back"
        _label(canvas, token.center, [name, f"{token.confidence:.2f}"], _TOKEN, scale)
    return canvas


def _width(polygon: np.ndarray) -> float:
    """How wide a piece is across (its shorter extent), for its label to fit inside."""
    extent = np.ptp(np.asarray(polygon, np.float64), axis=0)
    return float(extent.min())


def _outline(canvas: np.ndarray, polygon: np.ndarray, colour, scale: float, thickness: int = 2):
    points = np.round(polygon * 16).astype(np.int32).reshape(-1, 1, 2)
    cv2.polylines(canvas, [points], True, colour, max(1, round(thickness * scale)), cv2.LINE_AA, 4)


#: How much of the picture a label's ground keeps: the text stays legible, and the tile's
#: artwork still shows through (on a phone's small camera card a label covers most of a
#: tile, which a person is checking against the table).
_LABEL_GROUND_KEEPS = 0.4
#: A label grows to this share of a large tile's width, up to this many times its size.
_LABEL_SHARE = 0.5
_LABEL_GROWTH = 3.0


def _darken(canvas: np.ndarray, top_left: tuple[int, int], bottom_right: tuple[int, int]) -> None:
    """Darken a rectangle of ``canvas`` in place (clipped to it), as a label's ground."""
    height, width = canvas.shape[:2]
    x0, y0 = max(top_left[0], 0), max(top_left[1], 0)
    x1, y1 = min(bottom_right[0], width), min(bottom_right[1], height)
    if x1 > x0 and y1 > y0:
        ground = canvas[y0:y1, x0:x1]
        ground[:] = (ground * _LABEL_GROUND_KEEPS).astype(canvas.dtype)


def _label(
    canvas: np.ndarray, center, lines: list[str], colour, scale: float, fit: float | None = None
) -> None:
    """Lines of text centred on a piece; a tile's label is made small enough to stay
    inside the tile (down to a readable least), so a packed row's labels do not run
    into each other, and large enough on a large tile to be read once the picture is
    shrunk to a phone's width. A label that would run past the picture's edge (a piece
    turned down as mostly out of view) is moved in, so it is read whole."""
    font, size = cv2.FONT_HERSHEY_SIMPLEX, 0.38 * scale
    widest = max(cv2.getTextSize(line, font, size, 1)[0][0] for line in lines)
    if fit is not None and widest > 0.95 * fit:
        size = max(size * 0.95 * fit / widest, 0.28 * scale)
    elif fit is not None and widest < _LABEL_SHARE * fit:
        # a close-up's large tile: a label a person can read on a phone's small picture
        size = min(size * _LABEL_SHARE * fit / widest, _LABEL_GROWTH * size)
    weight = max(1, round(size * 1.6))
    sizes = [cv2.getTextSize(line, font, size, weight)[0] for line in lines]
    step = max(h for _, h in sizes) + 3
    width = max(w for w, _ in sizes)
    height, canvas_width = canvas.shape[:2]
    top = int(center[1] - step * len(lines) / 2)
    top = max(1, min(top, height - step * len(lines) - 1))
    left = int(center[0] - width / 2)
    left = max(2, min(left, canvas_width - width - 3))
    _darken(canvas, (left - 2, top - 1), (left + width + 3, top + step * len(lines) + 1))
    for k, (line, (w, h)) in enumerate(zip(lines, sizes, strict=True)):
        x, y = left + (width - w) // 2, top + step * k + h + 1
        cv2.putText(canvas, line, (x, y), font, size, colour, weight, cv2.LINE_AA)
