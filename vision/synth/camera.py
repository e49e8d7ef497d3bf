"""Camera effects: what a real camera and lamp do to a flat, top-down picture of a table.

Every synthetic photo in the project (tile collections here, the printed calibration
sheet in ``calibration/``) goes through :func:`photograph`, so recognition is tested
against one consistent, seeded model of the photography it must survive:

- geometry: a pinhole camera tilted up to 35° from straight down, turned and zoomed;
- light: colour temperature from a warm lamp (2700 K) to cool daylight (9500 K),
  a brightness gradient across the frame, exposure, and soft cast shadows;
- sensor: defocus blur, noise, and JPEG compression.

The geometry is returned as a homography so ground truth (tile centres, corners)
can be carried from the scene into the photo.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.colour import NEUTRAL_KELVIN, kelvin_gains

__all__ = [
    "NEUTRAL_KELVIN",
    "CameraEffects",
    "add_noise",
    "apply_light",
    "cast_shadows",
    "defocus",
    "jpeg_roundtrip",
    "kelvin_gains",
    "photograph",
    "random_effects",
    "straight_down",
    "view_homography",
]


@dataclass(frozen=True)
class CameraEffects:
    """All the parameters of one photograph; :func:`random_effects` draws them."""

    tilt_deg: float = 0.0
    tilt_direction_deg: float = 0.0
    roll_deg: float = 0.0
    fill: float = 0.9
    kelvin: float = NEUTRAL_KELVIN
    white_balance: float = 0.5
    exposure: float = 1.0
    gradient: float = 0.0
    gradient_angle_deg: float = 0.0
    shadows: int = 0
    shadow_strength: float = 0.0
    blur_sigma: float = 0.0
    noise_sigma: float = 0.0
    jpeg_quality: int = 95


#: Ranges per difficulty level: 0 easy, 1 medium, 2 hard.
_LEVELS = (
    dict(
        tilt=10, kelvin=(5200, 7200), gradient=0.15, shadows=0, blur=0.6, noise=2.0, jpeg=(88, 95)
    ),
    dict(tilt=25, kelvin=(3800, 8500), gradient=0.3, shadows=1, blur=1.0, noise=4.0, jpeg=(75, 92)),
    dict(
        tilt=35, kelvin=(2700, 9500), gradient=0.45, shadows=2, blur=1.6, noise=6.0, jpeg=(60, 90)
    ),
)


def random_effects(rng: np.random.Generator, level: int = 2) -> CameraEffects:
    """Draw one photograph's effects for difficulty ``level`` (0 easy … 2 hard)."""
    p = _LEVELS[level]
    return CameraEffects(
        tilt_deg=float(rng.uniform(0, p["tilt"])),
        tilt_direction_deg=float(rng.uniform(0, 360)),
        roll_deg=float(rng.uniform(-180, 180)),
        fill=float(rng.uniform(0.8, 0.95)),
        kelvin=float(rng.uniform(*p["kelvin"])),
        white_balance=float(rng.uniform(0.3, 0.7)),
        exposure=float(rng.uniform(0.85, 1.1)),
        gradient=float(rng.uniform(0, p["gradient"])),
        gradient_angle_deg=float(rng.uniform(0, 360)),
        shadows=int(rng.integers(0, p["shadows"] + 1)),
        shadow_strength=float(rng.uniform(0.15, 0.4)),
        blur_sigma=float(rng.uniform(0, p["blur"])),
        noise_sigma=float(rng.uniform(0.5, p["noise"])),
        jpeg_quality=int(rng.integers(p["jpeg"][0], p["jpeg"][1] + 1)),
    )


