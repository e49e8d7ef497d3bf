"""Grave names and neighbourhoods."""

from companion.middernacht.board import Grave


def test_grave_names_run_from_a1_to_f10() -> None:
    assert Grave.parse("a1").index == 0
    assert Grave.parse("F10").index == 59
    assert Grave.parse("C4").name == "C4"
    assert len(Grave.parse("B5").neighbours()) == 8


def test_a_corner_grave_has_three_neighbours_and_an_edge_grave_five() -> None:
    assert [g.name for g in Grave.parse("A1").neighbours()] == ["A2", "B1", "B2"]
    assert len(Grave.parse("F5").neighbours()) == 5
