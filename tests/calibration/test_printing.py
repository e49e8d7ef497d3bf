"""Printing the sheet: PNG pages named as INTERFACES.md says, a PDF at true scale."""

from __future__ import annotations

import json
import re

import cv2
import numpy as np

from calibration.layout import Paper, build_layout
from calibration.printing import page_png_names, pdf_bytes, png_dpi
from companion.cli import main


def test_several_pages_get_numbered_png_names(tmp_path) -> None:
    assert main(["calibration", "sheet", str(tmp_path / "sheet.png"), "--dpi", "100"]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["sheet-1.png", "sheet-2.png", "sheet-3.png"]


def test_a_single_page_keeps_the_plain_name(tmp_path) -> None:
    assert page_png_names(tmp_path / "out.png", 1) == [tmp_path / "out.png"]


def test_png_pages_print_at_true_scale(tmp_path) -> None:
    main(["calibration", "sheet", str(tmp_path / "s.png"), "--paper", "letter", "--dpi", "100"])
    data = (tmp_path / "s-1.png").read_bytes()
    assert round(png_dpi(data)) == 100
    height, width = cv2.imread(str(tmp_path / "s-1.png")).shape[:2]
    assert (width, height) == (round(279.4 / 25.4 * 100), round(215.9 / 25.4 * 100))


def test_the_pdf_has_every_page_at_the_papers_size_in_points(tmp_path) -> None:
    out = tmp_path / "sheet.pdf"
    assert main(["calibration", "sheet", str(out), "--tile-size", "32", "--dpi", "100"]) == 0
    data = out.read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    boxes = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)
    assert len(boxes) == 3
    for width, height in boxes:  # compact sheet: A4 portrait, 595.28 × 841.89 pt
        assert abs(float(width) - 595.28) < 0.01 and abs(float(height) - 841.89) < 0.01


def test_the_pdf_cross_reference_points_at_every_object() -> None:
    layout = build_layout(Paper.A4, 40)
    rasters = [np.full((40, 50), 255, np.uint8) for _ in layout.pages]
    data = pdf_bytes(rasters, [page.paper_mm for page in layout.pages])
    start = int(re.search(rb"startxref\n(\d+)", data).group(1))
    table = data[start:].split(b"trailer")[0].split(b"\n")[3:]
    offsets = [int(line[:10]) for line in table if line.strip()]
    for number, offset in enumerate(offsets, 1):
        assert data[offset:].startswith(b"%d 0 obj" % number)


def test_the_layout_file_names_the_png_pages(tmp_path) -> None:
    main(
        [
            "calibration",
            "sheet",
            str(tmp_path / "s.png"),
            "--layout",
            str(tmp_path / "s.json"),
            "--dpi",
            "100",
        ]
    )
    data = json.loads((tmp_path / "s.json").read_text())
    assert [page["png"] for page in data["pages"]] == ["s-1.png", "s-2.png", "s-3.png"]


def test_a_wrong_suffix_is_refused_and_writes_nothing(tmp_path, capsys) -> None:
    assert main(["calibration", "sheet", str(tmp_path / "sheet.jpg")]) == 1
    assert "must end in .pdf or .png" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())
