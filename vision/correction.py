"""Table calibration: what one photo of the printed sheet teaches about a camera.

``companion calibration`` measures it from the sheet's white and grey patches and its
ArUco markers; ``companion detect --table FILE`` and the server apply it to every frame.
Both halves are optional: the colour matrix alone helps a phone photo under a lamp,
the homography alone fixes the expected tile size in pixels.

JSON form (written by :meth:`CameraCorrection.to_json`)::

    {"colour_matrix": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
     "homography_px_to_mm": [[...], [...], [...]] | null,
     "camera": "free text, e.g. webcam 0"}

The colour matrix acts on BGR pixel columns scaled to 0..1 (``bgr_out = M @ bgr_in``),
which is what a least-squares fit of the measured patches to their printed values gives.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.errors import CompanionError


class CorrectionError(CompanionError):
    """A table calibration file that cannot be used."""


@dataclass(frozen=True, eq=False)
class CameraCorrection:
    """A 3×3 colour correction and, optionally, the image→table-millimetre homography."""

    colour_matrix: np.ndarray
    homography_px_to_mm: np.ndarray | None = None
    camera: str = ""

    def __post_init__(self) -> None:
        matrix = np.asarray(self.colour_matrix, dtype=np.float64)
        if matrix.shape != (3, 3) or not np.all(np.isfinite(matrix)):
            raise CorrectionError("The colour matrix must be 3×3 finite numbers.")
        object.__setattr__(self, "colour_matrix", matrix)
        if self.homography_px_to_mm is not None:
            homography = np.asarray(self.homography_px_to_mm, dtype=np.float64)
            if (
                homography.shape != (3, 3)
                or not np.all(np.isfinite(homography))
                or abs(np.linalg.det(homography)) < 1e-12
            ):
                raise CorrectionError("The table homography must be an invertible 3×3 matrix.")
            object.__setattr__(self, "homography_px_to_mm", homography)

    @classmethod
    def identity(cls) -> CameraCorrection:
        return cls(np.eye(3))

    def correct_colours(self, image_bgr: np.ndarray) -> np.ndarray:
        """Apply the colour matrix to a BGR uint8 image."""
        if np.allclose(self.colour_matrix, np.eye(3)):
            return image_bgr
        out = cv2.transform(image_bgr.astype(np.float32), self.colour_matrix.astype(np.float32))
        return np.clip(out, 0, 255).astype(np.uint8)

    def mm_per_px(self, point_px: tuple[float, float]) -> float | None:
        """Table millimetres per image pixel around ``point_px`` (None without a homography)."""
        if self.homography_px_to_mm is None:
            return None
        x, y = point_px
        pts = np.array([[[x, y]], [[x + 1, y]], [[x, y + 1]]], np.float64)
        mm = cv2.perspectiveTransform(pts, self.homography_px_to_mm)[:, 0]
        jacobian = np.stack([mm[1] - mm[0], mm[2] - mm[0]], axis=1)
        return float(np.sqrt(abs(np.linalg.det(jacobian))))

    def to_json(self) -> str:
        homography = self.homography_px_to_mm
        return json.dumps(
            {
                "colour_matrix": self.colour_matrix.tolist(),
                "homography_px_to_mm": None if homography is None else homography.tolist(),
                "camera": self.camera,
            },
            indent=2,
        )

    @classmethod
    def from_json(cls, text: str, *, source: str = "the table calibration") -> CameraCorrection:
        try:
            data = json.loads(text)
            return cls(
                colour_matrix=np.array(data["colour_matrix"], dtype=np.float64),
                homography_px_to_mm=(
                    None
                    if data.get("homography_px_to_mm") is None
                    else np.array(data["homography_px_to_mm"], dtype=np.float64)
                ),
                camera=str(data.get("camera", "")),
            )
        except CorrectionError as error:
            raise CorrectionError(f"{source}: {error}") from None
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError):
            raise CorrectionError(
                f"{source} is not a table calibration (expected JSON with a colour_matrix)."
            ) from None

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> CameraCorrection:
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            raise CorrectionError(f"{path} cannot be read ({error.strerror or error}).") from None
        return cls.from_json(text, source=str(path))
