"""Chosen tiles whose motif or turn is in doubt, judged again.

A tile cut a little off its place, or turned, can match the wrong motif or turn
best, and alignment (which slides one template) cannot undo that: such pieces are
aligned with every motif (:func:`other_motifs`), in their other quarter turns
(:func:`other_quarter_turns`), and compared with the other motifs where the faces
differ (:func:`motifs_where_they_differ`); near ties such a comparison settles are
kept (:func:`near_ties_settled`) and taken as clear leads (:func:`clear_ties`); a square
tile whose colour lies across its faces' is turned as its colour says
(:func:`turned_by_colour`). Part of
stage 4 of
:mod:`vision.recogniser`, on the few doubtful pieces of a frame (none on most).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from vision.candidates import Candidate
from vision.colour import quarter_turns_by_colour, upright
from vision.frame import Frame, within_frame
from vision.matching import StructureMatch, align, every_group
from vision.model import band_pass, structure_vectors
from vision.motifs import motif_challenges, own_fits
from vision.pieces import Scored, SizeModel, best_few, one_per_place
from vision.rectify import Pyramid
from vision.results import RejectedCandidate
from vision.scoring import CLEAR_LEAD, Scoring

#: Square pieces matching worse than this once aligned are aligned in their other
#: quarter turns too, the best kept (on four styles' photos, bars of 0.8 and 0.9 read alike: 3 more
#: tiles right, none lost; round pieces' other turns gained nothing).
_QUARTER_TURN_DOUBT = 0.8
#: ...and those matching under this are tried too, their own turn aligned again beside
#: the others, and another turn replaces theirs only where it leads that clearly
#: (``CLEAR_LEAD``): a figure near-symmetric under a quarter turn (runes' ``#``) cut a
#: quarter off still matched 0.83-0.85 there, its heart looked for in the wrong corner
#: (its true turn aligned: 0.96, 0.99; its own again: 0.84, 0.86). A fresh alignment
#: gains on a first one by itself: nocturne garlics read right at 0.85 matched 0.95 a
#: half turn off, and 0.975-0.99 aligned again in their own turn.
_QUARTER_TURN_LOOK = 0.9
#: Square pieces still doubtful are also cut turned by these many degrees (a blob's
#: misjudged outline turned cuts 7-40° off their tiles on the fresh hard photos).
_TURN_TRIES = (-30.0, -15.0, 15.0, 30.0, 45.0)
#: ...and the best this many of its alignments are aligned once more from where they
#: landed (a 70 px coffin cut 6 % off reached 0.96 from its third best, 0.53).
_SECOND_ALIGNED = 3
#: Tiles whose motif leads the next by less than this are judged once more where
#: the motifs differ (:func:`motifs_where_they_differ`)...
_MOTIF_DOUBT = 0.2


def other_quarter_turns(scoring: Scoring, pyramid: Pyramid, chosen: list[Scored]) -> list[Scored]:
    """Each chosen square tile still matching poorly, aligned again in its other
    quarter turns; the best match is kept.

    Alignment slides one template, in the turn the first cut matched best. A small
    tile cut off its place may match a near-symmetric figure (a garlic bulb) best a
    quarter turn off, and sliding that turn cannot find its place; its heart, looked
    for where the face puts it, is then read wrong. Only chosen tiles are tried:
    the pieces of the splits that lose are many, and their turns do not matter.
    """
    doubtful = [
        k
        for k, s in enumerate(chosen)
        if not s.candidate.round and not scoring.is_token(s) and s.score < _QUARTER_TURN_LOOK
    ]
    if not doubtful:
        return chosen
    # a piece that already matches well is aligned again in its own turn too: another
    # turn, aligned afresh, must lead clearly over that, not over its first alignment
    tries = [
        (k, q)
        for k in doubtful
        for q in ((0.0,) if chosen[k].score >= _QUARTER_TURN_DOUBT else ()) + (90.0, 180.0, 270.0)
    ]
    turned = [
        Scored(s.candidate, s.patch, replace(s.match, turn=(s.match.turn + q) % 360, runner=-1))
        for s, q in ((chosen[k], q) for k, q in tries)
    ]
    again = scoring.realigned(pyramid, turned, ~scoring.token_groups)
    bars = {k: chosen[k].score for k in doubtful}
    for (k, q), s in zip(tries, again, strict=True):
        if q == 0.0:
            bars[k] = max(bars[k], s.score) + CLEAR_LEAD
    out = list(chosen)
    for (k, q), s in zip(tries, again, strict=True):
        if q != 0.0 and s.score > max(bars[k], out[k].score):
            out[k] = Scored(s.candidate, s.patch, s.match, chosen[k].cut or s.cut)
    return out


def turned_by_colour(
    scoring: Scoring,
    pyramid: Pyramid,
    chosen: list[Scored],
    faces: dict[int, np.ndarray],
    mask: np.ndarray,
) -> list[Scored]:
    """Each chosen square tile whose colour lies across where its faces have it, turned
    the quarter turn its colour asks for (:func:`vision.colour.quarter_turns_by_colour`;
    ``faces``: each square tile group's, as :attr:`vision.naming.Naming.turn_chroma`,
    on ``mask``).

    Structure may turn a near-round figure a quarter off when the colour that would
    break the tie (a band as bright as the ground) shows no outline in grey; its colour
    and heart are then read turned. Colour says which way the band runs but not which
    end is up, so the piece is aligned in both of those turns and the turn whose
    figure fits best is kept (a garlic's spike, a heart's corner), at that turn's score.
    The colour is compared under every lamp of the config: the frame's light is only
    judged later, from these very pieces.
    """
    bank = scoring.model.square
    if bank is None:
        return chosen
    tiles = [k for k, s in enumerate(chosen) if not s.candidate.round and s.group in faces]
    if not tiles:
        return chosen
    quarters = quarter_turns_by_colour(
        np.stack([chosen[k].patch for k in tiles]),
        [round(chosen[k].turn / 90.0) % 4 for k in tiles],
        [faces[chosen[k].group] for k in tiles],
        mask,
    )
    doubted = [
        (k, (chosen[k].turn + 90.0 * quarter) % 360)
        for k, quarter in zip(tiles, quarters, strict=True)
        if quarter
    ]
    if not doubted:
        return chosen
    config = scoring.config
    tries = [(k, (turn + half) % 360) for k, turn in doubted for half in (0.0, 180.0)]
    placed = align(
        pyramid,
        [chosen[k].candidate.quad for k, _ in tries],
        [[(chosen[k].group, turn)] for k, turn in tries],
        bank,
        config.patch_px,
        config.align_zooms,
        config.align_reach,
    )
    out = list(chosen)
    for n in range(0, len(tries), 2):
        best = n if placed[n][1] >= placed[n + 1][1] else n + 1
        (k, turn), quad = tries[best], placed[best][0]
        s = chosen[k]
        moved = Candidate(quad, False, s.candidate.blob, s.candidate.split, s.candidate.cover)
        patch = pyramid.rectify_many([quad], config.patch_px)[0]
        own = (bank.group == s.group) & (bank.turn == turn)
        vector = structure_vectors(patch[None], bank)[0]
        score = float((bank.vectors[own] @ vector).max())
        match = replace(s.match, turn=turn, score=score)
        out[k] = Scored(moved, patch, match, s.cut or s.candidate)
    return out


def other_motifs(
    scoring: Scoring,
    pyramid: Pyramid,
    chosen: list[Scored],
    turned_down: list[Scored],
    rejected: list[RejectedCandidate],
    size_at: SizeModel | None,
) -> tuple[list[Scored], list[RejectedCandidate]]:
    """Chosen tiles still matching poorly, and pieces of kept splits turned down for
    their match, aligned again with every tile motif and (square ones) turned; a
    clear match (:data:`_QUARTER_TURN_DOUBT`) better than before is kept, and a
    turned-down piece that now passes is a tile.

    Alignment slides the template of the motif (and the runner-up) the first cut
    matched best, and only moves and scales the cut. A cut a few per cent off its
    place or turned by a few degrees matches a face's fine outlines poorly (a 70 px
    tile cut 6 % off and 7° turned matched 0.17, at its place 0.96), so that motif
    is often the wrong one and the right one's template is never slid; and a square
    cut along a blob's misjudged outline (a tile on a cloth of its colour, two tiles
    touching at a corner) lies up to 45° off the tile, which no slide undoes. Each
    motif is slid at the turn it matched best, each turned cut with the motifs it
    matched best, and the best few once more from where they landed.
    Only the few doubtful pieces of a frame are tried (none on most frames).
    """
    tiles = ~scoring.token_groups
    doubtful = [s for s in chosen if not scoring.is_token(s) and s.score < _QUARTER_TURN_DOUBT]
    pieces = doubtful + turned_down
    if not pieces:
        return chosen, rejected
    tries: list[Scored] = []
    owner: list[int] = []
    for k, s in enumerate(pieces):
        bank = scoring.model.bank(s.candidate.round)
        per_group, turns = every_group(s.patch[None], bank, len(scoring.model.groups))
        for g in np.flatnonzero(tiles & (per_group[0] > -1)):
            match = StructureMatch(int(g), float(turns[0, g]), float(per_group[0, g]), 0.0, -1, 0.0)
            tries.append(Scored(s.candidate, s.patch, match, s.cut))
            owner.append(k)
    # a square cut along a misjudged outline lies turned off the tile by up to 45°
    squares = [k for k, s in enumerate(pieces) if not s.candidate.round]
    turned = [
        replace(pieces[k].candidate, quad=_turned_about_centre(pieces[k].candidate.quad, d))
        for k in squares
        for d in _TURN_TRIES
    ]
    tries += scoring.score_structure(pyramid, turned, tiles)
    owner += [k for k in squares for _ in _TURN_TRIES]
    once = scoring.realigned(pyramid, tries, tiles)
    # the few best of each piece aligned once more, from where they landed
    ranked: dict[int, list[Scored]] = {}
    for k, s in zip(owner, once, strict=True):
        ranked.setdefault(k, []).append(s)
    leads = [(k, s) for k, own in ranked.items() for s in best_few(own, _SECOND_ALIGNED)]
    twice = scoring.realigned(pyramid, [s for _, s in leads], tiles)
    best: dict[int, Scored] = {}
    for (k, _), s in zip(leads, twice, strict=True):
        if k not in best or s.score > best[k].score:
            best[k] = s
    out = list(chosen)
    place = {id(s): i for i, s in enumerate(chosen)}
    gone: set[int] = set()
    for k, s in sorted(best.items()):
        old = pieces[k]
        if s.score <= old.score or s.score < _QUARTER_TURN_DOUBT:
            continue
        s = Scored(s.candidate, s.patch, s.match, old.cut or s.cut)
        if id(old) in place:
            out[place[id(old)]] = s
        elif scoring.rejection(s, size_at(s.candidate.center) if size_at else None) is None:
            out.append(s)
            gone.add(id(old))
    if gone:
        centres = {s.candidate.center for s in pieces if id(s) in gone}
        rejected = [r for r in rejected if r.center not in centres]
    out, doubles = one_per_place(out)
    return out, rejected + doubles


def motifs_where_they_differ(scoring: Scoring, chosen: list[Scored]) -> list[Scored]:
    """Each doubtful tile's motif judged once more where the motifs differ.

    Structure is matched over the whole face, and where every face shares most of
    its pattern (a ground of stripes, the figure small in a disc: ``mosaic``) the
    shared part sets the score, and a vampire turned a quarter reads as a coffin by
    0.02-0.05. So the piece, upright in its turn, is compared with its motif and
    with each other motif in each quarter turn only where their faces differ, each
    face allowed a pixel's shift; the other motif is taken where it fits better.
    """
    kinds = scoring.motif_pairs
    doubtful = [
        n
        for n, s in enumerate(chosen)
        if s.group in kinds[s.candidate.round] and s.margin < _MOTIF_DOUBT
    ]
    if not doubtful:
        return chosen
    bands = _upright_bands(scoring, [chosen[n] for n in doubtful])
    by_group: dict[tuple[bool, int], list[int]] = {}
    for k, n in enumerate(doubtful):
        by_group.setdefault((chosen[n].candidate.round, chosen[n].group), []).append(k)
    out = list(chosen)
    for (round_, group), ks in by_group.items():
        challenges = motif_challenges(bands[ks], kinds[round_][group])
        for k, won in zip(ks, challenges, strict=True):
            if won is None:
                continue
            s = chosen[doubtful[k]]
            other, quarters = won
            turn = (s.turn - 90.0 * quarters) % 360.0
            match = replace(s.match, group=other, turn=turn, runner=group, runner_turn=s.turn)
            out[doubtful[k]] = Scored(s.candidate, s.patch, match, s.cut)
    return out


def near_ties_settled(
    scoring: Scoring,
    chosen: list[Scored],
    turned_down: list[Scored],
    rejected: list[RejectedCandidate],
    size_at: SizeModel | None,
) -> tuple[list[Scored], list[RejectedCandidate]]:
    """Pieces of readable splits still turned down as a near tie between two tile
    motifs, kept where the pixels the motifs differ on settle it both ways: the
    piece's motif, or the one that fits it better there, fits better than every
    other motif there (:func:`motifs_where_they_differ` from its side too). Only
    clear structure matches (``sure_tile_min``): a gingham's cells beside a column
    of button tiles matched 0.64, a tie any motif's pixels then settle.

    Where every face shares most of its pattern (a square label, four wedges) a tile
    matches its own motif and another by the same 0.00-0.02 over the whole face, so
    the whole-face lead cannot tell; the windows where the faces differ can.
    """
    still = {r.center for r in rejected}
    tied = [s for s in turned_down if s.candidate.center in still and _near_tie(scoring, s)]
    if not tied:
        return chosen, rejected
    kept = _ties_settled(scoring, tied, size_at)
    if not kept:
        return chosen, rejected
    centres = {s.candidate.center for s in kept}
    out, doubles = one_per_place(chosen + kept)
    return out, [r for r in rejected if r.center not in centres] + doubles


def _near_tie(scoring: Scoring, s: Scored) -> bool:
    """Whether ``s`` is a clear tile match turned down as a near tie with another tile
    motif whose pixels where they differ can judge it (:func:`motifs_where_they_differ`)."""
    return (
        s.group in scoring.motif_pairs[s.candidate.round]
        and scoring.tile_tied_with_tile(s)
        and s.margin < scoring.config.accept_margin_min
    )


def _ties_settled(scoring: Scoring, tied: list[Scored], size_at: SizeModel | None) -> list[Scored]:
    """The near ties between two tile motifs that the pixels where the motifs differ
    settle both ways (see :func:`near_ties_settled`), each with the motif that won and
    its runner-up cleared, where nothing else turns it down."""
    settled = motifs_where_they_differ(scoring, tied)
    kept = []
    for s, again in zip(settled, motifs_where_they_differ(scoring, settled), strict=True):
        if again.group != s.group or again.turn != s.turn:
            continue  # a third motif fits better: no settled tie
        clear = Scored(s.candidate, s.patch, replace(s.match, runner=-1), s.cut)
        if scoring.rejection(clear, size_at(s.candidate.center) if size_at else None) is None:
            kept.append(clear)
    return kept


def kept_settling_ties(
    scoring: Scoring,
    frame: Frame,
    pieces: list[Scored],
    least: float,
    size_at: SizeModel,
    outline: bool = True,
    step_min: float | None = None,
) -> list[Scored]:
    """:meth:`Scoring.kept`, with the pieces it turns down as a near tie between two tile
    motifs kept where the pixels the motifs differ on settle the tie (as
    :func:`near_ties_settled` keeps a split's).

    A search finds a piece the mask missed, and on a face whose figure is small beside
    what every face shares (a spiral of dashes round a disc) the tile matches its own
    motif and another by a hair over the whole face: the search turned it down though
    only its motif was in doubt (whorl seed 7 #1: a yellow coffin alone on a navy
    cloth, cut too large by its blob's halo, found again by its rim at 0.83 against
    0.82)."""
    kept = scoring.kept(frame, pieces, least, size_at, outline, step_min)
    taken = {id(s) for s in kept}
    tied = [s for s in pieces if id(s) not in taken and s.score >= least and _near_tie(scoring, s)]
    if not tied:
        return kept
    settled = _ties_settled(scoring, tied, size_at)
    return kept + scoring.kept(frame, settled, least, size_at, outline, step_min)


#: A tile a search finds and matches this well, wholly in the frame, needs no outline
#: all round (:func:`kept_sure_or_outlined`).
SURE_MATCH = 0.9


def kept_sure_or_outlined(
    scoring: Scoring,
    frame: Frame,
    pieces: list[Scored],
    least: float,
    size_at: SizeModel,
    sure_kinds: bool = True,
) -> list[Scored]:
    """:func:`kept_settling_ties`, but a piece that matches beyond doubt
    (:data:`SURE_MATCH`), lies wholly in the frame and whose outline steps out of the
    cloth's noise (:meth:`Scoring.least_faint_step`) is kept without a clear outline all
    round, where ``sure_kinds`` allows it.

    The outline test turns down a tile whose edge steps by a few grey levels: dark
    tiles on a cloth as light as their ground leave only their figures in the mask, and
    a tile laid round one matched 0.94-0.97 with steps of 3-7 (12 asked; tarot seed
    2024 #13). Over about 650 hard photos such finds under 0.9 were mostly nothing (37
    between 0.85 and 0.9); over it, only a piece half out of the frame over the mat's
    print (0.91) and a disc laid round a figure bit and shifted to fit the print (0.94),
    which :func:`vision.searches.fragments.around_fragments` keeps out (a rim the
    circle search found among the frame's edges is no such guess, and is let through).
    On the empty tables small dice taken for the figure of a tile whose ground is the
    cloth matched 0.90-0.94 too, but a square laid round one crosses cloth alone: its
    outline steps 0.7-1.5 times the cloth's noise, where tarot's tiles step 3.3-6.8
    times it."""
    if not sure_kinds:
        return kept_settling_ties(scoring, frame, pieces, least, size_at)
    # the cloth's step (kept on the frame) is read only in a frame with a sure piece
    sure = [
        s.score >= SURE_MATCH
        and within_frame(s.candidate, frame)
        and scoring.outline_step(frame, s) >= scoring.least_faint_step(frame)
        for s in pieces
    ]
    rest = [s for s, ok in zip(pieces, sure, strict=True) if not ok]
    kept = kept_settling_ties(scoring, frame, rest, least, size_at)
    sure_pieces = [s for s, ok in zip(pieces, sure, strict=True) if ok]
    return kept + kept_settling_ties(scoring, frame, sure_pieces, least, size_at, outline=False)


def clear_ties(scoring: Scoring, before: list[Scored], judged: list[Scored]) -> list[Scored]:
    """The chosen tiles as :func:`motifs_where_they_differ` ``judged`` them, each
    clear structure match (``sure_tile_min``) whose lead over another tile motif is
    a hair and which the pixels where the motifs differ uphold against every other
    motif, with that lead taken as clear: a tile on a shared ground (a square label,
    four wedges) leads by 0.001-0.007 over its whole face, which made it unsure,
    though only its motif was in doubt and that is settled. A piece the judgement
    kept was upheld already; one it gave another motif is judged from that side.

    Leading every other motif where they differ is not enough: a piece cut 0.4 of a
    side off its tile (a red monk on red gingham, half cloth) led them all there while
    its motif fitted it at 0.70. Its motif must fit it there as well as a clear
    structure match fits a whole face (``sure_tile_min``); on three sets' hard photos
    every upheld tile on its place fitted at 0.82 or better."""
    tied = [
        n
        for n, s in enumerate(judged)
        if scoring.tile_tied_with_tile(s) and s.margin < CLEAR_LEAD and scoring.lead(s) < CLEAR_LEAD
    ]
    moved = [n for n in tied if judged[n] is not before[n]]
    rejudged = motifs_where_they_differ(scoring, [judged[n] for n in moved])
    again = dict(zip(moved, rejudged, strict=True))
    upheld = [
        n
        for n in tied
        if again.get(n, judged[n]).group == judged[n].group
        and again.get(n, judged[n]).turn == judged[n].turn
    ]
    fits = _own_fits(scoring, [judged[n] for n in upheld])
    out = list(judged)
    for n, fit in zip(upheld, fits, strict=True):
        s = judged[n]
        if fit >= scoring.config.sure_tile_min:
            out[n] = Scored(s.candidate, s.patch, _lead_taken_as_clear(s.match), s.cut)
    return out


def _lead_taken_as_clear(match: StructureMatch) -> StructureMatch:
    """The match with no runner-up and a clear lead (``CLEAR_LEAD``): a tie settled.

    Dropping the runner alone makes :meth:`Scoring.lead` take the lead as clear only
    under ``accept_margin_min`` (0.02), where it reads the share of the two faces'
    difference; a lead between that and ``CLEAR_LEAD`` was returned as it stood, and
    a round tile whose coloured rim, shared by every face, outweighs its small figure
    (leading by 0.02-0.06) was still reported unsure once its heart was a close call.
    """
    return replace(match, runner=-1, margin=max(match.margin, CLEAR_LEAD))


def _own_fits(scoring: Scoring, pieces: list[Scored]) -> list[float]:
    """How well each tile's motif fits it where that face differs from the others, at
    the worst other (:func:`vision.motifs.own_fits`), the piece upright in its turn."""
    if not pieces:
        return []
    bands = _upright_bands(scoring, pieces)
    fits = np.ones(len(pieces))  # a motif no other differs from fits where none differs
    by_group: dict[tuple[bool, int], list[int]] = {}
    for k, s in enumerate(pieces):
        by_group.setdefault((s.candidate.round, s.group), []).append(k)
    for (round_, group), ks in by_group.items():
        pairs = scoring.motif_pairs[round_].get(group)
        if pairs is not None:
            fits[ks] = own_fits(bands[ks], pairs)
    return [float(f) for f in fits]


def _turned_about_centre(quad: np.ndarray, degrees: float) -> np.ndarray:
    """A quad turned about its centre (clockwise on screen for positive degrees)."""
    centre = quad.mean(axis=0)
    a = math.radians(degrees)
    rotation = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return ((quad - centre) @ rotation.T + centre).astype(np.float32)


def _upright_bands(scoring: Scoring, pieces: list[Scored]) -> np.ndarray:
    """Each piece upright in its turn, band-passed in its bank's grey, with a pixel's
    margin all round for :mod:`vision.motifs`' shifts (N×(P+2)×(P+2))."""
    uprights = np.stack([upright(s.patch, s.turn) for s in pieces]).astype(np.float32)
    bands = np.empty(uprights.shape[:3], np.float32)
    for round_ in {s.candidate.round for s in pieces}:
        rows = [k for k, s in enumerate(pieces) if s.candidate.round == round_]
        bands[rows] = band_pass(uprights[rows], scoring.model.bank(round_).grey)
    return np.pad(bands, ((0, 0), (1, 1), (1, 1)))
