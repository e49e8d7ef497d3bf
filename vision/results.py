"""What recognition hands out: plain values the web, the CLI and the overlay share."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from companion.bitenight.tiles import Tile


@dataclass(frozen=True, eq=False)
class TileDetection:
    tile: Tile
    center: tuple[float, float]  # input-image pixels
    polygon: np.ndarray  # N×2 input-image pixels (4 corners, or an ellipse for round tiles)
    confidence: float  # 0..1

    def to_json(self) -> dict:
        """The object INTERFACES.md fixes for ``companion detect --json``."""
        return {
            "id": self.tile.id,
            "color": self.tile.colour.value,
            "motif": self.tile.motif.value,
            "heart": self.tile.heart,
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "confidence": round(self.confidence, 3),
        }


@dataclass(frozen=True, eq=False)
class TokenDetection:
    colour: str | None  # None when face down
    face_up: bool
    center: tuple[float, float]
    polygon: np.ndarray
    confidence: float

    def to_json(self) -> dict:
        return {
            "color": self.colour,
            "face_up": self.face_up,
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "confidence": round(self.confidence, 3),
        }


@dataclass(frozen=True, eq=False)
class RejectedCandidate:
    """A piece that was looked at and turned down, with the reason, for the overlay."""

    center: tuple[float, float]
    polygon: np.ndarray
    reason: str


@dataclass(frozen=True, eq=False)
class FrameResult:
    width: int
    height: int
    tiles: tuple[TileDetection, ...] = ()
    tokens: tuple[TokenDetection, ...] = ()
    rejected: tuple[RejectedCandidate, ...] = ()
    tile_side_px: float | None = None  # the size one tile had in this frame, if known
    light_gains: tuple[float, float, float] = (1.0, 1.0, 1.0)  # the frame's estimated lamp
    timings_ms: dict[str, float] = field(default_factory=dict)

    def to_json(self, image: str) -> dict:
        return {
            "image": image,
            "width": self.width,
            "height": self.height,
            "tiles": [t.to_json() for t in self.tiles],
            "tokens": [t.to_json() for t in self.tokens],
        }
