"""Points between the full frame and a smaller working copy of it.

The object mask, its blobs and the grey frame the searches read are kept at a working
size (:attr:`vision.frame.Frame.scale` full-frame pixels to one working pixel), while
pieces are cut and reported in full-frame pixels. A pixel's value belongs to its
centre, so a point is moved between the two with the centres lined up: pixel ``i``'s
centre lies at ``i + 0.5`` in either grid. Scaling the bare coordinates instead would
move every point by half a working pixel less half a full one.
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np

Points = TypeVar("Points", np.ndarray, float)


def to_work(points: Points, scale: float) -> Points:
    """Full-frame coordinates (any array of x and y, or one number) at the working size."""
    return (points + 0.5) / scale - 0.5


def to_frame(points: Points, scale: float) -> Points:
    """Working-size coordinates back in full-frame pixels (the inverse of :func:`to_work`)."""
    return (points + 0.5) * scale - 0.5
