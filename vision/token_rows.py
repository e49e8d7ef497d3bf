"""What a table of real vampire tokens can look like, as a check on what was read.

A player's row of vampires lies face down with only its two ends face up (RULINGS V2),
so three tokens of one colour lying face up side by side, evenly spaced, are not a
player's tokens: they are one motif printed over and over (the deposit mat's moons,
a pattern on a cloth or a box) that matched a token's face. The check looks only at
what was read (colours, faces, centres, outlines), so it works for any tile set.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.results import TokenDetection

#: Tokens of one colour closer than this many diameters (centre to centre) lie side
#: by side; two ends of a row three long are two diameters apart.
SIDE_BY_SIDE = 1.6
#: ...and a print's copies are this evenly spaced: every step that links them all by
#: the shortest ways (a row's gaps, a grid's sides) within this share of the typical.
EVEN_SPACING = 0.25
#: The fewest alike tokens side by side that make a print.
LEAST_COPIES = 3


def printed_copies(tokens: Sequence[TokenDetection]) -> set[int]:
    """Indices of the face-up tokens that are copies of one printed motif: at least
    three of one colour, each side by side with another, all evenly spaced."""
    printed: set[int] = set()
    colours = {t.colour for t in tokens if t.face_up}
    for colour in colours:
        alike = [i for i, t in enumerate(tokens) if t.face_up and t.colour == colour]
        if len(alike) < LEAST_COPIES:
            continue
        centres = np.array([tokens[i].center for i in alike], dtype=np.float64)
        diameters = np.array([_diameter(tokens[i].polygon) for i in alike])
        apart = np.linalg.norm(centres[:, None] - centres[None], axis=2)
        np.fill_diagonal(apart, np.inf)
        reach = SIDE_BY_SIDE * (diameters[:, None] + diameters[None]) / 2
        for group in _groups(apart <= reach):
            if len(group) < LEAST_COPIES:
                continue
            steps = _linking_steps(apart[np.ix_(group, group)])
            typical = float(np.median(steps))
            if np.all(np.abs(steps - typical) <= EVEN_SPACING * typical):
                printed.update(alike[k] for k in group)
    return printed


def _diameter(polygon: np.ndarray) -> float:
    """A token's diameter from its outline's area (its outline is an ellipse when seen
    at a slant)."""
    area = abs(cv2.contourArea(polygon.astype(np.float32)))
    return 2.0 * float(np.sqrt(area / np.pi))


def _linking_steps(apart: np.ndarray) -> np.ndarray:
    """The lengths of the shortest steps that link every point to the rest (the edges
    of their minimum spanning tree, grown from the first point)."""
    linked = np.zeros(len(apart), bool)
    linked[0] = True
    reach = apart[0].copy()
    steps = []
    for _ in range(len(apart) - 1):
        reach[linked] = np.inf
        nearest = int(np.argmin(reach))
        steps.append(reach[nearest])
        linked[nearest] = True
        reach = np.minimum(reach, apart[nearest])
    return np.array(steps)


def _groups(linked: np.ndarray) -> list[list[int]]:
    """The connected groups of a symmetric adjacency matrix."""
    unseen = set(range(len(linked)))
    groups = []
    while unseen:
        stack = [unseen.pop()]
        group = []
        while stack:
            i = stack.pop()
            group.append(i)
            neighbours = {int(j) for j in np.flatnonzero(linked[i])} & unseen
            unseen -= neighbours
            stack.extend(neighbours)
        groups.append(sorted(group))
    return groups
