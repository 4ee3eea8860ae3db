"""The rules of one turn: attacks, pushes, conversions, clear destruction, and the checked
replay of a turn's tokens (used by `apply`). The turn generator in `movegen` reuses the board
operations here, so both follow the same rules.

Board operations work on flat lists: `main[sq]` the in-phase piece code (0: none), `ghost[sq]`
the out-of-phase piece, `pool[colour * 2 + slot]` (slot 0: 2-pip, 1: 3-pip), `lost` and `cnt`
indexed `owner * 3 + size - 1` (FFF-25 lost counts, pieces on the board).
"""

from __future__ import annotations

from boardct.core.errors import IllegalAction
from boardct.games.fff.notation import format_turn
from boardct.games.fff.pieces import (
    ADDABLE,
    ATTACK,
    BARE,
    COLOUR_NAMES,
    COLOURS,
    DEFENCE,
    FACE0,
    FACING,
    FACINGS,
    FIELDS,
    GHOST,
    GREEN,
    HAS,
    K_ADD,
    K_CONVERT,
    K_FAIL,
    K_HIT,
    K_REMOVE,
    K_STEP,
    K_TURN,
    NCODES,
    NEXT,
    ORANGE,
    OWNER,
    OWNER_NAMES,
    POINTS,
    PURPLE,
    SIZE,
    SQUARE_NAMES,
    T_CONVERT,
    T_FAIL,
    T_HIT,
    TOKEN_A,
    TOKEN_B,
    TOKEN_KIND,
    TOKEN_TEXT,
    UP,
    WITH_FIELD,
    field_slot,
    make,
    piece_text,
    q_square,
    q_text,
    without_outer,
)

# Pool indices a piece's fields go back to when they leave it.
RELEASE: list[tuple[int, ...]] = [()] * NCODES
for _c in range(1, NCODES):
    RELEASE[_c] = tuple(col * 2 + field_slot(SIZE[_c], depth)
                        for depth, col in enumerate(FIELDS[_c]))

O_FAIL, O_CAPTURE, O_PUSH, O_CONVERT, O_STRIP = range(5)
NTOKENS = len(TOKEN_TEXT)
# The token kind FFF-30 writes each outcome with.
FORM = (K_FAIL, K_HIT, K_HIT, K_CONVERT, K_HIT)


def attack_kind(mc: int, dc: int, lost: list[int]) -> int:
    """What an attack by `mc` on `dc` does (FFF-8, FFF-22)."""
    a, d = ATTACK[mc], DEFENCE[dc]
    if a >= d:
        if HAS[PURPLE][mc] and lost[OWNER[mc] * 3 + SIZE[dc] - 1] >= 1:
            return O_CONVERT  # FFF-11, FFF-25
        if HAS[GREEN][mc]:
            return O_PUSH  # FFF-10
        return O_CAPTURE  # FFF-9
    if d - a == 1 and HAS[ORANGE][mc]:
        return O_STRIP  # FFF-12
    return O_FAIL


def leave(code: int, pool: list[int], lost: list[int], cnt: list[int]) -> None:
    """A piece leaves the board: its fields to the pool, its owner's lost count up (FFF-18)."""
    for i in RELEASE[code]:
        pool[i] += 1
    k = OWNER[code] * 3 + SIZE[code] - 1
    lost[k] += 1
    cnt[k] -= 1


def push(main: list[int], pool: list[int], lost: list[int], cnt: list[int], t: int,
         d: int) -> tuple[list[int], int]:
    """Push the in-phase line starting at `t` one square along `d` (FFF-10, FFF-24).
    Returns the squares of the line and the code of a piece pushed off (0: none)."""
    line = [t]
    x = t
    while True:
        nx = NEXT[x * 9 + d]
        if nx < 0:
            off = main[x]
            leave(off, pool, lost, cnt)
            break
        if main[nx] == 0:
            off = 0
            main[nx] = main[x]
            break
        line.append(nx)
        x = nx
    for i in range(len(line) - 2, -1, -1):
        main[line[i + 1]] = main[line[i]]
    main[t] = 0
    return line, off


