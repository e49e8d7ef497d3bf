"""The screened match (vision.matching) against the plain product it stands for."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.matching import (
    _best_places,
    _group_bests,
    _integrals,
    _mask_margin,
    _screened_group_bests,
    _spectrum,
    _zoomed,
    align,
)
from vision.model import structure_vectors
from vision.recogniser import Recogniser
from vision.rectify import Pyramid, rectify


def _patches(recogniser: Recogniser, round_: bool, count: int) -> np.ndarray:
    """Faces cut slightly off (shifted, turned, scaled), with noise: real patches are
    never exactly a template, so the part outside the screening axes is not zero."""
    rng = np.random.default_rng(7)
    faces = recogniser.model.colour_templates.astype(np.uint8)
    size = faces.shape[1]
    out = []
    for _ in range(count):
        face = faces[rng.integers(len(faces))]
        angle = np.radians(rng.uniform(0, 360 if round_ else 8))
        scale = rng.uniform(0.9, 1.1)
        centre = np.array([size / 2, size / 2]) + rng.normal(0, 1.5, 2)
        corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * size / 2 * scale
        turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        patch = rectify(face, (corners @ turn.T + centre).astype(np.float32), size)
        noise = rng.normal(0, 12, patch.shape)
        out.append(np.clip(patch + noise, 0, 255).astype(np.uint8))
    return np.stack(out)


# the banks that are screened (the square set's small core bank is matched with the
# plain product: screening would not pay there)
@pytest.mark.parametrize(("round_", "core_only"), [(False, False), (True, False), (True, True)])
def test_screening_finds_the_same_two_best_groups_as_the_full_product(
    square_recogniser, round_recogniser, round_, core_only
):
    recogniser = round_recogniser if round_ else square_recogniser
    bank = recogniser.model.bank(round_)
    screen = bank.screen(core_only)
    assert screen is not None
    n_groups = len(recogniser.model.groups)
    vectors = structure_vectors(_patches(recogniser, round_, 60), bank)
    plain, plain_turn = _group_bests(vectors, bank, n_groups, core_only)
    screened, screened_turn = _screened_group_bests(vectors, screen, n_groups, None)
    top = np.argsort(-plain, axis=1)[:, :2]
    assert (np.argsort(-screened, axis=1)[:, :2] == top).all()
    rows = np.arange(len(vectors))[:, None]
    assert np.allclose(screened[rows, top], plain[rows, top], atol=1e-5)
    assert (screened_turn[rows, top] == plain_turn[rows, top]).all()
    # a group below the best two is never reported above its true best
    assert (screened <= plain + 1e-5).all()


def test_screening_leaves_out_groups_that_are_not_allowed(round_recogniser):
    bank = round_recogniser.model.round
    n_groups = len(round_recogniser.model.groups)
    allowed = np.array([name.startswith("token") for name in round_recogniser.model.group_names])
    vectors = structure_vectors(_patches(round_recogniser, True, 20), bank)
    plain, _ = _group_bests(vectors, bank, n_groups, False)
    plain[:, ~allowed] = -1.0
    screened, _ = _screened_group_bests(vectors, bank.screen(False), n_groups, allowed)
    assert (screened[:, ~allowed] == -1.0).all()
    assert (screened.argmax(axis=1) == plain.argmax(axis=1)).all()


def test_correlation_through_spectra_is_opencv_s_normalised_correlation(square_recogniser):
    """Each band transformed once must give what ``cv2.matchTemplate`` gives for every
    template: the same best fit at the same place."""
    bank = square_recogniser.model.square
    rng = np.random.default_rng(3)
    size = 64
    bands = np.stack(
        [cv2.GaussianBlur(rng.normal(0, 20, (size, size)), (0, 0), 1.5) for _ in range(6)]
    ).astype(np.float32)
    inner = _mask_margin(bank.mask)
    keys = sorted(bank.align)[:4]
    spectra = [cv2.dft(band) for band in bands]
    integrals = _integrals(bands)
    for zoom in (0.9, 1.1):
        chosen = [(b, key) for b in range(len(bands)) for key in keys]
        tries = [(b, *_spectrum(bank, key, zoom, inner, size)) for b, key in chosen]
        fits, places = _best_places(tries, spectra, integrals, tries[0][1])
        for (b, key), fit, place in zip(chosen, fits, places, strict=True):
            template = _zoomed(bank, key, zoom, inner)
            response = cv2.matchTemplate(bands[b], template, cv2.TM_CCOEFF_NORMED)
            _, want, _, at = cv2.minMaxLoc(response)
            assert fit == pytest.approx(want, abs=1e-5)
            assert tuple(place) == at


@pytest.mark.parametrize("round_", [False, True])
def test_group_bests_read_each_group_as_a_gather_of_its_columns_would(
    square_recogniser, round_recogniser, round_
):
    """The groups' columns read as slices where they lie side by side: the same best
    and the same first of equal values as a gather of each group's columns."""
    recogniser = round_recogniser if round_ else square_recogniser
    bank = recogniser.model.bank(round_)
    n_groups = len(recogniser.model.groups)
    vectors = structure_vectors(_patches(recogniser, round_, 12), bank)
    vectors[:3] = np.round(vectors[:3], 1)  # ties between templates
    for core_only in (True, False):
        templates, groups, turns = bank.columns(core_only)
        similarity = vectors @ templates
        best, turn = _group_bests(vectors, bank, n_groups, core_only)
        for g in range(n_groups):
            own = np.flatnonzero(groups == g)
            if not len(own):
                assert (best[:, g] == -1.0).all()
                continue
            arg = own[similarity[:, own].argmax(axis=1)]
            assert (best[:, g] == similarity[np.arange(len(vectors)), arg]).all()
            assert (turn[:, g] == turns[arg]).all()


def test_a_quad_asked_for_twice_aligns_as_it_does_alone(square_recogniser):
    """A quad given in several turns at once is cut once: each of its hypotheses moves
    it exactly as when the quad is aligned by itself."""
    model, config = square_recogniser.model, square_recogniser.config
    bank = model.square
    face = rectify(
        model.colour_templates[0].astype(np.uint8),
        np.array([[0, 0], [40, 0], [40, 40], [0, 40]], np.float32),
        40,
    )
    frame = np.full((200, 200, 3), 90, np.uint8)
    frame[60:140, 70:150] = cv2.resize(face, (80, 80), interpolation=cv2.INTER_LINEAR)
    pyramid = Pyramid(frame)
    quad = np.array([[66, 58], [146, 62], [144, 142], [64, 138]], np.float32)
    keys = sorted(bank.align)
    hypotheses = [[keys[0]], [keys[1]], [keys[0], keys[2]]]
    args = (bank, config.patch_px, config.align_zooms, config.align_reach)
    together = align(pyramid, [quad, quad.copy(), quad.copy()], hypotheses, *args)
    for hypothesis, (moved, fit) in zip(hypotheses, together, strict=True):
        [(alone, alone_fit)] = align(pyramid, [quad], [hypothesis], *args)
        assert fit == alone_fit
        assert np.array_equal(moved, alone)
