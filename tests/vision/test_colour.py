"""Colour under a lamp: the frame's light is estimated from the tiles' own faces."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.bitenight.tiles import COLOURS, Motif, Tile
from tests.vision.reading import hard_score
from vision.colour import (
    FitTable,
    FrameColours,
    chroma_faces,
    chroma_share,
    decide_member,
    estimate_gains,
    fit_residuals,
    kelvin_gains,
    masked_fit_residuals,
    quarter_turns_by_colour,
)
from vision.config import VisionConfig
from vision.model import build_model
from vision.rectify import patch_mask
from vision.synth.check_styles import check_set
from vision.tileset import TileSet


def _members(model, motif: Motif) -> tuple[list[int], np.ndarray]:
    group = model.group_names.index(motif.value)
    indices = list(model.groups[group])
    return indices, model.colour_templates[indices]


def _position(model, indices: list[int], tile: Tile) -> int:
    label = next(i for i, label in enumerate(model.labels) if label.tile == tile)
    return indices.index(label)


def test_a_warm_lamp_does_not_turn_yellow_into_red(square_set: TileSet):
    model = build_model(square_set, VisionConfig())
    mask = patch_mask(40, False)
    lamp = kelvin_gains(2700) ** 0.7
    patches, members, truths = [], [], []
    for colour, motif in zip(
        COLOURS, (Motif.VAMPIRE, Motif.MONK, Motif.MAIDEN, Motif.COFFIN, Motif.GARLIC), strict=True
    ):
        indices, templates = _members(model, motif)
        truth = _position(model, indices, Tile(colour, motif))
        patches.append(np.clip(templates[truth] * lamp * 0.9 + 8, 0, 255).astype(np.float32))
        members.append(templates)
        truths.append(truth)
    gains = estimate_gains(patches, members, mask, VisionConfig().illuminant_kelvins)
    assert gains[2] > gains[0]  # it saw the warm light
    chosen = [decide_member(p, m, gains, mask)[0] for p, m in zip(patches, members, strict=True)]
    assert chosen == truths


def test_the_fit_table_agrees_with_the_direct_fit():
    rng = np.random.default_rng(1)
    mask = patch_mask(40, True)
    patches = [rng.random((40, 40, 3)).astype(np.float32) * 255 for _ in range(2)]
    members = [rng.random((4, 40, 40, 3)).astype(np.float32) * 255 for _ in range(2)]
    gains = np.array([0.7, 1.0, 1.4])
    table = FitTable(patches, members, mask).residuals(gains)
    direct = np.stack(
        [fit_residuals(p, m, gains, mask) for p, m in zip(patches, members, strict=True)]
    )
    assert np.allclose(table, direct, atol=1e-4)


def test_a_fit_on_pixels_taken_out_beforehand_is_the_fit_on_the_whole_patch():
    # the same numbers, bit for bit: taking a piece's faces out once changes no verdict
    rng = np.random.default_rng(2)
    mask = patch_mask(40, False)
    patch = rng.random((3, 40, 40)).transpose(1, 2, 0) * 255  # as strided as a blurred piece
    faces = rng.random((5, 40, 40, 3)).astype(np.float32) * 255
    gains = np.array([0.8, 1.0, 1.3])
    assert np.array_equal(
        masked_fit_residuals(patch[mask], np.ascontiguousarray(faces[:, mask]), gains),
        fit_residuals(patch, faces, gains, mask),
    )


def test_a_heart_is_told_from_its_plain_twin_even_a_little_off_its_place(square_set: TileSet):
    model = build_model(square_set, VisionConfig())
    indices, templates = _members(model, Motif.GARLIC)
    heart = _position(model, indices, Tile.parse("blue-garlic-heart"))
    shifted = np.roll(templates[heart], (1, -2), axis=(0, 1))
    member, clarity = decide_member(shifted, templates, np.ones(3), patch_mask(40, False))
    assert member == heart and clarity > 0


def _faint_heart_group(round_set: TileSet, motif: Motif, strength: float):
    """The motif's faces with every heart drawn at ``strength`` of its contrast."""
    model = build_model(round_set, VisionConfig())
    indices, templates = _members(model, motif)
    faint = templates.copy()
    for k, i in enumerate(indices):
        tile = model.labels[i].tile
        if tile.heart:
            twin = _position(model, indices, Tile(tile.colour, tile.motif, False))
            faint[k] = templates[twin] + strength * (templates[k] - templates[twin])
    return faint


