"""Scenario helpers for the CTF 2187 tests: open maps, placing bots, scripted dice."""

from __future__ import annotations

from boardct.core import registry
from boardct.games.ctf2187 import engine
from boardct.games.ctf2187.state import CtfState


def map_text(cells: dict[tuple[int, int], str] | None = None, w: int = 20, h: int = 20) -> str:
    """A map file text: Open ground 1 everywhere except `cells` ((x, y) -> token like 'w1')."""
    cells = cells or {}
    rows = [f"MAP {w} {h}"]
    for y in range(h, 0, -1):
        rows.append(" ".join(cells.get((x, y), ".1") for x in range(1, w + 1)))
    return "\n".join(rows) + "\n"


def game(cells=None, names=("ann", "bob"), seed=1, **options) -> CtfState:
    options.setdefault("designs", "Lancer")
    if len(names) == options.get("teams", 2):
        options.setdefault("bots_per_team", 1)  # a duel: one bot per team
    return registry.get("ctf2187").new(seed=seed, names=list(names), map=map_text(cells),
                                       **options)


def place(st: CtfState, num: int, x: int, y: int, facing: int | None = None,
          posture: int | None = None, ap: int | None = None):
    b = st.bots[num - 1]
    st.occ[st.map.index(b.x, b.y)] = 0
    b.x, b.y = x, y
    st.occ[st.map.index(x, y)] = num
    if facing is not None:
        b.facing = facing
    if posture is not None:
        b.posture = posture
    if ap is not None:
        b.ap = ap
    return b


class Dice:
    """A stand-in for the game's Rng that returns scripted values (then the real ones)."""

    def __init__(self, rng, values=()):
        self.rng = rng
        self.values = list(values)

    def _next(self, real):
        return self.values.pop(0) if self.values else real()

    def randint(self, lo, hi):
        return self._next(lambda: self.rng.randint(lo, hi))

    def below(self, n):
        return self._next(lambda: self.rng.below(n))

    def shuffle(self, seq):
        self.rng.shuffle(seq)

    def clone(self):
        return Dice(self.rng.clone(), self.values)


def events(st: CtfState, kind: str | None = None) -> list[tuple]:
    return [e for _, e in st.log if kind is None or e[0] == kind]


def fresh_log(st: CtfState) -> None:
    st.log = []


__all__ = ["map_text", "game", "place", "Dice", "events", "fresh_log", "engine"]
