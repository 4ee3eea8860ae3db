"""FieldShift for learners: command tokens as action ids, the view as a tensor.

Action ids: every token of the command language has one, whatever the ruleset, so the space is
the same through a ruleset change (FS-37). Ids 0..99 are the two-digit commands "00".."99"
(LSTD's, and the AUX commands of every ruleset); ids 100..1099 are the three-digit commands
"000".."999" (STDEX and Type-A), id = 100 + the number. `legal_actions` holds canonical tokens,
so the legal ids are theirs; an id of a token the ruleset in force does not take is still an
id (its command is refused with the ruling that forbids it, FS-5).

The observation (see docs/fieldshift.md, "For learners") is built from `view(player)` only. It
is written from the observer's side: "own" is the observing player, "other" the opponent.
"""

from __future__ import annotations

from array import array
from typing import Any

from boardct.core.encoding import check_id, dense, flag, one_hot, scaled
from boardct.core.errors import IllegalAction
from boardct.games.fieldshift.notation import TWO
from boardct.games.fieldshift.tables import BLEED_TURNS, RULESETS, VITALITY

NUM_ACTIONS = 1100
STATUSES = ("deployed", "bleeding", "reserve", "dead")
OP_FIELDS = 10 + len(STATUSES) + 6  # sector one-hot, status, six values
PLAYER_FIELDS = 8
GLOBAL_FIELDS = 3 + 2 + 1 + 1 + 1 + 3 + 1 + 3 + 2 + 1
SIZE = 20 * OP_FIELDS + 2 * PLAYER_FIELDS + GLOBAL_FIELDS
CRATE_SCALE = 10.0  # crates and facilities are divided by this and clipped to 1
TURN_SCALE = 300.0  # the turn divided by the turn limit, or by this when there is none


def action_id(action: object) -> int:
    """The id of a command token (see the module's docstring)."""
    if type(action) is not int or not 0 <= action < TWO + 100:
        raise IllegalAction("FS-5", f"{action!r:.40} is not a FieldShift command token")
    return action - TWO if action >= TWO else action + 100


def id_action(action_id_: object) -> int:
    """The command token of an id."""
    i = check_id(action_id_, NUM_ACTIONS, "fieldshift")
    return TWO + i if i < 100 else i - 100


def _op_index(name: str | None) -> int:
    """'+3' -> 3, '-3' -> 13, None -> -1."""
    if not name:
        return -1
    return (0 if name[0] == "+" else 10) + int(name[1:])


def observation(view: dict, player: int) -> list[float]:
    """The observation tensor of `player` from their view (layout in docs/fieldshift.md)."""
    out: list[float] = []
    me = player
    order = (me, 1 - me)
    board = view["board"]
    ops = board["operators"]
    rank = {}
    for cell in board["sectors"]:
        for k, name in enumerate(cell):
            rank[name] = k
    selected = [_op_index(board["players"][p]["selected"]) for p in range(2)]
    for p in order:
        for n in range(10):
            op = ops[p * 10 + n]
            sector = op["sector"]
            one_hot(out, -1 if sector is None else sector, 10)
            one_hot(out, STATUSES.index(op["status"]), len(STATUSES))
            out.append(scaled(op["vitality"], VITALITY))
            out.append(scaled(op["bleed"], 5))
            out.append(scaled(op["skill"], 3))
            out.append(flag(op["watching"]))
            out.append(flag(selected[p] == p * 10 + n))
            out.append(scaled(rank.get(op["id"], 0), 19))
    for p in order:
        pl = board["players"][p]
        out.append(scaled(pl["crates"], CRATE_SCALE))
        out.extend(scaled(f, CRATE_SCALE) for f in pl["facilities"])
        out.append(scaled(pl["skill_cooldown"], 5))
        out.append(scaled(pl["support_cooldown"], 5))
        out.append(flag(pl["artillery_ready"]))
        out.append(flag(pl["under_cyberwarfare"]))
    one_hot(out, RULESETS.index(board["ruleset"]), 3)
    one_hot(out, ("dispute", "reject").index(board["violations"]), 2)
    limit = board["turn_limit"] or TURN_SCALE
    out.append(scaled(view["turn"], limit))
    out.append(flag(board["turn_player"] == me))
    out.append(flag(me == 1))
    pending = board["pending"]
    one_hot(out, 0 if pending is None else 1 if pending["kind"] == "ruleset" else 2, 3)
    out.append(flag(pending is not None and pending["requester"] == me))
    one_hot(out, -1 if pending is None or pending["ruleset"] is None
            else RULESETS.index(pending["ruleset"]), 3)
    disputable = {d["player"] for d in board["disputable"]}
    out.append(flag(me in disputable))
    out.append(flag(1 - me in disputable))
    out.append(flag(view["result"] is not None))
    return out


