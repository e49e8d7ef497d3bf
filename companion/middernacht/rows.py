"""Checking the rows on the table against the referee, from what a camera saw.

``companion detect`` reports every vampire token it finds (its colour when face up, its
centre in image pixels). Here those tokens are sorted into the players' rows by *seat
zone* (the part of the image in front of each player; a phone photo of one row is a
zone of its own), ordered along the row, and compared with what the referee knows and
the table may see: the row's length and the colours of its two face-up ends.

The camera looks down on a row from above, so it cannot tell the player's left from his
right: the ends are compared as a pair. Everything here is plain data and plain
geometry, so the engine still imports nothing from the vision package.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from companion.middernacht.state import Table

Point = tuple[float, float]


@dataclass(frozen=True)
class SeenToken:
    """A vampire token as the camera reported it (``colour`` None when face down)."""

    colour: str | None
    center: Point
    confidence: float = 1.0

    @classmethod
    def from_json(cls, raw: Mapping[str, object]) -> SeenToken:
        """One entry of the ``tokens`` list of ``companion detect --json``."""
        x, y = raw["center"]  # type: ignore[misc]
        colour = raw.get("color") if raw.get("face_up") else None
        confidence = raw.get("confidence", 1.0)
        return cls(
            colour if isinstance(colour, str) else None,
            (float(x), float(y)),
            float(confidence) if isinstance(confidence, int | float) else 1.0,
        )


@dataclass(frozen=True)
class SeatZone:
    """The image area in front of one player, as a polygon in image pixels."""

    player: str
    polygon: tuple[Point, ...]

    def contains(self, point: Point) -> bool:
        """Even-odd ray casting: whether ``point`` lies inside the polygon."""
        x, y = point
        inside = False
        corners = self.polygon
        for (x1, y1), (x2, y2) in zip(corners, corners[1:] + corners[:1], strict=True):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
        return inside


@dataclass(frozen=True)
class RowMismatch:
    """One way a row on the table differs from the referee's, as a sentence."""

    player: str
    problem: str  # "length", "ends", "face-up-middle"
    sentence: str


def along_row(tokens: Sequence[SeenToken]) -> list[SeenToken]:
    """The tokens in order along the row's main axis (the direction they spread most).

    The axis is the principal direction of the centres, so a row laid at any angle in
    the image is read from one end to the other.
    """
    if len(tokens) < 2:
        return list(tokens)
    mx = sum(t.center[0] for t in tokens) / len(tokens)
    my = sum(t.center[1] for t in tokens) / len(tokens)
    sxx = sum((t.center[0] - mx) ** 2 for t in tokens)
    syy = sum((t.center[1] - my) ** 2 for t in tokens)
    sxy = sum((t.center[0] - mx) * (t.center[1] - my) for t in tokens)
    angle = 0.5 * math.atan2(2 * sxy, sxx - syy)
    dx, dy = math.cos(angle), math.sin(angle)
    return sorted(tokens, key=lambda t: (t.center[0] - mx) * dx + (t.center[1] - my) * dy)


#: Detections below this confidence are left out of a row.
MIN_CONFIDENCE = 0.7
#: Detections this sure set the row's pitch (the usual gap between token centres).
SURE_CONFIDENCE = 0.9
#: Tokens further apart than this many pitches belong to different groups.
LINK_PITCHES = 1.6


def the_row(tokens: Sequence[SeenToken]) -> list[SeenToken]:
    """The one row among the detections of a zone: the strongest chain of touching tokens.

    A row is laid token against token, so its tokens link up at about one pitch from
    each other, while false detections (a die, a shadow, a token cut by the image edge,
    a second small response inside a real token) are weak, isolated or off the chain.
    The pitch is the median nearest-neighbour distance of the sure detections; the
    chain with the largest total confidence wins. (The thresholds were chosen on
    synthetic photos of single rows, seeds 0-19, and checked on seeds 20-39.)
    """
    kept = [t for t in tokens if t.confidence >= MIN_CONFIDENCE]
    if len(kept) < 2:
        return list(kept)
    sure = [t for t in kept if t.confidence >= SURE_CONFIDENCE]
    sure = sure if len(sure) >= 2 else kept
    pitch = statistics.median(
        min(math.dist(t.center, o.center) for o in sure if o is not t) for t in sure
    )
    link = LINK_PITCHES * pitch
    best: list[SeenToken] = []
    unvisited = list(kept)
    while unvisited:
        chain = [unvisited.pop(0)]
        for token in chain:  # grows while it is walked
            near = [o for o in unvisited if math.dist(token.center, o.center) <= link]
            chain += near
            unvisited = [o for o in unvisited if o not in near]
        if sum(t.confidence for t in chain) > sum(t.confidence for t in best):
            best = chain
    return best


def group_rows(
    tokens: Sequence[SeenToken], players: Sequence[str], zone_of: Callable[[Point], str | None]
) -> dict[str, list[SeenToken]]:
    """Each player's row: the row :func:`the_row` finds among the tokens ``zone_of`` puts
    in front of him, in order along it.

    ``zone_of`` names the player whose zone holds a point, or None (a token in the
    box, or elsewhere on the table), so any way of cutting the table into seats fits.
    """
    rows: dict[str, list[SeenToken]] = {player: [] for player in players}
    for token in tokens:
        player = zone_of(token.center)
        if player in rows:
            rows[player].append(token)
    return {player: along_row(the_row(row)) for player, row in rows.items()}


def rows_in_zones(
    tokens: Sequence[SeenToken], zones: Sequence[SeatZone]
) -> dict[str, list[SeenToken]]:
    """Rows by seat polygons; a token in two overlapping zones goes to the first."""

    def zone_of(point: Point) -> str | None:
        return next((zone.player for zone in zones if zone.contains(point)), None)

    return group_rows(tokens, [zone.player for zone in zones], zone_of)


def _colour(colour: str | None) -> str:
    return colour or "face down"


def _ends(colours: list[str | None]) -> list[str | None]:
    """The end colours of a row: two, one for a single token, none for an empty row."""
    return colours[:1] + colours[-1:] if len(colours) > 1 else colours


def check_rows(state: Table, seen: Mapping[str, Sequence[SeenToken]]) -> list[RowMismatch]:
    """How the rows in ``seen`` (by player, in order along the row) differ from the game.

    Only what the table may see is compared (length, the two end colours, no face-up
    token in the middle), so a sentence never gives away a face-down colour.
    """
    mismatches: list[RowMismatch] = []
    for player in state.players:
        if player.name not in seen:
            continue
        row = list(seen[player.name])
        name = player.name
        if len(row) != len(player.row):
            mismatches.append(
                RowMismatch(
                    name,
                    "length",
                    f"The camera sees {len(row)} vampires in {name}'s row; "
                    f"the game counts {len(player.row)}.",
                )
            )
        expected = sorted(_ends([*player.row]), key=_colour)
        found = sorted(_ends([token.colour for token in row]), key=_colour)
        known = None not in expected
        if known and len(expected) == len(found) and expected != found:
            mismatches.append(
                RowMismatch(
                    name,
                    "ends",
                    f"The ends of {name}'s row look {' and '.join(map(_colour, found))}; "
                    f"the game has {' and '.join(map(_colour, expected))}.",
                )
            )
        face_up = sum(1 for token in row[1:-1] if token.colour is not None)
        if face_up:
            lie = "vampire lies" if face_up == 1 else "vampires lie"
            mismatches.append(
                RowMismatch(
                    name,
                    "face-up-middle",
                    f"In {name}'s row {face_up} {lie} face up in the middle; "
                    "only the two ends should.",
                )
            )
    return mismatches
