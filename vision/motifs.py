"""Tiles' motifs told apart where their faces differ.

Structure is matched over the whole face. Where every face of a set shares most of its
pattern (a ground of stripes, the figure small in a white disc), the shared part sets
the score, and one motif turned a quarter can lead the right one by a hair. A doubtful
piece is therefore compared with its motif and with every other motif, in each quarter
turn, only on the pixels where the two faces differ (:func:`motif_pairs` learns those
windows once per tile set; :func:`motif_challenges` judges a batch of pieces).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.bitenight.tiles import Colour
from vision.model import AppearanceModel, band_pass

#: A doubtful piece is judged on the pixels where two faces' band-passed structure differs
#: by over this share of its most (and two pixels round them), each face allowed these
#: shifts (pixels of a patch: down, across) onto the piece.
SPOT = 0.3
#: Hearts change a set's faces alike (only the heart is added) where the groups' changes
#: correlate this well on average; under it the sides of each group are judged apart.
TWINS_ALIKE = 0.8
SHIFTS = ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))


@dataclass(frozen=True, eq=False)
class MotifPairs:
    """One square tile group's face against every other motif in each quarter turn,
    where the two differ (see :func:`vision.doubts.motifs_where_they_differ`): C pairs, on
    the D pixels (of a P×P patch) that lie in any of their windows."""

    size: int  # P
    pixels: np.ndarray  # D flat indices into a P×P patch
    challengers: tuple[tuple[int, int], ...]  # C (group, quarter turns)
    sides: np.ndarray  # C: the faces of the group each pair is of (0 all, 1 plain, 2 hearts)
    inks: np.ndarray  # C: the ink of the faces each pair is of (vision.model.figure_inks)
    stacked: np.ndarray  # D×3C float32: the windows' weights, own face and other on them
    own_stats: np.ndarray  # 3×C: sum, sum of squares and count of own face on each window
    other_stats: np.ndarray  # 3×C: the same for the challenger's face


def motif_pairs(
    model: AppearanceModel, token_groups: np.ndarray, round_: bool = False
) -> dict[int, MotifPairs]:
    """For each tile group of the square (or ``round_``) bank, its band-passed mean face
    and every other tile group's in each quarter turn, on the window where the two
    differ (the pixels that differ by over :data:`SPOT` of the most, and two pixels
    round them). A round tile's turn is read to a few degrees, but not which quarter
    where what every face shares is four-fold (a square label, four wedges): a round
    piece's other turn a quarter off is as much in doubt as a square tile's."""
    bank = model.bank(round_)
    if bank is None:
        return {}
    mask = bank.mask
    size = mask.shape[0]
    groups = [g for g in range(len(model.groups)) if not token_groups[g]]
    inks = model.inks
    split = _hearts_move_figures(model, groups, inks)
    bands = {
        (g, ink, side): band_pass(model.colour_templates[list(members)].mean(axis=0)[None])[0]
        for g in groups
        for ink in range(len(inks))
        for side, members in enumerate(_sides(model, g, split, inks[ink]))
    }
    pairs: dict[int, MotifPairs] = {}
    for g in groups:
        keys, sides, ink_of, windows, owns, others = [], [], [], [], [], []
        for ink in range(len(inks)):
            for side in range(len(_sides(model, g, split, inks[ink]))):
                own_band = bands[(g, ink, side)]
                for r in (r for r in groups if r != g):
                    other_band = bands.get((r, ink, side), bands[(r, ink, 0)])
                    for quarters in range(4):
                        turned = np.rot90(other_band, quarters)
                        apart = cv2.GaussianBlur(np.abs(own_band - turned), (0, 0), 1.0)
                        spot = (apart > SPOT * apart.max()).astype(np.uint8)
                        window = cv2.dilate(spot, np.ones((5, 5), np.uint8)).astype(bool) & mask
                        keys.append((r, quarters))
                        sides.append(side)
                        ink_of.append(ink)
                        windows.append(window.ravel().astype(np.float64))
                        owns.append(own_band.ravel() * windows[-1])
                        others.append(turned.ravel() * windows[-1])
        if not keys:
            continue
        pixels = np.flatnonzero(np.any(windows, axis=0))
        w, own, other = (np.array(a)[:, pixels] for a in (windows, owns, others))
        count = w.sum(axis=1)

        def stats(t: np.ndarray, count: np.ndarray = count) -> np.ndarray:
            return np.stack([t.sum(axis=1), (t * t).sum(axis=1), count])

        stacked = np.concatenate([w, own, other]).T.astype(np.float32)
        pairs[g] = MotifPairs(
            size,
            pixels,
            tuple(keys),
            np.array(sides),
            np.array(ink_of),
            stacked,
            stats(own),
            stats(other),
        )
    return pairs


def _colour(model: AppearanceModel, member: int) -> Colour | None:
    """The colour of a face of the model (None for a token's)."""
    tile = model.labels[member].tile
    return tile.colour if tile is not None else None


def _hearts_move_figures(
    model: AppearanceModel, groups: list[int], inks: tuple[frozenset[Colour], ...]
) -> bool:
    """Whether a heart changes each motif's face differently (its twins differ unlike
    from motif to motif: the mean correlation of the groups' band-passed differences
    between their hearts and their plain faces under :data:`TWINS_ALIKE`).

    A heart that only adds itself (a badge in a corner, a heart over the rim) changes
    every motif's face alike (0.95-1.00 on ten check styles; a heart outlined round the
    figure, lantern, 0.91); a set that moves the figure aside to make room for the heart
    changes each face by that figure's outline too (chip: 0.63)."""
    changes = []
    for g, ink in ((g, ink) for g in groups for ink in inks):
        sides = _sides(model, g, True, ink)
        if len(sides) == 3:
            plain, hearts = (model.colour_templates[list(side)].mean(axis=0) for side in sides[1:])
            change = (band_pass(hearts[None]) - band_pass(plain[None])).ravel()
            changes.append(change / max(float(np.linalg.norm(change)), 1e-6))
    if len(changes) < 2:
        return False
    alike = np.array(changes) @ np.array(changes).T
    return float(alike[np.triu_indices(len(changes), 1)].mean()) < TWINS_ALIKE


def _sides(
    model: AppearanceModel, group: int, split: bool, ink: frozenset[Colour] | None = None
) -> list[tuple[int, ...]]:
    """A tile group's faces (those of the colours of ``ink``, or all): all of them, then
    (where the group has both) its plain faces and its hearts, each side compared with
    the other motifs' of the same side.

    A set may print the figure elsewhere on a heart's face (moved aside to make room for
    the heart), and the mean of both twins is then a figure seen twice, a pixel or two
    apart, that fits neither twin: a plain monk on a poker chip fitted a coffin turned
    half round better than that double monk (0.96 against 0.94), its own plain face
    better than the plain coffin's (0.95 against 0.91)."""
    members = tuple(m for m in model.groups[group] if ink is None or _colour(model, m) in ink)
    hearts = [bool(model.labels[m].tile and model.labels[m].tile.heart) for m in members]
    halves = [
        tuple(m for m, h in zip(members, hearts, strict=True) if h == side)
        for side in (False, True)
    ]
    return [members] + (halves if split and all(halves) else [])


def motif_challenges(padded: np.ndarray, pairs: MotifPairs) -> list[tuple[int, int] | None]:
    """For each upright piece's band-passed patch (K×(P+2)×(P+2), a pixel of margin for
    the shifts), the (group, quarter turns) that fits it better than its own motif where
    the two differ, the best such; None where its own motif fits best.

    The other motif must fit better both against the mean of the group's faces and
    against the faces of the piece's own side (plain or heart, :func:`_sides`): either
    alone turned right readings wrong by a hundredth (a plain vampire on a spiral of
    dashes, whorl, read by its side as a coffin a quarter turned, 0.91 against 0.90).
    Both are the faces of the piece's own ink (:func:`_own_inks`)."""
    own, other = _fits(padded, pairs)
    ink_of = _own_inks(own, pairs)
    out: list[tuple[int, int] | None] = [None] * len(padded)
    for ink in np.unique(ink_of).tolist():
        ks = np.flatnonzero(ink_of == ink)
        columns = np.flatnonzero(pairs.inks == ink)
        mine = own[np.ix_(ks, columns)]
        whole, side = _whole_and_own_side(
            mine, other[np.ix_(ks, columns)] - mine, pairs.sides[columns]
        )
        gain = np.minimum(whole, side)
        best = gain.argmax(axis=1)
        keys = [pairs.challengers[c] for c in columns[: gain.shape[1]]]
        for k, b, row in zip(ks.tolist(), best.tolist(), gain, strict=True):
            out[k] = keys[b] if row[b] > 0 else None
    return out


def own_fits(padded: np.ndarray, pairs: MotifPairs) -> np.ndarray:
    """For each upright piece's band-passed patch (as :func:`motif_challenges` takes),
    how well its own motif fits it where that face differs from another, at the worst
    other motif: K correlations. Leading every other motif there says only that the
    others fit worse; a piece cut well off its tile (a crescent of two tiles) can lead
    them all while fitting none.

    Judged against the mean of the group's faces (of the piece's own ink), as the bar it
    is held to was set: judged on the piece's own side (plain or heart), a face's exact
    twin fits better than the mean, more pieces cleared the bar, and a maiden read as a
    monk was then sure of it (stitch seed 2024 #0, 1.00), taking the monk's place from
    the true monk."""
    own, _ = _fits(padded, pairs)
    return _worst_by_ink(own, pairs).max(axis=1)


def _worst_by_ink(own: np.ndarray, pairs: MotifPairs) -> np.ndarray:
    """Each piece's worst fit of its motif's mean face (K×C, one per pair) in each ink:
    K×I."""
    return _worst_per_kind(own, pairs.inks, pairs.sides == 0)[1]


def _worst_per_kind(
    own: np.ndarray, kinds: np.ndarray, among: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The kinds of the pairs ``among`` (C bools; ``kinds`` one per pair), and each
    piece's worst fit (K×C) on each kind's pairs there: K×kinds."""
    present = np.unique(kinds[among])
    worst = np.stack([own[:, among & (kinds == kind)].min(axis=1) for kind in present], axis=1)
    return present, worst


def _own_inks(own: np.ndarray, pairs: MotifPairs) -> np.ndarray:
    """Each piece's ink: the one whose mean face of its motif fits it best where that
    differs from the others, at the worst other motif (K). A figure in the other ink
    steps the other way at every outline and fits its own motif's other-ink face
    worst of all."""
    inks, worst = _worst_per_kind(own, pairs.inks, pairs.sides == 0)
    return inks[worst.argmax(axis=1)]


def _whole_and_own_side(
    own: np.ndarray, values: np.ndarray, sides: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``values`` (K×C, one per pair of ``sides``) on the pairs of the group's mean face
    and on those of the piece's own side (K×C' each): the side whose faces fit it best,
    at their worst other motif (the mean's again where the group has one side only)."""
    whole = sides == 0
    count = int(whole.sum())
    if len(sides) == count:
        return values, values
    kinds, worst = _worst_per_kind(own, sides, ~whole)
    chosen = kinds[worst.argmax(axis=1)]
    rows = np.arange(len(own))[:, None]
    columns = np.flatnonzero(whole)[None, :] + count * chosen[:, None]
    return values[:, whole], values[rows, columns]


def _fits(padded: np.ndarray, pairs: MotifPairs) -> tuple[np.ndarray, np.ndarray]:
    """Each piece's correlation (best shift) with its own face and with the challenger's,
    on each pair's window: two K×C arrays."""
    size = pairs.size
    shifts = np.stack(
        [
            padded[:, 1 + dy : 1 + dy + size, 1 + dx : 1 + dx + size].reshape(len(padded), -1)
            for dy, dx in SHIFTS
        ],
        axis=1,
    )[..., pairs.pixels]  # K×S×D
    count = len(pairs.challengers)
    products = shifts @ pairs.stacked  # K×S×3C: each window alone, with own, with other
    sx, own, other = (
        products[..., :count],
        products[..., count : 2 * count],
        products[..., 2 * count :],
    )
    sxx = (shifts * shifts) @ pairs.stacked[:, :count]

    def fit(cross: np.ndarray, stats: np.ndarray) -> np.ndarray:
        st, stt, n = stats
        cov = cross - sx * st / n
        var = np.maximum(sxx - sx * sx / n, 1e-6) * np.maximum(stt - st * st / n, 1e-6)
        return (cov / np.sqrt(var)).max(axis=1)  # K×C: each pair's best shift

    return fit(own, pairs.own_stats), fit(other, pairs.other_stats)
