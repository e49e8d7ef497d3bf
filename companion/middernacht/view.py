"""What one phone may see of the table: everything the players see, nothing more.

The view is built from the state by listing what is public (the ends of every row and
its length, stakes, garlic counts, which graves still have a lid, the lid lying open
right now and what the last event did) rather than by removing secrets, so a field
added to the state later cannot leak by accident. The face-down middles of the rows,
the lids nobody has turned (seeded mode) and the contents of closed graves never
appear here.
"""

from __future__ import annotations

from typing import Any

from companion.middernacht.board import ALL_GRAVES, Grave
from companion.middernacht.rules import must_tell_new_end, waiting_for
from companion.middernacht.state import RAT, End, Garlic, Mode, Phase, Table


def _row(state: Table, seat: int) -> dict[str, Any]:
    player = state.players[seat]
    on_board = sum(1 for c in state.contents if isinstance(c, Garlic) and c.owner == seat)
    left = player.row[0] if player.row else None
    right = player.row[-1] if len(player.row) > 1 else None
    return {
        "name": player.name,
        "row_length": len(player.row),
        "left": left,
        "right": right,
        "stakes": player.stakes,
        "garlic_in_hand": player.garlic,
        "garlic_on_board": on_board,
    }


def _end_choices(state: Table, seat: int, colour: str | None = None) -> list[dict[str, Any]]:
    """The ends a player may hand over (or lay, when ``colour`` must match)."""
    player = state.players[seat]
    ends = (End.LEFT,) if len(player.row) == 1 else (End.LEFT, End.RIGHT)
    return [
        {"end": end.value, "colour": player.end(end)}
        for end in ends
        if colour is None or player.end(end) == colour
    ]


def actions(state: Table, seat: int | None) -> list[dict[str, Any]]:
    """What the player in ``seat`` may do now (nothing for an onlooker)."""
    if seat is None or state.phase is Phase.OVER:
        return []
    tell_lid = state.mode is Mode.TABLE
    lids = [*state.colours, RAT] if tell_lid else []
    if state.phase is Phase.DEAL:
        return [{"kind": "turn-ends", "colours": list(state.colours)}]
    if state.phase is Phase.GIVING:
        if not any(t.giver == seat for t in state.pending):
            return []
        return [
            {
                "kind": "give-vampire",
                "choices": _end_choices(state, seat),
                "tell_new_end": must_tell_new_end(state, seat),
                "colours": list(state.colours),
            }
        ]
    if seat != state.turn:
        return []
    if state.phase is Phase.TURN:
        closed = [g.name for g in ALL_GRAVES if g.index not in state.lidless]
        return [{"kind": "turn-lid", "graves": closed, "tell_lid": tell_lid, "lids": lids}]
    if state.phase is Phase.RAT:
        graves = [Grave(n).name for n in state.neighbours]
        return [
            {"kind": "open-neighbour", "graves": graves, "tell_lid": tell_lid, "lids": lids},
            {"kind": "stop"},
        ]
    assert state.grave is not None
    if state.phase is Phase.PLACE:
        return [
            {
                "kind": "place-vampire",
                "choices": _end_choices(state, seat, state.lids[state.grave]),
                "tell_new_end": must_tell_new_end(state, seat),
                "colours": list(state.colours),
            },
            {"kind": "pass"},
        ]
    return [{"kind": "place-garlic"}, {"kind": "pass"}]


def view(state: Table, seat: int | None = None) -> dict[str, Any]:
    """The JSON a phone gets: the table as the players see it, and what ``seat`` may do.

    ``moves`` lists what every player may do now (public: it names only closed graves
    and face-up ends), so the host screen can act for a player without a phone.
    """
    open_grave = None
    if state.grave is not None:
        open_grave = {"grave": Grave(state.grave).name, "lid": state.lids[state.grave]}
    pending = [
        {
            "giver": state.players[t.giver].name,
            "receiver": state.players[t.receiver].name,
            "choices": _end_choices(state, t.giver),
        }
        for t in state.pending
    ]
    return {
        "game": "middernacht",
        "mode": state.mode.value,
        "phase": state.phase.value,
        "turn": state.current.name,
        "you": None if seat is None else state.players[seat].name,
        "waiting_for": waiting_for(state),
        "news": list(state.news),
        "winner": None if state.winner is None else state.players[state.winner].name,
        "players": [_row(state, s) for s in range(len(state.players))],
        "lidless": sorted(Grave(g).name for g in state.lidless),
        "open_grave": open_grave,
        "neighbours": [Grave(n).name for n in state.neighbours],
        "pending": pending,
        "actions": actions(state, seat),
        "moves": {
            player.name: offered
            for s, player in enumerate(state.players)
            if (offered := actions(state, s))
        },
    }
