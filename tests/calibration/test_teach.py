"""Teaching: photos of the sheet with the pieces in place become a tile set, or a reason."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest

from calibration.commands import register  # noqa: F401  (the CLI is exercised below)
from calibration.teach import TeachError, teach
from companion.cli import main
from companion.errors import CompanionError
from vision.recogniser import Recogniser
from vision.synth.scene import render_photo
from vision.tileset import TileSet, load_tileset

from .photos import all_pages, page_photo, sample

COLLECTION_PHOTOS = 5
TILES_PER_PHOTO = 20


@cache
def taught(name: str) -> TileSet:
    return teach(all_pages(name), name=f"taught-{name}")


@cache
def collections(name: str) -> tuple:
    """Rendered collections of the pristine set: what the taught set must read as well."""
    rng = np.random.default_rng(2024)
    return tuple(
        render_photo(sample(name), rng, level=1, n_tiles=TILES_PER_PHOTO, token_rows=1)
        for _ in range(COLLECTION_PHOTOS)
    )


def accuracy(tileset: TileSet, photos: tuple) -> float:
    """Share of the tiles and tokens in ``photos`` found and named right."""
    recogniser = Recogniser(tileset)
    right = total = 0
    for photo in photos:
        result = recogniser.detect(photo.image)

        def at(found, truth, reach=photo.tile_px / 2):
            near = [d for d in found if np.hypot(*np.subtract(d.center, truth.center)) < reach]
            return near[0] if near else None

        for truth in photo.tiles:
            found = at(result.tiles, truth)
            right += found is not None and found.tile == truth.tile
        for truth in photo.tokens:
            found = at(result.tokens, truth)
            right += found is not None and (found.colour, found.face_up) == (
                truth.colour,
                truth.face_up,
            )
        total += len(photo.tiles) + len(photo.tokens)
    return right / total


@pytest.mark.slow
@pytest.mark.parametrize("name", ["nocturne", "lantern"])
def test_a_taught_set_reads_collections_within_one_point_of_the_pristine_set(name: str) -> None:
    photos = collections(name)
    pristine = accuracy(sample(name), photos)
    learnt = accuracy(taught(name), photos)
    assert learnt >= pristine - 0.01, f"taught {learnt:.3f} vs pristine {pristine:.3f}"


@pytest.mark.parametrize(("name", "shape"), [("nocturne", "square"), ("lantern", "round")])
def test_teaching_measures_the_tile_size_and_sees_the_shape(name: str, shape: str) -> None:
    tileset = taught(name)
    assert tileset.tile_shape == shape
    assert abs(tileset.tile_size_mm - sample(name).tile_size_mm) <= 1.0


def test_a_taught_set_is_complete_and_loads_back(tmp_path) -> None:
    from vision.tileset import save_tileset

    folder = save_tileset(taught("nocturne"), tmp_path / "mine")
    loaded = load_tileset(folder)
    assert len(loaded.faces) == 50
    assert set(loaded.token_faces) == {"red", "yellow", "white", "blue", "green", "black"}
    assert loaded.token_back is not None


def test_taught_faces_have_the_pristine_colours_despite_the_warm_lamp() -> None:
    pristine, learnt = sample("nocturne"), taught("nocturne")
    for tile, face in pristine.faces.items():
        truth = cv2.resize(face[..., :3], (32, 32), interpolation=cv2.INTER_AREA)
        seen = cv2.resize(learnt.faces[tile][..., :3], (32, 32), interpolation=cv2.INTER_AREA)
        mean_truth = truth.reshape(-1, 3).mean(0)
        mean_seen = seen.reshape(-1, 3).mean(0)
        assert np.abs(mean_truth - mean_seen).max() < 20, tile.id


def test_photos_may_come_in_any_order() -> None:
    photos = all_pages("nocturne")
    tileset = teach(photos[::-1], name="reversed")
    assert len(tileset.faces) == 50


def test_an_empty_slot_is_named() -> None:
    photos = all_pages("nocturne", leave_out={"red-monk"})
    with pytest.raises(TeachError, match=r"^slot red-monk is empty$"):
        teach(photos, name="x")


def test_several_empty_slots_are_counted_in_one_sentence() -> None:
    photos = all_pages("nocturne", leave_out={"blue-coffin-heart", "red-garlic-heart"})
    with pytest.raises(TeachError, match=r"^slot blue-coffin-heart is empty \(and 1 more\)$"):
        teach(photos, name="x")


def test_a_tile_of_another_colour_is_named() -> None:
    photos = all_pages("nocturne", swap=(("red-monk", "blue-monk"), ("blue-monk", "red-monk")))
    with pytest.raises(TeachError, match=r"^slot blue-monk holds what looks like red-monk's tile$"):
        teach(photos, name="x")


def test_a_tile_of_another_motif_is_named() -> None:
    photos = all_pages("lantern", swap=(("red-monk", "red-maiden"), ("red-maiden", "red-monk")))
    with pytest.raises(
        TeachError, match=r"^slot red-monk holds what looks like red-maiden's tile$"
    ):
        teach(photos, name="x")


def test_a_heart_tile_in_the_plain_slot_is_named() -> None:
    swap = (("red-monk", "red-monk-heart"), ("red-monk-heart", "red-monk"))
    with pytest.raises(TeachError, match=r"^slot red-monk holds what looks like red-monk-heart's"):
        teach(all_pages("nocturne", swap=swap), name="x")


def test_a_token_in_another_colours_slot_is_named() -> None:
    swap = (("token-red", "token-blue"), ("token-blue", "token-red"))
    with pytest.raises(
        TeachError, match=r"^slot token-red holds what looks like token-blue's token$"
    ):
        teach(all_pages("nocturne", swap=swap), name="x")


def test_a_missing_page_is_named() -> None:
    photos = all_pages("nocturne")
    with pytest.raises(TeachError, match=r"^page 2 is missing$"):
        teach([photos[0], photos[2]], name="x")


def test_the_same_page_twice_is_named() -> None:
    photos = all_pages("nocturne")
    with pytest.raises(TeachError, match=r"^photos page-1.jpg and again.jpg both show page 1$"):
        teach([photos[0], ("again.jpg", photos[0][1]), *photos[1:]], name="x")


def test_a_photo_without_the_sheet_is_named() -> None:
    table = np.full((600, 800, 3), (60, 90, 120), np.uint8)
    with pytest.raises(CompanionError, match=r"^no calibration sheet found in photo table.jpg$"):
        teach([("table.jpg", table)], name="x")


def test_tokens_alone_make_a_vampierenjacht_set() -> None:
    """The token page with its tile slots empty teaches the tokens only."""
    tile_ids = {slot.id for slot in _token_page().slots if not slot.is_token}
    image = page_photo("nocturne", 3, leave_out=frozenset(tile_ids))
    tileset = teach([("tokens.jpg", image)], name="tokens")
    assert not tileset.faces
    assert len(tileset.token_faces) == 6


def _token_page():
    from .photos import sheet_for

    return sheet_for("nocturne").pages[2]


def test_the_command_writes_the_folder(tmp_path) -> None:
    paths = _write_photos(tmp_path, all_pages("nocturne"))
    assert main(["teach", *map(str, paths), "--out", str(tmp_path / "mine")]) == 0
    assert len(load_tileset(tmp_path / "mine").faces) == 50


def test_a_failed_teach_leaves_no_folder_behind(tmp_path, capsys) -> None:
    photos = all_pages("nocturne", leave_out={"red-monk"})
    paths = _write_photos(tmp_path, photos)
    assert main(["teach", *map(str, paths), "--out", str(tmp_path / "mine")]) == 1
    assert capsys.readouterr().err.strip() == "companion: slot red-monk is empty"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in paths)


def test_teach_will_not_replace_a_folder_that_is_not_a_tile_set(tmp_path, capsys) -> None:
    (tmp_path / "documents").mkdir()
    (tmp_path / "documents" / "letter.txt").write_text("keep me")
    paths = _write_photos(tmp_path, all_pages("nocturne"))
    assert main(["teach", *map(str, paths), "--out", str(tmp_path / "documents")]) == 1
    assert "is not a tile set" in capsys.readouterr().err
    assert (tmp_path / "documents" / "letter.txt").read_text() == "keep me"


def _write_photos(folder, photos) -> list:
    paths = []
    for source, image in photos:
        path = folder / source
        cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        paths.append(path)
    return paths
