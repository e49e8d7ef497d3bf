"""The parts of teaching that make a taught face match the printed one: light, place, twins."""

from __future__ import annotations

import copy
from dataclasses import replace

import cv2
import numpy as np

from calibration import render
from calibration.alignment import column_corrections
from calibration.layout import GREY_LEVEL
from calibration.locate import locate_page
from calibration.slots import PageReader, lamp_colour
from calibration.teach import _centred, _common_size
from calibration.twins import matched_twins
from companion.bitenight.tiles import COLOURS, Motif, Tile
from vision.synth import camera
from vision.synth.scene import paste as scene_paste

from .photos import WARM_TILTED, sample, sheet_for

SIDE = 152


def _drawing(seed: int = 0) -> np.ndarray:
    """A round face with lines all over (a figure), BGRA."""
    rng = np.random.default_rng(seed)
    face = np.full((SIDE, SIDE, 4), (215, 235, 245, 255), np.uint8)
    for _ in range(12):
        a, b = rng.integers(20, SIDE - 20, 2), rng.integers(20, SIDE - 20, 2)
        cv2.line(face, tuple(map(int, a)), tuple(map(int, b)), (160, 90, 30, 255), 4)
    cv2.circle(face, (SIDE // 2, SIDE // 2), SIDE // 2 - 3, (200, 120, 40, 255), 5)
    return face


def _moved(face: np.ndarray, turn_deg: float, shift: tuple[float, float]) -> np.ndarray:
    """The face as a cut turned by ``turn_deg`` and off by ``shift`` pixels would show it."""
    centre = ((SIDE - 1) / 2, (SIDE - 1) / 2)
    matrix = cv2.getRotationMatrix2D(centre, turn_deg, 1.0)
    matrix[:, 2] += shift
    return cv2.warpAffine(face, matrix, (SIDE, SIDE), borderMode=cv2.BORDER_REPLICATE)


def _with_heart(face: np.ndarray) -> np.ndarray:
    out = face.copy()
    cv2.circle(out, (SIDE // 2, SIDE - 30), 9, (90, 40, 200, 255), -1)
    return out


def test_each_slot_is_lit_as_the_photo_was_taken(monkeypatch) -> None:
    """Under a lamp's gradient and a soft shadow across the sheet (the other tests' photo
    of page 1, where the shadow's edge crosses slots), the light teach finds over each
    piece is the light the photo was taken under; a plane through each slot's frame was
    up to 7 % off there."""
    lights = []

    def photograph(scene, effects, size, rng, content=None):
        flat = replace(effects, blur_sigma=0.0, noise_sigma=0.0, jpeg_quality=100)
        light, _ = camera.photograph(
            np.full_like(scene, 100), flat, size, copy.deepcopy(rng), content
        )
        lights.append(light.astype(np.float32) / 100)
        return camera.photograph(scene, effects, size, rng, content)

    monkeypatch.setattr(render, "photograph", photograph)
    page = sheet_for("lantern").pages[0]
    photo = render.render_sheet_photo(
        page, sample("lantern"), np.random.default_rng(101), effects=WARM_TILTED
    )
    located = locate_page(photo.image, "page-1.jpg")
    reader = PageReader(located)
    errors = []
    for slot in page.slots:
        reading = reader.read(slot)
        half = slot.size_mm / 2 - 2.0
        xs, ys = np.meshgrid(*(np.linspace(c - half, c + half, 25) for c in slot.center_mm))
        pixels = located.to_pixels(np.column_stack([xs.ravel(), ys.ravel()]))
        true = cv2.remap(
            lights[0], *pixels.T.reshape(2, 1, -1).astype(np.float32), cv2.INTER_LINEAR
        )
        found = reading.gain.at(xs.ravel(), ys.ravel())
        luma = np.array([0.114, 0.587, 0.299], np.float32)
        errors.append(
            float(np.mean(found.reshape(-1, 3) @ luma / (true.reshape(-1, 3) @ luma))) - 1
        )
    assert np.abs(errors).max() < 0.04, np.round(errors, 3)


def test_the_lamp_colour_is_the_same_from_a_bright_and_a_dim_grey_patch() -> None:
    rng = np.random.default_rng(1)
    lamp = np.array([0.62, 0.94, 1.26])
    patches = [
        np.clip(GREY_LEVEL * level * lamp + rng.normal(0, 2, (40, 40, 3)), 0, 255).astype(np.uint8)
        for level in (0.42, 0.71)
    ]
    found = lamp_colour(patches)
    assert np.abs(found / (lamp / (lamp @ [0.114, 0.587, 0.299])) - 1).max() < 0.01


def test_each_tile_of_a_column_is_brought_onto_the_columns_drawing() -> None:
    drawing = _drawing()
    moves = [(1.2, (0.8, -0.5)), (-0.9, (-0.6, 0.4)), (0.4, (0.3, 0.9)), (-0.7, (-0.5, -0.8))]
    tiles = [Tile(colour, Motif.MONK, False) for colour in COLOURS[: len(moves)]]
    faces = {t: _moved(drawing, turn, shift) for t, (turn, shift) in zip(tiles, moves, strict=True)}
    corrections = column_corrections(faces)
    cuts = [
        cv2.warpAffine(
            faces[t],
            corrections[t][:2],
            (SIDE, SIDE),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        )
        for t in tiles
    ]
    before = np.mean([np.abs(_grey(faces[t]) - _grey(faces[tiles[0]])).mean() for t in tiles[1:]])
    after = np.mean(
        [np.abs(_grey(cut) - _grey(cuts[0]))[20:-20, 20:-20].mean() for cut in cuts[1:]]
    )
    assert after < 0.2 * before


def test_twins_lit_differently_end_up_differing_only_by_the_heart() -> None:
    plain = _drawing(2)
    heart = _with_heart(plain)
    xs = np.mgrid[0:SIDE, 0:SIDE][1]
    light = (0.95 + 0.08 * xs / SIDE)[..., None]  # the heart's slot a little darker, unevenly
    dim = heart.copy()
    dim[..., :3] = np.clip(heart[..., :3] * light, 0, 255).astype(np.uint8)
    tile = Tile(COLOURS[0], Motif.MONK, True)
    matched = matched_twins({tile: dim, Tile(COLOURS[0], Motif.MONK, False): plain}, round_=True)
    difference = np.abs(_grey(matched[tile]) - _grey(matched[Tile(COLOURS[0], Motif.MONK, False)]))
    heart_spot = np.zeros((SIDE, SIDE), bool)
    cv2.circle(heart_spot.view(np.uint8), (SIDE // 2, SIDE - 30), 12, 1, -1)
    assert difference[~heart_spot][:].mean() < 1.0
    assert difference[heart_spot].mean() > 30


def _grey(face: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(face[..., :3], cv2.COLOR_BGR2GRAY).astype(np.float32)


def test_round_pieces_are_centred_where_they_lie_pale_rims_and_shadows_alike(monkeypatch) -> None:
    """A white token's pale rim hardly shows on white paper, and every piece's shadow
    darkens the paper on one side: the edge alone put tokens up to 0.9 mm off centre."""
    placed = []

    def paste(scene, sprite, centre, size_px, angle):
        if sprite[..., :3].any():  # the piece, not its shadow
            c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
            linear = np.array([[c, -s], [s, c]]) * (size_px[0] / sprite.shape[1])
            placed.append(np.asarray(centre) - linear @ [0.5, 0.5])  # paste's own centre
        scene_paste(scene, sprite, centre, size_px, angle)

    monkeypatch.setattr(render, "paste", paste)
    page = sheet_for("lantern").pages[2]
    photo = render.render_sheet_photo(
        page, sample("lantern"), np.random.default_rng(303), effects=WARM_TILTED
    )
    reader = PageReader(locate_page(photo.image, "page-3.jpg"))
    offset = render.TABLE_MARGIN_MM * render.SCENE_PX_PER_MM - 0.5
    tokens = [(slot, spot) for slot, spot in zip(page.slots, placed, strict=True) if slot.is_token]
    readings = [reader.read(slot) for slot, _ in tokens]
    diameter = _common_size(readings, round_=True)
    for (slot, spot), reading in zip(tokens, readings, strict=True):
        truth = (spot - offset) / render.SCENE_PX_PER_MM
        found = _centred(reading, diameter).centre_mm
        assert np.hypot(*np.subtract(found, truth)) < 0.25, slot.id
