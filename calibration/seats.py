"""Seat zones: which part of the table holds which player's collection.

One overhead camera sees every collection at once; a zone per seat says whose tiles
are whose. Zones are plain polygons, in image pixels or in table millimetres (with a
table calibration), drawn by hand on the phone over a camera frame, or derived from
small printed seat markers: each seat's zone is the part of the table nearer to its
marker than to any other (a Voronoi cell, worked out on the table plane so that the
camera's tilt does not favour the seats near it).

Everything here but :func:`find_seat_markers` is pure geometry on plain data.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from calibration.drawing import MM_PER_INCH, draw_marker_at, put_text
from calibration.layout import Paper
from calibration.locate import find_markers
from companion.errors import CompanionError

Units = Literal["px", "mm"]
#: Seat markers are DICT_4X4_50 ids 40–45 (the sheet uses 0–23): seat 1 to seat 6.
FIRST_SEAT_MARKER = 40
MAX_SEATS = 6
SEAT_MARKER_MM = 40.0

Point = tuple[float, float]


class SeatZoneError(CompanionError):
    """Seat zones that cannot be used or made."""


@dataclass(frozen=True)
class SeatZone:
    seat: str
    polygon: tuple[Point, ...]  # at least three corners, in order

    def contains(self, point: Point) -> bool:
        """Inside or on the edge (ray casting, an edge point counts as inside)."""
        x, y = point
        inside = False
        corners = self.polygon
        for (x1, y1), (x2, y2) in zip(corners, corners[1:] + corners[:1], strict=True):
            if _on_segment((x, y), (x1, y1), (x2, y2)):
                return True
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
        return inside


@dataclass(frozen=True)
class SeatZones:
    """The zones of a table, all in one unit."""

    units: Units
    zones: tuple[SeatZone, ...]

    def __post_init__(self) -> None:
        if self.units not in ("px", "mm"):
            raise SeatZoneError(f"seat zone units must be px or mm, not {self.units!r}")
        seats = [zone.seat for zone in self.zones]
        if len(set(seats)) != len(seats):
            raise SeatZoneError("each seat may have only one zone")
        for zone in self.zones:
            if len(zone.polygon) < 3:
                raise SeatZoneError(f"the zone of seat {zone.seat} needs at least three corners")

    def to_json(self) -> str:
        return json.dumps(
            {
                "units": self.units,
                "zones": [
                    {"seat": z.seat, "polygon": [[round(x, 2), round(y, 2)] for x, y in z.polygon]}
                    for z in self.zones
                ],
            },
            indent=2,
        )

    @classmethod
    def from_json(cls, text: str, source: str = "the seat zones") -> SeatZones:
        try:
            data = json.loads(text)
            zones = tuple(
                SeatZone(
                    str(zone["seat"]),
                    tuple((float(x), float(y)) for x, y in zone["polygon"]),
                )
                for zone in data["zones"]
            )
            return cls(data["units"], zones)
        except SeatZoneError as error:
            raise SeatZoneError(f"{source}: {error}") from None
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            raise SeatZoneError(
                f"{source} is not a list of seat zones (expected JSON with units and zones)"
            ) from None

    def to_pixels(self, homography_px_to_mm: np.ndarray) -> SeatZones:
        """The same zones in image pixels (a homography keeps straight edges straight)."""
        if self.units == "px":
            return self
        to_px = np.linalg.inv(homography_px_to_mm)
        return SeatZones(
            "px", tuple(SeatZone(z.seat, _transform(z.polygon, to_px)) for z in self.zones)
        )


def assign_to_seats(
    centres: Sequence[Point], zones: SeatZones, homography_px_to_mm: np.ndarray | None = None
) -> list[str | None]:
    """The seat whose zone holds each centre (image pixels), None where no zone does.

    Zones in millimetres need the table's homography to bring the centres onto the
    table. Where zones overlap (hand-drawn ones may), the first zone listed wins.
    """
    points: Sequence[Point] = centres
    if zones.units == "mm":
        if homography_px_to_mm is None:
            raise SeatZoneError("seat zones in millimetres need a table calibration")
        points = _transform(tuple(centres), homography_px_to_mm) if centres else ()
    return [
        next((zone.seat for zone in zones.zones if zone.contains(point)), None) for point in points
    ]


def voronoi_zones(anchors: dict[str, Point], bounds: Sequence[Point], units: Units) -> SeatZones:
    """Each seat's zone: the part of ``bounds`` (a convex polygon) nearest its anchor."""
    if len(anchors) < 2:
        raise SeatZoneError("mark at least two seats")
    zones = []
    for seat, anchor in anchors.items():
        cell: list[Point] = list(bounds)
        a = np.array(anchor)
        for other_seat, other in anchors.items():
            if other_seat == seat:
                continue
            b = np.array(other)
            normal = b - a  # keep points p with normal·p <= normal·midpoint
            limit = float(normal @ (a + b) / 2)
            cell = _clip(cell, normal, limit)
        zones.append(SeatZone(seat, tuple(cell)))
    return SeatZones(units, tuple(zones))


