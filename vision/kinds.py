"""Tokens told from tiles by their size and their company, where their artwork alone is
unsure.

A token and a tile can match each other's faces (a token cut with a ring of table
round it, a tile's figure left alone by a cloth of its colour); the frame's other
pieces can tell: how large its clear tokens are (:func:`kind_by_size`), whether a
tile could lie beside its row's tokens (:func:`no_room_for_tile`), whether a token
lies in a row at all (:func:`tokens_in_company`). Part of stage 4 of
:mod:`vision.recogniser`: :func:`tokens_fitted` before the splits are chosen,
:func:`kind_by_size` while they are, :func:`tokens_in_company` after the searches.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from vision.candidates import Candidate
from vision.frame import Frame
from vision.matching import match_structure
from vision.numeric import median_of
from vision.outlines import fitted_to_edge
from vision.pieces import Scored, SizeModel, clear_of, distance, grouped_by_split, scaled_quad
from vision.rectify import Pyramid, quad_from_ellipse
from vision.results import RejectedCandidate, TokenDetection
from vision.scoring import CLEAR_LEAD, Scoring
from vision.searches.edges import outlined
from vision.shapes import rim_ellipse_near
from vision.token_row_cuts import finer_sized
from vision.token_rows import OPPOSITE, STEP_RANGE, STRAIGHT, a_step_from, row_middles

#: A token with no other token within this many diameters (centre to centre) lies
#: alone: not in a player's row, even one with a token between not read.
#: A lone token this share of the frame's token size or larger (up to the geometric
#: middle of a token's and a tile's size) is not read again as a tile.
_TOKEN_SIZED = 0.85
_LONE_REACH = 2.6
#: Tokens this much smaller than tiles (or more) are told from tiles by size too.
_KINDS_APART = 0.15
#: A row's step between two cuts' sizes, not their rims', is forgiven this much short
#: or long (:func:`row_ends_by_size`).
_CUT_STEP_SLACK = (0.8, 1.2)
#: Touching pieces lie half their sizes apart; nearer than this share of it, one of them
#: is not there (a cut a little large, a token's halo in the mask, is forgiven).
_ROOM_SHARE = 0.9
#: A row's discs cut from the mask come this much larger (the mask swells a dark disc
#: by the photo's blur) or smaller than its tokens (:func:`_token_sized_row`).
_ROW_CUT_SLACK = 1.3
#: A rim cut this much larger or smaller than the frame's clear tokens is no token's
#: (:func:`_rim_cuts`).
_RIM_SIZE_SLACK = 1.2
#: A faint row's pieces are no larger than this share of the frame's clear tiles
#: (:func:`_faint_row`).
_TOKEN_CUT_LARGEST = 0.9
#: A piece is a token's size in pixels within this (log) share of the frame's clear
#: tokens (:func:`_token_sized_in_pixels`); a token is cut to about a twentieth.
_SAME_PIXELS = 0.05
#: A "token" under this share of the frame's tokens' size, measured against the tile size
#: where it lies and in pixels alike, is no token (:func:`under_token_size`).
_TOKEN_LEAST = 0.6


def tokens_fitted(scoring: Scoring, frame: Frame, scored: list[Scored]) -> list[Scored]:
    """The disc pieces of split blobs that match no token well, cut again along
    their rims (as lone pieces are from the start) and kept where that matches
    better.

    The mask swells dark discs by the photo's blur, and pieces cut from it are too
    large to match: a row of dark backs on a pale table, cut 20 % large, matched
    0.38-0.63, and 0.66-0.81 at their size. Those still poor are also cut at sizes
    and places a few per cent apart (:func:`vision.token_row_cuts.finer_sized`): a
    back of fine rings matches only within about 3 % of its size. Only in splits
    that read as a row of tokens (:func:`_token_row`), in a square or a round set: a
    round set's packed tiles, fitted so, lost more hearts than they won (a rim among
    others steps weakly), but a split with a clear tile is no row. Only the poor
    matches, as a fit costs a quarter of a millisecond a piece (the finer cuts 1.5 ms).

    Each is also cut along its own rim's ellipse (:func:`_rim_cuts`): a tilted table
    squeezes every token. And a row on a tilted table may show no clear piece at all;
    splits of three or more token-sized discs in a line, none clearly a tile, are
    fitted too (:func:`_faint_row`, :func:`_token_sized_row`), without the finer cuts.
    """
    # promising (as for alignment) but poor: a die's pip cut as a disc matched
    # nothing (-0.05), and once fitted to its edge, a white token (0.78)
    lowest, least = scoring.config.align_min_score, scoring.config.accept_token_min
    poor = [
        i
        for i, s in enumerate(scored)
        if s.candidate.round and s.candidate.split > 0 and lowest <= s.score < least
    ]
    if not poor:
        return scored
    # and only in splits read as tokens throughout, one of them clearly (a row, its
    # pale ends read), not a block of tiles, a card or the mat cut into discs, whose
    # poor pieces are many (2-3 ms a frame fitted)
    clear = scoring.config.size_anchor_score
    token_side, tile_side = token_side_of(scoring, scored), _clear_tile_side(scoring, scored)
    splits = grouped_by_split(scored)
    rows = {
        key
        for key, members in splits.items()
        if _token_row([scoring.is_token(s) for s in members], [s.score for s in members], clear)
    }
    # rows none of whose pieces reads clearly are fitted to their rims only: the finer
    # sizes cost 1.5 ms a piece, and such splits are as often the mat cut into discs
    unclear = {
        key
        for key, members in splits.items()
        if key not in rows
        and (
            _faint_row(scoring, members, tile_side)
            or _token_sized_row(scoring, members, token_side, tile_side)
        )
    }
    poor = [
        i for i in poor if (scored[i].candidate.blob, scored[i].candidate.split) in rows | unclear
    ]
    if not poor:
        return scored
    framed = scoring.framed[True]
    firsts = [scored[i].cut or scored[i].candidate for i in poor]
    cuts = [replace(c, quad=fitted_to_edge(frame.image, c.quad, True, framed)) for c in firsts]
    discs = [s for s in scored if s.candidate.round and scoring.is_token(s)]
    middles = [_between_two(c, discs) for c in firsts]
    rims = _rim_cuts(frame, firsts, token_side)
    cuts, again = _best_of_cuts(scoring, frame, cuts, rims, middles)
    finer = [
        k
        for k, i in enumerate(poor)
        if (scored[i].candidate.blob, scored[i].candidate.split) in rows
    ]
    refined = finer_sized(
        scoring, frame.pyramid, [cuts[k] for k in finer], [again[k] for k in finer]
    )
    for k, s in zip(finer, refined, strict=True):
        again[k] = s
    out = list(scored)
    for i, s in zip(poor, again, strict=True):
        if s.score > out[i].score:
            out[i] = s
    return out


def _rim_cuts(
    frame: Frame, firsts: list[Candidate], token_side: float | None
) -> list[Candidate | None]:
    """Each disc piece cut along its own rim's ellipse (None where no rim shows).

    A split cuts a row's tokens as circles, but a tilted table squeezes every disc into
    an ellipse up to a fifth narrower than it is long, and a circle cut round it
    squeezes the face: a row of backs of two pale rings (``banner``, tilted 35°) matched
    0.47-0.55 cut as circles of the right size and 0.63-0.78 along their ellipses. The
    rim is read in the full frame, where a 30 px token's edge is still a clear step.
    Where the frame's clear tokens say how large a token is (``token_side``), a rim
    further from that than :data:`_RIM_SIZE_SLACK` is another's, or two tokens' edges
    (``nocturne``: a rim 1.35 times a token round a back and its row's end)."""
    out: list[Candidate | None] = []
    for c in firsts:
        rim = rim_ellipse_near(frame.image, c.quad.mean(axis=0), c.side / 2)
        if rim is not None and token_side is not None:
            ratio = sum(rim[1]) / 2 / token_side
            rim = rim if 1 / _RIM_SIZE_SLACK <= ratio <= _RIM_SIZE_SLACK else None
        out.append(None if rim is None else replace(c, quad=quad_from_ellipse(*rim)))
    return out


def _best_of_cuts(
    scoring: Scoring,
    frame: Frame,
    cuts: list[Candidate],
    others: list[Candidate | None],
    middles: list[bool],
) -> tuple[list[Candidate], list[Scored]]:
    """Each piece's cut in ``cuts`` or its other cut (where there is one), aligned and
    matched in one batch: the other where it clearly reads as a token, better than the
    first reads as anything, and the cut it came from.

    The other cut is matched against the tokens only: these are a row's pieces, and a
    back cut along its faint rim can match a tile whose figure is a ring better than
    its own back (``seal``: backs on a brown table read as maidens 0.66-0.77, as backs
    0.70-0.79). By the rules a row's middle holds backs (``middles``: the pieces lying
    between two others read as tokens), and a face read there is a cut between two
    tokens (``nocturne``: a rim fitted a quarter of a token off a back's centre, on the
    edges of two, read as a face 0.73), which the row's even steps cut again later."""
    extra = [k for k, o in enumerate(others) if o is not None]
    pyramid, tokens = frame.pyramid, scoring.token_groups
    best = scoring.read(pyramid, cuts)
    rims = [o for o in others if o is not None]
    as_tokens = scoring.read(pyramid, rims, tokens)
    least = scoring.config.accept_token_min
    best_cuts = list(cuts)
    for k, cut, other in zip(extra, rims, as_tokens, strict=True):
        if middles[k] and not scoring.is_back(other.group):
            continue
        if other.score >= max(best[k].score, least):
            best_cuts[k], best[k] = cut, other
    return best_cuts, best


def _between_two(piece: Candidate, members: list[Scored]) -> bool:
    """Whether pieces read as tokens lie on two opposite sides of ``piece``
    (:data:`vision.token_rows.OPPOSITE`), each within :data:`_LONE_REACH` of its sizes (a
    row with one token between not read), from any split, as a cloth can break a row's
    blob into parts."""
    centre = np.asarray(piece.center, np.float64)
    reach = _LONE_REACH * piece.side
    offsets = [
        np.asarray(s.candidate.center, np.float64) - centre
        for s in members
        if 0.3 * piece.side < distance(s.candidate.center, piece.center) <= reach
    ]
    units = [o / np.linalg.norm(o) for o in offsets]
    return any(float(a @ b) <= OPPOSITE for a in units for b in units)


def token_ratio_of(scoring: Scoring, pieces: list[Scored], size_at: SizeModel) -> float | None:
    """How large the frame's tokens are, as a share of a tile's size there: the
    median of its clear token matches (None with fewer than two)."""
    ratios = [
        s.candidate.side / size_at(s.candidate.center)
        for s in pieces
        if scoring.is_token(s) and s.score >= scoring.config.size_anchor_score
    ]
    return median_of(ratios) if len(ratios) >= 2 else None


def token_side_of(scoring: Scoring, pieces: list[Scored]) -> float | None:
    """How large the frame's tokens are in pixels: the median side of its clear token
    matches (None with fewer than two), as :func:`token_ratio_of` counts them."""
    sides = [
        s.candidate.side
        for s in pieces
        if scoring.is_token(s) and s.score >= scoring.config.size_anchor_score
    ]
    return median_of(sides) if len(sides) >= 2 else None


def under_token_size(
    piece: Scored, token_ratio: float, token_side: float, size_at: SizeModel
) -> bool:
    """Whether a piece read as a token is far smaller than the frame's tokens (under
    :data:`_TOKEN_LEAST` of them) both as a share of a tile's size where it lies and in
    pixels: no token of the set is that small, but a bit of a tile's figure or checks is.

    Tokens are all one size on the table, so a token's size beside a tile's where it
    lies (:func:`token_ratio_of`) is the same across a tilted frame, as far as the tile
    size there is known; where the frame's tiles fit that size poorly, a token's size in
    pixels still holds (the camera's tilt changes it far less than twofold). On 22
    styles' hard photos real tokens came to 0.60-1.42 of the frame's tokens by the
    first measure and 0.65-1.30 by the second, never both under 0.68; the checks of a
    blue tile on a red gingham cut as three discs (quilt seed 7 #3) came to 0.48-0.54
    and 0.50-0.56, matching a token at 0.61-0.83.
    """
    c = piece.candidate
    ratio = c.side / size_at(c.center)
    return ratio < _TOKEN_LEAST * token_ratio and c.side < _TOKEN_LEAST * token_side


def no_token_size(scoring: Scoring, token_ratio: float | None) -> bool:
    """Whether the frame's clear tokens give no token size of their own where the set
    draws its tiles like its tokens (:attr:`Scoring.tiles_pass_for_tokens`): none read,
    or about a tile's size (:data:`_KINDS_APART`).

    Tokens and tiles differ in size on a table, so tokens a tile's size are the set's
    tiles taken for tokens by their faces (``wax``: a seal in the colour, tile and
    token alike; on seed 2024 #8 and #10, with no token on the table, 16 tiles read as
    tokens 1.0-1.1 times the frame's clear tiles, the frame's "tokens" 1.05 and 1.1 of
    them). Such a frame's tokens are judged against the nearest size a token can have,
    :data:`_KINDS_APART` under a tile's, and only as tiles: a piece nearer a tile's
    size is read again among the tiles alone, while nothing is read as a token by a
    size the frame does not show.
    """
    if not scoring.tiles_pass_for_tokens:
        return False
    return token_ratio is None or token_ratio >= 1 - _KINDS_APART


def kind_by_size(
    scoring: Scoring, pyramid: Pyramid, scored: list[Scored], best: list[Scored], size_at: SizeModel
) -> list[Scored]:
    """Tokens and tiles told apart by size where their artwork alone is unsure.

    A small, blurred tile can look more like a token than like its own face. The
    tile set does not say how large its tokens are, but the frame does: the clear
    token matches give their size relative to the tiles'. Where the two differ
    enough, a piece that matched one kind at the other kind's size is matched
    again against that other kind only; so is a "tile" in a blob whose clear
    pieces are all tokens (a row of tokens, one of them cut too large).
    """
    token_ratio = token_ratio_of(scoring, best, size_at)
    by_size = token_ratio is not None and 0.3 < token_ratio < 1 - _KINDS_APART
    # tokens the size of the frame's tiles: "tokens" read as tiles, judged as tiles only
    tiles_only = no_token_size(scoring, token_ratio)  # never with by_size
    if tiles_only:
        token_ratio = 1 - _KINDS_APART
    crowded = no_room_for_tile(scoring, scored, size_at)
    if not by_size and not tiles_only and not crowded:
        return scored
    token_groups = scoring.token_groups
    tile_groups = ~token_groups
    clear: dict[int, list[bool]] = {}
    for s in best:
        if s.score >= scoring.config.size_anchor_score:
            clear.setdefault(s.candidate.blob, []).append(scoring.is_token(s))
    token_rows = {blob for blob, kinds in clear.items() if sum(kinds) >= 2 and all(kinds)}
    token_side = token_side_of(scoring, best)
    with_clear_token = _splits_with_a_clear_token(scoring, scored)
    unsure: set[int] = set()  # undecided by the size model, a token's size in pixels
    out = list(scored)
    for round_ in (False, True):
        bank = scoring.model.bank(round_)
        wrong: list[tuple[int, np.ndarray]] = []
        for i, s in enumerate(scored):
            if s.candidate.round != round_:
                continue
            if i in crowded:
                wrong.append((i, token_groups))
                continue
            if not by_size and not (tiles_only and scoring.is_token(s)):
                continue
            ratio = s.candidate.side / size_at(s.candidate.center)
            # the geometric middle of the two sizes, with a margin either side
            middle = math.log(ratio) - math.log(token_ratio) / 2
            if s.candidate.blob in token_rows:
                middle = min(middle, -_KINDS_APART)  # a row of tokens holds tokens
            if abs(middle) < _KINDS_APART / 2:
                in_row = (s.candidate.blob, s.candidate.split) in with_clear_token
                if by_size and in_row and _token_sized_in_pixels(scoring, s, token_side):
                    wrong.append((i, token_groups))
                    unsure.add(i)
                continue
            tile_sized = middle > 0
            if tile_sized == scoring.is_token(s):
                wrong.append((i, tile_groups if tile_sized else token_groups))
        if bank is None or not wrong:
            continue
        for allowed in (tile_groups, token_groups):
            batch = [i for i, a in wrong if a is allowed]
            if not batch:
                continue
            patches = np.stack([scored[i].patch for i in batch])
            matches = match_structure(
                patches, bank, len(scoring.model.groups), core_only=False, allowed=allowed
            )
            # a token-sized "tile" is a token or nothing (or a row cut badly, whose
            # split should lose); a tile-sized "token" may be a token cut too large,
            # so it only becomes a tile on a good match, also tried from the piece
            # as first cut: aligned as a token, a tile may have slid off (its pale
            # disc on a dark table aligns as a token's ring)
            if allowed is tile_groups:
                least = scoring.config.accept_structure_min
                cuts = [scored[i].cut or scored[i].candidate for i in batch]
                first = scoring.score_structure(pyramid, cuts, allowed)
                again = scoring.realigned(pyramid, first, allowed)
            else:
                least = -1.0
                again = [scored[i] for i in batch]
            for i, match, s in zip(batch, matches, again, strict=True):
                kept = scored[i]
                if match.score >= s.score or allowed is token_groups:
                    s = Scored(kept.candidate, kept.patch, match, kept.cut)
                if s.score >= (scoring.config.accept_token_min if i in unsure else least):
                    c = s.candidate
                    k = kept.candidate
                    where = Candidate(c.quad, c.round, k.blob, k.split, k.cover)
                    out[i] = Scored(where, s.patch, s.match, s.cut)
    return out


def _token_sized_in_pixels(scoring: Scoring, s: Scored, token_side: float | None) -> bool:
    """Whether a piece read as a tile is as large as the frame's clear tokens in pixels
    (within :data:`_SAME_PIXELS`), where the size model leaves it between the kinds.

    The size model is a plane fitted to the frame's tiles, short of the truth far from
    them: a row's blue end in a far corner, cut at 29.7 px as the frame's clear tokens
    are (29-30 px), came to 0.845 of the model's tile there where the tokens are 0.705,
    in the middle of the two; read as a tile, it left its row's other end alone and the
    row unread (cabochon seed 2024 #9). It is then read among the tokens, and kept as
    one only where it matches a token as well as a token must."""
    if token_side is None or scoring.is_token(s):
        return False
    return abs(math.log(s.candidate.side / token_side)) <= _SAME_PIXELS


def _splits_with_a_clear_token(scoring: Scoring, scored: list[Scored]) -> set[tuple[int, int]]:
    """The splits (blob, split) that hold a clear token (one a size is read from).

    A piece the size model leaves between the kinds is read among the tokens only in
    such a split, a row it may end: in a blob cut into pieces of many sizes with no
    clear token, its match decides (clock seed 2024 #9: a row's white end, 0.79 as a
    tile beside "tokens" of 0.34-0.62, read as a token made that split win over a
    better one, and two tokens were lost)."""
    least = scoring.config.size_anchor_score
    return {
        (s.candidate.blob, s.candidate.split)
        for s in scored
        if scoring.is_token(s) and s.score >= least
    }


def no_room_for_tile(scoring: Scoring, scored: list[Scored], size_at: SizeModel) -> set[int]:
    """The pieces read as tiles where no tile fits: closer to a token of their own
    split than a tile of this frame's size could lie beside it; also the tokens
    there whose nearest rival, by a hair, is a tile.

    A token with a ring of table round it, cut at a tile's size, matches a tile
    whose face is a coloured ring (0.92-0.93 as a garlic, against 0.90 as a token);
    its artwork cannot tell, but its neighbours in the row can. Touching objects
    lie half their sizes apart; a tile's size is known here, a token's is its
    piece's (its match says it is one).
    """
    least = scoring.config.accept_token_min
    is_token = scoring.token_groups[[s.group for s in scored]].tolist()
    tokens: dict[tuple[int, int], list[Scored]] = {}
    pieces: dict[tuple[int, int], int] = {}
    for s, token in zip(scored, is_token, strict=True):
        key = (s.candidate.blob, s.candidate.split)
        pieces[key] = pieces.get(key, 0) + 1
        if token and s.score >= least:
            tokens.setdefault(key, []).append(s)
    # a row: half its pieces or more read as tokens (not a block of tiles where a
    # figure matched a token, whose tiles are many)
    tokens = {k: v for k, v in tokens.items() if 2 * len(v) >= pieces[k]}
    crowded: set[int] = set()
    if not tokens:
        return crowded
    for i, (s, token) in enumerate(zip(scored, is_token, strict=True)):
        c = s.candidate
        near = tokens.get((c.blob, c.split))
        # a token whose nearest rival is a tile by a hair is crowded out of it too
        # (a yellow token at a row's end: 0.93, a tile 0.91, turned down as unsure)
        if near is None or (
            token and (s.margin >= CLEAR_LEAD or scoring.token_groups[s.match.runner])
        ):
            continue
        tile = size_at(c.center)
        if any(
            distance(c.center, t.candidate.center) < _ROOM_SHARE * (tile + t.candidate.side) / 2
            for t in near
            if t is not s
        ):
            crowded.add(i)
    return crowded


def tokens_in_company(
    scoring: Scoring, frame: Frame, chosen: list[Scored], size_at: SizeModel | None
) -> tuple[list[Scored], list[RejectedCandidate]]:
    """The chosen pieces, less the tokens lying alone (see :data:`_LONE_REACH`) that
    match a token's face only loosely, and those far smaller than the frame's tokens
    (:func:`under_token_size`): each is a tile where it clearly matches one
    (:func:`as_tile`), else turned down.

    Tokens lie in players' rows; one alone on the table is rare, and what else is
    token-sized and round enough lies alone: a die on a dark table (a pale square
    with dark pips, blurred, aligns as a back), a piece of the deposit mat's print,
    a tile's figure where a cloth of its colour hid the tile, a tile aligned as a
    back. On six styles' hard photos the pieces read as tokens alone were 23 such
    things, matched 0.65-0.79 (and two pieces of the mat cut at a tile's size, 0.89
    and 0.93), and one real token, matched 0.86; in rows, 1424 real tokens and 10
    others.
    """
    tokens = [s for s in chosen if scoring.is_token(s)]
    least = scoring.config.lone_token_min
    token_ratio = token_ratio_of(scoring, chosen, size_at) if size_at else None
    token_side = token_side_of(scoring, chosen)
    kept: list[Scored] = []
    turned: list[RejectedCandidate] = []
    # (only where the frame's tokens are clearly smaller than its tiles)
    apart = token_ratio is not None and token_ratio < 1 - _KINDS_APART
    square_tiles = apart and scoring.tileset.has_tiles and scoring.tileset.tile_shape != "round"
    # tokens the size of the frame's tiles: "tokens" read as tiles, judged as tiles only
    tiles_only = size_at is not None and no_token_size(scoring, token_ratio)  # never apart
    if tiles_only:
        token_ratio = 1 - _KINDS_APART
    for s in chosen:
        if not scoring.is_token(s):
            kept.append(s)
            continue
        first = s.cut or s.candidate
        ratio = first.side / size_at(first.center) if size_at else 1.0
        # a square tile whose cloth-coloured ground the mask lost, cut as the disc
        # of its figure's ground at a tile's size or larger (1.1-1.2 of it, where
        # the frame's tokens were 0.71; tokens cut large with table round them were
        # 0.87-0.91, 1.2 times the frame's tokens), is read again as a tile too
        # (past the geometric middle of the two sizes, as token_sized below)
        tile_sized = (square_tiles and ratio >= 1.0) or (
            tiles_only and ratio >= math.sqrt(token_ratio)
        )
        lone = s.score < least and (_alone(s, tokens) or _loose_pair(s, tokens, least, token_side))
        small = (
            size_at is not None
            and token_ratio is not None
            and token_side is not None
            and under_token_size(s, token_ratio, token_side, size_at)
        )
        if not (lone or tile_sized or small):
            kept.append(s)
            continue
        # a piece as large as the frame's own tokens (nearer their size than a
        # tile's) is a token cut with some table round it, which can pass for a tile
        # in the table's colour; a tile the mask left only the figure of is smaller
        token_sized = token_ratio is not None and (
            _TOKEN_SIZED * token_ratio <= ratio < math.sqrt(token_ratio)
        )
        # a tile its faces could not tell from a token may tie two motifs too: it is a
        # tile all the same, whose motif the doubts judge where the motifs differ
        tile = None if token_sized else as_tile(scoring, frame, s, size_at, tiles_only)
        if tile is not None and clear_of(tile.candidate.center, kept):
            kept.append(tile)
            continue
        if not (lone or small):
            kept.append(s)  # no tile there: a token cut too large
            continue
        c = s.candidate
        reason = f"a token alone, not in a row, matched only {s.score:.2f}"
        if small:
            reason = f"a token far smaller than the frame's tokens ({c.side:.0f} px)"
        turned.append(RejectedCandidate(c.center, c.polygon(), reason))
    return kept, turned


def as_tile(
    scoring: Scoring,
    frame: Frame,
    s: Scored,
    size_at: SizeModel | None,
    ties: bool = False,
) -> Scored | None:
    """A piece first read as a token, read again as a tile: cut as one (a round
    tile from where the piece was first cut and where it was aligned; a square
    tile where the edges show its outline best), and kept only on a clear match
    (:attr:`VisionConfig.sure_tile_min`) of a tile's size. A round tile on a
    wooden table aligns as a token's back (0.67) and matches its own face at 0.96
    once cut again; dice, the mat's print and token-sized figures matched a tile
    at 0.62 at most. With ``ties``, a match that only ties two motifs is kept too
    (the piece's size says it is a tile, whatever its motif)."""
    if size_at is None or not scoring.tileset.has_tiles:
        return None
    best = _cut_as_tile(scoring, frame, s, size_at)
    if best is None or best.score < scoring.config.sure_tile_min:
        return None
    judged = replace(best, match=replace(best.match, margin=CLEAR_LEAD)) if ties else best
    return best if scoring.rejection(judged, size_at(s.candidate.center)) is None else None


def _cut_as_tile(scoring: Scoring, frame: Frame, s: Scored, size_at: SizeModel) -> Scored | None:
    """Piece ``s`` cut again as a tile and matched among the tile faces alone, aligned:
    a round tile from where the piece was first cut and where it was aligned, a square
    tile where the edges show its outline best (None where they show none). The best
    reading, however poor; its callers judge it."""
    c = s.candidate
    if scoring.tileset.tile_shape == "round":
        cuts = [s.cut or c, c]
    else:
        square = outlined(scoring, frame, np.array(c.center), size_at(c.center))
        if square is None:
            return None
        cuts = [Candidate(square.astype(np.float32), False, c.blob, c.split, c.cover)]
    tiles = ~scoring.token_groups
    again = scoring.read(frame.pyramid, cuts, tiles)
    return max(again, key=lambda t: t.score)


def _token_row(is_token: list[bool], scores: list[float], clear: float) -> bool:
    """Whether a split's pieces read as a row of tokens: some clearly (its face-up
    ends), none clearly as a tile; its poor pieces may read as anything (a back cut
    too large matches a tile's figure better than its own rings)."""
    clearly = [t for t, score in zip(is_token, scores, strict=True) if score >= clear]
    return bool(clearly) and all(clearly)


def _faint_row(scoring: Scoring, members: list[Scored], tile_side: float | None) -> bool:
    """Whether a split's pieces are discs in one line (:func:`_discs_in_a_line`), none
    read clearly, all read as tokens: on a tilted table a row of pale faces and finely
    ringed backs, each cut as a circle, matches nothing well (``banner``: 0.0-0.3 as
    first cut, with no clear token in the frame), but its pieces still look more like
    tokens than tiles."""
    clear = scoring.config.size_anchor_score
    if any(s.score >= clear or not scoring.is_token(s) for s in members):
        return False
    return _discs_in_a_line(members, tile_side)


def _discs_in_a_line(members: list[Scored], tile_side: float | None) -> bool:
    """Whether a split's pieces are three or more discs in one line
    (:data:`vision.token_rows.STRAIGHT`), smaller than the frame's clear tiles
    (``tile_side``; a token is, cut up to a fifth large: :data:`_TOKEN_CUT_LARGEST` of
    it). A block of tiles cut into discs lies in a grid, the mat or a card cut into
    discs in pieces as large as a tile or larger."""
    if len(members) < 3 or not all(s.candidate.round for s in members):
        return False
    side = median_of([s.candidate.side for s in members])
    if tile_side is not None and side > _TOKEN_CUT_LARGEST * tile_side:
        return False
    centres = np.array([s.candidate.center for s in members], np.float64)
    middle = centres.mean(axis=0)
    across = (centres - middle) @ np.linalg.svd(centres - middle)[2][1]
    return float(np.abs(across).max()) <= STRAIGHT * side


def _clear_tile_side(scoring: Scoring, pieces: list[Scored]) -> float | None:
    """The median side of the clear tile matches (``sure_tile_min``), or None with
    fewer than two."""
    least = scoring.config.sure_tile_min
    sides = [s.candidate.side for s in pieces if s.score >= least and not scoring.is_token(s)]
    return median_of(sides) if len(sides) >= 2 else None


def _token_sized_row(
    scoring: Scoring, members: list[Scored], token_side: float | None, tile_side: float | None
) -> bool:
    """Whether a split's pieces are three or more discs in one line (as
    :func:`_faint_row` asks) the size of the frame's clear tokens
    (:func:`token_side_of`, as cut from the mask: up to :data:`_ROW_CUT_SLACK` larger or
    smaller), none clearly a tile: a row whose pieces all read poorly, some perhaps as
    tiles. On a tilted table a row of finely ringed backs between two pale faces, each
    cut as a circle, can match a tile whose figure is a ring better than its own back
    (``seal``: the backs read as maidens 0.4-0.6, the faces as nothing), while the
    frame's other rows say how large its tokens are."""
    if token_side is None or not _discs_in_a_line(members, tile_side):
        return False
    clear = scoring.config.size_anchor_score
    if any(s.score >= clear and not scoring.is_token(s) for s in members):
        return False
    ratio = median_of([s.candidate.side for s in members]) / token_side
    return 1 / _ROW_CUT_SLACK <= ratio <= _ROW_CUT_SLACK


def _loose_pair(
    piece: Scored, tokens: list[Scored], least: float, token_side: float | None = None
) -> bool:
    """Whether ``piece`` and one other of ``tokens`` lie together with no third within
    :data:`_LONE_REACH` diameters of either, a gap apart (further than a row's step,
    :data:`vision.token_rows.STEP_RANGE`), the other also matched under ``least``: two
    dice on a dark table (pale squares with dark pips, each aligned as a token 0.77,
    1.9 of their sizes apart) keep each other company as a row's two ends with its
    middle unread would. Two tokens side by side are left alone: a row's end whose
    rest was not read (``seal``: a white face and the back beside it, 0.7 each).
    Whether they lie side by side is judged at the frame's token size too
    (``token_side``, where known): a pale face and a back on a pale cloth are cut
    smaller than they are (``clock`` seed 2024 #9: 25 and 27 px, the frame's tokens
    30 px, 31.6 px apart: side by side, not a gap)."""
    company = _company(piece, tokens)
    if len(company) != 1:
        return False
    other = company[0]
    back = _company(other, tokens)
    c, o = piece.candidate, other.candidate
    size = max((c.side + o.side) / 2, token_side or 0.0)
    gap = distance(c.center, o.center) > STEP_RANGE[1] * size
    return gap and other.score < least and len(back) == 1 and back[0] is piece


def _company(piece: Scored, tokens: list[Scored]) -> list[Scored]:
    """The other ``tokens`` within :data:`_LONE_REACH` diameters of ``piece``."""
    c = piece.candidate
    return [
        o
        for o in tokens
        if o is not piece
        and distance(c.center, o.candidate.center) <= _LONE_REACH * (c.side + o.candidate.side) / 2
    ]


def _alone(piece: Scored, tokens: list[Scored]) -> bool:
    """Whether no other of ``tokens`` lies within :data:`_LONE_REACH` diameters of
    ``piece``."""
    return not _company(piece, tokens)


#: A token reading whose colour its own faces leave this share of unexplained, or more,
#: is doubted (:func:`tiles_by_colour`): true tiles' chosen colour misfit came to 0.086
#: at the median and 0.34 at the 99th percentile over 11,599 pieces of all styles.
_TOKEN_MISFIT_DOUBT = 0.34
#: Two tile motifs tied in structure are told by colour where one's misfit is this many
#: times the other's or more (:func:`_tile_reading`).
_TIE_MISFIT_RATIO = 1.5


def tiles_by_colour(
    scoring: Scoring,
    frame: Frame,
    chosen: list[Scored],
    size_at: SizeModel | None,
    misfits: Callable[[list[Scored], list[Scored]], np.ndarray],
) -> list[Scored]:
    """The chosen pieces, each token whose colour no token face explains read again
    among the tile faces alone (:func:`_tile_reading`), and kept as a tile where that
    reading is clear and fits its colour better.

    Structure is grey: a round tile whose outline is a thick ring (an embroidered
    patch's satin edge) matches the tokens' back, ringed too, better than its own
    motif (stitch seed 7 #2: by 0.08-0.16, 8 of 15 tiles read as backs), and as tokens
    are about the tiles' size here, size cannot tell. The back's colours (linen, a navy
    ring) left 0.41-0.95 of such a piece unexplained (:data:`_TOKEN_MISFIT_DOUBT`), a
    tile's reading 0.07-0.35. A real back in a row's middle fits its own colours
    (``misfits``: see :meth:`vision.naming.Naming.misfits`; 0.11-0.24 on stitch). Where
    no token face is read clearly (``lone_token_min``) the frame holds no player's row,
    which shows faces at its ends, and every token is doubted, however well its colour
    fits (stitch's tiles read as backs there fitted the back at 0.22-0.33 too). Where
    faces are read, a token in a row's middle (:func:`vision.token_rows.row_middles`)
    lies face down by the rules and is left a back: a real back there, JPEG-saved,
    misfitted 0.355 and tied two tile motifs (stitch seed 2024 #3)."""
    doubted = [i for i, s in enumerate(chosen) if scoring.is_token(s)]
    if not doubted or size_at is None or not scoring.tileset.has_tiles:
        return chosen
    own = misfits(chosen, [chosen[i] for i in doubted])
    # a player's row is face up at its ends: where no face is read clearly, no row lies
    # here, and every "token" is in doubt
    least = scoring.config.lone_token_min
    rows = any(
        not scoring.is_back(s.group) and s.score >= least for s in (chosen[i] for i in doubted)
    )
    doubt = _TOKEN_MISFIT_DOUBT if rows else 0.0
    # ...and a token in a row's middle lies face down: a back there is a back
    at = [
        TokenDetection(None, False, chosen[i].candidate.center, chosen[i].candidate.polygon(), 1.0)
        for i in doubted
    ]
    middles = {doubted[k] for k in row_middles(at)} if rows else set()
    ends = row_ends_by_size(scoring, chosen, doubted, size_at) if rows else set()
    out = list(chosen)
    for i, misfit in zip(doubted, own, strict=True):
        if not misfit >= doubt or i in middles or i in ends:
            continue
        reading = _tile_reading(scoring, frame, chosen[i], size_at, lambda r: misfits(out, r))
        if reading is None:
            continue
        tile, again = reading
        others = [t for k, t in enumerate(out) if k != i]
        if again < misfit and clear_of(tile.candidate.center, others):
            out[i] = tile
    return out


def row_ends_by_size(
    scoring: Scoring, chosen: list[Scored], doubted: list[int], size_at: SizeModel
) -> set[int]:
    """Of the ``doubted`` tokens (indices in ``chosen``), those that size and company
    say are a row's tokens whatever their colour: where the frame's clear tokens are
    clearly smaller than its tiles (:func:`token_ratio_of`, :data:`_KINDS_APART`), a
    token nearer their size than a tile's, lying a row's step
    (:data:`vision.token_rows.STEP_RANGE`, with a cut's slack) from another of the
    doubted tokens.

    A row's end lies face up, and a face whose colour the structure read wrongly
    misfits that colour as a tile does (``clock``: a white dial-like face read as a
    black face at 0.87, misfit over :data:`_TOKEN_MISFIT_DOUBT`, then read again as a
    tile of its own size and reported as a green coffin beside the row's backs). Its
    colour is read later among the token faces; a tile is not cut at a token's size
    beside a token. Where tokens are about the tiles' size (``stitch``) size cannot
    tell, and the colour rule stands alone."""
    token_ratio = token_ratio_of(scoring, chosen, size_at)
    if token_ratio is None or token_ratio >= 1 - _KINDS_APART:
        return set()
    centres = np.array([chosen[i].candidate.center for i in doubted], np.float64)
    sides = np.array([chosen[i].candidate.side for i in doubted], np.float64)
    kept: set[int] = set()
    for n, i in enumerate(doubted):
        ratio = sides[n] / size_at(chosen[i].candidate.center)
        if math.log(ratio) >= math.log(token_ratio) / 2:
            continue  # nearer a tile's size (the geometric middle of the two)
        stepped = a_step_from(centres, sides, n, _CUT_STEP_SLACK)[2]
        stepped[n] = False
        if stepped.any():
            kept.add(i)
    return kept


def _tile_reading(
    scoring: Scoring,
    frame: Frame,
    s: Scored,
    size_at: SizeModel,
    misfits: Callable[[list[Scored]], np.ndarray],
) -> tuple[Scored, float] | None:
    """Piece ``s`` read among the tile faces alone (:func:`_cut_as_tile`), and
    its colour misfit; None unless that is a clear tile. Where two tile motifs tie in
    structure (a lead under ``accept_margin_min``), the one whose colours fit the piece
    far better (:data:`_TIE_MISFIT_RATIO`) is read, its lead then taken as clear: on an
    embroidered patch the thick ring both motifs share outweighs their figures. Where
    colour does not tell them apart either, the tie is left as it is: it is a tile all
    the same, and :mod:`vision.doubts` judges its motif where the motifs differ."""
    best = _cut_as_tile(scoring, frame, s, size_at)
    if best is None or best.score < scoring.config.sure_tile_min:
        return None
    side = size_at(s.candidate.center)
    if scoring.rejection(best, side) is None:
        return best, float(misfits([best])[0])
    m = best.match
    if scoring.lead(best) >= scoring.config.accept_margin_min or m.runner < 0:
        return None
    rival = replace(
        best,
        match=replace(
            m,
            group=m.runner,
            turn=m.runner_turn,
            score=m.score - m.margin,
            runner=m.group,
            runner_turn=m.turn,
        ),
    )
    fits = misfits([best, rival])
    first = int(np.argmin(fits))
    told = [best, rival][first]
    if fits[1 - first] >= _TIE_MISFIT_RATIO * fits[first]:
        told = replace(told, match=replace(told.match, margin=CLEAR_LEAD))
    elif first:
        told = best  # colour does not tell: the tie is left to the doubts stage
    clear = replace(told, match=replace(told.match, margin=CLEAR_LEAD))
    if scoring.rejection(clear, side) is not None:
        return None
    return told, float(fits[first])


#: A token cut this much larger than the frame's clear tokens (:func:`token_side_of`) is
#: cut again at their size (:func:`tokens_cut_large`): a cut a tenth large is within
#: what alignment's zooms (10 % apart) leave, and the tokens misread for a cut too
#: large were cut 1.20-1.25 times their frame's.
_CUT_LARGE = 1.18


def tokens_cut_large(scoring: Scoring, frame: Frame, chosen: list[Scored]) -> list[Scored]:
    """The chosen pieces, each token cut much larger than the frame's clear tokens
    (:data:`_CUT_LARGE`) cut again at their size about its centre and read among the
    tokens, kept so where that reads at least as well.

    A token set whose colour is a ring at its edge is named from that ring, and a
    token cut a quarter too large has the table where its ring should be: a white
    ring read as black on dark wood (stamp and pebble seed 2024 #5, cut 1.25 times
    the frame's tokens, matching 0.84 by the grey disc and figure inside; at the
    frame's size 0.90 and white), and a white face on a pale cloth read as a back
    (stitch seed 2024 #1, 1.21 and 1.24: 0.88 as backs, 0.96 and 0.89 as faces).
    Tokens read right are cut so large too (up to 1.30 times their frame's, a tilted
    table's near row); cut again, they read as the same token, most of them better
    (0.85 -> 0.94), and the few that read worse keep their first cut.
    """
    token_side = token_side_of(scoring, chosen)
    if token_side is None:
        return chosen
    large = [
        i
        for i, s in enumerate(chosen)
        if scoring.is_token(s) and s.candidate.round and s.candidate.side >= _CUT_LARGE * token_side
    ]
    if not large:
        return chosen
    cuts = [
        replace(c, quad=scaled_quad(c.quad, token_side / c.side))
        for c in (chosen[i].candidate for i in large)
    ]
    again = scoring.read(frame.pyramid, cuts, scoring.token_groups)
    out = list(chosen)
    for i, s in zip(large, again, strict=True):
        if s.score >= chosen[i].score:
            out[i] = s
    return out
