"""Finding the sheet in a photo: ArUco markers to a page and a millimetre→pixel homography.

Markers are searched on a copy scaled down to a workable size (a 12-megapixel phone
photo takes seconds otherwise) and their corners then refined on the full picture.
Every marker id names its sheet size, page and corner (:mod:`calibration.layout`), so
any two markers of a page fix it; all the corners found are used, least squares.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.drawing import aruco_dictionary
from calibration.layout import (
    Page,
    Paper,
    SheetLayout,
    SheetSize,
    layout_for_size,
    marker_owner,
)
from companion.errors import CompanionError

#: Longest side of the copy the markers are searched on.
DETECT_SIDE_PX = 1800
#: At least this many of a page's four markers must be seen.
MIN_MARKERS = 2
#: Worst acceptable mean distance between found and predicted marker corners.
MAX_REPROJECTION_MM = 1.5


class SheetNotFoundError(CompanionError):
    """No page of the calibration sheet could be located in a photo."""


@dataclass(frozen=True, eq=False)
class LocatedPage:
    """One sheet page found in one photo.

    ``homography`` maps the page's millimetres (in ``layout``, which is drawn for A4:
    positions relative to the markers are the same on Letter) to photo pixels.
    """

    source: str
    image: np.ndarray
    layout: SheetLayout
    page: Page
    homography: np.ndarray
    markers_seen: int
    error_mm: float

    def to_pixels(self, points_mm: np.ndarray) -> np.ndarray:
        pts = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography)[:, 0]

    def px_per_mm(self) -> float:
        """The photo's resolution on the page, at its centre."""
        cx, cy = (v / 2 for v in self.page.paper_mm)
        pts = self.to_pixels(np.array([[cx, cy], [cx + 1, cy], [cx, cy + 1]]))
        jacobian = np.stack([pts[1] - pts[0], pts[2] - pts[0]], axis=1)
        return float(np.sqrt(abs(np.linalg.det(jacobian))))


