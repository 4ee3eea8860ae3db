"""Battle for The Shifting Hills' observations of many states at once (the vector API's
`Game.write_observations`; numpy comes with `boardct[rl]`, the only callers' extra).

`encoding.fast_array` makes one state's tensor as a fresh float array; a vector of games asks
for 16 or more tensors a step, and most of each changes seldom. So each row of the batch is
joined from pieces of bytes, all the rows in one copy into `out`, and the squads' planes on the
hexes (where each squad stands: they change at every move) are set with one scattered write:

- the hexes' tile and star fields and the four global fields of what is still face down: one
  board per game for both observers (`_Board`), rewritten only at the hexes whose face or
  star changed since it was last met (a tile turned, a star used: a few dozen times a game);
- each squad's six fields: one piece per (units, impeded, standing shown), made once;
- the other global fields: the runs `fast_array` copies (`encoding._RUNS`, keyed alike), kept
  per state and observer (`_Row`) while the values they are made of stand (checked by
  comparing the state's lists with copies: cheaper than building the keys at every step).

The values are those of `fast_array` exactly, written by the same functions (`_hex_fields`,
`scaled`, the runs) from the same fields: what the observer may know, nothing else
(tests/hills/test_hills_batch.py checks row for row, byte for byte, over whole games).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any

import numpy as np

from boardct.core.encoding import scaled
from boardct.games.hills import encoding as enc
from boardct.games.hills.board import HQ, N_HEXES, UNIT_CAP

_SQUADS_AT = enc._SQUADS_AT  # where the squads' fields start (after the hexes)
_ZERO = array("f", [0.0]).tobytes()
_ONE = array("f", [1.0]).tobytes()
_LAND = tuple(h not in HQ for h in range(N_HEXES))
_HEX_AT = enc._HEX_AT
_HQ_TILE = 3  # `tiles[h]` of a headquarters (0..2 a land tile: P, M, F)


class _HexPieces(dict[tuple[int, ...], bytes]):
    """A hex's eight tile and star fields as bytes, by the places of those set to 1.0."""

    def __missing__(self, places: tuple[int, ...]) -> bytes:
        fields = array("f", bytes(4 * 8))
        for f in places:
            fields[f] = 1.0
        made = self[places] = fields.tobytes()
        return made


_HEX_PIECES = _HexPieces()

# the position of each squad's plane on each hex, by its place in the observer's order (its
# own Infantry, Rocketeer, Mech, then the other side's: planes 8 to 13 of a hex, as
# `encoding._write_squads` places them)
_P0, _P1, _P2, _P3, _P4, _P5 = (tuple(_HEX_AT[h] + 8 + j for h in range(N_HEXES))
                                for j in range(6))
assert all(plane == 8 + j for me in (0, 1)
           for j, (_sq, _side, _at, plane) in enumerate(enc._SQUAD_ORDER[me]))


class _SquadFields(dict[int, bytes]):
    """A squad's six fields as bytes, by `units * 10 + impeded * 5 + shown`, `shown` its
    standing + 1 when its side is to move (`state.st`, whose words `encoding` shows), else 0:
    written as `encoding._write_squads` writes them."""

    def __missing__(self, key: int) -> bytes:
        n, impeded, shown = key // 10, key // 5 % 2, key % 5
        fields = array("f", bytes(4 * enc.SQUAD_FIELDS))
        fields[0] = enc._UNITS[n] if n in enc._UNITS else scaled(n, UNIT_CAP)
        if n > 0:
            fields[1] = 1.0
            if impeded:
                fields[2] = 1.0
            if shown:
                status = enc._status_index()[shown - 1]
                if status >= 0:
                    fields[3 + status] = 1.0
        if len(self) > 4096:  # units beyond the cap (a scenario's) are few; a bound anyway
            self.clear()
        made = self[key] = fields.tobytes()
        return made


