from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.events import (
    REDO,
    UNDO,
    Event,
    Game,
    IllegalEvent,
    InvalidSetup,
    NothingToUndo,
    RuleError,
    StaleState,
)
from tests.core.toy import TALLY, add


def new_game() -> Game:
    return Game(TALLY, {"limit": 20})


def test_state_is_derived_from_the_log():
    game = new_game()
    game.push(add(3))
    game.push(add(4))
    assert game.state.total == 7
    assert game.version == 2
    assert game.replay() == game.state


def test_an_illegal_event_is_refused_and_changes_nothing():
    game = new_game()
    game.push(add(9))
    game.push(add(9))
    with pytest.raises(IllegalEvent, match="pass the limit"):
        game.push(add(9))
    assert game.state.total == 18
    assert game.version == 2


def test_check_says_whether_an_event_is_legal_without_appending():
    game = new_game()
    assert game.check(add(5)).total == 5
    assert game.version == 0


def test_an_invalid_setup_is_refused():
    with pytest.raises(InvalidSetup, match="positive"):
        Game(TALLY, {"limit": 0})


def test_an_event_made_on_an_old_state_is_refused():
    game = new_game()
    game.push(add(1), expected_version=0)
    with pytest.raises(StaleState, match="moved on"):
        game.push(add(1), expected_version=0)
    assert game.state.total == 1


def test_undo_removes_the_last_undoable_event():
    game = new_game()
    game.push(add(2))
    game.push(add(5))
    game.undo()
    assert game.state.total == 2
    assert [e.kind for e in game.log] == ["add", "add", UNDO]
    assert game.effective == (add(2),)


def test_undo_refuses_a_step_that_cannot_be_taken_back():
    game = new_game()
    game.push(add(2))
    game.push(Event("name", {"name": "Anna"}))
    with pytest.raises(NothingToUndo):
        game.undo()
    assert game.state.names == ("Anna",)


def test_undo_with_nothing_done_is_refused():
    with pytest.raises(NothingToUndo):
        new_game().undo()


def test_redo_brings_back_the_last_undone_event():
    game = new_game()
    game.push(add(2))
    game.undo()
    game.redo()
    assert game.state.total == 2
    with pytest.raises(NothingToUndo):
        game.redo()


def test_a_new_event_forgets_what_was_undone():
    game = new_game()
    game.push(add(2))
    game.undo()
    game.push(add(3))
    assert not game.can_redo
    with pytest.raises(NothingToUndo):
        game.redo()


def test_an_event_with_data_json_cannot_hold_is_refused():
    with pytest.raises(RuleError, match="not JSON"):
        new_game().push(Event("add", {"n": object()}))


@pytest.mark.parametrize(
    "raw",
    [None, [], {"kind": ""}, {"kind": "add", "data": []}, {"kind": "add", "actor": 3}],
)
def test_an_event_from_json_must_be_shaped_like_one(raw):
    with pytest.raises(RuleError):
        Event.from_json(raw)


actions = st.lists(
    st.one_of(st.integers(1, 9).map(add), st.just(Event(UNDO)), st.just(Event(REDO))),
    max_size=40,
)


def play_what_is_legal(events: list[Event]) -> Game:
    game = Game(TALLY, {"limit": 60})
    for event in events:
        with contextlib.suppress(RuleError):
            game.push(event)
    return game


@given(actions)
def test_replaying_the_log_always_rebuilds_the_same_state(events):
    game = play_what_is_legal(events)
    assert Game(TALLY, {"limit": 60}, game.log).state == game.state == game.replay()


@given(actions, st.integers(1, 9))
def test_undo_then_redo_is_identity(events, n):
    game = play_what_is_legal([*events, add(n)])
    if not game.can_undo:
        return
    before = game.state
    game.undo()
    game.redo()
    assert game.state == before
