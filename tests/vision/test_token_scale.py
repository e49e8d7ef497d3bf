"""A token whose art forgives no size error is cut at its size from its own face."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.drawn import ringed_tokens
from vision.config import VisionConfig
from vision.matching import match_structure
from vision.model import build_model
from vision.pieces import scaled_quad
from vision.rectify import Pyramid
from vision.synth.scene import paste
from vision.token_scale import finest_token_sizes


def test_a_ringed_back_cut_a_little_too_large_is_found_at_its_size():
    tokens = ringed_tokens()
    config = VisionConfig()
    model = build_model(tokens, config)
    bank = model.round
    token_groups = np.array([n.startswith("token") for n in model.group_names])
    back = model.group_names.index("token-back")
    table = np.full((200, 200, 3), (215, 215, 210), np.uint8)
    paste(table, tokens.token_back, np.array([100.0, 100.0]), np.array([48.0, 48.0]), 0.0)
    table = cv2.GaussianBlur(table, (0, 0), 1.5)
    pyramid = Pyramid(table)
    at_size = np.array([[76, 76], [124, 76], [124, 124], [76, 124]], np.float32)
    # the mask swells a disc by the blur: cut 8 % large, and a pixel off its centre
    cut = scaled_quad(at_size, 1.08) + np.float32([1.0, -1.0])
    as_cut = match_structure(
        pyramid.rectify_many([cut], config.patch_px), bank, len(model.groups), False
    )
    assert as_cut[0].group != back or as_cut[0].score < config.accept_token_min
    [(quad, _, match)] = finest_token_sizes(
        pyramid, [cut], bank, len(model.groups), token_groups, config.patch_px
    )
    assert match.group == back and match.score >= config.accept_token_min
    assert abs(np.linalg.norm(quad[1] - quad[0]) / 48.0 - 1) < 0.05
