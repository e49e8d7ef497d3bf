"""Tiles of which the object mask kept only a part: bits of the figure
(:func:`around_fragments`), or a blob of about one tile's area cut too small or off
its place (:func:`lone_blobs_recut`).

One of the searches of :mod:`vision.searches`.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.candidates import Blob, Candidate, find_blobs
from vision.doubts import kept_settling_ties, kept_sure_or_outlined
from vision.frame import Frame
from vision.outlines import square_by_outline, square_quad
from vision.pieces import (
    Scored,
    SizeModel,
    blob_centre,
    clear_of,
    displaced,
    distance,
    one_per_place,
    shaped_like,
)
from vision.pixels import to_frame
from vision.scoring import Scoring
from vision.searches.edges import outlined

#: A blob of this share of a tile's area may be one tile cut off its place, or swollen
#: by the cloth around it (twice its area on a gingham of its ground's shade)...
_LONE_BLOB_SHARE = (0.5, 2.5)
#: ...or, up to this share, a few in a row or block swollen so (its splits matched
#: nothing), each looked for where the blob is a tile wide, this share of a side apart.
_SWOLLEN_BLOCK_SHARE = 8.0
#: A small dark break of a checked cloth (:attr:`vision.frame.Frame.places`) of this share
#: of a tile's area or more (up to :data:`_SWOLLEN_BLOCK_SHARE`, as a lone blob) may be a
#: tile in the cloth's dark colour: the break leaves out what of it happens to repeat the
#: cloth (red tiles on a red gingham broke over 0.67-0.96 of themselves).
_PLACE_LEAST_SHARE = 0.3
_BLOCK_STEP = 0.5
#: ...each looked for by its outline where a square cut there roughly, turned by one of
#: these (degrees) from the blob's sides, matches a tile as one must (see
#: :func:`_promising`).
_ROUGH_TURNS = (0.0, 30.0, 60.0)
#: In a blob larger than a round tile, a tile lies where a disc of this share of its
#: radius fits (the blurred rim leaves the mask a little inside the tile's edge)...
_DISC_FIT = 0.8
#: ...looked for at up to this many places this share of a side apart.
_DISC_PLACES = 6
_DISC_STEP = 0.25
#: A blob this share of a tile's area may be the figure of a tile the mask lost...
_FRAGMENT_SHARE = (0.05, 0.7)
#: ...and the tile around it is looked for where the edges show its outline best
#: (:func:`vision.outlines.square_by_outline`), and centred on it in this many turns of
#: a quarter.
_FRAGMENT_TURNS = 6
#: ...and the next this many best of them aligned too where the best did not align clearly.
_FRAGMENT_AGAIN = 2
#: A frame in which nothing said how large a tile is is read round its figure bits at
#: tile sides from this share of the frame's width to this one...
_SIDE_LADDER = (0.03, 0.2)
#: ...each this much larger than the last: a square cut within about a tenth of its
#: tile's side still aligns onto it (neon seed 2024 #8, 123 px tiles: read at 100 and
#: 123 px, not at 80).
_SIDE_STEP = 1.25
#: Bits of one figure lie within this many tile sides of each other (two bits towards
#: opposite corners, half-way out, are 0.71 apart; the figures of touching tiles about 1).
_FIGURE_SPAN = 0.8


def sized_by_figures(
    scoring: Scoring, frame: Frame, chosen: list[Scored], calibrated: float | None
) -> tuple[list[Scored], SizeModel | None]:
    """The chosen pieces, with the tiles round figure bits found at the side that finds
    the most of them, and the size those tiles then say; for a frame where nothing said
    how large a tile is.

    A block of dark tiles touching on a cloth as dark as their ground (a neon sign's
    brick wall on charcoal) leaves only the figures in the mask: no blob is a tile's
    shape, no tile matches, and without a size no search looks round the figures
    (neon seed 2024 #8: none of 15 read; round its figures at the tiles' size, all 15).
    Each side of a ladder over the sizes a tile can have in a photo is tried in turn;
    every find there is kept as :func:`around_fragments` keeps it (a clear match, an
    outline all round or a match beyond doubt), so a side far off the tiles' own finds
    little or nothing.
    """
    if not frame.blobs or not scoring.tileset.has_tiles:
        return chosen, None
    width = frame.image.shape[1]
    before = sum(not scoring.is_token(s) for s in chosen)
    best, most = chosen, 0
    side = _SIDE_LADDER[0] * width
    while side <= _SIDE_LADDER[1] * width:
        found = around_fragments(scoring, frame, chosen, lambda _, s=side: s)
        tiles = sum(not scoring.is_token(s) for s in found) - before
        if tiles > most:
            best, most = found, tiles
        side *= _SIDE_STEP
    if not most:
        return chosen, None
    return best, scoring.size_model(best, calibrated)


def around_fragments(
    scoring: Scoring, frame: Frame, chosen: list[Scored], size_at: SizeModel | None
) -> list[Scored]:
    """The chosen pieces, with tiles of which the object mask kept only the figure.

    On a cloth of the tile's own colour only the tile's figure (white lines, a
    heart) stands out: a blob smaller than a tile that no piece explains, or that
    only a doubtful piece does (the figure taken for a token). A tile-sized piece
    is laid over it: a square in a few turns (its edges are not in the mask to
    say which), a disc in the shape of the nearest round tile (the same tilt).
    Each is matched against the tile faces, the best aligned and kept only on a
    clear match with an outline all round (a die on a red cloth matches a red
    garlic tile's figure, but has no tile's edge).
    """
    if size_at is None or not scoring.tileset.has_tiles:
        return chosen
    round_ = scoring.tileset.tile_shape == "round"
    tiles = ~scoring.token_groups
    firm = [s for s in chosen if not scoring.doubtful(s, size_at(s.candidate.center))]
    tried, places = _first_looks(scoring, frame, chosen, firm, size_at)
    if not tried:
        return chosen
    best = {k: max(looks, key=lambda s: s.score) for k, looks in tried.items()}
    # where no square centred on the bits looks like a tile yet, the square whose
    # outline the frame's edges show best (the bits may lie off the tile's middle)
    unclear = [k for k in places if best[k].score < scoring.config.second_look_min]
    outlined = [
        Candidate(
            square_by_outline(frame.grey, *places[k], frame.scale, frame.periods).astype(
                np.float32
            ),
            False,
            k,
            0,
        )
        for k in unclear
    ]
    for s in scoring.score_structure(frame.pyramid, outlined, tiles):
        if s.score > best[s.candidate.blob].score:
            best[s.candidate.blob] = s
    aligned = scoring.realigned_if_worth(frame.pyramid, list(best.values()), tiles)
    least = scoring.config.second_look_min
    if not round_:
        aligned = _other_turns_aligned(scoring, frame, aligned, tried, least, tiles)
    # a square matched beyond doubt round its own figure needs no outline; a disc,
    # shifted off the figure to fit, found a mat's printed moon so (0.94)
    kept = kept_sure_or_outlined(scoring, frame, aligned, least, size_at, not round_)
    found = [s for s in kept if clear_of(s.candidate.center, firm)]
    return displaced(chosen, one_per_place(found)[0])


def _first_looks(
    scoring: Scoring,
    frame: Frame,
    chosen: list[Scored],
    firm: list[Scored],
    size_at: SizeModel,
) -> tuple[dict[int, list[Scored]], dict[int, tuple[np.ndarray, float]]]:
    """The tile-sized pieces laid over each figure no ``firm`` piece explains, matched
    as cut (by figure), and where each square's figure lies and how large its tile is.

    A figure may fall apart into several bits (a bulb and its stalk): those closer
    than a tile's side are one figure, centred on their weighted middle. A disc takes
    the shape of the nearest round tile in ``chosen`` (the table's tilt there), or is a
    circle where there is none; it is matched shifted, as a figure need not lie in the
    middle of its face (squares are tried in several turns, and by their outline
    later, instead).
    """
    round_ = scoring.tileset.tile_shape == "round"
    tiles = ~scoring.token_groups
    shapes = [s.candidate for s in chosen if s.candidate.round and tiles[s.group]]
    area = math.pi / 4 if round_ else 1.0  # a tile's area in its side squared
    bits: list[tuple[tuple[float, float], float, float]] = []  # centre, side, share
    for blob in frame.blobs:
        centre = blob_centre(blob, frame.scale)
        side = size_at(centre)
        share = blob.area * frame.scale**2 / (side**2 * area)
        if share <= _FRAGMENT_SHARE[1] and all(
            distance(centre, s.candidate.center) >= 0.7 * side for s in firm
        ):
            bits.append((centre, side, share))
    cells: list[Candidate] = []
    places: dict[int, tuple[np.ndarray, float]] = {}
    for index, group in enumerate(_clusters(bits)):
        shares = np.array([share for _, _, share in group])
        if not _FRAGMENT_SHARE[0] <= shares.sum() <= _FRAGMENT_SHARE[1]:
            continue
        centre = np.average([c for c, _, _ in group], axis=0, weights=shares)
        side = size_at((float(centre[0]), float(centre[1])))
        if round_:
            disc = shaped_like(shapes, centre, side) if shapes else square_quad(centre, side / 2, 0)
            cells.append(Candidate(disc.astype(np.float32), True, index, 0))
            continue
        places[index] = (centre, side)
        for turn in range(0, 90, 90 // _FRAGMENT_TURNS):
            quad = square_quad(centre, side / 2, math.radians(turn))
            cells.append(Candidate(quad.astype(np.float32), False, index, 0))
    tried: dict[int, list[Scored]] = {}
    if cells:
        score = scoring.score_shifted if round_ else scoring.score_structure
        for s in score(frame.pyramid, cells, tiles):
            tried.setdefault(s.candidate.blob, []).append(s)
    return tried, places


def _other_turns_aligned(
    scoring: Scoring,
    frame: Frame,
    aligned: list[Scored],
    tried: dict[int, list[Scored]],
    least: float,
    tiles: np.ndarray,
) -> list[Scored]:
    """Each square laid round figure bits, aligned again (against the ``tiles`` groups)
    from its next best turns where its best first look did not align to a clear match
    (:data:`_FRAGMENT_AGAIN`).

    The first look ranks the turns of a square centred on a figure poorly where the size
    model is a tenth short and the figure lies off the middle: a purple monk on a dark
    cloth first looked best 15 degrees off its turn and aligned from there to 0.69, from
    its third best turn to 0.96 (tarot seed 2024 #13). The turns are ranked by their
    first looks and the best skipped as the one aligned already (where the square the
    edges outline looked better and was aligned instead, that best turn is not)."""
    out = []
    for s in aligned:
        if s.score >= least:
            out.append(s)
            continue
        others = sorted(tried[s.candidate.blob], key=lambda t: -t.score)
        again = scoring.realigned(frame.pyramid, others[1 : 1 + _FRAGMENT_AGAIN], tiles)
        out.append(max([s, *again], key=lambda t: t.score))
    return out


def lone_blobs_recut(
    scoring: Scoring, frame: Frame, chosen: list[Scored], size_at: SizeModel | None
) -> list[Scored]:
    """Tiles in blobs of about one or two tiles' area that nothing explains, cut
    again at the frame's tile size where the edges show a tile's outline.

    A pale tile on a pale table leaves a blob of its figure and part of its
    paper, a tile in a shadow one with the shadow's edge: cut by the blob, the piece
    is too small or off its place and matches nothing (slate, seed 31, #5: three
    tiles 37 px across cut at 28-38 px matched 0.51-0.57, and 0.98-1.00 once cut
    at their outline). On a gingham a tile's ground runs into the cloth's cells of
    its shade and the blob swells to twice the tile (quilt seed 2024 #19, petal seed
    7 #3). A square is looked for by its outline about the blob's middle, a disc
    wherever the blob is as wide as a tile. A few tiles in a row so swollen (woodcut
    seed 7 #2: four square tiles in a column whose white margins ran into a white
    check, a blob of 5.5 tiles whose splits all matched under 0.6) are each looked for
    likewise wherever the blob is a tile wide. Kept on a clear match with an outline
    all round, as a piece found by its edges (:meth:`Scoring.kept`).
    """
    return _recut(scoring, frame, chosen, size_at, frame.blobs, _LONE_BLOB_SHARE[0])


def in_dark_breaks(
    scoring: Scoring, frame: Frame, chosen: list[Scored], size_at: SizeModel | None
) -> list[Scored]:
    """Tiles where a checked cloth breaks in its darkest colour over less than a square's
    corners need (:attr:`vision.frame.Frame.places`), cut at the frame's tile size as
    :func:`lone_blobs_recut` cuts a lone blob, and kept as it keeps them.

    A tile in the cloth's own dark colour shows no colour the cloth lacks and spreads
    none of its colours wider than a cell, so only the cloth's repetition breaks over it;
    a break that small is no blob, as it leaves out the tile's corners that repeat the
    cloth and, cut as one, is too small (woodcut seed 7 #3: a coffin's break of 3.4 cells
    shrank the frame's tile size from 29.1 to 27.4 px, and a row of seven was lost). So
    it is searched only once the frame's tile size is known, and only kept on a clear
    match with an outline all round (scene s7 #3: a red vampire and coffin on a red
    gingham, never in the mask on eight styles).
    """
    if frame.places is None:
        return []
    blobs = find_blobs(frame.places, min_area=4.0)
    return _recut(scoring, frame, chosen, size_at, blobs, _PLACE_LEAST_SHARE)


def _recut(
    scoring: Scoring,
    frame: Frame,
    chosen: list[Scored],
    size_at: SizeModel | None,
    blobs: list[Blob],
    least: float,
) -> list[Scored]:
    """Tiles in ``blobs`` of ``least`` to :data:`_SWOLLEN_BLOCK_SHARE` of a tile's area
    that nothing explains, cut again at the frame's tile size (see
    :func:`lone_blobs_recut`)."""
    if size_at is None or not scoring.tileset.has_tiles:
        return []
    round_ = scoring.tileset.tile_shape == "round"
    tiles = ~scoring.token_groups
    shapes = [s.candidate for s in chosen if s.candidate.round and tiles[s.group]]
    if round_ and not shapes:
        return []
    area = math.pi / 4 if round_ else 1.0  # a tile's area in its side squared
    cells: list[Candidate] = []
    for blob in blobs:
        centre = blob_centre(blob, frame.scale)
        side = size_at(centre)
        share = blob.area * frame.scale**2 / (side**2 * area)
        if not least <= share <= _SWOLLEN_BLOCK_SHARE:
            continue
        # a blob holding a chosen piece is that piece's (a row of tokens whose ends
        # were read, its middle still to come), not a tile's swollen by the cloth
        if any(blob.holds(s.candidate.center, frame.scale) for s in chosen):
            continue
        if not clear_of(centre, chosen) or any(
            distance(centre, s.candidate.center) < 0.7 * side for s in chosen
        ):
            continue
        if share > _LONE_BLOB_SHARE[1]:  # several tiles: each where the blob is a tile wide
            places = _disc_places(blob, frame.scale, side, math.ceil(2 * share), _BLOCK_STEP)
            if not round_:
                places = _promising(scoring, frame, blob, places, side)
        elif round_:
            places = _disc_places(blob, frame.scale, side)
        else:
            places = [np.array(centre)]
        for place in places:
            if round_:
                cells.append(Candidate(shaped_like(shapes, place, side), True, len(cells), 0))
                continue
            square = outlined(scoring, frame, place, side)
            if square is not None:
                cells.append(Candidate(square.astype(np.float32), False, len(cells), 0))
    if not cells:
        return []
    score = scoring.score_shifted if round_ else scoring.score_structure
    first = score(frame.pyramid, cells, tiles)
    aligned = scoring.realigned(frame.pyramid, first, tiles)
    kept = kept_settling_ties(scoring, frame, aligned, scoring.config.second_look_min, size_at)
    return [s for s in one_per_place(kept)[0] if clear_of(s.candidate.center, chosen)]


def _promising(
    scoring: Scoring, frame: Frame, blob: Blob, places: list[np.ndarray], side: float
) -> list[np.ndarray]:
    """The places of a swollen blob worth looking for a square's outline at (where
    each is placed once its square, turned as the blob lies, is aligned): those whose
    aligned square matches a tile as well as a tile must (``accept_structure_min``) in
    one of :data:`_ROUGH_TURNS` from the blob's sides (alignment forgives a few
    degrees, not a tile lying at its own angle).

    The outline search costs about 5 ms a place, and a blob of several tiles' area
    that nothing explains is most often a card or the deposit mat: up to sixteen
    places each, 40-110 ms on most of nocturne's hard frames for no tile. Cut
    roughly and aligned, a card's places matched 0.18-0.56, the tiles of woodcut seed
    7 #2's swollen column 0.69-0.96; but a tile lying turned from the blob's long
    side (nocturne seed 555 #5: two yellow tiles in one blob, each at its own angle)
    matched 0.37 cut along the blob, 0.81 at its outline."""
    angle = cv2.minAreaRect(blob.contour)[2]
    cuts = [
        Candidate(
            square_quad(place, side / 2, math.radians(angle + turn)).astype(np.float32), False, k, 0
        )
        for k, place in enumerate(places)
        for turn in _ROUGH_TURNS
    ]
    tiles, least = ~scoring.token_groups, scoring.config.accept_structure_min
    aligned = scoring.read(frame.pyramid, cuts, tiles)
    n = len(_ROUGH_TURNS)
    best = [max(aligned[k * n : k * n + n], key=lambda s: s.score) for k in range(len(places))]
    return [np.array(s.candidate.center) for s in best if s.score >= least]


def _disc_places(
    blob: Blob, scale: float, side: float, count: int = _DISC_PLACES, step: float = _DISC_STEP
) -> list[np.ndarray]:
    """Where in ``blob`` a disc of ``side`` (full px) fits (frame px): up to ``count``
    places at least ``step`` sides apart, the roomiest first.

    A round tile whose pale ground runs into a pale cloth leaves a blob swollen by the
    cloth around it (petal seed 7 #3: twice a tile's area), whose centre is off the
    tile's; the tile lies where the blob is at least as wide as a tile. Its rim is
    then found by :meth:`Scoring.score_shifted` and its outline by :meth:`Scoring.kept`.
    """
    room = cv2.distanceTransform(np.pad(blob.pixels, 1), cv2.DIST_L2, 5)[1:-1, 1:-1]
    radius = side / 2 / scale
    ys, xs = np.nonzero(room >= _DISC_FIT * radius)
    order = np.argsort(-room[ys, xs], kind="stable")
    x0, y0 = blob.origin
    points = to_frame(np.stack([xs[order] + x0, ys[order] + y0], axis=1).astype(float), scale)
    # greedily, the roomiest point left, then only the points far enough from it: one
    # pass over the points per place (a swollen blob's thousands of points, tried one
    # by one against the places so far, cost 20 ms a frame)
    places: list[np.ndarray] = []
    left = np.ones(len(points), bool)
    while len(places) < count and left.any():
        place = points[int(np.argmax(left))]
        places.append(place)
        apart = points - place
        left &= np.hypot(apart[:, 0], apart[:, 1]) >= step * side
    return places


def _clusters(
    bits: list[tuple[np.ndarray, float, float]],
) -> list[list[tuple[np.ndarray, float, float]]]:
    """Bits of figures (centre, tile side there, share) grouped into figures: each bit,
    largest first, joins the nearest group whose every bit lies within
    :data:`_FIGURE_SPAN` sides of it.

    Each bit must be near all of its group, not just one: chained from neighbour to
    neighbour, the figures of a block of touching tiles (a side apart) made one group
    too large to be a figure, and none of them was looked for (dark tiles on a dark
    table, whose coloured line figures alone stood out).
    """
    groups: list[list[tuple[np.ndarray, float, float]]] = []
    # the largest bits first: each figure's main part, which its specks then join
    for bit in sorted(bits, key=lambda b: -b[2]):
        reach = _FIGURE_SPAN * bit[1]
        fits = [g for g in groups if all(distance(bit[0], b[0]) < reach for b in g)]
        if fits:
            min(fits, key=lambda g: min(distance(bit[0], b[0]) for b in g)).append(bit)
        else:
            groups.append([bit])
    return groups
