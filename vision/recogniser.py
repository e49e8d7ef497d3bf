"""The recogniser: one frame in, every tile and token on the table out.

``Recogniser(tileset).detect(image)`` runs the stages in order, each a small pure
function over arrays:

1. :mod:`vision.foreground` — which pixels are objects, not table (the frame's
   arrays are then kept together as a :class:`vision.frame.Frame`);
2. :mod:`vision.cuts` — blobs split into single tiles or tokens (several ways
   where the size of a tile is uncertain; see :mod:`vision.candidates`,
   :mod:`vision.discs`, :mod:`vision.lattice`);
3. :mod:`vision.rectify` — each piece cut out as an upright square patch;
4. :mod:`vision.scoring` — grey structure matched against the tile set in every
   rotation (:mod:`vision.model`, :mod:`vision.matching`): which motif (with or
   without heart), token face or token back; :mod:`vision.choosing` — which split of
   each blob explains it best, poor matches rejected, tokens told from tiles by size
   and company (:mod:`vision.kinds`), a token row's middle cut again from its clear
   ends (:mod:`vision.token_row_cuts`) and doubtful motifs and turns judged again
   (:mod:`vision.doubts`); then :mod:`vision.searches` — looking again for the
   pieces the object mask missed (by edges, rims, figure bits, lattices);
5. :mod:`vision.naming` — the frame's light estimated from the matched pieces, then
   each piece's colour (and heart) chosen under that light (:mod:`vision.colour`).

The model is built from the tile set once, so the web server keeps one recogniser
and calls ``detect`` for every camera frame.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import replace

import cv2
import numpy as np
from threadpoolctl import threadpool_limits

from vision import (
    block_refit,
    choosing,
    cuts,
    doubts,
    kinds,
    matching,
    token_blur,
    token_row_cuts,
    token_scale,
    token_sides,
)
from vision.config import VisionConfig
from vision.correction import CameraCorrection
from vision.foreground import Foreground, downscale, find_foreground, table_between_pieces
from vision.frame import Frame
from vision.imageio import MAX_PIXELS, ImageError
from vision.model import AppearanceModel, build_model
from vision.naming import Naming
from vision.outlines import fitted_to_edge
from vision.pieces import in_view
from vision.rectify import Pyramid
from vision.results import FrameResult
from vision.scoring import Scoring
from vision.searches import beside, cores, edges, fragments, rims
from vision.tileset import TileSet


class Recogniser:
    """Recognises one tile set's tiles and tokens in frames; build once, call often."""

    def __init__(self, tileset: TileSet, config: VisionConfig | None = None) -> None:
        _single_threaded_blas()
        self.config = config or VisionConfig.load()
        self.model: AppearanceModel = build_model(tileset, self.config)
        self.tileset = tileset
        token_groups = np.array([n.startswith("token") for n in self.model.group_names])
        round_tiles = tileset.tile_shape == "round"
        self.naming = Naming(self.model, self.config, token_groups, round_tiles)
        self.scoring = Scoring(self.model, self.config, tileset, token_groups, self.naming.framed)
        _prepare_banks(self.model, self.config, token_groups)

    def detect(self, image: np.ndarray, correction: CameraCorrection | None = None) -> FrameResult:
        """Find every tile and token in a BGR frame (pixels of the input image)."""
        image = _as_bgr(image)
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
        lap("foreground")
        result = self._read(image, small, scale, foreground, correction, lap)
        if not result.tiles and not result.tokens:
            # nothing read: perhaps a block of pale pieces made their paper the table
            table = table_between_pieces(small, self.config)
            if table is not None:
                foreground = find_foreground(small, self.config, table)
                lap("foreground again")

                def lap_again(stage: str) -> None:
                    lap(f"{stage} again")

                again = self._read(image, small, scale, foreground, correction, lap_again)
                result = again if again.tiles or again.tokens else result
        return replace(result, timings_ms=timings)

    def _read(
        self,
        image: np.ndarray,
        small: np.ndarray,
        scale: float,
        foreground: Foreground,
        correction: CameraCorrection | None,
        lap: Callable[[str], None],
    ) -> FrameResult:
        """Every tile and token in ``image`` (BGR, colours corrected), given what stands
        out from the table in ``small``, the frame at the work size."""
        height, width = image.shape[:2]
        scoring = self.scoring
        mask = foreground.mask
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        blobs = cuts.blobs(scoring, mask, scale)
        pyramid = Pyramid(image)
        frame = Frame(
            image,
            pyramid,
            scale,
            grey,
            mask,
            blobs,
            foreground.periods,
            foreground.broken,
            foreground.places,
            foreground.hued,
        )
        calibrated = _calibrated_side(correction, self.tileset.tile_size_mm, (width, height))
        # first the blobs that look like one object each: the tiles among them tell the
        # size of a tile across the frame, which then says how to cut up the rest
        cut = cuts.single_candidates(scoring, frame)
        fitted = [
            replace(c, quad=fitted_to_edge(image, c.quad, c.round, scoring.framed[c.round]))
            for c in cut
        ]
        as_cut = {id(f): c for f, c in zip(fitted, cut, strict=True)}
        singles = scoring.score_structure(pyramid, fitted)
        # blocks are outlined as wide as lone pieces were before fitting: their cuts go by that
        sizes = scoring.size_model(
            [replace(s, candidate=as_cut[id(s.candidate)]) for s in singles], calibrated
        )
        settled = {s.candidate.blob for s in singles if cuts.settled(scoring, s, sizes)}
        rest = cuts.split_candidates(scoring, frame, settled, sizes)
        lap("candidates")
        split = cuts.score_splits(scoring, pyramid, rest)
        scored = cuts.align_promising(scoring, pyramid, singles + split)
        scored = kinds.tokens_fitted(scoring, frame, scored)
        scored = token_sides.faces_told_from_backs(scoring, scored)
        scored, middles = token_row_cuts.rows_from_ends(scoring, frame, scored)
        scored, middles = token_blur.blur_matched(scoring, scored, middles)
        scored += beside.complete_blocks(scoring, frame, scored)
        scored += block_refit.refitted_blocks(scoring, frame, scored, sizes)
        lap("structure")
        chosen, rejected, size_at, turned_down = choosing.choose(
            scoring,
            pyramid,
            scored,
            calibrated,
            middles,
            functools.partial(rims.rim_steps_all_round, scoring, frame),
        )
        if sizes is None and size_at is not None:
            chosen += choosing.recut_unexplained(scoring, frame, chosen, size_at, calibrated)
        chosen, rejected = doubts.other_motifs(
            scoring, pyramid, chosen, turned_down, rejected, size_at
        )
        chosen, rejected = doubts.near_ties_settled(scoring, chosen, turned_down, rejected, size_at)
        chosen = doubts.other_quarter_turns(scoring, pyramid, chosen)
        found = edges.out_of_unexplained(scoring, frame, scored, chosen, size_at)
        if found:
            chosen += found
            size_at = size_at or scoring.size_model(chosen, calibrated)
        cored = cores.around_cores(scoring, frame, chosen, size_at)
        if cored is not chosen:
            # the tiles round cores were all the frame had, its size read from labels
            chosen, size_at = cored, scoring.size_model(cored, calibrated)
        if size_at is None:
            # nothing said how large a tile is: perhaps only the figures stand out
            chosen, size_at = fragments.sized_by_figures(scoring, frame, chosen, calibrated)
        # what the object mask missed, looked for where the pieces found say it lies
        chosen = rims.look_again(scoring, frame, chosen, size_at)
        chosen = fragments.around_fragments(scoring, frame, chosen, size_at)
        chosen += fragments.lone_blobs_recut(scoring, frame, chosen, size_at)
        chosen += fragments.in_dark_breaks(scoring, frame, chosen, size_at)
        chosen += beside.beside_blocks(scoring, frame, chosen, size_at)
        chosen += beside.in_heaps(scoring, frame, chosen, size_at)
        chosen = beside.rows_from_lone_ends(scoring, frame, chosen, size_at, scored)
        chosen = beside.row_ends(scoring, frame, chosen, size_at)
        chosen, alone = kinds.tokens_in_company(scoring, frame, chosen, size_at)
        rejected += alone
        chosen = beside.rows_from_lone_blobs(scoring, frame, chosen, size_at)
        chosen = kinds.tiles_by_colour(scoring, frame, chosen, size_at, self.naming.misfits)
        chosen = kinds.tokens_cut_large(scoring, frame, chosen)
        chosen, unseen = in_view(chosen, (width, height))
        rejected += unseen
        side_px = size_at((width / 2, height / 2)) if size_at else None
        lap("choose")
        judged = doubts.motifs_where_they_differ(scoring, chosen)
        chosen = doubts.clear_ties(scoring, chosen, judged)
        chosen = doubts.turned_by_colour(
            scoring, pyramid, chosen, self.naming.turn_chroma, self.naming.colour_masks[False]
        )
        chosen, beyond = self.naming.cut_to_their_faces(chosen, pyramid)
        tiles, tokens, unsure, gains = self.naming.colour(
            chosen, scoring, beyond, scoring.least_tile_side((width, height))
        )
        lap("colour")
        return FrameResult(
            width=width,
            height=height,
            tiles=tuple(tiles),
            tokens=tuple(tokens),
            rejected=tuple(rejected + unsure),
            tile_side_px=side_px,
            light_gains=(float(gains[0]), float(gains[1]), float(gains[2])),
        )


