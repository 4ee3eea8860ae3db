"""Force Field Factions' step encoding, for learners: a whole turn taken one step
at a time, each step one of 244 fixed integer ids.

Whole turns (FFF-30) are far too many to number (815 at the start, over a thousand later), so a
learner builds one out of steps that follow the turn order of FFF-4: select a piece; remove its
outermost field (optional, first); spend movement points one at a time (turn, step, attack);
add a field (optional, last, which ends the turn); or end the turn. The partial turn lives in
the state (`FFFState.part`, a `StepTurn`) and is played on copies of the board lists, with the
same board operations `rules.play` uses, so every step is checked by the rules as it is taken.

When the turn ends (the end step, an addition, or FFF-27: the game is decided or the mover is
destroyed) its tokens are composed into the ruled whole turn, which is written canonically
(FFF-31, `canonical`) and applied through the ordinary `apply`, so records and people keep the
FFF-30 notation. Steps that change nothing and cost a point (turning to the current facing, an
attack that fails) are not offered: no canonical turn contains them.

Step ids (`num_distinct_actions` = 244), and the step's text (`id_action` returns the text):
    0..63      select the own in-phase piece on square s (a1 = 0, b1 = 1, ... h8 = 63): "d4"
    64..127    select the own out-of-phase piece on square s - 64: "d4~"
    128..134   remove the outermost field, colour r g b y p o c: "-r"
    135..143   turn to N NE E SE S SW W NW U: "NE"
    144        step forward: "m"
    145        (unused: an attack that fails changes nothing) "x"
    146..154   capture, push or strip, the attacker then facing D (N .. U): "xD"
    155..235   purple conversion, attacker facing D, converted piece E: 155 + 9 * D + E, "xD/E"
    236..242   add a field, colour r g b y p o c (ends the turn): "+r"
    243        end the turn: "end"
"""

from __future__ import annotations

from boardct.core.errors import IllegalAction
from boardct.games.fff.pieces import (
    ADDABLE,
    ATTACK,
    COLOUR_NAMES,
    COLOURS,
    DEFENCE,
    FACE0,
    FACING,
    FACINGS,
    FIELDS,
    GHOST,
    NEXT,
    NFIELDS,
    OWNER,
    POINTS,
    SQUARE_INDEX,
    SQUARE_NAMES,
    T_ADD,
    T_CONVERT,
    T_HIT,
    T_REMOVE,
    T_STEP,
    T_TURN,
    UP,
    WITH_FIELD,
    qcode,
    without_outer,
)
from boardct.games.fff.rules import (
    O_CAPTURE,
    O_CONVERT,
    O_FAIL,
    O_PUSH,
    RELEASE,
    any_eliminated,
    attack_kind,
    convert,
    leave,
    push,
    strip,
)

SELECT, SELECT_GHOST, REMOVE, TURN, STEP, FAIL, HIT, CONVERT, ADD, END = (
    0, 64, 128, 135, 144, 145, 146, 155, 236, 243)
NUM_STEP_IDS = 244

# The text of every step id (id_action's answer) and back.
STEP_TEXT: tuple[str, ...] = tuple(
    [SQUARE_NAMES[s] for s in range(64)] + [SQUARE_NAMES[s] + "~" for s in range(64)]
    + ["-" + c for c in COLOURS] + list(FACINGS) + ["m", "x"] + ["x" + d for d in FACINGS]
    + [f"x{d}/{e}" for d in FACINGS for e in FACINGS] + ["+" + c for c in COLOURS] + ["end"])
STEP_ID = {t: i for i, t in enumerate(STEP_TEXT)}
assert len(STEP_TEXT) == NUM_STEP_IDS

# The FFF-30 token of each step id after the selection (-1: none).
ID_TOKEN = [-1] * NUM_STEP_IDS
for _c in range(7):
    ID_TOKEN[REMOVE + _c] = T_REMOVE[_c]
    ID_TOKEN[ADD + _c] = T_ADD[_c]
for _d in range(9):
    ID_TOKEN[TURN + _d] = T_TURN[_d]
    ID_TOKEN[HIT + _d] = T_HIT[_d]
    for _e in range(9):
        ID_TOKEN[CONVERT + 9 * _d + _e] = T_CONVERT[_d][_e]
ID_TOKEN[STEP] = T_STEP

