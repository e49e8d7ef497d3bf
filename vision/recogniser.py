"""The recogniser: one frame in, every tile and token on the table out.

``Recogniser(tileset).detect(image)`` runs the stages in order, each a small pure
function over arrays:

1. :mod:`vision.foreground` — which pixels are objects, not table;
2. :mod:`vision.candidates` — blobs split into single tiles or tokens (several ways
   where the size of a tile is uncertain);
3. :mod:`vision.rectify` — each piece cut out as an upright square patch;
4. :mod:`vision.model` — grey structure matched against the tile set in every
   rotation: which motif (with or without heart), token face or token back, and
   which split of each blob explains it best; poor matches are rejected;
5. :mod:`vision.colour` — the frame's light estimated from the matched pieces, then
   each piece's colour (and heart) chosen under that light.

The model is built from the tile set once, so the web server keeps one recogniser
and calls ``detect`` for every camera frame.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np
from threadpoolctl import threadpool_limits

from companion.bitenight.tiles import Tile
from vision.candidates import (
    Blob,
    Candidate,
    coverage,
    estimate_side,
    explained,
    find_blobs,
    grid_splits,
    is_lone_square,
    is_single_square,
    quad_side,
    single_outline,
)
from vision.colour import FrameColours, colour_mask, upright
from vision.config import VisionConfig
from vision.correction import CameraCorrection
from vision.discs import circle_split, disc_around_part, disc_split, is_single_disc
from vision.foreground import downscale, find_foreground
from vision.imageio import MAX_PIXELS, ImageError
from vision.lattice import Lattice, fit_lattice, lattice_cells
from vision.matching import StructureMatch, align, every_group, lead_share, match_structure
from vision.model import AppearanceModel, band_pass, build_model, structure_vectors
from vision.motifs import motif_challenges, motif_pairs
from vision.numeric import mean_of, median_of
from vision.outlines import (
    face_ground_reach,
    fitted_to_edge,
    has_outline,
    outline_contrast,
    outline_evenness,
    outlined_square,
    square_by_outline,
    square_quad,
)
from vision.rectify import Pyramid, patch_mask, quad_from_ellipse
from vision.results import FrameResult, RejectedCandidate, TileDetection, TokenDetection
from vision.shapes import discs_of_radius, rim_ellipse, squares_of_side
from vision.tileset import TileSet
from vision.token_rows import OPPOSITE, SIDE_BY_SIDE, as_the_rules_allow, printed_groups

#: The side of a tile in full-frame pixels expected at a point of the frame.
SizeModel = Callable[[tuple[float, float]], float]
#: A blob cut in more ways than this is judged on a sample of each cut's cells first.
_SPLITS_KEPT = 2
_SAMPLE_CELLS = 5
#: A token with no other token within this many diameters (centre to centre) lies
#: alone: not in a player's row, even one with a token between not read.
#: A lone token this share of the frame's token size or larger (up to the geometric
#: middle of a token's and a tile's size) is not read again as a tile.
_TOKEN_SIZED = 0.85
_LONE_REACH = 2.6
#: Why the pieces of a split mostly turned down are all turned down.
_NOT_TILES = "part of something that is not tiles"
#: A blob of this share of a tile's area may be one tile cut off its place.
_LONE_BLOB_SHARE = (0.5, 1.5)
#: The split number given to a block completed along its lattice.
_LATTICE_SPLIT = 1000
#: Tokens this much smaller than tiles (or more) are told from tiles by size too.
_KINDS_APART = 0.15
#: Touching pieces lie half their sizes apart; nearer than this share of it, one of them
#: is not there (a cut a little large, a token's halo in the mask, is forgiven).
_ROOM_SHARE = 0.9
#: Missed round pieces are looked for within this many of their kind's sides of the
#: pieces found (a row or block continues; the rest of the frame was seen by the mask).
_RIM_REACH = 2.5
#: Rims of a smaller radius than this (working pixels) are looked for in the full frame.
_RIM_FINE = 6.0
#: A rim on a checked cloth holds a piece when the cloth stops repeating itself over at
#: least this share of the disc of 0.7 its radius (tiles on a fine check measured 0.63
#: and more, rings of the check's own cells 0.02 and less).
_RIM_BREAK_MIN = 0.3
#: Two tokens this many diameters apart (and no more), with nothing read between them,
#: may be the two ends of a row whose middle the mask lost (backs in the cloth's own
#: colours): a player's row is rarely longer...
_ROW_MOST_STEPS = 8
#: ...and its tokens lie one diameter apart, each step within this share of the ends'
#: diameter (a token's cut is sized only to a tenth or so).
_ROW_STEP_SLACK = 0.2
#: Split number of the pieces looked for between a row's ends.
_ROW_SPLIT = 2000
#: A blob this share of a tile's area may be the figure of a tile the mask lost...
_FRAGMENT_SHARE = (0.05, 0.7)
#: ...and the tile around it is looked for where the edges show its outline best
#: (:func:`vision.outlines.square_by_outline`), and centred on it in this many turns of
#: a quarter.
_FRAGMENT_TURNS = 6
#: Bits of one figure lie within this many tile sides of each other (two bits towards
#: opposite corners, half-way out, are 0.71 apart; the figures of touching tiles about 1).
_FIGURE_SPAN = 0.8
#: Square pieces matching worse than this once aligned are aligned in their other
#: quarter turns too (on four styles' photos, bars of 0.8 and 0.9 read alike: 3 more
#: tiles right, none lost; round pieces' other turns gained nothing).
_QUARTER_TURN_DOUBT = 0.8
#: Square pieces still doubtful are also cut turned by these many degrees (a blob's
#: misjudged outline turned cuts 7-40° off their tiles on the fresh hard photos).
_TURN_TRIES = (-30.0, -15.0, 15.0, 30.0, 45.0)
#: ...and the best this many of its alignments are aligned once more from where they
#: landed (a 70 px coffin cut 6 % off reached 0.96 from its third best, 0.53).
_SECOND_ALIGNED = 3
#: A round figure looks the same turned where its structure matches itself this well.
_ALIKE = 0.9
#: Square tiles whose motif leads the next by less than this are judged once more where
#: the motifs differ (:meth:`Recogniser._motifs_where_they_differ`)...
_MOTIF_DOUBT = 0.2
#: Round pieces found without a blob of their own are also cut this share of their
#: side off their first place (on the round styles' photos 0.1 found 5 more tiles and
#: lost none; 0.07 and 0.13 found fewer).
_SHIFT_STEP = 0.1
#: A piece of a blob no split explains is a tile (against a mat or a card) on a match
#: this clear and an outline all round (on the hard close-ups the mat's printed cells
#: matched 0.6 at most, the one tile that seeded an L of five 0.88: 0.8 read the same,
#: 0.9 lost it)...
_UNEXPLAINED_SEED_MIN = 0.85
#: ...in a blob of at least this many of its areas (a lone tile's blob is judged as is)...
_UNEXPLAINED_AREA = 2.0
#: ...and its neighbours are followed this many tiles on (a longer row is rarer than
#: the cost of a round with nothing to find: one structure match of four cells).
_UNEXPLAINED_ROUNDS = 5
#: A found tile's edges are looked for at these multiples of its matched side (matched
#: sides ran to 0.9 of the tile's on the close-ups; each more size is one more square
#: search per place).
_OUTLINE_ZOOMS = (0.95, 1.0, 1.05, 1.1, 1.15)
#: Where no piece of such a blob matches clearly and the tile size is unknown, squares
#: are looked for by their edges (see :mod:`vision.shapes`), from an eighth of the
#: blob's width to two thirds of it, each size this much larger than the last (a
#: side's step is found within a pixel of its place at 24 px a side)...
_EDGE_SIZES_SPAN = (8.0, 1.5)
_EDGE_SIZE_RATIO = 1.1
#: ...squares whose every side steps along this share of its length, the best this many
#: of each size...
_EDGE_COVER_MIN = 0.6
_EDGE_PER_SIZE = 4
#: ...aligned where their first cut matches this well.
_EDGE_FIRST_MIN = 0.4
#: A disc found so is a tile on a match this clear (on the hard close-ups, the round
#: tiles against the mat matched 0.87-0.97 once cut along their rim's ellipse, every
#: disc found elsewhere 0.65 at most).
_EDGE_DISC_MIN = 0.8
#: A lead over the next kind of object this large counts as clear (full confidence).
_CLEAR_LEAD = 0.08
#: Round tiles in a heap are looked for beside each recognised one in this many
#: directions: touching discs lie a diameter apart, in any direction, and a cut a
#: twentyfourth of a turn off (an eighth of a side) is still within alignment's reach.
_HEAP_DIRECTIONS = 24
#: ...where nothing lies within this many sides (the gap between two touching discs
#: lies 0.7 of a side from each; with sizes known to a tenth, a lost disc 0.9 or more).
_HEAP_APART = 0.85
#: Tiles whose centres are closer than this many sides touch (one block)...
_TOUCHING = 1.3
#: ...and a block is followed this many tiles beyond its recognised ones.
_BESIDE_ROUNDS = 3
#: ...aligning only the free cells whose first cut matches a tile this well (on the
#: rendered photos real tiles first matched 0.84 or better, cloth 99 % under 0.5).
_BESIDE_FIRST_MIN = 0.5
#: ...and keeping those that then match this well (real ones 0.94 and better, a checked
#: cloth's cells beside a block up to 0.71).
_BESIDE_ACCEPT_MIN = 0.8


@dataclass(frozen=True, eq=False)
class _Scored:
    candidate: Candidate
    patch: np.ndarray
    match: StructureMatch
    #: The piece as first cut, before alignment moved it (None: not moved).
    cut: Candidate | None = None

    @property
    def group(self) -> int:
        return self.match.group

    @property
    def turn(self) -> float:
        return self.match.turn

    @property
    def score(self) -> float:
        return self.match.score

    @property
    def margin(self) -> float:
        return self.match.margin


class Recogniser:
    """Recognises one tile set's tiles and tokens in frames; build once, call often."""

    def __init__(self, tileset: TileSet, config: VisionConfig | None = None) -> None:
        _single_threaded_blas()
        self.config = config or VisionConfig.load()
        self.model: AppearanceModel = build_model(tileset, self.config)
        # one array of faces per group, shared by its pieces (the colour stage reduces
        # each array once and remembers it)
        self._member_faces = {
            g: self.model.colour_templates[list(members)]
            for g, members in enumerate(self.model.groups)
        }
        self._token_groups = np.array([n.startswith("token") for n in self.model.group_names])
        self._alike_turns = _alike_turns(self.model, self._token_groups, self.config)
        self._heart_twins = _heart_twins(self.model)
        self._motif_pairs = motif_pairs(self.model, self._token_groups)
        # tokens and round tiles are cut as discs, square tiles as squares
        shaped = self._token_groups | (tileset.tile_shape == "round")
        self._colour_masks = {
            round_: colour_mask(
                [self._member_faces[g] for g in np.flatnonzero(shaped == round_)],
                round_,
                self.config.patch_px,
            )
            for round_ in (False, True)
        }
        # pieces of a set coloured in a frame round the edge are cut outside the frame,
        # which lies where the faces' ground ends (0: not framed)
        self._framed = {
            round_: face_ground_reach(
                np.concatenate([self._member_faces[g] for g in np.flatnonzero(shaped == round_)]),
                round_,
            )
            if not np.array_equal(mask, patch_mask(self.config.patch_px, round_))
            else 0.0
            for round_, mask in self._colour_masks.items()
        }
        self.tileset = tileset
        # the banks' screens now, not on the first camera frame (about 0.7 s)
        for bank in (self.model.square, self.model.round):
            if bank is not None:
                bank.screen(core_only=True)
                bank.screen(core_only=False)

    def detect(self, image: np.ndarray, correction: CameraCorrection | None = None) -> FrameResult:
        """Find every tile and token in a BGR frame (pixels of the input image)."""
        image = _as_bgr(image)
        height, width = image.shape[:2]
        timings: dict[str, float] = {}
        clock = time.perf_counter()

        def lap(stage: str) -> None:
            nonlocal clock
            now = time.perf_counter()
            timings[stage] = (now - clock) * 1000
            clock = now

        if correction is not None:
            image = correction.correct_colours(image)
        small, scale = downscale(image, self.config.work_width)
        foreground = find_foreground(small, self.config)
        mask = foreground.mask
        lap("foreground")
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        blobs = self._blobs(mask, scale)
        pyramid = Pyramid(image)
        calibrated = _calibrated_side(correction, self.tileset.tile_size_mm, (width, height))
        # first the blobs that look like one object each: the tiles among them tell the
        # size of a tile across the frame, which then says how to cut up the rest
        cut = self._single_candidates(blobs, scale)
        fitted = [
            replace(c, quad=fitted_to_edge(image, c.quad, c.round, self._framed[c.round]))
            for c in cut
        ]
        as_cut = {id(f): c for f, c in zip(fitted, cut, strict=True)}
        singles = self._score_structure(pyramid, fitted)
        # blocks are outlined as wide as lone pieces were before fitting: their cuts go by that
        sizes = self._size_model(
            [replace(s, candidate=as_cut[id(s.candidate)]) for s in singles], calibrated
        )
        settled = {s.candidate.blob for s in singles if self._settled(s, sizes)}
        rest = self._split_candidates(blobs, settled, mask, grey, scale, sizes)
        lap("candidates")
        scored = self._align_promising(pyramid, singles + self._score_splits(pyramid, rest))
        scored = self._tokens_fitted(pyramid, image, scored)
        scored += self._complete_blocks(pyramid, scored, blobs, mask, scale)
        lap("structure")
        chosen, rejected, size_at, turned_down = self._choose(pyramid, scored, calibrated)
        chosen, rejected = self._other_motifs(pyramid, chosen, turned_down, rejected, size_at)
        chosen = self._other_quarter_turns(pyramid, chosen)
        periods = foreground.periods
        found = self._out_of_unexplained(
            pyramid, scored, blobs, mask, grey, scale, chosen, size_at, periods
        )
        if found:
            chosen += found
            size_at = size_at or self._size_model(chosen, calibrated)
        chosen = self._look_again(pyramid, blobs, grey, scale, chosen, size_at, foreground.broken)
        chosen = self._around_fragments(pyramid, blobs, grey, scale, chosen, size_at, periods)
        chosen += self._lone_blobs_recut(pyramid, blobs, grey, scale, chosen, size_at, periods)
        chosen += self._beside_blocks(pyramid, chosen, grey, scale, size_at)
        chosen += self._in_heaps(pyramid, chosen, mask, grey, scale, size_at)
        chosen += self._row_gaps(pyramid, grey, scale, chosen, size_at)
        chosen, alone = self._tokens_in_company(pyramid, grey, scale, chosen, size_at, periods)
        rejected += alone
        side_px = size_at((width / 2, height / 2)) if size_at else None
        lap("choose")
        chosen = self._motifs_where_they_differ(chosen)
        tiles, tokens, unsure, gains = self._colour(chosen)
        lap("colour")
        return FrameResult(
            width=width,
            height=height,
            tiles=tuple(tiles),
            tokens=tuple(tokens),
            rejected=tuple(rejected + unsure),
            tile_side_px=side_px,
            light_gains=(float(gains[0]), float(gains[1]), float(gains[2])),
            timings_ms=timings,
        )

    # -- stage 2: candidates -------------------------------------------------------------

    def _blobs(self, mask: np.ndarray, scale: float) -> list[Blob]:
        config = self.config
        token_floor = config.token_size_range[0] if self.tileset.has_tokens else 1.0
        min_side = config.min_tile_px / scale
        return find_blobs(mask, min_area=(min_side * min(token_floor, 0.75)) ** 2 * 0.6)

    def _single_candidates(self, blobs: list[Blob], scale: float) -> list[Candidate]:
        """One piece for each blob shaped like one square or one disc (split 0)."""
        candidates = []
        squares = self.tileset.has_tiles and self.tileset.tile_shape == "square"
        discs = self.tileset.has_tokens or self.tileset.tile_shape == "round"
        for index, blob in enumerate(blobs):
            if squares and is_single_square(blob, self.config):
                candidates.append(_full(single_outline(blob), scale, False, index, 0, 1.0))
            elif discs and is_single_disc(blob):
                centre, axes, angle = cv2.fitEllipse(blob.contour)
                quad = quad_from_ellipse(centre, axes, angle)
                candidates.append(_full(quad, scale, True, index, 0, 1.0))
        return candidates

    def _settled(self, s: _Scored, sizes: SizeModel | None) -> bool:
        """A lone piece that clearly is one tile or token of the right size: no need to
        look for other ways to cut its blob."""
        return (
            s.score >= self.config.size_anchor_score
            and sizes is not None
            and self._rejection(s, sizes(s.candidate.center)) is None
        )

    def _split_candidates(
        self,
        blobs: list[Blob],
        settled: set[int],
        mask: np.ndarray,
        grey: np.ndarray,
        scale: float,
        sizes: SizeModel | None,
    ) -> list[Candidate]:
        """The ways to cut each remaining blob into tiles or tokens.

        With the tile size known at the blob (from this frame's lone tiles or the
        table calibration) a block of tiles is cut one way, or two; without it, every
        plausible count is offered and matching picks the split that explains it best.
        """
        config = self.config
        tileset = self.tileset
        height, width = mask.shape[:2]
        min_side = config.min_tile_px / scale
        token_floor = config.token_size_range[0] if tileset.has_tokens else 1.0
        min_piece = min_side * min(token_floor, 0.75)  # a token may be smaller than a tile
        round_tiles = tileset.tile_shape == "round"
        guess = None if sizes else estimate_side(blobs, round_tiles, config)
        max_side = config.max_tile_frac * min(width, height)
        candidates: list[Candidate] = []
        for index, blob in enumerate(blobs):
            if index in settled:
                continue
            split = 1
            if sizes is not None:
                side = sizes(_blob_centre(blob, scale))
                side /= scale
            else:
                side = guess
            trusted = sizes is not None
            narrow = trusted and side and blob.short_side < config.tile_size_range[0] * side
            if tileset.has_tiles and not round_tiles and not narrow:  # narrow: a token row
                for cells in grid_splits(blob, side, config, trusted=trusted):
                    shares = coverage(mask, cells)
                    quads = [
                        q
                        for q, share in zip(cells, shares, strict=True)
                        if share >= config.cell_coverage_min and min_side <= _side(q) <= max_side
                    ]
                    if quads:
                        cover = explained(blob, quads, False)
                        candidates += _full_all(quads, scale, False, index, split, cover)
                        split += 1
            token_row = tileset.has_tokens and not is_lone_square(blob, side, config)
            if trusted and side and blob.short_side > config.token_size_range[1] * side:
                token_row = False  # wider than any token: a block of square tiles
            if round_tiles or token_row:
                floor = min(token_floor, 0.75) * (side if side else min_side / 0.75) / 2 * 0.8
                quads = [
                    q
                    for q in disc_split(blob, mask.shape, max(2.0, floor))
                    if min_piece <= _side(q) <= max_side
                    # a long ellipse is no disc: a round set then looks for rims
                    and not (round_tiles and _elongation(q) > config.max_elongation)
                ]
                discs_cover = explained(blob, quads, True) if quads else 0.0
                if quads:
                    candidates += _full_all(quads, scale, True, index, split, discs_cover)
                    split += 1
                # with no tile size in the frame, all its tiles may lie in one block, and a
                # block welded into one slab (a cloth in its tiles' colours) may show one
                # deep distance peak only, read as one disc: its outline is no disc's
                slab = not side and not is_single_disc(blob)
                one_disc = len(quads) == 1 and discs_cover >= 0.8 and not slab
                if round_tiles and not one_disc:
                    # packed, or not split at all: look for the discs' rims
                    radius = side / 2 if side else None
                    circles = [
                        q
                        for q in circle_split(blob, grey, radius)
                        if min_piece <= _side(q) <= max_side
                    ]
                    if len(circles) > 1:
                        cover = explained(blob, circles, True)
                        candidates += _full_all(circles, scale, True, index, split, cover)
                        split += 1
            if round_tiles:
                around = disc_around_part(blob, side if trusted else None)
                if around is not None and min_side <= _side(around) <= max_side:
                    candidates.append(_full(around, scale, True, index, split, 1.0))
        return candidates

    # -- stage 3 and 4: rectify and match structure --------------------------------------

    def _score_structure(
        self, pyramid: Pyramid, candidates: list[Candidate], allowed: np.ndarray | None = None
    ) -> list[_Scored]:
        """A first look at every piece of every split: core templates only (of the
        ``allowed`` groups, or all)."""
        scored: list[_Scored] = []
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
            scored += [_Scored(c, p, m) for c, p, m in zip(subset, patches, matches, strict=True)]
        return scored

    def _score_splits(self, pyramid: Pyramid, candidates: list[Candidate]) -> list[_Scored]:
        """Every piece of the most promising cuts of each blob, matched (core bank).

        A block of unknown tile size is offered in up to ten grids; matching every cell
        of every grid costs more than the rest of the frame. A few cells spread over
        each grid already show whether it lies on tile borders (each cell then holds
        one face) or across them, so each grid is judged by a sample and only the best
        (and the second best, if it is close) are matched in full.
        """
        by_split: dict[tuple[int, int], list[Candidate]] = {}
        for c in candidates:
            by_split.setdefault((c.blob, c.split), []).append(c)
        splits_of: dict[int, list[tuple[int, int]]] = {}
        for key in by_split:
            splits_of.setdefault(key[0], []).append(key)
        crowded = {blob for blob, keys in splits_of.items() if len(keys) > _SPLITS_KEPT}
        if not crowded:
            return self._score_structure(pyramid, candidates)
        samples: list[Candidate] = []
        for blob in crowded:
            for key in splits_of[blob]:
                members = by_split[key]
                picks = np.unique(np.linspace(0, len(members) - 1, _SAMPLE_CELLS).round())
                samples += [members[int(i)] for i in picks]
        sampled: dict[tuple[int, int], list[_Scored]] = {}
        done: dict[int, _Scored] = {}
        for s in self._score_structure(pyramid, samples):
            sampled.setdefault((s.candidate.blob, s.candidate.split), []).append(s)
            done[id(s.candidate)] = s
        keep = set(by_split) - {key for blob in crowded for key in splits_of[blob]}
        for blob in crowded:
            values = {k: _split_value(sampled[k]) for k in splits_of[blob]}
            ranked = sorted(values, key=lambda k: -values[k])[:_SPLITS_KEPT]
            top = values[ranked[0]]
            keep |= {k for k in ranked if values[k] >= top - self.config.split_slack}
        kept = [c for c in candidates if (c.blob, c.split) in keep]
        fresh = self._score_structure(pyramid, [c for c in kept if id(c) not in done])
        return fresh + [done[id(c)] for c in kept if id(c) in done]

    def _align_promising(self, pyramid: Pyramid, scored: list[_Scored]) -> list[_Scored]:
        """Align the pieces of each blob's most promising splits (at most two), then judge
        them against the full bank."""
        by_split = _by_split(scored)
        ranked: dict[int, list[tuple[float, tuple[int, int]]]] = {}
        for key, members in by_split.items():
            ranked.setdefault(key[0], []).append((_split_value(members), key))
        promising = set()
        for options in ranked.values():
            options.sort(reverse=True)
            top = options[0][0]
            promising |= {
                key for value, key in options[:2] if value >= top - self.config.split_slack
            }
        config = self.config
        chosen = [
            i
            for i, s in enumerate(scored)
            if (s.candidate.blob, s.candidate.split) in promising
            and config.align_min_score <= s.match.score < config.align_max_score
        ]
        out = list(scored)
        for i, s in zip(chosen, self._realigned(pyramid, [scored[i] for i in chosen]), strict=True):
            out[i] = s
        return out

    def _tokens_fitted(
        self, pyramid: Pyramid, image: np.ndarray, scored: list[_Scored]
    ) -> list[_Scored]:
        """The disc pieces of split blobs that match no token well, cut again along
        their rims (as lone pieces are from the start) and kept where that matches
        better.

        The mask swells dark discs by the photo's blur, and pieces cut from it are too
        large to match: a row of dark backs on a pale table, cut 20 % large, matched
        0.38-0.63, and 0.66-0.81 at their size. Only in a square set, where every disc
        is a token: a round set's packed tiles, fitted so, lost more hearts than they
        won (a rim among others steps weakly). Only the poor matches, as a fit costs
        a quarter of a millisecond a piece.
        """
        if self.tileset.tile_shape == "round":
            return scored
        # promising (as for alignment) but poor: a die's pip cut as a disc matched
        # nothing (-0.05), and once fitted to its edge, a white token (0.78)
        lowest, least = self.config.align_min_score, self.config.accept_token_min
        poor = [
            i
            for i, s in enumerate(scored)
            if s.candidate.round and s.candidate.split > 0 and lowest <= s.score < least
        ]
        if not poor:
            return scored
        # and only in splits read as tokens throughout, one of them clearly (a row, its
        # pale ends read), not a block of tiles, a card or the mat cut into discs, whose
        # poor pieces are many (2-3 ms a frame fitted)
        clear = self.config.size_anchor_score
        rows = {
            key
            for key, members in _by_split(scored).items()
            if all(self._is_token(s) for s in members) and any(s.score >= clear for s in members)
        }
        poor = [i for i in poor if (scored[i].candidate.blob, scored[i].candidate.split) in rows]
        if not poor:
            return scored
        framed = self._framed[True]
        cuts = []
        for i in poor:
            first = scored[i].cut or scored[i].candidate
            cuts.append(replace(first, quad=fitted_to_edge(image, first.quad, True, framed)))
        again = self._realigned(pyramid, self._score_structure(pyramid, cuts))
        out = list(scored)
        for i, s in zip(poor, again, strict=True):
            if s.score > out[i].score:
                out[i] = s
        return out

    def _other_quarter_turns(self, pyramid: Pyramid, chosen: list[_Scored]) -> list[_Scored]:
        """Each chosen square tile still matching poorly, aligned again in its other
        quarter turns; the best match is kept.

        Alignment slides one template, in the turn the first cut matched best. A small
        tile cut off its place may match a near-symmetric figure (a garlic bulb) best a
        quarter turn off, and sliding that turn cannot find its place; its heart, looked
        for where the face puts it, is then read wrong. Only chosen tiles are tried:
        the pieces of the splits that lose are many, and their turns do not matter.
        """
        doubtful = [
            k
            for k, s in enumerate(chosen)
            if not s.candidate.round and not self._is_token(s) and s.score < _QUARTER_TURN_DOUBT
        ]
        if not doubtful:
            return chosen
        turned = [
            _Scored(
                s.candidate, s.patch, replace(s.match, turn=(s.match.turn + q) % 360, runner=-1)
            )
            for s in (chosen[k] for k in doubtful)
            for q in (90.0, 180.0, 270.0)
        ]
        again = self._realigned(pyramid, turned, ~self._token_groups)
        out = list(chosen)
        for n, k in enumerate(doubtful):
            for s in again[3 * n : 3 * n + 3]:
                if s.score > out[k].score:
                    out[k] = _Scored(s.candidate, s.patch, s.match, chosen[k].cut or s.cut)
        return out

    def _other_motifs(
        self,
        pyramid: Pyramid,
        chosen: list[_Scored],
        turned_down: list[_Scored],
        rejected: list[RejectedCandidate],
        size_at: SizeModel | None,
    ) -> tuple[list[_Scored], list[RejectedCandidate]]:
        """Chosen tiles still matching poorly, and pieces of kept splits turned down for
        their match, aligned again with every tile motif and (square ones) turned; a
        clear match (:data:`_QUARTER_TURN_DOUBT`) better than before is kept, and a
        turned-down piece that now passes is a tile.

        Alignment slides the template of the motif (and the runner-up) the first cut
        matched best, and only moves and scales the cut. A cut a few per cent off its
        place or turned by a few degrees matches a face's fine outlines poorly (a 70 px
        tile cut 6 % off and 7° turned matched 0.17, at its place 0.96), so that motif
        is often the wrong one and the right one's template is never slid; and a square
        cut along a blob's misjudged outline (a tile on a cloth of its colour, two tiles
        touching at a corner) lies up to 45° off the tile, which no slide undoes. Each
        motif is slid at the turn it matched best, each turned cut with the motifs it
        matched best, and the best few once more from where they landed.
        Only the few doubtful pieces of a frame are tried (none on most frames).
        """
        tiles = ~self._token_groups
        doubtful = [s for s in chosen if not self._is_token(s) and s.score < _QUARTER_TURN_DOUBT]
        pieces = doubtful + turned_down
        if not pieces:
            return chosen, rejected
        tries: list[_Scored] = []
        owner: list[int] = []
        for k, s in enumerate(pieces):
            bank = self.model.bank(s.candidate.round)
            per_group, turns = every_group(s.patch[None], bank, len(self.model.groups))
            for g in np.flatnonzero(tiles & (per_group[0] > -1)):
                match = StructureMatch(
                    int(g), float(turns[0, g]), float(per_group[0, g]), 0.0, -1, 0.0
                )
                tries.append(_Scored(s.candidate, s.patch, match, s.cut))
                owner.append(k)
        # a square cut along a misjudged outline lies turned off the tile by up to 45°
        squares = [k for k, s in enumerate(pieces) if not s.candidate.round]
        turned = [
            replace(pieces[k].candidate, quad=_turned_about_centre(pieces[k].candidate.quad, d))
            for k in squares
            for d in _TURN_TRIES
        ]
        tries += self._score_structure(pyramid, turned, tiles)
        owner += [k for k in squares for _ in _TURN_TRIES]
        once = self._realigned(pyramid, tries, tiles)
        # the few best of each piece aligned once more, from where they landed
        ranked: dict[int, list[_Scored]] = {}
        for k, s in zip(owner, once, strict=True):
            ranked.setdefault(k, []).append(s)
        leads = [(k, s) for k, own in ranked.items() for s in _best_few(own, _SECOND_ALIGNED)]
        twice = self._realigned(pyramid, [s for _, s in leads], tiles)
        best: dict[int, _Scored] = {}
        for (k, _), s in zip(leads, twice, strict=True):
            if k not in best or s.score > best[k].score:
                best[k] = s
        out = list(chosen)
        place = {id(s): i for i, s in enumerate(chosen)}
        gone: set[int] = set()
        for k, s in sorted(best.items()):
            old = pieces[k]
            if s.score <= old.score or s.score < _QUARTER_TURN_DOUBT:
                continue
            s = _Scored(s.candidate, s.patch, s.match, old.cut or s.cut)
            if id(old) in place:
                out[place[id(old)]] = s
            elif self._rejection(s, size_at(s.candidate.center) if size_at else None) is None:
                out.append(s)
                gone.add(id(old))
        if gone:
            centres = {s.candidate.center for s in pieces if id(s) in gone}
            rejected = [r for r in rejected if r.center not in centres]
        out, doubles = _one_per_place(out)
        return out, rejected + doubles

    def _complete_blocks(
        self,
        pyramid: Pyramid,
        scored: list[_Scored],
        blobs: list[Blob],
        mask: np.ndarray,
        scale: float,
    ) -> list[_Scored]:
        """One more split for each block of tiles or row of tokens: the lattice of its
        clearly recognised pieces, with every other cell the blob covers (see
        :mod:`vision.lattice`). Where the block's outline misled the grid or the
        discs, this split explains the blob better, and :meth:`_choose` keeps it."""
        anchors: dict[tuple[int, bool], list[_Scored]] = {}
        for s in scored:
            if s.score >= self.config.size_anchor_score:
                anchors.setdefault((s.candidate.blob, self._is_token(s)), []).append(s)
        pieces_of: dict[int, list[_Scored]] = {}
        cells: list[Candidate] = []
        for (blob, _), members in anchors.items():
            members, _ = _one_per_place(members)
            round_ = members[0].candidate.round
            fitted = fit_lattice([m.candidate.quad for m in members], round_)
            if fitted is None:
                continue
            lattice, taken = fitted
            x, y, w, h = cv2.boundingRect(blobs[blob].contour)
            x0, y0, x1, y1 = (np.array([x, y, x + w, y + h], np.float64) + 0.5) * scale - 0.5
            quads = [lattice.quad(i, j) for i, j in lattice_cells(lattice, (x0, y0, x1, y1), taken)]
            shares = coverage(mask, [(q + 0.5) / scale - 0.5 for q in quads])
            cells += [
                Candidate(quad=q, round=round_, blob=blob, split=_LATTICE_SPLIT)
                for q, share in zip(quads, shares, strict=True)
                if share >= self.config.cell_coverage_min
            ]
            cells_of = _cells_of(lattice, [m.candidate for m in members])
            pieces_of.setdefault(blob, []).extend(
                m for m, cell in zip(members, cells_of, strict=True) if cell in taken
            )
        for s in self._realigned(pyramid, self._score_structure(pyramid, cells)):
            pieces_of[s.candidate.blob].append(s)
        out: list[_Scored] = []
        for blob, pieces in pieces_of.items():
            pieces = [_best_in_place(p, scored) for p in pieces]
            work = [(s.candidate.quad + 0.5) / scale - 0.5 for s in pieces]
            cover = explained(blobs[blob], work, [s.candidate.round for s in pieces])
            for s in pieces:
                c = s.candidate
                moved = Candidate(c.quad, c.round, blob, _LATTICE_SPLIT, cover)
                out.append(_Scored(moved, s.patch, s.match))
        return out

    def _is_token(self, s: _Scored) -> bool:
        return bool(self._token_groups[s.group])

    def _realigned(
        self, pyramid: Pyramid, pieces: list[_Scored], allowed: np.ndarray | None = None
    ) -> list[_Scored]:
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
                [self._hypotheses(pieces[i]) for i in batch],
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
                    out[i] = _Scored(c, patch, match, pieces[i].cut or pieces[i].candidate)
        return out

    def _score_shifted(
        self, pyramid: Pyramid, candidates: list[Candidate], allowed: np.ndarray
    ) -> list[_Scored]:
        """Each candidate matched where it lies and, unless that is a clear match, a
        tenth of its side away in each of eight directions; the best match is kept.

        A piece found by its rim or around its figure is only placed to a few pixels
        (a shadow widens the rim on one side, a figure need not lie in the middle of its
        face). Cut a tenth of its side off its place, a tile matches no face well enough
        for alignment to pick the right template to slide; a few shifted cuts, matched
        in one batch, find a cut close enough.
        """
        first = self._score_structure(pyramid, candidates, allowed)
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
        scored = self._score_structure(pyramid, shifted, allowed)
        out = list(first)
        n = len(offsets)
        for i, k in enumerate(unclear):
            out[k] = max([first[k], *scored[i * n : i * n + n]], key=lambda s: s.score)
        return out

    def _hypotheses(self, s: _Scored) -> list[tuple[int, float]]:
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

    def _choose(
        self, pyramid: Pyramid, scored: list[_Scored], side_px: float | None
    ) -> tuple[list[_Scored], list[RejectedCandidate], SizeModel | None, list[_Scored]]:
        """Keep each blob's best-explained split, then turn down what is not a tile.

        Without a table calibration, the size of a tile in this frame is taken from
        the pieces that match a tile face clearly; dice, tokens and the like are then
        judged against it. Also returns the pieces of the kept splits turned down for
        their match alone (none, or too close to another motif): cut off their place
        or turn, their first match may have named the wrong motif to align with.
        """
        by_split = _by_split(scored)
        best: dict[int, tuple[float, list[_Scored]]] = {}
        for (blob, _), members in by_split.items():
            value = _split_value(members)
            if blob not in best or value > best[blob][0]:
                best[blob] = (value, members)
        size_at = self._size_model([s for _, members in best.values() for s in members], side_px)
        if size_at is not None:
            clear = [s for _, m in best.values() for s in m]
            scored = self._kind_by_size(pyramid, scored, clear, size_at)
            by_split = _by_split(scored)

        def verdicts(members: list[_Scored]) -> list[str | None]:
            return [
                self._rejection(s, size_at(s.candidate.center) if size_at else None)
                for s in members
            ]

        # now that sizes are known, a split whose pieces are turned down loses its claim
        final: dict[int, tuple[float, list[_Scored], list[str | None]]] = {}
        for (blob, _), members in by_split.items():
            reasons = verdicts(members)
            # the pieces of one blob are alike in size (a row of tokens, a block of tiles);
            # a small one is a corner or a neck of something else
            typical = float(np.median([s.candidate.side for s in members]))
            reasons = [
                r
                or (
                    "smaller than the rest of its blob"
                    if s.candidate.side < 0.6 * typical
                    else None
                )
                for s, r in zip(members, reasons, strict=True)
            ]
            passed = [s for s, r in zip(members, reasons, strict=True) if r is None]
            too_little = members[0].candidate.cover < self.config.min_split_cover
            few = len(members) >= 3 and len(passed) < self.config.split_accept_share * len(members)
            if too_little or few or _repeated_print(passed, self.config.size_anchor_score):
                # a card or a printed mat cut into cells: a few cells may pass by chance
                reasons = [r or _NOT_TILES for r in reasons]
            accepted = [
                max(s.score, 0.0) if r is None else 0.0
                for s, r in zip(members, reasons, strict=True)
            ]
            value = float(np.mean(accepted)) * members[0].candidate.cover
            if (
                blob not in final
                or value > final[blob][0]
                or (
                    value == final[blob][0] == 0.0
                    and _split_value(members) > _split_value(final[blob][1])
                )
            ):
                final[blob] = (value, members, reasons)
        chosen: list[_Scored] = []
        rejected: list[RejectedCandidate] = []
        turned_down: list[_Scored] = []
        for _, members, reasons in final.values():
            # a piece turned down in a block that otherwise reads as tiles
            readable = sum(r is None for r in reasons) >= self.config.split_accept_share * len(
                members
            )
            for s, reason in zip(members, reasons, strict=True):
                # the split is chosen as a whole; each of its pieces may still have been
                # cut at the same place by another split into a clear match, even one
                # turned down as cut here (a pale token at a row's end, cut off its
                # place by the row's split and matched under the least, lies clearly
                # on the row's lattice), unless its whole split was turned down
                better = _best_in_place(s, scored)
                side = size_at(better.candidate.center) if size_at else None
                clear = better.score >= self.config.size_anchor_score
                clear = clear and not self._rejection(better, side)
                if reason is None or (clear and not reason.startswith(_NOT_TILES)):
                    chosen.append(better if clear else s)
                else:
                    c = s.candidate
                    rejected.append(RejectedCandidate(c.center, c.polygon(), reason))
                    if readable and reason.startswith(("no match", "ambiguous")):
                        turned_down.append(s)
        chosen, doubles = _one_per_place(chosen)
        rejected += doubles
        return chosen, rejected, size_at, turned_down

    def _token_ratio(self, pieces: list[_Scored], size_at: SizeModel) -> float | None:
        """How large the frame's tokens are, as a share of a tile's size there: the
        median of its clear token matches (None with fewer than two)."""
        ratios = [
            s.candidate.side / size_at(s.candidate.center)
            for s in pieces
            if self._is_token(s) and s.score >= self.config.size_anchor_score
        ]
        return median_of(ratios) if len(ratios) >= 2 else None

    def _kind_by_size(
        self, pyramid: Pyramid, scored: list[_Scored], best: list[_Scored], size_at: SizeModel
    ) -> list[_Scored]:
        """Tokens and tiles told apart by size where their artwork alone is unsure.

        A small, blurred tile can look more like a token than like its own face. The
        tile set does not say how large its tokens are, but the frame does: the clear
        token matches give their size relative to the tiles'. Where the two differ
        enough, a piece that matched one kind at the other kind's size is matched
        again against that other kind only; so is a "tile" in a blob whose clear
        pieces are all tokens (a row of tokens, one of them cut too large).
        """
        token_ratio = self._token_ratio(best, size_at)
        by_size = token_ratio is not None and 0.3 < token_ratio < 1 - _KINDS_APART
        crowded = self._no_room_for_tile(scored, size_at)
        if not by_size and not crowded:
            return scored
        token_groups = self._token_groups
        tile_groups = ~token_groups
        clear: dict[int, list[bool]] = {}
        for s in best:
            if s.score >= self.config.size_anchor_score:
                clear.setdefault(s.candidate.blob, []).append(self._is_token(s))
        token_rows = {blob for blob, kinds in clear.items() if sum(kinds) >= 2 and all(kinds)}
        out = list(scored)
        for round_ in (False, True):
            bank = self.model.bank(round_)
            wrong: list[tuple[int, np.ndarray]] = []
            for i, s in enumerate(scored):
                if s.candidate.round != round_:
                    continue
                if i in crowded:
                    wrong.append((i, token_groups))
                    continue
                if not by_size:
                    continue
                ratio = s.candidate.side / size_at(s.candidate.center)
                # the geometric middle of the two sizes, with a margin either side
                middle = math.log(ratio) - math.log(token_ratio) / 2
                if s.candidate.blob in token_rows:
                    middle = min(middle, -_KINDS_APART)  # a row of tokens holds tokens
                if abs(middle) < _KINDS_APART / 2:
                    continue
                tile_sized = middle > 0
                if tile_sized == self._is_token(s):
                    wrong.append((i, tile_groups if tile_sized else token_groups))
            if bank is None or not wrong:
                continue
            for allowed in (tile_groups, token_groups):
                batch = [i for i, a in wrong if a is allowed]
                if not batch:
                    continue
                patches = np.stack([scored[i].patch for i in batch])
                matches = match_structure(
                    patches, bank, len(self.model.groups), core_only=False, allowed=allowed
                )
                # a token-sized "tile" is a token or nothing (or a row cut badly, whose
                # split should lose); a tile-sized "token" may be a token cut too large,
                # so it only becomes a tile on a good match, also tried from the piece
                # as first cut: aligned as a token, a tile may have slid off (its pale
                # disc on a dark table aligns as a token's ring)
                if allowed is tile_groups:
                    least = self.config.accept_structure_min
                    cuts = [scored[i].cut or scored[i].candidate for i in batch]
                    first = self._score_structure(pyramid, cuts, allowed)
                    again = self._realigned(pyramid, first, allowed)
                else:
                    least = -1.0
                    again = [scored[i] for i in batch]
                for i, match, s in zip(batch, matches, again, strict=True):
                    kept = scored[i]
                    if match.score >= s.score or allowed is token_groups:
                        s = _Scored(kept.candidate, kept.patch, match, kept.cut)
                    if s.score >= least:
                        c = s.candidate
                        k = kept.candidate
                        where = Candidate(c.quad, c.round, k.blob, k.split, k.cover)
                        out[i] = _Scored(where, s.patch, s.match, s.cut)
        return out

    def _no_room_for_tile(self, scored: list[_Scored], size_at: SizeModel) -> set[int]:
        """The pieces read as tiles where no tile fits: closer to a token of their own
        split than a tile of this frame's size could lie beside it; also the tokens
        there whose nearest rival, by a hair, is a tile.

        A token with a ring of table round it, cut at a tile's size, matches a tile
        whose face is a coloured ring (0.92-0.93 as a garlic, against 0.90 as a token);
        its artwork cannot tell, but its neighbours in the row can. Touching objects
        lie half their sizes apart; a tile's size is known here, a token's is its
        piece's (its match says it is one).
        """
        least = self.config.accept_token_min
        is_token = self._token_groups[[s.group for s in scored]].tolist()
        tokens: dict[tuple[int, int], list[_Scored]] = {}
        pieces: dict[tuple[int, int], int] = {}
        for s, token in zip(scored, is_token, strict=True):
            key = (s.candidate.blob, s.candidate.split)
            pieces[key] = pieces.get(key, 0) + 1
            if token and s.score >= least:
                tokens.setdefault(key, []).append(s)
        # a row: half its pieces or more read as tokens (not a block of tiles where a
        # figure matched a token, whose tiles are many)
        tokens = {k: v for k, v in tokens.items() if 2 * len(v) >= pieces[k]}
        crowded: set[int] = set()
        if not tokens:
            return crowded
        for i, (s, token) in enumerate(zip(scored, is_token, strict=True)):
            c = s.candidate
            near = tokens.get((c.blob, c.split))
            # a token whose nearest rival is a tile by a hair is crowded out of it too
            # (a yellow token at a row's end: 0.93, a tile 0.91, turned down as unsure)
            if near is None or (
                token and (s.margin >= _CLEAR_LEAD or self._token_groups[s.match.runner])
            ):
                continue
            tile = size_at(c.center)
            if any(
                _distance(c.center, t.candidate.center)
                < _ROOM_SHARE * (tile + t.candidate.side) / 2
                for t in near
                if t is not s
            ):
                crowded.add(i)
        return crowded

    def _look_again(
        self,
        pyramid: Pyramid,
        blobs: list[Blob],
        grey: np.ndarray,
        scale: float,
        chosen: list[_Scored],
        size_at: SizeModel | None,
        broken: np.ndarray | None = None,
    ) -> list[_Scored]:
        """The chosen pieces, with round tiles and tokens the object mask missed added,
        found by their rims.

        A piece whose colours are a patterned cloth's own can vanish from the mask, or
        leave only its figure there. Once the frame's pieces give their size, such a
        piece's rim is still a circle of known radius among the frame's edges; each
        circle not already explained is cut in the shape of the nearest recognised
        piece of its kind (the same tilt) and kept only on a clear match, as it has no
        blob to vouch for it. A chosen piece far smaller than the circle (a figure
        taken for a token) or a poor match of the wrong size does not explain it; the
        circle's piece takes its place when it matches better. Rims are looked for
        beside the pieces found and around the blobs nothing explains (the pale ends
        of a row whose middle the cloth hides).
        """
        if size_at is None or self.model.round is None:
            return chosen
        loose = []
        for blob in blobs:
            centre = _blob_centre(blob, scale)
            reach = 0.7 * size_at(centre)
            if all(_distance(centre, s.candidate.center) >= reach for s in chosen):
                loose.append(centre)
        found: list[_Scored] = []
        for token in (False, True):
            known = [s for s in chosen if s.candidate.round and self._is_token(s) == token]
            if len(known) < (2 if token else 1):
                continue  # a token's size is only known from the frame's tokens
            ratio = median_of([s.candidate.side / size_at(s.candidate.center) for s in known])
            firm = [s for s in chosen if not self._doubtful(s, ratio * size_at(s.candidate.center))]
            candidates = self._rims(
                pyramid, grey, scale, firm + found, known, loose, size_at, ratio, broken
            )
            # a rim of a tile's size holds a tile (its figure alone may look like a token)
            kind = self._token_groups if token else ~self._token_groups
            # a tile's rim is only placed to a few pixels (see _score_shifted); shifted
            # token-sized cuts found more dice and figures than tokens
            score = self._score_structure if token else self._score_shifted
            first = score(pyramid, candidates, kind)
            kept = self._kept(
                pyramid,
                self._realigned(pyramid, first, kind),
                self.config.second_look_min,
                size_at,
                grey,
                scale,
            )
            if token:
                kept = self._not_printed_arcs(pyramid, grey, scale, kept)
            found += [s for s in kept if _clear_of(s.candidate.center, firm + found)]
        return _displaced(chosen, _one_per_place(found)[0])

    def _not_printed_arcs(
        self, pyramid: Pyramid, grey: np.ndarray, scale: float, rims: list[_Scored]
    ) -> list[_Scored]:
        """The tokens found by their rims, less the printed arcs among them.

        A token's rim steps all round; a printed crescent (the deposit mat's moons)
        is a circle's arc over half a token's rim, matches a token's face (0.70-0.78
        on the rendered photos) and passes the median outline test, but steps along
        only part of it (:func:`vision.outlines.outline_evenness`). Its copies printed
        beside it (side by side and evenly spaced, as :func:`printed_groups` finds
        them) are the same print even where one of them happens to step evenly, so
        they go with it: else one copy left of three is reported as a token, where
        the three together would have been turned down as a print.
        """
        least = self.config.token_outline_even_min
        image = pyramid.levels[0]
        uneven = {
            k
            for k, s in enumerate(rims)
            if outline_evenness(grey, fitted_to_edge(image, s.candidate.quad, True), scale, True)
            < least
        }
        if not uneven:
            return rims
        alike = [
            TokenDetection(None, True, s.candidate.center, s.candidate.polygon(), s.score)
            for s in rims
        ]
        for group in printed_groups(alike):
            if uneven.intersection(group):
                uneven.update(group)
        return [s for k, s in enumerate(rims) if k not in uneven]

    def _row_gaps(
        self,
        pyramid: Pyramid,
        grey: np.ndarray,
        scale: float,
        chosen: list[_Scored],
        size_at: SizeModel | None,
    ) -> list[_Scored]:
        """Tokens lying between two tokens read a whole number of diameters apart with
        nothing read between them: the middle of a row whose backs the mask lost.

        A player's row is laid in a straight line, one token beside the next, with its
        two ends face up. Backs in the colours of a cloth (dark navy on a blue gingham)
        leave the mask, and their rims are broken wherever a cell of their own colour lies
        behind them, so neither the mask nor the rim search finds them; the ends, whose
        faces differ from the cloth, are read. Each place between two such tokens is cut
        at their size and tilt, and the row's places are kept only if every one of them
        matches a token as clearly as a piece found with no blob of its own must
        (:meth:`_kept`): a chance pair of tokens with cloth between them matches nowhere.
        """
        if size_at is None or self.model.round is None:
            return []
        tokens = [s for s in chosen if self._is_token(s) and s.candidate.round]
        centres = np.array([s.candidate.center for s in tokens], np.float64).reshape(-1, 2)
        sides = np.array([s.candidate.side for s in tokens])
        offsets = centres[None] - centres[:, None]  # [i, j]: from i to j
        apart = np.linalg.norm(offsets, axis=2)
        np.fill_diagonal(apart, np.inf)
        beside = apart <= SIDE_BY_SIDE * (sides[:, None] + sides[None]) / 2
        candidates: list[Candidate] = []
        rows: list[list[int]] = []
        for i, j in zip(*np.triu_indices(len(tokens), 1), strict=True):
            a, b = tokens[i], tokens[j]
            diameter = (sides[i] + sides[j]) / 2
            steps = round(apart[i, j] / diameter)
            if not 2 <= steps <= _ROW_MOST_STEPS:
                continue
            if abs(apart[i, j] / steps / diameter - 1) > _ROW_STEP_SLACK:
                continue
            # the gap continues whatever row each end has: its neighbours lie behind it
            way = offsets[i, j] / apart[i, j]
            behind_i = offsets[i, beside[i]] / apart[i, beside[i], None] @ way
            behind_j = offsets[j, beside[j]] / apart[j, beside[j], None] @ -way
            if np.any(behind_i > OPPOSITE) or np.any(behind_j > OPPOSITE):
                continue
            start, end = centres[i], centres[j]
            places = [start + (end - start) * k / steps for k in range(1, steps)]
            if not all(_clear_of(p, chosen) for p in places):
                continue
            shapes = [a.candidate, b.candidate]
            rows.append(list(range(len(candidates), len(candidates) + len(places))))
            for p in places:
                quad = _shaped_like(shapes, p, apart[i, j] / steps)
                blob = -1 - len(candidates)
                candidates.append(Candidate(quad=quad, round=True, blob=blob, split=_ROW_SPLIT))
        if not candidates:
            return []
        kind = self._token_groups
        first = self._score_structure(pyramid, candidates, kind)
        kept = self._kept(
            pyramid,
            self._realigned(pyramid, first, kind),
            self.config.second_look_min,
            size_at,
            grey,
            scale,
        )
        found = {s.candidate.blob: s for s in kept}
        out: list[_Scored] = []
        for row in rows:
            pieces = [found.get(-1 - k) for k in row]
            if all(s is not None for s in pieces):
                out += [s for s in pieces if s is not None and _clear_of(s.candidate.center, out)]
        return out

    def _tokens_in_company(
        self,
        pyramid: Pyramid,
        grey: np.ndarray,
        scale: float,
        chosen: list[_Scored],
        size_at: SizeModel | None,
        periods: tuple[np.ndarray, ...] | None = None,
    ) -> tuple[list[_Scored], list[RejectedCandidate]]:
        """The chosen pieces, less the tokens lying alone (see :data:`_LONE_REACH`) that
        match a token's face only loosely: each is a tile where it clearly matches one
        (:meth:`_as_tile`), else turned down.

        Tokens lie in players' rows; one alone on the table is rare, and what else is
        token-sized and round enough lies alone: a die on a dark table (a pale square
        with dark pips, blurred, aligns as a back), a piece of the deposit mat's print,
        a tile's figure where a cloth of its colour hid the tile, a tile aligned as a
        back. On six styles' hard photos the pieces read as tokens alone were 23 such
        things, matched 0.65-0.79 (and two pieces of the mat cut at a tile's size, 0.89
        and 0.93), and one real token, matched 0.86; in rows, 1424 real tokens and 10
        others.
        """
        tokens = [s for s in chosen if self._is_token(s)]
        least = self.config.lone_token_min
        token_ratio = self._token_ratio(chosen, size_at) if size_at else None
        kept: list[_Scored] = []
        turned: list[RejectedCandidate] = []
        # (only where the frame's tokens are clearly smaller than its tiles)
        apart = token_ratio is not None and token_ratio < 1 - _KINDS_APART
        square_tiles = apart and self.tileset.has_tiles and self.tileset.tile_shape != "round"
        for s in chosen:
            if not self._is_token(s):
                kept.append(s)
                continue
            first = s.cut or s.candidate
            ratio = first.side / size_at(first.center) if size_at else 1.0
            # a square tile whose cloth-coloured ground the mask lost, cut as the disc
            # of its figure's ground at a tile's size or larger (1.1-1.2 of it, where
            # the frame's tokens were 0.71; tokens cut large with table round them were
            # 0.87-0.91, 1.2 times the frame's tokens), is read again as a tile too
            tile_sized = square_tiles and ratio >= 1.0
            lone = s.score < least and _alone(s, tokens)
            if not (lone or tile_sized):
                kept.append(s)
                continue
            # a piece as large as the frame's own tokens (nearer their size than a
            # tile's) is a token cut with some table round it, which can pass for a tile
            # in the table's colour; a tile the mask left only the figure of is smaller
            token_sized = token_ratio is not None and (
                _TOKEN_SIZED * token_ratio <= ratio < math.sqrt(token_ratio)
            )
            tile = None if token_sized else self._as_tile(pyramid, grey, scale, s, size_at, periods)
            if tile is not None and _clear_of(tile.candidate.center, kept):
                kept.append(tile)
                continue
            if not lone:
                kept.append(s)  # no tile there: a token cut too large
                continue
            c = s.candidate
            reason = f"a token alone, not in a row, matched only {s.score:.2f}"
            turned.append(RejectedCandidate(c.center, c.polygon(), reason))
        return kept, turned

    def _as_tile(
        self,
        pyramid: Pyramid,
        grey: np.ndarray,
        scale: float,
        s: _Scored,
        size_at: SizeModel | None,
        periods: tuple[np.ndarray, ...] | None = None,
    ) -> _Scored | None:
        """A piece first read as a token, read again as a tile: cut as one (a round
        tile from where the piece was first cut and where it was aligned; a square
        tile where the edges show its outline best), and kept only on a clear match
        (:attr:`VisionConfig.sure_tile_min`) of a tile's size. A round tile on a
        wooden table aligns as a token's back (0.67) and matches its own face at 0.96
        once cut again; dice, the mat's print and token-sized figures matched a tile
        at 0.62 at most."""
        if size_at is None or not self.tileset.has_tiles:
            return None
        c = s.candidate
        side = size_at(c.center)
        if self.tileset.tile_shape == "round":
            cuts = [s.cut or c, c]
        else:
            square = self._outlined(grey, scale, np.array(c.center), side, periods)
            if square is None:
                return None
            cuts = [Candidate(square.astype(np.float32), False, c.blob, c.split, c.cover)]
        tiles = ~self._token_groups
        again = self._realigned(pyramid, self._score_structure(pyramid, cuts, tiles), tiles)
        best = max(again, key=lambda t: t.score)
        if best.score < self.config.sure_tile_min or self._rejection(best, side) is not None:
            return None
        return best

    def _beside_blocks(
        self,
        pyramid: Pyramid,
        chosen: list[_Scored],
        grey: np.ndarray,
        scale: float,
        size_at: SizeModel | None,
    ) -> list[_Scored]:
        """Square tiles beside a block, and tokens at the ends of a row, that the object
        mask left out.

        A tile whose colour is the cloth's own (a green tile on a green check) falls out
        of the mask, and so out of its block's outline; so does a white token at the
        end of a row on a pale cloth. The block's or row's recognised pieces still lie
        on one lattice, so each free cell next to them (along the row, for a row) is
        matched against the faces of their kind and kept only on a clear match, as
        nothing else vouches for it. A piece found so is a neighbour of the next free
        cell, so the search goes on along a row of such pieces.
        """
        if size_at is None:
            return []
        found: list[_Scored] = []
        if self.tileset.has_tiles and self.tileset.tile_shape == "square":
            found += self._beside(pyramid, chosen, grey, scale, size_at, token=False)
        if self.tileset.has_tokens:
            found += self._beside(pyramid, chosen + found, grey, scale, size_at, token=True)
        return found

    def _in_heaps(
        self,
        pyramid: Pyramid,
        chosen: list[_Scored],
        mask: np.ndarray,
        grey: np.ndarray,
        scale: float,
        size_at: SizeModel | None,
    ) -> list[_Scored]:
        """Round tiles inside a heap of round tiles that no split cut out.

        Round tiles pushed together touch up to six others, in no lattice. Where their
        faces are alike at the rims (white halves meeting white halves), the heap's
        blob is one slab and its inner rims are too broken for a circle search; the
        tiles round the heap's edge are found, the inner ones not. Each tile touching
        a recognised one lies a diameter from it in some direction on the table: the
        directions :data:`_HEAP_DIRECTIONS` are tried where the mask holds an object and
        nothing lies yet, kept only on a clear match with an outline all round, and the
        search goes on from what it finds.
        """
        if size_at is None or not self.tileset.has_tiles or self.tileset.tile_shape != "round":
            return []
        tiles = ~self._token_groups
        height, width = mask.shape[:2]
        found: list[_Scored] = []
        seeds = [
            s
            for s in chosen
            if s.candidate.round and tiles[s.group] and s.score >= self.config.size_anchor_score
        ]
        if not seeds:
            return []
        turns = np.radians(np.arange(0, 360, 360 / _HEAP_DIRECTIONS))
        ways = np.stack([np.cos(turns), np.sin(turns)], axis=1)
        for _ in range(_BESIDE_ROUNDS):
            cells: list[Candidate] = []
            pieces = [s.candidate for s in chosen + found]
            taken = np.array([c.center for c in pieces])
            # discs do not overlap: a lost one lies a diameter or more from every other
            reach = _HEAP_APART * np.array([c.side for c in pieces])
            # every seed's every direction at once: this runs on every frame of round
            # tiles, and nearly always finds the places taken or off the objects
            quads = np.stack([s.candidate.quad for s in seeds]).astype(np.float64)
            axes = np.stack([quads[:, 1] - quads[:, 0], quads[:, 3] - quads[:, 0]], axis=1)
            middles = quads.mean(axis=1)
            centres = (middles[:, None] + np.einsum("dk,skj->sdj", ways, axes)).reshape(-1, 2)
            cols, rows = np.rint((centres + 0.5) / scale - 0.5).astype(int).T
            inside = (cols >= 0) & (cols < width) & (rows >= 0) & (rows < height)
            inside[inside] = mask[rows[inside], cols[inside]] > 0
            apart = np.hypot(*(centres[:, None] - taken[None]).transpose(2, 0, 1))
            for k in np.flatnonzero(inside & (apart >= reach).all(axis=1)):
                centre, quad = centres[k], quads[k // len(ways)]
                if all(_distance(centre, c.center) >= 0.15 * c.side for c in cells):
                    shape = (quad - quad.mean(axis=0) + centre).astype(np.float32)
                    cells.append(Candidate(shape, True, -1, _LATTICE_SPLIT))
            if not cells:
                break
            # a direction is only right to a twentyfourth of a turn: cut a little off too
            first = self._score_shifted(pyramid, cells, tiles)
            new = self._kept_beside(
                pyramid, first, _BESIDE_FIRST_MIN, tiles, size_at, grey, scale, outline=True
            )
            new = [s for s in new if _clear_of(s.candidate.center, chosen + found)]
            if not new:
                break
            found += new
            seeds = new
        return found

    def _kept_beside(
        self,
        pyramid: Pyramid,
        first: list[_Scored],
        least: float,
        kind: np.ndarray,
        size_at: SizeModel,
        grey: np.ndarray,
        scale: float,
        outline: bool,
    ) -> list[_Scored]:
        """The cells cut beside recognised pieces that are pieces themselves: a cell there
        is mostly cloth, so only one whose first match (``first``) already reaches
        ``least`` is worth aligning; kept on a clear match (:data:`_BESIDE_ACCEPT_MIN`),
        with an outline all round if ``outline``, one per place."""
        aligned = self._realigned(pyramid, [s for s in first if s.score >= least], kind)
        kept = self._kept(pyramid, aligned, _BESIDE_ACCEPT_MIN, size_at, grey, scale, outline)
        return _one_per_place(kept)[0]

    def _beside(
        self,
        pyramid: Pyramid,
        chosen: list[_Scored],
        grey: np.ndarray,
        scale: float,
        size_at: SizeModel,
        token: bool,
    ) -> list[_Scored]:
        """:meth:`_beside_blocks` for square tiles (``token`` False) or tokens."""
        kind = self._token_groups if token else ~self._token_groups
        least = self.config.accept_token_min if token else _BESIDE_FIRST_MIN
        found: list[_Scored] = []
        for _ in range(_BESIDE_ROUNDS):
            known = [
                s
                for s in chosen + found
                if s.candidate.round == token
                and kind[s.group]
                and s.score >= self.config.size_anchor_score
            ]
            cells: list[Candidate] = []
            for block in _blocks(known):
                if len(block) < 2:
                    continue
                block.sort(key=lambda s: -s.score)
                fitted = fit_lattice([m.candidate.quad for m in block], token)
                if fitted is None:
                    continue
                lattice, taken = fitted
                steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
                # a row of tokens goes on along itself only; a line of tiles may be the
                # one column of a block the mask kept whole (the rest is cloth-coloured)
                if token and len({i for i, _ in taken}) == 1:  # along the lattice's columns
                    steps = [(0, 1), (0, -1)]
                elif token and len({j for _, j in taken}) == 1:  # ...or along its rows
                    steps = [(1, 0), (-1, 0)]
                free = {(i + di, j + dj) for i, j in taken for di, dj in steps} - set(taken)
                for i, j in sorted(free):
                    quad = lattice.quad(i, j)
                    if _clear_of(quad.mean(axis=0), chosen + found):
                        blob = block[0].candidate.blob
                        cells.append(Candidate(quad, token, blob, _LATTICE_SPLIT))
            if not cells:
                break
            # (a tile's outline is shared with its block: the lattice vouches for it)
            first = self._score_structure(pyramid, cells, kind)
            new = self._kept_beside(pyramid, first, least, kind, size_at, grey, scale, token)
            if not new:
                break
            found += new
        return found

    def _around_fragments(
        self,
        pyramid: Pyramid,
        blobs: list[Blob],
        grey: np.ndarray,
        scale: float,
        chosen: list[_Scored],
        size_at: SizeModel | None,
        periods: tuple[np.ndarray, ...] | None = None,
    ) -> list[_Scored]:
        """The chosen pieces, with tiles of which the object mask kept only the figure.

        On a cloth of the tile's own colour only the tile's figure (white lines, a
        heart) stands out: a blob smaller than a tile that no piece explains, or that
        only a doubtful piece does (the figure taken for a token). A tile-sized piece
        is laid over it: a square in a few turns (its edges are not in the mask to
        say which), a disc in the shape of the nearest round tile (the same tilt).
        Each is matched against the tile faces, the best aligned and kept only on a
        clear match with an outline all round (a die on a red cloth matches a red
        garlic tile's figure, but has no tile's edge).
        """
        if size_at is None or not self.tileset.has_tiles:
            return chosen
        round_ = self.tileset.tile_shape == "round"
        tiles = ~self._token_groups
        shapes = [s.candidate for s in chosen if s.candidate.round and tiles[s.group]]
        if round_ and not shapes:
            return chosen
        firm = [s for s in chosen if not self._doubtful(s, size_at(s.candidate.center))]
        area = math.pi / 4 if round_ else 1.0  # a tile's area in its side squared
        bits: list[tuple[tuple[float, float], float, float]] = []  # centre, side, share
        for blob in blobs:
            centre = _blob_centre(blob, scale)
            side = size_at(centre)
            share = blob.area * scale**2 / (side**2 * area)
            if share <= _FRAGMENT_SHARE[1] and all(
                _distance(centre, s.candidate.center) >= 0.7 * side for s in firm
            ):
                bits.append((centre, side, share))
        cells: list[Candidate] = []
        places: dict[int, tuple[np.ndarray, float]] = {}
        # a figure may fall apart into several bits (a bulb and its stalk): those
        # closer than a tile's side are one figure, centred on their weighted middle
        for index, group in enumerate(_clusters(bits)):
            shares = np.array([share for _, _, share in group])
            if not _FRAGMENT_SHARE[0] <= shares.sum() <= _FRAGMENT_SHARE[1]:
                continue
            centre = np.average([c for c, _, _ in group], axis=0, weights=shares)
            side = size_at((float(centre[0]), float(centre[1])))
            if round_:
                cells.append(Candidate(_shaped_like(shapes, centre, side), True, index, 0))
                continue
            places[index] = (centre, side)
            for turn in range(0, 90, 90 // _FRAGMENT_TURNS):
                quad = square_quad(centre, side / 2, math.radians(turn))
                cells.append(Candidate(quad.astype(np.float32), False, index, 0))
        if not cells:
            return chosen
        best: dict[int, _Scored] = {}
        # a disc is centred on the figure, which need not lie in the middle of its face
        # (squares are tried in several turns and by their outline instead)
        score = self._score_shifted if round_ else self._score_structure
        for s in score(pyramid, cells, tiles):
            if s.candidate.blob not in best or s.score > best[s.candidate.blob].score:
                best[s.candidate.blob] = s
        # where no square centred on the bits looks like a tile yet, the square whose
        # outline the frame's edges show best (the bits may lie off the tile's middle)
        unclear = [k for k in places if best[k].score < self.config.second_look_min]
        outlined = [
            Candidate(
                square_by_outline(grey, *places[k], scale, periods).astype(np.float32), False, k, 0
            )
            for k in unclear
        ]
        for s in self._score_structure(pyramid, outlined, tiles):
            if s.score > best[s.candidate.blob].score:
                best[s.candidate.blob] = s
        aligned = self._realigned(pyramid, list(best.values()), tiles)
        kept = self._kept(pyramid, aligned, self.config.second_look_min, size_at, grey, scale)
        found = [s for s in kept if _clear_of(s.candidate.center, firm)]
        return _displaced(chosen, _one_per_place(found)[0])

    def _lone_blobs_recut(
        self,
        pyramid: Pyramid,
        blobs: list[Blob],
        grey: np.ndarray,
        scale: float,
        chosen: list[_Scored],
        size_at: SizeModel | None,
        periods: tuple[np.ndarray, ...] | None = None,
    ) -> list[_Scored]:
        """Square tiles in blobs of about one tile's area that nothing explains, cut
        again at the frame's tile size where the edges show a tile's outline.

        A pale tile on a pale table leaves a blob of its figure and part of its
        paper, a tile in a shadow one with the shadow's edge: cut by the blob, the piece
        is too small or off its place and matches nothing (slate, seed 31, #5: three
        tiles 37 px across cut at 28-38 px matched 0.51-0.57, and 0.98-1.00 once cut
        at their outline). Kept on a clear match with an outline all round, as a
        piece found by its edges (:meth:`_kept`).
        """
        if size_at is None or not self.tileset.has_tiles or self.tileset.tile_shape != "square":
            return []
        cells: list[Candidate] = []
        for blob in blobs:
            centre = _blob_centre(blob, scale)
            side = size_at(centre)
            share = blob.area * scale**2 / side**2
            if not _LONE_BLOB_SHARE[0] <= share <= _LONE_BLOB_SHARE[1]:
                continue
            if not _clear_of(centre, chosen) or any(
                _distance(centre, s.candidate.center) < 0.7 * side for s in chosen
            ):
                continue
            square = self._outlined(grey, scale, np.array(centre), side, periods)
            if square is not None:
                cells.append(Candidate(square.astype(np.float32), False, len(cells), 0))
        if not cells:
            return []
        tiles = ~self._token_groups
        first = self._score_structure(pyramid, cells, tiles)
        aligned = self._realigned(pyramid, first, tiles)
        kept = self._kept(pyramid, aligned, self.config.second_look_min, size_at, grey, scale)
        return [s for s in _one_per_place(kept)[0] if _clear_of(s.candidate.center, chosen)]

    def _out_of_unexplained(
        self,
        pyramid: Pyramid,
        scored: list[_Scored],
        blobs: list[Blob],
        mask: np.ndarray,
        grey: np.ndarray,
        scale: float,
        chosen: list[_Scored],
        size_at: SizeModel | None,
        periods: tuple[np.ndarray, ...] | None = None,
    ) -> list[_Scored]:
        """Tiles inside a blob that no split explains: tiles lying against a large
        object that is not a tile (the deposit mat, a card).

        The mask joins such tiles with the object into one blob no grid explains, so
        the whole split is turned down (a printed mat cut into cells). A piece of it
        may still match a tile clearly, with a tile's edge all round: that is a tile
        whatever it lies against. Its own sides then say where its neighbours lie (a
        player lays tiles edge to edge); each neighbour's square is placed by the
        edges the frame shows there, not by the step alone (a tile's side is only
        known to a few per cent, and an error in it grows with every step), and kept
        only on a clear match with an outline all round, like every look-again find.
        Where no piece matches clearly, tiles are looked for by their edges first
        (:meth:`_squares_by_edges`); round tiles only so (:meth:`_discs_by_edges`), as
        their rims, not their neighbours' edges, say where each lies.
        """
        if not self.tileset.has_tiles:
            return []
        taken = {s.candidate.blob for s in chosen}
        # a size no tile read in the frame vouches for is a clear match of something else
        # (a moon printed on the mat)
        vouched = size_at if any(not self._is_token(s) for s in chosen) else None
        # the blobs whose every split was turned down
        unexplained: set[int] = set()
        if vouched is None:
            unexplained = {s.candidate.blob for s in scored if 0 <= s.candidate.blob < len(blobs)}
            unexplained -= taken
        if self.tileset.tile_shape != "square":
            return self._discs_by_edges(
                pyramid, blobs, unexplained, mask, grey, scale, chosen, vouched
            )
        seeds = [
            s
            for s in scored
            if s.candidate.blob not in taken
            and 0 <= s.candidate.blob < len(blobs)
            and not s.candidate.round
            and not self._is_token(s)
            and s.score >= _UNEXPLAINED_SEED_MIN
            # an oversized blob: one tile's blob is judged as it is
            and blobs[s.candidate.blob].area * scale**2 >= _UNEXPLAINED_AREA * s.candidate.side**2
        ]
        seeds = [s for s in _one_per_place(seeds)[0] if _clear_of(s.candidate.center, chosen)]
        unseeded = unexplained - {s.candidate.blob for s in seeds}
        seeds += self._squares_by_edges(
            pyramid, blobs, unseeded, mask, grey, scale, chosen, vouched
        )
        if not seeds:
            return []
        sizes = vouched or self._size_model(seeds, None)
        if sizes is None:
            return []
        tiles = ~self._token_groups
        found: list[_Scored] = []
        edges: list[np.ndarray] = []  # each found tile's square as its edges show it
        for s in seeds:
            quad = self._outlined(
                grey, scale, np.array(s.candidate.center), s.candidate.side, periods
            )
            if quad is not None and self._rejection(s, sizes(s.candidate.center)) is None:
                found.append(s)
                edges.append(quad)
        new = list(zip(found, edges, strict=True))
        height, width = mask.shape[:2]
        for _ in range(_UNEXPLAINED_ROUNDS):
            cells: list[Candidate] = []
            squares: list[np.ndarray] = []
            for _, quad in new:
                u = ((quad[1] - quad[0]) + (quad[2] - quad[3])) / 2
                v = ((quad[3] - quad[0]) + (quad[2] - quad[1])) / 2
                side = quad_side(quad)
                for step in (u, -u, v, -v):
                    centre = quad.mean(axis=0) + step
                    x, y = np.rint((centre + 0.5) / scale - 0.5).astype(int)
                    if not (0 <= x < width and 0 <= y < height and mask[y, x]):
                        continue  # beside the blob: the mask saw table there
                    if not _clear_of(centre, chosen + found) or any(
                        _distance(centre, c.center) < 0.6 * side for c in cells
                    ):
                        continue
                    square = self._outlined(grey, scale, centre, side, periods)
                    if square is not None:
                        cells.append(Candidate(square.astype(np.float32), False, len(cells), 0))
                        squares.append(square)
            if not cells:
                break
            first = self._score_structure(pyramid, cells, tiles)
            first = [s for s in first if s.score >= _BESIDE_FIRST_MIN]
            aligned = self._realigned(pyramid, first, tiles)
            # (the outline was checked where the edges placed the cut)
            kept = self._kept(
                pyramid, aligned, _BESIDE_ACCEPT_MIN, sizes, grey, scale, outline=False
            )
            kept = [s for s in _one_per_place(kept)[0] if _clear_of(s.candidate.center, found)]
            new = [(s, squares[s.candidate.blob]) for s in kept]
            if not new:
                break
            found += [s for s, _ in new]
        return found

    def _edge_search(
        self, blobs: list[Blob], indices: set[int], scale: float
    ) -> tuple[int, tuple[int, int, int, int], list[float]] | None:
        """Where and at what sizes tiles are looked for by their edges: the largest of
        the ``indices`` blobs (the object the tiles lie against is larger than any of
        them), its bounding box (x0, y0, x1, y1, work px), and sides (work px) from an
        eighth of its width to two thirds of it, a tenth apart; None where it is too
        small to hold more than one tile."""
        if not indices:
            return None
        index = max(sorted(indices), key=lambda i: blobs[i].area)
        blob = blobs[index]
        least = max(self.config.min_tile_px / scale, blob.short_side / _EDGE_SIZES_SPAN[0])
        most = blob.short_side / _EDGE_SIZES_SPAN[1]
        if most < least or blob.area < _UNEXPLAINED_AREA * least**2:
            return None
        count = int(math.log(most / least) / math.log(_EDGE_SIZE_RATIO)) + 1
        x, y, w, h = cv2.boundingRect(blob.contour)
        return index, (x, y, x + w, y + h), [least * _EDGE_SIZE_RATIO**k for k in range(count)]

    def _squares_by_edges(
        self,
        pyramid: Pyramid,
        blobs: list[Blob],
        indices: set[int],
        mask: np.ndarray,
        grey: np.ndarray,
        scale: float,
        chosen: list[_Scored],
        size_at: SizeModel | None,
    ) -> list[_Scored]:
        """Tiles against a large object where the frame does not say how large a tile
        is (no lone tile in it) and no piece of any split matched clearly: every
        split's grid was laid over the tiles and the object together, so each cell cuts
        across a tile's edge.

        The tiles' outlines are still in the frame: squares whose four sides each show
        a step along most of their length (see :func:`vision.shapes.squares_of_side`).
        They are looked for in the frame's largest such blob (the object they lie
        against is larger than any of them), at sizes from an eighth of its width to
        two thirds of it; the best few of each size are matched, and the clear matches
        are the seeds the tiles' neighbours are followed from. Where the frame's tile
        size is known, its blobs were cut at that size already.
        """
        search = None if size_at is not None else self._edge_search(blobs, indices, scale)
        if search is None:
            return []
        index, box, sides = search
        config = self.config
        height, width = mask.shape[:2]
        cells: list[Candidate] = []
        for side in sides:
            found = squares_of_side(grey, box, side, config.outline_step_min, _EDGE_COVER_MIN)
            for _, centre, turn in found[:_EDGE_PER_SIZE]:
                cx, cy = np.rint(centre).astype(int)
                if 0 <= cx < width and 0 <= cy < height and mask[cy, cx]:
                    quad = square_quad(centre, side / 2, turn)
                    cells.append(_full(quad, scale, False, index, -1, 0.0))
        if not cells:
            return []
        tiles = ~self._token_groups
        first = self._score_structure(pyramid, cells, tiles)
        aligned = self._realigned(pyramid, [s for s in first if s.score >= _EDGE_FIRST_MIN], tiles)
        aligned = [s for s in aligned if s.score >= _UNEXPLAINED_SEED_MIN]
        return [s for s in _one_per_place(aligned)[0] if _clear_of(s.candidate.center, chosen)]

    def _discs_by_edges(
        self,
        pyramid: Pyramid,
        blobs: list[Blob],
        indices: set[int],
        mask: np.ndarray,
        grey: np.ndarray,
        scale: float,
        chosen: list[_Scored],
        size_at: SizeModel | None,
    ) -> list[_Scored]:
        """Round tiles against a large object where the frame does not say how large a
        tile is: the round counterpart of :meth:`_squares_by_edges`.

        No disc split lines up with tiles joined to a mat or a card, but each tile's
        rim is still among the frame's edges (see :func:`vision.shapes.discs_of_radius`).
        Rims are looked for in the frame's largest blob no split explains, at the
        sizes squares are; each disc found is cut, matched (also a tenth of its side
        off its place, as a rim is only placed to a pixel or two) and kept on a clear
        match with an outline all round.
        """
        search = None if size_at is not None else self._edge_search(blobs, indices, scale)
        if search is None:
            return []
        index, box, sides = search
        config = self.config
        height, width = mask.shape[:2]
        cells: list[Candidate] = []
        for radius in (side / 2 for side in sides):
            found = discs_of_radius(grey, box, radius, config.outline_step_min, _EDGE_COVER_MIN)
            for _, centre, _ in found[:_EDGE_PER_SIZE]:
                cx, cy = np.rint(centre).astype(int)
                if 0 <= cx < width and 0 <= cy < height and mask[cy, cx]:
                    # the rim's own ellipse: a tilted table squeezes a disc
                    rim = rim_ellipse(grey, centre, radius)
                    quad = quad_from_ellipse(*rim) if rim else square_quad(centre, radius, 0.0)
                    cells.append(_full(quad, scale, True, index, -1, 0.0))
        if not cells:
            return []
        tiles = ~self._token_groups
        aligned = self._realigned(pyramid, self._score_shifted(pyramid, cells, tiles), tiles)
        kept = [
            s
            for s in aligned
            if s.score >= _EDGE_DISC_MIN
            and self._rejection(s, None) is None
            and has_outline(
                grey,
                s.candidate.quad,
                scale,
                True,
                config.outline_step_min,
                config.outline_share_min,
            )
        ]
        # the discs found say how large a tile is here: a small ring printed on the mat
        # (a letter O) can match a face too
        sizes = self._size_model(kept, None)
        if sizes is not None:
            kept = [s for s in kept if self._rejection(s, sizes(s.candidate.center)) is None]
        return [s for s in _one_per_place(kept)[0] if _clear_of(s.candidate.center, chosen)]

    def _outlined(
        self,
        grey: np.ndarray,
        scale: float,
        centre: np.ndarray,
        side: float,
        periods: tuple[np.ndarray, ...] | None = None,
    ) -> np.ndarray | None:
        """The square near ``centre`` whose outline the frame's edges show best, of
        about ``side`` (a matched piece's side is only known to a tenth: the templates
        are slid at a few zooms), or None where no such square has an outline all
        round (see :func:`vision.outlines.has_outline`)."""
        config = self.config
        best, best_step = None, 0.0
        for zoom in _OUTLINE_ZOOMS:
            quad, free = outlined_square(grey, centre, zoom * side, scale, periods)
            step, beside = outline_contrast(grey, quad, scale, False)
            shows = step >= config.outline_step_min and step >= config.outline_share_min * beside
            # on a checked cloth the cloth's own lines step as steeply as a tile's edge:
            # the size is judged by the steps the cloth does not repeat
            if periods is not None:
                step = free
            if shows and step > best_step:
                best, best_step = quad, step
        return best

    def _kept(
        self,
        pyramid: Pyramid,
        pieces: list[_Scored],
        least: float,
        size_at: SizeModel,
        grey: np.ndarray,
        scale: float,
        outline: bool = True,
    ) -> list[_Scored]:
        """The pieces found with no blob of their own worth keeping: a match of at least
        ``least``, not turned down for the usual reasons, and (with ``outline``) an
        outline all round (see :func:`vision.outlines.has_outline`).

        The outline is looked for on the piece's edge: alignment places a piece well
        but sizes it only to a tenth (a round face fits about as well a little larger
        or smaller), and a ring that far off its edge crosses none."""
        config = self.config
        return [
            s
            for s in pieces
            if s.score >= least
            and self._rejection(s, size_at(s.candidate.center)) is None
            and (
                not outline
                or has_outline(
                    grey,
                    fitted_to_edge(
                        pyramid.levels[0],
                        s.candidate.quad,
                        s.candidate.round,
                        self._framed[s.candidate.round],
                    ),
                    scale,
                    s.candidate.round,
                    config.outline_step_min,
                    config.outline_share_min,
                )
            )
        ]

    def _doubtful(self, s: _Scored, side_px: float) -> bool:
        """A chosen piece that may stand where a larger piece of ``side_px`` lies: much
        smaller than that (a figure whose face blended into the cloth), or a poor
        match cut at the wrong size."""
        ratio = s.candidate.side / side_px
        return ratio < 0.6 or (s.score < self.config.second_look_min and abs(ratio - 1) > 0.15)

    def _rims(
        self,
        pyramid: Pyramid,
        grey: np.ndarray,
        scale: float,
        taken: list[_Scored],
        known: list[_Scored],
        loose: list[tuple[float, float]],
        size_at: SizeModel,
        ratio: float,
        broken: np.ndarray | None = None,
    ) -> list[Candidate]:
        """Circles ``ratio`` times a tile's size among the frame's edges near the known
        pieces and the ``loose`` points, where nothing lies yet, each cut in the shape
        of the nearest known piece. On a checked cloth compared with itself (``broken``,
        see :attr:`vision.foreground.Foreground.broken`) a circle must hold a break of
        its repetition: the check's own cells form rings of a tile's size."""

        def sizes(point: tuple[float, float]) -> float:
            return ratio * size_at(point)

        height, width = grey.shape
        corners = [(0.0, 0.0), (width * scale, 0.0), (0.0, height * scale)]
        corners.append((width * scale, height * scale))
        sides = [sizes(c) for c in corners]
        low, high = 0.8 * min(sides) / 2 / scale, 1.15 * max(sides) / 2 / scale
        # rims under a few pixels across at the working size are looked for in the
        # full frame (a row of small tokens at the far side of a tilted table)
        fine = low < _RIM_FINE
        zoom = scale if fine else 1.0
        if low * zoom < 3:
            return []
        # a lost piece lies beside the others of its kind (in their row or block), or
        # around what the mask kept of it (and each window holds the whole rim of a
        # piece centred within that reach)
        reach = _RIM_REACH * max(s.candidate.side for s in known) / scale + high
        points = [np.array(s.candidate.center) / scale for s in known]
        points += [np.array(p) / scale for p in loose]
        circles: list[tuple[float, float, float]] = []
        for x0, y0, x1, y1 in _windows(points, reach, grey.shape):
            if fine:
                x0, y0, x1, y1 = (round(v * zoom) for v in (x0, y0, x1, y1))
                crop = cv2.cvtColor(pyramid.levels[0][y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
            else:
                crop = grey[y0:y1, x0:x1]
            found = cv2.HoughCircles(
                cv2.GaussianBlur(crop, (0, 0), 1.2),
                cv2.HOUGH_GRADIENT_ALT,
                dp=1.0,
                minDist=1.5 * low * zoom,
                param1=120,
                param2=0.6,
                minRadius=int(low * zoom),
                maxRadius=math.ceil(high * zoom),
            )
            if found is not None:
                circles += [
                    ((x + x0 + 0.5) / zoom - 0.5, (y + y0 + 0.5) / zoom - 0.5, radius / zoom)
                    for x, y, radius in found[0]
                ]
        candidates: list[Candidate] = []
        for k, (x, y, radius) in enumerate(circles):
            centre = np.array([(x + 0.5) * scale - 0.5, (y + 0.5) * scale - 0.5])
            side = sizes((float(centre[0]), float(centre[1])))
            if abs(2 * radius * scale / side - 1) > 0.25:
                continue
            if broken is not None and _unbroken(broken, x, y, radius):
                continue
            if any(_distance(s.candidate.center, centre) < 0.6 * side for s in taken):
                continue
            if any(_distance(c.center, centre) < 0.6 * side for c in candidates):
                continue  # the same rim seen from two windows
            quad = _shaped_like([s.candidate for s in known], centre, side)
            candidates.append(Candidate(quad=quad, round=True, blob=-1 - k, split=0))
        return candidates

    def _size_model(self, pieces: list[_Scored], calibrated: float | None) -> SizeModel | None:
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
            and not self._is_token(s)
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
            return lambda point: median
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

        return size_at

    def _lead(self, s: _Scored) -> float:
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
        return max(s.margin, 2 * share * _CLEAR_LEAD)

    def _rejection(self, s: _Scored, side_px: float | None) -> str | None:
        config = self.config
        is_token = self._is_token(s)
        least = config.accept_token_min if is_token else config.accept_structure_min
        if s.score < least:
            return f"no match ({s.score:.2f})"
        if self._lead(s) < config.accept_margin_min:
            return f"ambiguous ({s.margin:.2f})"
        c = s.candidate
        if _elongation(c.quad) > config.max_elongation:
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

    def _motifs_where_they_differ(self, chosen: list[_Scored]) -> list[_Scored]:
        """Each doubtful square tile's motif judged once more where the motifs differ.

        Structure is matched over the whole face, and where every face shares most of
        its pattern (a ground of stripes, the figure small in a disc: ``mosaic``) the
        shared part sets the score, and a vampire turned a quarter reads as a coffin by
        0.02-0.05. So the piece, upright in its turn, is compared with its motif and
        with each other motif in each quarter turn only where their faces differ, each
        face allowed a pixel's shift; the other motif is taken where it fits better.
        """
        pairs = self._motif_pairs
        doubtful = [
            n
            for n, s in enumerate(chosen)
            if not s.candidate.round and s.group in pairs and s.margin < _MOTIF_DOUBT
        ]
        if not doubtful:
            return chosen
        uprights = [upright(chosen[n].patch, chosen[n].turn) for n in doubtful]
        bands = np.pad(band_pass(np.stack(uprights).astype(np.float32)), ((0, 0), (1, 1), (1, 1)))
        by_group: dict[int, list[int]] = {}
        for k, n in enumerate(doubtful):
            by_group.setdefault(chosen[n].group, []).append(k)
        out = list(chosen)
        for group, ks in by_group.items():
            for k, won in zip(ks, motif_challenges(bands[ks], pairs[group]), strict=True):
                if won is None:
                    continue
                s = chosen[doubtful[k]]
                other, quarters = won
                turn = (s.turn - 90.0 * quarters) % 360.0
                match = replace(s.match, group=other, turn=turn, runner=group, runner_turn=s.turn)
                out[doubtful[k]] = _Scored(s.candidate, s.patch, match, s.cut)
        return out

    # -- stage 5: light and colour -------------------------------------------------------

    def _settle_duplicates(
        self,
        chosen: list[_Scored],
        subset: list[int],
        where: dict[int, tuple[FrameColours, int]],
        results: dict[int, tuple[int, float]],
    ) -> None:
        """Every Moon tile is unique: where two pieces read as the same tile, the less
        clear one takes its next best face that is not already on the table."""
        model = self.model
        excluded: dict[int, set[int]] = {i: set() for i in subset}
        for _ in range(3):
            owners: dict[Tile, list[int]] = {}
            for i in subset:
                label = _label_of(model, chosen[i], results[i][0])
                if label.tile is not None:
                    owners.setdefault(label.tile, []).append(i)
            clashes = [ids for ids in owners.values() if len(ids) > 1]
            if not clashes:
                return
            for ids in clashes:
                ids.sort(
                    key=lambda i: (
                        -_confidence(chosen[i].score, self._lead(chosen[i]), results[i][1])
                    )
                )
                for i in ids[1:]:
                    excluded[i].add(results[i][0])
                    if len(excluded[i]) >= len(model.groups[chosen[i].group]):
                        continue
                    frame, k = where[i]
                    results[i] = frame.decide(k, frozenset(excluded[i]))

    def _turned_alike(
        self,
        chosen: list[_Scored],
        subset: list[int],
        frame: FrameColours,
        mask: np.ndarray,
    ) -> dict[int, tuple[FrameColours, int]]:
        """Round tiles whose figure looks the same turned (a ring, a star), read in the
        turn where their heart shows best.

        Structure cannot tell such a figure's turns apart, so the turn it gives is one of
        several; a heart (or any mark off the figure) is then looked for in the wrong
        place. Nor can the overall fit: a heart a few pixels wide moves it less than the
        cut's own error does from one turn to the next (a 120 px ring fitted its 50 turns
        at 0.24-0.28, a dozen of them better than the turn of its heart, where alone its
        heart was read). So the piece is turned upright in each turn its figure allows,
        and its member and that member's twin (the same tile with or without its heart)
        are compared only where the two differ, as :meth:`FrameColours.decide` compares
        them: the turn kept is the one where the heart's face fits best against its plain
        twin. A heart lies in one turn only; a plain tile's twins compare alike in all of
        them, so it still reads plain unless its rim shows something heart-like there.
        Returns, for each such piece, the frame and index to read it from.
        """
        found: dict[int, tuple[FrameColours, int]] = {}
        hearts: dict[int, np.ndarray] = {}  # chosen index: its turn that shows its heart best
        variants: list[np.ndarray] = []  # other pieces' turns, judged by the overall fit
        owners: list[tuple[int, int]] = []  # (chosen index, its index in ``frame``)
        for k, i in enumerate(subset):
            s = chosen[i]
            turns = self._alike_turns.get(s.group, ())
            if not turns:
                continue
            member = frame.decide(k)[0]
            twin = int(self._heart_twins[s.group][member])
            if twin < 0:  # no heart to look for
                variants += [upright(s.patch, s.turn + extra) for extra in turns]
                owners += [(i, k)] * len(turns)
                continue
            heart = member if self._has_heart(s.group, member) else twin
            pair = (heart, member + twin - heart, frame.blur_of(k, member))  # the photo's blur
            angles = [s.turn + extra for extra in turns]
            errors = np.array(
                [frame.twin_errors(k, *pair), *frame.twin_errors_turned(k, *pair, s.patch, angles)]
            )
            # how much worse the heart's face fits than its plain twin (-1 .. 1)
            odds = (errors[:, 0] - errors[:, 1]) / np.maximum(errors.sum(axis=1), 1e-9)
            best_turn = int(np.argmin(odds))
            if best_turn > 0:  # 0: as structure turned it
                hearts[i] = upright(s.patch, angles[best_turn - 1])
        if hearts:
            members = [self._member_faces[chosen[i].group] for i in hearts]
            turned = FrameColours(list(hearts.values()), members, frame.mask, gains=frame.gains)
            found.update({i: (turned, v) for v, i in enumerate(hearts)})
        if variants:
            members = [self._member_faces[chosen[i].group] for i, _ in owners]
            turned = FrameColours(variants, members, mask, gains=frame.gains)
            best: dict[int, tuple[float, tuple[FrameColours, int]]] = {}
            for v, (i, k) in enumerate(owners):
                if i not in best:
                    best[i] = (float(frame.residuals[k].min()), (frame, k))
                fit = float(turned.residuals[v].min())
                if fit < best[i][0]:
                    best[i] = (fit, (turned, v))
            found.update({i: place for i, (_, place) in best.items()})
        return found

    def _has_heart(self, group: int, member: int) -> bool:
        """Whether member ``member`` of ``group`` is a tile with a heart."""
        tile = self.model.labels[self.model.groups[group][member]].tile
        return tile is not None and tile.heart

    def _colour(
        self, chosen: list[_Scored]
    ) -> tuple[list[TileDetection], list[TokenDetection], list[RejectedCandidate], np.ndarray]:
        model = self.model
        tiles: list[TileDetection] = []
        unsure: list[RejectedCandidate] = []
        tokens: list[TokenDetection] = []
        unsure_tokens: list[TokenDetection] = []
        if not chosen:
            return tiles, tokens, [], np.ones(3)
        masks = self._colour_masks
        gains = np.ones(3)
        results: dict[int, tuple[int, float]] = {}
        for round_ in (False, True):
            subset = [i for i, s in enumerate(chosen) if s.candidate.round == round_]
            if not subset:
                continue
            patches = [upright(chosen[i].patch, chosen[i].turn) for i in subset]
            members = [self._member_faces[chosen[i].group] for i in subset]
            weights = np.array([max(chosen[i].score, 0.05) for i in subset])
            frame = FrameColours(
                patches, members, masks[round_], self.config.illuminant_kelvins, weights
            )
            gains = frame.gains
            where = {i: (frame, k) for k, i in enumerate(subset)}
            if round_:
                where.update(self._turned_alike(chosen, subset, frame, masks[round_]))
            for i in subset:
                results[i] = where[i][0].decide(where[i][1])
            self._settle_duplicates(chosen, subset, where, results)
        for i, s in enumerate(chosen):
            member, clarity = results[i]
            label = model.labels[model.groups[s.group][member]]
            lead = self._lead(s)
            confidence = _confidence(s.score, lead, clarity)
            c = s.candidate
            # a clear tile whose heart (or colour) is a close call is still a tile: it
            # is reported with its likelier twin and its low confidence, as a tile is
            # easier to correct than to add
            clear_tile = (
                label.tile is not None
                and s.score >= self.config.sure_tile_min
                and lead >= _CLEAR_LEAD
            )
            if confidence < self.config.accept_confidence_min and label.tile is None:
                # a token read unsurely may still lie in a row's middle (see below)
                unsure_tokens.append(TokenDetection(None, False, c.center, c.polygon(), confidence))
            elif confidence < self.config.accept_confidence_min and not clear_tile:
                # wrong more often than right (measured): a person fixes a gap more
                # easily than a tile that is not there
                reason = f"unsure ({confidence:.2f})"
                unsure.append(RejectedCandidate(c.center, c.polygon(), reason))
            elif label.tile is not None:
                tiles.append(TileDetection(label.tile, c.center, c.polygon(), confidence))
            else:
                tokens.append(
                    TokenDetection(
                        colour=label.token_colour,
                        face_up=not label.token_back,
                        center=c.center,
                        polygon=c.polygon(),
                        confidence=confidence,
                    )
                )
        tokens, turned_down = as_the_rules_allow(
            tokens, unsure_tokens, self.config.row_middle_face_min
        )
        unsure += [RejectedCandidate(t.center, t.polygon, why) for t, why in turned_down]
        tiles.sort(key=lambda t: (t.center[1], t.center[0]))
        tokens.sort(key=lambda t: (t.center[1], t.center[0]))
        return tiles, tokens, unsure, gains


def _heart_twins(model: AppearanceModel) -> dict[int, np.ndarray]:
    """For each group, each member's twin (the same tile with its heart, or without
    it), as an index in the group; -1 where it has none (a token)."""
    twins: dict[int, np.ndarray] = {}
    for group, members in enumerate(model.groups):
        tiles = [model.labels[m].tile for m in members]
        where = {t: j for j, t in enumerate(tiles) if t is not None}
        twins[group] = np.array(
            [-1 if t is None else where.get(replace(t, heart=not t.heart), -1) for t in tiles]
        )
    return twins


def _alike_turns(
    model: AppearanceModel, token_groups: np.ndarray, config: VisionConfig
) -> dict[int, tuple[float, ...]]:
    """For each round tile group, the turns (besides none) under which its plain faces'
    structure matches itself (:data:`_ALIKE`): all of them for a ring, every fifth of a
    turn for a five-pointed star, none for a crescent. Learnt from the tile set."""
    if model.round is None:
        return {}
    mask = model.round.mask
    step = config.round_rotation_step_deg
    # the template steps, and every whole fraction of a turn a figure may repeat after
    # (a five-pointed star's 72° fall between steps)
    fractions = {round(360.0 * k / n, 3) for n in range(2, 9) for k in range(1, n)}
    turns = np.array(sorted(fractions | set(np.arange(step, 360.0 - 1e-6, step).tolist())))
    alike: dict[int, tuple[float, ...]] = {}
    for group, members in enumerate(model.groups):
        plain = [m for m in members if model.labels[m].tile and not model.labels[m].tile.heart]
        if token_groups[group] or not plain:
            continue
        faces = model.colour_templates[plain]
        turned = np.stack([upright(face, turn) for face in faces for turn in (0.0, *turns)])
        vectors = structure_vectors(turned, mask).reshape(len(faces), len(turns) + 1, -1)
        agreement = np.einsum("fd,ftd->ft", vectors[:, 0], vectors[:, 1:]).min(axis=0)
        found = tuple(float(t) for t, a in zip(turns, agreement, strict=True) if a >= _ALIKE)
        if found:
            alike[group] = found
    return alike


@functools.cache
def _single_threaded_blas() -> None:
    """Keep NumPy's matrix products on the calling thread, for the whole process.

    Recognition multiplies small matrices (tens of patches by hundreds of templates).
    Handing those to a pool of BLAS threads costs more than it saves, and on a busy
    machine (a server answering phones while a camera streams) the pool's spinning
    threads make every product ten times slower.
    """
    threadpool_limits(limits=1, user_api="blas")


def _by_split(pieces: list[_Scored]) -> dict[tuple[int, int], list[_Scored]]:
    """Scored pieces grouped by the (blob, split) they were cut in."""
    groups: dict[tuple[int, int], list[_Scored]] = {}
    for s in pieces:
        groups.setdefault((s.candidate.blob, s.candidate.split), []).append(s)
    return groups


def _best_few(pieces: list[_Scored], count: int) -> list[_Scored]:
    """The ``count`` best matches, best first."""
    return sorted(pieces, key=lambda s: -s.score)[:count]


def _turned_about_centre(quad: np.ndarray, degrees: float) -> np.ndarray:
    """A quad turned about its centre (clockwise on screen for positive degrees)."""
    centre = quad.mean(axis=0)
    a = math.radians(degrees)
    rotation = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return ((quad - centre) @ rotation.T + centre).astype(np.float32)


def _elongation(quad: np.ndarray) -> float:
    """How many times longer a quad's longest side is than its shortest."""
    corners = quad.tolist()  # plain floats: asked for every piece of every split
    sides = [math.dist(corners[k], corners[k - 1]) for k in range(len(corners))]
    return max(sides) / max(min(sides), 1e-6)


def _distance(a: tuple[float, float] | np.ndarray, b: tuple[float, float] | np.ndarray) -> float:
    return float(np.hypot(a[0] - b[0], a[1] - b[1]))


def _best_in_place(piece: _Scored, scored: list[_Scored]) -> _Scored:
    """The best match among the pieces of the same blob cut at this place (by any
    split) and of this size: a lattice drifts over a long block under perspective,
    where another split's piece may have been cut better."""
    c = piece.candidate
    best = piece
    for other in scored:
        o = other.candidate
        if (
            o.blob == c.blob
            and o.round == c.round
            and other.score > best.score
            and np.hypot(o.center[0] - c.center[0], o.center[1] - c.center[1]) < 0.3 * c.side
            and 0.8 < o.side / c.side < 1.25
        ):
            best = other
    return best


def _blob_centre(blob: Blob, scale: float) -> tuple[float, float]:
    """The middle of a blob's bounding rectangle, in full-frame pixels."""
    (x, y), _, _ = blob.box
    return (x + 0.5) * scale - 0.5, (y + 0.5) * scale - 0.5


def _unbroken(broken: np.ndarray, x: float, y: float, radius: float) -> bool:
    """Whether the middle of the circle at (``x``, ``y``) of ``radius`` (working px) is
    cloth that repeats itself (``broken``: 255 where it does not)."""
    disc = np.zeros(broken.shape, np.uint8)
    cv2.circle(disc, (round(x), round(y)), max(1, round(0.7 * radius)), 255, -1)
    inside = disc > 0
    return float(np.mean(broken[inside] > 0)) < _RIM_BREAK_MIN


def _alone(piece: _Scored, tokens: list[_Scored]) -> bool:
    """Whether no other of ``tokens`` lies within :data:`_LONE_REACH` diameters of
    ``piece``."""
    c = piece.candidate
    return all(
        _distance(c.center, o.candidate.center) > _LONE_REACH * (c.side + o.candidate.side) / 2
        for o in tokens
        if o is not piece
    )


def _clear_of(centre: tuple[float, float] | np.ndarray, pieces: list[_Scored]) -> bool:
    """No piece lies at ``centre``: each is further off than 0.6 of its own side."""
    return all(_distance(centre, s.candidate.center) >= 0.6 * s.candidate.side for s in pieces)


def _shaped_like(shapes: list[Candidate], centre: np.ndarray, side: float) -> np.ndarray:
    """A round piece's box of ``side`` at ``centre``, in the shape of the nearest of
    ``shapes`` (the same tilt of the table there)."""
    near = min(shapes, key=lambda c: _distance(c.center, centre))
    shape = (near.quad - near.quad.mean(axis=0)) * (side / near.side)
    return (shape + centre).astype(np.float32)


def _displaced(chosen: list[_Scored], found: list[_Scored]) -> list[_Scored]:
    """``found`` added to ``chosen``, each replacing the chosen pieces it covers that
    match worse (a figure taken for a token, a piece cut at the wrong size)."""
    gone = {
        id(c)
        for c in chosen
        for s in found
        if _distance(s.candidate.center, c.candidate.center) < 0.6 * s.candidate.side
        and c.score < s.score
    }
    return [c for c in chosen if id(c) not in gone] + found


def _windows(
    points: list[np.ndarray], reach: float, shape: tuple[int, ...]
) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) reaching ``reach`` around the points, overlapping boxes
    merged: a search over a few small windows instead of one spanning the frame."""
    height, width = shape[:2]
    boxes = [[p[0] - reach, p[1] - reach, p[0] + reach, p[1] + reach] for p in points]
    merged = True
    while merged:
        merged = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                if a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]:
                    boxes[i] = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
                    del boxes[j]
                    merged = True
                    break
            if merged:
                break
    return [
        (
            max(math.floor(x0), 0),
            max(math.floor(y0), 0),
            min(math.ceil(x1), width),
            min(math.ceil(y1), height),
        )
        for x0, y0, x1, y1 in boxes
    ]


def _repeated_print(pieces: list[_Scored], clear: float) -> bool:
    """Three or more pieces of one blob that all match the same face, none of them
    clearly: a motif printed over and over (the deposit mat's moons), not tiles, which
    match their own faces well and rarely share one motif all along a block."""
    return (
        len(pieces) >= 3
        and len({s.group for s in pieces}) == 1
        and all(s.score < clear for s in pieces)
    )


def _clusters(
    bits: list[tuple[np.ndarray, float, float]],
) -> list[list[tuple[np.ndarray, float, float]]]:
    """Bits of figures (centre, tile side there, share) grouped into figures: each bit,
    largest first, joins the nearest group whose every bit lies within
    :data:`_FIGURE_SPAN` sides of it.

    Each bit must be near all of its group, not just one: chained from neighbour to
    neighbour, the figures of a block of touching tiles (a side apart) made one group
    too large to be a figure, and none of them was looked for (dark tiles on a dark
    table, whose coloured line figures alone stood out).
    """
    groups: list[list[tuple[np.ndarray, float, float]]] = []
    # the largest bits first: each figure's main part, which its specks then join
    for bit in sorted(bits, key=lambda b: -b[2]):
        reach = _FIGURE_SPAN * bit[1]
        fits = [g for g in groups if all(_distance(bit[0], b[0]) < reach for b in g)]
        if fits:
            min(fits, key=lambda g: min(_distance(bit[0], b[0]) for b in g)).append(bit)
        else:
            groups.append([bit])
    return groups


def _blocks(pieces: list[_Scored]) -> list[list[_Scored]]:
    """The pieces grouped into blocks of touching ones (neighbours within
    :data:`_TOUCHING` sides, and their neighbours in turn)."""
    parent = list(range(len(pieces)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(pieces):
        for j in range(i):
            b = pieces[j]
            reach = _TOUCHING * max(a.candidate.side, b.candidate.side)
            if _distance(a.candidate.center, b.candidate.center) < reach:
                parent[root(i)] = root(j)
    blocks: dict[int, list[_Scored]] = {}
    for i, piece in enumerate(pieces):
        blocks.setdefault(root(i), []).append(piece)
    return list(blocks.values())


def _cells_of(lattice: Lattice, pieces: list[Candidate]) -> list[tuple[int, int]]:
    """The lattice cell each piece's centre lies in (all solved in one call)."""
    indices = np.rint(lattice.indices_of(np.array([c.center for c in pieces])))
    return [(int(i), int(j)) for i, j in indices.tolist()]


def _one_per_place(chosen: list[_Scored]) -> tuple[list[_Scored], list[RejectedCandidate]]:
    """Two aligned pieces that slid onto the same object: keep the better match."""
    kept: list[_Scored] = []
    doubles: list[RejectedCandidate] = []
    for s in sorted(chosen, key=lambda s: -s.score):
        c = s.candidate
        near = any(
            np.hypot(c.center[0] - k.candidate.center[0], c.center[1] - k.candidate.center[1])
            < 0.5 * min(c.side, k.candidate.side)
            for k in kept
        )
        if near:
            doubles.append(RejectedCandidate(c.center, c.polygon(), "same place as a better match"))
        else:
            kept.append(s)
    return kept, doubles


def _label_of(model: AppearanceModel, s: _Scored, member: int):
    return model.labels[model.groups[s.group][member]]


def _confidence(score: float, margin: float, clarity: float) -> float:
    """0..1 from how well the structure matched, by how much it beat the next kind of
    object, and by how much the chosen colour beat the next colour."""
    structure = min(max((score - 0.3) / 0.5, 0.0), 1.0)
    lead = min(max(margin / _CLEAR_LEAD, 0.0), 1.0)
    colour = min(max(clarity * 3, 0.0), 1.0)
    return float((structure * lead * colour) ** (1 / 3))


def _agreed_side(clear: list[_Scored], least: float) -> float:
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


def _calibrated_side(
    correction: CameraCorrection | None, tile_mm: float, size: tuple[int, int]
) -> float | None:
    """A tile's side in pixels at the frame's centre, from the table calibration."""
    if correction is None:
        return None
    mm_per_px = correction.mm_per_px((size[0] / 2, size[1] / 2))
    return tile_mm / mm_per_px if mm_per_px else None


def _side(quad: np.ndarray) -> float:
    return quad_side(quad)


def _full(
    quad: np.ndarray, scale: float, round_: bool, blob: int, split: int, cover: float
) -> Candidate:
    full = (quad.astype(np.float32) + 0.5) * scale - 0.5
    return Candidate(quad=full, round=round_, blob=blob, split=split, cover=cover)


def _full_all(
    quads: list[np.ndarray], scale: float, round_: bool, blob: int, split: int, cover: float
) -> list[Candidate]:
    """:func:`_full` for every piece of one split, scaled in one array operation (the
    same float32 arithmetic; per piece, NumPy's call cost was most of it)."""
    full = (np.stack(quads).astype(np.float32) + 0.5) * scale - 0.5
    return [Candidate(quad=q, round=round_, blob=blob, split=split, cover=cover) for q in full]


def _split_value(members: list[_Scored]) -> float:
    """How well one split explains its blob: how well its pieces match, times how much
    of the blob they cover."""
    match = mean_of([max(m.score, 0.0) for m in members])
    return match * members[0].candidate.cover


def _as_bgr(image: np.ndarray) -> np.ndarray:
    """Accept grey, BGR or BGRA uint8 frames; refuse anything else in one sentence."""
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
        raise ImageError("The frame is not an 8-bit image.")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.ndim != 3 or image.shape[2] not in (3, 4):
        raise ImageError("The frame is not a grey, BGR or BGRA image.")
    elif image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    height, width = image.shape[:2]
    if min(height, width) < 16:
        raise ImageError(f"The frame is only {width}×{height} pixels, too small to show anything.")
    if width * height > MAX_PIXELS:
        raise ImageError(f"The frame has {width * height / 1e6:.0f} megapixels, too many to read.")
    return image