def _prepare_banks(model: AppearanceModel, config: VisionConfig, token_groups: np.ndarray) -> None:
    """Everything the banks derive for matching made now, not on the camera frames that
    first need it: the screens (about 0.7 s), the templates cut out as columns, the
    alignment templates at each zoom (a round bank's 1512, a hundred or more made on each
    of its first frames) and the round bank's token templates. A frame's time then
    depends on the frame alone, not on what earlier frames happened to ask for (lantern's
    first frame: 220 -> 110 ms of processor time)."""
    for bank in (model.square, model.round):
        if bank is None:
            continue
        bank.screen(core_only=True)
        if bank.screen(core_only=False) is None:  # else the full columns are never read
            bank.columns(core_only=False)
            bank.group_runs(core_only=False)
        bank.columns(core_only=True)
        bank.group_runs(core_only=True)
        matching.prepare_alignment(bank, config.patch_px, config.align_zooms, config.align_reach)
    if model.round is not None:
        token_scale.prepare(model.round, token_groups)
        token_blur.prepare(model, token_groups)


@functools.cache
def _single_threaded_blas() -> None:
    """Keep NumPy's matrix products on the calling thread, for the whole process.

    Recognition multiplies small matrices (tens of patches by hundreds of templates).
    Handing those to a pool of BLAS threads costs more than it saves, and on a busy
    machine (a server answering phones while a camera streams) the pool's spinning
    threads make every product ten times slower.
    """
    threadpool_limits(limits=1, user_api="blas")


def _calibrated_side(
    correction: CameraCorrection | None, tile_mm: float, size: tuple[int, int]
) -> float | None:
    """A tile's side in pixels at the frame's centre, from the table calibration."""
    if correction is None:
        return None
    mm_per_px = correction.mm_per_px((size[0] / 2, size[1] / 2))
    return tile_mm / mm_per_px if mm_per_px else None


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
