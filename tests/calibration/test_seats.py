"""Seat zones: whose collection lies where, from drawn zones or printed seat markers."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.drawing import draw_marker_at
from calibration.seats import (
    FIRST_SEAT_MARKER,
    SeatZone,
    SeatZoneError,
    SeatZones,
    assign_to_seats,
    find_seat_markers,
    voronoi_zones,
    zones_from_markers,
)
from companion.cli import main
from vision.synth.camera import CameraEffects, photograph

SQUARE = SeatZone("Anna", ((0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)))
RIGHT = SeatZone("Ben", ((100.0, 0.0), (200.0, 0.0), (200.0, 100.0), (100.0, 100.0)))


def test_a_tile_inside_a_seats_zone_belongs_to_that_seat() -> None:
    zones = SeatZones("px", (SQUARE, RIGHT))
    assert assign_to_seats([(50, 50), (150, 20), (250, 50)], zones) == ["Anna", "Ben", None]


def test_a_tile_on_the_border_goes_to_the_first_zone_listed() -> None:
    zones = SeatZones("px", (SQUARE, RIGHT))
    assert assign_to_seats([(100.0, 50.0)], zones) == ["Anna"]


def test_zones_in_millimetres_take_tile_centres_through_the_table_calibration() -> None:
    zones = SeatZones("mm", (SQUARE, RIGHT))
    px_to_mm = np.diag([0.5, 0.5, 1.0])  # two pixels per millimetre
    assert assign_to_seats([(100, 100), (300, 100)], zones, px_to_mm) == ["Anna", "Ben"]
    with pytest.raises(SeatZoneError, match="need a table calibration"):
        assign_to_seats([(100, 100)], zones)


def test_zones_survive_a_json_round_trip() -> None:
    zones = SeatZones("mm", (SQUARE, RIGHT))
    assert SeatZones.from_json(zones.to_json()) == zones


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[]", "is not a list of seat zones"),
        ('{"units": "in", "zones": []}', "units must be px or mm"),
        (
            '{"units": "px", "zones": [{"seat": "A", "polygon": [[0, 0], [1, 1]]}]}',
            "needs at least three corners",
        ),
    ],
)
def test_bad_zone_files_are_refused_in_one_sentence(text: str, message: str) -> None:
    with pytest.raises(SeatZoneError, match=message):
        SeatZones.from_json(text, "zones.json")


def test_marker_zones_give_every_point_to_the_nearest_seat() -> None:
    anchors = {"1": (100.0, 100.0), "2": (500.0, 120.0), "3": (480.0, 400.0), "4": (90.0, 380.0)}
    bounds = ((0.0, 0.0), (640.0, 0.0), (640.0, 480.0), (0.0, 480.0))
    zones = voronoi_zones(anchors, bounds, "px")
    points = np.random.default_rng(3).uniform((0, 0), (640, 480), (400, 2))
    seats = assign_to_seats([tuple(p) for p in points], zones)
    for point, seat in zip(points, seats, strict=True):
        nearest = min(anchors, key=lambda s: np.hypot(*(point - anchors[s])))
        assert seat == nearest


def _table_with_seat_markers(seats: dict[int, tuple[float, float]]) -> np.ndarray:
    """A grey table 800 × 600 mm at 1 px/mm with a 40 mm seat marker at each position."""
    scale = 1.0
    table = np.full((600, 800), 110, np.uint8)
    for seat, (x, y) in seats.items():
        table[round(y - 30) : round(y + 30), round(x - 30) : round(x + 30)] = 255
        draw_marker_at(table, FIRST_SEAT_MARKER + seat - 1, (x - 20, y - 20), 40.0, scale)
    return np.dstack([table] * 3)


SEAT_POSITIONS = {1: (150.0, 120.0), 2: (650.0, 120.0), 3: (650.0, 480.0), 4: (150.0, 480.0)}


def test_seat_markers_are_found_in_a_tilted_camera_frame() -> None:
    scene = _table_with_seat_markers(SEAT_POSITIONS)
    effects = CameraEffects(tilt_deg=30, tilt_direction_deg=70, kelvin=3000, noise_sigma=2)
    photo, scene_to_photo = photograph(scene, effects, (1280, 720), np.random.default_rng(1))
    found = find_seat_markers(photo)
    assert sorted(found) == ["1", "2", "3", "4"]
    for seat, (x, y) in SEAT_POSITIONS.items():
        truth = scene_to_photo @ np.array([x - 0.5, y - 0.5, 1.0])
        assert np.hypot(*(np.array(found[str(seat)]) - truth[:2] / truth[2])) < 2.0


def test_zones_worked_out_on_the_table_follow_the_table_not_the_tilt() -> None:
    """Points nearer a seat's marker on the table go to that seat, however the camera
    foreshortens the table; zones drawn in the tilted picture itself would not."""
    scene = _table_with_seat_markers(SEAT_POSITIONS)
    effects = CameraEffects(tilt_deg=35, tilt_direction_deg=90)
    photo, scene_to_photo = photograph(scene, effects, (1280, 720), np.random.default_rng(2))
    px_to_mm = np.linalg.inv(scene_to_photo)  # the scene is drawn at 1 px per mm
    on_table, nearest = [], []
    for x in range(170, 640, 20):
        for y in range(135, 470, 20):
            distances = sorted(
                (np.hypot(x - sx, y - sy), seat) for seat, (sx, sy) in SEAT_POSITIONS.items()
            )
            if distances[1][0] - distances[0][0] > 10:  # clearly nearer one seat
                on_table.append((x, y))
                nearest.append(str(distances[0][1]))
    pixels = [
        tuple(p)
        for p in cv2.perspectiveTransform(
            np.array(on_table, np.float64).reshape(-1, 1, 2), scene_to_photo
        )[:, 0]
    ]
    on_the_table = zones_from_markers(photo, "frame.png", px_to_mm)
    in_the_picture = zones_from_markers(photo, "frame.png")
    assert on_the_table.units == "mm"
    assert assign_to_seats(pixels, on_the_table, px_to_mm) == nearest
    assert assign_to_seats(pixels, in_the_picture) != nearest


def test_one_seat_marker_is_not_enough(tmp_path, capsys) -> None:
    cv2.imwrite(str(tmp_path / "f.png"), _table_with_seat_markers({1: (200.0, 200.0)}))
    assert (
        main(["calibration", "seats", str(tmp_path / "f.png"), "--out", str(tmp_path / "z.json")])
        == 1
    )
    assert "1 seat marker found" in capsys.readouterr().err
    assert not (tmp_path / "z.json").exists()


def test_the_seat_commands_print_markers_and_save_zones(tmp_path) -> None:
    assert main(["calibration", "seat-markers", str(tmp_path / "m.png"), "--seats", "5"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m-1.png", "m-2.png"]
    page = cv2.imread(str(tmp_path / "m-1.png"))
    assert sorted(find_seat_markers(cv2.resize(page, None, fx=0.3, fy=0.3))) == ["1", "2", "3", "4"]
    cv2.imwrite(str(tmp_path / "frame.png"), _table_with_seat_markers(SEAT_POSITIONS))
    assert (
        main(
            [
                "calibration",
                "seats",
                str(tmp_path / "frame.png"),
                "--out",
                str(tmp_path / "zones.json"),
            ]
        )
        == 0
    )
    zones = SeatZones.from_json((tmp_path / "zones.json").read_text())
    assert [z.seat for z in zones.zones] == ["1", "2", "3", "4"] and zones.units == "px"
