"""Tile sets and recognisers shared by the vision tests (built once per session)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from vision.recogniser import Recogniser
from vision.synth.regression import style_tileset
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


@pytest.fixture(scope="session")
def style_recogniser(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Recogniser]:
    """A recogniser for one of the regression's styles, by name, rendered and built once
    per session however many test modules read that style's photos."""
    folder = tmp_path_factory.mktemp("sets")
    built: dict[str, Recogniser] = {}

    def recogniser(style: str) -> Recogniser:
        if style not in built:
            built[style] = Recogniser(style_tileset(style, folder))
        return built[style]

    return recogniser