def _photographed(face: np.ndarray, shift: tuple[float, float], rng) -> np.ndarray:
    """A face as a piece comes out of a photo: off its place, duller, blurred, noisy."""
    matrix = np.float32([[1, 0, shift[0]], [0, 1, shift[1]]])
    moved = cv2.warpAffine(face, matrix, face.shape[1::-1], borderMode=cv2.BORDER_REPLICATE)
    dull = cv2.GaussianBlur(moved * 0.7 + 40, (0, 0), 0.8)
    return np.clip(dull + rng.normal(0, 3, dull.shape), 0, 255).astype(np.float32)


def test_a_faint_heart_a_pixel_off_its_place_is_told_from_its_plain_twin(round_set: TileSet):
    faint = _faint_heart_group(round_set, Motif.GARLIC, strength=0.5)
    mask = patch_mask(40, True)
    rng = np.random.default_rng(3)
    wrong = 0
    for k in range(len(faint)):
        for shift in ((1.3, -0.8), (-1.0, 1.2), (0.6, 1.4)):
            patch = _photographed(faint[k], shift, rng)
            wrong += decide_member(patch, faint, np.ones(3), mask)[0] != k
    assert wrong == 0


def test_a_frame_read_at_once_agrees_with_piece_by_piece(round_set: TileSet):
    model = build_model(round_set, VisionConfig())
    mask = patch_mask(40, True)
    lamp = kelvin_gains(9000) ** 0.6
    rng = np.random.default_rng(5)
    patches, members = [], []
    for motif in (Motif.VAMPIRE, Motif.MONK, Motif.MAIDEN, Motif.COFFIN, Motif.GARLIC):
        _, templates = _members(model, motif)
        for k in rng.choice(len(templates), 3, replace=False):
            patches.append(_photographed(templates[k] * lamp, (0.7, -0.5), rng))
            members.append(templates)
    kelvins = VisionConfig().illuminant_kelvins
    frame = FrameColours(patches, members, mask, kelvins)
    gains = estimate_gains(patches, members, mask, kelvins)
    assert np.allclose(frame.gains, gains)
    for k, (patch, templates) in enumerate(zip(patches, members, strict=True)):
        member, clarity = frame.decide(k)
        # a copy is not recognised as a piece of the frame just read: it is read alone
        alone_member, alone_clarity = decide_member(patch.copy(), templates, gains, mask)
        assert member == alone_member and np.isclose(clarity, alone_clarity)
        assert frame.decide(k, frozenset({0, 1}))[0] not in (0, 1)


def test_a_token_cut_too_large_and_off_its_place_keeps_its_colour(round_set: TileSet):
    model = build_model(round_set, VisionConfig())
    group = model.group_names.index("token")
    indices = list(model.groups[group])
    templates = model.colour_templates[indices]
    table = 45.0  # a dark table shows round the token
    shrink = np.float32([[0.72, 0, 4], [0, 0.72, 3]])  # the token fills 72 % of the cut
    for k in range(len(templates)):
        patch = cv2.warpAffine(
            templates[k], shrink, (40, 40), borderMode=cv2.BORDER_CONSTANT, borderValue=(table,) * 3
        )
        assert decide_member(patch, templates, np.ones(3), patch_mask(40, True))[0] == k


