"""Table calibration for a fixed camera: one frame with the sheet lying on the table.

The sheet's markers give the homography from image pixels to millimetres on the table
plane (the sheet's own millimetres; the table is as flat as the paper on it), and its
grey and white patches the colour correction that undoes the lamp. Both are written
as the vision engineer's :class:`~vision.correction.CameraCorrection`, which
``companion detect --table FILE`` and the server apply to every frame.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from platformdirs import user_data_dir

from calibration.layout import GREY_LEVEL, Page
from calibration.locate import LocatedPage, locate_page, warp_from_page
from calibration.slots import WORK_PX_PER_MM
from companion.errors import CompanionError
from vision.correction import CameraCorrection

#: Patch pixels this close to white are clipped and say nothing about the light.
CLIPPED = 250
#: Millimetres left out at the edge of a patch (print edges, blur).
PATCH_INSET_MM = 2.0


def table_calibration_path(camera: str) -> Path:
    """Where a camera's calibration is kept: one JSON file per camera in the user data folder."""
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in camera.strip()) or "camera"
    return Path(user_data_dir("companion")) / "tables" / f"{safe}.json"


class TableCalibrationError(CompanionError):
    """A frame that cannot calibrate the table."""


def calibrate_table(image: np.ndarray, source: str, camera: str = "") -> CameraCorrection:
    """The correction for the camera that took ``image`` (the sheet lying on the table)."""
    located = locate_page(image, source)
    homography_px_to_mm = np.linalg.inv(located.homography)
    homography_px_to_mm /= homography_px_to_mm[2, 2]
    return CameraCorrection(
        colour_matrix=colour_matrix(located),
        homography_px_to_mm=homography_px_to_mm,
        camera=camera,
    )


def colour_matrix(located: LocatedPage) -> np.ndarray:
    """Diagonal 3×3 matrix taking the seen patches to their printed values (BGR, 0..1).

    Least squares per channel over the grey and the (unclipped) white patches. Only
    neutral patches are printed, so only the lamp's colour and the exposure are
    corrected, not the camera's colour mixing: a diagonal matrix is all they determine.
    """
    seen, printed = _patch_samples(located)
    if not seen:
        raise TableCalibrationError(
            f"the grey patches of the sheet cannot be seen in {located.source}"
        )
    seen_array = np.array(seen, np.float64)
    printed_array = np.array(printed, np.float64)[:, None]
    gains = (seen_array * printed_array).sum(0) / (seen_array**2).sum(0)
    return np.diag(gains)


def _patch_samples(located: LocatedPage) -> tuple[list[np.ndarray], list[float]]:
    """Median BGR (0..1) of each patch's middle, with its printed value; clipped ones left out."""
    seen, printed = [], []
    page: Page = located.page
    for patch in page.patches:
        half = patch.size_mm / 2 - PATCH_INSET_MM
        (cx, cy) = patch.center_mm
        pixels = warp_from_page(
            located, (cx - half, cy - half, cx + half, cy + half), WORK_PX_PER_MM
        )
        median = np.median(pixels.reshape(-1, 3), axis=0)
        if median.max() >= CLIPPED:
            continue
        seen.append(median / 255.0)
        printed.append((GREY_LEVEL if patch.kind == "grey" else 255) / 255.0)
    return seen, printed
