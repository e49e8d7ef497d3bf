"""Tile sets: the artwork recognition learns from (INTERFACES.md, "Tile sets").

Print runs differ, so nothing in the pipeline knows what a vampire looks like: it
learns each face from a tile set folder. This module reads and validates that folder
(every refusal names the file at fault) and writes it atomically, so that a crash
during ``companion teach`` never leaves half a tile set behind.

```
<tileset>/
  tileset.json        {"name": str, "tile_shape": "square" | "round", "tile_size_mm": number}
  faces/<tile-id>.png one upright face per Moon tile, at least 64 px
  tokens/<colour>.png the face of a vampire token of each colour
  tokens/back.png     the back of a vampire token
```
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Literal

import cv2
import numpy as np

from companion.bitenight.tiles import ALL_TILES, Tile, UnknownTileError
from companion.errors import CompanionError
from vision.imageio import ImageError, read_image

TileShape = Literal["square", "round"]
TILE_SHAPES: tuple[str, ...] = ("square", "round")
#: The smallest face side that still carries enough detail to learn from.
MIN_FACE_PX = 64
TOKEN_BACK = "back"
_TOKEN_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


class TileSetError(CompanionError):
    """A tile set folder that cannot be used; the message names the file at fault."""


@dataclass(frozen=True, eq=False)
class TileSet:
    """The artwork of one print run: tile faces and vampire tokens as BGRA uint8 images.

    ``faces`` is empty for a Vampierenjacht-only set and ``token_faces`` (with
    ``token_back`` None) for a Bite-Night-only set. For round tiles and tokens the
    pixels outside the disc have alpha 0.
    """

    name: str
    tile_shape: TileShape
    tile_size_mm: float
    faces: Mapping[Tile, np.ndarray] = field(default_factory=dict)
    token_faces: Mapping[str, np.ndarray] = field(default_factory=dict)
    token_back: np.ndarray | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "faces", MappingProxyType(dict(self.faces)))
        object.__setattr__(self, "token_faces", MappingProxyType(dict(self.token_faces)))

    @property
    def has_tiles(self) -> bool:
        return bool(self.faces)

    @property
    def has_tokens(self) -> bool:
        return bool(self.token_faces) and self.token_back is not None

    @property
    def token_colours(self) -> tuple[str, ...]:
        return tuple(self.token_faces)


def load_tileset(path: str | Path) -> TileSet:
    """Read and validate a tile set folder; raise :class:`TileSetError` naming the bad file."""
    root = Path(path)
    if not root.is_dir():
        raise TileSetError(f"Tile set folder {root} does not exist.")
    meta = _read_meta(root / "tileset.json")
    faces_dir, tokens_dir = root / "faces", root / "tokens"
    if not faces_dir.is_dir() and not tokens_dir.is_dir():
        raise TileSetError(f"Tile set {root} has neither a faces/ nor a tokens/ folder.")
    faces = _read_faces(faces_dir) if faces_dir.is_dir() else {}
    token_faces: dict[str, np.ndarray] = {}
    back = None
    if tokens_dir.is_dir():
        token_faces, back = _read_tokens(tokens_dir)
    if meta["tile_shape"] == "round":
        faces = {tile: with_disc_alpha(face) for tile, face in faces.items()}
    token_faces = {name: with_disc_alpha(face) for name, face in token_faces.items()}
    back = with_disc_alpha(back) if back is not None else None
    return TileSet(
        name=meta["name"],
        tile_shape=meta["tile_shape"],
        tile_size_mm=meta["tile_size_mm"],
        faces=faces,
        token_faces=token_faces,
        token_back=back,
    )


def save_tileset(tileset: TileSet, path: str | Path) -> Path:
    """Write ``tileset`` as a folder at ``path``, all or nothing.

    Everything is written to a temporary folder beside the target and renamed into
    place at the end; an existing folder at ``path`` is replaced only once the new one
    is complete.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
    try:
        _write_folder(tileset, staging)
        _swap_into_place(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target


def with_disc_alpha(face: np.ndarray) -> np.ndarray:
    """Make the pixels outside the inscribed disc transparent (round tiles and tokens)."""
    h, w = face.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    cv2.ellipse(mask, ((w / 2 - 0.5, h / 2 - 0.5), (w, h), 0), 255, -1, cv2.LINE_AA)
    out = face.copy()
    out[:, :, 3] = np.minimum(out[:, :, 3], mask)
    return out


def _read_meta(path: Path) -> dict:
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TileSetError(f"{path} is missing.") from None
    except (OSError, UnicodeDecodeError) as error:
        raise TileSetError(f"{path} cannot be read ({error}).") from None
    except json.JSONDecodeError as error:
        raise TileSetError(f"{path} is not valid JSON (line {error.lineno}).") from None
    if not isinstance(meta, dict):
        raise TileSetError(f"{path} must hold a JSON object.")
    name = meta.get("name")
    if not isinstance(name, str) or not name.strip():
        raise TileSetError(f'{path} needs a non-empty "name".')
    if meta.get("tile_shape") not in TILE_SHAPES:
        raise TileSetError(f'{path} needs "tile_shape" to be "square" or "round".')
    size = meta.get("tile_size_mm")
    if isinstance(size, bool) or not isinstance(size, int | float) or not 5 <= size <= 200:
        raise TileSetError(f'{path} needs "tile_size_mm" as a number from 5 to 200.')
    return {"name": name, "tile_shape": meta["tile_shape"], "tile_size_mm": float(size)}


def _read_faces(folder: Path) -> dict[Tile, np.ndarray]:
    faces: dict[Tile, np.ndarray] = {}
    for file in sorted(folder.iterdir()):
        if file.name.startswith("."):
            continue
        if file.suffix.lower() != ".png":
            raise TileSetError(f"{file} is not a PNG; faces/ holds only <tile-id>.png files.")
        try:
            tile = Tile.parse(file.stem)
        except UnknownTileError:
            raise TileSetError(f"{file} is not named after a Moon tile id.") from None
        faces[tile] = _read_face(file)
    missing = [tile.id for tile in ALL_TILES if tile not in faces]
    if missing:
        raise TileSetError(
            f"{folder / (missing[0] + '.png')} is missing ({len(missing)} faces in all)."
        )
    return faces


def _read_tokens(folder: Path) -> tuple[dict[str, np.ndarray], np.ndarray]:
    faces: dict[str, np.ndarray] = {}
    back = None
    for file in sorted(folder.iterdir()):
        if file.name.startswith("."):
            continue
        if file.suffix.lower() != ".png" or not _TOKEN_NAME.match(file.stem):
            raise TileSetError(f"{file} is not a token face; name it <colour>.png in lower case.")
        image = _read_face(file)
        if file.stem == TOKEN_BACK:
            back = image
        else:
            faces[file.stem] = image
    if back is None:
        raise TileSetError(f"{folder / 'back.png'} is missing.")
    if len(faces) < 2:
        raise TileSetError(f"{folder} needs the faces of at least two token colours.")
    return faces, back


def _read_face(file: Path) -> np.ndarray:
    try:
        image = read_image(file, keep_alpha=True)
    except ImageError as error:
        raise TileSetError(str(error)) from None
    height, width = image.shape[:2]
    if min(height, width) < MIN_FACE_PX:
        raise TileSetError(
            f"{file} is {width}×{height} px; a face needs at least {MIN_FACE_PX} px a side."
        )
    return image


def _write_folder(tileset: TileSet, folder: Path) -> None:
    meta = {
        "name": tileset.name,
        "tile_shape": tileset.tile_shape,
        "tile_size_mm": tileset.tile_size_mm,
    }
    (folder / "tileset.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    if tileset.faces:
        (folder / "faces").mkdir()
        for tile, face in tileset.faces.items():
            _write_png(folder / "faces" / f"{tile.id}.png", face)
    if tileset.token_faces:
        (folder / "tokens").mkdir()
        for name, face in tileset.token_faces.items():
            _write_png(folder / "tokens" / f"{name}.png", face)
        if tileset.token_back is not None:
            _write_png(folder / "tokens" / f"{TOKEN_BACK}.png", tileset.token_back)


#: zlib level of written faces: level 9 took ~80 ms a face for files only 7 % smaller
#: than level 3's ~6 ms, and teaching writes 57 of them while the user waits.
PNG_COMPRESSION = 3


def _write_png(file: Path, image: np.ndarray) -> None:
    ok, encoded = cv2.imencode(".png", image, [cv2.IMWRITE_PNG_COMPRESSION, PNG_COMPRESSION])
    if not ok:
        raise TileSetError(f"{file} could not be encoded as PNG.")
    file.write_bytes(encoded.tobytes())


def _swap_into_place(staging: Path, target: Path) -> None:
    """Rename the finished folder into place; an old folder is removed only afterwards."""
    if not target.exists():
        os.replace(staging, target)
        return
    if not target.is_dir():
        raise TileSetError(f"{target} exists and is not a folder.")
    retired = target.with_name(f".{target.name}.old-{os.getpid()}")
    os.replace(target, retired)
    try:
        os.replace(staging, target)
    except BaseException:
        os.replace(retired, target)
        raise
    shutil.rmtree(retired, ignore_errors=True)