def test_a_strong_cool_lamp_on_figures_coloured_is_seen_and_undone(round_set: TileSet):
    """Round lantern faces carry their colour in the figure, not the ground: less of
    each face to judge the light by. Under this lamp (blue ×1.3, red ×0.6; read with
    neutral gains, most of these faces come out the wrong colour) every one is right."""
    model = build_model(round_set, VisionConfig())
    mask = patch_mask(40, True)
    lamp = np.array([1.3, 1.0, 0.6])  # BGR
    rng = np.random.default_rng(11)
    patches, members, truths = [], [], []
    for heart in (False, True):
        for colour, motif in zip(
            COLOURS,
            (Motif.GARLIC, Motif.COFFIN, Motif.MONK, Motif.MAIDEN, Motif.VAMPIRE),
            strict=True,
        ):
            indices, templates = _members(model, motif)
            truth = _position(model, indices, Tile(colour, motif, heart=heart))
            patches.append(_photographed(templates[truth] * lamp, (0.8, -0.6), rng))
            members.append(templates)
            truths.append(truth)
    gains = estimate_gains(patches, members, mask, VisionConfig().illuminant_kelvins)
    assert gains[0] > 1.1 and gains[2] < 0.8  # it saw the cool light
    chosen = [decide_member(p, m, gains, mask)[0] for p, m in zip(patches, members, strict=True)]
    assert chosen == truths


def test_two_faces_alike_everywhere_are_a_tie_read_with_no_clarity(round_set: TileSet):
    model = build_model(round_set, VisionConfig())
    _, templates = _members(model, Motif.MONK)
    doubled = np.concatenate([templates[:2], templates[1:2]])  # a set printed twice alike
    member, clarity = decide_member(doubled[1] * 0.9 + 5, doubled, np.ones(3), patch_mask(40, True))
    assert member in (1, 2) and clarity == 0.0


@pytest.mark.parametrize("blur", [1.8, 2.6])
def test_a_heart_on_a_soft_photo_is_told_from_its_plain_twin(
    square_set: TileSet, round_set: TileSet, blur: float
):
    # a heart's thin outline fits a soft photo worse than no heart does, unless the
    # faces are softened like the photo: as soft as a small tile on a soft photo (2.6
    # pixels of a 40 px patch: a 35 px tile under a blur of 1.4 px, resampled), too
    rng = np.random.default_rng(4)
    wrong = 0
    for tileset, round_ in ((square_set, False), (round_set, True)):
        model = build_model(tileset, VisionConfig())
        mask = patch_mask(40, round_)
        for motif in Motif:
            _, templates = _members(model, motif)
            for k in range(len(templates)):
                matrix = np.float32([[1, 0, 0.8], [0, 1, -0.6]])
                moved = cv2.warpAffine(
                    templates[k], matrix, (40, 40), borderMode=cv2.BORDER_REPLICATE
                )
                soft = cv2.GaussianBlur(moved * 0.7 + 40, (0, 0), blur)
                patch = np.clip(soft + rng.normal(0, 3, soft.shape), 0, 255).astype(np.float32)
                wrong += decide_member(patch, templates, np.ones(3), mask)[0] != k
    assert wrong == 0


def _heart_twins_misread(
    style: str, round_: bool, shifts: list[tuple[float, float]], seed: int, told: bool
) -> int:
    """How many of a check style's heart twins, each photographed off its place by each
    of ``shifts``, soft (1.5 px of 40) and noisy, are read as the other twin; ``told``:
    the colour stage is told which members are heart twins, as naming tells it."""
    model = build_model(check_set(style), VisionConfig())
    mask = patch_mask(40, round_)
    rng = np.random.default_rng(seed)
    twins = np.array([1, 0]) if told else None  # each the other's heart twin
    wrong = 0
    for members in model.groups:
        tiles = [model.labels[m].tile for m in members]
        if tiles[0] is None:
            continue
        for k, tile in enumerate(tiles):
            if not tile.heart:
                continue
            twin = tiles.index(Tile(tile.colour, tile.motif, False))
            pair = model.colour_templates[[members[k], members[twin]]]
            for truth in (0, 1):
                for shift in shifts:
                    matrix = np.float32([[1, 0, shift[0]], [0, 1, shift[1]]])
                    moved = cv2.warpAffine(
                        pair[truth], matrix, (40, 40), borderMode=cv2.BORDER_REPLICATE
                    )
                    soft = cv2.GaussianBlur(moved * 0.7 + 40, (0, 0), 1.5)
                    patch = np.clip(soft + rng.normal(0, 3, soft.shape), 0, 255).astype(np.float32)
                    read = decide_member(patch, pair, np.ones(3), mask, twins=twins)[0]
                    wrong += read != truth
    return wrong


