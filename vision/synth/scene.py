"""Synthetic photos of a table with Moon tiles and vampire tokens, with ground truth.

A scene is laid out top-down in millimetres (collections spread out or touching in
rows, token rows with face-up ends and face-down middles, and things that are not
tiles: cards, dice, a hand, a printed mat), drawn on a textured table, then
photographed through :mod:`vision.synth.camera`. The truth is carried into photo
pixels through the camera's homography, so tests and ``companion evaluate`` can score
the recogniser exactly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.bitenight.tiles import ALL_TILES, Tile
from vision.synth.camera import (
    CameraEffects,
    camera_position,
    photo_points,
    photograph,
    raised,
    random_effects,
)
from vision.synth.table import random_table
from vision.tileset import TileSet

#: Scene resolution before the camera: enough detail for a 1280×720 photo.
PX_PER_MM = 3.0
#: A vampire token's diameter as a share of the tile size (tokens are smaller).
TOKEN_SIZE_RATIO = 0.7
LAYOUTS = ("spread", "touching", "groups")


@dataclass(frozen=True)
class TruthTile:
    tile: Tile
    center: tuple[float, float]
    corners: np.ndarray  # 4×2 photo pixels, the face's corners (its bounding square if round)
    #: the share of the face not covered by what was laid on it after (the mat, a card)
    visible: float = 1.0


@dataclass(frozen=True)
class TruthToken:
    colour: str | None  # None when face down
    face_up: bool
    center: tuple[float, float]
    visible: float = 1.0


@dataclass(frozen=True, eq=False)
class SyntheticPhoto:
    image: np.ndarray
    tiles: tuple[TruthTile, ...]
    tokens: tuple[TruthToken, ...]
    distractors: tuple[str, ...]
    tile_px: float  # the median tile side in photo pixels
    token_px: float  # the median token diameter in photo pixels
    effects: CameraEffects = field(default_factory=CameraEffects)


@dataclass(frozen=True)
class _Item:
    """Something lying on the table, in scene millimetres."""

    kind: str  # "tile" | "token" | a distractor name
    center: tuple[float, float]
    angle: float
    size: tuple[float, float]  # width, height in mm
    tile: Tile | None = None
    colour: str | None = None
    face_up: bool = True


def render_photo(
    tileset: TileSet,
    rng: np.random.Generator,
    *,
    level: int = 2,
    n_tiles: int = 15,
    layout: str | None = None,
    token_rows: int = 0,
    distractors: bool | Sequence[str] | None = None,
    size: tuple[int, int] = (1280, 720),
    effects: CameraEffects | None = None,
    shown_tiles: int | None = None,
) -> SyntheticPhoto:
    """Photograph a random collection of ``n_tiles`` tiles (and token rows) on a table.

    ``distractors``: True for the level's usual things (none at the easy level), or
    the names of the things to lay out ("card", "die", "hand", "mat"). ``shown_tiles``:
    lay out and frame all ``n_tiles`` but put down only that many of them, so that a
    few tiles are seen at a table camera's scale, not as a close-up of themselves.
    """
    layout = layout or LAYOUTS[int(rng.integers(len(LAYOUTS)))]
    distractors = level >= 1 if distractors is None else distractors
    effects = effects or random_effects(rng, level)
    tile_mm = tileset.tile_size_mm
    groups: list[list[_Item]] = []
    if n_tiles and tileset.has_tiles:
        chosen = [ALL_TILES[i] for i in rng.choice(len(ALL_TILES), n_tiles, replace=False)]
        groups += _tile_groups(chosen, layout, tileset, rng)
    if token_rows and tileset.has_tokens:
        groups += [_token_row(tileset, rng) for _ in range(token_rows)]
    if distractors:
        if distractors is True:  # the hard level has everything, the deposit mat too
            names = ["card", "die", "die", "hand", "mat"][: 2 + level if level < 2 else 5]
        else:
            names = list(distractors)
        groups += [[_distractor(name, tile_mm, rng)] for name in names]
    framed = _arrange(groups, tile_mm, rng)
    items = framed
    if shown_tiles is not None:
        left_out = [k for k, i in enumerate(framed) if i.kind == "tile"][shown_tiles:]
        items = [i for k, i in enumerate(framed) if k not in left_out]
    return _draw(tileset, items, rng, effects, size, level, framed)


def _tile_groups(
    tiles: list[Tile], layout: str, tileset: TileSet, rng: np.random.Generator
) -> list[list[_Item]]:
    mm = tileset.tile_size_mm
    if layout == "spread":
        return [
            [_Item("tile", (0, 0), float(rng.uniform(0, 360)), (mm, mm), tile)] for tile in tiles
        ]
    if layout == "touching":
        return [_block(tiles, mm, rng, columns=int(rng.integers(3, 6)))]
    groups, start = [], 0
    while start < len(tiles):
        count = int(rng.integers(2, 6))
        part = tiles[start : start + count]
        start += count
        groups.append(_block(part, mm, rng, columns=len(part) if rng.random() < 0.6 else 2))
    return groups


def _block(tiles: list[Tile], mm: float, rng: np.random.Generator, columns: int) -> list[_Item]:
    """Tiles laid edge to edge in rows (gap 0–1 mm), as players keep a collection."""
    angle = float(rng.uniform(0, 360))
    pitch = mm + float(rng.uniform(0.0, 1.0))
    rows = math.ceil(len(tiles) / columns)
    items = []
    for index, tile in enumerate(tiles):
        col, row = index % columns, index // columns
        x = (col - (columns - 1) / 2) * pitch
        y = (row - (rows - 1) / 2) * pitch
        turn = float(rng.choice([0, 90, 180, 270])) + float(rng.uniform(-1.5, 1.5))
        items.append(_Item("tile", (x, y), angle + turn, (mm, mm), tile))
    return _rotated(items, angle)


def _token_row(tileset: TileSet, rng: np.random.Generator) -> list[_Item]:
    """A player's row: both ends face up, the middle face down, tokens touching."""
    mm = tileset.tile_size_mm * TOKEN_SIZE_RATIO
    count = int(rng.integers(2, 9))
    colours = tileset.token_colours
    angle = float(rng.uniform(0, 360))
    items = []
    for i in range(count):
        face_up = i in (0, count - 1)
        colour = colours[int(rng.integers(len(colours)))] if face_up else None
        x = (i - (count - 1) / 2) * (mm + float(rng.uniform(0, 0.6)))
        items.append(
            _Item("token", (x, 0), float(rng.uniform(0, 360)), (mm, mm), None, colour, face_up)
        )
    return _rotated(items, angle)


