"""Settings of the table server, read from the environment with sensible defaults.

``companion serve`` fills these from its options; tests pass a dict to ``create_app``.
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_dir

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
DEFAULT_TILESET = SAMPLES / "tilesets" / "nocturne"
DEFAULT_PHOTOS = SAMPLES / "photos"


def default_database() -> Path:
    """The database in the user's data folder, where a reinstall does not lose it."""
    return Path(user_data_dir("companion", appauthor=False)) / "companion.sqlite3"


class Config:
    """Defaults, each overridable by an environment variable of the same name."""

    #: SQLite file holding games, events, seats and tokens.
    DATABASE = os.environ.get("COMPANION_DATABASE") or str(default_database())
    #: Tile set folder whose faces the pickers show and the camera compares against.
    TILESET = os.environ.get("COMPANION_TILESET") or str(DEFAULT_TILESET)
    #: The address phones use, for QR codes (the host screen may be on 127.0.0.1).
    PUBLIC_URL = os.environ.get("COMPANION_PUBLIC_URL") or None
    #: Whether to run the camera loop (the server command turns it on).
    CAMERA = None
    #: How long the virtual camera (a folder of photos) shows each photo, in seconds.
    CAMERA_PHOTO_SECONDS = os.environ.get("COMPANION_CAMERA_PHOTO_SECONDS") or 4.0
    #: Most recognitions a second, however fast the picture changes (0: no limit).
    #: One costs a few hundred milliseconds of a core: more reads a moving hand
    #: sooner, fewer leaves more of the machine to the phones' requests.
    CAMERA_RECOGNITIONS_PER_SECOND = (
        os.environ.get("COMPANION_CAMERA_RECOGNITIONS_PER_SECOND") or 1.0
    )
    #: Largest request body: a phone photo; JSON bodies have their own smaller limit.
    MAX_CONTENT_LENGTH = 20 * 1024 * 1024
    MAX_JSON_BYTES = 64 * 1024
    #: Cookies: the signed session holds the seat and host tokens of this browser.
    SESSION_COOKIE_NAME = "companion"
    SESSION_COOKIE_SAMESITE = "Strict"
    SESSION_COOKIE_HTTPONLY = True
    PERMANENT_SESSION_LIFETIME = 60 * 60 * 24 * 30
    #: Live updates: how long one event stream lasts before the browser reconnects,
    #: and how often it says it is still there.
    STREAM_LIFETIME = 300.0
    STREAM_HEARTBEAT = 15.0
    #: How long after the page last fetched the game its live stream is served: a page
    #: that is shown fetches the game again, a tab left in the background does not and
    #: gives its stream (a thread of the server) back.
    STREAM_LEASE = 600.0
    #: Language of the texts catalogue.
    LANGUAGE = os.environ.get("COMPANION_LANGUAGE") or "en"
