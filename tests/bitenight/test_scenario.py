"""``companion rendezvous``: golden scenarios, the INTERFACES.md shape, and bad files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.bitenight.scenario import parse_scenario, resolve, result_json
from companion.cli import main
from companion.errors import CompanionError
from tests.bitenight.helpers import scenario

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))

INTERFACES_EXAMPLE = {
    "players": ["Anna", "Ben", "Cleo"],
    "starting_player": "Anna",
    "collections": {"Anna": ["red-vampire", "red-vampire-heart"], "Ben": [], "Cleo": []},
    "graveyard": [],
    "pile": ["motif:vampire", "grave:any", "pair:vampire"],
    "choices": [{"step": 1, "player": "Anna", "tiles": ["red-vampire", "red-vampire-heart"]}],
}


def write(tmp_path: Path, content: object) -> str:
    path = tmp_path / "scenario.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


def test_there_are_golden_scenarios_for_every_card_family():
    assert len(GOLDEN) >= 12
    piles = [json.loads(path.read_text())["pile"] for path in GOLDEN]
    seen = {card.split(":")[0] for pile in piles for card in pile}
    assert seen >= {
        "motif",
        "color",
        "pair",
        "combo",
        "color-set",
        "grave",
        "skip-two",
        "graveyard-closed",
        "resurrection",
        "blood-wedding",
        "neck-bite",
        "hoarding",
        "servant",
        "vow-of-chastity",
        "garlic-soup",
        "sunrise",
        "banishment",
    }


@pytest.mark.parametrize("path", GOLDEN, ids=[path.stem for path in GOLDEN])
def test_golden_scenario(path):
    """Each golden file is a scenario (runnable as it is) plus its ``expected`` output."""
    case = json.loads(path.read_text())
    assert result_json(resolve(parse_scenario(case))) == case["expected"], case["why"]


def test_the_command_reproduces_a_golden_file(capsys):
    path = next(path for path in GOLDEN if path.stem == "full_advanced_cycle")
    assert main(["rendezvous", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(path.read_text())["expected"]


def test_the_command_prints_the_interfaces_json(tmp_path, capsys):
    assert main(["rendezvous", write(tmp_path, INTERFACES_EXAMPLE), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out) == ["steps", "points", "collections", "graveyard"]
    assert [list(step) for step in out["steps"]] == [["card", "effect", "points", "moves"]] * 3
    assert out["steps"][1]["moves"] == [
        {"tile": "red-vampire", "from": "Anna", "to": "graveyard"},
        {"tile": "red-vampire-heart", "from": "Anna", "to": "graveyard"},
    ]
    assert out["points"] == {"Anna": 2, "Ben": 0, "Cleo": 0}
    assert out["collections"] == {"Anna": [], "Ben": [], "Cleo": []}
    assert out["graveyard"] == ["red-vampire", "red-vampire-heart"]


def test_without_json_the_command_prints_a_readable_table(tmp_path, capsys):
    assert main(["rendezvous", write(tmp_path, INTERFACES_EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "grave:any" in out
    assert "red-vampire Anna->graveyard" in out
    assert "graveyard: red-vampire red-vampire-heart" in out


def test_graveyard_and_choices_may_be_left_out(tmp_path, capsys):
    bare = {
        key: INTERFACES_EXAMPLE[key]
        for key in ("players", "starting_player", "collections", "pile")
    }
    assert main(["rendezvous", write(tmp_path, bare), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["graveyard"] == ["red-vampire", "red-vampire-heart"]


def test_the_benchmark_prints_its_figures(capsys):
    assert main(["rendezvous", "--bench", "--piles", "3", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    assert "median" in out
    assert "p95" in out


def test_no_scenario_and_no_bench_is_bad_usage(capsys):
    assert main(["rendezvous"]) == 2


def table(**changes):
    base = scenario(
        ["grave:vampire", "motif:vampire"],
        {"Anna": ["red-vampire", "red-vampire-heart", "blue-vampire"], "Ben": ["red-monk"]},
    )
    base.update(changes)
    return base


BAD = {
    "malformed JSON": ('{"players": ["Anna", ', "not valid JSON"),
    "not an object": ("[1, 2]", "must be a JSON object"),
    "two players (B1)": (
        table(players=["Anna", "Ben"], collections={}),
        "3 or 4 players, not 2",
    ),
    "five players (B1)": (
        table(players=["A", "B", "C", "D", "E"], starting_player="A", collections={}),
        "3 or 4 players, not 5",
    ),
    "players not a list": (table(players="Anna"), "'players' must be a list"),
    "a name twice": (table(players=["Anna", "Ben", "Anna"]), "'Anna' is given twice"),
    "unknown starting player": (table(starting_player="Zoe"), "starting player 'Zoe'"),
    "missing starting player": (table(starting_player=None), "'starting_player' must be"),
    "unknown collection owner": (
        table(collections={"Anna": [], "Zoe": ["red-monk"]}),
        "'collections' names 'Zoe'",
    ),
    "collections not an object": (table(collections=[]), "'collections' must be an object"),
    "unknown tile": (table(graveyard=["red-werewolf"]), "'red-werewolf' is not a Moon tile id"),
    "tile ids not strings": (table(graveyard=[3]), "must be a list of tile ids"),
    "unknown card": (table(pile=["motif:werewolf"]), "'motif:werewolf' is not a Bite Night card"),
    "missing pile": (table(pile=None), "'pile' must be a list of card ids"),
    "a tile in two collections": (
        table(collections={"Anna": ["red-monk"], "Ben": ["red-monk"]}),
        "tile 'red-monk' is there only once but appears in Anna and Ben",
    ),
    "a tile in a collection and the graveyard": (
        table(graveyard=["blue-vampire"]),
        "tile 'blue-vampire' is there only once but appears in Anna and graveyard",
    ),
    "too many copies (B13)": (
        table(pile=["skip-two", "grave:any", "skip-two", "skip-two"]),
        "'skip-two' 3 times but the deck has only 2 copies",
    ),
    "advanced card in a basic game (B13)": (
        table(pile=["sunrise"], deck="basic"),
        "'sunrise' is an advanced card and this is a basic game",
    ),
    "choice of a tile not held": (
        table(choices=[{"step": 0, "player": "Anna", "tiles": ["red-vampire", "green-vampire"]}]),
        "step 0 ('grave:vampire'): Anna does not hold 'green-vampire'",
    ),
    "choice of a tile given away earlier": (
        table(
            pile=["grave:vampire", "grave:any"],
            choices=[
                {"step": 0, "player": "Anna", "tiles": ["red-vampire", "blue-vampire"]},
                {"step": 1, "player": "Anna", "tiles": ["red-vampire"]},
            ],
        ),
        "step 1 ('grave:any'): Anna does not hold 'red-vampire'",
    ),
    "choice of the wrong number": (
        table(choices=[{"step": 0, "player": "Anna", "tiles": ["red-vampire"]}]),
        "Anna must give up 2 tiles for 'grave:vampire', not 1",
    ),
    "choice of the wrong kind": (
        table(
            collections={"Anna": ["red-vampire", "red-vampire-heart", "blue-vampire", "red-monk"]},
            choices=[{"step": 0, "player": "Anna", "tiles": ["red-vampire", "red-monk"]}],
        ),
        "'red-monk' is not a vampire tile",
    ),
    "wrong forced choice": (
        table(choices=[{"step": 0, "player": "Ben", "tiles": ["red-monk"]}]),
        "Ben must give up 0 tiles for 'grave:vampire', not 1",
    ),
    "choice for a point card": (
        table(choices=[{"step": 1, "player": "Anna", "tiles": ["red-vampire"]}]),
        "'motif:vampire' asks Anna no choice there",
    ),
    "choice for a skipped card": (
        table(
            pile=["skip-two", "grave:vampire"],
            choices=[{"step": 1, "player": "Anna", "tiles": ["red-vampire", "blue-vampire"]}],
        ),
        "the choice of Anna at step 1 answers nothing",
    ),
    "choice for an unknown player": (
        table(choices=[{"step": 0, "player": "Zoe", "tiles": []}]),
        "choice 1 names 'Zoe', who is not one of the players",
    ),
    "choice for a step outside the pile": (
        table(choices=[{"step": 2, "player": "Anna", "tiles": []}]),
        "choice 1 is for step 2, but the pile has steps 0 to 1",
    ),
    "choice step not a number": (
        table(choices=[{"step": "0", "player": "Anna", "tiles": []}]),
        "choice 1 needs a whole 'step'",
    ),
    "two choices for one step": (
        table(choices=[{"step": 0, "player": "Anna", "tiles": []}] * 2),
        "two choices for Anna at step 0",
    ),
}


@pytest.mark.parametrize(("content", "problem"), BAD.values(), ids=BAD.keys())
def test_a_bad_scenario_exits_1_with_one_sentence(tmp_path, capsys, content, problem):
    assert main(["rendezvous", write(tmp_path, content), "--json"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert problem in captured.err


def test_a_missing_file_exits_1(tmp_path, capsys):
    assert main(["rendezvous", str(tmp_path / "nothing.json")]) == 1
    assert "cannot read scenario" in capsys.readouterr().err


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.sampled_from(["Anna", "red-monk", "grave:any"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)


@given(
    st.sampled_from(
        ["players", "starting_player", "collections", "graveyard", "pile", "choices", "deck"]
    ),
    JSON_VALUES,
)
def test_a_scenario_of_any_shape_is_refused_with_a_sentence_never_a_crash(field, value):
    broken = dict(INTERFACES_EXAMPLE, **{field: value})
    try:
        result_json(resolve(parse_scenario(broken)))
    except CompanionError as error:
        assert "\n" not in str(error)
