"""A token's face told from its back where the two tie: by what lies inside its rim.

Every disc on a table shows one pattern besides its art: the step from the table to
the disc at its rim, band-passed into a ring (dark inside on a pale table, bright on
a dark one). Where a token's art is faint or alike on both sides (a pale face of a
ring and a dot, a pale back of a thin square, on a dark cloth) that ring is most of
what a 30 px token shows, and a back matches its set's faces about as well as its own
back (``hatch``: 0.84 against 0.85). The face and the back differ only inside the
rim; matched with the rim's own pattern taken out of piece and templates alike, the
back leads by 0.08-0.14. Part of stage 4 of :mod:`vision.recogniser`.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.model import TemplateBank, band_pass, structure_vectors
from vision.pieces import Scored
from vision.scoring import Scoring

#: The disc whose rim pattern is taken out: as wide as the patch (a round piece's cut
#: is its rim's box), drawn at this contrast (any: the pattern is normalised).
_DISC_CONTRAST = 100.0


def rim_pattern(bank: TemplateBank) -> np.ndarray:
    """The unit structure vector (over the bank's mask) of a plain disc filling the
    patch on a plain table: the one pattern every round piece shows, whatever its art
    and whatever the table."""
    size = bank.mask.shape[0]
    ys, xs = np.mgrid[0:size, 0:size]
    centre = (size - 1) / 2
    disc = (np.hypot(xs - centre, ys - centre) <= size / 2).astype(np.float32)
    patch = np.repeat(disc[None, :, :, None], 3, axis=3) * _DISC_CONTRAST
    vector = band_pass(patch, bank.grey)[0][bank.mask]
    vector -= vector.mean()
    return vector / np.linalg.norm(vector)


def without(vectors: np.ndarray, pattern: np.ndarray) -> np.ndarray:
    """Unit rows of ``vectors`` with their share of the unit ``pattern`` taken out."""
    rest = vectors - (vectors @ pattern)[:, None] * pattern[None, :]
    return rest / np.maximum(np.linalg.norm(rest, axis=1, keepdims=True), 1e-6)


#: Per round bank (by identity, the bank kept alive with it): the rim's pattern, the
#: bank's core token templates and those templates with the pattern taken out.
_RIM_FREE: dict[int, tuple[TemplateBank, np.ndarray, np.ndarray, np.ndarray]] = {}
#: ...for this many banks at most (a server keeps one model per tile set).
_KEPT_BANKS = 8


def _rim_free_sides(
    bank: TemplateBank, token_groups: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rim's pattern, the indices of the bank's core token templates (every turn,
    no extra turn or scale: a tie is judged coarsely) and those templates without the
    pattern, as columns: made once per bank."""
    kept = _RIM_FREE.get(id(bank))
    if kept is None or kept[0] is not bank:
        pattern = rim_pattern(bank)
        sides = np.flatnonzero(token_groups[bank.group] & bank.core)
        kept = (bank, pattern, sides, np.ascontiguousarray(without(bank.vectors[sides], pattern).T))
        if len(_RIM_FREE) >= _KEPT_BANKS:
            _RIM_FREE.clear()
        _RIM_FREE[id(bank)] = kept
    return kept[1], kept[2], kept[3]


def face_back_tie(scoring: Scoring, s: Scored) -> bool:
    """Whether a round piece reads as a token's face or back and the other is its
    runner-up by less than a clear lead."""
    match = s.match
    return (
        match.margin < scoring.config.accept_margin_min
        and match.runner >= 0
        and s.candidate.round
        and bool(scoring.token_groups[match.group])
        and bool(scoring.token_groups[match.runner])
    )


def faces_told_from_backs(scoring: Scoring, pieces: list[Scored]) -> list[Scored]:
    """The pieces tied between a token's face and its back (:func:`face_back_tie`),
    each given the side that leads once the rim's pattern is out of the match, with
    that lead as its margin; its score stays the whole match's, so that every
    threshold means what it did."""
    tied = [i for i, s in enumerate(pieces) if face_back_tie(scoring, s)]
    bank = scoring.model.bank(True)
    if not tied or bank is None:
        return pieces
    pattern, sides, columns = _rim_free_sides(bank, scoring.token_groups)
    plain = structure_vectors(np.stack([pieces[i].patch for i in tied]), bank)
    rim_free = without(plain, pattern) @ columns
    groups = bank.group[sides]
    out = list(pieces)
    for row, i in enumerate(tied):
        s = pieces[i]
        # the whole match's score of each side: the piece's, less its margin for the runner
        whole = {s.match.group: s.score, s.match.runner: s.score - s.margin}
        best: dict[int, tuple[float, int]] = {}  # group: rim-free score, column
        for group in whole:
            col = int(np.argmax(np.where(groups == group, rim_free[row], -2.0)))
            best[group] = (float(rim_free[row, col]), col)
        lead, other = sorted(best, key=lambda g: -best[g][0])
        match = replace(
            s.match,
            group=lead,
            turn=float(bank.turn[sides[best[lead][1]]]),
            score=whole[lead],
            margin=best[lead][0] - best[other][0],
            runner=other,
            runner_turn=float(bank.turn[sides[best[other][1]]]),
        )
        out[i] = Scored(s.candidate, s.patch, match, s.cut)
    return out
