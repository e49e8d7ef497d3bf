"""A small schema check for JSON request bodies: shape, types, sizes, no extra keys.

Each endpoint declares the fields it reads; anything else is refused with one sentence
before any game is touched. Event ``data`` stays a free JSON object here: its meaning
is the engine's to check.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import current_app, request

from web.errors import Refusal
from web.texts import say


@dataclass(frozen=True)
class Field:
    """One expected key: its JSON type(s), whether it must be there, and a size bound."""

    types: type | tuple[type, ...]
    required: bool = True
    max_length: int | None = None  # characters of a string, items of a list or object
    minimum: int | None = None  # for integers


def read_json(spec: Mapping[str, Field], limit: int | None = None) -> dict[str, Any]:
    """The request's JSON object, checked against ``spec``; raises a 4xx Refusal.

    ``limit`` (bytes) replaces ``MAX_JSON_BYTES`` for the rare body that is larger."""
    if not request.is_json:
        raise Refusal(say("refuse.not_json"), 415, "json")
    length = request.content_length
    limit = limit or current_app.config["MAX_JSON_BYTES"]
    if length is not None and length > limit:
        raise Refusal(say("refuse.too_large", limit=limit), 413, "too_large")
    try:
        body = request.get_json(silent=True)
    except RecursionError:  # json raises this, not ValueError, for "[[[[…" bombs
        raise Refusal(say("refuse.too_deep"), 400, "json") from None
    if not isinstance(body, dict):
        raise Refusal(say("refuse.not_object"), 400, "json")
    if not _valid_text(body):
        raise Refusal(say("refuse.not_unicode"), 400, "json")
    return check(body, spec)


def _valid_text(body: Any) -> bool:
    """Whether every string in a parsed body can be stored: JSON's ``"\\ud800"`` escapes
    parse to lone surrogates, which SQLite's UTF-8 cannot hold. A loop, not recursion:
    the body may be nested as deep as the parser allows."""
    pending = [body]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            pending.extend(value.keys())
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
        elif isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return False
    return True


def check(body: Mapping[str, Any], spec: Mapping[str, Field]) -> dict[str, Any]:
    extra = sorted(set(body) - set(spec))
    if extra:
        raise Refusal(say("refuse.unexpected_field", name=extra[0]), 400, "json")
    for name, field in spec.items():
        if name not in body:
            if field.required:
                raise Refusal(say("refuse.missing_field", name=name), 400, "json")
            continue
        _check_value(name, body[name], field)
    return dict(body)


def _check_value(name: str, value: Any, field: Field) -> None:
    types = field.types if isinstance(field.types, tuple) else (field.types,)
    # JSON true/false are Python bools, which are also ints: never accept one for the other.
    fits = any(
        isinstance(value, kind) and not (kind is int and isinstance(value, bool)) for kind in types
    )
    if not fits:
        wanted = say("refuse.type.or").join(say(f"refuse.type.{kind.__name__}") for kind in types)
        raise Refusal(say("refuse.wrong_type", name=name, wanted=wanted), 400, "json")
    too_long = field.max_length is not None and isinstance(value, str | list | dict)
    if too_long and len(value) > field.max_length:  # type: ignore[operator]
        raise Refusal(say("refuse.too_long", name=name, n=field.max_length), 400, "json")
    if field.minimum is not None and isinstance(value, int) and value < field.minimum:
        raise Refusal(say("refuse.too_small", name=name, n=field.minimum), 400, "json")
