"""Is every piece in its own slot? Checked from the pieces themselves, knowing no artwork.

The sheet is a table of colours (rows) by motifs (columns), plain and with a heart, so
every tile has nine relatives of its colour and nine of its motif. A tile in the right
slot looks like its row in colour and like its column in drawing; a tile in the wrong
slot looks like another row or column. Each tile is compared with its relatives,
leaving itself out, so one misplaced tile cannot pull the comparison its way:

- colour: a histogram of hue and saturation (white-lamp colours, so rows agree);
- drawing: the edges of the grey picture, blurred, so colour and small shifts do not
  matter;
- heart: what the heart adds is the same on every tile of a motif (a badge, an outline,
  a small heart on the figure), so the difference "heart minus plain" of each pair
  must point the way the motif's other pairs do.

Tokens carry colour names, so each token is compared with the colours its name and its
neighbours' names stand for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

import cv2
import numpy as np

from companion.bitenight.tiles import COLOURS, MOTIFS, Colour, Motif, Tile

#: Faces are compared at this size.
SIDE = 48
#: How much better another row or column must fit before a tile is called misplaced.
MARGIN = 0.05
#: A heart difference pointing this much the other way means plain and heart swapped.
HEART_SWAP = -0.2


Group = TypeVar("Group", Colour, Motif)


@dataclass(frozen=True)
class Misplaced:
    slot: str  # the slot's id
    looks_like: str  # the slot whose piece it looks like


def misplaced_tile(faces: Mapping[Tile, np.ndarray]) -> Misplaced | None:
    """The first tile (sheet order) that looks like another slot's tile, or None.

    ``faces`` holds all 50 tiles, BGRA, upright, in white-lamp colours.
    """
    tiles = list(faces)
    colours = {tile: _colour_signature(faces[tile]) for tile in tiles}
    drawings = {tile: drawing_signature(faces[tile]) for tile in tiles}
    for tile in tiles:
        colour = _best(tile, lambda other, c: other.colour == c, COLOURS, colours, _overlap, tiles)
        motif = _best(tile, lambda other, m: other.motif == m, MOTIFS, drawings, _cosine, tiles)
        if colour == tile.colour and motif == tile.motif:
            heart = _heart_of(tile, drawings)
        else:
            heart = _looks_like_heart(tile, colour, motif, drawings)
        looks_like = Tile(colour, motif, heart)
        if looks_like != tile:
            return Misplaced(tile.id, looks_like.id)
    return None


def _best(
    tile: Tile,
    belongs: Callable[[Tile, Group], bool],
    groups: tuple[Group, ...],
    signatures: Mapping[Tile, np.ndarray],
    similarity: Callable[[np.ndarray, np.ndarray], float],
    tiles: list[Tile],
) -> Group:
    """The group (colour or motif) whose other members ``tile`` resembles most.

    Its own group wins ties and near-ties (``MARGIN``): only clear evidence moves it.
    """
    own = next(group for group in groups if belongs(tile, group))
    scores = {}
    for group in groups:
        members = [other for other in tiles if other != tile and belongs(other, group)]
        scores[group] = float(
            np.median([similarity(signatures[tile], signatures[o]) for o in members])
        )
    best = max(scores, key=scores.__getitem__)
    return best if scores[best] > scores[own] + MARGIN else own


def _typical_heart(
    drawings: Mapping[Tile, np.ndarray], motif: Motif, leave_out: set[tuple[Colour, Motif]]
) -> np.ndarray:
    """What a heart adds to a drawing of ``motif``, typically: the median "heart minus
    plain" of the motif's other colours.

    Within a motif the heart is drawn alike; across motifs it need not be (one set
    puts a badge at the foot of every tile, another draws a small heart on the figure,
    wherever the figure is).
    """
    differences = [
        drawings[Tile(c, motif, True)] - drawings[Tile(c, motif, False)]
        for c in COLOURS
        if (c, motif) not in leave_out
    ]
    return np.median(np.stack(differences), axis=0)


def _heart_of(tile: Tile, drawings: Mapping[Tile, np.ndarray]) -> bool:
    """Whether ``tile`` (in the right row and column) is the heart or the plain one of its pair.

    The pair's difference is compared with the other pairs' typical difference.
    """
    plain, heart = Tile(tile.colour, tile.motif, False), Tile(tile.colour, tile.motif, True)
    typical = _typical_heart(drawings, tile.motif, {(tile.colour, tile.motif)})
    agreement = _cosine(drawings[heart] - drawings[plain], typical)
    if agreement < HEART_SWAP:  # the pair is the wrong way round
        return not tile.heart
    return tile.heart


def _looks_like_heart(
    tile: Tile, colour: Colour, motif: Motif, drawings: Mapping[Tile, np.ndarray]
) -> bool:
    """Whether a misplaced tile is the heart of the pair (colour, motif) it resembles.

    Whichever of that pair's slots still holds its own tile tells: the tile minus the
    plain one should look like a heart, or the heart one minus the tile should.
    """
    typical = _typical_heart(drawings, motif, {(tile.colour, tile.motif), (colour, motif)})
    as_heart = _cosine(drawings[tile] - drawings[Tile(colour, motif, False)], typical)
    as_plain = _cosine(drawings[Tile(colour, motif, True)] - drawings[tile], typical)
    return as_heart > as_plain


def _colour_signature(face: np.ndarray) -> np.ndarray:
    """Hue × saturation histogram of the face's coloured pixels (sums to 1)."""
    bgr, mask = _flat(face)
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    histogram = cv2.calcHist([hsv], [0, 1], mask, [18, 4], [0, 180, 40, 256]).ravel()
    total = histogram.sum()
    return histogram / total if total > 0 else histogram


