"""FieldShift for learners (issue 20): command tokens as action ids, the view as a tensor.

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

from boardct.core.encoding import check_id, flag, one_hot, scaled
from boardct.core.errors import IllegalAction
from boardct.games.fieldshift.notation import TWO
from boardct.games.fieldshift.tables import RULESETS, VITALITY

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
    ops = view["operators"]
    rank = {}
    for cell in view["sectors"]:
        for k, name in enumerate(cell):
            rank[name] = k
    selected = [_op_index(view["players"][p]["selected"]) for p in range(2)]
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
        pl = view["players"][p]
        out.append(scaled(pl["crates"], CRATE_SCALE))
        out.extend(scaled(f, CRATE_SCALE) for f in pl["facilities"])
        out.append(scaled(pl["skill_cooldown"], 5))
        out.append(scaled(pl["support_cooldown"], 5))
        out.append(flag(pl["artillery_ready"]))
        out.append(flag(pl["under_cyberwarfare"]))
    one_hot(out, RULESETS.index(view["ruleset"]), 3)
    one_hot(out, ("dispute", "reject").index(view["violations"]), 2)
    limit = view.get("turn_limit") or TURN_SCALE
    out.append(scaled(view["turn"], limit))
    out.append(flag(view["to_move"] == me))
    out.append(flag(me == 1))
    pending = view["pending"]
    one_hot(out, 0 if pending is None else 1 if pending["kind"] == "ruleset" else 2, 3)
    out.append(flag(pending is not None and pending["requester"] == me))
    one_hot(out, -1 if pending is None or pending["ruleset"] is None
            else RULESETS.index(pending["ruleset"]), 3)
    disputable = {d["player"] for d in view["disputable"]}
    out.append(flag(me in disputable))
    out.append(flag(1 - me in disputable))
    out.append(flag(view["result"] is not None))
    return out
