"""Shift actions and decision points as small ints, and the tables the rules use often.

Actions: 0-3 shift to ring gear 1/2L/3/2R; 4-6 attack with alpha/beta/omega; 7 first; 8 second;
9 pass; 16 + 16*(active+1) + mask: a defence (active gear or -1; mask of spirit-guard gears).
"""

from __future__ import annotations

from boardct.games.shift.cardformat import LEVELS, RING

SHIFT = 0  # 0..3: shift to that ring position
ATTACK = 4  # 4..6: attack with alpha, beta, omega
FIRST = 7
SECOND = 8
PASS = 9
GUARD = 16  # 16 + 16*(active+1) + mask

P_TOSS, P_START, P_SHIFT, P_DEFEND, P_CRIT, P_END, P_OVER = range(7)
PHASE_NAMES = ("toss", "start", "shift", "defend", "crit", "end", "over")

TOKENS = 5
NEIGHBOURS = ((1, 3), (0, 2), (1, 3), (0, 2))  # ring order 1, 2L, 3, 2R (SH-16)
RING_INDEX = {name.lower(): i for i, name in enumerate(RING)}


def guard_action(active: int, mask: int) -> int:
    return GUARD + 16 * (active + 1) + mask


def guard_parts(action: int) -> tuple[int, int]:
    x = action - GUARD
    return x // 16 - 1, x % 16


def gears_in(mask: int) -> list[int]:
    """The ring gears named in a spirit-guard mask."""
    return [g for g in range(4) if mask >> g & 1]


def _defence_table(cur: int, budget: int) -> tuple[int, ...]:
    """Every legal defence from ring gear `cur` with `budget` spirit (SH-9, SH-27, SH-28)."""
    out = []
    for active in (-1, 0, 1, 2, 3):
        if active >= 0 and LEVELS[active] >= LEVELS[cur]:
            continue
        free = sum(1 << g for g in range(4) if g != cur and g != active)
        for mask in range(16):
            if not mask & ~free and mask.bit_count() <= budget:
                out.append(guard_action(active, mask))
    return tuple(out)


# DEFENCES[current gear][spirit, capped at 3]: at most three other gears to spirit guard with.
DEFENCES = tuple(tuple(_defence_table(cur, b) for b in range(4)) for cur in range(4))


def player_label(p: int) -> str:
    return f"Player {p + 1}"
