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

import time
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.candidates import (
    Candidate,
    coverage,
    disc_split,
    estimate_side,
    explained,
    find_blobs,
    grid_splits,
)
from vision.colour import decide_member, estimate_gains, upright
from vision.config import VisionConfig
from vision.correction import CameraCorrection
from vision.foreground import downscale, object_mask
from vision.imageio import MAX_PIXELS, ImageError
from vision.model import AppearanceModel, build_model, structure_vectors
from vision.rectify import Pyramid, patch_mask
from vision.results import FrameResult, RejectedCandidate, TileDetection, TokenDetection
from vision.tileset import TileSet


@dataclass(frozen=True, eq=False)
class _Scored:
    candidate: Candidate
    patch: np.ndarray
    group: int
    turn: float
    score: float
    margin: float
    runner: int = -1  # the next best group
    runner_turn: float = 0.0


class Recogniser:
    """Recognises one tile set's tiles and tokens in frames; build once, call often."""

    def __init__(self, tileset: TileSet, config: VisionConfig | None = None) -> None:
        self.config = config or VisionConfig.load()
        self.model: AppearanceModel = build_model(tileset, self.config)
        self.tileset = tileset

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
        mask = object_mask(small, self.config)
        lap("foreground")
        candidates, side_work = self._candidates(mask, scale, (width, height), correction)
        lap("candidates")
        pyramid = Pyramid(image)
        scored = self._align_promising(pyramid, self._score_structure(pyramid, candidates))
        lap("structure")
        chosen, rejected = self._choose(scored, side_work * scale if side_work else None)
        lap("choose")
        tiles, tokens, gains = self._colour(chosen)
        lap("colour")
        return FrameResult(
            width=width,
            height=height,
            tiles=tuple(tiles),
            tokens=tuple(tokens),
            rejected=tuple(rejected),
            tile_side_px=side_work * scale if side_work else None,
            light_gains=(float(gains[0]), float(gains[1]), float(gains[2])),
            timings_ms=timings,
        )

    # -- stage 2: candidates -------------------------------------------------------------

    def _candidates(
        self,
        mask: np.ndarray,
        scale: float,
        size: tuple[int, int],
        correction: CameraCorrection | None,
    ) -> tuple[list[Candidate], float | None]:
        config = self.config
        tileset = self.tileset
        min_side = config.min_tile_px / scale
        token_floor = config.token_size_range[0] if tileset.has_tokens else 1.0
        blobs = find_blobs(mask, min_area=(min_side * min(token_floor, 0.75)) ** 2 * 0.6)
        round_tiles = tileset.tile_shape == "round"
        side = _calibrated_side(correction, tileset.tile_size_mm, size) if correction else None
        side = side / scale if side else estimate_side(blobs, round_tiles, config)
        max_side = config.max_tile_frac * min(size) / scale
        candidates: list[Candidate] = []
        for index, blob in enumerate(blobs):
            split = 0
            if tileset.has_tiles and not round_tiles:
                for cells in grid_splits(blob, side, config):
                    quads = [
                        q
                        for q in cells
                        if coverage(mask, q) >= config.cell_coverage_min
                        and min_side <= _side(q) <= max_side
                    ]
                    if quads:
                        cover = explained(blob, quads, False)
                        candidates += [_full(q, scale, False, index, split, cover) for q in quads]
                        split += 1
            if round_tiles or tileset.has_tokens:
                floor = min(token_floor, 0.75) * (side if side else min_side / 0.75) / 2 * 0.8
                quads = [
                    q
                    for q in disc_split(blob, mask.shape, max(2.0, floor))
                    if min_side * min(token_floor, 0.75) <= _side(q) <= max_side
                ]
                if quads:
                    cover = explained(blob, quads, True)
                    candidates += [_full(q, scale, True, index, split, cover) for q in quads]
        return candidates, side

    # -- stage 3 and 4: rectify and match structure --------------------------------------

    def _score_structure(self, pyramid: Pyramid, candidates: list[Candidate]) -> list[_Scored]:
        scored: list[_Scored] = []
        patch_px = self.config.patch_px
        n_groups = len(self.model.groups)
        for round_ in (False, True):
            bank = self.model.bank(round_)
            subset = [c for c in candidates if c.round == round_]
            if bank is None or not subset:
                continue
            patches = np.stack([pyramid.rectify(c.quad, patch_px) for c in subset])
            similarity = structure_vectors(patches, bank.mask) @ bank.vectors.T
            per_group = np.full((len(subset), n_groups), -1.0, np.float32)
            best_template = np.zeros((len(subset), n_groups), int)
            for g in np.unique(bank.group):
                columns = np.flatnonzero(bank.group == g)
                block = similarity[:, columns]
                arg = block.argmax(axis=1)
                per_group[:, g] = block[np.arange(len(subset)), arg]
                best_template[:, g] = columns[arg]
            order = np.argsort(-per_group, axis=1)
            for i, candidate in enumerate(subset):
                g, runner = int(order[i, 0]), int(order[i, 1]) if n_groups > 1 else -1
                score = float(per_group[i, g])
                margin = score - float(per_group[i, runner]) if runner >= 0 else 1.0
                scored.append(
                    _Scored(
                        candidate=candidate,
                        patch=patches[i],
                        group=g,
                        turn=float(bank.turn[best_template[i, g]]),
                        score=score,
                        margin=margin,
                        runner=runner,
                        runner_turn=float(bank.turn[best_template[i, runner]])
                        if runner >= 0
                        else 0.0,
                    )
                )
        return scored

    def _align_promising(self, pyramid: Pyramid, scored: list[_Scored]) -> list[_Scored]:
        """Align the candidates of each blob's splits that could still win."""
        by_split: dict[tuple[int, int], list[_Scored]] = {}
        for s in scored:
            by_split.setdefault((s.candidate.blob, s.candidate.split), []).append(s)
        means = {key: _split_value(members) for key, members in by_split.items()}
        best_of_blob: dict[int, float] = {}
        for (blob, _), value in means.items():
            best_of_blob[blob] = max(best_of_blob.get(blob, -1.0), value)
        slack = self.config.split_slack
        return [
            self._align(pyramid, s)
            if means[(s.candidate.blob, s.candidate.split)]
            >= best_of_blob[s.candidate.blob] - slack
            else s
            for s in scored
        ]

    def _align(self, pyramid: Pyramid, s: _Scored) -> _Scored:
        """Nudge a candidate's quad (shift and scale) until it best fits its group.

        Blobs include soft shadows and grid cells inherit the block's error, so the
        first cut can be off by a tenth of a tile; the heart and the colour are judged
        on the aligned patch. Each of the two best groups is aligned in its own best
        turn, so that a poor first cut does not decide the motif; only those few
        templates are used, which keeps this cheap.
        """
        if s.score < self.config.align_min_score:
            return s
        hypotheses = [(s.group, s.turn)]
        if s.runner >= 0 and s.margin < self.config.align_rivalry:
            hypotheses.append((s.runner, s.runner_turn))
        results = [self._align_to(pyramid, s, group, turn) for group, turn in hypotheses]
        results.sort(key=lambda r: -r[1])
        quad, score, patch, group, _ = results[0]
        c = s.candidate
        moved = Candidate(quad=quad, round=c.round, blob=c.blob, split=c.split, cover=c.cover)
        rescored = self._rescore(moved, patch)
        if len(results) > 1 and rescored.group == group:
            # the rival was aligned too: the lead is over its best, not its first, fit
            margin = min(rescored.margin, score - results[1][1])
            return replace(rescored, margin=margin)
        return rescored

    def _align_to(
        self, pyramid: Pyramid, s: _Scored, group: int, turn: float
    ) -> tuple[np.ndarray, float, np.ndarray, int, float]:
        bank = self.model.bank(s.candidate.round)
        assert bank is not None
        turns = np.abs(((bank.turn - turn) + 180) % 360 - 180)
        near = self.config.round_rotation_step_deg * 1.01 if bank.round else 1.0
        rows = bank.vectors[(bank.group == group) & (turns <= near)]
        patch_px = self.config.patch_px
        quad = s.candidate.quad
        patch = s.patch
        best = float((structure_vectors(patch[None], bank.mask) @ rows.T).max())
        for step in self.config.align_steps:
            centre = quad.mean(axis=0)
            ex = (quad[1] - quad[0]) * step
            ey = (quad[3] - quad[0]) * step
            for trials in (
                [quad + dx * ex + dy * ey for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy],
                [centre + (quad - centre) * zoom for zoom in (1 - step, 1 + step)],
            ):
                patches = np.stack([pyramid.rectify(q, patch_px) for q in trials])
                fits = (structure_vectors(patches, bank.mask) @ rows.T).max(axis=1)
                k = int(np.argmax(fits))
                if fits[k] > best:
                    quad, best, patch = trials[k].astype(np.float32), float(fits[k]), patches[k]
                    centre = quad.mean(axis=0)
        return quad, best, patch, group, turn

    def _rescore(self, candidate: Candidate, patch: np.ndarray) -> _Scored:
        bank = self.model.bank(candidate.round)
        assert bank is not None
        similarity = (structure_vectors(patch[None], bank.mask) @ bank.vectors.T)[0]
        per_group = np.full(len(self.model.groups), -1.0)
        best_turn = np.zeros(len(self.model.groups))
        for g in np.unique(bank.group):
            columns = np.flatnonzero(bank.group == g)
            j = columns[int(np.argmax(similarity[columns]))]
            per_group[g], best_turn[g] = similarity[j], bank.turn[j]
        order = np.argsort(-per_group)
        g = int(order[0])
        margin = float(per_group[g] - per_group[order[1]]) if len(order) > 1 else 1.0
        runner = int(order[1]) if len(order) > 1 else -1
        return _Scored(
            candidate,
            patch,
            g,
            float(best_turn[g]),
            float(per_group[g]),
            margin,
            runner,
            float(best_turn[runner]) if runner >= 0 else 0.0,
        )

    def _choose(
        self, scored: list[_Scored], side_px: float | None
    ) -> tuple[list[_Scored], list[RejectedCandidate]]:
        """Keep each blob's best-explained split, then turn down what is not a tile."""
        by_split: dict[tuple[int, int], list[_Scored]] = {}
        for s in scored:
            by_split.setdefault((s.candidate.blob, s.candidate.split), []).append(s)
        best: dict[int, tuple[float, list[_Scored]]] = {}
        for (blob, _), members in by_split.items():
            value = _split_value(members)
            if blob not in best or value > best[blob][0]:
                best[blob] = (value, members)
        chosen: list[_Scored] = []
        rejected: list[RejectedCandidate] = []
        for _, members in best.values():
            for s in members:
                reason = self._rejection(s, side_px)
                if reason is None:
                    chosen.append(s)
                else:
                    c = s.candidate
                    rejected.append(RejectedCandidate(c.center, c.polygon(), reason))
        return chosen, rejected

    def _rejection(self, s: _Scored, side_px: float | None) -> str | None:
        config = self.config
        if s.score < config.accept_structure_min:
            return f"no match ({s.score:.2f})"
        if s.margin < config.accept_margin_min:
            return f"ambiguous ({s.margin:.2f})"
        if side_px:
            is_token = self.model.group_names[s.group].startswith("token")
            low, high = config.token_size_range if is_token else config.tile_size_range
            ratio = s.candidate.side / side_px
            if not low <= ratio <= high:
                return f"wrong size ({ratio:.2f}× a tile)"
        return None

    # -- stage 5: light and colour -------------------------------------------------------

    def _colour(
        self, chosen: list[_Scored]
    ) -> tuple[list[TileDetection], list[TokenDetection], np.ndarray]:
        model = self.model
        patch_px = self.config.patch_px
        tiles: list[TileDetection] = []
        tokens: list[TokenDetection] = []
        if not chosen:
            return tiles, tokens, np.ones(3)
        masks = {r: patch_mask(patch_px, r) for r in (False, True)}
        gains = np.ones(3)
        results: dict[int, tuple[int, float]] = {}
        for round_ in (False, True):
            subset = [i for i, s in enumerate(chosen) if s.candidate.round == round_]
            if not subset:
                continue
            patches = [upright(chosen[i].patch, chosen[i].turn).astype(np.float32) for i in subset]
            members = [model.colour_templates[list(model.groups[chosen[i].group])] for i in subset]
            weights = np.array([max(chosen[i].score, 0.05) for i in subset])
            gains = estimate_gains(
                patches, members, masks[round_], self.config.illuminant_kelvins, weights
            )
            for k, i in enumerate(subset):
                results[i] = decide_member(patches[k], members[k], gains, masks[round_])
        for i, s in enumerate(chosen):
            member, clarity = results[i]
            label = model.labels[model.groups[s.group][member]]
            confidence = _confidence(s.score, s.margin, clarity)
            c = s.candidate
            if label.tile is not None:
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
        tiles.sort(key=lambda t: (t.center[1], t.center[0]))
        tokens.sort(key=lambda t: (t.center[1], t.center[0]))
        return tiles, tokens, gains


