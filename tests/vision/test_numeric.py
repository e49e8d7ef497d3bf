"""The plain-Python mean and median give NumPy's floats bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from vision.numeric import mean_of, median_of


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
