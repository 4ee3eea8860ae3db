"""Shift's evaluation at a search's cut-off: how likely each player is to win from here.

What decides a duel, and what the evaluation reads:

- *The race.* A player loses when dealt damage with five tokens already down (SH-14), so
  `TOKENS + 1 - damage` hits are left to each. The race term compares those counts squared,
  so it never saturates: the hit that leaves the opponent one from the end is worth more than
  the first, and a player four hits ahead still gains by landing the last one (a squashed
  damage lead made a big lead feel like a win and the search sat on it to the turn limit).
- *Spirit.* Lit tokens pay for spirit guards, spirit shifts and spirit mods: the defender's
  spirit is what keeps an attacker out, and burning it is progress.
- *Threat.* The chance that the next attacker's best attack from the gear it is in now gets
  through the other's current guard, the other guarding with its best lower gear or not
  (SH-9, SH-27: an active guard is free but drops the defender to gear 1), times the damage
  the hit deals. Read from a table per card made once (`_mod_table`): each attack mod's
  chance of each power margin over its coins and extra coins (SH-19, SH-20). A player in a
  high gear that never attacks gains nothing from it: only a threat that can land counts.
- *Reach.* The same threat from a gear one shift away, each way: a gear next to a strong
  attack is worth a little, so a player keeps its place there when guarding would cost it.
- *The turn limit.* A game drawn at the limit is worth a half to each (SH-15, SH-38); in the
  last `W["fade"]` turns every value fades toward that, so a player ahead must convert its
  lead rather than keep it, and one behind gains by holding on.

The weights (`W`) were chosen among a few settings by playing `search` against `greedy` at
small budgets (benchmarks/results/s9-i35-shift.md); a threat weighed as much as the damage
it may deal made both players sit in high gears and never attack, so it weighs less.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from boardct.games.shift.actions import NEIGHBOURS, P_DEFEND, P_SHIFT, P_START, TOKENS
from boardct.games.shift.cardformat import LEVELS

if TYPE_CHECKING:
    from boardct.games.shift.cards import Card, Mod, Op
    from boardct.games.shift.state import ShiftState

# Weights of the terms (each term about [-1, 1] before its weight); the sum is clamped.
W = {"race": 0.8, "spirit": 0.15, "threat": 0.1, "reach": 0.04, "fade": 20}
# Margins tabulated: power over guard from -MARGIN .. +MARGIN.
MARGIN = 12
# The most a position short of the end is worth: a win stays better than any of them.
CAP = 0.98


def _mod_margins(mod: Mod) -> list[tuple[float, int, int]]:
    """The attack `mod`'s outcomes: (probability, power it adds, damage a hit deals), over
    its activation coins and its extra coins; a spirit mod always activates."""
    if mod.pattern:
        n = len(mod.pattern)
        need_h = mod.pattern.count("H")
        need_t = mod.pattern.count("T")
        p_act = sum(math.comb(n, h) for h in range(n + 1)
                    if h >= need_h and n - h >= need_t) / 2 ** n
    else:
        p_act = 1.0
    extra = 1 + sum(op.n for op in mod.on_hit if op.op == "extra_damage")
    fixed = 0
    flips: list[tuple[int, int]] = []  # (coins, power per counted face)
    for op in mod.effects:
        fixed += _power_of(op)
        if op.op == "flip":
            per = sum(_power_of(d) for d in op.do)
            if per:
                flips.append((op.coins, per))
    outs: dict[int, float] = {fixed: 1.0}
    for coins, per in flips:
        nxt: dict[int, float] = {}
        for base, p in outs.items():
            for k in range(coins + 1):
                v = base + k * per
                nxt[v] = nxt.get(v, 0.0) + p * math.comb(coins, k) / 2 ** coins
        outs = nxt
    res = [(p_act * p, gain, extra) for gain, p in outs.items()]
    if p_act < 1.0:
        res.append((1.0 - p_act, 0, 1))
    return res


def _power_of(op: Op) -> int:
    """The power over the opponent's guard an effect adds: own power, or the opponent's guard
    taken away."""
    if op.cond is not None:
        return 0
    if op.op == "power" and not op.opp:
        return op.n
    if op.op == "guard" and op.opp:
        return -op.n
    return 0


def _mod_table(card: Card) -> tuple[tuple[tuple[int, tuple[float, ...]], ...], ...]:
    """Per gear, per attack mod: (spirit cost, expected damage for each margin `m` of printed
    power minus guard, index `m + MARGIN`): the chance the mod's power beats the guard times
    the damage dealt."""
    table = []
    for gear in card.gears:
        mods = []
        for mod in gear.attacks:
            if mod is None:
                continue
            outs = _mod_margins(mod)
            row = tuple(sum(p * dmg for p, gain, dmg in outs if m + gain > 0)
                        for m in range(-MARGIN, MARGIN + 1))
            mods.append((0 if mod.pattern else mod.cost, row))
        table.append(tuple(mods))
    return tuple(table)


def _best_cover(card: Card) -> tuple[tuple[int, int], ...]:
    """Per gear: the most guard an active guard adds from it (a lower-level gear's printed
    guard, SH-9, SH-27; 0 from gear 1), and the most that and one spirit guard add (any other
    gear, SH-27)."""
    gears = card.gears
    out = []
    for cur in range(4):
        active = max([gears[g].guard for g in range(4) if LEVELS[g] < LEVELS[cur]], default=0)
        best = active
        for g in range(4):
            if g == cur:
                continue
            rest = [gears[h].guard for h in range(4)
                    if h not in (cur, g) and LEVELS[h] < LEVELS[cur]]
            best = max(best, gears[g].guard + max(rest, default=0))
        out.append((active, best))
    return tuple(out)


# Phases in which the next attack is the mover's (declared already in the defence phase).
_MOVER_ATTACKS_NEXT = (P_START, P_SHIFT, P_DEFEND)

_TABLES: dict[int, tuple[Card, tuple, tuple[tuple[int, int], ...]]] = {}


def _tables(card: Card) -> tuple[tuple, tuple[tuple[int, int], ...]]:
    """A card's tables, made once per card (cards are shared and never change)."""
    hit = _TABLES.get(id(card))
    if hit is None or hit[0] is not card:
        hit = _TABLES[id(card)] = (card, _mod_table(card), _best_cover(card))
    return hit[1], hit[2]


