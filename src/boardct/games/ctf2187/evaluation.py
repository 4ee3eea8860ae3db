"""CTF 2187's evaluation: how likely each team is to end with the best rating (CTF-16, CTF-39).

A game is won on the rating at the end (Victory Points over original tonnage), so the
evaluation estimates that, for the team of the player asked against the best other team, as a
logistic model of two terms:

- the rating lead, divided by the square root of the share of turns left (the turn to play
  included), since the same lead is surer the fewer turns remain. Each side's VP count, besides
  those it has, one phase of its reach (`threats`): what its Bots could expect from firing at
  their best target in range and sight;
- the lead in structure still fighting (armour and internal points of the functional Bots over
  their designs' totals, less one phase of the enemy posts' fire at them, `exposure`), times
  the square root of that share: it is worth more the more turns remain in which to use it.

`EVAL_LEAD` and `EVAL_STRENGTH` were fitted (maximum likelihood, no constant term) to 1,200
games of self-play among `random`, `greedy`, `greedy:eps=0.3` and `search:iters=20` at the
default options (`benchmarks/ctf_eval_fit.py`, with the ratings and structure alone); the value
is the probability mapped to [-1, 1] (`tanh(z / 2) = 2p - 1`). `EVAL_THREAT` (one phase) is set
by hand. The evaluation this replaces, `2 x rating lead + 0.5 x structure lead` clamped to
[-1, 1], was flat at +-1 once a side led by half a rating point: a search then saw no
difference between its orders, and a Bot that had wrecked its opponent but trailed on rating
wandered instead of firing at the command posts it could still win on. Reach gives the
search a reason to bring its Bot within range of something (the posts, when the enemy Bots
are Wreckage) a turn before it can fire, and exposure a reason to do it from beyond the
posts' own range.

A term crediting a lone Bot in advance with what it could take from the posts in the turns
left was tried and dropped: it made every sheet of that Bot look won (the value near 1 whatever
it did), and in screens such a Bot walked into the posts' fire without shooting at them.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from boardct.games.ctf2187 import engine
from boardct.games.ctf2187.geometry import distance
from boardct.games.ctf2187.units import DESTROYED, FUNCTIONAL, KNEELING, PRONE, STANDING

if TYPE_CHECKING:
    from boardct.games.ctf2187.state import CtfState
    from boardct.games.ctf2187.tables import Weapon

EVAL_LEAD = 3.20  # weight of the rating lead over sqrt(share of turns left)
EVAL_STRENGTH = 2.20  # weight of the lead in fighting structure times sqrt(share of turns left)
EVAL_THREAT = 1.0  # phases of reach counted into the VP, and of the posts' fire into the structure


def team_values(st: CtfState) -> list[float]:
    """Each team's value in [-1, 1] (see the module's docstring), from the state as it is:
    on a determinization, from what it holds."""
    n = st.teams
    vp = [0] * n
    tons = [0] * n
    have = [0] * n
    total = [0] * n
    for b in st._bots:
        t = b.team
        d = b.design
        vp[t] += b.vp
        tons[t] += d.tons
        total[t] += sum(d.armour) + sum(d.internal)
        if b.status == FUNCTIONAL:
            have[t] += sum(b.armour) + sum(b.internal)
    share = max(1, st.turns - st.turn + 1) / st.turns
    root = math.sqrt(share)
    reach = threats(st)
    fire = exposure(st)
    rating = [(vp[t] + EVAL_THREAT * reach[t]) / tons[t] if tons[t] else 0.0 for t in range(n)]
    strength = [max(0.0, have[t] - EVAL_THREAT * fire[t]) / total[t] if total[t] else 0.0
                for t in range(n)]
    out = []
    for t in range(n):
        lead = rating[t] - max(rating[u] for u in range(n) if u != t)
        edge = strength[t] - max(strength[u] for u in range(n) if u != t)
        z = EVAL_LEAD * lead / root + EVAL_STRENGTH * edge * root
        out.append(math.tanh(0.5 * z))
    return out


def _base_chance(th: dict[str, int], w: Weapon, d: int) -> int:
    """CTF-28's chance to hit by distance alone."""
    opt = w.optimum
    if d <= opt:
        return th["at_optimum"] + th["per_sector_closer"] * (opt - d)
    if d <= -(-(opt + w.maximum) // 2):
        return th["beyond_optimum"]
    return th["far"]


def exposure(st: CtfState) -> list[float]:
    """Per team, the points of structure its functional Bots could expect to lose in one phase
    to the other teams' command posts (CTF-34: each post's weapons fire at the nearest
    functional enemy Bot in range with a clear line of fire; the target's cover and posture
    count, CTF-28). No VP come of it, but a Bot that stands in the posts' fire is soon
    Wreckage."""
    t = st.tables
    th = t.to_hit
    lo, hi = th["minimum"], th["maximum"]
    guns = t.cp_weapons
    if not guns:
        return [0.0] * st.teams
    reach = max(w.maximum for w in guns)
    terrain, cells, width = t.terrain, st.map.terrain, st.map.width
    out = [0.0] * st.teams
    for c in st._cps:
        if c.structure <= 0:
            continue
        near = sorted((distance(c.x, c.y, b.x, b.y), b.num) for b in st._bots
                      if b.team != c.team and b.status == FUNCTIONAL)
        if not near or near[0][0] > reach:
            continue
        e0 = engine.cp_elevation(st, c)
        for w in guns:
            for d, num in near:
                if d > w.maximum:
                    break
                b = st._bots[num - 1]
                if d > 1 and engine._track(st, c.x, c.y, e0, b.x, b.y,
                                           engine.bot_elevation(st, b))[1]:
                    continue
                chance = (_base_chance(th, w, d)
                          + terrain[cells[(b.y - 1) * width + b.x - 1]].cover
                          + (th["target_kneeling_or_prone"] if b.posture != STANDING else 0))
                out[b.team] += w.damage * min(hi, max(lo, chance)) / 100.0
                break
    return out


def threats(st: CtfState) -> list[float]:
    """Per team, the Victory Points its functional Bots could expect from one phase of fire,
    each at its best target: an enemy Bot (1 VP a point) or the nearest enemy command post, the
    only one an order can aim at (2 VP a point, no more than the post has left, CTF-16), with
    every weapon not destroyed whose maximum range reaches it along a line of fire that is not
    blocked (CTF-27), at the chance to hit of CTF-28 as far as the state tells it: distance,
    the target's cover and posture (a post: its bonus), the firer's posture, heat band and
    wounds, a damaged weapon. Left out: dodging and movement (they depend on the orders to
    come), facing (a face order costs little), heat shut-downs. What it measures is reach and
    who is better placed: a Bot out of range or sight of everything has none, a Bot kneeling in
    woods is harder to hit."""
    t = st.tables
    th = t.to_hit
    damaged = th["damaged_weapon"]
    lo, hi = th["minimum"], th["maximum"]
    low_target = th["target_kneeling_or_prone"]
    at_post = th["at_command_post"]
    terrain, cells, width = t.terrain, st.map.terrain, st.map.width
    out = [0.0] * st.teams
    bots = st._bots
    for b in bots:
        if b.status != FUNCTIONAL:
            continue
        guns = [(w, state) for (_loc, w), state in zip(b.design.weapons, b.weapons, strict=True)
                if state != DESTROYED]
        if not guns:
            continue
        reach = max(w.maximum for w, _state in guns)
        own = t.bands[b.band].to_hit + th["per_wound"] * b.wounds
        if b.posture == KNEELING:
            own += th["attacker_kneeling"]
        elif b.posture == PRONE:
            own += th["attacker_prone"]
        targets = [(o.x, o.y, engine.bot_elevation(st, o), 1, 0,
                    terrain[cells[(o.y - 1) * width + o.x - 1]].cover
                    + (low_target if o.posture != STANDING else 0))
                   for o in bots if o.team != b.team and o.status == FUNCTIONAL]
        post = engine.nearest_cp(st, b, False)  # the only post an order can aim at (CTF-21)
        if post is not None:
            targets.append((post.x, post.y, engine.cp_elevation(st, post), 2, post.structure,
                            at_post))
        e0 = engine.bot_elevation(st, b)
        best = 0.0
        for x, y, e1, per, cap, mod in targets:
            d = distance(b.x, b.y, x, y)
            if d > reach or d > 1 and engine._track(st, b.x, b.y, e0, x, y, e1)[1]:
                continue
            total = 0.0
            for w, state in guns:
                if d > w.maximum:
                    continue
                chance = _base_chance(th, w, d) + own + mod
                if state:  # damaged
                    chance += damaged
                total += w.damage * min(hi, max(lo, chance)) / 100.0
            value = per * (min(total, cap) if cap else total)
            if value > best:
                best = value
        out[b.team] += best
    return out


def evaluate_all(st: CtfState) -> list[float | None]:
    """Every player's value: their team's (0 for a player with no Bot)."""
    values = team_values(st)
    team_of: dict[int, int] = {}
    for b in st._bots:
        team_of.setdefault(b.player, b.team)
    return [values[team_of[p]] if p in team_of else 0.0 for p in range(len(st.setup.names))]
