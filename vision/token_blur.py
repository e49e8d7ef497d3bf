"""Token pieces matched again against faces blurred as the photo blurs them.

The templates are cut from the tile set's sharp faces; a piece is cut from a photo the
camera softened and then enlarged to the 40 px patch, so a small token's patch is
blurred by 1-2 px of the patch on top of the structure's own fine blur. What a face
draws finer than that (a back's thin spiral, a ring of small beads) the photo no longer
shows, yet it weighs in the sharp template as much as the coarse parts that do show,
and a token cut right matches its own back at 0.55 where a sharp photo of it matches
0.9 (`rosary` seed 2024 #11: 34 px tokens under a blur of 1.5 px, a row of four backs
turned down). The template the photo would match best is the face blurred as the photo
is (the matched filter for a blurred signal). How blurred the photo is, is read from its
clear matches (:func:`photo_blur`: the blur under which each one's own face fits it
best, in frame pixels, as the naming stage judges hearts by
:data:`vision.colour.FACE_BLURS`), and each poor token-like piece is matched against
every face of the round bank, tiles too, blurred as that blur softens a piece of its
size. A match may rise only as far as blur explains (:func:`bounded`): a blurred
template also forgives what a piece lacks, and a die read as a softened back rose from
0.61 to 0.80. Only faces that blur takes a tenth or more of (:data:`KEPT_MAX`) read
so; a piece changes its reading only where a token's face then leads and reads better
than the piece did, so tiles keep the sharp reading they had.
Part of stage 4 of :mod:`vision.recogniser`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.matching import StructureMatch
from vision.model import AppearanceModel, TemplateBank, structure_vectors
from vision.pieces import Scored
from vision.scoring import Scoring

#: The blurs (pixels of a 40 px patch) the faces are given: a sharp photo's large piece
#: (0) to a soft photo's small token (1.5 px of the frame over 34 px is 1.8 of the patch).
BLURS = (0.0, 0.5, 1.0, 1.5, 2.0, 2.5)
#: Pieces blurred less than this (pixels of the patch) keep their reading: every face
#: keeps 0.97-1.0 of its structure under such a blur (rosary, vesper, orbit, woodcut,
#: nocturne), a gain within the match's own noise that only moves pieces across a
#: threshold by chance (orbit seed 2024 #7: a card's print 0.79 -> 0.81, over the
#: least a token alone must match).
LEAST_BLUR = 1.5
#: Templates that keep at least this share of their structure under a piece's blur
#: keep their sharp match: a face drawn coarser than the photo's blur (every token of
#: nocturne, lantern, ember at up to 2.5 px: 0.91-0.98) gains a few hundredths at most,
#: within the match's noise, which only moved pieces across a threshold (ember: a
#: print 0.63 -> 0.65, a row's faces 0.68 -> 0.70, a clear match); rosary's spiral back
#: keeps 0.81 at 2 px, banner's and seal's two-ring backs 0.71, sticker's rings 0.52.
KEPT_MAX = 0.9
#: Pieces matching a face at least this well keep their reading, and tell the photo's
#: blur (a clear match: its face is known, so how soft the piece is can be read).
_CLEAR = 0.8
#: ...at least this many of them, else the photo's blur is not judged; the best this
#: many of them judge it.
_CLEAR_PIECES = 3
_MOST_CLEAR = 12


@dataclass(frozen=True)
class BlurredBank:
    """The round bank's core templates (every face in every turn, no extra turn or
    scale) made from the faces blurred by each of :data:`BLURS`."""

    rows: np.ndarray  # B×T×D: per blur, unit rows (a group's rows side by side)
    kept: np.ndarray  # B×T: per blur, each template's :func:`kept_share`
    turn: np.ndarray  # T
    members: dict[int, slice]  # group: its templates (rows sorted by group)

    def per_group(
        self, similarity: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[int]]:
        """Each group's best similarity (N×G), the template that gave it and its turn,
        from N rows of similarities with every template; and the groups, in order."""
        groups = list(self.members)
        best = np.empty((len(similarity), len(groups)), np.float32)
        index = np.empty((len(similarity), len(groups)), int)
        for k, g in enumerate(groups):
            own = self.members[g]
            index[:, k] = own.start + similarity[:, own].argmax(axis=1)
            best[:, k] = similarity[np.arange(len(similarity)), index[:, k]]
        return best, index, self.turn[index], groups


def blurred_bank(bank: TemplateBank) -> BlurredBank:
    """The :class:`BlurredBank` of a round bank: made once and kept with the bank."""
    key = "blurred core"
    if key not in bank.zoomed:
        core = np.flatnonzero(bank.core)
        order = np.argsort(bank.group[core], kind="stable")  # each group's rows side by side
        cuts = bank.core_cuts[order].astype(np.float32)
        group_arr = bank.group[core][order]
        rows = np.stack(
            [
                structure_vectors(
                    np.stack([cv2.GaussianBlur(c, (0, 0), blur) if blur > 0 else c for c in cuts]),
                    bank,
                )
                for blur in BLURS
            ]
        )
        members = {}
        for g in np.unique(group_arr):
            own = np.flatnonzero(group_arr == g)
            members[int(g)] = slice(int(own[0]), int(own[-1]) + 1)
        bank.zoomed[key] = BlurredBank(
            rows=np.ascontiguousarray(rows),
            kept=np.stack([kept_share(rows[0], r) for r in rows]),
            turn=bank.turn[core][order],
            members=members,
        )
    return bank.zoomed[key]


def prepare(model: AppearanceModel, token_groups: np.ndarray) -> None:
    """The blurred templates made when the recogniser is built (about a second for a
    round set), not on the first frame that asks for them."""
    if token_groups.any():
        for bank in (model.round, model.square):
            if bank is not None:
                blurred_bank(bank)


def kept_share(sharp: np.ndarray, blurred: np.ndarray) -> np.ndarray:
    """Per template (row), how much of its sharp structure its blurred version
    keeps (their correlation): a back drawn in a thin spiral keeps 0.81 at a blur of
    2 px of the patch, a plain face's coarse figure 0.95."""
    return np.maximum((sharp * blurred).sum(axis=1), 1e-3)