def _distractor(name: str, tile_mm: float, rng: np.random.Generator) -> _Item:
    sizes = {"card": (63, 88), "die": (16, 16), "hand": (85, 110), "mat": (190, 120)}
    return _Item(name, (0, 0), float(rng.uniform(0, 360)), sizes[name])


def _rotated(items: list[_Item], angle: float) -> list[_Item]:
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    return [
        _Item(
            i.kind,
            (c * i.center[0] - s * i.center[1], s * i.center[0] + c * i.center[1]),
            i.angle,
            i.size,
            i.tile,
            i.colour,
            i.face_up,
        )
        for i in items
    ]


def _radius(item: _Item) -> float:
    return math.hypot(*item.size) / 2


def _arrange(groups: list[list[_Item]], tile_mm: float, rng: np.random.Generator) -> list[_Item]:
    """Place each group at random without overlapping the others (gap ≥ a quarter tile)."""
    placed: list[tuple[np.ndarray, float]] = []
    items: list[_Item] = []
    # the pieces of the game set the table's size; the rest finds room around them
    area = sum(_radius(i) ** 2 * 4 for g in groups for i in g if i.kind in ("tile", "token"))
    area = area or sum(_radius(i) ** 2 * 4 for g in groups for i in g)
    half = np.array([1.6, 0.9]) * math.sqrt(area / (1.6 * 0.9 * 4)) * 0.8
    gap = tile_mm * 0.25
    for group in groups:
        spots = np.array([i.center for i in group])
        radius = float(
            max(
                np.hypot(*(spots - spots.mean(0)).T).max(initial=0)
                + max(_radius(i) for i in group),
                1,
            )
        )
        local = spots - spots.mean(0)
        for attempt in range(400):
            grow = 1 + attempt / 150
            centre = rng.uniform(-half * grow, half * grow)
            if all(np.hypot(*(centre - c)) > radius + r + gap for c, r in placed):
                break
        placed.append((centre, radius))
        for item, offset in zip(group, local, strict=True):
            items.append(
                _Item(
                    item.kind,
                    tuple(centre + offset),
                    item.angle,
                    item.size,
                    item.tile,
                    item.colour,
                    item.face_up,
                )
            )
    return items


