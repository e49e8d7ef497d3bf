"""NumPy's mean, median and percentile of a few floats, cheaper, bit for bit.

The recogniser takes the mean or median of a handful of scores or sizes thousands of
times a frame. For a list that short, ``np.mean`` and ``np.median`` spend nearly all
their time turning the list into an array; these give the very same float (the same
additions in the same order), so swapping them in changes no decision anywhere.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

#: ``np.add.reduce`` on float64 adds in blocks of this many, unrolled...
_UNROLL = 8
#: ...and splits longer runs in two halves (numpy's ``PW_BLOCKSIZE``).
_BLOCK = 128


def mean_of(values: Sequence[float]) -> float:
    """``float(np.mean(values))`` for a non-empty list of floats (no NaN)."""
    return _pairwise_sum(values, 0, len(values)) / len(values)


def median_of(values: Sequence[float]) -> float:
    """``float(np.median(values))`` for a non-empty list of floats (no NaN): the middle
    value, or the mean of the two middle ones (added, then halved, as NumPy does)."""
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return float(ordered[middle])
    return float((ordered[middle - 1] + ordered[middle]) / 2)


def _pairwise_sum(values: Sequence[float], start: int, count: int) -> float:
    """NumPy's pairwise summation of ``values[start:start + count]`` (float64): under
    eight values one after another from 0.0; up to a block, eight running sums added
    pairwise, then the rest one by one; longer runs split in two."""
    if count < _UNROLL:
        total = 0.0
        for k in range(start, start + count):
            total += values[k]
        return total
    if count <= _BLOCK:
        sums = [float(v) for v in values[start : start + _UNROLL]]
        end = start + count - count % _UNROLL
        for i in range(start + _UNROLL, end, _UNROLL):
            sums = [s + values[i + j] for j, s in enumerate(sums)]
        a, b, c, d, e, f, g, h = sums
        total = ((a + b) + (c + d)) + ((e + f) + (g + h))
        for k in range(end, start + count):
            total += values[k]
        return total
    half = count // 2
    half -= half % _UNROLL
    return _pairwise_sum(values, start, half) + _pairwise_sum(values, start + half, count - half)


def percentile_of(values: np.ndarray, q: float) -> float:
    """``float(np.percentile(values, q))`` for a non-empty 1-D float64 array (no NaN)
    and ``0 <= q <= 100``: NumPy's linear interpolation between the two ranks around
    ``(n - 1) * q / 100``, worked out as NumPy's ``_lerp`` does (from the upper rank
    down when the fraction is at least a half). ``np.percentile`` itself spends about
    0.2 ms a call checking and dispatching, more than a short array's partition costs.
    """
    count = len(values)
    at = (count - 1) * (q / 100)
    below = math.floor(at)
    if below >= count - 1:
        return float(np.partition(values, count - 1)[count - 1])
    ranked = np.partition(values, (below, below + 1))
    low, high = float(ranked[below]), float(ranked[below + 1])
    fraction = at - below
    apart = high - low
    if fraction >= 0.5:
        return high - apart * (1 - fraction)
    return low + apart * fraction
