"""Tile sets drawn unlike the samples, to check that recognition generalises.

The samples (`vision.synth.art`) and the held-out styles drawn by the same code share
its habits. These were drawn by separate, plainer code, each unlike the others, and
measured at the start of a session before anyone studied them (docs/vision.md, "Figures"):

* ``runes``: square; the colour as ground, a white letter as the figure, a red heart
  in a corner.
* ``coins``: round; cream, a coloured geometric figure, a small outline heart at the rim.
* ``stamp``: square; white paper, a black figure, the colour only in a thin frame.
* ``pebble``: round; a radial ground of the colour, white line art, a pale heart.
* ``mosaic``: square; a striped ground of the colour, a dark figure in a white disc.
* ``ring``: round; cream, a coloured ring near the rim, a black figure and heart.
* ``tarot``: square; a dark ground, the figure drawn as a coloured line, a coloured heart.
* ``button``: round; the colour on the upper half, white below, a small black figure
  across the line, a white heart.
* ``halftone``: square; the colour as a screen of dots on white, a black line figure,
  an outline heart in a corner.
* ``pinwheel``: round; four coloured wedges, a black figure in a white middle, a red
  heart below it.
* ``diagonal``: square; the colour in one half cut corner to corner, dark slate in the
  other, a white line figure across both, a white heart in the dark corner.
* ``sticker``: round; the colour as ground round a white square label that holds the
  figure in the colour, a white heart on the ground above the label.
* ``inkwash``: square; white fading into the colour from top to bottom, a dark filled
  figure, a white heart outlined dark in the top corner.
* ``moonrise``: round; the colour as ground, a pale full moon behind a dark filled
  figure, a dark outline heart low beside it.
* ``quilt``: square; a four-by-four checker of the colour and cream, a thick black
  outline figure, a black heart in a white disc in the lower left corner.
* ``compass``: round; white, a coloured band round the rim, the figure filled in the
  colour, the heart a white heart cut out of the band at the top.
* ``glow``: square; the colour bright in the middle and dark at the edges, a white
  filled figure outlined black, a black heart at the top middle.
* ``hatch``: round; white hatched with diagonal lines of the colour, a black filled
  figure, a red heart on the right whatever the colour.
* ``banner``: square; a grey ground crossed by a band of the colour, a black figure
  standing out of the band, a heart in the colour outlined black top right.
* ``seal``: round; the colour as ground with a darker ring, the figure a pale tint of
  the colour outlined darker, a white heart at the bottom.
* ``stencil``: square; a wide frame of the colour round a cream middle, the figure in a
  dark shade of the colour, a small black heart low on the left.
* ``petal``: round; six coloured petals on cream round a white middle holding a small
  black outline figure, a black heart at the top between the petals.
* ``woodcut``: square with rounded corners in a white die-cut margin; a thick dark
  border round paper-grain quadrants, the colour in the top-left and bottom-right; a
  black figure cut by thin white gouges; a white heart in a dark diamond on the top border.
* ``orbit``: round; pale concentric rings round a point low in the face, the colour as a
  crescent over the top; the figure low, dark over a shadow in the colour; a pair of small
  white hearts outlined dark in the crescent.
* ``vesper``: square; the colour at the top darkening evenly to near black at the bottom;
  a dark figure in a pale die-cut margin; the heart a large thin pale outline framing it.
* ``rosary``: round; pale grey, the colour only in a string of glossy beads round the rim;
  a dark figure with a pale line inside its edge; the heart a dark bead in place of the top one.
* ``aquarelle``: square; textured paper with an uneven watercolour wash of the colour,
  darker where it pooled at its edge; the figure bare paper in the wash, drawn round with a
  thin sepia pen line; the heart three small sepia hearts in a row at the foot.
* ``whorl``: round; pastel tints on cream, the colour as a spiral of dashes round a disc of
  it; a white figure with a hard dark drop shadow; the heart die-cut out of the foot, its
  point through the rim, so the table shows through it.
* ``gesso``: square; a plaster cast all in the colour, the figure raised from a sunken field
  in a raised frame, shown only by light and shade; the heart pressed into the lower right.
* ``arcade``: round; coarse pixel art, a starry night ground, the figure a sprite in the
  colour outlined pale; the heart a pale pink pixel heart below it.
* ``leaded``: square; stained glass, black lead lines cutting the face into irregular panes
  in tints and shades of the colour, some nearly clear, all mottled; the figure a pane of
  dark glass; the heart a small ruby pane in the top left corner, red even on red.
* ``stitch``: round; an embroidered patch, bare linen weave in a thick satin-stitched edge of
  the colour; the figure satin-stitched in the colour, threads on a slant, a little left;
  the heart a small cross-stitched heart in dark floss to its right.
* ``papercut``: square; layered paper, sheets with wavy windows paler outwards to the colour
  at the bottom, each casting a soft shadow; the figure cut from cream paper on the colour;
  the heart cut from a deep shade of the colour, pasted over the sheets top left.
* ``bottlecap``: round; a glossy crown cap in the colour seen from above, its crimped rim of
  21 lit and shaded flutes (so its outline is toothed, not a circle); the figure printed
  cream with a dark keyline; the heart a heart-shaped gap in the print, bare grey metal.
* ``tartan``: square; a woven tartan of the colour crossed by deep-shade bands and thin pale
  and black lines in a diagonal twill; the figure a cream felt patch sewn on with a dark
  running stitch; the heart a black felt patch stitched in cream, low on the right.
* ``chip``: round; a clay poker chip from above, the colour with six white edge spots round
  the rim and a thin white ring; the figure printed dark on a cream inlay, left of the middle;
  the heart a small heart in the colour beside it; a soft gloss over the upper left.
* ``azulejo``: square, corners slightly rounded; a glazed ceramic tile, cream glaze crazed by
  fine cracks, blue-grey corner ornaments shared by all faces, a gloss streak top right; the
  figure hand-painted in the colour, uneven, outlined darker; the heart painted top left.
* ``vinyl``: round; a black record from above, fine grooves, a bow-tie sheen and a spindle
  hole; the colour only on the centre label (45 % across), the figure printed white on it
  (black on yellow); the heart a small heart of the figure's ink on the label's top rim.
* ``terrazzo``: square, sharp corners, a thin bevel; a polished terrazzo slab, a mid-tone
  cement of the colour strewn with small irregular chips of white, grey, black and a few
  other stones; the figure an inlay of smooth off-white stone in a thin dark brass strip;
  the heart a small brass inlay at the foot; a faint broad polish over the upper left.
* ``cookie``: round, its outline a little out of round; a golden biscuit from above,
  crumbly, browner and cracked at its baked rim; the middle (75 % across) flooded with
  glossy icing in the colour, its edge wavy; the figure piped over it in white lines, not
  filled; the heart a small white piped outline to its right.
* ``brick``: square, corners slightly rounded; a toy construction plate in the colour seen
  from above, a four-by-four grid of round studs lit from the upper left, each casting a
  soft shadow down and right; the figure a white decal printed flat over the studs, which
  show through it; the heart a red outlined heart on a small white decal top right.
* ``clock``: round; a clock dial, off-white enamel with twelve dark hour ticks and a
  brushed metal rim; the figure filled in the colour with a darker outline; two thin black
  hands cross it at a different time on every face; the heart a tiny heart in the colour
  below the 12 o'clock tick; a faint reflection in the glass at the upper left.
* ``marquetry``: square; wood inlay, the ground a pale figured veneer whose strong wavy
  grain is another piece of wood on every face, a cross-banded edge and an ebony and holly
  stringing; the figure a veneer stained in the colour, its grain across the ground's, in a
  dark knife cut; the heart a small mother-of-pearl inlay low on the right.
* ``doily``: round; a white paper lace doily with a scalloped edge laid on a card of the
  colour, which shows only past the scallops and through rings of pierced holes; the figure
  a black paper silhouette pasted on, pricked along a line inside its edge so that the
  colour shows through in dots; the heart a small heart of gold foil above it.
* ``riso``: square; a two-drum risograph print on warm recycled paper, grainy ink flecked
  with bare paper and streaked along the drum; the colour a block inside a paper margin with
  the figure knocked out, printed off register (shifted up to 3 % and turned up to 1.5°,
  another way on every face), so a sliver of bare paper shows on one side of the black
  figure and the black overprints the colour on the other; the heart black, top right.
* ``wax``: round; a blob of glossy sealing wax in the colour, its outline never round (a
  wobble and two or three runs, another on every face), a seal pressed flat into it with a
  squeezed-up lip and a raised ring; the figure raised by the seal, shown only by light,
  shade and gloss; the heart a small raised heart above it.
* ``neon``: square; a neon sign on a brick wall painted near black, each brick another
  shade; the figure only its outline, bent in one glass tube of the colour, white-hot along
  its core, its light blooming over the wall, painted out for a short stretch (another place
  on every face); the heart a small cold-white tube top right.
* ``cabochon``: round; a glass dome in a twisted brass bezel over a print, the colour a paper
  printed with a faint lattice; the figure printed black, magnified by the glass some 1.5
  times and squeezed towards its rim, each colour bent a little apart there, the dome glued a
  little off the print's middle (so the figure bends another way on every face); a window's
  four panes and a lamp's glint reflected in the glass; the heart a small cream heart low down.

Once a session has looked at a style's errors it is no longer unseen: the next session
should draw new ones here, unlike all of these.

Run ``python -m vision.synth.check_styles OUT [--styles stamp,pebble]``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from companion.bitenight.tiles import ALL_TILES, Colour, Motif, Tile
from companion.middernacht.tokens import DEFAULT_TOKEN_COLOURS
from vision.tileset import TileSet, save_tileset, with_disc_alpha

PX = 160  # face size
S = 4  # drawn this many times larger, then shrunk
BGR = tuple[int, int, int]
_AA = cv2.LINE_AA

# -- shared strokes -----------------------------------------------------------------------


def _heart(img: np.ndarray, cx: float, cy: float, r: float, colour: BGR, thick: int = -1) -> None:
    t = np.linspace(0, 2 * np.pi, 60)
    x = 16 * np.sin(t) ** 3
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
    pts = np.stack([cx + x / 17 * r, cy + y / 17 * r], 1).astype(np.int32)
    if thick < 0:
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
    else:
        cv2.polylines(img, [pts], True, colour, thick, cv2.LINE_AA)


def _star(n: int, outer: float, inner: float) -> np.ndarray:
    angles = np.linspace(-np.pi / 2, 1.5 * np.pi, 10, endpoint=False)
    radii = np.where(np.arange(10) % 2 == 0, outer, inner) * n
    return np.stack([n / 2 + radii * np.cos(angles), n / 2 + radii * np.sin(angles)], 1)


def _shrunk(img: np.ndarray, size: int = PX) -> np.ndarray:
    small = cv2.resize(img, (size, size), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(small, cv2.COLOR_BGR2BGRA)


def _silhouette(
    img: np.ndarray, motif: Motif, n: int, colour: BGR, fill: bool = True, thick: int = 1
) -> None:
    """A plain figure per motif (a bat, a hooded monk, a maiden, a coffin, a bulb)."""

    def poly(pts: list[list[float]]) -> None:
        points = (np.array(pts, np.float32) * n).astype(np.int32)
        if fill:
            cv2.fillPoly(img, [points], colour, cv2.LINE_AA)
        else:
            cv2.polylines(img, [points], True, colour, thick, cv2.LINE_AA)

    def circle(x: float, y: float, r: float) -> None:
        centre = (int(x * n), int(y * n))
        cv2.circle(img, centre, int(r * n), colour, -1 if fill else thick, cv2.LINE_AA)

    if motif == Motif.VAMPIRE:
        poly(
            [
                [0.5, 0.42],
                [0.62, 0.32],
                [0.8, 0.3],
                [0.72, 0.42],
                [0.78, 0.55],
                [0.62, 0.5],
                [0.5, 0.62],
                [0.38, 0.5],
                [0.22, 0.55],
                [0.28, 0.42],
                [0.2, 0.3],
                [0.38, 0.32],
            ]
        )
    elif motif == Motif.MONK:
        circle(0.5, 0.35, 0.1)
        poly([[0.38, 0.45], [0.62, 0.45], [0.7, 0.75], [0.3, 0.75]])
    elif motif == Motif.MAIDEN:
        circle(0.5, 0.3, 0.08)
        poly([[0.5, 0.4], [0.68, 0.75], [0.32, 0.75]])
    elif motif == Motif.COFFIN:
        poly([[0.42, 0.22], [0.58, 0.22], [0.66, 0.38], [0.58, 0.78], [0.42, 0.78], [0.34, 0.38]])
    else:
        circle(0.5, 0.56, 0.17)
        poly([[0.46, 0.42], [0.54, 0.42], [0.5, 0.22]])


def _shrunk_figure(motif: Motif, n: int, zoom: float) -> np.ndarray:
    """Where a figure's ink lies when drawn ``zoom`` times its size about the middle."""
    figure = np.full((n, n, 3), 255, np.uint8)
    _silhouette(figure, motif, n, (0, 0, 0))
    small = cv2.resize(figure, None, fx=zoom, fy=zoom)
    off = (n - small.shape[0]) // 2
    ink = np.zeros((n, n), bool)
    ink[off : off + small.shape[0], off : off + small.shape[1]] = small[..., 0] < 128
    return ink


def _fangs(n: int, xs: tuple[float, ...], half: float, top: float, tip: float) -> np.ndarray:
    """Two fangs on an n-px face as a mask: triangles hanging from ``top`` to ``tip``,
    ``half`` wide each side of each of ``xs`` (all shares of the face's side)."""
    drawn = np.zeros((n, n), np.uint8)
    for x in xs:
        pts = np.array([[x - half, top], [x + half, top], [x, tip]]) * n
        cv2.fillPoly(drawn, [pts.astype(np.int32)], 255, _AA)
    return drawn > 127


def _token_palette(tiles: dict[Colour, BGR], black: BGR, white: BGR) -> dict[str, BGR]:
    """Token colours: the tiles' own four, and a black and a white."""
    shared = {c.value: tiles[c] for c in (Colour.RED, Colour.BLUE, Colour.GREEN, Colour.YELLOW)}
    return {"black": black, "white": white, **shared}


# -- runes and coins ------------------------------------------------------------------------

_COL_A: dict[Colour, BGR] = {
    Colour.BLUE: (170, 90, 30),
    Colour.RED: (40, 40, 200),
    Colour.YELLOW: (40, 200, 235),
    Colour.GREEN: (70, 160, 60),
    Colour.PURPLE: (150, 60, 140),
}
_TOK_A = _token_palette(_COL_A, black=(40, 40, 40), white=(235, 235, 235))
_GLYPH = {Motif.VAMPIRE: "V", Motif.MONK: "M", Motif.MAIDEN: "Q", Motif.COFFIN: "#"}


