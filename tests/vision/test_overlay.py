"""The overlay a person checks: every detection and every rejected piece is drawn."""

from __future__ import annotations

import numpy as np

import vision.overlay as overlay
from companion.bitenight.tiles import Tile
from vision.overlay import draw_overlay
from vision.results import FrameResult, RejectedCandidate, TileDetection, TokenDetection

SQUARE = np.array([[100, 100], [160, 100], [160, 160], [100, 160]], np.float32)


def _drawn(result: FrameResult) -> np.ndarray:
    image = np.zeros((240, 320, 3), np.uint8)
    out = draw_overlay(image, result)
    assert out.shape == image.shape and not image.any()  # the input is left alone
    return out


def test_a_sure_tile_is_outlined_in_green_and_a_doubtful_one_in_orange():
    sure = _drawn(
        FrameResult(
            320, 240, tiles=(TileDetection(Tile.parse("red-monk"), (130, 130), SQUARE, 0.95),)
        )
    )
    doubtful = _drawn(
        FrameResult(
            320, 240, tiles=(TileDetection(Tile.parse("red-monk"), (130, 130), SQUARE, 0.3),)
        )
    )
    edge = (slice(97, 104), 112)  # across the top side, clear of the label
    b, g, r = (int(v) for v in max(sure[edge].tolist(), key=sum))
    assert g > 2 * b and g > 2 * r  # green
    b, g, r = (int(v) for v in max(doubtful[edge].tolist(), key=sum))
    assert r > g > 4 * max(b, 1)  # orange


def test_tokens_and_rejected_pieces_are_drawn_too():
    token = TokenDetection(None, False, (50, 50), SQUARE - 60, 0.9)
    rejected = RejectedCandidate((250, 180), SQUARE + 60, "no match (0.20)")
    out = _drawn(FrameResult(320, 240, tokens=(token,), rejected=(rejected,)))
    assert out[40, 55].any() and out[160, 190].any()


def test_a_tile_s_label_stays_inside_the_tile_so_a_packed_row_stays_readable():
    row = tuple(
        TileDetection(
            Tile.parse(name), (130 + 60 * k, 130), SQUARE + np.array([60.0 * k, 0.0]), 0.95
        )
        for k, name in enumerate(["purple-vampire-heart", "yellow-maiden-heart"])
    )
    image = np.full((240, 320, 3), 255, np.uint8)
    out = draw_overlay(image, FrameResult(320, 240, tiles=row))
    label_box = (out == round(255 * 0.4)).all(axis=2)  # the labels' darkened ground
    assert label_box[:, 100:160].any() and label_box[:, 160:220].any()
    assert not label_box[:, 158:163].any()  # neither runs over the seam between them
    assert not label_box[:, :100].any() and not label_box[:, 220:].any()


def test_a_label_s_ground_lets_the_tile_s_artwork_show_through():
    image = np.full((240, 320, 3), 255, np.uint8)
    image[100:160, 100:160] = (0, 0, 200)  # the tile's red ground under its label
    tile = TileDetection(Tile.parse("red-monk"), (130, 130), SQUARE, 0.95)
    out = draw_overlay(image, FrameResult(320, 240, tiles=(tile,)))
    under_label = out[126:134, 100:160].reshape(-1, 3)
    # darkened, not blacked out: the red still shows, where no letter is drawn
    assert ((under_label[:, 2] == 80) & (under_label[:, :2] == 0).all(axis=1)).any()


def test_a_large_tile_s_label_grows_to_be_read_on_a_phone(monkeypatch):
    big = np.array([[100.0, 100.0], [500.0, 100.0], [500.0, 500.0], [100.0, 500.0]])
    tile = TileDetection(Tile.parse("red-monk"), (300, 300), big, 0.95)

    def label_width() -> int:
        out = draw_overlay(np.full((600, 600, 3), 255, np.uint8), FrameResult(600, 600, (tile,)))
        ground = (out == round(255 * 0.4)).all(axis=2)  # the label's darkened ground
        columns = np.flatnonzero(ground.any(axis=0))
        return int(columns.max() - columns.min())

    grown = label_width()
    monkeypatch.setattr(overlay, "_LABEL_GROWTH", 1.0)
    assert grown > 2.5 * label_width()


def test_a_label_at_the_picture_s_edge_is_moved_in_to_be_read_whole():
    # a piece centred 3 px from the left edge: its label, centred on it, would start
    # 40 px left of the picture (the outline is drawn away from the label's rows)
    reason = "mostly out of view (47% shown)"
    outline = SQUARE / 10

    def label_columns(centre: tuple[float, float]) -> np.ndarray:
        out = _drawn(FrameResult(320, 240, rejected=(RejectedCandidate(centre, outline, reason),)))
        return np.flatnonzero(out[110:130].any(axis=(0, 2)))

    inside, at_edge = label_columns((160, 120)), label_columns((3, 120))
    assert np.ptp(at_edge) == np.ptp(inside)