def _draw(
    tileset: TileSet,
    items: list[_Item],
    rng: np.random.Generator,
    effects: CameraEffects,
    size: tuple[int, int],
    level: int,
    framed: list[_Item],
) -> SyntheticPhoto:
    """``items`` on a table photographed as if ``framed`` (``items`` and maybe more)
    lay on it: the table's extent and the camera's view are set by ``framed``."""
    corners_mm = np.concatenate([_corners(i) for i in framed]) if framed else np.zeros((1, 2))
    lo, hi = corners_mm.min(0), corners_mm.max(0)
    # wide enough that the camera never sees past the table, whatever the shape of the layout
    margin = 0.75 * float((hi - lo).max()) + 40
    origin = lo - margin
    width, height = ((hi - lo + 2 * margin) * PX_PER_MM).astype(int)
    scene = random_table(rng, int(width), int(height), level)
    shadow_dir = rng.uniform(-1, 1, 2) * 1.5 * PX_PER_MM
    to_px = lambda pts: (np.asarray(pts) - origin) * PX_PER_MM  # noqa: E731
    content = to_px(
        np.concatenate([_corners(i) for i in framed if i.kind in ("tile", "token")] or [corners_mm])
    )
    lift = _Lift.of(effects, (int(width), int(height)), content, rng)
    sprites = [_sprite(tileset, item, rng) for item in items]
    if lift.camera is not None:  # sides stand below every face: all of them go down first
        for item, sprite in zip(items, sprites, strict=True):
            size_px = np.array(item.size) * PX_PER_MM
            paste(scene, shadow_of(sprite), to_px(item.center) + shadow_dir, size_px, item.angle)
            lift.paste_side(scene, item, sprite, to_px(item.center), size_px)
    for item, sprite in zip(items, sprites, strict=True):
        size_px = np.array(item.size) * PX_PER_MM
        centre = to_px(item.center)
        if lift.camera is None:
            paste(scene, shadow_of(sprite), centre + shadow_dir, size_px, item.angle)
        paste(scene, sprite, centre + lift.shift(item, centre), size_px, item.angle)
    visible = _visible_shares(items, sprites, origin, (int(width), int(height)))
    photo, homography = photograph(scene, effects, size, rng, content=content)

    def project(item: _Item, points_mm: np.ndarray) -> np.ndarray:
        """Where points of ``item``'s face (scene mm) lie in the photo."""
        pts = to_px(points_mm)
        return photo_points(pts + lift.shift(item, to_px(item.center)), homography, effects, size)

    tiles, tokens, sides, diameters = [], [], [], []
    for item, seen in zip(items, visible, strict=True):
        centre = tuple(float(v) for v in project(item, np.array([item.center]))[0])
        if item.kind == "tile":
            corners = project(item, _corners(item))
            sides.append(float(np.mean(np.hypot(*(corners - np.roll(corners, 1, 0)).T))))
            tiles.append(TruthTile(item.tile, centre, corners, seen))  # type: ignore[arg-type]
        elif item.kind == "token":
            corners = project(item, _corners(item))
            diameters.append(float(np.mean(np.hypot(*(corners - np.roll(corners, 1, 0)).T))))
            tokens.append(TruthToken(item.colour, item.face_up, centre, seen))
    inside = lambda c: 0 <= c[0] < size[0] and 0 <= c[1] < size[1]  # noqa: E731
    return SyntheticPhoto(
        image=photo,
        tiles=tuple(t for t in tiles if inside(t.center)),
        tokens=tuple(t for t in tokens if inside(t.center)),
        distractors=tuple(i.kind for i in items if i.kind not in ("tile", "token")),
        tile_px=float(np.median(sides)) if sides else 0.0,
        token_px=float(np.median(diameters)) if diameters else 0.0,
        effects=effects,
    )


