"""Judging pieces against the tile set: matching cuts (:meth:`Scoring.score_structure`),
aligning them onto their tiles (:meth:`Scoring.realigned`), the frame's tile size
(:meth:`Scoring.size_model`) and why a piece is no tile or token
(:meth:`Scoring.rejection`).

Stage 4 of :mod:`vision.recogniser`, and shared by every later stage: the split
chooser, the searches that look again for what the mask missed and the colour stage
all judge what they cut the same way. Built once from the model and the config.
"""

from __future__ import annotations

import math

import numpy as np

from vision.candidates import Candidate
from vision.config import VisionConfig
from vision.frame import Frame
from vision.matching import align, lead_share, match_structure
from vision.model import AppearanceModel
from vision.motifs import motif_pairs
from vision.numeric import median_of
from vision.outlines import CLOTH_NOISE_STEPS, fitted_to_edge, has_outline, outline_contrast
from vision.pieces import Scored, SizeModel, elongation
from vision.rectify import Pyramid
from vision.tileset import TileSet

#: A lead over the next kind of object this large counts as clear (full confidence).
CLEAR_LEAD = 0.08
#: Round pieces found without a blob of their own are also cut this share of their
#: side off their first place (on the round styles' photos 0.1 found 5 more tiles and
#: lost none; 0.07 and 0.13 found fewer).
_SHIFT_STEP = 0.1


#: The reasons :meth:`Scoring.rejection` gives a piece turned down for its match alone
#: (its place, size and shape would do): such a piece may still be what lies there.
MATCH_REASONS = ("no match", "ambiguous")


def for_its_match_alone(reason: str | None) -> bool:
    """Whether a piece was turned down (``reason``, :meth:`Scoring.rejection`) for its
    match alone."""
    return reason is not None and reason.startswith(MATCH_REASONS)


#: A set draws its tiles like its tokens where over this share of its tile faces pass for
#: a token by their faces alone (:func:`tiles_pass_for_tokens`).
_PASSING_SHARE = 0.5


def tiles_pass_for_tokens(
    model: AppearanceModel, token_groups: np.ndarray, config: VisionConfig
) -> bool:
    """Whether most of a round set's tile faces, upright, match one of its token
    templates (any face or the back, any turn) as well as a token must
    (``accept_token_min``): then a tile, read perfectly, can be taken for a token by its
    face, and only its size tells it apart (:func:`vision.kinds.kind_by_size`). Over the
    50 styles of session 24: a sealing-wax blob (``wax``) 0.95 of its faces, ``clock``, ``stitch``,
    ``chip``, ``doily`` and ``vinyl`` 0.68-0.96, every other round style 0.40 or less,
    17 of them none. A square set's tokens are told by their shape."""
    bank = model.round
    if bank is None or model.tileset.tile_shape != "round":
        return False
    token = token_groups[bank.group]
    tiles = ~token & (bank.turn == 0)
    if not tiles.any() or not token.any():
        return False
    best = (bank.vectors[tiles] @ bank.vectors[token].T).max(axis=1)
    return float((best >= config.accept_token_min).mean()) > _PASSING_SHARE


