"""Reading images safely: every photo comes from outside and may be anything.

A phone upload or a file on the command line may be empty, truncated, not an image at
all, or a decompression bomb (a small file that decodes to gigapixels). The header is
read first, so that a picture too large to hold is refused before a single pixel is
allocated; whatever fails becomes one :class:`ImageError` sentence.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.errors import CompanionError

#: Largest upload accepted, in bytes (a phone JPEG is a few MB).
MAX_FILE_BYTES = 40 * 1024 * 1024
#: Largest decoded picture accepted, in pixels (a 48 MP phone sensor fits).
MAX_PIXELS = 50_000_000
#: Smallest side worth looking at.
MIN_SIDE = 16


class ImageError(CompanionError):
    """A picture that cannot be used: unreadable, too small, too large, or not an image."""


@dataclass(frozen=True)
class ImageHeader:
    """What the first bytes of a file say, before anything is decoded."""

    format: str
    width: int
    height: int


def read_header(data: bytes) -> ImageHeader | None:
    """The format and size from a PNG, JPEG, BMP or WebP header, or None if not recognised."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return ImageHeader("PNG", width, height)
    if data.startswith(b"\xff\xd8"):
        return _jpeg_header(data)
    if data.startswith(b"BM") and len(data) >= 26:
        width, height = struct.unpack("<ii", data[18:26])
        return ImageHeader("BMP", abs(width), abs(height))
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP" and len(data) >= 30:
        return _webp_header(data)
    return None


def _signature(data: bytes) -> str | None:
    """The format a file claims by its first bytes, even if the rest is cut off."""
    if data.startswith(b"\x89PNG"):
        return "PNG"
    if data.startswith(b"\xff\xd8"):
        return "JPEG"
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return "WebP"
    return None


def _jpeg_header(data: bytes) -> ImageHeader | None:
    """Walk the JPEG markers up to the first start-of-frame, which holds the size."""
    pos = 2
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            return None
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            pos += 2
            continue
        (length,) = struct.unpack(">H", data[pos + 2 : pos + 4])
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            if pos + 9 > len(data):
                return None
            height, width = struct.unpack(">HH", data[pos + 5 : pos + 9])
            return ImageHeader("JPEG", width, height)
        pos += 2 + length
    return None


def _webp_header(data: bytes) -> ImageHeader | None:
    chunk = data[12:16]
    if chunk == b"VP8 " and len(data) >= 30:
        width, height = struct.unpack("<HH", data[26:30])
        return ImageHeader("WebP", width & 0x3FFF, height & 0x3FFF)
    if chunk == b"VP8L" and len(data) >= 25:
        bits = int.from_bytes(data[21:25], "little")
        return ImageHeader("WebP", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
    if chunk == b"VP8X" and len(data) >= 30:
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return ImageHeader("WebP", width, height)
    return None


def decode_image(
    data: bytes,
    *,
    name: str = "the image",
    keep_alpha: bool = False,
    max_pixels: int = MAX_PIXELS,
    max_bytes: int = MAX_FILE_BYTES,
) -> np.ndarray:
    """Decode uploaded bytes to a BGR (or BGRA) uint8 array, or raise one ImageError sentence.

    The size is checked from the header before decoding, so a decompression bomb costs
    nothing; the decoded array is checked again in case the header lied.
    """
    if not data:
        raise ImageError(f"{name} is empty.")
    if len(data) > max_bytes:
        raise ImageError(f"{name} is larger than {max_bytes // (1024 * 1024)} MB.")
    header = read_header(data)
    if header is None:
        known = _signature(data)
        if known:
            raise ImageError(f"{name} is a damaged {known} file that cannot be decoded.")
        raise ImageError(f"{name} is not a PNG, JPEG, BMP or WebP picture.")
    _check_size(header.width, header.height, name, max_pixels)
    flags = cv2.IMREAD_UNCHANGED if keep_alpha else cv2.IMREAD_COLOR
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    except cv2.error:
        image = None
    if image is None:
        raise ImageError(f"{name} is a damaged {header.format} file that cannot be decoded.")
    _check_size(image.shape[1], image.shape[0], name, max_pixels)
    return _to_uint8_colour(image, keep_alpha)


def read_image(
    path: str | Path, *, keep_alpha: bool = False, max_pixels: int = MAX_PIXELS
) -> np.ndarray:
    """Read a picture file through :func:`decode_image`, naming the file in any error."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ImageError(f"{path} is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB.")
        data = path.read_bytes()
    except FileNotFoundError:
        raise ImageError(f"{path} does not exist.") from None
    except IsADirectoryError:
        raise ImageError(f"{path} is a folder, not a picture.") from None
    except OSError as error:
        raise ImageError(f"{path} cannot be read ({error.strerror or error}).") from None
    return decode_image(data, name=str(path), keep_alpha=keep_alpha, max_pixels=max_pixels)


def _check_size(width: int, height: int, name: str, max_pixels: int) -> None:
    if width < MIN_SIDE or height < MIN_SIDE:
        raise ImageError(f"{name} is only {width}×{height} pixels, too small to show anything.")
    if width * height > max_pixels:
        megapixels = width * height / 1e6
        raise ImageError(
            f"{name} has {megapixels:.0f} megapixels, more than the {max_pixels / 1e6:.0f} "
            "accepted; send a smaller picture."
        )


def _to_uint8_colour(image: np.ndarray, keep_alpha: bool) -> np.ndarray:
    """Bring 16-bit, grey and palette pictures to 8-bit BGR(A)."""
    if image.dtype == np.uint16:
        image = (image >> 8).astype(np.uint8)
    elif image.dtype != np.uint8:
        image = cv2.normalize(image, None, 0, 255, cv2.NORM_MINMAX).astype(np.uint8)
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4 and not keep_alpha:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if keep_alpha and image.shape[2] == 3:
        image = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
    return np.ascontiguousarray(image)
