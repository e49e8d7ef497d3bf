"""Stage 4: what a patch shows, up to its colour, and where exactly it lies.

A candidate is first compared with the core templates (every face in every turn) in
one matrix product for all candidates of a frame. The most promising are then
aligned: the mean band-passed image of the best groups is slid over a slightly
larger cut of the frame at three zooms (normalised correlation, as
``cv2.matchTemplate`` computes it, through spectra), which moves the cut
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
    vectors = structure_vectors(patches, bank)
    screen = bank.screen(core_only)
    if screen is None:
        per_group, best_turn = _group_bests(vectors, bank, n_groups, core_only)
    else:
        per_group, best_turn = _screened_group_bests(vectors, screen, n_groups, allowed)
    if allowed is not None:
        per_group[:, ~allowed] = -1.0
    # the two best groups of every patch, read out as plain floats at once: building
    # each match from NumPy scalars cost as much as matching a small batch
    order = np.argsort(-per_group, axis=1)
    rows = np.arange(len(patches))
    best = order[:, 0]
    second = order[:, 1] if n_groups > 1 else best
    has_runner = (per_group[rows, second] > -1).tolist() if n_groups > 1 else [False] * len(rows)
    scores, runner_scores = per_group[rows, best].tolist(), per_group[rows, second].tolist()
    turns, runner_turns = best_turn[rows, best].tolist(), best_turn[rows, second].tolist()
    return [
        StructureMatch(
            group=g,
            turn=turns[i],
            score=scores[i],
            margin=scores[i] - runner_scores[i] if has_runner[i] else 1.0,
            runner=r if has_runner[i] else -1,
            runner_turn=runner_turns[i] if has_runner[i] else 0.0,
        )
        for i, (g, r) in enumerate(zip(best.tolist(), second.tolist(), strict=True))
    ]


def lead_share(patch: np.ndarray, bank: TemplateBank, match: StructureMatch) -> float:
    """How far a piece lies from its runner-up's face towards its best one: 0 halfway
    between the two, 0.5 exactly on the best (each group's best core face at its turn).

    A lead in correlation says little by itself: two faces that differ only in a small
    figure (a large shared ground, a line across every face) correlate 0.9 with each
    other, and a piece lying exactly on one of them leads the other by 0.1 at most. So a
    near tie is judged by the share of the two faces' own difference the piece shows.
    """
    if match.runner < 0:
        return 0.5
    vector = structure_vectors(patch[None], bank)[0]

    def best_face(group: int, turn: float) -> np.ndarray:
        own = np.flatnonzero((bank.group == group) & (bank.turn == turn) & bank.core)
        if not len(own):  # a turn the bank was not cut at: any of the group's faces
            own = np.flatnonzero((bank.group == group) & bank.core)
        return bank.vectors[own[int(np.argmax(bank.vectors[own] @ vector))]]

    best, runner = best_face(match.group, match.turn), best_face(match.runner, match.runner_turn)
    difference = best - runner
    spread = float(difference @ difference)
    if spread < 1e-6:
        return 0.0
    return float((vector - runner) @ difference) / spread - 0.5


def every_group(
    patches: np.ndarray, bank: TemplateBank, n_groups: int
) -> tuple[np.ndarray, np.ndarray]:
    """Each group's best correlation with each patch (N×G, -1 for groups not in the
    bank) and the turn that gave it, over the core templates: every group's own
    verdict, not only the two best, for a piece whose best may be the wrong one."""
    return _group_bests(structure_vectors(patches, bank), bank, n_groups, True)


def _group_bests(
    vectors: np.ndarray, bank: TemplateBank, n_groups: int, core_only: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Each group's best correlation (N×G, -1 for groups not in the bank) and the
    turn of the template that gave it, from the full product with every template."""
    templates, _, turns = bank.columns(core_only)
    similarity = vectors @ templates
    per_group = np.full((len(vectors), n_groups), -1.0, np.float32)
    best_turn = np.zeros((len(vectors), n_groups))
    rows = np.arange(len(vectors))
    for g, own in bank.group_runs(core_only):
        # the first of equal values, as over the gathered columns
        if isinstance(own, slice):
            column = similarity[:, own].argmax(axis=1) + own.start
        else:
            column = own[similarity[:, own].argmax(axis=1)]
        per_group[:, g] = similarity[rows, column]
        best_turn[:, g] = turns[column]
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
    # each patch's templates gathered into one buffer: a fresh array per patch (a
    # megabyte on a round bank) cost more in new memory than the product
    gathered = np.empty((int(np.diff(bounds).max(initial=0)), screen.rows.shape[1]), np.float32)
    for i in range(len(vectors)):
        a, b = bounds[i], bounds[i + 1]
        rows_i = np.take(screen.rows, cols[a:b], axis=0, out=gathered[: b - a], mode="clip")
        scores[a:b] = rows_i @ vectors[i]
    # per (patch, group): the highest score, the first template on a tie (as argmax)
    key = rows * n_groups + screen.group[cols]
    per_group = np.full((len(vectors), n_groups), -1.0, np.float32)
    best_turn = np.zeros((len(vectors), n_groups))
    if not len(key):
        return per_group, best_turn  # every group left out
    # the entries come patch by patch and, within a patch, in the templates' order, which
    # runs group by group: each (patch, group) is one run of entries, no sort needed
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    best = np.maximum.reduceat(scores, starts)
    hits = np.flatnonzero(scores == np.repeat(best, np.diff(np.r_[starts, len(key)])))
    first = hits[np.r_[True, key[hits[1:]] != key[hits[:-1]]]]
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
    size = _band_size(patch_px, reach)
    wides = _widened(quads, size, patch_px)
    # a quad asked for in several turns at once (vision.doubts tries each quarter turn
    # of a piece) is cut, band-passed and transformed once: the same pixels, the same band
    band_of, firsts = _same_quads(wides)
    bands = band_pass(pyramid.rectify_many([wides[k] for k in firsts], size), bank.grey)
    inner = _mask_margin(bank.mask)
    # every (quad, template) pair, in the order a quad's fits are compared (zoom, then
    # hypothesis): the first of equal fits wins, as it did when each was slid in turn
    tries: list[tuple[int, int, np.ndarray, float]] = []  # band, side, spectrum, norm
    owner: list[int] = []  # the quad of each try
    for index, keys in enumerate(hypotheses):
        for zoom in zooms:
            for key in keys:
                template = _spectrum(bank, key, zoom, inner, size)
                if template is not None:
                    tries.append((band_of[index], *template))
                    owner.append(index)
    fits = np.full(len(tries), -2.0)
    places = np.zeros((len(tries), 2), int)
    if tries:
        spectra = [cv2.dft(np.ascontiguousarray(band)) for band in bands]
        integrals = _integrals(bands)
        for side in sorted({t[1] for t in tries}):
            chosen = [k for k, t in enumerate(tries) if t[1] == side]
            fits[chosen], places[chosen] = _best_places(
                [tries[k] for k in chosen], spectra, integrals, side
            )
    tries_of: dict[int, list[int]] = {}
    for k, index in enumerate(owner):
        tries_of.setdefault(index, []).append(k)
    out = []
    for index, (quad, wide) in enumerate(zip(quads, wides, strict=True)):
        own = tries_of.get(index)
        if not own:
            out.append((quad, -1.0))
            continue
        best = own[int(np.argmax(fits[own]))]
        side, (x, y) = tries[best][1], places[best]
        # the template's edge lies ``inner`` (zoomed) inside the tile's
        extent = patch_px * side / (patch_px - 2 * inner)
        x0 = x - (extent - side) / 2
        y0 = y - (extent - side) / 2
        box = np.array([[x0, y0], [x0 + extent, y0], [x0 + extent, y0 + extent], [x0, y0 + extent]])
        out.append((_unwarp(box, wide, size), float(fits[best])))
    return out