def _runes(tile: Tile) -> np.ndarray:
    n = PX * S
    img = np.zeros((n, n, 3), np.uint8)
    c = np.array(_COL_A[tile.colour], np.float32)
    shade = np.linspace(0.8, 1.15, n)[:, None, None]
    img[:] = np.clip(c[None, None] * shade, 0, 255).astype(np.uint8)
    cv2.rectangle(img, (6 * S, 6 * S), (n - 6 * S, n - 6 * S), (245, 245, 245), 3 * S)
    glyph = _GLYPH.get(tile.motif, "&")
    (w, h), _ = cv2.getTextSize(glyph, cv2.FONT_HERSHEY_TRIPLEX, 3.2 * S, 9 * S)
    where = ((n - w) // 2, (n + h) // 2)
    white = (250, 250, 250)
    cv2.putText(img, glyph, where, cv2.FONT_HERSHEY_TRIPLEX, 3.2 * S, white, 9 * S, cv2.LINE_AA)
    if tile.heart:
        ink = (30, 20, 230) if tile.colour != Colour.RED else (250, 250, 250)
        _heart(img, 30 * S, 32 * S, 14 * S, ink)
    return _shrunk(img)


def _coin_figure(img: np.ndarray, motif: Motif, n: int, colour: BGR, ink: BGR) -> None:
    c = n // 2
    paper = (225, 235, 240)
    if motif == Motif.VAMPIRE:
        pts = _star(n, 0.34, 0.15).astype(np.int32)
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
        cv2.polylines(img, [pts], True, ink, n // 60, cv2.LINE_AA)
    elif motif == Motif.MONK:
        cv2.circle(img, (c, c), int(0.3 * n), colour, -1, cv2.LINE_AA)
        cv2.circle(img, (int(c + 0.12 * n), int(c - 0.05 * n)), int(0.26 * n), paper, -1, _AA)
        cv2.circle(img, (c, c), int(0.3 * n), ink, n // 60, cv2.LINE_AA)
    elif motif == Motif.MAIDEN:
        pts = c + n * np.array([[0, -0.33], [0.28, 0], [0, 0.33], [-0.28, 0]])
        cv2.fillPoly(img, [pts.astype(np.int32)], colour, cv2.LINE_AA)
        cv2.polylines(img, [pts.astype(np.int32)], True, ink, n // 60, cv2.LINE_AA)
    elif motif == Motif.COFFIN:
        cv2.circle(img, (c, c), int(0.3 * n), colour, int(0.09 * n), cv2.LINE_AA)
        cv2.circle(img, (c, c), int(0.08 * n), colour, -1, cv2.LINE_AA)
    else:
        pts = c + n * np.array([[0, -0.33], [0.3, 0.25], [-0.3, 0.25]])
        cv2.fillPoly(img, [pts.astype(np.int32)], colour, cv2.LINE_AA)
        cv2.line(img, (c, int(c - 0.1 * n)), (c, int(c + 0.15 * n)), paper, n // 30, cv2.LINE_AA)


def _coins(tile: Tile) -> np.ndarray:
    n = PX * S
    img = np.full((n, n, 3), (215, 230, 238), np.uint8)
    cv2.circle(img, (n // 2, n // 2), int(0.47 * n), (60, 70, 90), n // 50, cv2.LINE_AA)
    _coin_figure(img, tile.motif, n, _COL_A[tile.colour], (40, 40, 40))
    if tile.heart:
        _heart(img, n // 2, int(0.86 * n), 9 * S, (40, 40, 40), 2 * S)
    return with_disc_alpha(_shrunk(img))


def _token_a(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    img = np.zeros((n, n, 3), np.uint8)
    if colour is None:
        img[:] = (90, 60, 60)
        cv2.circle(img, (n // 2, n // 2), int(0.25 * n), (200, 220, 230), -1, cv2.LINE_AA)
        cv2.circle(img, (int(0.58 * n), int(0.45 * n)), int(0.22 * n), (90, 60, 60), -1, _AA)
    else:
        img[:] = colour
        ink = (20, 20, 20) if sum(colour) > 450 else (240, 240, 240)
        where = (int(0.22 * n), int(0.68 * n))
        cv2.putText(img, "W", where, cv2.FONT_HERSHEY_DUPLEX, 2.6 * S, ink, 6 * S, cv2.LINE_AA)
    cv2.circle(img, (n // 2, n // 2), int(0.46 * n), (30, 30, 30), 2 * S, cv2.LINE_AA)
    return with_disc_alpha(_shrunk(img, 112))


# -- stamp and pebble -------------------------------------------------------------------------

_COL_B: dict[Colour, BGR] = {
    Colour.BLUE: (180, 110, 20),
    Colour.RED: (50, 30, 210),
    Colour.YELLOW: (30, 190, 245),
    Colour.GREEN: (60, 170, 40),
    Colour.PURPLE: (160, 50, 120),
}
_TOK_B = _token_palette(_COL_B, black=(30, 30, 30), white=(240, 240, 240))


def _stamp(tile: Tile) -> np.ndarray:
    n = PX * S
    img = np.full((n, n, 3), (245, 245, 240), np.uint8)
    cv2.rectangle(img, (0, 0), (n - 1, n - 1), _COL_B[tile.colour], 18 * S)
    _silhouette(img, tile.motif, n, (25, 25, 25))
    if tile.heart:
        ink = (40, 40, 220) if tile.colour != Colour.RED else (25, 25, 25)
        _heart(img, int(0.8 * n), int(0.2 * n), 9 * S, ink)
    return _shrunk(img)


def _pebble(tile: Tile) -> np.ndarray:
    n = PX * S
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    d = np.hypot(xx - n * 0.4, yy - n * 0.4) / n
    c = np.array(_COL_B[tile.colour], np.float32)
    img = np.clip(c[None, None] * (1.25 - 0.7 * d[..., None]), 0, 255).astype(np.uint8)
    _silhouette(img, tile.motif, n, (245, 245, 245), fill=False, thick=5 * S)
    if tile.heart:
        _heart(img, n // 2, int(0.86 * n), 7 * S, (235, 225, 250))
    return with_disc_alpha(_shrunk(img))


def _token_b(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    img = np.full((n, n, 3), (200, 200, 200), np.uint8)
    if colour is None:
        img[:] = (110, 110, 120)
        cv2.fillPoly(img, [_star(n, 0.3, 0.12).astype(np.int32)], (220, 230, 235), cv2.LINE_AA)
    else:
        cv2.circle(img, (n // 2, n // 2), int(0.48 * n), colour, int(0.22 * n), cv2.LINE_AA)
        img[np.hypot(*(np.mgrid[0:n, 0:n] - n / 2)) > 0.5 * n] = colour
        _silhouette(img, Motif.VAMPIRE, n, (30, 30, 30))
    return with_disc_alpha(_shrunk(img, 112))


# -- mosaic and ring --------------------------------------------------------------------------

_COL_C: dict[Colour, BGR] = {
    Colour.BLUE: (200, 120, 40),
    Colour.RED: (60, 40, 190),
    Colour.YELLOW: (50, 210, 240),
    Colour.GREEN: (80, 150, 30),
    Colour.PURPLE: (140, 40, 150),
}
_TOK_C = _token_palette(_COL_C, black=(35, 35, 35), white=(235, 235, 235))


def _mosaic(tile: Tile) -> np.ndarray:
    n = PX * S
    img = np.full((n, n, 3), 250, np.uint8)
    for k in range(-n, n, 24 * S):
        cv2.line(img, (k, 0), (k + n, n), _COL_C[tile.colour], 14 * S)
    centre = (n // 2, n // 2 - 4 * S)
    cv2.circle(img, centre, int(0.32 * n), (250, 250, 250), -1, cv2.LINE_AA)
    figure = np.full((n, n, 3), 250, np.uint8)
    _silhouette(figure, tile.motif, n, (30, 30, 50))
    inside = np.zeros((n, n), np.uint8)
    cv2.circle(inside, centre, int(0.32 * n), 1, -1)
    small = cv2.resize(figure, None, fx=0.7, fy=0.7)
    off = (n - small.shape[0]) // 2
    placed = np.full((n, n, 3), 250, np.uint8)
    placed[off : off + small.shape[0], off : off + small.shape[1]] = small
    placed = np.roll(placed, -4 * S, axis=0)
    img[inside.astype(bool)] = placed[inside.astype(bool)]
    if tile.heart:
        _heart(img, n // 2, int(0.9 * n), 8 * S, (255, 255, 255))
    return _shrunk(img)


def _ring(tile: Tile) -> np.ndarray:
    n = PX * S
    cream = (225, 240, 245)
    img = np.full((n, n, 3), cream, np.uint8)
    # the ring is drawn before the figure is laid in and again after (as measured)
    cv2.circle(img, (n // 2, n // 2), int(0.42 * n), _COL_C[tile.colour], int(0.09 * n), _AA)
    figure = np.full((n, n, 3), cream, np.uint8)
    _silhouette(figure, tile.motif, n, (20, 20, 20))
    small = cv2.resize(figure, None, fx=0.62, fy=0.62)
    off = (n - small.shape[0]) // 2
    img[off : off + small.shape[0], off : off + small.shape[1]] = small
    cv2.circle(img, (n // 2, n // 2), int(0.42 * n), _COL_C[tile.colour], int(0.09 * n), _AA)
    if tile.heart:
        _heart(img, n // 2, int(0.27 * n), 6 * S, (20, 20, 20))
    return with_disc_alpha(_shrunk(img))


def _token_c(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    img = np.full((n, n, 3), (60, 40, 30), np.uint8)
    if colour is None:
        cv2.circle(img, (n // 2, n // 2), int(0.3 * n), (200, 200, 210), 6 * S, cv2.LINE_AA)
    else:
        img[:] = colour
        cv2.circle(img, (n // 2, n // 2), int(0.28 * n), (245, 245, 245), -1, cv2.LINE_AA)
        cv2.circle(img, (n // 2, n // 2), int(0.12 * n), (30, 30, 30), -1, cv2.LINE_AA)
    return with_disc_alpha(_shrunk(img, 112))


# -- tarot and button -------------------------------------------------------------------------

_COL_D: dict[Colour, BGR] = {
    Colour.BLUE: (210, 140, 60),
    Colour.RED: (70, 60, 220),
    Colour.YELLOW: (60, 215, 235),
    Colour.GREEN: (90, 190, 70),
    Colour.PURPLE: (190, 80, 170),
}
_TOK_D = _token_palette(_COL_D, black=(45, 40, 40), white=(240, 240, 235))


def _tarot(tile: Tile) -> np.ndarray:
    n = PX * S
    img = np.full((n, n, 3), (45, 30, 30), np.uint8)
    cv2.rectangle(img, (10 * S, 10 * S), (n - 10 * S, n - 10 * S), (150, 170, 185), S)
    _silhouette(img, tile.motif, n, _COL_D[tile.colour], fill=False, thick=6 * S)
    if tile.heart:
        _heart(img, n // 2, int(0.88 * n), 8 * S, _COL_D[tile.colour])
    return _shrunk(img)


def _button(tile: Tile) -> np.ndarray:
    n = PX * S
    img = np.full((n, n, 3), (250, 250, 250), np.uint8)
    img[: int(0.55 * n)] = _COL_D[tile.colour]
    cv2.line(img, (0, int(0.55 * n)), (n, int(0.55 * n)), (30, 30, 30), 3 * S)
    img[_shrunk_figure(tile.motif, n, 0.55)] = (30, 30, 30)
    if tile.heart:
        _heart(img, int(0.3 * n), int(0.3 * n), 9 * S, (255, 255, 255))
    return with_disc_alpha(_shrunk(img))


def _token_d(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    img = np.full((n, n, 3), (70, 70, 70), np.uint8)
    if colour is None:
        cv2.circle(img, (int(0.45 * n), n // 2), int(0.28 * n), (235, 235, 235), -1, _AA)
        cv2.circle(img, (int(0.56 * n), int(0.46 * n)), int(0.25 * n), (70, 70, 70), -1, _AA)
    else:
        img[:] = colour
        _silhouette(img, Motif.VAMPIRE, n, (20, 20, 20))
    cv2.circle(img, (n // 2, n // 2), int(0.45 * n), (245, 245, 245), 5 * S, cv2.LINE_AA)
    return with_disc_alpha(_shrunk(img, 112))


# -- halftone and pinwheel ------------------------------------------------------------------

_COL_E: dict[Colour, BGR] = {
    Colour.BLUE: (190, 100, 30),
    Colour.RED: (45, 45, 215),
    Colour.YELLOW: (45, 195, 240),
    Colour.GREEN: (70, 165, 50),
    Colour.PURPLE: (165, 55, 135),
}
_TOK_E = _token_palette(_COL_E, black=(30, 30, 35), white=(238, 238, 238))


def _halftone(tile: Tile) -> np.ndarray:
    n = PX * S
    img = np.full((n, n, 3), (240, 244, 246), np.uint8)
    step = 9 * S
    for y in range(step // 2, n, step):
        for x in range(step // 2 + (step // 2 if (y // step) % 2 else 0), n, step):
            cv2.circle(img, (x, y), int(0.36 * step), _COL_E[tile.colour], -1, _AA)
    _silhouette(img, tile.motif, n, (20, 20, 20), fill=False, thick=4 * S)
    if tile.heart:
        _heart(img, int(0.18 * n), int(0.82 * n), 9 * S, (20, 20, 20), 2 * S)
    return _shrunk(img)


def _pinwheel(tile: Tile) -> np.ndarray:
    n = PX * S
    img = np.full((n, n, 3), (250, 250, 250), np.uint8)
    c = n // 2
    for k in range(0, 8, 2):
        cv2.ellipse(img, (c, c), (n, n), 0, k * 45, k * 45 + 45, _COL_E[tile.colour], -1, _AA)
    cv2.circle(img, (c, c), int(0.3 * n), (250, 250, 250), -1, _AA)
    img[_shrunk_figure(tile.motif, n, 0.6)] = (25, 25, 25)
    if tile.heart:
        _heart(img, c, int(0.72 * n), 6 * S, (40, 40, 200))
    return with_disc_alpha(_shrunk(img))


def _token_e(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    img = np.full((n, n, 3), (240, 240, 240), np.uint8)
    if colour is None:
        img[:] = (35, 30, 30)
        cv2.fillPoly(img, [_star(n, 0.32, 0.14).astype(np.int32)], (240, 240, 240), _AA)
    else:
        cv2.circle(img, (n // 2, n // 2), int(0.4 * n), colour, int(0.14 * n), cv2.LINE_AA)
        cv2.circle(img, (n // 2, n // 2), int(0.12 * n), colour, -1, cv2.LINE_AA)
    return with_disc_alpha(_shrunk(img, 112))


# -- diagonal and sticker -------------------------------------------------------------------

_COL_F: dict[Colour, BGR] = {
    Colour.BLUE: (165, 110, 45),
    Colour.RED: (50, 35, 185),
    Colour.YELLOW: (60, 205, 230),
    Colour.GREEN: (85, 170, 75),
    Colour.PURPLE: (140, 65, 125),
}
_TOK_F = _token_palette(_COL_F, black=(35, 35, 40), white=(240, 240, 236))


def _diagonal(tile: Tile) -> np.ndarray:
    n = PX * S
    img = np.full((n, n, 3), (62, 48, 42), np.uint8)
    cv2.fillPoly(img, [np.array([[0, 0], [n, 0], [0, n]], np.int32)], _COL_F[tile.colour], _AA)
    _silhouette(img, tile.motif, n, (245, 245, 245), fill=False, thick=3 * S)
    if tile.heart:
        _heart(img, int(0.8 * n), int(0.8 * n), 10 * S, (245, 245, 245))
    return _shrunk(img)


def _sticker(tile: Tile) -> np.ndarray:
    n = PX * S
    img = np.full((n, n, 3), _COL_F[tile.colour], np.uint8)
    m = int(0.24 * n)
    cv2.rectangle(img, (m, m), (n - m, n - m), (238, 240, 242), -1)
    img[_shrunk_figure(tile.motif, n, 0.62)] = _COL_F[tile.colour]
    if tile.heart:
        _heart(img, n // 2, int(0.13 * n), 7 * S, (238, 240, 242))
    return with_disc_alpha(_shrunk(img))


def _token_f(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    if colour is None:
        img = np.full((n, n, 3), (120, 118, 125), np.uint8)
        for r in (0.15, 0.27, 0.39):
            cv2.circle(img, (n // 2, n // 2), int(r * n), (205, 205, 210), 3 * S, _AA)
    else:
        img = np.full((n, n, 3), colour, np.uint8)
        cv2.circle(img, (int(0.45 * n), n // 2), int(0.27 * n), (245, 245, 245), -1, _AA)
        cv2.circle(img, (int(0.56 * n), int(0.44 * n)), int(0.23 * n), colour, -1, _AA)
    return with_disc_alpha(_shrunk(img, 112))


# -- inkwash and moonrise -------------------------------------------------------------------

_COL_G: dict[Colour, BGR] = {
    Colour.BLUE: (180, 95, 50),
    Colour.RED: (45, 50, 195),
    Colour.YELLOW: (50, 190, 225),
    Colour.GREEN: (80, 150, 70),
    Colour.PURPLE: (155, 70, 150),
}
_TOK_G = _token_palette(_COL_G, black=(30, 30, 30), white=(242, 242, 242))


def _inkwash(tile: Tile) -> np.ndarray:
    n = PX * S
    fade = np.linspace(0.0, 1.0, n)[:, None, None] ** 0.8
    colour = np.array(_COL_G[tile.colour], np.float32)
    img = ((1 - fade) * 248 + fade * colour).repeat(n, axis=1).astype(np.uint8)
    _silhouette(img, tile.motif, n, (35, 30, 40))
    if tile.heart:
        _heart(img, int(0.82 * n), int(0.18 * n), 10 * S, (250, 250, 250))
        _heart(img, int(0.82 * n), int(0.18 * n), 10 * S, (35, 30, 40), 2 * S)
    return _shrunk(img)


def _moonrise(tile: Tile) -> np.ndarray:
    n = PX * S
    img = np.full((n, n, 3), _COL_G[tile.colour], np.uint8)
    cv2.circle(img, (int(0.36 * n), int(0.36 * n)), int(0.24 * n), (235, 240, 245), -1, _AA)
    _silhouette(img, tile.motif, n, (25, 25, 30))
    if tile.heart:
        _heart(img, int(0.72 * n), int(0.74 * n), 8 * S, (25, 25, 30), 2 * S)
    return with_disc_alpha(_shrunk(img))


def _token_g(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    c = n // 2
    if colour is None:
        img = np.full((n, n, 3), (60, 40, 110), np.uint8)
        img[:c, :c] = img[c:, c:] = (200, 205, 215)
    else:
        img = np.full((n, n, 3), (242, 242, 242), np.uint8)
        cv2.circle(img, (c, c), int(0.36 * n), colour, -1, _AA)
        cv2.circle(img, (c, c), int(0.08 * n), (30, 30, 30), -1, _AA)
    return with_disc_alpha(_shrunk(img, 112))


# -- quilt and compass ----------------------------------------------------------------------

_COL_H: dict[Colour, BGR] = {
    Colour.BLUE: (175, 100, 40),
    Colour.RED: (55, 45, 190),
    Colour.YELLOW: (45, 195, 240),
    Colour.GREEN: (75, 165, 80),
    Colour.PURPLE: (145, 55, 135),
}
_TOK_H = _token_palette(_COL_H, black=(28, 28, 32), white=(240, 242, 240))


def _quilt(tile: Tile) -> np.ndarray:
    n = PX * S
    cell = n // 4
    img = np.full((n, n, 3), (225, 235, 240), np.uint8)
    for i in range(4):
        for j in range(4):
            if (i + j) % 2 == 0:
                img[i * cell : (i + 1) * cell, j * cell : (j + 1) * cell] = _COL_H[tile.colour]
    _silhouette(img, tile.motif, n, (20, 20, 20), fill=False, thick=5 * S)
    if tile.heart:
        cv2.circle(img, (int(0.15 * n), int(0.85 * n)), int(0.1 * n), (250, 250, 250), -1, _AA)
        _heart(img, int(0.15 * n), int(0.85 * n), 8 * S, (20, 20, 20))
    return _shrunk(img)


def _compass(tile: Tile) -> np.ndarray:
    n = PX * S
    c = n // 2
    img = np.full((n, n, 3), (246, 246, 244), np.uint8)
    cv2.circle(img, (c, c), c, _COL_H[tile.colour], -1, _AA)
    cv2.circle(img, (c, c), int(0.38 * n), (246, 246, 244), -1, _AA)
    img[_shrunk_figure(tile.motif, n, 0.7)] = _COL_H[tile.colour]
    if tile.heart:
        _heart(img, c, int(0.06 * n), 7 * S, (246, 246, 244))
    return with_disc_alpha(_shrunk(img))


def _token_h(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    if colour is None:
        img = np.full((n, n, 3), (70, 70, 75), np.uint8)
        w = int(0.08 * n)
        cv2.line(
            img,
            (int(0.25 * n), int(0.25 * n)),
            (int(0.75 * n), int(0.75 * n)),
            (225, 225, 225),
            w,
            _AA,
        )
        cv2.line(
            img,
            (int(0.75 * n), int(0.25 * n)),
            (int(0.25 * n), int(0.75 * n)),
            (225, 225, 225),
            w,
            _AA,
        )
    else:
        img = np.full((n, n, 3), colour, np.uint8)
        star = _star(n, 0.3, 0.13).astype(np.int32)
        cv2.fillPoly(img, [star], (245, 245, 245), _AA)
    return with_disc_alpha(_shrunk(img, 112))


# -- glow and hatch -------------------------------------------------------------------------

_COL_I: dict[Colour, BGR] = {
    Colour.BLUE: (185, 105, 35),
    Colour.RED: (45, 40, 205),
    Colour.YELLOW: (55, 210, 235),
    Colour.GREEN: (60, 175, 90),
    Colour.PURPLE: (160, 60, 145),
}
_TOK_I = _token_palette(_COL_I, black=(25, 25, 25), white=(238, 240, 240))


def _glow(tile: Tile) -> np.ndarray:
    n = PX * S
    yy, xx = np.mgrid[0:n, 0:n] / n - 0.5
    light = np.clip(1.25 - 1.1 * np.hypot(xx, yy), 0.45, 1.2)[..., None]
    img = np.clip(np.array(_COL_I[tile.colour], np.float32) * light, 0, 255).astype(np.uint8)
    _silhouette(img, tile.motif, n, (15, 15, 15), fill=False, thick=6 * S)
    _silhouette(img, tile.motif, n, (250, 250, 250))
    if tile.heart:
        _heart(img, n // 2, int(0.1 * n), 8 * S, (15, 15, 15))
    return _shrunk(img)


def _hatch(tile: Tile) -> np.ndarray:
    n = PX * S
    img = np.full((n, n, 3), (248, 248, 248), np.uint8)
    step = n // 12
    for k in range(-n, 2 * n, step):
        cv2.line(img, (k, 0), (k + n, n), _COL_I[tile.colour], 4 * S, _AA)
    _silhouette(img, tile.motif, n, (25, 25, 25))
    if tile.heart:
        _heart(img, int(0.84 * n), n // 2, 8 * S, (40, 40, 215))
    return with_disc_alpha(_shrunk(img))


def _token_i(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    c = n // 2
    if colour is None:
        img = np.full((n, n, 3), (236, 236, 232), np.uint8)
        q = int(0.2 * n)
        cv2.rectangle(img, (c - q, c - q), (c + q, c + q), (30, 30, 30), 4 * S, _AA)
    else:
        img = np.full((n, n, 3), (30, 30, 30), np.uint8)
        cv2.circle(img, (c, c), int(0.4 * n), colour, int(0.12 * n), _AA)
        cv2.circle(img, (c, c), int(0.12 * n), colour, -1, _AA)
    return with_disc_alpha(_shrunk(img, 112))


# -- banner and seal ------------------------------------------------------------------------

_COL_J: dict[Colour, BGR] = {
    Colour.BLUE: (200, 120, 50),
    Colour.RED: (50, 30, 190),
    Colour.YELLOW: (70, 215, 245),
    Colour.GREEN: (90, 150, 40),
    Colour.PURPLE: (170, 70, 120),
}
_TOK_J = _token_palette(_COL_J, black=(35, 30, 30), white=(232, 236, 238))


def _banner(tile: Tile) -> np.ndarray:
    n = PX * S
    img = np.full((n, n, 3), (200, 190, 180), np.uint8)
    img[int(0.4 * n) : int(0.64 * n)] = _COL_J[tile.colour]
    _silhouette(img, tile.motif, n, (20, 20, 25))
    if tile.heart:
        _heart(img, int(0.82 * n), int(0.16 * n), 9 * S, _COL_J[tile.colour])
        _heart(img, int(0.82 * n), int(0.16 * n), 9 * S, (20, 20, 25), thick=S)
    return _shrunk(img)


def _seal(tile: Tile) -> np.ndarray:
    n = PX * S
    c = n // 2
    colour = np.array(_COL_J[tile.colour], np.float32)
    img = np.full((n, n, 3), _COL_J[tile.colour], np.uint8)
    shade = tuple(int(v) for v in colour * 0.6)
    cv2.circle(img, (c, c), int(0.42 * n), shade, int(0.05 * n), _AA)
    tint = tuple(int(v) for v in colour * 0.45 + 255 * 0.55)
    _silhouette(img, tile.motif, n, tint)
    _silhouette(img, tile.motif, n, tuple(int(v) for v in colour * 0.4), fill=False, thick=S)
    if tile.heart:
        _heart(img, c, int(0.86 * n), 7 * S, (250, 250, 250))
    return with_disc_alpha(_shrunk(img))


def _token_j(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    c = n // 2
    if colour is None:
        img = np.full((n, n, 3), (60, 90, 130), np.uint8)
        for r in (0.22, 0.36):
            cv2.circle(img, (c, c), int(r * n), (150, 170, 190), 3 * S, _AA)
    else:
        img = np.full((n, n, 3), colour, np.uint8)
        cv2.circle(img, (c, c), int(0.3 * n), (245, 245, 245), 2 * S, _AA)
        cv2.circle(img, (c, c), int(0.08 * n), (245, 245, 245), -1, _AA)
    return with_disc_alpha(_shrunk(img, 112))


# -- stencil and petal ----------------------------------------------------------------------

_COL_K: dict[Colour, BGR] = {
    Colour.BLUE: (160, 100, 20),
    Colour.RED: (60, 50, 215),
    Colour.YELLOW: (30, 190, 225),
    Colour.GREEN: (80, 185, 110),
    Colour.PURPLE: (140, 50, 160),
}
_TOK_K = _token_palette(_COL_K, black=(30, 35, 35), white=(245, 245, 240))


def _stencil(tile: Tile) -> np.ndarray:
    n = PX * S
    colour = np.array(_COL_K[tile.colour], np.float32)
    img = np.full((n, n, 3), _COL_K[tile.colour], np.uint8)
    m = int(0.14 * n)
    img[m : n - m, m : n - m] = (205, 235, 245)
    _silhouette(img, tile.motif, n, tuple(int(v) for v in colour * 0.5))
    if tile.heart:
        _heart(img, int(0.26 * n), int(0.76 * n), 7 * S, (20, 20, 20))
    return _shrunk(img)


def _petal(tile: Tile) -> np.ndarray:
    n = PX * S
    c = n // 2
    img = np.full((n, n, 3), (215, 230, 238), np.uint8)
    for k in range(6):
        a = k * 60 + 30
        x = c + int(0.3 * n * np.cos(np.radians(a)))
        y = c + int(0.3 * n * np.sin(np.radians(a)))
        cv2.ellipse(
            img, (x, y), (int(0.17 * n), int(0.08 * n)), a, 0, 360, _COL_K[tile.colour], -1, _AA
        )
    cv2.circle(img, (c, c), int(0.27 * n), (250, 250, 250), -1, _AA)
    figure = np.full((n, n, 3), 255, np.uint8)
    _silhouette(figure, tile.motif, n, (0, 0, 0), fill=False, thick=7 * S)
    small = cv2.resize(figure, None, fx=0.6, fy=0.6)
    off = (n - small.shape[0]) // 2
    ink = small[..., 0] < 128
    img[off : off + small.shape[0], off : off + small.shape[1]][ink] = (20, 20, 20)
    if tile.heart:
        _heart(img, int(0.5 * n), int(0.1 * n), 7 * S, (20, 20, 20))
    return with_disc_alpha(_shrunk(img))


def _token_k(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    c = n // 2
    if colour is None:
        img = np.full((n, n, 3), (110, 130, 110), np.uint8)
        cv2.line(img, (0, n), (n, 0), (240, 240, 240), int(0.12 * n), _AA)
    else:
        img = np.full((n, n, 3), colour, np.uint8)
        w = int(0.07 * n)
        cv2.line(img, (c, int(0.2 * n)), (c, int(0.8 * n)), (25, 25, 25), w, _AA)
        cv2.line(img, (int(0.2 * n), c), (int(0.8 * n), c), (25, 25, 25), w, _AA)
    return with_disc_alpha(_shrunk(img, 112))


# -- woodcut and orbit ----------------------------------------------------------------------

_COL_L: dict[Colour, BGR] = {
    Colour.BLUE: (175, 115, 35),
    Colour.RED: (45, 55, 200),
    Colour.YELLOW: (40, 200, 240),
    Colour.GREEN: (65, 160, 85),
    Colour.PURPLE: (150, 65, 150),
}
_TOK_L = _token_palette(_COL_L, black=(32, 30, 34), white=(240, 240, 236))
_INK_L: BGR = (28, 26, 30)


def _grain(img: np.ndarray, seed: int, amount: float = 14.0) -> np.ndarray:
    """Paper grain: a fixed speckle (the same tile always draws the same) over the whole face."""
    rng = np.random.default_rng(seed)
    h, w = img.shape[:2]
    noise = cv2.resize(rng.normal(0, 1, (h // 8, w // 8)).astype(np.float32), (w, h))
    noise += 0.5 * rng.normal(0, 1, (h, w)).astype(np.float32)
    return np.clip(img.astype(np.float32) + amount * noise[..., None], 0, 255).astype(np.uint8)


def _woodcut(tile: Tile) -> np.ndarray:
    n = PX * S
    c = n // 2
    paper = (214, 228, 236)
    img = np.full((n, n, 3), (252, 252, 252), np.uint8)  # the white die-cut margin
    m, r = int(0.035 * n), int(0.12 * n)
    panel = np.zeros((n, n), np.uint8)  # a rounded square inside the margin
    cv2.rectangle(panel, (m + r, m), (n - m - r, n - m), 255, -1)
    cv2.rectangle(panel, (m, m + r), (n - m, n - m - r), 255, -1)
    for x in (m + r, n - m - r):
        for y in (m + r, n - m - r):
            cv2.circle(panel, (x, y), r, 255, -1, _AA)
    inside = np.full((n, n, 3), paper, np.uint8)
    inside[:c, :c] = inside[c:, c:] = _COL_L[tile.colour]  # opposite quadrants
    inside = _grain(inside, 11 + ALL_TILES.index(tile))
    # the thick dark border: the panel's outer band
    inner = cv2.erode(panel, np.ones((int(0.075 * n),) * 2, np.uint8))
    inside[(panel > 0) & (inner == 0)] = _INK_L
    alpha = panel[..., None].astype(np.float32) / 255
    img = (alpha * inside + (1 - alpha) * img).astype(np.uint8)
    # a black figure cut through by thin white gouges, as printed from a wood block
    ink = _shrunk_figure(tile.motif, n, 0.9)
    gouges = np.zeros((n, n), bool)
    for y in range(0, n, 7 * S):
        gouges[y : y + int(1.6 * S)] = True
    edge = cv2.erode(ink.astype(np.uint8), np.ones((4 * S, 4 * S), np.uint8)) > 0
    img[ink] = _INK_L
    img[edge & gouges] = paper
    if tile.heart:
        # a white heart in a dark diamond badge set on the top border
        bx, by, br = c, int(0.1 * n), int(0.1 * n)
        diamond = np.array([[bx, by - br], [bx + br, by], [bx, by + br], [bx - br, by]], np.int32)
        cv2.fillPoly(img, [diamond], _INK_L, _AA)
        cv2.polylines(img, [diamond], True, (252, 252, 252), S, _AA)
        _heart(img, bx, by + S, 7 * S, (252, 252, 252))
    return _shrunk(img)


def _orbit(tile: Tile) -> np.ndarray:
    n = PX * S
    c = n // 2
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    # a ground of concentric rings round a point low in the face
    d = np.hypot(xx - c, yy - 0.62 * n) / n
    rings = (np.floor(d / 0.045) % 2)[..., None]
    img = (rings * (232, 236, 238) + (1 - rings) * (208, 214, 220)).astype(np.uint8)
    # the colour as a crescent over the top: a disc less a disc below it
    crescent = np.zeros((n, n), np.uint8)
    cv2.circle(crescent, (c, int(0.5 * n)), int(0.47 * n), 255, -1, _AA)
    cv2.circle(crescent, (c, int(0.66 * n)), int(0.44 * n), 0, -1, _AA)
    a = crescent[..., None].astype(np.float32) / 255
    img = (a * _COL_L[tile.colour] + (1 - a) * img).astype(np.uint8)
    # the figure low, drawn twice: a shadow in the colour, the dark figure over it
    ink = np.roll(_shrunk_figure(tile.motif, n, 0.62), int(0.13 * n), axis=0)
    shadow = np.roll(np.roll(ink, 5 * S, axis=0), 5 * S, axis=1)
    img[shadow] = _COL_L[tile.colour]
    img[ink] = _INK_L
    if tile.heart:
        # a pair of white hearts, outlined dark, in the crescent
        for dx in (-0.075, 0.075):
            x, y = int((0.5 + dx) * n), int(0.1 * n)
            _heart(img, x, y, 7 * S, (250, 250, 250))
            _heart(img, x, y, 7 * S, _INK_L, S)
    return with_disc_alpha(_shrunk(img))


def _token_l(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    c = n // 2
    if colour is None:
        # the back: a deep teal dotted with a ring of pale dots round one in the middle
        img = np.full((n, n, 3), (95, 90, 30), np.uint8)
        cv2.circle(img, (c, c), int(0.07 * n), (215, 230, 230), -1, _AA)
        for k in range(8):
            a = np.radians(k * 45)
            x, y = c + 0.27 * n * np.cos(a), c + 0.27 * n * np.sin(a)
            cv2.circle(img, (int(x), int(y)), int(0.05 * n), (215, 230, 230), -1, _AA)
    else:
        # a face: two tones of the colour split on a slant by a white line
        dark = tuple(int(v * 0.62) for v in colour)
        img = np.full((n, n, 3), colour, np.uint8)
        lower = np.array([[0, int(0.62 * n)], [n, int(0.38 * n)], [n, n], [0, n]], np.int32)
        cv2.fillPoly(img, [lower], dark)
        cv2.line(img, (0, int(0.62 * n)), (n, int(0.38 * n)), (245, 245, 245), 3 * S, _AA)
    cv2.circle(img, (c, c), int(0.47 * n), (40, 40, 40), 2 * S, _AA)
    return with_disc_alpha(_shrunk(img, 112))


# -- vesper and rosary ----------------------------------------------------------------------

_COL_M: dict[Colour, BGR] = {
    Colour.BLUE: (195, 115, 25),
    Colour.RED: (45, 35, 210),
    Colour.YELLOW: (35, 205, 245),
    Colour.GREEN: (75, 170, 55),
    Colour.PURPLE: (165, 55, 155),
}
_TOK_M = _token_palette(_COL_M, black=(34, 32, 30), white=(238, 240, 242))
_INK_M: BGR = (30, 26, 24)
_PALE_M: BGR = (236, 242, 246)


def _halo_figure(img: np.ndarray, motif: Motif, n: int, zoom: float, halo: int) -> None:
    """A dark figure cut out with a pale margin ``halo`` wide all round, as a die-cut sticker."""
    ink = _shrunk_figure(motif, n, zoom)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * halo + 1, 2 * halo + 1))
    margin = cv2.dilate(ink.astype(np.uint8), disc) > 0
    img[margin] = _PALE_M
    img[ink] = _INK_M


def _vesper(tile: Tile) -> np.ndarray:
    n = PX * S
    c = n // 2
    # the colour at the top, darkening evenly to near black at the bottom
    fall = np.linspace(1.08, 0.2, n, dtype=np.float32)[:, None, None]
    colour = np.array(_COL_M[tile.colour], np.float32)
    img = np.clip(colour[None, None] * fall, 0, 255).astype(np.uint8).repeat(n, axis=1)
    if tile.heart:
        # a large thin pale heart drawn round the figure, as a frame
        _heart(img, c, int(0.47 * n), int(0.45 * n), _PALE_M, int(0.022 * n))
    _halo_figure(img, tile.motif, n, 0.78, int(0.028 * n))
    return _shrunk(img)


def _rosary(tile: Tile) -> np.ndarray:
    n = PX * S
    c = n // 2
    img = np.full((n, n, 3), (222, 226, 230), np.uint8)
    # the colour only in a string of glossy beads round the rim, on a thin dark thread
    ring, count, bead = 0.39 * n, 14, int(0.065 * n)
    cv2.circle(img, (c, c), int(ring), _INK_M, S, _AA)
    colour = _COL_M[tile.colour]
    rim = tuple(int(v * 0.55) for v in colour)
    for k in range(count):
        a = -np.pi / 2 + 2 * np.pi * k / count
        x, y = int(c + ring * np.cos(a)), int(c + ring * np.sin(a))
        if tile.heart and k == 0:
            # the top bead is a dark heart, larger than the beads, with its own glint
            _heart(img, x, y + 2 * S, int(1.75 * bead), _INK_M)
            cv2.circle(img, (x - bead // 2, y - bead // 3), bead // 5, _PALE_M, -1, _AA)
            continue
        cv2.circle(img, (x, y), bead, colour, -1, _AA)
        cv2.circle(img, (x, y), bead, rim, S, _AA)
        cv2.circle(img, (x - bead // 3, y - bead // 3), bead // 4, (250, 250, 250), -1, _AA)
    # the figure as a double line: dark, a pale line running inside along its edge, dark core
    ink = _shrunk_figure(tile.motif, n, 0.72).astype(np.uint8)
    step = np.ones((int(0.025 * n),) * 2, np.uint8)
    inner = cv2.erode(ink, step)
    core = cv2.erode(inner, np.ones((int(0.02 * n),) * 2, np.uint8))
    img[ink > 0] = _INK_M
    img[(inner > 0) & (core == 0)] = _PALE_M
    return with_disc_alpha(_shrunk(img))


def _token_m(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    c = n // 2
    if colour is None:
        # the back: a deep plum with a pale diamond outline and a pale dot inside it
        img = np.full((n, n, 3), (80, 40, 70), np.uint8)
        q = int(0.27 * n)
        diamond = np.array([[c, c - q], [c + q, c], [c, c + q], [c - q, c]], np.int32)
        cv2.polylines(img, [diamond], True, (215, 225, 235), 4 * S, _AA)
        cv2.circle(img, (c, c), int(0.06 * n), (215, 225, 235), -1, _AA)
    else:
        # a face: the colour, crossed by a dark mouth with two white fangs
        img = np.full((n, n, 3), colour, np.uint8)
        top, low = int(0.4 * n), int(0.52 * n)
        cv2.rectangle(img, (int(0.16 * n), top), (int(0.84 * n), low), _INK_M, -1)
        for x in (0.36, 0.64):
            fang = np.array([[x - 0.07, 0.52], [x + 0.07, 0.52], [x, 0.7]]) * n
            cv2.fillPoly(img, [fang.astype(np.int32)], (245, 245, 245), _AA)
    return with_disc_alpha(_shrunk(img, 112))


def _token_n(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    c = n // 2
    if colour is None:
        # the back: sand with a cream spiral wound out from the middle
        img = np.full((n, n, 3), (95, 125, 150), np.uint8)
        t = np.linspace(0, 5 * np.pi, 200)
        r = 0.03 * n + 0.025 * n * t
        pts = np.stack([c + r * np.cos(t), c + r * np.sin(t)], 1).astype(np.int32)
        cv2.polylines(img, [pts], False, (220, 232, 240), 3 * S, _AA)
    else:
        # a face: the colour, a ring of small pale beads near the rim, a dark middle bead
        img = np.full((n, n, 3), colour, np.uint8)
        for k in range(10):
            a = 2 * np.pi * k / 10
            x, y = c + 0.34 * n * np.cos(a), c + 0.34 * n * np.sin(a)
            cv2.circle(img, (int(x), int(y)), int(0.05 * n), (240, 240, 240), -1, _AA)
            cv2.circle(img, (int(x), int(y)), int(0.05 * n), _INK_M, S, _AA)
        cv2.circle(img, (c, c), int(0.12 * n), _INK_M, -1, _AA)
    return with_disc_alpha(_shrunk(img, 112))


# -- aquarelle and whorl --------------------------------------------------------------------

_COL_N: dict[Colour, BGR] = {
    Colour.BLUE: (185, 110, 40),
    Colour.RED: (50, 45, 200),
    Colour.YELLOW: (45, 195, 235),
    Colour.GREEN: (80, 160, 70),
    Colour.PURPLE: (150, 65, 135),
}
_TOK_N = _token_palette(_COL_N, black=(36, 34, 32), white=(240, 242, 244))
_SEPIA: BGR = (40, 62, 92)
_PAPER_N: BGR = (226, 236, 242)

#: pastel tints: each colour mixed well towards white, as printed on a soft-toned set
_COL_O: dict[Colour, BGR] = {
    Colour.BLUE: (225, 185, 135),
    Colour.RED: (140, 135, 235),
    Colour.YELLOW: (140, 225, 245),
    Colour.GREEN: (150, 215, 150),
    Colour.PURPLE: (215, 150, 200),
}
_TOK_O = _token_palette(_COL_O, black=(60, 56, 58), white=(246, 246, 244))
_CREAM_O: BGR = (228, 236, 240)
_SHADE_O: BGR = (62, 56, 58)


def _wash(n: int, colour: BGR, paper: BGR, seed: int) -> np.ndarray:
    """A watercolour wash of ``colour`` on ``paper``: an uneven blob, darker where it dried.

    Pigment thins out across the blob and pools along its edge, as a brush wash does; the
    blob's outline wanders with a fixed noise so each tile keeps its own wash.
    """
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n - 0.5
    wander = cv2.resize(rng.normal(0, 1, (6, 6)).astype(np.float32), (n, n), cv2.INTER_CUBIC)
    inside = 0.44 - np.hypot(xx, yy) + 0.035 * wander  # > 0 within the blob
    body = np.clip(inside / 0.02, 0, 1)
    thin = cv2.resize(rng.normal(0, 1, (12, 12)).astype(np.float32), (n, n), cv2.INTER_CUBIC)
    density = body * np.clip(0.72 + 0.1 * thin + 0.28 * np.exp(-((inside / 0.025) ** 2)), 0, 1)
    d = density[..., None]
    return (d * colour + (1 - d) * np.array(paper, np.float32)).astype(np.uint8)


def _pen_outline(img: np.ndarray, ink: np.ndarray, colour: BGR, width: int) -> None:
    """Draw only the edge of the figure mask ``ink``, a line ``width`` wide just inside it."""
    solid = ink.astype(np.uint8)
    inner = cv2.erode(solid, np.ones((width, width), np.uint8))
    img[(solid > 0) & (inner == 0)] = colour


def _aquarelle(tile: Tile) -> np.ndarray:
    n = PX * S
    seed = 31 + ALL_TILES.index(tile)
    img = _wash(n, _COL_N[tile.colour], _PAPER_N, seed)
    # the figure left as bare paper in the wash, then drawn round with a sepia pen
    ink = _shrunk_figure(tile.motif, n, 0.86)
    img[ink] = _PAPER_N
    _pen_outline(img, ink, _SEPIA, 2 * S)
    if tile.heart:
        # three small sepia hearts in a row along the foot of the tile
        for dx in (-0.11, 0.0, 0.11):
            _heart(img, int((0.5 + dx) * n), int(0.9 * n), 6 * S, _SEPIA)
    return _shrunk(_grain(img, seed, 9.0))


def _dashed_spiral(img: np.ndarray, c: int, outer: float, inner: float, colour: BGR) -> None:
    """A spiral wound in from ``outer`` to ``inner`` (pixels), drawn as short thick dashes."""
    turns, dash = 2.5, 0.16  # dash and gap each this many radians
    t = np.arange(0, 2 * np.pi * turns, dash)
    r = outer - (outer - inner) * t / t[-1]
    x, y = c + r * np.sin(t), c - r * np.cos(t)
    for k in range(0, len(t) - 1, 2):
        start, end = (int(x[k]), int(y[k])), (int(x[k + 1]), int(y[k + 1]))
        cv2.line(img, start, end, colour, int(0.03 * len(img)), _AA)


def _whorl(tile: Tile) -> np.ndarray:
    n = PX * S
    c = n // 2
    colour = _COL_O[tile.colour]
    img = np.full((n, n, 3), _CREAM_O, np.uint8)
    _dashed_spiral(img, c, 0.44 * n, 0.33 * n, colour)
    cv2.circle(img, (c, c), int(0.28 * n), colour, -1, _AA)
    # a white figure on the colour, lifted off it by a hard dark shadow down and right
    ink = _shrunk_figure(tile.motif, n, 0.56)
    img[np.roll(ink, (3 * S, 3 * S), axis=(0, 1))] = _SHADE_O
    img[ink] = (250, 250, 250)
    face = _shrunk(img)
    if tile.heart:
        # the heart is die-cut out of the foot, its point through the rim: the table shows
        notch = np.zeros((n, n, 3), np.uint8)
        _heart(notch, c, int(0.91 * n), int(0.1 * n), (255, 255, 255))
        cut = cv2.resize(notch, (PX, PX), interpolation=cv2.INTER_AREA)[..., 0]
        face[..., 3] = 255 - cut
    return with_disc_alpha(face)


def _token_o(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    c = n // 2
    if colour is None:
        # the back: paper washed over in indigo, three bare paper dots in a triangle
        img = _wash(n, (110, 60, 45), _PAPER_N, 5)
        img[np.hypot(*(np.mgrid[0:n, 0:n] - c)) > 0.42 * n] = (110, 60, 45)
        for a in (-90, 30, 150):
            x, y = c + 0.17 * n * np.cos(np.radians(a)), c + 0.17 * n * np.sin(np.radians(a))
            cv2.circle(img, (int(x), int(y)), int(0.08 * n), _PAPER_N, -1, _AA)
    else:
        # a face: the colour washed on paper, a sepia pen ring round the middle
        img = _wash(n, colour, _PAPER_N, 6)
        cv2.circle(img, (c, c), int(0.2 * n), _SEPIA, 2 * S, _AA)
    return with_disc_alpha(_shrunk(_grain(img, 7, 9.0), 112))


def _token_p(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    c = n // 2
    if colour is None:
        # the back: dark brown, a ring of twelve short cream ticks like a clock face
        img = np.full((n, n, 3), (45, 60, 80), np.uint8)
        for k in range(12):
            a = np.radians(30 * k)
            inner, outer = 0.26 * n, 0.38 * n
            p = (int(c + inner * np.cos(a)), int(c + inner * np.sin(a)))
            q = (int(c + outer * np.cos(a)), int(c + outer * np.sin(a)))
            cv2.line(img, p, q, (220, 235, 240), int(0.045 * n), _AA)
    else:
        # a face: the colour, a white disc lifted off it by a hard dark shadow
        img = np.full((n, n, 3), colour, np.uint8)
        d = int(0.04 * n)
        cv2.circle(img, (c + d, c + d), int(0.22 * n), _SHADE_O, -1, _AA)
        cv2.circle(img, (c, c), int(0.22 * n), (250, 250, 250), -1, _AA)
    return with_disc_alpha(_shrunk(img, 112))


# -- gesso and arcade -------------------------------------------------------------------------

_COL_Q: dict[Colour, BGR] = {
    Colour.BLUE: (165, 105, 45),
    Colour.RED: (55, 45, 185),
    Colour.YELLOW: (45, 180, 220),
    Colour.GREEN: (75, 150, 60),
    Colour.PURPLE: (145, 60, 130),
}
_TOK_Q = _token_palette(_COL_Q, black=(48, 45, 42), white=(222, 226, 228))

#: bright game colours, as a handheld's screen shows them
_COL_R: dict[Colour, BGR] = {
    Colour.BLUE: (235, 140, 40),
    Colour.RED: (60, 50, 230),
    Colour.YELLOW: (60, 220, 250),
    Colour.GREEN: (70, 200, 60),
    Colour.PURPLE: (200, 70, 180),
}
_TOK_R = _token_palette(_COL_R, black=(30, 28, 26), white=(240, 240, 240))
_NIGHT_R: BGR = (60, 28, 22)
_STAR_R: BGR = (200, 245, 250)
_PIXEL_HEART = np.array(
    [
        [0, 1, 1, 0, 1, 1, 0],
        [1, 1, 1, 1, 1, 1, 1],
        [1, 1, 1, 1, 1, 1, 1],
        [0, 1, 1, 1, 1, 1, 0],
        [0, 0, 1, 1, 1, 0, 0],
        [0, 0, 0, 1, 0, 0, 0],
    ],
    bool,
)


#: the figures drawn cell by cell, as a sprite artist would ("X" a cell of the figure)
_SPRITES: dict[Motif, str] = {
    Motif.VAMPIRE: """
        X............X
        XX..X....X..XX
        XXX.XXXXXX.XXX
        XXXXXXXXXXXXXX
        XXXXXXXXXXXXXX
        .XXX.XXXX.XXX.
        ..X...XX...X..
    """,
    Motif.MONK: """
        ...XXXX...
        ..XXXXXX..
        ..XXXXXX..
        ..XXXXXX..
        ...XXXX...
        ..........
        .XXXXXXXX.
        .XXXXXXXX.
        .XXXXXXXX.
        .XXXXXXXX.
        .XXXXXXXX.
        .XXXXXXXX.
        .XXXXXXXX.
    """,
    Motif.MAIDEN: """
        ....XXX....
        ...XXXXX...
        ...XXXXX...
        ....XXX....
        ...........
        .....X.....
        ....XXX....
        ...XXXXX...
        ...XXXXX...
        ..XXXXXXX..
        ..XXXXXXX..
        .XXXXXXXXX.
        XXXXXXXXXXX
    """,
    Motif.COFFIN: """
        ..XXXX..
        .XXXXXX.
        XXXXXXXX
        XXXXXXXX
        .XXXXXX.
        .XXXXXX.
        .XXXXXX.
        .XXXXXX.
        ..XXXX..
        ..XXXX..
        ..XXXX..
        ..XXXX..
    """,
    Motif.GARLIC: """
        .....X.....
        .....X.....
        .....X.....
        ....XXX....
        ...XXXXX...
        ..XXXXXXX..
        .XXXXXXXXX.
        XXXXXXXXXXX
        XXXXXXXXXXX
        XXXXXXXXXXX
        .XXXXXXXXX.
        ..XXXXXXX..
    """,
}


def _relief(height: np.ndarray, colour: BGR, blur: float) -> np.ndarray:
    """The colour over a height field lit from the upper left, as a plaster cast is seen.

    ``height`` is softened by ``blur`` (pixels) into bevels; a bevel facing the light is
    brightened towards white, one facing away darkened, and flat ground of any height keeps
    the colour itself, so a shape shows only where its height changes.
    """
    h = cv2.GaussianBlur(height.astype(np.float32), (0, 0), blur)
    gy, gx = np.gradient(h)
    slope = (gx + gy) * blur * np.sqrt(2 * np.pi)  # about +-1.4 across a unit step
    c = np.array(colour, np.float32)[None, None]
    lit = np.clip(slope, 0, None)[..., None]
    shade = np.clip(-slope, 0, None)[..., None]
    img = c + (255 - c) * np.clip(0.7 * lit, 0, 1)
    img = img * (1 - np.clip(0.55 * shade, 0, 0.8))
    return np.clip(img, 0, 255).astype(np.uint8)


def _gesso(tile: Tile) -> np.ndarray:
    n = PX * S
    height = np.ones((n, n), np.float32)  # a raised frame round a sunken field
    m = int(0.07 * n)
    height[m : n - m, m : n - m] = 0
    height[_shrunk_figure(tile.motif, n, 0.86)] = 1.0  # the figure raised from the field
    if tile.heart:
        # a heart pressed into the field in the lower right corner
        dent = np.zeros((n, n), np.uint8)
        _heart(dent, int(0.79 * n), int(0.8 * n), int(0.1 * n), (255, 255, 255))
        height[dent > 127] = -0.9
    img = _relief(height, _COL_Q[tile.colour], 2.2 * S)
    return _shrunk(_grain(img, 41 + ALL_TILES.index(tile), 5.0))


def _cells(img: np.ndarray, size: int) -> np.ndarray:
    """A small picture of cells blown up to ``size`` pixels square, each cell a hard block."""
    return cv2.resize(img, (size, size), interpolation=cv2.INTER_NEAREST)


def _arcade(tile: Tile) -> np.ndarray:
    g = 28  # cells across the face
    c = (g - 1) / 2
    yy, xx = np.mgrid[0:g, 0:g]
    disc = np.hypot(xx - c, yy - c) <= g / 2
    img = np.full((g, g, 3), _NIGHT_R, np.uint8)
    # the figure as a sprite, filled in the colour with a one-cell pale outline
    sprite = np.array([[ch == "X" for ch in row] for row in _SPRITES[tile.motif].split()])
    h, w = sprite.shape
    fig = np.zeros((g, g), bool)
    top, left = 12 - h // 2, (g - w) // 2
    fig[top : top + h, left : left + w] = sprite
    cross = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
    outline = (cv2.dilate(fig.astype(np.uint8), cross) > 0) & ~fig
    keep = cv2.dilate((outline | fig).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    heart = np.zeros((g, g), bool)
    if tile.heart:
        # a pixel heart in pale pink at the foot
        y0, x0 = g - 7, g // 2 - 3
        heart[y0 : y0 + 6, x0 : x0 + 7] = _PIXEL_HEART
        keep |= cv2.dilate(heart.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    # a fixed scatter of single-cell stars on the night, away from figure and heart
    rng = np.random.default_rng(17)
    inner = np.hypot(xx - c, yy - c) <= g / 2 - 2
    for y, x in rng.integers(0, g, (40, 2)):
        if inner[y, x] and not keep[y, x]:
            img[y, x] = _STAR_R
    colour = np.array(_COL_R[tile.colour])
    img[fig] = colour
    img[outline] = (235, 235, 240)
    img[heart] = (200, 190, 255)
    # a ring of dim cells marks the edge of the disc
    img[disc & (np.hypot(xx - c, yy - c) > g / 2 - 1.2)] = (110, 80, 70)
    return with_disc_alpha(_shrunk(_cells(img, PX * S)))


def _token_q(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    c = n // 2
    height = np.zeros((n, n), np.float32)
    if colour is None:
        # the back: grey stone with a raised five-pointed star
        base: BGR = (150, 152, 148)
        cv2.fillPoly(height, [_star(n, 0.34, 0.15).astype(np.int32)], 1.0, _AA)
    else:
        # a face: the colour with a raised ring and a raised boss in the middle
        base = colour
        cv2.circle(height, (c, c), int(0.3 * n), 1.0, int(0.07 * n), _AA)
        cv2.circle(height, (c, c), int(0.1 * n), 1.0, -1, _AA)
    img = _relief(height, base, 1.8 * S)
    return with_disc_alpha(_shrunk(img, 112))


def _token_r(colour: BGR | None) -> np.ndarray:
    g = 16
    c = (g - 1) / 2
    yy, xx = np.mgrid[0:g, 0:g]
    d = np.hypot(xx - c, yy - c)
    if colour is None:
        # the back: night with a pale crescent moon of cells
        img = np.full((g, g, 3), _NIGHT_R, np.uint8)
        moon = (np.hypot(xx - c, yy - c) < 5.5) & (np.hypot(xx - c - 2.5, yy - c + 1.5) >= 4.5)
        img[moon] = _STAR_R
    else:
        # a face: the colour, a dark band of cells with two white fangs under it
        img = np.full((g, g, 3), colour, np.uint8)
        img[6:8, 3:13] = (30, 28, 26)
        img[8:10, 5] = img[8:10, 10] = (245, 245, 245)
        img[10, 5] = img[10, 10] = (245, 245, 245)
    img[(d > g / 2 - 1.2) & (d <= g / 2)] = (110, 80, 70)
    return with_disc_alpha(_shrunk(_cells(img, 112 * S), 112))


# -- leaded and stitch ------------------------------------------------------------------------

#: glass colours: deep and saturated, as light through cathedral glass
_COL_S: dict[Colour, BGR] = {
    Colour.BLUE: (175, 85, 20),
    Colour.RED: (45, 35, 195),
    Colour.YELLOW: (30, 190, 240),
    Colour.GREEN: (60, 150, 40),
    Colour.PURPLE: (140, 45, 130),
}
_TOK_S = _token_palette(_COL_S, black=(32, 30, 30), white=(236, 238, 236))
_LEAD: BGR = (38, 38, 40)
_RUBY: BGR = (45, 20, 160)
#: how each pane mixes the colour: (towards black, towards white); clear panes are nearly white
_PANES: list[tuple[float, float]] = [
    (0.0, 0.0),
    (0.3, 0.0),
    (0.0, 0.4),
    (0.0, 0.82),
    (0.15, 0.0),
    (0.0, 0.6),
    (0.45, 0.0),
    (0.0, 0.2),
    (0.0, 0.9),
    (0.2, 0.0),
]

#: thread colours: dyed embroidery floss, a little softer than glass
_COL_T: dict[Colour, BGR] = {
    Colour.BLUE: (170, 95, 35),
    Colour.RED: (50, 45, 190),
    Colour.YELLOW: (35, 185, 230),
    Colour.GREEN: (65, 150, 55),
    Colour.PURPLE: (135, 55, 125),
}
_TOK_T = _token_palette(_COL_T, black=(40, 36, 36), white=(232, 236, 238))
_LINEN: BGR = (178, 196, 206)
_FLOSS: BGR = (52, 38, 44)
_NAVY_T: BGR = (95, 45, 30)
_BAT_CELLS = np.array(
    [
        [ch == "X" for ch in row]
        for row in (
            "X.........X",
            "XX..X.X..XX",
            "XXX.XXX.XXX",
            "XXXXXXXXXXX",
            ".XXXXXXXXX.",
            "..XX.X.XX..",
        )
    ]
)


def _mottle(n: int, seed: int, cells: int = 14) -> np.ndarray:
    """A smooth random field about 0 (a fixed one per seed), for glass that is never even."""
    rng = np.random.default_rng(seed)
    coarse = rng.normal(0, 1, (cells, cells)).astype(np.float32)
    fine = rng.normal(0, 1, (cells * 4, cells * 4)).astype(np.float32)
    field = cv2.resize(coarse, (n, n), interpolation=cv2.INTER_CUBIC)
    return field + 0.4 * cv2.resize(fine, (n, n), interpolation=cv2.INTER_CUBIC)


def _glass(colour: BGR, dark: float, pale: float) -> np.ndarray:
    c = np.array(colour, np.float32) * (1 - dark)
    return c + (255 - c) * pale


def _came(labels: np.ndarray, width: int) -> np.ndarray:
    """The lead lines between panes: where a pixel's pane differs from a neighbour's, widened."""
    edge = np.zeros(labels.shape, np.uint8)
    edge[1:] |= (labels[1:] != labels[:-1]).astype(np.uint8)
    edge[:, 1:] |= (labels[:, 1:] != labels[:, :-1]).astype(np.uint8)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width))
    return cv2.dilate(edge, disc) > 0


def _leaded(tile: Tile) -> np.ndarray:
    n = PX * S
    motif = list(Motif).index(tile.motif)
    rng = np.random.default_rng(61 + motif)  # one layout of panes per figure, as one cartoon
    seeds = rng.uniform(0.04, 0.96, (9, 2)) * n
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    dist = [np.hypot(xx - x, yy - y) for x, y in seeds]
    labels = np.argmin(np.stack(dist), axis=0).astype(np.int32)
    ink = _shrunk_figure(tile.motif, n, 0.8)
    labels[ink] = 50  # the figure is one pane of dark glass
    if tile.heart:
        heart = np.zeros((n, n), np.uint8)
        _heart(heart, int(0.17 * n), int(0.18 * n), int(0.095 * n), (255, 255, 255))
        labels[heart > 127] = 51  # a small ruby pane of its own in the corner
    order = rng.permutation(len(_PANES))
    img = np.zeros((n, n, 3), np.float32)
    for k in range(len(seeds)):
        img[labels == k] = _glass(_COL_S[tile.colour], *_PANES[order[k]])
    img[labels == 50] = _glass(_COL_S[tile.colour], 0.72, 0.0)
    img[labels == 51] = _RUBY
    # mottling: the glass thicker and thinner in places
    img *= 1 + 0.07 * _mottle(n, 71 + ALL_TILES.index(tile))[..., None]
    img = np.clip(img, 0, 255).astype(np.uint8)
    img[_came(labels, int(0.022 * n))] = _LEAD
    m = int(0.035 * n)  # the lead frame round the window
    cv2.rectangle(img, (m // 2, m // 2), (n - m // 2, n - m // 2), _LEAD, m)
    return _shrunk(img)


def _threads(n: int, angle: float, period: float) -> np.ndarray:
    """Satin stitch: parallel floats at ``angle`` (radians), each ``period`` pixels across."""
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    across = (xx * np.cos(angle) + yy * np.sin(angle)) / period
    return 0.78 + 0.3 * np.abs(np.sin(np.pi * across))  # bright on a thread, dark between


def _linen(n: int, seed: int) -> np.ndarray:
    """Plain-weave linen: a fine grid of warp and weft with uneven (slubbed) threads."""
    rng = np.random.default_rng(seed)
    p = 2.2 * S
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    weave = 0.05 * np.sin(2 * np.pi * xx / p) * np.sin(2 * np.pi * yy / p)
    rows = np.repeat(rng.normal(0, 0.035, n // int(p) + 1), int(p))[:n]
    cols = np.repeat(rng.normal(0, 0.035, n // int(p) + 1), int(p))[:n]
    light = 1 + weave + rows[:, None] + cols[None, :]
    return np.clip(np.array(_LINEN, np.float32) * light[..., None], 0, 255)


def _merrow(img: np.ndarray, colour: BGR, inner: float, outer: float) -> None:
    """A thick satin-stitched edge from radius ``inner`` to ``outer``: radial stitches, rounded."""
    n = len(img)
    c = (n - 1) / 2
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    r = np.hypot(xx - c, yy - c)
    band = (r >= inner) & (r <= outer + 2 * S)
    stitches = 0.8 + 0.25 * np.abs(np.sin(np.arctan2(yy - c, xx - c) * 170))
    roll = 0.7 + 0.4 * np.sin(np.pi * np.clip((r - inner) / (outer - inner), 0, 1))
    shade = (stitches * roll)[..., None] * np.array(colour, np.float32)
    img[band] = np.clip(shade, 0, 255)[band]


def _cross_stitch(
    img: np.ndarray, cells: np.ndarray, x0: int, y0: int, cell: int, thread: BGR
) -> None:
    """Each true cell of ``cells`` as a small X of ``thread``, the grid's top left at (x0, y0)."""
    w = max(1, cell // 3)
    for r, k in zip(*np.nonzero(cells), strict=True):
        x, y = x0 + k * cell, y0 + r * cell
        cv2.line(img, (x + w, y + w), (x + cell - w, y + cell - w), thread, w, _AA)
        cv2.line(img, (x + cell - w, y + w), (x + w, y + cell - w), thread, w, _AA)


def _stitch(tile: Tile) -> np.ndarray:
    n = PX * S
    colour = _COL_T[tile.colour]
    img = _linen(n, 81 + ALL_TILES.index(tile))
    _merrow(img, colour, 0.41 * n, 0.5 * n)
    # the figure in satin stitch in the colour, threads on a slant, edged by a darker split stitch
    ink = np.roll(_shrunk_figure(tile.motif, n, 0.72), -int(0.05 * n), axis=1)
    raised = np.roll(ink, (S, S), axis=(0, 1)) & ~ink
    img[raised] *= 0.6  # the shadow of the raised threads
    satin = _threads(n, np.radians(55), 2.6 * S)[..., None] * np.array(colour, np.float32)
    img[ink] = np.clip(satin, 0, 255)[ink]
    _pen_outline(img, ink, tuple(int(v * 0.6) for v in colour), S + 2)
    img = img.astype(np.uint8)
    if tile.heart:
        # a small cross-stitched heart in dark floss beside the figure
        cell = int(0.022 * n)
        h, w = _PIXEL_HEART.shape
        _cross_stitch(
            img,
            _PIXEL_HEART,
            int(0.81 * n) - w * cell // 2,
            int(0.5 * n) - h * cell // 2,
            cell,
            _FLOSS,
        )
    return with_disc_alpha(_shrunk(img))


def _token_s(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    c = n // 2
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    r = np.hypot(xx - c, yy - c)
    a = np.degrees(np.arctan2(yy - c, xx - c)) % 360
    labels = np.zeros((n, n), np.int32)
    if colour is None:
        # the back: amber-brown glass in four quarters round a small clear diamond
        glass = (40, 92, 140)
        labels[:] = (a // 90).astype(np.int32) + 1
        q = int(0.12 * n)
        diamond = np.zeros((n, n), np.uint8)
        pts = np.array([[c, c - q], [c + q, c], [c, c + q], [c - q, c]], np.int32)
        cv2.fillPoly(diamond, [pts], 255)
        labels[diamond > 0] = 9
        img = np.zeros((n, n, 3), np.float32)
        for k, pale in ((1, 0.0), (2, 0.2), (3, 0.0), (4, 0.2), (9, 0.8)):
            img[labels == k] = _glass(glass, 0.0, pale)
    else:
        # a face: a ring of six panes of the colour round a dark roundel holding two clear fangs
        labels[:] = (a // 60).astype(np.int32) + 1
        labels[r < 0.24 * n] = 8
        for x in (0.42, 0.58):
            fang = np.zeros((n, n), np.uint8)
            pts = np.array([[x - 0.06, 0.45], [x + 0.06, 0.45], [x, 0.62]]) * n
            cv2.fillPoly(fang, [pts.astype(np.int32)], 255)
            labels[fang > 0] = 9
        img = np.zeros((n, n, 3), np.float32)
        for k in range(1, 7):
            img[labels == k] = _glass(colour, 0.2 * (k % 2), 0.0)
        img[labels == 8] = _glass(colour, 0.7, 0.0)
        img[labels == 9] = (235, 240, 240)
    img *= 1 + 0.06 * _mottle(n, 9 if colour is None else 10)[..., None]
    img = np.clip(img, 0, 255).astype(np.uint8)
    img[_came(labels, int(0.03 * n))] = _LEAD
    cv2.circle(img, (c, c), int(0.47 * n), _LEAD, int(0.05 * n), _AA)
    return with_disc_alpha(_shrunk(img, 112))


def _token_t(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    c = n // 2
    if colour is None:
        # the back: bare linen, a navy merrow edge, a navy cross-stitched diamond
        img = _linen(n, 12)
        _merrow(img, _NAVY_T, 0.38 * n, 0.5 * n)
        img = img.astype(np.uint8)
        k = np.arange(7)
        diamond = np.abs(k[:, None] - 3) + np.abs(k[None, :] - 3) <= 3
        cell = int(0.05 * n)
        _cross_stitch(img, diamond, c - 7 * cell // 2, c - 7 * cell // 2, cell, _NAVY_T)
    else:
        # a face: all satin stitch in the colour, a darker merrow edge, a cross-stitched bat
        img = _threads(n, np.radians(55), 2.6 * S)[..., None] * np.array(colour, np.float32)
        _merrow(img, tuple(int(v * 0.6) for v in colour), 0.4 * n, 0.5 * n)
        img = np.clip(img, 0, 255).astype(np.uint8)
        thread = _FLOSS if sum(colour) > 450 else (236, 238, 240)
        cell = int(0.05 * n)
        h, w = _BAT_CELLS.shape
        _cross_stitch(img, _BAT_CELLS, c - w * cell // 2, c - h * cell // 2, cell, thread)
    return with_disc_alpha(_shrunk(img, 112))


# -- papercut and bottlecap -----------------------------------------------------------------

#: matte craft-paper colours
_COL_U: dict[Colour, BGR] = {
    Colour.BLUE: (165, 105, 40),
    Colour.RED: (55, 50, 195),
    Colour.YELLOW: (45, 190, 235),
    Colour.GREEN: (80, 155, 65),
    Colour.PURPLE: (145, 70, 135),
}
_TOK_U = _token_palette(_COL_U, black=(42, 40, 38), white=(236, 240, 242))
_PAPER_U: BGR = (228, 238, 244)
#: the sheets of a papercut, top to bottom: (how far in its window's edge lies, mix to white)
_SHEETS_U: list[tuple[float, float]] = [(0.05, 0.74), (0.1, 0.56), (0.16, 0.38), (0.22, 0.18)]


def _window(n: int, inset: float, lobes: int, phase: float) -> np.ndarray:
    """The hole cut in a paper sheet: a rounded square ``inset`` in, its edge in ``lobes`` waves."""
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n - 0.5
    squarish = (np.abs(xx) ** 5 + np.abs(yy) ** 5) ** 0.2
    wave = 0.012 * np.sin(lobes * np.arctan2(yy, xx) + phase)
    return squarish < 0.5 - inset + wave


def _cast_shadow(img: np.ndarray, sheet: np.ndarray, lift: int, strength: float) -> None:
    """Darken ``img`` where the raised ``sheet`` (a mask) shades it: down and right, soft."""
    shadow = np.roll(sheet.astype(np.float32), (lift, lift), axis=(0, 1))
    shadow = cv2.GaussianBlur(shadow, (0, 0), 1.3 * lift) * ~sheet
    img *= (1 - strength * shadow)[..., None]


def _papercut(tile: Tile) -> np.ndarray:
    n = PX * S
    colour = np.array(_COL_U[tile.colour], np.float32)
    rng = np.random.default_rng(91 + list(Motif).index(tile.motif))  # one cut per figure
    # the bottom sheet is the colour itself; each sheet above is paler, its window wider
    img = np.empty((n, n, 3), np.float32)
    img[:] = colour
    lift = int(0.012 * n)
    for inset, pale in reversed(_SHEETS_U):
        sheet = ~_window(n, inset, int(rng.integers(5, 9)), rng.uniform(0, 2 * np.pi))
        _cast_shadow(img, sheet, lift, 0.5)
        img[sheet] = colour + (255 - colour) * pale
    # the figure cut from cream paper and laid on the bottom sheet
    ink = _shrunk_figure(tile.motif, n, 0.6)
    _cast_shadow(img, ink, lift, 0.55)
    img[ink] = _PAPER_U
    if tile.heart:
        # a heart cut from a deep shade of the colour, pasted over the sheets top left
        heart = np.zeros((n, n), np.uint8)
        _heart(heart, int(0.16 * n), int(0.17 * n), int(0.085 * n), (255, 255, 255))
        _cast_shadow(img, heart > 127, lift, 0.55)
        img[heart > 127] = colour * 0.45
    img = np.clip(img, 0, 255).astype(np.uint8)
    return _shrunk(_grain(img, 101 + ALL_TILES.index(tile), 4.0))


#: glossy enamel colours, as printed on a crown cap
_COL_V: dict[Colour, BGR] = {
    Colour.BLUE: (180, 90, 15),
    Colour.RED: (35, 25, 200),
    Colour.YELLOW: (25, 195, 245),
    Colour.GREEN: (60, 160, 35),
    Colour.PURPLE: (150, 40, 145),
}
_TOK_V = _token_palette(_COL_V, black=(32, 30, 30), white=(238, 238, 236))
_CREAM_V: BGR = (205, 238, 248)
_KEY_V: BGR = (36, 30, 30)
_METAL_V: BGR = (172, 172, 168)
_FLUTES = 21


def _crown(n: int, colour: BGR, top: float) -> tuple[np.ndarray, np.ndarray]:
    """A crown cap seen from above in ``colour``: its picture and where its crimped outline is.

    The flat top (radius ``top`` of the width) is even; round it the skirt is pleated into
    flutes, each lit on the side that faces the light (upper left), so the rim reads as a
    ring of bright and dark teeth, and its outline dips between the flutes.
    """
    c = (n - 1) / 2
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    r = np.hypot(xx - c, yy - c) / n
    a = np.arctan2(yy - c, xx - c)
    lx, ly = -np.sqrt(0.5), -np.sqrt(0.5)  # towards the light
    towards = np.cos(a) * lx + np.sin(a) * ly  # the radial direction against the light
    across = -np.sin(a) * lx + np.cos(a) * ly  # the tangential direction against the light
    outline = 0.5 - 0.04 * (0.5 - 0.5 * np.cos(_FLUTES * a))
    skirt = np.clip((r - top) / 0.08, 0, 1)  # 0 on the top, 1 down the skirt
    shade = 1 + skirt * (0.25 * towards + 0.45 * np.sin(_FLUTES * a) * across - 0.12)
    bevel = np.exp(-(((r - top) / 0.012) ** 2))  # the rounded shoulder of the top
    shade += 0.3 * bevel * towards
    base = np.array(colour, np.float32)
    img = np.where(
        shade[..., None] > 1, base + (255 - base) * (shade[..., None] - 1), base * shade[..., None]
    )
    return np.clip(img, 0, 255), r <= outline


def _gloss(img: np.ndarray) -> None:
    """A soft white streak of reflected light across the upper left, over all the print."""
    n = len(img)
    streak = np.zeros((n, n), np.float32)
    cv2.ellipse(
        streak, (int(0.37 * n), int(0.34 * n)), (int(0.22 * n), int(0.05 * n)), -40, 0, 360, 1.0, -1
    )
    streak = cv2.GaussianBlur(streak, (0, 0), 0.03 * n)[..., None]
    img[:] = img + (255 - img) * 0.5 * streak


def _printed(img: np.ndarray, ink: np.ndarray, fill: BGR, key: int) -> None:
    """Print the mask ``ink`` in ``fill`` with a dark keyline ``key`` pixels wide round it."""
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * key + 1, 2 * key + 1))
    img[cv2.dilate(ink.astype(np.uint8), disc) > 0] = _KEY_V
    img[ink] = fill


def _cap_alpha(img: np.ndarray, cap: np.ndarray, size: int) -> np.ndarray:
    face = _shrunk(img.astype(np.uint8), size)
    face[..., 3] = cv2.resize(
        cap.astype(np.uint8) * 255, (size, size), interpolation=cv2.INTER_AREA
    )
    return with_disc_alpha(face)


def _bottlecap(tile: Tile) -> np.ndarray:
    n = PX * S
    img, cap = _crown(n, _COL_V[tile.colour], 0.4)
    # the figure printed in cream with a thin dark keyline
    _printed(img, _shrunk_figure(tile.motif, n, 0.62), _CREAM_V, int(0.9 * S))
    if tile.heart:
        # a heart-shaped cut in the print, bare grey metal showing through
        heart = np.zeros((n, n), np.uint8)
        _heart(heart, int(0.72 * n), int(0.71 * n), int(0.075 * n), (255, 255, 255))
        img[heart > 127] = _METAL_V
    _gloss(img)
    return _cap_alpha(img, cap, PX)


def _token_v(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    c = n // 2
    img, cap = _crown(n, _METAL_V if colour is None else colour, 0.38)
    if colour is None:
        # the back: bare metal with a stamped ring, lit on its lower right inner edge
        cv2.circle(img, (c - S, c - S), int(0.2 * n), (95, 95, 92), int(1.5 * S), _AA)
        cv2.circle(img, (c + S, c + S), int(0.2 * n), (225, 225, 222), int(1.5 * S), _AA)
    else:
        # a face: a dark mouth printed across it, two cream fangs hanging from it
        mouth = np.zeros((n, n), np.uint8)
        cv2.ellipse(mouth, (c, int(0.44 * n)), (int(0.2 * n), int(0.07 * n)), 0, 0, 180, 255, -1)
        img[mouth > 0] = _KEY_V
        for x in (0.42, 0.58):
            fang = np.zeros((n, n), np.uint8)
            pts = np.array([[x - 0.045, 0.46], [x + 0.045, 0.46], [x, 0.6]]) * n
            cv2.fillPoly(fang, [pts.astype(np.int32)], 255, _AA)
            _printed(img, fang > 127, _CREAM_V, int(0.9 * S))
    _gloss(img)
    return _cap_alpha(img, cap, 112)


def _token_u(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n - 0.5
    r = np.hypot(xx, yy)
    a = np.arctan2(yy, xx)
    lift = int(0.014 * n)
    base = np.array((120, 150, 175) if colour is None else colour, np.float32)
    img = np.empty((n, n, 3), np.float32)
    img[:] = base
    # rings of paper over the colour, paler outwards, each edge wavy and shading the one below
    for k, (edge, pale) in enumerate([(0.24, 0.2), (0.33, 0.45), (0.42, 0.7)]):
        sheet = r > edge + 0.01 * np.sin((5 + k) * a + k)
        _cast_shadow(img, sheet, lift, 0.5)
        img[sheet] = base + (255 - base) * pale
    if colour is None:
        # the back: kraft paper rings round a cream paper star
        star = np.zeros((n, n), np.uint8)
        cv2.fillPoly(star, [_star(n, 0.17, 0.075).astype(np.int32)], 255, _AA)
        mark = star > 127
    else:
        # a face: two cream paper fangs hanging from the top of the middle
        mark = _fangs(n, (0.43, 0.57), 0.05, 0.38, 0.6)
    _cast_shadow(img, mark, lift, 0.55)
    img[mark] = _PAPER_U
    img = np.clip(img, 0, 255).astype(np.uint8)
    return with_disc_alpha(_shrunk(_grain(img, 13 if colour is None else 14, 4.0), 112))


# -- tartan and chip --------------------------------------------------------------------------

#: wool dyes, as a tartan's ground shows them
_COL_W: dict[Colour, BGR] = {
    Colour.BLUE: (165, 95, 35),
    Colour.RED: (45, 40, 190),
    Colour.YELLOW: (50, 200, 240),
    Colour.GREEN: (65, 150, 55),
    Colour.PURPLE: (145, 60, 140),
}
_TOK_W = _token_palette(_COL_W, black=(34, 32, 32), white=(236, 238, 238))
_FELT_W: BGR = (214, 232, 240)
_THREAD_W: BGR = (38, 34, 34)


def _sett(n: int, colour: BGR) -> np.ndarray:
    """One thread line's colours across ``n`` pixels: the colour crossed by dark bands and lines.

    A tartan repeats a sett of stripes four times across the face: a wide band of a deep
    shade, a thin pale line in the colour's own field and a thin near-black line.
    """
    base = np.array(colour, np.float32)
    period = n / 4
    u = (np.arange(n) % period) / period
    line = np.tile(base, (n, 1))
    line[(u > 0.08) & (u < 0.36)] = base * 0.38
    line[(u > 0.62) & (u < 0.66)] = base + (255 - base) * 0.7
    line[(u > 0.2) & (u < 0.23)] = (25, 25, 25)
    return line


def _weave(n: int, colour: BGR) -> np.ndarray:
    """A 2/2 twill of the sett as warp and weft: where each shows runs in diagonal steps."""
    line = _sett(n, colour)
    yy, xx = np.mgrid[0:n, 0:n]
    step = 2 * S
    warp = ((xx + yy) // step) % 2 == 0
    img = np.where(warp[..., None], line[xx], line[yy])
    # each thread slightly rounded: darker where it dips under the next
    img *= 0.9 + 0.1 * np.cos(np.pi * ((xx + yy) % step) / step)[..., None]
    return img.astype(np.float32)


def _felt(img: np.ndarray, mask: np.ndarray, fill: BGR, thread: BGR = _THREAD_W) -> None:
    """Sew a felt patch ``mask`` in ``fill`` on ``img``, a running stitch inside its edge."""
    img[mask] = fill
    shrink = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5 * S, 5 * S))
    inner = cv2.erode(mask.astype(np.uint8), shrink) > 0
    edge = inner & ~(cv2.erode(inner.astype(np.uint8), np.ones((S, S), np.uint8)) > 0)
    yy, xx = np.nonzero(edge)
    dashes = ((xx + yy) // (3 * S)) % 2 == 0
    img[yy[dashes], xx[dashes]] = thread
    # a soft shadow the patch casts on the cloth, down and right
    _cast_shadow(img, mask, int(0.8 * S), 0.45)


def _tartan(tile: Tile) -> np.ndarray:
    n = PX * S
    img = _weave(n, _COL_W[tile.colour])
    # the figure a cream felt patch sewn on with a dark running stitch
    _felt(img, _shrunk_figure(tile.motif, n, 0.66), _FELT_W)
    if tile.heart:
        # a black felt heart sewn low on the right, stitched in cream
        heart = np.zeros((n, n), np.uint8)
        _heart(heart, int(0.81 * n), int(0.8 * n), int(0.09 * n), (255, 255, 255))
        _felt(img, heart > 127, (30, 28, 28), _FELT_W)
    img = np.clip(img, 0, 255).astype(np.uint8)
    return _shrunk(_grain(img, 131 + ALL_TILES.index(tile), 5.0))


def _token_w(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    c = n // 2
    if colour is None:
        # the back: a grey and black tartan with a cream felt ring sewn on
        img = _weave(n, (120, 122, 124))
        ring = np.zeros((n, n), np.uint8)
        cv2.circle(ring, (c, c), int(0.22 * n), 255, int(0.07 * n), _AA)
        _felt(img, ring > 127, _FELT_W)
    else:
        # a face: the colour's tartan, a dark felt mouth with two cream felt fangs
        img = _weave(n, colour)
        mouth = np.zeros((n, n), np.uint8)
        cv2.ellipse(mouth, (c, int(0.4 * n)), (int(0.24 * n), int(0.08 * n)), 0, 0, 180, 255, -1)
        _felt(img, mouth > 0, _THREAD_W)
        _felt(img, _fangs(n, (0.41, 0.59), 0.06, 0.44, 0.68), _FELT_W)
    img = np.clip(img, 0, 255).astype(np.uint8)
    return with_disc_alpha(_shrunk(_grain(img, 15 if colour is None else 16, 5.0), 112))


#: casino clay colours
_COL_X: dict[Colour, BGR] = {
    Colour.BLUE: (160, 80, 20),
    Colour.RED: (40, 30, 185),
    Colour.YELLOW: (40, 190, 235),
    Colour.GREEN: (70, 140, 30),
    Colour.PURPLE: (130, 40, 120),
}
_TOK_X = _token_palette(_COL_X, black=(30, 28, 28), white=(236, 236, 234))
_INLAY_X: BGR = (208, 232, 242)
_PRINT_X: BGR = (40, 34, 32)
_SPOT_X: BGR = (244, 244, 242)


def _chip(n: int, body: BGR, inlay: BGR, spots: int = 6) -> np.ndarray:
    """A clay poker chip from above: the body with white edge spots, a white ring, an inlay.

    The rim alternates body and white ``spots`` times; a thin white ring lies just inside
    it round the inlay disc; the clay darkens a little towards its edge.
    """
    c = (n - 1) / 2
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    r = np.hypot(xx - c, yy - c) / n
    a = np.arctan2(yy - c, xx - c) + np.pi / 2  # a spot at the top
    sector = np.abs(((a / (2 * np.pi / spots)) + 0.5) % 1 - 0.5)  # 0 at a spot's middle
    img = np.empty((n, n, 3), np.float32)
    img[:] = body
    spot = (r > 0.375) & (sector < 0.13)
    img[spot] = _SPOT_X
    img[(r > 0.325) & (r < 0.338)] = _SPOT_X
    img[r < 0.31] = inlay
    # the rounded edge of the clay turns away from the light
    img *= (1 - 0.35 * np.clip((r - 0.46) / 0.04, 0, 1) ** 2)[..., None]
    return img


def _sheen(img: np.ndarray, strength: float = 0.35) -> None:
    """A soft round highlight of a lamp on the glossy top, upper left of the middle."""
    n = len(img)
    glow = np.zeros((n, n), np.float32)
    cv2.circle(glow, (int(0.34 * n), int(0.3 * n)), int(0.16 * n), 1.0, -1)
    glow = cv2.GaussianBlur(glow, (0, 0), 0.09 * n)[..., None]
    img[:] = img + (255 - img) * strength * glow


def _chip_face(img: np.ndarray, size: int) -> np.ndarray:
    img = np.clip(img, 0, 255).astype(np.uint8)
    return with_disc_alpha(_shrunk(img, size))


def _chip_tile(tile: Tile) -> np.ndarray:
    n = PX * S
    colour = _COL_X[tile.colour]
    img = _chip(n, colour, _INLAY_X)
    # the figure printed dark on the inlay; moved left to leave room for the heart
    ink = _shrunk_figure(tile.motif, n, 0.46)
    if tile.heart:
        ink = np.roll(ink, -int(0.05 * n), axis=1)
        heart = np.zeros((n, n), np.uint8)
        _heart(heart, int(0.68 * n), int(0.6 * n), int(0.05 * n), (255, 255, 255))
        img[heart > 127] = colour
    img[ink] = _PRINT_X
    _sheen(img)
    return _chip_face(img, PX)


def _token_x(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    c = n // 2
    if colour is None:
        # the back: a black chip with white spots and a plain grey inlay with a ring
        img = _chip(n, (30, 28, 28), (150, 150, 148))
        cv2.circle(img, (c, c), int(0.2 * n), (95, 95, 95), int(1.5 * S), _AA)
    else:
        # a face: a chip in the colour, its inlay the colour too, a dark mouth with white fangs
        img = _chip(n, colour, colour)
        cv2.ellipse(
            img, (c, int(0.42 * n)), (int(0.17 * n), int(0.06 * n)), 0, 0, 180, _PRINT_X, -1
        )
        for x in (0.43, 0.57):
            pts = np.array([[x - 0.04, 0.44], [x + 0.04, 0.44], [x, 0.58]]) * n
            cv2.fillPoly(img, [pts.astype(np.int32)], _SPOT_X, _AA)
    _sheen(img)
    return _chip_face(img, 112)


# -- azulejo and vinyl -----------------------------------------------------------------------

#: glaze pigments: cobalt, iron red, antimony yellow, copper green, manganese
_COL_Y: dict[Colour, BGR] = {
    Colour.BLUE: (165, 85, 25),
    Colour.RED: (45, 55, 195),
    Colour.YELLOW: (35, 175, 230),
    Colour.GREEN: (85, 150, 45),
    Colour.PURPLE: (120, 45, 110),
}
_TOK_Y = _token_palette(_COL_Y, black=(38, 36, 36), white=(236, 238, 238))
_GLAZE_Y: BGR = (218, 236, 244)
_ORNAMENT_Y: BGR = (96, 72, 58)


def _crackle(n: int, seed: int, cells: int) -> np.ndarray:
    """The fine crazing of a glaze: the edges of about ``cells`` random, slightly warped cells."""
    rng = np.random.default_rng(seed)
    points = np.full((n, n), 255, np.uint8)
    for x, y in rng.uniform(0, n, (cells, 2)).astype(int):
        points[y, x] = 0
    _, labels = cv2.distanceTransformWithLabels(
        points, cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_CCOMP
    )
    # the cracks wander: read each pixel's label a little to one side, by a smooth field
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    dx, dy = (0.012 * n * _mottle(n, seed + k, 10) for k in (1, 2))
    warped = cv2.remap(labels.astype(np.float32), xx + dx, yy + dy, cv2.INTER_NEAREST)
    return _came(warped.astype(np.int32), max(1, S // 2))


def _brushed(n: int, seed: int) -> np.ndarray:
    """How thick the paint lies: streaks along the strokes of a brush, about 1 (a fixed field)."""
    rng = np.random.default_rng(seed)
    streaks = cv2.resize(
        rng.normal(0, 1, (48, 5)).astype(np.float32), (n, n), interpolation=cv2.INTER_CUBIC
    )
    return 1 + 0.1 * streaks + 0.04 * _mottle(n, seed + 1, 30)


def _painted(img: np.ndarray, mask: np.ndarray, colour: BGR, seed: int, line: float) -> None:
    """Paint ``mask`` by hand in ``colour``: a wobbly edge, uneven strokes, a darker outline.

    The outline is the same pigment laid on thicker, ``line`` pixels wide give or take a third.
    """
    n = len(img)
    soft = cv2.GaussianBlur(mask.astype(np.float32), (0, 0), 1.5 * S)
    shape = soft + 0.12 * np.clip(_mottle(n, seed, 40), -2, 2) > 0.5  # never a stray blot
    base = np.array(colour, np.float32)
    paint = base[None, None] * _brushed(n, seed + 2)[..., None]
    img[shape] = (0.88 * paint + 0.12 * img)[shape]  # thin enough to let the glaze glow through
    inside = cv2.distanceTransform(shape.astype(np.uint8), cv2.DIST_L2, 5)
    width = line * (1 + 0.33 * _mottle(n, seed + 3, 24))
    img[shape & (inside < width)] = base * 0.5


def _ornaments(img: np.ndarray) -> None:
    """The corner pattern every tile of the set shares: where four tiles meet it makes a rosette."""
    n = len(img)
    layer = np.zeros((n, n), np.uint8)
    for cx in (0, n - 1):
        for cy in (0, n - 1):
            cv2.circle(layer, (cx, cy), int(0.055 * n), 255, -1, _AA)
            cv2.circle(layer, (cx, cy), int(0.12 * n), 255, int(0.018 * n), _AA)
            angle = np.degrees(np.arctan2(n / 2 - cy, n / 2 - cx))
            at = (cx + (0.5 * n - cx) * 0.3, cy + (0.5 * n - cy) * 0.3)
            axes = (int(0.045 * n), int(0.016 * n))
            cv2.ellipse(layer, (int(at[0]), int(at[1])), axes, angle, 0, 360, 255, -1, _AA)
    a = (layer.astype(np.float32) / 255)[..., None] * 0.92
    img[:] = img * (1 - a) + np.array(_ORNAMENT_Y, np.float32) * a


def _specular(
    img: np.ndarray, at: tuple[float, float], axes: tuple[float, float], angle: float
) -> None:
    """A glossy streak of a window's light, soft-edged, at ``at`` (shares of the side)."""
    n = len(img)
    streak = np.zeros((n, n), np.float32)
    centre = (int(at[0] * n), int(at[1] * n))
    cv2.ellipse(streak, centre, (int(axes[0] * n), int(axes[1] * n)), angle, 0, 360, 1.0, -1)
    streak = cv2.GaussianBlur(streak, (0, 0), 0.025 * n)[..., None]
    img[:] = img + (255 - img) * 0.55 * streak


def _glaze(n: int, colour: BGR, seed: int) -> np.ndarray:
    """A glazed ground in ``colour``, never quite even, crazed by fine cracks."""
    img = np.empty((n, n, 3), np.float32)
    img[:] = colour
    img *= 1 + 0.035 * _mottle(n, seed, 8)[..., None]
    return img


def _rounded_alpha(face: np.ndarray, radius: float) -> np.ndarray:
    """A square face with corners rounded ``radius`` of its side: the table shows there."""
    n = len(face)
    r = int(radius * n)
    mask = np.zeros((n, n), np.uint8)
    cv2.rectangle(mask, (r, 0), (n - 1 - r, n - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (n - 1, n - 1 - r), 255, -1)
    for x in (r, n - 1 - r):
        for y in (r, n - 1 - r):
            cv2.circle(mask, (x, y), r, 255, -1, _AA)
    face[..., 3] = mask
    return face


def _azulejo(tile: Tile) -> np.ndarray:
    n = PX * S
    seed = 211 + 10 * ALL_TILES.index(tile)
    colour = _COL_Y[tile.colour]
    img = _glaze(n, _GLAZE_Y, seed)
    _ornaments(img)
    _painted(img, _shrunk_figure(tile.motif, n, 0.64), colour, seed + 1, 2.4 * S)
    if tile.heart:
        heart = np.zeros((n, n), np.uint8)
        _heart(heart, int(0.27 * n), int(0.27 * n), int(0.062 * n), (255, 255, 255))
        _painted(img, heart > 127, colour, seed + 5, 1.8 * S)
    img[_crackle(n, seed + 7, 70)] *= 0.8
    # the glaze thins over the rounded edge of the tile
    edge = cv2.distanceTransform(np.pad(np.ones((n - 2, n - 2), np.uint8), 1), cv2.DIST_L2, 5)
    img *= (0.86 + 0.14 * np.clip(edge / (0.02 * n), 0, 1))[..., None]
    _specular(img, (0.84, 0.16), (0.24, 0.035), 45)
    img = np.clip(img, 0, 255).astype(np.uint8)
    return _rounded_alpha(_shrunk(img), 0.04)


def _token_y(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    c = n // 2
    if colour is None:
        # the back: cream glaze with a painted rosette in the ornaments' blue-grey
        img = _glaze(n, _GLAZE_Y, 17)
        rosette = np.zeros((n, n), bool)
        for k in range(8):
            a = k * np.pi / 4
            at = (int(c + 0.24 * n * np.cos(a)), int(c + 0.24 * n * np.sin(a)))
            leaf = np.zeros((n, n), np.uint8)
            cv2.ellipse(leaf, at, (int(0.09 * n), int(0.03 * n)), np.degrees(a), 0, 360, 255, -1)
            rosette |= leaf > 0
        ring = np.zeros((n, n), np.uint8)
        cv2.circle(ring, (c, c), int(0.41 * n), 255, int(0.03 * n))
        cv2.circle(ring, (c, c), int(0.08 * n), 255, -1)
        _painted(img, rosette | (ring > 0), _ORNAMENT_Y, 18, 1.5 * S)
    else:
        # a face: glazed all over in the colour, a blue-grey ring, a dark mouth, glaze-white fangs
        img = _glaze(n, colour, 19)
        ring = np.zeros((n, n), np.uint8)
        cv2.circle(ring, (c, c), int(0.41 * n), 255, int(0.03 * n))
        _painted(img, ring > 0, _ORNAMENT_Y, 20, 1.5 * S)
        mouth = np.zeros((n, n), np.uint8)
        cv2.ellipse(mouth, (c, int(0.4 * n)), (int(0.22 * n), int(0.08 * n)), 0, 0, 180, 255, -1)
        _painted(img, mouth > 0, (40, 36, 44), 21, 1.5 * S)
        _painted(img, _fangs(n, (0.42, 0.58), 0.05, 0.43, 0.64), _GLAZE_Y, 22, 1.2 * S)
    img[_crackle(n, 23, 40)] *= 0.8
    _specular(img, (0.72, 0.26), (0.2, 0.035), 45)
    img = np.clip(img, 0, 255).astype(np.uint8)
    return with_disc_alpha(_shrunk(img, 112))


#: label inks
_COL_Z: dict[Colour, BGR] = {
    Colour.BLUE: (190, 100, 20),
    Colour.RED: (40, 35, 210),
    Colour.YELLOW: (30, 200, 245),
    Colour.GREEN: (60, 165, 50),
    Colour.PURPLE: (150, 50, 140),
}
_TOK_Z = _token_palette(_COL_Z, black=(28, 28, 30), white=(238, 238, 238))
_VINYL_Z: BGR = (20, 19, 21)
_LABEL_R = 0.225  # the label's radius: 45 % of the record's diameter
_HOLE_R = 0.013  # the spindle hole's


def _record(n: int, colour: BGR, label: float) -> tuple[np.ndarray, np.ndarray]:
    """A record from above in ``colour``: its picture (label bare) and its radius at each pixel.

    Fine grooves run round from the rim to a smooth run-out round the label, broken into
    tracks by narrow glossy gaps; the grooves catch the lamp in a soft bow-tie of light, on
    opposite sides of the middle, as a record's sheen does.
    """
    c = (n - 1) / 2
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    r = np.hypot(xx - c, yy - c) / n
    a = np.arctan2(yy - c, xx - c)
    grooves = 0.5 + 0.5 * np.sin(2 * np.pi * r * n / (0.9 * S))
    gap = np.zeros_like(r, dtype=bool)
    for g in (0.3, 0.345, 0.39, 0.44):
        gap |= np.abs(r - g) < 0.004
    runout = r < label + 0.035
    sheen = np.exp(-((np.sin(a + np.pi / 4) / 0.35) ** 2))  # along the lamp's diagonal
    sheen *= np.clip((r - label) / 0.05, 0, 1)
    light = 0.06 + 0.55 * sheen * np.where(gap | runout, 0.5, 0.35 + 0.65 * grooves)
    light += 0.1 * np.exp(-(((r - 0.492) / 0.005) ** 2))  # the raised lip at the rim
    base = np.array(colour, np.float32)
    img = base + (255 - base) * light[..., None]
    return img, r


def _label(img: np.ndarray, r: np.ndarray, colour: BGR, radius: float) -> None:
    """The paper label in ``colour``, with a printed ring in a deeper shade just inside its edge."""
    base = np.array(colour, np.float32)
    inside = r < radius
    img[inside] = base
    img[np.abs(r - 0.9 * radius) < 0.004] = base * 0.7


def _vinyl_face(img: np.ndarray, r: np.ndarray, size: int) -> np.ndarray:
    img = np.clip(img, 0, 255).astype(np.uint8)
    face = _shrunk(img, size)
    hole = cv2.resize(
        (r >= _HOLE_R).astype(np.uint8) * 255, (size, size), interpolation=cv2.INTER_AREA
    )
    face[..., 3] = hole
    return with_disc_alpha(face)


def _vinyl(tile: Tile) -> np.ndarray:
    n = PX * S
    colour = _COL_Z[tile.colour]
    img, r = _record(n, _VINYL_Z, _LABEL_R)
    _label(img, r, colour, _LABEL_R)
    img = _grain(np.clip(img, 0, 255).astype(np.uint8), 301 + ALL_TILES.index(tile), 4.0)
    img = img.astype(np.float32)
    ink = (20, 20, 20) if sum(colour) > 450 else (245, 245, 245)
    img[_shrunk_figure(tile.motif, n, 0.36)] = ink
    if tile.heart:
        _heart(img, n // 2, int((0.5 - 0.165) * n), int(0.03 * n), ink)
    return _vinyl_face(img, r, PX)


def _token_z(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    c = n // 2
    if colour is None:
        # the back: a black record with a plain grey label
        img, r = _record(n, _VINYL_Z, 0.3)
        _label(img, r, (150, 150, 150), 0.3)
    else:
        # a face: a single pressed in coloured vinyl, its label a tint of it, a vampire's mouth
        img, r = _record(n, colour, 0.3)
        base = np.array(colour, np.float32)
        _label(img, r, tuple(base + (255 - base) * 0.25), 0.3)
        cv2.ellipse(
            img,
            (c, int(0.37 * n)),
            (int(0.15 * n), int(0.06 * n)),
            0,
            0,
            180,
            (25, 25, 25),
            -1,
            _AA,
        )
        img[_fangs(n, (0.44, 0.56), 0.035, 0.4, 0.55)] = (245, 245, 245)
    return _vinyl_face(img, r, 112)


# -- terrazzo and cookie ---------------------------------------------------------------------

#: cement pigments, mid tones
_COL_TZ: dict[Colour, BGR] = {
    Colour.BLUE: (150, 95, 45),
    Colour.RED: (55, 60, 170),
    Colour.YELLOW: (50, 165, 210),
    Colour.GREEN: (90, 140, 60),
    Colour.PURPLE: (125, 60, 115),
}
_TOK_TZ = _token_palette(_COL_TZ, black=(40, 38, 38), white=(232, 234, 232))
_STONE_TZ: BGR = (222, 232, 236)
_BRASS_TZ: BGR = (60, 140, 185)
_BRASS_DARK_TZ: BGR = (40, 95, 135)
#: the marble chips strewn in the cement: white, greys, black and a few of other stones,
#: with how often each is drawn
_AGGREGATE_TZ: list[tuple[BGR, float]] = [
    ((238, 240, 240), 0.3),
    ((178, 180, 178), 0.18),
    ((110, 112, 112), 0.14),
    ((32, 32, 34), 0.18),
    ((50, 75, 160), 0.05),  # rust red
    ((70, 160, 205), 0.05),  # ochre
    ((120, 155, 115), 0.04),  # sage
    ((150, 120, 90), 0.03),  # slate blue
    ((170, 175, 225), 0.03),  # pink marble
]


def _aggregate(img: np.ndarray, seed: int, chips: int, keep_out: np.ndarray | None = None) -> None:
    """Strew ``chips`` small irregular stone chips over ``img`` (not where ``keep_out`` is).

    Each chip is a random polygon of five to eight corners, most small and a few large,
    its stone drawn from the aggregate's mix and its tone a little uneven.
    """
    n = len(img)
    rng = np.random.default_rng(seed)
    stones = np.array([c for c, _ in _AGGREGATE_TZ], np.float32)
    odds = np.array([p for _, p in _AGGREGATE_TZ])
    layer = img.copy()
    for _ in range(chips):
        x, y = rng.uniform(0, n, 2)
        size = n * (0.008 + 0.022 * rng.random() ** 2)
        corners = rng.integers(5, 9)
        angles = np.sort(rng.uniform(0, 2 * np.pi, corners))
        radii = size * rng.uniform(0.55, 1.2, corners)
        pts = np.stack([x + radii * np.cos(angles), y + radii * np.sin(angles)], 1)
        stone = stones[rng.choice(len(stones), p=odds / odds.sum())] + rng.normal(0, 8)
        cv2.fillPoly(layer, [pts.astype(np.int32)], tuple(float(v) for v in stone), _AA)
    if keep_out is not None:
        layer[keep_out] = img[keep_out]
    img[:] = layer


def _inlay(img: np.ndarray, mask: np.ndarray, fill: BGR | np.ndarray, strip: float) -> None:
    """Set ``mask`` into the slab in ``fill`` (a colour or a picture), edged by a brass strip
    ``strip`` pixels wide."""
    k = max(1, int(strip))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
    img[cv2.dilate(mask.astype(np.uint8), disc) > 0] = _BRASS_DARK_TZ
    img[mask] = np.broadcast_to(np.asarray(fill, np.float32), img.shape)[mask]


def _polish(img: np.ndarray, strength: float = 0.14) -> None:
    """The faint broad sheen of a polished floor: a soft band of light across the upper left."""
    n = len(img)
    band = np.zeros((n, n), np.float32)
    cv2.ellipse(
        band, (int(0.35 * n), int(0.35 * n)), (int(0.5 * n), int(0.12 * n)), -45, 0, 360, 1.0, -1
    )
    band = cv2.GaussianBlur(band, (0, 0), 0.08 * n)[..., None]
    img[:] = img + (255 - img) * strength * band


def _bevel(img: np.ndarray, width: float) -> None:
    """A thin ground bevel round a square slab: lit along the top and left, shaded below, right."""
    w = max(1, int(width))
    light = np.ones(img.shape[:2], np.float32)
    light[:w] = 1.15
    light[:, :w] = 1.15
    light[-w:] = 0.8
    light[:, -w:] = 0.8
    img *= light[..., None]


def _terrazzo_ground(n: int, colour: BGR, seed: int, chips: int) -> np.ndarray:
    img = np.empty((n, n, 3), np.float32)
    img[:] = colour
    img *= 1 + 0.04 * _mottle(n, seed, 10)[..., None]
    _aggregate(img, seed + 1, chips)
    return img


def _terrazzo(tile: Tile) -> np.ndarray:
    n = PX * S
    seed = 401 + 10 * ALL_TILES.index(tile)
    img = _terrazzo_ground(n, _COL_TZ[tile.colour], seed, 300)
    # the figure a smooth off-white stone, never quite even, set in a thin brass strip
    stone = np.array(_STONE_TZ, np.float32) * (1 + 0.02 * _mottle(n, seed + 3, 6))[..., None]
    _inlay(img, _shrunk_figure(tile.motif, n, 0.64), stone, 0.011 * n)
    if tile.heart:
        heart = np.zeros((n, n), np.uint8)
        _heart(heart, n // 2, int(0.875 * n), int(0.055 * n), (255, 255, 255))
        _inlay(img, heart > 127, _BRASS_TZ, 0.008 * n)
    _polish(img)
    _bevel(img, 0.012 * n)
    return _shrunk(np.clip(img, 0, 255).astype(np.uint8))


def _token_tz(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    c = n // 2
    seed = 17 if colour is None else 19 + sum(colour)
    img = _terrazzo_ground(n, (170, 172, 170) if colour is None else colour, seed, 140)
    ring = np.zeros((n, n), np.uint8)
    cv2.circle(ring, (c, c), int(0.44 * n), 255, int(0.02 * n), _AA)
    img[ring > 127] = _BRASS_TZ
    if colour is not None:
        # a face: a vampire's mouth of black stone with fangs of white, set in brass
        mouth = np.zeros((n, n), np.uint8)
        cv2.ellipse(mouth, (c, int(0.4 * n)), (int(0.2 * n), int(0.08 * n)), 0, 0, 180, 255, -1)
        _inlay(img, mouth > 0, (30, 30, 32), 0.012 * n)
        _inlay(img, _fangs(n, (0.42, 0.58), 0.045, 0.41, 0.6), _STONE_TZ, 0.008 * n)
    _polish(img)
    return with_disc_alpha(_shrunk(np.clip(img, 0, 255).astype(np.uint8), 112))


#: food colours
_COL_CK: dict[Colour, BGR] = {
    Colour.BLUE: (200, 125, 45),
    Colour.RED: (55, 45, 205),
    Colour.YELLOW: (55, 205, 245),
    Colour.GREEN: (75, 170, 80),
    Colour.PURPLE: (160, 70, 150),
}
_TOK_CK = _token_palette(_COL_CK, black=(45, 42, 44), white=(240, 242, 244))
_BAKED_CK: BGR = (80, 155, 210)
_CRUST_CK: BGR = (40, 92, 150)
_PIPING_CK: BGR = (246, 248, 250)
_CHOC_CK: BGR = (35, 55, 85)


def _biscuit(n: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A round biscuit from above: its picture, its outline, and each pixel's radius and angle.

    The dough is golden, crumbly (a fine speckle, darker baked spots, pale sugar), browner
    towards a rim that is a little out of round, and split by a few short cracks.
    """
    rng = np.random.default_rng(seed)
    c = (n - 1) / 2
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    r = np.hypot(xx - c, yy - c) / n
    a = np.arctan2(yy - c, xx - c)
    wobble = sum(rng.uniform(0.002, 0.005) * np.sin(k * a + rng.uniform(0, 6.3)) for k in (3, 5, 8))
    edge = 0.488 + wobble
    baked = np.clip((r - (edge - 0.09)) / 0.09, 0, 1) ** 1.5
    dough, crust = np.array(_BAKED_CK, np.float32), np.array(_CRUST_CK, np.float32)
    img = dough + (crust - dough) * baked[..., None]
    img *= 1 + 0.06 * _mottle(n, seed + 1, 20)[..., None]
    img = _grain(np.clip(img, 0, 255).astype(np.uint8), seed + 2, 9.0).astype(np.float32)
    for x, y in rng.uniform(0, n, (int(0.0009 * n * n / S**2), 2)).astype(int):
        spot = 0.55 if rng.random() < 0.6 else 1.25
        cv2.circle(
            img,
            (x, y),
            int(rng.uniform(0.3, 1.0) * S),
            tuple(float(v) for v in np.clip(img[y, x] * spot, 0, 255)),
            -1,
            _AA,
        )
    for _ in range(6):
        t = rng.uniform(0, 2 * np.pi)
        pts, rad = [], edge.max()
        for _ in range(7):
            pts.append([c + rad * n * np.cos(t), c + rad * n * np.sin(t)])
            rad -= rng.uniform(0.012, 0.025)
            t += rng.normal(0, 0.05)
        line = np.array(pts, np.int32)
        cv2.polylines(img, [line + S // 2], False, (150, 205, 235), max(1, S // 2), _AA)
        cv2.polylines(img, [line], False, (25, 50, 85), max(1, S // 2), _AA)
    # the biscuit rounds off at its edge, away from the light
    img *= (1 - 0.3 * np.clip((r - edge + 0.02) / 0.02, 0, 1))[..., None]
    return img, r <= edge, r, a


def _icing(
    img: np.ndarray, r: np.ndarray, a: np.ndarray, colour: BGR, radius: float, seed: int
) -> np.ndarray:
    """Flood icing in ``colour`` over the middle, its edge wavy, glossy: return where it lies.

    It casts a soft shadow on the biscuit below and to the right, is a shade deeper where it
    thins at its edge and shines in a soft streak of the lamp at the upper left.
    """
    n = len(img)
    rng = np.random.default_rng(seed)
    edge = radius + sum(
        rng.uniform(0.004, 0.009) * np.sin(k * a + rng.uniform(0, 6.3)) for k in (5, 7, 11)
    )
    iced = r <= edge
    shadow = cv2.GaussianBlur(
        np.roll(iced.astype(np.float32), (int(0.01 * n), int(0.01 * n)), (0, 1)), (0, 0), 0.006 * n
    )
    img *= (1 - 0.35 * shadow * ~iced)[..., None]
    base = np.array(colour, np.float32) * (1 + 0.03 * _mottle(n, seed + 1, 8))[..., None]
    rim = np.clip((r - edge + 0.018) / 0.018, 0, 1)[..., None]
    img[iced] = (base * (1 - 0.25 * rim))[iced]
    gloss = np.zeros((n, n), np.float32)
    cv2.ellipse(
        gloss, (int(0.36 * n), int(0.3 * n)), (int(0.13 * n), int(0.03 * n)), -40, 0, 360, 1.0, -1
    )
    gloss = cv2.GaussianBlur(gloss, (0, 0), 0.02 * n) * iced
    img[:] = img + (255 - img) * 0.45 * gloss[..., None]
    return iced


def _piped(img: np.ndarray, lines: np.ndarray, colour: BGR) -> None:
    """Pipe ``lines`` (a mask) in raised icing of ``colour``: a soft shadow down and right."""
    n = len(img)
    shade = cv2.GaussianBlur(
        np.roll(lines.astype(np.float32), (int(0.006 * n), int(0.006 * n)), (0, 1)),
        (0, 0),
        0.004 * n,
    )
    img *= (1 - 0.4 * shade)[..., None]
    img[lines] = colour
    shine = cv2.GaussianBlur(
        np.roll(lines.astype(np.float32), (-int(0.003 * n), -int(0.003 * n)), (0, 1)) * lines,
        (0, 0),
        0.002 * n,
    )
    img[:] = img + (255 - img) * 0.3 * shine[..., None]


def _line_figure(motif: Motif, n: int, zoom: float, thick: float, dx: float) -> np.ndarray:
    """The figure as a line ``thick`` pixels wide, drawn ``zoom`` times its size, ``dx`` right."""
    big = np.zeros((n, n), np.uint8)
    _silhouette(big, motif, n, (255, 255, 255), fill=False, thick=max(1, int(thick / zoom)))
    small = cv2.resize(big, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_AREA)
    off = (n - len(small)) // 2
    out = np.zeros((n, n), np.uint8)
    out[off : off + len(small), off : off + len(small)] = small
    return np.roll(out, int(dx), axis=1) > 110


def _cookie(tile: Tile) -> np.ndarray:
    n = PX * S
    seed = 503 + 10 * ALL_TILES.index(tile)
    img, outline, r, a = _biscuit(n, seed)
    _icing(img, r, a, _COL_CK[tile.colour], 0.375, seed + 3)
    lines = _line_figure(tile.motif, n, 0.74, 0.022 * n, -0.05 * n if tile.heart else 0)
    if tile.heart:
        heart = np.zeros((n, n), np.uint8)
        _heart(heart, int(0.71 * n), int(0.66 * n), int(0.05 * n), 255, int(0.02 * n))
        lines |= heart > 127
    _piped(img, lines, _PIPING_CK)
    return _cap_alpha(np.clip(img, 0, 255), outline, PX)


def _token_ck(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    c = n // 2
    img, outline, r, a = _biscuit(n, 29)
    if colour is None:
        # the back: a plain biscuit, docked with a ring of small holes
        for k in range(8):
            t = k * np.pi / 4
            at = (int(c + 0.22 * n * np.cos(t)), int(c + 0.22 * n * np.sin(t)))
            cv2.circle(img, at, int(0.018 * n), (30, 60, 100), -1, _AA)
        cv2.circle(img, (c, c), int(0.018 * n), (30, 60, 100), -1, _AA)
    else:
        # a face: iced in the colour, a vampire's mouth and fangs piped over it
        _icing(img, r, a, colour, 0.37, 31 + sum(colour))
        pipe = _CHOC_CK if sum(colour) > 600 else _PIPING_CK
        marks = np.zeros((n, n), np.uint8)
        w = int(0.025 * n)
        cv2.ellipse(marks, (c, int(0.4 * n)), (int(0.2 * n), int(0.09 * n)), 0, 0, 180, 255, w, _AA)
        cv2.line(marks, (int(0.3 * n), int(0.4 * n)), (int(0.7 * n), int(0.4 * n)), 255, w, _AA)
        for x in (0.42, 0.58):
            pts = np.array([[x - 0.045, 0.4], [x + 0.045, 0.4], [x, 0.6]]) * n
            cv2.polylines(marks, [pts.astype(np.int32)], True, 255, w, _AA)
        _piped(img, marks > 110, pipe)
    return _cap_alpha(np.clip(img, 0, 255), outline, 112)


# -- brick and clock -------------------------------------------------------------------------

#: moulded toy plastic
_COL_BR: dict[Colour, BGR] = {
    Colour.BLUE: (185, 100, 20),
    Colour.RED: (35, 30, 205),
    Colour.YELLOW: (20, 205, 250),
    Colour.GREEN: (55, 155, 35),
    Colour.PURPLE: (145, 55, 150),
}
_TOK_BR = _token_palette(_COL_BR, black=(34, 33, 32), white=(242, 242, 240))
_DECAL_BR: BGR = (246, 247, 248)
_HEART_BR: BGR = (40, 35, 215)
_BACK_BR: BGR = (160, 162, 158)
_STUDS_BR = 4  # studs along each side of a tile
#: the lamp every brick face is lit by: up and to the left, as a unit step in pixels of x, y
_LAMP_BR = (-0.7071, -0.7071)


def _stud_light(n: int, centres: list[tuple[float, float]], radius: float) -> np.ndarray:
    """How the lamp lights a plate with round studs at ``centres`` (pixels), ``radius`` wide.

    Each stud is a short cylinder: a bright rim where it faces the lamp, a darker rim on
    the far side, and a soft shadow cast on the plate away from the lamp. Returned as a
    factor about 1, to multiply over whatever is printed on the plate (the print follows
    the studs, so they show through it).
    """
    studs = np.zeros((n, n), np.float32)
    for x, y in centres:
        cv2.circle(studs, (int(x), int(y)), int(radius), 1.0, -1, _AA)
    lx, ly = _LAMP_BR

    def moved(field: np.ndarray, by: float) -> np.ndarray:
        m = np.float32([[1, 0, -lx * by], [0, 1, -ly * by]])
        return cv2.warpAffine(field, m, (n, n))

    shadow = cv2.GaussianBlur(moved(studs, 0.35 * radius), (0, 0), 0.12 * radius) * (1 - studs)
    facing = np.clip(studs - moved(studs, 0.14 * radius), 0, 1)  # the rim towards the lamp
    lit = np.clip(studs - moved(studs, -0.14 * radius), 0, 1)  # the rim away from it
    lit = cv2.GaussianBlur(lit, (0, 0), 0.03 * radius)
    facing = cv2.GaussianBlur(facing, (0, 0), 0.03 * radius)
    return 1 - 0.38 * shadow - 0.3 * lit + 0.45 * facing + 0.05 * studs


def _plastic(img: np.ndarray, light: np.ndarray) -> np.ndarray:
    """Light a moulded plate: ``light`` over it (above 1 whitens), and a glossy fall of
    light from the upper left to the lower right."""
    n = len(img)
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n
    fall = 1.08 - 0.16 * (xx + yy) / 2
    shade = np.minimum(light, 1)[..., None] * fall[..., None]
    out = img * shade
    glint = np.clip(light - 1, 0, None)[..., None]
    return out + (255 - out) * np.clip(glint * 1.6, 0, 1)


def _plate_edge(img: np.ndarray, width: float) -> None:
    """The moulded edge of a square plate: a lit lip top and left, shaded bottom and right."""
    w = max(1, int(width))
    light = np.ones(img.shape[:2], np.float32)
    light[:w] *= 1.12
    light[:, :w] *= 1.12
    light[-w:] *= 0.72
    light[:, -w:] *= 0.72
    img *= light[..., None]


def _mouth_mark(img: np.ndarray, ground: BGR, ink: BGR) -> None:
    """A vampire's mark printed in ``ink`` on a token of ``ground``: a curved lip, two fangs."""
    n = len(img)
    c = n // 2
    cv2.ellipse(img, (c, int(0.42 * n)), (int(0.21 * n), int(0.08 * n)), 0, 0, 180, ink, -1)
    for x in (0.42, 0.58):
        pts = np.array([[x - 0.04, 0.42], [x + 0.04, 0.42], [x, 0.6]]) * n
        cv2.fillPoly(img, [pts.astype(np.int32)], ink, _AA)
    cv2.ellipse(img, (c, int(0.42 * n)), (int(0.14 * n), int(0.035 * n)), 0, 0, 180, ground, -1)


def _brick(tile: Tile) -> np.ndarray:
    n = PX * S
    colour = np.array(_COL_BR[tile.colour], np.float32)
    img = np.empty((n, n, 3), np.float32)
    img[:] = colour
    # the figure a white decal printed flat over the studs
    img[_shrunk_figure(tile.motif, n, 0.86)] = _DECAL_BR
    if tile.heart:
        # a small square decal in the top right corner, a red outlined heart printed on it
        x0, y0, side = int(0.74 * n), int(0.06 * n), int(0.2 * n)
        decal = np.zeros((n, n), np.uint8)
        cv2.rectangle(decal, (x0, y0), (x0 + side, y0 + side), 255, -1)
        img[decal > 0] = _DECAL_BR
        _heart(img, x0 + side / 2, y0 + side / 2, 0.07 * n, _HEART_BR, int(0.016 * n))
    pitch = n / _STUDS_BR
    centres = [((i + 0.5) * pitch, (j + 0.5) * pitch) for i in range(4) for j in range(4)]
    img = _plastic(img, _stud_light(n, centres, 0.3 * pitch))
    _plate_edge(img, 0.014 * n)
    face = _shrunk(np.clip(img, 0, 255).astype(np.uint8))
    return _rounded_alpha(face, 0.05)


def _token_br(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    c = n // 2
    img = np.empty((n, n, 3), np.float32)
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    r = np.hypot(xx - c, yy - c) / n
    if colour is None:
        # the back: a grey round plate with four studs
        img[:] = _BACK_BR
        at = [(c + dx * 0.19 * n, c + dy * 0.19 * n) for dx in (-1, 1) for dy in (-1, 1)]
        light = _stud_light(n, at, 0.12 * n)
    else:
        # a face: a smooth round tile in the colour, a vampire's mouth printed on it
        img[:] = colour
        _mouth_mark(img, colour, (30, 30, 30) if sum(colour) > 600 else _DECAL_BR)
        light = np.ones((n, n), np.float32)
    # the raised lip round the edge of a round plate
    light = light * (1 + 0.1 * ((r > 0.455) & (r < 0.47)) - 0.28 * np.clip((r - 0.47) / 0.03, 0, 1))
    img = _plastic(img, light.astype(np.float32))
    return with_disc_alpha(_shrunk(np.clip(img, 0, 255).astype(np.uint8), 112))


#: vitreous enamel colours
_COL_CL: dict[Colour, BGR] = {
    Colour.BLUE: (150, 75, 25),
    Colour.RED: (40, 45, 185),
    Colour.YELLOW: (25, 175, 232),
    Colour.GREEN: (60, 128, 40),
    Colour.PURPLE: (118, 45, 105),
}
_TOK_CL = _token_palette(_COL_CL, black=(36, 34, 34), white=(236, 238, 238))
_ENAMEL_CL: BGR = (226, 238, 243)
_TICK_CL: BGR = (40, 38, 38)
_HAND_CL: BGR = (18, 18, 20)
_METAL_CL: BGR = (172, 176, 180)


def _dial(n: int, enamel: BGR, seed: int, ticks: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """A clock dial from above: its picture and each pixel's radius (shares of the side).

    Enamel never quite even, twelve dark hour ticks in a ring (the one at 12 longer), and
    a rim of brushed metal, its grain running round the dial, lit at the upper left.
    """
    c = (n - 1) / 2
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    r = np.hypot(xx - c, yy - c) / n
    a = np.arctan2(yy - c, xx - c)
    img = np.empty((n, n, 3), np.float32)
    img[:] = enamel
    img *= (1 + 0.018 * _mottle(n, seed, 6))[..., None]
    if ticks:
        for k in range(12):
            t = k * np.pi / 6 - np.pi / 2
            inner = 0.335 if k == 0 else 0.355
            p0 = (int(c + inner * n * np.cos(t)), int(c + inner * n * np.sin(t)))
            p1 = (int(c + 0.405 * n * np.cos(t)), int(c + 0.405 * n * np.sin(t)))
            cv2.line(img, p0, p1, _TICK_CL, int(0.016 * n if k % 3 == 0 else 0.009 * n), _AA)
    # the metal rim: brushed round, brighter where it faces the lamp, a dark seam inside
    rng = np.random.default_rng(seed + 1)
    grain = cv2.resize(rng.normal(0, 1, (1, 360)).astype(np.float32), (360, 1))[0]
    brushed = grain[((a + np.pi) / (2 * np.pi) * 359).astype(int)]
    lamp = np.cos(a + 3 * np.pi / 4)  # 1 towards the upper left
    metal = np.array(_METAL_CL, np.float32) * (1 + 0.22 * lamp + 0.05 * brushed)[..., None]
    rim = r > 0.435
    img[rim] = metal[rim]
    img[(r > 0.425) & (r <= 0.437)] = (90, 92, 95)
    img *= (1 - 0.4 * np.clip((r - 0.48) / 0.02, 0, 1))[..., None]
    return img, r


def _hands(img: np.ndarray, hour: float, minute: float) -> None:
    """Two thin black hands at ``hour`` and ``minute`` (angles from 12, clockwise, in turns),
    with a pivot cap; they stand off the dial, so each casts a faint shadow down and right."""
    n = len(img)
    c = (n - 1) / 2
    drawn = np.zeros((n, n), np.uint8)
    for turn, length, width in ((hour, 0.24, 0.017), (minute, 0.36, 0.011)):
        t = 2 * np.pi * turn - np.pi / 2
        tail = (int(c - 0.06 * n * np.cos(t)), int(c - 0.06 * n * np.sin(t)))
        tip = (int(c + length * n * np.cos(t)), int(c + length * n * np.sin(t)))
        cv2.line(drawn, tail, tip, 255, max(1, int(width * n)), _AA)
    cv2.circle(drawn, (int(c), int(c)), int(0.025 * n), 255, -1, _AA)
    hands = drawn.astype(np.float32) / 255
    lift = int(0.012 * n)
    shadow = cv2.GaussianBlur(np.roll(hands, (lift, lift), (0, 1)), (0, 0), 0.006 * n)
    img *= (1 - 0.3 * shadow * (1 - hands))[..., None]
    img[:] = img * (1 - hands[..., None]) + np.array(_HAND_CL, np.float32) * hands[..., None]


def _clock_glass(img: np.ndarray) -> None:
    """The faint reflection of a window in the domed glass, upper left."""
    _specular(img, (0.33, 0.27), (0.16, 0.035), -35)


def _outlined(img: np.ndarray, mask: np.ndarray, colour: BGR, line: float) -> None:
    """Fill ``mask`` in ``colour`` with an outline ``line`` pixels wide in a darker shade."""
    k = max(1, int(line))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
    img[cv2.dilate(mask.astype(np.uint8), disc) > 0] = np.array(colour, np.float32) * 0.5
    img[mask] = colour


def _clock(tile: Tile) -> np.ndarray:
    n = PX * S
    index = ALL_TILES.index(tile)
    colour = _COL_CL[tile.colour]
    img, r = _dial(n, _ENAMEL_CL, 601 + index)
    _outlined(img, _shrunk_figure(tile.motif, n, 0.62), colour, 0.008 * n)
    if tile.heart:
        _heart(img, n / 2, 0.215 * n, 0.038 * n, colour)
    # the hands stand at a time of their own on every face
    rng = np.random.default_rng(607 + index)
    _hands(img, rng.random(), rng.random())
    _clock_glass(img)
    return _cap_alpha(np.clip(img, 0, 255), r <= 0.5, PX)


def _token_cl(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    if colour is None:
        # the back: a plain dial, its ticks and rim only
        img, r = _dial(n, _ENAMEL_CL, 37)
    else:
        # a face: a small dial enamelled in the colour, no ticks, a vampire's mouth on it
        img, r = _dial(n, colour, 41 + sum(colour), ticks=False)
        _mouth_mark(img, colour, (30, 30, 30) if sum(colour) > 600 else (245, 245, 245))
    _clock_glass(img)
    return _cap_alpha(np.clip(img, 0, 255), r <= 0.5, 112)


#: stains on the veneer of the figure
_COL_MQ: dict[Colour, BGR] = {
    Colour.BLUE: (165, 98, 38),
    Colour.RED: (42, 44, 178),
    Colour.YELLOW: (32, 188, 238),
    Colour.GREEN: (62, 132, 48),
    Colour.PURPLE: (122, 52, 112),
}
_TOK_MQ = _token_palette(_COL_MQ, black=(40, 38, 42), white=(226, 232, 236))
_MAPLE_MQ: BGR = (142, 184, 212)  # the ground veneer, a pale figured wood
_EBONY_MQ: BGR = (38, 42, 52)
_HOLLY_MQ: BGR = (222, 232, 238)
_GLUE_MQ: BGR = (48, 60, 80)
_BURNT_MQ: BGR = (34, 44, 62)


def _wood(n: int, seed: int, angle: float, period: float) -> np.ndarray:
    """Wood grain on an n-px veneer as a darkening factor 0..1 (1 in the late wood).

    Growth rings cut along their length: wavy bands ``period`` of the side apart,
    running at ``angle`` (radians), each with a narrow dark late-wood line, and fine
    pores streaked along the grain. Every seed is another piece of wood.
    """
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n
    across = -xx * np.sin(angle) + yy * np.cos(angle)
    along = xx * np.cos(angle) + yy * np.sin(angle)
    warp = 0.05 * _mottle(n, seed, 4) + 0.02 * np.sin(2 * np.pi * (along * 1.3 + rng.random()))
    phase = (across + warp) / period
    rings = (0.5 + 0.5 * np.cos(2 * np.pi * phase)) ** 8
    pores = rng.normal(0, 1, 4096).astype(np.float32)
    pores = np.convolve(pores, np.ones(3) / 3, "same")
    at = ((across + warp) * 1400).astype(np.int64) % len(pores)
    streaks = pores[at] * (0.6 + 0.4 * np.cos(2 * np.pi * along * 3 + rng.random() * 6))
    return np.clip(0.75 * rings + 0.09 * streaks + 0.08, 0, 1)


def _veneer(n: int, colour: BGR, seed: int, angle: float, depth: float) -> np.ndarray:
    """A veneer of ``colour`` darkened ``depth`` in its grain."""
    img = np.empty((n, n, 3), np.float32)
    img[:] = colour
    return img * (1 - depth * _wood(n, seed, angle, 0.11))[..., None]


def _cut_line(img: np.ndarray, mask: np.ndarray, width: float) -> None:
    """The dark knife cut and glue line round an inlaid piece ``mask``."""
    k = max(1, int(width))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
    m = mask.astype(np.uint8)
    img[(cv2.dilate(m, disc) > 0) & ~mask] = _GLUE_MQ


def _pearl(n: int, seed: int) -> np.ndarray:
    """Mother of pearl: a pale shell whose tint wanders pink, green and blue, in layers."""
    img = np.empty((n, n, 3), np.float32)
    img[:] = (228, 230, 232)
    for k, tint in enumerate(((18, -6, 10), (-8, 12, -4), (14, 6, -12))):
        img += _mottle(n, seed + k, 5)[..., None] * np.array(tint, np.float32) * 0.6
    return img


def _marquetry(tile: Tile) -> np.ndarray:
    n = PX * S
    index = ALL_TILES.index(tile)
    # the ground a pale figured veneer, its grain running across the face, another piece
    # of wood on every face
    img = _veneer(n, _MAPLE_MQ, 701 + index, 0.18, 0.42)
    # the border: a cross-banded edge of the same wood, an ebony and holly stringing inside
    edge = _veneer(n, _MAPLE_MQ, 907 + index, np.pi / 2 + 0.18, 0.42) * 0.86
    yy, xx = np.mgrid[0:n, 0:n]
    inset = np.minimum(np.minimum(xx, yy), np.minimum(n - 1 - xx, n - 1 - yy)) / n
    img[inset < 0.07] = edge[inset < 0.07]
    img[(inset >= 0.07) & (inset < 0.09)] = _EBONY_MQ
    img[(inset >= 0.09) & (inset < 0.098)] = _HOLLY_MQ
    # the figure a veneer stained in the colour, cut with its grain across the ground's
    figure = _shrunk_figure(tile.motif, n, 0.8)
    stained = _veneer(n, _COL_MQ[tile.colour], 1301 + index, 1.35, 0.3)
    img[figure] = stained[figure]
    _cut_line(img, figure, 0.006 * n)
    if tile.heart:
        # a small heart of mother of pearl set low on the right
        heart = np.zeros((n, n), np.uint8)
        _heart(heart, 0.77 * n, 0.79 * n, 0.075 * n, 255)
        shell = heart > 127
        img[shell] = _pearl(n, 31 + index)[shell]
        _cut_line(img, shell, 0.005 * n)
    # a satin varnish: warmer, and a little brighter towards the upper left
    img *= (1.04 - 0.08 * (xx + yy) / (2 * n))[..., None]
    return _shrunk(np.clip(img, 0, 255).astype(np.uint8))


def _token_radii() -> tuple[int, np.ndarray]:
    """A token face's drawing size and each pixel's distance from its middle, as a
    share of that size: where a turned or moulded token's rings are drawn."""
    n = 112 * S
    c = (n - 1) / 2
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    return n, np.hypot(xx - c, yy - c) / n


def _token_mq(colour: BGR | None) -> np.ndarray:
    n, r = _token_radii()
    if colour is None:
        # the back: a bare turned disc of the ground wood, a burnt ring in the middle
        img = _veneer(n, _MAPLE_MQ, 53, 0.3, 0.42)
        img[(r > 0.16) & (r < 0.19)] = _BURNT_MQ
    else:
        # a face: a disc of wood stained in the colour, a vampire's mouth burnt into it
        # (inlaid in holly where the stain is too dark to burn on)
        img = _veneer(n, colour, 59 + sum(colour), 0.3, 0.3)
        mark = np.zeros((n, n, 3), np.float32)
        _mouth_mark(mark, (0, 0, 0), (255, 255, 255))
        ink = _HOLLY_MQ if sum(colour) < 250 else _BURNT_MQ
        img[mark[..., 0] > 127] = ink
    # the lathe's grooves near the rim, and the rounded edge falling into shade
    img[((r > 0.405) & (r < 0.412)) | ((r > 0.425) & (r < 0.43))] *= 0.7
    img *= (1 - 0.35 * np.clip((r - 0.47) / 0.03, 0, 1))[..., None]
    return _cap_alpha(np.clip(img, 0, 255), r <= 0.5, 112)


#: the card behind the lace
_COL_DY: dict[Colour, BGR] = {
    Colour.BLUE: (172, 92, 28),
    Colour.RED: (45, 38, 196),
    Colour.YELLOW: (28, 196, 242),
    Colour.GREEN: (66, 150, 50),
    Colour.PURPLE: (140, 56, 132),
}
_TOK_DY = _token_palette(_COL_DY, black=(36, 36, 38), white=(240, 242, 242))
_PAPER_DY: BGR = (236, 242, 245)
_SILHOUETTE_DY: BGR = (26, 24, 26)
_GREY_DY: BGR = (128, 128, 126)


def _doily_holes(n: int, rings: list[tuple[float, int, float, float]]) -> np.ndarray:
    """The holes pierced in a paper doily: for each ring (radius, count, long, wide: shares
    of the side) ``count`` teardrop holes pointing outwards (round where long == wide)."""
    c = (n - 1) / 2
    holes = np.zeros((n, n), np.uint8)
    for radius, count, long, wide in rings:
        for k in range(count):
            t = 2 * np.pi * (k + 0.5 * (count % 2)) / count - np.pi / 2
            centre = (int(c + radius * n * np.cos(t)), int(c + radius * n * np.sin(t)))
            axes = (max(1, int(long * n)), max(1, int(wide * n)))
            cv2.ellipse(holes, centre, axes, np.degrees(t), 0, 360, 255, -1, _AA)
    return holes > 127


def _doily(
    n: int, card: BGR, seed: int, holes: np.ndarray, scallops: int, edge: float
) -> tuple[np.ndarray, np.ndarray]:
    """A white paper doily with a scalloped edge on a round card of ``card``: the picture and
    each pixel's radius. The card shows only through the holes and past the scallops, each
    hole shaded on its upper left side where the paper's thickness stands over it."""
    c = (n - 1) / 2
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    r = np.hypot(xx - c, yy - c) / n
    a = np.arctan2(yy - c, xx - c)
    paper = r < edge - 0.025 * (1 - np.abs(np.cos(scallops * a / 2)))
    paper &= ~holes
    img = np.empty((n, n, 3), np.float32)
    img[:] = card
    img *= (1 + 0.03 * _mottle(n, seed, 6))[..., None]
    lift = max(1, int(0.006 * n))
    shade = cv2.GaussianBlur(np.roll(paper.astype(np.float32), (lift, lift), (0, 1)), (0, 0), lift)
    img *= (1 - 0.35 * shade * ~paper)[..., None]
    sheet = _grain(np.full((n, n, 3), _PAPER_DY, np.uint8), seed, 5.0).astype(np.float32)
    img[paper] = sheet[paper]
    return img, r


def _pricked(img: np.ndarray, mask: np.ndarray, colour: BGR, inset: float, step: float) -> None:
    """Pin pricks a step apart along a line ``inset`` pixels inside ``mask``'s edge, each
    showing ``colour`` from the card behind."""
    k = max(1, int(inset))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
    inner = cv2.erode(mask.astype(np.uint8), disc)
    contours, _ = cv2.findContours(inner, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    for contour in contours:
        points = contour[:, 0, :].astype(np.float32)
        walked = np.concatenate([[0], np.cumsum(np.hypot(*np.diff(points, axis=0).T))])
        for d in np.arange(0, walked[-1], step):
            x, y = points[np.searchsorted(walked, d).clip(0, len(points) - 1)]
            cv2.circle(img, (int(x), int(y)), max(1, int(0.3 * inset)), colour, -1, _AA)


def _foil(img: np.ndarray, mask: np.ndarray) -> None:
    """Gold foil stamped over ``mask``: bright where it faces the lamp (upper left)."""
    n = len(img)
    ys, xs = np.nonzero(mask)
    span = max(1, int(xs.max() - xs.min() + ys.max() - ys.min()))
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    lit = np.clip(1 - ((xx - xs.min()) + (yy - ys.min())) / span, 0, 1)[..., None]
    gold = np.array((40, 120, 170), np.float32) + lit * np.array((150, 115, 80), np.float32)
    img[mask] = gold[mask]


def _doily_tile(tile: Tile) -> np.ndarray:
    n = PX * S
    index = ALL_TILES.index(tile)
    colour = _COL_DY[tile.colour]
    holes = _doily_holes(
        n, [(0.415, 24, 0.03, 0.013), (0.355, 24, 0.016, 0.016), (0.305, 36, 0.006, 0.006)]
    )
    img, r = _doily(n, colour, 811 + index, holes, 24, 0.485)
    # the figure a black paper silhouette pasted on, a line of pin pricks inside its edge
    figure = _shrunk_figure(tile.motif, n, 0.54)
    lift = int(0.008 * n)
    shadow = cv2.GaussianBlur(
        np.roll(figure.astype(np.float32), (lift, lift), (0, 1)), (0, 0), lift
    )
    img *= (1 - 0.25 * shadow * ~figure)[..., None]
    img[figure] = _SILHOUETTE_DY
    _pricked(img, figure, colour, 0.022 * n, 0.03 * n)
    if tile.heart:
        # a small heart stamped in gold foil above the figure
        heart = np.zeros((n, n), np.uint8)
        _heart(heart, n / 2, 0.25 * n, 0.05 * n, 255)
        _foil(img, heart > 127)
    return _cap_alpha(np.clip(img, 0, 255), r <= 0.5, PX)


def _token_dy(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    holes = _doily_holes(n, [(0.37, 16, 0.045, 0.022), (0.27, 16, 0.018, 0.018)])
    # a back: the same doily on a grey card, nothing on it
    img, r = _doily(n, colour or _GREY_DY, 61, holes, 16, 0.48)
    if colour is not None:
        # a face: a vampire's mouth cut from black paper in the middle
        mark = np.zeros((n, n, 3), np.float32)
        _mouth_mark(mark, (0, 0, 0), (255, 255, 255))
        img[mark[..., 0] > 127] = _SILHOUETTE_DY
    return _cap_alpha(np.clip(img, 0, 255), r <= 0.5, 112)


# -- riso and wax ------------------------------------------------------------------------------

#: the risograph's colour drums
_COL_RS: dict[Colour, BGR] = {
    Colour.BLUE: (176, 104, 24),
    Colour.RED: (62, 42, 212),
    Colour.YELLOW: (22, 200, 248),
    Colour.GREEN: (92, 152, 34),
    Colour.PURPLE: (148, 62, 124),
}
_TOK_RS = _token_palette(_COL_RS, black=(50, 46, 48), white=(238, 240, 242))
_PAPER_RS: BGR = (212, 228, 236)  # a warm off-white recycled stock
_KEY_RS: BGR = (60, 52, 54)  # the black drum, never quite black


def _riso_ink(n: int, seed: int, coverage: float) -> np.ndarray:
    """How much ink a risograph drum lays on an n-px sheet, 0..1: never even.

    Stencil-printed ink leaves fine specks of bare paper, a faint mottle and streaks
    along the sheet's path through the drum (top to bottom); every seed is another sheet.
    """
    rng = np.random.default_rng(seed)
    specks = cv2.resize(
        rng.random((n // S, n // S)).astype(np.float32), (n, n), interpolation=cv2.INTER_NEAREST
    )
    streaks = cv2.resize(rng.normal(0, 1, (1, n // 16)).astype(np.float32), (n, n))
    ink = coverage + 0.05 * _mottle(n, seed + 1, 8) + 0.04 * streaks
    return np.clip(ink - 0.5 * (specks > 0.93), 0, 1)


def _overprint(sheet: np.ndarray, cover: np.ndarray, ink: BGR, amount: np.ndarray) -> None:
    """Print ``ink`` over ``sheet`` where ``cover`` (0..1) lies: riso ink is translucent and
    multiplies, so the black drum over the colour comes out darker than either alone."""
    k = (cover * amount)[..., None]
    sheet *= 1 - k * (1 - np.array(ink, np.float32) / 255)


def _off_register(cover: np.ndarray, shift: np.ndarray, angle: float) -> np.ndarray:
    """``cover`` as a drum prints it that took the sheet ``shift`` pixels off and turned
    ``angle`` degrees."""
    n = len(cover)
    m = cv2.getRotationMatrix2D((n / 2, n / 2), angle, 1.0)
    m[:, 2] += shift
    return cv2.warpAffine(cover.astype(np.float32), m, (n, n))


def _riso(tile: Tile) -> np.ndarray:
    n = PX * S
    index = ALL_TILES.index(tile)
    rng = np.random.default_rng(1501 + index)
    sheet = np.full((n, n, 3), _PAPER_RS, np.uint8)
    sheet = _grain(sheet, 1503 + index, 6.0).astype(np.float32)
    # the black drum: the figure, and the heart top right
    key = _shrunk_figure(tile.motif, n, 0.8).astype(np.float32)
    if tile.heart:
        heart = np.zeros((n, n), np.float32)
        _heart(heart, 0.8 * n, 0.2 * n, 0.075 * n, 1.0)
        key = np.maximum(key, heart)
    # the colour drum: a block inside a paper margin with the key knocked out a little wide,
    # printed off register, another way on every sheet, so bare paper shows on one side of
    # the figure and black over the colour on the other
    block = np.zeros((n, n), np.float32)
    m = int(0.07 * n)
    block[m : n - m, m : n - m] = 1
    k = int(0.008 * n)
    trap = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
    block *= 1 - cv2.dilate(key, trap)
    block = _off_register(block, rng.uniform(-0.03, 0.03, 2) * n, rng.uniform(-1.5, 1.5))
    _overprint(sheet, block, _COL_RS[tile.colour], _riso_ink(n, 1507 + index, 0.97))
    _overprint(sheet, key, _KEY_RS, _riso_ink(n, 1509 + index, 0.95))
    return _shrunk(np.clip(sheet, 0, 255).astype(np.uint8))


def _token_rs(colour: BGR | None) -> np.ndarray:
    n, r = _token_radii()
    sheet = _grain(np.full((n, n, 3), _PAPER_RS, np.uint8), 67, 6.0).astype(np.float32)
    mark = np.zeros((n, n, 3), np.float32)
    _mouth_mark(mark, (0, 0, 0), (1, 1, 1))
    mouth = mark[..., 0]
    if colour is None:
        # the back: bare paper, a double ring printed by the black drum
        rings = (((r > 0.36) & (r < 0.375)) | ((r > 0.395) & (r < 0.4))).astype(np.float32)
        _overprint(sheet, rings, _KEY_RS, _riso_ink(n, 71, 0.95))
    else:
        # a face: a disc of the colour, off register, the mouth knocked out to bare paper
        # (printed by the black drum on white, which would not show it)
        disc = (r < 0.43).astype(np.float32)
        pale = sum(colour) > 600
        cover = disc if pale else disc * (1 - mouth)
        cover = _off_register(cover, np.array([0.025, -0.015]) * n, 1.0)
        _overprint(sheet, cover, colour, _riso_ink(n, 73 + sum(colour), 0.97))
        if pale:
            _overprint(sheet, mouth, _KEY_RS, _riso_ink(n, 79, 0.95))
    return _cap_alpha(np.clip(sheet, 0, 255), r <= 0.5, 112)


#: sealing waxes
_COL_WX: dict[Colour, BGR] = {
    Colour.BLUE: (150, 82, 28),
    Colour.RED: (40, 32, 172),
    Colour.YELLOW: (36, 168, 218),
    Colour.GREEN: (58, 122, 40),
    Colour.PURPLE: (118, 42, 102),
}
_TOK_WX = _token_palette(_COL_WX, black=(36, 34, 36), white=(228, 232, 234))
_SILVER_WX: BGR = (150, 148, 142)


def _blob(n: int, seed: int, spread: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A poured blob of wax from above: its edge's radius at each pixel's angle, and each
    pixel's radius and angle (shares of the side). Never round: a slow wobble and two or
    three runs where the wax flowed further before it set, another outline every seed."""
    rng = np.random.default_rng(seed)
    c = (n - 1) / 2
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    r = np.hypot(xx - c, yy - c) / n
    a = np.arctan2(yy - c, xx - c)
    edge = spread + sum(
        rng.uniform(0.005, 0.012) * np.sin(k * a + rng.uniform(0, 6.3)) for k in (2, 3, 5, 7)
    )
    for _ in range(int(rng.integers(2, 4))):
        t, width = rng.uniform(-np.pi, np.pi), rng.uniform(0.12, 0.25)
        off = np.angle(np.exp(1j * (a - t)))
        edge = edge + rng.uniform(0.015, 0.03) * np.exp(-((off / width) ** 2))
    return np.minimum(edge, 0.493), r, a


def _wax_shade(height: np.ndarray, colour: BGR, blur: float) -> np.ndarray:
    """Wax of ``colour`` over a height field: lit from the upper left, glossy (a small hard
    highlight on every slope that faces the lamp), darker where it turns away."""
    h = cv2.GaussianBlur(height.astype(np.float32), (0, 0), blur)
    gy, gx = np.gradient(h)
    norm = np.sqrt(gx**2 + gy**2 + 1)
    light = np.array([-0.45, -0.45, 0.77])
    diffuse = np.clip((-gx * light[0] - gy * light[1] + light[2]) / norm, 0, 1)
    half = light + np.array([0, 0, 1.0])
    half /= np.linalg.norm(half)
    spec = np.clip((-gx * half[0] - gy * half[1] + half[2]) / norm, 0, 1) ** 60
    img = np.array(colour, np.float32) * (0.35 + 0.75 * diffuse)[..., None]
    return img + (255 - img) * (0.75 * spec)[..., None]


def _seal_height(n: int, edge: np.ndarray, r: np.ndarray, stamp: float) -> np.ndarray:
    """The blob's height: domed, rounding off at its edge; a disc ``stamp`` across pressed
    flat into it, the wax squeezed up in a lip round the seal, a raised ring inside."""
    body = np.sqrt(np.clip((edge - r) / 0.06, 0, 1))
    lip = 0.5 * np.exp(-(((r - stamp) / 0.022) ** 2))
    pressed = np.where(r < stamp, -0.55, 0)
    ring = np.where((r > stamp - 0.05) & (r < stamp - 0.036), 0.35, 0)
    return body + lip + pressed + ring


def _wax(tile: Tile) -> np.ndarray:
    n = PX * S
    index = ALL_TILES.index(tile)
    edge, r, _ = _blob(n, 1601 + index, 0.455)
    height = _seal_height(n, edge, r, 0.37)
    # the seal's figure and heart, cut into the stamp, stand raised in the wax
    raised = _shrunk_figure(tile.motif, n, 0.66).astype(np.float32)
    if tile.heart:
        _heart(raised, n / 2, 0.235 * n, 0.045 * n, 1.0)
    height += 0.9 * raised
    img = _wax_shade(height * 0.02 * n, _COL_WX[tile.colour], 0.006 * n)
    img *= (1 + 0.04 * _mottle(n, 1603 + index, 10))[..., None]
    return _cap_alpha(np.clip(img, 0, 255), r <= edge, PX)


def _token_wx(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    edge, r, _ = _blob(n, 83 if colour is None else 89 + sum(colour), 0.455)
    height = _seal_height(n, edge, r, 0.34)
    if colour is not None:
        # a face: a small seal in wax of the colour, a vampire's mouth raised on it
        mark = np.zeros((n, n, 3), np.float32)
        _mouth_mark(mark, (0, 0, 0), (1, 1, 1))
        height += 0.9 * mark[..., 0]
    # the back: a seal in silver wax, its stamp bare
    img = _wax_shade(height * 0.02 * n, colour or _SILVER_WX, 0.006 * n)
    return _cap_alpha(np.clip(img, 0, 255), r <= edge, 112)


# -- neon and cabochon ------------------------------------------------------------------------

#: the gas and glass of the tubes: the colour they glow
_COL_NE: dict[Colour, BGR] = {
    Colour.BLUE: (255, 128, 24),
    Colour.RED: (64, 40, 255),
    Colour.YELLOW: (36, 214, 255),
    Colour.GREEN: (70, 255, 64),
    Colour.PURPLE: (236, 56, 196),
}
#: the tokens: acrylic discs painted a little darker than the tubes glow
_PAINT_NE: dict[Colour, BGR] = {
    Colour.BLUE: (204, 102, 19),
    Colour.RED: (51, 32, 204),
    Colour.YELLOW: (28, 171, 204),
    Colour.GREEN: (56, 204, 51),
    Colour.PURPLE: (188, 44, 156),
}
_TOK_NE = _token_palette(_PAINT_NE, black=(30, 28, 30), white=(236, 238, 240))
_WALL_NE: BGR = (24, 22, 26)  # a black painted brick wall
_COLD_NE: BGR = (250, 238, 226)  # a cold white tube


def _bricks(n: int, seed: int) -> np.ndarray:
    """A wall of bricks painted near black: each brick a little another shade, the mortar
    joints darker, the paint never even (every seed another wall)."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n
    course = 0.095
    row = np.floor(yy / course).astype(int)
    shifted = xx + 0.11 * (row % 2)
    col = np.floor(shifted / 0.22).astype(int)
    tone = rng.uniform(0.8, 1.3, (row.max() + 2, col.max() + 2))[row, col]
    joint = (yy % course < 0.008) | (shifted % 0.22 < 0.008)
    img = np.empty((n, n, 3), np.float32)
    img[:] = _WALL_NE
    img *= (tone * np.where(joint, 0.55, 1.0) * (1 + 0.15 * _mottle(n, seed + 1, 10)))[..., None]
    return img


def _tube_path(mask: np.ndarray, seed: int, gaps: int) -> list[np.ndarray]:
    """The outline of ``mask`` as a neon tube bends it: its contours, each cut where the
    tube is painted out (``gaps`` short stretches, seeded, another place on every face)."""
    rng = np.random.default_rng(seed)
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    runs: list[np.ndarray] = []
    longest = max(range(len(contours)), key=lambda k: len(contours[k]))
    for k, contour in enumerate(contours):
        points = contour[:, 0, :]
        if k != longest or gaps == 0:
            runs.append(np.vstack([points, points[:1]]))
            continue
        start = int(rng.integers(len(points)))
        points = np.roll(points, -start, axis=0)
        gap = max(2, int(0.06 * len(points)))
        runs.append(points[gap:])
    return runs


def _neon(img: np.ndarray, runs: list[np.ndarray], colour: BGR, width: float) -> None:
    """Glowing glass tubes along ``runs`` on ``img``: each a white-hot core in a tube of
    ``colour``, its light blooming out over the wall round it (added light)."""
    n = len(img)
    tube = np.zeros((n, n), np.float32)
    core = np.zeros((n, n), np.float32)
    for run in runs:
        pts = run.reshape(-1, 1, 2).astype(np.int32)
        cv2.polylines(tube, [pts], False, 1.0, max(1, int(width)), _AA)
        cv2.polylines(core, [pts], False, 1.0, max(1, int(0.35 * width)), _AA)
    core = cv2.GaussianBlur(core, (0, 0), 0.2 * width)
    light = np.array(colour, np.float32)
    glow = 0.55 * cv2.GaussianBlur(tube, (0, 0), 0.9 * width)
    glow += 0.35 * cv2.GaussianBlur(tube, (0, 0), 3.0 * width)
    img += glow[..., None] * light
    lit = light + (255 - light) * 0.85 * np.clip(core, 0, 1)[..., None]
    a = np.clip(tube, 0, 1)[..., None]
    img[:] = img * (1 - a) + lit * a


def _neon_tile(tile: Tile) -> np.ndarray:
    n = PX * S
    index = ALL_TILES.index(tile)
    img = _bricks(n, 2501 + index)
    # the figure's outline bent in one tube of the colour, painted out for a short stretch
    figure = _shrunk_figure(tile.motif, n, 0.8)
    _neon(img, _tube_path(figure, 2503 + index, 1), _COL_NE[tile.colour], 0.026 * n)
    if tile.heart:
        # a small heart in a cold white tube, top right
        heart = np.zeros((n, n), np.uint8)
        _heart(heart, 0.8 * n, 0.19 * n, 0.085 * n, 255)
        _neon(img, _tube_path(heart > 127, 0, 0), _COLD_NE, 0.02 * n)
    return _shrunk(np.clip(img, 0, 255).astype(np.uint8))


def _token_ne(colour: BGR | None) -> np.ndarray:
    n, r = _token_radii()
    if colour is None:
        # the back: a disc of the black wall, a ring of tube switched off (grey glass)
        img = _bricks(n, 97)
        img[(r > 0.33) & (r < 0.36)] = (92, 94, 96)
    else:
        # a face: an acrylic disc painted the colour, a vampire's mouth lit in a tube of
        # cold white on it (of the wall's black on the pale ones)
        img = np.empty((n, n, 3), np.float32)
        img[:] = colour
        img *= (1 + 0.05 * _mottle(n, 101 + sum(colour), 6))[..., None]
        mark = np.zeros((n, n, 3), np.uint8)
        _mouth_mark(mark, (0, 0, 0), (255, 255, 255))
        mouth = mark[..., 0] > 127
        if sum(colour) > 600:
            img[mouth] = _WALL_NE
        else:
            _neon(img, _tube_path(mouth, 0, 0), _COLD_NE, 0.025 * n)
    img[(r > 0.45) & (r < 0.5)] *= 0.6  # the disc's edge
    return _cap_alpha(np.clip(img, 0, 255), r <= 0.5, 112)


#: the print under the glass
_COL_CB: dict[Colour, BGR] = {
    Colour.BLUE: (178, 100, 34),
    Colour.RED: (48, 36, 200),
    Colour.YELLOW: (34, 196, 240),
    Colour.GREEN: (70, 156, 52),
    Colour.PURPLE: (150, 60, 128),
}
_TOK_CB = _token_palette(_COL_CB, black=(34, 32, 34), white=(238, 240, 240))
_INK_CB: BGR = (30, 26, 28)
_CREAM_CB: BGR = (214, 234, 244)
_BRASS_CB: BGR = (70, 150, 190)
_DOME_CB = 0.44  # the glass's radius, a share of the side; a brass bezel round it


def _damask(n: int, colour: BGR) -> np.ndarray:
    """A printed paper of ``colour`` with a faint lattice of darker diamonds and dots."""
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n
    u, v = (xx + yy) * 9, (xx - yy) * 9
    lattice = (np.abs(np.sin(np.pi * u)) < 0.1) | (np.abs(np.sin(np.pi * v)) < 0.1)
    dots = (np.cos(2 * np.pi * u) * np.cos(2 * np.pi * v)) > 0.9
    img = np.empty((n, n, 3), np.float32)
    img[:] = colour
    img *= np.where(lattice | dots, 0.74, 1.0)[..., None]
    return img


def _through_dome(
    print_: np.ndarray, dome: float, off: tuple[float, float] = (0.0, 0.0)
) -> tuple[np.ndarray, np.ndarray]:
    """``print_`` seen from above through a glass dome of radius ``dome`` (shares of the
    side) laid on it ``off`` (shares of the side) from the print's middle, and each
    pixel's radius: magnified some 1.6 times in the middle, squeezed towards the rim, each
    colour bent a little differently there (coloured fringes), the rim dark where the
    glass reflects the room instead, the glass a faint green."""
    n = len(print_)
    c = (n - 1) / 2
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    dx, dy = xx - c, yy - c
    r = np.hypot(dx, dy) / n
    u = np.clip(r / dome, 0, 1)
    seen = np.empty_like(print_)
    for ch, spread in enumerate((1.04, 1.0, 0.96)):  # blue bent most
        g = u * (0.62 + 0.38 * u**2) ** spread
        scale = np.where(r < dome, g / np.maximum(u, 1e-6), 1.0)
        mx = (c + off[0] * n * (r < dome) + dx * scale).astype(np.float32)
        my = (c + off[1] * n * (r < dome) + dy * scale).astype(np.float32)
        seen[..., ch] = cv2.remap(print_[..., ch], mx, my, cv2.INTER_LINEAR, None, 1)
    fresnel = np.clip((u - 0.78) / 0.22, 0, 1) ** 2 * (r < dome)
    seen *= (1 - 0.55 * fresnel)[..., None]
    seen += (fresnel * 40)[..., None] * np.array((0.7, 0.8, 0.6), np.float32)
    seen[r < dome] *= np.array((0.96, 1.0, 0.95), np.float32)
    return seen, r


def _window_glint(img: np.ndarray, r: np.ndarray, dome: float) -> None:
    """A window's reflection on the dome, upper left, bent to its curve (four panes), and
    a small hard glint of the lamp lower right."""
    n = len(img)
    panes = np.zeros((n, n), np.float32)
    cx, cy, w, h = 0.33 * n, 0.3 * n, 0.12 * n, 0.095 * n
    for i in (-1, 1):
        for j in (-1, 1):
            x0, y0 = cx + i * (w / 2 + 0.006 * n), cy + j * (h / 2 + 0.006 * n)
            pts = cv2.ellipse2Poly((int(x0), int(y0)), (int(w / 2), int(h / 2)), -35, 0, 360, 20)
            cv2.fillPoly(panes, [pts], 1.0, _AA)
    panes = cv2.GaussianBlur(panes, (0, 0), 0.006 * n) * (r < dome)
    cv2.circle(panes, (int(0.69 * n), int(0.71 * n)), int(0.018 * n), 1.0, -1, _AA)
    panes = cv2.GaussianBlur(panes, (0, 0), 0.003 * n)[..., None]
    img[:] = img + (255 - img) * 0.85 * panes


def _bezel(img: np.ndarray, r: np.ndarray, dome: float) -> None:
    """A brass bezel cup round the dome: a twisted-wire rope, lit from the upper left."""
    n = len(img)
    c = (n - 1) / 2
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    a = np.arctan2(yy - c, xx - c)
    rope = 0.5 + 0.5 * np.sin(48 * a + (r - dome) * 260)
    lit = 0.75 + 0.35 * np.cos(a + 3 * np.pi / 4)
    brass = np.array(_BRASS_CB, np.float32) * (lit * (0.7 + 0.5 * rope))[..., None]
    ring = (r >= dome) & (r <= 0.5)
    img[ring] = brass[ring]
    img[(r >= dome) & (r < dome + 0.006)] *= 0.45


def _cabochon(tile: Tile) -> np.ndarray:
    n = PX * S
    index = ALL_TILES.index(tile)
    # the print under the glass: a patterned paper of the colour, a black figure on it, a
    # cream heart below it
    print_ = _damask(n, _COL_CB[tile.colour])
    figure = _shrunk_figure(tile.motif, n, 0.5)
    print_[figure] = _INK_CB
    if tile.heart:
        heart = np.zeros((n, n), np.uint8)
        _heart(heart, n / 2, 0.69 * n, 0.05 * n, 255)
        print_[heart > 127] = _CREAM_CB
    # the dome glued a little off the print's middle, another way on every face, so the
    # glass bends the figure another way on every face
    off = np.random.default_rng(2601 + index).uniform(-0.035, 0.035, 2)
    img, r = _through_dome(print_, _DOME_CB, (float(off[0]), float(off[1])))
    _window_glint(img, r, _DOME_CB)
    _bezel(img, r, _DOME_CB)
    return _cap_alpha(np.clip(img, 0, 255), r <= 0.5, PX)


def _token_cb(colour: BGR | None) -> np.ndarray:
    n = 112 * S
    if colour is None:
        # the back: the glass over silvered foil, bare but for a dark ring
        print_ = np.full((n, n, 3), 168, np.float32)
        cv2.circle(print_, (n // 2, n // 2), int(0.2 * n), (60, 60, 60), int(0.02 * n), _AA)
    else:
        # a face: the glass over a paper of the colour, a vampire's mouth printed on it
        print_ = np.empty((n, n, 3), np.float32)
        print_[:] = colour
        ink = _INK_CB if sum(colour) > 250 else _CREAM_CB
        _mouth_mark(print_, colour, ink)
    img, r = _through_dome(print_, 0.45)
    _window_glint(img, r, 0.45)
    _bezel(img, r, 0.45)
    return _cap_alpha(np.clip(img, 0, 255), r <= 0.5, 112)


# -- the sets ---------------------------------------------------------------------------------

Face = Callable[[Tile], np.ndarray]
Token = Callable[[BGR | None], np.ndarray]
#: name: (shape, face, token, token colours)
STYLES: dict[str, tuple[str, Face, Token, dict[str, BGR]]] = {
    "runes": ("square", _runes, _token_a, _TOK_A),
    "coins": ("round", _coins, _token_a, _TOK_A),
    "stamp": ("square", _stamp, _token_b, _TOK_B),
    "pebble": ("round", _pebble, _token_b, _TOK_B),
    "mosaic": ("square", _mosaic, _token_c, _TOK_C),
    "ring": ("round", _ring, _token_c, _TOK_C),
    "tarot": ("square", _tarot, _token_d, _TOK_D),
    "button": ("round", _button, _token_d, _TOK_D),
    "halftone": ("square", _halftone, _token_e, _TOK_E),
    "pinwheel": ("round", _pinwheel, _token_e, _TOK_E),
    "diagonal": ("square", _diagonal, _token_f, _TOK_F),
    "sticker": ("round", _sticker, _token_f, _TOK_F),
    "inkwash": ("square", _inkwash, _token_g, _TOK_G),
    "moonrise": ("round", _moonrise, _token_g, _TOK_G),
    "quilt": ("square", _quilt, _token_h, _TOK_H),
    "compass": ("round", _compass, _token_h, _TOK_H),
    "glow": ("square", _glow, _token_i, _TOK_I),
    "hatch": ("round", _hatch, _token_i, _TOK_I),
    "banner": ("square", _banner, _token_j, _TOK_J),
    "seal": ("round", _seal, _token_j, _TOK_J),
    "stencil": ("square", _stencil, _token_k, _TOK_K),
    "petal": ("round", _petal, _token_k, _TOK_K),
    "woodcut": ("square", _woodcut, _token_l, _TOK_L),
    "orbit": ("round", _orbit, _token_l, _TOK_L),
    "vesper": ("square", _vesper, _token_m, _TOK_M),
    "rosary": ("round", _rosary, _token_n, _TOK_M),
    "aquarelle": ("square", _aquarelle, _token_o, _TOK_N),
    "whorl": ("round", _whorl, _token_p, _TOK_O),
    "gesso": ("square", _gesso, _token_q, _TOK_Q),
    "arcade": ("round", _arcade, _token_r, _TOK_R),
    "leaded": ("square", _leaded, _token_s, _TOK_S),
    "stitch": ("round", _stitch, _token_t, _TOK_T),
    "papercut": ("square", _papercut, _token_u, _TOK_U),
    "bottlecap": ("round", _bottlecap, _token_v, _TOK_V),
    "tartan": ("square", _tartan, _token_w, _TOK_W),
    "chip": ("round", _chip_tile, _token_x, _TOK_X),
    "azulejo": ("square", _azulejo, _token_y, _TOK_Y),
    "vinyl": ("round", _vinyl, _token_z, _TOK_Z),
    "terrazzo": ("square", _terrazzo, _token_tz, _TOK_TZ),
    "cookie": ("round", _cookie, _token_ck, _TOK_CK),
    "brick": ("square", _brick, _token_br, _TOK_BR),
    "clock": ("round", _clock, _token_cl, _TOK_CL),
    "marquetry": ("square", _marquetry, _token_mq, _TOK_MQ),
    "doily": ("round", _doily_tile, _token_dy, _TOK_DY),
    "riso": ("square", _riso, _token_rs, _TOK_RS),
    "wax": ("round", _wax, _token_wx, _TOK_WX),
    "neon": ("square", _neon_tile, _token_ne, _TOK_NE),
    "cabochon": ("round", _cabochon, _token_cb, _TOK_CB),
}


def check_set(name: str) -> TileSet:
    """The tile set of one check style, tokens included (40 mm tiles)."""
    shape, face, token, colours = STYLES[name]
    return TileSet(
        name=name,
        tile_shape=shape,
        tile_size_mm=40,
        faces={t: face(t) for t in ALL_TILES},
        token_faces={k: token(colours[k]) for k in DEFAULT_TOKEN_COLOURS},
        token_back=token(None),
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Write the check styles' tile sets.")
    parser.add_argument("out", type=Path, help="folder to write <style>/ folders into")
    parser.add_argument("--styles", default=",".join(STYLES), help="comma-separated names")
    args = parser.parse_args(argv)
    for name in args.styles.split(","):
        save_tileset(check_set(name), args.out / name)
        print(f"wrote {args.out / name}")


if __name__ == "__main__":
    main()
