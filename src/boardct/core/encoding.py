"""Small helpers the games share to build their action encodings and observation tensors
(issue 20). No numpy here: tensors are plain lists of floats, which adapters convert."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from boardct.core.errors import IllegalAction

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
    if not 0 <= action_id < count:
        raise IllegalAction(RULE, f"{game_id}: action id {action_id} is out of range "
                                  f"0..{count - 1}")
    return action_id


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