def convert(main: list[int], pool: list[int], lost: list[int], cnt: list[int], t: int,
            owner: int, facing: int) -> int:
    """The piece on `t` becomes `owner`'s, bare, facing `facing` (FFF-11, FFF-25)."""
    dc = main[t]
    for i in RELEASE[dc]:
        pool[i] += 1
    size = SIZE[dc]
    main[t] = make(owner, size, facing)
    lost[owner * 3 + size - 1] -= 1
    cnt[owner * 3 + size - 1] += 1
    cnt[OWNER[dc] * 3 + size - 1] -= 1
    return dc


def strip(main: list[int], pool: list[int], t: int) -> int:
    """Orange: the defender loses every field, keeps its facing (FFF-12, FFF-17)."""
    dc = main[t]
    for i in RELEASE[dc]:
        pool[i] += 1
    main[t] = BARE[dc]
    return dc


def eliminated(cnt: list[int]) -> tuple[bool, bool]:
    """Which players have no piece of some size left (FFF-15)."""
    return (cnt[0] == 0 or cnt[1] == 0 or cnt[2] == 0,
            cnt[3] == 0 or cnt[4] == 0 or cnt[5] == 0)


def any_eliminated(cnt: list[int]) -> bool:
    return (cnt[0] == 0 or cnt[1] == 0 or cnt[2] == 0
            or cnt[3] == 0 or cnt[4] == 0 or cnt[5] == 0)


def who(code: int) -> str:
    return f"{OWNER_NAMES[OWNER[code]]} {SIZE[code]}-pip"


class TurnResult:
    """The lists a turn leaves behind; `apply` installs them only when the whole turn is legal."""

    __slots__ = ("main", "ghost", "pool", "lost", "cnt")
    main: list[int]
    ghost: list[int]
    pool: list[int]
    lost: list[int]
    cnt: list[int]

    def __init__(self, main: list[int], ghost: list[int], pool: list[int], lost: list[int],
                 cnt: list[int]):
        self.main, self.ghost, self.pool, self.lost, self.cnt = main, ghost, pool, lost, cnt


def _bad(rule: str, index: int, token: str, message: str) -> IllegalAction:
    return IllegalAction(rule, f"token {index + 1} '{token}': {message}")


class ReadAs(IllegalAction):
    """A turn the rules refuse as written that reads as one other turn without doubt: token
    `index` is meant as `token`. A step into an enemy piece that the attack would capture or
    push is that attack, the attacker moving in and keeping its facing as a step does.
    `FFFState.parse` reads the turn so (forgiving what a player types); `apply`, given the
    tokens themselves, refuses it with the message, which shows the turn to type."""

    def __init__(self, rule: str, message: str, index: int, token: int):
        super().__init__(rule, message)
        self.index = index
        self.token = token


def _typed(action: tuple[int, ...], index: int, token: int) -> str:
    """The turn with token `index` replaced: the exact command an error message suggests."""
    return format_turn(action[:index] + (token,) + action[index + 1:])


