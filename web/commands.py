"""``companion serve``: the table server for the phones (INTERFACES.md).

With no options it is the bundled demo: a virtual camera playing the sample photos,
the bundled tile set, and a database in the user's data folder. It binds to every
interface so that phones on the Wi-Fi can reach it, prints the address they should
open (the machine's LAN address) with a QR code of it, and serves until Ctrl-C.
"""

from __future__ import annotations

import argparse
import signal
import socket
import sys
from pathlib import Path
from typing import Any

import segno

from companion.errors import CompanionError, UsageError
from vision.sources import PHOTO_SUFFIXES
from web.config import DEFAULT_PHOTOS, DEFAULT_TILESET, default_database

DEFAULT_PORT = 8000
NO_CAMERA = "none (phones photograph their tiles)"
#: Each phone holds one thread for its live stream (and one while it watches the
#: camera), so the pool is far larger than waitress's default of four.
DEFAULT_THREADS = 48


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="start the table server that the phones open",
        description="Start the table server: the phone pages, the game database and a "
        "camera. With no options it runs the bundled demo (sample photos as the camera, "
        "the bundled tile set, a database in your data folder).",
    )
    parser.add_argument(
        "--camera",
        metavar="N|PATH",
        help="a webcam number (0, 1, …), a video file or a folder of photos "
        "(default: the sample photos)",
    )
    parser.add_argument(
        "--host", default="0.0.0.0", help="address to listen on (default: all, for the LAN)"
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: any)"
    )
    parser.add_argument(
        "--db", type=Path, help=f"SQLite database file (default: {default_database()})"
    )
    parser.add_argument(
        "--tileset", type=Path, help="tile set folder (default: the bundled 'nocturne' set)"
    )
    parser.add_argument(
        "--table",
        type=Path,
        metavar="FILE",
        help="table calibration JSON from `companion calibration table` (colour and "
        "table plane), applied to every camera frame",
    )
    parser.add_argument(
        "--seats",
        type=Path,
        metavar="FILE",
        help="seat zones JSON from `companion calibration seats` (replaces the zones "
        "drawn on the host screen; zones in mm need --table)",
    )
    parser.add_argument("--threads", type=int, default=DEFAULT_THREADS, help=argparse.SUPPRESS)
    parser.set_defaults(run=serve)


def camera_spec(text: str | None) -> int | Path | None:
    """``--camera`` as a webcam index or an existing file or folder.

    Without it, the demo's virtual camera plays the sample photos; when there are none
    the server runs without a camera (players photograph their tiles instead).
    """
    if text is None:
        has_photos = DEFAULT_PHOTOS.is_dir() and any(
            path.suffix.lower() in PHOTO_SUFFIXES for path in DEFAULT_PHOTOS.iterdir()
        )
        return DEFAULT_PHOTOS if has_photos else None
    if text.isdigit():
        return int(text)
    path = Path(text)
    if not path.exists():
        raise CompanionError(f"the camera source '{text}' is neither a webcam number nor a file")
    return path


def seating(app: Any) -> str:
    """How the camera tells the seats apart, for the start-up lines."""
    from web.seatzones import saved_zones

    with app.app_context():
        zones = saved_zones()
    if zones is None:
        return "sectors around the picture centre (draw seat zones on the host screen)"
    return f"{len(zones.zones)} seat zones ({zones.units})"


def announce(app: Any, port: int, host: str) -> str:
    """Print the address phones open (the LAN address when bound to every interface)."""
    shown_host = lan_address() if host in ("0.0.0.0", "") else host
    url = f"http://{shown_host}:{port}/"
    app.config["PUBLIC_URL"] = url
    print(f"Companion table server: open {url} on the phones (Ctrl-C stops it)")
    return url


def _stop_on_terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def check_free(host: str, port: int) -> None:
    """Refuse at once when the address is taken (before any server is half built)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        probe.bind((host, port))
    except OSError as error:
        reason = error.strerror or error
        raise CompanionError(f"cannot listen on {host}:{port} ({reason})") from None
    finally:
        probe.close()


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # a documentation address: only routing is asked
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def serve(args: argparse.Namespace) -> int:
    from waitress import create_server

    from web import create_app

    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be between 0 and 65535, not {args.port}")
    tileset = args.tileset or DEFAULT_TILESET
    if not (Path(tileset) / "tileset.json").is_file():
        raise CompanionError(f"'{tileset}' is not a tile set folder (it has no tileset.json)")
    camera = camera_spec(args.camera)
    config: dict[str, Any] = {
        "DATABASE": str(args.db or default_database()),
        "TILESET": str(tileset),
        "CAMERA": camera,
        "TABLE": str(args.table) if args.table else None,
        "SEATS": str(args.seats) if args.seats else None,
    }
    check_free(args.host, args.port)
    signal.signal(signal.SIGTERM, _stop_on_terminate)  # a service manager stops it cleanly
    app = create_app(config)
    server = None
    try:  # from here on the camera thread runs: stop it whatever happens
        server = create_server(app, host=args.host, port=args.port, threads=args.threads)
        url = announce(app, server.effective_port, args.host)  # type: ignore[union-attr]
        print(f"database: {config['DATABASE']}")
        print(f"tile set: {tileset}")
        print(f"camera:   {camera if camera is not None else NO_CAMERA}")
        print(f"table:    {args.table or 'not calibrated'}")
        print(f"seats:    {seating(app)}")
        segno.make(url, error="m").terminal(out=sys.stdout, compact=True)
        sys.stdout.flush()
        server.run()  # type: ignore[union-attr]
    except KeyboardInterrupt:
        print("stopped")
    finally:
        app.extensions["companion_changes"].close()  # live streams end before the server
        if server is not None:
            server.close()  # type: ignore[union-attr]
        stop = app.extensions.get("companion_camera_stop")
        if stop is not None:
            stop()
    return 0