def find_seat_markers(image: np.ndarray) -> dict[str, Point]:
    """Seat number ("1" … "6") -> centre (image pixels) of each seat marker in view."""
    found = {}
    for marker_id, quads in find_markers(image).items():
        seat = marker_id - FIRST_SEAT_MARKER + 1
        if 1 <= seat <= MAX_SEATS:
            centre = quads[0].mean(axis=0)
            found[str(seat)] = (float(centre[0]), float(centre[1]))
    return dict(sorted(found.items()))


def zones_from_markers(
    image: np.ndarray, source: str, homography_px_to_mm: np.ndarray | None = None
) -> SeatZones:
    """Zones from the seat markers in a frame: in table mm with a homography, else pixels."""
    markers = find_seat_markers(image)
    if len(markers) < 2:
        raise SeatZoneError(
            f"{len(markers)} seat marker{'' if len(markers) == 1 else 's'} found in {source}; "
            "at least two seats must show their marker"
        )
    height, width = image.shape[:2]
    frame: tuple[Point, ...] = ((0.0, 0.0), (width, 0.0), (width, height), (0.0, height))
    if homography_px_to_mm is None:
        return voronoi_zones(markers, frame, "px")
    anchors = dict(
        zip(markers, _transform(tuple(markers.values()), homography_px_to_mm), strict=True)
    )
    return voronoi_zones(anchors, _transform(frame, homography_px_to_mm), "mm")


def seat_marker_pages(seats: int, paper: Paper, dpi: float) -> list[np.ndarray]:
    """Printable seat markers, four to a page, each with its seat number and a cut line."""
    if not 2 <= seats <= MAX_SEATS:
        raise SeatZoneError(f"the games are played by 2 to {MAX_SEATS} seats, not {seats}")
    width_mm, height_mm = paper.size_mm
    scale = dpi / MM_PER_INCH
    cell_w, cell_h = width_mm / 2, height_mm / 2
    pages = []
    for first in range(0, seats, 4):
        canvas = np.full((round(height_mm * scale), round(width_mm * scale)), 255, np.uint8)
        for k, seat in enumerate(range(first + 1, min(seats, first + 4) + 1)):
            cx, cy = (k % 2 + 0.5) * cell_w, (k // 2 + 0.5) * cell_h
            half = SEAT_MARKER_MM / 2
            draw_marker_at(
                canvas, FIRST_SEAT_MARKER + seat - 1, (cx - half, cy - half), SEAT_MARKER_MM, scale
            )
            put_text(canvas, f"seat {seat}", (cx, cy + half + 8), 6.0, scale, 0)
            put_text(
                canvas,
                "lay it where this player's tiles go, text towards the player",
                (cx, cy + half + 16),
                2.6,
                scale,
                0,
            )
        _cut_lines(canvas, width_mm, height_mm, scale)
        pages.append(canvas)
    return pages


def _cut_lines(canvas: np.ndarray, width_mm: float, height_mm: float, scale: float) -> None:
    """Dashed lines between the four quarters of a page."""
    for x0, y0, x1, y1 in (
        (width_mm / 2, 0, width_mm / 2, height_mm),
        (0, height_mm / 2, width_mm, height_mm / 2),
    ):
        length = float(np.hypot(x1 - x0, y1 - y0))
        for start in np.arange(0, length, 6.0):
            t0, t1 = start / length, min(start + 3.0, length) / length
            p0 = (round((x0 + (x1 - x0) * t0) * scale), round((y0 + (y1 - y0) * t0) * scale))
            p1 = (round((x0 + (x1 - x0) * t1) * scale), round((y0 + (y1 - y0) * t1) * scale))
            cv2.line(canvas, p0, p1, 160, max(1, round(0.3 * scale)))


def _clip(polygon: list[Point], normal: np.ndarray, limit: float) -> list[Point]:
    """Sutherland–Hodgman: the part of a convex polygon where ``normal · p <= limit``."""
    out: list[Point] = []
    for current, following in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        p, q = np.array(current), np.array(following)
        p_in, q_in = normal @ p <= limit, normal @ q <= limit
        if p_in:
            out.append(current)
        if p_in != q_in:
            t = (limit - normal @ p) / (normal @ (q - p))
            crossing = p + t * (q - p)
            out.append((float(crossing[0]), float(crossing[1])))
    return out


def _transform(points: tuple[Point, ...], homography: np.ndarray) -> tuple[Point, ...]:
    array = np.asarray(points, np.float64).reshape(-1, 1, 2)
    moved = cv2.perspectiveTransform(array, np.asarray(homography, np.float64))[:, 0]
    return tuple((float(x), float(y)) for x, y in moved)


def _on_segment(p: Point, a: Point, b: Point, tolerance: float = 1e-9) -> bool:
    (px, py), (ax, ay), (bx, by) = p, a, b
    cross = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
    if abs(cross) > tolerance * max(1.0, abs(bx - ax) + abs(by - ay)):
        return False
    return (
        min(ax, bx) - tolerance <= px <= max(ax, bx) + tolerance
        and min(ay, by) - tolerance <= py <= max(ay, by) + tolerance
    )