def _threats(state: ShiftState, p: int) -> tuple[float, float]:
    """`p`'s threat now and its reach: the expected damage of its best attack from its
    current gear, and the best from a gear one shift away (its other stats as they are),
    against the other's current guard, the other not guarding or guarding as well as it can
    (its best lower gear, and one spirit guard if it has the spirit), half each. The stats
    are read once for the three gears: the evaluation runs at every leaf of a search."""
    o = 1 - p
    card = state.cards[p]
    mods = _tables(card)[0]
    cover = _tables(state.cards[o])[1]
    cur = state.gear[p]
    gears = card.gears
    base = state.power(p) - state.guard(o) + MARGIN - gears[cur].power
    cut = cover[state.gear[o]][1 if state.lit[o] else 0]
    lit = state.lit[p]
    top = 2 * MARGIN
    now = 0.0
    reach = 0.0
    for g in (cur, *NEIGHBOURS[cur]):
        m_open = base + gears[g].power
        m_cov = m_open - cut
        best = 0.0
        for cost, row in mods[g]:
            if cost > lit:
                continue
            v = (row[0 if m_open < 0 else top if m_open > top else m_open]
                 + row[0 if m_cov < 0 else top if m_cov > top else m_cov])
            if v > best:
                best = v
        if g == cur:
            now = 0.5 * best
        elif 0.5 * best > reach:
            reach = 0.5 * best
    return now, reach


def evaluate(state: ShiftState, player: int) -> float:
    """`player`'s value of a position in [-1, 1] (1 a win, -1 a loss, 0 even)."""
    out = state.outcome
    if out is not None:
        return 2.0 * out.returns[player] - 1.0
    o = 1 - player
    lit, burnt = state.lit, state.burnt
    left_me = TOKENS + 1 - lit[player] - burnt[player]
    left_o = TOKENS + 1 - lit[o] - burnt[o]
    a, b = left_o * left_o, left_me * left_me
    race = (b - a) / (a + b)
    spirit = (lit[player] - lit[o]) / TOKENS
    # the attack that comes next: the mover's until its attack is resolved, else the other's
    nxt = state.mover if state.phase in _MOVER_ATTACKS_NEXT else 1 - state.mover
    now_me, reach_me = _threats(state, player)
    now_o, reach_o = _threats(state, o)
    threat = now_me if nxt == player else -now_o
    w = W
    value = (w["race"] * race + w["spirit"] * spirit + w["threat"] * threat
             + w["reach"] * (reach_me - reach_o))
    value = -CAP if value < -CAP else CAP if value > CAP else value
    left = state.limit - state.turn
    fade = w["fade"]
    if left < fade:
        value *= max(left, 0) / fade
    return value
