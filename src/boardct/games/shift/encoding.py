"""Shift for learners (issue 20): action ids and the observation tensor.

Action ids (90): 0..9 are the action codes 0..9 (shift to ring gear 1/2L/3/2R, attack alpha/
beta/omega, first, second, pass); 10..89 are the defences, id = 10 + 16 * (active gear + 1) +
spirit-guard mask (active gear -1 for none; SH-9, SH-27, SH-28), i.e. the action code less 6.

The observation is built from `view(player)` only, from the observer's side ("own" first).
The coins still to come are not in the view, so never in the tensor; the coins already
flipped are (the last `FLIPS` of them).
"""

from __future__ import annotations

from boardct.core.encoding import check_id, flag, one_hot, scaled, signed
from boardct.core.errors import IllegalAction
from boardct.games.shift.actions import GUARD, PHASE_NAMES, TOKENS
from boardct.games.shift.cardformat import ATTACK_TYPES, RING

NUM_ACTIONS = 90
FLIPS = 6
STAT = 10.0  # power and guard are divided by this and clipped
GEAR_FIELDS = 3 + 3 * 3  # level, power, guard; per attack: printed, pattern length, cost
PLAYER_FIELDS = 4 + 7 + 2 + 4 * GEAR_FIELDS
GLOBAL_FIELDS = len(PHASE_NAMES) + 5 + 3 + 1
SIZE = GLOBAL_FIELDS + 2 * PLAYER_FIELDS + FLIPS * 5


def action_id(action: object) -> int:
    if type(action) is int and 0 <= action < 10:
        return action
    if type(action) is int and GUARD <= action < GUARD + 80:
        return action - GUARD + 10
    raise IllegalAction("SH-8", f"{action!r:.40} is not a Shift action")


def id_action(action_id_: object) -> int:
    i = check_id(action_id_, NUM_ACTIONS, "shift")
    return i if i < 10 else i - 10 + GUARD


def observation(view: dict, player: int) -> list[float]:
    out: list[float] = []
    me = player
    one_hot(out, PHASE_NAMES.index(view["phase"]), len(PHASE_NAMES))
    out.append(flag(me in view["to_move"]))
    out.append(flag(view["mover"] == me))
    out.append(flag(view["first"] == me))
    out.append(flag(view["first"] == -1))
    out.append(flag(view["toss_winner"] == me))
    attack = view["attack"]
    one_hot(out, -1 if attack is None else ATTACK_TYPES.index(attack["type"]), 3)
    out.append(scaled(view["turn"], view["turn_limit"]))
    for p in (me, 1 - me):
        pl = view["players"][p]
        one_hot(out, RING.index(pl["gear"]), 4)
        out.append(scaled(pl["level"], 3))
        out.append(scaled(pl["power"], STAT))
        out.append(scaled(pl["guard"], STAT))
        out.append(signed(pl["temp_power"], STAT))
        out.append(signed(pl["temp_guard"], STAT))
        out.append(scaled(pl["lit"], TOKENS))
        out.append(scaled(pl["burnt"], TOKENS))
        out.append(flag(pl["skip_shift_phase"]))
        out.append(flag(pl["skip_next_turn"]))
        for g in pl["gears"]:
            out.append(scaled(g["level"], 3))
            out.append(scaled(g["power"], STAT))
            out.append(scaled(g["guard"], STAT))
            for m in g["attacks"]:
                out.append(flag(m is not None))
                out.append(scaled(len(m["pattern"]) if m else 0, 4))
                out.append(scaled(m["cost"] if m else 0, TOKENS))
    flips = view["flips"][-FLIPS:]
    flips = [None] * (FLIPS - len(flips)) + flips
    for f in flips:  # oldest first; per coin: heads, tails, own, other's, the toss
        if f is None:
            out.extend((0.0, 0.0, 0.0, 0.0, 0.0))
            continue
        who, face, _ = f
        out.extend((flag(face == "H"), flag(face == "T"), flag(who == me),
                    flag(who == 1 - me), flag(who == -1)))
    return out
