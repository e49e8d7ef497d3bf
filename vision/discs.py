"""Stage 2 for round pieces: touching discs (round tiles, tokens) told apart.

A blob of the object mask may hold one disc or several touching ones: a row of
tokens, a cluster or a packed block of round tiles. Each function returns the discs
it finds as ellipse boxes (quads in work px, see :func:`vision.rectify.quad_from_ellipse`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.rectify import quad_from_ellipse

if TYPE_CHECKING:
    from vision.candidates import Blob


def is_single_disc(blob: Blob) -> bool:
    return blob.roundness >= 0.93 and blob.aspect <= 1.5 and 0.7 <= blob.fill <= 0.82


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


def circle_split(blob: Blob, grey: np.ndarray, radius: float | None) -> list[np.ndarray]:
    """Discs packed on all sides (rows and columns of round tiles), by their rims.

    Where round tiles touch in a block, their shadows weld them into one slab with no
    distance peaks; but every rim is still an edge. The radius comes from the frame's
    lone discs, or else from the curvature of the block's own outline (arcs of the
    outer discs). Returns ellipse boxes (circles) in work px.
    """
    if radius is None:
        # shadows and neighbours widen the outline's arcs: try a smaller radius too
        arc = _arc_radius(blob.contour)
        if not arc:
            return []
        splits = [circle_split(blob, grey, arc), circle_split(blob, grey, 0.82 * arc)]
        return max(splits, key=len)
    if radius < 4:
        return []
    x, y, w, h = cv2.boundingRect(blob.contour)
    pad = int(radius * 0.3)
    x0, y0 = max(0, x - pad), max(0, y - pad)
    roi = grey[y0 : y + h + pad, x0 : x + w + pad]
    roi = cv2.GaussianBlur(roi, (0, 0), 1.2)
    found = cv2.HoughCircles(
        roi,
        cv2.HOUGH_GRADIENT_ALT,
        dp=1.0,
        minDist=1.5 * radius,
        param1=120,
        param2=0.6,
        minRadius=int(0.8 * radius),
        maxRadius=math.ceil(1.25 * radius),
    )
    if found is None:
        return []
    quads = []
    for cx, cy, r in found[0]:
        centre = (float(cx + x0), float(cy + y0))
        if cv2.pointPolygonTest(blob.contour, centre, False) < 0:
            continue
        quads.append(quad_from_ellipse(centre, (2 * r, 2 * r), 0.0))
    return quads


def _arc_radius(contour: np.ndarray, step: int = 6) -> float | None:
    """The typical radius of the outline's convex arcs (the outer discs of a block)."""
    points = contour.reshape(-1, 2).astype(np.float64)
    if len(points) < 3 * step:
        return None
    a, b, c = np.roll(points, step, axis=0), points, np.roll(points, -step, axis=0)
    ab, bc, ca = (
        np.linalg.norm(a - b, axis=1),
        np.linalg.norm(b - c, axis=1),
        np.linalg.norm(c - a, axis=1),
    )
    cross = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])
    area = np.abs(cross) / 2
    radii = ab * bc * ca / np.maximum(4 * area, 1e-9)
    orientation = np.sign(np.sum(cross))
    convex = (np.sign(cross) == orientation) & (area > 0.5) & (radii < 1e4)
    if convex.sum() < 4:
        return None
    return float(np.median(radii[convex]))


def _disc_centres(distance: np.ndarray, min_radius: float) -> list[tuple[float, float, float]]:
    """Peaks of the distance map, strongest first; two kept peaks are at least three
    quarters of their radii apart (touching discs are a full two radii apart, while a
    small peak in the neck between them is not)."""
    dilated = cv2.dilate(distance, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((distance >= dilated - 1e-3) & (distance >= min_radius))
    order = np.argsort(-distance[ys, xs])
    kept: list[tuple[float, float, float]] = []
    for i in order:
        px, py, r = float(xs[i]), float(ys[i]), float(distance[ys[i], xs[i]])
        if all(math.hypot(px - kx, py - ky) >= 0.75 * (r + kr) for kx, ky, kr in kept):
            kept.append((px, py, r))
    return kept
