"""Helpers for the Shift tests: test cards written on the fly, positions, scripted turns."""

from __future__ import annotations

from pathlib import Path

from boardct.core import registry
from boardct.games.shift.state import FIRST, SECOND, ShiftState

GAME = registry.get("shift")

# A plain test card: every gear has one alpha "H" with no effect, so a scenario adds only what
# it tests. Fields in braces are filled by `card()`.
PLAIN = """\
name = "{name}"
ability = "{ability}"
{top}

[[gears]]
level = 1
power = {p1}
guard = {g1}
mods = [ {m1} ]

[[gears]]
level = 2
power = {p2l}
guard = {g2l}
mods = [ {m2l} ]

[[gears]]
level = 3
power = {p3}
guard = {g3}
mods = [ {m3} ]

[[gears]]
level = 2
power = {p2r}
guard = {g2r}
mods = [ {m2r} ]
"""

DEFAULT_MOD = '{ type = "alpha", activation = "H" }'


def card(tmp: Path, name: str = "Plain", ability: str = "", top: str = "", **kw) -> str:
    """Write a test card and return its path. kw: p1, g1, m1 (mods text), p2l, ..., m2r."""
    values = {"p1": 2, "g1": 2, "p2l": 3, "g2l": 2, "p3": 4, "g3": 3, "p2r": 3, "g2r": 4}
    for key in ("m1", "m2l", "m3", "m2r"):
        values[key] = DEFAULT_MOD
    values.update(kw)
    text = PLAIN.format(name=name, ability=ability, top=top, **values)
    path = tmp / f"{name.lower().replace(' ', '-')}.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def new(card1: str = "ember-duelist", card2: str = "tide-warden", first: int = 0,
        seed: int = 7, names: tuple[str, ...] | None = None, **options) -> ShiftState:
    """A game at the start of turn 1 with `first` (seat) going first."""
    state = GAME.new(seed=seed, names=names, card1=card1, card2=card2, **options)
    assert isinstance(state, ShiftState)
    state.apply(FIRST if state.toss_winner == first else SECOND)
    return state


def at_turn(state: ShiftState, mover: int, turn: int = 2) -> ShiftState:
    """Move the game to `mover`'s shift phase of game turn `turn` (past the first-turn rule)."""
    from boardct.games.shift.state import P_SHIFT

    state.turn = turn
    state.mover = mover
    state.phase = P_SHIFT
    return state


def play(state: ShiftState, *commands: str) -> list:
    """Apply commands in notation; return all events, described."""
    lines = []
    for text in commands:
        for event in state.apply(state.parse(text)):
            lines.append(state.describe(event))
    return lines


def snapshot(state: ShiftState) -> tuple:
    """Everything that defines a state (to compare before and after a rejected action)."""
    return (state.phase, state.mover, state.first, state.turn, state.sshift_used,
            tuple(state.gear), tuple(state.lit), tuple(state.burnt), tuple(state.tp),
            tuple(state.tg), tuple(state.skip_shift), tuple(state.skip_turn), state.atk,
            state.guarded, state.guard_add, state.ignore, state.winner, state.rng.s,
            state.forced, state.flips, state._hist)
