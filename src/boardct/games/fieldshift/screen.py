"""The FS-23 screen (player blocks, ten sector lines) and the one-line event messages."""

from __future__ import annotations

from rich.text import Text

from boardct.core.outcome import Outcome, Termination
from boardct.games.fieldshift.tables import (
    BLADE,
    CLASS_NAMES,
    FACILITY_NAMES,
    LONGWATCH,
    MEDIC,
    RULESET_NAMES,
    TECHNICIAN,
    TERRAIN,
    TERRAIN_NAMES,
)

SIDE_STYLE = ("bold cyan", "bold magenta")
TERRAIN_STYLE = ("grey62", "green", "yellow3", "orange3")


def operator_token(state, i: int) -> str:
    """FS-23: id, then v<n> (injured) or X<n> (bleeding out), then W (overwatch), then S or S<n>
    (an armed skill, or one with turns/charges left)."""
    from boardct.games.fieldshift.state import PV_SIZE, WATCH, op_name

    text = op_name(i)
    v = state.vit[i]
    if v == 0:
        text += f"X{state.bleed_timer(i)}"
    elif v < 5:
        text += f"v{v}"
    if state.pv[(i // 10) * PV_SIZE + WATCH] == i:
        text += "W"
    s = state.skl[i]
    if s:
        text += "S" if i % 5 in (LONGWATCH, BLADE, MEDIC) else f"S{s}"
    return text


def _player_block(state, p: int) -> list[str]:
    from boardct.games.fieldshift.state import RESERVE

    name = state.setup.names[p]
    head = f"[Player {p + 1}: {name}]" if name else f"[Player {p + 1}]"
    sk, sp = state.skill_cooldown(p), state.support_cooldown(p)
    reserve = []
    for i in range(p * 10, p * 10 + 10):
        if state.loc[i] == RESERVE:
            v = state.vit[i]
            reserve.append(f"{i % 10}" + (f"v{v}" if v < 5 else ""))
    fac = "-".join(str(state.facility(p, f)) for f in range(3))
    return [
        head,
        f"Skill Cooldown: {sk if sk else '[READY]'}",
        f"Support Cooldown: {sp if sp else '[READY]'}",
        f"Crates: {state.crates(p)}",
        f"Facility Crates: {fac}",
        ("Reserve: " + " ".join(reserve)).rstrip(),
        "",
    ]


def _sector_label(s: int) -> str:
    return f"{TERRAIN_NAMES[TERRAIN[s]]} Sector {s}:"


def board(state) -> str:
    """The screen of FS-23 without the prompt; it ends with the two empty lines of FS-40, so
    that the prompt printed after it lands where the earlier tool put it."""
    lines = _player_block(state, 0) + _player_block(state, 1)
    for s in range(10):
        ops = " ".join(operator_token(state, i) for i in state.sector(s))
        lines.append(f"{_sector_label(s)} {ops}".rstrip())
    return "\n".join(lines) + "\n\n"


def board_rich(state) -> Text:
    """The same screen, with the two sides and the terrain in colour."""
    out = Text()
    for p in range(2):
        for k, line in enumerate(_player_block(state, p)):
            out.append(line + "\n", style=SIDE_STYLE[p] if k == 0 else None)
    for s in range(10):
        out.append(_sector_label(s), style=TERRAIN_STYLE[TERRAIN[s]])
        for i in state.sector(s):
            out.append(" ")
            out.append(operator_token(state, i), style=SIDE_STYLE[i // 10])
        out.append("\n")
    out.append("\n")
    return out


def board_compact(state) -> Text:
    """The screen for a small terminal (80x24): the two player blocks side by side above the
    ten sector lines, without the closing blank lines; the classic screen (FS-23) is unchanged."""
    from boardct.core.compact import join_lines, side_by_side

    blocks = []
    for p in range(2):
        lines = [Text(line, style=SIDE_STYLE[p] if k == 0 else "")
                 for k, line in enumerate(_player_block(state, p)) if line]
        blocks.append(lines)
    lines = side_by_side(blocks[0], blocks[1], 40) + [Text()]
    for s in range(10):
        line = Text(_sector_label(s), style=TERRAIN_STYLE[TERRAIN[s]])
        for i in state.sector(s):
            line.append(" ")
            line.append(operator_token(state, i), style=SIDE_STYLE[i // 10])
        lines.append(line)
    return join_lines(lines)


def describe(state, event: tuple) -> str:
    from boardct.games.fieldshift.state import op_name

    kind = event[0]
    if kind == "damage":
        _, source, by, t, dmg, left = event
        who = {"hit": f"{op_name(by)} hits", "overwatch": f"{op_name(by)} (overwatch) hits",
               "longwatch": f"{op_name(by)} (One shot, one kill) hits",
               "assassinate": f"{op_name(by)} assassinates",
               "artillery": "Artillery hits"}[source]
        return f"{who} {op_name(t)} for {dmg}: vitality {left}"
    if kind == "down":
        return (f"{op_name(event[1])} is down and bleeding out; Player {event[2] + 1} "
                "gains a crate")
    if kind == "dies":
        return f"{op_name(event[1])} has bled out and leaves the field"
    if kind == "move":
        _, i, a, b = event
        return f"{op_name(i)} moves from sector {a} to sector {b}"
    if kind == "swap":
        return f"{op_name(event[1])} and {op_name(event[2])} swap sectors"
    if kind == "select":
        return f"{op_name(event[1])} selected"
    if kind == "longwatch":
        return f"{op_name(event[1])} fires One shot, one kill at {op_name(event[2])}"
    if kind == "quickdraw":
        return f"Quick draw: {event[2]} free HIT{'s' * (event[2] != 1)} left"
    if kind == "revive":
        return f"{op_name(event[1])} revives {op_name(event[2])} to full vitality"
    if kind == "reinforce":
        _, p, f, n = event
        return f"Player {p + 1} allocates {n} crate{'s' * (n != 1)} to the {FACILITY_NAMES[f]}"
    if kind == "withdraw":
        _, p, f, n = event
        return f"Player {p + 1} withdraws {n} crate{'s' * (n != 1)} from the {FACILITY_NAMES[f]}"
    if kind == "retreat":
        return f"{op_name(event[1])} retreats to reserve (+1 crate)"
    if kind == "deploy":
        return f"{op_name(event[1])} deploys from reserve (-1 crate)"
    if kind == "overwatch":
        return f"{op_name(event[1])} is on overwatch"
    if kind == "skill":
        i = event[1]
        from boardct.games.fieldshift.tables import SKILL_NAMES
        return f"{op_name(i)} ({CLASS_NAMES[i % 5]}) activates {SKILL_NAMES[i % 5]}"
    if kind == "support":
        _, p, f = event
        what = {0: "readies the Artillery: the next SPT names a sector", 1: "heals with the Medbay",
                2: "swaps reserve and field with the Command center"}[f]
        return f"Player {p + 1} {what}"
    if kind == "artillery":
        _, p, s, dmg = event
        return f"Player {p + 1}'s Artillery shells sector {s} ({dmg} damage)"
    if kind == "heal":
        return f"{op_name(event[1])} heals to vitality {event[2]}"
    if kind == "reserveswap":
        return "Reserve and field operators change places"
    if kind == "violation":
        return (f"Rule violation by Player {event[1] + 1}: " + "; ".join(event[2])
                + " (the opponent may dispute with 06 on their turn)")
    if kind == "dispute":
        _, p, ok, reasons = event
        if ok:
            return f"Player {p + 1} disputes: upheld ({'; '.join(reasons)})"
        return f"Player {p + 1} disputes, but there is no violation: the turn ends"
    if kind == "request":
        _, what, p, target = event
        if what == "draw":
            return f"Player {p + 1} requests a draw: Player {2 - p}, answer 01 (agree) or 00"
        extra = " or 05 (accept and ask for STDEX Type-A)" if target == 1 else ""
        return (f"Player {p + 1} requests a ruleset change ({RULESET_NAMES[target - 1]} --> "
                f"{RULESET_NAMES[target]}): Player {2 - p}, answer 01 (accept), 00 (deny){extra}")
    if kind == "answer":
        return f"Player {event[1] + 1} {'accepts' if event[2] else 'denies'}"
    if kind == "ruleset":
        return f"Ruleset changed to {RULESET_NAMES[event[1]]}"
    if kind == "turn":
        return f"Player {event[1] + 1}'s turn"
    if kind == "over":  # the outcome as its JSON (Outcome.to_json)
        res = event[1]
        out = Outcome(tuple(res["returns"]), res["reason"], tuple(res["winners"]),
                      kind=Termination(res["kind"]))
        return f"Result: {out.describe()}"
    if kind == "suspend":
        return "Suspending the game"
    if kind == "resume":
        return "Resuming a suspended game"
    if kind == "message":
        return str(event[1])
    return " ".join(str(x) for x in event)


def status_line(state) -> str:
    """The line under the FS-23 screen at the table: what the board does not show. The ruleset,
    the turn of the limit (FS-22, FS-39), a request waiting for an answer (FS-20, FS-37), a
    violation the opponent may dispute (FS-19), a readied Artillery (FS-17) and Cyberwarfare:
    on whom, by whom, for how many turns (FS-16, FS-29). Empty once the game is over: the
    result line says it all. Everything here is public (FieldShift hides nothing)."""
    from boardct.games.fieldshift.state import ARTREADY, PV_SIZE, op_name

    if state.outcome is not None:
        return ""
    turn = state.turn + 1  # the turn being played, counted as FS-39 counts them
    parts = [f"Ruleset: {RULESET_NAMES[state.ruleset]}",
             f"Turn {turn} of {state.limit}" if state.limit else f"Turn {turn} (no limit)"]
    if state.pending is not None:
        kind, asker, target = state.pending
        answerer = 2 - asker
        if kind == "draw":
            parts.append(f"Player {asker + 1} offers a draw: Player {answerer} answers 01 (agree) "
                         "or 00")
        else:
            extra = ", 05 (accept, ask for Type-A)" if target == 1 else ""
            parts.append(f"Player {asker + 1} asks for {RULESET_NAMES[target]}: Player "
                         f"{answerer} answers 01 (accept), 00 (deny){extra}")
    for violator in sorted({who for who, _ in state.violations}):
        parts.append(f"Player {2 - violator} may dispute Player {violator + 1}'s rule "
                     "violation with 06")
    for p in range(2):
        if state.pv[p * PV_SIZE + ARTREADY]:
            parts.append(f"Player {p + 1}'s Artillery is ready")
    for p in range(2):  # Player p's Technicians bind the other player
        turns, tech = max((state.skl[p * 10 + n], p * 10 + n) for n in (TECHNICIAN, TECHNICIAN + 5))
        if not turns:
            continue
        bound = 1 - p
        if state.cur == bound:  # the bound player's own turn is one of those counted
            left = "this turn" + (f" and {turns - 1} more" if turns > 1 else "")
        else:
            left = f"their next {turns} turn{'s' * (turns != 1)}"
        parts.append(f"Cyberwarfare ({op_name(tech)}) on Player {bound + 1}: {left}")
    return " | ".join(parts)
