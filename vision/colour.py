"""Stage 4: colour under an unknown lamp.

A warm lamp multiplies red up and blue down; a camera's white balance undoes part of it,
never all. Judged by raw hue, yellow drifts towards orange and blue towards purple.
So the light is estimated for the whole frame from the objects themselves: every
candidate has already been matched in grey (structure does not care about the lamp),
which fixes *which* faces it may be; the frame's channel gains are then the ones under
which those faces explain the candidates best. A lamp is searched along the colour
temperatures of real light, then refined per channel (for a green or magenta cast).

Each candidate's colour is then the member of its group (the five colours of its
motif, or the token colours) that fits best, with a per-object brightness and offset
left free (shading, a gradient, a shadow across one tile).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

NEUTRAL_KELVIN = 6500.0
#: Blur (pixels of a 40 px patch) before two close members are compared.
PAIR_BLUR = 2.0


def kelvin_gains(kelvin: float) -> np.ndarray:
    """BGR gains of a black-body light at ``kelvin`` relative to 6500 K (green kept at 1)."""

    def rgb(temp: float) -> np.ndarray:
        t = temp / 100.0
        red = 255.0 if t <= 66 else 329.7 * (t - 60) ** -0.1332
        green = 99.47 * math.log(t) - 161.12 if t <= 66 else 288.12 * (t - 60) ** -0.0755
        blue = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.52 * math.log(t - 10) - 305.04)
        return np.clip(np.array([blue, green, red]), 1, 255)

    gains = rgb(kelvin) / rgb(NEUTRAL_KELVIN)
    return gains / gains[1]


def upright(patch: np.ndarray, turn_deg: float) -> np.ndarray:
    """Undo a counter-clockwise turn of ``turn_deg`` (the template's turn) on a patch."""
    quarter = turn_deg / 90.0
    if abs(quarter - round(quarter)) < 1e-6:
        return np.ascontiguousarray(np.rot90(patch, k=round(quarter) % 4))
    size = patch.shape[0]
    matrix = cv2.getRotationMatrix2D(((size - 1) / 2, (size - 1) / 2), turn_deg, 1.0)
    return cv2.warpAffine(
        patch, matrix, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def fit_residuals(
    patch: np.ndarray, templates: np.ndarray, gains: np.ndarray, mask: np.ndarray
) -> np.ndarray:
    """How badly each template explains the patch under ``gains`` (0 = perfectly).

    ``patch`` P×P×3 and ``templates`` M×P×P×3; per template, the patch is fitted as
    ``a * gains * template + b`` with one brightness ``a ≥ 0`` and offset ``b``; the
    residual is the unexplained share of the patch's variance.
    """
    x = patch[mask].astype(np.float32).ravel()
    y = (templates[:, mask] * gains.astype(np.float32)).reshape(len(templates), -1)
    xc = x - x.mean()
    yc = y - y.mean(axis=1, keepdims=True)
    var_y = np.maximum((yc * yc).sum(axis=1), 1e-6)
    a = np.maximum((yc @ xc) / var_y, 0.0)
    residual = ((xc[None, :] - a[:, None] * yc) ** 2).sum(axis=1)
    return residual / max(float(xc @ xc), 1e-6)


def decide_member(
    patch: np.ndarray,
    templates: np.ndarray,
    gains: np.ndarray,
    mask: np.ndarray,
    exclude: frozenset[int] = frozenset(),
) -> tuple[int, float]:
    """The member that explains the patch, and how clearly (0..1).

    The overall fit ranks the members; the close ones are then compared pairwise
    only where the two differ. A heart is a small spot: over the whole face a
    misaligned heart tile and its plain twin fit almost equally, but on the spot
    where they differ the answer is plain. Members in ``exclude`` (faces already seen
    elsewhere in the frame) are not considered.
    """
    residuals = fit_residuals(patch, templates, gains, mask)
    residuals[list(exclude)] = np.inf
    order = [int(i) for i in np.argsort(residuals) if np.isfinite(residuals[i])]
    champion = order[0]
    clarity = 1.0
    for challenger in order[1:]:
        if residuals[challenger] > 2.5 * residuals[champion] + 0.02:
            break
        champion_error, challenger_error = _pair_errors(
            patch, templates[champion], templates[challenger], gains, mask
        )
        total = champion_error + challenger_error
        if challenger_error < champion_error:
            champion = challenger
        clarity = min(clarity, abs(challenger_error - champion_error) / max(total, 1e-6))
    return champion, clarity


def _pair_errors(
    patch: np.ndarray, a: np.ndarray, b: np.ndarray, gains: np.ndarray, mask: np.ndarray
) -> tuple[float, float]:
    """Each template's fitting error, counted only where the two templates differ.

    Everything is blurred first: a sharp little heart a pixel or two off its place
    would otherwise fit worse than a flat background that is wrong everywhere.
    """
    sigma = PAIR_BLUR * patch.shape[0] / 40
    weight = cv2.GaussianBlur(np.abs(a - b).sum(axis=2), (0, 0), sigma)[mask]
    weight = weight / max(float(weight.sum()), 1e-6)
    x = cv2.GaussianBlur(patch, (0, 0), sigma)[mask].astype(np.float32)
    errors = []
    for template in (a, b):
        y = cv2.GaussianBlur(template, (0, 0), sigma)[mask] * gains.astype(np.float32)
        xc, yc = x - x.mean(), y - y.mean()
        scale = max(float((xc * yc).sum() / max((yc * yc).sum(), 1e-6)), 0.0)
        errors.append(float((weight[:, None] * (xc - scale * yc) ** 2).sum()))
    return errors[0], errors[1]


class FitTable:
    """Everything :func:`fit_residuals` needs for many patches at once, for any gains.

    With the patch centred, the fit of ``a * gains * template + b`` depends on the
    gains only through per-channel sums, which are computed once here; trying a lamp
    then costs a few array operations for the whole frame instead of a pass over
    every pixel of every candidate.
    """

    def __init__(
        self, patches: list[np.ndarray], member_templates: list[np.ndarray], mask: np.ndarray
    ) -> None:
        n, m = len(patches), max(len(t) for t in member_templates)
        self.cross = np.zeros((n, m, 3))  # centred patch · template channel
        self.square = np.ones((n, m, 3))  # template channel · itself
        self.total = np.zeros((n, m, 3))  # sum of template channel
        self.valid = np.zeros((n, m), bool)
        self.energy = np.zeros(n)  # centred patch · itself
        self.size = float(mask.sum() * 3)
        self.means = np.zeros((n, m, 3))  # template channel means
        self.seen = np.zeros((n, 3))  # patch channel means
        for i, (patch, templates) in enumerate(zip(patches, member_templates, strict=True)):
            x = patch[mask].astype(np.float64)  # D×3
            xc = x - x.mean()
            y = templates[:, mask].astype(np.float64)  # M×D×3
            k = len(templates)
            self.cross[i, :k] = np.einsum("dc,mdc->mc", xc, y)
            self.square[i, :k] = np.einsum("mdc,mdc->mc", y, y)
            self.total[i, :k] = y.sum(axis=1)
            self.means[i, :k] = y.mean(axis=1)
            self.valid[i, :k] = True
            self.energy[i] = float((xc * xc).sum())
            self.seen[i] = x.mean(axis=0)

    def residuals(self, gains: np.ndarray) -> np.ndarray:
        """N×M unexplained shares of variance (inf where a patch has fewer members)."""
        covariance = (self.cross * gains).sum(axis=2)
        variance = (self.square * gains**2).sum(axis=2) - (self.total * gains).sum(
            axis=2
        ) ** 2 / self.size
        explained = np.where(covariance > 0, covariance**2 / np.maximum(variance, 1e-9), 0.0)
        out = 1.0 - explained / np.maximum(self.energy, 1e-9)[:, None]
        return np.where(self.valid, out, np.inf)


def estimate_gains(
    patches: list[np.ndarray],
    member_templates: list[np.ndarray],
    mask: np.ndarray,
    kelvins: tuple[float, ...],
    weights: np.ndarray | None = None,
) -> np.ndarray:
    """The frame's BGR gains: the lamp under which the candidates fit their faces best."""
    if not patches:
        return np.ones(3)
    weights = np.ones(len(patches)) if weights is None else weights
    table = FitTable(patches, member_templates, mask)

    def cost(gains: np.ndarray) -> float:
        return float(np.sum(weights * table.residuals(gains).min(axis=1)))

    trials = [np.ones(3)] + [kelvin_gains(k) for k in kelvins]
    costs = [cost(g) for g in trials]
    gains = trials[int(np.argmin(costs))]
    best_cost = min(costs)
    rows = np.arange(len(patches))
    for _ in range(2):  # refine per channel from the chosen faces
        chosen = table.residuals(gains).argmin(axis=1)
        ratios = table.seen / np.maximum(table.means[rows, chosen], 1.0)
        ratios = ratios / np.maximum(ratios[:, 1:2], 1e-6)
        refined = np.median(ratios, axis=0)
        refined_cost = cost(refined)
        if refined_cost >= best_cost:
            break
        gains, best_cost = refined, refined_cost
    return gains