def prepare_alignment(
    bank: TemplateBank, patch_px: int, zooms: tuple[float, ...], reach: float
) -> None:
    """Every alignment template of the bank made now at each zoom, as :func:`align`
    will ask for it: made on first use, a round bank's (a few hundred templates, three
    zooms) cost its early frames up to ~40 ms, spread unevenly over the first dozen."""
    size, inner = _band_size(patch_px, reach), _mask_margin(bank.mask)
    for key in bank.align:
        for zoom in zooms:
            _spectrum(bank, key, zoom, inner, size)


def _band_size(patch_px: int, reach: float) -> int:
    """The side of the cut :func:`align` slides templates over: the patch, ``reach``
    of it wider on every side."""
    return patch_px + 2 * max(2, round(reach * patch_px))


def _widened(quads: list[np.ndarray], size: int, patch_px: int) -> list[np.ndarray]:
    """Each quad scaled by ``size / patch_px`` about its centre; all at once where they
    share a type (the same arithmetic, element by element, as quad by quad)."""
    if len({q.dtype for q in quads}) != 1 or any(q.shape != (4, 2) for q in quads):
        return [q.mean(axis=0) + (q - q.mean(axis=0)) * size / patch_px for q in quads]
    stacked = np.stack(quads)
    centre = stacked.mean(axis=1, keepdims=True)
    return list(centre + (stacked - centre) * size / patch_px)


