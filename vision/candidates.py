"""Stage 2: where the objects are, as quadrilaterals to rectify.

Each blob of the object mask is one object or several touching ones. Splitting them
needs the size of one tile, which comes from the table calibration when there is one,
and otherwise from the blobs themselves: most collections have some tiles lying
alone, and those share one size. Where that is not enough (every tile of the frame in
one block) a blob is offered in several splits, and the matching stage keeps the split
whose pieces look most like tiles.

- Square pieces: a block of touching tiles is a grid; its outline (four corners where
  it is a clean rectangle, so perspective is kept) is divided into rows and columns.
- Round pieces (round tiles, tokens): the distance to the blob's edge peaks at each
  disc's centre; each peak's share of the blob gives the disc's ellipse.

All coordinates returned are full-frame pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.config import VisionConfig
from vision.rectify import order_corners, quad_from_ellipse


@dataclass(frozen=True, eq=False)
class Candidate:
    """One piece that may be a tile or a token."""

    quad: np.ndarray  # 4×2 full-frame px: the square to rectify (an ellipse's box if round)
    round: bool
    blob: int  # which blob it came from
    split: int  # which split of that blob it belongs to

    @property
    def center(self) -> tuple[float, float]:
        c = self.quad.mean(axis=0)
        return float(c[0]), float(c[1])

    @property
    def side(self) -> float:
        return float(np.mean(np.linalg.norm(self.quad - np.roll(self.quad, 1, axis=0), axis=1)))

    def polygon(self) -> np.ndarray:
        """The outline to draw: the quad, or the ellipse inside it."""
        if not self.round:
            return self.quad
        t = np.linspace(0, 2 * np.pi, 32, endpoint=False)
        c = self.quad.mean(axis=0)
        u = (self.quad[1] - self.quad[0]) / 2
        v = (self.quad[3] - self.quad[0]) / 2
        return (c + np.outer(np.cos(t), u) + np.outer(np.sin(t), v)).astype(np.float32)


@dataclass(frozen=True, eq=False)
class Blob:
    contour: np.ndarray  # work px
    area: float
    box: tuple  # cv2.minAreaRect
    fill: float  # area / box area
    aspect: float  # long / short side of the box
    roundness: float  # area / area of the fitted ellipse

    @property
    def short_side(self) -> float:
        return float(min(self.box[1]))


def find_blobs(mask: np.ndarray, min_area: float) -> list[Blob]:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    blobs = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < min_area or len(contour) < 5:
            continue
        box = cv2.minAreaRect(contour)
        w, h = box[1]
        if min(w, h) < 2:
            continue
        (_, _), (ea, eb), _ = cv2.fitEllipse(contour)
        ellipse_area = math.pi * ea * eb / 4
        blobs.append(
            Blob(
                contour=contour,
                area=area,
                box=box,
                fill=area / (w * h),
                aspect=max(w, h) / min(w, h),
                roundness=area / ellipse_area if ellipse_area > 0 else 0.0,
            )
        )
    return blobs


def is_single_square(blob: Blob, config: VisionConfig) -> bool:
    return blob.fill >= config.single_fill_min and blob.aspect <= config.single_aspect_max


def is_single_disc(blob: Blob) -> bool:
    return blob.roundness >= 0.93 and blob.aspect <= 1.5 and 0.7 <= blob.fill <= 0.82


def estimate_side(blobs: list[Blob], round_tiles: bool, config: VisionConfig) -> float | None:
    """The commonest size (work px) among blobs that look like one lone tile."""
    if round_tiles:
        sizes = [2 * math.sqrt(b.area / math.pi) for b in blobs if is_single_disc(b)]
    else:
        sizes = [math.sqrt(b.area) for b in blobs if is_single_square(b, config)]
    if not sizes:
        return None
    values = np.array(sizes)
    tolerance = config.size_cluster_tolerance
    support = [(np.sum(np.abs(values - v) <= tolerance * v), v) for v in values]
    best = max(count for count, _ in support)
    if best < 2:
        return None  # no two lone blobs agree: nothing to go by
    peers = [v for count, v in support if count == best]
    anchor = max(peers)
    return float(np.median(values[np.abs(values - anchor) <= tolerance * anchor]))


def grid_splits(
    blob: Blob, side: float | None, config: VisionConfig, max_cells: int = 60
) -> list[list[np.ndarray]]:
    """Ways to divide a blob into a grid of square cells (quads in work px)."""
    (w, h) = blob.box[1]
    short, long_ = min(w, h), max(w, h)
    if side:
        k0 = max(1, round(short / side))
        counts = sorted({k for k in (k0 - 1, k0, k0 + 1) if k >= 1})
    else:
        counts = [1, 2, 3, 4, 5]
    outline = _block_outline(blob)
    splits = []
    for k in counts:
        cell = short / k
        m = max(1, round(long_ / cell))
        if k * m > max_cells or cell < 4:
            continue
        splits.append(_grid_cells(outline, k, m))
    return splits


def _block_outline(blob: Blob) -> np.ndarray:
    """The blob's four corners: from its hull if that is a clean quadrilateral (keeps
    perspective), otherwise from its rotated bounding box."""
    hull = cv2.convexHull(blob.contour)
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.02, 0.035, 0.05):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4 and cv2.contourArea(approx) <= blob.area / 0.97:
            return order_corners(approx.reshape(4, 2))
    return order_corners(cv2.boxPoints(blob.box))


def _grid_cells(outline: np.ndarray, short_count: int, long_count: int) -> list[np.ndarray]:
    """Cells of a grid laid over the quad ``outline``, ``long_count`` along its long edges."""
    edge01 = np.linalg.norm(outline[1] - outline[0])
    edge12 = np.linalg.norm(outline[2] - outline[1])
    cols, rows = (long_count, short_count) if edge01 >= edge12 else (short_count, long_count)
    target = np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float32)
    homography = cv2.getPerspectiveTransform(target, outline.astype(np.float32))
    cells = []
    for r in range(rows):
        for c in range(cols):
            unit = np.array([[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]], np.float32)
            cells.append(cv2.perspectiveTransform(unit.reshape(-1, 1, 2), homography)[:, 0])
    return cells


def coverage(mask: np.ndarray, quad: np.ndarray) -> float:
    """Share of the quad that the object mask covers."""
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, mask.shape[1]), min(y1, mask.shape[0])
    if x1 <= x0 or y1 <= y0:
        return 0.0
    cell = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(cell, (quad - [x0, y0]).round().astype(np.int32), 1)
    inside = int(cell.sum())
    if inside == 0:
        return 0.0
    return float(np.count_nonzero(mask[y0:y1, x0:x1][cell.astype(bool)])) / inside


def disc_split(blob: Blob, mask_shape: tuple[int, int], min_radius: float) -> list[np.ndarray]:
    """Discs in a blob of touching round objects, as ellipse boxes (quads, work px)."""
    x, y, w, h = cv2.boundingRect(blob.contour)
    pad = 2
    local = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.drawContours(local, [blob.contour - [x - pad, y - pad]], -1, 255, -1)
    distance = cv2.distanceTransform(local, cv2.DIST_L2, 5)
    peaks = _disc_centres(distance, min_radius)
    if not peaks:
        return []
    ys, xs = np.nonzero(local)
    centres = np.array([p[:2] for p in peaks], np.float32)
    radii = np.array([p[2] for p in peaks], np.float32)
    # each pixel belongs to the disc whose rim it is deepest inside
    depth = radii[None, :] - np.hypot(
        xs[:, None] - centres[None, :, 0], ys[:, None] - centres[None, :, 1]
    )
    owner = np.argmax(depth, axis=1)
    quads = []
    for i in range(len(peaks)):
        px = np.stack([xs[owner == i], ys[owner == i]], axis=1).astype(np.float32)
        if len(px) < 12:
            continue
        mean = px.mean(axis=0)
        cov = np.cov((px - mean).T)
        values, vectors = np.linalg.eigh(cov)
        axes = 4 * np.sqrt(np.maximum(values, 1e-6))  # full axes of a uniform ellipse
        # a neighbour's cut makes the share smaller than the disc: trust the peak radius
        major = max(axes[1], 2 * radii[i])
        minor = max(axes[0], 2 * radii[i])
        angle = math.degrees(math.atan2(vectors[1, 1], vectors[0, 1]))
        centre = (float(mean[0] + x - pad), float(mean[1] + y - pad))
        if axes[0] < 1.6 * radii[i]:  # cut hard by neighbours: keep the peak's own circle
            centre = (float(centres[i, 0] + x - pad), float(centres[i, 1] + y - pad))
            major = minor = 2 * radii[i]
        quads.append(quad_from_ellipse(centre, (major, minor), angle))
    return quads


def _disc_centres(distance: np.ndarray, min_radius: float) -> list[tuple[float, float, float]]:
    """Peaks of the distance map, strongest first, each at least its radius from the others."""
    dilated = cv2.dilate(distance, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((distance >= dilated - 1e-3) & (distance >= min_radius))
    order = np.argsort(-distance[ys, xs])
    kept: list[tuple[float, float, float]] = []
    for i in order:
        px, py, r = float(xs[i]), float(ys[i]), float(distance[ys[i], xs[i]])
        if all(math.hypot(px - kx, py - ky) >= 0.9 * max(r, kr) for kx, ky, kr in kept):
            kept.append((px, py, r))
    return kept
