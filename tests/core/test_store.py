from __future__ import annotations

import json
import sqlite3

import pytest

from companion.core.events import Event, IllegalEvent, InvalidSetup, StaleState
from companion.core.store import Store, UnknownGame
from companion.errors import CompanionError
from tests.core.toy import TALLY, add


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "games.db", resolve_rules=lambda kind: TALLY) as store:
        yield store


def test_a_game_reloaded_from_disk_equals_the_game_before_it_was_saved(store, tmp_path):
    game_id = store.create_game("tally", {"limit": 30}, title="Friday")
    store.play(game_id, add(4))
    store.play(game_id, add(5))
    before = store.load(game_id).game
    with Store(tmp_path / "games.db", resolve_rules=lambda kind: TALLY) as other:
        after = other.load(game_id)
    assert after.game.state == before.state
    assert after.game.log == before.log
    assert after.title == "Friday"


def test_the_database_is_in_wal_mode(store):
    assert store.connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_an_illegal_event_is_not_stored(store):
    game_id = store.create_game("tally", {"limit": 5})
    with pytest.raises(IllegalEvent):
        store.play(game_id, add(9))
    assert store.version(game_id) == 0


def test_a_stale_event_is_not_stored_twice(store):
    game_id = store.create_game("tally", {"limit": 30})
    store.play(game_id, add(1), expected_version=0)
    with pytest.raises(StaleState):
        store.play(game_id, add(1), expected_version=0)
    assert store.load(game_id).game.state.total == 1


def test_an_invalid_setup_creates_no_game(store):
    with pytest.raises(InvalidSetup):
        store.create_game("tally", {"limit": -1})
    assert store.list_games() == []


def test_undo_is_stored_as_an_event(store):
    game_id = store.create_game("tally", {"limit": 30})
    store.play(game_id, add(3))
    store.play(game_id, Event("undo"))
    assert store.load(game_id).game.state.total == 0
    assert store.version(game_id) == 2


def test_games_are_listed_newest_first_with_their_event_counts(store):
    first = store.create_game("tally", {"limit": 9}, title="one")
    second = store.create_game("tally", {"limit": 9}, title="two")
    store.play(second, add(1))
    listed = store.list_games()
    assert {g.id for g in listed} == {first, second}
    assert {g.id: g.events for g in listed} == {first: 0, second: 1}


def test_an_unknown_game_is_named(store):
    with pytest.raises(UnknownGame, match="no game with id 'nope'"):
        store.load("nope")


def test_export_then_import_rebuilds_the_same_game(store):
    game_id = store.create_game("tally", {"limit": 30}, title="export me")
    for n in (2, 3):
        store.play(game_id, add(n))
    exported = json.loads(json.dumps(store.export_game(game_id)))
    copy = store.import_game(exported)
    assert copy != game_id
    assert store.load(copy).game.state == store.load(game_id).game.state
    assert store.load(copy).title == "export me"


@pytest.mark.parametrize(
    "broken",
    [
        {},
        {"format": "companion-game", "version": 99},
        {"format": "companion-game", "version": 1, "kind": "tally", "setup": {}, "events": []},
        {
            "format": "companion-game",
            "version": 1,
            "kind": "tally",
            "setup": {"limit": 3},
            "events": [{"kind": "add", "data": {"n": 5}}],
        },
    ],
)
def test_an_import_that_does_not_replay_is_refused_and_stores_nothing(store, broken):
    with pytest.raises(CompanionError):
        store.import_game(broken)
    assert store.list_games() == []


def test_a_write_interrupted_inside_its_transaction_leaves_nothing(store):
    game_id = store.create_game("tally", {"limit": 30})
    with pytest.raises(sqlite3.IntegrityError), store.transaction() as db:
        db.execute(
            "INSERT INTO events (game_id, seq, event, at) VALUES (?, 0, '{}', 0)", (game_id,)
        )
        db.execute(
            "INSERT INTO events (game_id, seq, event, at) VALUES (?, 0, '{}', 0)", (game_id,)
        )
    assert store.version(game_id) == 0


def test_a_game_loaded_again_sees_events_another_store_appended(store, tmp_path):
    game_id = store.create_game("tally", {"limit": 30})
    store.play(game_id, add(2))
    store.load(game_id)  # now cached in this process
    with Store(tmp_path / "games.db", resolve_rules=lambda kind: TALLY) as other:
        other.play(game_id, add(3))
    reloaded = store.load(game_id).game
    assert reloaded.state.total == 5
    assert reloaded.log == (add(2), add(3))


def test_changing_a_loaded_game_does_not_change_what_the_store_holds(store):
    game_id = store.create_game("tally", {"limit": 30})
    store.play(game_id, add(2))
    loaded = store.load(game_id).game
    loaded.push(add(7))  # never stored
    assert store.load(game_id).game.state.total == 2


def test_a_refused_play_leaves_the_cached_game_as_it_was(store):
    game_id = store.create_game("tally", {"limit": 5})
    store.play(game_id, add(4))
    with pytest.raises(IllegalEvent):
        store.play(game_id, add(4))
    assert store.load(game_id).game.version == 1


def test_replay_from_the_cache_equals_replay_from_the_start(store):
    game_id = store.create_game("tally", {"limit": 99})
    for n in (1, 2, 3):
        store.play(game_id, add(n))
    store.play(game_id, Event("undo"))
    cached = store.load(game_id).game
    assert cached.state == cached.replay()
    assert cached.state.total == 3
