"""Shift's observations of many states at once (the vector API's `Game.write_observations`;
numpy comes with `boardct[rl]`, the only callers' extra).

A Shift tensor is small (168 floats) and `encoding.fast_array` writes it a value at a time:
some thirty float stores, each a few Python steps. But the tensor is a few parts, each a
function of a few small numbers of the state that take few values over a game:

- the top: the phase, whose decision, the mover, who went first, the toss winner and the
  attack under way, as the observer sees them (672 combinations at most);
- the turn, scaled by the turn limit;
- each seat's figures: gear and level, power, guard, temporary bonuses, tokens, skips (some
  300 combinations meet in a thousand random games at the defaults);
- each card's printed gears (fixed for the card);
- the last coins, as the observer sees them: read from the coin log once per newest cell.

So each part's bytes are remembered by its numbers in small tables, and a batch is those
parts joined and copied into `out` at once. The tables stay small on purpose: a step's
lookups then find them in the processor's cache, where large tables keyed by whole positions
cost more in memory reads than the values they save. A part not met yet is cut from
`encoding.fast_array` of the state at hand, so every value is the single-env path's own
(tests/adapters check bit for bit over long games); power and guard are the rules' own
(`ShiftState.figures`: `power` and `guard` of both seats in one call).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from boardct.games.shift import encoding as enc

# where each part lies in the tensor, in bytes (float32)
_TURN = (len(enc.PHASE_NAMES) + 8) * 4  # the top ends where the turn starts
_OWN = enc.GLOBAL_FIELDS * 4  # the observer's seat figures, then its card's printed gears
_SEAT = 13 * 4  # the figures of a seat (encoding's per-player block up to the printed gears)
_OTHER = _OWN + enc.PLAYER_FIELDS * 4
_COINS = enc._FLIPS_AT * 4
_BOUND = 1 << 14  # the most seats' figures, or coins, remembered

# the tops, by `_top_index`; the turns, per turn limit; the seats' figures, by
# (gear, power, guard, temporary power, temporary guard, lit, burnt, skips); each card's
# printed gears, by its id (identity-checked); the coins' bytes for each observer, by the
# coins as a number (`_coins_code`); and per place in the batch, the coin log's newest cell
# last met there, its coins' number and bytes (a new coin makes a new cell: the same cell,
# the same coins)
_TOPS: list[bytes | None] = [None] * (2 * len(enc.PHASE_NAMES) * 2 * 3 * 2 * 4)
_TURNS: dict[int, dict[int, bytes]] = {}
_SEATS: dict[tuple[int, ...], bytes] = {}
_PRINTED: dict[int, tuple[object, bytes]] = {}
_COINS_BYTES: dict[int, tuple[bytes, bytes]] = {}
_LAST: list[tuple[object, int, tuple[bytes, bytes]]] = []
_UNSEEN = (object(), 0, (b"", b""))  # a place not written yet: no coin log is its cell
_SEVENS = tuple(7 ** k for k in range(enc.FLIPS + 1))


def _coins_code(cell: Any, known: Any = None, code: int = 0) -> int:
    """The last `FLIPS` coins of a coin log, newest first, in base 7: 0 no coin, else
    1 + 2 * (player + 1, -1 being the toss) + heads. `known` is an older cell of the same
    log whose number is `code`: the walk stops there (the cells between are the new coins,
    most often one or none), rather than read six cells each time."""
    out = 0
    for k in range(enc.FLIPS):
        if cell is None:
            break
        if cell is known:
            out += code % _SEVENS[enc.FLIPS - k] * _SEVENS[k]
            break
        cell, who, heads, _ = cell
        out += (3 + who + who + heads) * _SEVENS[k]
    return out


def _printed(st: Any, seat: int) -> bytes:
    """The printed gears of `seat`'s card as the tensor shows them (the same wherever the
    seat sits): cut from the state's tensor as seen by that seat."""
    card = st.cards[seat]
    found = _PRINTED.get(id(card))
    if found is not None and found[0] is card:
        return found[1]
    if len(_PRINTED) >= 64:
        _PRINTED.clear()
    part = enc.fast_array(st, seat).tobytes()[_OWN + _SEAT:_OTHER]
    _PRINTED[id(card)] = (card, part)
    return part


