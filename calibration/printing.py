"""Writing the sheet to files a printer reproduces at true scale.

A PNG carries its resolution in a ``pHYs`` chunk (OpenCV does not write one), so that
image viewers print it at the intended size; a PDF page is exactly the paper, with the
page raster placed edge to edge. The PDF is written by hand because it is short: one
Flate-compressed grey image per page, no fonts, no dependency.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np

from calibration.drawing import MM_PER_INCH, draw_page
from calibration.layout import SheetLayout, write_layout
from companion.errors import CompanionError

DEFAULT_DPI = 300


def page_png_names(out: Path, pages: int) -> list[Path]:
    """``OUT.png`` for one page, ``OUT-1.png`` … for several (INTERFACES.md)."""
    if pages == 1:
        return [out]
    return [out.with_name(f"{out.stem}-{n}{out.suffix}") for n in range(1, pages + 1)]


def write_sheet(
    out: str | Path,
    layout: SheetLayout,
    dpi: int = DEFAULT_DPI,
    layout_out: str | Path | None = None,
) -> list[Path]:
    """Write the sheet as a PDF or PNG file(s) (by the suffix of ``out``); return the files."""
    rasters = [draw_page(page, dpi) for page in layout.pages]
    written = write_pages(out, rasters, [page.paper_mm for page in layout.pages], dpi)
    if layout_out is not None:
        png_names = None if Path(out).suffix.lower() == ".pdf" else [p.name for p in written]
        write_layout(layout_out, layout, png_names, dpi)
        written.append(Path(layout_out))
    return written


def write_pages(
    out: str | Path, rasters: list[np.ndarray], papers_mm: list[tuple[float, float]], dpi: float
) -> list[Path]:
    """Grey page rasters as one PDF, or one PNG per page (INTERFACES.md naming)."""
    out = Path(out)
    suffix = out.suffix.lower()
    if suffix not in (".pdf", ".png"):
        raise CompanionError(f"{out} must end in .pdf or .png")
    if not out.parent.is_dir():
        raise CompanionError(f"folder {out.parent} does not exist")
    if suffix == ".pdf":
        out.write_bytes(pdf_bytes(rasters, papers_mm))
        return [out]
    written = page_png_names(out, len(rasters))
    for path, raster in zip(written, rasters, strict=True):
        path.write_bytes(png_bytes(raster, dpi))
    return written


def png_bytes(image: np.ndarray, dpi: float) -> bytes:
    """PNG encoding of ``image`` with a pHYs chunk saying ``dpi``."""
    ok, encoded = cv2.imencode(".png", image, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    if not ok:
        raise CompanionError("the sheet could not be encoded as PNG")
    data = encoded.tobytes()
    per_metre = round(dpi / MM_PER_INCH * 1000)
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    ihdr_end = 8 + 4 + 4 + 13 + 4  # signature, then the IHDR chunk
    return data[:ihdr_end] + chunk + data[ihdr_end:]


def png_dpi(data: bytes) -> float | None:
    """The resolution a PNG's pHYs chunk states, or None (used to check printed files)."""
    pos = 8
    while pos + 8 <= len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        if kind == b"pHYs":
            x, _, unit = struct.unpack(">IIB", data[pos + 8 : pos + 17])
            return x * MM_PER_INCH / 1000 if unit == 1 else None
        pos += 12 + length
    return None


def pdf_bytes(rasters: list[np.ndarray], papers_mm: list[tuple[float, float]]) -> bytes:
    """A minimal PDF 1.4: one page per raster, each page the paper's exact size."""
    objects: list[bytes] = []  # object n is objects[n - 1]

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    catalog = add(b"")  # filled in once the page tree exists
    pages_id = add(b"")
    page_ids = []
    for raster, (width_mm, height_mm) in zip(rasters, papers_mm, strict=True):
        height_px, width_px = raster.shape
        pixels = zlib.compress(np.ascontiguousarray(raster).tobytes(), 9)
        image = add(
            b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
            b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n"
            % (width_px, height_px, len(pixels))
            + pixels
            + b"\nendstream"
        )
        w_pt, h_pt = width_mm / MM_PER_INCH * 72, height_mm / MM_PER_INCH * 72
        draw = b"q %.4f 0 0 %.4f 0 0 cm /Im0 Do Q" % (w_pt, h_pt)
        content = add(b"<< /Length %d >>\nstream\n" % len(draw) + draw + b"\nendstream")
        page_ids.append(
            add(
                b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %.4f %.4f] "
                b"/Resources << /XObject << /Im0 %d 0 R >> >> /Contents %d 0 R >>"
                % (pages_id, w_pt, h_pt, image, content)
            )
        )
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % pages_id
    kids = b" ".join(b"%d 0 R" % n for n in page_ids)
    objects[pages_id - 1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, len(page_ids))

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        catalog,
        xref,
    )
    return bytes(out)
