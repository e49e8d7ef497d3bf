"""Points moved between the full frame and the working size keep pixel centres lined up."""

import numpy as np

from vision.pixels import to_frame, to_work


def test_a_working_pixels_centre_is_the_middle_of_the_full_pixels_it_covers() -> None:
    # working pixel 0 at half size covers full pixels 0 and 1: its centre is 0.5
    assert to_frame(0.0, 2.0) == 0.5
    assert to_work(0.5, 2.0) == 0.0
    # and the last full pixel of a 1280-wide frame lies in working pixel 639's right half
    assert 639 < to_work(1279.0, 2.0) < 639.5


def test_moving_points_there_and_back_returns_them() -> None:
    points = np.array([[0.0, 0.0], [12.25, 700.5], [1279.0, 719.0]])
    for scale in (1.0, 1.6, 2.0, 3.0):
        assert np.allclose(to_frame(to_work(points, scale), scale), points)
