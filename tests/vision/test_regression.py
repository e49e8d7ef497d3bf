"""The regression run's lines and their comparison (vision/synth/regression.py)."""

from __future__ import annotations

import numpy as np

from companion.bitenight.tiles import Tile
from vision.evaluate import PhotoScore, empty_table_photo, few_tiles_photo, score_photo
from vision.results import FrameResult, TileDetection
from vision.synth import regression
from vision.synth.regression import (
    SAMPLES,
    PhotoSet,
    cached_photos,
    compare,
    photo_line,
    photo_sets,
    readings_digest,
    summary_line,
)
from vision.tileset import load_tileset


def _tile(name: str, x: float = 40.0, confidence: float = 0.9) -> TileDetection:
    return TileDetection(Tile.parse(name), (x, 40.0), np.zeros((4, 2)), confidence)


def _score(index: int, right: int, tokens_right: int = 0, ms: float = 50.0) -> PhotoScore:
    return PhotoScore(
        level=2,
        index=index,
        tiles=15,
        found=15,
        tiles_right=right,
        tokens=14,
        tokens_right=tokens_right,
        milliseconds=ms,
    )


def test_every_check_style_is_read_at_two_seeds_and_the_studied_ones_at_three_levels():
    sets = photo_sets(["studied", "check"], {"nocturne", "seal"})
    assert [s.label for s in sets] == [
        "nocturne-s2024-L0",
        "nocturne-s2024-L1",
        "nocturne-s2024-L2",
        "seal-s2024-L2",
        "seal-s7-L2",
    ]


def test_every_style_is_read_on_an_empty_table_too_where_every_piece_read_is_false():
    (nocturne, seal) = photo_sets(["empty"], {"nocturne", "seal"})
    assert (nocturne.label, seal.label) == ("nocturne-s2024-L2-empty", "seal-s2024-L2-empty")
    assert seal.scene(3) == "s2024-L2-3-empty"
    photo = empty_table_photo(load_tileset(SAMPLES / "nocturne"), 2024, 2, 0)
    assert not photo.tiles and not photo.tokens
    result = FrameResult(width=1280, height=720, tiles=(_tile("red-monk"),), tokens=())
    assert score_photo(photo, result, 2, 0).false_positives == 1


def test_every_style_is_read_with_a_few_tiles_on_the_table_too():
    (nocturne,) = photo_sets(["few"], {"nocturne"})
    assert nocturne.label == "nocturne-s2024-L2-few" and nocturne.scene(1) == "s2024-L2-1-few"
    tileset = load_tileset(SAMPLES / "nocturne")
    counts = [len(few_tiles_photo(tileset, 2024, 2, i).tiles) for i in range(3)]
    assert counts == [1, 2, 3]


def test_a_summary_gives_the_shares_of_tiles_photos_and_tokens_read_right():
    line = summary_line("x-s1-L2", [_score(0, 15, 14), _score(1, 12, 7)])
    assert line == "= x-s1-L2 tiles 90.0 exact 50.0 tokens 75.0 false 0 tokfalse 0 median_ms 50"


def test_a_comparison_shows_the_photos_read_differently_and_not_those_only_timed_apart(
    tmp_path, capsys
):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    old = [_score(0, 15, ms=40), _score(1, 14)]
    new = [_score(0, 15, ms=90), _score(1, 15)]
    for path, scores in ((a, old), (b, new)):
        lines = [photo_line("x-s1-L2", s, "0") for s in scores] + [summary_line("x-s1-L2", scores)]
        path.write_text("\n".join(lines) + "\n")
    compare(a, b)
    shown = capsys.readouterr().out.splitlines()
    assert shown[0].startswith("  - x-s1-L2 #1 tiles 14/15")
    assert shown[1].startswith("  + x-s1-L2 #1 tiles 15/15")
    assert shown[2].startswith("- = x-s1-L2 tiles 96.7") and shown[3].startswith(
        "+ = x-s1-L2 tiles 100.0"
    )
    assert shown[4] == "median ms over all photos: 45.0 → 70.0"


def test_a_scene_is_named_by_seed_level_and_index_alike_in_every_style():
    (nocturne,) = photo_sets(["fresh"], {"nocturne"})[:1]
    (seal, _) = photo_sets(["check"], {"seal"})
    assert nocturne.scene(3) == "s7-L2-3"
    assert seal.scene(19) == "s2024-L2-19"


def test_only_the_scenes_asked_for_are_rendered_and_cached(tmp_path, monkeypatch):
    drawn: list[int] = []

    def render(tileset, seed, level, index):
        drawn.append(index)
        return f"photo {seed}-{level}-{index}"

    monkeypatch.setattr(regression, "evaluation_photo", render)
    photo_set = PhotoSet("x", 7, 2, 10)
    scenes = frozenset({"s7-L2-3", "s7-L2-8"})
    first = list(cached_photos(photo_set, None, tmp_path, scenes))
    again = list(cached_photos(photo_set, None, tmp_path, scenes))
    assert first == again == [(3, "photo 7-2-3"), (8, "photo 7-2-8")]
    assert drawn == [3, 8]
    assert sorted(p.name for p in (tmp_path / "photos").iterdir()) == [
        "x-s7-L2-3.pkl",
        "x-s7-L2-8.pkl",
    ]


def test_the_readings_digest_follows_names_and_places_but_not_confidence_or_order():
    tile = _tile

    def digest(*tiles: TileDetection) -> str:
        return readings_digest(FrameResult(1280, 720, tiles=tiles))

    base = digest(tile("red-vampire", 100), tile("blue-monk-heart", 300))
    assert digest(tile("blue-monk-heart", 300, 0.5), tile("red-vampire", 100.2)) == base
    assert digest(tile("red-vampire", 100), tile("blue-monk", 300)) != base
    assert digest(tile("red-vampire", 103), tile("blue-monk-heart", 300)) != base
    assert digest(tile("red-vampire", 100)) != base
