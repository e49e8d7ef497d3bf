"""Token pieces matched again against faces blurred as the photo blurs them.

The templates are cut from the tile set's sharp faces; a piece is cut from a photo the
camera softened and then enlarged to the 40 px patch, so a small token's patch is
blurred by 1-2 px of the patch on top of the structure's own fine blur. What a face
draws finer than that (a back's thin spiral, a ring of small beads) the photo no longer
shows, yet it weighs in the sharp template as much as the coarse parts that do show,
and a token cut right matches its own back at 0.55 where a sharp photo of it matches
0.9 (`rosary` seed 2024 #11: 34 px tokens under a blur of 1.5 px, a row of four backs
turned down). The template the photo would match best is the face blurred as the photo
is (the matched filter for a blurred signal): of a few blurs, the one under which the
piece's best face fits it best stands for the photo's blur there, as the naming stage
judges hearts (:data:`vision.colour.FACE_BLURS`). Every face of the bank, tiles too, is
blurred alike, so a piece changes its reading only where a token's face leads at that
blur and reads better than the piece did: tiles keep the sharp reading they had.
Part of stage 4 of :mod:`vision.recogniser`.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.matching import StructureMatch
from vision.model import AppearanceModel, TemplateBank, _turned_quad, structure_vectors
from vision.pieces import Scored
from vision.rectify import flatten_alpha, rectify
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
#: Pieces matching a face at least this well keep their reading, and tell the photo's
#: blur (a clear match: its face is known, so how soft the piece is can be read).
_CLEAR = 0.8
#: ...at least this many of them, else the photo's blur is not judged.
_CLEAR_PIECES = 3


def _round_faces(model: AppearanceModel) -> tuple[list[np.ndarray], list[int]]:
    """The round bank's faces (tiles of a round set, token faces, the back) and each
    one's group, in the model's label order."""
    tileset = model.tileset
    faces, groups = [], []
    for label in model.labels:
        if label.tile is not None:
            if tileset.tile_shape != "round":
                continue
            face, name = tileset.faces[label.tile], label.tile.motif.value
        elif label.token_back:
            face, name = tileset.token_back, "token-back"
        else:
            face, name = tileset.token_faces[label.token_colour], "token"
        faces.append(face)
        groups.append(model.group_names.index(name))
    return faces, groups


def blurred_columns(
    model: AppearanceModel, bank: TemplateBank, blur: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The round bank's core templates (every face in every turn, no extra turn or
    scale) made from the faces blurred by ``blur`` px of the patch, as columns, with
    each one's group and turn: made once per bank and blur."""
    key = ("blurred core", blur)
    if key not in bank.zoomed:
        patch = bank.mask.shape[0]
        turns = np.unique(bank.turn[bank.core])
        patches, groups, turn_of = [], [], []
        for face, group in zip(*_round_faces(model), strict=True):
            flat = flatten_alpha(face)
            h, w = flat.shape[:2]
            for turn in turns:
                cut = rectify(flat, _turned_quad(w, h, float(turn), 1.0), patch)
                cut = cut.astype(np.float32)
                patches.append(cv2.GaussianBlur(cut, (0, 0), blur) if blur > 0 else cut)
                groups.append(group)
                turn_of.append(float(turn))
        vectors = structure_vectors(np.stack(patches), bank.mask)
        bank.zoomed[key] = (
            np.ascontiguousarray(vectors.T),
            np.array(groups),
            np.array(turn_of),
        )
    return bank.zoomed[key]


def prepare(model: AppearanceModel, token_groups: np.ndarray) -> None:
    """The blurred templates made when the recogniser is built (about 0.3 s a blur
    for a round set), not on the first frame that asks for them."""
    bank = model.round
    if bank is None or not token_groups.any():
        return
    for blur in BLURS:
        blurred_columns(model, bank, blur)


def _best_two(
    similarity: np.ndarray, groups: np.ndarray, turns: np.ndarray
) -> tuple[int, float, float, int, float, float]:
    """The best group, its turn and score, and the runner-up's, from one row of
    similarities with every template."""
    per_group: dict[int, tuple[float, float]] = {}
    for g in np.unique(groups):
        own = np.flatnonzero(groups == g)
        k = own[int(np.argmax(similarity[own]))]
        per_group[int(g)] = (float(similarity[k]), float(turns[k]))
    ranked = sorted(per_group, key=lambda g: -per_group[g][0])
    best = ranked[0]
    runner = ranked[1] if len(ranked) > 1 else -1
    runner_score, runner_turn = per_group[runner] if runner >= 0 else (-1.0, 0.0)
    return best, per_group[best][1], per_group[best][0], runner, runner_turn, runner_score


