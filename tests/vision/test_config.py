"""Recognition settings: defaults from the file, overrides checked by name and type."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vision.config import ConfigError, VisionConfig


def test_the_defaults_file_matches_the_dataclass():
    assert VisionConfig.load() == VisionConfig()


def test_an_override_changes_only_its_setting(tmp_path: Path):
    path = tmp_path / "cafe.json"
    path.write_text(json.dumps({"accept_structure_min": 0.6, "align_zooms": [0.95, 1.05]}))
    config = VisionConfig.load(path)
    assert config.accept_structure_min == 0.6 and config.align_zooms == (0.95, 1.05)
    assert config.patch_px == VisionConfig().patch_px


def test_an_unknown_setting_is_refused(tmp_path: Path):
    path = tmp_path / "cafe.json"
    path.write_text(json.dumps({"accept_minimum": 0.6}))
    with pytest.raises(ConfigError, match="unknown setting 'accept_minimum'"):
        VisionConfig.load(path)


def test_a_setting_of_the_wrong_type_is_refused():
    with pytest.raises(ConfigError, match="must be a number"):
        VisionConfig().with_overrides({"patch_px": "forty"})
