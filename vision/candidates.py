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

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.config import VisionConfig
from vision.discs import is_single_disc
from vision.pixels import to_work
from vision.rectify import order_corners
from vision.shared_arrays import locked


@dataclass(frozen=True, eq=False)
class Candidate:
    """One piece that may be a tile or a token."""

    quad: np.ndarray  # 4×2 full-frame px: the square to rectify (an ellipse's box if round)
    round: bool
    blob: int  # which blob it came from
    split: int  # which split of that blob it belongs to
    cover: float = 1.0  # share of the blob that this split's pieces together cover

    @functools.cached_property
    def center(self) -> tuple[float, float]:
        (ax, ay), (bx, by), (cx, cy), (dx, dy) = self.quad.tolist()  # plain floats: cheaper
        return (ax + bx + cx + dx) / 4, (ay + by + cy + dy) / 4

    @functools.cached_property
    def side(self) -> float:
        return quad_side(self.quad)

    def polygon(self) -> np.ndarray:
        """The outline to draw: the quad, or the ellipse inside it."""
        if not self.round:
            return self.quad
        cos, sin = _unit_circle(32)
        c = self.quad.mean(axis=0)
        u = (self.quad[1] - self.quad[0]) / 2
        v = (self.quad[3] - self.quad[0]) / 2
        return (c + cos * u + sin * v).astype(np.float32)


def quad_side(quad: np.ndarray) -> float:
    """The mean length of a quadrilateral's four sides (plain floats: called for every
    cell of every split, where NumPy's per-call cost on four points dominated)."""
    a, b, c, d = quad.tolist()
    return (math.dist(a, b) + math.dist(b, c) + math.dist(c, d) + math.dist(d, a)) / 4


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

    @property
    def origin(self) -> tuple[int, int]:
        """The top-left corner of :attr:`pixels` in work px."""
        x, y, _, _ = cv2.boundingRect(self.contour)
        return x, y

    def holds(self, point: tuple[float, float], scale: float) -> bool:
        """Whether ``point`` (frame px) lies inside the blob (its contour is in work px)."""
        x, y = to_work(point[0], scale), to_work(point[1], scale)
        return cv2.pointPolygonTest(self.contour, (float(x), float(y)), False) >= 0

    @functools.cached_property
    def pixels(self) -> np.ndarray:
        """The blob filled in, over its bounding box (uint8, 1 inside)."""
        x, y, w, h = cv2.boundingRect(self.contour)
        shape = np.zeros((h, w), np.uint8)
        cv2.drawContours(shape, [self.contour - [x, y]], -1, 1, -1)
        return shape


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


def is_lone_square(blob: Blob, side: float | None, config: VisionConfig) -> bool:
    """A clean square blob no larger than one tile of the frame's size (when known)."""
    return (
        side is not None
        and is_single_square(blob, config)
        and blob.fill >= config.lone_fill
        and math.sqrt(blob.area) <= 1.3 * side
    )


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
    blob: Blob,
    side: float | None,
    config: VisionConfig,
    max_cells: int = 60,
    trusted: bool = False,
    outline: np.ndarray | None = None,
) -> list[list[np.ndarray]]:
    """Ways to divide a blob into a grid of square cells (quads in work px).

    A block of touching tiles is bounded by four straight edges, even where a tile is
    missing from a corner (an L-shape): the two longest runs of the outline in each of
    its two directions give the four edges, and their crossings the block's corners,
    real or not. The grid is laid in that quadrilateral with a homography, so the
    camera's perspective is kept.

    How many tiles the block spans follows from ``side`` (a tile's side at the blob,
    work px). A *trusted* side (measured on tiles this frame already recognised, or
    from a table calibration) gives one count, or two where the block's width falls
    between counts; an untrusted guess (lone blobs agreeing in size, which dice do
    too) or none at all offers every count up to five, and matching decides.
    ``outline`` replaces the block's outline read from the mask (a caller that placed
    its sides on the photo's edges).
    """
    if outline is None:
        outline = block_outline(blob)
    edge_a = (np.linalg.norm(outline[1] - outline[0]) + np.linalg.norm(outline[2] - outline[3])) / 2
    edge_b = (np.linalg.norm(outline[3] - outline[0]) + np.linalg.norm(outline[2] - outline[1])) / 2
    short, long_ = min(edge_a, edge_b), max(edge_a, edge_b)
    if side and trusted:
        counts = _counts_near(short / side)
    else:
        # a lone square is one tile, or (if every square in the frame is one) a 2×2 block
        counts = {1, 2} if is_lone_square(blob, side, config) else {1, 2, 3, 4, 5}
        if side and len(counts) > 1:
            k0 = max(1, round(short / side))
            counts |= {k for k in (k0 - 1, k0, k0 + 1) if k >= 1}
    shapes = set()
    for k in counts:
        if side and trusted:
            along = _counts_near(long_ / side)
        else:
            ratio = long_ * k / short  # tiles along the long side if they are square
            along = {math.floor(ratio), math.ceil(ratio)}
        for m in {max(k, a) for a in along}:
            if k * m <= max_cells and short / k >= 4 and long_ / m >= 0.7 * short / k:
                shapes.add((k, m))
    splits = []
    for k, m in sorted(shapes):
        cols, rows = (k, m) if edge_a <= edge_b else (m, k)
        target = np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float32)
        homography = cv2.getPerspectiveTransform(target, outline.astype(np.float32))
        # the grid's corners mapped at once (each point maps the same alone or not)
        corners = cv2.perspectiveTransform(_unit_grid(cols, rows), homography)[:, 0]
        splits.append(list(corners[_cell_corners(cols, rows)]))  # cells×4×2, one gather
    return splits