def photo_blur(scoring: Scoring, pieces: list[Scored]) -> float | None:
    """The photo's blur in frame pixels, read from its clear matches: for each, the
    blur of :data:`BLURS` under which its own face fits it best, taken back to the
    frame's pixels by its size; their median. None with too few clear matches.

    The blur is the frame's, not the piece's own choice: a piece free to pick its
    blur picks the one that makes it fit, and a softened back (a dark disc with a pale
    middle) fits a die or a print's disc as well (vesper's dice read as backs at 0.9)."""
    bank = scoring.model.round
    clear = [s for s in pieces if s.candidate.round and s.score >= _CLEAR]
    if bank is None or len(clear) < _CLEAR_PIECES:
        return None
    vectors = structure_vectors(np.stack([s.patch for s in clear]), bank.mask)
    tables = [blurred_columns(scoring.model, bank, blur) for blur in BLURS]
    blurs = []
    for row, s in enumerate(clear):
        fits = [
            float((vectors[row] @ columns[:, groups == s.group]).max())
            for columns, groups, _ in tables
        ]
        patch_blur = BLURS[int(np.argmax(fits))]
        blurs.append(patch_blur * s.candidate.side / bank.mask.shape[0])
    return float(np.median(blurs))


def kept_share(sharp: np.ndarray, blurred: np.ndarray) -> np.ndarray:
    """Per template (column), how much of its sharp structure its blurred version
    keeps (their correlation): a back drawn in a thin spiral keeps 0.81 at a blur of
    2 px of the patch, a plain face's coarse figure 0.95."""
    return np.maximum((sharp * blurred).sum(axis=0), 1e-3)


def bounded(blurred: np.ndarray, sharp: np.ndarray, kept: np.ndarray) -> np.ndarray:
    """A piece's match with each blurred template, no better than its match with the
    sharp one allows: a photo of the face blurred so matches the sharp template at
    about ``kept`` of its match with the blurred one, so the sharp match over ``kept``
    is what the blur explains. A blurred template also forgives what the piece lacks
    (a die, a pale square, matches a softened back's diamond outline better than its
    sharp one: vesper's dice 0.61 -> 0.80), and this leaves such a gain out."""
    return np.minimum(blurred, sharp / kept)


def _nearest_blur(blur: float) -> int:
    """The index in :data:`BLURS` of the blur nearest ``blur`` (patch pixels)."""
    return int(np.argmin([abs(b - blur) for b in BLURS]))


def _worth_a_look(scoring: Scoring, s: Scored) -> bool:
    """A round piece that reads as a token, or has one as its runner-up, short of a
    clear match."""
    m = s.match
    tokens = scoring.token_groups
    return (
        s.candidate.round
        and scoring.config.align_min_score <= s.score < _CLEAR
        and (bool(tokens[m.group]) or (m.runner >= 0 and bool(tokens[m.runner])))
    )


def blur_matched(scoring: Scoring, pieces: list[Scored]) -> list[Scored]:
    """Each token-like piece short of a clear match (:func:`_worth_a_look`) matched
    against the whole round bank blurred as the photo (:func:`photo_blur`) blurs a
    piece of its size; where a token's face then leads and reads better than the
    piece did, the piece takes that reading."""
    bank = scoring.model.round
    looked = [i for i, s in enumerate(pieces) if _worth_a_look(scoring, s)]
    if bank is None or not looked:
        return pieces
    frame_blur = photo_blur(scoring, pieces)
    if frame_blur is None:
        return pieces
    patch_px = bank.mask.shape[0]
    levels = {i: _nearest_blur(frame_blur * patch_px / pieces[i].candidate.side) for i in looked}
    looked = [i for i in looked if BLURS[levels[i]] >= LEAST_BLUR]
    if not looked:
        return pieces
    vectors = structure_vectors(np.stack([pieces[i].patch for i in looked]), bank.mask)
    sharp, _, _ = blurred_columns(scoring.model, bank, 0.0)
    out = list(pieces)
    for row, i in enumerate(looked):
        s = pieces[i]
        columns, groups, turns = blurred_columns(scoring.model, bank, BLURS[levels[i]])
        scores = bounded(vectors[row] @ columns, vectors[row] @ sharp, kept_share(sharp, columns))
        group, turn, score, runner, runner_turn, runner_score = _best_two(scores, groups, turns)
        if not scoring.token_groups[group] or score <= s.score:
            continue
        match = StructureMatch(
            group=group,
            turn=turn,
            score=score,
            margin=score - runner_score,
            runner=runner,
            runner_turn=runner_turn,
        )
        out[i] = replace(s, match=match)
    return out