def photograph(
    scene_bgr: np.ndarray,
    effects: CameraEffects,
    out_size: tuple[int, int] = (1280, 720),
    rng: np.random.Generator | None = None,
    content: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Photograph a top-down scene; return the BGR photo and the scene→photo homography.

    ``content`` (N×2 scene points, default the whole scene) is what must be in frame;
    the view is zoomed so that it fills ``effects.fill`` of the photo.
    """
    rng = rng if rng is not None else np.random.default_rng(0)
    homography = view_homography(scene_bgr.shape[1::-1], out_size, effects, content)
    photo = cv2.warpPerspective(
        scene_bgr, homography, out_size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT
    )
    photo = apply_light(photo, effects)
    photo = cast_shadows(photo, effects.shadows, effects.shadow_strength, rng)
    photo = defocus(photo, effects.blur_sigma)
    photo = add_noise(photo, effects.noise_sigma, rng)
    photo = jpeg_roundtrip(photo, effects.jpeg_quality)
    return photo, homography


def view_homography(
    scene_size: tuple[int, int],
    out_size: tuple[int, int],
    effects: CameraEffects,
    content: np.ndarray | None = None,
) -> np.ndarray:
    """The homography of a pinhole camera tilted over the scene, fitted to the photo."""
    width, height = scene_size
    if content is None:
        content = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64)
    centre = content.mean(axis=0)
    to_centre = np.array([[1, 0, -centre[0]], [0, 1, -centre[1]], [0, 0, 1]], np.float64)
    focal = 1.2 * max(width, height)
    tilt = math.radians(effects.tilt_deg)
    direction = math.radians(effects.tilt_direction_deg)
    axis = np.array([math.cos(direction), math.sin(direction), 0.0])
    rotation, _ = cv2.Rodrigues(axis * tilt)
    roll, _ = cv2.Rodrigues(np.array([0.0, 0.0, math.radians(effects.roll_deg)]))
    rotation = roll @ rotation
    translation = np.array([0.0, 0.0, focal])
    camera = np.diag([focal, focal, 1.0])
    projective = camera @ np.column_stack([rotation[:, 0], rotation[:, 1], translation])
    homography = projective @ to_centre
    projected = cv2.perspectiveTransform(content.reshape(-1, 1, 2).astype(np.float64), homography)
    lo, hi = projected[:, 0].min(axis=0), projected[:, 0].max(axis=0)
    scale = effects.fill * min(out_size[0] / (hi[0] - lo[0]), out_size[1] / (hi[1] - lo[1]))
    mid = (lo + hi) / 2
    fit = np.array(
        [
            [scale, 0, out_size[0] / 2 - scale * mid[0]],
            [0, scale, out_size[1] / 2 - scale * mid[1]],
            [0, 0, 1],
        ]
    )
    homography = fit @ homography
    return homography / homography[2, 2]


def apply_light(image: np.ndarray, effects: CameraEffects) -> np.ndarray:
    """Tint by the lamp (partly undone by the camera's white balance), expose, add a gradient."""
    gains = kelvin_gains(effects.kelvin) ** (1.0 - effects.white_balance)
    gains = gains / gains.max() * effects.exposure * 1.05
    height, width = image.shape[:2]
    angle = math.radians(effects.gradient_angle_deg)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    ramp = (xs - width / 2) * math.cos(angle) + (ys - height / 2) * math.sin(angle)
    ramp /= max(width, height) / 2
    light = 1.0 + effects.gradient * ramp
    out = image.astype(np.float32) * light[..., None] * gains.astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def cast_shadows(
    image: np.ndarray, count: int, strength: float, rng: np.random.Generator
) -> np.ndarray:
    """Darken soft-edged blobs, as a hand, a cup or the lamp's arm would."""
    if count <= 0 or strength <= 0:
        return image
    height, width = image.shape[:2]
    mask = np.zeros((height, width), np.float32)
    for _ in range(count):
        centre = rng.uniform([0, 0], [width, height])
        radius = rng.uniform(0.1, 0.3) * max(width, height)
        points = centre + radius * np.stack(
            [np.cos(a := np.sort(rng.uniform(0, 2 * np.pi, 7))), np.sin(a) * rng.uniform(0.3, 1)],
            axis=1,
        )
        cv2.fillPoly(mask, [points.astype(np.int32)], 1.0)
    soft = cv2.GaussianBlur(mask, (0, 0), max(width, height) * 0.03)
    shade = 1.0 - strength * np.clip(soft, 0, 1)
    return np.clip(image.astype(np.float32) * shade[..., None], 0, 255).astype(np.uint8)


def defocus(image: np.ndarray, sigma: float) -> np.ndarray:
    return image if sigma <= 0.05 else cv2.GaussianBlur(image, (0, 0), sigma)


def add_noise(image: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    if sigma <= 0:
        return image
    noise = rng.normal(0, sigma, image.shape).astype(np.float32)
    return np.clip(image.astype(np.float32) + noise, 0, 255).astype(np.uint8)


def jpeg_roundtrip(image: np.ndarray, quality: int) -> np.ndarray:
    """Compress and decode, to bring in the 8×8 block artefacts of a real camera file."""
    if quality >= 100:
        return image
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR) if ok else image


def straight_down(effects: CameraEffects) -> CameraEffects:
    """The same photograph taken straight down (for comparisons in tests)."""
    return replace(effects, tilt_deg=0.0)
