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
from itertools import chain
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


def write_observations(out: Any, states: Sequence[Any], players: Sequence[int]) -> None:
    """Row i of `out` made `encoding.fast_entries(states[i], players[i])` as a tensor."""
    n = len(states)
    width = out.shape[1]
    boards: list[list[int]] = []
    extra_at: list[int] = []  # the scalars and step planes written one by one
    extra: list[float] = []
    for i, st in enumerate(states):
        t = st.part
        p = players[i]
        row = i * width
        if t is None:
            boards.append(st.ghost)
            boards.append(st.main)
        else:
            main, ghost = t.placed()
            boards.append(ghost)
            boards.append(main)
            extra_at += (row + 42 * 64 + t.sq, row + 43 * 64 + t.sq0, row + _S + 22,
                         row + _S + 23, row + _S + 24, row + _S + 25)
            extra += (1.0, 1.0, 1.0,
                      1.0 if t.phase == PHASE_SELECTED and bool(FIELDS[t.code]) else 0.0,
                      (t.points - t.used) / 6, t.used / 6)
        result = st.result
        if result is None:
            if st.turn == p:
                extra_at.append(row + _S)
                extra.append(1.0)
        else:
            extra_at.append(row + _S + 26)
            extra.append(1.0)
        limit = st.limit
        if limit:
            extra_at.append(row + _S + 21)
            extra.append(st.count / limit)
    out.fill(0.0)
    flat = out.reshape(-1)
    codes = np.fromiter(chain.from_iterable(boards), np.intp, n * 128)
    at = np.flatnonzero(codes)  # every piece: its board (env * 2 + phase) * 64 + square
    env = at >> 7
    key = codes[at]
    who = np.fromiter(players, np.intp, n)
    key += who[env] * NCODES
    base = env * width + (at & 63)  # the piece's square in its env's row
    flat[_OFFSETS[key] + base[:, None]] = _VALUES[key]
    # the pools (7 colours x 2 counts) and the lost counts (own 3, then the opponent's 3)
    pools = np.fromiter(chain.from_iterable(st.pool for st in states), np.float64, n * 14)
    out[:, _S + 1:_S + 15] = (pools / 3).reshape(n, 14)
    lost = np.fromiter(chain.from_iterable(st.lost for st in states), np.float64,
                       n * 6).reshape(n, 2, 3) / 3
    mine = who.astype(np.bool_)
    out[:, _S + 15:_S + 18] = np.where(mine[:, None], lost[:, 1], lost[:, 0])
    out[:, _S + 18:_S + 21] = np.where(mine[:, None], lost[:, 0], lost[:, 1])
    if extra_at:
        flat[extra_at] = extra
