"""Small helpers the games share to build their action encodings and observation tensors.
No numpy here: tensors are plain lists of floats, which adapters convert."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from boardct.core.errors import IllegalAction
from boardct.core.game import TableMark

RULE = "encoding"  # the "rule" an IllegalAction about an id names


def check_id(action_id: Any, count: int, game_id: str) -> int:
    """`action_id` as an int in 0..count-1, or an `IllegalAction` saying what is wrong with it
    (a bool, a float, a string, or a number out of range are all refused: never an IndexError
    further down)."""
    if type(action_id) is not int:
        try:
            import operator

            value = operator.index(action_id)  # numpy integers are welcome
        except TypeError:
            raise IllegalAction(RULE, f"{game_id}: an action id is a whole number, not "
                                      f"{type(action_id).__name__} {action_id!r:.40}") from None
        if isinstance(action_id, bool):
            raise IllegalAction(RULE, f"{game_id}: an action id is a whole number, not "
                                      f"{action_id!r}")
        action_id = int(value)
    number = int(action_id)
    if not 0 <= number < count:
        raise IllegalAction(RULE, f"{game_id}: action id {number} is out of range "
                                  f"0..{count - 1}")
    return number


def one_hot(out: list[float], index: int, size: int) -> None:
    """Append `size` floats to `out`, 1.0 at `index` (none when index is out of 0..size-1)."""
    block = [0.0] * size
    if 0 <= index < size:
        block[index] = 1.0
    out.extend(block)


def scaled(value: float, top: float) -> float:
    """`value / top`, clipped to [0, 1] so that a tensor stays bounded and finite."""
    if top <= 0 or not math.isfinite(value):
        return 0.0
    return min(1.0, max(0.0, value / top))


def flag(value: Any) -> float:
    return 1.0 if value else 0.0


def product(shape: Sequence[int]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def dense(entries: dict[int, float], size: int) -> list[float]:
    """The flat tensor of `size` floats whose nonzero entries are `entries` (position ->
    value): a game's tensor made from the entries its fast path builds (`State.
    observation_entries`), so that the two never disagree."""
    out = [0.0] * size
    for i, v in entries.items():
        out[i] = v
    return out


def signed(value: float, top: float) -> float:
    """`value / top`, clipped to [-1, 1] (a bonus that may be negative)."""
    if top <= 0 or not math.isfinite(value):
        return 0.0
    return min(1.0, max(-1.0, value / top))


def history_planes(history: Sequence[tuple[int, Any]], player: int,
                   encode: Callable[[int, Any], int | None], ids: int, slots: int
                   ) -> list[float]:
    """The last `slots` actions `player` knows of, oldest first, each as a one-hot of its id
    (`ids` wide) and a flag "it was mine": `slots * (ids + 1)` floats, empty slots all 0.

    `encode(who, action)` gives the id `player` may know an action by, or None for an action
    they may not see (another player's secret orders): those are left out. The information
    state of a hidden-information game adds these to the observation, so a learner has a
    bounded memory of what it did and saw."""
    known: list[tuple[int, int]] = []
    for who, action in reversed(history):
        if len(known) == slots:
            break
        i = encode(who, action)
        if i is not None:
            known.append((who, i))
    known.reverse()
    out: list[float] = [0.0] * (slots * (ids + 1))
    start = slots - len(known)
    for k, (who, i) in enumerate(known):
        base = (start + k) * (ids + 1)
        out[base + i] = 1.0
        out[base + ids] = 1.0 if who == player else 0.0
    return out


def recent_history(state: Any) -> Iterator[tuple[int, Any]]:
    """`reversed(state.history())`, lazily: newest first, the actions an undo took back left
    out, walking the linked history only as far as the caller reads. `history()` walks and
    copies the whole game, which a learner's information state (the last few actions) would
    otherwise pay at every step of a long game."""
    cell = state._hist
    skip = 0
    while cell is not None:
        cell, player, action = cell
        if type(player) is TableMark:
            if player.kind == "undo":
                skip += player.value
        elif skip:
            skip -= 1
        else:
            yield player, action


def history_planes_of(state: Any, player: int, encode: Callable[[int, Any], int | None],
                      ids: int, slots: int, out: list[float] | None = None) -> list[float]:
    """`history_planes(state.history(), player, encode, ids, slots)`, value for value,
    reading only the last actions of the state's history (see `recent_history`). With `out`,
    the planes are appended to it (no copy of a long observation) and `out` is returned."""
    known: list[tuple[int, int]] = []
    if slots > 0:
        for who, action in recent_history(state):
            i = encode(who, action)
            if i is not None:
                known.append((who, i))
                if len(known) == slots:
                    break
    if out is None:
        out = []
    width = ids + 1
    base = len(out) + (slots - len(known)) * width
    out += [0.0] * (slots * width)
    for who, i in reversed(known):
        out[base + i] = 1.0
        if who == player:
            out[base + ids] = 1.0
        base += width
    return out


def history_entries(state: Any, player: int, encode: Callable[[int, Any], int | None],
                    ids: int, slots: int, at: int, out: dict[int, float]) -> dict[int, float]:
    """The nonzero entries of `history_planes_of(state, player, encode, ids, slots)`, each
    position moved on by `at`, added to `out` (and `out` returned): an information state's
    history part for an adapter that writes entries, without making the mostly-zero planes."""
    known: list[tuple[int, int]] = []
    if slots > 0:
        for who, action in recent_history(state):
            i = encode(who, action)
            if i is not None:
                known.append((who, i))
                if len(known) == slots:
                    break
    width = ids + 1
    base = at + (slots - len(known)) * width
    for who, i in reversed(known):
        out[base + i] = 1.0
        if who == player:
            out[base + ids] = 1.0
        base += width
    return out