_HIT_IDS = tuple(range(HIT, HIT + 9))
_CONVERT_IDS = tuple(range(CONVERT, CONVERT + 81))
_TURN_IDS = tuple(tuple(TURN + d for d in range(9) if d != f) for f in range(9))


class StepTurn:
    """A turn under way: the mover, lifted off copies of the board lists as `rules.play` lifts
    it, the tokens so far, and the points left. `clone` copies the lists, so a cloned state's
    partial turn is its own."""

    __slots__ = ("toks", "sq0", "slot0", "code0", "sq", "code", "points", "used", "phase",
                 "main", "ghost", "pool", "lost", "cnt", "over", "destroyed")
    toks: list[int]  # the turn's token codes so far
    sq0: int  # where the mover started, on which board (slot 0 in phase, 1 out), as what
    slot0: int
    code0: int
    sq: int  # where the mover stands now, as what
    code: int
    points: int
    used: int
    phase: int  # PHASE_SELECTED or PHASE_POINTS
    main: list[int]
    ghost: list[int]
    pool: list[int]
    lost: list[int]
    cnt: list[int]
    over: bool
    destroyed: bool

    def copy(self) -> StepTurn:
        t = StepTurn.__new__(StepTurn)
        t.toks = self.toks[:]
        t.sq0, t.slot0, t.code0 = self.sq0, self.slot0, self.code0
        t.sq, t.code, t.points, t.used, t.phase = (self.sq, self.code, self.points, self.used,
                                                   self.phase)
        t.main, t.ghost, t.pool = self.main[:], self.ghost[:], self.pool[:]
        t.lost, t.cnt = self.lost[:], self.cnt[:]
        t.over, t.destroyed = self.over, self.destroyed
        return t

    def text(self) -> str:
        """The turn so far in FFF-30 tokens, e.g. `d4 -y N m`."""
        from boardct.games.fff.notation import format_turn

        return format_turn(tuple(self.toks))

    def placed(self) -> tuple[list[int], list[int]]:
        """The working boards with the mover put back (where it stands now)."""
        main, ghost = self.main[:], self.ghost[:]
        if not self.destroyed:
            if GHOST[self.code]:
                ghost[self.sq] = self.code
            else:
                main[self.sq] = self.code
        return main, ghost


PHASE_SELECTED, PHASE_POINTS = 0, 1


def select_ids(main: list[int], ghost: list[int], me: int) -> list[int]:
    """The select steps open at a turn's start: each own piece, in-phase ids first."""
    out = []
    for sq in range(64):
        c = main[sq]
        if c and OWNER[c] == me:
            out.append(sq)
    for sq in range(64):
        c = ghost[sq]
        if c and OWNER[c] == me:
            out.append(SELECT_GHOST + sq)
    return out


def start(main: list[int], ghost: list[int], pool: list[int], lost: list[int],
          cnt: list[int], me: int, sid: int) -> StepTurn:
    """Begin a turn with the select step `sid` (checked)."""
    if sid.__class__ is not int or not 0 <= sid < SELECT_GHOST * 2:
        raise IllegalAction("FFF-4", f"step {_name(sid)}: a turn starts by selecting a piece "
                            "(steps 0..127)")
    sq = sid & 63
    ghosty = sid >= SELECT_GHOST
    code = ghost[sq] if ghosty else main[sq]
    if not code or OWNER[code] != me:
        what = "out-of-phase piece" if ghosty else "in-phase piece"
        raise IllegalAction("FFF-4", f"step {sid} ({STEP_TEXT[sid]}): there is no own "
                            f"{what} on {SQUARE_NAMES[sq]} to select")
    t = StepTurn.__new__(StepTurn)
    t.toks = [qcode(sq, ghosty)]
    t.sq0 = t.sq = sq
    t.slot0 = 1 if ghosty else 0
    t.code0 = t.code = code
    t.main, t.ghost, t.pool, t.lost, t.cnt = main[:], ghost[:], pool[:], lost[:], cnt[:]
    if ghosty:
        t.ghost[sq] = 0
    else:
        t.main[sq] = 0
    t.points = POINTS[code]
    t.used = 0
    t.phase = PHASE_SELECTED
    t.over = t.destroyed = False
    return t


