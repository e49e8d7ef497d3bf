"""Stage 1: which pixels are not table.

The table is unknown (wood, cloth, slate, a gradient of lamp light across it), so it is
modelled locally: a wide median of the frame, wider than any tile, is the table's own
colour around each pixel; what differs from it by more than the table's own texture
does is an object. Holes inside objects (a tile's pale figure) are filled, so each
blob is the whole outline of one object or of several touching ones.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.config import VisionConfig


def downscale(image_bgr: np.ndarray, width: int) -> tuple[np.ndarray, float]:
    """The frame at ``width`` pixels wide (never enlarged) and the factor back to full size."""
    h, w = image_bgr.shape[:2]
    if w <= width:
        return image_bgr, 1.0
    scale = w / width
    small = cv2.resize(image_bgr, (width, round(h / scale)), interpolation=cv2.INTER_AREA)
    return small, scale


def object_mask(small_bgr: np.ndarray, config: VisionConfig) -> np.ndarray:
    """A uint8 mask (255 = object) of everything that stands out from the table."""
    lab = cv2.cvtColor(cv2.GaussianBlur(small_bgr, (3, 3), 0), cv2.COLOR_BGR2LAB)
    distance = _distance(lab, table_colour(lab, config))
    texture = float(np.median(distance))
    if texture <= config.pattern_texture:
        threshold = max(config.foreground_min_distance, config.foreground_noise_factor * texture)
        mask = distance > threshold
    else:
        # A patterned cloth differs from its own local average everywhere; what is one
        # of the table's own colours (seen along the frame's edges) is still table.
        palette = table_palette(lab)
        near_palette = np.min([_distance(lab, c) for c in palette], axis=0)
        mask = (near_palette > config.palette_distance) & (
            distance > config.foreground_min_distance
        )
    mask = mask.astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    outlines = outline_mask(lab, config)
    if outlines is not None:
        mask = cv2.bitwise_or(mask, outlines)
    return fill_holes(mask)


def outline_mask(lab: np.ndarray, config: VisionConfig) -> np.ndarray | None:
    """Objects found by their crisp printed edges, for tiles as pale as the table.

    A cream tile on a beige table hardly differs in colour, but its outline and artwork
    are sharp where the table's grain is soft. Edges much stronger than the table's
    typical gradient are closed into solid blobs. On a table that is itself all sharp
    edges (a checked cloth) this cue would cover everything, so it is then left out.
    """
    gradient = np.zeros(lab.shape[:2], np.float32)
    for channel in cv2.split(lab.astype(np.float32)):
        gx = cv2.Sobel(channel, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(channel, cv2.CV_32F, 0, 1, ksize=3)
        gradient += gx * gx + gy * gy
    gradient = np.sqrt(gradient)
    threshold = max(config.edge_min_strength, config.edge_noise_factor * float(np.median(gradient)))
    edges = (gradient > threshold).astype(np.uint8) * 255
    if np.count_nonzero(edges) > config.edge_max_share * edges.size:
        return None
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    blobs = fill_holes(cv2.morphologyEx(edges, cv2.MORPH_CLOSE, kernel))
    blobs = cv2.morphologyEx(
        blobs, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    )
    if np.count_nonzero(blobs) > config.edge_max_share * 3 * blobs.size:
        return None
    return blobs


def _distance(lab: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Lab distance with lightness counting half: shadows and lamp gradients change it most."""
    diff = lab.astype(np.float32) - np.asarray(reference, np.float32)
    return np.sqrt(0.25 * diff[..., 0] ** 2 + diff[..., 1] ** 2 + diff[..., 2] ** 2)


def table_palette(lab: np.ndarray, colours: int = 4) -> np.ndarray:
    """The table's main colours, clustered from a strip along the frame's edges.

    Tiles lie in the middle of the picture; its edges are mostly table. Clusters too
    small to be the table (a tile cut by the edge) are left out.
    """
    h, w = lab.shape[:2]
    band = max(2, min(h, w) // 12)
    strip = np.concatenate(
        [
            lab[:band].reshape(-1, 3),
            lab[-band:].reshape(-1, 3),
            lab[:, :band].reshape(-1, 3),
            lab[:, -band:].reshape(-1, 3),
        ]
    ).astype(np.float32)[::3]
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 8, 1.0)
    cv2.setRNGSeed(7)
    _, labels, centres = cv2.kmeans(strip, colours, None, criteria, 1, cv2.KMEANS_PP_CENTERS)
    shares = np.bincount(labels.ravel(), minlength=colours) / len(labels)
    return centres[shares >= 0.1]


def table_colour(lab: np.ndarray, config: VisionConfig) -> np.ndarray:
    """The table's local Lab colour: a median far wider than a tile, at low resolution."""
    h, w = lab.shape[:2]
    factor = 4
    tiny = cv2.resize(lab, (max(1, w // factor), max(1, h // factor)), interpolation=cv2.INTER_AREA)
    ksize = max(3, int(config.background_kernel_frac * h / factor) | 1)
    ksize = min(ksize, (min(tiny.shape[:2]) - 1) | 1) if min(tiny.shape[:2]) > 3 else 3
    smooth = cv2.medianBlur(tiny, ksize)
    return cv2.resize(smooth, (w, h), interpolation=cv2.INTER_LINEAR)


def fill_holes(mask: np.ndarray) -> np.ndarray:
    """Fill every region enclosed by the mask (what a flood from the border cannot reach)."""
    h, w = mask.shape
    padded = np.zeros((h + 2, w + 2), np.uint8)
    padded[1:-1, 1:-1] = mask
    flood = padded.copy()
    cv2.floodFill(flood, np.zeros((h + 4, w + 4), np.uint8), (0, 0), 255)
    holes = cv2.bitwise_not(flood)[1:-1, 1:-1]
    return cv2.bitwise_or(mask, holes)