def bounded(blurred: np.ndarray, sharp: np.ndarray, kept: np.ndarray) -> np.ndarray:
    """A piece's match with each blurred template, no better than its match with the
    sharp one allows: a photo of the face blurred so matches the sharp template at
    about ``kept`` of its match with the blurred one, so the sharp match over ``kept``
    is what the blur explains; a template that keeps :data:`KEPT_MAX` or more keeps
    its sharp match. A blurred template also forgives what the piece lacks
    (a die, a pale square, matches a softened back's diamond outline better than its
    sharp one: vesper's dice 0.61 -> 0.80), and this leaves such a gain out."""
    return np.where(kept < KEPT_MAX, np.minimum(blurred, sharp / kept), sharp)


def photo_blur(scoring: Scoring, pieces: list[Scored]) -> float | None:
    """The photo's blur in frame pixels, read from its clear matches (the best
    :data:`_MOST_CLEAR`): for each, the blur of :data:`BLURS` under which its own face
    (its group's faces, turned as it was read, a step either way) fits it best, taken
    back to the frame's pixels by its size; their median. None with too few clear
    matches.

    The clear round pieces judge it where there are enough of them (tokens are what
    it is read for). Where there are not (a square set whose small tokens all read
    short of a clear match, 23-30 px: terrazzo seed 7 #3 has two, seed 2024 #9 none)
    the clear tiles judge it: the camera's blur in frame pixels is the frame's, the
    same for a tile as for a token beside it.

    The blur is the frame's, not the piece's own choice: a piece free to pick its
    blur picks the one that makes it fit, and a softened back (a dark disc with a pale
    middle) fits a die or a print's disc as well (vesper's dice read as backs at 0.9)."""
    clear = [s for s in pieces if s.score >= _CLEAR]
    round_clear = [s for s in clear if s.candidate.round]
    if scoring.model.round is None:
        return None
    if len(round_clear) >= _CLEAR_PIECES:
        clear = round_clear
    elif len(clear) < _CLEAR_PIECES:
        return None
    clear = sorted(clear, key=lambda s: -s.score)[:_MOST_CLEAR]
    patch_blur = []
    for round_ in (True, False):
        own_shape = [s for s in clear if s.candidate.round == round_]
        bank = scoring.model.bank(round_)
        if bank is None or not own_shape:
            continue
        patch_blur += _patch_blurs(scoring, bank, own_shape)
    if not patch_blur:
        return None
    return float(np.median(patch_blur)) / scoring.model.round.mask.shape[0]


def _patch_blurs(scoring: Scoring, bank: TemplateBank, clear: list[Scored]) -> list[float]:
    """For each clear piece of ``bank``'s shape, the blur of :data:`BLURS` its own
    face fits it best under, times the piece's side (over the patch's side: frame
    pixels). A round piece's own face is looked at a turn step either way; a square
    one's in the quarter turn it was read in (its small extra turns are the core's)."""
    blurred = blurred_bank(bank)
    vectors = structure_vectors(np.stack([s.patch for s in clear]), bank)
    reach = scoring.config.round_rotation_step_deg * 1.01 if bank.round else 45.0
    out = []
    for vector, s in zip(vectors, clear, strict=True):
        own = blurred.members.get(s.group)
        if own is None:
            continue
        off = np.abs((blurred.turn[own] - s.turn + 180.0) % 360.0 - 180.0)
        near = own.start + np.flatnonzero(off <= reach)
        if not len(near):
            continue
        fits = (blurred.rows[:, near] @ vector).max(axis=1)
        out.append(BLURS[int(np.argmax(fits))] * s.candidate.side)
    return out


