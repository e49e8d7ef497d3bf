"""Camera sources: a folder of photos plays like a camera; bad sources say why."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.imageio import ImageError
from vision.sources import PhotoFolder, SinglePhoto, SourceError, VideoFile, open_source


def _photo(path: Path, value: int) -> None:
    cv2.imwrite(str(path), np.full((48, 64, 3), value, np.uint8))


def test_a_photo_folder_plays_in_name_order_and_loops(tmp_path: Path):
    _photo(tmp_path / "b.png", 20)
    _photo(tmp_path / "a.png", 10)
    (tmp_path / "notes.txt").write_text("not a photo")
    source = open_source(str(tmp_path))
    assert isinstance(source, PhotoFolder)
    assert [int(source.read()[0, 0, 0]) for _ in range(3)] == [10, 20, 10]


def test_a_photo_folder_without_looping_runs_out(tmp_path: Path):
    _photo(tmp_path / "a.png", 10)
    source = PhotoFolder(tmp_path, loop=False)
    assert source.read() is not None and source.read() is None


def test_a_bad_photo_in_the_folder_is_skipped(tmp_path: Path):
    _photo(tmp_path / "a.png", 10)
    (tmp_path / "b.jpg").write_bytes(b"\xff\xd8broken")
    source = PhotoFolder(tmp_path, loop=False)
    assert source.read() is not None and source.read() is None
    assert "b.jpg" in source.skipped[0]


def test_an_empty_folder_is_refused(tmp_path: Path):
    with pytest.raises(SourceError, match="holds no photos"):
        open_source(str(tmp_path))


def test_a_video_file_gives_its_frames(tmp_path: Path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for value in (30, 60, 90):
        writer.write(np.full((48, 64, 3), value, np.uint8))
    writer.release()
    source = open_source(str(path))
    frames = []
    while (frame := source.read()) is not None:
        frames.append(frame)
    source.close()
    assert len(frames) == 3 and frames[0].shape == (48, 64, 3)


def test_a_missing_video_is_refused(tmp_path: Path):
    with pytest.raises(SourceError, match="does not exist"):
        VideoFile(tmp_path / "none.mp4")


def test_an_uploaded_photo_is_one_frame():
    ok, data = cv2.imencode(".jpg", np.full((48, 64, 3), 100, np.uint8))
    assert ok
    source = SinglePhoto(data.tobytes())
    assert source.read().shape == (48, 64, 3) and source.read() is None
    with pytest.raises(ImageError):
        SinglePhoto(b"not a photo")
