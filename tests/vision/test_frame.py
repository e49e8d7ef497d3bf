"""The frame every stage reads is locked against writes."""

import numpy as np
import pytest

from vision.frame import Frame
from vision.rectify import Pyramid


def test_a_stage_cannot_write_into_the_frame_the_stages_after_it_read() -> None:
    image = np.zeros((128, 128, 3), np.uint8)
    grey = np.zeros((64, 64), np.uint8)
    mask = np.zeros((64, 64), np.uint8)
    periods = (np.zeros((64, 64), np.float32),)
    frame = Frame(image, Pyramid(image), 2.0, grey, mask, [], periods, np.zeros((64, 64), bool))
    for array in (frame.image, frame.grey, frame.mask, frame.broken, *frame.pyramid.levels):
        with pytest.raises(ValueError):
            array[0, 0] = 1
    with pytest.raises(ValueError):
        frame.periods[0][0, 0] = 1
