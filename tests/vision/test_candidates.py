"""Finding objects on the table and splitting touching ones."""

from __future__ import annotations

import cv2
import numpy as np

from vision.candidates import (
    _on_contour,
    block_outline,
    coverage,
    find_blobs,
    grid_splits,
    single_outline,
)
from vision.config import VisionConfig
from vision.discs import disc_split
from vision.foreground import object_mask


def _table(rng: np.random.Generator) -> np.ndarray:
    base = np.full((360, 640, 3), (60, 90, 130), np.float32)
    base += rng.normal(0, 4, base.shape)
    return np.clip(base, 0, 255).astype(np.uint8)


def test_an_empty_table_has_no_objects():
    mask = object_mask(_table(np.random.default_rng(0)), VisionConfig())
    assert find_blobs(mask, 30) == []


def test_a_pale_tile_on_a_dark_table_is_one_solid_blob():
    image = _table(np.random.default_rng(1))
    cv2.rectangle(image, (100, 100), (160, 160), (230, 235, 240), -1)
    cv2.circle(image, (130, 130), 12, (40, 40, 40), 3)  # artwork inside
    blobs = find_blobs(object_mask(image, VisionConfig()), 30)
    assert len(blobs) == 1 and 61 * 61 * 0.9 < blobs[0].area < 66 * 66


def test_a_block_of_touching_tiles_is_split_into_its_grid():
    mask = np.zeros((300, 400), np.uint8)
    corners = np.array([[60, 80], [330, 50], [345, 230], [70, 250]], np.int32)  # 3×2 tiles, tilted
    cv2.fillConvexPoly(mask, corners, 255)
    blob = find_blobs(mask, 30)[0]
    splits = {len(cells) for cells in grid_splits(blob, side=None, config=VisionConfig())}
    assert 6 in splits
    six = next(cells for cells in grid_splits(blob, None, VisionConfig()) if len(cells) == 6)
    assert all(share > 0.95 for share in coverage(mask, six))


def test_a_block_missing_a_corner_tile_keeps_its_outline():
    mask = np.zeros((300, 300), np.uint8)
    cv2.rectangle(mask, (50, 50), (249, 249), 255, -1)
    cv2.rectangle(mask, (150, 150), (249, 249), 0, -1)  # an L of three tiles
    outline = block_outline(find_blobs(mask, 30)[0])
    assert np.allclose(outline, [[50, 50], [249, 50], [249, 249], [50, 249]], atol=3)


def test_a_block_s_outline_runs_along_its_blob_where_tiles_are_missing_from_its_corners():
    # four tiles in three columns: the outline's short row side touches one tile of three
    mask = np.zeros((300, 400), np.uint8)
    cv2.rectangle(mask, (50, 50), (349, 149), 255, -1)
    cv2.rectangle(mask, (50, 150), (149, 249), 255, -1)
    blob = find_blobs(mask, 30)[0]
    assert _on_contour(np.array([[50, 50], [349, 50], [349, 249], [50, 249]], np.float32), blob)


def test_an_outline_whose_sides_fly_off_the_blob_is_no_block_s():
    # a ragged mask's runs can give sides that cross the blob's outline and run on past
    # it: a quad half again the blob's area, on its outline along a third of its length
    mask = np.zeros((300, 400), np.uint8)
    cv2.rectangle(mask, (100, 100), (299, 199), 255, -1)
    cv2.circle(mask, (299, 199), 6, 0, -1)  # a corner rounded, as a tile's is
    blob = find_blobs(mask, 30)[0]
    skewed = np.array([[100, 100], [299, 100], [380, 199], [60, 260]], np.float32)
    assert not _on_contour(skewed, blob)
    assert _on_contour(np.array([[100, 100], [299, 100], [299, 199], [100, 199]], np.float32), blob)


def test_a_row_of_touching_discs_gives_one_disc_each():
    mask = np.zeros((200, 400), np.uint8)
    for x in (80, 140, 200, 260):
        cv2.circle(mask, (x, 100), 30, 255, -1)
    blob = find_blobs(mask, 30)[0]
    discs = disc_split(blob, mask.shape, min_radius=10)
    centres = sorted(float(q.mean(axis=0)[0]) for q in discs)
    assert np.allclose(centres, [80, 140, 200, 260], atol=4)


def test_a_lone_tile_seen_at_an_angle_is_cut_at_its_true_corners():
    mask = np.zeros((200, 200), np.uint8)
    corners = np.array([[50, 60], [150, 50], [140, 150], [62, 142]], np.float32)  # a trapezoid
    cv2.fillConvexPoly(mask, corners.astype(np.int32), 255)
    # rounded corners, as a tile's are (and as blur makes them)
    for x, y in corners.astype(int):
        cv2.circle(mask, (x, y), 9, 0, -1)
    cv2.fillConvexPoly(mask, (corners * 0.8 + corners.mean(axis=0) * 0.2).astype(np.int32), 255)
    blob = find_blobs(mask, 30)[0]
    quad = single_outline(blob)
    assert np.abs(quad - corners).max() < 2.5
