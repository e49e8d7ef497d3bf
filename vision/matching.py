"""Stage 4: what a patch shows, up to its colour, and where exactly it lies.

A candidate is first compared with the core templates (every face in every turn) in
one matrix product for all candidates of a frame. The most promising are then
aligned: the mean band-passed image of the best groups is slid over a slightly
larger cut of the frame at three zooms (``cv2.matchTemplate``), which moves the cut
onto the tile even when the blob it came from included a shadow or a neighbour's
edge. Aligned patches are judged once more against the full bank, whose extra
turns and scales absorb what alignment leaves.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.model import Screen, TemplateBank, band_pass, structure_vectors
from vision.rectify import Pyramid

#: Room left in screening bounds for float32 rounding (correlations are at most 1).
_ROUNDING = 1e-4


@dataclass(frozen=True)
class StructureMatch:
    """The best group for one patch, how well it matched, and its nearest rival."""

    group: int
    turn: float
    score: float
    margin: float
    runner: int
    runner_turn: float


def match_structure(
    patches: np.ndarray,
    bank: TemplateBank,
    n_groups: int,
    core_only: bool,
    allowed: np.ndarray | None = None,
) -> list[StructureMatch]:
    """Best group and turn for each patch (N×P×P×3), by normalised correlation;
    ``allowed`` (a bool per group) leaves the other groups out."""
    if len(patches) == 0:
        return []
    vectors = structure_vectors(patches, bank.mask)
    screen = bank.screen(core_only)
    if screen is None:
        per_group, best_turn = _group_bests(vectors, bank, n_groups, core_only)
    else:
        per_group, best_turn = _screened_group_bests(vectors, screen, n_groups, allowed)
    if allowed is not None:
        per_group[:, ~allowed] = -1.0
    order = np.argsort(-per_group, axis=1)
    matches = []
    for i in range(len(patches)):
        g = int(order[i, 0])
        runner = int(order[i, 1]) if n_groups > 1 and per_group[i, order[i, 1]] > -1 else -1
        score = float(per_group[i, g])
        matches.append(
            StructureMatch(
                group=g,
                turn=float(best_turn[i, g]),
                score=score,
                margin=score - float(per_group[i, runner]) if runner >= 0 else 1.0,
                runner=runner,
                runner_turn=float(best_turn[i, runner]) if runner >= 0 else 0.0,
            )
        )
    return matches


def _group_bests(
    vectors: np.ndarray, bank: TemplateBank, n_groups: int, core_only: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Each group's best correlation (N×G, -1 for groups not in the bank) and the
    turn of the template that gave it, from the full product with every template."""
    templates, groups, turns = bank.columns(core_only)
    similarity = vectors @ templates
    per_group = np.full((len(vectors), n_groups), -1.0, np.float32)
    best_turn = np.zeros((len(vectors), n_groups))
    rows = np.arange(len(vectors))
    for g in np.unique(groups):
        own = np.flatnonzero(groups == g)
        arg = similarity[:, own].argmax(axis=1)
        per_group[:, g] = similarity[rows, own[arg]]
        best_turn[:, g] = turns[own[arg]]
    return per_group, best_turn


