"""Artwork of our own for sample tile sets, drawn by code in several distinct styles.

Recognition must learn artwork it has never seen, so the samples deliberately differ:
square and round tiles, colour as the background or as the figure, hearts drawn as a
corner badge, an outline or a filled shape. Two styles (``ember``, ``slate``) are kept
for evaluation only: their photos show where errors come from, but no constant is
fitted to them.

Run ``python -m vision.synth.art samples/tilesets`` to (re)write the sample folders.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.bitenight.tiles import ALL_TILES, Colour, Motif, Tile
from companion.middernacht.tokens import DEFAULT_TOKEN_COLOURS
from vision.tileset import TileSet, save_tileset, with_disc_alpha

FACE_PX = 144
_SUPER = 3  # draw larger, then shrink: smooth edges without anti-aliasing every primitive

BGR = tuple[int, int, int]


@dataclass(frozen=True)
class Style:
    """How one print run draws its tiles."""

    name: str
    shape: str  # "square" | "round"
    tile_size_mm: float
    palette: dict[Colour, BGR]
    colour_is_background: bool
    paper: BGR  # the light ground (background when colour is the figure)
    ink: BGR  # outlines
    heart: str  # "badge" | "outline" | "filled"
    heart_colour: BGR
    line: float  # outline thickness in unit coordinates
    token_palette: dict[str, BGR]
    token_back: BGR
    mirror: bool = False  # figures drawn facing the other way


STYLES: dict[str, Style] = {
    "nocturne": Style(
        name="nocturne",
        shape="square",
        tile_size_mm=40,
        palette={
            Colour.BLUE: (170, 90, 30),
            Colour.RED: (45, 40, 200),
            Colour.YELLOW: (40, 200, 235),
            Colour.GREEN: (70, 150, 40),
            Colour.PURPLE: (140, 50, 120),
        },
        colour_is_background=True,
        paper=(235, 240, 245),
        ink=(30, 25, 25),
        heart="badge",
        heart_colour=(40, 30, 210),
        line=0.05,
        token_palette={
            "red": (40, 40, 200),
            "yellow": (40, 210, 240),
            "white": (235, 235, 235),
            "blue": (190, 100, 30),
            "green": (60, 160, 50),
            "black": (35, 35, 35),
        },
        token_back=(50, 80, 120),
    ),
    "lantern": Style(
        name="lantern",
        shape="round",
        tile_size_mm=38,
        palette={
            Colour.BLUE: (200, 120, 40),
            Colour.RED: (50, 50, 215),
            Colour.YELLOW: (30, 185, 225),
            Colour.GREEN: (90, 170, 60),
            Colour.PURPLE: (160, 60, 150),
        },
        colour_is_background=False,
        paper=(215, 235, 245),
        ink=(40, 40, 55),
        heart="outline",
        heart_colour=(70, 20, 110),
        line=0.04,
        token_palette={
            "red": (50, 50, 220),
            "yellow": (50, 220, 245),
            "white": (245, 245, 240),
            "blue": (210, 130, 40),
            "green": (80, 180, 60),
            "black": (30, 30, 40),
        },
        token_back=(90, 60, 60),
    ),
    "ember": Style(
        name="ember",
        shape="round",
        tile_size_mm=42,
        palette={
            Colour.BLUE: (160, 110, 20),
            Colour.RED: (30, 60, 190),
            Colour.YELLOW: (60, 215, 245),
            Colour.GREEN: (60, 130, 70),
            Colour.PURPLE: (130, 40, 100),
        },
        colour_is_background=True,
        paper=(220, 225, 230),
        ink=(20, 20, 20),
        heart="filled",
        heart_colour=(230, 230, 240),
        line=0.06,
        token_palette={
            "red": (30, 60, 190),
            "yellow": (60, 215, 245),
            "white": (225, 230, 230),
            "blue": (160, 110, 20),
            "green": (60, 130, 70),
            "black": (25, 25, 25),
        },
        token_back=(40, 40, 90),
        mirror=True,
    ),
    "slate": Style(
        name="slate",
        shape="square",
        tile_size_mm=36,
        palette={
            Colour.BLUE: (150, 80, 40),
            Colour.RED: (40, 30, 170),
            Colour.YELLOW: (50, 190, 220),
            Colour.GREEN: (50, 140, 60),
            Colour.PURPLE: (120, 40, 110),
        },
        colour_is_background=False,
        paper=(200, 215, 225),
        ink=(35, 30, 30),
        heart="outline",
        heart_colour=(40, 20, 150),
        line=0.035,
        token_palette={
            "red": (40, 30, 170),
            "yellow": (50, 190, 220),
            "white": (230, 235, 235),
            "blue": (150, 80, 40),
            "green": (50, 140, 60),
            "black": (30, 30, 30),
        },
        token_back=(70, 90, 70),
        mirror=True,
    ),
}
#: Styles used while developing; ``ember`` and ``slate`` are for evaluation only.
SAMPLE_STYLES = ("nocturne", "lantern")


class _Pen:
    """Draws in unit coordinates (-1..1 across the face) on a supersampled canvas."""

    def __init__(self, canvas: np.ndarray) -> None:
        self.canvas = canvas
        self.size = canvas.shape[0]

    def px(self, points: list[tuple[float, float]]) -> np.ndarray:
        arr = (np.asarray(points, np.float64) + 1) * self.size / 2
        return arr.round().astype(np.int32)

    def width(self, w: float) -> int:
        return max(1, round(w * self.size / 2))

    def poly(self, points, fill: BGR | None, ink: BGR | None, line: float) -> None:
        pts = self.px(points)
        if fill is not None:
            cv2.fillPoly(self.canvas, [pts], fill)
        if ink is not None:
            cv2.polylines(self.canvas, [pts], True, ink, self.width(line))

    def ellipse(self, centre, axes, fill: BGR | None, ink: BGR | None, line: float, angle=0.0):
        c = tuple(int(v) for v in self.px([centre])[0])
        ax = (max(1, int(axes[0] * self.size / 2)), max(1, int(axes[1] * self.size / 2)))
        if fill is not None:
            cv2.ellipse(self.canvas, c, ax, angle, 0, 360, fill, -1)
        if ink is not None:
            cv2.ellipse(self.canvas, c, ax, angle, 0, 360, ink, self.width(line))

    def lines(self, points, ink: BGR, line: float) -> None:
        cv2.polylines(self.canvas, [self.px(points)], False, ink, self.width(line))


def _vampire(pen: _Pen, fill: BGR, ink: BGR, line: float, paper: BGR) -> None:
    # high collar cape, head, widow's peak, fangs
    pen.poly(
        [(-0.62, 0.7), (-0.5, -0.05), (-0.2, 0.2), (0.2, 0.2), (0.5, -0.05), (0.62, 0.7)],
        fill,
        ink,
        line,
    )
    pen.ellipse((0, -0.12), (0.26, 0.32), paper, ink, line)
    pen.poly(
        [(-0.26, -0.2), (-0.2, -0.42), (0, -0.3), (0.2, -0.42), (0.26, -0.2), (0, -0.36)],
        ink,
        None,
        line,
    )
    pen.poly([(-0.1, 0.06), (-0.06, 0.18), (-0.02, 0.06)], ink, None, line)
    pen.poly([(0.02, 0.06), (0.06, 0.18), (0.1, 0.06)], ink, None, line)


def _monk(pen: _Pen, fill: BGR, ink: BGR, line: float, paper: BGR) -> None:
    # hooded robe, face in shadow, rope belt, hands together
    pen.poly(
        [
            (-0.5, 0.72),
            (-0.3, -0.1),
            (-0.3, -0.35),
            (0, -0.62),
            (0.3, -0.35),
            (0.3, -0.1),
            (0.5, 0.72),
        ],
        fill,
        ink,
        line,
    )
    pen.ellipse((0, -0.22), (0.16, 0.2), paper, ink, line)
    pen.lines([(-0.36, 0.3), (0.36, 0.3)], ink, line)
    pen.lines([(0.1, 0.3), (0.14, 0.6)], ink, line)
    pen.ellipse((0, 0.12), (0.1, 0.08), paper, ink, line)


def _maiden(pen: _Pen, fill: BGR, ink: BGR, line: float, paper: BGR) -> None:
    # bell dress, long hair, round face
    pen.poly([(-0.58, 0.72), (-0.16, 0.0), (0.16, 0.0), (0.58, 0.72)], fill, ink, line)
    pen.ellipse((0, -0.3), (0.3, 0.34), fill, ink, line)
    pen.ellipse((0, -0.28), (0.18, 0.22), paper, ink, line)
    pen.ellipse((0, 0.36), (0.08, 0.08), paper, ink, line)


def _coffin(pen: _Pen, fill: BGR, ink: BGR, line: float, paper: BGR) -> None:
    # six-sided box with a cross on the lid
    pen.poly(
        [(-0.22, -0.7), (0.22, -0.7), (0.4, -0.35), (0.24, 0.72), (-0.24, 0.72), (-0.4, -0.35)],
        fill,
        ink,
        line,
    )
    pen.poly(
        [
            (-0.05, -0.45),
            (0.05, -0.45),
            (0.05, -0.25),
            (0.18, -0.25),
            (0.18, -0.15),
            (0.05, -0.15),
            (0.05, 0.3),
            (-0.05, 0.3),
            (-0.05, -0.15),
            (-0.18, -0.15),
            (-0.18, -0.25),
            (-0.05, -0.25),
        ],
        paper,
        ink,
        line * 0.5,
    )


def _garlic(pen: _Pen, fill: BGR, ink: BGR, line: float, paper: BGR) -> None:
    # bulb of cloves with a stem and roots
    pen.ellipse((0, 0.18), (0.5, 0.46), fill, ink, line)
    pen.ellipse((-0.2, 0.2), (0.16, 0.38), None, ink, line * 0.7)
    pen.ellipse((0.2, 0.2), (0.16, 0.38), None, ink, line * 0.7)
    pen.poly([(-0.08, -0.25), (0, -0.7), (0.08, -0.25)], fill, ink, line)
    for dx in (-0.15, 0.0, 0.15):
        pen.lines([(dx, 0.62), (dx * 1.6, 0.78)], ink, line * 0.7)


_DRAW: dict[Motif, Callable[..., None]] = {
    Motif.VAMPIRE: _vampire,
    Motif.MONK: _monk,
    Motif.MAIDEN: _maiden,
    Motif.COFFIN: _coffin,
    Motif.GARLIC: _garlic,
}


def _heart_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    points = []
    for i in range(40):
        t = 2 * math.pi * i / 40
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        points.append((cx + r * x / 16, cy - r * y / 16))
    return points


def _draw_heart(pen: _Pen, style: Style, colour: BGR) -> None:
    if style.heart == "badge":  # a white disc in the top-right corner with a red heart
        pen.ellipse((0.68, -0.68), (0.24, 0.24), style.paper, style.ink, style.line * 0.6)
        pen.poly(_heart_points(0.68, -0.66, 0.16), style.heart_colour, None, 0)
    elif style.heart == "outline":  # a heart outline at the bottom
        pen.poly(_heart_points(0, 0.6, 0.2), None, style.heart_colour, style.line * 1.2)
    else:  # a filled light heart on the chest
        pen.poly(_heart_points(0.0, 0.42, 0.17), style.heart_colour, style.ink, style.line * 0.5)


def draw_face(style: Style, tile: Tile, px: int = FACE_PX) -> np.ndarray:
    """One tile face as a BGRA image (alpha 0 outside the disc for round styles)."""
    size = px * _SUPER
    colour = style.palette[tile.colour]
    background = colour if style.colour_is_background else style.paper
    figure = style.paper if style.colour_is_background else colour
    canvas = np.zeros((size, size, 3), np.uint8)
    canvas[:] = background
    pen = _Pen(canvas)
    inner_paper = style.paper if not style.colour_is_background else _mix(style.paper, colour, 0.15)
    _DRAW[tile.motif](
        pen,
        figure,
        style.ink,
        style.line,
        inner_paper if style.colour_is_background else _mix(style.paper, colour, 0.25),
    )
    if tile.heart:
        _draw_heart(pen, style, colour)
    _frame(pen, style, colour)
    if style.mirror:
        canvas = canvas[:, ::-1]
    face = cv2.resize(canvas, (px, px), interpolation=cv2.INTER_AREA)
    face = cv2.cvtColor(face, cv2.COLOR_BGR2BGRA)
    return with_disc_alpha(face) if style.shape == "round" else face


def _frame(pen: _Pen, style: Style, colour: BGR) -> None:
    if style.shape == "round":
        pen.ellipse(
            (0, 0), (0.97, 0.97), None, style.ink if style.colour_is_background else colour, 0.05
        )
    else:
        pen.poly(
            [(-0.97, -0.97), (0.97, -0.97), (0.97, 0.97), (-0.97, 0.97)],
            None,
            colour if not style.colour_is_background else style.ink,
            0.04,
        )


def _mix(a: BGR, b: BGR, t: float) -> BGR:
    return tuple(round((1 - t) * x + t * y) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def draw_token(style: Style, colour: BGR, px: int = 112) -> np.ndarray:
    """A vampire token face: a coloured disc with a bat."""
    size = px * _SUPER
    canvas = np.zeros((size, size, 3), np.uint8)
    canvas[:] = colour
    pen = _Pen(canvas)
    light = sum(colour) > 450
    mark = (40, 40, 40) if light else (235, 235, 235)
    pen.ellipse((0, 0), (0.94, 0.94), None, mark, 0.06)
    pen.poly(
        [
            (-0.7, -0.1),
            (-0.35, -0.3),
            (-0.12, -0.12),
            (0, -0.3),
            (0.12, -0.12),
            (0.35, -0.3),
            (0.7, -0.1),
            (0.4, 0.05),
            (0.3, 0.25),
            (0.12, 0.12),
            (0, 0.3),
            (-0.12, 0.12),
            (-0.3, 0.25),
            (-0.4, 0.05),
        ],
        mark,
        None,
        0,
    )
    face = cv2.cvtColor(
        cv2.resize(canvas, (px, px), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2BGRA
    )
    return with_disc_alpha(face)


def draw_token_back(style: Style, px: int = 112) -> np.ndarray:
    """The plain back every token shares: a crescent moon on the back colour."""
    size = px * _SUPER
    canvas = np.zeros((size, size, 3), np.uint8)
    canvas[:] = style.token_back
    pen = _Pen(canvas)
    pale = (200, 225, 235)
    pen.ellipse((0, 0), (0.5, 0.5), pale, None, 0)
    pen.ellipse((0.22, -0.12), (0.42, 0.42), style.token_back, None, 0)
    pen.ellipse((0, 0), (0.94, 0.94), None, pale, 0.05)
    face = cv2.cvtColor(
        cv2.resize(canvas, (px, px), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2BGRA
    )
    return with_disc_alpha(face)


def make_tileset(style: Style) -> TileSet:
    return TileSet(
        name=style.name,
        tile_shape=style.shape,  # type: ignore[arg-type]
        tile_size_mm=style.tile_size_mm,
        faces={tile: draw_face(style, tile) for tile in ALL_TILES},
        token_faces={
            name: draw_token(style, style.token_palette[name]) for name in DEFAULT_TOKEN_COLOURS
        },
        token_back=draw_token_back(style),
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Write the sample tile sets drawn by code.")
    parser.add_argument("out", type=Path, help="folder to write <style>/ tile sets into")
    parser.add_argument("--styles", default=",".join(SAMPLE_STYLES))
    args = parser.parse_args(argv)
    for name in args.styles.split(","):
        save_tileset(make_tileset(STYLES[name]), args.out / name)
        print(f"wrote {args.out / name}")


if __name__ == "__main__":
    main()
