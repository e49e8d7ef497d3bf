"""The plain-Python mean and median, and the short percentile, give NumPy's floats bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from vision.numeric import mean_of, median_of, percentile_of


@pytest.mark.parametrize("count", [*range(1, 40), 127, 128, 129, 300, 1000])
def test_mean_and_median_of_a_list_are_numpys_to_the_last_bit(count: int) -> None:
    rng = np.random.default_rng(count)
    for scale in (1.0, 1e3, 1e-3):
        for _ in range(50):
            values = (rng.random(count) * scale - 0.2 * scale).tolist()
            assert mean_of(values) == float(np.mean(values))
            assert median_of(values) == float(np.median(values))


def test_median_of_ties_and_whole_numbers_is_numpys() -> None:
    for values in ([3.0, 3.0], [1.0, 2.0], [5.0], [2.0, 1.0, 2.0, 7.0], [0.0, -0.0]):
        assert median_of(values) == float(np.median(values))
        assert mean_of(values) == float(np.mean(values))


@pytest.mark.parametrize("q", [0, 20, 25, 50, 75, 100, 33.3, 12.5, 99.9])
def test_percentile_of_an_array_is_numpys_to_the_last_bit(q: float) -> None:
    rng = np.random.default_rng(int(q * 10))
    for count in (*range(1, 60), 48, 64, 200):
        for _ in range(20):
            values = rng.gamma(2.0, 10.0, count)
            assert percentile_of(values, q) == float(np.percentile(values, q))
            ties = rng.integers(0, 4, count).astype(np.float64)
            assert percentile_of(ties, q) == float(np.percentile(ties, q))
