"""Colour under a lamp: the frame's light is estimated from the tiles' own faces."""

from __future__ import annotations

import numpy as np

from companion.bitenight.tiles import COLOURS, Motif, Tile
from vision.colour import FitTable, decide_member, estimate_gains, fit_residuals, kelvin_gains
from vision.config import VisionConfig
from vision.model import build_model
from vision.rectify import patch_mask
from vision.tileset import TileSet


def _members(model, motif: Motif) -> tuple[list[int], np.ndarray]:
    group = model.group_names.index(motif.value)
    indices = list(model.groups[group])
    return indices, model.colour_templates[indices]


def _position(model, indices: list[int], tile: Tile) -> int:
    label = next(i for i, label in enumerate(model.labels) if label.tile == tile)
    return indices.index(label)


def test_a_warm_lamp_does_not_turn_yellow_into_red(square_set: TileSet):
    model = build_model(square_set, VisionConfig())
    mask = patch_mask(40, False)
    lamp = kelvin_gains(2700) ** 0.7
    patches, members, truths = [], [], []
    for colour, motif in zip(
        COLOURS, (Motif.VAMPIRE, Motif.MONK, Motif.MAIDEN, Motif.COFFIN, Motif.GARLIC), strict=True
    ):
        indices, templates = _members(model, motif)
        truth = _position(model, indices, Tile(colour, motif))
        patches.append(np.clip(templates[truth] * lamp * 0.9 + 8, 0, 255).astype(np.float32))
        members.append(templates)
        truths.append(truth)
    gains = estimate_gains(patches, members, mask, VisionConfig().illuminant_kelvins)
    assert gains[2] > gains[0]  # it saw the warm light
    chosen = [decide_member(p, m, gains, mask)[0] for p, m in zip(patches, members, strict=True)]
    assert chosen == truths


def test_the_fit_table_agrees_with_the_direct_fit():
    rng = np.random.default_rng(1)
    mask = patch_mask(40, True)
    patches = [rng.random((40, 40, 3)).astype(np.float32) * 255 for _ in range(2)]
    members = [rng.random((4, 40, 40, 3)).astype(np.float32) * 255 for _ in range(2)]
    gains = np.array([0.7, 1.0, 1.4])
    table = FitTable(patches, members, mask).residuals(gains)
    direct = np.stack(
        [fit_residuals(p, m, gains, mask) for p, m in zip(patches, members, strict=True)]
    )
    assert np.allclose(table, direct, atol=1e-4)


def test_a_heart_is_told_from_its_plain_twin_even_a_little_off_its_place(square_set: TileSet):
    model = build_model(square_set, VisionConfig())
    indices, templates = _members(model, Motif.GARLIC)
    heart = _position(model, indices, Tile.parse("blue-garlic-heart"))
    shifted = np.roll(templates[heart], (1, -2), axis=(0, 1))
    member, clarity = decide_member(shifted, templates, np.ones(3), patch_mask(40, False))
    assert member == heart and clarity > 0