_SQUAD_FIELDS = _SquadFields()
# the same up to the unit cap, as a tuple (a batch's look-ups: cheaper than the dict's)
_SQUAD_PIECES = tuple(_SQUAD_FIELDS[k] for k in range(10 * UNIT_CAP + 10))


class _Board:
    """One game's last board met: each observer's tile and star fields of the hexes (the
    squads' planes 0; the two differ only in which headquarters is whose) and the four
    fields of what is face down, as bytes (`fields`, `tail`), with the face-up and star lists
    they were made from (copies, and as bytes to find what changed) and the counts the four
    are made of. Each observer's fields are kept in a buffer rewritten in place at the hexes
    that change; `fields` holds copies, which a batch joins."""

    __slots__ = ("tiles", "info", "rev", "star", "rev_bytes", "star_bytes", "buffers",
                 "fields", "tail", "revealed", "stars_up")

    def __init__(self, state: Any):
        self.tiles, self.info = state.tiles, state.info
        self.rev, self.star = [False] * N_HEXES, [0] * N_HEXES
        self.buffers = (bytearray(4 * _SQUADS_AT), bytearray(4 * _SQUADS_AT))
        self.revealed = [0, 0, 0]
        self.stars_up = 0
        self._rewrite(state, range(N_HEXES))
        self.rev_bytes, self.star_bytes = bytes(state.rev), bytes(state.star)

    def update(self, state: Any) -> None:
        """Rewrite the hexes whose face or star changed since (found from the lists as bytes:
        the bytes that differ)."""
        rev_bytes, star_bytes = bytes(state.rev), bytes(state.star)
        x = (int.from_bytes(rev_bytes, "little") ^ int.from_bytes(self.rev_bytes, "little")
             | int.from_bytes(star_bytes, "little") ^ int.from_bytes(self.star_bytes, "little"))
        changed = []
        while x:
            h = ((x & -x).bit_length() - 1) >> 3  # the lowest byte that differs
            changed.append(h)
            x &= ~(0xFF << (h << 3))
        self._rewrite(state, changed)
        self.rev_bytes, self.star_bytes = rev_bytes, star_bytes

    def _rewrite(self, state: Any, hexes: Sequence[int]) -> None:
        """These hexes' fields written for each observer as `encoding._board` writes them
        (`encoding._hex_fields`: a land tile's fields are the same for both, a headquarters'
        are not), and the counts of what is face down brought up to date."""
        rev, star, tiles = state.rev, state.star, self.tiles
        rev0, star0 = self.rev, self.star
        revealed = self.revealed
        buffer0, buffer1 = self.buffers
        for h in hexes:
            if _LAND[h]:  # the counts: the old face taken out, the new one put in
                if rev0[h]:
                    revealed[tiles[h]] -= 1
                    self.stars_up -= star0[h] != 0
                if rev[h]:
                    revealed[tiles[h]] += 1
                    self.stars_up += star[h] != 0
            at = 4 * _HEX_AT[h]  # the hex's eight fields, as bytes, from the fields set
            # (`_hex_fields` from 0: their places in the hex)
            if tiles[h] == _HQ_TILE:
                buffer0[at:at + 32] = _HEX_PIECES[enc._hex_fields(h, 0, rev, tiles, star, 0)]
                buffer1[at:at + 32] = _HEX_PIECES[enc._hex_fields(h, 0, rev, tiles, star, 1)]
            else:
                buffer0[at:at + 32] = buffer1[at:at + 32] = _HEX_PIECES[
                    enc._hex_fields(h, 0, rev, tiles, star, 0)]
        self.fields = (bytes(self.buffers[0]), bytes(self.buffers[1]))
        self.rev, self.star = rev[:], star[:]
        info = self.info
        key = (*revealed, self.stars_up, *info.tile_counts, info.star_total)
        tail = _TAILS.get(key)
        if tail is None:
            counts, total = info.tile_counts, info.star_total
            if len(_TAILS) > 4096:
                _TAILS.clear()
            tail = _TAILS[key] = array("f", [
                scaled(counts[0] - revealed[0], counts[0]),
                scaled(counts[1] - revealed[1], counts[1]),
                scaled(counts[2] - revealed[2], counts[2]),
                scaled(total - self.stars_up, total)]).tobytes()
        self.tail = tail


