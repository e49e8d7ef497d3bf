"""Points of the point cards (B4) and of garlic soup (B10), as pure functions.

Points depend only on how many tiles of each colour and motif a player holds (hearts do
not change points), so every function works on a :data:`Grid`: ``grid[colour][motif]``
is a count. :func:`grid_of` builds it from a collection once; the rendezvous then scores
many cards, and the suggestion of B5 scores many candidate collections, without looking
at tiles again.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.bitenight.cards import Card, Kind
from companion.bitenight.tiles import COLOURS, MOTIFS, Motif, Tile

Grid = tuple[tuple[int, ...], ...]

_COLOUR_INDEX = {colour: i for i, colour in enumerate(COLOURS)}
_MOTIF_INDEX = {motif: i for i, motif in enumerate(MOTIFS)}
_GARLIC = _MOTIF_INDEX[Motif.GARLIC]


def cell(tile: Tile) -> tuple[int, int]:
    """The (colour, motif) indexes of a tile in a :data:`Grid`."""
    return _COLOUR_INDEX[tile.colour], _MOTIF_INDEX[tile.motif]


def grid_of(tiles: Iterable[Tile]) -> Grid:
    counts = [[0] * len(MOTIFS) for _ in COLOURS]
    for tile in tiles:
        c, m = cell(tile)
        counts[c][m] += 1
    return tuple(tuple(row) for row in counts)


def variety_bonus(kinds: int) -> int:
    """+2 for exactly four different colours (or motifs), +4 for all five."""
    return {4: 2, 5: 4}.get(kinds, 0)


def motif_points(grid: Grid, motif: int) -> int:
    """``motif:M``: 1 per tile of motif M, plus the colour-variety bonus."""
    column = [row[motif] for row in grid]
    return sum(column) + variety_bonus(sum(1 for n in column if n))


def colour_points(grid: Grid, colour: int) -> int:
    """``color:C``: 1 per tile of colour C, plus the motif-variety bonus."""
    row = grid[colour]
    return sum(row) + variety_bonus(sum(1 for n in row if n))


def pair_points(grid: Grid, motif: int) -> int:
    """``pair:M``: 3 for every two tiles of motif M in the same colour."""
    return sum(row[motif] // 2 * 3 for row in grid)


def combo_points(grid: Grid, first: int, second: int) -> int:
    """``combo:A+B``: 4 for every A and B of the same colour."""
    return sum(min(row[first], row[second]) * 4 for row in grid)


def colour_set_points(grid: Grid) -> int:
    """``color-set``: 5 per set of five colours; the scarcest colour counts the sets."""
    return 5 * min(sum(row) for row in grid)


def garlic_soup_points(grid: Grid) -> int:
    """``garlic-soup``: 3 per garlic tile (B10)."""
    return 3 * sum(row[_GARLIC] for row in grid)


def card_points(card: Card, grid: Grid) -> int:
    """What ``card`` scores for a collection; 0 for cards that score nothing."""
    kind = card.kind
    if kind is Kind.MOTIF:
        return motif_points(grid, _MOTIF_INDEX[card.motif])
    if kind is Kind.COLOUR:
        return colour_points(grid, _COLOUR_INDEX[card.colour])
    if kind is Kind.PAIR:
        return pair_points(grid, _MOTIF_INDEX[card.motif])
    if kind is Kind.COMBO:
        return combo_points(grid, _MOTIF_INDEX[card.motif], _MOTIF_INDEX[card.other])
    if kind is Kind.COLOUR_SET:
        return colour_set_points(grid)
    if kind is Kind.GARLIC_SOUP:
        return garlic_soup_points(grid)
    return 0


def cells_read(card: Card) -> frozenset[tuple[int, int]]:
    """The (colour, motif) cells whose counts a card's points depend on.

    The B5 suggestion rescores only the cards that read a cell a gift empties.
    """
    every = [(c, m) for c in range(len(COLOURS)) for m in range(len(MOTIFS))]
    kind = card.kind
    if kind in (Kind.MOTIF, Kind.PAIR):
        return frozenset(cell for cell in every if cell[1] == _MOTIF_INDEX[card.motif])
    if kind is Kind.COMBO:
        motifs = {_MOTIF_INDEX[card.motif], _MOTIF_INDEX[card.other]}
        return frozenset(cell for cell in every if cell[1] in motifs)
    if kind is Kind.COLOUR:
        return frozenset(cell for cell in every if cell[0] == _COLOUR_INDEX[card.colour])
    if kind is Kind.GARLIC_SOUP:
        return frozenset(cell for cell in every if cell[1] == _GARLIC)
    if kind is Kind.COLOUR_SET:
        return frozenset(every)
    return frozenset()


def score(card: Card, tiles: Iterable[Tile]) -> int:
    """What ``card`` scores for a collection of tiles."""
    return card_points(card, grid_of(tiles))


def scores_points(card: Card) -> bool:
    """Whether a card gives points at all (the B5 suggestion only weighs these)."""
    return card.is_point_card or card.kind is Kind.GARLIC_SOUP
