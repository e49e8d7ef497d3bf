"""Photos from outside: every bad file is one clear sentence, never a crash or a
giant allocation."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.imageio import ImageError, decode_image, read_header, read_image


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG whose header claims a size, with no real pixel data behind it."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = struct.pack(">I", len(ihdr)) + b"IHDR" + ihdr
    chunk += struct.pack(">I", zlib.crc32(b"IHDR" + ihdr) & 0xFFFFFFFF)
    return b"\x89PNG\r\n\x1a\n" + chunk


def test_an_empty_file_is_refused():
    with pytest.raises(ImageError, match="is empty"):
        decode_image(b"", name="upload")


def test_a_non_image_is_refused():
    with pytest.raises(ImageError, match="is not a PNG, JPEG, BMP or WebP picture"):
        decode_image(b"%PDF-1.7 not a photo at all", name="upload")


def test_a_corrupt_jpeg_is_refused():
    ok, data = cv2.imencode(".jpg", np.full((64, 64, 3), 128, np.uint8))
    assert ok
    with pytest.raises(ImageError, match="damaged JPEG"):
        decode_image(data.tobytes()[:40], name="upload")


def test_a_one_pixel_image_is_refused():
    _, data = cv2.imencode(".png", np.zeros((1, 1, 3), np.uint8))
    with pytest.raises(ImageError, match=r"only 1×1 pixels"):
        decode_image(data.tobytes(), name="upload")


def test_a_100_megapixel_image_is_refused_from_its_header():
    data = _png_header_only(12_500, 8_000)
    assert read_header(data).width == 12_500
    with pytest.raises(ImageError, match="100 megapixels"):
        decode_image(data, name="upload")


def test_jpeg_size_is_read_from_its_header():
    _, data = cv2.imencode(".jpg", np.zeros((48, 80, 3), np.uint8))
    header = read_header(data.tobytes())
    assert (header.format, header.width, header.height) == ("JPEG", 80, 48)


def test_grey_and_16_bit_photos_become_8_bit_colour(tmp_path: Path):
    grey16 = (np.arange(64 * 64, dtype=np.uint16).reshape(64, 64) * 16).astype(np.uint16)
    path = tmp_path / "grey16.png"
    cv2.imwrite(str(path), grey16)
    image = read_image(path)
    assert image.dtype == np.uint8 and image.shape == (64, 64, 3)


def test_a_missing_file_and_a_folder_are_named(tmp_path: Path):
    with pytest.raises(ImageError, match="does not exist"):
        read_image(tmp_path / "nothing.jpg")
    with pytest.raises(ImageError, match="is a folder"):
        read_image(tmp_path)