def find_markers(image: np.ndarray) -> dict[int, list[np.ndarray]]:
    """Every DICT_4X4_50 marker in a BGR photo: id -> list of 4×2 corner arrays (pixels)."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    scale = min(1.0, DETECT_SIDE_PX / max(gray.shape))
    small = (
        gray
        if scale == 1.0
        else cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    )
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    # Tile artwork sometimes decodes as a marker after bit correction; the printed
    # markers are sharp enough to need little.
    parameters.errorCorrectionRate = 0.3
    detector = cv2.aruco.ArucoDetector(aruco_dictionary(), parameters)
    corners, ids, _ = detector.detectMarkers(small)
    found: dict[int, list[np.ndarray]] = {}
    if ids is None:
        return found
    for quad, marker_id in zip(corners, ids.ravel(), strict=True):
        points = quad.reshape(4, 2).astype(np.float32) / scale
        if scale < 1.0:
            window = max(2, round(0.5 / scale))
            criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
            points = cv2.cornerSubPix(
                gray, points.reshape(-1, 1, 2), (window, window), (-1, -1), criteria
            ).reshape(4, 2)
        found.setdefault(int(marker_id), []).append(points.astype(np.float64))
    return found


def locate_page(
    image: np.ndarray, source: str, token_colours: tuple[str, ...] | None = None
) -> LocatedPage:
    """The sheet page shown in ``image``, or a SheetNotFoundError naming ``source``."""
    markers = find_markers(image)
    by_page: dict[tuple[str, int], list[tuple[int, np.ndarray]]] = {}
    sizes: dict[str, SheetSize] = {}
    for marker_id, quads in markers.items():
        owner = marker_owner(marker_id)
        if owner is None:
            continue
        size, page, _corner = owner
        sizes[size.name] = size
        by_page.setdefault((size.name, page), []).extend((marker_id, quad) for quad in quads)
    if not by_page:
        raise SheetNotFoundError(f"no calibration sheet found in photo {source}")
    kwargs = {} if token_colours is None else {"token_colours": token_colours}
    fits = []
    for (size_name, number), seen in by_page.items():
        if len({marker_id for marker_id, _ in seen}) < MIN_MARKERS:
            continue  # a lone marker, or artwork that decodes as one now and then
        layout = layout_for_size(Paper.A4, sizes[size_name], **kwargs)
        page = layout.pages[number - 1]
        printed = {marker.id: np.array(marker.corners_mm, np.float64) for marker in page.markers}
        fit = _best_fit(seen, printed)
        if fit is not None:
            fits.append((fit, layout, page))
    if not fits:
        raise SheetNotFoundError(
            f"only one corner marker of the calibration sheet is visible in photo {source}; "
            "photograph the whole page"
        )
    fit, layout, page = max(fits, key=lambda f: (f[0][1] <= MAX_REPROJECTION_MM, f[0][2], -f[0][1]))
    homography, error_mm, used = fit
    if error_mm > MAX_REPROJECTION_MM:
        raise SheetNotFoundError(
            f"the calibration sheet in photo {source} is not flat (its markers disagree by "
            f"{error_mm:.1f} mm); lay it flat and photograph it again"
        )
    return LocatedPage(source, image, layout, page, homography, used, error_mm)


def _best_fit(
    seen: list[tuple[int, np.ndarray]], printed: dict[int, np.ndarray]
) -> tuple[np.ndarray, float, int] | None:
    """The homography from the most markers that agree, then the smallest error.

    Artwork on a tile now and then decodes as a marker id; such a stray marker either
    repeats an id (each copy is tried) or disagrees with the rest (each marker is left
    out in turn when three or more are seen).
    """
    by_id: dict[int, list[np.ndarray]] = {}
    for marker_id, quad in seen:
        by_id.setdefault(marker_id, []).append(quad)
    choices = list(itertools.islice(itertools.product(*by_id.values()), 64))
    ids = list(by_id)
    best: tuple[np.ndarray, float, int] | None = None
    for quads in choices:
        subsets = [list(range(len(ids)))]
        if len(ids) >= 3:
            subsets += [[k for k in range(len(ids)) if k != out] for out in range(len(ids))]
        for subset in subsets:
            mm = np.concatenate([printed[ids[k]] for k in subset])
            px = np.concatenate([quads[k] for k in subset])
            homography, _ = cv2.findHomography(mm, px, 0)
            if homography is None:
                continue
            back = cv2.perspectiveTransform(px.reshape(-1, 1, 2), np.linalg.inv(homography))[:, 0]
            error = float(np.mean(np.linalg.norm(back - mm, axis=1)))
            key = (error <= MAX_REPROJECTION_MM, len(subset), -error)
            if best is None or key > (best[1] <= MAX_REPROJECTION_MM, best[2], -best[1]):
                best = (homography, error, len(subset))
    return best


def warp_from_page(
    located: LocatedPage, rect_mm: tuple[float, float, float, float], px_per_mm: float
) -> np.ndarray:
    """The page region ``rect_mm`` (left, top, right, bottom) of the photo, upright.

    Output pixel ``u`` has its centre at ``left + (u + 0.5) / px_per_mm`` millimetres,
    the convention :func:`calibration.drawing.draw_page` draws with.
    """
    left, top, right, bottom = rect_mm
    size = (round((right - left) * px_per_mm), round((bottom - top) * px_per_mm))
    step = 1 / px_per_mm
    to_mm = np.array([[step, 0, left + step / 2], [0, step, top + step / 2], [0, 0, 1]])
    return warp(located.image, located.homography @ to_mm, size)


def warp(image: np.ndarray, out_to_image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Sample ``image`` at ``out_to_image`` (output pixel -> image pixel), bilinear."""
    return cv2.warpPerspective(
        image,
        out_to_image,
        size,
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
