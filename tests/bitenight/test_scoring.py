"""B4 and B10: what each point card is worth, with the rulebook's own examples."""

from __future__ import annotations

from companion.bitenight.cards import Card
from companion.bitenight.scoring import score
from companion.bitenight.tiles import parse_tiles


def points(card: str, *tiles: str) -> int:
    return score(Card.parse(card), parse_tiles(tiles))


def test_b4_rulebook_example_six_vampires_in_four_colours_score_8():
    vampires = [
        "red-vampire",
        "red-vampire-heart",
        "blue-vampire",
        "blue-vampire-heart",
        "green-vampire",
        "yellow-vampire",
    ]
    assert points("motif:vampire", *vampires) == 8


def test_b4_motif_card_one_point_per_tile():
    assert points("motif:monk", "red-monk", "red-monk-heart", "blue-monk", "red-garlic") == 3


def test_b4_motif_bonus_for_four_colours():
    assert points("motif:coffin", "red-coffin", "blue-coffin", "green-coffin", "purple-coffin") == 6


def test_b4_motif_bonus_for_five_colours():
    five = ["red-coffin", "blue-coffin", "green-coffin", "purple-coffin", "yellow-coffin"]
    assert points("motif:coffin", *five) == 9


def test_b4_no_motif_bonus_for_three_colours():
    assert points("motif:maiden", "red-maiden", "blue-maiden", "green-maiden-heart") == 3


def test_b4_colour_card_one_point_per_tile():
    assert points("color:red", "red-monk", "red-monk-heart", "blue-monk") == 2


def test_b4_colour_bonus_for_four_motifs():
    assert points("color:blue", "blue-vampire", "blue-monk", "blue-maiden", "blue-coffin") == 6


def test_b4_colour_bonus_for_five_motifs():
    tiles = [
        "blue-vampire",
        "blue-monk",
        "blue-maiden",
        "blue-coffin",
        "blue-garlic",
        "blue-garlic-heart",
    ]
    assert points("color:blue", *tiles) == 10


def test_b4_pair_is_two_of_a_motif_in_one_colour():
    assert points("pair:vampire", "red-vampire", "red-vampire-heart") == 3
    assert points("pair:vampire", "red-vampire", "blue-vampire") == 0
    pairs = ["red-vampire", "red-vampire-heart", "blue-vampire", "blue-vampire-heart"]
    assert points("pair:vampire", *pairs, "green-vampire") == 6


def test_b4_rulebook_example_two_maiden_garlic_combinations_score_8():
    tiles = ["red-maiden", "red-garlic", "blue-maiden-heart", "blue-garlic", "green-maiden"]
    assert points("combo:maiden+garlic", *tiles) == 8


def test_b4_combination_counts_each_tile_once_per_card():
    tiles = ["red-maiden", "red-maiden-heart", "red-garlic"]
    assert points("combo:maiden+garlic", *tiles) == 4
    assert points("combo:maiden+garlic", *tiles, "red-garlic-heart") == 8


def test_b4_colour_set_is_five_points_per_set_of_five_colours():
    one_set = ["red-vampire", "blue-monk", "yellow-maiden", "green-coffin", "purple-garlic"]
    assert points("color-set", *one_set) == 5
    assert points("color-set", *one_set, "red-monk", "blue-vampire") == 5
    second = ["red-monk", "blue-vampire", "yellow-garlic", "green-garlic", "purple-monk"]
    assert points("color-set", *one_set, *second) == 10
    assert points("color-set", *one_set[:4]) == 0


def test_b4_hearts_do_not_change_points():
    plain = ["red-vampire", "blue-vampire", "green-vampire", "yellow-vampire"]
    hearts = [f"{tile}-heart" for tile in plain]
    for card in ("motif:vampire", "color:red", "pair:vampire", "color-set"):
        assert points(card, *plain) == points(card, *hearts)


def test_b10_garlic_soup_scores_3_per_garlic():
    assert points("garlic-soup", "red-garlic", "red-garlic-heart", "blue-garlic", "red-monk") == 9


def test_cards_without_points_score_nothing():
    for card in ("grave:any", "skip-two", "sunrise", "banishment"):
        assert points(card, "red-garlic", "red-vampire") == 0