def legal_step_ids(t: StepTurn, me: int) -> list[int]:
    """The steps open in a turn under way, ascending."""
    out: list[int] = []
    code = t.code
    if t.phase == PHASE_SELECTED and NFIELDS[code]:
        out.append(REMOVE + FIELDS[code][-1])
    if t.over or t.destroyed:  # FFF-27: nothing may follow (the turn ends at once anyway)
        out.append(END)
        return out
    if t.used < t.points:
        f = FACING[code]
        out.extend(_TURN_IDS[f])
        if f != UP and not GHOST[code]:
            nx = NEXT[t.sq * 9 + f]
            if nx >= 0:
                occ = t.main[nx]
                if not occ:
                    out.append(STEP)
                elif OWNER[occ] != me:
                    kind = attack_kind(code, occ, t.lost)
                    if kind == O_CONVERT:
                        out.extend(_CONVERT_IDS)
                    elif kind != O_FAIL:
                        out.extend(_HIT_IDS)
    slot = ADDABLE[code]
    if slot >= 0:
        pool = t.pool
        for col in range(7):
            if pool[col * 2 + slot] > 0:
                out.append(ADD + col)
    out.append(END)
    return out


def _name(sid) -> str:
    if sid.__class__ is int and 0 <= sid < NUM_STEP_IDS:
        return f"{sid} ({STEP_TEXT[sid]})"
    return repr(sid)