# the four fields of what is face down, by the counts they are made of
_TAILS: dict[tuple[int, ...], bytes] = {}
_BOARDS: dict[int, _Board] = {}  # by id(tiles) (each board holds its tiles: the id stays)


class _Row:
    """One observer's row of one state as last written: the values its global fields were
    made of (copies) and those fields as bytes, in two groups that change at different
    moments: `turn` (whose turn, turns done, card played, boost, Seize counters: `fast_array`'s
    first run) and `cards` (the hands, what is known of them, the deck's size and the discard
    pile: its second and third runs). A group is made again only when one of its values
    changed; the squads' fields change at almost every action and are joined anew."""

    __slots__ = ("state", "info", "board", "cur", "out", "card_played", "boosted", "tdone",
                 "seize", "turn", "hand", "known", "deck", "discard", "cards")

    def __init__(self, state: Any):
        self.state, self.info = state, state.info  # the row holds its state: the id stays
        self.board: _Board | None = None
        # nothing made yet: every group differs from these
        self.cur, self.out, self.card_played, self.boosted = -1, None, False, -1
        self.tdone: list[int] | None = None
        self.seize: list[int] | None = None
        self.hand: list[int] | None = None
        self.known: list[int] | None = None
        self.deck = -1
        self.discard: list[int] | None = None
        self.turn = self.cards = b""


_ROWS: dict[int, _Row] = {}  # by id(state) * 2 + observer
# the games (boards) and states (rows) remembered, at most: a vector's games and a few more
# (then all forgotten and made anew); each holds its state or tiles alive, so a bound well
# above the vectors learners run but small, which keeps what the garbage collector walks small
_KEPT = 512
# the rows and boards remembered beyond those of the batch being written: past this, those of
# games not in the batch (games that ended, mostly) are forgotten. A vector's ended games
# would otherwise stay alive until the bound above, hundreds of states whose objects every
# full collection of the garbage collector walks (and whose memory the caches hold)
_SPARE = 256


def _prune(states: Sequence[Any]) -> None:
    """Forget the rows and boards of the games not in this batch."""
    kept = {id(state) for state in states}
    tiles = {id(state.tiles) for state in states}
    for key in [k for k in _ROWS if k >> 1 not in kept]:
        del _ROWS[key]
    for key in [k for k in _BOARDS if k not in tiles]:
        del _BOARDS[key]


def _board_of(state: Any) -> _Board:
    """The board of the state's game (its tiles), made when first met."""
    tiles = state.tiles
    board = _BOARDS.get(id(tiles))
    if board is None or board.tiles is not tiles or board.info is not state.info:
        if len(_BOARDS) > _KEPT:
            _BOARDS.clear()
        board = _BOARDS[id(tiles)] = _Board(state)
    return board


