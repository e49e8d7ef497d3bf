"""Reading one slot of a located page: is a piece in it, where exactly, and its upright face.

The method compares the photo with what the paper itself would look like there. Every
slot is framed in printed neutral grey, so the frame seen in the photo gives the local
gain of each colour channel (lamp colour, exposure, gradient and shadow, all at once).
The printed page times that gain predicts every pixel of an empty slot, bright paper
clipping at 255 included; what the prediction does not explain is the piece. Paper
darkened evenly in all channels is a shadow, not a piece.

The piece's outline gives its centre, turn and size in millimetres (so the tile set's
``tile_size_mm`` is measured, not asked for); its face is then cut straight from the
photo, upright, and divided by the gain so that its colours are those of a white lamp.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.drawing import MM_PER_INCH, draw_page, frame_rect_mm
from calibration.layout import GREY_LEVEL, Page, Slot
from calibration.locate import LocatedPage, warp, warp_from_page
from vision.tileset import MIN_FACE_PX, with_disc_alpha

#: Resolution the slots are analysed at.
WORK_PX_PER_MM = 6.0
#: Resolution the faces are cut at: a 40 mm tile becomes 160 px, more than recognition
#: uses, and small enough to write quickly.
FACE_PX_PER_MM = 4.0
#: Extra border around a slot's frame that is looked at (a piece may overhang).
WINDOW_MARGIN_MM = 1.5
#: A pixel differs from the paper when it is this far (0–255, white-lamp units) from it.
DIFFERENCE = 40.0
#: Paper in shadow keeps its colour and at least this share of its brightness.
SHADOW_DEPTH = 0.45
#: A slot is occupied when what differs from the paper spans this share of its inside.
OCCUPIED_SHARE = 0.15
#: Smallest solid part (pixels at the working resolution) that counts; specks do not.
MIN_PART_PX = 40
#: A piece this round (area over enclosing circle) or rounder is a disc.
ROUND_FILL = 0.85
#: A round piece's edge is sought along this many rays, this far (mm) either side of
#: the outline's circle.
RAYS = 120
EDGE_SEARCH_MM = 2.0
#: Where a round piece's printed rings are sought: this far (mm) inside its outline's
#: circle, up to this near it.
RING_SEARCH_MM = (2.5, 0.25)
#: A ring runs all round when this share of the rays meet it within this distance (mm).
RING_SHARE, RING_TOLERANCE_MM = 0.6, 0.2
#: Where the paper beside a round piece is read (mm beyond its outermost pixel), for
#: the level the edge falls to: the shadow a piece casts darkens the paper at its feet.
OUTSIDE_MM = (0.4, 0.8)


@dataclass(frozen=True, eq=False)
class SlotReading:
    """What lies in one slot: nothing, or a piece with its outline on the page."""

    slot: Slot
    covered: float  # share of the slot's inside the piece's outline covers
    centre_mm: tuple[float, float] = (0.0, 0.0)
    side_mm: float = 0.0  # side of a square piece, diameter of a round one
    angle_deg: float = 0.0
    round_: bool = False
    gain: GainField | None = None
    hull_mm: np.ndarray | None = None  # the piece's convex outline, N × 2 page mm
    edge_mm: np.ndarray | None = None  # a round piece's edge, N × 2 page mm (sub-pixel)
    ring_mm: np.ndarray | None = None  # its sharpest circle inside the rim, N × 2 page mm

    @property
    def occupied(self) -> bool:
        return self.gain is not None


class PageReader:
    """Reads the slots of one located page (the printed page is drawn once, here)."""

    def __init__(self, located: LocatedPage) -> None:
        self.located = located
        self.page: Page = located.page
        self.printed = draw_page(self.page, WORK_PX_PER_MM * MM_PER_INCH).astype(np.float32)
        self.colour = self._lamp_colour()

    def read(self, slot: Slot) -> SlotReading:
        """Whether a piece lies in ``slot`` and, if so, where and how large."""
        window = self._window(slot)
        seen = self._warp(window).astype(np.float32)
        printed = self._printed(window)
        gain = GainField.fit(seen, printed, window, self.colour)
        difference, paper_like, near_edge = _differences(
            seen, printed, gain.over_window(window, seen.shape[:2])
        )
        hull = _piece_hull((difference > DIFFERENCE) & ~paper_like & ~near_edge, window, slot)
        if hull is not None:  # outline again at half the rim's contrast: the true edge
            threshold = max(DIFFERENCE, 0.5 * _rim_contrast(difference, hull))
            hull = _piece_hull((difference > threshold) & ~paper_like & ~near_edge, window, slot)
        slot_px = slot.size_mm * WORK_PX_PER_MM
        covered = 0.0 if hull is None else cv2.contourArea(hull) / slot_px**2
        if hull is None or covered < OCCUPIED_SHARE:
            return SlotReading(slot, covered)
        centre_mm, side_mm, angle, round_ = _outline(hull, window)
        hull_mm = np.array(_pixel_mm(hull[:, 0, 0], hull[:, 0, 1], window)).T
        edge_mm = ring_mm = None
        if round_:
            piece = (difference > DIFFERENCE) & ~paper_like
            edge_mm = _disc_edge(difference, piece, window, centre_mm, side_mm)
            lit = seen / gain.over_window(window, seen.shape[:2])
            ring_mm = _inner_ring(lit, window, centre_mm, side_mm)
        return SlotReading(
            slot, covered, centre_mm, side_mm, angle, round_, gain, hull_mm, edge_mm, ring_mm
        )

    def cut_face(
        self,
        reading: SlotReading,
        side_mm: float,
        round_: bool,
        turn_deg: float | None = None,
        correction: np.ndarray | None = None,
    ) -> np.ndarray:
        """The piece of an occupied slot, upright, BGRA, in white-lamp colours.

        ``side_mm`` and ``round_`` are decided over all the pieces of a kind (they are
        all the same size and shape); centre and turn are the piece's own, but a disc's
        outline shows no turn, so for round pieces ``turn_deg`` says it (else none).
        ``correction`` (3 × 3, face pixels; see :func:`calibration.alignment.
        column_corrections`) moves the cut: face pixel ``x`` then shows what the cut
        without it shows at ``correction @ x``. The face is sampled from the photo once,
        whatever was corrected.
        """
        assert reading.gain is not None, "only an occupied slot has a face"
        side_px = max(MIN_FACE_PX, round(side_mm * FACE_PX_PER_MM))
        step = side_mm / side_px
        angle = (turn_deg or 0.0) if round_ else reading.angle_deg
        c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        # face pixel (u, v) -> page millimetres: scale, then turn about the piece's centre
        half = side_mm / 2 - step / 2
        to_local = np.array([[step, 0, -half], [0, step, -half], [0, 0, 1]])
        cx, cy = reading.centre_mm
        turn = np.array([[c, -s, cx], [s, c, cy], [0, 0, 1]])
        face_to_mm = turn @ to_local
        if correction is not None:
            face_to_mm = face_to_mm @ correction
        size = (side_px, side_px)
        seen = warp(self.located.image, self.located.homography @ face_to_mm, size)
        us, vs = np.meshgrid(np.arange(side_px), np.arange(side_px))
        xs = face_to_mm[0, 0] * us + face_to_mm[0, 1] * vs + face_to_mm[0, 2]
        ys = face_to_mm[1, 0] * us + face_to_mm[1, 1] * vs + face_to_mm[1, 2]
        corrected = np.clip(seen.astype(np.float32) / reading.gain.at(xs, ys), 0, 255)
        face = cv2.cvtColor(corrected.astype(np.uint8), cv2.COLOR_BGR2BGRA)
        return with_disc_alpha(face) if round_ else face

    def _lamp_colour(self) -> np.ndarray:
        """The lamp's colour, from the cores of the page's grey patches."""
        samples = []
        for patch in self.page.patches:
            if patch.kind == "grey":
                half = patch.size_mm / 2 - 2.0
                (cx, cy) = patch.center_mm
                samples.append(self._warp((cx - half, cy - half, cx + half, cy + half)))
        return lamp_colour(samples)

    def _window(self, slot: Slot) -> tuple[float, float, float, float]:
        """The frame's rectangle plus a margin, snapped to the working pixel grid."""
        left, top, right, bottom = frame_rect_mm(slot)
        m, step = WINDOW_MARGIN_MM, 1 / WORK_PX_PER_MM
        snap = lambda v: round(v / step) * step  # noqa: E731
        return (snap(left - m), snap(top - m), snap(right + m), snap(bottom + m))

    def _warp(self, window: tuple[float, float, float, float]) -> np.ndarray:
        return warp_from_page(self.located, window, WORK_PX_PER_MM)

    def _printed(self, window: tuple[float, float, float, float]) -> np.ndarray:
        x0, y0, x1, y1 = (round(v * WORK_PX_PER_MM) for v in window)
        return self.printed[y0:y1, x0:x1]


