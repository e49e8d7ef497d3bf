"""Table calibration: one frame with the sheet on the table gives millimetres and colours."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.layout import GREY_LEVEL
from calibration.render import render_sheet_photo
from calibration.table import calibrate_table
from companion.cli import main
from vision.correction import CameraCorrection

from .photos import WARM_TILTED, sample, sheet_for


@pytest.fixture(scope="module")
def frame():
    page = sheet_for("nocturne").pages[0]
    empty = frozenset(slot.id for slot in page.slots)
    return page, render_sheet_photo(
        page, sample("nocturne"), np.random.default_rng(5), effects=WARM_TILTED, leave_out=empty
    )


def _to_mm(correction: CameraCorrection, points_px: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(points_px.reshape(-1, 1, 2), correction.homography_px_to_mm)[
        :, 0
    ]


def _to_px(photo, points_mm: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(points_mm.reshape(-1, 1, 2), photo.homography_mm_to_px)[:, 0]


def test_pixels_map_to_table_millimetres_within_half_a_millimetre_on_the_sheet(frame) -> None:
    page, photo = frame
    correction = calibrate_table(photo.image, "frame.jpg")
    truth_mm = np.array([slot.center_mm for slot in page.slots], np.float64)
    error = np.linalg.norm(_to_mm(correction, _to_px(photo, truth_mm)) - truth_mm, axis=1)
    assert error.max() < 0.5


def test_the_table_around_the_sheet_maps_within_a_millimetre_and_a_half(frame) -> None:
    _, photo = frame
    correction = calibrate_table(photo.image, "frame.jpg")
    width, height = photo.image.shape[1], photo.image.shape[0]
    around_mm = np.array([[-60.0, 100.0], [350.0, 100.0], [150.0, -50.0], [150.0, 260.0]])
    in_view = [
        p
        for p in around_mm
        if 0 <= _to_px(photo, p)[0][0] < width and 0 <= _to_px(photo, p)[0][1] < height
    ]
    assert in_view, "the camera shows some table around the sheet"
    points = np.array(in_view)
    error = np.linalg.norm(_to_mm(correction, _to_px(photo, points)) - points, axis=1)
    assert error.max() < 1.5


def test_the_colour_correction_turns_the_grey_patch_neutral_under_a_warm_lamp(frame) -> None:
    page, photo = frame
    correction = calibrate_table(photo.image, "frame.jpg")
    corrected = correction.correct_colours(photo.image)
    raw_spread = corrected_spread = 0.0
    for patch in (p for p in page.patches if p.kind == "grey"):
        x, y = _to_px(photo, np.array([patch.center_mm]))[0]
        window = (slice(round(y) - 4, round(y) + 5), slice(round(x) - 4, round(x) + 5))
        raw = photo.image[window].reshape(-1, 3).mean(0)
        fixed = corrected[window].reshape(-1, 3).mean(0)
        raw_spread = max(raw_spread, float(np.ptp(raw)))
        corrected_spread = max(corrected_spread, float(np.ptp(fixed)))
        assert abs(fixed.mean() - GREY_LEVEL) < 0.3 * GREY_LEVEL  # the gradient stays
    assert raw_spread > 40, "the lamp tints the grey"
    assert corrected_spread < 8


def test_the_command_saves_a_correction_detect_can_load(frame, tmp_path) -> None:
    _, photo = frame
    cv2.imwrite(str(tmp_path / "frame.png"), photo.image)
    out = tmp_path / "webcam.json"
    assert (
        main(
            [
                "calibration",
                "table",
                str(tmp_path / "frame.png"),
                "--out",
                str(out),
                "--camera",
                "webcam 0",
            ]
        )
        == 0
    )
    loaded = CameraCorrection.load(out)
    assert loaded.camera == "webcam 0" and loaded.homography_px_to_mm is not None


def test_a_frame_without_the_sheet_is_refused_in_one_sentence(tmp_path, capsys) -> None:
    cv2.imwrite(str(tmp_path / "empty.png"), np.full((480, 640, 3), 90, np.uint8))
    assert (
        main(
            ["calibration", "table", str(tmp_path / "empty.png"), "--out", str(tmp_path / "t.json")]
        )
        == 1
    )
    assert capsys.readouterr().err == (
        f"companion: no calibration sheet found in photo {tmp_path / 'empty.png'}\n"
    )
    assert not (tmp_path / "t.json").exists()
