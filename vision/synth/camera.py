"""Camera effects: what a real camera and lamp do to a flat, top-down picture of a table.

Every synthetic photo in the project (tile collections here, the printed calibration
sheet in ``calibration/``) goes through :func:`photograph`, so recognition is tested
against one consistent, seeded model of the photography it must survive:

- geometry: a pinhole camera tilted up to 35° from straight down, turned and zoomed;
- light: colour temperature from a warm lamp (2700 K) to cool daylight (9500 K),
  a brightness gradient across the frame, exposure, and soft cast shadows;
- sensor: defocus blur, noise, and JPEG compression.

The *real* level (3) adds what an ideal camera over flat printed art leaves out and a
real table has: pieces a few millimetres thick (their sides show, their faces stand
off the cloth), a webcam lens's barrel distortion and vignetting, a lamp's glare on a
glossy tile, a second lamp of another colour across the table, and a phone's
sharpening. Each is neutral by default, so the other levels' photos stay as they were.

The geometry is returned as a homography so ground truth (tile centres, corners) can
be carried from the scene into the photo (:func:`photo_points` adds the lens).
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
    "add_glare",
    "add_noise",
    "add_vignette",
    "apply_light",
    "camera_position",
    "cast_shadows",
    "defocus",
    "distort",
    "jpeg_roundtrip",
    "kelvin_gains",
    "photo_points",
    "photograph",
    "raised",
    "random_effects",
    "sharpen",
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
    # the real level's additions, all neutral here
    thickness_mm: float = 0.0
    distortion: float = 0.0  # radial k1 over the half diagonal: barrel < 0 < pincushion
    vignette: float = 0.0  # share of the light lost in the corners
    glare: float = 0.0  # 0 none … 1 the lamp's reflection blows the middle out
    glare_at: tuple[float, float] = (0.5, 0.5)  # shares of the frame's width and height
    glare_radius: float = 0.1  # share of the frame's longer side
    second_kelvin: float = 0.0  # a second lamp lighting the frame's far side (0: none)
    sharpen: float = 0.0  # a phone's unsharp mask


#: Ranges per difficulty level: 0 easy, 1 medium, 2 hard (3, real, draws the hard
#: ranges and then :data:`_REAL`).
_LEVELS = (
    dict(
        tilt=10, kelvin=(5200, 7200), gradient=0.15, shadows=0, blur=0.6, noise=2.0, jpeg=(88, 95)
    ),
    dict(tilt=25, kelvin=(3800, 8500), gradient=0.3, shadows=1, blur=1.0, noise=4.0, jpeg=(75, 92)),
    dict(
        tilt=35, kelvin=(2700, 9500), gradient=0.45, shadows=2, blur=1.6, noise=6.0, jpeg=(60, 90)
    ),
)


#: The real level's ranges: cardboard tiles and tokens 1.5-3 mm thick, a webcam's
#: barrel (about 6 % at the corners) to a slight pincushion, a lamp's glare on every
#: other photo, a second lamp of any colour on every other photo.
_REAL = dict(thickness=(1.5, 3.0), distortion=(-0.09, 0.02), vignette=(0.1, 0.4), glare=(0.4, 0.9))


def random_effects(rng: np.random.Generator, level: int = 2) -> CameraEffects:
    """Draw one photograph's effects for difficulty ``level`` (0 easy … 2 hard, 3 real)."""
    hard = _hard_or_easier(rng, min(level, 2))
    if level < 3:
        return hard
    r = _REAL
    glare, lamp = rng.uniform(0, 1, 2) < 0.5
    return replace(
        hard,
        thickness_mm=float(rng.uniform(*r["thickness"])),
        distortion=float(rng.uniform(*r["distortion"])),
        vignette=float(rng.uniform(*r["vignette"])),
        glare=float(rng.uniform(*r["glare"])) if glare else 0.0,
        glare_at=(float(rng.uniform(0.15, 0.85)), float(rng.uniform(0.15, 0.85))),
        glare_radius=float(rng.uniform(0.04, 0.12)),
        second_kelvin=float(rng.uniform(2700, 9500)) if lamp else 0.0,
        sharpen=float(rng.uniform(0, 1.2)),
    )