def _coins_bytes(st: Any, code: int) -> tuple[bytes, bytes]:
    """The bytes of the last coins (number `code`, those of `st`) for each observer."""
    found = _COINS_BYTES.get(code)
    if found is None:
        if len(_COINS_BYTES) >= _BOUND:
            _COINS_BYTES.clear()
        found = _COINS_BYTES[code] = (enc.fast_array(st, 0).tobytes()[_COINS:],
                                      enc.fast_array(st, 1).tobytes()[_COINS:])
    return found


def _learn(st: Any, me: int, top: int, seat_keys: tuple[Any, Any]) -> None:
    """The parts of `me`'s tensor of `st` not remembered yet, cut from `fast_array`."""
    whole = enc.fast_array(st, me).tobytes()
    if _TOPS[top] is None:
        _TOPS[top] = whole[:_TURN]
    turns = _TURNS.get(st.limit)
    if turns is None:
        if len(_TURNS) >= 64:
            _TURNS.clear()
        turns = _TURNS[st.limit] = {}
    if st.turn not in turns:
        if len(turns) >= _BOUND:
            turns.clear()
        turns[st.turn] = whole[_TURN:_OWN]
    if len(_SEATS) >= _BOUND:
        _SEATS.clear()
    _SEATS.setdefault(seat_keys[0], whole[_OWN:_OWN + _SEAT])
    _SEATS.setdefault(seat_keys[1], whole[_OTHER:_OTHER + _SEAT])


def write_observations(out: Any, states: Sequence[Any], players: Sequence[int]) -> None:
    """Row i of `out` made `encoding.fast_array(states[i], players[i])`."""
    parts: list[bytes] = []
    tops, seats, last = _TOPS, _SEATS, _LAST
    if len(last) < len(states):
        last += [_UNSEEN] * (len(states) - len(last))
    own = other = None
    printed: tuple[bytes, bytes] = (b"", b"")
    limit = -1
    turns: dict[int, bytes] = {}
    for i, (st, me) in enumerate(zip(states, players, strict=True)):
        cards = st.cards
        if cards[0] is not own or cards[1] is not other:
            own, other = cards
            printed = (_printed(st, 0), _printed(st, 1))
        if st.limit != limit:
            limit = st.limit
            turns = _TURNS.get(limit, {})
        top = ((((me * 7 + st.phase) * 2 + st.mover) * 3 + st.first + 1) * 2
               + st.toss_winner) * 4 + st.atk + 1
        o = 1 - me
        gear, tp, tg, lit, burnt = st.gear, st.tp, st.tg, st.lit, st.burnt
        skip_shift, skip_turn = st.skip_shift, st.skip_turn
        figures = st.figures()  # power 0, power 1, guard 0, guard 1
        mine = (gear[me], figures[me], figures[2 + me], tp[me], tg[me], lit[me], burnt[me],
                skip_shift[me], skip_turn[me])
        theirs = (gear[o], figures[o], figures[2 + o], tp[o], tg[o], lit[o], burnt[o],
                  skip_shift[o], skip_turn[o])
        cell = st.flips
        known = last[i]
        if cell is not known[0]:
            code = _coins_code(cell, known[0], known[1])
            known = last[i] = (cell, code, _coins_bytes(st, code))
        head = tops[top]
        turn = turns.get(st.turn)
        mine_part = seats.get(mine)
        theirs_part = seats.get(theirs)
        if head is None or turn is None or mine_part is None or theirs_part is None:
            _learn(st, me, top, (mine, theirs))
            head = tops[top]
            turns = _TURNS[limit]
            turn = turns[st.turn]
            mine_part = seats[mine]
            theirs_part = seats[theirs]
        parts += (head, turn, mine_part, printed[me], theirs_part, printed[o], known[2][me])
    out[:] = np.frombuffer(b"".join(parts), np.float32).reshape(out.shape)
