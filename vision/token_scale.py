"""A token's size read finely from its own face, for art that forgives no size error.

A token back drawn as thin concentric rings (or any fine radial pattern) matches its
template only within a few per cent of its size: on a rendered hard photo a row of
such backs matched 0.72-0.75 at their size, 0.55 cut 3.5 % large and nothing (0.2)
at 7.5 %, while their face-up ends matched 0.9 over ±10 %. The mask swells a disc by
the photo's blur and the rim search places the edge a pixel or two out, so such a
piece cut by either reads as the nearest tile figure (0.5-0.6) and its whole row is
turned down with it; the alignment's zooms (10 % apart) step over the size too.

Here a piece is cut at a few sizes close together about where it was cut, then a
pixel or two about its place, then at sizes closer still, each cut matched with the
token templates alone; the cut where it reads best as a token wins (35 cuts, about
1.5 ms a piece). Nothing here knows a tile set: the templates say what a token looks like.
"""

from __future__ import annotations

import numpy as np

from vision.matching import StructureMatch, match_structure
from vision.model import TemplateBank, structure_vectors
from vision.pieces import scaled_quad
from vision.rectify import Pyramid

#: Sizes tried, as shares of the cut: the rim fit lies a pixel or two outside a
#: blurred edge (3-6 % of a 50 px token), and the fine pattern forgives about ±3 %.
FINE_FACTORS = (0.88, 0.91, 0.94, 0.97, 1.0, 1.03, 1.06)
#: ...and once placed, sizes this close about the one found.
FINER_FACTORS = (0.985, 1.0, 1.015)
#: Places tried, in steps of this share of the side (a pixel or so of a patch).
SHIFT_STEP = 0.025
SHIFTS = (-2, -1, 0, 1, 2)


def finest_token_sizes(
    pyramid: Pyramid,
    quads: list[np.ndarray],
    bank: TemplateBank,
    n_groups: int,
    token_groups: np.ndarray,
    patch_px: int,
) -> list[tuple[np.ndarray, np.ndarray, StructureMatch]]:
    """For each quad, the cut that matches a token best, found by sizes, then places,
    then sizes again (each a few per cent apart); its patch and its match against the
    *whole* bank (so the caller can tell whether a token, not a tile, is what the piece
    reads as there)."""
    columns = _token_columns(bank, token_groups)
    if not quads or columns.shape[1] == 0:
        return []
    best = list(quads)
    for moves in (_resized, _shifted, _resized_finely):
        tries = [moves(q) for q in best]
        flat = [c for t in tries for c in t]
        vectors = structure_vectors(pyramid.rectify_many(flat, patch_px), bank)
        scores = (vectors @ columns).max(axis=1)
        start = 0
        for k, t in enumerate(tries):
            best[k] = t[int(np.argmax(scores[start : start + len(t)]))]
            start += len(t)
    patches = pyramid.rectify_many(best, patch_px)
    whole = match_structure(patches, bank, n_groups, core_only=False)
    return [(best[j], patches[j], whole[j]) for j in range(len(quads))]


def _token_columns(bank: TemplateBank, token_groups: np.ndarray) -> np.ndarray:
    """The bank's core token templates, transposed to multiply: the search compares
    many cuts with tokens alone, so the tiles' templates (most of a bank) are left out
    of the product rather than masked after it. Cut once per bank, and kept with the
    templates the bank derives on first use."""
    key = ("token columns", token_groups.tobytes())
    if key not in bank.zoomed:
        chosen = bank.core & token_groups[bank.group]
        bank.zoomed[key] = np.ascontiguousarray(bank.vectors[chosen].T)
    return bank.zoomed[key]


def prepare(bank: TemplateBank, token_groups: np.ndarray) -> None:
    """The bank's token templates cut now, when the recogniser is built, not on the
    first frame that needs them."""
    _token_columns(bank, token_groups)


def _resized(quad: np.ndarray) -> list[np.ndarray]:
    return [scaled_quad(quad, f) for f in FINE_FACTORS]


def _resized_finely(quad: np.ndarray) -> list[np.ndarray]:
    return [scaled_quad(quad, f) for f in FINER_FACTORS]


def _shifted(quad: np.ndarray, step: float = SHIFT_STEP) -> list[np.ndarray]:
    along = step * float(np.linalg.norm(quad[1] - quad[0]))
    return [
        (quad + np.array([dx, dy], np.float32) * along).astype(np.float32)
        for dy in SHIFTS
        for dx in SHIFTS
    ]