def _hard_or_easier(rng: np.random.Generator, level: int) -> CameraEffects:
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
    photo = distort(photo, effects.distortion)
    photo = apply_light(photo, effects)
    photo = add_glare(photo, effects)
    photo = add_vignette(photo, effects.vignette)
    photo = cast_shadows(photo, effects.shadows, effects.shadow_strength, rng)
    photo = defocus(photo, effects.blur_sigma)
    photo = add_noise(photo, effects.noise_sigma, rng)
    photo = sharpen(photo, effects.sharpen)
    photo = jpeg_roundtrip(photo, effects.jpeg_quality)
    return photo, homography


def photo_points(
    points: np.ndarray, homography: np.ndarray, effects: CameraEffects, out_size: tuple[int, int]
) -> np.ndarray:
    """Where scene points (N×2) lie in the photo: the homography, then the lens."""
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    ideal = cv2.perspectiveTransform(pts, homography)[:, 0]
    if effects.distortion == 0:
        return ideal
    centre, half_diagonal, zoom = _lens(out_size, effects.distortion)
    u = (ideal - centre) / (zoom * half_diagonal)
    return centre + half_diagonal * u * (1 + effects.distortion * (u**2).sum(1, keepdims=True))


def view_homography(
    scene_size: tuple[int, int],
    out_size: tuple[int, int],
    effects: CameraEffects,
    content: np.ndarray | None = None,
) -> np.ndarray:
    """The homography of a pinhole camera tilted over the scene, fitted to the photo."""
    content = _content(scene_size, content)
    centre, rotation, focal = _pose(scene_size, effects, content)
    to_centre = np.array([[1, 0, -centre[0]], [0, 1, -centre[1]], [0, 0, 1]], np.float64)
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


def camera_position(
    scene_size: tuple[int, int], effects: CameraEffects, content: np.ndarray | None = None
) -> np.ndarray:
    """The camera's place over the scene, (x, y, height) in scene pixels.

    A piece's face stands its thickness off the cloth, so the camera sees it shifted
    away from the point under the lens (the parallax of :func:`raised`).
    """
    centre, rotation, focal = _pose(scene_size, effects, content)
    position = -rotation.T @ np.array([0.0, 0.0, focal])
    return np.array([centre[0] + position[0], centre[1] + position[1], abs(position[2])])


def raised(point: np.ndarray, camera: np.ndarray, height: float) -> np.ndarray:
    """Where on the cloth a point ``height`` above ``point`` appears to the camera."""
    return point + (point - camera[:2]) * height / (camera[2] - height)


def _content(scene_size: tuple[int, int], content: np.ndarray | None) -> np.ndarray:
    width, height = scene_size
    if content is None:
        content = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64)
    return content


def _pose(
    scene_size: tuple[int, int], effects: CameraEffects, content: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, float]:
    """The point the camera looks at, its rotation and its distance (scene pixels)."""
    centre = _content(scene_size, content).mean(axis=0)
    focal = 1.2 * max(scene_size)
    direction = math.radians(effects.tilt_direction_deg)
    axis = np.array([math.cos(direction), math.sin(direction), 0.0])
    rotation, _ = cv2.Rodrigues(axis * math.radians(effects.tilt_deg))
    roll, _ = cv2.Rodrigues(np.array([0.0, 0.0, math.radians(effects.roll_deg)]))
    return centre, roll @ rotation, focal


def _lens(out_size: tuple[int, int], k1: float) -> tuple[np.ndarray, float, float]:
    """The photo's centre, half diagonal, and the zoom that keeps its corners in frame."""
    centre = np.array(out_size, np.float64) / 2
    half_diagonal = float(np.hypot(*centre))
    return centre, half_diagonal, 1.0 / _undistorted_radius(1.0, k1)


def _undistorted_radius(r: np.ndarray | float, k1: float) -> np.ndarray | float:
    """The ideal radius a lens with ``k1`` draws at ``r`` (r_u(1 + k1 r_u²) = r)."""
    ru = r
    for _ in range(20):
        ru = r / (1 + k1 * ru * ru)
    return ru


