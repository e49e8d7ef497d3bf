"""What a table of real vampire tokens can look like, as a check on what was read.

A player's row of vampires lies face down with only its two ends face up (RULINGS V2),
so three tokens of one colour lying face up side by side, evenly spaced, are not a
player's tokens: they are one motif printed over and over (the deposit mat's moons,
a pattern on a cloth or a box) that matched a token's face. The check looks only at
what was read (colours, faces, centres, outlines), so it works for any tile set.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from vision.results import TokenDetection

#: Tokens closer than this many diameters (centre to centre) lie side by side; two
#: ends of a row three long are two diameters apart.
SIDE_BY_SIDE = 1.6
#: A print's copies link up this far apart: side by side, or with one copy between
#: them not read (on a dim table one of the mat's moons may match no token).
PRINT_REACH = 2.6
#: ...and a print's copies are this evenly spaced: every step that links them all by
#: the shortest ways (a row's gaps, a grid's sides) is the typical one or twice it (a
#: copy not read), within this share of the typical.
EVEN_SPACING = 0.25
#: Two neighbours lie on opposite sides of a token when the angle between them is over
#: 120° (a row may bend a little where a token was pushed in).
OPPOSITE = -0.5
#: A group lies in one line when none of it lies further than this many diameters
#: from the line through it (a grid of the mat's moons lies half a step off).
STRAIGHT = 0.35
#: A row's step, as a share of its tokens' diameter (as cut): tokens lie side by side,
#: up to a tenth apart, and do not overlap; a cut is sized to a tenth (rows on rendered
#: photos: 0.90-1.15; the deposit mat's moons, two read as faces, 0.83).
STEP_RANGE = (0.88, 1.2)
#: Two tokens closer than this share of their diameters (centre to centre) would lie
#: over each other: one is a cut between two (a row's neighbours lie 0.88 or more apart,
#: :data:`STEP_RANGE`).
OVERLAP = 0.7
#: A token lies in line with a row when the angle between the row and it is under
#: about 25°...
IN_LINE = 0.9
#: ...and it lies within this many diameters of the row's line: 25° over four steps
#: past a row's end is nearly two tokens aside, where a heap of tiles read as backs
#: beside a row's end lay (stitch seed 2024 #3 at the real level, five "backs").
ACROSS_ROW = 1.0
#: The fewest alike tokens side by side that make a print.
LEAST_COPIES = 3
#: Backs with no face reported beside them stand as a row (its ends missed, or read
#: too unsurely to report) only where they were read at least this surely (their
#: median confidence): the deposit mat's printed circles, evenly spaced in a line,
#: passed for four backs (0.19-0.34) between two unsure faces (0.35-0.38) on inkwash
#: seed 2024 #11; no other photo of the 52 styles' runs (as rendered and at the real
#: level) had backs with no face reported beside them read so unsurely.
FACELESS_ROW_MIN = 0.5


def as_the_rules_allow(
    tokens: Sequence[TokenDetection], unsure: Sequence[TokenDetection], doubt: float
) -> tuple[list[TokenDetection], list[tuple[TokenDetection, str]]]:
    """The tokens read (and the ``unsure`` ones, too unsure to report alone) as they can
    lie in a game, and the ones turned down with the reason.

    A face printed side by side with copies of itself is no token; a face read less
    surely than ``doubt`` in a row's middle is a back; an unsure token there is a back
    too, one read face up at a row's end is that face (:func:`ends_among_unsure`), and
    elsewhere it stays unreported.
    """
    over = over_surer(tokens)
    turned_down = [(tokens[i], "lies over a surer token") for i in sorted(over)]
    tokens = [t for i, t in enumerate(tokens) if i not in over]
    printed = printed_copies(tokens)
    why = "one of {} faces printed side by side, not a player's row"
    turned_down += [(tokens[i], why.format(tokens[i].colour)) for i in sorted(printed)]
    tokens = [t for i, t in enumerate(tokens) if i not in printed]
    kept = backs_in_middles(alike_backs_turned_over(tokens, unsure), doubt, unsure)
    backs, rest = backs_among_unsure(kept, unsure)
    ends, rest = ends_among_unsure(kept, rest, backs)
    turned_down += [(t, f"unsure ({t.confidence:.2f})") for t in rest]
    reported = kept + backs + ends
    faceless = backs_with_no_face(reported, rest)
    why = "a back with no face-up token in its row"
    turned_down += [(reported[i], why) for i in sorted(faceless)]
    return [t for i, t in enumerate(reported) if i not in faceless], turned_down


def backs_with_no_face(
    tokens: Sequence[TokenDetection], unsure: Sequence[TokenDetection] = ()
) -> set[int]:
    """Indices of the backs among ``tokens`` whose group of tokens lying side by side
    (with the ``unsure`` ones, which may be a row's ends read too unsurely to report)
    holds no face-up token and is no row (:func:`a_row_of_backs`), or holds no face
    reported and its backs were read unsurely (:data:`FACELESS_ROW_MIN`).

    By the rules a row's ends lie face up, and a row of one is face up, so backs with
    no face beside them are a row whose ends were missed or no player's row at all.
    What reads as backs alone is a tile whose print looks like the back: the black
    grooved rim of a record-like tile on a dark cloth, cut at a token's size round its
    label, read as backs at 0.96 (36 of them on one photo, in clumps round the labels,
    no face among them). A row whose two white ends were both missed lies in a
    straight line of evenly spaced backs, and is kept; so are backs lying on in line
    with a row that has a face, past tokens not read (a row's back beyond two backs
    that were missed).
    """
    pieces = [*tokens, *unsure]
    if all(t.face_up for t in tokens):
        return set()
    _, _, _, _, beside = _side_by_side(pieces)
    groups = _groups(beside)
    rows = [g for g in groups if len(g) >= 2 and any(pieces[i].face_up for i in g)]
    faceless: set[int] = set()
    for group in groups:
        reported = [i for i in group if i < len(tokens)]
        if not reported or any(pieces[i].face_up for i in reported):
            continue
        sure = np.median([pieces[i].confidence for i in reported]) >= FACELESS_ROW_MIN
        if sure and (any(pieces[i].face_up for i in group) or a_row_of_backs(pieces, group)):
            continue
        if any(_in_line_with(pieces, group, row) for row in rows if row is not group):
            continue
        faceless |= set(reported)
    return faceless


#: A row's tokens missed between a part read and the rest of it, at most.
_MISSED_IN_A_ROW = 3


def _in_line_with(
    tokens: Sequence[TokenDetection], group: Sequence[int], row: Sequence[int]
) -> bool:
    """Whether a token of ``group`` lies on along the straight line of ``row``, a few
    steps past its nearer end (:data:`_MISSED_IN_A_ROW` tokens not read between), and
    within :data:`ACROSS_ROW` of that line."""
    centres = np.array([t.center for t in tokens], dtype=np.float64)
    diameter = float(np.median([_diameter(tokens[i].polygon) for i in row]))
    inside = centres[list(row)]
    line = _straight_line(inside, diameter)
    if line is None:
        return False
    way = line[0]
    across_way = np.array([-way[1], way[0]])
    middle = inside.mean(axis=0)
    reach = (_MISSED_IN_A_ROW + 1) * STEP_RANGE[1] * diameter
    for k in group:
        offsets = centres[k] - inside
        apart = np.linalg.norm(offsets, axis=1)
        nearest = int(np.argmin(apart))
        if (
            apart[nearest] <= reach
            and abs(float(offsets[nearest] @ way)) >= IN_LINE * apart[nearest]
            and abs(float((centres[k] - middle) @ across_way)) <= ACROSS_ROW * diameter
        ):
            return True
    return False


def a_row_of_backs(tokens: Sequence[TokenDetection], group: Sequence[int]) -> bool:
    """Whether the tokens of ``group`` lie as a row's middle does: two or more in one
    straight line (:data:`STRAIGHT`), each step between neighbours a token's diameter
    (:data:`STEP_RANGE`) and alike (:data:`EVEN_SPACING`)."""
    if len(group) < 2:
        return False
    centres = np.array([tokens[i].center for i in group], dtype=np.float64)
    diameter = float(np.median([_diameter(tokens[i].polygon) for i in group]))
    line = _straight_line(centres, diameter)
    if line is None:
        return False
    steps = np.diff(np.sort(line[1]))
    low, high = STEP_RANGE
    typical = float(np.median(steps))
    return bool(
        low * diameter <= steps.min()
        and steps.max() <= high * diameter
        and np.all(np.abs(steps - typical) <= EVEN_SPACING * typical)
    )


def over_surer(tokens: Sequence[TokenDetection]) -> set[int]:
    """Indices of the tokens lying over a token read more surely (:data:`OVERLAP`):
    tokens do not lie on one another, and a row's blob cut at the wrong places can read
    as a back between two (``moonrise``: 0.55 of a token from each, matched 0.73)."""
    if len(tokens) < 2:
        return set()
    _, diameters, _, apart, _ = _side_by_side(tokens)
    over: set[int] = set()
    for i in sorted(range(len(tokens)), key=lambda k: -tokens[k].confidence):
        if i in over:
            continue
        near = apart[i] < OVERLAP * (diameters[i] + diameters) / 2
        surest = tokens[i].confidence
        over |= {int(j) for j in np.flatnonzero(near) if tokens[j].confidence <= surest}
    return over


def printed_copies(tokens: Sequence[TokenDetection]) -> set[int]:
    """Indices of the face-up tokens that are copies of one printed motif: at least
    three of one colour, each side by side with another, all evenly spaced, and not
    the inside of a player's row (see :func:`runs_on_into_a_token`)."""
    return {
        i
        for group in printed_groups(tokens)
        if not runs_on_into_a_token(tokens, group)
        for i in group
    }


def runs_on_into_a_token(tokens: Sequence[TokenDetection], group: Sequence[int]) -> bool:
    """Whether the tokens of ``group`` lie in one line that runs on, side by side past
    one of its ends, into a token not of the group.

    That is a player's row whose backs were all read as faces of one colour (a back
    small and blurred enough loses its own pattern and matches a face's outline
    better; its colour is then a guess, alike along the row): the row's ends lie past
    the group's, or one end was read as that colour too and the other lies past it.
    A print's copies (a line or a grid of moons) have only the print round them.
    """
    centres, diameters, offsets, apart, beside = _side_by_side(tokens)
    line = _straight_line(centres[list(group)], float(np.median(diameters[list(group)])))
    if line is None:
        return False  # a grid, or no line at all
    way, along = line
    others = [j for j in range(len(tokens)) if j not in set(group)]
    for end, outward in ((group[int(np.argmin(along))], -1.0), (group[int(np.argmax(along))], 1.0)):
        for j in others:
            ahead = outward * float(offsets[end, j] @ way) >= -OPPOSITE * apart[end, j]
            if beside[end, j] and ahead:
                return True
    return False


def alike_backs_turned_over(
    tokens: Sequence[TokenDetection], unsure: Sequence[TokenDetection] = ()
) -> list[TokenDetection]:
    """The tokens, with the faces of one colour that lie in a line running on into
    another token (:func:`runs_on_into_a_token`) taken for backs where they lie in a
    row's middle (:func:`row_middles`, judged with the ``unsure`` tokens), however
    surely they were read.

    Such a line is a player's row whose backs were read as faces of one colour: a
    back whose own art is finer than a small token shows (a biscuit's docking holes
    at 30 px) keeps only its rim, which matches a face's outline better, and its
    colour is a guess, alike along the row (``cookie`` seed 2024 #9: four backs read
    as yellow faces at 0.94-1.0 between a blue and a red end). By the rules a row's
    middle lies face down, and copies of one face in a line that a token continues
    are no print (:func:`printed_copies`) nor a row's two ends."""
    if len(tokens) < LEAST_COPIES:
        return list(tokens)
    inside = {i for g in printed_groups(tokens) if runs_on_into_a_token(tokens, g) for i in g}
    if not inside:
        return list(tokens)
    middles = row_middles([*tokens, *unsure])
    return [_as_back(t) if i in inside and i in middles else t for i, t in enumerate(tokens)]


def printed_groups(tokens: Sequence[TokenDetection]) -> list[list[int]]:
    """The groups of face-up tokens (by index) that :func:`printed_copies` takes for
    copies of one printed motif, each group one print."""
    printed: list[list[int]] = []
    colours = {t.colour for t in tokens if t.face_up}
    for colour in colours:
        alike = [i for i, t in enumerate(tokens) if t.face_up and t.colour == colour]
        if len(alike) < LEAST_COPIES:
            continue
        centres = np.array([tokens[i].center for i in alike], dtype=np.float64)
        diameters = np.array([_diameter(tokens[i].polygon) for i in alike])
        apart = np.linalg.norm(centres[:, None] - centres[None], axis=2)
        np.fill_diagonal(apart, np.inf)
        reach = PRINT_REACH * (diameters[:, None] + diameters[None]) / 2
        for group in _groups(apart <= reach):
            if len(group) < LEAST_COPIES:
                continue
            steps = _linking_steps(apart[np.ix_(group, group)])
            typical = float(np.median(steps[steps <= 1.5 * steps.min()]))
            off = np.minimum(np.abs(steps - typical), np.abs(steps - 2 * typical))
            heaped = _heaped(centres[group], diameters[group], apart[np.ix_(group, group)])
            if np.all(off <= EVEN_SPACING * typical) or heaped:
                printed.append([alike[k] for k in group])
    return printed


def _heaped(centres: np.ndarray, diameters: np.ndarray, apart: np.ndarray) -> bool:
    """Whether face-up copies of one colour (linked a few diameters apart) lie heaped:
    at least :data:`LEAST_COPIES` of them side by side with another, and those not in
    one line.

    By the rules a player's face-up tokens are his row's two ends (or a row of one),
    so three of one colour never lie together off a line; the deposit mat's moons,
    cut into small discs over and over, do (on an empty table, woodcut and orbit read
    eight and six white "tokens" over two moons, unevenly spaced). ``apart`` holds their
    distances, infinite from one to itself."""
    beside = (apart <= SIDE_BY_SIDE * (diameters[:, None] + diameters[None]) / 2).any(axis=1)
    if beside.sum() < LEAST_COPIES:
        return False
    return _straight_line(centres[beside], float(np.median(diameters[beside]))) is None


def backs_in_middles(
    tokens: Sequence[TokenDetection], doubt: float, unsure: Sequence[TokenDetection] = ()
) -> list[TokenDetection]:
    """The tokens, with each face read less surely than ``doubt`` in the middle of a
    row taken for a back (see :func:`row_middles`).

    The row is judged with the ``unsure`` tokens in it: a row of small backs reads
    every other back unsurely, and the sure pieces alone then lie two steps apart,
    none side by side with another, so a back read as a pale face between two
    unsure backs kept its face (a row of eight with three unsure backs: two of its
    backs reported as white faces, read 0.41 and 0.43)."""
    middles = row_middles([*tokens, *unsure])
    return [
        _as_back(t) if i in middles and t.face_up and t.confidence < doubt else t
        for i, t in enumerate(tokens)
    ]


def backs_among_unsure(
    tokens: Sequence[TokenDetection], unsure: Sequence[TokenDetection]
) -> tuple[list[TokenDetection], list[TokenDetection]]:
    """Of the ``unsure`` tokens (read too unsurely to report), those lying in the middle
    of a row with the sure ``tokens``, which by the rules are backs, and the rest.

    A small token's back and face are easily confused; in a row's middle only a back
    can lie, so there the piece is reported as one rather than left as a gap.
    """
    middles = row_middles([*tokens, *unsure])
    backs, rest = [], []
    for k, t in enumerate(unsure):
        if len(tokens) + k in middles:
            backs.append(_as_back(t))
        else:
            rest.append(t)
    return backs, rest


def ends_among_unsure(
    tokens: Sequence[TokenDetection],
    unsure: Sequence[TokenDetection],
    backs: Sequence[TokenDetection] = (),
) -> tuple[list[TokenDetection], list[TokenDetection]]:
    """Of the ``unsure`` tokens read face up, those lying at the end of a row of the
    sure ``tokens``, and the rest.

    A row's end lies face up, and a face may read unsurely there where a back would
    not: a white token whose figure is white too is a plain disc, which matches any pale
    round thing a little (0.2-0.4 on four styles' rows). Where it lies one more even
    step past a back in the row's middle (a back with a token on its other side), by
    the rules nothing but a face can lie: the piece is reported as the face it was read.
    The row must be read surely: a printed line of squares (the deposit mat's) reads
    as unsure backs, whose "ends" would lengthen a row that is not there. The back
    beside the end may be one of the ``backs`` found among the unsure tokens
    (:func:`backs_among_unsure`) where a sure back lies on its other side: a row's
    last back beside a plain white end reads as unsurely as the end (a row of six on
    a pale cloth: its last back 0.22, the end 0.24, the back before them 0.92).
    """
    ends, rest = [], []
    for t in unsure:
        if t.face_up and (
            _ends_a_row([*tokens, t]) or (backs and _ends_a_row([*tokens, *backs, t], len(tokens)))
        ):
            ends.append(t)
        else:
            rest.append(t)
    return ends, rest


def _ends_a_row(tokens: Sequence[TokenDetection], sure: int | None = None) -> bool:
    """Whether the last of ``tokens`` lies side by side with a back that lies side by side
    with another token on its opposite side, the two steps alike (:data:`EVEN_SPACING`),
    and no token lies past it (then it would be a middle). Of ``tokens`` the first
    ``sure`` (all but the last unless given) are read surely; a back beside the last
    that is not needs a sure back on its other side."""
    _, _, offsets, apart, beside = _side_by_side(tokens)
    last = len(tokens) - 1
    sure = last if sure is None else sure
    neighbours = np.flatnonzero(beside[last])
    if len(neighbours) != 1 or tokens[neighbours[0]].face_up:
        return False
    back = int(neighbours[0])
    step = apart[back, last]
    toward = offsets[back, last] / step
    for k in np.flatnonzero(beside[back]):
        if k == last or (back >= sure and (k >= sure or tokens[k].face_up)):
            continue
        if (
            float(offsets[back, k] @ toward) / apart[back, k] <= OPPOSITE
            and abs(apart[back, k] - step) <= EVEN_SPACING * step
        ):
            return True
    return False


def row_middles(tokens: Sequence[TokenDetection]) -> set[int]:
    """Indices of the tokens lying in the middle of a row: side by side with a token
    on each of two roughly opposite sides. By the rules these lie face down (a row is
    turned face up only at its ends, and a vampire given away joins the middle face
    down), so a face read there is a back unless it is read clearly."""
    if len(tokens) < 3:
        return set()
    _, _, offsets, apart, beside = _side_by_side(tokens)
    middles = set()
    for i in range(len(tokens)):
        ways = offsets[i, beside[i]] / apart[i, beside[i], None]
        if len(ways) >= 2 and float((ways @ ways.T).min()) <= OPPOSITE:
            middles.add(i)
    return middles


def _as_back(token: TokenDetection) -> TokenDetection:
    """``token`` reported face down, where it lies and as surely as it was read."""
    return TokenDetection(None, False, token.center, token.polygon, token.confidence)


def _straight_line(centres: np.ndarray, diameter: float) -> tuple[np.ndarray, np.ndarray] | None:
    """The way of the line through ``centres`` (a unit vector) and how far along it each
    lies from their middle, or None where one lies further than :data:`STRAIGHT`
    ``diameter`` from that line (a grid, a clump, no line at all)."""
    middle = centres.mean(axis=0)
    axes = np.linalg.svd(centres - middle)[2]
    along, across = (centres - middle) @ axes[0], (centres - middle) @ axes[1]
    if np.abs(across).max() > STRAIGHT * diameter:
        return None
    return axes[0], along


def _side_by_side(
    tokens: Sequence[TokenDetection],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The tokens' centres and diameters, the offsets between them (``[i, j]``: from
    ``i`` to ``j``) and their lengths (infinite from a token to itself), and which
    pairs lie side by side (:data:`SIDE_BY_SIDE`)."""
    centres = np.array([t.center for t in tokens], dtype=np.float64)
    diameters = np.array([_diameter(t.polygon) for t in tokens])
    offsets = centres[None] - centres[:, None]
    apart = np.linalg.norm(offsets, axis=2)
    np.fill_diagonal(apart, np.inf)
    beside = apart <= SIDE_BY_SIDE * (diameters[:, None] + diameters[None]) / 2
    return centres, diameters, offsets, apart, beside


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


def step_counts(length: float, diameter: float) -> list[int]:
    """The numbers of steps, two or more, that a row ``length`` long between two of
    its tokens may take, nearest first: each step within :data:`STEP_RANGE` of the
    tokens' ``diameter``. A token's cut is sized only to a tenth or so, so a long row
    may take two counts."""
    shortest, longest = STEP_RANGE
    lowest = max(2, math.ceil(length / (diameter * longest)))
    highest = math.floor(length / (diameter * shortest))
    counts = range(lowest, highest + 1)
    return sorted(counts, key=lambda n: abs(length / n / diameter - 1))


def gap_step(
    centres: np.ndarray,
    diameters: np.ndarray,
    i: int,
    j: int,
    frame_step: float | None = None,
) -> float:
    """The step of a row across a gap between its tokens ``i`` and ``j`` (of
    ``centres``, sized ``diameters`` as cut): the step from either to the next token of
    its row straight behind it, where one lies there a step their size allows, else
    the step measured between other tokens side by side in the frame (``frame_step``,
    where given), else their diameter.

    Tokens lie side by side, so a row's own step is measured between two neighbours to
    a pixel or two; a cut is sized only to a tenth or so, and a face in colours near
    the cloth's is cut smaller still (a 40 px end of a row cut 29 px put a gap four
    steps long at five). Tokens are one size on the table, so another row's step says
    the step of a row of two lone ends better than their cuts (two ends 141 px apart
    cut 20 and 21 px put a gap six steps long at seven; the frame's backs side by side
    stepped 23.5 px)."""
    centres = np.asarray(centres, np.float64)
    way = centres[j] - centres[i]
    way /= np.linalg.norm(way)
    measured = [
        step
        for end, into in ((i, way), (j, -way))
        if (step := _step_behind(centres, diameters, end, into)) is not None
    ]
    if measured:
        return float(np.mean(measured))
    if frame_step is not None:
        return frame_step
    return float(diameters[i] + diameters[j]) / 2


def _step_behind(
    centres: np.ndarray, diameters: np.ndarray, end: int, way: np.ndarray
) -> float | None:
    """The step from token ``end`` to the nearest token straight behind it (away from
    ``way``) that lies a step their size allows from it (:data:`STEP_RANGE`), if any."""
    offsets, apart, stepped = a_step_from(centres, diameters, end)
    behind = (offsets @ way <= -IN_LINE * apart) & stepped
    behind[end] = False
    return float(apart[behind].min()) if behind.any() else None


def a_step_from(
    centres: np.ndarray, diameters: np.ndarray, k: int, slack: tuple[float, float] = (1.0, 1.0)
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The offsets from token ``k`` to each of ``centres`` (sized ``diameters``), their
    lengths, and which lie one step of a row from it: as far as their sizes allow
    side by side (:data:`STEP_RANGE`, its ends scaled by ``slack`` where the sizes are
    a cut's rather than a rim's)."""
    offsets = centres - centres[k]
    apart = np.linalg.norm(offsets, axis=1)
    steps = apart / ((diameters + diameters[k]) / 2)
    shortest, longest = STEP_RANGE[0] * slack[0], STEP_RANGE[1] * slack[1]
    return offsets, apart, (steps >= shortest) & (steps <= longest)


def places_between(start: np.ndarray, end: np.ndarray, steps: int) -> np.ndarray:
    """The places of a row's tokens between two of them (``start`` and ``end``, not
    included) ``steps`` steps apart."""
    start = np.asarray(start, np.float64)
    span = np.asarray(end, np.float64) - start
    return start + span * (np.arange(1, steps) / steps)[:, None]