@functools.cache
def _unit_grid(cols: int, rows: int) -> np.ndarray:
    """The corners of a ``cols`` × ``rows`` grid of unit cells, row by row (K×1×2)."""
    ys, xs = np.mgrid[0 : rows + 1, 0 : cols + 1].astype(np.float32)
    return locked(np.stack([xs.ravel(), ys.ravel()], axis=1).reshape(-1, 1, 2))


@functools.cache
def _cell_corners(cols: int, rows: int) -> np.ndarray:
    """For each cell of :func:`_unit_grid`, row by row, the indices of its corners
    clockwise from the top-left (cells×4)."""
    width = cols + 1
    corners = [
        [r * width + c, r * width + c + 1, (r + 1) * width + c + 1, (r + 1) * width + c]
        for r in range(rows)
        for c in range(cols)
    ]
    return locked(np.array(corners))


def _counts_near(tiles: float) -> set[int]:
    """Whole numbers of tiles a block ``tiles`` wide may really span: the nearest, and
    its neighbour too when the width falls between the two (shadows widen a block,
    a missing corner tile narrows its outline)."""
    nearest = max(1, round(tiles))
    counts = {nearest}
    if abs(tiles - nearest) > 0.25:
        counts.add(max(1, nearest + (1 if tiles > nearest else -1)))
    return counts