def distort(image: np.ndarray, k1: float) -> np.ndarray:
    """The photo as a lens with radial distortion ``k1`` draws it (corners kept in frame)."""
    if k1 == 0:
        return image
    height, width = image.shape[:2]
    centre, half_diagonal, zoom = _lens((width, height), k1)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    dx, dy = (xs - centre[0]) / half_diagonal, (ys - centre[1]) / half_diagonal
    r = np.sqrt(dx * dx + dy * dy)
    scale = zoom * _undistorted_radius(r, k1) / np.maximum(r, 1e-6)
    map_x = (centre[0] + dx * scale * half_diagonal).astype(np.float32)
    map_y = (centre[1] + dy * scale * half_diagonal).astype(np.float32)
    return cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def apply_light(image: np.ndarray, effects: CameraEffects) -> np.ndarray:
    """Tint by the lamp (partly undone by the camera's white balance), expose, add a gradient.

    With a second lamp its colour takes over along the gradient's direction, so the
    two sides of the frame have different white points, as a table between a window
    and a warm lamp has.
    """
    gains = _gains(effects.kelvin, effects)
    height, width = image.shape[:2]
    angle = math.radians(effects.gradient_angle_deg)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    ramp = (xs - width / 2) * math.cos(angle) + (ys - height / 2) * math.sin(angle)
    ramp /= max(width, height) / 2
    light = (1.0 + effects.gradient * ramp)[..., None]
    if effects.second_kelvin > 0:
        share = np.clip(0.5 + ramp, 0, 1)[..., None]
        tint = (1 - share) * gains + share * _gains(effects.second_kelvin, effects)
        out = image.astype(np.float32) * light * tint.astype(np.float32)
    else:
        out = image.astype(np.float32) * light * gains.astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def _gains(kelvin: float, effects: CameraEffects) -> np.ndarray:
    gains = kelvin_gains(kelvin) ** (1.0 - effects.white_balance)
    return gains / gains.max() * effects.exposure * 1.05


def add_glare(image: np.ndarray, effects: CameraEffects) -> np.ndarray:
    """A lamp's reflection on a glossy surface: a soft patch washed towards the lamp's white."""
    if effects.glare <= 0:
        return image
    height, width = image.shape[:2]
    radius = effects.glare_radius * max(width, height)
    cx, cy = effects.glare_at[0] * width, effects.glare_at[1] * height
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    # stretched sideways: a lamp's reflection on a glossy board is longer than it is wide
    d2 = ((xs - cx) / (1.8 * radius)) ** 2 + ((ys - cy) / radius) ** 2
    blob = (effects.glare * np.exp(-d2))[..., None]
    lamp = _gains(effects.kelvin, effects)
    white = 255 * lamp / lamp.max()
    out = image.astype(np.float32) * (1 - blob) + blob * white.astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def add_vignette(image: np.ndarray, strength: float) -> np.ndarray:
    """The lens's fall-off: the corners darker by ``strength``."""
    if strength <= 0:
        return image
    height, width = image.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    r2 = ((xs - width / 2) ** 2 + (ys - height / 2) ** 2) / ((width / 2) ** 2 + (height / 2) ** 2)
    out = image.astype(np.float32) * (1 - strength * r2)[..., None]
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


def sharpen(image: np.ndarray, amount: float) -> np.ndarray:
    """A phone's unsharp mask: edges gain bright and dark halos, and noise grows."""
    if amount <= 0:
        return image
    soft = cv2.GaussianBlur(image, (0, 0), 1.5)
    return cv2.addWeighted(image, 1 + amount, soft, -amount, 0)


def jpeg_roundtrip(image: np.ndarray, quality: int) -> np.ndarray:
    """Compress and decode, to bring in the 8×8 block artefacts of a real camera file."""
    if quality >= 100:
        return image
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR) if ok else image


def straight_down(effects: CameraEffects) -> CameraEffects:
    """The same photograph taken straight down (for comparisons in tests)."""
    return replace(effects, tilt_deg=0.0)