@dataclass(frozen=True)
class GainField:
    """Per-channel gain of camera and lamp: one lamp colour, brightness varying across a slot.

    The colour comes from the page's big grey patches; the brightness from the slot's
    own grey frame, as a quadratic surface over the slot: a lamp's fall-off is nearly a
    plane, but the soft edge of a shadow (a hand, the phone) curves across a slot, and a
    plane through the frame then misjudges the middle by up to 7 %, which differs from
    slot to slot and so from a tile to its heart twin. The frame surrounds the slot, so
    the surface is interpolated, never extrapolated. The frame is too thin to trust for
    colour: JPEG keeps colour at half resolution and bleeds the neighbouring paper into
    it, but keeps brightness (luma) at full resolution.
    """

    colour: np.ndarray  # 3: the lamp's per-channel gains with unit luma
    brightness: np.ndarray  # coefficients of :func:`_surface_terms`
    centre_mm: tuple[float, float]  # where the surface's coordinates are 0 ...
    half_mm: float  # ... and how many mm they count as 1

    @classmethod
    def fit(
        cls,
        seen: np.ndarray,
        printed: np.ndarray,
        window: tuple[float, float, float, float],
        colour: np.ndarray,
    ) -> GainField:
        """``colour``: the lamp's per-channel gains with unit luma (:func:`lamp_colour`)."""
        grey = (printed == GREY_LEVEL).astype(np.uint8)
        core = cv2.erode(grey, np.ones((5, 5), np.uint8)).astype(bool)  # away from its edges
        if core.sum() < 50:
            core = grey.astype(bool)
        ys, xs = np.nonzero(core)
        centre = ((window[0] + window[2]) / 2, (window[1] + window[3]) / 2)
        half = (window[2] - window[0]) / 2
        design = _surface_terms(*_normalised(*_pixel_mm(xs, ys, window), centre, half))
        values = luma(seen[core]) / GREY_LEVEL
        keep = np.ones(len(values), bool)
        for _ in range(3):  # refit without the frame a piece overhangs or a mark soils
            surface, *_ = np.linalg.lstsq(design[keep], values[keep], rcond=None)
            residual = np.abs(design @ surface - values)
            keep = residual <= np.quantile(residual, 0.75) * 1.5 + 0.02
        return cls(np.asarray(colour, np.float64), surface, centre, half)

    def at(self, xs_mm: np.ndarray, ys_mm: np.ndarray) -> np.ndarray:
        """Gains at page millimetres, shaped like ``xs_mm`` plus a channel axis."""
        xs = np.asarray(xs_mm, np.float32)
        ys = np.asarray(ys_mm, np.float32)
        xs, ys = _normalised(xs, ys, self.centre_mm, self.half_mm)
        terms = _surface_terms(xs.ravel(), ys.ravel()).astype(np.float32)
        level = (terms @ self.brightness.astype(np.float32)).reshape(xs.shape)
        channels = [level * np.float32(c) for c in self.colour]
        return np.maximum(np.dstack(channels), np.float32(0.05)).reshape(*xs.shape, 3)

    def over_window(
        self, window: tuple[float, float, float, float], shape: tuple[int, int]
    ) -> np.ndarray:
        ys, xs = np.mgrid[0 : shape[0], 0 : shape[1]]
        return self.at(*_pixel_mm(xs, ys, window))


