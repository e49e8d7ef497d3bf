"""Pieces on the lattice of a block or row: the cells a block's outline did not cut
(:func:`complete_blocks`, one more split before choosing), and after choosing the
pieces the mask lost beside a block or at a row's end (:func:`beside_blocks`), inside
a heap of round tiles (:func:`in_heaps`) and between a row's two ends
(:func:`row_gaps`).

One of the searches of :mod:`vision.searches`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numpy as np

from vision.candidates import Blob, Candidate, coverage, explained
from vision.doubts import kept_settling_ties
from vision.frame import Frame, within_frame
from vision.lattice import Lattice, fit_lattice, lattice_cells
from vision.pieces import (
    Scored,
    SizeModel,
    best_in_place,
    clear_of,
    distance,
    one_per_place,
    shaped_like,
    step_along,
    stepped_like,
)
from vision.pixels import to_frame, to_work
from vision.scoring import Scoring, for_its_match_alone
from vision.searches.rims import rim_steps_all_round
from vision.token_blur import read_blurred
from vision.token_row_cuts import (
    CHAIN_END_MIN,
    TOKEN_SIZED,
    far_end_along,
    finer_sized,
)
from vision.token_rows import OPPOSITE, SIDE_BY_SIDE, a_step_from, gap_step

#: The split number given to a block completed along its lattice.
_LATTICE_SPLIT = 1000
#: Round tiles in a heap are looked for beside each recognised one in this many
#: directions: touching discs lie a diameter apart, in any direction, and a cut a
#: twentyfourth of a turn off (an eighth of a side) is still within alignment's reach.
_HEAP_DIRECTIONS = 24
#: ...where nothing lies within this many sides (the gap between two touching discs
#: lies 0.7 of a side from each; with sizes known to a tenth, a lost disc 0.9 or more).
_HEAP_APART = 0.85
#: Tiles whose centres are closer than this many sides touch (one block)...
_TOUCHING = 1.3
#: ...and a block is followed this many tiles beyond its recognised ones.
_BESIDE_ROUNDS = 3
#: ...aligning only the free cells whose first cut matches a tile this well (on the
#: rendered photos real tiles first matched 0.84 or better, cloth 99 % under 0.5).
BESIDE_FIRST_MIN = 0.5
#: ...and keeping those that then match this well (real ones 0.94 and better, a checked
#: cloth's cells beside a block up to 0.71).
BESIDE_ACCEPT_MIN = 0.8
#: Two tokens this many diameters apart (and no more), with nothing read between them,
#: may be the two ends of a row whose middle the mask lost (backs in the cloth's own
#: colours): a player's row is rarely longer...
_ROW_MOST_STEPS = 8
#: ...and its tokens lie one step apart, within this share of the row's step
#: (:func:`vision.token_rows.gap_step`: a token's cut is sized only to a tenth or so).
_ROW_STEP_SLACK = 0.2
#: A row's end looked for past its outermost back is kept where it reads as a face
#: this well (white ends on pale tables, plain discs: 0.53-0.67 on six styles, and
#: 0.36-0.39 on two; the table past a black end misread as a back, 0.46).
_ROW_END_FACE_MIN = 0.5
#: ...and where alignment moved it no further than this share of a step from its place
#: (a face that slid onto the row's back, or off the line, is no end of it).
_ROW_END_DRIFT = 0.25
#: Split number of the pieces looked for between a row's ends.
_ROW_SPLIT = 2000

#: A row's place the object mask holds at least this share of...
_ROW_ON_MASK = 0.6

#: ...or this share, between two ends a run of the mask joins (a row of 23 px backs
#: on a red check, the cream cells behind them lost: 0.33-1.0)...
_ROW_PARTLY_ON_MASK = 0.3

#: ...is kept as a back that matches at least this well (23 px backs at their very
#: places: 0.41-0.59; chance places over cloth between two tokens: 0.32-0.61, faces).
_ROW_BACK_MIN = 0.35

#: A row's end turned down with its split is offered where it reads as a face this
#: well (a white end on a pale cloth: 0.63)...
_TURNED_END_MIN = 0.6
#: ...and kept where a back is laid within this many of its sides.
_LAID_BESIDE = 1.3
#: A round piece chosen as a tile is read again as a row's end where it is cut this
#: share of the frame's tokens' size (a token cut at a tenth or so of its size, a white
#: end with a ring of cloth a third large), where the frame's tiles are as much larger
#: than its tokens as the upper bound or more (else sizes tell the kinds apart not).
_TILE_AS_END_SIZED = (0.85, 1.33)

#: The cloth beside a row's place is cut this many steps across the row (a token
#: a step aside would touch the place's back)...
_CLOTH_BESIDE = 1.25
#: ...and a place over the cloth is kept as a back where it reads as one at least
#: this much better than the cloth beside it reads as a back (0 where it reads as a
#: face).
_CLOTH_LEAD = 0.1


def complete_blocks(scoring: Scoring, frame: Frame, scored: list[Scored]) -> list[Scored]:
    """One more split for each block of tiles or row of tokens: the lattice of its
    clearly recognised pieces, with every other cell the blob covers (see
    :mod:`vision.lattice`). Where the block's outline misled the grid or the
    discs, this split explains the blob better, and :func:`vision.choosing.choose` keeps it."""
    anchors: dict[tuple[int, bool], list[Scored]] = {}
    for s in scored:
        if s.score >= scoring.config.size_anchor_score:
            anchors.setdefault((s.candidate.blob, scoring.is_token(s)), []).append(s)
    pieces_of: dict[int, list[Scored]] = {}
    cells: list[Candidate] = []
    recut: list[Candidate] = []  # unclear anchors cut again on their block's lattice
    anchor_of: list[Scored] = []
    for (blob, _), members in anchors.items():
        members, _ = one_per_place(members)
        round_ = members[0].candidate.round
        fitted = fit_lattice([m.candidate.quad for m in members], round_)
        if fitted is None:
            continue
        lattice, taken = fitted
        x, y, w, h = cv2.boundingRect(frame.blobs[blob].contour)
        x0, y0, x1, y1 = to_frame(np.array([x, y, x + w, y + h], np.float64), frame.scale)
        quads = [lattice.quad(i, j) for i, j in lattice_cells(lattice, (x0, y0, x1, y1), taken)]
        shares = coverage(frame.mask, [to_work(q, frame.scale) for q in quads])
        cells += [
            Candidate(quad=q, round=round_, blob=blob, split=_LATTICE_SPLIT)
            for q, share in zip(quads, shares, strict=True)
            if share >= scoring.config.cell_coverage_min
        ]
        cells_of = _cells_of(lattice, [m.candidate for m in members])
        pieces_of.setdefault(blob, []).extend(
            m for m, cell in zip(members, cells_of, strict=True) if cell in taken
        )
        for m, cell in _unclear_anchors(scoring, members, cells_of, taken):
            anchor_of.append(m)
            recut.append(Candidate(lattice.quad(*cell), round_, blob, _LATTICE_SPLIT))
    for s in scoring.read(frame.pyramid, cells):
        pieces_of[s.candidate.blob].append(s)
    if recut:  # all square: matched in the order given
        again = scoring.read(frame.pyramid, recut)
        for anchor, s in zip(anchor_of, again, strict=True):
            if s.score > anchor.score:
                block = pieces_of[s.candidate.blob]
                block[next(i for i, m in enumerate(block) if m is anchor)] = s
    out: list[Scored] = []
    for blob, pieces in pieces_of.items():
        pieces = [best_in_place(p, scored) for p in pieces]
        work = [to_work(s.candidate.quad, frame.scale) for s in pieces]
        cover = explained(frame.blobs[blob], work, [s.candidate.round for s in pieces])
        for s in pieces:
            c = s.candidate
            moved = Candidate(c.quad, c.round, blob, _LATTICE_SPLIT, cover)
            out.append(Scored(moved, s.patch, s.match))
    return out


def _unclear_anchors(
    scoring: Scoring,
    members: list[Scored],
    cells_of: list[tuple[int, int]],
    taken: list[tuple[int, int]],
) -> list[tuple[Scored, tuple[int, int]]]:
    """The anchors of a block (best first) to cut again on its lattice: those matching
    under ``sure_tile_min`` where the best matches clearly. A block's grid laid in an
    outline the mask sheared cuts its cells turned (a coffin cut 19° off in a column of
    two on a gingham matched 0.77 and was later read as a garlic); the clear tile's own
    sides, which the lattice goes by, are the block's."""
    clear = scoring.config.sure_tile_min
    if members[0].score < clear or members[0].candidate.round:
        return []
    return [
        (m, cell)
        for m, cell in zip(members[1:], cells_of[1:], strict=True)
        if m.score < clear and cell in taken
    ]


