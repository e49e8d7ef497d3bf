"""Token rows cut again where their split read them poorly: the middle of a row from
its two clear ends (:func:`rows_from_ends`), and a row's poor pieces at sizes and
places a few per cent apart (:func:`finer_sized`).

A row's split places its discs by the mask's distance peaks and sizes them by the
mask, which the photo's blur swells; a back of fine rings forgives neither (see
:mod:`vision.token_scale`). Part of stage 4 of :mod:`vision.recogniser`:
:func:`vision.kinds.tokens_fitted` cuts a row's poor pieces finely, then
:func:`rows_from_ends` runs before the splits are chosen, and
:func:`vision.choosing.choose` keeps the pieces on a row's places whatever their match.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.candidates import Candidate
from vision.frame import Frame, within_frame
from vision.numeric import mean_of
from vision.pieces import Scored, distance, shaped_like
from vision.rectify import Pyramid
from vision.scoring import Scoring
from vision.searches.rims import rim_steps_all_round
from vision.token_rows import places_between, step_counts
from vision.token_scale import finest_token_sizes

#: A row's places cut between its two ends must read as tokens at least this well on
#: average (rows of small blurred backs on rendered photos: 0.37-0.8; the mat's moons
#: between two read as dark faces: 0.20).
_ROW_PLACES_MIN = 0.3

#: A row's far end is looked for only past at least this many token pieces of its
#: split (a row of three shows two beside its clear end).
_FAR_END_PIECES = 2

#: ...discs of a token's size (of the clear end's; of a row's step): tokens are one
#: size on the table, and a cut is sized to a tenth or so (a row of 23 px tokens'
#: backs cut at 22-26 px).
TOKEN_SIZED = (0.75, 1.33)

#: ...and kept only within this share of a step of the place it was cut at.
_FAR_END_DRIFT = 0.35

#: The places a far end is cut at about each count of steps, in steps along the row
#: and across it, and how many of the best first looks among them are aligned.
_FAR_END_ALONG = (-0.15, 0.0, 0.15)
_FAR_END_ACROSS = (-0.3, -0.15, 0.0, 0.15, 0.3)
_FAR_END_ALIGNED = 4
_FAR_END_PLACES = len(_FAR_END_ALONG) * len(_FAR_END_ACROSS)


#: A split read as a chain of discs with no clear end (:func:`chain_ends`): at least
#: this many discs (two ends and two backs)...
_CHAIN_PIECES = 4
#: ...covering this share of their blob...
_CHAIN_COVER = 0.8
#: ...lying within this share of their size of one line...
_CHAIN_ACROSS = 0.5
#: ...one after another: the chain spans at least this share of its discs' sizes laid
#: end to end (rows read: 0.98-1.08; a 47 px row cut as nine 30 px discs two abreast,
#: its far extreme a back: 0.63)...
_CHAIN_SPAN = 0.8
#: ...whose two ends read as faces at least this well (white faces on a pale grey
#: cloth: 0.65-0.76; the cloth's chance discs read as backs up to 0.67, as faces
#: under this).
CHAIN_END_MIN = 0.6


def rows_from_ends(
    scoring: Scoring, frame: Frame, scored: list[Scored]
) -> tuple[list[Scored], frozenset[int]]:
    """The middle of each row of tokens cut again from its two clear ends.

    A row's split places its discs by the mask's distance peaks; along a row of
    small discs, whose necks are shallow, these drift off the tokens (a row of 30 px
    backs was cut 13 px off every place, one disc too many) and nothing there
    matches. Two clear tokens of the split a whole number of steps apart say where
    every token between them lies (:func:`vision.token_rows.places_between`): each
    place is cut at their size and tilt and matched as a token (also at sizes and
    places a few per cent apart, :func:`finer_sized`), and replaces the split's
    unclear pieces near the line between them, unless one lies on the place and
    reads better as a token. Returns the pieces, and those on the places (by
    ``id``), which :func:`vision.choosing.choose` keeps whatever their match.

    The count of steps: the ends' size allows one or two (a long row: sizes are
    known to a tenth, and rows lie 0.90-1.15 diameters apart); the split's own
    count of discs between the ends is taken where it is one of them (its discs
    may lie off their places, but they are as many as the tokens: the ends' size
    put a row of 8 tokens 1.1 diameters apart at 9), else the count whose places
    hold the clear tokens between the ends best, else the nearest. How well the
    places read does not tell: small backs read alike poorly (0.34) on or off them.

    Only in splits whose clear pieces are all tokens, two or more, or are a chain's two
    ends (:func:`chain_ends`) read as tiles where no piece reads as a token: a face
    drawn as the tiles are, at each end of a row of backs the blur left blank (doily
    seed 2024 #9: fangs read as a vampire's figure, 0.76 and 0.64, backs matching
    nothing). A split with a token of its own is left to the later stages, which tell
    a row's ends by their company: laid here, its ends no longer count among the
    tiles the frame's tile size is first learnt from, and other readings of the frame
    move (a heap of records read at the wrong size and lost, vinyl seed 2024 #9,
    whose backs read 0.75-0.81; a row's end of rosary seed 2024 #11 read as a tile,
    where one end was a clear token, 0.93). Only between two
    whose rim steps all round (:func:`vision.searches.rims.rim_steps_all_round`: the
    deposit mat's printed moons match a dark face, 0.85, and lie in a line, but are
    arcs over half a disc); with steps discs can take
    (:data:`vision.token_rows.STEP_RANGE`: they do not overlap); and where the
    places read as tokens at least a little (:data:`_ROW_PLACES_MIN`).
    """
    clear_min, least = scoring.config.size_anchor_score, scoring.config.accept_token_min
    pyramid = frame.pyramid
    members: dict[tuple[int, int], list[int]] = {}
    for i, s in enumerate(scored):
        members.setdefault((s.candidate.blob, s.candidate.split), []).append(i)
    given = len(scored)  # the far ends found are appended after them
    scored = list(scored)
    found: list[Scored] = []
    old: list[int | None] = []  # the piece on each new cut's place, if any
    dropped: set[int] = set()
    far_ends: list[Scored] = []
    unsure: set[int] = set()  # a chain's ends read under clear...
    chained: set[int] = set()  # ...and those a row was laid between, kept as its ends
    for index in members.values():
        clear = [i for i in index if scored[i].score >= clear_min]
        chain = None
        tiles = {i for i in clear if not scoring.is_token(scored[i])}
        if tiles:
            # a chain of discs whose ends alone read clearly, as tiles, and none of its
            # pieces as a token: a face drawn as the tiles are at each end of a row of
            # backs the blur left blank
            if len(tiles) > 2:
                continue  # more than a chain's two ends
            if any(scoring.is_token(scored[i]) and scored[i].score >= least for i in index):
                continue  # a token of its own: its row is told by its company later
            chain = chain_ends(scoring, frame, [scored[i] for i in index])
            if chain is None or not tiles <= {index[k] for k, _ in chain}:
                continue
        if all(scored[i].score >= least for i in index):
            continue
        end = None
        if chain is None and len(clear) == 1:
            end = far_end(scoring, frame, [scored[i] for i in index], scored[clear[0]])
        if end is not None:
            clear.append(len(scored))
            scored.append(end)
        elif chain is not None or len(clear) < 2:
            chain = chain or chain_ends(scoring, frame, [scored[i] for i in index])
            if chain is None:
                continue
            for k, piece in chain:
                scored[index[k]] = piece
            clear = [index[k] for k, _ in chain]
            unsure.update(clear)
        row = _longest_row(scored, clear)
        if row is None:
            continue
        a, b, counts = row
        if not all(rim_steps_all_round(scoring, frame, scored[e]) for e in (a, b)):
            continue
        ends = [scored[a].candidate, scored[b].candidate]
        inside = [i for i in index if i not in clear and _near_segment(scored[i], ends)]
        # the split's own count of discs between the ends, where the ends' size
        # allows it: a row's tokens lie 1.0-1.1 diameters apart, so the size alone
        # leaves a long row's count open
        steps = len(inside) + sum(_near_segment(scored[i], ends) for i in clear) + 1
        steps = steps if steps in counts else counts[0]
        if len(inside) < (steps - 1) / 2:
            continue  # the blob shows no discs there
        cuts, on = _row_cut(scoring, scored, ends, clear, inside, steps)
        first = scoring.score_structure(pyramid, cuts, scoring.token_groups)
        places = finer_sized(scoring, pyramid, cuts, first)
        if places and mean_of([s.score for s in places]) < _ROW_PLACES_MIN:
            continue  # nothing like a token there: a print between two copies
        found += places
        old += on
        dropped.update(inside)
        far_ends += [scored[e] for e in (a, b) if e >= given]
        chained.update(e for e in (a, b) if e in unsure)
    if not found:
        return scored[:given], frozenset()
    kept = {
        o for o, s in zip(old, found, strict=True) if o is not None and scored[o].score >= s.score
    }
    new = [s for o, s in zip(old, found, strict=True) if o is None or o not in kept]
    new += far_ends
    middles = frozenset(id(s) for s in new) | frozenset(id(scored[o]) for o in kept)
    middles |= frozenset(id(scored[e]) for e in chained)
    before = scored[:given]
    return [s for i, s in enumerate(before) if i not in dropped or i in kept] + new, middles


def chain_ends(
    scoring: Scoring, frame: Frame, split: list[Scored]
) -> list[tuple[int, Scored]] | None:
    """The two ends of a split that is one straight chain of token-sized discs, where
    both read as faces, however unsurely: the indices in ``split`` of its two
    extreme discs along the chain, or None.

    A face near the cloth's colours (a white end on a pale cloth) and a back cut
    off its place both match poorly (0.6-0.69 and 0.4-0.5: a row of six on a grey
    cloth, neither end at ``size_anchor_score``), so no clear end says a row lies
    here and the whole split is turned down. What does say it is the blob's shape:
    every disc of the split lies on one line (within half a disc: backs cut off
    their places zigzag, 0.37 of a disc on that row) one after another (touching
    tokens do not overlap, ``_CHAIN_SPAN``), they cover most of the blob
    (``_CHAIN_COVER``: the mask holds a chain a token wide and no more), there are
    at least ``_CHAIN_PIECES`` of them, and the two at its ends read as faces (not
    backs) at ``CHAIN_END_MIN`` each, with rims stepping all round. A chance line
    of discs on the cloth is not in the mask; a mat's printed moons are arcs, not
    rims all round. :func:`rows_from_ends` still lays the row between them only
    where its places read as tokens."""
    if len(split) < _CHAIN_PIECES or split[0].candidate.cover < _CHAIN_COVER:
        return None
    if not all(s.candidate.round for s in split):
        return None
    sides = np.array([s.candidate.side for s in split])
    if sides.max() > TOKEN_SIZED[1] * np.median(sides):
        return None
    centres = np.array([s.candidate.center for s in split], np.float64)
    offsets = centres - centres.mean(axis=0)
    way = np.linalg.svd(offsets, full_matrices=False)[2][0]
    across = np.abs(offsets @ np.array([-way[1], way[0]]))
    if across.max() > _CHAIN_ACROSS * float(np.median(sides)):
        return None
    along = offsets @ way
    if np.ptp(along) < _CHAIN_SPAN * (len(split) - 1) * float(np.median(sides)):
        return None  # discs overlapping along the line: not a row of touching tokens
    ends: list[tuple[int, Scored]] = []
    for k in (int(np.argmin(along)), int(np.argmax(along))):
        s = split[k]
        if not scoring.is_token(s):
            # a disc the chain's size and place make a token, read as a tile: a face
            # drawn as the tiles are (beads round a dark middle) is read among the
            # tokens' faces alone
            s = scoring.read(frame.pyramid, [s.candidate], scoring.token_groups)[0]
        if s.score < CHAIN_END_MIN or not scoring.is_token(s) or scoring.is_back(s.group):
            return None
        if not within_frame(s.candidate, frame) or not rim_steps_all_round(scoring, frame, s):
            return None
        ends.append((k, s))
    return ends


def far_end(scoring: Scoring, frame: Frame, split: list[Scored], clear: Scored) -> Scored | None:
    """A row's other end, where its split read only one end clearly: one step past
    the split's discs furthest along the row, or on the furthest itself.

    By the rules a row's two ends lie face up; a face whose colours are near the
    cloth's (a white end on a cream check) leaves the mask, and the row's backs, cut
    off their places by the mask's shallow necks, match poorly, so the split reads
    one end only and :func:`rows_from_ends` has nothing to lay the row between. The
    split's other discs (read as tokens, or of the clear end's size whatever they
    read as), however poorly they match, say which way the row runs (they must lie
    along one line from the clear end, all on one side of it) and how far; the end
    is cut at the clear end's size and tilt a whole number of its steps away, at
    the furthest disc's count of steps and one more (and a little aside, as the way
    is fitted to discs cut off their places), and kept only where it reads clearly
    (``size_anchor_score``) as a face near its place and its rim steps all round, as
    the clear end's must."""
    if scoring.is_back(clear.group) or not within_frame(clear.candidate, frame):
        return None
    c = clear.candidate
    # a small back cut off its place may match a tile's figure better than a back
    # (such discs count where they are the clear end's size); a token cut small by
    # the mask still reads as a token
    low, high = TOKEN_SIZED
    others = [
        s
        for s in split
        if s is not clear
        and s.candidate.round
        and (scoring.is_token(s) or low <= s.candidate.side / c.side <= high)
    ]
    if len(others) < _FAR_END_PIECES:
        return None
    offsets = np.array([s.candidate.center for s in others], np.float64) - c.center
    way = np.linalg.svd(offsets, full_matrices=False)[2][0]
    along = offsets @ way
    if along.sum() < 0:
        way, along = -way, -along
    across = np.abs(offsets @ np.array([-way[1], way[0]]))
    step = c.side
    if along.min() < 0.5 * step or across.max() > 0.5 * step:
        return None  # not a straight row with the clear token at its end
    furthest = max(2, round(float(along.max()) / step))
    return far_end_along(scoring, frame, clear, way, furthest, step)


