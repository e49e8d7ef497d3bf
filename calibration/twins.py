"""A tile and its heart twin: one print but for the heart, so they are taught alike.

Each colour and motif exists once plain and once with a heart (RULINGS.md), drawn alike
but for the heart: whatever else differs between the two faces cut from a photo is the
light's error in one slot or the other (a few per cent of brightness, more at one side
of a slot than the other). Recognition tells the twins apart where they differ; if they
differ faintly all over, that place is everywhere and the heart is lost in it. So the
smooth part of their difference, found away from the heart, is taken off both, half
each, leaving the heart the only difference.
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

from companion.bitenight.tiles import Tile

#: Side (pixels) the twins are compared at: the light's error is smooth, a heart is not.
COMPARE_SIDE = 40
#: Share of the face's half-side compared: the rim meets the paper and the shadow.
COMPARE_RADIUS = 0.9
#: A pixel is left out of the fit when its ratio is this many robust deviations off
#: the fitted surface (the heart, and a drawing line cut a fraction of a pixel apart).
OUTLIER = 3.0
#: Levels (0–255) a channel must have in both faces to say anything about the light.
DARKEST, BRIGHTEST = 24.0, 250.0


def matched_twins(faces: Mapping[Tile, np.ndarray], round_: bool) -> dict[Tile, np.ndarray]:
    """``faces`` (BGRA, upright, all the same size) with each pair's light matched."""
    out = dict(faces)
    for tile in faces:
        if not tile.heart:
            continue
        plain = Tile(tile.colour, tile.motif, False)
        if plain not in faces:
            continue
        field = twin_light_ratio(faces[tile], faces[plain], round_)
        half = np.sqrt(field)
        out[tile] = _divided(faces[tile], half)
        out[plain] = _divided(faces[plain], 1.0 / half)
    return out


def twin_light_ratio(heart: np.ndarray, plain: np.ndarray, round_: bool) -> np.ndarray:
    """How much brighter the heart's face is lit than the plain one's: side × side × 3.

    Per channel, the log of the ratio of the two faces (both blurred a little, at
    :data:`COMPARE_SIDE`) is fitted by a plane, robustly, leaving out the heart and
    anything else that is not the light; the plane is returned at the faces' size.
    """
    side = heart.shape[0]
    small = [
        cv2.GaussianBlur(
            cv2.resize(
                face[..., :3], (COMPARE_SIDE, COMPARE_SIDE), interpolation=cv2.INTER_AREA
            ).astype(np.float32),
            (0, 0),
            1.0,
        )
        for face in (heart, plain)
    ]
    ys, xs = np.mgrid[0:COMPARE_SIDE, 0:COMPARE_SIDE].astype(np.float64)
    centre = (COMPARE_SIDE - 1) / 2
    us, vs = (xs - centre) / (COMPARE_SIDE / 2), (ys - centre) / (COMPARE_SIDE / 2)
    inside = (np.hypot(us, vs) if round_ else np.maximum(abs(us), abs(vs))) <= COMPARE_RADIUS
    field = np.ones((side, side, 3), np.float32)
    big = np.mgrid[0:side, 0:side].astype(np.float64)
    big_v, big_u = (big - (side - 1) / 2) / (side / 2)
    for channel in range(3):
        a, b = small[0][..., channel], small[1][..., channel]
        usable = inside & (np.minimum(a, b) >= DARKEST) & (np.maximum(a, b) <= BRIGHTEST)
        if usable.sum() < 20:
            continue
        ratio = np.log(a[usable]) - np.log(b[usable])
        design = np.column_stack([np.ones(usable.sum()), us[usable], vs[usable]])
        plane = _robust_plane(design, ratio)
        field[..., channel] = np.exp(plane[0] + plane[1] * big_u + plane[2] * big_v)
    return field


def _robust_plane(design: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Least squares, refitted three times without the points far off the fit."""
    keep = np.ones(len(values), bool)
    plane = np.zeros(design.shape[1])
    for _ in range(3):
        plane, *_ = np.linalg.lstsq(design[keep], values[keep], rcond=None)
        residual = np.abs(design @ plane - values)
        spread = 1.4826 * float(np.median(residual[keep])) + 1e-3
        keep = residual <= OUTLIER * spread
    return plane


def _divided(face: np.ndarray, field: np.ndarray) -> np.ndarray:
    out = face.copy()
    out[..., :3] = np.clip(face[..., :3].astype(np.float32) / field + 0.5, 0, 255).astype(np.uint8)
    return out