class Scoring:
    """How pieces match the tile set and which of them are kept: built once from the
    model and the config, shared by every stage and search of a frame."""

    def __init__(
        self,
        model: AppearanceModel,
        config: VisionConfig,
        tileset: TileSet,
        token_groups: np.ndarray,
        framed: dict[bool, float],
    ) -> None:
        self.model = model
        self.config = config
        self.tileset = tileset
        #: Per group: whether it is a token's face or back (else a tile motif).
        self.token_groups = token_groups
        #: Per group: whether it is the tokens' back.
        self.back_groups = np.array(
            [model.labels[members[0]].token_back for members in model.groups], bool
        )
        #: Where a framed set's pieces are cut (see :attr:`vision.naming.Naming.framed`).
        self.framed = framed
        #: Whether the set draws its tiles like its tokens (:func:`tiles_pass_for_tokens`).
        self.tiles_pass_for_tokens = tiles_pass_for_tokens(model, token_groups, config)
        #: The motifs each motif is compared with where their faces differ, by shape
        #: (True: round).
        self.motif_pairs = {
            round_: motif_pairs(model, token_groups, round_=round_) for round_ in (False, True)
        }

    def score_structure(
        self, pyramid: Pyramid, candidates: list[Candidate], allowed: np.ndarray | None = None
    ) -> list[Scored]:
        """A first look at every piece of every split: core templates only (of the
        ``allowed`` groups, or all)."""
        scored: list[Scored] = []
        patch_px = self.config.patch_px
        for round_ in (False, True):
            bank = self.model.bank(round_)
            subset = [c for c in candidates if c.round == round_]
            if bank is None or not subset:
                continue
            patches = pyramid.rectify_many([c.quad for c in subset], patch_px)
            matches = match_structure(
                patches, bank, len(self.model.groups), core_only=True, allowed=allowed
            )
            scored += [Scored(c, p, m) for c, p, m in zip(subset, patches, matches, strict=True)]
        return scored

    def realigned(
        self, pyramid: Pyramid, pieces: list[Scored], allowed: np.ndarray | None = None
    ) -> list[Scored]:
        """Each piece aligned onto its tile (see :func:`vision.matching.align`) and judged
        against the full bank (its ``allowed`` groups); kept as it was where that
        matches worse."""
        out = list(pieces)
        for round_ in (False, True):
            bank = self.model.bank(round_)
            batch = [i for i, s in enumerate(pieces) if s.candidate.round == round_]
            if bank is None or not batch:
                continue
            size = self.config.patch_px
            aligned = align(
                pyramid,
                [pieces[i].candidate.quad for i in batch],
                [self.hypotheses(pieces[i]) for i in batch],
                bank,
                size,
                self.config.align_zooms,
                self.config.align_reach,
            )
            moved = [
                Candidate(quad, round_, c.blob, c.split, c.cover)
                for (quad, _), c in zip(aligned, (pieces[i].candidate for i in batch), strict=True)
            ]
            patches = pyramid.rectify_many([c.quad for c in moved], size)
            matches = match_structure(
                patches, bank, len(self.model.groups), core_only=False, allowed=allowed
            )
            for i, c, patch, match in zip(batch, moved, patches, matches, strict=True):
                if match.score >= pieces[i].match.score:
                    out[i] = Scored(c, patch, match, pieces[i].cut or pieces[i].candidate)
        return out

    def read(
        self, pyramid: Pyramid, candidates: list[Candidate], allowed: np.ndarray | None = None
    ) -> list[Scored]:
        """Each candidate's first look (:meth:`score_structure`), then aligned onto its
        tile and judged against the full bank (:meth:`realigned`): what a search does
        with cuts it made itself, of the ``allowed`` groups or all."""
        return self.realigned(pyramid, self.score_structure(pyramid, candidates, allowed), allowed)

    def realigned_if_worth(
        self, pyramid: Pyramid, pieces: list[Scored], allowed: np.ndarray | None = None
    ) -> list[Scored]:
        """:meth:`realigned`, for the pieces whose first match reaches ``align_min_score``
        only (the floor under which no blob's piece is aligned either, see
        :func:`vision.cuts.align_promising`); the rest as they were.

        For the squares and circles a search laid where nothing was recognised, kept only
        on a clear match once aligned (``second_look_min``): mostly cloth, dice and
        printed marks. On 60 hard photos of ten styles none of the 49 under the floor
        rose past 0.65 once aligned, each alignment (three zooms of one or two
        templates, then the full bank) cost about half a millisecond, and two rims
        matching a token at under 0.18 were aligned into false tokens (moonrise s7 #3,
        inkwash s2024). Not for pieces cut where the frame's edges or size say a piece
        lies, whose first match says little: a lone blob cut again at its outline
        (:func:`vision.searches.fragments.lone_blobs_recut`; slate s31 #5 and diagonal
        s2024 #13: 0.13 and 0.16, aligned 0.72 and 0.96) or a tile-sized "token" matched
        again as a tile (:func:`vision.kinds.kind_by_size`; coins s7 #3: 0.13, aligned
        0.87)."""
        least = self.config.align_min_score
        worth = [i for i, s in enumerate(pieces) if s.score >= least]
        out = list(pieces)
        aligned = self.realigned(pyramid, [pieces[i] for i in worth], allowed)
        for i, s in zip(worth, aligned, strict=True):
            out[i] = s
        return out

    def score_shifted(
        self, pyramid: Pyramid, candidates: list[Candidate], allowed: np.ndarray
    ) -> list[Scored]:
        """Each candidate matched where it lies and, unless that is a clear match, a
        tenth of its side away in each of eight directions; the best match is kept.

        A piece found by its rim or around its figure is only placed to a few pixels
        (a shadow widens the rim on one side, a figure need not lie in the middle of its
        face). Cut a tenth of its side off its place, a tile matches no face well enough
        for alignment to pick the right template to slide; a few shifted cuts, matched
        in one batch, find a cut close enough.
        """
        first = self.score_structure(pyramid, candidates, allowed)
        unclear = [k for k, s in enumerate(first) if s.score < self.config.second_look_min]
        offsets = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
        shifted = [
            Candidate(
                (c.quad + np.array(offset, np.float32) * _SHIFT_STEP * c.side).astype(np.float32),
                c.round,
                c.blob,
                c.split,
                c.cover,
            )
            for c in (candidates[k] for k in unclear)
            for offset in offsets
        ]
        scored = self.score_structure(pyramid, shifted, allowed)
        out = list(first)
        n = len(offsets)
        for i, k in enumerate(unclear):
            out[k] = max([first[k], *scored[i * n : i * n + n]], key=lambda s: s.score)
        return out

    def hypotheses(self, s: Scored) -> list[tuple[int, float]]:
        """The (group, turn) templates to align a piece with.

        The best group and, when it is close, the runner-up are both tried, so that a
        poor first cut does not decide the motif. A round piece's turn is known to
        half a template step, close enough to place it (the turns beside it moved
        nothing in the measurements and tripled the cost).
        """
        m = s.match
        hypotheses = [(m.group, m.turn)]
        if m.runner >= 0 and m.margin < self.config.align_rivalry:
            hypotheses.append((m.runner, m.runner_turn))
        return hypotheses

    def is_token(self, s: Scored) -> bool:
        return bool(self.token_groups[s.group])

    def is_back(self, group: int) -> bool:
        """Whether ``group`` is the tokens' back."""
        return bool(self.back_groups[group])

    def tile_tied_with_tile(self, s: Scored) -> bool:
        """Whether a piece matches a tile face clearly (``sure_tile_min``) and its
        runner-up is another tile motif: a tile, only its motif in doubt (the near-tie
        steps of :mod:`vision.doubts` and :mod:`vision.choosing` look at no other)."""
        runner = s.match.runner
        return (
            s.score >= self.config.sure_tile_min
            and not self.token_groups[s.group]
            and runner >= 0
            and not self.token_groups[runner]
        )

    def kept(
        self,
        frame: Frame,
        pieces: list[Scored],
        least: float,
        size_at: SizeModel,
        outline: bool = True,
        step_min: float | None = None,
    ) -> list[Scored]:
        """The pieces found with no blob of their own worth keeping: a match of at least
        ``least``, not turned down for the usual reasons, and (with ``outline``) an
        outline all round (see :func:`vision.outlines.has_outline`) that steps by
        ``step_min`` (``outline_step_min`` unless given).

        The outline is looked for on the piece's edge: alignment places a piece well
        but sizes it only to a tenth (a round face fits about as well a little larger
        or smaller), and a ring that far off its edge crosses none."""
        config = self.config
        return [
            s
            for s in pieces
            if s.score >= least
            and self.rejection(s, size_at(s.candidate.center)) is None
            and (
                not outline
                or has_outline(
                    frame.grey,
                    self._on_edge(frame, s),
                    frame.scale,
                    s.candidate.round,
                    config.outline_step_min if step_min is None else step_min,
                    config.outline_share_min,
                )
            )
        ]

    def outline_step(self, frame: Frame, s: Scored) -> float:
        """The typical step in grey across the piece's outline, on its edge
        (:func:`vision.outlines.outline_contrast`)."""
        quad = self._on_edge(frame, s)
        return outline_contrast(frame.grey, quad, frame.scale, s.candidate.round)[0]

    def least_faint_step(self, frame: Frame) -> float:
        """The least step an outline may take where a piece's edge may be faint: a few
        times the cloth's own noise (:data:`vision.outlines.CLOTH_NOISE_STEPS`), never
        more than a clear outline's (``outline_step_min``)."""
        return min(self.config.outline_step_min, CLOTH_NOISE_STEPS * frame.cloth_step)

    def _on_edge(self, frame: Frame, s: Scored) -> np.ndarray:
        """The piece's cut moved onto its edge (:func:`vision.outlines.fitted_to_edge`):
        alignment places a piece well but sizes it only to a tenth."""
        c = s.candidate
        return fitted_to_edge(frame.pyramid.levels[0], c.quad, c.round, self.framed[c.round])

    def doubtful(self, s: Scored, side_px: float) -> bool:
        """A chosen piece that may stand where a larger piece of ``side_px`` lies: much
        smaller than that (a figure whose face blended into the cloth), or a poor
        match cut at the wrong size."""
        ratio = s.candidate.side / side_px
        return ratio < 0.6 or (s.score < self.config.second_look_min and abs(ratio - 1) > 0.15)

    def lead(self, s: Scored) -> float:
        """How far the piece's kind leads the next, in correlation: its margin, or where
        that is small but the piece shows most of the two faces' own difference
        (:func:`vision.matching.lead_share`, for faces alike but for a small figure),
        that share scaled so that lying on the face is a clear lead."""
        least = self.config.accept_margin_min
        bank = self.model.bank(s.candidate.round)
        if s.margin >= least or bank is None:
            return s.margin
        share = lead_share(s.patch, bank, s.match)
        if share < self.config.accept_lead_share_min:
            return s.margin
        return max(s.margin, 2 * share * CLEAR_LEAD)

    def rejection(self, s: Scored, side_px: float | None) -> str | None:
        """Why ``s`` is no piece (one phrase, with the figure that decided it), or None;
        a reason starting with one of :data:`MATCH_REASONS` is its match alone."""
        config = self.config
        is_token = self.is_token(s)
        least = config.accept_token_min if is_token else config.accept_structure_min
        if s.score < least:
            return f"no match ({s.score:.2f})"
        if self.lead(s) < config.accept_margin_min:
            return f"ambiguous ({s.margin:.2f})"
        c = s.candidate
        if elongation(c.quad) > config.max_elongation:
            return "not round" if c.round else "not square"
        if not is_token and c.side < config.min_tile_px:
            # where the frame does not say how large a tile is, a bit of one (its rim
            # cut into discs a twentieth of its size) can match a face as well as a tile
            return f"too small ({c.side:.0f} px)"
        if side_px:
            low, high = config.token_size_range if is_token else config.tile_size_range
            ratio = c.side / side_px
            if not low <= ratio <= high:
                return f"wrong size ({ratio:.2f}× a tile)"
        return None

    def least_tile_side(self, size: tuple[int, int]) -> float:
        """The smallest side, in pixels, of a tile reported in a frame of ``size``
        (width, height): ``min_tile_frac`` of its longer side.

        A table's collection seen whole leaves its tiles 30 px and more in a 1280 × 720
        frame; what matches a face under 24 px there is print, not a tile: with no tile
        in the frame to say how large one is, the deposit mat's moons and a die's pips,
        cut as 15-25 px pieces, were 17 of the 40 false tiles on the empty table's
        photos. It is a share of the frame, not a number of pixels, so that a phone's
        photo and a webcam's frame of the same table agree, and of its longer side, the
        width a camera sees: a webcam's 4:3 and 16:9 modes share it (the 16:9 one cuts
        the top and bottom off), and a 4:3 frame held to its shorter side would ask a
        third more of the same tiles (32 px tiles at 1280 px across: 24 px asked at
        1280 x 720, 32 at 1280 x 960). Only what is reported is
        held to it (:meth:`vision.naming.Naming.colour`): on the way, a tile's figure
        cut small is what some searches find the whole tile by (woodcut seed 7 #3's
        33 px tiles on a red check, first cut at 22 px), and the small pieces of a
        print still count among its repeats."""
        return self.config.min_tile_frac * max(size)

    def size_model(self, pieces: list[Scored], calibrated: float | None) -> SizeModel | None:
        """The side of a tile expected at each point of the frame, or None if unknown.

        A tilted camera makes near tiles larger than far ones, roughly linearly across
        the frame; with four or more clear tile matches the size is fitted as a plane
        over the image, otherwise taken as their median (or from the calibration).
        The plane's slopes are held back (ridge regression, half a tile's side squared
        per tile) so that it only tilts along directions in which the tiles spread:
        tiles laid in one row say nothing about sizes beside it, where a plain fit
        would extrapolate at random.
        """
        if calibrated is not None:
            return lambda point: calibrated
        least = self.config.size_anchor_score
        clear = [
            s
            for s in pieces
            if s.score >= least
            and not self.is_token(s)
            and s.candidate.side >= self.config.min_tile_px
        ]
        if not clear:
            return None
        # a tilted camera makes tiles at most twice as large at one side of the frame
        # as at the other; a card's pattern matching a tile at three times the size, or
        # specks along a board's seam matching a tile's figure a little, would tilt the
        # plane for every piece: the size most clear matches agree on (the clearer
        # counting more) is the frame's
        median = _agreed_side(clear, least)
        sure = [s.candidate for s in clear]
        low, high = 0.5 * median, 2 * median
        sure = [c for c in sure if low <= c.side <= high]
        if len(sure) < 4:
            return self._doubted_by_tokens(pieces, lambda point: median, median)
        sides = np.array([c.side for c in sure])
        points = np.array([c.center for c in sure])
        middle, mean = points.mean(axis=0), float(sides.mean())
        spread = points - middle
        damping = len(sure) * (median / 2) ** 2 * np.eye(2)
        slope = np.linalg.solve(spread.T @ spread + damping, spread.T @ (sides - mean))
        # plain floats: the model is asked thousands of times a frame
        sx, sy, mx, my = (float(v) for v in (*slope, *middle))

        def size_at(point: tuple[float, float]) -> float:
            return min(max(mean + sx * (point[0] - mx) + sy * (point[1] - my), low), high)

        return self._doubted_by_tokens(pieces, size_at, median)

    def _doubted_by_tokens(
        self, pieces: list[Scored], size_at: SizeModel, median: float
    ) -> SizeModel | None:
        """``size_at``, unless the frame's clear tokens say a tile is larger than it.

        A token is smaller than a tile (:attr:`VisionConfig.token_size_range`); where
        two or more tokens whose faces match clearly enough to stand alone
        (:attr:`VisionConfig.lone_token_min`, with a clear lead) and most of them
        come out larger than that beside the tiles the size was learnt from, the size
        is what is wrong: a plane tilted by a block's own spread and carried far beyond
        it (the median is taken instead), or tiles whose ground the mask lost, matched
        at their figures' size (the size is left unknown: azulejo seed 2024 #3, 15
        cream tiles cut at their figures, 25 px, and eight clear tokens turned down as
        1.43 times a tile).
        """
        high = self.config.token_size_range[1]
        tokens = [
            s
            for s in pieces
            if self.is_token(s)
            and s.score >= self.config.lone_token_min
            and self.lead(s) >= self.config.accept_margin_min
        ]
        if len(tokens) < 2:
            return size_at
        over = [s for s in tokens if s.candidate.side > high * size_at(s.candidate.center)]
        if 2 * len(over) <= len(tokens) or len(over) < 2:
            return size_at
        if 2 * sum(s.candidate.side > high * median for s in tokens) <= len(tokens):
            return lambda point: median
        return None


def _agreed_side(clear: list[Scored], least: float) -> float:
    """The median side of the clear matches around the side most of them agree on:
    each votes, by how much it beats ``least``, for every side within half again of
    its own."""
    sides = np.array([s.candidate.side for s in clear])
    votes = np.array([s.score - least for s in clear]) + 0.05
    apart = np.abs(np.log(sides[:, None] / sides[None]))
    agreed = sides[int(np.argmax((apart <= math.log(1.5)) @ votes))]
    return median_of(
        [side for side in sides.tolist() if abs(math.log(side / agreed)) <= math.log(2)]
    )
