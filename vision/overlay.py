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
        _label(canvas, rejected.center, rejected.reason, _REJECTED, scale * 0.8)
    for tile in result.tiles:
        colour = _ACCEPTED if tile.confidence >= doubt_below else _DOUBTFUL
        _outline(canvas, tile.polygon, colour, scale)
        _label(canvas, tile.center, f"{tile.tile.id} {tile.confidence:.2f}", colour, scale)
    for token in result.tokens:
        _outline(canvas, token.polygon, _TOKEN, scale)
        name = token.colour if token.face_up else "back"
        _label(canvas, token.center, f"{name} {token.confidence:.2f}", _TOKEN, scale)
    return canvas


def _outline(canvas: np.ndarray, polygon: np.ndarray, colour, scale: float, thickness: int = 2):
    points = np.round(polygon * 16).astype(np.int32).reshape(-1, 1, 2)
    cv2.polylines(canvas, [points], True, colour, max(1, round(thickness * scale)), cv2.LINE_AA, 4)


def _label(canvas: np.ndarray, center, text: str, colour, scale: float) -> None:
    font, size = cv2.FONT_HERSHEY_SIMPLEX, 0.38 * scale
    (w, h), _ = cv2.getTextSize(text, font, size, 1)
    x, y = int(center[0] - w / 2), int(center[1] + h / 2)
    cv2.rectangle(canvas, (x - 2, y - h - 2), (x + w + 2, y + 3), (0, 0, 0), -1)
    cv2.putText(canvas, text, (x, y), font, size, colour, 1, cv2.LINE_AA)