def _nearest_blur(blur: float) -> int:
    """The index in :data:`BLURS` of the blur nearest ``blur`` (patch pixels)."""
    return int(np.argmin([abs(b - blur) for b in BLURS]))


def _worth_a_look(scoring: Scoring, s: Scored) -> bool:
    """A round piece that reads as a token, or has one as its runner-up, short of a
    clear match (``size_anchor_score``: the least a row's end, a size anchor, or a
    piece that is no print must match). A piece matching clearly keeps its sharp
    reading: the thresholds above that one (a token alone, a face in a row's middle)
    were judged on sharp matches, and a few hundredths of gain lifted dice and a card's
    print over the least a token alone must match (0.76-0.79 -> 0.81, on six sets)."""
    m = s.match
    tokens = scoring.token_groups
    return (
        s.candidate.round
        and scoring.config.align_min_score <= s.score < scoring.config.size_anchor_score
        and (bool(tokens[m.group]) or (m.runner >= 0 and bool(tokens[m.runner])))
    )


def blur_matched(
    scoring: Scoring, pieces: list[Scored], middles: frozenset[int] = frozenset()
) -> tuple[list[Scored], frozenset[int]]:
    """Each token-like piece short of a clear match (:func:`_worth_a_look`) matched
    against the whole round bank blurred as the photo (:func:`photo_blur`) blurs a
    piece of its size, each match no better than :func:`bounded` allows; where a
    token's face then leads and reads better than the piece did, the piece takes
    that reading. ``middles`` (pieces on a token row's places, by ``id``) is returned
    with the pieces that took a new reading in place of the old.

    Run after the rows are cut from their clear ends
    (:func:`vision.token_row_cuts.rows_from_ends`), which takes a row's clear pieces
    as its ends: a back lifted to a clear match in a row's middle there made it an
    end, and the row was cut between the wrong two (diagonal seed 7 #9 lost a back).
    The row's new places are matched here too."""
    out = read_blurred(scoring, pieces, pieces)
    for s, t in zip(pieces, out, strict=True):
        if t is not s and id(s) in middles:
            middles = middles | {id(t)}
    return out, middles


def read_blurred(scoring: Scoring, pieces: list[Scored], judges: list[Scored]) -> list[Scored]:
    """``pieces``, each token-like one short of a clear match (:func:`_worth_a_look`)
    matched against the whole round bank blurred as the frame blurs a piece of its
    size (:func:`photo_blur`, judged by the frame's pieces ``judges``, and only where a
    piece is worth the look), each match no better than :func:`bounded` allows: where
    a token's face then leads and reads better than the piece did, the piece takes
    that reading (a new :class:`Scored`); the others are returned as they were. A
    frame whose blur cannot be judged leaves every piece as it was."""
    bank = scoring.model.round
    looked = [i for i, s in enumerate(pieces) if _worth_a_look(scoring, s)]
    if bank is None or not looked:
        return pieces
    frame_blur = photo_blur(scoring, judges)
    if frame_blur is None:
        return pieces
    patch_px = bank.mask.shape[0]
    levels: dict[int, list[int]] = {}
    for i in looked:
        level = _nearest_blur(frame_blur * patch_px / pieces[i].candidate.side)
        if BLURS[level] >= LEAST_BLUR:
            levels.setdefault(level, []).append(i)
    if not levels:
        return pieces
    blurred = blurred_bank(bank)
    tokens = np.concatenate(
        [
            np.arange(own.start, own.stop)
            for g, own in blurred.members.items()
            if scoring.token_groups[g]
        ]
    )
    out = list(pieces)
    for level, batch in levels.items():
        vectors = structure_vectors(np.stack([pieces[i].patch for i in batch]), bank)
        # a token's face can gain at most its sharp match over what blur keeps of it:
        # the pieces that cannot pass their reading so are left out of the whole product
        sharp = vectors @ blurred.rows[0, tokens].T
        reach = (sharp / blurred.kept[level, tokens]).max(axis=1)
        rise = [k for k, i in enumerate(batch) if reach[k] > pieces[i].score]
        if not rise:
            continue
        batch, vectors = [batch[k] for k in rise], vectors[rise]
        scores = bounded(
            vectors @ blurred.rows[level].T, vectors @ blurred.rows[0].T, blurred.kept[level]
        )
        best, index, turns, groups = blurred.per_group(scores)
        order = np.argsort(-best, axis=1)
        for row, i in enumerate(batch):
            s = pieces[i]
            first, second = order[row, 0], order[row, 1]
            group, score = groups[first], float(best[row, first])
            by_blur = blurred.kept[level, index[row, first]] < KEPT_MAX
            if not (by_blur and scoring.token_groups[group]) or score <= s.score:
                continue  # (a sharp template's match, cut a little otherwise, is no news)
            match = StructureMatch(
                group=group,
                turn=float(turns[row, first]),
                score=score,
                margin=score - float(best[row, second]),
                runner=groups[second],
                runner_turn=float(turns[row, second]),
            )
            out[i] = replace(s, match=match)
    return out