def _step_blocked(action: tuple[int, ...], i: int, code: int, dc: int, t: int,
                  lost: list[int]) -> IllegalAction:
    """The error for a step (token `i`) into `t`, where the in-phase piece `dc` stands
    (FFF-6, FFF-20): a `ReadAs` the attack when the move is one, else the command that
    attacks. Off the hot path: only a refused turn gets here."""
    tname = SQUARE_NAMES[t]
    where = f"{tname} is occupied by {who(dc)}"
    if OWNER[dc] == OWNER[code]:
        return _bad("FFF-20", i, "m", where)
    outcome = attack_kind(code, dc, lost)
    a, d = ATTACK[code], DEFENCE[dc]
    facing = FACING[code]
    if outcome in (O_CAPTURE, O_PUSH):
        tok = T_HIT[facing]
        verb = "capture" if outcome == O_CAPTURE else "push (green)"
        return ReadAs("FFF-20", f"token {i + 1} 'm': {where}; to {verb} it ({a} against {d}) "
                      f"type: {_typed(action, i, tok)}", i, tok)
    if outcome == O_FAIL:
        return _bad("FFF-20", i, "m", f"{where}, and an attack on it fails ({a} against {d}) "
                    f"without moving; to attack anyway type: {_typed(action, i, T_FAIL)}")
    if outcome == O_STRIP:
        return _bad("FFF-20", i, "m", f"{where}; an attack on it fails by one ({a} against "
                    f"{d}) and orange strips its fields, the attacker staying put; to do that "
                    f"type: {_typed(action, i, T_HIT[facing])} (xD: D the attacker's facing "
                    "after it)")
    return _bad("FFF-20", i, "m", f"{where}; an attack on it converts it (purple, {a} against "
                f"{d}), the attacker staying put; to do that type: "
                f"{_typed(action, i, T_CONVERT[facing][FACING[dc]])} (xD/E: D the attacker's "
                "facing after it, E the converted piece's)")


def _wrong_form(action: tuple[int, ...], i: int, code: int, dc: int, t: int, outcome: int,
                lost: list[int]) -> IllegalAction:
    """The error for an attack written in the form of another outcome (FFF-30), with the
    turn to type: the facings typed are kept, missing ones are the current facings."""
    tok = action[i]
    kind = TOKEN_KIND[tok]
    a, d = ATTACK[code], DEFENCE[dc]
    facing = TOKEN_A[tok] if kind != K_FAIL else FACING[code]
    what = {O_FAIL: f"fails ({a} against {d})",
            O_CAPTURE: f"captures ({a} against {d})",
            O_PUSH: f"pushes (green, {a} against {d})",
            O_STRIP: f"strips (orange, {a} against {d})",
            O_CONVERT: f"converts (purple, {a} against {d})"}[outcome]
    if outcome == O_FAIL:
        how = f"write it as x: {_typed(action, i, T_FAIL)}"
    elif outcome == O_CONVERT:
        how = (f"write it as xD/E (D the attacker's facing after it, E the converted piece's), "
               f"e.g. {_typed(action, i, T_CONVERT[facing][FACING[dc]])}")
    else:
        how = (f"write it as xD (D the attacker's facing after it), e.g. "
               f"{_typed(action, i, T_HIT[facing])}")
    return _bad("FFF-30", i, TOKEN_TEXT[tok], f"this attack on {SQUARE_NAMES[t]} {what}: {how}")


