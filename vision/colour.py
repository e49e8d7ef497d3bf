"""Stage 5: colour and heart under an unknown lamp.

A warm lamp multiplies red up and blue down; a camera's white balance undoes part of it,
never all. Judged by raw hue, yellow drifts towards orange and blue towards purple.
So the light is estimated for the whole frame from the objects themselves: every
candidate has already been matched in grey (structure does not care about the lamp),
which fixes *which* faces it may be; the frame's channel gains are then the ones under
which those faces explain the candidates best. A lamp is searched along the colour
temperatures of real light, then refined per channel (for a green or magenta cast).
Colour belongs to large areas, so all of this is done on half-size patches.

Each candidate's member (its colour, and whether it has a heart) is then the face of its
group that fits best under that light, with a per-object brightness and offset left free
(shading, a gradient, a shadow across one tile). Two members that come close (a heart
and its plain twin differ only in a small spot) are compared where they differ: in a
window round the spot, with brightness and contrast fitted there alone, and each member
allowed a small shift, so that a piece a pixel or two off its place cannot make the
wrong twin fit better than the right one. A piece that none of its faces explains
well was usually cut off its place (a token cut with the table round it): it is cut
again at the zoom and shift where its faces fit best before it is judged.

All of what the faces contribute is learnt once and kept; a frame costs a few small
matrix products (:class:`FrameColours` reads all of a frame's pieces at once).
"""

from __future__ import annotations

import functools
import math
import threading
from collections import OrderedDict
from dataclasses import dataclass

import cv2
import numpy as np

from vision.rectify import patch_mask
from vision.shared_arrays import locked

NEUTRAL_KELVIN = 6500.0
#: Blur (pixels of a 40 px patch) of a patch before two members are compared: only enough
#: to quiet the camera's noise, so that the blur the faces are given below is the photo's.
PAIR_BLUR = 0.5
#: ...and the blurs of the faces it is compared with: the one under which the piece's
#: first member fits it best stands for the photo's own blur there. A face sharper or
#: softer than the photo favours the wrong twin (a heart's thin outline, a dot, a pale
#: shape fit a soft patch worse or better than they should), so the choice must span the
#: blurs photos show: a patch of a small, soft tile (35 px, a blur of 1.4 px) is as soft
#: as a face blurred by 2 to 2.5 here, a sharp one as a face blurred by 0.5 to 1. With a
#: patch blurred by 1.0 and faces by 1.0 or 1.4 only, a quarter of the pieces of the hard
#: photos were softer than the softest face, and their hearts were a coin's toss: this
#: choice read 14 more hearts right on the hard photos of six styles (seeds 7, 31, 555,
#: 2024 and 99) and lost none; a patch left unblurred read about as well.
FACE_BLURS = (0.5, 1.0, 1.5, 2.0, 2.5)
#: Shifts (pixels of a 40 px patch, per axis) each of two close members may take: about
#: how far off its place the structure stage leaves a piece. Small tiles (33 px on the
#: hard photos) are left 2-3 px of 40 off, and their heart window then misses the heart:
#: with 1.5 px at most, quilt seed 7 #3's two hearts read plain (0.34 against 0.23), at
#: 3 px both read right. Up to 3 px read 11 more tiles right on six check styles' hard
#: photos (coins, stamp, banner, mosaic, quilt, compass; 2.25 px: 7, 4 px in steps of 1:
#: 10) and lost none: both twins may slide alike, so the freedom favours neither.
PAIR_SHIFTS = (-3.0, -2.25, -1.5, -0.75, 0.0, 0.75, 1.5, 2.25, 3.0)
#: The window round the pixels where two members differ (pixels of a 40 px patch): the
#: context that fixes the local brightness and contrast, and lets a shift be judged.
PAIR_CONTEXT = 4
#: Challengers within ``CLOSE_RATIO × champion + CLOSE_SLACK`` of the champion's overall
#: misfit are compared with it where the two differ.
CLOSE_RATIO, CLOSE_SLACK = 2.5, 0.02
#: Two members whose window covers more than this share of the face differ all over
#: (in colour): the overall fit judges them. Not heart twins (the same tile with and
#: without its heart): they share their colour, and a heart drawn as a thin outline
#: round the whole figure (vesper) spans the face, yet the overall fit, on half-size
#: patches, blurs the line away (vesper seed 2024 #11: three hearts clear in the photo
#: read plain, 0.002-0.02 apart).
LOCAL_SHARE = 0.5
#: A token's free reading gives way to a member whose free misfit is within this factor
#: of its own and whose misfit at the frame's brightness scale is lower by this much
#: (see :meth:`FrameColours.told_by_brightness`).
BRIGHTNESS_CLOSE, BRIGHTNESS_MARGIN = 1.5, 0.3
#: A piece whose best face leaves more than this share of its variance unexplained was
#: probably cut off its place (shifted, or with table round it): it is searched for.
POOR_FIT = 0.5
#: A frame's lamp is learnt from its tiles alone (a frame's ``leaders``) where at least
#: this many of them fit a face clearly under the lamp all its pieces give: their best face
#: leaves under :data:`CLEAR_FIT` of their variance unexplained (see :class:`FrameColours`).
#: Tiles read right fit at 0.11-0.18 even under a lamp their tokens pulled aside (doily
#: seed 2024 #13); an empty table's print and dice at 0.33-0.57 (moonrise's empty #3).
LEADERS_MIN = 3
CLEAR_FIT = 0.25
#: A piece whose best face (by the free fit) shows in it at under this share of the frame's
#: brightness scale holds that face's figure only by chance: a white token whose figure is
#: white too, its faint tint explained by a coloured face where the lamp is a little off
#: (its misfit at the frame's scale, (1 - 1/share)² at best, is then over 9).
FAINT_SCALE = 0.25
#: A face may fit a piece at no more than this many times the frame's brightness scale
#: (see :func:`bounded_residuals`): pieces read right came to at most 1.4 times it.
SCALE_MAX = 3.0
#: That search: zooms in (the central share of the cut) and shifts (share of its side).
SEARCH_ZOOMS = (1.0, 0.85, 0.7)
#: The colour stage leaves a patch's edge out (see :func:`vision.rectify.patch_mask`)
#: unless that edge holds more than this share of what tells a tile set's colours
#: apart; then it keeps the widest of :data:`EDGE_INSETS` that holds the rest.
EDGE_COLOUR_MAX = 0.5
EDGE_INSETS = (0.05, 0.025, 0.0)
SEARCH_SHIFTS = (-0.16, -0.08, 0.0, 0.08, 0.16)


def kelvin_gains(kelvin: float) -> np.ndarray:
    """BGR gains of a black-body light at ``kelvin`` relative to 6500 K (green kept at 1)."""

    def rgb(temp: float) -> np.ndarray:
        t = temp / 100.0
        red = 255.0 if t <= 66 else 329.7 * (t - 60) ** -0.1332
        green = 99.47 * math.log(t) - 161.12 if t <= 66 else 288.12 * (t - 60) ** -0.0755
        blue = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.52 * math.log(t - 10) - 305.04)
        return np.clip(np.array([blue, green, red]), 1, 255)

    gains = rgb(kelvin) / rgb(NEUTRAL_KELVIN)
    return gains / gains[1]