def _screened_group_bests(
    vectors: np.ndarray, screen: Screen, n_groups: int, allowed: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_group_bests` for the two best groups of each patch, exactly, at a fraction
    of the cost: a product in a few principal dimensions bounds every correlation
    (see :class:`vision.model.Screen`), and only templates that could still be the best
    of one of the two best groups are correlated in full. The groups below those two
    may be left at -1 or below their true best; the choice and its margin only ever
    look at the two best.
    """
    coeffs = vectors @ screen.basis
    approx = coeffs @ screen.coarse  # N×T, each within ``slack`` of the correlation
    outside = np.sqrt(
        np.maximum(
            np.einsum("ij,ij->i", vectors, vectors, dtype=np.float64)
            - np.einsum("ij,ij->i", coeffs, coeffs, dtype=np.float64),
            0.0,
        )
    )
    # the bound, plus room for float32 rounding in either product
    slack = (outside[:, None] * screen.residual[None, :] + _ROUNDING).astype(np.float32)
    lower = np.maximum.reduceat(approx, screen.starts, axis=1) - slack  # N×S: each group's best
    if allowed is not None:
        lower[:, ~allowed[screen.segment_group]] = -np.inf
    if lower.shape[1] > 1:
        second = np.partition(lower, -2, axis=1)[:, -2:-1]
    else:
        second = np.full((len(vectors), 1), -np.inf, np.float32)
    # a template may be its group's best only if it can reach the group's surest
    # template, and matter only if it can reach the second surest group
    bar = np.maximum(lower, second) - slack
    if allowed is not None:
        bar[:, ~allowed[screen.segment_group]] = np.inf
    rows, cols = np.nonzero(approx >= np.repeat(bar, screen.sizes, axis=1))
    scores = np.empty(len(cols), np.float32)
    bounds = np.searchsorted(rows, np.arange(len(vectors) + 1))
    for i in range(len(vectors)):
        a, b = bounds[i], bounds[i + 1]
        scores[a:b] = screen.rows[cols[a:b]] @ vectors[i]
    # per (patch, group): the highest score, the first template on a tie (as argmax)
    key = rows * n_groups + screen.group[cols]
    per_group = np.full((len(vectors), n_groups), -1.0, np.float32)
    best_turn = np.zeros((len(vectors), n_groups))
    if not len(key):
        return per_group, best_turn  # every group left out
    order = np.lexsort((cols, -scores, key))
    first = order[np.r_[True, key[order[1:]] != key[order[:-1]]]]
    per_group.flat[key[first]] = scores[first]
    best_turn.flat[key[first]] = screen.turn[cols[first]]
    return per_group, best_turn


def align(
    pyramid: Pyramid,
    quads: list[np.ndarray],
    hypotheses: list[list[tuple[int, float]]],
    bank: TemplateBank,
    patch_px: int,
    zooms: tuple[float, ...],
    reach: float,
) -> list[tuple[np.ndarray, float]]:
    """Move and scale each quad to where its hypotheses' templates fit best.

    The frame is cut ``reach`` (a share of the side) wider on every side of each
    quad (all cuts at once); each of the quad's (group, turn) templates is slid over
    its cut at each zoom. Returns each new quad and its fit (the quad as it was, and
    -1, where no template applies).
    """
    margin = max(2, round(reach * patch_px))
    size = patch_px + 2 * margin
    wides = []
    for quad in quads:
        centre = quad.mean(axis=0)
        wides.append(centre + (quad - centre) * size / patch_px)
    bands = band_pass(pyramid.rectify_many(wides, size))
    inner = _mask_margin(bank.mask)
    out = []
    for quad, wide, band, keys in zip(quads, wides, bands, hypotheses, strict=True):
        best_fit, best_box = -2.0, None
        for zoom in zooms:
            for key in keys:
                template = _zoomed(bank, key, zoom, inner)
                if template is None or template.shape[0] > size:
                    continue
                response = cv2.matchTemplate(band, template, cv2.TM_CCOEFF_NORMED)
                _, fit, _, (x, y) = cv2.minMaxLoc(response)
                if fit > best_fit:
                    # the template's edge lies ``inner`` (zoomed) inside the tile's
                    extent = patch_px * template.shape[0] / (patch_px - 2 * inner)
                    x0 = x - (extent - template.shape[0]) / 2
                    y0 = y - (extent - template.shape[0]) / 2
                    best_fit = fit
                    best_box = np.array(
                        [[x0, y0], [x0 + extent, y0], [x0 + extent, y0 + extent], [x0, y0 + extent]]
                    )
        if best_box is None:
            out.append((quad, -1.0))
        else:
            out.append((_unwarp(best_box, wide, size), float(best_fit)))
    return out


def _zoomed(
    bank: TemplateBank, key: tuple[int, float], zoom: float, inner: int
) -> np.ndarray | None:
    """The alignment template of ``key`` (its edge margin cut off) at ``zoom``, made once
    per bank: resizing the few templates is cheaper than resizing every cut."""
    cache = bank.zoomed
    if (key, zoom) not in cache:
        template = bank.align.get(key)
        if template is not None:
            if inner:
                template = template[inner:-inner, inner:-inner]
            side = max(8, round(template.shape[0] * zoom))
            template = cv2.resize(template, (side, side), interpolation=cv2.INTER_AREA)
            template = np.ascontiguousarray(template, np.float32)
        cache[(key, zoom)] = template
    return cache[(key, zoom)]


def _mask_margin(mask: np.ndarray) -> int:
    """How many rows a square mask leaves out at the edge (0 for round masks)."""
    rows = np.flatnonzero(mask.any(axis=1))
    if not len(rows):
        return 0
    first = int(rows[0])
    return first if mask[first].sum() == mask[mask.shape[0] // 2].sum() else 0


def _unwarp(box: np.ndarray, quad: np.ndarray, size: int) -> np.ndarray:
    """Map a box in the coordinates of ``rectify(…, quad, size)`` back to the frame."""
    edge = size - 0.5
    target = np.array([[-0.5, -0.5], [edge, -0.5], [edge, edge], [-0.5, edge]], np.float32)
    # the map from the cut back to the frame, directly rather than as an inverse
    homography = cv2.getPerspectiveTransform(target, (quad - 0.5).astype(np.float32))
    points = (box - 0.5).reshape(-1, 1, 2).astype(np.float32)
    back = cv2.perspectiveTransform(points, homography)[:, 0] + 0.5
    return back.astype(np.float32)
