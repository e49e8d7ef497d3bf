"""Tile sets and recognisers shared by the vision tests (built once per session)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.recogniser import Recogniser
from vision.tileset import TileSet, load_tileset

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


@pytest.fixture(scope="session")
def square_set() -> TileSet:
    return load_tileset(SAMPLES / "tilesets" / "nocturne")


@pytest.fixture(scope="session")
def round_set() -> TileSet:
    return load_tileset(SAMPLES / "tilesets" / "lantern")


@pytest.fixture(scope="session")
def square_recogniser(square_set: TileSet) -> Recogniser:
    return Recogniser(square_set)


@pytest.fixture(scope="session")
def round_recogniser(round_set: TileSet) -> Recogniser:
    return Recogniser(round_set)