@dataclass(frozen=True)
class _Lift:
    """How thick the pieces are, and where the camera sees them from.

    A tile or token a few millimetres thick shows its cut side on the side away from
    the lens, and its face appears shifted off its foot by parallax; the truth is the
    face. Distractors lie flat (a card is thin, a hand's height is no matter).
    """

    height_px: float = 0.0
    camera: np.ndarray | None = None
    side_bgr: tuple[int, int, int] = (0, 0, 0)

    @staticmethod
    def of(
        effects: CameraEffects,
        scene_size: tuple[int, int],
        content: np.ndarray,
        rng: np.random.Generator,
    ) -> _Lift:
        if effects.thickness_mm <= 0:
            return _Lift()
        grey = float(rng.uniform(60, 150))  # the cardboard's cut edge, in the side's shade
        return _Lift(
            height_px=effects.thickness_mm * PX_PER_MM,
            camera=camera_position(scene_size, effects, content),
            side_bgr=(round(0.8 * grey), round(0.9 * grey), round(grey)),
        )

    def shift(self, item: _Item, centre: np.ndarray) -> np.ndarray:
        """The scene pixels from the item's foot to where its face is seen."""
        if self.camera is None or item.kind not in ("tile", "token"):
            return np.zeros(2)
        return raised(centre, self.camera, self.height_px) - centre

    def paste_side(
        self, scene: np.ndarray, item: _Item, sprite: np.ndarray, centre: np.ndarray, size_px
    ) -> None:
        """The piece's side: its outline swept from the foot up to the face."""
        shift = self.shift(item, centre)
        steps = int(np.ceil(1.5 * np.hypot(*shift)))
        if steps == 0:
            return
        side = np.zeros_like(sprite)
        side[..., :3] = self.side_bgr
        side[..., 3] = sprite[..., 3]
        for t in np.linspace(0.0, 1.0, steps, endpoint=False):
            paste(scene, side, centre + t * shift, size_px, item.angle)


def _visible_shares(
    items: list[_Item], sprites: list[np.ndarray], origin: np.ndarray, size: tuple[int, int]
) -> list[float]:
    """How much of each item (its sprite's outline) no item laid after it covers.

    A table sized for a close-up's few tiles has little room for the deposit mat, which is
    then laid over some of them; a tile that cannot be seen cannot be read. Worked out at
    one pixel a millimetre, last item first, on the sprites' own outlines (a hand's
    fingers, a token's disc).
    """
    shape = (max(1, round(size[1] / PX_PER_MM)), max(1, round(size[0] / PX_PER_MM)))
    covered = np.zeros(shape, bool)
    shares = [1.0] * len(items)
    for index in reversed(range(len(items))):
        item, sprite = items[index], sprites[index]
        outline = np.zeros((*shape, 3), np.uint8)
        white = np.full(sprite.shape, 255, np.uint8)
        white[..., 3] = sprite[..., 3]
        paste(outline, white, np.asarray(item.center) - origin, np.array(item.size), item.angle)
        mine = outline[..., 0] > 127
        area = int(mine.sum())
        if area:
            shares[index] = float((mine & ~covered).sum()) / area
        covered |= mine
    return shares


def _corners(item: _Item) -> np.ndarray:
    w, h = item.size
    c, s = math.cos(math.radians(item.angle)), math.sin(math.radians(item.angle))
    local = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
    rot = np.array([[c, -s], [s, c]])
    return local @ rot.T + np.array(item.center)


def _sprite(tileset: TileSet, item: _Item, rng: np.random.Generator) -> np.ndarray:
    if item.kind == "tile":
        return tileset.faces[item.tile]  # type: ignore[index]
    if item.kind == "token":
        return tileset.token_faces[item.colour] if item.face_up else tileset.token_back  # type: ignore[return-value,index]
    return _draw_distractor(item.kind, rng)


