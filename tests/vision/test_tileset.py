"""Tile set folders: what load_tileset accepts, what it refuses (naming the file), and
that save_tileset writes all or nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.bitenight.tiles import ALL_TILES, Tile
from vision.tileset import TileSet, TileSetError, load_tileset, save_tileset

from .conftest import SAMPLES


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    target = tmp_path / "set"
    shutil.copytree(SAMPLES / "tilesets" / "nocturne", target)
    return target


def test_the_sample_sets_are_complete_square_and_round(square_set: TileSet, round_set: TileSet):
    assert square_set.tile_shape == "square" and round_set.tile_shape == "round"
    for tileset in (square_set, round_set):
        assert set(tileset.faces) == set(ALL_TILES)
        assert tileset.has_tokens and len(tileset.token_colours) == 6
        assert all(face.dtype == np.uint8 and face.shape[2] == 4 for face in tileset.faces.values())


def test_round_faces_are_transparent_outside_the_disc(round_set: TileSet):
    face = round_set.faces[Tile.parse("red-vampire")]
    assert face[0, 0, 3] == 0 and face[face.shape[0] // 2, face.shape[1] // 2, 3] == 255


def test_a_missing_face_is_named(folder: Path):
    (folder / "faces" / "red-monk-heart.png").unlink()
    with pytest.raises(TileSetError, match=r"faces/red-monk-heart\.png is missing"):
        load_tileset(folder)


def test_a_face_with_a_wrong_id_is_named(folder: Path):
    (folder / "faces" / "red-monk.png").rename(folder / "faces" / "red-friar.png")
    with pytest.raises(TileSetError, match=r"red-friar\.png is not named after a Moon tile id"):
        load_tileset(folder)


def test_an_unreadable_face_is_named(folder: Path):
    (folder / "faces" / "blue-garlic.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    with pytest.raises(TileSetError, match=r"blue-garlic\.png"):
        load_tileset(folder)


def test_a_face_under_64_px_is_named(folder: Path):
    small = np.full((40, 40, 4), 200, np.uint8)
    cv2.imwrite(str(folder / "faces" / "green-coffin.png"), small)
    with pytest.raises(TileSetError, match=r"green-coffin\.png is 40×40 px"):
        load_tileset(folder)


def test_tileset_json_must_name_a_shape(folder: Path):
    (folder / "tileset.json").write_text(
        json.dumps({"name": "x", "tile_shape": "hexagonal", "tile_size_mm": 40})
    )
    with pytest.raises(TileSetError, match=r"tileset\.json needs \"tile_shape\""):
        load_tileset(folder)


def test_a_missing_tileset_json_is_named(folder: Path):
    (folder / "tileset.json").unlink()
    with pytest.raises(TileSetError, match=r"tileset\.json is missing"):
        load_tileset(folder)


def test_tokens_need_a_back(folder: Path):
    (folder / "tokens" / "back.png").unlink()
    with pytest.raises(TileSetError, match=r"tokens/back\.png is missing"):
        load_tileset(folder)


def test_a_bite_night_only_set_needs_no_tokens(folder: Path):
    shutil.rmtree(folder / "tokens")
    tileset = load_tileset(folder)
    assert tileset.has_tiles and not tileset.has_tokens


def test_saving_and_loading_gives_the_same_set(square_set: TileSet, tmp_path: Path):
    save_tileset(square_set, tmp_path / "copy")
    again = load_tileset(tmp_path / "copy")
    assert again.name == square_set.name and again.tile_size_mm == square_set.tile_size_mm
    tile = Tile.parse("yellow-maiden-heart")
    assert np.array_equal(again.faces[tile], square_set.faces[tile])
    assert np.array_equal(again.token_back, square_set.token_back)


def test_saving_over_a_set_replaces_it_and_leaves_nothing_behind(
    square_set: TileSet, tmp_path: Path
):
    target = tmp_path / "set"
    (target / "faces").mkdir(parents=True)
    (target / "faces" / "stale.png").write_bytes(b"old")
    save_tileset(square_set, target)
    assert not (target / "faces" / "stale.png").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["set"]


def test_a_failed_save_leaves_the_old_set_untouched(square_set: TileSet, tmp_path: Path):
    target = tmp_path / "set"
    save_tileset(square_set, target)
    broken = TileSet(
        name="broken",
        tile_shape="square",
        tile_size_mm=40,
        faces={Tile.parse("red-vampire"): np.zeros((0, 0, 4), np.uint8)},
    )
    with pytest.raises(Exception):  # noqa: B017 - whatever the encoder raises
        save_tileset(broken, target)
    assert load_tileset(target).name == square_set.name
    assert sorted(p.name for p in tmp_path.iterdir()) == ["set"]
