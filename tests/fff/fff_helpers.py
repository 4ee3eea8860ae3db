"""Helpers for Force Field Factions scenario tests: set up a position from FFF-32 text (with
filler pieces far away so nobody is eliminated by accident), play a turn, read the result."""

from __future__ import annotations

import pytest

from boardct.core import registry
from boardct.core.errors import BoardctError, IllegalAction

GAME = registry.get("fff")

# Filler pieces, one per size a player lacks, in corners the scenarios leave alone.
FILL = {"B1": "B1a1N", "B2": "B2b1N", "B3": "B3c1N",
        "W1": "W1f8S", "W2": "W2g8S", "W3": "W3h8S"}


def pieces_with_fill(pieces: str) -> str:
    items = [p for p in pieces.split(",") if p] if pieces != "-" else []
    have = {p[:2] for p in items}
    items += [FILL[k] for k in sorted(FILL) if k not in have]
    return ",".join(items)


def setup(pieces: str, side: str = "B", lost: str = "000/000", count: int = 0,
          pool: str = "-", limit: int = 200, fill: bool = True):
    """A state at the given pieces (FFF-32 piece list), pool derived unless given."""
    if fill:
        pieces = pieces_with_fill(pieces)
    return GAME.new(seed=0, position=f"{pieces} {side} {pool} {lost} {count}", turn_limit=limit)


def play(state, *turns: str) -> list:
    """Type turns as a player would; return the events of the last."""
    events: list = []
    for t in turns:
        events = state.apply(state.parse(t))
    return events


def pieces(state) -> str:
    """The pieces field of the position, without the fillers."""
    fill = set(FILL.values())
    return ",".join(p for p in state.position().split(" ")[0].split(",") if p not in fill)


def field(state, i: int) -> str:
    return state.position().split(" ")[i]


def rejected(state, turn: str, rule: str | None = None, match: str = "") -> BoardctError:
    """The turn is refused with an error naming `rule`, and the state is unchanged."""
    before = state.position()
    hist = state.history()
    with pytest.raises(BoardctError) as info:
        state.apply(state.parse(turn))
    assert state.position() == before
    assert state.history() == hist
    if rule is not None:
        assert isinstance(info.value, IllegalAction)
        assert info.value.rule == rule, str(info.value)
    assert match in str(info.value)
    return info.value


def texts(state) -> list[str]:
    return sorted(state.notation(a) for a in state.legal_actions())