# -- the fast path ---------------------------------------------------------------------------
# `observation(view, player)` above is the definition; building the whole view dict (names,
# classes, reasons...) costs far more than the tensor, and learners pay it every step. FieldShift
# has no hidden information (its view is the whole state), so `fast_observation` reads the same
# values straight from the state's fields into a preallocated list. tests/fieldshift/
# test_fast_observation.py checks it equals `observation(state.view(p), p)` on many states.
_STATUS_AT = {name: i for i, name in enumerate(STATUSES)}
_DEPLOYED, _BLEEDING, _RESERVE_ST, _DEAD_ST = (_STATUS_AT[s] for s in STATUSES)
_VALUES_AT = 10 + len(STATUSES)  # an operator's six values, after sector and status


def _table(top: float, n: int) -> dict[int, float]:
    """`scaled(v, top)` for v in 0..n-1, looked up instead of computed (same floats)."""
    return {v: scaled(v, top) for v in range(n)}


_VIT, _FIVE, _SKILL3, _RANK19, _CRATE = (_table(VITALITY, 64), _table(5, 64), _table(3, 64),
                                         _table(19, 20), _table(CRATE_SCALE, 64))


def fast_observation(state, player: int) -> list[float]:
    """`observation(state.view(player), player)`, value for value, from the state's fields."""
    return dense(fast_entries(state, player), SIZE)


def fast_entries(state, player: int) -> dict[int, float]:
    """The entries of `fast_observation` that may be nonzero (position -> value): written
    into a dict, so that an adapter copies these few rather than the whole tensor."""
    return _write(state, player, {})


_ZEROS = array("f", bytes(4 * SIZE))


def fast_array(state, player: int) -> array:
    """`fast_observation` as a fresh float32 `array` (the learners' adapters hand it to
    numpy without a copy), from `observation_bytes`."""
    out = array("f")
    out.frombytes(observation_bytes(state, player))
    return out


def observation_bytes(state, player: int) -> bytes:
    """The bytes of `fast_observation` as float32: joined from remembered pieces (each
    operator's fields by `_SEGMENTS`, each player's by `_PLAYERS`, the game's by `_GAME`
    and the turn's by `_TURN`), the same values `_write` writes one by one."""
    pv = state.pv
    segments = list(map(_SEGMENTS.__getitem__, zip(state.loc, state.vit, state.bleed,
                                                   state.skl, ranks(state),
                                                   _MARKS[pv[11], pv[10], pv[23], pv[22]],
                                                   strict=True)))
    skl = state.skl
    # each player's crates, facilities, cooldowns (PV_SIZE 12; CRATES, FAC (3), SKCD, SPCD
    # from 0, ARTREADY at 8) and whether the enemy's Technicians (2 and 7 of their side)
    # hold it under Cyberwarfare
    first = _PLAYERS[(*pv[0:6], pv[8], skl[12] > 0 or skl[17] > 0)]
    second = _PLAYERS[(*pv[12:18], pv[20], skl[2] > 0 or skl[7] > 0)]
    if player:
        segments = segments[10:] + segments[:10]
        segments.append(second)
        segments.append(first)
    else:
        segments.append(first)
        segments.append(second)
    segments += game_bytes(state, player)
    return b"".join(segments)