def far_end_along(
    scoring: Scoring,
    frame: Frame,
    clear: Scored,
    way: np.ndarray,
    furthest: int,
    step: float,
    along: float | None = None,
) -> Scored | None:
    """A row's other end, ``furthest`` or one more of ``clear``'s steps from it along
    ``way`` (a unit vector), cut a little along and across each place (the way is
    known to a few degrees, which a step or more on puts the end a third of a token
    aside), kept only where it reads clearly as a face near its place with a rim
    stepping all round (see :func:`far_end`); each cut a ``step`` wide. The places lie
    ``along`` apart (``step`` unless given: see :func:`vision.pieces.chord_along`).
    """
    c = clear.candidate
    normal = np.array([-way[1], way[0]])
    along = step if along is None else along
    cuts = [
        Candidate(
            shaped_like([c], np.array(c.center) + way * (n + t) * along + normal * u * step, step),
            True,
            c.blob,
            c.split,
            c.cover,
        )
        for n in (furthest, furthest + 1)
        for t in _FAR_END_ALONG
        for u in _FAR_END_ACROSS
    ]
    kind = scoring.token_groups
    first = scoring.score_structure(frame.pyramid, cuts, kind)
    # the places straight along the fitted way are aligned whatever their first look
    # (a back beside them can look better first, a face aligns better)
    straight = [k for k in range(len(cuts)) if k % _FAR_END_PLACES == _FAR_END_PLACES // 2]
    ranked = sorted(range(len(cuts)), key=lambda k: -first[k].score)
    best = straight + [k for k in ranked if k not in straight][:_FAR_END_ALIGNED]
    cuts = [cuts[k] for k in best]
    aligned = scoring.realigned(frame.pyramid, [first[k] for k in best], kind)
    aligned = finer_sized(scoring, frame.pyramid, cuts, aligned)
    ends = [
        s
        for s, cut in zip(aligned, cuts, strict=True)
        if s.score >= scoring.config.size_anchor_score
        and scoring.is_token(s)
        and not scoring.is_back(s.group)
        and distance(s.candidate.center, cut.center) <= _FAR_END_DRIFT * step
        and rim_steps_all_round(scoring, frame, s)
    ]
    return max(ends, key=lambda s: s.score, default=None)


def finer_sized(
    scoring: Scoring,
    pyramid: Pyramid,
    cuts: list[Candidate],
    pieces: list[Scored],
    least: float | None = None,
) -> list[Scored]:
    """Pieces of a token row still matching under ``least`` (``accept_token_min``
    unless given), cut again at sizes a few per cent apart (:mod:`vision.token_scale`)
    and kept where one reads as a token better than the piece read before: a back of
    fine rings forgives no size error."""
    least = scoring.config.accept_token_min if least is None else least
    redo = [i for i, s in enumerate(pieces) if s.score < least]
    bank = scoring.model.bank(True)
    if not redo or bank is None:
        return pieces
    found = finest_token_sizes(
        pyramid,
        [cuts[i].quad for i in redo],
        bank,
        len(scoring.model.groups),
        scoring.token_groups,
        scoring.config.patch_px,
    )
    out = list(pieces)
    for i, (quad, patch, match) in zip(redo, found, strict=False):
        if scoring.token_groups[match.group] and match.score > out[i].score:
            c = cuts[i]
            out[i] = Scored(replace(c, quad=quad), patch, match, pieces[i].cut or c)
    return out


def _row_cut(
    scoring: Scoring,
    scored: list[Scored],
    ends: list[Candidate],
    clear: list[int],
    inside: list[int],
    steps: int,
) -> tuple[list[Candidate], list[int | None]]:
    """The pieces of a row ``steps`` steps long between its two ``ends`` at the
    places no clear piece holds, and the token piece already on each place, if
    any."""
    step = distance(ends[0].center, ends[1].center) / steps
    places = places_between(np.array(ends[0].center), np.array(ends[1].center), steps)
    cuts: list[Candidate] = []
    on_place: list[int | None] = []
    c = ends[0]
    for p in places:
        if not all(distance(p, scored[i].candidate.center) > 0.35 * step for i in clear):
            continue
        on = [i for i in inside if distance(p, scored[i].candidate.center) <= 0.35 * step]
        cuts.append(Candidate(shaped_like(ends, p, step), True, c.blob, c.split, c.cover))
        on_place.append(on[0] if on and scoring.is_token(scored[on[0]]) else None)
    return cuts, on_place


def _longest_row(scored: list[Scored], clear: list[int]) -> tuple[int, int, list[int]] | None:
    """The two clear tokens furthest apart that a row may join, and the counts of
    steps it may take between them, likeliest first: those whose places hold every
    clear token lying between the two (the nearest such first), else those nearest
    the two tokens' size."""
    best: tuple[int, int, list[int]] | None = None
    longest = 0.0
    for k, a in enumerate(clear):
        for b in clear[k + 1 :]:
            ca, cb = scored[a].candidate, scored[b].candidate
            length = distance(ca.center, cb.center)
            counts = step_counts(length, (ca.side + cb.side) / 2)
            between = [
                np.array(scored[i].candidate.center)
                for i in clear
                if i not in (a, b) and _near_segment(scored[i], [ca, cb])
            ]
            if between:
                # the count whose places the clear tokens between lie nearest
                misfit = {
                    n: max(
                        distance(m, _nearest_place(ca.center, cb.center, n, m)) * n / length
                        for m in between
                    )
                    for n in counts
                }
                counts = sorted((n for n in counts if misfit[n] <= 0.35), key=misfit.get)
            if counts and length > longest:
                best, longest = (a, b, counts), length
    return best


def _nearest_place(
    start: tuple[float, float], end: tuple[float, float], steps: int, point: np.ndarray
) -> np.ndarray:
    """The place of a row ``steps`` steps long from ``start`` to ``end`` nearest ``point``."""
    places = places_between(np.array(start), np.array(end), steps)
    return places[int(np.argmin(np.linalg.norm(places - point, axis=1)))]


def _near_segment(s: Scored, ends: list[Candidate]) -> bool:
    """Whether a piece lies between two others, within half their size of the line
    joining them."""
    a, b = np.array(ends[0].center), np.array(ends[1].center)
    span = b - a
    t = float((np.array(s.candidate.center) - a) @ span / (span @ span))
    off = float(np.linalg.norm(a + t * span - np.array(s.candidate.center)))
    return 0.0 < t < 1.0 and off < 0.25 * (ends[0].side + ends[1].side)
