"""The appearance model: everything recognition learns from a tile set, built once.

Two kinds of templates come out of the faces, both through :func:`vision.rectify.rectify`:

- *structure* templates: grey, blurred, zero-mean and unit-norm over the patch mask,
  in every rotation the object may lie in (quarter turns for square tiles, a full turn
  in steps for round tiles and tokens) and at a few scales and small turns, to absorb
  the error of cutting a candidate out of a frame. They decide *what* an object is up
  to its colour and heart: a motif, a token face, or a token back.
  Grey structure cares little what colour the lamp is. The grey is the eye's, or where
  that all but hides some colour's figures, one learnt from the faces
  (:func:`structure_grey`).
- *colour* templates: each face upright in BGR, to decide the colour and the heart
  within the chosen group once the frame's light is known (:mod:`vision.colour`);
  a heart is a small part of a face, best judged in full colour and once the patch
  is aligned.

Building takes a fraction of a second; the server keeps one model per tile set.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from companion.bitenight.tiles import Colour, Tile
from vision.colour import kelvin_gains
from vision.config import VisionConfig
from vision.rectify import flatten_alpha, full_quad, patch_mask, rectify
from vision.shared_arrays import locked
from vision.tileset import TileSet

#: Small extra turns (degrees) and scales that stand for rectification error.
_JITTER_TURNS = (-4.0, 0.0, 4.0)
_JITTER_SCALES = (0.94, 1.0, 1.06)
#: The eye's grey (B, G, R), which the structure's grey keeps the length of
#: (:func:`structure_grey`).
EYE_GREY = np.array([0.114, 0.587, 0.299], np.float32)


def _octant(count: int) -> np.ndarray:
    """Of ``count`` directions spread evenly over the sphere (a Fibonacci lattice), those
    whose weights are none below zero: a grey adds its channels up. A weighting with one
    channel taken away shows a figure set apart by hue alone, but a lamp or a camera's
    balance moves that difference as much as the figure (bottlecap's, blue at -0.22,
    read 16 tiles and 10 tokens fewer over its photos than in the eye's grey)."""
    k = np.arange(count) + 0.5
    z = 1 - 2 * k / count
    angle = np.pi * (1 + 5**0.5) * k
    ring = np.sqrt(1 - z * z)
    points = np.stack([ring * np.cos(angle), ring * np.sin(angle), z], axis=1)
    return locked(points[(points >= 0).all(axis=1)])


#: The weightings :func:`structure_grey` chooses among (250), about 4° apart.
_GREY_DIRECTIONS = _octant(2000)
#: The share of a colour's figures (their band-passed energy in the grey that shows them
#: best) under which the eye's grey is given up for one that shows every colour: a yellow
#: figure on pale paper keeps 0.10-0.15 of it (stitch, sticker, pebble); the sample sets'
#: colours all keep 0.5 or more, and 9 of the 78 banks of the regression's 52 styles
#: have a colour under 0.25.
GREY_KEPT_MIN = 0.25
#: The lamps a grey must show every figure under: the warmest the recogniser models,
#: none, and the coolest (each as gains on B, G, R).
_GREY_LAMPS = (kelvin_gains(2500), np.ones(3), kelvin_gains(10000))
#: Blur applied to every patch before matching (in patch pixels).
STRUCTURE_BLUR = 1.0
#: The coarse layout taken away before matching (see :func:`structure_vectors`).
COARSE_BLUR = 4.0
COARSE_WEIGHT = 0.8
#: Screening (see :class:`Screen`): principal axes are taken in steps of this many until
#: no template lies further than ``_SCREEN_RESIDUAL`` outside them; screening is used only
#: where it costs less than ``_SCREEN_GAIN`` of the plain product.
_SCREEN_STEP = 32
_SCREEN_RESIDUAL = 0.12
_SCREEN_GAIN = 0.3
#: A colour prints its figures in another ink than the set's first colour (dark on a pale
#: label where the others are pale on a dark one) where its figures' band-passed structure
#: correlates under this with that colour's, motif by motif: an outline in the opposite
#: ink steps the other way. Every colour of the 40 other check and sample sets correlates
#: 0.50-1.00 with its set's first (aquarelle's the least); vinyl's yellow label, black ink
#: where the others are white, -0.99.
INKS_APART = 0.0


@dataclass(frozen=True)
class Label:
    """What a template stands for: a tile, a token face of a colour, or a token back."""

    tile: Tile | None = None
    token_colour: str | None = None
    token_back: bool = False

    @property
    def is_tile(self) -> bool:
        return self.tile is not None

    @property
    def is_token(self) -> bool:
        return not self.is_tile


@dataclass(frozen=True, eq=False)
class TemplateBank:
    """Structure templates for one candidate shape (square or round patches).

    ``core`` marks the templates without extra turn or scale: a first look at many
    candidates uses only those; the full bank judges the few that remain.
    ``align`` holds, per (group, turn), the mean band-passed image of the group's
    faces, which :mod:`vision.matching` slides over a candidate to align it.
    """

    round: bool
    mask: np.ndarray  # P×P bool
    vectors: np.ndarray  # T×D float32, unit rows
    group: np.ndarray  # T int: index into AppearanceModel.groups
    turn: np.ndarray  # T float: degrees the face is turned by (counter-clockwise)
    core: np.ndarray  # T bool
    align: dict[tuple[int, float], np.ndarray]
    #: the weights (B, G, R) that make a patch's pixels the grey its structure is read
    #: in (:func:`structure_grey`)
    grey: np.ndarray
    #: the core templates' cuts (C×P×P×3 uint8, in the order of ``np.flatnonzero(core)``),
    #: kept so that templates made from the same cuts softened (vision.token_blur) need
    #: not list and cut every face in every turn again
    core_cuts: np.ndarray = field(repr=False)
    #: alignment templates resized to each zoom, filled on first use (vision.matching)
    zoomed: dict = field(default_factory=dict, repr=False)

    def columns(self, core_only: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The templates' vectors (transposed, ready to multiply), groups and turns: the
        core ones or all. Cut once and kept, since every frame asks for them."""
        return self._core_columns if core_only else self._all_columns

    @functools.cached_property
    def _core_columns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        chosen = np.flatnonzero(self.core)
        vectors = np.ascontiguousarray(self.vectors[chosen].T)
        return vectors, self.group[chosen], self.turn[chosen]

    @functools.cached_property
    def _all_columns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return np.ascontiguousarray(self.vectors.T), self.group, self.turn

    def group_runs(self, core_only: bool) -> tuple[tuple[int, slice | np.ndarray], ...]:
        """Each group present among the core or all templates, with its columns in
        :meth:`columns`: a slice where they lie side by side (a view, where a gather
        of the columns cost most of a small batch's match), else their indices."""
        return self._core_runs if core_only else self._all_runs

    @functools.cached_property
    def _core_runs(self) -> tuple[tuple[int, slice | np.ndarray], ...]:
        return _runs(self._core_columns[1])

    @functools.cached_property
    def _all_runs(self) -> tuple[tuple[int, slice | np.ndarray], ...]:
        return _runs(self._all_columns[1])

    def screen(self, core_only: bool) -> Screen | None:
        """The core or the full bank prepared for a screened match (see :class:`Screen`),
        or None where the bank is too small for screening to pay."""
        return self._core_screen if core_only else self._all_screen

    @functools.cached_property
    def _core_screen(self) -> Screen | None:
        return self._screen(np.flatnonzero(self.core))

    @functools.cached_property
    def _all_screen(self) -> Screen | None:
        return self._screen(np.arange(len(self.group)))

    @functools.cached_property
    def _principal_axes(self) -> np.ndarray:
        """The directions the templates vary most along (D×D, columns, most first).

        The templates are blurred images of a few dozen faces, so a small part of the D
        dimensions holds nearly all of them: this is what :class:`Screen` relies on.
        """
        vectors = self.vectors.astype(np.float64)
        _, axes = np.linalg.eigh(vectors.T @ vectors)
        return np.ascontiguousarray(axes[:, ::-1])

    def _screen(self, chosen: np.ndarray) -> Screen | None:
        chosen = chosen[np.argsort(self.group[chosen], kind="stable")]  # groups side by side
        dims, count = self.vectors.shape[1], len(chosen)
        vectors = self.vectors[chosen].astype(np.float64)
        axes = self._principal_axes
        for k in range(_SCREEN_STEP, dims, _SCREEN_STEP):
            if dims * k + k * count > _SCREEN_GAIN * dims * count:
                return None  # screening would cost about as much as the plain product
            coarse = vectors @ axes[:, :k]
            outside = np.sqrt(np.maximum((vectors**2).sum(1) - (coarse**2).sum(1), 0.0))
            if outside.max() <= _SCREEN_RESIDUAL:
                break
        else:
            return None
        group = self.group[chosen]
        starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
        return Screen(
            basis=np.ascontiguousarray(axes[:, :k], np.float32),
            coarse=np.ascontiguousarray(coarse.T, np.float32),
            rows=np.ascontiguousarray(self.vectors[chosen]),
            group=group,
            turn=self.turn[chosen],
            starts=starts,
            sizes=np.diff(np.r_[starts, count]),
            segment_group=group[starts],
            residual=np.maximum.reduceat(outside, starts),
        )


@dataclass(frozen=True, eq=False)
class Screen:
    """A bank's templates, grouped, with their coordinates along its first K principal
    axes, for matching many patches at a fraction of the full product's cost.

    A patch's correlation with a template is the product of their coordinates along
    the axes plus the product of their parts outside them, which is at most the two
    parts' lengths multiplied (``residual`` holds the templates' longest part outside
    the axes, per group). The coarse product bounds every correlation; only the
    templates that could still be their group's best, in a group that could still be
    one of the two best, are correlated in full (see :func:`vision.matching.match_structure`).
    """

    basis: np.ndarray  # D×K float32, orthonormal columns
    coarse: np.ndarray  # K×T float32: the templates' coordinates along the basis
    rows: np.ndarray  # T×D float32: the templates themselves
    group: np.ndarray  # T int, in runs of one group
    turn: np.ndarray  # T float
    starts: np.ndarray  # S: where each run of one group starts
    sizes: np.ndarray  # S: how long each run is
    segment_group: np.ndarray  # S: the group of each run
    residual: np.ndarray  # S float64: the longest part of a run's templates outside the basis


@dataclass(frozen=True, eq=False)
class AppearanceModel:
    tileset: TileSet
    config: VisionConfig
    labels: tuple[Label, ...]
    groups: tuple[tuple[int, ...], ...]  # label indices sharing one structure
    group_names: tuple[str, ...]
    colour_templates: np.ndarray  # L×P×P×3 float32, upright
    square: TemplateBank | None
    round: TemplateBank | None
    #: the set's colours by the ink their figures are printed in (:func:`figure_inks`)
    inks: tuple[frozenset[Colour], ...]
    #: the radius (a share of half the side) of the small centred disc a set prints its
    #: colour in, or None where the colour reaches out over the face (:func:`colour_core`)
    colour_core: float | None = None

    def bank(self, round_: bool) -> TemplateBank | None:
        return self.round if round_ else self.square


#: A round set's colour lies in a centred disc (:func:`colour_core`) where this share of
#: the colour's signal lies within this share of the radius (vinyl's labels 0.44, arcade
#: 0.54, coins 0.68; a ground of the colour 0.87 and more)...
CORE_SIGNAL = 0.98
CORE_MAX = 0.7
#: ...and the signal's centre of mass lies within this share of the radius of the middle.
CORE_OFF_MAX = 0.1


def figure_inks(
    labels: Sequence[Label], faces: np.ndarray, bank: TemplateBank
) -> tuple[frozenset[Colour], ...]:
    """The set's colours by the ink their figures are printed in: one class where every
    colour prints alike, else the colours printed like the first and the rest.

    A set may print its figures pale on its darker colours and dark on a pale one (black
    on a yellow label). In band-passed grey such a figure's every outline steps the other
    way, so the mean of a motif's faces over all colours holds its figure faintly, the
    minority's cancelling part of the rest, and fits the minority's pieces worse than any
    other motif where the motifs differ. Learnt from the faces: each face less the mean
    of its colour's faces (what is that motif's own, in that colour), correlated with the
    same motif's in another colour (:data:`INKS_APART`). ``faces`` are the labels' faces
    upright (L×P×P×3), ``bank`` the one the tiles are matched in."""
    tiles = {label.tile: m for m, label in enumerate(labels) if label.tile is not None}
    colours = list(dict.fromkeys(t.colour for t in tiles))
    figures: dict[Tile, np.ndarray] = {}
    for colour, heart in ((c, h) for c in colours for h in (False, True)):
        alike_faces = [t for t in tiles if t.colour == colour and t.heart == heart]
        if len(alike_faces) < 2:
            continue
        bands = band_pass(faces[[tiles[t] for t in alike_faces]], bank.grey)[:, bank.mask]
        bands -= bands.mean(axis=0)
        for t, band in zip(alike_faces, bands, strict=True):
            figures[t] = band / max(float(np.linalg.norm(band)), 1e-6)

    def alike(a: Colour, b: Colour) -> float:
        values = [
            float(figure @ figures[twin])
            for t, figure in figures.items()
            if t.colour == a and (twin := replace(t, colour=b)) in figures
        ]
        return float(np.mean(values)) if values else 1.0

    other = frozenset(c for c in colours[1:] if alike(colours[0], c) < INKS_APART)
    if not other:
        return (frozenset(colours),)
    first = frozenset(colours) - other
    return (first, other) if len(first) >= len(other) else (other, first)


def build_model(tileset: TileSet, config: VisionConfig) -> AppearanceModel:
    """Learn the tile set: rectified faces, grouped by structure, in every rotation."""
    patch = config.patch_px
    labels: list[Label] = []
    faces: list[np.ndarray] = []
    round_flags: list[bool] = []
    group_of: list[str] = []
    for tile, face in tileset.faces.items():
        labels.append(Label(tile=tile))
        faces.append(face)
        round_flags.append(tileset.tile_shape == "round")
        group_of.append(tile.motif.value)
    for colour, face in tileset.token_faces.items():
        labels.append(Label(token_colour=colour))
        faces.append(face)
        round_flags.append(True)
        group_of.append("token")
    if tileset.token_back is not None and tileset.token_faces:
        labels.append(Label(token_back=True))
        faces.append(tileset.token_back)
        round_flags.append(True)
        group_of.append("token-back")
    group_names = tuple(dict.fromkeys(group_of))
    groups = tuple(tuple(i for i, g in enumerate(group_of) if g == name) for name in group_names)
    upright = [rectify(flatten_alpha(f), full_quad(f.shape[1], f.shape[0]), patch) for f in faces]
    colour_templates = np.stack(upright).astype(np.float32)
    banks = {}
    for round_ in (False, True):
        members = [i for i, r in enumerate(round_flags) if r == round_]
        if members:
            grey = structure_grey(
                colour_templates, _kinds(labels, members), patch_mask(patch, round_)
            )
            banks[round_] = _bank(
                [faces[i] for i in members],
                [group_names.index(group_of[i]) for i in members],
                round_,
                grey,
                config,
            )
    round_tiles = tileset.tile_shape == "round"
    inks = figure_inks(labels, colour_templates, banks[round_tiles])
    core = colour_core(labels, colour_templates) if round_tiles else None
    return AppearanceModel(
        tileset=tileset,
        config=config,
        labels=tuple(labels),
        groups=groups,
        group_names=group_names,
        colour_templates=colour_templates,
        square=banks.get(False),
        round=banks.get(True),
        inks=inks,
        colour_core=core,
    )


def colour_core(labels: Sequence[Label], faces: np.ndarray) -> float | None:
    """The radius, as a share of half the side, of the centred disc within which a round
    set prints its colour (a record's label), or None where the colour reaches further
    (:data:`CORE_MAX`) or lies off the middle.

    Where a face's colour lies is where the faces of one figure differ from colour to
    colour: their variance, pixel by pixel. On a cloth of the rest of the face's shade
    (a black record on a dark cloth) the object mask keeps only that disc, and this
    share says how large the face around it is (:mod:`vision.searches.cores`).
    ``faces`` are the labels' faces upright (L×P×P×3)."""
    alike: dict[tuple[object, bool], list[int]] = {}
    for m, label in enumerate(labels):
        if label.tile is not None:
            alike.setdefault((label.tile.motif, label.tile.heart), []).append(m)
    spread = [faces[m].var(axis=0).sum(axis=-1) for m in alike.values() if len(m) > 1]
    if not spread:
        return None
    signal = np.sum(spread, axis=0, dtype=np.float64)
    size = signal.shape[0]
    ys, xs = np.mgrid[:size, :size]
    half = size / 2
    dx, dy = (xs + 0.5 - half) / half, (ys + 0.5 - half) / half
    total = float(signal.sum())
    if total <= 0:
        return None
    off = math.hypot(float((signal * dx).sum()), float((signal * dy).sum())) / total
    radius = np.hypot(dx, dy).ravel()
    order = np.argsort(radius)
    reach = np.cumsum(signal.ravel()[order]) / total
    core = float(radius[order][np.searchsorted(reach, CORE_SIGNAL)])
    return core if core <= CORE_MAX and off <= CORE_OFF_MAX else None


def _runs(groups: np.ndarray) -> tuple[tuple[int, slice | np.ndarray], ...]:
    """Each group in ``groups`` with where it lies: a slice if its entries are side by
    side, else their indices (see :meth:`TemplateBank.group_runs`)."""
    out: list[tuple[int, slice | np.ndarray]] = []
    for g in np.unique(groups).tolist():
        own = np.flatnonzero(groups == g)
        first, end = int(own[0]), int(own[-1]) + 1
        out.append((g, slice(first, end) if end - first == len(own) else locked(own)))
    return tuple(out)


def band_pass(patches: np.ndarray, grey: np.ndarray) -> np.ndarray:
    """Band-passed grey images (N×S×S) of BGR patches (N×S×S×3), any square size S,
    their pixels made grey by the weights ``grey`` (B, G, R; see :func:`structure_grey`).

    Most faces are a pale figure on a ground (or the reverse); in plain grey every
    such face correlates well with every other. Taking away most of the coarse
    light-dark layout (a wide blur) leaves the outlines and details that tell a monk
    from a garlic bulb, while the fine blur forgives a pixel of misalignment.
    """
    flat = patches[..., :3].astype(np.float32) @ grey
    size = flat.shape[1]
    fine, coarse = _blur_matrix(size, STRUCTURE_BLUR), _blur_matrix(size, COARSE_BLUR)
    return fine @ flat @ fine.T - COARSE_WEIGHT * (coarse @ flat @ coarse.T)


def structure_vectors(patches: np.ndarray, bank: TemplateBank) -> np.ndarray:
    """Zero-mean, unit-norm :func:`band_pass` vectors of patches over ``bank``'s mask
    and in its grey (N×D)."""
    return _unit_structure(patches, bank.mask, bank.grey)


def _unit_structure(patches: np.ndarray, mask: np.ndarray, grey: np.ndarray) -> np.ndarray:
    vectors = band_pass(patches, grey)[:, mask]
    vectors -= vectors.mean(axis=1, keepdims=True)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, 1e-6)


def structure_grey(
    faces: np.ndarray, kinds: Sequence[Sequence[int]], mask: np.ndarray
) -> np.ndarray:
    """The weights (B, G, R) that turn a face's pixels into the grey its structure is
    matched in: the eye's grey, unless it all but hides some kind of face's figure.

    A figure stands out from its ground by lightness in some sets and by hue in others:
    in the grey of the eye (0.11 B + 0.59 G + 0.30 R) a yellow figure on pale paper
    differs by its blue alone and all but vanishes (stitch's yellow keeps 0.12 of what
    its best grey shows, in band-passed grey), and then a yellow face reads as any
    motif: of the tiles found but misread over the regression's 52 styles (session 39),
    yellow ones had the motif wrong two to three times as often as any other colour.

    The figures' band-passed energy under weights w is wᵀ C w, C the 3×3 covariance of
    the band-passed channels over a kind's faces (``kinds``: lists of rows of ``faces``,
    one colour's tiles each). Where the eye's grey keeps under :data:`GREY_KEPT_MIN` of
    some kind's best, the weights taken are those, among :data:`_GREY_DIRECTIONS`, under
    which the weakest kind shows most under the worst of :data:`_GREY_LAMPS` (a warm lamp
    dims blue to less than half); they keep the eye's grey's length, so that band-passed
    values stay on its scale. Elsewhere the eye's grey stays: another grey moves every
    score a little, and a set whose every figure shows gains nothing from that but chance.
    """
    axes = np.eye(3, dtype=np.float32)
    channels = np.stack([band_pass(faces, axis)[:, mask] for axis in axes], axis=-1)
    channels -= channels.mean(axis=1, keepdims=True)
    eye = EYE_GREY / np.linalg.norm(EYE_GREY)
    energies, kept = [], []
    for rows in kinds:
        part = channels[list(rows)]
        covariance = np.einsum("fdi,fdj->ij", part, part) / (part.shape[0] * part.shape[1])
        for lamp in _GREY_LAMPS:
            lit = _GREY_DIRECTIONS * lamp
            energies.append(np.einsum("ni,ij,nj->n", lit, covariance, lit))
        best = float(np.linalg.eigvalsh(covariance)[-1])
        kept.append(float(eye @ covariance @ eye) / best if best > 0 else 1.0)
    if not energies or min(kept) >= GREY_KEPT_MIN:
        return EYE_GREY
    best = _GREY_DIRECTIONS[int(np.argmax(np.min(energies, axis=0)))]
    return (best * np.linalg.norm(EYE_GREY)).astype(np.float32)


@functools.lru_cache(maxsize=8)
def _blur_matrix(size: int, sigma: float) -> np.ndarray:
    """A Gaussian blur along one axis as a matrix (edges reflected), for batched blurs."""
    radius = int(3 * sigma)
    offsets = np.arange(-radius, radius + 1)
    kernel = np.exp(-0.5 * (offsets / sigma) ** 2)
    kernel /= kernel.sum()
    matrix = np.zeros((size, size), np.float32)
    for i in range(size):
        for offset, weight in zip(offsets, kernel, strict=True):
            j = i + offset
            j = -j - 1 if j < 0 else (2 * size - j - 1 if j >= size else j)
            matrix[i, min(max(j, 0), size - 1)] += weight
    return locked(matrix)


def _kinds(labels: Sequence[Label], members: Sequence[int]) -> list[list[int]]:
    """The kinds of face among ``members`` whose figures :func:`structure_grey` must
    show: each colour's tiles together. Tokens have no say: a token is told by its
    colour and by face from back, and where their faces had a say (a yellow token drawn
    on white) a bank's new grey lost whole rows of backs on a red gingham cloth
    (diagonal and sticker seed 7 #3) and on clock's photos (28 tokens as rendered)."""
    kinds: dict[object, list[int]] = {}
    for m in members:
        tile = labels[m].tile
        if tile is not None:
            kinds.setdefault(tile.colour, []).append(m)
    return list(kinds.values())


def _bank(
    faces: list[np.ndarray],
    groups: list[int],
    round_: bool,
    grey: np.ndarray,
    config: VisionConfig,
) -> TemplateBank:
    patch = config.patch_px
    if round_:
        step = config.round_rotation_step_deg
        turns = np.arange(0.0, 360.0, step)
        jitter_turns: tuple[float, ...] = (0.0,)
    else:
        turns = np.array([0.0, 90.0, 180.0, 270.0])
        jitter_turns = _JITTER_TURNS
    mask = patch_mask(patch, round_)
    patches, group_index, turn_of, core = [], [], [], []
    for face, group in zip(faces, groups, strict=True):
        flat = flatten_alpha(face)
        h, w = flat.shape[:2]
        for turn in turns:
            for extra in jitter_turns:
                for scale in _JITTER_SCALES:
                    if extra and scale != 1.0:
                        continue  # one kind of error at a time keeps the bank small
                    quad = turned_quad(w, h, turn + extra, scale)
                    patches.append(rectify(flat, quad, patch))
                    group_index.append(group)
                    turn_of.append(float(turn))
                    core.append(extra == 0.0 and scale == 1.0)
    stack = np.stack(patches)
    vectors = _unit_structure(stack, mask, grey)
    group_arr, turn_arr, core_arr = np.array(group_index), np.array(turn_of), np.array(core)
    core_cuts = locked(stack[core_arr])
    bands = band_pass(core_cuts, grey)
    align: dict[tuple[int, float], np.ndarray] = {}
    for key in sorted(
        set(zip(group_arr[core_arr].tolist(), turn_arr[core_arr].tolist(), strict=True))
    ):
        chosen = (group_arr[core_arr] == key[0]) & (turn_arr[core_arr] == key[1])
        mean = bands[chosen].mean(axis=0)
        mean[~mask] = mean[mask].mean()  # outside the object: no say in the match
        align[key] = mean.astype(np.float32)
    return TemplateBank(
        round=round_,
        mask=mask,
        vectors=vectors,
        group=group_arr,
        turn=turn_arr,
        core=core_arr,
        align=align,
        grey=locked(grey),
        core_cuts=core_cuts,
    )


def turned_quad(width: int, height: int, turn_deg: float, scale: float) -> np.ndarray:
    """The corners, in face pixels, of a view of the face turned by ``turn_deg``.

    Rectifying this quad gives the face as it looks after lying turned
    counter-clockwise by ``turn_deg`` and cut out ``scale`` times too large or small.
    """
    centre = np.array([width / 2, height / 2])
    corners = (full_quad(width, height) - centre) / scale
    angle = np.radians(turn_deg)
    rotation = np.array([[np.cos(angle), np.sin(angle)], [-np.sin(angle), np.cos(angle)]])
    return (corners @ rotation.T + centre).astype(np.float32)
