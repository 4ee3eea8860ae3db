"""FieldShift's observations and action masks of many states at once, in numpy (the vector
API's `Game.write_observations` and `Game.write_masks`; numpy comes with `boardct[rl]`, the
only callers' extra).

A vector of games asks for 16 or more tensors and masks a step; written one state at a time,
each costs more than the command that follows. Here each state's lists are only gathered
(list extends in the observer's order, no value looked at) and read by numpy at once: the
small values (vitality, bleed timers, skills, marks, the players' counts) through one
`bytearray` (a byte a value, far cheaper than numpy's conversion of each int; numpy's when
one does not fit), the rest (sectors, arrival stamps) through one `fromiter`. Then every
operator's 20 fields of every state come from two tables indexed by codes made of those
values (sector, vitality and place in its stack; bleed timer, skill and marks: one matmul),
the places in the stacks from one sort of the whole batch (`_places`), the players' fields
from a table per field, and the game's fields are the single env's own remembered bytes
(`encoding.game_bytes`). At 16 games this costs about what as many single observations
do (numpy's fixed cost per call weighs); from 64 on, clearly less. The values are those of
`encoding.observation_bytes` exactly (tests/fieldshift check row for row over long games).

The masks: the legal command tokens of every state read by numpy at once and numbered through
a table, one scattered write for the batch, rather than each state's ids numbered, sorted and
set one by one (`legal_ids`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from boardct.core.encoding import scaled
from boardct.games.fieldshift.encoding import (
    _MARKS,
    CRATE_SCALE,
    OP_FIELDS,
    PLAYER_FIELDS,
    SIZE,
    condition_fields,
    game_bytes,
    place_fields,
)
from boardct.games.fieldshift.state import ID_OF_TOKEN
from boardct.games.fieldshift.tables import BLEED_TURNS, VITALITY

_IDS = np.array(ID_OF_TOKEN, np.intp)  # a command token's action id

_OPS = 20 * OP_FIELDS  # where the players' fields start; the game's after theirs
_GAME_AT = _OPS + 2 * PLAYER_FIELDS
_VIT_TOP = VITALITY  # vitality above the top reads as the top (scaled clips to 1)
_SKILL_TOP = 3
_SECTOR = 20 * (_VIT_TOP + 1)  # a sector's rows in the first table


def _op_tables() -> tuple[Any, Any]:
    """An operator's fields, split in two tables of full rows whose nonzero columns do not
    meet (added, they make the row): by sector * _SECTOR + vitality * 20 + place in its
    stack, the sector and status one-hots, vitality and place (RESERVE and DEAD, negative
    sectors, give negative codes, which numpy reads from the table's end: their rows are
    there); by (bleed timer, skill, marks: 1 watching, 2 selected) the other four. The
    values `encoding.place_fields` and `encoding.condition_fields` write."""
    first = np.zeros((12 * _SECTOR, OP_FIELDS), np.float32)
    for where in range(-2, 10):
        for v in range(_VIT_TOP + 1):
            for rank in range(20):
                place_fields(first[where * _SECTOR + v * 20 + rank], where, v, rank)
    second = np.zeros((BLEED_TURNS + 1, _SKILL_TOP + 1, 4, OP_FIELDS), np.float32)
    for bleed in range(BLEED_TURNS + 1):
        for skill in range(_SKILL_TOP + 1):
            for marks in range(4):
                condition_fields(second[bleed, skill, marks], bleed, skill, marks)
    return first, second.reshape(-1, OP_FIELDS)


_FIRST, _SECOND = _op_tables()
_TOP = 63  # the players' counts above this read as it (every table's value there is 1)
# each state's small values (read through a `bytearray`), in the observer's order (its own
# operators and block first): vitality, bleed timer, skill and marks of the 20 operators,
# then each player's crates, three facilities, two cooldowns, artillery ready and whether
# under Cyberwarfare
_SMALL = 80 + 2 * PLAYER_FIELDS
# the caps of the small values: one above reads as its cap (`scaled` clips to 1; the bleed
# timer shows at most BLEED_TURNS; a flag is 0 or 1)
_CAPS = np.array([_VIT_TOP] * 20 + [BLEED_TURNS] * 20 + [_SKILL_TOP] * 20 + [3] * 20
                 + [_TOP] * (2 * PLAYER_FIELDS), np.uint8)
# the operators' codes in the two tables from (vitality, bleed, skill, marks), by matmul;
# the sector (times 20 * (_VIT_TOP + 1)) and the place in the stack are added after
_WEIGHTS = np.array([[20, 0, 0, 0], [0, 4 * (_SKILL_TOP + 1), 4, 1]], np.intp)
# a player's fields by (field, value): crates and the three facilities over CRATE_SCALE,
# the two cooldowns over 5, artillery ready and under Cyberwarfare as flags; both players
_PLAYER = np.array(([[scaled(v, CRATE_SCALE) for v in range(_TOP + 1)]] * 4
                    + [[scaled(v, 5) for v in range(_TOP + 1)]] * 2
                    + [[0.0] + [1.0] * _TOP] * 2) * 2, np.float32)
_FIELDS = np.arange(2 * PLAYER_FIELDS)


class _SecondMarks(dict):
    """`encoding._MARKS` in the second player's order (its own operators first)."""

    def __missing__(self, key: tuple[int, int, int, int]) -> tuple[int, ...]:
        marks = _MARKS[key]
        out = marks[10:] + marks[:10]
        if len(self) > 65536:  # a bound, never met: a few hundred keys at most
            self.clear()
        self[key] = out
        return out


