"""Recognition thresholds in one place, with their defaults in ``vision/config.json``.

Every number the pipeline compares against lives here, so that a change of camera or
table is a config change, not a code change, and ``companion evaluate`` can report
which settings produced its figures.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from companion.errors import CompanionError

DEFAULTS_FILE = Path(__file__).with_name("config.json")


class ConfigError(CompanionError):
    """A recognition config file with an unknown key or a bad value."""


@dataclass(frozen=True)
class VisionConfig:
    """What each stage needs; see ``docs/vision.md`` for what each threshold trades."""

    #: Width frames are downscaled to for finding candidates (speed over detail).
    work_width: int = 640
    #: Side of the canonical patch every candidate and template is rectified to.
    patch_px: int = 40
    #: Template rotations for round tiles and tokens (square ones use quarter turns).
    round_rotation_step_deg: float = 10.0
    #: Median window for the table's local colour, as a share of the frame height.
    background_kernel_frac: float = 0.22
    #: Lab distance from the table below which a pixel always counts as table.
    foreground_min_distance: float = 14.0
    #: ...and the multiple of the table's own texture noise a pixel must exceed.
    foreground_noise_factor: float = 4.0
    #: A table whose pixels differ from their local average by more than this (median)
    #: is patterned; it is then modelled by its palette of colours instead...
    pattern_texture: float = 6.0
    #: ...and a pixel this far from every palette colour is an object.
    palette_distance: float = 22.0
    #: Edge strength (Lab units per pixel) below which an edge is table grain...
    edge_min_strength: float = 40.0
    #: ...and the multiple of the table's median gradient an outline must exceed.
    edge_noise_factor: float = 6.0
    #: Share of the frame above which edges are the table's own pattern, not objects.
    edge_max_share: float = 0.12
    #: Smallest tile side, in full-frame pixels, worth classifying...
    min_tile_px: int = 18
    #: ...and, for the tiles reported, as a share of the frame's longer side.
    min_tile_frac: float = 0.0186
    #: Largest tile side as a share of the frame's shorter side.
    max_tile_frac: float = 0.45
    #: A blob filling this much of its rotated box with a near-square box is one object.
    single_fill_min: float = 0.82
    single_aspect_max: float = 1.3
    #: ...and one filling its box this fully is a lone square (never a block or discs).
    lone_fill: float = 0.9
    #: Blobs within this relative size of each other count as the same size of object.
    size_cluster_tolerance: float = 0.18
    #: A grid cell must be this much object (not table) to be a tile candidate.
    cell_coverage_min: float = 0.55
    #: Candidates matching at least this well (and less well than ``align_max_score``,
    #: above which a piece already lies on its tile) are aligned to their template...
    align_min_score: float = 0.18
    #: ...by sliding their templates up to this share of a side each way...
    align_reach: float = 0.3
    #: ...at these zooms.
    align_zooms: tuple[float, ...] = (0.9, 1.0, 1.1)
    #: A runner-up group this close to the best is aligned too before deciding.
    align_rivalry: float = 0.15
    #: Aligning a piece this well matched moved nothing measurable and cost a third
    #: of the frame's time (0.85 and 0.9 read four styles' photos alike; 0.85 aligns
    #: a sixth fewer pieces).
    align_max_score: float = 0.85
    #: Splits of a blob whose pieces match this much worse than its best are dropped.
    split_slack: float = 0.12
    #: Least normalised correlation with the best template for a candidate to count
    #: (over four styles' middle and hard photos, tiles read at 0.5 to 0.6 were 3 wrong
    #: and 3 not tiles at all, none right).
    accept_structure_min: float = 0.6
    #: ...and for a token, whose plain face matches any round thing a little (over four
    #: styles' middle and hard photos, token matches under 0.65 were 31 dice, tile
    #: figures and the like, and 2 tokens).
    accept_token_min: float = 0.65
    #: A split with fewer of its pieces accepted than this share is not tiles at all.
    split_accept_share: float = 0.5
    #: ...and so is a blob whose best pieces leave more than this share of it uncovered.
    min_split_cover: float = 0.6
    #: A piece longer than this many times its width (even seen at 35°) is not a tile.
    max_elongation: float = 1.45
    #: Least lead of the best kind of object over the next, below which it is rejected...
    accept_margin_min: float = 0.02
    #: ...unless the piece lies this far from the runner-up's face towards the best one
    #: (:func:`vision.matching.lead_share`; 0.5 is on the best face): two faces that differ
    #: in a small figure only cannot lead each other by much.
    accept_lead_share_min: float = 0.2
    #: Detections less sure than this (0..1, see ``Recogniser``) are reported as rejected:
    #: measured on rendered photos, they were wrong far more often than right (tiles
    #: read at 0.35 to 0.40: 4 not tiles, 1 right).
    accept_confidence_min: float = 0.4
    #: ...except a tile matching its motif at least this well and clearly ahead of
    #: the other motifs: then only its heart or colour is a close call, and it is
    #: reported with its likelier twin (over four styles' photos, of 5 such tiles
    #: 3 were right and 2 had the wrong heart; none was no tile).
    sure_tile_min: float = 0.8
    #: A face read in the middle of a row of tokens less surely than this is taken for
    #: a back: by the rules a row is face up only at its ends (over four styles' photos,
    #: all 5 faces read in a row's middle were backs, read at 0.58 to 0.75).
    row_middle_face_min: float = 0.9
    #: A round tile found by its rim alone (no blob of the object mask) must match
    #: its face at least this well.
    second_look_min: float = 0.7
    #: A piece found with no blob of its own (around a fragment of the mask, or by its
    #: rim) needs an outline all round: a median step in grey across it of at least
    #: this many levels (real tiles measured 36 to 55; tile-sized squares imagined
    #: around dice on a cloth under 7)...
    outline_step_min: float = 12.0
    #: ...and at least this share of the steps a little inside and outside it.
    outline_share_min: float = 0.6
    #: A token found by its rim alone needs an outline that steps all round: the lower
    #: fifth of its steps at least this share of their median. The deposit mat's printed
    #: moons are circles' arcs over half a token's rim (on six styles' hard photos, 38
    #: rims on prints matched a token face at 0.70-0.78 and passed the median test: 31
    #: measured 0.09-0.34 here, the rest up to 0.66; 67 real tokens found by their rims
    #: measured 0.39-0.93). A print's other copies go with it (see the recogniser).
    token_outline_even_min: float = 0.35
    #: A token lying alone, in no row, must match a token's face at least this well
    #: (what lay alone and matched under it on the rendered photos was a die, the mat's
    #: print or a tile's figure, never a token).
    lone_token_min: float = 0.8
    #: Pieces matching a tile face this well set the frame's tile size.
    size_anchor_score: float = 0.7
    #: Token diameter as a share of the tile size: wide, since print runs differ.
    token_size_range: tuple[float, float] = (0.35, 1.3)
    #: Accepted tile size as a share of the frame's estimated tile size.
    tile_size_range: tuple[float, float] = (0.7, 1.4)
    #: Lamp colour temperatures tried when estimating the frame's light.
    illuminant_kelvins: tuple[float, ...] = (2500, 3000, 3600, 4300, 5200, 6500, 8000, 10000)

    @classmethod
    def load(cls, path: str | Path | None = None) -> VisionConfig:
        """The defaults file, overlaid by ``path`` if given (a JSON object of overrides)."""
        config = cls._from_file(DEFAULTS_FILE, cls())
        return cls._from_file(Path(path), config) if path is not None else config

    @classmethod
    def _from_file(cls, path: Path, base: VisionConfig) -> VisionConfig:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as error:
            raise ConfigError(f"{path} cannot be read ({error.strerror or error}).") from None
        except json.JSONDecodeError as error:
            raise ConfigError(f"{path} is not valid JSON (line {error.lineno}).") from None
        if not isinstance(data, dict):
            raise ConfigError(f"{path} must hold a JSON object of settings.")
        return base.with_overrides(data, source=str(path))

    def with_overrides(self, data: dict[str, Any], source: str = "the config") -> VisionConfig:
        known = {f.name: f for f in fields(self)}
        changes: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                raise ConfigError(f"{source} has an unknown setting '{key}'.")
            current = getattr(self, key)
            if isinstance(current, tuple):
                if not isinstance(value, list) or not all(
                    isinstance(v, int | float) for v in value
                ):
                    raise ConfigError(f"{source}: '{key}' must be a list of numbers.")
                changes[key] = tuple(float(v) for v in value)
            elif isinstance(value, bool) or not isinstance(value, int | float):
                raise ConfigError(f"{source}: '{key}' must be a number.")
            else:
                changes[key] = type(current)(value)
        return replace(self, **changes)
