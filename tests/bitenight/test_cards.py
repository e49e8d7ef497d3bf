from __future__ import annotations

import pytest

from companion.bitenight.cards import (
    ALL_CARDS,
    CARD_IDS,
    DECK_COPIES,
    Card,
    Kind,
    PileError,
    UnknownCardError,
    check_pile,
)
from companion.bitenight.tiles import Colour, Motif


def test_the_deck_has_43_ids_and_45_cards_36_of_them_basic():
    assert len(CARD_IDS) == 43
    assert sum(DECK_COPIES.values()) == 45
    assert sum(n for card, n in DECK_COPIES.items() if not card.is_advanced) == 36
    assert sum(1 for card in ALL_CARDS if card.is_advanced) == 9


def test_26_point_cards_and_10_graveyard_cards():
    points = sum(n for card, n in DECK_COPIES.items() if card.is_point_card)
    graveyard = sum(
        n
        for card, n in DECK_COPIES.items()
        if card.kind in (Kind.GRAVE, Kind.GRAVE_ANY, Kind.SKIP_TWO, Kind.GRAVEYARD_CLOSED)
    )
    assert (points, graveyard) == (26, 10)


def test_grave_any_and_skip_two_come_twice():
    assert DECK_COPIES[Card.parse("grave:any")] == 2
    assert DECK_COPIES[Card.parse("skip-two")] == 2
    assert {n for card, n in DECK_COPIES.items() if card.id not in ("grave:any", "skip-two")} == {1}


def test_every_id_parses_back_to_itself():
    for text in CARD_IDS:
        assert Card.parse(text).id == text


def test_ids_name_what_the_card_reads():
    assert Card.parse("combo:maiden+garlic") == Card(Kind.COMBO, Motif.MAIDEN, other=Motif.GARLIC)
    assert Card.parse("color:purple") == Card(Kind.COLOUR, colour=Colour.PURPLE)
    assert Card.parse("grave:coffin") == Card(Kind.GRAVE, Motif.COFFIN)
    assert Card.parse("vow-of-chastity").is_advanced


@pytest.mark.parametrize(
    "text", ["combo:garlic+maiden", "motif:werewolf", "grave", "Skip-two", "", "colour:red"]
)
def test_an_unknown_card_id_is_refused_by_name(text):
    with pytest.raises(UnknownCardError, match="is not a Bite Night card id"):
        Card.parse(text)


def test_b13_a_pile_never_holds_more_copies_than_the_deck():
    check_pile([Card.parse("skip-two")] * 2, advanced=False)
    with pytest.raises(PileError, match=r"'skip-two' 3 times .* only 2 copies"):
        check_pile([Card.parse("skip-two")] * 3, advanced=False)
    with pytest.raises(PileError, match="only 1 copy"):
        check_pile([Card.parse("motif:monk")] * 2, advanced=True)


def test_b13_no_advanced_card_in_a_basic_game():
    with pytest.raises(PileError, match="'sunrise' is an advanced card"):
        check_pile([Card.parse("sunrise")], advanced=False)
    check_pile([Card.parse("sunrise")], advanced=True)