def game_bytes(state, player: int) -> tuple[bytes, bytes, bytes]:
    """The game's fields of `player`'s observation as bytes, in three parts: those before
    the turn (`_GAME`'s head), the turn's (`_TURN`) and those after it (`_GAME`'s tail);
    `observation_bytes` and the vector's batch writer (batch.py) join them as they are."""
    pending = state.pending
    disputable = 0
    for who, _ in state.violations:
        disputable |= 1 << (who != player)
    head, tail = _GAME[(state.ruleset, state.mode, state.cur == player, player,
                        pending and (pending[0] == "ruleset", pending[1] == player,
                                     pending[2]),
                        disputable, state._outcome is not None)]
    return head, _TURN[(state.turn, state.limit)], tail


class _Marks(dict):
    """Each operator's marks (1: its side's watching operator, 2: its side's selected one),
    by the two sides' (watching, selected) operators as `pv` holds them (WATCH, SEL)."""

    def __missing__(self, key: tuple[int, int, int, int]) -> tuple[int, ...]:
        marks = [0] * 20
        for p, watch, sel in ((0, key[0], key[1]), (1, key[2], key[3])):
            lo = p * 10
            if lo <= watch < lo + 10:
                marks[watch] = 1
            if lo <= sel < lo + 10:
                marks[sel] |= 2
        out = tuple(marks)
        if len(self) > 65536:  # a bound, never met: a few hundred keys at most
            self.clear()
        self[key] = out
        return out


_MARKS = _Marks()


def place_fields(seg: Any, where: int, v: int, rank: int) -> None:
    """Write into `seg` (an operator's OP_FIELDS floats, zero) what its place says: the
    sector's or RESERVE's/DEAD's one-hot, its status, its vitality and its place in its stack.
    Also how `batch` makes its tables, so the two cannot drift apart."""
    if where >= 0:
        seg[where] = 1.0
        seg[(_BLEEDING if v == 0 else _DEPLOYED) + 10] = 1.0
        if rank:
            seg[_VALUES_AT + 5] = _RANK19[rank]
    else:
        seg[(_DEAD_ST if where == -2 else _RESERVE_ST) + 10] = 1.0  # DEAD
    if v:
        seg[_VALUES_AT] = scaled(v, VITALITY)


def condition_fields(seg: Any, bleed: int, skill: int, marks: int) -> None:
    """Write into `seg` the operator's other fields: bleed timer, skill, and marks (1
    watching, 2 selected); the columns `place_fields` leaves alone."""
    if bleed:
        seg[_VALUES_AT + 1] = scaled(min(bleed, BLEED_TURNS), 5)
    if skill:
        seg[_VALUES_AT + 2] = scaled(skill, 3)
    if marks & 1:
        seg[_VALUES_AT + 3] = 1.0
    if marks & 2:
        seg[_VALUES_AT + 4] = 1.0


class _Segments(dict):
    """An operator's OP_FIELDS floats as bytes, by (sector or RESERVE/DEAD, vitality, bleed
    timer, skill, place in its stack, marks: 1 watching, 2 selected): worked out when first
    met (the values `_write` writes), so an observation joins 20 of them rather than
    writing each field."""

    def __missing__(self, key: tuple[int, int, int, int, int, int]) -> bytes:
        where, v, bleed, skill, rank, marks = key
        seg = array("f", bytes(4 * OP_FIELDS))
        place_fields(seg, where, v, rank)
        condition_fields(seg, bleed, skill, marks)
        out = seg.tobytes()
        if len(self) > 65536:  # a bound, never met in play (a few hundred keys a game)
            self.clear()
        self[key] = out
        return out


_SEGMENTS = _Segments()


