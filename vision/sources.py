"""Camera sources behind one interface: webcam, video file, folder of photos, one photo.

The server asks a source for frames and never cares where they come from, so the demo
(a folder of sample photos played as a virtual camera), a café's webcam and a phone
upload all reach the recogniser the same way. ``open_source("0")`` opens webcam 0,
a path to a folder plays its photos, any other path is a video file.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from companion.errors import CompanionError
from vision.imageio import ImageError, decode_image, read_image

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


class SourceError(CompanionError):
    """A camera, video or photo folder that cannot be opened or read."""


class FrameSource(Protocol):
    """Anything that hands out BGR frames; ``read`` returns None when it has no more."""

    name: str

    def read(self) -> np.ndarray | None: ...

    def close(self) -> None: ...


class _Capture:
    """OpenCV VideoCapture (a webcam by index or a video file) as a frame source."""

    def __init__(self, target: int | str, name: str) -> None:
        self.name = name
        self._capture = cv2.VideoCapture(target)
        if not self._capture.isOpened():
            self._capture.release()
            raise SourceError(f"{name} cannot be opened.")

    def read(self) -> np.ndarray | None:
        ok, frame = self._capture.read()
        return frame if ok else None

    def close(self) -> None:
        self._capture.release()


class Webcam(_Capture):
    def __init__(self, index: int, width: int = 1280, height: int = 720) -> None:
        super().__init__(index, f"webcam {index}")
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)


class VideoFile(_Capture):
    def __init__(self, path: str | Path) -> None:
        path = Path(path)
        if not path.is_file():
            raise SourceError(f"Video file {path} does not exist.")
        super().__init__(str(path), f"video {path}")


class PhotoFolder:
    """A folder of photos played as a virtual camera, in name order, looping if asked.

    ``fps`` paces ``read`` like a real camera would (0 = as fast as asked). A photo
    that cannot be read is skipped, so one bad file does not stop the demo.
    """

    def __init__(self, folder: str | Path, loop: bool = True, fps: float = 0.0) -> None:
        self.folder = Path(folder)
        self.name = f"photos in {self.folder}"
        if not self.folder.is_dir():
            raise SourceError(f"Photo folder {self.folder} does not exist.")
        self.paths = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)
        if not self.paths:
            raise SourceError(f"Photo folder {self.folder} holds no photos.")
        self.loop = loop
        self.fps = fps
        self._index = 0
        self._last = 0.0
        self.skipped: list[str] = []

    def read(self) -> np.ndarray | None:
        for _ in range(len(self.paths)):
            if self._index >= len(self.paths):
                if not self.loop:
                    return None
                self._index = 0
            path = self.paths[self._index]
            self._index += 1
            try:
                frame = read_image(path)
            except ImageError as error:
                self.skipped.append(str(error))
                continue
            self._pace()
            return frame
        return None

    def _pace(self) -> None:
        if self.fps > 0:
            wait = self._last + 1.0 / self.fps - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            self._last = time.monotonic()

    def close(self) -> None:
        self._index = len(self.paths)


class SinglePhoto:
    """One uploaded photo (bytes) as a source that gives its frame once."""

    def __init__(self, data: bytes, name: str = "the uploaded photo") -> None:
        self.name = name
        self._frame: np.ndarray | None = decode_image(data, name=name)

    def read(self) -> np.ndarray | None:
        frame, self._frame = self._frame, None
        return frame

    def close(self) -> None:
        self._frame = None


def open_source(spec: str | int, *, loop: bool = True, fps: float = 0.0) -> FrameSource:
    """A webcam index ("0"), a folder of photos, or a video file path."""
    if isinstance(spec, int) or (isinstance(spec, str) and spec.isdigit()):
        return Webcam(int(spec))
    path = Path(spec)
    if path.is_dir():
        return PhotoFolder(path, loop=loop, fps=fps)
    return VideoFile(path)


def frames(source: FrameSource) -> Iterator[np.ndarray]:
    """Every frame of a source until it runs out (forever for a looping folder)."""
    while (frame := source.read()) is not None:
        yield frame