def _same_quads(quads: list[np.ndarray]) -> tuple[list[int], list[int]]:
    """For each quad, the index of its band among the distinct quads (equal corners,
    exactly), and the first quad of each distinct one."""
    seen: dict[tuple, int] = {}
    band_of, firsts = [], []
    for k, quad in enumerate(quads):
        quad = np.asarray(quad)
        name = (quad.dtype.str, quad.shape, quad.tobytes())
        if name not in seen:
            seen[name] = len(firsts)
            firsts.append(k)
        band_of.append(seen[name])
    return band_of, firsts


def _integrals(bands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Summed-area tables of the bands and of their squares (N×(S+1)×(S+1), float64)."""
    tables = [cv2.integral2(np.ascontiguousarray(band), sdepth=cv2.CV_64F) for band in bands]
    return np.stack([t[0] for t in tables]), np.stack([t[1] for t in tables])


def _best_places(
    tries: list[tuple[int, int, np.ndarray, float]],
    spectra: list[np.ndarray],
    integrals: tuple[np.ndarray, np.ndarray],
    side: int,
) -> tuple[np.ndarray, np.ndarray]:
    """``cv2.TM_CCOEFF_NORMED`` of templates of one ``side`` with their quads' bands,
    all at once: each best fit and where it lies (x, y).

    The correlation goes through spectra: each band is transformed once, not once per
    template and zoom as ``cv2.matchTemplate`` does, and the normalisation (the band's
    spread under the template at each place, from its summed-area tables) is done for
    all pairs together. OpenCV's handling of rounding is kept: values just past ±1
    are ±1, further ones 0.
    """
    sums, squares = integrals
    span = sums.shape[1] - side  # places along each axis
    quads = np.array([t[0] for t in tries])

    def window(t: np.ndarray) -> np.ndarray:
        return t[:, side:, side:] - t[:, :-side, side:] - t[:, side:, :-side] + t[:, :-side, :-side]

    s1 = window(sums)
    spread = np.sqrt(np.maximum(window(squares) - s1 * s1 / (side * side), 0.0))[quads]
    correlation = np.empty((len(tries), span, span), np.float32)
    for k, (quad, _, spectrum, _) in enumerate(tries):
        product = cv2.mulSpectrums(spectra[quad], spectrum, 0, conjB=True)
        correlation[k] = cv2.idft(product, flags=cv2.DFT_REAL_OUTPUT | cv2.DFT_SCALE)[:span, :span]
    norms = np.array([t[3] for t in tries])
    with np.errstate(divide="ignore", invalid="ignore"):
        value = correlation / (spread * norms[:, None, None]).astype(np.float32)
    value[~(np.abs(value) < 1.125)] = 0.0
    np.clip(value, -1.0, 1.0, out=value)
    flat = value.reshape(len(tries), -1)
    best = flat.argmax(axis=1)  # the first of equal values, as cv2.minMaxLoc
    fits = flat[np.arange(len(tries)), best]
    return fits, np.stack([best % span, best // span], axis=1)


def _spectrum(
    bank: TemplateBank, key: tuple[int, float], zoom: float, inner: int, size: int
) -> tuple[int, np.ndarray, float] | None:
    """The alignment template of ``key`` at ``zoom``, ready to correlate with a band
    ``size`` wide: its side, the spectrum of the template less its mean (zero-padded
    to the band's size, in ``cv2.dft``'s packing) and the length of that. Made once per
    bank, like :func:`_zoomed`; None where the template does not fit in the band."""
    cache = bank.zoomed
    name = ("spectrum", key, zoom, size)
    if name not in cache:
        template = _zoomed(bank, key, zoom, inner)
        if template is None or template.shape[0] > size:
            cache[name] = None
        else:
            side = template.shape[0]
            centred = template.astype(np.float64) - template.mean(dtype=np.float64)
            padded = np.zeros((size, size), np.float32)
            padded[:side, :side] = centred
            norm = float(np.sqrt(np.sum(centred * centred)))
            cache[name] = (side, cv2.dft(padded), norm)
    return cache[name]


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