def test_a_heart_two_or_three_pixels_off_its_place_on_a_soft_coin_is_told_from_its_twin():
    # a small tile is cut 2-3 px of a 40 px patch off its place (quilt seed 7 #3); with
    # the twins sliding only 1.5 px, four of these 40 readings of coins' maidens were wrong
    shifts = [(2.6, -2.2), (-2.4, 2.7), (2.8, 2.5), (-2.7, -2.4)]
    assert _heart_twins_misread("coins", True, shifts, seed=5, told=False) == 0


def _token_faces() -> tuple[list[str], np.ndarray]:
    """Five token faces in the way of a set whose figure is white on every colour: on
    the white token it does not show, and the face is plain."""
    names = ["black", "blue", "green", "red", "white"]
    bgr = [(40, 40, 40), (200, 90, 40), (60, 160, 60), (50, 50, 200), (245, 245, 245)]
    faces = np.zeros((len(names), 40, 40, 3), np.float32)
    for face, colour in zip(faces, bgr, strict=True):
        face[:] = colour
        cv2.rectangle(face, (14, 14), (25, 25), (245, 245, 245), -1)
    return names, faces


def test_a_plain_white_token_is_read_white_under_the_frame_s_brightness():
    # its free fit explains none of it by any face (any face at a scale near nought
    # leaves its noise as it is); with the scale the frame's other tokens show, only the
    # white face leaves it plain
    names, faces = _token_faces()
    mask = patch_mask(40, True)
    rng = np.random.default_rng(3)
    shown = [0, 1, 2, 3, 4]  # every face once, the white one last
    patches = [
        np.clip(0.8 * faces[k] + 10 + rng.normal(0, 1.5, faces[k].shape), 0, 255) for k in shown
    ]
    frame = FrameColours(patches, [faces] * len(patches), mask, gains=np.ones(3))
    plain = len(patches) - 1
    assert frame.residuals[plain].min() > 0.5
    assert names[frame.plain_member(plain)] == "white"
    for k in shown[:-1]:
        assert frame.plain_member(k) == k


def test_a_white_token_tinted_by_a_lamp_read_a_little_off_is_still_read_white():
    # the lamp the frame's tokens give is a little warm, the white token looks a little
    # blue: the free fit explains its tint by the blue face, whose figure would show at
    # the frame's brightness scale and does not (it shows at a few hundredths of it); the
    # white face, with the frame's scale, leaves it as it is
    names, faces = _token_faces()
    faces[4] = 238
    cv2.rectangle(faces[4], (14, 14), (25, 25), (250, 250, 250), -1)  # white on white
    mask = patch_mask(40, True)
    rng = np.random.default_rng(5)
    tint = np.float32([1.04, 1.0, 0.96])  # BGR: a cool lamp the frame's gains do not hold
    patches = [
        np.clip(0.8 * faces[k] * tint + 10 + rng.normal(0, 1.5, faces[k].shape), 0, 255)
        for k in range(len(faces))
    ]
    frame = FrameColours(patches, [faces] * len(patches), mask, gains=np.ones(3))
    white = len(patches) - 1
    assert names[frame.decide(white)[0]] != "white"  # the free fit's chance reading
    assert frame.residuals[white].min() < 0.5  # ...which looks like a fit
    assert frame.faint(white)
    assert names[frame.plain_member(white)] == "white"
    for k in range(white):
        assert not frame.faint(k) and frame.decide(k)[0] == k


