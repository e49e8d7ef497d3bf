"""Which rules run which kind of game.

Kept as names rather than imports so that the core and the store stay independent of
the engines, and a kind is loaded only when a game of it is opened.
"""

from __future__ import annotations

import importlib
from typing import Any

from companion.core.events import Rules
from companion.errors import CompanionError

#: game kind -> "module:attribute" of its Rules object
GAME_KINDS: dict[str, str] = {
    "bite-night": "companion.bitenight.game:BITE_NIGHT",
    "middernacht": "companion.middernacht.rules:RULES",
    "vampire-empire": "companion.empire.rules:EMPIRE",
}


def rules_for(kind: str) -> Rules[Any]:
    """The Rules object for a game kind, or a CompanionError naming the unknown kind."""
    try:
        module_name, attribute = GAME_KINDS[kind].split(":")
    except KeyError:
        known = ", ".join(sorted(GAME_KINDS)) or "none"
        raise CompanionError(
            f"'{kind}' is not a game this companion knows (known: {known})"
        ) from None
    return getattr(importlib.import_module(module_name), attribute)