def play(main0: list[int], ghost0: list[int], pool0: list[int], lost0: list[int],
         cnt0: list[int], me: int, action: tuple[int, ...],
         events: list | None = None) -> TurnResult:
    """Carry out one whole turn on copies of the lists, checking every token; raise
    `IllegalAction` naming the token and rule at the first one the rules forbid."""
    main, ghost, pool, lost, cnt = main0[:], ghost0[:], pool0[:], lost0[:], cnt0[:]
    res = TurnResult(main, ghost, pool, lost, cnt)
    if not action:
        if events is not None:
            events.append(("pass", me))
        return res
    q = action[0]
    if q.__class__ is not int or not 0 <= q < 128:
        raise IllegalAction("FFF-30", f"{q!r} is not a square selection")
    sq = q_square(q)
    name = SQUARE_NAMES[sq]
    if q & 1:
        code = ghost[sq] if ghost[sq] and OWNER[ghost[sq]] == me else 0
        if not code:
            raise _bad("FFF-30", 0, q_text(q), f"{OWNER_NAMES[me]} has no out-of-phase piece on "
                       f"{name}")
    else:
        code = main[sq] if main[sq] and OWNER[main[sq]] == me else 0
        if not code:
            code = ghost[sq] if ghost[sq] and OWNER[ghost[sq]] == me else 0
        if not code:
            raise _bad("FFF-4", 0, q_text(q), f"{OWNER_NAMES[me]} has no piece on {name}")
    in_ghost = GHOST[code]
    if events is not None:
        events.append(("select", me, name, piece_text(code)))
    # Lift the mover: during the turn it lives in (sq, code) only.
    if in_ghost:
        ghost[sq] = 0
    else:
        main[sq] = 0
    over = False
    destroyed = False
    i = 1
    n = len(action)

    # -- removal (FFF-4, FFF-7) ------------------------------------------------------------
    for idx in range(1, n):
        tok = action[idx]
        if tok.__class__ is not int or not 0 <= tok < NTOKENS:
            raise IllegalAction("FFF-30", f"token {idx + 1}: {tok!r} is not a token")
    if i < n and TOKEN_KIND[action[i]] == K_REMOVE:
        tok = action[i]
        colour = TOKEN_A[tok]
        fields = FIELDS[code]
        if not fields:
            raise _bad("FFF-7", i, TOKEN_TEXT[tok], f"the piece on {name} carries no field")
        if fields[-1] != colour:
            raise _bad("FFF-7", i, TOKEN_TEXT[tok], f"the outermost field of the piece on "
                       f"{name} is {COLOUR_NAMES[fields[-1]]}, not {COLOUR_NAMES[colour]}")
        pool[RELEASE[code][-1]] += 1
        new = without_outer(code)
        if events is not None:
            events.append(("remove", name, COLOURS[colour]))
        if GHOST[code] and not GHOST[new] and main[sq]:
            # FFF-14, FFF-26: back in phase on a shared square: both destroyed.
            other = main[sq]
            main[sq] = 0
            leave(new, pool, lost, cnt)
            leave(other, pool, lost, cnt)
            destroyed = True
            if events is not None:
                events.append(("destroy", name, piece_text(new), piece_text(other)))
        code = new
        i += 1
        over = any_eliminated(cnt)
    # -- points (FFF-5, FFF-6) -------------------------------------------------------------
    points = POINTS[code]
    used = 0
    while i < n:
        tok = action[i]
        kind = TOKEN_KIND[tok]
        text = TOKEN_TEXT[tok]
        if kind == K_ADD:
            break
        if kind == K_REMOVE:
            raise _bad("FFF-4", i, text, "a field can only be removed first, before any point")
        if destroyed:
            raise _bad("FFF-27", i, text, f"the piece from {name} was destroyed: the turn is over")
        if over:
            raise _bad("FFF-27", i, text, "the game is over: nothing may follow")
        if used >= points:
            raise _bad("FFF-5", i, text, f"the piece has only {points} movement point"
                       f"{'s' if points != 1 else ''}")
        used += 1
        facing = FACING[code]
        if kind == K_TURN:
            code = FACE0[code] + 6 * TOKEN_A[tok]
            if events is not None:
                events.append(("face", name, FACINGS[TOKEN_A[tok]]))
            i += 1
            continue
        if GHOST[code]:
            raise _bad("FFF-14", i, text, f"the piece on {name} is out of phase: it cannot "
                       + ("step" if kind == K_STEP else "attack"))
        if facing == UP:
            raise _bad("FFF-6" if kind == K_STEP else "FFF-8", i, text,
                       f"the piece on {name} points upright: it cannot "
                       + ("step" if kind == K_STEP else "attack"))
        t = NEXT[sq * 9 + facing]
        if t < 0:
            raise _bad("FFF-20" if kind == K_STEP else "FFF-21", i, text,
                       f"{FACINGS[facing]} of {name} is off the board")
        tname = SQUARE_NAMES[t]
        if kind == K_STEP:
            if main[t]:
                raise _step_blocked(action, i, code, main[t], t, lost)
            if events is not None:
                events.append(("step", name, tname))
            sq, name = t, tname
            i += 1
            continue
        # an attack (FFF-8, FFF-21, FFF-22)
        dc = main[t]
        if not dc:
            why = "holds only an out-of-phase piece" if ghost[t] else "is empty"
            raise _bad("FFF-21", i, text, f"{tname} {why}: nothing to attack")
        if OWNER[dc] == me:
            raise _bad("FFF-21", i, text, f"{tname} holds {OWNER_NAMES[me]}'s own piece")
        outcome = attack_kind(code, dc, lost)
        if FORM[outcome] != kind:
            raise _wrong_form(action, i, code, dc, t, outcome, lost)
        if outcome == O_FAIL:
            if events is not None:
                events.append(("fail", name, tname, ATTACK[code], DEFENCE[dc]))
        elif outcome == O_CAPTURE:
            main[t] = 0
            leave(dc, pool, lost, cnt)
            code = FACE0[code] + 6 * TOKEN_A[tok]
            if events is not None:
                events.append(("capture", name, tname, piece_text(dc), FACINGS[TOKEN_A[tok]]))
            sq, name = t, tname
        elif outcome == O_PUSH:
            line, off = push(main, pool, lost, cnt, t, facing)
            code = FACE0[code] + 6 * TOKEN_A[tok]
            if events is not None:
                events.append(("push", name, tname, len(line),
                               piece_text(off) if off else "", FACINGS[TOKEN_A[tok]]))
            sq, name = t, tname
        elif outcome == O_STRIP:
            strip(main, pool, t)
            code = FACE0[code] + 6 * TOKEN_A[tok]
            if events is not None:
                events.append(("strip", name, tname, piece_text(dc), FACINGS[TOKEN_A[tok]]))
        else:
            convert(main, pool, lost, cnt, t, me, TOKEN_B[tok])
            code = FACE0[code] + 6 * TOKEN_A[tok]
            if events is not None:
                events.append(("convert", name, tname, piece_text(dc), FACINGS[TOKEN_A[tok]],
                               FACINGS[TOKEN_B[tok]]))
        over = any_eliminated(cnt)
        i += 1
    # Put the mover back (unless destroyed).
    if not destroyed:
        if GHOST[code]:
            ghost[sq] = code
        else:
            main[sq] = code
    # -- addition (FFF-4, FFF-7, FFF-18) ---------------------------------------------------
    if i < n:
        tok = action[i]
        text = TOKEN_TEXT[tok]
        if i != n - 1:
            raise _bad("FFF-30", i, text, "a field can only be added last")
        if destroyed:
            raise _bad("FFF-27", i, text, f"the piece from {name} was destroyed: the turn is over")
        if over:
            raise _bad("FFF-27", i, text, "the game is over: nothing may follow")
        colour = TOKEN_A[tok]
        slot = ADDABLE[code]
        if slot < 0:
            why = ("a 3-pip piece carries no field" if SIZE[code] == 3 else
                   f"a {SIZE[code]}-pip piece carries at most {3 - SIZE[code]} field"
                   + ("s" if SIZE[code] == 1 else ""))
            raise _bad("FFF-7", i, text, why)
        if pool[colour * 2 + slot] <= 0:
            raise _bad("FFF-18", i, text, f"no {2 + slot}-pip {COLOUR_NAMES[colour]} field is "
                       f"left in the pool")
        pool[colour * 2 + slot] -= 1
        new = WITH_FIELD[colour][code]
        if events is not None:
            events.append(("add", name, COLOURS[colour]))
        if GHOST[new] and not GHOST[code]:
            main[sq] = 0
            other = ghost[sq]
            if other:
                # FFF-14, FFF-26: out of phase on a shared square: both destroyed.
                ghost[sq] = 0
                leave(new, pool, lost, cnt)
                leave(other, pool, lost, cnt)
                if events is not None:
                    events.append(("destroy", name, piece_text(new), piece_text(other)))
            else:
                ghost[sq] = new
        elif GHOST[new]:
            ghost[sq] = new
        else:
            main[sq] = new
    return res

