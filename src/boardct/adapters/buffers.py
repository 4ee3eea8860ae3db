"""Writing observations and masks into numpy arrays fast (needs numpy, from `boardct[rl]`).

A game gives its tensors as entries (`State.observation_entries`: position -> value, every
position left out being 0): most of a board game's tensor is 0 (one-hot planes), and turning
a whole list of Python floats into a float32 array costs about as much per entry as building
it. So an adapter zeroes its array (a memset) and writes only the entries given; the same for
an action mask from the legal ids. Every adapter (PettingZoo, Gymnasium, the vector API, the
OpenSpiel observer) observes through these two functions.
"""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING, Any

from boardct.adapters.common import need
from boardct.core.game import State

if TYPE_CHECKING:
    from array import array

    import numpy as np
else:
    np = need("numpy", "rl")

OBSERVATIONS = ("observation", "information_state")


def check_kind(kind: str) -> str:
    from boardct.core.errors import BoardctError

    if kind not in OBSERVATIONS:
        raise BoardctError(f"observation {kind!r} is not one of {', '.join(OBSERVATIONS)}")
    return kind


def entries_of(state: State, player: int, kind: str) -> dict[int, float]:
    """The entries of `player`'s observation (`kind` "observation") or information state."""
    if kind == "observation":
        return state.observation_entries(player)
    return state.information_state_entries(player)


def observed(state: State, player: int, kind: str, size: int) -> Any:
    """A new flat float32 array, `player`'s tensor of this kind: the memory of the game's
    `observation_array` where it writes one (no copy), else written from its entries."""
    if kind == "observation":
        floats = state.observation_array(player)
        if floats is not None:
            return np.frombuffer(floats, np.float32)
        return tensor_of(state.observation_entries(player), size)
    return tensor_of(state.information_state_entries(player), size)


def row_of(state: State, player: int, kind: str) -> array[float] | dict[int, float]:
    """`player`'s tensor of this kind as the game gives it: its `observation_array` where
    it writes one, else its entries (for `write_row` / `write_rows`)."""
    if kind == "observation":
        floats = state.observation_array(player)
        if floats is not None:
            return floats
    return entries_of(state, player, kind)


def write_row(out: Any, row: array[float] | dict[int, float]) -> Any:
    """`out` (a flat float32 array) made the tensor of `row` (see `row_of`); returned."""
    if isinstance(row, dict):
        return write_entries(out, row)
    out[:] = np.frombuffer(row, np.float32)
    return out


def write_observed(out: Any, state: State, player: int, kind: str) -> Any:
    """`out` (a flat float32 array) made `player`'s tensor of this kind; returned."""
    return write_row(out, row_of(state, player, kind))


def write_entries(out: Any, entries: dict[int, float]) -> Any:
    """`out` (a flat float32 array) made the tensor of these entries: zeroed, then each entry
    written; returned."""
    out.fill(0.0)
    n = len(entries)
    if n:  # numpy reads the dict's keys and values itself (faster than through lists)
        out[np.fromiter(entries, np.intp, n)] = np.fromiter(entries.values(), np.float32, n)
    return out


def tensor_of(entries: dict[int, float], size: int) -> Any:
    """A new flat float32 array of `size`, the tensor of these entries (for an observation
    handed out to be kept: `np.zeros` gives it zeroed without a pass over it)."""
    out = np.zeros(size, np.float32)
    n = len(entries)
    if n:
        out[np.fromiter(entries, np.intp, n)] = np.fromiter(entries.values(), np.float32, n)
    return out


def mask_of(legal: list[int], size: int) -> Any:
    """A new int8 mask of `size` ids, 1 at the legal ones: set in a zeroed `bytearray` that
    numpy then reads in place (cheaper than numpy's indexing by a list, which first turns
    the list into an array)."""
    out = bytearray(size)
    for i in legal:
        out[i] = 1
    return np.frombuffer(out, np.int8)


def write_mask(out: Any, legal: list[int]) -> Any:
    """`out` (a flat int8 array, one per action id) made 1 at the legal ids, 0 elsewhere."""
    out.fill(0)
    if legal:
        out[legal] = 1
    return out


def write_rows(out: Any, rows: list[array[float] | dict[int, float]]) -> Any:
    """`out` (a 2-D float32 array, one flat tensor a row) made row i the tensor of
    `rows[i]` (see `row_of`; a game gives all its rows alike): whole float arrays in one
    copy of their bytes joined; entries with one zeroing and one scattered write for the
    whole batch (numpy reads every dict's keys and values itself), rather than a few numpy
    calls per row."""
    entries = [r for r in rows if isinstance(r, dict)]
    if not entries:
        out.reshape(-1)[:] = np.frombuffer(b"".join(rows), np.float32)  # type: ignore[arg-type]
        return out
    if len(entries) < len(rows):  # some of each: row by row
        for row_out, row in zip(out, rows, strict=True):
            write_row(row_out, row)
        return out
    out.fill(0.0)
    sizes = [len(r) for r in entries]
    total = sum(sizes)
    if total:
        width = out.shape[1]
        at = np.fromiter(chain.from_iterable(entries), np.intp, total)
        at += np.repeat(np.arange(0, width * len(entries), width, dtype=np.intp), sizes)
        out.reshape(-1)[at] = np.fromiter(chain.from_iterable(r.values() for r in entries),
                                          np.float32, total)
    return out


def write_masks(out: Any, legal: list[list[int]]) -> Any:
    """`out` (a 2-D int8 array, one mask a row) made 1 at row i's legal ids `legal[i]`."""
    out.fill(0)
    sizes = [len(ids) for ids in legal]
    total = sum(sizes)
    if total:
        width = out.shape[1]
        at = np.fromiter(chain.from_iterable(legal), np.intp, total)
        at += np.repeat(np.arange(0, width * len(legal), width, dtype=np.intp), sizes)
        out.reshape(-1)[at] = 1
    return out
