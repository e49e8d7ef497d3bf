"""Stage 2 of :mod:`vision.recogniser`: each blob of the object mask cut into pieces,
and the first look at them.

Blobs shaped like one square or one disc are cut first (:func:`single_candidates`):
their clear tile matches tell the size of a tile across the frame, which then says
how to cut the rest (:func:`split_candidates`, in one way or several). Of a blob cut
in many ways only the most promising cuts are matched in full
(:func:`score_splits`), and only their pieces aligned (:func:`align_promising`).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.block_sides import bent_outline_box, block_outline_on_edges
from vision.candidates import (
    Blob,
    Candidate,
    coverage,
    estimate_side,
    explained,
    find_blobs,
    grid_splits,
    is_lone_square,
    is_single_square,
    quad_side,
    single_outline,
)
from vision.discs import circle_split, disc_around_part, disc_split, is_single_disc
from vision.frame import Frame
from vision.pieces import Scored, SizeModel, blob_centre, elongation, grouped_by_split, split_value
from vision.pixels import to_frame
from vision.rectify import Pyramid, quad_from_ellipse
from vision.scoring import Scoring

#: A blob cut in more ways than this is judged on a sample of each cut's cells first.
_SPLITS_KEPT = 2
_SAMPLE_CELLS = 5


def blobs(scoring: Scoring, mask: np.ndarray, scale: float) -> list[Blob]:
    """The object mask's blobs (``scale`` full-frame pixels to one of the mask's), less
    those too small to be a token, or a tile in a set without tokens."""
    config = scoring.config
    token_floor = config.token_size_range[0] if scoring.tileset.has_tokens else 1.0
    min_side = config.min_tile_px / scale
    return find_blobs(mask, min_area=(min_side * min(token_floor, 0.75)) ** 2 * 0.6)


def single_candidates(scoring: Scoring, frame: Frame) -> list[Candidate]:
    """One piece for each blob shaped like one square or one disc (split 0)."""
    candidates = []
    squares = scoring.tileset.has_tiles and scoring.tileset.tile_shape == "square"
    discs = scoring.tileset.has_tokens or scoring.tileset.tile_shape == "round"
    for index, blob in enumerate(frame.blobs):
        if squares and is_single_square(blob, scoring.config):
            candidates.append(full(single_outline(blob), frame.scale, False, index, 0, 1.0))
        elif discs and is_single_disc(blob):
            centre, axes, angle = cv2.fitEllipse(blob.contour)
            quad = quad_from_ellipse(centre, axes, angle)
            candidates.append(full(quad, frame.scale, True, index, 0, 1.0))
    return candidates


def settled(scoring: Scoring, s: Scored, sizes: SizeModel | None) -> bool:
    """A lone piece that clearly is one tile or token of the right size: no need to
    look for other ways to cut its blob."""
    return (
        s.score >= scoring.config.size_anchor_score
        and sizes is not None
        and scoring.rejection(s, sizes(s.candidate.center)) is None
    )


#: A disc this many times wider than the frame's guessed size (its lone discs', untrusted)
#: is no one piece (see :func:`split_candidates`).
_HEAP_OVER_GUESS = 3.0


def split_candidates(
    scoring: Scoring,
    frame: Frame,
    settled: set[int],
    sizes: SizeModel | None,
    read_in_blocks: bool = False,
) -> list[Candidate]:
    """The ways to cut each remaining blob into tiles or tokens.

    With the tile size known at the blob (from this frame's lone tiles or the
    table calibration) a block of tiles is cut one way, or two; without it, every
    plausible count is offered and matching picks the split that explains it best.
    A size ``read_in_blocks`` (on the tiles of this frame's blocks and heaps, no lone
    disc that may be a die) is the only one a heap's rims are looked for at, and a
    block whose outline is bent is laid in its least rectangle too
    (:func:`vision.block_sides.bent_outline_box`).
    """
    config = scoring.config
    tileset = scoring.tileset
    height, width = frame.mask.shape[:2]
    min_side = config.min_tile_px / frame.scale
    token_floor = config.token_size_range[0] if tileset.has_tokens else 1.0
    min_piece = min_side * min(token_floor, 0.75)  # a token may be smaller than a tile
    round_tiles = tileset.tile_shape == "round"
    guess = None if sizes else estimate_side(frame.blobs, round_tiles, config)
    max_side = config.max_tile_frac * min(width, height)
    candidates: list[Candidate] = []
    for index, blob in enumerate(frame.blobs):
        if index in settled:
            continue
        split = 1
        if sizes is not None:
            side = sizes(blob_centre(blob, frame.scale))
            side /= frame.scale
        else:
            side = guess
        trusted = sizes is not None
        narrow = trusted and side and blob.short_side < config.tile_size_range[0] * side
        if tileset.has_tiles and not round_tiles and not narrow:  # narrow: a token row
            outline = block_outline_on_edges(blob, side, frame.mask, frame.grey)
            outlines = [outline]
            # only for the blocks a first cut left unexplained, once their frame's tiles
            # tell the size: offered in every first cut, the second outline cut a hand
            # at the frame's edge as a tile (inkwash seed 2024 #14, and #19 lost a
            # tile), and a row of tokens into squares (banner seed 2024 #9: 8 of 14
            # tokens right, against 14)
            if read_in_blocks and (box := bent_outline_box(blob, outline)) is not None:
                outlines.append(box)
            grids = [
                cells
                for o in outlines
                for cells in grid_splits(blob, side, config, trusted=trusted, outline=o)
            ]
            for cells in grids:
                shares = coverage(frame.mask, cells)
                quads = [
                    q
                    for q, share in zip(cells, shares, strict=True)
                    if share >= config.cell_coverage_min and min_side <= _side(q) <= max_side
                ]
                if quads:
                    cover = explained(blob, quads, False)
                    candidates += _full_all(quads, frame.scale, False, index, split, cover)
                    split += 1
        token_row = tileset.has_tokens and not is_lone_square(blob, side, config)
        if trusted and side and blob.short_side > config.token_size_range[1] * side:
            token_row = False  # wider than any token: a block of square tiles
        if round_tiles or token_row:
            floor = min(token_floor, 0.75) * (side if side else min_side / 0.75) / 2 * 0.8
            quads = [
                q
                for q in disc_split(blob, frame.mask.shape, max(2.0, floor))
                if min_piece <= _side(q) <= max_side
                # a long ellipse is no disc: a round set then looks for rims
                and not (round_tiles and elongation(q) > config.max_elongation)
            ]
            discs_cover = explained(blob, quads, True) if quads else 0.0
            if quads:
                candidates += _full_all(quads, frame.scale, True, index, split, discs_cover)
                split += 1
            # with no tile size in the frame, all its tiles may lie in one block, and a
            # block welded into one slab (a cloth in its tiles' colours) may show one
            # deep distance peak only, read as one disc: its outline is no disc's
            slab = not side and not is_single_disc(blob)
            # a size only guessed from the frame's lone discs (its tokens, where no tile
            # lies alone) says nothing of a "disc" many times wider: a heap of tiles
            # with one deep distance peak, whose rims are looked for at any size
            heap = (
                not trusted
                and bool(side)
                and len(quads) == 1
                and _side(quads[0]) > _HEAP_OVER_GUESS * side
            )
            one_disc = len(quads) == 1 and discs_cover >= 0.8 and not slab and not heap
            if round_tiles and not one_disc:
                # packed, or not split at all: look for the discs' rims
                radius = side / 2 if side and not heap else None
                circles = [
                    q
                    for q in circle_split(blob, frame.grey, radius, sure=read_in_blocks)
                    if min_piece <= _side(q) <= max_side
                ]
                if len(circles) > 1:
                    cover = explained(blob, circles, True)
                    candidates += _full_all(circles, frame.scale, True, index, split, cover)
                    split += 1
        if round_tiles:
            around = disc_around_part(blob, side if trusted else None)
            if around is not None and min_side <= _side(around) <= max_side:
                candidates.append(full(around, frame.scale, True, index, split, 1.0))
    return candidates


def score_splits(scoring: Scoring, pyramid: Pyramid, candidates: list[Candidate]) -> list[Scored]:
    """Every piece of the most promising cuts of each blob, matched (core bank).

    A block of unknown tile size is offered in up to ten grids; matching every cell
    of every grid costs more than the rest of the frame. A few cells spread over
    each grid already show whether it lies on tile borders (each cell then holds
    one face) or across them, so each grid is judged by a sample and only the best
    (and the second best, if it is close) are matched in full.
    """
    by_split: dict[tuple[int, int], list[Candidate]] = {}
    for c in candidates:
        by_split.setdefault((c.blob, c.split), []).append(c)
    splits_of: dict[int, list[tuple[int, int]]] = {}
    for key in by_split:
        splits_of.setdefault(key[0], []).append(key)
    crowded = {blob for blob, keys in splits_of.items() if len(keys) > _SPLITS_KEPT}
    if not crowded:
        return scoring.score_structure(pyramid, candidates)
    samples: list[Candidate] = []
    for blob in crowded:
        for key in splits_of[blob]:
            members = by_split[key]
            picks = np.unique(np.linspace(0, len(members) - 1, _SAMPLE_CELLS).round())
            samples += [members[int(i)] for i in picks]
    sampled: dict[tuple[int, int], list[Scored]] = {}
    done: dict[int, Scored] = {}
    for s in scoring.score_structure(pyramid, samples):
        sampled.setdefault((s.candidate.blob, s.candidate.split), []).append(s)
        done[id(s.candidate)] = s
    keep = set(by_split) - {key for blob in crowded for key in splits_of[blob]}
    for blob in crowded:
        values = {k: split_value(sampled[k]) for k in splits_of[blob]}
        ranked = sorted(values, key=lambda k: -values[k])[:_SPLITS_KEPT]
        top = values[ranked[0]]
        keep |= {k for k in ranked if values[k] >= top - scoring.config.split_slack}
        keep |= _best_round_split(values, by_split)
    kept = [c for c in candidates if (c.blob, c.split) in keep]
    fresh = scoring.score_structure(pyramid, [c for c in kept if id(c) not in done])
    return fresh + [done[id(c)] for c in kept if id(c) in done]


def align_promising(scoring: Scoring, pyramid: Pyramid, scored: list[Scored]) -> list[Scored]:
    """Align the pieces of each blob's most promising splits (at most two), then judge
    them against the full bank."""
    by_split = grouped_by_split(scored)
    ranked: dict[int, list[tuple[float, tuple[int, int]]]] = {}
    for key, members in by_split.items():
        ranked.setdefault(key[0], []).append((split_value(members), key))
    promising = set()
    for options in ranked.values():
        options.sort(reverse=True)
        top = options[0][0]
        promising |= {
            key for value, key in options[:2] if value >= top - scoring.config.split_slack
        }
    config = scoring.config
    chosen = [
        i
        for i, s in enumerate(scored)
        if (s.candidate.blob, s.candidate.split) in promising
        and config.align_min_score <= s.match.score < config.align_max_score
    ]
    out = list(scored)
    for i, s in zip(chosen, scoring.realigned(pyramid, [scored[i] for i in chosen]), strict=True):
        out[i] = s
    return out


def _best_round_split(
    values: dict[tuple[int, int], float], by_split: dict[tuple[int, int], list[Candidate]]
) -> set[tuple[int, int]]:
    """The best-sampled split of a blob into discs, where it is also cut into squares.

    A row of tokens in a square set is offered as discs and, where the frame does not
    yet say how large a tile is, in grids of small squares too. Sampled cells of a fine
    grid over a row of small backs match tile figures at 0.6-0.78 (any pale line
    matches some figure at that size), more than the backs themselves, which a blur
    leaves nearly plain: the disc reading must still be matched in full, or the row's
    ends and middle are lost with it; the grid's cells are turned down later as too
    small. Discs are a different reading of the blob, not one more grid size.
    """
    round_ = [k for k in values if by_split[k][0].round]
    if not round_ or len(round_) == len(values):
        return set()
    return {max(round_, key=lambda k: values[k])}


def _side(quad: np.ndarray) -> float:
    return quad_side(quad)


def full(
    quad: np.ndarray, scale: float, round_: bool, blob: int, split: int, cover: float
) -> Candidate:
    full = to_frame(quad.astype(np.float32), scale)
    return Candidate(quad=full, round=round_, blob=blob, split=split, cover=cover)


def _full_all(
    quads: list[np.ndarray], scale: float, round_: bool, blob: int, split: int, cover: float
) -> list[Candidate]:
    """:func:`full` for every piece of one split, scaled in one array operation (the
    same float32 arithmetic; per piece, NumPy's call cost was most of it)."""
    full = to_frame(np.stack(quads).astype(np.float32), scale)
    return [Candidate(quad=q, round=round_, blob=blob, split=split, cover=cover) for q in full]
