"""One camera frame as the stages after the object mask read it (:class:`Frame`).

Built once per :meth:`vision.recogniser.Recogniser.detect`, after stage 1
(:mod:`vision.foreground`): the frame's arrays never change during recognition, so
the stages and searches take the frame as one argument, and pass between them only
what does change (the pieces chosen so far, the size of a tile across the frame).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from vision.candidates import Blob, Candidate
from vision.outlines import cloth_step
from vision.rectify import Pyramid
from vision.shared_arrays import locked


@dataclass(frozen=True, eq=False)
class Frame:
    """The frame's arrays, at full resolution and at the working size of the mask."""

    #: The frame, BGR, full resolution (colours corrected where a calibration says how).
    image: np.ndarray
    #: The same at halving resolutions, to cut pieces from (see :class:`Pyramid`).
    pyramid: Pyramid
    #: Full-frame pixels per working pixel.
    scale: float
    #: The frame at the working size, in grey.
    grey: np.ndarray
    #: The object mask at the working size (255: an object; see :mod:`vision.foreground`).
    mask: np.ndarray
    #: The mask's blobs, each one object or several touching ones.
    blobs: list[Blob]
    #: A checked cloth's period fields (see :attr:`vision.foreground.Foreground.periods`).
    periods: tuple[np.ndarray, ...] | None
    #: Where a checked cloth stops repeating itself (:attr:`vision.foreground.Foreground.broken`).
    broken: np.ndarray | None
    #: Small dark breaks of a checked cloth (:attr:`vision.foreground.Foreground.places`).
    places: np.ndarray | None = None
    #: Where the hue alone stands out from a plain cloth
    #: (:attr:`vision.foreground.Foreground.hued`).
    hued: np.ndarray | None = None

    def __post_init__(self) -> None:
        """Lock the arrays: every stage and search reads them, so one that wrote into
        them in place would change what the stages after it see, and a frame would
        read differently depending on what ran before. A write now raises instead."""
        levels = getattr(self.pyramid, "levels", ())
        periods = self.periods or ()
        for array in (
            self.image,
            self.grey,
            self.mask,
            self.broken,
            self.places,
            self.hued,
            *levels,
            *periods,
        ):
            if isinstance(array, np.ndarray):
                locked(array)

    @cached_property
    def cloth_step(self) -> float:
        """The cloth's own step in grey between neighbouring pixels
        (:func:`vision.outlines.cloth_step`), read once: several searches judge faint
        outlines against it."""
        return cloth_step(self.grey)


def within_frame(piece: Candidate, frame: Frame) -> bool:
    """Whether all of ``piece`` lies in the frame. A token the frame's edge cuts off
    cannot vouch for a row: a hand's pale skin at the frame's corner, cut as a disc
    half off the frame, matched a plain white face at 0.81, and a row was laid from it
    across the hand (woodcut and orbit seed 7 #6 re-encoded, three and four false
    tokens)."""
    height, width = frame.image.shape[:2]
    quad = piece.quad
    return bool(
        quad.min() >= 0 and quad[:, 0].max() <= width - 1 and quad[:, 1].max() <= height - 1
    )