def beside_blocks(
    scoring: Scoring, frame: Frame, chosen: list[Scored], size_at: SizeModel | None
) -> list[Scored]:
    """Square tiles beside a block, and tokens at the ends of a row, that the object
    mask left out.

    A tile whose colour is the cloth's own (a green tile on a green check) falls out
    of the mask, and so out of its block's outline; so does a white token at the
    end of a row on a pale cloth. The block's or row's recognised pieces still lie
    on one lattice, so each free cell next to them (along the row, for a row) is
    matched against the faces of their kind and kept only on a clear match, as
    nothing else vouches for it. A piece found so is a neighbour of the next free
    cell, so the search goes on along a row of such pieces.
    """
    if size_at is None:
        return []
    found: list[Scored] = []
    if scoring.tileset.has_tiles and scoring.tileset.tile_shape == "square":
        found += _beside(scoring, frame, chosen, size_at, token=False)
    if scoring.tileset.has_tokens:
        found += _beside(scoring, frame, chosen + found, size_at, token=True)
    return found


def in_heaps(
    scoring: Scoring, frame: Frame, chosen: list[Scored], size_at: SizeModel | None
) -> list[Scored]:
    """Round tiles inside a heap of round tiles that no split cut out.

    Round tiles pushed together touch up to six others, in no lattice. Where their
    faces are alike at the rims (white halves meeting white halves), the heap's
    blob is one slab and its inner rims are too broken for a circle search; the
    tiles round the heap's edge are found, the inner ones not. Each tile touching
    a recognised one lies a diameter from it in some direction on the table: the
    directions :data:`_HEAP_DIRECTIONS` are tried where the mask holds an object and
    nothing lies yet, kept only on a clear match with an outline all round, and the
    search goes on from what it finds.
    """
    if size_at is None or not scoring.tileset.has_tiles or scoring.tileset.tile_shape != "round":
        return []
    tiles = ~scoring.token_groups
    height, width = frame.mask.shape[:2]
    found: list[Scored] = []
    seeds = [
        s
        for s in chosen
        if s.candidate.round and tiles[s.group] and s.score >= scoring.config.size_anchor_score
    ]
    if not seeds:
        return []
    turns = np.radians(np.arange(0, 360, 360 / _HEAP_DIRECTIONS))
    ways = np.stack([np.cos(turns), np.sin(turns)], axis=1)
    for _ in range(_BESIDE_ROUNDS):
        cells: list[Candidate] = []
        pieces = [s.candidate for s in chosen + found]
        taken = np.array([c.center for c in pieces])
        # discs do not overlap: a lost one lies a diameter or more from every other
        reach = _HEAP_APART * np.array([c.side for c in pieces])
        # every seed's every direction at once: this runs on every frame of round
        # tiles, and nearly always finds the places taken or off the objects
        quads = np.stack([s.candidate.quad for s in seeds]).astype(np.float64)
        axes = np.stack([quads[:, 1] - quads[:, 0], quads[:, 3] - quads[:, 0]], axis=1)
        middles = quads.mean(axis=1)
        centres = (middles[:, None] + np.einsum("dk,skj->sdj", ways, axes)).reshape(-1, 2)
        cols, rows = np.rint(to_work(centres, frame.scale)).astype(int).T
        inside = (cols >= 0) & (cols < width) & (rows >= 0) & (rows < height)
        inside[inside] = frame.mask[rows[inside], cols[inside]] > 0
        apart = np.hypot(*(centres[:, None] - taken[None]).transpose(2, 0, 1))
        for k in np.flatnonzero(inside & (apart >= reach).all(axis=1)):
            centre, quad = centres[k], quads[k // len(ways)]
            if all(distance(centre, c.center) >= 0.15 * c.side for c in cells):
                shape = (quad - quad.mean(axis=0) + centre).astype(np.float32)
                cells.append(Candidate(shape, True, -1, _LATTICE_SPLIT))
        if not cells:
            break
        # a direction is only right to a twentyfourth of a turn: cut a little off too
        first = scoring.score_shifted(frame.pyramid, cells, tiles)
        new = kept_beside(scoring, frame, first, BESIDE_FIRST_MIN, tiles, size_at, outline=True)
        new = [s for s in new if clear_of(s.candidate.center, chosen + found)]
        if not new:
            break
        found += new
        seeds = new
    return found


#: A lone face's row is looked for along this many ways round it...
_MASK_WAYS = 180
#: ...as far as this many steps (:data:`_ROW_MOST_STEPS`), along places the object
#: mask holds at least this share of (sampled at the place and round it at a third of
#: a step: a row's backs in colours near the cloth's keep 0.1-1 of it)...
_MASK_HELD = 0.3
#: ...the run ending at two places in a row held less...
_MASK_GAP = 2
#: ...one token wide: the places a step to either side hold under this share on
#: average (a block of tiles beside a token fills them)...
_MASK_BESIDE_MOST = 0.25
#: ...at least this many places long, held this well on average.
_MASK_RUN_LEAST = 2
_MASK_RUN_HELD = 0.5
#: The ways (degrees off the mask's run) a row's backs are followed along past it: the
#: run's way is the middle of the ways that run furthest, a few degrees off the row's
#: where it runs only a step or two.
_PAST_BACKS_FAN = np.arange(-12.0, 12.5, 3.0)


def rows_from_lone_ends(
    scoring: Scoring,
    frame: Frame,
    chosen: list[Scored],
    size_at: SizeModel | None,
    scored: Sequence[Scored] = (),
) -> list[Scored]:
    """:func:`row_gaps`, with the far ends of rows read only at one end found first
    (:func:`row_far_ends`); a far end is kept only where :func:`row_gaps` lays the
    row's backs between it and the end it was found from; and the ends turned down
    with their splits (:func:`ends_turned_down`, among ``scored``), each kept only
    where :func:`row_gaps` lays a back beside it. A far end is looked for from those
    too: a row whose only readable end was turned down is otherwise never laid, as two
    ends turned down lay no row together unless one was found from the other. Where no
    token is chosen, the ends read as clearly as a lone token must
    (:func:`sure_ends_turned_down`) stand in for chosen ones, each kept likewise only
    where a back is laid beside it."""
    as_tiles = ends_read_as_tiles(scoring, frame, chosen)
    # the tiles an end lies on, by the end's id: each gives way to it where its row is
    # laid, and stays where it is not
    lying_on = {id(end): [tile] for tile, end in as_tiles}
    chosen = [s for s in chosen if all(s is not t for t, _ in as_tiles)]
    seeds = sure_ends_turned_down(scoring, frame, scored, chosen)
    pairs = row_far_ends(scoring, frame, chosen + seeds, size_at)
    far = [p.end for p in pairs]
    for end in far:
        under = [t for t in chosen if not clear_of(end.candidate.center, [t])]
        if under:  # a far end past a row's backs, where a round tile was read
            lying_on[id(end)] = under
            chosen = [s for s in chosen if all(s is not t for t in under)]
    as_ends = [end for _, end in as_tiles]
    offered = ends_turned_down(scoring, frame, scored, chosen + seeds + far + as_ends) + as_ends
    pairs += row_far_ends(
        scoring, frame, chosen + seeds + far + offered, size_at, {id(s) for s in offered}
    )
    ends = [p.end for p in pairs] + offered
    out = row_gaps(
        scoring,
        frame,
        chosen + seeds + ends,
        size_at,
        frozenset((id(p.start), id(p.end)) for p in pairs if p.along_mask),
        {id(e) for e in ends} - {id(e) for e in as_ends},  # chosen, as tiles: they may pair
        frozenset((id(p.start), id(p.end)) for p in pairs),
    )
    before = {id(s) for s in chosen}
    new = [s for s in out if id(s) not in before]
    backs = [s for s in new if all(s is not e for e in ends + seeds)]
    unlaid = {
        id(p.end)
        for p in pairs
        if not any(_between(s.candidate.center, p.start.candidate, p.end.candidate) for s in backs)
    }
    unlaid |= {
        id(end)
        for end in offered + seeds
        if all(
            distance(s.candidate.center, end.candidate.center) > _LAID_BESIDE * end.candidate.side
            for s in backs
        )
    }
    kept = [s for s in out if id(s) not in unlaid]
    # a tile an end lies on whose row is not laid stays the tile it was read as
    return kept + [t for end, under in lying_on.items() if end in unlaid for t in under]


def sure_ends_turned_down(
    scoring: Scoring, frame: Frame, scored: Sequence[Scored], chosen: list[Scored]
) -> list[Scored]:
    """Where no token is chosen, the pieces of the splits, not chosen, that read
    clearly as a token's face (:attr:`VisionConfig.lone_token_min`) and may be a
    row's end: each is kept only where :func:`rows_from_lone_ends` lays a row's backs
    beside it.

    Pale tokens on a checked cloth of their shade leave only bits in the mask, and
    a blob holding one clear end and the bits of the backs beside it is turned down
    with its split (riso seed 7 #3: a black end at 0.81 beside pieces at 0.41 and
    0.14). With no token chosen the frame knows no token size, which
    :func:`ends_turned_down` measures ends against and :func:`row_far_ends` steps
    by; so the ends that read as clearly as a lone token must (the clutter read as
    tokens matched up to 0.79: :func:`vision.kinds.tokens_in_company`) stand in for
    chosen ones, and their rows are followed from them. Each is the best reading at
    its place, clear of every chosen piece, whole in the frame, with a rim that
    steps all round."""
    if any(scoring.is_token(s) for s in chosen):
        return []
    return _faces_with_rims(scoring, frame, scored, chosen, scoring.config.lone_token_min)


def ends_turned_down(
    scoring: Scoring, frame: Frame, scored: Sequence[Scored], chosen: list[Scored]
) -> list[Scored]:
    """Pieces of the splits, not chosen, that read as a token's face and may be a
    row's end, offered to :func:`row_gaps` (kept only where it lays a back beside
    them).

    A row's end in colours near the cloth's, or cut with what lies beside it, may be
    turned down with its split (a white end on a pale cloth matched 0.63 where a token
    must reach 0.65; an end cut as part of something that is not tiles), and with it
    the row, which is laid only between two ends read (terrazzo seed 2024 #9 and #11
    re-encoded: rows of six and four backs). Each is the best reading at its place, a
    face (not a back) at :data:`_TURNED_END_MIN`, clear of every chosen piece, whole
    in the frame, of a token's size (:data:`vision.token_row_cuts.TOKEN_SIZED` of the
    chosen tokens' median), with a rim that steps all round, and no token read beside
    it: a row read in part is laid from its own tokens (a back of a row read in
    part, read as a white face at 0.85, was offered as an end and kept face up:
    diagonal seed 2024 #13 re-encoded)."""
    _, centres, sides = _round_tokens(scoring, chosen)
    if not len(sides):
        return []
    fits = _alone_at_token_size(centres, float(np.median(sides)), TOKEN_SIZED)
    return _faces_with_rims(scoring, frame, scored, chosen, _TURNED_END_MIN, fits)


def _alone_at_token_size(
    centres: np.ndarray, size: float, band: tuple[float, float]
) -> Callable[[Candidate], bool]:
    """Whether a cut is ``band`` of the tokens' ``size`` (their median side) with no
    token read beside it (``centres``: within :data:`SIDE_BY_SIDE` of ``size``): a
    row's end the row read in part does not already end."""
    low, high = band

    def fits(c: Candidate) -> bool:
        alone = not np.any(np.linalg.norm(centres - c.center, axis=1) <= SIDE_BY_SIDE * size)
        return alone and low <= c.side / size <= high

    return fits


def ends_read_as_tiles(
    scoring: Scoring, frame: Frame, chosen: list[Scored]
) -> list[tuple[Scored, Scored]]:
    """The round pieces chosen as tiles that are a row's end: each with its reading
    as a token, offered to :func:`row_gaps` in its stead (and kept as a tile where no
    back is laid beside it).

    A row's face-up end whose face is drawn as the tiles are (doily's fangs, a white
    face on a pale cloth whose rim the blur took) can match a tile's figure better
    than its own face, and the blob it is cut from says nothing of its kind; with it
    read as a tile, its row has only one end and its backs, which the mask lost, are
    never laid (clock seed 2024 #9: a white end read as a green maiden, 0.46, four
    backs lost; wax seed 2024 #11 and #7). Its size does say what it may be: cut as
    large as the frame's tokens in pixels (:data:`_TILE_AS_END_SIZED` of the chosen
    tokens' median side), where the frame's tiles are clearly larger than its tokens,
    it is read again among the tokens, and offered where it reads as a face at
    :data:`_TURNED_END_MIN`, with a rim that steps all round and no token read beside
    it (a row read in part is laid from its own tokens)."""
    _, centres, sides = _round_tokens(scoring, chosen)
    tiles = [s for s in chosen if not scoring.is_token(s) and s.candidate.round]
    if not len(sides) or not tiles:
        return []
    size = float(np.median(sides))
    tile_size = float(np.median([s.candidate.side for s in tiles]))
    if tile_size < _TILE_AS_END_SIZED[1] * size:
        return []  # tokens and tiles alike in size: their sizes tell nothing
    fits = _alone_at_token_size(centres, size, _TILE_AS_END_SIZED)
    sized = [s for s in tiles if fits(s.candidate) and not _among_tiles(scoring, s, chosen)]
    if not sized:
        return []
    read = scoring.read(frame.pyramid, [s.candidate for s in sized], scoring.token_groups)
    others = [s for s in chosen if all(s is not t for t in sized)]
    out: list[tuple[Scored, Scored]] = []
    for tile, end in zip(sized, read, strict=True):
        if end.score < _TURNED_END_MIN or scoring.is_back(end.group):
            continue
        if not clear_of(end.candidate.center, others) or not rim_steps_all_round(
            scoring, frame, end
        ):
            continue
        out.append((tile, end))
    return out


def _gives_way(scoring: Scoring, piece: Scored, chosen: list[Scored]) -> bool:
    """Whether ``piece`` is a round tile read alone, which a row's end found where it
    lies may be instead (see :func:`_among_tiles`)."""
    return (
        piece.candidate.round
        and not scoring.is_token(piece)
        and not _among_tiles(scoring, piece, chosen)
    )


def _among_tiles(scoring: Scoring, piece: Scored, chosen: list[Scored]) -> bool:
    """Whether another tile is read beside ``piece`` (within :data:`SIDE_BY_SIDE` of
    their sides): a piece in a heap of tiles is one of them, however well its label
    matches a token's face (a heap of records or cabochons, their middles read as
    tokens, was laid as rows between them)."""
    c = piece.candidate
    return any(
        distance(c.center, t.candidate.center) <= SIDE_BY_SIDE * (c.side + t.candidate.side) / 2
        for t in chosen
        if t is not piece and not scoring.is_token(t)
    )


def _faces_with_rims(
    scoring: Scoring,
    frame: Frame,
    scored: Sequence[Scored],
    chosen: list[Scored],
    least: float,
    fits: Callable[[Candidate], bool] = lambda c: True,
) -> list[Scored]:
    """The round pieces among ``scored`` that read as a token's face (not a back) at
    ``least``, whose cut ``fits``, each the best reading at its place, clear of every
    chosen piece, whole in the frame, with a rim that steps all round: the ends of
    rows turned down with their splits that :func:`ends_turned_down` and
    :func:`sure_ends_turned_down` offer."""
    out: list[Scored] = []
    for s in sorted(scored, key=lambda s: -s.score):
        c = s.candidate
        if (
            s.score < least
            or not c.round
            or not scoring.is_token(s)
            or scoring.is_back(s.group)
            or not fits(c)
            or not clear_of(c.center, chosen + out)
            or not within_frame(c, frame)
            or not rim_steps_all_round(scoring, frame, s)
        ):
            continue
        out.append(s)
    return out


#: The split number given to a token cut again in a blob nothing explains.
_LONE_TOKEN_SPLIT = 3000

#: A blob nothing explains is looked through for a token where it is this many of
#: the frame's token steps across (its equivalent diameter): wider than one token,
#: so its own cut was sized by the blob, and narrower than two side by side.
_LONE_TOKEN_WIDE = (1.2, 2.0)

#: ...and round: at most this long for its width, and filling this share of its
#: fitted ellipse.
_LONE_TOKEN_ASPECT = 1.35
_LONE_TOKEN_ROUND = 0.8

#: The places a token is cut at about the blob's middle, in steps each way, and how
#: many of the best first looks among them are aligned.
_LONE_TOKEN_AT = (-0.3, -0.15, 0.0, 0.15, 0.3)
_LONE_TOKEN_ALIGNED = 4

#: ...kept only within this share of a step of the place it was cut at.
_LONE_TOKEN_DRIFT = 0.35

#: A blob nothing explains is looked through for a row's two ends where it is a chain
#: this many of the frame's token steps across (the mask swells a row by a blur's
#: width each side)...
_CHAIN_ACROSS = (0.8, 1.5)
#: ...at least this many long (two ends and a back between)...
_CHAIN_LONG = 2.6
#: ...and fills this share of its box (a straight row of discs: 0.75 and more).
_CHAIN_FILL = 0.65


def tokens_in_lone_blobs(
    scoring: Scoring, frame: Frame, chosen: list[Scored], size_at: SizeModel | None
) -> list[Scored]:
    """Token faces in blobs that nothing explains, cut again at the frame's token
    size: in round blobs wider than the frame's tokens, and at both ends of chains
    a token wide (:func:`_lone_token_places`).

    On a checked cloth a token's rim runs into the cells of its shade and its blob
    swells to a tile's width (a row of 23 px tokens on a red check: both ends blobs
    of 37 px, cut at that size and matching 0.40 and 0.53, read 0.91 and 0.92 at
    23 px); a blob so cut is sized by the mask, not by the token. Tokens are one
    size in a frame: the step of its clear tokens (as :func:`row_far_ends` measures
    it) gives the size, and a place about the blob's middle the token. Kept only
    where it reads as a face (a row's ends lie face up) as clearly as a tile must
    (``sure_tile_min``) near the place it was cut at, lies wholly in the frame, and
    its rim steps all round; a chain's ends, whose faces may be near the cloth's
    colours, each at :data:`CHAIN_END_MIN` where both read so (the chain's shape and
    its other end are the independent argument a lone face lacks).
    :func:`rows_from_lone_blobs` then lays the row's backs between two such ends."""
    if size_at is None or scoring.model.round is None:
        return []
    tokens, centres, sides = _round_tokens(scoring, chosen)
    clear = [k for k, t in enumerate(tokens) if t.score >= scoring.config.size_anchor_score]
    if not clear:
        return []
    step = _frame_step(centres[clear], sides[clear])
    shapes = [tokens[k].candidate for k in clear]
    cuts: list[Candidate] = []
    chains: list[int] = []  # per place: the blob whose chain it ends, or -1
    for b, blob in enumerate(frame.blobs):
        if any(blob.holds(s.candidate.center, frame.scale) for s in chosen):
            continue
        places, chain = _lone_token_places(blob, frame.scale, step)
        if not all(clear_of(place, chosen) for place in places):
            continue  # a piece found there since, by a search
        for place in places:
            chains.append(b if chain else -1)
            cuts += [
                Candidate(
                    shaped_like(shapes, place + np.array([u, v]) * step, step),
                    True,
                    b,
                    _LONE_TOKEN_SPLIT,
                )
                for u in _LONE_TOKEN_AT
                for v in _LONE_TOKEN_AT
            ]
    if not cuts:
        return []
    kind = scoring.token_groups
    first = scoring.score_structure(frame.pyramid, cuts, kind)
    per_place = len(_LONE_TOKEN_AT) ** 2
    best = [
        start + k
        for start in range(0, len(cuts), per_place)
        for k in sorted(range(per_place), key=lambda k, s=start: -first[s + k].score)[
            :_LONE_TOKEN_ALIGNED
        ]
    ]
    aligned = scoring.realigned(frame.pyramid, [first[k] for k in best], kind)
    aligned = finer_sized(scoring, frame.pyramid, [cuts[k] for k in best], aligned)
    sure = scoring.config.sure_tile_min
    found = [
        (s, chains[k // per_place])
        for s, k in zip(aligned, best, strict=True)
        if s.score >= (CHAIN_END_MIN if chains[k // per_place] >= 0 else sure)
        and scoring.is_token(s)
        and not scoring.is_back(s.group)
        and distance(s.candidate.center, cuts[k].center) <= _LONE_TOKEN_DRIFT * step
        and within_frame(s.candidate, frame)
        and clear_of(s.candidate.center, chosen)
        and rim_steps_all_round(scoring, frame, s)
    ]
    kept = one_per_place([s for s, _ in found])[0]
    chain_of = {id(s): b for s, b in found}
    ends = Counter(chain_of[id(s)] for s in kept)
    return [s for s in kept if chain_of[id(s)] < 0 or ends[chain_of[id(s)]] == 2]


def _lone_token_places(blob: Blob, scale: float, step: float) -> tuple[list[np.ndarray], bool]:
    """Where a token may lie in a blob nothing explains (frame px), and whether they
    are a chain's two ends: the middle of a round blob a little wider than a token,
    or each end of a straight chain a token wide and some tokens long.

    A row of pale tokens on a pale cloth makes one long blob whose split places its
    discs off the row's pitch (a row of six 30 px tokens on grey laminate: discs 20
    to 42 px apart, its two white ends matching 0.68 and 0.43), so no clear end says
    a row lies there. A row's ends lie face up (RULINGS V2) at the two ends of its
    run, half a step in from them: cut there at the frame's token size, they read
    as the faces they are (0.66 and 0.69 on that row, near the cloth's grey).
    """
    if blob.aspect <= _LONE_TOKEN_ASPECT and blob.roundness >= _LONE_TOKEN_ROUND:
        wide = 2.0 * np.sqrt(blob.area / np.pi) * scale / step
        if _LONE_TOKEN_WIDE[0] <= wide <= _LONE_TOKEN_WIDE[1]:
            return [to_frame(np.array(blob.box[0], np.float64), scale)], False
        return [], False
    (cx, cy), (w, h), angle = blob.box
    across, along = sorted((w * scale / step, h * scale / step))
    if not (_CHAIN_ACROSS[0] <= across <= _CHAIN_ACROSS[1] and along >= _CHAIN_LONG):
        return [], False
    if blob.fill < _CHAIN_FILL:
        return [], False  # bent or branching: no straight row
    theta = np.deg2rad(angle if w >= h else angle + 90.0)  # the box's long side
    way = np.array([np.cos(theta), np.sin(theta)])
    middle = to_frame(np.array([cx, cy], np.float64), scale)
    reach = (max(w, h) * scale - step) / 2
    return [middle - way * reach, middle + way * reach], True


def rows_from_lone_blobs(
    scoring: Scoring, frame: Frame, chosen: list[Scored], size_at: SizeModel | None
) -> list[Scored]:
    """Rows whose ends are faces found in lone blobs (:func:`tokens_in_lone_blobs`),
    their backs laid between them by :func:`row_gaps`; an end is kept only where a
    row was laid from it (a row's places each matching clearly, or held by the mask),
    the independent argument a face alone in a blob lacks. Runs once the pieces are
    told apart (:func:`vision.kinds.tokens_in_company`): before that, round cuts of
    square tiles read as tokens would set the frame's token size."""
    ends = tokens_in_lone_blobs(scoring, frame, chosen, size_at)
    if not ends:
        return chosen
    out = row_gaps(scoring, frame, chosen + ends, size_at)
    before = {id(s) for s in chosen} | {id(e) for e in ends}
    new = [s for s in out if id(s) not in before]
    unlaid = {
        id(end)
        for end in ends
        if not any(
            _between(s.candidate.center, end.candidate, other.candidate)
            for s in new
            for other in out
            if other is not end and other.candidate.round and scoring.is_token(other)
        )
    }
    return [s for s in out if id(s) not in unlaid]


def _between(point: tuple[float, float], a: Candidate, b: Candidate) -> bool:
    """Whether ``point`` lies between two pieces, within half a side of their line."""
    start, span = np.array(a.center), np.array(b.center) - np.array(a.center)
    t = float((np.array(point) - start) @ span / (span @ span))
    off = float(np.linalg.norm(start + t * span - np.array(point)))
    return 0.0 < t < 1.0 and off < 0.5 * a.side


class FarEnd(NamedTuple):
    """A row's far end (:func:`row_far_ends`), the clear end it was found from, and
    whether a run of the object mask joins them."""

    start: Scored
    end: Scored
    along_mask: bool


def row_far_ends(
    scoring: Scoring,
    frame: Frame,
    chosen: list[Scored],
    size_at: SizeModel | None,
    starts: set[int] | None = None,
) -> list[FarEnd]:
    """The far ends of rows read only at one end (those among ``starts``, by ``id``,
    if given), found along the object mask, each with the end it was found from.

    A row's middle lies face down, and its backs, touching one another, make a long
    run of the mask a token wide, broken where a back's colours are near the cloth's;
    cut as square tiles, or as discs off their places, none of it reads, nor does the
    far end it joins (a row of 23 px tokens on a red check: the black end read, its
    five backs and green end cut as a tile, 0.12; a row of 47 px tokens: the yellow
    end a blob of its own, the backs and red end another cut at 30-35 px). From a
    clear face with no token beside it, the places one step apart along which the
    mask runs furthest, a token wide, say which way the row runs (the middle of the
    ways that run furthest) and how far; the end is looked for at that count of
    steps and one more (:func:`vision.token_row_cuts.far_end_along`), kept on a
    clear face with a rim all round. The step is the frame's: tokens are one size on
    the table, measured between clear tokens side by side, else their sides (a
    yellow end in colours near the cloth's was cut at 37 px where its tokens are
    47). Where the mask holds too little for a run, the end's own blob may still say
    the way (:func:`_way_along_blob`), and the backs read along it how far
    (:func:`_far_end_past_backs`). A row read in part is followed past its outermost
    back too (:func:`_past_outermost_back`, without ``starts`` only), where a round
    tile read alone may lie on its far end (cut with the cloth round it)."""
    if size_at is None or scoring.model.round is None:
        return []
    clear_min = scoring.config.size_anchor_score
    tokens, centres, sides = _round_tokens(scoring, chosen)
    clear = [k for k, t in enumerate(tokens) if t.score >= clear_min]
    if not clear:
        return []
    step = _frame_step(centres[clear], sides[clear])
    found: list[FarEnd] = []
    backs = [k for k, t in enumerate(tokens) if scoring.is_back(t.group)]
    if starts is None and backs:
        # a round tile read alone past a row's backs may be its far end, cut with the
        # cloth round it
        firm = [s for s in chosen if not _gives_way(scoring, s, chosen)]
        # every back read, as row_ends reads one step past any (a back matches less
        # clearly than a face: 0.66 on a red check)
        for k in backs:
            end = _past_outermost_back(scoring, frame, tokens, centres, sides, k)
            if end is not None and clear_of(end.candidate.center, firm + [f.end for f in found]):
                found.append(FarEnd(tokens[k], end, False))
    for k in clear:
        t = tokens[k]
        if starts is not None and id(t) not in starts:
            continue
        if scoring.is_back(t.group) or not within_frame(t.candidate, frame):
            continue
        apart = np.linalg.norm(centres - centres[k], axis=1)
        apart[k] = np.inf
        if np.any(apart <= SIDE_BY_SIDE * (sides + max(step, sides[k])) / 2):
            continue  # a row read in part: the other searches go on from it
        run = _run_along_mask(frame, centres[k], step)
        if run is None:
            way = _way_along_blob(scoring, frame, t.candidate, step)
            if way is None:
                continue
            end = _far_end_past_backs(scoring, frame, t, way, step)
        else:
            way, steps = run
            places = [centres[k] + way * n * step for n in range(1, steps)]
            if any(_held_by_discs(p, chosen, scoring, step) is None for p in places):
                continue  # the mask there is something read already
            end = far_end_along(scoring, frame, t, way, steps, step)
            if end is None:
                end = _far_end_past_backs(scoring, frame, t, way, step)
        ends = [f.end for f in found]
        if end is not None and clear_of(end.candidate.center, chosen + ends):
            found.append(FarEnd(t, end, run is not None))
    return found


def _past_outermost_back(
    scoring: Scoring,
    frame: Frame,
    tokens: list[Scored],
    centres: np.ndarray,
    sides: np.ndarray,
    k: int,
) -> Scored | None:
    """The far end of a row read in part, past its outermost back (token ``k``, with
    one token read beside it): the row goes on the other way, and its backs the mask
    lost are read along it to its end (:func:`_far_end_past_backs`).

    By the rules a back lies between two tokens; one read with a token on one side
    only has the rest of its row on the other. Where the next place reads as the end,
    :func:`row_ends` finds it; where backs lie between, the end is a few steps on
    (rosary seed 7 #3: a black end and one back read, three backs lost on a red check
    and the white end, cut with the check round it half as large again, read as a
    red garlic)."""
    beside = _one_beside(centres, sides, k)
    if beside is None:
        return None
    n, apart = beside
    way = (centres[k] - centres[n]) / apart
    return _far_end_past_backs(scoring, frame, tokens[k], way, apart)


def _one_beside(centres: np.ndarray, sides: np.ndarray, k: int) -> tuple[int, float] | None:
    """The one token read a step of a row from token ``k`` (its index and how far it
    lies), or None where none or several are: a back with one neighbour is its row's
    outermost read back."""
    _, apart, stepped = a_step_from(centres, sides, k)
    beside_k = np.flatnonzero(stepped)
    if len(beside_k) != 1:
        return None
    n = int(beside_k[0])
    return n, float(apart[n])


def _way_along_blob(
    scoring: Scoring, frame: Frame, piece: Candidate, step: float
) -> np.ndarray | None:
    """The way (a unit vector) from ``piece`` along the long side of the blob it was
    cut from, where that blob is no single piece's shape (longer than
    ``single_aspect_max``) and runs on past the piece by about half a ``step`` or
    more (its box's centre a quarter of a step ahead); else None.

    Pale backs on a checked cloth of their shade leave the mask only bits of their
    rings, too few for a run along it (:func:`_run_along_mask`), but the bit of the
    first back touching the row's end makes the end's blob run the row's way
    (riso seed 7 #3: a 23 px black end and the bit above it, a blob 49 by 34 px;
    the way so found lay 13 degrees off the row's, within what
    :func:`_far_end_past_backs` fans out over)."""
    if not 0 <= piece.blob < len(frame.blobs):
        return None
    blob = frame.blobs[piece.blob]
    if blob.aspect <= scoring.config.single_aspect_max or not blob.holds(piece.center, frame.scale):
        return None
    (cx, cy), (w, h), angle = blob.box
    theta = np.radians(angle if w >= h else angle + 90.0)
    way = np.array([np.cos(theta), np.sin(theta)])
    ahead = float((to_frame(np.array([cx, cy]), frame.scale) - np.array(piece.center)) @ way)
    if abs(ahead) < step / 4:
        return None
    return way if ahead > 0 else -way


def _far_end_past_backs(
    scoring: Scoring, frame: Frame, clear: Scored, way: np.ndarray, step: float
) -> Scored | None:
    """A row's far end one step past the backs read along it from ``clear``, where the
    object mask ran out before the row did.

    Backs of bare paper with only a thin printed ring leave the mask on a pale cloth
    but for bits of their ring, so the mask's run says which way the row goes, to a few
    degrees, but not how far (a row of seven backs on a pale laminate: two steps). The
    backs themselves say it: along each way a little either side of the mask's
    (:data:`_PAST_BACKS_FAN`), the places a step apart are read as tokens, and the way
    whose run of places read as backs (:data:`_ROW_BACK_MIN`) is longest is followed to
    its end, looked for as :func:`vision.token_row_cuts.far_end_along` does (a clear
    face, a rim all round). The end is kept, as every far end is, only where
    :func:`row_gaps` then lays the backs between."""
    c = clear.candidate
    turns = np.radians(_PAST_BACKS_FAN)
    ways = np.stack(
        [
            np.cos(turns) * way[0] - np.sin(turns) * way[1],
            np.sin(turns) * way[0] + np.cos(turns) * way[1],
        ],
        axis=1,
    )
    n = np.arange(1, _ROW_MOST_STEPS)
    alongs = [step_along(c, w, step) for w in ways]  # the row's step along each way
    cuts: list[Candidate] = []
    for w, along in zip(ways, alongs, strict=True):
        for k in n:
            place = np.array(c.center) + w * k * along
            cuts.append(Candidate(stepped_like([c], place, along, w), True, c.blob, c.split))
    read = scoring.read(frame.pyramid, cuts, scoring.token_groups)
    backs = np.array(
        [scoring.is_back(s.group) and s.score >= _ROW_BACK_MIN for s in read], bool
    ).reshape(len(ways), len(n))
    scores = np.array([s.score for s in read]).reshape(len(ways), len(n))
    runs = np.where(backs.all(axis=1), len(n), np.argmin(backs, axis=1))
    best = max(
        range(len(ways)), key=lambda w: (runs[w], scores[w, : runs[w]].sum() if runs[w] else 0)
    )
    if runs[best] < _MASK_RUN_LEAST:
        return None
    return far_end_along(scoring, frame, clear, ways[best], int(runs[best]) + 1, step, alongs[best])


def _frame_step(centres: np.ndarray, sides: np.ndarray) -> float:
    """A row's step in the frame, from its clear tokens: the median distance between
    two lying side by side (:func:`vision.token_rows.a_step_from`), else their
    median side."""
    steps = _steps_side_by_side(centres, sides)
    return float(np.median(steps)) if steps else float(np.median(sides))


def _steps_side_by_side(centres: np.ndarray, sides: np.ndarray) -> list[float]:
    """The steps between each pair of tokens lying side by side
    (:func:`vision.token_rows.a_step_from`)."""
    return [
        float(apart[j])
        for k in range(len(centres))
        for apart, stepped in [a_step_from(centres, sides, k)[1:]]
        for j in np.flatnonzero(stepped)
        if j > k
    ]


def _run_along_mask(frame: Frame, centre: np.ndarray, step: float) -> tuple[np.ndarray, int] | None:
    """The way (a unit vector) and length (in steps) of the furthest run of places
    one ``step`` apart from ``centre`` that the object mask holds, a token wide, or
    None if it is shorter than :data:`_MASK_RUN_LEAST` or held too little. The way
    is the middle of the ways that run furthest: they spread evenly about the row's
    line."""
    angles = np.arange(_MASK_WAYS) * (2 * np.pi / _MASK_WAYS)
    ways = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    normals = np.stack([-ways[:, 1], ways[:, 0]], axis=1)
    ring = np.arange(8) * (np.pi / 4)
    disc = np.concatenate([[[0.0, 0.0]], np.stack([np.cos(ring), np.sin(ring)], 1) / 3]) * step
    n = np.arange(1, _ROW_MOST_STEPS + 1)
    height, width = frame.mask.shape[:2]

    def held(points: np.ndarray) -> np.ndarray:
        work = np.rint(to_work(points, frame.scale)).astype(int)
        x, y = work[..., 0], work[..., 1]
        inside = (x >= 0) & (x < width) & (y >= 0) & (y < height)
        values = frame.mask[np.clip(y, 0, height - 1), np.clip(x, 0, width - 1)] > 0
        return (values & inside).mean(axis=-1)

    # [way, count of steps, point of the disc, xy]
    places = centre + ways[:, None, None] * (n[None, :, None, None] * step) + disc[None, None]
    on = held(places)
    beside = sum(held(places + s * step * normals[:, None, None]) for s in (-1.0, 1.0)) / 2
    good = on >= _MASK_HELD
    # the run ends where _MASK_GAP places in a row are held too little
    gaps = np.ones((len(ways), len(n) + _MASK_GAP), bool)
    gaps[:, : len(n)] = ~good
    ended = np.stack([gaps[:, i : i + len(n)] for i in range(_MASK_GAP)]).all(axis=0)
    runs = np.argmax(ended, axis=1)  # the first place of the first gap
    length = np.where(good[:, 0], runs, 0)
    held_on = np.array([on[w, : length[w]].mean() if length[w] else 0.0 for w in range(len(ways))])
    wide = np.array([beside[w, : length[w]].mean() if length[w] else 1.0 for w in range(len(ways))])
    ok = (length >= _MASK_RUN_LEAST) & (held_on >= _MASK_RUN_HELD) & (wide < _MASK_BESIDE_MOST)
    if not ok.any():
        return None
    longest = int(length[ok].max())
    best = ways[ok & (length == longest)].sum(axis=0)
    if np.linalg.norm(best) < 1e-6:
        return None
    return best / np.linalg.norm(best), longest


@dataclass(frozen=True)
class _Aside:
    """Where the cloth beside a row's places lies: each place's centre, the offset
    across the row to the cloth, the row's ends (whose shape each cut takes) and the
    row's step."""

    places: list[np.ndarray]
    across: np.ndarray
    shapes: list[Candidate]
    side: float


def row_gaps(
    scoring: Scoring,
    frame: Frame,
    chosen: list[Scored],
    size_at: SizeModel | None,
    along_mask: frozenset[tuple[int, int]] = frozenset(),
    offered: set[int] | frozenset[int] = frozenset(),
    found_together: frozenset[tuple[int, int]] = frozenset(),
) -> list[Scored]:
    """Tokens lying between two tokens read a whole number of diameters apart with
    nothing read between them: the middle of a row whose backs the mask lost.

    A player's row is laid in a straight line, one token beside the next, with its
    two ends face up. Backs in the colours of a cloth (dark navy on a blue gingham)
    leave the mask, and their rims are broken wherever a cell of their own colour lies
    behind them, so neither the mask nor the rim search finds them; the ends, whose
    faces differ from the cloth, are read. The row's step is measured where an end has
    a neighbour of its row read beside it (:func:`vision.token_rows.gap_step`), else
    taken from the ends' size; each place between them is cut at that step and their
    tilt (where the ends' size leaves the count of steps in doubt, at the nearest
    count, and where that row is not laid, at the other: :func:`step_counts`), and
    the row's places are kept only if every one of them matches a token as
    clearly as a piece found with no blob of its own must (:meth:`Scoring.kept`): a
    chance pair of tokens with cloth between them matches nowhere. No outline is asked
    of them: a back in the cloth's colours has none (dark backs on a dark table
    stepped 5-9 grey levels across their rims, matching 0.81-0.98). Where the
    object mask holds every place, poorer backs are kept too
    (:func:`_backs_on_the_mask`), and a place may be held by a disc of a token's
    size read as a tile (:func:`_held_by_discs`), which the row's back replaces.
    Between two ends a run of the mask was followed from (``along_mask``, pairs of
    ``id``, see :func:`row_far_ends`) the mask need hold each place only in part.
    Two ends ``offered`` (by ``id``: found or turned down, not chosen) lay no row
    together, unless one was found from the other (``found_together``, pairs of
    ``id``). Returns ``chosen`` with the rows' places added.
    """
    if size_at is None or scoring.model.round is None:
        return chosen
    tokens, centres, sides = _round_tokens(scoring, chosen)
    clear = np.array([t.score >= scoring.config.size_anchor_score for t in tokens], bool)
    paired = _steps_side_by_side(centres[clear], sides[clear])
    frame_step = float(np.median(paired)) if paired else None
    offsets = centres[None] - centres[:, None]  # [i, j]: from i to j
    apart = np.linalg.norm(offsets, axis=2)
    np.fill_diagonal(apart, np.inf)
    beside = apart <= SIDE_BY_SIDE * (sides[:, None] + sides[None]) / 2
    layouts: list[_Layout] = []  # each pair's row at the count of steps it rounds to
    others: list[_Layout | None] = []  # ...and at the other count its step allows
    for i, j in zip(*np.triu_indices(len(tokens), 1), strict=True):
        a, b = tokens[i], tokens[j]
        pair = {(id(a), id(b)), (id(b), id(a))}
        if id(a) in offered and id(b) in offered and not pair & found_together:
            continue
        # the gap continues whatever row each end has: its neighbours lie behind it
        way = offsets[i, j] / apart[i, j]
        behind_i = offsets[i, beside[i]] / apart[i, beside[i], None] @ way
        behind_j = offsets[j, beside[j]] / apart[j, beside[j], None] @ -way
        if np.any(behind_i > OPPOSITE) or np.any(behind_j > OPPOSITE):
            continue
        step = gap_step(centres, sides, i, j, frame_step)
        counts = step_counts(float(apart[i, j]), step)
        if not counts:
            continue
        partly = bool(pair & along_mask)
        rows = [_layout(scoring, chosen, a, b, n, step, partly) for n in counts]
        if rows[0] is None:
            continue
        layouts.append(rows[0])
        others.append(rows[1] if len(rows) > 1 else None)
    if not layouts:
        return chosen
    laid = _laid_rows(scoring, frame, chosen, size_at, layouts)
    # a row whose places do not all read at the count its ends' size gives is cut
    # again at the other count its step allows, after the first, so as not to change
    # what the first reads
    again = [
        other
        for other, pieces in zip(others, laid, strict=True)
        if other is not None and not all(s is not None for s in pieces)
    ]
    if again:
        first = sum(len(row.aside.places) for row in layouts)
        laid += _laid_rows(scoring, frame, chosen, size_at, again, first)
        layouts += again
    out: list[Scored] = []
    gone: set[int] = set()
    for pieces, row in zip(laid, layouts, strict=True):
        if all(s is not None for s in pieces):
            out += [s for s in pieces if s is not None and clear_of(s.candidate.center, out)]
            gone |= row.holders
    return [s for s in chosen if id(s) not in gone] + out


def step_counts(apart: float, step: float) -> list[int]:
    """The whole numbers of ``step`` a row's gap ``apart`` long may be: the nearest,
    if its tokens then lie a step apart within :data:`_ROW_STEP_SLACK`, and then the
    other whole number either side of ``apart / step`` where it does too.

    A row's step is taken from its ends' cuts, sized only to a tenth or so, so a long
    gap's count is known only to one either way: a row of seven 33 px steps on a
    tilted table, its ends cut 30 px (their width across the row's way), came to 7.6
    steps and was cut at eight; a row of six 43 px steps, one end cut 38 px, came to
    6.35 and a gap of three 23 px steps, both ends cut about 20 px, to 3.49, each
    right only by chance of rounding. The places read say which count is right
    (:func:`row_gaps` cuts a row again at the second where the first does not lay)."""
    ratio = apart / step

    def fits(n: int) -> bool:
        return 2 <= n <= _ROW_MOST_STEPS and abs(ratio / n - 1) <= _ROW_STEP_SLACK

    nearest = round(ratio)
    other = nearest + 1 if ratio > nearest else nearest - 1
    if not fits(nearest):
        return []
    return [nearest, other] if fits(other) else [nearest]


@dataclass(frozen=True)
class _Layout:
    """A row laid between two ends at one count of steps: the discs read as tiles on
    its places (:func:`_held_by_discs`, by ``id``), whether a run of the mask joins
    its ends, and where its places and the cloth beside them lie."""

    holders: set[int]
    partly: bool
    aside: _Aside


def _layout(
    scoring: Scoring,
    chosen: list[Scored],
    a: Scored,
    b: Scored,
    steps: int,
    step: float,
    partly: bool,
) -> _Layout | None:
    """The row between ends ``a`` and ``b`` ``steps`` steps apart, or None where a
    chosen piece that may be what lies there lies on one of its places
    (:func:`_held_by_discs`)."""
    start, end = np.array(a.candidate.center), np.array(b.candidate.center)
    places = [start + (end - start) * k / steps for k in range(1, steps)]
    held = [_held_by_discs(p, chosen, scoring, step) for p in places]
    if any(h is None for h in held):
        return None
    side = float(np.linalg.norm(end - start)) / steps
    way = (end - start) / np.linalg.norm(end - start)
    across = np.array([-way[1], way[0]]) * _CLOTH_BESIDE * side
    shapes = [a.candidate, b.candidate]
    holders = {id(s) for h in held if h for s in h}
    return _Layout(holders, partly, _Aside(places, across, shapes, side))


def _laid_rows(
    scoring: Scoring,
    frame: Frame,
    chosen: list[Scored],
    size_at: SizeModel,
    layouts: list[_Layout],
    first: int = 0,
) -> list[list[Scored | None]]:
    """Each row's places read as tokens and kept (see :func:`row_gaps`): a place
    matching clearly, else a back the mask holds, else a back standing out from the
    cloth beside it; None where a place is not kept. The places are told apart by
    their blob numbers, counted from ``first`` (a second batch's apart from the
    first's)."""
    candidates: list[Candidate] = []
    rows: list[list[int]] = []
    for layout in layouts:
        aside = layout.aside
        rows.append(list(range(len(candidates), len(candidates) + len(aside.places))))
        for p in aside.places:
            quad = shaped_like(aside.shapes, p, aside.side)
            blob = -1 - first - len(candidates)
            candidates.append(Candidate(quad=quad, round=True, blob=blob, split=_ROW_SPLIT))
    least = scoring.config.second_look_min
    readings = _places_read(scoring, frame, candidates, chosen)
    kept = kept_settling_ties(
        scoring,
        frame,
        readings,
        least,
        size_at,
        outline=False,
    )
    found = {s.candidate.blob: s for s in kept}
    on_mask = coverage(frame.mask, [to_work(c.quad, frame.scale) for c in candidates])
    laid: list[list[Scored | None]] = []
    for row, layout in zip(rows, layouts, strict=True):
        pieces = [found.get(-1 - first - k) for k in row]
        if not all(s is not None for s in pieces):
            held = on_mask[row] >= (_ROW_PARTLY_ON_MASK if layout.partly else _ROW_ON_MASK)
            if layout.partly:
                held = _gaps_of_one_bridged(held)
            pieces = _backs_on_the_mask(scoring, [readings[k] for k in row], held, size_at)
        laid.append(pieces)
    unlaid = [r for r, pieces in enumerate(laid) if not all(s is not None for s in pieces)]
    # the cloth beside a row is read only where it may still lay the row: every place a
    # back that stayed on its place, which the cloth cannot change (a row with one place
    # kept by none is not laid whatever the cloth reads)
    judged = [
        r
        for r in unlaid
        if all(_back_in_place(scoring, readings[k], candidates[k], size_at) for k in rows[r])
    ]
    beside = _cloth_beside(scoring, frame, chosen, [layouts[r].aside for r in judged])
    for r, cloth in zip(judged, beside, strict=True):
        laid[r] = _backs_beside_cloth(scoring, [readings[k] for k in rows[r]], cloth)
    return laid


def _places_read(
    scoring: Scoring, frame: Frame, candidates: list[Candidate], chosen: list[Scored]
) -> list[Scored]:
    """Each of a row's places (and the cloth beside them) read as a token.

    Each place must match clearly: one under that is cut again at sizes a few per
    cent apart, as a row's places are (a 47 px back at its place: 0.63, 0.75
    fitted), and kept so only as a back, which by the rules a row's middle is (a
    chance place over cloth so fitted read as a face, 0.76). A small token's fine art
    is blurred away in the photo: each place is read against the faces blurred as the
    frame blurs a piece of its size, and takes that reading only as a back, as above
    (a place over cloth between the ends of two rows read as a face, 0.67 -> 0.74 so:
    compass seed 2024 #3 re-encoded)."""
    kind = scoring.token_groups
    first = scoring.score_structure(frame.pyramid, candidates, kind)
    least = scoring.config.second_look_min
    aligned = scoring.realigned(frame.pyramid, first, kind)
    fitted = finer_sized(scoring, frame.pyramid, candidates, aligned, least)
    readings = [
        f if f is a or scoring.is_back(f.group) else a for a, f in zip(aligned, fitted, strict=True)
    ]
    blurred = read_blurred(scoring, readings, chosen)
    return [b if scoring.is_back(b.group) else a for a, b in zip(readings, blurred, strict=True)]


def _cloth_beside(
    scoring: Scoring,
    frame: Frame,
    chosen: list[Scored],
    asides: list[_Aside],
) -> list[list[list[Scored]]]:
    """The cloth a step to each side of every place of some rows, across the row, read
    as a token (:func:`_places_read`): for each row, each place's readings.

    Only rows that neither matched clearly nor lay on the mask are read so, all in one
    batch: most rows are laid without it, and each cut costs a place's reading. A cut
    that falls on a chosen piece or off the frame is not read."""
    cuts: list[Candidate] = []
    owners: list[tuple[int, int]] = []  # each cut's row and place
    for r, aside in enumerate(asides):
        for k, place in enumerate(aside.places):
            for q in (place + aside.across, place - aside.across):
                quad = shaped_like(aside.shapes, q, aside.side)
                cloth = Candidate(quad=quad, round=True, blob=-1 - len(cuts), split=_ROW_SPLIT)
                if clear_of(q, chosen) and within_frame(cloth, frame):
                    cuts.append(cloth)
                    owners.append((r, k))
    out: list[list[list[Scored]]] = [[[] for _ in a.places] for a in asides]
    readings = _places_read(scoring, frame, cuts, chosen) if cuts else []
    for (r, k), s in zip(owners, readings, strict=True):
        out[r][k].append(s)
    return out


def _backs_beside_cloth(
    scoring: Scoring, pieces: list[Scored], cloth: list[list[Scored]]
) -> list[Scored | None]:
    """A row's places between two read tokens, over a cloth the mask took them for,
    kept as backs where every place reads as a back better than the cloth beside it.

    Small backs in a cloth's colours (white backs on a pale laminate, pale backs on a
    cream and red check) leave the mask, and their fine art is blurred away, so they
    match 0.63-0.85 where a clear match asks 0.7 of every one. The same cut a step
    aside, across the row, reads the cloth there as a token: where each place reads as
    a back (:data:`_ROW_BACK_MIN`) better than every cut beside it reads as one, by
    :data:`_CLOTH_LEAD`, something shaped like a back lies on every place, which by
    the rules is a row's middle. A place with no free cloth beside it (a tile, another
    row, the frame's edge) is not judged so. Only rows whose every place passed
    :func:`_back_in_place` are judged so (by :func:`_laid_rows`)."""
    out: list[Scored | None] = []
    for s, beside in zip(pieces, cloth, strict=True):
        as_back = [c.score if scoring.is_back(c.group) else 0.0 for c in beside]
        ok = bool(beside) and s.score >= max(as_back) + _CLOTH_LEAD
        out.append(s if ok else None)
    return out


def _back_in_place(scoring: Scoring, s: Scored, place: Candidate, size_at: SizeModel) -> bool:
    """What a row's place ``s`` must be before the cloth beside it is read: turned down,
    if at all, for its match alone and read as a back (:func:`_may_be_back`), and still
    on its ``place``. Asked before the cloth is cut, it spares reading the cloth beside
    a row that cannot be laid, each cut a place's full reading (:func:`rows_from_lone_ends`
    in processor time, hard level: lantern seed 31 #1 161 -> 34 ms, nocturne seed 2024
    #19 116 -> 34 ms; over 32 photos with token rows 509 -> 222 ms, every reading the
    same)."""
    stayed = distance(s.candidate.center, place.center) <= _ROW_END_DRIFT * place.side
    return stayed and _may_be_back(scoring, s, size_at)


def _held_by_discs(
    place: np.ndarray, chosen: list[Scored], scoring: Scoring, step: float
) -> list[Scored] | None:
    """The chosen pieces lying on a row's place (none if it is free), or None where
    one of them may be what lies there: a token, a clear tile (``sure_tile_min``), or
    anything but a disc of a token's size. A row's small back cut off its place
    matches a round tile's figure better than a back, though poorly, and is chosen as
    that tile (0.65-0.66); a round tile matches clearly, and may lie in a line of
    tiles read as tokens (a purple vampire, 0.90, between two tiles read as a token
    and a back)."""
    on = [s for s in chosen if not clear_of(place, [s])]
    low, high = TOKEN_SIZED  # a small back cut off its place
    sure = scoring.config.sure_tile_min
    if all(
        s.candidate.round
        and not scoring.is_token(s)
        and s.score < sure
        and low <= s.candidate.side / step <= high
        for s in on
    ):
        return on
    return None


def _gaps_of_one_bridged(held: np.ndarray) -> np.ndarray:
    """A row's places held by the object mask (``held``, in order along the row), with
    each place not held between two that are (or at the row's end, beside one that
    is) counted as held: the run of the mask the row was followed along
    (:func:`_run_along_mask`) ends only at :data:`_MASK_GAP` places in a row held too
    little, so a single such place lay on the run already."""
    padded = np.concatenate([[True], held, [True]])
    return held | (padded[:-2] & padded[2:])


def _backs_on_the_mask(
    scoring: Scoring,
    pieces: list[Scored],
    held: np.ndarray,
    size_at: SizeModel,
) -> list[Scored | None]:
    """A row's places between two read tokens, kept as backs though they match
    poorly, where the object mask holds every place (``held``, see
    :func:`_laid_rows`) and each reads as a back.

    A small back's fine rings are wiped out by the blur (23 px backs at their very
    places: 0.41-0.59), so no clear match can be asked of them; but where the mask
    holds every place something lies there, and by the rules a row's middle lies
    face down. Over cloth (the mask empty) a place is kept only on a clear match as
    before. Each must still read as a back at :data:`_ROW_BACK_MIN` and be turned
    down for its match alone, if at all."""
    return [
        s if on and _may_be_back(scoring, s, size_at) else None
        for s, on in zip(pieces, held, strict=True)
    ]


def _may_be_back(scoring: Scoring, s: Scored, size_at: SizeModel) -> bool:
    """A row's place that reads as a back (:data:`_ROW_BACK_MIN`) and is turned down,
    if at all, for its match alone: what every test of a row's poorly matched places
    asks before its own evidence (the mask, the cloth beside it)."""
    reason = scoring.rejection(s, size_at(s.candidate.center))
    fits = reason is None or for_its_match_alone(reason)
    return fits and scoring.is_back(s.group) and s.score >= _ROW_BACK_MIN


def kept_beside(
    scoring: Scoring,
    frame: Frame,
    first: list[Scored],
    least: float,
    kind: np.ndarray,
    size_at: SizeModel,
    outline: bool,
) -> list[Scored]:
    """The cells cut beside recognised pieces that are pieces themselves: a cell there
    is mostly cloth, so only one whose first match (``first``) already reaches
    ``least`` is worth aligning; kept on a clear match (:data:`BESIDE_ACCEPT_MIN`),
    with an outline all round if ``outline``, one per place."""
    aligned = scoring.realigned(frame.pyramid, [s for s in first if s.score >= least], kind)
    kept = kept_settling_ties(scoring, frame, aligned, BESIDE_ACCEPT_MIN, size_at, outline)
    return one_per_place(kept)[0]


def _beside(
    scoring: Scoring, frame: Frame, chosen: list[Scored], size_at: SizeModel, token: bool
) -> list[Scored]:
    """:func:`beside_blocks` for square tiles (``token`` False) or tokens."""
    kind = scoring.token_groups if token else ~scoring.token_groups
    least = scoring.config.accept_token_min if token else BESIDE_FIRST_MIN
    found: list[Scored] = []
    for _ in range(_BESIDE_ROUNDS):
        known = [
            s
            for s in chosen + found
            if s.candidate.round == token
            and kind[s.group]
            and s.score >= scoring.config.size_anchor_score
        ]
        # a tile's cell is looked at though a token was read there: a tile's figure (a
        # ring) may pass for a lone token, turned down only later (neon seed 2024 #10)
        blocking = [s for s in chosen + found if token or not scoring.is_token(s)]
        cells: list[Candidate] = []
        for block in _blocks(known):
            if len(block) < 2:
                continue
            block.sort(key=lambda s: -s.score)
            fitted = fit_lattice([m.candidate.quad for m in block], token)
            if fitted is None:
                continue
            lattice, taken = fitted
            steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
            # a row of tokens goes on along itself only; a line of tiles may be the
            # one column of a block the mask kept whole (the rest is cloth-coloured)
            if token and len({i for i, _ in taken}) == 1:  # along the lattice's columns
                steps = [(0, 1), (0, -1)]
            elif token and len({j for _, j in taken}) == 1:  # ...or along its rows
                steps = [(1, 0), (-1, 0)]
            free = {(i + di, j + dj) for i, j in taken for di, dj in steps} - set(taken)
            for i, j in sorted(free):
                quad = lattice.quad(i, j)
                if clear_of(quad.mean(axis=0), blocking):
                    blob = block[0].candidate.blob
                    cells.append(Candidate(quad, token, blob, _LATTICE_SPLIT))
        if not cells:
            break
        # (a tile's outline is shared with its block: the lattice vouches for it)
        first = scoring.score_structure(frame.pyramid, cells, kind)
        new = kept_beside(scoring, frame, first, least, kind, size_at, token)
        if not new:
            break
        found += new
    return found


def _blocks(pieces: list[Scored]) -> list[list[Scored]]:
    """The pieces grouped into blocks of touching ones (neighbours within
    :data:`_TOUCHING` sides, and their neighbours in turn)."""
    parent = list(range(len(pieces)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(pieces):
        for j in range(i):
            b = pieces[j]
            reach = _TOUCHING * max(a.candidate.side, b.candidate.side)
            if distance(a.candidate.center, b.candidate.center) < reach:
                parent[root(i)] = root(j)
    blocks: dict[int, list[Scored]] = {}
    for i, piece in enumerate(pieces):
        blocks.setdefault(root(i), []).append(piece)
    return list(blocks.values())


def _cells_of(lattice: Lattice, pieces: list[Candidate]) -> list[tuple[int, int]]:
    """The lattice cell each piece's centre lies in (all solved in one call)."""
    indices = np.rint(lattice.indices_of(np.array([c.center for c in pieces])))
    return [(int(i), int(j)) for i, j in indices.tolist()]


def row_ends(
    scoring: Scoring, frame: Frame, chosen: list[Scored], size_at: SizeModel | None
) -> list[Scored]:
    """``chosen`` with the face-up end one step past a row's outermost back, where
    nothing was read or only a round tile, which the end then replaces.

    By the rules a back lies in a row's middle, with a token on either side; a back
    read with a token beside it on one side only has its row's end on the other,
    face up. A white end whose figure is white too is a plain disc, which on a pale
    table leaves the mask and matches its face poorly (white ends there: 0.36-0.67,
    against 0.65 for a token the mask found). Each such place, one step on along the
    line from the neighbour through the back, is cut at that step and the back's tilt,
    aligned among the tokens, and kept where it reads as a face at
    :data:`_ROW_END_FACE_MIN` near its place (:data:`_ROW_END_DRIFT`; naming still
    asks it to end a row, :func:`vision.token_rows.ends_among_unsure`, if it reads
    unsurely). A white end on a cloth of another colour, cut with a ring of the cloth
    round it a third larger than its row's tokens, matches a tile whose figure is
    white on that colour better than its own face (ring seed 7 #3: a white end on a
    red check read as a red garlic); but nothing else lies where a row's end must,
    and cut there at the row's step it reads as the white face it is.
    """
    if size_at is None or scoring.model.round is None:
        return chosen
    tokens, centres, sides = _round_tokens(scoring, chosen)
    candidates: list[Candidate] = []
    on_place: list[list[Scored]] = []  # the round tiles read where each end is cut...
    besides: list[list[Scored]] = []  # ...and every other chosen piece
    for k, s in enumerate(tokens):
        if not scoring.is_back(s.group):
            continue
        beside = _one_beside(centres, sides, k)
        if beside is None:
            continue
        n, apart = beside
        place = 2 * centres[k] - centres[n]
        on = [t for t in chosen if not clear_of(place, [t])]
        others = [t for t in chosen if all(t is not o for o in on)]
        if all(_gives_way(scoring, t, others) for t in on):
            quad = shaped_like([s.candidate], place, apart)
            blob = -1 - len(candidates)
            candidates.append(Candidate(quad=quad, round=True, blob=blob, split=_ROW_SPLIT))
            on_place.append(on)
            besides.append(others)
    if not candidates:
        return chosen
    kind = scoring.token_groups
    aligned = scoring.read(frame.pyramid, candidates, kind)
    found: list[Scored] = []
    for s, c, others in zip(aligned, candidates, besides, strict=True):
        if (
            s.score >= _ROW_END_FACE_MIN
            and not scoring.is_back(s.group)
            and distance(s.candidate.center, c.center) <= _ROW_END_DRIFT * c.side
            and clear_of(s.candidate.center, others)
        ):
            found.append(s)
    ends = one_per_place(found)[0]
    replaced = {
        id(t)
        for s, on in zip(aligned, on_place, strict=True)
        if any(s is e for e in ends)
        for t in on
    }
    return [t for t in chosen if id(t) not in replaced] + ends


def _round_tokens(
    scoring: Scoring, chosen: list[Scored]
) -> tuple[list[Scored], np.ndarray, np.ndarray]:
    """The round tokens among ``chosen``, their centres (N×2) and their sides, which
    the searches along a row start from."""
    tokens = [s for s in chosen if scoring.is_token(s) and s.candidate.round]
    centres = np.array([s.candidate.center for s in tokens], np.float64).reshape(-1, 2)
    return tokens, centres, np.array([s.candidate.side for s in tokens])
