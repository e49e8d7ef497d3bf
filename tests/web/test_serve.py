"""`companion serve --table FILE --seats FILE`: the camera's calibration and seat zones."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import numpy as np
import pytest

from companion.cli import main
from tests.web.servers import companion_serve
from vision.correction import CameraCorrection

ZONES = {
    "units": "px",
    "zones": [
        {"seat": "1", "polygon": [[0, 0], [10, 0], [10, 10]]},
        {"seat": "2", "polygon": [[20, 0], [30, 0], [30, 10]]},
    ],
}


def refusal(capsys: pytest.CaptureFixture[str], tmp_path: Path, *options: str) -> str:
    """Start the server with options that must stop it before it listens: exit 1, one line."""
    database = str(tmp_path / "games.sqlite3")
    status = main(["serve", "--host", "127.0.0.1", "--port", "0", "--db", database, *options])
    error = capsys.readouterr().err
    assert status == 1 and error.count("\n") == 1
    return error


def test_seat_zones_that_are_not_json_stop_the_server(capsys, tmp_path: Path) -> None:
    bad = tmp_path / "zones.json"
    bad.write_text("the left half is Anna's")
    assert "is not a list of seat zones" in refusal(capsys, tmp_path, "--seats", str(bad))


def test_a_missing_seat_zones_file_is_named(capsys, tmp_path: Path) -> None:
    assert "cannot be read" in refusal(capsys, tmp_path, "--seats", str(tmp_path / "none.json"))


def test_zones_in_millimetres_need_a_table_calibration(capsys, tmp_path: Path) -> None:
    zones = tmp_path / "zones.json"
    zones.write_text(json.dumps({**ZONES, "units": "mm"}))
    assert "need --table" in refusal(capsys, tmp_path, "--seats", str(zones))


def test_a_table_calibration_that_is_not_one_stops_the_server(capsys, tmp_path: Path) -> None:
    table = tmp_path / "table.json"
    table.write_text(json.dumps({"homography_px_to_mm": [[1, 0], [0, 1]]}))
    assert "is not a table calibration" in refusal(capsys, tmp_path, "--table", str(table))


def test_the_server_says_how_it_tells_the_seats_apart(tmp_path: Path) -> None:
    zones, table = tmp_path / "zones.json", tmp_path / "table.json"
    zones.write_text(json.dumps(ZONES))
    CameraCorrection(np.eye(3), np.eye(3)).save(table)
    server = companion_serve(
        "--db",
        str(tmp_path / "games.sqlite3"),
        "--table",
        str(table),
        "--seats",
        str(zones),
        env={"XDG_DATA_HOME": str(tmp_path / "data")},
    )
    try:
        lines = [server.stdout.readline() for _ in range(6)]  # type: ignore[union-attr]
        assert lines[4] == f"table:    {table}\n"
        assert lines[5] == "seats:    2 seat zones (px)\n"
    finally:
        server.send_signal(signal.SIGINT)
        _, error = server.communicate(timeout=60)
    assert server.returncode == 0, error