def _confidence(score: float, margin: float, clarity: float) -> float:
    """0..1 from how well the structure matched, by how much it beat the next kind of
    object, and by how much the chosen colour beat the next colour."""
    structure = min(max((score - 0.3) / 0.5, 0.0), 1.0)
    lead = min(max(margin / 0.08, 0.0), 1.0)
    colour = min(max(clarity * 3, 0.0), 1.0)
    return float((structure * lead * colour) ** (1 / 3))


def _calibrated_side(
    correction: CameraCorrection, tile_mm: float, size: tuple[int, int]
) -> float | None:
    mm_per_px = correction.mm_per_px((size[0] / 2, size[1] / 2))
    return tile_mm / mm_per_px if mm_per_px else None


def _side(quad: np.ndarray) -> float:
    return float(np.mean(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)))


def _full(
    quad: np.ndarray, scale: float, round_: bool, blob: int, split: int, cover: float
) -> Candidate:
    full = (quad.astype(np.float32) + 0.5) * scale - 0.5
    return Candidate(quad=full, round=round_, blob=blob, split=split, cover=cover)


def _split_value(members: list[_Scored]) -> float:
    """How well one split explains its blob: how well its pieces match, times how much
    of the blob they cover."""
    match = float(np.mean([max(m.score, 0.0) for m in members]))
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
