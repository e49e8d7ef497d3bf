"""Table calibration: the JSON the calibration writes is what detect reads back."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.correction import CameraCorrection, CorrectionError


def test_a_correction_survives_its_json():
    correction = CameraCorrection(np.diag([1.1, 1.0, 0.8]), np.diag([0.5, 0.5, 1.0]), "webcam 0")
    again = CameraCorrection.from_json(correction.to_json())
    assert np.allclose(again.colour_matrix, correction.colour_matrix)
    assert np.allclose(again.homography_px_to_mm, correction.homography_px_to_mm)
    assert again.camera == "webcam 0"


def test_the_homography_gives_millimetres_per_pixel():
    correction = CameraCorrection(np.eye(3), np.diag([0.25, 0.25, 1.0]))
    assert correction.mm_per_px((640, 360)) == pytest.approx(0.25)
    assert CameraCorrection.identity().mm_per_px((0, 0)) is None


def test_the_colour_matrix_acts_on_bgr_pixels():
    correction = CameraCorrection(np.diag([2.0, 1.0, 0.5]))
    image = np.full((2, 2, 3), 100, np.uint8)
    assert correction.correct_colours(image)[0, 0].tolist() == [200, 100, 50]


def test_a_file_that_is_not_a_calibration_is_refused(tmp_path: Path):
    path = tmp_path / "table.json"
    path.write_text('{"colour": 1}')
    with pytest.raises(CorrectionError, match="is not a table calibration"):
        CameraCorrection.load(path)


def test_a_singular_homography_is_refused():
    with pytest.raises(CorrectionError, match="invertible"):
        CameraCorrection(np.eye(3), np.zeros((3, 3)))