def _normalised(
    xs_mm: np.ndarray, ys_mm: np.ndarray, centre: tuple[float, float], half: float
) -> tuple[np.ndarray, np.ndarray]:
    """Page millimetres as coordinates about a slot's centre, ±1 at its frame."""
    return (xs_mm - centre[0]) / half, (ys_mm - centre[1]) / half


def _surface_terms(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """The terms of a quadratic surface (N × 6) at coordinates from :func:`_normalised`."""
    xs, ys = np.ravel(xs), np.ravel(ys)
    return np.column_stack([np.ones_like(xs), xs, ys, xs * xs, xs * ys, ys * ys])


def luma(bgr: np.ndarray) -> np.ndarray:
    """The brightness JPEG keeps at full resolution (ITU-R BT.601 weights)."""
    return bgr[..., 0] * 0.114 + bgr[..., 1] * 0.587 + bgr[..., 2] * 0.299


def lamp_colour(patches_bgr: list[np.ndarray]) -> np.ndarray:
    """Per-channel gains with unit luma, from pixels of printed neutral grey.

    Each patch gives its own colour (a trimmed mean: a median of whole 8-bit levels
    is off by up to half a level, 2 % of a dim blue channel), normalised to unit luma
    before the patches are combined: they lie in different light, and the median of
    a mixture of a bright and a dim patch, channel by channel, is no colour at all.
    """
    colours = []
    for patch in patches_bgr:
        values = np.sort(patch.reshape(-1, 3).astype(np.float64), axis=0)
        trim = len(values) // 5
        mean = values[trim : len(values) - trim].mean(axis=0)
        colours.append(mean / max(float(luma(mean)), 1.0))
    return np.median(colours, axis=0)


def _pixel_mm(
    xs: np.ndarray, ys: np.ndarray, window: tuple[float, float, float, float]
) -> tuple[np.ndarray, np.ndarray]:
    """Page millimetres of window pixel centres."""
    ppm = WORK_PX_PER_MM
    return window[0] + (xs + 0.5) / ppm, window[1] + (ys + 0.5) / ppm


def _differences(
    seen: np.ndarray, printed: np.ndarray, gain: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """How far each pixel is from the printed page under this light (white-lamp units),
    which pixels are paper in even shadow or light, and which lie on a printed edge."""
    difference = np.zeros(printed.shape, np.float32)
    highest = np.full(printed.shape, -np.inf, np.float32)
    lowest = np.full(printed.shape, np.inf, np.float32)
    total = np.zeros(printed.shape, np.float32)
    count = np.zeros(printed.shape, np.float32)
    for channel in range(3):  # per channel: numpy reduces a last axis of 3 slowly
        value, g = seen[..., channel], gain[..., channel]
        unclipped = printed * g
        np.maximum(difference, np.abs(value - np.minimum(unclipped, 255.0)) / g, out=difference)
        # Paper evenly darker (shadow) or lighter (a blurred print edge) is still paper.
        # A channel clipped at white says nothing about that, so it is left out.
        ratio = value / np.maximum(unclipped, 1.0)
        valid = value < 250
        np.maximum(highest, np.where(valid, ratio, -np.inf), out=highest)
        np.minimum(lowest, np.where(valid, ratio, np.inf), out=lowest)
        total += ratio * valid
        count += valid
    seen_channels = count > 0
    level = np.where(seen_channels, total / np.maximum(count, 1.0), 1.0)
    spread = np.where(seen_channels, highest - lowest, 0.0)
    paper_like = (spread < 0.15) & (level >= SHADOW_DEPTH) & (level <= 1.3)
    # Printed edges (frame, text) blur in a photo: trust them only where the piece is big.
    edges = cv2.morphologyEx(printed, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)) > 20
    near_edge = cv2.dilate(edges.astype(np.uint8), np.ones((7, 7), np.uint8)).astype(bool)
    return difference, paper_like, near_edge


def _rim_contrast(difference: np.ndarray, hull: np.ndarray) -> float:
    """The typical difference just inside a piece's outline: how strongly its edge shows.

    A blurred edge crosses a fixed threshold outside the true edge, the more so the
    stronger the edge; half the rim's contrast is where the true edge lies.
    """
    inside = np.zeros(difference.shape, np.uint8)
    cv2.fillPoly(inside, [hull.reshape(-1, 2)], 1)
    kernel = np.ones((3, 3), np.uint8)
    rim = cv2.erode(inside, kernel, iterations=2) & ~cv2.erode(inside, kernel, iterations=6)
    values = difference[rim.astype(bool)]
    return float(np.median(values)) if values.size else 0.0


def _piece_hull(
    piece: np.ndarray, window: tuple[float, float, float, float], slot: Slot
) -> np.ndarray | None:
    """The convex outline (window pixels) of what lies in the slot, or None if nothing does.

    A piece may fall apart into outline and drawing (a pale token on white paper):
    every solid part whose middle lies in the slot belongs to it.
    """
    ppm = WORK_PX_PER_MM
    opened = cv2.morphologyEx(piece.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    closed = cv2.morphologyEx(opened, cv2.MORPH_CLOSE, kernel)
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(closed)
    half = (slot.size_mm / 2 + 1.0) * ppm
    centre = np.array(
        [(slot.center_mm[0] - window[0]) * ppm, (slot.center_mm[1] - window[1]) * ppm]
    )
    parts = [
        k
        for k in range(1, count)
        if stats[k, cv2.CC_STAT_AREA] >= MIN_PART_PX
        and np.all(np.abs(centroids[k] - centre) <= half)
    ]
    if not parts:
        return None
    solid = np.isin(labels, parts).astype(np.uint8)
    contours, _ = cv2.findContours(solid, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return cv2.convexHull(np.concatenate(contours))


def _outline(
    hull: np.ndarray, window: tuple[float, float, float, float]
) -> tuple[tuple[float, float], float, float, bool]:
    """Centre (page mm), side or diameter (mm), turn (degrees) and roundness of the piece."""
    ppm = WORK_PX_PER_MM
    area = cv2.contourArea(hull)
    (cx, cy), radius = cv2.minEnclosingCircle(hull)
    round_ = area / (math.pi * radius**2) >= ROUND_FILL
    to_mm = lambda x, y: (window[0] + (x + 0.5) / ppm, window[1] + (y + 0.5) / ppm)  # noqa: E731
    if round_:  # the disc of the same area: a speck on the rim does not move it
        diameter = 2 * math.sqrt(area / math.pi) + 1  # +1 px: hull through pixel centres
        return to_mm(cx, cy), diameter / ppm, 0.0, True
    (rx, ry), (w, h), angle = cv2.minAreaRect(hull)
    angle = (angle + 45.0) % 90.0 - 45.0  # the piece lies nearly upright
    return to_mm(rx, ry), ((w + h) / 2 + 1) / ppm, angle, False


def _disc_edge(
    difference: np.ndarray,
    piece: np.ndarray,
    window: tuple[float, float, float, float],
    centre_mm: tuple[float, float],
    diameter_mm: float,
) -> np.ndarray:
    """Points on a round piece's edge (page mm), one per ray from the centre.

    Along each ray, coming in from the paper, the piece begins at the first pixel of
    ``piece`` (what differs and is not paper in shadow); its edge is where the
    difference from the paper is half the rim's contrast there (the strongest difference
    within a millimetre inside). A fixed threshold meets a blurred edge outside the true
    edge, the further the stronger the edge (a dark rim on white paper); the mask alone
    loses the outer half of a dark neutral edge (it looks like paper in shadow).
    """
    ppm = WORK_PX_PER_MM
    angles = np.linspace(0, 2 * np.pi, RAYS, endpoint=False)
    radius = diameter_mm / 2
    step = 0.25 / ppm
    radii = np.arange(radius - EDGE_SEARCH_MM, radius + EDGE_SEARCH_MM, step)
    xs = centre_mm[0] + np.cos(angles)[:, None] * radii[None, :]
    ys = centre_mm[1] + np.sin(angles)[:, None] * radii[None, :]
    map_x = ((xs - window[0]) * ppm - 0.5).astype(np.float32)
    map_y = ((ys - window[1]) * ppm - 0.5).astype(np.float32)

    def sample(image: np.ndarray, how: int) -> np.ndarray:
        return cv2.remap(image, map_x, map_y, how, borderMode=cv2.BORDER_CONSTANT, borderValue=0)

    profiles = sample(difference, cv2.INTER_LINEAR)
    smooth = cv2.GaussianBlur(profiles, (0, 0), sigmaX=0.1 / step, sigmaY=1e-3)
    inside = sample(piece.astype(np.uint8), cv2.INTER_NEAREST) > 0
    reach = round(1.0 / step)
    near, far = round(OUTSIDE_MM[0] / step), round(OUTSIDE_MM[1] / step)
    points = []
    for k in range(len(angles)):
        hits = np.nonzero(inside[k])[0]
        if hits.size == 0:
            continue
        start = int(hits[-1])  # the outermost pixel of the piece on this ray
        lo = max(start - reach, 0)
        peak_at = lo + int(np.argmax(profiles[k, lo : start + 1]))
        beyond = profiles[k, start + near : start + far]
        outside = float(np.median(beyond)) if beyond.size else 0.0
        half = (profiles[k, peak_at] + outside) / 2
        below = np.nonzero(profiles[k, peak_at:] < half)[0]
        if below.size == 0:
            continue
        j = peak_at + int(below[0])  # the first sample under half the peak, outwards
        # the edge itself: where the fall from rim to paper is steepest, about there
        lo, hi = max(peak_at, j - reach // 2), min(j + reach // 2, len(radii) - 1)
        slope = np.diff(smooth[k, lo : hi + 1])
        m = int(np.argmin(slope))
        shift = 0.0
        if 0 < m < len(slope) - 1:
            a, b, c = slope[m - 1], slope[m], slope[m + 1]
            curve = a - 2 * b + c
            shift = 0.5 * (a - c) / curve if curve > 1e-6 else 0.0
        r = radii[lo] + (m + 0.5 + shift) * step
        points.append(
            (centre_mm[0] + math.cos(angles[k]) * r, centre_mm[1] + math.sin(angles[k]) * r)
        )
    return np.array(points, np.float64).reshape(-1, 2)


def _inner_ring(
    lit: np.ndarray,
    window: tuple[float, float, float, float],
    centre_mm: tuple[float, float],
    diameter_mm: float,
) -> np.ndarray:
    """Points (page mm) of the sharpest colour edge just inside a round piece's rim, a ray each.

    Round pieces are printed with rings: a rim, a line inside it, a band of colour. A
    printed ring is sharp, and blur and the piece's shadow move none of it, whereas
    the piece's own edge meets the paper in the shadow, and a pale rim on white paper
    hardly shows at all: the circle through these points finds the centre to a tenth of
    a millimetre where the edge is a millimetre off.
    """
    ppm = WORK_PX_PER_MM
    angles = np.linspace(0, 2 * np.pi, RAYS, endpoint=False)
    step = 0.25 / ppm
    radius = diameter_mm / 2
    radii = np.arange(radius - RING_SEARCH_MM[0], radius - RING_SEARCH_MM[1], step)
    xs = centre_mm[0] + np.cos(angles)[:, None] * radii[None, :]
    ys = centre_mm[1] + np.sin(angles)[:, None] * radii[None, :]
    map_x = ((xs - window[0]) * ppm - 0.5).astype(np.float32)
    map_y = ((ys - window[1]) * ppm - 0.5).astype(np.float32)
    profiles = cv2.remap(lit.astype(np.float32), map_x, map_y, cv2.INTER_LINEAR)
    smooth = cv2.GaussianBlur(profiles, (0, 0), sigmaX=0.1 / step, sigmaY=1e-3)
    slope = np.linalg.norm(np.diff(smooth, axis=1), axis=2)  # rays × samples-1
    best = np.argmax(slope, axis=1)
    points = []
    for k, m in enumerate(best):
        shift = 0.0
        if 0 < m < slope.shape[1] - 1:
            a, b, c = slope[k, m - 1], slope[k, m], slope[k, m + 1]
            curve = a - 2 * b + c
            shift = 0.5 * (a - c) / curve if curve < -1e-6 else 0.0
        r = radii[0] + (m + 0.5 + shift) * step
        points.append(
            (centre_mm[0] + math.cos(angles[k]) * r, centre_mm[1] + math.sin(angles[k]) * r)
        )
    return np.array(points, np.float64)


def ring_centre(reading: SlotReading) -> tuple[float, float] | None:
    """The centre of a round piece's printed rings, or None if no ring runs all round.

    A circle of free radius is fitted to :attr:`SlotReading.ring_mm`, leaving out the
    rays that met something else (a figure reaching the rim); it counts when most rays
    lie on it.
    """
    if reading.ring_mm is None or len(reading.ring_mm) < RAYS // 2:
        return None
    points = reading.ring_mm
    centre = np.array(reading.centre_mm, np.float64)
    radius = float(np.median(np.linalg.norm(points - centre, axis=1)))
    keep = np.ones(len(points), bool)
    for _ in range(10):
        offsets = points - centre
        distances = np.maximum(np.linalg.norm(offsets, axis=1), 1e-6)
        residuals = distances - radius
        keep = np.abs(residuals) <= max(np.quantile(np.abs(residuals), 0.6), 1e-3)
        step = (residuals[keep, None] * offsets[keep] / distances[keep, None]).mean(axis=0)
        centre += step
        radius = float(np.median(distances[keep]))
        if np.linalg.norm(step) < 0.005:
            break
    on_ring = np.abs(np.linalg.norm(points - centre, axis=1) - radius) <= RING_TOLERANCE_MM
    if on_ring.mean() < RING_SHARE:
        return None
    return float(centre[0]), float(centre[1])


def fit_disc(
    reading: SlotReading, diameter_mm: float | None = None
) -> tuple[tuple[float, float], float]:
    """Centre and diameter (mm) of the disc in a round piece's outline.

    The outline of a round piece often bulges where its shadow or a blurred dark rim
    joins it; a circle fitted to the outline with the worst-fitting part left out
    sits on the piece itself. With ``diameter_mm`` (the size all the pieces share)
    only the centre is fitted.
    """
    assert reading.hull_mm is not None, "only an occupied slot has an outline"
    centre = np.array(reading.centre_mm, np.float64)
    if reading.edge_mm is not None and len(reading.edge_mm) >= RAYS // 2:
        points, inset = reading.edge_mm, 0.0
    else:
        points = _resample(reading.hull_mm, step_mm=0.5)
        # the hull runs through the centres of the outermost pixels, half a pixel inside
        inset = 0.5 / WORK_PX_PER_MM
    radius = (reading.side_mm / 2 if diameter_mm is None else diameter_mm / 2) - inset
    for _ in range(10):
        offsets = points - centre
        distances = np.maximum(np.linalg.norm(offsets, axis=1), 1e-6)
        residuals = distances - radius
        keep = np.abs(residuals) <= np.quantile(np.abs(residuals), 0.6)
        step = (residuals[keep, None] * offsets[keep] / distances[keep, None]).mean(axis=0)
        centre += step
        if diameter_mm is None:
            radius = float(np.median(distances[keep]))
        if np.linalg.norm(step) < 0.01:
            break
    return (float(centre[0]), float(centre[1])), 2 * (radius + inset)


def _resample(polygon: np.ndarray, step_mm: float) -> np.ndarray:
    """Points every ``step_mm`` along a closed polygon (a hull's vertices are uneven)."""
    points = []
    for start, end in zip(polygon, np.roll(polygon, -1, axis=0), strict=True):
        count = max(1, int(np.linalg.norm(end - start) / step_mm))
        for t in np.arange(count) / count:
            points.append(start + t * (end - start))
    return np.array(points)
