"""The console commands, as INTERFACES.md fixes them."""

from __future__ import annotations

import json
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.evaluate import evaluate
from vision.synth.scene import render_photo
from vision.tileset import TileSet

from .conftest import SAMPLES

TILESET = str(SAMPLES / "tilesets" / "nocturne")


@pytest.fixture(scope="module")
def photo_path(tmp_path_factory: pytest.TempPathFactory, square_set: TileSet) -> Path:
    photo = render_photo(square_set, np.random.default_rng(12), level=0, n_tiles=6, layout="spread")
    path = tmp_path_factory.mktemp("photos") / "table.jpg"
    cv2.imwrite(str(path), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path


def test_detect_json_is_one_array_with_the_fixed_keys(photo_path: Path, capsys):
    assert main(["detect", str(photo_path), "--tileset", TILESET, "--json"]) == 0
    [entry] = json.loads(capsys.readouterr().out)
    assert list(entry) == ["image", "width", "height", "tiles", "tokens"]
    assert entry["image"] == str(photo_path) and (entry["width"], entry["height"]) == (1280, 720)
    assert len(entry["tiles"]) == 6
    for tile in entry["tiles"]:
        assert list(tile) == ["id", "color", "motif", "heart", "center", "confidence"]
        assert tile["id"].startswith(f"{tile['color']}-{tile['motif']}")
        assert tile["id"].endswith("-heart") == tile["heart"]
        assert len(tile["center"]) == 2 and 0 <= tile["confidence"] <= 1


def test_an_unreadable_image_gets_an_error_entry_and_exit_1(
    photo_path: Path, tmp_path: Path, capsys
):
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8\xff\xe0 cut short")
    code = main(["detect", str(broken), str(photo_path), "--tileset", TILESET, "--json"])
    entries = json.loads(capsys.readouterr().out)
    assert code == 1
    assert list(entries[0]) == ["image", "error"] and entries[0]["image"] == str(broken)
    assert entries[0]["error"].endswith(".") and "\n" not in entries[0]["error"]
    assert len(entries[1]["tiles"]) == 6


def test_detect_draws_an_overlay_per_image(photo_path: Path, tmp_path: Path, capsys):
    out = tmp_path / "seen.png"
    assert (
        main(
            [
                "detect",
                str(photo_path),
                str(photo_path),
                "--tileset",
                TILESET,
                "--overlay",
                str(out),
            ]
        )
        == 0
    )
    assert (tmp_path / "seen-1.png").is_file() and (tmp_path / "seen-2.png").is_file()
    assert "6 tiles" in capsys.readouterr().out


def test_detect_refuses_a_broken_tile_set_with_one_sentence(
    photo_path: Path, tmp_path: Path, capsys
):
    assert main(["detect", str(photo_path), "--tileset", str(tmp_path)]) == 1
    error = capsys.readouterr().err
    assert error.startswith("companion: ") and error.count("\n") == 1


def test_detect_uses_a_table_calibration(photo_path: Path, tmp_path: Path, capsys):
    table = tmp_path / "table.json"
    table.write_text(json.dumps({"colour_matrix": np.eye(3).tolist(), "homography_px_to_mm": None}))
    assert (
        main(["detect", str(photo_path), "--tileset", TILESET, "--json", "--table", str(table)])
        == 0
    )
    assert len(json.loads(capsys.readouterr().out)[0]["tiles"]) == 6


def test_evaluate_prints_a_row_per_level(tmp_path: Path, capsys):
    csv_path = tmp_path / "eval.csv"
    assert main(["evaluate", "--photos", "1", "--levels", "0", "--csv", str(csv_path)]) == 0
    out = capsys.readouterr().out
    assert "easy" in out and "median" in out
    assert csv_path.read_text().count("\n") == 2


def test_evaluate_measures_close_up_phone_photos_too(square_set, square_recogniser, capsys):
    reports = evaluate(square_set, square_recogniser, 3, (0,), close_ups=True)
    assert [p.tiles for p in reports[0].photos] == [3, 4, 5]
    assert main(["evaluate", "--photos", "1", "--levels", "0", "--close-ups"]) == 0
    assert "close-ups (960×1280" in capsys.readouterr().out


def test_evaluate_keeps_the_fastest_of_repeated_runs(square_set, square_recogniser):
    class SlowOnce:
        """The real recogniser, held up on its first call (as by another program)."""

        def __init__(self) -> None:
            self.result = None

        def detect(self, image):
            if self.result is None:
                time.sleep(0.3)
                self.result = square_recogniser.detect(image)
            return self.result

    (report,) = evaluate(square_set, SlowOnce(), 1, (0,), repeat=2)
    assert report.photos[0].milliseconds < 100
    assert report.photos[0].tiles == 15  # scored as usual


def test_evaluate_refuses_no_repeats(capsys):
    assert main(["evaluate", "--repeat", "0"]) == 2
    assert "--repeat" in capsys.readouterr().err


def test_evaluate_refuses_an_unknown_level(capsys):
    assert main(["evaluate", "--levels", "4"]) == 2
    assert "--levels" in capsys.readouterr().err


def test_render_photos_writes_photos_with_truth(tmp_path: Path):
    assert (
        main(["render-photos", str(tmp_path), "--count", "1", "--tiles", "4", "--level", "0"]) == 0
    )
    truth = json.loads((tmp_path / "table-01.json").read_text())
    assert len(truth["tiles"]) == 4 and (tmp_path / "table-01.jpg").is_file()
