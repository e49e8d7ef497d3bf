"""Arrays the recogniser caches for every caller are locked against writes."""

import numpy as np
import pytest

from vision import candidates, colour, model, rectify
from vision.shared_arrays import locked


def test_a_locked_array_cannot_be_written_into() -> None:
    array = locked(np.zeros(3))
    with pytest.raises(ValueError):
        array[0] = 1.0


def test_a_cached_grid_handed_to_one_caller_cannot_be_changed_for_the_next() -> None:
    shared = [
        candidates._unit_grid(2, 2),
        candidates._cell_corners(2, 2),
        *candidates._unit_circle(8),
        *candidates._sample_grid(),
        colour._shift_matrix(5, 0.5),
        *colour._recut_maps(16),
        rectify._patch_grid(8),
        model._blur_matrix(8, 1.0),
    ]
    for array in shared:
        with pytest.raises(ValueError):
            array.flat[0] = 1