def _banded_faces() -> np.ndarray:
    """Five faces alike but for the colour of a band across a pale ground, a black disc
    with a spike standing out of it (a garlic bulb on a banner)."""
    faces = []
    for colour in ((40, 200, 230), (200, 120, 50), (50, 50, 200), (80, 160, 60), (160, 60, 130)):
        face = np.full((40, 40, 3), (200, 190, 180), np.float32)
        face[16:26] = colour
        cv2.circle(face, (20, 23), 8, (20, 20, 25), -1)
        cv2.line(face, (20, 15), (20, 8), (20, 20, 25), 2)
        faces.append(face)
    return np.stack(faces)


def _lamps() -> np.ndarray:
    return np.array([np.ones(3), *(kelvin_gains(k) for k in VisionConfig().illuminant_kelvins)])


def test_a_piece_whose_colour_band_runs_across_its_faces_band_is_turned_a_quarter():
    # structure cannot turn a near-round figure whose band (yellow on pale grey) shows no
    # outline in grey; the colour says which way the band runs
    faces = _banded_faces()
    mask = patch_mask(40, False)
    chroma = chroma_faces(faces, _lamps(), mask)
    rng = np.random.default_rng(3)
    warm = kelvin_gains(3600) * 0.9
    yellow = np.clip(faces[0] * warm + rng.normal(0, 3, faces[0].shape), 0, 255)
    for structure_turn in range(4):
        cut = np.rot90(yellow, -structure_turn - 1).astype(np.float32)  # a quarter off
        quarter = quarter_turns_by_colour(cut[None], [structure_turn], [chroma], mask)[0]
        assert quarter in (1, 3)
        upright = np.rot90(cut, structure_turn + quarter)
        assert upright[21, 5:35].mean(axis=0)[0] < 120  # the band runs across again


def test_a_piece_whose_colour_lies_alike_turned_is_left_as_structure_turned_it():
    # a band turned by half, or a ground coloured all over round a centred figure, looks
    # the same turned: the colour says nothing there, and structure keeps the say
    faces = _banded_faces()
    mask = patch_mask(40, False)
    chroma = chroma_faces(faces, _lamps(), mask)
    upside_down = np.rot90(faces[1], 2).astype(np.float32)
    assert quarter_turns_by_colour(upside_down[None], [2], [chroma], mask) == [0]
    grounds = faces.copy()
    grounds[:] = faces[:, 16:17, :1]  # the band's colour all over
    for ground in grounds:
        cv2.rectangle(ground, (12, 12), (27, 27), (20, 20, 25), -1)
    ground_chroma = chroma_faces(grounds, _lamps(), mask)
    turned = np.rot90(grounds[3], 1).astype(np.float32)
    assert quarter_turns_by_colour(turned[None], [0], [ground_chroma], mask) == [0]


def test_a_heart_drawn_as_an_outline_round_the_figure_is_told_from_its_twin():
    # vesper draws its heart as a thin outline round the whole figure: the two faces
    # differ along a line that spans the face, and at half size, as the overall fit
    # reads them, the line is blurred away (seed 2024 #11: three hearts read plain,
    # clear in the photo); compared where they differ, the line decides
    shifts = [(1.2, -0.8), (-0.9, 1.1)]
    assert _heart_twins_misread("vesper", False, shifts, seed=6, told=True) == 0


def test_a_grey_piece_shows_none_of_its_coloured_face_s_colour(square_set: TileSet):
    # a die's pips may fit a face's figure in grey: the face itself shows all its
    # colour, however dim or bright, the same figure in grey none of it, and a warm
    # lamp's cast over the grey one, undone by the frame's light, is no colour either
    model = build_model(square_set, VisionConfig())
    mask = patch_mask(40, False)
    indices, templates = _members(model, Motif.VAMPIRE)
    member = _position(model, indices, Tile.parse("blue-vampire"))
    lamp = kelvin_gains(2700)
    face = templates[member].astype(np.float32)
    grey = np.repeat(face.mean(axis=2, keepdims=True), 3, axis=2)
    pieces = [face * lamp, (face * 0.5 + 20) * lamp, grey * lamp]
    frame = FrameColours(pieces, [templates] * 3, mask, gains=lamp)
    assert frame.colour_shown(0, member) == pytest.approx(1.0, abs=0.02)
    assert frame.colour_shown(1, member) == pytest.approx(1.0, abs=0.02)
    assert frame.colour_shown(2, member) < 0.01