def single_outline(blob: Blob) -> np.ndarray:
    """The four corners of a blob that is one square, true to perspective.

    The outline simplified to four points finds the sides; a line fitted to the
    middle of each side, and the crossings of those lines, put the corners where the
    tile's (rounded or blurred) corners would meet. Where the outline does not
    simplify cleanly, :func:`block_outline` does the slower, general job.
    """
    points = blob.contour.reshape(-1, 2)
    perimeter = cv2.arcLength(blob.contour, True)
    for share in (0.02, 0.04, 0.06):
        polygon = cv2.approxPolyDP(blob.contour, share * perimeter, True).reshape(-1, 2)
        if len(polygon) < 4:
            break
        if len(polygon) > 4 or not cv2.isContourConvex(polygon.reshape(-1, 1, 2)):
            continue
        corners = [int(np.flatnonzero((points == p).all(axis=1))[0]) for p in polygon]
        lines = []
        for k in range(4):
            start, end = corners[k], corners[(k + 1) % 4]
            run = np.roll(points, -start, axis=0)[: (end - start) % len(points) + 1]
            cut = max(1, len(run) // 4)
            middle = run[cut:-cut] if len(run) > 2 * cut + 1 else run
            if len(middle) < 2:
                break
            vx, vy, x0, y0 = cv2.fitLine(middle.astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01)
            lines.append((np.array([x0[0], y0[0]]), np.array([vx[0], vy[0]])))
        if len(lines) < 4:
            continue
        crossings = [line_crossing(lines[k - 1], lines[k]) for k in range(4)]
        if any(c is None for c in crossings):
            continue
        quad = order_corners(np.array(crossings, np.float32))
        if 0.85 * blob.area <= cv2.contourArea(quad) <= 1.3 * blob.area:
            return quad
    return block_outline(blob)


def block_outline(blob: Blob) -> np.ndarray:
    """The four corners (clockwise from top-left) of the quadrilateral bounding a block."""
    polygon = cv2.approxPolyDP(blob.contour, 1.5, True).reshape(-1, 2).astype(np.float64)
    if len(polygon) < 4:
        return order_corners(cv2.boxPoints(blob.box))
    starts, ends = polygon, np.roll(polygon, -1, axis=0)
    edges = ends - starts
    lengths = np.hypot(edges[:, 0], edges[:, 1])
    angles = np.degrees(np.arctan2(edges[:, 1], edges[:, 0])) % 180
    first = _dominant_angle(angles, lengths, None)
    second = _dominant_angle(angles, lengths, (first + 90) % 180)
    lines = []
    for direction in (first, second):
        near = _angle_gap(angles, direction) <= 14
        normal = np.array([-math.sin(math.radians(direction)), math.cos(math.radians(direction))])
        mids = (starts + ends) / 2
        offsets = mids @ normal
        spread = offsets[near].max() - offsets[near].min() if near.any() else 0.0
        if spread < 2:
            return order_corners(cv2.boxPoints(blob.box))
        for extreme in (offsets[near].min(), offsets[near].max()):
            chosen = near & (np.abs(offsets - extreme) <= 0.12 * spread)
            lines.append(_fit_line(starts[chosen], ends[chosen], lengths[chosen]))
    corners = [line_crossing(lines[i], lines[j]) for i, j in ((0, 2), (0, 3), (1, 3), (1, 2))]
    if any(c is None for c in corners):
        return order_corners(cv2.boxPoints(blob.box))
    quad = order_corners(np.array(corners, np.float32))
    area = cv2.contourArea(quad)
    if not 0.8 * blob.area <= area <= 2.5 * blob.area or not _on_contour(quad, blob):
        return order_corners(cv2.boxPoints(blob.box))
    return quad


#: A block's outline runs along the blob's own outline over at least this share of its
#: length (:func:`_on_contour`).
_OUTLINE_ON_CONTOUR_MIN = 0.5


def _on_contour(quad: np.ndarray, blob: Blob) -> bool:
    """Whether ``quad`` runs along the blob's outline over most of its length.

    A block's bounding quadrilateral touches the block along all of its sides but where
    tiles are missing from its corners (a block of four in three columns: seven of ten
    tile lengths; three rows of three, two and one: eight of twelve). But on a ragged
    mask (a block turned 35°, its tiles' edges stepped at half size) the outline's runs
    point every way, and the sides fitted to them can cross the blob's outline and fly
    off: a block of 15 was outlined by a quad half again its area, on the blob's outline
    along a third of its length, and its grid's cells matched nothing (``banner`` seed 7
    #7, saved once more as a JPEG: 15 tiles to none). Samples along each side count as
    on the outline within 3 px or 3 % of the side, whichever is more."""
    contour = blob.contour.astype(np.float32)
    t = np.linspace(0.05, 0.95, 10)[:, None]
    on = 0
    for a, b in zip(quad, np.roll(quad, -1, axis=0), strict=True):
        near = max(3.0, 0.03 * float(np.hypot(*(b - a))))
        on += sum(
            abs(cv2.pointPolygonTest(contour, (float(x), float(y)), True)) <= near
            for x, y in a + t * (b - a)
        )
    return on >= _OUTLINE_ON_CONTOUR_MIN * 4 * len(t)


def _angle_gap(angles: np.ndarray, direction: float) -> np.ndarray:
    gap = np.abs(angles - direction) % 180
    return np.minimum(gap, 180 - gap)


def _dominant_angle(angles: np.ndarray, lengths: np.ndarray, around: float | None) -> float:
    """The direction (degrees mod 180) most of the outline runs along, optionally
    searched within 25° of ``around``."""
    bins = np.bincount(angles.astype(int) % 180, weights=lengths, minlength=180)
    wrapped = np.concatenate([bins[-3:], bins, bins[:3]])
    smooth = np.convolve(wrapped, np.ones(5) / 5, "same")[3:-3]
    if around is None:
        peak = int(np.argmax(smooth))
    else:
        window = [(round(around) + d) % 180 for d in range(-25, 26)]
        peak = window[int(np.argmax(smooth[window]))]
    near = _angle_gap(angles, peak) <= 6
    if not near.any():
        return float(peak)
    # length-weighted mean direction of the runs near the peak (doubled angles wrap)
    doubled = np.radians(angles[near] * 2)
    mean = math.atan2(
        np.sum(lengths[near] * np.sin(doubled)), np.sum(lengths[near] * np.cos(doubled))
    )
    return math.degrees(mean) / 2 % 180


def _fit_line(
    starts: np.ndarray, ends: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """A point and a unit direction through segments, weighted by their lengths."""
    points = np.concatenate([starts, ends])
    w = np.concatenate([weights, weights])
    centre = (points * w[:, None]).sum(axis=0) / w.sum()
    spread = ((points - centre) * w[:, None]).T @ (points - centre)
    values, vectors = np.linalg.eigh(spread)
    return centre, vectors[:, int(np.argmax(values))]


def line_crossing(
    a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]
) -> np.ndarray | None:
    """Where two lines (point, direction) cross, or None if they are (nearly) parallel.
    Solved by Cramer's rule in plain floats: NumPy's solver costs more than the sum on
    a 2×2 system, and every outline asks for four."""
    (px, py), (dx, dy) = a[0].tolist(), a[1].tolist()
    (qx, qy), (ex, ey) = b[0].tolist(), b[1].tolist()
    det = ex * dy - dx * ey  # of the matrix [d, -e]
    if abs(det) < 1e-6:
        return None
    rx, ry = qx - px, qy - py
    t = (ex * ry - rx * ey) / det
    return np.array([px + t * dx, py + t * dy])


def explained(blob: Blob, quads: list[np.ndarray], round_: bool | list[bool]) -> float:
    """Share of the blob covered by the pieces of one split.

    Discs inscribed in a row of square tiles leave the corners out (about a fifth);
    a grid laid over a row of discs covers it all but matches poorly. Together with
    how well the pieces match, this tells the two apart. The pieces are drawn into
    the blob's own box (ellipses as polygons) and counted against its pixels;
    ``round_`` says for all pieces, or for each, whether it is an ellipse's box.
    """
    shape = blob.pixels
    if not quads or not shape.any():
        return 0.0
    x, y = blob.origin
    drawn = np.zeros_like(shape)
    flags = [round_] * len(quads) if isinstance(round_, bool) else round_
    for disc in (False, True):
        group = [q for q, d in zip(quads, flags, strict=True) if d == disc]
        if group:
            # all of one kind outlined and converted to fixed point (4 bits of
            # fraction) at once: per piece, NumPy's call overhead was most of the cost
            stacked = np.stack(group).astype(np.float64)
            outlines = _ellipse_outlines(stacked) if disc else stacked
            for points in np.rint((outlines - [x, y]) * 16).astype(np.int32):
                cv2.fillConvexPoly(drawn, points, 1, lineType=cv2.LINE_8, shift=4)
    return float(np.count_nonzero(drawn & shape) / np.count_nonzero(shape))


def _ellipse_outlines(quads: np.ndarray, points: int = 24) -> np.ndarray:
    """The ellipses inscribed in ellipse boxes (K×4×2 quads), as polygons (K×points×2)."""
    centre = quads.mean(axis=1)[:, None]
    u, v = (quads[:, 1] - quads[:, 0]) / 2, (quads[:, 3] - quads[:, 0]) / 2
    cos, sin = _unit_circle(points)
    return centre + cos * u[:, None] + sin * v[:, None]


@functools.cache
def _unit_circle(points: int) -> tuple[np.ndarray, np.ndarray]:
    """Cosines and sines (columns) of ``points`` angles evenly round a circle."""
    t = np.linspace(0, 2 * np.pi, points, endpoint=False)
    return locked(np.cos(t)[:, None]), locked(np.sin(t)[:, None])


def coverage(mask: np.ndarray, quads: list[np.ndarray]) -> np.ndarray:
    """Share of each quad that the object mask covers, from a 6×6 grid of samples."""
    if not quads:
        return np.zeros(0)
    u, v, rest_u, rest_v = _sample_grid()
    # x and y apart (2×C×1×4): as pairs on a last axis, NumPy's loops ran two at a time
    q = np.stack(quads).astype(np.float64).transpose(2, 0, 1)[:, :, None]
    top = q[..., 0] * rest_u + q[..., 1] * u
    bottom = q[..., 3] * rest_u + q[..., 2] * u
    # 32-bit places and one flat index: the same samples, read faster (and the clipping
    # and counting through ufuncs: their wrappers' cost was a third of the work)
    px, py = np.rint(top * rest_v + bottom * v).astype(np.int32)  # C×36 each
    height, width = mask.shape[:2]
    x = np.minimum(np.maximum(px, 0), width - 1)
    y = np.minimum(np.maximum(py, 0), height - 1)
    inside = (px == x) & (py == y)
    covered = (mask.ravel().take(y * width + x) > 0) & inside
    return np.count_nonzero(covered, axis=1) / covered.shape[1]


@functools.cache
def _sample_grid() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The 6×6 sample places of :func:`coverage` (u across, v down; 1×1×36 each), and
    one less each (the weights of the other side)."""
    t = (np.arange(6) + 0.5) / 6
    u, v = np.meshgrid(t, t)
    u, v = u.ravel()[None, None, :], v.ravel()[None, None, :]
    return locked(u), locked(v), locked(1 - u), locked(1 - v)
