"""Arrays many callers share, made read-only.

A cached array (a template grid, a sampling map, a blur matrix) is handed to every
caller that asks for it, and a frame's arrays to every stage. A caller that wrote into
one in place would change what every later caller reads, so a frame would read
differently depending on what ran before it; locked, such a write raises instead.
"""

from __future__ import annotations

import numpy as np


def locked(array: np.ndarray) -> np.ndarray:
    """``array`` itself, made read-only."""
    array.flags.writeable = False
    return array