def drawing_signature(face: np.ndarray) -> np.ndarray:
    """Blurred edge strength of the grey picture, unit length."""
    bgr, mask = _flat(face)
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx, gy = cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    edges = np.hypot(gx, gy) * (mask > 0)
    edges = cv2.GaussianBlur(edges, (0, 0), 1.5).ravel()
    edges -= edges.mean()
    norm = np.linalg.norm(edges)
    return edges / norm if norm > 0 else edges


def _flat(face: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The face at the comparison size, and the mask of its inner part (no rim)."""
    small = cv2.resize(face, (SIDE, SIDE), interpolation=cv2.INTER_AREA)
    mask = (small[..., 3] > 200).astype(np.uint8) if small.shape[2] == 4 else None
    inner = np.zeros((SIDE, SIDE), np.uint8)
    inset = SIDE // 12
    inner[inset:-inset, inset:-inset] = 1
    mask = inner if mask is None else mask & inner
    return np.ascontiguousarray(small[..., :3]), mask


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.minimum(a, b).sum())


def _cosine(a: np.ndarray, b: np.ndarray) -> float:
    norm = np.linalg.norm(a) * np.linalg.norm(b)
    return float(a @ b / norm) if norm > 0 else 0.0


#: What common token colour names look like (BGR, white lamp).
_NAMED_COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (40, 40, 200),
    "yellow": (40, 210, 230),
    "white": (235, 235, 235),
    "blue": (190, 110, 40),
    "green": (60, 160, 50),
    "black": (35, 35, 35),
    "orange": (30, 130, 240),
    "purple": (140, 50, 120),
    "pink": (180, 140, 240),
    "brown": (40, 70, 120),
    "grey": (128, 128, 128),
    "gray": (128, 128, 128),
}


def misplaced_token(faces: Mapping[str, np.ndarray]) -> Misplaced | None:
    """The first token whose colour is another named colour of the set, or None.

    Only names with a known look are judged; a set with invented names is trusted.
    """
    known = [name for name in faces if name in _NAMED_COLOURS]
    if len(known) < 2:
        return None
    for name in known:
        colour = _dominant_colour(faces[name])
        nearest = min(known, key=lambda other: _lab_distance(colour, _NAMED_COLOURS[other]))
        if nearest != name:
            return Misplaced(f"token-{name}", f"token-{nearest}")
    return None


def _dominant_colour(face: np.ndarray) -> np.ndarray:
    """The median colour of the face's disc (the field of a token, not its drawing)."""
    bgr, mask = _flat(face)
    return np.median(bgr[mask > 0], axis=0)


def _lab_distance(a: np.ndarray, b: tuple[int, int, int]) -> float:
    pair = np.array([[a, b]], np.uint8)
    lab = cv2.cvtColor(pair, cv2.COLOR_BGR2LAB).astype(np.float32)[0]
    return float(np.linalg.norm(lab[0] - lab[1]))
