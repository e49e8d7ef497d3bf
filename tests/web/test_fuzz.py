"""Property-based fuzzing of every route: whatever a stranger sends, never a 500, and a
refused request changes nothing.

The routes are read from ``app.url_map`` when the tests are collected, so a page added
later (another game's blueprint) is fuzzed without anyone touching this file. Each route
gets random path and query values (real game ids, seats and room codes mixed with junk),
every method it accepts and a few it does not, random headers (with and without the
CSRF token and a same-site Origin), and bodies that are well-formed requests with random
values, malformed JSON, JSON nested past the parser's limit, random bytes, or multipart
uploads of random bytes as a photo. Requests come from three browsers: the host screen,
a phone holding a seat, a stranger.

"Changes nothing" is checked on the database: every game's event count, the rooms and
the seat tokens are the same after any request answered with a 4xx, and after any GET
or HEAD whatever its answer (looking never changes a game).
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule
from werkzeug.routing import Rule

from companion import games
from companion.empire.rules import FIELDS as EMPIRE_FIELDS
from companion.middernacht.rules import EVENTS as MIDDERNACHT_EVENTS
from tests.web.conftest import ORIGIN, create_app_pages, csrf, post
from web import create_app

OTHER_METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH")
BITE_NIGHT_PLAYERS = ["Anna", "Ben", "Cleo"]
#: How to start a game of each kind (when its pages are registered); "Anna" is a seat of each.
NEW_GAMES = {
    "tally": ("/api/games", {"kind": "tally", "setup": {"limit": 50, "players": ["Anna", "Ben"]}}),
    "bite-night": (
        "/api/games",
        {"kind": "bite-night", "setup": {"players": BITE_NIGHT_PLAYERS, "reading": "photo"}},
    ),
    "middernacht": ("/middernacht/games", {"setup": {"players": BITE_NIGHT_PLAYERS}}),
    "vampire-empire": (
        "/empire/games",
        {
            "setup": {
                "players": {"vampire": "Anna", "human": "Ben"},
                "decks": {"vampire": 8, "human": 8},
            }
        },
    ),
}
#: Query parameters the pages read (``?game=``, ``?code=``), mixed with junk ones.
QUERY_NAMES = ("game", "code", "seat", "player", "version", "kind")
#: Bite Night's events (the table in companion/bitenight/game.py's docstring).
BITE_NIGHT_EVENTS = (
    "place-card", "set-collection", "add-tile", "remove-tile", "replace-tile",
    "set-graveyard", "end-round", "reveal-card", "choose-tiles", "next-cycle",
)  # fmt: skip
#: Every event kind and data field the games know, so random events reach their rules.
EVENT_KINDS = sorted({"add", "name", *BITE_NIGHT_EVENTS, *MIDDERNACHT_EVENTS, *EMPIRE_FIELDS})
EVENT_FIELDS = sorted(
    {"player", "tiles", "tile", "by", "card", "n", "name", "grave", "lid", "left", "right"}
    | {"end", "uncovered", "cellar", "moat", *(f for fs in EMPIRE_FIELDS.values() for f in fs)}
)


def make_app(folder: Path) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(folder / "games.sqlite3"),
            "SECRET_KEY": "fuzz-key",
            "GAME_PAGES": (*create_app_pages(), "tests.web.toy_pages"),
            "STREAM_LIFETIME": 0.0,
            "STREAM_HEARTBEAT": 0.0,
        }
    )


def app_rules() -> list[Rule]:
    """Every route of the app as the tests will build it (read once, at collection)."""
    saved = dict(games.GAME_KINDS)
    games.GAME_KINDS["tally"] = "tests.core.toy:TALLY"
    try:
        with tempfile.TemporaryDirectory() as folder:
            app = make_app(Path(folder))
            return sorted(app.url_map.iter_rules(), key=lambda rule: (rule.rule, rule.endpoint))
    finally:
        games.GAME_KINDS.clear()
        games.GAME_KINDS.update(saved)


RULES = app_rules()


@dataclass
class Table:
    """The app under fuzz with a few real games, and the browsers that play it."""

    app: Flask
    host: FlaskClient
    phone: FlaskClient
    stranger: FlaskClient
    game_ids: list[str]
    seats: list[str]
    rooms: list[str]
    tokens: dict[str, str]  # each browser's CSRF token, as its pages have it

    def snapshot(self) -> tuple[Any, ...]:
        """Everything a refused request must leave as it was."""
        db = sqlite3.connect(self.app.config["DATABASE"])
        try:
            return tuple(
                db.execute(query).fetchall()
                for query in (
                    "SELECT id, kind, title, setup FROM games ORDER BY id",
                    "SELECT game_id, COUNT(*), MAX(seq) FROM events GROUP BY game_id ORDER BY 1",
                    "SELECT game_id, code, host_hash FROM rooms ORDER BY game_id",
                    "SELECT game_id, seat, token_hash, revoked_at FROM seat_tokens ORDER BY 3",
                )
            )
        finally:
            db.close()


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(games.GAME_KINDS, "tally", "tests.core.toy:TALLY")
        app = make_app(tmp_path_factory.mktemp("fuzz"))
        host, phone, stranger = app.test_client(), app.test_client(), app.test_client()
        pages = app.extensions["companion_pages"]
        created = [
            post(host, path, body)
            for kind, (path, body) in NEW_GAMES.items()
            if kind == "tally" or kind in pages
        ]
        assert all(answer.status_code == 201 for answer in created)
        game_ids = [answer.get_json()["id"] for answer in created]
        rooms = [answer.get_json()["room"] for answer in created]
        for game_id in game_ids:
            assert post(phone, f"/api/games/{game_id}/seats/Anna").status_code == 200
        tokens = {"host": csrf(host), "phone": csrf(phone), "stranger": csrf(stranger)}
        yield Table(app, host, phone, stranger, game_ids, ["Anna", "Ben", "Cleo"], rooms, tokens)


# -- what a request may hold ---------------------------------------------------------------

junk_text = st.text(max_size=30)
json_scalars = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | junk_text
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(junk_text, inner, max_size=4),
    max_leaves=12,
)
#: Field names the endpoints read, so that random bodies often get past the first check.
FIELD_NAMES = (
    "kind", "data", "version", "title", "setup", "name", "player", "players", "tiles", "card",
    "format", "events", "created_at", "seat", "photo", "limit", "n", "deck", "zones",
)  # fmt: skip


@st.composite
def path_values(draw: st.DrawFn, rule: Rule, table: Table) -> dict[str, str]:
    known = {
        "game_id": table.game_ids,
        "seat": table.seats,
        "code": table.rooms,
        "name": ["nocturne", "lantern"],
        "tile_id": ["red-vampire-heart", "blue-monk"],
        "filename": ["companion.css", "companion.js", "../web/__init__.py"],
    }
    return {
        argument: draw(st.sampled_from(known.get(argument, ["x"])) | junk_text.filter(bool))
        for argument in sorted(rule.arguments)
    }


@st.composite
def bodies(draw: st.DrawFn) -> dict[str, Any]:
    """Keyword arguments of ``client.open``: a body and its content type."""
    choice = draw(st.sampled_from(("fields", "json", "text", "bytes", "photo", "deep", "none")))
    if choice == "deep":  # nested past the parser's recursion limit, within 64 KB
        opener = draw(st.sampled_from(("[", '{"a":')))
        return {"data": opener * (30_000 // len(opener)), "content_type": "application/json"}
    if choice == "fields":
        body = draw(st.dictionaries(st.sampled_from(FIELD_NAMES), json_values, max_size=5))
        return {"data": json.dumps(body), "content_type": "application/json"}
    if choice == "json":
        return {"data": json.dumps(draw(json_values)), "content_type": "application/json"}
    if choice == "text":
        content_type = draw(
            st.sampled_from(("application/json", "text/plain", "application/x-www-form-urlencoded"))
        )
        return {"data": draw(st.text(max_size=200)), "content_type": content_type}
    if choice == "bytes":
        return {"data": draw(st.binary(max_size=300)), "content_type": "application/json"}
    if choice == "photo":
        photo = draw(st.binary(max_size=2000))
        player = draw(st.sampled_from(BITE_NIGHT_PLAYERS) | junk_text)
        return {"data": {"photo": (BytesIO(photo), "photo.jpg"), "player": player}}
    return {}


@st.composite
def requests(draw: st.DrawFn, rule: Rule, table: Table) -> dict[str, Any]:
    """A request to ``rule``: half of them as the host screen would send them (token,
    same site, one of its games in ``?game=``), so that random bodies get past the
    permission checks to the code that reads them; the rest from anyone, anyhow."""
    methods = sorted((rule.methods or set()) - {"OPTIONS"})
    values = draw(path_values(rule, table))
    path = table.app.url_map.bind("localhost").build(rule.endpoint, values, append_unknown=False)
    names = st.sampled_from(QUERY_NAMES) | junk_text.filter(bool)
    values_seen = st.sampled_from([*table.game_ids, *table.rooms, *table.seats]) | junk_text
    query = draw(st.dictionaries(names, values_seen, max_size=3))
    method = draw(st.sampled_from(methods) | st.sampled_from(OTHER_METHODS))
    if draw(st.booleans()):
        query["game"] = draw(st.sampled_from(table.game_ids))
        browser, with_csrf, headers = "host", True, {"Origin": ORIGIN}
    else:
        browser = draw(st.sampled_from(("host", "phone", "stranger")))
        with_csrf, headers = draw(st.booleans()), {}
        if draw(st.booleans()):
            headers["Origin"] = draw(st.sampled_from((ORIGIN, "http://evil.example", "null")))
    return {
        "browser": browser,
        "path": path,
        "query_string": query,
        "method": method,
        "with_csrf": with_csrf,
        "headers": headers,
        **draw(bodies()),
    }


# -- the properties --------------------------------------------------------------------------


def send(table: Table, request: dict[str, Any]):  # type: ignore[no-untyped-def]
    name = request.pop("browser")
    browser: FlaskClient = getattr(table, name)
    headers = dict(request.pop("headers"))
    if request.pop("with_csrf"):
        headers["X-CSRF-Token"] = table.tokens[name]
    answer = browser.open(request.pop("path"), headers=headers, **request)
    answer.get_data()  # runs a streamed answer to its end
    answer.close()
    return answer


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: f"{rule.endpoint}:{rule.rule}")
@given(data=st.data())
def test_no_request_is_a_server_error_and_a_refusal_changes_nothing(
    table: Table, rule: Rule, data: st.DataObject
) -> None:
    request = data.draw(requests(rule, table))
    before = table.snapshot()
    answer = send(table, dict(request))
    assert answer.status_code < 500, (request, answer.get_data(as_text=True))
    if answer.status_code >= 400 or request["method"] in ("GET", "HEAD"):
        assert table.snapshot() == before, request  # refused, or only looking
    has_body = answer.mimetype == "application/json" and request["method"] != "HEAD"
    if answer.status_code >= 400 and has_body:
        error = answer.get_json()["error"]
        assert error and "\n" not in error and "Traceback" not in error


@given(
    sender=st.sampled_from(("host", "phone")),
    kind=st.sampled_from(EVENT_KINDS),
    data=st.dictionaries(st.sampled_from(EVENT_FIELDS), json_values, max_size=4),
)
def test_an_event_with_any_data_is_answered_in_one_sentence(
    table: Table, sender: str, kind: str, data: dict[str, Any]
) -> None:
    """Random events reach every game's rules themselves: refused in one sentence and
    changing nothing, or applied; never a crash."""
    browser: FlaskClient = getattr(table, sender)
    headers = {"X-CSRF-Token": table.tokens[sender], "Origin": ORIGIN}
    for game_id in table.game_ids:
        version = table.host.get(f"/api/games/{game_id}").get_json()["version"]
        sent = {"kind": kind, "data": data, "version": version}
        before = table.snapshot()
        answer = browser.post(f"/api/games/{game_id}/events", json=sent, headers=headers)
        assert answer.status_code < 500, (game_id, sent, answer.get_json())
        if answer.status_code >= 400:
            assert table.snapshot() == before
            assert "\n" not in answer.get_json()["error"]


# -- a table over time: random sequences of real actions -----------------------------------


class TallyTable(RuleBasedStateMachine):
    """Phones and the host act in random order, on fresh or stale versions, while the
    host frees seats and new phones take them. A model of the table says what must
    happen: a change applies only when its version is the current one and its sender
    may make it; a phone whose seat was freed can no longer act; undo and redo follow."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = tempfile.TemporaryDirectory()
        self.patch = pytest.MonkeyPatch()
        self.patch.setitem(games.GAME_KINDS, "tally", "tests.core.toy:TALLY")
        self.app = make_app(Path(self.folder.name))
        self.host = self.app.test_client()
        setup = {"limit": 10_000, "players": ["Anna", "Ben"]}
        game = self.post(self.host, "/api/games", {"kind": "tally", "setup": setup}).get_json()
        self.path = f"/api/games/{game['id']}"
        self.phones = {name: self.app.test_client() for name in ("Anna", "Ben")}
        self.revoked: list[FlaskClient] = []  # phones whose seat the host freed
        self.seated = {"Anna": False, "Ben": False}
        self.version = 0
        self.total = 0
        self.done: list[int] = []  # amounts added and not taken back, for undo
        self.undone: list[int] = []  # amounts taken back, for redo

    def teardown(self) -> None:
        self.patch.undo()
        self.folder.cleanup()

    def post(self, client: FlaskClient, path: str, body: dict[str, Any]):  # type: ignore[no-untyped-def]
        """POST as the page does, with this browser's CSRF token (made on first use)."""
        with client.session_transaction() as session:
            token = session.setdefault("csrf", f"token-{id(client)}")
        return client.post(path, json=body, headers={"X-CSRF-Token": token, "Origin": ORIGIN})

    @rule(name=st.sampled_from(("Anna", "Ben")))
    def take_seat(self, name: str) -> None:
        answer = self.post(self.phones[name], f"{self.path}/seats/{name}", {})
        assert answer.status_code == 200, answer.get_json()  # its own phone, or a free seat
        self.seated[name] = True

    @rule(name=st.sampled_from(("Anna", "Ben")))
    def free_seat(self, name: str) -> None:
        answer = self.post(self.host, f"{self.path}/seats/{name}/free", {})
        assert answer.status_code == (200 if self.seated[name] else 404)
        if self.seated[name]:
            self.seated[name] = False
            self.revoked.append(self.phones[name])  # it still holds its revoked token
            self.phones[name] = self.app.test_client()  # the seat's next phone

    @rule(
        sender=st.sampled_from(("host", "Anna", "Ben", "revoked")),
        n=st.integers(1, 9),
        stale=st.booleans(),
    )
    def add(self, sender: str, n: int, stale: bool) -> None:
        version = self.version - 1 if stale and self.version else self.version
        if sender == "revoked":
            client = self.revoked[-1] if self.revoked else self.app.test_client()
        else:
            client = self.host if sender == "host" else self.phones[sender]
        body = {"kind": "add", "data": {"n": n}, "version": version}
        answer = self.post(client, f"{self.path}/events", body)
        if not (sender == "host" or self.seated.get(sender, False)):
            assert answer.status_code == 403
        elif version != self.version:
            assert answer.status_code == 409
        else:
            assert answer.status_code == 200, answer.get_json()
            self.version, self.total = self.version + 1, self.total + n
            self.done.append(n)
            self.undone.clear()

    @rule(take_back=st.booleans(), stale=st.booleans())
    def undo_or_redo(self, take_back: bool, stale: bool) -> None:
        version = self.version - 1 if stale and self.version else self.version
        path = f"{self.path}/{'undo' if take_back else 'redo'}"
        answer = self.post(self.host, path, {"version": version})
        possible = self.done if take_back else self.undone
        if version != self.version:
            assert answer.status_code == 409
        elif not possible:
            assert answer.get_json()["reason"] == "nothing_to_undo"
        else:
            assert answer.status_code == 200, answer.get_json()
            n = possible.pop()
            (self.undone if take_back else self.done).append(n)
            self.total += -n if take_back else n
            self.version += 1

    @invariant()
    def the_table_matches_the_model(self) -> None:
        shown = self.host.get(self.path).get_json()
        assert (shown["version"], shown["view"]["total"]) == (self.version, self.total)
        taken = [seat["taken"] for seat in shown["seats"]]
        assert taken == [self.seated["Anna"], self.seated["Ben"]]


TallyTable.TestCase.settings = settings(max_examples=30, stateful_step_count=12)
test_a_table_over_time_follows_its_model = TallyTable.TestCase
