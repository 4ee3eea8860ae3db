"""Force Field Factions' observations of many states at once, in numpy (the vector API's
`Game.write_observations`; numpy comes with `boardct[rl]`, the only callers' extra).

`encoding.fast_entries` writes one state's tensor a piece at a time from per-piece tables;
a vector of games asks for 16 or more tensors a step, so here every piece of every board of
the batch is found with one `flatnonzero` and written with one scattered assignment from
tables of each (observer, piece code): the planes it sets and their values, padded to a fixed
width. The 27 scalars are written from the pools and lost counts read as arrays. The values
are those of `fast_entries` exactly (tests/adapters check row for row on random states).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from boardct.games.fff.encoding import PLANES, _code_planes
from boardct.games.fff.pieces import FIELDS, NCODES
from boardct.games.fff.steps import PHASE_SELECTED

_S = PLANES * 64  # where the scalars start
_WIDTH = 5  # the most planes one piece sets: owner, size, facing and two field colours


def _tables() -> tuple[Any, Any]:
    """Per (observer * NCODES + code): the plane offsets (plane * 64) a piece sets, and their
    values (fields of one colour added up, as `encoding._piece_entries` adds them), padded to
    `_WIDTH` with copies of the first (written twice with the same value: no harm)."""
    offsets = np.zeros((2 * NCODES, _WIDTH), np.intp)
    values = np.zeros((2 * NCODES, _WIDTH), np.float32)
    for me in (0, 1):
        planes = _code_planes(me)
        for code in range(1, NCODES):
            found = planes[code]
            assert found is not None
            ones, halves = found
            entries = dict.fromkeys(ones, 1.0)
            for k in halves:
                entries[k] = entries.get(k, 0.0) + 0.5
            items = list(entries.items())
            assert len(items) <= _WIDTH
            items += [items[0]] * (_WIDTH - len(items))
            row = me * NCODES + code
            offsets[row] = [k for k, _ in items]
            values[row] = [v for _, v in items]
    return offsets, values


_OFFSETS, _VALUES = _tables()
# the columns of the pools-and-lost block, by observer: its own lost counts first
_PER_STATE = 128 + 14 + 6 + 4  # the numbers read of each state (see write_observations)
_LOST_ORDER = np.array([[14, 15, 16, 17, 18, 19], [17, 18, 19, 14, 15, 16]], np.intp)


def write_observations(out: Any, states: Sequence[Any], players: Sequence[int]) -> None:
    """Row i of `out` made `encoding.fast_entries(states[i], players[i])` as a tensor."""
    n = len(states)
    width = out.shape[1]
    # every state's numbers in one list read by numpy at once: its boards (out of phase,
    # then in phase; a turn under way in steps: its working boards with the mover put back),
    # pools, lost counts, no-capture count, turn limit, player to move and whether it is over
    ints: list[int] = []
    step_at: list[int] = []  # the step planes and scalars of turns under way, one by one
    step: list[float] = []
    for i, st in enumerate(states):
        t = st.part
        if t is None:
            ints += st.ghost
            ints += st.main
        else:
            main, ghost = t.placed()
            ints += ghost
            ints += main
            row = i * width
            step_at += (row + 42 * 64 + t.sq, row + 43 * 64 + t.sq0, row + _S + 22,
                        row + _S + 23, row + _S + 24, row + _S + 25)
            step += (1.0, 1.0, 1.0,
                     1.0 if t.phase == PHASE_SELECTED and bool(FIELDS[t.code]) else 0.0,
                     (t.points - t.used) / 6, t.used / 6)
        ints += st.pool
        ints += st.lost
        ints += (st.count, st.limit, st.turn, st.result is not None)
    numbers = np.fromiter(ints, np.intp, n * _PER_STATE).reshape(n, _PER_STATE)
    out.fill(0.0)
    flat = out.reshape(-1)
    env, at = np.nonzero(numbers[:, :128])  # every piece: its state, board * 64 + square
    key = numbers[env, at]
    who = np.fromiter(players, np.intp, n)
    key += who[env] * NCODES
    base = env * width + (at & 63)  # the piece's square in its state's row
    flat[_OFFSETS[key] + base[:, None]] = _VALUES[key]
    counts = numbers[:, 128:148] / 3  # the pools (7 colours x 2), then the lost counts
    out[:, _S + 1:_S + 15] = counts[:, :14]
    out[:, _S + 15:_S + 21] = counts[np.arange(n)[:, None], _LOST_ORDER[who]]  # own first
    count, limit, turn, over = numbers[:, 148:].T
    out[:, _S + 21] = np.divide(count, limit, out=np.zeros(n), where=limit > 0)
    out[:, _S] = (turn == who) & (over == 0)
    out[:, _S + 26] = over
    if step_at:
        flat[step_at] = step
