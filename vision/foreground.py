"""Stage 1: which pixels are not table.

The table is unknown (wood, cloth, slate, a gradient of lamp light across it), so it is
modelled from the frame itself:

* A plain table is its *local* colour: a wide median of the frame, then a second,
  weighted average that leaves out what the median already calls objects, so a block
  of tiles filling a close-up cannot pass for table. What differs from that colour by
  more than the table's own texture does is an object.
* A patterned cloth differs from its own local average everywhere. It is modelled by
  its palette (clustered from the frame's edges) and by the *spacing* of that palette:
  on a cloth every colour recurs within a short, regular distance, so a region larger
  than that spacing with a palette colour missing is an object, even when the object
  shares the cloth's pale colour (a cream tile on a cream-and-green check). And where
  the cloth lays its palest colour in separate cells, a piece of that colour many
  cells wide is a tile's paper ground, however much of the tile's ink passes for the
  cloth's darker colours (which breaks the spacing). Both only complete objects whose
  colour has been partly seen (a figure, a rim), so a shadow or a lit stretch of cloth
  is never taken for one; by the spacing alone, only a row of pieces is (a stretch
  several times longer than wide, clear of the frame's edge).
* A checked cloth also repeats itself: one period along either axis lands on a cell of
  the same colour. Where a pixel's colour recurs one period away in none of the four
  directions, over more than a cell, something lies on the cloth, even a pale tile
  whose paper, figure and edge are each one of the cloth's colours. Light changes
  slowly over a period, so this needs no confirmation by colour.

Holes inside objects (a tile's pale figure) are filled, so each blob is the whole
outline of one object or of several touching ones.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.config import VisionConfig

#: The frame's edges, this share of its shorter side deep, are taken as table samples:
#: tiles lie in the middle of a picture.
BORDER_SHARE = 1 / 12
#: Working scale of the table's colour model (an eighth of the work size each way).
TABLE_FACTOR = 8
#: ...and of the light's model on a patterned cloth, fine enough that its pale cells
#: are not averaged away.
LIGHT_FACTOR = 4
#: ...where the cloth's pale colour is brought to this level, short of white so that
#: paler things (a cream tile) keep their difference.
LIGHT_LEVEL = 220
#: The median is the table's colour where at least the larger share of its window is
#: table (by the median's own first look); below the smaller share, the average of the
#: table around is used instead; in between, a blend.
MEDIAN_TRUST = (0.4, 0.7)
#: The cloth seen at the frame's edges is the table's colour between pieces where the
#: table's own estimate takes at least the larger share of a window of it for objects;
#: below the smaller, the estimate stays (:func:`_between_pieces`). Round pieces packed
#: in a grid leave a fifth of the window between them.
GAPS_SHARE = (0.03, 0.08)
#: ...and only where the table's own estimate is this many times the cloth's noise limit
#: off it (from the first to the second): further than a lamp's gradient or a shadow
#: takes a cloth, as far as a white paper is from a dark cloth.
GAPS_UNLIKE = (2.0, 3.0)
#: Palette colours closer than this (Lab distance) are one colour of the cloth, split by
#: noise or blur, not two.
PALETTE_MERGE = 12.0
#: A cloth colour recurs within its largest gap on the table (measured on the frame's
#: edges) times this, plus a pixel and a half of blur; beyond that it is truly missing.
GAP_SLACK = 1.2
#: A colour whose gaps are this many times wider than the closest-spaced colour's is no
#: regular part of the pattern (a blend at cell corners, a lit patch) and is ignored.
GAP_IRREGULAR = 2.0
#: A colour missing from at least this share of a region (relative to the colour missing
#: most) is one the object lacks; the object lies where all of those are missing.
MISSING_SHARE = 0.5
#: The regions are opened by a disc this share of the closest colour's gap, so the bits
#: of cloth cells they take along beside an object (narrower than a cell) fall away.
OPEN_SHARE = 0.5
#: A region found by the cloth's spacing alone is kept when at least this share of it
#: also differs from every cloth colour (a figure, a rim): the spacing completes objects
#: that colour has seen, it does not invent them where the light washes the cloth out...
PATTERN_SEEN_MIN = 0.02
#: ...and it is not used where colour already covers this much of the region, since
#: colour outlines an object more sharply than the cloth's spacing can.
PATTERN_SEEN_MAX = 0.35
#: ...and at most this share of it may lie further than :data:`SEEN_REACH` times the
#: closest colour's gap from what colour has seen.
PATTERN_FAR_MAX = 0.3
#: (see :data:`PATTERN_FAR_MAX`)
SEEN_REACH = 1.5
#: A region found by spacing alone that colour does not confirm is still a row of pieces
#: where it is this many times longer than wide (see :func:`_unseen_rows`).
ROW_ELONGATION = 2.2
#: A region found by spacing alone that covers more of the frame than this is the
#: cloth's own light (a lit or shadowed stretch), not something lying on it.
PATTERN_MAX_AREA = 0.25
#: A region of the spacing cue no larger than this many of its discs (radius the closest
#: colour's gap) is a small thing the discs swelled: a token one cell wide whose rim is
#: in the cloth's colours grows into a disc of the cells round it (the face-up ends of
#: seed 7 #3's rows on the red and cream check, 1.3 to 2.6 discs), and the row it ends
#: is then too wide for a row and is cut as tiles. It is cut back to what the lattice
#: vote, a colour or no cloth colour shows of it (:func:`_swollen_cut_back`). A larger
#: region is a thing larger than a disc, whose pale border on the cloth's pale cells
#: the vote would notch away (a column of round pale tiles, 3.7 discs and more)...
SWOLLEN_MAX_DISCS = 3.0
#: ...and only where those show at most this share of the region (one they show most
#: of was hardly swollen)...
SWOLLEN_SHOWN_MAX = 0.6
#: ...in one piece, this share of what they show (one they leave in pieces holds
#: something they do not see whole: a row of grey backs).
SWOLLEN_ONE_PIECE = 0.9
#: A cloth colour is laid in separate cells when the cell holding a typical pixel of it
#: (the pixel-weighted median of its connected pieces along the frame's edges) is at
#: least this share of the cell holding the 90th percentile; a colour whose pieces join
#: into a network (the stripes of a gingham) tells nothing by its pieces' size.
CELL_REGULAR = 0.5
#: A piece of a cell colour larger than this many times its cells on the table is no
#: cloth cell: a pale tile's paper ground, in the cloth's pale colour, joined along its
#: ink lines that may in turn pass for the cloth's dark colour.
CELL_GROWTH = 4.0
#: The pieces are opened by a disc this share of a cell's side across, wider than a
#: cell, so the cloth cells of that colour touching them fall away.
CELL_OPEN = 0.75
#: An oversized ground no colour confirms is still a piece if it is this convex (area
#: over its hull's) and this near to square (long over short side of its box), and at
#: least this many (half-work) px across: the share a digitised disc or square keeps.
PIECE_SOLIDITY = 0.85
PIECE_ASPECT = 1.3
PIECE_MIN_SIDE = 8
#: Label of a pixel near none of the cloth's colours.
NO_COLOUR = 255
#: A table whose upper quartile of differences from its local average exceeds this many
#: times ``pattern_texture`` is patterned too (plain tables measured at most 1.2 times,
#: checks 3.9 times and more).
PATTERN_UPPER = 2.5
#: Lines up to this wide (working pixels) crossing the mask are no objects: a seam
#: between boards comes out 7 to 10 wide, while the mask widens even the smallest
#: tokens (a row of discs 6 px across comes out 11 wide), so token rows stay...
LINE_WIDTH = 10
#: ...at least this long...
LINE_LENGTH = 12
#: ...and this many times longer than wide.
LINE_ELONGATION = 6.0
#: A line whose shading repeats along it at a period of about its own width (between
#: these shares of it), correlating with itself there by at least :data:`ROW_REPEAT`
#: and by :data:`ROW_CONTRAST` more than half a period on, is a row of discs side by
#: side (tokens, each with its face or back printed), not a seam: a seam, a crack or
#: a mat's edge shades smoothly along its length, and correlates with itself as much at
#: half a period as at a whole one.
ROW_PERIOD = (0.75, 1.3)
ROW_REPEAT = 0.2
ROW_CONTRAST = 0.15
#: A cloth is compared with itself only when its cells are this many pixels across (at
#: the spacing's half scale): the blur seams, a pixel or two each side, must leave most
#: of a cell its own colour. Finer cloths leave a tile many cells wide, which their
#: spacing and their cells' size already find.
CELL_MIN_SIDE = 7.0
#: A cloth's period is read from at least this many cells (and neighbour pairs per axis)...
LATTICE_MIN_CELLS = 12
#: ...whose areas lie within these shares of the typical cell's: cells cut by an object
#: or the frame's edge, or joined by blur, would shift the centres.
CELL_AREA_RANGE = (0.6, 1.6)
#: A cell's nearest neighbours lie within this share of the typical nearest distance
#: (either way): a tilted camera changes it across the frame, the diagonal neighbours of
#: a square lattice lie 41 % further.
NEIGHBOUR_SLACK = 0.3
#: Cells whose neighbours are measured (the rest still serve as neighbours): the period
#: is one number per axis, and all pairs cost the square of a fine cloth's cells.
LATTICE_SAMPLE_CELLS = 60
#: Pixels of the frame's edges on which a candidate period is checked.
LATTICE_SAMPLES = 1500
#: The neighbour directions must agree on a square lattice this well (the mean of
#: their angles' fourth harmonic); a wood grain or a random print does not.
LATTICE_COHERENCE = 0.7
#: Along either period, at least this share of the frame's edges must land on their own
#: colour, or the cloth is not regular enough (or the period is misread) to be trusted.
LATTICE_REPEAT_MIN = 0.8
#: A period field fitted to the cells' centres that the edges do not repeat well enough
#: is fitted to the repetition itself: the edges are cut into this many stretches, each
#: stretch's period moved by the whole pixel (if any) that repeats it best, and the field
#: refitted to the moved periods, this many times. A tilted camera bends the period
#: across the frame and the centres of cells a few pixels wide are read a pixel off, so
#: the centres' fit can miss by a pixel, which on such cells is half a cell.
LATTICE_REFIT_STRETCHES = 12
LATTICE_REFITS = 3
#: Where that leaves a period short of the repetition, it is refitted on, until no
#: stretch's period moves or this many times in all: a blue gingham under a lamp's gradient
#: had its second period read 5 px (a third of it) off along the first, and three
#: refits left it repeating at 0.79 (nocturne seed 555 #6, whose four blue tiles never
#: broke the cloth's pattern). Only there: a period that three refits pass still moves
#: by a tenth of a pixel on further ones, and on one check (seed 2024 #19) that moved
#: its breaks and 33 styles' readings of it (8 tiles won, 5 lost, a false token more).
LATTICE_LATE_REFITS = 8
#: How many periods out, along and across the cloth's axes, a pixel's lattice neighbours
#: lie that vote on whether its colour is the cloth's (see :func:`_outvoted`): two,
#: 24 neighbours, most of them beyond a pale tile's or a row of tokens' reach.
LATTICE_VOTE_REACH = 2
#: A place is a break when more than this share of a cell around it has a colour
#: found one period away in none of the four directions: the seams between cells,
#: where a period read a pixel short lands on the next cell, stay well under it...
BREAK_SHARE = 0.5
#: ...and the break reaches out to where that share falls under this, about half way
#: across its edge (a cell's blur spreads the edge over a cell).
BREAK_EDGE = 0.3
#: A break smaller than this many cells is a crease or a fleck of noise.
BREAK_MIN_CELLS = 1.5
#: A full-size break in the cloth's darkest colour this many cells wide or more holds a
#: square's corners (see :func:`_pale_grounds`).
DARK_BREAK_MIN_CELLS = 5.0
#: Half a period along a cloth's axis (or their sum or difference) that lands on another
#: colour at this share of the frame's edges is one the cloth alternates under.
ALTERNATE_MIN = 0.8
#: Faint hue joins an object only where it adds this share of the pixels that stand
#: out strongly (see :func:`_grown_into`).
FAINT_SHARE = 0.15
#: On a plain table, a region whose hue (a and b) lies this far from the table's, or
#: further than its noise, is faint: the table's own noise moves the hue by about 6.
FAINT_HUE = 9.0
#: A region whose hue, averaged over :data:`QUIET_HUE_WINDOW` pixels, lies this far from
#: the table's, and ``foreground_noise_factor`` times further than the table's own
#: typical hue so averaged, is faint too, but joins an object only where it adds at
#: least :data:`QUIET_SHARE` of the object's pixels: a tile's ground round its thin
#: figure. The floor above (and the table's Lab noise, lightness included, where that
#: is higher) lies far over the hue noise of a quiet table, which averaging lowers
#: further (tarot seed 2024 #13, a dark mottled cloth: floor 9, the Lab noise 7.2, the
#: averaged hue's median 0.7 and 90th percentile 1.6): a dark blue tile 4-5 off it in
#: hue stood out by its figure alone and was cut at a third of its size. With every
#: faint region at the lower floor let in, blurs' halos swelled pieces on other sets
#: (seal seed 2024: 4 tiles lost, banner seed 2024 #9: 6 tokens).
QUIET_HUE = 3.5
QUIET_HUE_WINDOW = 5
QUIET_SHARE = 1.0
#: The share of the averaging window that must lie off the held objects for a pixel's
#: quiet hue to be read (see :func:`hue_distance`).
QUIET_LEAST_FREE = 0.2
#: Lightness counts half in colour distances (as squared weights).
_LAB_WEIGHTS = np.array([[0.25, 1.0, 1.0]], np.float32)
_HUE_WEIGHTS = np.array([[0.0, 1.0, 1.0]], np.float32)


def downscale(image_bgr: np.ndarray, width: int) -> tuple[np.ndarray, float]:
    """The frame at ``width`` pixels wide (never enlarged) and the factor back to full size."""
    h, w = image_bgr.shape[:2]
    if w <= width:
        return image_bgr, 1.0
    scale = w / width
    small = cv2.resize(image_bgr, (width, round(h / scale)), interpolation=cv2.INTER_AREA)
    return small, scale


@dataclass(frozen=True)
class Foreground:
    """What stands out from the table, and what a checked cloth says of it."""

    #: uint8, 255 where an object lies (see :func:`object_mask`).
    mask: np.ndarray
    #: On a checked cloth whose lattice was read: 255 where the cloth stops repeating
    #: itself (:func:`cloth_breaks`), at the mask's size; None elsewhere. A piece lying on
    #: such a cloth breaks the repetition over most of it; a ring of the check's own
    #: cells, which a search for rims finds, breaks none of it.
    broken: np.ndarray | None = None
    #: The same cloth's two period vectors, as linear fields over the mask (3x2
    #: coefficients: the vector at (x, y) is ``c[0] + x * c[1] + y * c[2]``, work px);
    #: None where no lattice was read. An edge one period away from its like is the
    #: cloth's own (see :func:`vision.outlines.cloth_free_gradient`).
    periods: tuple[np.ndarray, ...] | None = None
    #: Small breaks of a checked cloth in its darkest colour (0/255, at the mask's size),
    #: left out of :attr:`mask` (see :func:`_pale_grounds`); None where there are none.
    #: Such a break may be a piece in the cloth's own dark colour, so the searches look
    #: there for one at the frame's tile size; cut as a blob, it is cut too small and
    #: shrinks the frame's tile size.
    places: np.ndarray | None = None
    #: On a plain cloth: 255 where the hue alone stands out from the table's (the faint
    #: tier of :func:`find_foreground`), at the mask's size; None on a patterned cloth.
    #: A round set that prints its colour in a small centred disc (a record's label) is
    #: looked for around such discs (:mod:`vision.searches.cores`).
    hued: np.ndarray | None = None


def object_mask(small_bgr: np.ndarray, config: VisionConfig) -> np.ndarray:
    """A uint8 mask (255 = object) of everything that stands out from the table."""
    return find_foreground(small_bgr, config).mask


def find_foreground(
    small_bgr: np.ndarray, config: VisionConfig, table: np.ndarray | None = None
) -> Foreground:
    """The object mask (see :func:`object_mask`) and where a checked cloth repeats;
    ``table``, the table's Lab colour at every pixel, if another model gave it
    (:func:`table_between_pieces`)."""
    blurred = cv2.GaussianBlur(small_bgr, (3, 3), 0)
    lab = cv2.cvtColor(blurred, cv2.COLOR_BGR2LAB)
    table = table_colour(lab, config) if table is None else table
    squares = cv2.subtract(lab, table, dtype=cv2.CV_32F)
    cv2.multiply(squares, squares, dst=squares)
    distance = cv2.sqrt(cv2.transform(squares, _LAB_WEIGHTS).reshape(lab.shape[:2]))
    band = border_band(distance.shape)
    # the table's own texture, read where the table is surely seen: a close-up's tiles
    # would otherwise pass for a patterned cloth
    texture, upper = (float(v) for v in np.percentile(distance[band][::4], [50, 75]))
    # a gingham seen close up is half its mixed colour, which the local average is:
    # its median pixel is table-like, but a quarter of it stands far out
    patterned = texture > config.pattern_texture or upper > PATTERN_UPPER * config.pattern_texture
    broken = periods = places = hued = None
    if not patterned:
        noise = config.foreground_noise_factor * texture
        strong = distance > max(config.foreground_min_distance, noise)
        # the hue alone (a and b): a tile's ground may differ from the cloth in it only
        hue = cv2.transform(squares, _HUE_WEIGHTS).reshape(lab.shape[:2])
        faint = hue > max(FAINT_HUE, noise) ** 2
        hued = faint.astype(np.uint8) * 255
        mask = _grown_into(_wide(faint), strong)
        # where the table's hue hardly moves, a ground a little off it in hue doubles
        # an object that is only its figure (see :data:`QUIET_HUE`)
        quiet = hue_distance(lab, table, mask > 0)
        quiet_noise = config.foreground_noise_factor * float(np.median(quiet[band][::4]))
        quiet_faint = quiet > max(QUIET_HUE, quiet_noise)
        mask = _solid(_grown_into(_wide(quiet_faint), mask > 0, QUIET_SHARE))
    else:
        mask, broken, periods, places = _cloth_objects(blurred, distance, band, config)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    outlines = None if patterned else outline_mask(lab, config)
    if outlines is not None:
        mask = cv2.bitwise_or(mask, outlines)
    grey = cv2.cvtColor(small_bgr, cv2.COLOR_BGR2GRAY)
    return Foreground(without_lines(fill_holes(mask), grey), broken, periods, places, hued)


def _cloth_objects(
    blurred: np.ndarray, distance: np.ndarray, band: np.ndarray, config: VisionConfig
) -> tuple[np.ndarray, np.ndarray | None, tuple[np.ndarray, ...] | None, np.ndarray | None]:
    """The objects on a patterned cloth (0/255, before closing), where it stops
    repeating itself, its periods and its small dark breaks (see :attr:`Foreground.broken`,
    :attr:`Foreground.periods`, :attr:`Foreground.places`).

    A patterned cloth differs from its own local average everywhere; what is one of the
    table's own colours (seen along the frame's edges) is still table.
    """
    even = cv2.cvtColor(lighting_normalised(blurred, config), cv2.COLOR_BGR2LAB)
    palette = table_palette(even)
    labels, near = nearest_colour(even, palette, config.palette_distance)
    colour = (near > config.palette_distance) & (distance > config.foreground_min_distance)
    mask = _solid(colour.astype(np.uint8) * 255)
    size = (mask.shape[1], mask.shape[0])
    # the spacing is read on every other pixel: a quarter of the cost, and cells
    # 4 px wide still leave runs of 2 there
    half = (slice(None, None, 2), slice(None, None, 2))
    spacing = pattern_objects(labels[half], len(palette), band[half], mask[half])
    pattern, gap = spacing if spacing is not None else (None, 0.0)
    # every cloth colour: a pale tile's paper ground on a gingham's pale cells, and
    # a tile printed on the cloth's own green or red (the cells clinging to it are
    # opened away)
    cells = colour_pieces(labels[half], range(len(palette)))
    # where the cloth stops repeating itself: a pale tile whose figure and edge are in
    # the cloth's own colours, under two cells wide
    fine = periods = places = broken = None
    mixed = _mixed_colours(palette)
    found = cloth_breaks(labels[half], cells, band[half], mixed)
    full_scale = False
    if found is None and (finer := _compared_finer(cells, band[half])):
        # a check too fine to compare with itself at half scale is compared at the full
        # work scale: there a tile under three cells wide is still broken over most of it
        found = cloth_breaks(labels, colour_pieces(labels, finer), band, mixed)
        full_scale = True
    broken_half = votes = None
    scaled = (slice(None), slice(None)) if full_scale else half
    if found is not None:
        broken_half = found[0][half] if full_scale else found[0]
        votes = _outvoted(np.ascontiguousarray(labels[scaled]), found[2])
    if votes is not None and pattern is not None:
        shown = (votes[half] if full_scale else votes) > 0
        shown |= (labels[half] == NO_COLOUR) | (mask[half] > 0)
        pattern = _swollen_cut_back(pattern, shown, gap)
    grounds = oversized_cells(
        cells, band[half], mask[half], darkest=int(np.argmin(palette[:, 0])), broken=broken_half
    )
    if grounds is not None:
        pattern = grounds if pattern is None else cv2.bitwise_or(pattern, grounds)
    if found is not None and not full_scale:
        breaks = break_objects(found[0], found[1], mask[half])
        if breaks is not None:
            pattern = breaks if pattern is None else cv2.bitwise_or(pattern, breaks)
        broken = cv2.resize(found[0], size, interpolation=cv2.INTER_NEAREST)
        periods = tuple(_doubled(coef) for coef in found[2])
    elif found is not None:
        fine = break_objects(found[0], found[1], mask)
        broken, periods = found[0], tuple(found[2])
    if pattern is not None:
        pattern = cv2.resize(pattern, size, interpolation=cv2.INTER_NEAREST)
    if fine is not None:
        # the other cues outline what they find more sharply than a break does
        kept = _pale_grounds(fine, labels, palette, found[1])
        # the small dark breaks left out are only places to look for a piece at
        places = _untouched(cv2.subtract(fine, kept), pattern)
        places = places if places.any() else None
        fine = _untouched(kept, pattern)
        pattern = fine if pattern is None else cv2.bitwise_or(pattern, fine)
    if pattern is not None:
        mask = cv2.bitwise_or(mask, pattern)
    if found is not None and votes is not None:
        voted = outvoted_objects(votes, labels[scaled], palette, found[1], mask[scaled])
        if voted is not None:
            mask = cv2.bitwise_or(mask, cv2.resize(voted, size, interpolation=cv2.INTER_NEAREST))
    return mask, broken, periods, places


def outvoted_objects(
    votes: np.ndarray,
    labels: np.ndarray,
    palette: np.ndarray,
    cell: float,
    seen: np.ndarray,
) -> np.ndarray | None:
    """Pale things on a checked cloth that no other cue found (``seen``, 0/255), where the
    cloth round a pixel outvotes its colour (``votes``, :func:`_outvoted`), as 0/255 at
    the scale of ``labels``; None where there are none.

    The cloth's breaks compare a pixel with its four neighbours one period away, and
    a pale piece in the cloth's own colours finds its like there: on the next token of
    a row laid about a period apart along the cloth's axis (clock seed 7 #3, cream
    backs on a red and cream check, 4 of 13 lost), or on itself, a tile with a pale
    ground and a figure in the cloth's other colours (azulejo seed 2024 #19, cream
    tiles with green figures on a green gingham, 4 lost). Two periods out, most of its
    lattice neighbours lie on the cloth round it.

    Only what lies clear of every other cue's objects is added: the cloth between the
    pieces of a heap is outvoted too, its neighbours landing on them, and so is a
    piece those cues outline more sharply. And only pale things: where the cloth's
    darkest colour is the commonest, the searches look for a piece there, cut as the
    cloth's breaks show it (a red tile on a red check, its heart read so).
    """
    votes = np.where(labels == NO_COLOUR, 255, votes).astype(np.uint8)
    # the seams between cells, a pixel or two wide, are outvoted where a period is a
    # pixel off
    votes = cv2.morphologyEx(votes, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    near = cv2.dilate(seen, np.ones((3, 3), np.uint8))
    apart = _untouched(cv2.subtract(votes, near), cv2.dilate(near, np.ones((3, 3), np.uint8)))
    _, regions, stats, _ = cv2.connectedComponentsWithStats(apart)
    large = stats[:, cv2.CC_STAT_AREA] >= BREAK_MIN_CELLS * cell
    large[0] = False
    if not large.any():
        return None
    # a pale piece's pale cells, which the cloth repeats, are filled back
    found = fill_holes(np.where(large[regions], 255, 0).astype(np.uint8))
    return _pale_grounds(found, labels, palette, cell, dark_min_cells=np.inf)


def _swollen_cut_back(regions: np.ndarray, shown: np.ndarray, gap: float) -> np.ndarray:
    """The spacing cue's ``regions`` (0/255), each small one cut back to what ``shown``
    (bool: the lattice vote, a colour, no cloth colour) holds of it, closed and filled.

    The cue's discs are at least a colour's gap across, so a token one cell wide whose
    rim is in the cloth's colours comes out as a disc of the cloth round it, 1.6 times
    the token; the row it ends is then too wide for a row of tokens and is cut as tiles
    (azulejo seed 7 #3: no token of its row read). Only a region of a few discs
    (:data:`SWOLLEN_MAX_DISCS`) is cut back, where what is shown of it is one piece
    well inside it (:data:`SWOLLEN_SHOWN_MAX`): cut back everywhere, the pale borders
    of pale tiles on the cloth's pale cells were notched, a stretch of cloth at the
    frame's edge fell into tile-sized bits, and a row of grey backs the vote half
    misses fell apart (`docs/attempts/trim31.patch`).
    """
    cut = np.where(shown, regions, 0).astype(np.uint8)
    cut = fill_holes(cv2.morphologyEx(cut, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(regions)
    largest = SWOLLEN_MAX_DISCS * math.pi * gap**2
    out = regions.copy()
    for k in range(1, count):
        x, y, w, h, area = stats[k]
        if area > largest:
            continue
        window = (slice(y, y + h), slice(x, x + w))
        own = labels[window] == k
        kept = ((cut[window] > 0) & own).astype(np.uint8)
        pieces, parts, sizes, _ = cv2.connectedComponentsWithStats(kept)
        if pieces < 2:
            continue
        total = int(sizes[1:, cv2.CC_STAT_AREA].sum())
        biggest = 1 + int(np.argmax(sizes[1:, cv2.CC_STAT_AREA]))
        if total > SWOLLEN_SHOWN_MAX * area or sizes[biggest, cv2.CC_STAT_AREA] < (
            SWOLLEN_ONE_PIECE * total
        ):
            continue
        out[window][own] = 0
        out[window][parts == biggest] = 255
    return out


def _grown_into(faint: np.ndarray, strong: np.ndarray, share: float = FAINT_SHARE) -> np.ndarray:
    """``strong`` (bool) with the parts of ``faint`` (bool) that join an object it holds
    poorly, as 0/255.

    A faint region joins where it adds at least ``share`` of the strong pixels
    it touches: a tile whose ground is nearly the cloth's colour stands out only by its
    bands and figure, and its ground doubles that. Round an object the strong mask
    already holds, faint hue is a blur's halo (or a hand's shading) that would only
    swell it and move its cut. Nor does it join an object that reaches the frame's
    edge: a hand or arm comes in there, and the table's colour, averaged over a window
    the hand fills, is so like its skin that the hand's shading reads as faint hue.
    """
    mask = strong.astype(np.uint8) * 255
    extra = faint & ~strong
    if not extra.any():
        return mask
    count, labels = cv2.connectedComponents((faint | strong).astype(np.uint8), connectivity=8)
    held = np.bincount(labels[strong], minlength=count)
    added = np.bincount(labels[extra], minlength=count)
    keep = (held > 0) & (added >= share * held)
    edge = np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]])
    keep[edge] = False
    if keep.any():
        mask[extra & keep[labels]] = 255
    return mask


def hue_distance(lab: np.ndarray, table: np.ndarray, held: np.ndarray | None = None) -> np.ndarray:
    """How far each pixel's hue (a and b, averaged over :data:`QUIET_HUE_WINDOW`
    pixels) lies from the table's local hue, as a float32 image.

    With ``held`` (bool), the average is taken over the pixels outside it and the ring
    a pixel wide round it (the blur's edge) only, and is 0 where under a fifth of the
    window is so left. A ground's hue is its own; averaged with the figure it surrounds
    or the rim beside it, a coloured figure's hue spread half a window round it over a
    ground as pale as the table: a halo thick enough to pass for a ground, which then
    doubled the figure and swelled the tile past its edge (slate seed 31 #5, a yellow
    figure on a cream tile on a cream cloth); specks of a board's shadowed edge, their
    hue spread over the cloth below, so doubled themselves into a false tile (button
    seed 2024 #7, re-encoded).
    """
    # all three channels at once: OpenCV works on the strided a and b slices at half
    # the speed (3.2 against 1.5 ms a frame)
    difference = cv2.subtract(lab, table, dtype=cv2.CV_32F)
    window = (QUIET_HUE_WINDOW, QUIET_HUE_WINDOW)
    if held is None:
        cv2.blur(difference, window, dst=difference)
        return cv2.magnitude(
            np.ascontiguousarray(difference[..., 1]), np.ascontiguousarray(difference[..., 2])
        )
    free = cv2.erode((~held).astype(np.uint8), np.ones((3, 3), np.uint8)).astype(np.float32)
    cv2.multiply(difference, cv2.merge([free, free, free]), dst=difference)
    cv2.blur(difference, window, dst=difference)
    share = cv2.blur(free, window)
    distance = cv2.magnitude(
        np.ascontiguousarray(difference[..., 1]), np.ascontiguousarray(difference[..., 2])
    )
    distance /= np.maximum(share, QUIET_LEAST_FREE)
    distance[share < QUIET_LEAST_FREE] = 0
    return distance


def _wide(faint: np.ndarray) -> np.ndarray:
    """The faint regions (bool) wider than the thin ring of faint hue a coloured object's
    blur leaves round it."""
    opened = cv2.morphologyEx(faint.astype(np.uint8), cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    return opened.astype(bool)


def _doubled(coef: np.ndarray) -> np.ndarray:
    """A period field read at half the work size, at the work size: the vector at
    (x, y) is twice the one read at (x / 2, y / 2)."""
    doubled = coef.copy()
    doubled[0] *= 2
    return doubled


def _solid(mask: np.ndarray) -> np.ndarray:
    """Holes filled, then specks removed: a tile's thin coloured rim becomes its disc."""
    return cv2.morphologyEx(fill_holes(mask), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def border_depth(shape: tuple[int, ...]) -> int:
    """How deep (pixels) the strip along the frame's edges taken as table samples is."""
    return max(2, int(min(shape[:2]) * BORDER_SHARE))


def border_band(shape: tuple[int, ...]) -> np.ndarray:
    """A boolean mask of the frame's edges, where the table is most likely seen."""
    h, w = shape[:2]
    depth = border_depth(shape)
    band = np.zeros((h, w), bool)
    band[:depth] = band[-depth:] = True
    band[:, :depth] = band[:, -depth:] = True
    return band


def outline_mask(lab: np.ndarray, config: VisionConfig) -> np.ndarray | None:
    """Objects found by their crisp printed edges, for tiles as pale as the table.

    A cream tile on a beige table hardly differs in colour, but its outline and artwork
    are sharp where the table's grain is soft. Edges much stronger than the table's
    typical gradient are closed into solid blobs. On a table that is itself all sharp
    edges (a checked cloth) this cue would cover everything, so it is then left out.
    """
    # in place throughout: fresh frame-sized buffers cost more than the arithmetic
    gradient = cv2.Sobel(lab, cv2.CV_32F, 1, 0, ksize=3)
    cv2.multiply(gradient, gradient, dst=gradient)
    squared = cv2.transform(gradient, np.ones((1, 3), np.float32))
    cv2.Sobel(lab, cv2.CV_32F, 0, 1, dst=gradient, ksize=3)
    cv2.multiply(gradient, gradient, dst=gradient)
    cv2.add(squared, cv2.transform(gradient, np.ones((1, 3), np.float32)), dst=squared)
    typical = float(np.sqrt(np.median(squared[::4, ::4])))
    threshold = max(config.edge_min_strength, config.edge_noise_factor * typical)
    edges = (squared > threshold * threshold).astype(np.uint8) * 255
    if cv2.countNonZero(edges) > config.edge_max_share * edges.size:
        return None
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    blobs = fill_holes(cv2.morphologyEx(edges, cv2.MORPH_CLOSE, kernel))
    blobs = cv2.morphologyEx(
        blobs, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    )
    if cv2.countNonZero(blobs) > config.edge_max_share * 3 * blobs.size:
        return None
    return blobs


def _distance(lab: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Lab distance with lightness counting half: shadows and lamp gradients change it most."""
    squared = _squared_distance(lab, reference)
    cv2.sqrt(squared, dst=squared)
    return squared


def _squared_distance(
    lab: np.ndarray, reference: np.ndarray, buffer: np.ndarray | None = None
) -> np.ndarray:
    """The square of :func:`_distance`; ``buffer`` (float32, the shape of ``lab``) is reused."""
    if np.ndim(reference) == 1:
        reference = (*(float(v) for v in reference), 0.0)  # a scalar to OpenCV
    diff = cv2.subtract(lab, reference, dst=buffer, dtype=cv2.CV_32F)
    cv2.multiply(diff, diff, dst=diff)
    return cv2.transform(diff, _LAB_WEIGHTS).reshape(lab.shape[:2])


def nearest_colour(
    lab: np.ndarray, palette: np.ndarray, limit: float
) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's nearest palette colour (``NO_COLOUR`` beyond ``limit``) and its distance."""
    buffer = np.empty(lab.shape, np.float32)
    near = _squared_distance(lab, palette[0], buffer)
    labels = np.zeros(near.shape, np.uint8)
    for k in range(1, len(palette)):
        squared = _squared_distance(lab, palette[k], buffer)
        np.putmask(labels, squared < near, k)
        cv2.min(near, squared, dst=near)
    cv2.sqrt(near, dst=near)
    np.putmask(labels, near > limit, NO_COLOUR)
    return labels, near


def table_colour(lab: np.ndarray, config: VisionConfig, between_pieces: bool = False) -> np.ndarray:
    """The table's local Lab colour (uint8), with the objects left out, at low resolution.

    A median far wider than a tile is the table's colour wherever tiles cover less than
    half of the window. A close-up breaks that: a block of tiles wider than the window
    becomes its own "table" and its tiles vanish. So whatever clearly stands out from the
    median is left out, and the table is then averaged from the rest, from further away
    where a block covers the whole window. ``between_pieces``: and then taken from the
    cloth seen between pieces where it strays far from it (:func:`table_between_pieces`).
    """
    h, w = lab.shape[:2]
    small_w, small_h = max(1, w // TABLE_FACTOR), max(1, h // TABLE_FACTOR)
    tiny = cv2.resize(lab, (small_w, small_h), interpolation=cv2.INTER_AREA)
    ksize = max(3, int(config.background_kernel_frac * h / TABLE_FACTOR) | 1)
    ksize = min(ksize, (min(small_w, small_h) - 1) | 1) if min(small_w, small_h) > 3 else 3
    median = cv2.medianBlur(tiny, ksize).astype(np.float32)
    values = tiny.astype(np.float32)
    distance = _distance(values, median)
    threshold = max(
        config.foreground_min_distance,
        config.foreground_noise_factor * float(np.median(distance)),
    )
    objects = cv2.dilate((distance > threshold).astype(np.uint8), np.ones((3, 3), np.uint8))
    weight = 1.0 - objects.astype(np.float32)
    weighted = np.dstack([values * weight[..., None], weight])
    estimate = median
    for size in (3 * ksize, ksize):  # far first, so nearer estimates overwrite it
        window = (min(size, 2 * small_w - 1), min(size, 2 * small_h - 1))
        average = cv2.blur(cv2.blur(weighted, window), window)
        share = average[..., 3:]
        trust = np.clip(share / 0.3, 0.0, 1.0)
        estimate = trust * average[..., :3] / np.maximum(share, 1e-3) + (1.0 - trust) * estimate
    # the median stays where most of its window was table: it follows shadows crisply
    trust_median = np.clip((share - MEDIAN_TRUST[0]) / (MEDIAN_TRUST[1] - MEDIAN_TRUST[0]), 0, 1)
    table = trust_median * median + (1.0 - trust_median) * estimate
    if between_pieces:
        table = _between_pieces(table, lab, values, ksize, config)
    # a byte per channel is finer than any threshold here, and a quarter of the memory
    return cv2.resize(cv2.convertScaleAbs(table), (w, h), interpolation=cv2.INTER_LINEAR)


def table_between_pieces(small_bgr: np.ndarray, config: VisionConfig) -> np.ndarray | None:
    """The table's colour as :func:`table_colour` models it, but taken from the cloth
    seen between pieces where the model strays far from it (:func:`_between_pieces`);
    None where that changes nothing.

    Asked for only when a frame read with the plain model gives nothing at all: where a
    piece has parts in the cloth's own colour (a tile half slate on a slate cloth, a
    heart die-cut through it), trusting the cloth seen at the edges takes those parts for
    table where the plain model kept the pieces whole (session 24: diagonal and whorl each
    lost a photo), so it is a second reading, not the first.
    """
    lab = cv2.cvtColor(cv2.GaussianBlur(small_bgr, (3, 3), 0), cv2.COLOR_BGR2LAB)
    plain = table_colour(lab, config)
    table = table_colour(lab, config, between_pieces=True)
    return None if np.array_equal(plain, table) else table


def _between_pieces(
    table: np.ndarray, lab: np.ndarray, tiny: np.ndarray, ksize: int, config: VisionConfig
) -> np.ndarray:
    """The table's colour (``table``, at the size of ``tiny``, the frame ``lab`` made
    small), taken from the cloth seen between the pieces where the estimate is far off it.

    A block of pieces that share a pale ground (white paper, cream card), packed more
    closely than the median's window is wide, make that ground the window's "table", and
    the cloth showing in the gaps between them its objects: the whole block becomes one
    blob with nothing in it to cut. Where a window still shows enough of the cloth seen
    at the frame's edges, and its estimate lies further from that cloth than a lamp's
    gradient or a shadow takes it (:data:`GAPS_UNLIKE`), the table there is that cloth.
    """
    height, width = lab.shape[:2]
    if min(height, width) < 4 * TABLE_FACTOR:
        return table
    edge = np.median(tiny[border_band(tiny.shape)], axis=0)
    # at half the work size: the gaps between pieces stay a few pixels wide
    half = cv2.resize(lab, (width // 2, height // 2), interpolation=cv2.INTER_AREA)
    distance = _distance(half, edge)
    limit = max(
        config.foreground_min_distance,
        config.foreground_noise_factor * float(np.median(distance[border_band(half.shape)])),
    )
    off = (_distance(table, edge)[..., None] / limit - GAPS_UNLIKE[0]) / (
        GAPS_UNLIKE[1] - GAPS_UNLIKE[0]
    )
    if float(off.max()) <= 0.0:
        return table  # the estimate is the edges' cloth, lit as it may be, everywhere
    like = (distance < limit).astype(np.uint8)
    size = (tiny.shape[1], tiny.shape[0])
    own = cv2.resize(table.astype(np.float32), (half.shape[1], half.shape[0]))
    # the cloth that the estimate makes an object: a lamp's glare or a shadow, which the
    # estimate follows, makes none
    taken = like & (_distance(half, own) > limit).astype(np.uint8)
    window = (min(3 * ksize, 2 * size[0] - 1), min(3 * ksize, 2 * size[1] - 1))

    def spread(image: np.ndarray) -> np.ndarray:
        small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        return cv2.blur(cv2.blur(small, window), window)

    share = spread(like.astype(np.float32))[..., None]
    cloth = spread(cv2.bitwise_and(half, half, mask=like).astype(np.float32))
    cloth /= np.maximum(share, 1e-3)
    wrong = spread(taken.astype(np.float32))[..., None]
    enough = np.clip((wrong - GAPS_SHARE[0]) / (GAPS_SHARE[1] - GAPS_SHARE[0]), 0.0, 1.0)
    # around such an estimate, too: the median's window blends it into the cloth there
    far = cv2.dilate(np.clip(off, 0.0, 1.0), np.ones((ksize, ksize), np.uint8))
    trust = enough * far.reshape(enough.shape)
    return trust * cloth + (1.0 - trust) * table


def lighting_normalised(bgr: np.ndarray, config: VisionConfig) -> np.ndarray:
    """The frame with the lamp's gradient and soft shadows divided out.

    A cloth's colours are told apart by their brightness, which a shadow changes. The
    local *brightest* level (a max filter wider than the pattern) is the cloth's pale
    colour under the local light; pale tiles lying on the cloth hardly change it, where
    they would drag a local median or mean. Each channel is scaled so that level is
    :data:`LIGHT_LEVEL`.
    """
    h, w = bgr.shape[:2]
    small_w, small_h = max(1, w // LIGHT_FACTOR), max(1, h // LIGHT_FACTOR)
    tiny = cv2.resize(bgr, (small_w, small_h), interpolation=cv2.INTER_AREA)
    ksize = max(3, int(config.background_kernel_frac * h / LIGHT_FACTOR) | 1)
    bright = cv2.dilate(tiny, cv2.getStructuringElement(cv2.MORPH_RECT, (ksize, ksize)))
    bright = cv2.max(cv2.blur(bright, (ksize, ksize)), 1)
    bright = cv2.resize(bright, (w, h), interpolation=cv2.INTER_LINEAR)
    return cv2.divide(bgr, bright, scale=LIGHT_LEVEL)


def table_palette(lab: np.ndarray, colours: int = 4) -> np.ndarray:
    """The table's main colours, clustered from a strip along the frame's edges.

    Tiles lie in the middle of the picture; its edges are mostly table. Clusters too
    small to be the table (a tile cut by the edge) are left out, and clusters closer
    than :data:`PALETTE_MERGE` are one colour split by noise.
    """
    depth = border_depth(lab.shape)
    edges = (lab[:depth], lab[-depth:], lab[depth:-depth, :depth], lab[depth:-depth, -depth:])
    strip = np.concatenate([e.reshape(-1, 3)[::11] for e in edges]).astype(np.float32)
    if len(strip) < 4 * colours:  # a frame a few pixels across: all of it
        strip = lab.reshape(-1, 3).astype(np.float32)
    colours = min(colours, len(strip))
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 8, 1.0)
    cv2.setRNGSeed(7)
    _, labels, centres = cv2.kmeans(strip, colours, None, criteria, 1, cv2.KMEANS_PP_CENTERS)
    shares = np.bincount(labels.ravel(), minlength=colours) / len(labels)
    keep = shares >= 0.1
    return _merge_close(list(centres[keep]), list(shares[keep]))


def _merge_close(centres: list[np.ndarray], weights: list[float]) -> np.ndarray:
    """Pairs of palette colours closer than :data:`PALETTE_MERGE` joined, weighted by share."""
    while len(centres) > 1:
        pairs = [
            (float(_distance(centres[i][None, None], centres[j])[0, 0]), i, j)
            for i in range(len(centres))
            for j in range(i + 1, len(centres))
        ]
        gap, i, j = min(pairs)
        if gap >= PALETTE_MERGE:
            break
        total = weights[i] + weights[j]
        centres[i] = (centres[i] * weights[i] + centres[j] * weights[j]) / total
        weights[i] = total
        del centres[j], weights[j]
    return np.array(centres, np.float32)


def pattern_objects(
    labels: np.ndarray, colours: int, band: np.ndarray, seen: np.ndarray
) -> tuple[np.ndarray, float] | None:
    """Objects on a patterned cloth found by where its colours stop recurring, and the
    radius of the discs that found them (the closest colour's gap).

    ``labels`` gives each pixel's nearest cloth colour (``NO_COLOUR``: none). On the
    cloth, every colour recurs within a gap measured along the frame's edges; a disc
    wider than that gap without colour *k* is something lying on the cloth. The union of
    such discs is the object; where it lacks several colours, it must lack all of them,
    which trims the cloth cells next to it. ``seen`` (what differs from every cloth
    colour) decides which of these regions are kept (see :data:`PATTERN_SEEN_MIN`).
    """
    gaps = [_colour_gap(labels == k, band) for k in range(colours)]
    found = [g for g in gaps if g is not None]
    if not found:
        return None
    closest = min(gap for gap, _ in found)
    regions, kept = [], []
    for k, found_k in enumerate(gaps):
        if found_k is None:
            continue
        gap, free = found_k
        if gap > GAP_IRREGULAR * closest:
            continue
        core = (free > gap).astype(np.uint8)
        if not cv2.countNonZero(core):
            continue
        # every pixel within ``gap`` of a core point lies in a disc free of the colour
        reach = cv2.distanceTransform(1 - core, cv2.DIST_L2, 3)
        regions.append((reach <= gap).astype(np.uint8))
        kept.append(k)
    if not regions:
        return None
    union = regions[0].copy()
    for region in regions[1:]:
        union |= region
    count, components = cv2.connectedComponents(union)
    # only the few pixels inside the regions are worked on from here
    inside = np.flatnonzero(union)
    ids = components.ravel()[inside]
    in_regions = [r.ravel()[inside] for r in regions]
    missing = np.stack([np.bincount(ids, weights=r, minlength=count) for r in in_regions])
    lacks = missing >= MISSING_SHARE * missing.max(axis=0)
    in_labels = labels.ravel()[inside]
    kept_inside = np.ones(len(inside), bool)
    for i, (k, region) in enumerate(zip(kept, in_regions, strict=True)):
        # the object lies inside every region of a colour it lacks, and has no pixel of it
        kept_inside &= ~lacks[i][ids] | ((region > 0) & (in_labels != k))
    objects = np.zeros(union.shape, np.uint8)
    objects.ravel()[inside[kept_inside]] = 1
    objects = _opened(objects, OPEN_SHARE * closest)
    confirmed = _confirmed(objects, seen, SEEN_REACH * closest)
    return cv2.bitwise_or(confirmed, _unseen_rows(objects, seen)), closest


#: One cloth colour's 4-connected pieces: the label image, and the stats and centroids
#: of ``cv2.connectedComponentsWithStats`` (piece 0 is everything else).
ColourPieces = tuple[np.ndarray, np.ndarray, np.ndarray]


def colour_pieces(labels: np.ndarray, colours: Iterable[int]) -> list[ColourPieces]:
    """The cloth ``colours``' connected pieces, found once for the cells' size and spacing.

    Pieces join only along their sides: a gingham's pale cells meet at their corners.
    """
    found = []
    for k in colours:
        is_k = (labels == k).astype(np.uint8)
        _, pieces, stats, centres = cv2.connectedComponentsWithStats(is_k, connectivity=4)
        found.append((pieces, stats, centres))
    return found


def oversized_cells(
    cells: list[ColourPieces],
    band: np.ndarray,
    seen: np.ndarray,
    darkest: int = -1,
    broken: np.ndarray | None = None,
) -> np.ndarray | None:
    """Objects on a patterned cloth found by a cloth colour spreading wider than its cells.

    Where a cloth lays a colour in separate cells (the pale squares of a gingham), a
    connected piece of that colour many times a cell's size is something lying on the
    cloth in that colour: the paper ground of a pale tile. Unlike the cloth's spacing
    (:func:`pattern_objects`), this holds however much of the tile's ink passes for the
    cloth's other colours. The pieces, with the figures on them and what they enclose,
    are opened by a disc wider than a cell so the cloth cells touching them fall away,
    and confirmed by colour as the spacing's regions are (a figure, a rim), though
    colour may see much of them (a block of colourful figures). ``seen`` is what differs
    from every cloth colour; ``cells`` are the cloth colours' pieces (:func:`colour_pieces`).

    A ground in the cloth's ``darkest`` colour that no colour confirms is still kept if
    it is shaped like a piece: a tile in the cloth's own two colours (a green tile with
    a pale figure on a green gingham) shows colour nowhere. Not in the paler colours: a
    lamp's glare washes a round stretch of cloth into pale rings.

    Colour must see part of a ground; that it lies near all of it (see :func:`_confirmed`)
    may also be shown by where the cloth stops repeating itself (``broken``, 0/255, at
    the scale of ``cells``; :func:`cloth_breaks`): a block of pale tiles whose figures
    are small leaves much of its ground over a cell and a half from any colour, but
    their borders and ornaments, in the cloth's own colours, break its repetition all
    over it, where cloth washed pale by a lamp or darkened by a shadow repeats itself
    (azulejo seed 2024 #3: a block of 15 cream tiles on a blue gingham, 35 % of its
    ground beyond colour's reach, none beyond the breaks').
    """
    found = np.zeros(seen.shape, np.uint8)
    dark = np.zeros(seen.shape, np.uint8)
    cell = 0.0
    for colour, (pieces, stats, _) in enumerate(cells):
        area = stats[:, cv2.CC_STAT_AREA]
        on_table = pieces[band]
        on_table = area[on_table[on_table > 0]]
        if len(on_table) < 20:
            continue
        typical, wide = np.percentile(on_table, [50, 90])
        if typical < CELL_REGULAR * wide:
            continue
        large = area > CELL_GROWTH * wide
        large[0] = False
        if large.any():
            grounds = large[pieces].astype(np.uint8)
            found |= grounds
            if colour == darkest:
                dark |= grounds
            cell = max(cell, float(np.sqrt(wide)))
    if not cell:
        return None
    # the figures on the grounds, and the thin ink lines between them, are the object's
    seen01 = (seen > 0).astype(np.uint8)
    count, pieces = cv2.connectedComponents(found | seen01)
    touched = np.zeros(count, bool)
    touched[pieces[found > 0]] = True
    touched[0] = False
    joined = cv2.morphologyEx(
        touched[pieces].astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)
    )
    solid = (fill_holes(joined * 255) > 0).astype(np.uint8)
    objects = _opened(solid, CELL_OPEN * cell)
    # the tiles of a block, parted by their ink borders (less than a cell), are confirmed
    # as one: a tile whose figure is in a cloth colour is seen through its neighbours
    side = 2 * int(cell) + 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side))
    grouped = cv2.morphologyEx(objects, cv2.MORPH_CLOSE, kernel)
    near = seen if broken is None else cv2.bitwise_or(seen, broken)
    confirmed = _confirmed(grouped, seen, SEEN_REACH * cell, seen_max=1.0, near=near)
    confirmed = cv2.bitwise_and(confirmed, objects * 255)
    if not dark.any():
        return confirmed
    # a dark ground is one convex square or disc, where shadowed cloth joining cells of
    # a colour spreads in an irregular net (opened by a whole cell, so no cell clings to
    # its sides)
    dark_solid = (fill_holes(cv2.bitwise_and(joined, dark) * 255) > 0).astype(np.uint8)
    return cv2.bitwise_or(confirmed, _shaped_like_pieces(_opened(dark_solid, cell)))


def _shaped_like_pieces(objects: np.ndarray) -> np.ndarray:
    """The regions of ``objects`` (0/1) that are one convex square or disc, as 0/255."""
    contours, _ = cv2.findContours(objects, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    shaped = np.zeros(objects.shape, np.uint8)
    for contour in contours:
        area = cv2.contourArea(contour)
        hull = cv2.contourArea(cv2.convexHull(contour))
        (_, _), (w, h), _ = cv2.minAreaRect(contour)
        if not area or min(w, h) < PIECE_MIN_SIDE:
            continue
        if area >= PIECE_SOLIDITY * hull and max(w, h) <= PIECE_ASPECT * min(w, h):
            cv2.drawContours(shaped, [contour], -1, 255, -1)
    return shaped


def cloth_breaks(
    labels: np.ndarray, cells: list[ColourPieces], band: np.ndarray, mixed: np.ndarray
) -> tuple[np.ndarray, float, list[np.ndarray]] | None:
    """Where a checked cloth stops repeating itself (0/255, at the scale of ``labels``),
    its cells' area and its two period fields; None where no regular lattice is read.

    A checked cloth is periodic: one period along either of its axes lands on a cell of
    the same colour. The period is read from the centres of one colour's separate cells
    (their nearest neighbours, as a field over the frame, since a tilted camera makes the
    far cells smaller) and checked on the frame's edges. A pixel whose cloth colour is
    found one period away in none of the four directions is something lying on the cloth:
    a pale tile whose figure is in the cloth's own colours, which neither colour nor any
    one colour's spacing can tell from the cloth. Light and shadow change slowly over a
    period, so they leave the repetition intact, where they break a colour's spacing or
    join its cells. Where a ground of one of the cloth's ``mixed`` colours (see
    :func:`_unalternating`) lies wider than the cloth lays it, it is broken too.
    """
    found = _cloth_lattice(labels, cells, band)
    if found is None:
        return None
    fields, cell = found
    labels = np.ascontiguousarray(labels)  # remapped four times
    broken = np.full(labels.shape, 255, np.uint8)
    for coef in fields:
        # a period that leaves the frame keeps the pixel's own colour: no evidence
        for moved in _both_ways(labels, coef, outside=None):
            cv2.bitwise_and(broken, cv2.compare(moved, labels, cv2.CMP_NE), dst=broken)
    cv2.bitwise_or(broken, _unalternating(labels, fields, band, mixed), dst=broken)
    broken[labels == NO_COLOUR] = 255  # what is no cloth colour is no cloth
    return broken, cell, fields


def _outvoted(labels: np.ndarray, fields: list[np.ndarray]) -> np.ndarray:
    """Where a pixel's cloth colour (``labels``) recurs at under half of its lattice
    neighbours within :data:`LATTICE_VOTE_REACH` periods (``fields``) in the frame,
    as 0/255.

    Farther neighbours than one period land on the cloth around a piece, and a light's
    gradient or a shadow, changing slowly, moves a pixel and its neighbours alike.
    """
    same = np.zeros(labels.shape, np.uint8)
    inside = np.zeros(labels.shape, np.uint8)
    reach = range(-LATTICE_VOTE_REACH, LATTICE_VOTE_REACH + 1)
    outside = NO_COLOUR - 1  # no cloth colour's label, and not NO_COLOUR's either
    # half the neighbours, each seen both ways: the other half
    for i, j in ((i, j) for i in reach for j in reach if (i, j) > (0, 0)):
        for moved in _both_ways(labels, i * fields[0] + j * fields[1], outside=outside):
            cv2.add(same, cv2.compare(moved, labels, cv2.CMP_EQ) // 255, dst=same)
            cv2.add(inside, cv2.compare(moved, outside, cv2.CMP_NE) // 255, dst=inside)
    return cv2.compare(2 * same.astype(np.int16), inside.astype(np.int16), cv2.CMP_LT)


def _mixed_colours(palette: np.ndarray) -> np.ndarray:
    """Which of a cloth's palette colours (Lab rows) are neither its palest nor its darkest,
    as a lookup over labels (:data:`NO_COLOUR` included)."""
    mixed = np.zeros(256, bool)
    mixed[: len(palette)] = True
    mixed[[int(np.argmin(palette[:, 0])), int(np.argmax(palette[:, 0]))]] = False
    return mixed


def _unalternating(
    labels: np.ndarray, fields: list[np.ndarray], band: np.ndarray, mixed: np.ndarray
) -> np.ndarray:
    """Where a checked cloth fails to alternate in one of its ``mixed`` colours (0/255, at
    the scale of ``labels``; ``mixed``: :func:`_mixed_colours`).

    Half a period along a gingham's axes lands on another of its colours nearly
    everywhere (a dark cell's half-period neighbours are mixed, a mixed cell's dark
    or pale), as the frame's edges show. A tile wider than a period whose ground
    is one of the cloth's colours repeats that colour one period on, so the period
    alone sees only its rim break; half a period on, its ground is still its own
    colour all across (halftone seed 2024 #19: green tiles on a green gingham, 26
    px wide against a 15 px period, never in the mask). Which half-periods alternate
    (:data:`ALTERNATE_MIN`) is read on the frame's edges, as the periods are. Only the
    colours between the palest and the darkest count: a lamp's glare washes a stretch of
    cloth into its palest colour, a deep shadow into its darkest (and the other cues
    find tiles of those: a pale ground by its missing colours, a dark one by its shape).
    """
    points, here = _cloth_samples(labels, *_band_samples(band))
    halves = [
        coef / 2 for coef in (fields[0], fields[1], fields[0] + fields[1], fields[0] - fields[1])
    ]
    alternating = [h for h in halves if 1 - _repeats(labels, points, here, h) >= ALTERNATE_MIN]
    still = np.zeros(labels.shape, np.uint8)
    if not alternating:
        return still
    still[:] = 255
    for coef in alternating:
        # either way along the axis: within half a period of a tile's edge one of the
        # two lands off the tile
        either = np.zeros(labels.shape, np.uint8)
        # a half-period that leaves the frame lands on another colour: no evidence
        for moved in _both_ways(labels, coef, outside=NO_COLOUR):
            cv2.bitwise_or(either, cv2.compare(moved, labels, cv2.CMP_EQ), dst=either)
        cv2.bitwise_and(still, either, dst=still)
    still[~mixed[labels]] = 0
    # the cloth's own seams, blurred between two colours, fail here and there a pixel
    # at a time; a ground laid wider than the cloth's cells fails over a patch
    return cv2.morphologyEx(still, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def _both_ways(labels: np.ndarray, coef: np.ndarray, outside: int | None) -> list[np.ndarray]:
    """``labels`` as seen one period field ``coef`` away from each pixel, forwards and
    backwards: where that leaves the frame, the label ``outside``, or the pixel's own
    (None)."""
    h, w = labels.shape
    xs = np.arange(w, dtype=np.float32)[None, :]
    ys = np.arange(h, dtype=np.float32)[:, None]
    vx = coef[0, 0] + coef[1, 0] * xs + coef[2, 0] * ys
    vy = coef[0, 1] + coef[1, 1] * xs + coef[2, 1] * ys
    # a transparent border leaves the copy's own label where the shift leaves the frame
    mode = cv2.BORDER_TRANSPARENT if outside is None else cv2.BORDER_CONSTANT
    return [
        cv2.remap(
            labels,
            xs + sign * vx,
            ys + sign * vy,
            cv2.INTER_NEAREST,
            dst=labels.copy(),
            borderMode=mode,
            borderValue=0 if outside is None else outside,
        )
        for sign in (1.0, -1.0)
    ]


def break_objects(broken: np.ndarray, cell: float, seen: np.ndarray) -> np.ndarray | None:
    """The objects lying on a checked cloth where it stops repeating itself
    (``broken``, :func:`cloth_breaks`; ``cell`` its cells' area), as 0/255.

    Breaks that colour (``seen``) already outlines for the most part are left to it,
    which outlines them more sharply (:data:`PATTERN_SEEN_MAX`).
    """
    side = round(float(np.sqrt(cell))) | 1  # odd: centred on the pixel
    share = cv2.blur(broken, (side, side))
    # hysteresis: a break's core, out to where it fades into the cloth's seams
    region = (share > BREAK_EDGE * 255).astype(np.uint8)
    count, pieces, stats, _ = cv2.connectedComponentsWithStats(region)
    cored = np.zeros(count, bool)
    cored[pieces[share > BREAK_SHARE * 255]] = True
    area = stats[:, cv2.CC_STAT_AREA]
    hits = np.bincount(pieces[seen > 0], minlength=count)
    # a break may hold a coloured object and, touching it, one in the cloth's colours (a
    # red tile on a red gingham beside a yellow one): what lies clear of colour's solid
    # outlines is the second's, and is judged on its own
    outlined = cv2.dilate(fill_holes(seen), np.ones((side, side), np.uint8))
    clear = (region > 0) & (outlined == 0)
    unexplained = np.bincount(pieces[clear], minlength=count)
    large = cored & (area >= BREAK_MIN_CELLS * cell)
    keep = large & (hits <= PATTERN_SEEN_MAX * area)
    beside = large & ~keep & (unexplained >= BREAK_MIN_CELLS * cell)
    keep[0] = beside[0] = False
    if not (keep.any() or beside.any()):
        return None
    # the break's blur rounds a tile's corners and pushes its edges out by the blur's
    # reach; the broken pixels themselves lie on the object only, except where it
    # happens to repeat the cloth, so each break is the convex outline of its own
    broken = cv2.morphologyEx(broken, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    broken_beside = broken.copy()
    broken_beside[~clear] = 0
    objects = np.zeros(broken.shape, np.uint8)
    for index in np.flatnonzero(keep | beside):
        x, y, w, h = stats[index, :4]
        source = broken_beside if beside[index] else broken
        inside = (pieces[y : y + h, x : x + w] == index) & (source[y : y + h, x : x + w] > 0)
        points = cv2.findNonZero(inside.astype(np.uint8))
        if points is not None:
            cv2.fillConvexPoly(objects, cv2.convexHull(points + np.array([x, y], np.int32)), 255)
    return objects


def _cloth_lattice(
    labels: np.ndarray, cells: list[ColourPieces], band: np.ndarray
) -> tuple[list[np.ndarray], float] | None:
    """The cloth's two period vectors as linear fields over the frame, and its cell area.

    A colour laid in separate cells offers its cells' nearest neighbours as period
    vectors (the colour with the most cells first, the next if its cells do not lie on a
    square lattice); a gingham's stripe colour, whose cells meet at their corners, offers
    the diagonal half-period, so the sums of the two axes are tried too. The candidate
    that the frame's edges repeat well under is taken, the cell's own period first (on a
    checkerboard the diagonal is the period).
    """
    rows, cols = _band_samples(band)
    points, here = _cloth_samples(labels, rows, cols)
    offers = [offer for offer in _cell_offers(cells, rows, cols) if offer[1] >= CELL_MIN_SIDE**2]
    stretch = _edge_stretches(points, labels.shape)
    for _, cell, centres in sorted(offers, key=lambda offer: -offer[0]):
        axes = _period_fields(centres)
        if axes is None:
            continue
        a, b = axes
        pairs = [[a, b], [a + b, a - b]]
        # each pair as read, then refitted, then refitted further from where that left it
        for times in (0, LATTICE_REFITS, LATTICE_LATE_REFITS - LATTICE_REFITS):
            for n, pair in enumerate(pairs):
                pairs[n] = pair = [
                    _refitted(labels, points, here, coef, stretch, times) for coef in pair
                ]
                if min(_repeats(labels, points, here, c) for c in pair) >= LATTICE_REPEAT_MIN:
                    return pair, cell
    return None


def _pale_grounds(
    objects: np.ndarray,
    labels: np.ndarray,
    palette: np.ndarray,
    cell: float,
    dark_min_cells: float = DARK_BREAK_MIN_CELLS,
) -> np.ndarray:
    """The regions of ``objects`` (0/255) whose commonest cloth colour is not its darkest,
    and those ``dark_min_cells`` cells or wider whatever their colour.

    A break only two cells wide takes in the corners that happen to repeat the cloth, so
    a square tile in the cloth's dark colour comes out round (read as a token); its
    ground is found whole where that colour spreads (:func:`oversized_cells`). A break
    :data:`DARK_BREAK_MIN_CELLS` cells (``cell``: a cell's area) or wider is kept: it is
    wider than a token, and a tile whose dark middle is ringed by the cloth's paler
    colours (layered paper) neither spreads one colour nor shows one the cloth lacks,
    so no other cue finds it (papercut seed 2024 #19: four green tiles three cells
    wide on a green gingham, 6-7 cells of break each, never in the mask).
    """
    count, regions, stats, _ = cv2.connectedComponentsWithStats(objects)
    inside = regions > 0
    ids, colours = regions[inside], labels[inside]
    on_cloth = colours != NO_COLOUR
    darkest = int(np.argmin(palette[:, 0]))
    shares = np.zeros((count, len(palette)))
    np.add.at(shares, (ids[on_cloth], colours[on_cloth]), 1)
    dark = shares.argmax(axis=1) == darkest
    dark &= stats[:, cv2.CC_STAT_AREA] < dark_min_cells * cell
    dark[0] = True
    return np.where(dark[regions], 0, objects).astype(np.uint8)


def _untouched(objects: np.ndarray, others: np.ndarray | None) -> np.ndarray:
    """The regions of ``objects`` (0/255) that touch none of ``others``."""
    if others is None:
        return objects
    count, regions = cv2.connectedComponents(objects)
    touching = np.zeros(count, bool)
    touching[regions[others > 0]] = True
    touching[0] = True
    return np.where(touching[regions], 0, objects).astype(np.uint8)


def _cloth_samples(
    labels: np.ndarray, rows: np.ndarray, cols: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The sampled pixels (``rows``, ``cols``) that show a cloth colour, as x, y points,
    and their labels."""
    here = labels[rows, cols]
    on_cloth = here != NO_COLOUR
    points = np.column_stack([cols[on_cloth], rows[on_cloth]]).astype(np.float32)
    return points, here[on_cloth]


def _band_samples(band: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns of about :data:`LATTICE_SAMPLES` pixels of the frame's edges."""
    rows, cols = np.nonzero(band[::2, ::2])
    pick = slice(None, None, max(1, len(rows) // LATTICE_SAMPLES))
    return 2 * rows[pick], 2 * cols[pick]


def _cell_offers(
    cells: list[ColourPieces], rows: np.ndarray, cols: np.ndarray
) -> list[tuple[int, float, np.ndarray]]:
    """The colours laid in enough regular cells to read a period from: each one's count
    of such cells, the area of the cell holding a typical pixel of it (on the frame's
    edges, sampled at ``rows``, ``cols``), and the regular cells' centres."""
    offers = []
    for pieces, stats, centres in cells:
        area = stats[:, cv2.CC_STAT_AREA]
        on_band = pieces[rows, cols]
        on_band = area[on_band[on_band > 0]]
        if len(on_band) < LATTICE_MIN_CELLS:
            continue
        cell = float(np.median(on_band))  # the cell holding a typical pixel of the colour
        regular = np.flatnonzero(
            (area > CELL_AREA_RANGE[0] * cell) & (area < CELL_AREA_RANGE[1] * cell)
        )
        regular = regular[regular > 0]
        if len(regular) >= LATTICE_MIN_CELLS:
            offers.append((len(regular), cell, centres[regular].astype(np.float32)))
    return offers


def _compared_finer(cells: list[ColourPieces], band: np.ndarray) -> list[int]:
    """The colours whose cells could set the cloth's period at the full work size, where
    every colour's cells (``cells``, at half the work size) are too small for it there."""
    rows, cols = _band_samples(band)
    offered = {
        k: cell
        for k, colour in enumerate(cells)
        for _, cell, _ in _cell_offers([colour], rows, cols)
    }
    if not offered or max(offered.values()) >= CELL_MIN_SIDE**2:
        return []
    return [k for k, cell in offered.items() if cell >= CELL_MIN_SIDE**2 / 4]


def _repeats(labels: np.ndarray, points: np.ndarray, here: np.ndarray, coef: np.ndarray) -> float:
    """The share of ``points`` (x, y; their labels ``here``) whose label recurs one period
    (the field ``coef``) away, of those whose period lands inside the frame."""
    to = np.round(points + coef[0] + points @ coef[1:]).astype(np.int32)
    inside = (to[:, 0] >= 0) & (to[:, 0] < labels.shape[1])
    inside &= (to[:, 1] >= 0) & (to[:, 1] < labels.shape[0])
    same = labels[to[inside, 1], to[inside, 0]] == here[inside]
    return float(same.mean()) if len(same) else 0.0


def _edge_stretches(points: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Which of :data:`LATTICE_REFIT_STRETCHES` stretches of the frame's edges, cut by the
    angle round the frame's middle, each of ``points`` (x, y) lies in."""
    angle = np.arctan2(points[:, 1] - shape[0] / 2, points[:, 0] - shape[1] / 2)
    stretch = ((angle + np.pi) / (2 * np.pi) * LATTICE_REFIT_STRETCHES).astype(np.intp)
    return np.minimum(stretch, LATTICE_REFIT_STRETCHES - 1)


def _refitted(
    labels: np.ndarray,
    points: np.ndarray,
    here: np.ndarray,
    coef: np.ndarray,
    stretch: np.ndarray,
    times: int = LATTICE_REFITS,
) -> np.ndarray:
    """The period field ``coef`` fitted to where ``points`` (labels ``here``, in the edge
    stretches ``stretch``) repeat best, ``times`` times at most: see
    :data:`LATTICE_REFIT_STRETCHES`."""
    shifts = np.array([(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)], np.float32)
    design = np.column_stack([np.ones(len(points), np.float32), points])
    h, w = labels.shape
    for _ in range(times):
        period = design @ coef
        to = np.round(points + period).astype(np.int32)
        scores = np.empty((len(shifts), LATTICE_REFIT_STRETCHES))
        for k, (dx, dy) in enumerate(shifts.astype(np.int32)):
            x, y = to[:, 0] + dx, to[:, 1] + dy
            inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
            same = np.zeros(len(points), np.float32)
            same[inside] = labels[y[inside], x[inside]] == here[inside]
            scores[k] = np.bincount(stretch, same, LATTICE_REFIT_STRETCHES)
        # ties keep the period where it is (the middle shift is listed fifth)
        scores[4] += 0.5
        best = scores.argmax(axis=0)
        if (best == 4).all():
            break  # no stretch moves: refitting again changes nothing
        moved = period + shifts[best[stretch]]
        coef, *_ = np.linalg.lstsq(design, moved, rcond=None)
        coef = coef.astype(np.float32)
    return coef


def _period_fields(centres: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Two period vectors fitted as linear functions of position (3x2 coefficients each)."""
    sample = centres[:: max(1, len(centres) // LATTICE_SAMPLE_CELLS)]
    offsets = centres[None, :, :] - sample[:, None, :]
    dist = np.hypot(offsets[..., 0], offsets[..., 1])
    dist[dist < 1] = np.inf  # the cell itself
    step = float(np.median(dist.min(axis=1)))
    i, j = np.nonzero(np.abs(dist - step) < NEIGHBOUR_SLACK * step)
    vectors = offsets[i, j]
    angles = np.arctan2(vectors[:, 1], vectors[:, 0])
    turn = np.exp(4j * angles).mean()  # a square lattice repeats every quarter turn
    if abs(turn) < LATTICE_COHERENCE:
        return None
    theta = float(np.angle(turn)) / 4
    relative = (angles - theta) % np.pi
    on_a = (relative < np.pi / 4) | (relative > 3 * np.pi / 4)
    along = np.where(
        on_a,
        vectors @ np.array([np.cos(theta), np.sin(theta)], np.float32),
        vectors @ np.array([-np.sin(theta), np.cos(theta)], np.float32),
    )
    vectors[along < 0] *= -1
    design = np.column_stack([np.ones(len(i), np.float32), (sample[i] + centres[j]) / 2])
    fields = []
    for axis in (on_a, ~on_a):
        if axis.sum() < LATTICE_MIN_CELLS:
            return None
        coef, *_ = np.linalg.lstsq(design[axis], vectors[axis], rcond=None)
        fields.append(coef.astype(np.float32))
    return fields[0], fields[1]


def _opened(mask: np.ndarray, radius: float) -> np.ndarray:
    """``mask`` (0/1) opened by a disc of ``radius``: what a disc that size can sweep."""
    if radius < 1:
        return mask
    inner = cv2.distanceTransform(mask, cv2.DIST_L2, 3) > radius
    reach = cv2.distanceTransform(1 - inner.astype(np.uint8), cv2.DIST_L2, 3)
    return (reach <= radius).astype(np.uint8)


def _confirmed(
    objects: np.ndarray,
    seen: np.ndarray,
    reach: float,
    seen_max: float = PATTERN_SEEN_MAX,
    near: np.ndarray | None = None,
) -> np.ndarray:
    """The regions of ``objects`` that colour has partly (up to ``seen_max``) seen, as 0/255.

    The seen part must also be spread over the region: an object's figure or rim lies
    within ``reach`` of all of it, where a stretch of shadowed cloth that happens to
    touch a tile or a token lies mostly beyond. ``near`` (default ``seen``) is what
    shows that spread.
    """
    seen01 = (seen > 0).astype(np.uint8)
    near01 = seen01 if near is None else (near > 0).astype(np.uint8)
    far = cv2.distanceTransform(1 - near01, cv2.DIST_L2, 3) > reach
    count, components, stats, _ = cv2.connectedComponentsWithStats(objects)
    inside = np.flatnonzero(objects)
    ids = components.ravel()[inside]
    hits = np.bincount(ids, weights=seen01.ravel()[inside], minlength=count)
    beyond = np.bincount(ids, weights=far.ravel()[inside], minlength=count)
    area = stats[:, cv2.CC_STAT_AREA]
    keep = (hits >= PATTERN_SEEN_MIN * area) & (hits <= seen_max * area)
    keep &= beyond <= PATTERN_FAR_MAX * area
    keep &= area <= PATTERN_MAX_AREA * objects.size
    confirmed = np.zeros(objects.shape, np.uint8)
    confirmed.ravel()[inside[keep[ids]]] = 255
    return confirmed


def _unseen_rows(objects: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """The regions of ``objects`` (0/1) that colour (``seen``) has not seen enough of to
    confirm (:data:`PATTERN_SEEN_MIN`) but that are shaped like a row of pieces, as
    0/255: at least :data:`ROW_ELONGATION` times longer than wide, clear of the frame's
    edge.

    A row of pale tokens on a gingham (doily's lace backs between two pale faces) breaks
    the cloth's spacing along its whole length and shows no colour the cloth lacks, so
    colour never confirms it; a lit or shadowed stretch of cloth is as wide as the lamp
    makes it, and a row of pieces is as long as several of them.
    """
    count, components, stats, _ = cv2.connectedComponentsWithStats(objects)
    rows = np.zeros(objects.shape, np.uint8)
    height, width = objects.shape
    for k in range(1, count):
        x, y, w, h, area = stats[k]
        if x == 0 or y == 0 or x + w == width or y + h == height:
            continue
        inside = components[y : y + h, x : x + w] == k
        if np.count_nonzero(seen[y : y + h, x : x + w][inside]) >= PATTERN_SEEN_MIN * area:
            continue
        points = cv2.findNonZero(inside.astype(np.uint8))
        short, long = sorted(cv2.minAreaRect(points)[1])
        if long >= ROW_ELONGATION * max(short, 1.0):
            rows[y : y + h, x : x + w][inside] = 255
    return rows


def _colour_gap(is_colour: np.ndarray, band: np.ndarray) -> tuple[float, np.ndarray] | None:
    """How far colour k's pixels lie apart on the table, and each pixel's distance to k.

    Blur leaves thin seams of in-between colours where two cells meet; cells thick
    enough to survive a one-pixel erosion are measured without those seams. The gap is
    read at the local maxima of the distance along the frame's edges (the centres of the
    spaces between k's cells), padded by reflection so the frame's edge is no space.
    """
    mask = is_colour.astype(np.uint8)
    eroded = cv2.erode(mask, np.ones((3, 3), np.uint8))
    if cv2.countNonZero(eroded) >= 0.5 * cv2.countNonZero(mask):
        mask = eroded
    if not cv2.countNonZero(mask):
        return None
    pad = border_depth(mask.shape)
    padded = cv2.copyMakeBorder(1 - mask, pad, pad, pad, pad, cv2.BORDER_REFLECT)
    free = cv2.distanceTransform(padded, cv2.DIST_L2, 3)
    free = free[pad : pad + mask.shape[0], pad : pad + mask.shape[1]]
    peaks = (free >= cv2.dilate(free, np.ones((3, 3), np.uint8))) & (free > 1) & band
    values = free[peaks]
    if len(values) < 5:
        return None
    return GAP_SLACK * float(np.percentile(values, 90)) + 1.5, free


def without_lines(mask: np.ndarray, grey: np.ndarray | None = None) -> np.ndarray:
    """The mask without the thin lines crossing it: the seams between a table's boards,
    a crack, the edge of a mat's shadow.

    Such a line stands out from the table as much as a tile does, and where it runs
    into a tile it makes the tile's blob a shape no split explains (a close-up of
    three tiles on boards read one). What a small opening takes away and is long and
    thin is removed; the opening's other leavings (a square's corners, a blurred
    rim) stay, so every piece keeps its outline. Given the frame's ``grey``, a line
    whose shading repeats at its own width stays: a row of tokens as narrow as a seam
    (:func:`is_row_of_discs`).
    """
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (LINE_WIDTH + 1, LINE_WIDTH + 1))
    leavings = cv2.subtract(mask, cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel))
    count, pieces = cv2.connectedComponents(leavings, connectivity=8)
    lines = np.zeros(count, bool)
    for k, ys, xs in _sparse_pieces(pieces, count, LINE_LENGTH):
        x, y = xs.min(), ys.min()
        if max(xs.max() - x, ys.max() - y) + 1 < LINE_LENGTH:
            continue
        # as found in the piece's bounding box, in the same (raster) order
        points = np.column_stack((ys - y, xs - x)).astype(np.float32)
        width, length = sorted(cv2.minAreaRect(points)[1])
        lines[k] = length >= LINE_LENGTH and length >= LINE_ELONGATION * max(width, 1.0)
        if lines[k] and grey is not None:
            lines[k] = not is_row_of_discs(grey, points[:, ::-1] + (x, y), width)
    if not lines.any():
        return mask
    return np.where(lines[pieces], 0, mask).astype(np.uint8)


def _sparse_pieces(
    pieces: np.ndarray, count: int, min_area: int
) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """Each labelled piece (1 to ``count`` - 1) of at least ``min_area`` pixels: its label
    and its pixels' rows and columns, in raster order.

    A mask's leavings are a few specks and lines in a frame of nothing: reading them off
    the labels' nonzero pixels costs a tenth of ``cv2.connectedComponentsWithStats``,
    which sweeps the whole frame for its statistics.
    """
    if count < 2:
        return []
    ys, xs = np.nonzero(pieces)
    labels = pieces[ys, xs]
    order = np.argsort(labels, kind="stable")  # stable: each piece's pixels stay in order
    bounds = np.searchsorted(labels[order], np.arange(1, count + 1))
    return [
        (k, ys[order[bounds[k - 1] : bounds[k]]], xs[order[bounds[k - 1] : bounds[k]]])
        for k in np.flatnonzero(np.diff(bounds) >= min_area) + 1
    ]


def is_row_of_discs(grey: np.ndarray, points: np.ndarray, width: float) -> bool:
    """Whether the thin piece at ``points`` (x, y) of the ``grey`` frame, ``width`` px
    across, is a row of discs side by side: its shading along its middle repeats at a
    period of about its width (:data:`ROW_PERIOD`), and not half a period on.

    Each disc of a row is one object with its own print and outline, so its shading
    starts over at every disc; a seam shades smoothly along its length. The shading is
    read with its slow change (light, a lamp's gradient) taken out. A player's row lies
    with its two ends face up (RULINGS V2), printed unlike its backs: a black face at
    one end shades deeper than all the backs' outlines together (a row of plain
    biscuit backs on a check: repeating 0.76 without its ends, -0.01 with them), so
    the row is read again without a disc's width at either end.
    """
    if width <= 0 or len(points) < 2:
        return False
    mean = points.mean(axis=0)
    axis = np.linalg.svd(points - mean, full_matrices=False)[2][0]
    normal = np.array([-axis[1], axis[0]], np.float32)
    along = (points - mean) @ axis
    step = 0.5
    ts = np.arange(along.min(), along.max(), step, dtype=np.float32)
    across = np.linspace(-0.3 * width, 0.3 * width, 5, dtype=np.float32)
    xy = mean + ts[:, None, None] * axis + across[None, :, None] * normal
    shading = cv2.remap(
        grey.astype(np.float32),
        xy[..., 0].astype(np.float32),
        xy[..., 1].astype(np.float32),
        cv2.INTER_LINEAR,
    ).mean(axis=1)
    disc = width / step  # a disc's width in samples
    ends = round(disc)
    return _repeats_at(shading, disc) or (
        len(shading) > 2 * ends and _repeats_at(shading[ends:-ends], disc)
    )


def _repeats_at(shading: np.ndarray, disc: float) -> bool:
    """Whether ``shading`` (samples along a line) repeats at about ``disc`` samples
    (:data:`ROW_PERIOD`), and not half a period on, once its slow change is out."""
    lags = np.arange(1, len(shading) // 2)
    if len(lags) == 0 or ROW_PERIOD[1] * disc >= lags[-1]:
        return False
    slow = cv2.GaussianBlur(shading.reshape(-1, 1), (1, 0), sigmaX=1, sigmaY=disc)
    shading = shading - slow.ravel()

    def correlation(lag: int) -> float:
        a, b = shading[:-lag], shading[lag:]
        return float(a @ b / (np.sqrt((a @ a) * (b @ b)) + 1e-6))

    period = [lag for lag in lags if ROW_PERIOD[0] <= lag / disc <= ROW_PERIOD[1]]
    if not period:
        return False  # too thin for any disc: no period of its width fits a step
    best = max(period, key=correlation)
    repeat = correlation(best)
    return repeat >= ROW_REPEAT and repeat - correlation(max(1, best // 2)) >= ROW_CONTRAST


def fill_holes(mask: np.ndarray) -> np.ndarray:
    """Fill every region enclosed by the mask (what a flood from the border cannot reach)."""
    h, w = mask.shape
    padded = np.zeros((h + 2, w + 2), np.uint8)
    padded[1:-1, 1:-1] = mask
    flood = padded.copy()
    cv2.floodFill(flood, np.zeros((h + 4, w + 4), np.uint8), (0, 0), 255)
    holes = cv2.bitwise_not(flood)[1:-1, 1:-1]
    return cv2.bitwise_or(mask, holes)
