"""Shared helpers for the Shifting Hills tests: exact setups from layout files (BSH-39)."""

from __future__ import annotations

from boardct.core import registry
from boardct.games.hills.board import HEXES, INDEX, KIND_LETTERS, LAND
from boardct.games.hills.state import HillsState

HILLS = registry.get("hills")


def layout(tiles: dict | None = None, deck: tuple[str, ...] = (), first: int = 0,
           default: str = "P", limit: str | None = None) -> str:
    """A layout file: every land tile `default` except those in `tiles` ((q, r) -> 'M*')."""
    tiles = tiles or {}
    lines = ["hills-layout 1", f"first {first}", " ".join(("deck",) + tuple(deck))]
    if limit is not None:
        lines.append(f"turn-limit {limit}")
    for h in LAND:
        q, r = HEXES[h]
        lines.append(f"tile {q} {r} {tiles.get((q, r), default)}")
    return "\n".join(lines) + "\n"


def position(tiles: dict | None = None, squads: dict | None = None, deck=(), first: int = 0,
             to_move: int | None = None, hands=None, seize=None, reveal=(), limit=None,
             default: str = "P", **options) -> HillsState:
    state = HILLS.from_layout(layout(tiles, tuple(deck), first, default, limit), **options)
    if squads or to_move is not None or hands or seize or reveal:
        state.arrange(squads, to_move=to_move, hands=hands, seize=seize, reveal=reveal)
    return state


def play(state: HillsState, *commands: str) -> list[tuple]:
    events: list[tuple] = []
    for text in commands:
        events += state.apply(state.parse(text))
    return events


def units(state: HillsState) -> dict[str, int]:
    return {f"{sq // 3}{KIND_LETTERS[sq % 3]}": state.units[sq] for sq in range(6)}


def where(state: HillsState, key: str) -> tuple[int, int] | None:
    sq = int(key[0]) * 3 + KIND_LETTERS.index(key[1])
    return HEXES[state.pos[sq]] if state.units[sq] else None


def impeded(state: HillsState, key: str) -> bool:
    return state.imp[int(key[0]) * 3 + KIND_LETTERS.index(key[1])]


def hex_index(q: int, r: int) -> int:
    return INDEX[(q, r)]


def kinds(events: list[tuple]) -> list[str]:
    return [e[0] for e in events]
