"""`companion serve` (INTERFACES.md): the address and QR code, Ctrl-C, clear refusals."""

from __future__ import annotations

import signal
import urllib.request
from pathlib import Path

import pytest

from companion.cli import main
from tests.web.servers import companion_serve
from web.commands import camera_spec, lan_address


def test_serve_prints_the_address_and_a_qr_code_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    server = companion_serve(env={"XDG_DATA_HOME": str(tmp_path / "data")})
    try:
        first = server.stdout.readline()  # type: ignore[union-attr]
        second = server.stdout.readline()  # type: ignore[union-attr]
        assert first.startswith("Companion table server: open http://127.0.0.1:")
        database = tmp_path / "data" / "companion" / "companion.sqlite3"
        assert second == f"database: {database}\n"
        url = first.split("open ")[1].split()[0]
        with urllib.request.urlopen(url, timeout=10) as answer:
            assert answer.status == 200
            assert "Companion" in answer.read().decode()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=20)
    out = server.stdout.read()  # type: ignore[union-attr]
    err = server.stderr.read()  # type: ignore[union-attr]
    server.stdout.close()  # type: ignore[union-attr]
    server.stderr.close()  # type: ignore[union-attr]
    assert server.returncode == 0, err
    assert "█" in out  # the QR code, drawn in the terminal
    assert database.exists()


def test_serve_stops_cleanly_when_terminated(tmp_path: Path) -> None:
    server = companion_serve("--db", str(tmp_path / "games.sqlite3"))
    try:
        assert server.stdout.readline().startswith("Companion table server")  # type: ignore[union-attr]
    finally:
        server.terminate()
        server.wait(timeout=20)
        server.stdout.close()  # type: ignore[union-attr]
        server.stderr.close()  # type: ignore[union-attr]
    assert server.returncode == 0


def test_serve_refuses_a_folder_that_is_not_a_tile_set(tmp_path: Path, capsys) -> None:
    assert main(["serve", "--tileset", str(tmp_path), "--db", str(tmp_path / "x.db")]) == 1
    assert "is not a tile set folder" in capsys.readouterr().err


def test_serve_refuses_a_camera_that_is_not_there(tmp_path: Path, capsys) -> None:
    status = main(["serve", "--camera", str(tmp_path / "none.mp4"), "--db", str(tmp_path / "x")])
    assert status == 1
    assert "neither a webcam number nor a file" in capsys.readouterr().err


def test_serve_refuses_a_port_out_of_range(tmp_path: Path, capsys) -> None:
    assert main(["serve", "--port", "70000", "--db", str(tmp_path / "x.db")]) == 2


def test_serve_refuses_a_port_in_use(tmp_path: Path, capsys) -> None:
    import socket

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        port = str(taken.getsockname()[1])
        status = main(["serve", "--host", "127.0.0.1", "--port", port, "--db", str(tmp_path / "x")])
    finally:
        taken.close()
    assert status == 1
    assert "cannot listen on 127.0.0.1:" in capsys.readouterr().err


def test_a_camera_number_is_a_webcam() -> None:
    assert camera_spec("0") == 0


@pytest.mark.parametrize("given", [None])
def test_without_sample_photos_the_demo_runs_without_a_camera(given, monkeypatch, tmp_path) -> None:
    monkeypatch.setattr("web.commands.DEFAULT_PHOTOS", tmp_path)
    assert camera_spec(given) is None
    (tmp_path / "table.jpg").write_bytes(b"")
    assert camera_spec(given) == tmp_path


def test_the_lan_address_is_an_ip_address() -> None:
    parts = lan_address().split(".")
    assert len(parts) == 4 and all(part.isdigit() for part in parts)