class _Players(dict):
    """A player's PLAYER_FIELDS floats as bytes, by (crates, its three facilities, skill and
    support cooldowns, artillery ready, under Cyberwarfare): as `_write_tail` writes them."""

    def __missing__(self, key: tuple[int, ...]) -> bytes:
        seg = array("f", bytes(4 * PLAYER_FIELDS))
        for f in range(4):
            if key[f]:
                seg[f] = scaled(key[f], CRATE_SCALE)
        if key[4]:
            seg[4] = scaled(key[4], 5)
        if key[5]:
            seg[5] = scaled(key[5], 5)
        seg[6] = 1.0 if key[6] else 0.0
        seg[7] = 1.0 if key[7] else 0.0
        out = seg.tobytes()
        if len(self) > 65536:
            self.clear()
        self[key] = out
        return out


class _Game(dict):
    """The game's GLOBAL_FIELDS floats for one observer as bytes, by (ruleset, violations
    mode, the observer's turn, the observer, the request pending (ruleset or draw, the
    observer's, its ruleset) or None, the disputable sides as bits (1 the observer, 2 the
    other), over): as `_write_tail` writes them, but for the turn (`_TURN`): the bytes
    before it and those after."""

    def __missing__(self, key: tuple[Any, ...]) -> tuple[bytes, bytes]:
        ruleset, mode, mine, player, pending, disputable, over = key
        seg = array("f", bytes(4 * GLOBAL_FIELDS))
        seg[ruleset] = 1.0
        seg[3 + mode] = 1.0
        seg[6] = 1.0 if mine else 0.0
        seg[7] = 1.0 if player == 1 else 0.0
        if pending is None:
            seg[8] = 1.0
        else:
            is_ruleset, requester_me, target = pending
            seg[8 + (1 if is_ruleset else 2)] = 1.0
            if requester_me:
                seg[11] = 1.0
            if target >= 0:
                seg[12 + target] = 1.0
        seg[15] = 1.0 if disputable & 1 else 0.0
        seg[16] = 1.0 if disputable & 2 else 0.0
        seg[17] = 1.0 if over else 0.0
        whole = seg.tobytes()
        out = (whole[:20], whole[24:])  # the turn is field 5
        if len(self) > 65536:
            self.clear()
        self[key] = out
        return out


class _Turn(dict):
    """The turn's float (the turn over the limit, or over TURN_SCALE without one) as bytes,
    by (turn, turn limit)."""

    def __missing__(self, key: tuple[int, int]) -> bytes:
        turn, limit = key
        out = array("f", [scaled(turn, limit or TURN_SCALE) if turn else 0.0]).tobytes()
        if len(self) > 65536:
            self.clear()
        self[key] = out
        return out


_PLAYERS = _Players()
_GAME = _Game()
_TURN = _Turn()


_BY_STAMP = range(20)


def _ranks(loc: list[int], stamp: list[int]) -> list[int]:
    """Each operator's place in its sector's stack (by stamp; 0 off the board): the operators
    taken oldest stamp first, each counted onto its sector. (Not remembered per placing: the
    stamps grow through a game, so a placing is almost never met again; `ranks` keeps the
    last one on the state instead.)"""
    rank = [0] * 20
    height = [0] * 10
    for i in sorted(_BY_STAMP, key=stamp.__getitem__):
        where = loc[i]
        if where >= 0:
            rank[i] = height[where]
            height[where] += 1
    return rank


def ranks(state) -> list[int]:
    """`_ranks` of the state, kept on it (and its clones) while it holds: every operator that
    comes onto the board or changes sector is stamped with the clock, which then moves on, so
    while the clock stands the stacks can only lose operators (a death, a retreat); with the
    clock and the number of operators off the board unchanged since they were worked out
    (by this state or the one it was cloned from), they are the same. Most actions move
    nobody, so most observations of a game skip the work."""
    loc = state.loc
    off = loc.count(-1) + loc.count(-2)  # RESERVE, DEAD
    kept = state._ranks
    if kept is not None and kept[0] == state.clock and kept[1] == off:
        return kept[2]
    rank = _ranks(loc, state.stamp)
    state._ranks = (state.clock, off, rank)
    return rank