def upright(patch: np.ndarray, turn_deg: float) -> np.ndarray:
    """Undo a counter-clockwise turn of ``turn_deg`` (the template's turn) on a patch."""
    quarter = turn_deg / 90.0
    if abs(quarter - round(quarter)) < 1e-6:
        return np.ascontiguousarray(np.rot90(patch, k=round(quarter) % 4))
    size = patch.shape[0]
    matrix = cv2.getRotationMatrix2D(((size - 1) / 2, (size - 1) / 2), turn_deg, 1.0)
    return cv2.warpAffine(
        patch, matrix, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def fit_residuals(
    patch: np.ndarray, templates: np.ndarray, gains: np.ndarray, mask: np.ndarray
) -> np.ndarray:
    """How badly each template explains the patch under ``gains`` (0 = perfectly).

    ``patch`` P×P×3 and ``templates`` M×P×P×3; per template, the patch is fitted as
    ``a * gains * template + b`` with one brightness ``a ≥ 0`` and offset ``b``; the
    residual is the unexplained share of the patch's variance.
    """
    return masked_fit_residuals(patch[mask], templates[:, mask], gains)


def masked_fit_residuals(
    pixels: np.ndarray, templates: np.ndarray, gains: np.ndarray
) -> np.ndarray:
    """:func:`fit_residuals` of a patch's pixels on the mask (d×3) and the templates'
    (M×d×3), taken out beforehand: a piece's faces are taken out once, not at every fit.
    """
    x = pixels.astype(np.float32).ravel()
    flat = templates.reshape(len(templates), -1)
    # the gains repeated along the flat pixels: the same products as broadcasting them
    # over a last axis of 3, which NumPy does several times slower
    y = flat * np.tile(gains.astype(np.float32), flat.shape[1] // 3)
    xc = x - x.mean()
    yc = y - y.mean(axis=1, keepdims=True)
    var_y = np.maximum((yc * yc).sum(axis=1), 1e-6)
    a = np.maximum((yc @ xc) / var_y, 0.0)
    residual = ((xc[None, :] - a[:, None] * yc) ** 2).sum(axis=1)
    return residual / max(float(xc @ xc), 1e-6)


def half_size(images: np.ndarray) -> np.ndarray:
    """…×P×P×3 images at half size (2×2 means): enough for colour, a quarter of the work."""
    size = images.shape[-2] // 2 * 2
    even, odd = slice(0, size, 2), slice(1, size, 2)
    top = images[..., even, even, :] + images[..., even, odd, :]
    return (top + images[..., odd, even, :] + images[..., odd, odd, :]) * 0.25


def half_mask(mask: np.ndarray) -> np.ndarray:
    """The half-size pixels wholly inside ``mask``."""
    size = mask.shape[0] // 2 * 2
    return mask[:size, :size].reshape(size // 2, 2, size // 2, 2).all(axis=(1, 3))


def colour_mask(groups: list[np.ndarray], round_: bool, patch_px: int) -> np.ndarray:
    """The pixels of a patch the colour stage compares, learnt from the faces.

    ``groups``: for each group of faces that share a figure, its faces (M×P×P×3, one
    per colour and heart). What tells them apart is where they differ, pixel by pixel.
    Away from the edge is best (the table shows through there), and that is where most
    tile sets put their colour: a ground, a figure. But a face may carry its colour in
    a thin frame round its edge alone (white paper, a black figure, a coloured border):
    a mask that left the edge out would see no colour at all, and read every tile's
    colour by chance. So the edge is kept, as narrowly as will do, where it holds most
    of the difference.
    """
    size = patch_px
    standard = patch_mask(size, round_)
    spread = [
        half_size(faces.astype(np.float32)).var(axis=0).sum(axis=-1)
        for faces in groups
        if len(faces) > 1
    ]
    if not spread:
        return standard
    signal = np.sum(spread, axis=0)
    total = float(signal.sum())
    for mask in (standard, *(patch_mask(size, round_, inset) for inset in EDGE_INSETS)):
        if float(signal[half_mask(mask)].sum()) >= (1 - EDGE_COLOUR_MAX) * total:
            return mask
    return patch_mask(size, round_, 0.0)


# -- what is learnt once from a group's faces --------------------------------------------


@dataclass(frozen=True, eq=False)
class _Faces:
    """A group's faces reduced to what the fits need; independent of any frame."""

    pixels: np.ndarray  # M×d×3 float64: the faces at half size, on the half-size mask
    square: np.ndarray  # M×3 per-channel sums of squares of ``pixels``
    total: np.ndarray  # M×3 per-channel sums
    blurred: np.ndarray  # B×M×P×P×3 float32: full size, blurred by each of FACE_BLURS
    on_mask: np.ndarray  # M×B×d×3 float32: ``blurred`` on the mask, member by member


@dataclass(frozen=True, eq=False)
class _Pair:
    """Two faces of a group, where they differ, at every allowed shift.

    The fit of ``a * gains * face + b`` over the window is kept as weighted sums per
    shift and channel (the first face's shifts, then the second's), so a patch's error
    for every shift of both faces is one matrix product.
    """

    local: bool  # the two differ in a part of the face only
    take: np.ndarray  # 3K: the window's pixels in a channel-major (3×P×P) patch
    weight: np.ndarray  # 3K: how much each of them says about the pair
    weight_total: float
    faces: np.ndarray  # 2S×3K float32 weighted shifted pixels, channel-major
    linear: np.ndarray  # 2S×3 weighted sums
    quadratic: np.ndarray  # 2S×3 weighted sums of squares


def _learn_faces(templates: np.ndarray, mask: np.ndarray) -> _Faces:
    pixels = np.ascontiguousarray(half_size(templates)[:, half_mask(mask)], np.float64)
    scale = templates.shape[1] / 40
    blurred = np.stack(
        [
            [cv2.GaussianBlur(face, (0, 0), blur * scale) for face in templates.astype(np.float32)]
            for blur in FACE_BLURS
        ]
    )
    on_mask = np.ascontiguousarray(blurred[:, :, mask].transpose(1, 0, 2, 3))
    return _Faces(pixels, (pixels * pixels).sum(axis=1), pixels.sum(axis=1), blurred, on_mask)


def _learn_pair(a: np.ndarray, b: np.ndarray, mask: np.ndarray, twins: bool = False) -> _Pair:
    """Where two (blurred) faces differ, and both faces at every allowed shift there;
    ``twins``: heart twins, compared there however much of the face that is
    (:data:`LOCAL_SHARE`).

    A pixel's weight is the blurred difference itself plus a floor, so the context round
    a heart (the figure it sits on) still fixes the local brightness and contrast.
    """
    size = a.shape[0]
    scale = size / 40
    difference = cv2.GaussianBlur(np.abs(a - b).sum(axis=2), (0, 0), scale)
    difference[~mask] = 0.0
    peak = max(float(difference.max()), 1e-6)
    spot = (difference > 0.2 * peak).astype(np.uint8)
    reach = 2 * round(PAIR_CONTEXT * scale) + 1
    window = cv2.dilate(spot, np.ones((reach, reach), np.uint8)).astype(bool) & mask
    rows, cols = np.nonzero(window)
    all_over = not twins and len(rows) > LOCAL_SHARE * mask.sum()
    if all_over or not len(rows):  # no window
        nothing = np.zeros((0, 3))
        return _Pair(False, nothing, nothing, 1.0, nothing, nothing, nothing)
    weight = difference[rows, cols].astype(np.float64) + 0.1 * peak
    flat = rows * size + cols
    # only the window (and what a shift brings into it) is moved
    margin = math.ceil(max(abs(d) for d in PAIR_SHIFTS) * scale) + 2
    top, left = max(int(rows.min()) - margin, 0), max(int(cols.min()) - margin, 0)
    bottom, right = min(int(rows.max()) + margin + 1, size), min(int(cols.max()) + margin + 1, size)
    crops = np.stack([a[top:bottom, left:right], b[top:bottom, left:right]])
    crops = crops.transpose(0, 3, 1, 2).astype(np.float64)  # face, channel, row, column
    down = np.stack([_shift_matrix(bottom - top, d * scale) for d in PAIR_SHIFTS])
    across = np.stack([_shift_matrix(right - left, d * scale) for d in PAIR_SHIFTS])
    # face f moved by (PAIR_SHIFTS[x], PAIR_SHIFTS[y]) is down[y] @ crop @ across[x].T
    sideways = crops[:, None] @ across.transpose(0, 2, 1)[None, :, None]  # f, x, c, r, col
    moved = down[None, :, None, None] @ sideways[:, None]  # f, y, x, c, r, col
    shifted = moved[..., rows - top, cols - left].reshape(-1, 3, len(rows))  # 2S×3×K
    weighted = shifted * weight
    return _Pair(
        local=True,
        take=np.concatenate([flat + channel * size * size for channel in range(3)]),
        weight=np.tile(weight, 3),
        weight_total=3 * float(weight.sum()),
        faces=weighted.reshape(len(shifted), -1).astype(np.float32),
        linear=weighted.sum(axis=2),
        quadratic=(weighted * shifted).sum(axis=2),
    )


@functools.lru_cache(maxsize=256)
def _shift_matrix(length: int, shift: float) -> np.ndarray:
    """``length``×``length`` linear interpolation that moves a row of pixels by ``shift``
    (the edge pixel repeated), as a matrix: ``moved = matrix @ row``."""
    source = np.clip(np.arange(length) - shift, 0, length - 1)
    low = np.floor(source).astype(int)
    high = np.minimum(low + 1, length - 1)
    part = source - low
    matrix = np.zeros((length, length))
    np.add.at(matrix, (np.arange(length), low), 1 - part)
    np.add.at(matrix, (np.arange(length), high), part)
    return locked(matrix)


class _Memory:
    """Faces and pairs already learnt, found again by the faces' content.

    A few tile sets' worth are kept (a pair's shifted faces take some 200 kB); a
    server with one recogniser per tile set learns each pair once.
    """

    def __init__(self, limit: int = 32) -> None:
        self.faces: OrderedDict[tuple, _Faces] = OrderedDict()
        self.pairs: OrderedDict[tuple, _Pair] = OrderedDict()
        self.padded: OrderedDict[tuple, _Padded] = OrderedDict()
        self.limit = limit
        self.lock = threading.Lock()

    @staticmethod
    def key(templates: np.ndarray, mask_key: int) -> tuple:
        """What finds a group's faces again: a sample of their pixels (every fifth row
        and column tells any two different faces apart) and the mask's own key."""
        sample = np.ascontiguousarray(templates[:, ::5, ::5]).tobytes()
        return templates.shape, hash(sample), mask_key

    def learn_faces(self, key: tuple, templates: np.ndarray, mask: np.ndarray) -> _Faces:
        return self._keep(self.faces, key, lambda: _learn_faces(templates, mask), self.limit)

    def learn_pair(
        self,
        key: tuple,
        faces: _Faces,
        i: int,
        j: int,
        mask: np.ndarray,
        blur: int = 0,
        twins: bool = False,
    ) -> _Pair:
        """Faces ``i`` and ``j`` compared where they differ, at ``FACE_BLURS[blur]``
        (``twins``: see :func:`_learn_pair`)."""
        return self._keep(
            self.pairs,
            (key, i, j, blur, twins),
            lambda: _learn_pair(faces.blurred[blur, i], faces.blurred[blur, j], mask, twins),
            16 * self.limit,  # a pair holds some 200 kB
        )

    def learn_padded(self, key: tuple, templates: np.ndarray, mask: np.ndarray) -> _Padded:
        """A group's faces laid on black and blurred (:func:`edge_mixed_residuals`)."""
        return self._keep(self.padded, key, lambda: _learn_padded(templates, mask), self.limit)

    def _keep(self, store: OrderedDict, key: tuple, make, limit: int):
        with self.lock:  # a server may read several cameras' frames at once
            found = store.get(key)
            if found is None:
                found = store[key] = make()
                if len(store) > limit:
                    store.popitem(last=False)  # the longest unused
            else:
                store.move_to_end(key)
            return found


_MEMORY = _Memory()


# -- a face's edge mixed with what lies beyond it --------------------------------------------

#: How far beyond a piece's edge (a share of its patch's side, each way) the frame is cut to
#: see what lies there (:func:`edge_mixed_residuals`): a blur of 2.5 px of 40 reaches 5 px.
BEYOND_MARGIN = 0.125


#: Pieces read at once by :func:`edge_mixed_residuals_many` (as an image's channels: OpenCV
#: blurs up to 512).
_EDGE_BATCH = 128


def beyond_margin(patch_px: int) -> int:
    """The pixels cut beyond each edge of a ``patch_px`` patch (:data:`BEYOND_MARGIN`)."""
    return round(BEYOND_MARGIN * patch_px)


@dataclass(frozen=True, eq=False)
class _Padded:
    """A group's faces laid on black beyond their edge and blurred by each of
    :data:`FACE_BLURS`, on the mask; and how much of each pixel the face itself gives."""

    by_channel: np.ndarray  # B×3×M×d float32: the faces, channel by channel
    inside: np.ndarray  # B×d float64: the blurred indicator of the face (1 inside, 0 beyond)
    margin: int
    square: np.ndarray  # B×M×3: each channel of each blurred face times itself
    linear: np.ndarray  # B×M×3: ...and times ``inside``
    beyond: np.ndarray  # B×W×W×1 float32: where it does not (1 - the face's share)
    taken: np.ndarray  # d: the mask's pixels as flat indices into the wide cut


#: The share of a piece's patch its face may fill (:func:`edge_mixed_residuals`): a cut
#: a pixel or two too large each way (of 40) shows the table inside its own edge.
EDGE_ZOOMS = (1.0, 0.95, 0.9)


def _edge_variants(size: int) -> list[tuple[float, float]]:
    """Each (blur in pixels, zoom) a face is fitted at, blur by blur."""
    return [(blur * size / 40, zoom) for blur in FACE_BLURS for zoom in EDGE_ZOOMS]


@functools.lru_cache(maxsize=16)
def _laid(size: int, margin: int, zoom: float) -> np.ndarray:
    """Where a face filling ``zoom`` of a ``size`` patch lies in the cut ``margin`` wider
    (2×3 affine matrix from the face's pixels to the wide cut's)."""
    wide = size + 2 * margin
    shift = (wide - 1) / 2 - zoom * (size - 1) / 2
    return locked(np.float32([[zoom, 0, shift], [0, zoom, shift]]))


def _lay(image: np.ndarray, size: int, margin: int, zoom: float) -> np.ndarray:
    """``image`` (a face, or its indicator) laid at ``zoom`` on black in the wide cut."""
    wide = size + 2 * margin
    return cv2.warpAffine(
        image,
        _laid(size, margin, zoom),
        (wide, wide),
        flags=cv2.INTER_AREA if zoom < 1 else cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=0,
    )


def _learn_padded(templates: np.ndarray, mask: np.ndarray) -> _Padded:
    size = templates.shape[1]
    margin = beyond_margin(size)
    inner = slice(margin, margin + size)
    ones = np.ones((size, size), np.float32)
    faces, inside, laid = [], [], []
    for blur, zoom in _edge_variants(size):
        where = _lay(ones, size, margin, zoom)
        laid.append(where)
        inside.append(cv2.GaussianBlur(where, (0, 0), blur)[inner, inner][mask])
        blurred = [
            cv2.GaussianBlur(_lay(face, size, margin, zoom), (0, 0), blur)[inner, inner]
            for face in templates.astype(np.float32)
        ]
        faces.append(np.stack(blurred)[:, mask])
    stacked = np.asarray(faces, np.float64)
    inside_ = np.asarray(inside, np.float64)
    return _Padded(
        locked(np.ascontiguousarray(stacked.transpose(0, 3, 1, 2), np.float32)),
        locked(inside_),
        margin,
        locked((stacked * stacked).sum(axis=2)),
        locked(np.einsum("bmdc,bd->bmc", stacked, inside_)),
        locked((1.0 - np.stack(laid))[..., None].astype(np.float32)),
        locked(_wide_indices(mask, margin)),
    )


def _wide_indices(mask: np.ndarray, margin: int) -> np.ndarray:
    """The pixels of ``mask`` as flat indices into a cut ``margin`` wider each way."""
    rows, cols = np.nonzero(mask)
    return (rows + margin) * (mask.shape[1] + 2 * margin) + cols + margin


def edge_mixed_residuals(
    patch: np.ndarray,
    beyond: np.ndarray,
    templates: np.ndarray,
    gains: np.ndarray,
    mask: np.ndarray,
) -> np.ndarray:
    """How badly each face explains a piece whose edge pixels mix the face with what lies
    beyond it (M shares of the patch's variance on ``mask``, as :func:`fit_residuals`).

    A photo's pixel at a piece's edge is a blur of the face and of the table (or the next
    piece) beside it. Where a set carries its colour at the edge (a thin coloured frame),
    those pixels are much of what tells its colours apart, and the mix misleads: a blue
    frame on a red cloth reads purple, a red one on a cream cloth yellow. So each face is
    laid on what the frame shows beyond the piece (``beyond``: the piece cut
    :data:`BEYOND_MARGIN` wider each way, upright like ``patch``), blurred as the photo
    is, and fitted as ``a * gains * face + b`` where the face lies, the surroundings as
    they are. The blur (one of :data:`FACE_BLURS`) and the share of the patch the face
    fills (:data:`EDGE_ZOOMS`: a cut a little too large shows the table inside its own
    edge) are those under which the best face fits best: the photo's own. Learnt once per
    group of faces (kept with the faces).
    """
    return edge_mixed_residuals_many(patch[None], beyond[None], templates, gains, mask)[0]


def edge_mixed_residuals_many(
    patches: np.ndarray,
    beyond: np.ndarray,
    templates: np.ndarray,
    gains: np.ndarray,
    mask: np.ndarray,
    key: tuple | None = None,
) -> np.ndarray:
    """:func:`edge_mixed_residuals` for N pieces of one group at once (N×P×P×3 patches,
    N×W×W×3 wider cuts): N×M. ``key``: the faces' :meth:`_Memory.key`, where the caller
    has it already (None: made here)."""
    count, size = len(patches), patches.shape[1]
    if key is None:
        key = _Memory.key(templates, hash(np.packbits(mask).tobytes()))
    padded = _MEMORY.learn_padded(key, templates, mask)
    x = patches.astype(np.float64)[:, mask]  # N×d×3
    xc = x - x.mean(axis=(1, 2), keepdims=True)
    energy = np.maximum((xc * xc).sum(axis=(1, 2)), 1e-6)[:, None, None]
    # the pieces side by side as channels of one image: one blur a variant for all
    wide = np.ascontiguousarray(beyond.astype(np.float32).transpose(1, 2, 0, 3))
    wide = wide.reshape(*wide.shape[:2], -1)
    variants = _edge_variants(size)
    # the photo's blur first, with the face filling the patch; then the face smaller
    # at that blur
    sharp = [v for v, (_, zoom) in enumerate(variants) if zoom == 1.0]
    shares = _variant_shares(x, wide, padded, gains, mask, sharp) / energy  # N×V×M
    fits_best = shares.min(axis=2).argmin(axis=1)  # each piece's variant
    blurs = np.array(sharp)[fits_best]
    best = shares[np.arange(count), fits_best]  # N×M
    for first in sorted(set(blurs.tolist())):
        pieces = np.flatnonzero(blurs == first)
        blur = variants[first][0]
        smaller = [v for v, (b, zoom) in enumerate(variants) if b == blur and zoom < 1.0]
        if not smaller:
            continue
        channels = (pieces[:, None] * 3 + np.arange(3)).ravel()
        more = (
            _variant_shares(
                x[pieces], np.ascontiguousarray(wide[..., channels]), padded, gains, mask, smaller
            )
            / energy[pieces]
        )
        both = np.concatenate([best[pieces, None], more], axis=1)  # n×(1+V)×M
        best[pieces] = both[np.arange(len(pieces)), both.min(axis=2).argmin(axis=1)]
    return best


def _variant_shares(
    x: np.ndarray,
    wide: np.ndarray,
    padded: _Padded,
    gains: np.ndarray,
    mask: np.ndarray,
    chosen: list[int],
) -> np.ndarray:
    """N×V×M: each face's unexplained sum of squares under each of the ``chosen``
    variants (:func:`_edge_variants`) of :func:`edge_mixed_residuals`, ``x`` the pieces on
    the mask (N×d×3) and ``wide`` their wider cuts as one W×W×3N image."""
    count = len(x)
    variants = _edge_variants(mask.shape[0])
    outside = np.stack(
        [
            cv2.GaussianBlur(wide * padded.beyond[v], (0, 0), variants[v][0]).reshape(-1, count, 3)[
                padded.taken
            ]
            for v in chosen
        ],
        axis=1,
    )  # d×V×N×3
    t = x.transpose(1, 0, 2)[:, None] - outside  # d×V×N×3: what face and offset explain
    t = np.ascontiguousarray(t.transpose(2, 1, 3, 0))  # N×V×3×d
    # the least squares of t on a * gains * face + offset * inside, per variant and face;
    # per channel: the faces (V×3×M×d) times t's channel
    faces = padded.by_channel[chosen]
    cross = np.matmul(faces[None], t.astype(np.float32)[..., None])[..., 0]  # N×V×3×M
    sut = np.einsum("nvcm,c->nvm", cross, gains)
    suu = (padded.square[chosen] @ (gains * gains))[None]  # 1×V×M
    suv = (padded.linear[chosen] @ gains)[None]
    v = padded.inside[chosen]  # V×d
    svv = 3 * (v * v).sum(axis=1)[None, :, None]
    svt = np.einsum("vd,nvcd->nv", v, t)[..., None]
    stt = (t * t).sum(axis=(2, 3))[..., None]
    det = np.maximum(suu * svv - suv * suv, 1e-9)
    a = np.maximum((sut * svv - svt * suv) / det, 0.0)
    off = (svt - a * suv) / np.maximum(svv, 1e-9)
    left = stt - 2 * a * sut - 2 * off * svt + a * a * suu + 2 * a * off * suv + off * off * svv
    return np.maximum(left, 0.0)


#: How much larger than its cut a piece's face may lie in the frame (:func:`grown_zoom`).
CUT_GROWTHS = (1.0, 1.05, 1.1, 1.15, 1.2)
#: ...its faces blurred (pixels of a 40 px patch) about as a sharp photo is (see
#: :data:`FACE_BLURS`): a sharp face's edge fits a blurred piece's best a step too large.
#: Blurred so, doily read 2 tiles more on seeds 2024 and 7 (hard), and mosaic's loss of
#: a tile went.
GROWTH_BLUR = 1.0
#: A group is cut again only where a cut this much too small loses more than
#: :data:`EDGE_COLOUR_MAX` of what tells its colours apart (:func:`rim_colour_share`).
RIM_GROWTH = 1.1


def rim_colour_share(faces: np.ndarray, mask: np.ndarray, round_: bool) -> float:
    """The share of what tells a group's faces (M×P×P×3) apart, on ``mask``, that lies
    outside the middle ``1 / RIM_GROWTH`` of the face: what a cut that much too small
    leaves out.

    Only there does a cut's size decide the colour: doily's card shows a pixel wide past
    its lace (0.6 of its colour lies in that rim), stamp's tiles a thin frame (0.9). A
    ring as wide as stamp's tokens' (0.2 in the rim), or a colour the mask holds away
    from the edge, is read as well from a cut a little small; there the grey fit of the
    scale, unsure by a pixel of blur, only costs (stamp: white tokens grown by 1.05
    read black, 5 of 83).
    """
    if len(faces) < 2:
        return 0.0
    size = faces.shape[1]
    spread = faces.astype(np.float32).var(axis=0).sum(axis=-1) * mask
    centre = (size - 1) / 2
    rows, cols = np.mgrid[0:size, 0:size] - centre
    reach = size / 2 / RIM_GROWTH
    middle = np.hypot(rows, cols) <= reach if round_ else np.maximum(abs(rows), abs(cols)) <= reach
    total = float(spread.sum())
    return 1.0 - float(spread[middle].sum()) / total if total > 0 else 0.0


def laid_faces(faces: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A group's faces (M×P×P×3) in grey, their mean laid at each of :data:`CUT_GROWTHS`
    in a cut :func:`beyond_margin` wider (G×W×W), and where each lies (G×W×W bool, the
    mask laid alike): what :func:`grown_zoom` compares a wide cut with, learnt once."""
    size = faces.shape[1]
    margin = beyond_margin(size)
    grey = faces.astype(np.float32).mean(axis=(0, 3))
    shape = mask.astype(np.float32)
    blur = GROWTH_BLUR * size / 40
    laid = np.stack(
        [cv2.GaussianBlur(_lay(grey, size, margin, zoom), (0, 0), blur) for zoom in CUT_GROWTHS]
    )
    where = np.stack([_lay(shape, size, margin, zoom) >= 0.99 for zoom in CUT_GROWTHS])
    return laid, where


def grown_zoom(wide: np.ndarray, laid: np.ndarray, where: np.ndarray) -> float:
    """How much larger than its cut a piece lies in the frame: the one of
    :data:`CUT_GROWTHS` at which its group's faces (:func:`laid_faces`) fit its wide cut
    (upright, :func:`beyond_margin` wider each way) best in grey, each where it lies.

    A set that carries its colour in a thin ring at its edge is cut where its face's
    ground ends when the ring is as dark as the table, or a hole ring inside it looks
    like an edge (doily: a white paper lace on a card of the colour, the card showing a
    pixel wide past the scallops; the cut's outline was the paper's). The ring then lies
    outside the patch and the colour is read from the paper's white: red read as yellow,
    the colour nearest the paper, 16 times on the hard photos of seeds 2024 and 7. Of the
    tiles misread there, 24 of 61 fitted a cut grown by 1.1-1.25 best (of those read
    right, 50 of 370); cut again at the size that fits best, 41 colours misread became
    18 (first measure), and doily read 24 tiles and 12 tokens more on those photos
    (stamp 3 tiles), none fewer. Grey structure says the scale, colour apart; a cut too
    large is the edge fit's to allow (:data:`EDGE_ZOOMS`).
    """
    grey = wide.astype(np.float32).mean(axis=2)
    misfits = []
    for face, inside in zip(laid, where, strict=True):
        x, y = grey[inside], face[inside]
        x, y = x - x.mean(), y - y.mean()
        energy = float(x @ x) * float(y @ y)
        misfits.append(1.0 - float(x @ y) ** 2 / energy if energy > 0 else 1.0)
    return CUT_GROWTHS[int(np.argmin(misfits))]


# -- fits ----------------------------------------------------------------------------------


class FitTable:
    """Everything :func:`fit_residuals` needs for many patches at once, for any gains.

    With the patch centred, the fit of ``a * gains * template + b`` depends on the
    gains only through per-channel sums, which are computed once here (one matrix
    product per group of faces); trying a lamp then costs a few array operations for
    the whole frame instead of a pass over every pixel of every candidate.
    """

    def __init__(
        self,
        patches: list[np.ndarray],
        member_templates: list[np.ndarray],
        mask: np.ndarray,
        *,
        face_pixels: list[np.ndarray] | None = None,
    ) -> None:
        """``face_pixels`` (optional): each patch's faces already on the mask (M×D×3);
        patches sharing one array share the work on it."""
        n = len(patches)
        m = max((len(t) for t in member_templates), default=1)
        self.cross = np.zeros((n, m, 3))  # centred patch · template channel
        self.square = np.ones((n, m, 3))  # template channel · itself
        self.total = np.zeros((n, m, 3))  # sum of template channel
        self.valid = np.zeros((n, m), bool)
        self.size = float(mask.sum() * 3)
        self.energy = np.ones(n)  # centred patch · itself
        self.seen = np.zeros((n, 3))  # patch channel means
        self.means = np.zeros((n, m, 3))  # template channel means
        if not n:
            return
        x = np.ascontiguousarray(np.stack(patches)[:, mask], np.float64)  # N×D×3
        self.seen = x.mean(axis=1)
        xc = x - x.mean(axis=(1, 2), keepdims=True)
        self.energy = (xc * xc).sum(axis=(1, 2))
        if face_pixels is None:
            face_pixels = [np.ascontiguousarray(t[:, mask], np.float64) for t in member_templates]
        by_faces: dict[int, list[int]] = {}
        for i, y in enumerate(face_pixels):
            by_faces.setdefault(id(y), []).append(i)
        for pieces in by_faces.values():
            y = face_pixels[pieces[0]]  # M×D×3
            k = len(y)
            # per channel: (pieces × D) @ (D × M)
            cross = np.matmul(xc[pieces].transpose(2, 0, 1), y.transpose(2, 1, 0))
            self.cross[pieces, :k] = cross.transpose(1, 2, 0)
            self.square[pieces, :k] = (y * y).sum(axis=1)
            self.total[pieces, :k] = y.sum(axis=1)
            self.valid[pieces, :k] = True
        self.means = self.total / max(float(mask.sum()), 1.0)  # template channel means

    def residuals(self, gains: np.ndarray) -> np.ndarray:
        """N×M unexplained shares of variance (inf where a patch has fewer members)."""
        return self.residuals_under(np.asarray(gains, np.float64)[None])[..., 0]

    def residuals_under(self, lamps: np.ndarray) -> np.ndarray:
        """N×M×L residuals under each of L lamps (L×3 gains) at once."""
        covariance = self.cross @ lamps.T
        variance = self.square @ (lamps * lamps).T - (self.total @ lamps.T) ** 2 / self.size
        explained = held_explained(covariance, variance, None)
        out = 1.0 - explained / np.maximum(self.energy, 1e-9)[:, None, None]
        return np.where(self.valid[..., None], out, np.inf)


def frame_scale(table: FitTable, gains: np.ndarray, residuals: np.ndarray) -> float | None:
    """The frame's brightness scale: the median ``a`` of ``a * gains * face + b`` over the
    pieces their best faces fit well (``residuals`` under :data:`POOR_FIT`); None where
    none does."""
    fitted = residuals.min(axis=1, initial=np.inf) < POOR_FIT
    if not fitted.any():
        return None
    scale = _scales(table, gains)
    best = residuals.argmin(axis=1)
    return float(np.median(scale[np.flatnonzero(fitted), best[fitted]]))


def _moments(table: FitTable, gains: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each patch's covariance with each face under ``gains`` (N×M), and each face's
    variance under them (M): what every fit with the offset free is made of."""
    covariance = table.cross @ gains
    variance = table.square @ (gains * gains) - (table.total @ gains) ** 2 / table.size
    return covariance, variance


def _scales(table: FitTable, gains: np.ndarray) -> np.ndarray:
    """N×M: each face's free brightness scale ``a`` on each patch (may be negative)."""
    covariance, variance = _moments(table, gains)
    return covariance / np.maximum(variance, 1e-9)


def _misfits_at(table: FitTable, gains: np.ndarray, scale: np.ndarray | float) -> np.ndarray:
    """N×M shares of each patch's variance a face leaves unexplained at brightness scale
    ``scale`` (N×M, or one for all), the offset free."""
    covariance, variance = _moments(table, gains)
    misfit = table.energy[:, None] - 2 * scale * covariance + scale**2 * variance
    misfit /= np.maximum(table.energy, 1e-9)[:, None]
    return np.where(table.valid, misfit, np.inf)


def pinned_misfits(
    table: FitTable, gains: np.ndarray, residuals: np.ndarray, scale: float | None = None
) -> np.ndarray:
    """N×M shares of each patch's variance a face leaves unexplained when its brightness
    scale is pinned to the frame's (``scale``, by default :func:`frame_scale`), only the
    offset left free; the free residuals where no piece fits well.

    The free fit (``a * gains * face + b``) explains a plain patch, a white token whose
    figure is white too, by no face at all: any face at a scale near nought leaves the
    patch's little variance as it is, so the best fit is chance. With the scale pinned, a
    face's own figure or colour must show in the patch: only a plain face of the patch's
    own hue fits it.
    """
    if scale is None:
        scale = frame_scale(table, gains, residuals)
    if scale is None:
        return residuals
    return _misfits_at(table, gains, scale)


def bounded_residuals(
    table: FitTable, gains: np.ndarray, residuals: np.ndarray, scale: float | None
) -> np.ndarray:
    """``residuals`` (the free fit's, N×M) with each face's brightness scale held to at
    most :data:`SCALE_MAX` times the frame's (``scale``; unbounded where None).

    Light over one table varies by a shadow or a gradient, a factor of a few, not by
    ten: every piece read right on the hard photos of eight styles fitted its face at
    0.04-1.4 of the frame's scale. A face that explains a patch only at ten or twenty
    times the frame's scale explains it by what is faint in the face itself: a black
    token's disc, a little warmer than its black cross, scaled twenty-fold is a yellow
    disc with a dark cross (stencil and petal seed 2024 #11, all three yellow tokens read
    black: 0.074 against yellow's 0.081 free, at 11-22 times the frame's scale). Held to
    the light the frame has, such a face leaves the piece's colour unexplained.
    """
    if scale is None or scale <= 0:
        return residuals
    covariance, variance = _moments(table, gains)
    held = held_explained(covariance, variance, SCALE_MAX * scale)
    misfit = 1.0 - held / np.maximum(table.energy, 1e-9)[:, None]
    return np.where(table.valid, np.maximum(misfit, residuals), residuals)


def held_explained(covariance: np.ndarray, variance: np.ndarray, cap: float | None) -> np.ndarray:
    """The variance a face explains in a patch (``covariance`` with it, and its own
    ``variance``, under one lamp) fitted with the offset free and its brightness scale
    at most ``cap`` (free where None): the best free scale is covariance / variance, and
    a face that would need more is held at ``cap``, explaining 2·cap·cov − cap²·var."""
    explained = np.where(covariance > 0, covariance**2 / np.maximum(variance, 1e-9), 0.0)
    if cap is None:
        return explained
    capped = 2 * cap * covariance - cap**2 * variance
    return np.where(covariance > cap * variance, np.minimum(capped, explained), explained)


def told_by_brightness(free: np.ndarray, pinned: np.ndarray, member: int) -> int:
    """A token's member ``member`` (the free fit's, by the misfits ``free``), or the
    member whose free fit is nearly as good (within :data:`BRIGHTNESS_CLOSE` of its
    misfit) and far better at the frame's brightness scale (``pinned``, lower by
    :data:`BRIGHTNESS_MARGIN`: see :func:`pinned_misfits`).

    The free fit throws away how bright a piece is, and under a lamp a shade of
    the colour passes for another: a white token under a warm lamp fits a yellow
    face a hair better (0.125 against 0.139), a black wash on a red gingham fits a
    yellow face scaled down to a fifth (0.23 against 0.32); held to the light the
    frame has, yellow leaves either unexplained (0.95 and 1.27 against 0.14 and
    0.56: aquarelle seed 7 #3). For tokens, whose faces differ in colour alone."""
    close = np.flatnonzero(free <= BRIGHTNESS_CLOSE * free[member])
    best = int(close[np.argmin(pinned[close])])
    return best if pinned[member] - pinned[best] > BRIGHTNESS_MARGIN else member


def _fit_lamp(table: FitTable, kelvins: tuple[float, ...], weights: np.ndarray) -> np.ndarray:
    """The gains under which the pieces fit their best faces: along the black-body
    temperatures first (all tried at once), then per channel from the faces chosen."""
    trials = np.array([np.ones(3)] + [kelvin_gains(k) for k in kelvins])
    fits = table.residuals_under(trials)  # N×M×L
    costs = weights @ fits.min(axis=1)
    best = int(np.argmin(costs))
    gains, best_cost, chosen = trials[best], float(costs[best]), fits[:, :, best].argmin(axis=1)
    rows = np.arange(len(weights))
    for _ in range(2):
        ratios = table.seen / np.maximum(table.means[rows, chosen], 1.0)
        ratios = ratios / np.maximum(ratios[:, 1:2], 1e-6)
        refined = np.median(ratios, axis=0)
        fits = table.residuals(refined)
        refined_cost = float(weights @ fits.min(axis=1))
        if refined_cost >= best_cost:
            break
        gains, best_cost, chosen = refined, refined_cost, fits.argmin(axis=1)
    return gains


def _pair_errors(patch_blurred: np.ndarray, pair: _Pair, gains: np.ndarray) -> tuple[float, float]:
    """Each face's share of the window's (weighted) variance left unexplained at its best
    shift, the patch fitted as ``a * gains * face + b`` there (``a ≥ 0``).

    ``patch_blurred`` is flat and channel-major, as :meth:`FrameColours._blurred_patch`
    gives it.
    """
    x = patch_blurred.take(pair.take)  # 3K, channel-major
    total = pair.weight_total
    weighted = pair.weight * x
    sx = float(weighted.sum())
    cxx = max(float(weighted @ x) - sx * sx / total, 1e-9)
    sxt = pair.faces @ (x * np.repeat(gains, len(x) // 3)).astype(np.float32)  # 2S
    st = pair.linear @ gains
    ctt = np.maximum(pair.quadratic @ (gains * gains) - st * st / total, 1e-9)
    cxt = np.maximum(sxt - sx * st / total, 0.0)
    unexplained = (cxx - cxt * cxt / ctt).reshape(2, -1).min(axis=1) / cxx
    return float(unexplained[0]), float(unexplained[1])


def _pair_errors_many(taken: np.ndarray, pair: _Pair, gains: np.ndarray) -> np.ndarray:
    """:func:`_pair_errors` for many patches at once, given as their pixels in the pair's
    window (V×3K, ``pair.take`` of each flat, channel-major patch): V×2, each face's
    unexplained share at its best shift."""
    x = taken  # V×3K
    total = pair.weight_total
    sx = x @ pair.weight
    cxx = np.maximum((x * x) @ pair.weight - sx * sx / total, 1e-9)
    sxt = (x * np.repeat(gains, x.shape[1] // 3)).astype(np.float32) @ pair.faces.T  # V×2S
    st = pair.linear @ gains
    ctt = np.maximum(pair.quadratic @ (gains * gains) - st * st / total, 1e-9)
    cxt = np.maximum(sxt - np.outer(sx, st) / total, 0.0)
    unexplained = cxx[:, None] - cxt * cxt / ctt
    return unexplained.reshape(len(x), 2, -1).min(axis=2) / cxx[:, None]


_VARIANTS = [(z, dx, dy) for z in SEARCH_ZOOMS for dy in SEARCH_SHIFTS for dx in SEARCH_SHIFTS]


def _recut(patch: np.ndarray, zoom: float, dx: float, dy: float) -> np.ndarray:
    """The patch's central ``zoom`` share, moved by ``dx, dy`` of its side, at full size."""
    size = patch.shape[0]
    centre = (size - 1) / 2
    matrix = np.float32(
        [[zoom, 0, centre * (1 - zoom) + dx * size], [0, zoom, centre * (1 - zoom) + dy * size]]
    )
    return cv2.warpAffine(
        patch,
        matrix,
        (size, size),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )


@functools.lru_cache(maxsize=4)
def _recut_maps(size: int) -> tuple[np.ndarray, np.ndarray]:
    """Where each half-size pixel of every re-cut (``_VARIANTS``) samples a patch."""
    half = size // 2
    centre = (size - 1) / 2
    grid = np.arange(half) * 2 + 0.5  # the centre of each 2×2 block, in patch pixels
    xs, ys = [], []
    for zoom, dx, dy in _VARIANTS:
        x = centre + (grid - centre) * zoom + dx * size
        y = centre + (grid - centre) * zoom + dy * size
        xs.append(np.broadcast_to(x[None, :], (half, half)))
        ys.append(np.broadcast_to(y[:, None], (half, half)))
    x_map, y_map = np.concatenate(xs).astype(np.float32), np.concatenate(ys).astype(np.float32)
    return locked(x_map), locked(y_map)


def _recut_half(patch: np.ndarray) -> np.ndarray:
    """Every re-cut of ``_VARIANTS`` of a patch at half size (V×P/2×P/2×3), in one pass."""
    size = patch.shape[0]
    map_x, map_y = _recut_maps(size)
    smooth = cv2.GaussianBlur(patch, (0, 0), 0.8)  # stands for the 2×2 mean
    cuts = cv2.remap(smooth, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return cuts.reshape(len(_VARIANTS), size // 2, size // 2, 3)


#: A square piece's turn is doubted by its colour (see :func:`quarter_turn_by_colour`)
#: only where its faces' colour layout leaves more than this share of its chroma
#: unexplained as structure turned it...
TURN_CHROMA_MISFIT = 0.6
#: ...and a quarter turn leaves at most this share of that misfit.
TURN_CHROMA_GAIN = 0.6


def _chroma(pixels: np.ndarray) -> np.ndarray:
    """Images' pixels on a mask (N×d×3) as flat chroma vectors (N×3d): each pixel's grey
    (its mean over the channels) taken away, then each channel's mean."""
    x = pixels - pixels.mean(axis=2, keepdims=True)
    return (x - x.mean(axis=1, keepdims=True)).reshape(len(x), -1)


def chroma_share(pixels: np.ndarray) -> float:
    """The share of pixels' (d×3) variation that is chroma: the norm of each pixel's
    colour less its grey, over the norm of the pixels, each less its channel's mean (so
    that a cast, even one in the offset alone, counts for nothing). Dimensionless, so a
    dim piece and a bright face compare."""
    pixels = np.asarray(pixels, np.float64)
    varying = pixels - pixels.mean(axis=0, keepdims=True)
    chroma = _chroma(pixels[None])
    return float(np.linalg.norm(chroma)) / max(float(np.linalg.norm(varying)), 1e-9)


def chroma_faces(templates: np.ndarray, lamps: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """A group's faces (M×P×P×3) under each of ``lamps`` (L×3 gains) as unit chroma
    vectors at half size on ``mask`` (a square's, the same turned), each turned back by
    0-3 quarter turns (4×L·M×3d): what :func:`quarter_turns_by_colour` compares, learnt
    once. A piece turned by ``k`` quarters compares with the faces turned back by ``k``."""
    small = half_size(templates.astype(np.float32))
    on_mask = half_mask(mask)
    turned = []
    for k in range(4):
        faces = np.rot90(small, -k, axes=(1, 2))[:, on_mask]
        vectors = _chroma(np.concatenate([faces * gains for gains in lamps]).astype(np.float64))
        turned.append(vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9))
    return np.stack(turned).astype(np.float32)


def quarter_turns_by_colour(
    patches: np.ndarray, turns: list[int], faces: list[np.ndarray], mask: np.ndarray
) -> list[int]:
    """How many more quarter turns (counter-clockwise, as :func:`upright` turns) each
    square piece's colour layout asks for than the ``turns`` (quarters) structure gave
    it, or 0; ``patches`` as cut, ``faces`` each piece's group's, from
    :func:`chroma_faces`.

    Grey structure turns a piece by its outlines; a figure near-round under a quarter turn
    (a garlic bulb's disc, its spike a few pixels) ties there, and a band of a colour as
    bright as the ground (yellow on pale grey) leaves no outline to break the tie: such a
    piece is read with its colour band across the faces' band, and its colour and heart
    by chance (banner: every yellow garlic turned, read blue or purple). Where the colour
    lies says the turn plainly. Each turn's misfit is the share of the piece's chroma (its
    colour with its grey taken away, so a black figure does not outweigh it) that the best
    face, under the best lamp, leaves unexplained; only a turn that no face explains
    (:data:`TURN_CHROMA_MISFIT`) is doubted, and only for one that fits far better
    (:data:`TURN_CHROMA_GAIN`): a layout the same under a turn (a colour ground all over,
    a band turned by half) never is. As a band is the same turned by half, the turn
    returned may be half a turn off: structure settles that.
    """
    if not len(patches):
        return []
    count, size = len(patches), patches.shape[1]
    # 2×2 means of the patches laid one above the other, in one pass
    small = cv2.resize(
        np.ascontiguousarray(patches).reshape(count * size, size, 3),
        (size // 2, count * size // 2),
        interpolation=cv2.INTER_AREA,
    ).reshape(count, size // 2, size // 2, 3)
    x = _chroma(small[:, half_mask(mask)].astype(np.float32))
    energy = np.maximum((x * x).sum(axis=1), 1e-9)
    misfits = np.zeros((len(x), 4))
    by_faces: dict[int, list[int]] = {}
    for k, own in enumerate(faces):
        by_faces.setdefault(id(own), []).append(k)
    for ks in by_faces.values():  # the pieces sharing a group's faces, in one product
        own = faces[ks[0]]  # 4×L·M×3d
        covariance = (own.reshape(-1, own.shape[-1]) @ x[ks].T).reshape(4, -1, len(ks))
        best = covariance.max(axis=1)  # the best face fits with a scale a >= 0
        fits = (np.maximum(best, 0.0) ** 2 / energy[ks]).T  # n×4, turns as cut
        # the piece turned by its own turn and k more is the cut turned by turn + k
        order = (np.asarray(turns)[ks, None] + np.arange(4)) % 4
        misfits[ks] = 1.0 - np.take_along_axis(fits, order, axis=1)
    best = misfits[:, 1:].argmin(axis=1) + 1
    rows = np.arange(len(x))
    doubted = (misfits[:, 0] > TURN_CHROMA_MISFIT) & (
        misfits[rows, best] <= TURN_CHROMA_GAIN * misfits[:, 0]
    )
    return [int(b) if d else 0 for b, d in zip(best, doubted, strict=True)]


# -- a frame --------------------------------------------------------------------------------


class FrameColours:
    """All pieces of one frame (of one shape) read at once: the lamp, then each member.

    ``patches`` are upright P×P×3 cuts, ``member_templates[k]`` the faces piece ``k``
    may be (its group, in the group's order). Pieces of one group should share one
    array: its faces are then reduced once (they are also remembered across frames).
    Without ``gains`` the frame's lamp is estimated, from ``kelvins`` and the pieces'
    ``weights``; :attr:`gains` holds it and :meth:`decide` gives a piece's member.
    ``twins[k]`` (optional): each of piece ``k``'s members' heart twin, as an index among
    them (-1: none), as :attr:`vision.naming.Naming.heart_twins` gives it.
    """

    def __init__(
        self,
        patches: list[np.ndarray],
        member_templates: list[np.ndarray],
        mask: np.ndarray,
        kelvins: tuple[float, ...] = (),
        weights: np.ndarray | None = None,
        gains: np.ndarray | None = None,
        beyond: list[np.ndarray | None] | None = None,
        twins: list[np.ndarray] | None = None,
        leaders: np.ndarray | None = None,
    ) -> None:
        """``beyond`` (optional): each piece cut :data:`BEYOND_MARGIN` wider, upright like
        its patch (None: not known); where given, the piece's faces are fitted with its
        edge mixed with what lies there (:func:`edge_mixed_residuals`).

        ``leaders`` (optional, a flag per piece): the pieces that alone set the lamp
        where enough of them fit their faces clearly (:data:`LEADERS_MIN`); whether they
        did is kept in :attr:`led`. Tokens, the smaller pieces, can mislead the lamp: a
        token's edge, which a set that carries its colour at the edge keeps in its mask,
        is much of it, and the table blurred into it there (a dark brown cloth) asked
        for a far warmer lamp than the tiles did (doily seed 2024 #13: ten tokens
        outweighed fifteen tiles, and five tiles were read a colour off, reds as purples
        and purples as blues; fitted with their edge mixed with the cloth, the tokens
        too fit the tiles' lamp better). Where too few tiles fit clearly (an empty
        table's print and dice), every piece has its say."""
        beyond = None if beyond is None else list(beyond)
        self.mask = mask
        self.twins = twins
        mask_key = hash(np.packbits(mask).tobytes())
        keys_by_array: dict[int, tuple] = {}
        for templates in member_templates:
            if id(templates) not in keys_by_array:
                keys_by_array[id(templates)] = _Memory.key(templates, mask_key)
        self.keys = [keys_by_array[id(t)] for t in member_templates]
        self.faces = [
            _MEMORY.learn_faces(key, templates, mask)
            for key, templates in zip(self.keys, member_templates, strict=True)
        ]
        small = list(half_size(np.stack(patches).astype(np.float32))) if patches else []
        table = FitTable(
            small, member_templates, half_mask(mask), face_pixels=[f.pixels for f in self.faces]
        )
        self.led = False
        if gains is None:
            weights = np.ones(len(patches)) if weights is None else np.asarray(weights, float)
            gains = _fit_lamp(table, kelvins, weights) if patches else np.ones(3)
            if leaders is not None and patches:
                clear = leaders & (table.residuals(gains).min(axis=1) < CLEAR_FIT)
                self.led = int(clear.sum()) >= LEADERS_MIN
                if self.led:
                    gains = _fit_lamp(table, kelvins, np.where(leaders, weights, 0.0))
        self.gains = np.asarray(gains, np.float64)
        free = table.residuals(self.gains)  # N×M
        self.scale = frame_scale(table, self.gains, free)
        self.residuals = bounded_residuals(table, self.gains, free, self.scale)
        self.pinned = pinned_misfits(table, self.gains, free, self.scale)  # N×M
        self._blurred: dict[int, np.ndarray] = {}
        self._decided: dict[tuple[int, frozenset[int]], tuple[int, float]] = {}
        # a piece's best blur and its twins' local misfits: asked by decide and again by
        # the heart's confidence (vision.naming), the same answer both times
        self._blur_of: dict[tuple[int, int], int] = {}
        self._twins: dict[tuple[int, int, int, int], tuple[float, float]] = {}
        self.patches = list(patches)
        for index in np.flatnonzero(self.residuals.min(axis=1) > POOR_FIT):
            self._search(int(index), table)
            if beyond is not None:  # cut again: what lay beyond it is no longer known
                beyond[int(index)] = None
        by_faces: dict[int, list[int]] = {}
        for index, around in enumerate(beyond or []):
            if around is not None:
                by_faces.setdefault(id(member_templates[index]), []).append(index)
        for pieces in by_faces.values():
            templates = member_templates[pieces[0]]
            for start in range(0, len(pieces), _EDGE_BATCH):
                some = pieces[start : start + _EDGE_BATCH]
                self.residuals[some, : len(templates)] = edge_mixed_residuals_many(
                    np.stack([self.patches[i] for i in some]),
                    np.stack([beyond[i] for i in some]),
                    templates,
                    self.gains,
                    mask,
                    self.keys[pieces[0]],
                )

    def _search(self, index: int, table: FitTable) -> None:
        """Re-cut a poorly fitting piece at the zoom and shift where its faces fit best."""
        faces = self.faces[index]
        cuts = _recut_half(self.patches[index].astype(np.float32))  # V×h×h×3
        x = np.ascontiguousarray(cuts[:, half_mask(self.mask)], np.float64)  # V×d×3
        xc = x - x.mean(axis=(1, 2), keepdims=True)
        energy = np.maximum((xc * xc).sum(axis=(1, 2)), 1e-9)
        per_channel = np.matmul(xc.transpose(2, 0, 1), faces.pixels.transpose(2, 1, 0))  # 3×V×M
        cross = np.tensordot(self.gains, per_channel, axes=1)
        variance = faces.square @ self.gains**2 - (faces.total @ self.gains) ** 2 / table.size
        cap = SCALE_MAX * self.scale if self.scale is not None and self.scale > 0 else None
        fits = 1.0 - held_explained(cross, variance, cap) / energy[:, None]  # V×M
        if fits.min() >= self.residuals[index].min():
            return
        best = int(np.argmin(fits)) // fits.shape[1]
        k = len(faces.pixels)
        self.residuals[index, :k] = fits.min(axis=0)
        self.patches[index] = _recut(self.patches[index].astype(np.float32), *_VARIANTS[best])

    def decide(self, index: int, exclude: frozenset[int] = frozenset()) -> tuple[int, float]:
        """Piece ``index``'s member, and how clearly it won (0..1), never one of ``exclude``.

        The overall fit ranks the members; each close challenger is then compared with
        the champion only where the two differ (see :func:`_pair_errors`).
        """
        if (index, exclude) not in self._decided:
            self._decided[index, exclude] = self._decide(index, exclude)
        return self._decided[index, exclude]

    def _decide(self, index: int, exclude: frozenset[int]) -> tuple[int, float]:
        residuals = self.residuals[index]
        if exclude:
            residuals = residuals.copy()
            residuals[list(exclude)] = np.inf
        order = np.argsort(residuals)[: int(np.isfinite(residuals).sum())].tolist()
        champion, clarity = order[0], 1.0
        blur: int | None = None
        for challenger in order[1:]:
            if residuals[challenger] > CLOSE_RATIO * residuals[champion] + CLOSE_SLACK:
                break
            if blur is None:
                blur = self.blur_of(index, champion)
            champion_error, challenger_error = self.twin_errors(index, champion, challenger, blur)
            if challenger_error < champion_error:
                champion = challenger
            total = max(champion_error + challenger_error, 1e-9)
            clarity = min(clarity, abs(challenger_error - champion_error) / total)
        return champion, clarity

    def colour_shown(self, index: int, member: int) -> float:
        """How much of piece ``index``'s variation is colour (its chroma, see
        :func:`chroma_share`) as a share of how much of member ``member``'s face's is:
        about 1 for the face itself, whatever its style, and near 0 for a grey piece with
        a figure of its own (a die's pips, the deposit mat's print). A piece may fit a
        coloured face's figure in grey; its colour must show too.

        The piece is compared with its face both ways: as the camera gave it with the
        face under the frame's light, and with that light undone with the face as
        learnt; the lesser counts. Either way a lamp's cast is no colour, but the light
        is learnt from the pieces themselves, and in a frame of no tiles it is as likely
        wrong as right: a lamp fitted to a white die alone, undone, paints the die
        purple (sticker's empty table #5: 0.02 one way, 0.43 the other), and one fitted
        to the mat's grey moons makes its blue faces' colour show there (moonrise's
        empty table #3: 0.18 and 0.57)."""
        piece = half_size(self.patches[index].astype(np.float32))[half_mask(self.mask)]
        face = self.faces[index].pixels[member]
        as_seen = chroma_share(piece) / max(chroma_share(face * self.gains), 1e-9)
        undone = chroma_share(piece / self.gains) / max(chroma_share(face), 1e-9)
        return min(as_seen, undone)

    def plain_member(self, index: int) -> int:
        """Piece ``index``'s member judged with the frame's brightness scale
        (:func:`pinned_misfits`): for a piece whose faces' structure explains little of
        it, which the free fit reads by chance."""
        return int(np.argmin(self.pinned[index]))

    def faint(self, index: int) -> bool:
        """Whether piece ``index``'s member by the free fit (:meth:`decide`) shows in it at
        under :data:`FAINT_SCALE` of the frame's brightness scale: the free fit then read
        the piece's faint tint, not its figure (a white token under a lamp estimated a
        little warm reads blue), and :meth:`plain_member` tells it better."""
        misfit = float(self.pinned[index, self.decide(index)[0]])
        return misfit > (1.0 / FAINT_SCALE - 1.0) ** 2

    def _pair(self, index: int, low: int, high: int, blur: int) -> _Pair:
        """Members ``low`` and ``high`` of piece ``index`` where they differ."""
        twins = self.twins is not None and bool(self.twins[index][low] == high)
        faces = self.faces[index]
        return _MEMORY.learn_pair(self.keys[index], faces, low, high, self.mask, blur, twins)

    def twin_errors(self, index: int, a: int, b: int, blur: int) -> tuple[float, float]:
        """Members ``a`` and ``b`` of piece ``index`` compared only where their faces
        differ (as :meth:`decide` compares a close challenger), each one's misfit there,
        with the faces softened by ``FACE_BLURS[blur]`` (see :meth:`blur_of`)."""
        low, high = sorted((a, b))
        pair = self._pair(index, low, high, blur)
        if not pair.local:  # they differ all over: the overall fit says it
            return float(self.residuals[index, a]), float(self.residuals[index, b])
        key = (index, low, high, blur)
        if key not in self._twins:
            self._twins[key] = _pair_errors(self._blurred_patch(index), pair, self.gains)
        low_error, high_error = self._twins[key]
        return (low_error, high_error) if a == low else (high_error, low_error)

    def twin_errors_turned(
        self, index: int, a: int, b: int, blur: int, patch: np.ndarray, turns: list[float]
    ) -> np.ndarray:
        """:meth:`twin_errors` for ``patch`` (P×P×3, the piece as cut) turned upright by
        each of ``turns`` (see :func:`upright`) in place of the piece, read against its
        faces under the same lamp. One row per turn: ``a``'s misfit, then ``b``'s."""
        low, high = sorted((a, b))
        pair = self._pair(index, low, high, blur)
        if not pair.local:
            faces = self.faces[index].blurred[blur, [low, high]]
            turned = [upright(patch, turn) for turn in turns]
            errors = np.stack([fit_residuals(t, faces, self.gains, self.mask) for t in turned])
        else:
            # blurred once, then turned: a blur the same in every direction commutes with
            # a turn, and the patch is blurred as for a pair (see _blurred_patch)
            soft = cv2.GaussianBlur(patch.astype(np.float32), (0, 0), PAIR_BLUR * len(patch) / 40)
            turned = np.stack([upright(soft, turn) for turn in turns]).transpose(0, 3, 1, 2)
            flat = turned.reshape(len(turns), -1)[:, pair.take].astype(np.float64)
            errors = _pair_errors_many(flat, pair, self.gains)
        return errors if a == low else errors[:, ::-1]

    def blur_of(self, index: int, member: int) -> int:
        """Which of ``FACE_BLURS`` makes ``member``'s face fit the (blurred) piece best."""
        if (index, member) not in self._blur_of:
            size = self.mask.shape[0]
            patch = self._blurred_patch(index).reshape(3, size, size).transpose(1, 2, 0)
            faces = self.faces[index].on_mask[member]  # B×d×3
            fits = masked_fit_residuals(patch[self.mask], faces, self.gains)
            self._blur_of[index, member] = int(np.argmin(fits))
        return self._blur_of[index, member]

    def _blurred_patch(self, index: int) -> np.ndarray:
        """The piece blurred like the faces of a pair, channel-major (3×P×P) and flat."""
        if index not in self._blurred:
            self._blurred[index] = _pair_ready(self.patches[index], self.mask.shape[0])
        return self._blurred[index]


def _pair_ready(patch: np.ndarray, size: int) -> np.ndarray:
    """A patch blurred like the faces of a pair, channel-major (3×P×P) and flat."""
    blurred = cv2.GaussianBlur(patch.astype(np.float32), (0, 0), PAIR_BLUR * size / 40)
    return blurred.transpose(2, 0, 1).astype(np.float64).ravel()


def estimate_gains(
    patches: list[np.ndarray],
    member_templates: list[np.ndarray],
    mask: np.ndarray,
    kelvins: tuple[float, ...],
    weights: np.ndarray | None = None,
) -> np.ndarray:
    """The frame's BGR gains: the lamp under which the candidates fit their faces best.
    (The recogniser keeps the whole :class:`FrameColours` to read each piece next.)"""
    return FrameColours(patches, member_templates, mask, kelvins, weights).gains


def decide_member(
    patch: np.ndarray,
    templates: np.ndarray,
    gains: np.ndarray,
    mask: np.ndarray,
    exclude: frozenset[int] = frozenset(),
    twins: np.ndarray | None = None,
) -> tuple[int, float]:
    """The member that explains one patch under ``gains``, and how clearly (0..1);
    members in ``exclude`` (faces already seen elsewhere in the frame) are left out;
    ``twins``: each member's heart twin (see :class:`FrameColours`)."""
    pairs = None if twins is None else [twins]
    return FrameColours([patch], [templates], mask, gains=gains, twins=pairs).decide(0, exclude)
