"""Every sentence the pages show, kept out of code and templates so it can be translated.

The catalogue is a folder of JSON files, one per area (``texts/en/shell.json``,
``texts/en/bitenight.json``, ...), each a flat object of ``"key": "text"``. Keys are
prefixed by area (``shell.join``, ``bitenight.reveal``) so that two games never clash;
a game adds its own file and nothing else. Texts may hold ``{name}`` fields filled by
:func:`Catalogue.text`. Pages written in JavaScript receive the whole catalogue once, in
the base template, and look keys up with ``t("key", {...})``.

A translation is a sibling folder (``texts/nl/``) holding the same keys; a key it lacks
falls back to English, so a partial translation never shows a blank.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from flask import current_app, has_app_context

DEFAULT_LANGUAGE = "en"


class Catalogue:
    """The texts of one language, with English behind it for missing keys."""

    def __init__(self, language: str = DEFAULT_LANGUAGE) -> None:
        self.language = language
        texts = _load(DEFAULT_LANGUAGE)
        if language != DEFAULT_LANGUAGE:
            texts.update(_load(language))
        self.texts: dict[str, str] = texts

    def text(self, key: str, **fields: Any) -> str:
        """The text for ``key`` with its fields filled; a missing key shows itself."""
        template = self.texts.get(key)
        if template is None:
            return key
        try:
            return template.format(**fields) if fields else template
        except (KeyError, IndexError, ValueError):
            return template

    def as_json(self) -> str:
        """The catalogue for the pages' JavaScript, safe inside a <script> element."""
        return (
            json.dumps(self.texts, ensure_ascii=True, sort_keys=True)
            .replace("<", "\\u003c")
            .replace(">", "\\u003e")
            .replace("&", "\\u0026")
        )


def say(key: str, **fields: Any) -> str:
    """A sentence of the catalogue in the language being served (refusals, mostly).

    Outside a request (a command, a test of a plain function) the English catalogue
    answers, so code that refuses never needs to know where it runs.
    """
    catalogue = current_app.extensions.get("companion_texts") if has_app_context() else None
    return (catalogue or _english()).text(key, **fields)


@cache
def _english() -> Catalogue:
    return Catalogue(DEFAULT_LANGUAGE)


def _load(language: str) -> dict[str, str]:
    folder = resources.files("web").joinpath("texts", language)
    texts: dict[str, str] = {}
    if not folder.is_dir():
        return texts
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if not entry.name.endswith(".json"):
            continue
        loaded = json.loads(entry.read_text(encoding="utf-8"))
        if not isinstance(loaded, Mapping):
            raise ValueError(f"text file {entry.name} must hold one JSON object")
        texts.update({str(key): str(value) for key, value in loaded.items()})
    return texts
