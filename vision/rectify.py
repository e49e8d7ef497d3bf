"""Rectification: any tile or token, wherever it lies, becomes the same upright square patch.

The one function :func:`rectify` is used both to build the templates from a tile set's
faces and to cut candidates out of a frame, so that what is learnt and what is looked
at went through the same pixels-to-patch mapping. Round objects are passed as the
bounding box of their ellipse, which maps the ellipse back onto a circle.
"""

from __future__ import annotations

import functools
import math

import cv2
import numpy as np

from vision.shared_arrays import locked

#: Background grey for the transparent corners of round faces.
NEUTRAL_GREY = 128


def rectify(image: np.ndarray, quad: np.ndarray, patch_px: int) -> np.ndarray:
    """Warp the quadrilateral ``quad`` (4×2, clockwise from the top-left) to a square patch.

    Corners are pixel edges, not centres, so a quad turned by a quarter turn gives
    exactly the patch turned by a quarter turn. A quad much larger than the patch is
    first shrunk by area averaging, so fine artwork does not alias.
    """
    quad = np.asarray(quad, np.float32)
    factor = longest_side(quad) / patch_px
    if factor > 1.5:
        x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 1
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, image.shape[1]), min(y1, image.shape[0])
        if x1 - x0 >= 2 and y1 - y0 >= 2:
            shrink = 1.0 / factor
            roi = image[y0:y1, x0:x1]
            size = (max(2, round((x1 - x0) * shrink)), max(2, round((y1 - y0) * shrink)))
            image = cv2.resize(roi, size, interpolation=cv2.INTER_AREA)
            sx, sy = size[0] / (x1 - x0), size[1] / (y1 - y0)
            quad = (quad - [x0, y0]) * [sx, sy]
    edge = patch_px - 0.5
    target = np.array([[-0.5, -0.5], [edge, -0.5], [edge, edge], [-0.5, edge]], np.float32)
    homography = cv2.getPerspectiveTransform((quad - 0.5).astype(np.float32), target)
    return cv2.warpPerspective(
        image,
        homography,
        (patch_px, patch_px),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )


class Pyramid:
    """A frame at halving resolutions, so each candidate is cut from the level nearest
    its patch size: cheap, and without the aliasing of sampling a large tile sparsely."""

    def __init__(self, image: np.ndarray, levels: int = 4) -> None:
        self.levels = [image]
        for _ in range(levels - 1):
            if min(self.levels[-1].shape[:2]) < 64:
                break
            self.levels.append(cv2.pyrDown(self.levels[-1]))
        self._padded: dict[int, np.ndarray] = {}

    def _sampled(self, level: int) -> np.ndarray:
        """A level as :meth:`rectify_many` samples it: colour frames with a fourth,
        unused channel. ``cv2.remap`` has a vector path for four channels that three
        lack; it is bilinear per channel alike, so the three are the same values, in
        about half the time. Made once per level, when first cut from."""
        image = self.levels[level]
        if image.ndim != 3 or image.shape[2] != 3:
            return image
        if level not in self._padded:
            self._padded[level] = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
        return self._padded[level]

    def rectify_many(self, quads: list[np.ndarray], patch_px: int) -> np.ndarray:
        """:meth:`rectify` for many quads at once (N×P×P×3): one remap per pyramid
        level instead of one warp per quad, whose per-call cost dominated.

        Each quad is cut from the level where it is one to two patches across: sampled
        bilinearly, it aliases little (less than the matching's own blur forgives)
        and loses no detail to upsampling. Measured against :meth:`rectify`, the
        recognition was as good or better on every set and level.
        """
        out = np.empty((len(quads), patch_px, patch_px, self.levels[0].shape[2]), np.uint8)
        if not quads:
            return out
        levels = [self._level_for(longest_side(np.asarray(q)), patch_px) for q in quads]
        edge = patch_px - 0.5
        target = np.array([[-0.5, -0.5], [edge, -0.5], [edge, edge], [-0.5, edge]], np.float32)
        grid = _patch_grid(patch_px)  # 3×P²
        corners = np.asarray(quads, np.float32)  # N×4×2
        # a remap's maps are under 2**15 rows: the patches are stacked in batches that fit
        batch = (2**15 - 1) // patch_px
        for level in sorted(set(levels)):
            at_level = [i for i, lv in enumerate(levels) if lv == level]
            for start in range(0, len(at_level), batch):
                chosen = at_level[start : start + batch]
                cut = self._cut(corners[chosen], level, target, grid, patch_px, out.shape[3])
                if len(chosen) == len(quads):
                    return cut
                out[chosen] = cut
        return out

    def _cut(
        self,
        corners: np.ndarray,
        level: int,
        target: np.ndarray,
        grid: np.ndarray,
        patch_px: int,
        channels: int,
    ) -> np.ndarray:
        """The quads ``corners`` (N×4×2, full-size pixels) cut from one pyramid level in
        one remap (N×P×P×``channels``)."""
        sources = corners / 2**level - 0.5
        homographies = np.stack([cv2.getPerspectiveTransform(target, q) for q in sources])
        mapped = homographies.astype(np.float32) @ grid  # N×3×P²
        # each coordinate divided out on its own: maps the remap takes without a copy
        map_x = (mapped[:, 0] / mapped[:, 2]).reshape(-1, patch_px)
        map_y = (mapped[:, 1] / mapped[:, 2]).reshape(-1, patch_px)
        cut = cv2.remap(
            self._sampled(level),
            map_x,
            map_y,
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
        if cut.ndim == 3 and cut.shape[2] == 4 and channels == 3:
            cut = cv2.cvtColor(cut, cv2.COLOR_BGRA2BGR)  # the unused channel let go
        return cut.reshape(len(corners), patch_px, patch_px, -1)

    def _level_for(self, side: float, patch_px: int) -> int:
        level = 0
        while level + 1 < len(self.levels) and side / 2 ** (level + 1) >= patch_px:
            level += 1
        return level


@functools.cache
def _patch_grid(patch_px: int) -> np.ndarray:
    """The patch's pixel centres as homogeneous columns (3×P², float32)."""
    ys, xs = np.mgrid[0:patch_px, 0:patch_px].astype(np.float32)
    return locked(np.stack([xs.ravel(), ys.ravel(), np.ones(patch_px * patch_px, np.float32)]))


def longest_side(quad: np.ndarray) -> float:
    """The longest of a quadrilateral's four sides (plain floats: this runs for every
    cut, where NumPy's per-call cost on four points was most of the work)."""
    a, b, c, d = quad.tolist()
    return max(math.dist(a, b), math.dist(b, c), math.dist(c, d), math.dist(d, a))


def full_quad(width: int, height: int) -> np.ndarray:
    """The corners of a whole image, as :func:`rectify` expects them."""
    return np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)