_MARKS_OF_SECOND = _SecondMarks()
_GROUPS = 16  # a state's sectors (RESERVE and DEAD too) are sorted apart from the next's


def _places(loc: Any, stamp: Any) -> Any:
    """Each operator's place in its sector's stack (`encoding._ranks`; what it is off the
    board does not matter): the operators of the whole batch sorted by (state, sector,
    stamp) in one sort, each one's place there less that of the first of its sector."""
    n = len(loc)
    apart, numbers = _ranges(n, _GROUPS)
    group = (loc + apart[:, None]).ravel()
    order = ((group << 40) | stamp.ravel()).argsort()
    grouped = group[order]
    place = np.empty(n * 20, np.intp)
    place[order] = numbers - grouped.searchsorted(grouped)
    return place.reshape(n, 20)


@functools.cache
def _ranges(n: int, step: int) -> tuple[Any, Any]:
    """0, step, 2 * step ... for n rows, and 0 .. 20n - 1 (every operator of n states): made
    once per batch size (read only)."""
    apart = np.arange(0, step * n, step)
    numbers = np.arange(n * 20)
    apart.flags.writeable = numbers.flags.writeable = False
    return apart, numbers


def write_observations(out: Any, states: Sequence[Any], players: Sequence[int]) -> None:
    """Row i of `out` made `states[i].observation_tensor(players[i])` in float32."""
    n = len(states)
    small: list[int] = []  # see _SMALL
    wide: list[int] = []  # sectors and stamps (20 each), in the observer's order
    game: list[bytes] = []  # the game's fields, as the single env's bytes
    for st, p in zip(states, players, strict=True):
        pv, skl = st.pv, st.skl
        # each side's crates, facilities and cooldowns (pv[0:6]), artillery ready (8), and
        # whether the enemy's Technicians (2 and 7 of their side) hold it under Cyberwarfare
        if p:
            vit, bleed, loc, stamp = st.vit, st.bleed, st.loc, st.stamp
            small += vit[10:]
            small += vit[:10]
            small += bleed[10:]
            small += bleed[:10]
            small += skl[10:]
            small += skl[:10]
            small += _MARKS_OF_SECOND[pv[11], pv[10], pv[23], pv[22]]
            small += pv[12:18]
            small += (pv[20], skl[2] > 0 or skl[7] > 0)
            small += pv[0:6]
            small += (pv[8], skl[12] > 0 or skl[17] > 0)
            wide += loc[10:]
            wide += loc[:10]
            wide += stamp[10:]
            wide += stamp[:10]
        else:
            small += st.vit
            small += st.bleed
            small += skl
            small += _MARKS[pv[11], pv[10], pv[23], pv[22]]  # WATCH, SEL of each side
            small += pv[0:6]
            small += (pv[8], skl[12] > 0 or skl[17] > 0)
            small += pv[12:18]
            small += (pv[20], skl[2] > 0 or skl[7] > 0)
            wide += st.loc
            wide += st.stamp
        game += game_bytes(st, p)
    values: Any
    try:
        values = np.frombuffer(bytearray(small), np.uint8).reshape(n, _SMALL)
    except ValueError:  # a value above 255 (never met in play): numpy reads each int
        values = np.fromiter(small, np.intp, n * _SMALL).reshape(n, _SMALL)
    values = np.minimum(values, _CAPS)
    loc, stamp = np.fromiter(wide, np.intp, n * 40).reshape(n, 2, 20).transpose(1, 0, 2)
    codes = _WEIGHTS @ values[:, :80].reshape(n, 4, 20)  # (n, 2, 20)
    first = codes[:, 0]
    first += loc * _SECTOR  # RESERVE and DEAD negative: see _op_tables
    first += _places(loc, stamp)
    np.add(_FIRST[first], _SECOND[codes[:, 1]], out=out[:, :_OPS].reshape(n, 20, OP_FIELDS))
    out[:, _OPS:_GAME_AT] = _PLAYER[_FIELDS, values[:, 80:]]
    out[:, _GAME_AT:SIZE] = np.frombuffer(b"".join(game), np.float32).reshape(n, -1)


def write_masks(out: Any, states: Sequence[Any], players: Sequence[int]) -> None:
    """Row i of `out` made 1 at `states[i].legal_ids(players[i])`, 0 elsewhere: the same
    ids, as `legal_ids` is its legal actions' ids (none for a player not to decide)."""
    tokens: list[int] = []
    sizes: list[int] = []
    for st, p in zip(states, players, strict=True):
        legal = st.legal_actions(p)
        tokens += legal
        sizes.append(len(legal))
    out.fill(0)
    total = len(tokens)
    if total:
        width = out.shape[1]
        at = _IDS[np.fromiter(tokens, np.intp, total)]
        at += np.repeat(_ranges(len(sizes), width)[0], sizes)
        out.reshape(-1)[at] = 1