def test_the_colour_shown_is_the_same_in_a_dim_piece_and_a_bright_one():
    rng = np.random.default_rng(3)
    pixels = rng.uniform(20, 200, (50, 3))
    assert chroma_share(pixels * 0.3 + 40) == pytest.approx(chroma_share(pixels))
    assert chroma_share(np.repeat(pixels[:, :1], 3, axis=1)) == pytest.approx(0.0, abs=1e-9)


def _lamp_frame(round_set: TileSet, led_by_tiles: bool, tiles_fit: bool) -> FrameColours:
    """Five tiles under a neutral-warm lamp, eight other pieces of the same set under a
    far warmer one (as tokens cut with a brown cloth round their edge read), learnt
    with or without the tiles leading; ``tiles_fit``: the tiles are their faces, else
    noise that fits none."""
    model = build_model(round_set, VisionConfig())
    mask = patch_mask(40, True)
    rng = np.random.default_rng(8)
    patches, members = [], []
    motifs = (Motif.VAMPIRE, Motif.MONK, Motif.MAIDEN, Motif.COFFIN, Motif.GARLIC)
    for k, motif in enumerate(motifs):
        _, templates = _members(model, motif)
        face = templates[2 * k] if tiles_fit else rng.uniform(0, 255, templates[0].shape)
        patches.append(_photographed(face * kelvin_gains(5200), (0.5, -0.4), rng))
        members.append(templates)
    for k in range(8):
        _, templates = _members(model, Motif.GARLIC)
        patches.append(_photographed(templates[k] * kelvin_gains(2500), (0.4, 0.6), rng))
        members.append(templates)
    leaders = np.arange(len(patches)) < 5 if led_by_tiles else None
    return FrameColours(patches, members, mask, VisionConfig().illuminant_kelvins, leaders=leaders)


def test_the_tiles_set_the_lamp_that_smaller_pieces_would_pull_aside(round_set: TileSet):
    # eight pieces under another light outweigh five tiles, unless the tiles lead
    tiles_lamp = kelvin_gains(5200)
    pulled = _lamp_frame(round_set, led_by_tiles=False, tiles_fit=True)
    led = _lamp_frame(round_set, led_by_tiles=True, tiles_fit=True)
    assert not pulled.led and led.led
    assert np.abs(pulled.gains / pulled.gains[1] - tiles_lamp).max() > 0.15
    assert np.abs(led.gains / led.gains[1] - tiles_lamp).max() < 0.05


def test_tiles_that_fit_no_face_clearly_do_not_set_the_lamp(round_set: TileSet):
    # on an empty table the "tiles" are print and dice: the lamp is every piece's
    alone = _lamp_frame(round_set, led_by_tiles=False, tiles_fit=False)
    unled = _lamp_frame(round_set, led_by_tiles=True, tiles_fit=False)
    assert not unled.led
    assert np.allclose(unled.gains, alone.gains)


def test_tokens_round_a_table_s_edge_do_not_turn_the_tiles_colours(style_recogniser):
    # hard level, seed 2024 #13 of doily (cream paper, the colour in a thin lace ring at
    # the edge): ten tokens on a dark brown cloth asked for a lamp far warmer than the
    # fifteen tiles did, and five tiles were read a colour off (reds as purples, purples
    # as blues). Led by the tiles, 14 of 15 are right
    score = hard_score(style_recogniser("doily"), 2024, 13)
    assert score.tiles_right >= 14 and score.false_positives == 0