def flatten_alpha(face_bgra: np.ndarray) -> np.ndarray:
    """A BGRA face on neutral grey, so transparent corners carry no colour."""
    alpha = face_bgra[..., 3:4].astype(np.float32) / 255
    flat = face_bgra[..., :3].astype(np.float32) * alpha + NEUTRAL_GREY * (1 - alpha)
    return flat.astype(np.uint8)


#: The share of a patch's side left out round its edge (see :func:`patch_mask`).
SQUARE_INSET = 0.07
ROUND_INSET = 0.06


def patch_mask(patch_px: int, round_: bool, inset: float | None = None) -> np.ndarray:
    """The pixels of a patch that belong to the object, ``inset`` (a share of its side;
    by default :data:`SQUARE_INSET` or :data:`ROUND_INSET`) away from its edge.

    A margin is left out because the outline is where rectification is least exact and
    where the table shows through.
    """
    if inset is None:
        inset = ROUND_INSET if round_ else SQUARE_INSET
    mask = np.zeros((patch_px, patch_px), np.uint8)
    centre = (patch_px - 1) / 2
    if round_:
        ys, xs = np.mgrid[0:patch_px, 0:patch_px]
        mask[np.hypot(xs - centre, ys - centre) <= (0.5 - inset) * patch_px] = 1
    else:
        margin = round(inset * patch_px)
        mask[margin : patch_px - margin, margin : patch_px - margin] = 1
    return mask.astype(bool)


def quad_from_ellipse(
    center: tuple[float, float], axes: tuple[float, float], angle_deg: float
) -> np.ndarray:
    """The bounding box of an ellipse (full axes lengths), in :func:`rectify` corner order."""
    box = cv2.boxPoints(((center[0], center[1]), (axes[0], axes[1]), angle_deg))
    return order_corners(box)


def order_corners(points: np.ndarray) -> np.ndarray:
    """Four corners in clockwise order (image y down), starting from the top-left-most.

    Plain floats: this runs for every ellipse and outline, where NumPy's per-call cost
    on four points was most of the work."""
    points = np.asarray(points, np.float32).reshape(4, 2)
    corners = points.tolist()
    cx = sum(x for x, _ in corners) / 4
    cy = sum(y for _, y in corners) / 4
    order = sorted(range(4), key=lambda i: math.atan2(corners[i][1] - cy, corners[i][0] - cx))
    start = min(range(4), key=lambda k: corners[order[k]][0] + corners[order[k]][1])
    return points[order[start:] + order[:start]]