def take(t: StepTurn, me: int, sid: int) -> bool:
    """Take step `sid` (not a selection) in the turn under way; True when the turn is over
    (an end, an addition, or FFF-27). Refused steps raise `IllegalAction` and change nothing."""
    if sid.__class__ is not int or not 0 <= sid < NUM_STEP_IDS:
        raise IllegalAction("FFF-4", f"step {sid!r} is not a step id (0..{NUM_STEP_IDS - 1})")
    if sid == END:
        return True
    code = t.code
    if sid < REMOVE:
        raise IllegalAction("FFF-4", f"step {_name(sid)}: a piece is already selected "
                            f"({SQUARE_NAMES[t.sq0]}); one piece per turn")
    if sid < TURN:  # removal
        colour = sid - REMOVE
        if t.phase != PHASE_SELECTED:
            raise IllegalAction("FFF-4", f"step {_name(sid)}: a field can only be removed "
                                "first, right after the selection")
        fields = FIELDS[code]
        if not fields:
            raise IllegalAction("FFF-7", f"step {_name(sid)}: the piece carries no field")
        if fields[-1] != colour:
            raise IllegalAction("FFF-7", f"step {_name(sid)}: the outermost field is "
                                f"{COLOUR_NAMES[fields[-1]]}, not {COLOUR_NAMES[colour]}")
        t.pool[RELEASE[code][-1]] += 1
        new = without_outer(code)
        t.toks.append(T_REMOVE[colour])
        sq = t.sq
        if GHOST[code] and not GHOST[new] and t.main[sq]:
            other = t.main[sq]  # FFF-14, FFF-26: back in phase on a shared square
            t.main[sq] = 0
            leave(new, t.pool, t.lost, t.cnt)
            leave(other, t.pool, t.lost, t.cnt)
            t.destroyed = True
        t.code = new
        t.points = POINTS[new]
        t.phase = PHASE_POINTS
        t.over = any_eliminated(t.cnt)
        return t.destroyed or t.over
    if sid >= ADD:  # addition: the last thing a turn may do
        colour = sid - ADD
        if t.over or t.destroyed:
            raise IllegalAction("FFF-27", f"step {_name(sid)}: the turn is over")
        slot = ADDABLE[code]
        if slot < 0:
            raise IllegalAction("FFF-7", f"step {_name(sid)}: this piece can take no field")
        if t.pool[colour * 2 + slot] <= 0:
            raise IllegalAction("FFF-18", f"step {_name(sid)}: no {2 + slot}-pip "
                                f"{COLOUR_NAMES[colour]} field is left in the pool")
        t.pool[colour * 2 + slot] -= 1
        new = WITH_FIELD[colour][code]
        t.toks.append(T_ADD[colour])
        sq = t.sq
        if GHOST[new] and not GHOST[code] and t.ghost[sq]:
            other = t.ghost[sq]  # FFF-14, FFF-26: out of phase on a shared square
            t.ghost[sq] = 0
            leave(new, t.pool, t.lost, t.cnt)
            leave(other, t.pool, t.lost, t.cnt)
            t.destroyed = True
        t.code = new
        return True
    # a movement point
    if t.over or t.destroyed:
        raise IllegalAction("FFF-27", f"step {_name(sid)}: the turn is over")
    if t.used >= t.points:
        raise IllegalAction("FFF-5", f"step {_name(sid)}: the piece has only {t.points} "
                            f"movement point{'s' if t.points != 1 else ''}")
    f = FACING[code]
    if sid < STEP:
        d = sid - TURN
        if d == f:
            raise IllegalAction("FFF-17", f"step {_name(sid)}: the piece already faces "
                                f"{FACINGS[d]} (a turn to it would change nothing)")
        t.code = FACE0[code] + 6 * d
        t.used += 1
        t.phase = PHASE_POINTS
        t.toks.append(T_TURN[d])
        return False
    what = "step" if sid == STEP else "attack"
    if GHOST[code]:
        raise IllegalAction("FFF-14", f"step {_name(sid)}: the piece is out of phase: it "
                            f"cannot {what}")
    if f == UP:
        raise IllegalAction("FFF-6", f"step {_name(sid)}: the piece points upright: it "
                            f"cannot {what}")
    sq = t.sq
    nx = NEXT[sq * 9 + f]
    if nx < 0:
        raise IllegalAction("FFF-20", f"step {_name(sid)}: {FACINGS[f]} of "
                            f"{SQUARE_NAMES[sq]} is off the board")
    main = t.main
    occ = main[nx]
    if sid == STEP:
        if occ:
            raise IllegalAction("FFF-20", f"step {_name(sid)}: {SQUARE_NAMES[nx]} is "
                                "occupied (attack it instead, if it is an enemy)")
        t.sq = nx
        t.used += 1
        t.phase = PHASE_POINTS
        t.toks.append(T_STEP)
        return False
    if sid == FAIL:
        raise IllegalAction("FFF-13", f"step {_name(sid)}: an attack that fails changes "
                            "nothing; it is not a step")
    if not occ or OWNER[occ] == me:
        raise IllegalAction("FFF-21", f"step {_name(sid)}: no enemy piece ahead on "
                            f"{SQUARE_NAMES[nx]} to attack")
    kind = attack_kind(code, occ, t.lost)
    if kind == O_FAIL:
        raise IllegalAction("FFF-13", f"step {_name(sid)}: the attack would fail "
                            f"({ATTACK[code]} against {DEFENCE[occ]}) and change nothing")
    if (kind == O_CONVERT) != (sid >= CONVERT):
        form = "xD/E (a conversion)" if kind == O_CONVERT else "xD"
        raise IllegalAction("FFF-30", f"step {_name(sid)}: this attack is written {form}")
    if kind == O_CONVERT:
        d, e = divmod(sid - CONVERT, 9)
        convert(main, t.pool, t.lost, t.cnt, nx, me, e)
        t.toks.append(T_CONVERT[d][e])
    else:
        d = sid - HIT
        if kind == O_CAPTURE:
            main[nx] = 0
            leave(occ, t.pool, t.lost, t.cnt)
            t.sq = nx
        elif kind == O_PUSH:
            push(main, t.pool, t.lost, t.cnt, nx, f)
            t.sq = nx
        else:
            strip(main, t.pool, nx)
        t.toks.append(T_HIT[d])
    t.code = FACE0[code] + 6 * d
    t.used += 1
    t.phase = PHASE_POINTS
    t.over = any_eliminated(t.cnt)
    return t.over


def step_id(action) -> int:
    """The id of a step given as its text (`"d4"`, `"xN/E"`, `"end"`) or as its id."""
    if action.__class__ is int and 0 <= action < NUM_STEP_IDS:
        return action
    if isinstance(action, str):
        sid = STEP_ID.get(action.strip())
        if sid is not None:
            return sid
        sq = SQUARE_INDEX.get(action.strip().lower().rstrip("~"))
        if sq is not None:
            return sq + (SELECT_GHOST if action.strip().endswith("~") else 0)
    raise IllegalAction("FFF-30", f"{action!r} is not an FFF step: a square (d4, d4~), -C, a "
                        "facing, m, xD, xD/E, +C or end (FFF turns are numbered by step; a "
                        "whole turn has no id)")