def write_observations(out: Any, states: Sequence[Any], players: Sequence[int]) -> None:
    """Row i of `out` (C-contiguous, float32, `encoding.SIZE` wide) made
    `encoding.fast_array(states[i], players[i])`, byte for byte."""
    parts: list[Any] = []
    planes: list[int] = []  # the flat positions of the squads' planes, 1.0 each
    runs, squad_fields, rows = enc._RUNS, _SQUAD_PIECES, _ROWS
    if len(rows) > 2 * len(states) + _SPARE or len(_BOARDS) > len(states) + _SPARE:
        _prune(states)
    base = 0
    width = enc.SIZE
    for state, me in zip(states, players, strict=True):
        row = rows.get(id(state) * 2 + me)
        if row is None or row.state is not state or row.info is not state.info:
            if len(rows) > 2 * _KEPT:
                rows.clear()
            row = rows[id(state) * 2 + me] = _Row(state)
        board = row.board
        if board is None or board.tiles is not state.tiles:
            board = row.board = _board_of(state)
        if board.rev != state.rev or board.star != state.star:
            board.update(state)
        parts.append(board.fields[me])
        # the squads in the observer's order (its own first), each one's fields by its
        # units, impediment and standing (shown for the side to move only), and the plane
        # of each one standing on the map set where it stands
        cur, st = state.cur, state.st
        if me == 0:
            u0, u1, u2, u3, u4, u5 = state.units
            i0, i1, i2, i3, i4, i5 = state.imp
        else:
            u3, u4, u5, u0, u1, u2 = state.units
            i3, i4, i5, i0, i1, i2 = state.imp
        b = cur * 3
        if cur == me:
            s0, s1, s2, s3, s4, s5 = st[b] + 1, st[b + 1] + 1, st[b + 2] + 1, 0, 0, 0
        else:
            s0, s1, s2, s3, s4, s5 = 0, 0, 0, st[b] + 1, st[b + 1] + 1, st[b + 2] + 1
        keys = (u0 * 10 + i0 * 5 + s0, u1 * 10 + i1 * 5 + s1, u2 * 10 + i2 * 5 + s2,
                u3 * 10 + i3 * 5 + s3, u4 * 10 + i4 * 5 + s4, u5 * 10 + i5 * 5 + s5)
        try:
            parts += (squad_fields[keys[0]], squad_fields[keys[1]], squad_fields[keys[2]],
                      squad_fields[keys[3]], squad_fields[keys[4]], squad_fields[keys[5]])
        except IndexError:  # units above the cap (a scenario's): those pieces made now
            parts += (_SQUAD_FIELDS[k] for k in keys)
        pos = state.pos
        o = me * 3  # the observer's first squad
        e = 3 - o
        if u0 > 0:
            planes.append(base + _P0[pos[o]])
        if u1 > 0:
            planes.append(base + _P1[pos[o + 1]])
        if u2 > 0:
            planes.append(base + _P2[pos[o + 2]])
        if u3 > 0:
            planes.append(base + _P3[pos[e]])
        if u4 > 0:
            planes.append(base + _P4[pos[e + 1]])
        if u5 > 0:
            planes.append(base + _P5[pos[e + 2]])
        # the global fields: each group made again (keyed as `fast_array` keys its runs)
        # only when a value it is made of changed
        ended, tdone, seize = state.out, state.tdone, state.seize
        if (cur != row.cur or ended is not row.out or state.card_played != row.card_played
                or state.boosted != row.boosted or tdone != row.tdone or seize != row.seize):
            row.cur, row.out, row.card_played, row.boosted = (cur, ended, state.card_played,
                                                              state.boosted)
            row.tdone, row.seize = tdone[:], seize[:]
            info = state.info
            row.turn = runs[(0, me, cur == me and ended is None, info.first == me,
                             info.turn_limit, tdone[me], tdone[1 - me], state.card_played,
                             state.boosted, seize[me], seize[1 - me])]
        hand, known, discard = state.hand, state.known, state.discard
        if (hand != row.hand or known != row.known or len(state.deck) != row.deck
                or discard != row.discard):
            row.hand, row.known, row.deck, row.discard = (hand[:], known[:], len(state.deck),
                                                          discard[:])
            row.cards = (runs[(1, me, *hand, *known)].tobytes()
                         + runs[(2, len(state.deck), *state.info.deck_mix, discard.count(0),
                                 discard.count(1), discard.count(2), discard.count(3))
                                ].tobytes())
        parts += (row.turn, row.cards, board.tail, _ZERO if ended is None else _ONE)
        base += width
    memoryview(out).cast("B")[:] = b"".join(parts)  # the rows: one copy of their bytes
    if planes:  # numpy reads the list as an iterable of ints: cheaper than as a list
        out.reshape(-1)[np.fromiter(planes, np.intp, len(planes))] = 1.0