_PV: tuple[int, ...] = ()  # the state module's offsets in `pv` (it imports this module)


def _pv_layout() -> tuple[int, ...]:
    global _PV
    from boardct.games.fieldshift import state as S

    _PV = (S.PV_SIZE, S.SEL, S.WATCH, S.DEAD, S.CRATES, S.SKCD, S.SPCD, S.ARTREADY)
    return _PV


def _write(state, player: int, out):
    """Every entry of `player`'s observation that may be nonzero written into `out` (a dict,
    or a zeroed float array of `SIZE`: indexed alike); returned."""
    pv_size, sel_at, watch_at, dead, crates, skcd, spcd, art = _PV or _pv_layout()
    loc, vit, skl, pv, bleed = state.loc, state.vit, state.skl, state.pv, state.bleed
    rank = ranks(state)
    cap = BLEED_TURNS
    vit_of, five, skill3 = _VIT, _FIVE, _SKILL3
    base = 0
    for p in (player, 1 - player):
        o = p * pv_size
        sel, watch = pv[o + sel_at], pv[o + watch_at]
        for i in range(p * 10, p * 10 + 10):
            where = loc[i]
            v = vit[i]
            at = base + _VALUES_AT
            if where >= 0:
                out[base + where] = 1.0
                out[base + (_BLEEDING if v == 0 else _DEPLOYED) + 10] = 1.0
                r = rank[i]
                if r:
                    out[at + 5] = _RANK19[r]
            else:
                out[base + (_DEAD_ST if where == dead else _RESERVE_ST) + 10] = 1.0
            if v:
                out[at] = vit_of[v] if v in vit_of else scaled(v, VITALITY)
            v = bleed[i]  # state.bleed_timer(i), inlined
            if v:
                v = v if v < cap else cap
                out[at + 1] = five[v] if v in five else scaled(v, 5)
            v = skl[i]
            if v:
                out[at + 2] = skill3[v] if v in skill3 else scaled(v, 3)
            if watch == i:
                out[at + 3] = 1.0
            if sel == i:
                out[at + 4] = 1.0
            base += OP_FIELDS
    return _write_tail(state, player, out, base)


def _write_tail(state, player: int, out, base: int):
    """The players' and the game's entries of `player`'s observation written into `out`
    from `base` on (see `_write`); returned."""
    pv_size, _, _, _, crates, skcd, spcd, art = _PV or _pv_layout()
    pv = state.pv
    for p in (player, 1 - player):  # FAC is CRATES + 1
        o = p * pv_size
        for f in range(4):  # crates, then the three facilities, in a row in `pv`
            v = pv[o + crates + f]
            if v:
                out[base + f] = _CRATE[v] if v in _CRATE else scaled(v, CRATE_SCALE)
        v = pv[o + skcd]
        if v:
            out[base + 4] = _FIVE[v] if v in _FIVE else scaled(v, 5)
        v = pv[o + spcd]
        if v:
            out[base + 5] = _FIVE[v] if v in _FIVE else scaled(v, 5)
        if pv[o + art]:
            out[base + 6] = 1.0
        if state.under_cyber(p):
            out[base + 7] = 1.0
        base += PLAYER_FIELDS
    out[base + state.ruleset] = 1.0
    out[base + 3 + state.mode] = 1.0
    if state.turn:
        out[base + 5] = scaled(state.turn, state.limit or TURN_SCALE)
    if state.cur == player:
        out[base + 6] = 1.0
    if player == 1:
        out[base + 7] = 1.0
    pending = state.pending
    if pending is None:
        out[base + 8] = 1.0
    else:
        out[base + 8 + (1 if pending[0] == "ruleset" else 2)] = 1.0
        if pending[1] == player:
            out[base + 11] = 1.0
        if pending[2] >= 0:
            out[base + 12 + pending[2]] = 1.0
    for who, _ in state.violations:
        out[base + 15 + (who != player)] = 1.0
    if state._outcome is not None:
        out[base + 17] = 1.0
    return out