def _draw_distractor(kind: str, rng: np.random.Generator) -> np.ndarray:
    """Plain drawings of the things that lie around a game table."""
    if kind == "card":
        img = np.zeros((264, 189, 4), np.uint8)
        img[..., :3] = (40, 30, 120)
        img[..., 3] = 255
        cv2.rectangle(img, (12, 12), (176, 251), (200, 210, 230, 255), 4)
        for k in range(8):
            cv2.circle(img, (94, 132), 20 + 12 * k, (60, 60, 160, 255), 2)
        return img
    if kind == "die":
        img = np.full((96, 96, 4), 245, np.uint8)
        for x, y in [(28, 28), (68, 68), (48, 48), (28, 68), (68, 28)][: int(rng.integers(1, 6))]:
            cv2.circle(img, (x, y), 8, (20, 20, 20, 255), -1)
        return img
    if kind == "hand":
        img = np.zeros((330, 255, 4), np.uint8)
        skin = (
            int(rng.uniform(90, 170)),
            int(rng.uniform(130, 190)),
            int(rng.uniform(180, 235)),
            255,
        )
        cv2.ellipse(img, (128, 220), (95, 100), 0, 0, 360, skin, -1)
        for k, dx in enumerate((-70, -25, 20, 62)):
            cv2.ellipse(img, (128 + dx, int(100 + 8 * abs(k - 1.5))), (20, 85), 0, 0, 360, skin, -1)
        cv2.ellipse(img, (30, 220), (22, 70), -40, 0, 360, skin, -1)
        return img
    img = np.zeros((360, 570, 4), np.uint8)  # the deposit mat: a printed board of moons
    img[..., :3] = (60, 50, 40)
    img[..., 3] = 255
    for k in range(6):
        cx = 60 + k * 90
        cv2.circle(img, (cx, 90), 36, (170, 200, 220, 255), -1)
        cv2.circle(img, (cx + 14, 80), 30, (60, 50, 40, 255), -1)
        cv2.rectangle(img, (cx - 38, 170), (cx + 38, 246), (120, 140, 160, 255), 3)
    cv2.putText(img, "DEPOT", (170, 320), cv2.FONT_HERSHEY_SIMPLEX, 2.2, (170, 200, 220, 255), 5)
    return img


def shadow_of(sprite: np.ndarray) -> np.ndarray:
    """A soft dark copy of the sprite's outline: the shadow a lamp throws beside it.

    Public because every synthetic scene with pieces on a table (collections here, the
    calibration sheet in :mod:`calibration.render`) must cast the same shadows: teaching
    is only tested fairly when the sheet's pieces look like the table's.
    """
    shadow = np.zeros_like(sprite)
    alpha = cv2.GaussianBlur(sprite[..., 3].astype(np.float32), (0, 0), sprite.shape[0] / 40)
    shadow[..., 3] = (alpha * 0.45).astype(np.uint8)
    return shadow


def paste(
    scene: np.ndarray, sprite: np.ndarray, centre: np.ndarray, size_px: np.ndarray, angle: float
) -> None:
    """Alpha-blend ``sprite`` scaled to ``size_px`` and turned by ``angle`` at ``centre``.

    ``scene`` (BGR uint8) is changed in place; ``sprite`` is BGRA, its alpha the piece's
    outline. Public so that every synthetic scene (collections here, the calibration
    sheet in :mod:`calibration.render`) lays pieces down the same way, resampling each
    sprite once.
    """
    h, w = sprite.shape[:2]
    radius = math.hypot(*size_px) / 2 + 2
    x0, y0 = (centre - radius).astype(int)
    x1, y1 = (centre + radius).astype(int) + 1
    x0c, y0c = max(x0, 0), max(y0, 0)
    x1c, y1c = min(x1, scene.shape[1]), min(y1, scene.shape[0])
    if x1c <= x0c or y1c <= y0c:
        return
    scale = np.array([size_px[0] / w, size_px[1] / h])
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    linear = np.array([[c, -s], [s, c]]) @ np.diag(scale)
    offset = centre - [x0c, y0c] - linear @ np.array([w / 2, h / 2])
    matrix = np.column_stack([linear, offset])
    out = (x1c - x0c, y1c - y0c)
    warped = cv2.warpAffine(
        sprite,
        matrix,
        out,
        flags=cv2.INTER_AREA if scale.mean() < 1 else cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0, 0),
    )
    alpha = warped[..., 3:4].astype(np.float32) / 255
    roi = scene[y0c:y1c, x0c:x1c].astype(np.float32)
    scene[y0c:y1c, x0c:x1c] = (warped[..., :3] * alpha + roi * (1 - alpha)).astype(np.uint8)
