"""Stage 4's verdict (:func:`choose`): which split of each blob is kept, and which of
its pieces are tiles or tokens; what is turned down is kept with its reason, for the
overlay.

Runs once the pieces are matched and aligned (:mod:`vision.cuts`,
:mod:`vision.scoring`); the searches in :mod:`vision.searches` then add what the
object mask missed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from vision import cuts
from vision.frame import Frame
from vision.kinds import kind_by_size
from vision.numeric import mean_of, median_of
from vision.pieces import (
    Scored,
    SizeModel,
    best_in_place,
    blob_centre,
    clear_of,
    distance,
    grouped_by_split,
    one_per_place,
    split_value,
)
from vision.rectify import Pyramid
from vision.results import RejectedCandidate
from vision.scoring import Scoring, for_its_match_alone

#: Why the pieces of a split mostly turned down are all turned down.
_NOT_TILES = "part of something that is not tiles"
#: A blob cut again at the frame's tile size keeps its tiles when at least this many
#: are read in it: a heap or a block (see :func:`recut_unexplained`).
_RECUT_MIN_TILES = 2
#: ...so a blob under this many tiles' squares is not cut again: two round tiles
#: touching cover 1.57 squares, two square ones 2.
_RECUT_MIN_AREA = 1.2
#: A blob that one disc of a split covers this share of holds one round object...
_ONE_DISC_COVER = 0.8
#: ...a tile, in doubt only as to its motif, where that disc is this share of a tile's
#: side at its place (a lone tile's blob is cut within a tenth or so of its size).
_ONE_DISC_SIZE = (0.8, 1.25)


def choose(
    scoring: Scoring,
    pyramid: Pyramid,
    scored: list[Scored],
    side_px: float | None,
    middles: frozenset[int] = frozenset(),
    outlined: Callable[[Scored], bool] | None = None,
) -> tuple[list[Scored], list[RejectedCandidate], SizeModel | None, list[Scored]]:
    """Keep each blob's best-explained split, then turn down what is not a tile.

    Without a table calibration, the size of a tile in this frame is taken from
    the pieces that match a tile face clearly; dice, tokens and the like are then
    judged against it. Also returns the pieces of the kept splits turned down for
    their match alone (none, or too close to another motif): cut off their place
    or turn, their first match may have named the wrong motif to align with.
    """
    by_split = grouped_by_split(scored)
    best: dict[int, tuple[float, list[Scored]]] = {}
    for (blob, _), members in by_split.items():
        value = split_value(members)
        if blob not in best or value > best[blob][0]:
            best[blob] = (value, members)
    size_at = scoring.size_model([s for _, members in best.values() for s in members], side_px)
    if size_at is not None:
        clear = [s for _, m in best.values() for s in m]
        scored = kind_by_size(scoring, pyramid, scored, clear, size_at)
        by_split = grouped_by_split(scored)

    def verdicts(members: list[Scored]) -> list[str | None]:
        return [
            scoring.rejection(s, size_at(s.candidate.center) if size_at else None) for s in members
        ]

    # now that sizes are known, a split whose pieces are turned down loses its claim
    final: dict[int, tuple[float, list[Scored], list[str | None]]] = {}
    for (blob, _), members in by_split.items():
        reasons = verdicts(members)
        # the pieces of one blob are alike in size (a row of tokens, a block of tiles);
        # a small one is a corner or a neck of something else
        typical = median_of([s.candidate.side for s in members])
        reasons = [
            r or ("smaller than the rest of its blob" if s.candidate.side < 0.6 * typical else None)
            for s, r in zip(members, reasons, strict=True)
        ]
        reasons = _middles_by_the_rules(scoring, members, reasons, middles)
        passed = [s for s, r in zip(members, reasons, strict=True) if r is None]
        too_little = members[0].candidate.cover < scoring.config.min_split_cover
        too_little = too_little and not _outlined_tokens(scoring, members, reasons, outlined)
        tiles = _tile_like(scoring, members, reasons)
        few = len(members) >= 3 and tiles < scoring.config.split_accept_share * len(members)
        if too_little or few or _repeated_print(passed, scoring.config.size_anchor_score):
            # a card or a printed mat cut into cells: a few cells may pass by chance
            reasons = [r or _NOT_TILES for r in reasons]
        accepted = [
            max(s.score, 0.0) if r is None else 0.0 for s, r in zip(members, reasons, strict=True)
        ]
        value = mean_of(accepted) * members[0].candidate.cover
        if (
            blob not in final
            or value > final[blob][0]
            or (
                value == final[blob][0] == 0.0
                and split_value(members) > split_value(final[blob][1])
            )
        ):
            final[blob] = (value, members, reasons)
    chosen: list[Scored] = []
    rejected: list[RejectedCandidate] = []
    turned_down: list[Scored] = []
    # a piece's better cut lies in its own blob: looked for there, not among all pieces
    in_blob: dict[int, list[Scored]] = {}
    for s in scored:
        in_blob.setdefault(s.candidate.blob, []).append(s)
    for _, members, reasons in final.values():
        # a piece turned down in a block that otherwise reads as tiles
        # (or, of three or more pieces and not turned down as print, reads by its
        # pieces in doubt too: those are offered for a second look as the block's)
        share = scoring.config.split_accept_share * len(members)
        as_print = any(r is not None and r.startswith(_NOT_TILES) for r in reasons)
        readable = sum(r is None for r in reasons) >= share or (
            len(members) >= 3 and not as_print and _tile_like(scoring, members, reasons) >= share
        )
        for s, reason in zip(members, reasons, strict=True):
            # the split is chosen as a whole; each of its pieces may still have been
            # cut at the same place by another split into a clear match, even one
            # turned down as cut here (a pale token at a row's end, cut off its
            # place by the row's split and matched under the least, lies clearly
            # on the row's lattice), unless its whole split was turned down
            # (a token its split passes beside another stays a token: its row's split
            # told it from a tile by the tokens beside it, which another split's "tile" there was
            # never judged by; rosary seed 2024 #11: a token's face drawn as the
            # tiles are, beads round a dark middle, cut at the row's end as a garlic
            # tile (0.93) by a split whose other pieces all failed. A tile its split
            # passes may still be a token another split read better: a token with
            # a ring of table round it reads as a tile whose face is a ring)
            kin = in_blob[s.candidate.blob]
            if reason is None and _in_a_token_row(scoring, s, members, reasons):
                kin = [o for o in kin if scoring.is_token(o)]
            better = best_in_place(s, kin)
            side = size_at(better.candidate.center) if size_at else None
            clear = better.score >= scoring.config.size_anchor_score
            clear = clear and not scoring.rejection(better, side)
            if reason is None or (clear and not reason.startswith(_NOT_TILES)):
                chosen.append(better if clear else s)
            else:
                c = s.candidate
                rejected.append(RejectedCandidate(c.center, c.polygon(), reason))
                again = readable and for_its_match_alone(reason)
                at = size_at(c.center) if size_at else None
                if again or _lone_tile_in_doubt(scoring, members, reason, at):
                    turned_down.append(s)
    chosen, doubles = one_per_place(chosen)
    rejected += doubles
    return chosen, rejected, size_at, turned_down


def _in_a_token_row(
    scoring: Scoring, s: Scored, members: list[Scored], reasons: list[str | None]
) -> bool:
    """Whether ``s`` reads as a token and another token its split passes touches it
    (lies within 1.5 of its side): a token in a row, not a lone "token" a tile's size
    that a better cut elsewhere reads as the tile it is (ember seed 2024 #9)."""
    if not scoring.is_token(s):
        return False
    return any(
        o is not s
        and r is None
        and scoring.is_token(o)
        and distance(o.candidate.center, s.candidate.center) < 1.5 * s.candidate.side
        for o, r in zip(members, reasons, strict=True)
    )


def _outlined_tokens(
    scoring: Scoring,
    members: list[Scored],
    reasons: list[str | None],
    outlined: Callable[[Scored], bool] | None,
) -> bool:
    """Whether a split's pieces are all tokens that pass, each matching its face
    clearly (``size_anchor_score``) within a rim that steps all round: objects in
    their own right, however little of their blob they cover.

    A split covering under ``min_split_cover`` of its blob is turned down as a card or
    a mat cut in cells, a few of which pass by chance. But a blob is also wider than
    its objects where the mask swells round them: on a checked cloth the break in the
    check's repetition spreads a cell round a token pair (moonrise seed 2024 #19: a
    blue and a yellow token matching 0.85 and 0.95 covered 0.50-0.56 of their blob,
    and were turned down). A print that matches a token face is an arc over half a
    rim (the deposit mat's moons), which the rim test turns down, as the rim search
    does (:func:`vision.searches.rims.rim_steps_all_round`); a tile is left to the
    cover test, its figure alone may match a token.
    """
    if outlined is None:
        return False
    clear = scoring.config.size_anchor_score
    return all(
        r is None and scoring.is_token(s) and s.score >= clear
        for s, r in zip(members, reasons, strict=True)
    ) and all(outlined(s) for s in members)


def _tile_like(scoring: Scoring, members: list[Scored], reasons: list[str | None]) -> int:
    """How many of a split's pieces read as tiles or tokens: those that pass, and those
    turned down only as ambiguous that match a face clearly (at least
    ``size_anchor_score``).

    Whether a split of three or more pieces is a card or printed mat cut into cells, a
    few of which pass by chance, is judged by them: a piece matching two of the set's
    faces that well is one whose figure is in doubt, not a cell of print. Counted as
    not reading, two such pieces and one cut onto the cloth beside them turned their
    column's clear third tile down with them (pinwheel seed 7 #2: green coffin and
    vampire 0.87 with margins 0.01 beside a blue garlic 0.95; petal seed 7 #5 lost a
    row of three so).
    """
    clear = scoring.config.size_anchor_score
    return sum(
        r is None or (r.startswith("ambiguous") and s.score >= clear)
        for s, r in zip(members, reasons, strict=True)
    )


def _middles_by_the_rules(
    scoring: Scoring, members: list[Scored], reasons: list[str | None], middles: frozenset[int]
) -> list[str | None]:
    """The reasons a split's pieces are turned down, less those of the tokens
    turned down for their match alone that lie on the places of a row between two
    clear tokens (``middles``, by ``id``, see :func:`vision.token_row_cuts.rows_from_ends`):
    by the rules a row's middle lies face down, and a small back whose pattern the
    blur wiped out matches nothing well. Kept, they are read as backs with the row
    (:func:`vision.token_rows.as_the_rules_allow`), and the row's ends are no longer
    turned down with a split mostly turned down."""
    return [
        None if id(s) in middles and scoring.is_token(s) and for_its_match_alone(r) else r
        for s, r in zip(members, reasons, strict=True)
    ]


def _lone_tile_in_doubt(
    scoring: Scoring, members: list[Scored], reason: str, side: float | None
) -> bool:
    """A blob's lone piece turned down as a near tie between two tile motifs while it
    matches a tile face clearly (``sure_tile_min``): a tile, only its motif in doubt,
    as much as a piece of a block that reads as tiles (a pinwheel's or a label's
    shared ground ties its motifs by 0.00-0.02 over the whole face). Only a blob
    holding one tile is given that second look: re-aligned with every tile motif, a
    token matched a vampire tile at 0.84, and a die cut as a disc tied two motifs at
    0.84. The blob is shaped like one tile (split 0: one square, or one disc), or a
    split explains it by one disc of a tile's size at its place (``side``): a round
    tile on a gingham takes on a corner of a cell and fills its box as a die's rounded
    square does (compass seed 7 #3: 0.82-0.84 of it, over a disc's 0.82), but a die
    cut as a disc is 0.69 of a tile's side, the blur swelling its half."""
    (s,) = members if len(members) == 1 else (None,)
    if s is None or not reason.startswith("ambiguous") or not scoring.tile_tied_with_tile(s):
        return False
    c = s.candidate
    if c.split == 0:
        return True
    return (
        c.round
        and c.cover >= _ONE_DISC_COVER
        and side is not None
        and _ONE_DISC_SIZE[0] <= c.side / side <= _ONE_DISC_SIZE[1]
    )


def _repeated_print(pieces: list[Scored], clear: float) -> bool:
    """Three or more pieces of one blob that all match the same face, none of them
    clearly: a motif printed over and over (the deposit mat's moons), not tiles, which
    match their own faces well and rarely share one motif all along a block."""
    return (
        len(pieces) >= 3
        and len({s.group for s in pieces}) == 1
        and all(s.score < clear for s in pieces)
    )


def recut_unexplained(
    scoring: Scoring,
    frame: Frame,
    chosen: list[Scored],
    size_at: SizeModel,
    calibrated: float | None,
) -> list[Scored]:
    """Tiles in the blobs no chosen piece explains, cut again at the frame's tile size.

    A frame whose tiles all lie in rows and heaps has no lone tile to tell a tile's
    size before the first cuts, which then offer every count and may find none that
    reads (pinwheel seed 7 #5: a heap of four 34 px discs cut into nineteen circles of
    13-15 px, the wedges of their rims). The blocks and heaps read in that frame tell
    the size at last; the blobs they leave unexplained are cut once more at it (a
    heap's rims looked for at that size alone), and their tiles chosen as the first
    cuts' are. Only in such frames: where lone tiles gave the size, the first cuts
    used it already.
    """
    explained = {s.candidate.blob for s in chosen}
    # what cannot hold two tiles (a die, a token, a lone piece turned down) is not cut
    # again: only blocks and heaps are kept (:func:`in_heaps`)
    small = {
        index
        for index, blob in enumerate(frame.blobs)
        if blob.area * frame.scale**2
        < _RECUT_MIN_AREA * size_at(blob_centre(blob, frame.scale)) ** 2
    }
    again = cuts.split_candidates(scoring, frame, explained | small, size_at, read_in_blocks=True)
    if not again:
        return []
    scored = cuts.align_promising(
        scoring, frame.pyramid, cuts.score_splits(scoring, frame.pyramid, again)
    )
    found, _, _, _ = choose(scoring, frame.pyramid, scored, calibrated)
    tiles = ~scoring.token_groups
    return in_heaps([s for s in found if tiles[s.group] and clear_of(s.candidate.center, chosen)])


def in_heaps(pieces: list[Scored]) -> list[Scored]:
    """The pieces of blobs in which at least :data:`_RECUT_MIN_TILES` are read.

    A blob of one tile was cut as one piece whatever the size: what one piece cut again
    at the frame's size explains is a card's or a hand's print at a tile's size
    (pinwheel seed 7 #7 and seed 2024 #2, ring seed 7 #7: one false tile each, matched
    0.66-0.75), where a heap cut at the right size reads tile by tile (pinwheel seed 7
    #5: four, 0.85-0.94).
    """
    per_blob = Counter(s.candidate.blob for s in pieces)
    return [s for s in pieces if per_blob[s.candidate.blob] >= _RECUT_MIN_TILES]
