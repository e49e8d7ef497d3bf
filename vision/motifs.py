"""Tiles' motifs told apart where their faces differ.

Structure is matched over the whole face. Where every face of a set shares most of its
pattern (a ground of stripes, the figure small in a white disc), the shared part sets
the score, and one motif turned a quarter can lead the right one by a hair. A doubtful
piece is therefore compared with its motif and with every other motif, in each quarter
turn, only on the pixels where the two faces differ (:func:`motif_pairs` learns those
windows once per tile set; :func:`motif_challenges` judges a batch of pieces).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

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
#: A motif's mean face stands for its faces where its faces of one side (plain or heart)
#: in two colours correlate this well on the windows where motifs differ (the median
#: over the set's pairs and windows); under it each face prints the figure otherwise (a
#: clock's hands at another time on every face: 0.91; twelve other sets 0.945-0.998),
#: the mean is a picture no tile prints, and the single faces judge too.
FACES_ALIKE = 0.93
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
    #: N single faces (of the own group or the challenger, of the pair's ink, turned as
    #: the pair's face) on the windows of the pairs of the group's mean face (side 0)
    single_pair: np.ndarray  # N: the pair each single face is on
    single_own: np.ndarray  # N bools: a face of the group (else of the challenger)
    single_stacked: np.ndarray  # D×N float32: each face on its pair's window
    single_stats: np.ndarray  # 3×N: sum, sum of squares and count of each on its window
    #: whether the single faces judge as well as the mean (the set's faces unlike beyond
    #: colour, :data:`FACES_ALIKE`)
    singles_judge: bool = False


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
    split = _hearts_move_figures(model, groups, inks, bank.grey)
    bands = {
        (g, ink, side): band_pass(
            model.colour_templates[list(members)].mean(axis=0)[None], bank.grey
        )[0]
        for g in groups
        for ink in range(len(inks))
        for side, members in enumerate(_sides(model, g, split, inks[ink]))
    }
    faces = {
        (g, ink): band_pass(model.colour_templates[list(members)], bank.grey)
        for g in groups
        for ink in range(len(inks))
        if (members := _sides(model, g, split, inks[ink])[0])
    }
    pairs: dict[int, MotifPairs] = {}
    alike: list[float] = []  # faces of one motif and side in two colours, on each window
    for g in groups:
        keys, sides, ink_of, windows, owns, others = [], [], [], [], [], []
        single_pair, single_own, singles = [], [], []
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
                        if side == 0:
                            alike += _colours_alike(model, g, inks[ink], faces[(g, ink)], window)
                            for own_face, group in ((True, g), (False, r)):
                                for face in faces.get((group, ink), ()):
                                    turned_face = face if own_face else np.rot90(face, quarters)
                                    single_pair.append(len(keys) - 1)
                                    single_own.append(own_face)
                                    singles.append(turned_face.ravel() * windows[-1])
        if not keys:
            continue
        pixels = np.flatnonzero(np.any(windows, axis=0))
        w, own, other = (np.array(a)[:, pixels] for a in (windows, owns, others))
        count = w.sum(axis=1)

        def stats(t: np.ndarray, count: np.ndarray = count) -> np.ndarray:
            return np.stack([t.sum(axis=1), (t * t).sum(axis=1), count])

        stacked = np.concatenate([w, own, other]).T.astype(np.float32)
        single = np.array(singles).reshape(len(singles), -1)[:, pixels]
        pairs[g] = MotifPairs(
            size,
            pixels,
            tuple(keys),
            np.array(sides),
            np.array(ink_of),
            stacked,
            stats(own),
            stats(other),
            np.array(single_pair, int),
            np.array(single_own, bool),
            single.T.astype(np.float32),
            stats(single, count[single_pair]),
        )
    judge = bool(alike) and float(np.median(alike)) < FACES_ALIKE
    none = np.zeros(0, int)
    return {
        g: replace(p, singles_judge=True)
        if judge
        else replace(
            p,
            single_pair=none,
            single_own=none.astype(bool),
            single_stacked=np.zeros((len(p.pixels), 0), np.float32),
            single_stats=np.zeros((3, 0)),
        )
        for g, p in pairs.items()
    }


def _colours_alike(
    model: AppearanceModel,
    group: int,
    ink: frozenset[Colour],
    faces: np.ndarray,
    window: np.ndarray,
) -> list[float]:
    """The correlations on ``window`` of the group's band-passed ``faces`` (of ``ink``, in
    the order of :func:`_sides`) of one side (plain or heart) in two colours."""
    members = _sides(model, group, False, ink)[0]
    tiles = [model.labels[m].tile for m in members]
    vectors = faces[:, window]
    vectors = vectors - vectors.mean(axis=1, keepdims=True)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-6)
    return [
        float(vectors[a] @ vectors[b])
        for a, b in zip(*np.triu_indices(len(members), 1), strict=True)
        if tiles[a] is not None
        and tiles[b] is not None
        and tiles[a].heart == tiles[b].heart
        and tiles[a].colour != tiles[b].colour
    ]


def _colour(model: AppearanceModel, member: int) -> Colour | None:
    """The colour of a face of the model (None for a token's)."""
    tile = model.labels[member].tile
    return tile.colour if tile is not None else None


def _hearts_move_figures(
    model: AppearanceModel,
    groups: list[int],
    inks: tuple[frozenset[Colour], ...],
    grey: np.ndarray,
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
            change = (band_pass(hearts[None], grey) - band_pass(plain[None], grey)).ravel()
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
    Both are the faces of the piece's own ink (:func:`_own_inks`).

    Where the set's faces of one motif differ beyond colour (``singles_judge``, see
    :data:`FACES_ALIKE`), the mean is a picture no tile prints (a clock's hands at another
    time on every face average to a blur), and the other motif's best single face must
    also fit better than the group's best single face: against the means alone, right
    clock readings were turned wrong (a piece fitting its motif's blur at 0.83 and
    another's at 0.87, its motif's best face at 0.96 and the other's at 0.93). Applied
    to every set it turned as many wrong readings right as right ones wrong (diagonal,
    orbit, azulejo seed 7), where the faces differ only in colour and the mean is the
    better judge."""
    own, other = _fits(padded, pairs)
    if pairs.singles_judge:
        single_own, single_other = _single_fits(padded, pairs)
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
        if pairs.singles_judge:
            # the best single face of the other motif must fit better too
            singly = (single_other - single_own)[np.ix_(ks, columns)]
            gain = np.minimum(gain, singly[:, : gain.shape[1]])
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
    shifts, sx, sxx = _shifted(padded, pairs)
    count = len(pairs.challengers)
    products = shifts @ pairs.stacked[:, count:]  # K×S×2C: with own, with other
    own, other = products[..., :count], products[..., count:]
    return _correlation(own, sx, sxx, pairs.own_stats), _correlation(
        other, sx, sxx, pairs.other_stats
    )


def _single_fits(padded: np.ndarray, pairs: MotifPairs) -> tuple[np.ndarray, np.ndarray]:
    """Each piece's best fit (best shift) among its own group's single faces and among
    the challenger's, on the window of each pair of the group's mean face: two K×C
    arrays (-1 on the pairs of a side's faces, which have none)."""
    shifts, sx, sxx = _shifted(padded, pairs)
    at = pairs.single_pair
    cross = shifts @ pairs.single_stacked
    fits = _correlation(cross, sx[..., at], sxx[..., at], pairs.single_stats)
    count = len(pairs.challengers)
    own = np.full((len(padded), count), -1.0)
    other = np.full((len(padded), count), -1.0)
    for best, chosen in ((own, pairs.single_own), (other, ~pairs.single_own)):
        np.maximum.at(best.T, at[chosen], fits[:, chosen].T)
    return own, other


def _shifted(padded: np.ndarray, pairs: MotifPairs) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each piece's patch at each shift on the pairs' pixels (K×S×D), and its sum and sum
    of squares on each pair's window (K×S×C each)."""
    size = pairs.size
    shifts = np.stack(
        [
            padded[:, 1 + dy : 1 + dy + size, 1 + dx : 1 + dx + size].reshape(len(padded), -1)
            for dy, dx in SHIFTS
        ],
        axis=1,
    )[..., pairs.pixels]  # K×S×D
    windows = pairs.stacked[:, : len(pairs.challengers)]
    return shifts, shifts @ windows, (shifts * shifts) @ windows


def _correlation(
    cross: np.ndarray, sx: np.ndarray, sxx: np.ndarray, stats: np.ndarray
) -> np.ndarray:
    """Correlations on windows from the pieces' cross products with faces (K×S×N), their
    sums and sums of squares there (K×S×N) and the faces' (3×N): K×N, the best shift."""
    st, stt, n = stats
    cov = cross - sx * st / n
    var = np.maximum(sxx - sx * sx / n, 1e-6) * np.maximum(stt - st * st / n, 1e-6)
    return (cov / np.sqrt(var)).max(axis=1)
