"""The Shift duel: a state machine whose every decision point is explicit (SH-6..SH-40).

Decision points, in turn order (see docs/shift.md):
  toss      the toss winner chooses to go first or second (SH-6, SH-18)
  start     the mover may spirit shift (SH-7, SH-26)
  shift     the mover shifts, declares an attack (naming the mod), or passes (SH-7, SH-21, SH-22)
  defend    the defender declares its guarding, one decision (SH-9, SH-27, SH-28)
  crit      after a shift critical, the attacker may shift for free (SH-34)
  end       the mover may spirit shift if not done at the start (SH-7, SH-26)
Everything between (coins, payment, effects, damage, downshift, criticals) is resolved at once.
A decision with exactly one legal option is applied automatically and not recorded (SH-39).

Actions are small ints (see `actions.py`); notation is in `notation.py`, the screen and the
events in words in `text.py`.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import ClassVar, TypeAlias

from boardct.core.errors import IllegalAction
from boardct.core.game import Event, Game, Outcome, Setup, State, Termination
from boardct.core.rng import Rng
from boardct.games.shift import encoding as enc
from boardct.games.shift.actions import (  # noqa: F401 - re-exported for callers and tests
    ATTACK,
    DEFENCES,
    FIRST,
    GUARD,
    NEIGHBOURS,
    P_CRIT,
    P_DEFEND,
    P_END,
    P_OVER,
    P_SHIFT,
    P_START,
    P_TOSS,
    PASS,
    PHASE_NAMES,
    RING_INDEX,
    SECOND,
    SHIFT,
    TOKENS,
    gears_in,
    guard_action,
    guard_parts,
    player_label,
)
from boardct.games.shift.cardformat import ATTACK_TYPES, LEVELS, RING
from boardct.games.shift.cards import Card, Cond, Mod, Op, Trigger
from boardct.games.shift.notation import ShiftNotation
from boardct.games.shift.text import ShiftText

# Tuples of module names, made once: `ph in (P_START, P_END)` would build its tuple each time.
_START_END = (P_START, P_END)
_NO_SETTLE = (P_OVER, P_TOSS, P_CRIT)
_TOSS_CHOICES = (FIRST, SECOND)
_SEATS = ((0,), (1,))  # current_players() answers, made once: a playout asks every action
_PURPOSES: dict[tuple[str, int], tuple[str, ...]] = {}


def _purposes(what: str, n: int) -> tuple[str, ...]:
    """The purposes of `n` coins of one kind, "activation 1/3", ...: made once, not per coin."""
    out = _PURPOSES.get((what, n))
    if out is None:
        out = _PURPOSES[what, n] = tuple(f"{what} {i + 1}/{n}" for i in range(n))
    return out


def _guarding(defence: int) -> tuple[int, int, tuple[int, ...], int]:
    """A defence as (active gear or -1, spirit-guard mask, the gears guarding, the active one
    first, and the spirit it burns) (SH-9, SH-27, SH-28)."""
    active, mask = guard_parts(defence)
    chosen = ([active] if active >= 0 else []) + gears_in(mask)
    return active, mask, tuple(chosen), mask.bit_count()


_GUARDING = tuple(_guarding(GUARD + x) for x in range(80))  # by defence id less GUARD: once

_DEFENCE_CODE = GUARD - 10  # a defence's code less its action id (encoding.py)
# The ids of each DEFENCES entry (by defender's gear and spirit), ascending.
_DEFENCE_IDS = tuple(tuple(tuple(sorted(enc.action_id(a) for a in acts)) for acts in by_lit)
                     for by_lit in DEFENCES)

StaticTable: TypeAlias = "tuple[tuple[tuple[tuple[int, Cond | None], ...], ...], ...]"
_STATICS: dict[int, tuple[Card, StaticTable]] = {}


def _statics(card: Card) -> StaticTable:
    """The card's constant text (SH-29) by ring gear, then as [own power, own guard, power
    aimed at the opponent, guard aimed at the opponent]: (n, condition) pairs, the ability's
    first, then the gear's deltas. Fixed for a card, so made once per card."""
    found = _STATICS.get(id(card))
    if found is not None and found[0] is card:
        return found[1]
    table = []
    for gear in card.gears:
        groups: list[list[tuple[int, Cond | None]]] = [[], [], [], []]
        for s in (*card.statics, *gear.statics):
            groups[(2 if s.opp else 0) + (0 if s.stat == "power" else 1)].append((s.n, s.cond))
        table.append(tuple(tuple(g) for g in groups))
    if len(_STATICS) > 256:
        _STATICS.clear()
    _STATICS[id(card)] = (card, tuple(table))
    return tuple(table)


TriggerTable: TypeAlias = "tuple[dict[str, tuple[tuple[str, Trigger], ...]], ...]"
_TRIGGERS: dict[int, tuple[Card, TriggerTable]] = {}


def _triggers(card: Card) -> TriggerTable:
    """The card's triggers (SH-40) by ring gear, then by moment ("hit_dealt"...): (source as
    the events name it, trigger) pairs, the ability's first, then the gear's deltas, each in
    file order. Fixed for a card, so made once per card."""
    found = _TRIGGERS.get(id(card))
    if found is not None and found[0] is card:
        return found[1]
    table = []
    for i, gear in enumerate(card.gears):
        by_moment: dict[str, list[tuple[str, Trigger]]] = {}
        for source, triggers in (("ability", card.triggers),
                                 (f"gear {RING[i]} delta", gear.triggers)):
            for t in triggers:
                by_moment.setdefault(t.on, []).append((source, t))
        table.append({on: tuple(pairs) for on, pairs in by_moment.items()})
    if len(_TRIGGERS) > 256:
        _TRIGGERS.clear()
    _TRIGGERS[id(card)] = (card, tuple(table))
    return tuple(table)


# The coins flipped so far, newest first, as a linked list of cells: (previous cell or None,
# player or -1 for the toss, heads, purpose).
Flips: TypeAlias = "tuple[Flips | None, int, bool, str]"

# Each player's gears as the page draws them (`action_targets`), in ring order (SH-16).
_GEAR_KEY = tuple(tuple(f"gear:{p}:{name}" for name in RING) for p in (0, 1))


class ShiftState(ShiftNotation, ShiftText, State[int]):
    __slots__ = (
        "cards", "limit", "rng", "forced", "flips", "phase", "mover", "first", "toss_winner",
        "turn", "sshift_used", "gear", "lit", "burnt", "tp", "tg", "skip_shift", "skip_turn",
        "atk", "guarded", "guard_add", "ignore", "winner", "statics", "triggers",
    )
    game: ClassVar[Game]
    cards: tuple[Card, Card]
    limit: int
    rng: Rng
    forced: tuple[bool, ...]  # preloaded coin faces (a test hook), True for heads
    flips: Flips | None
    phase: int
    mover: int
    first: int
    toss_winner: int
    turn: int
    sshift_used: bool
    gear: list[int]
    lit: list[int]
    burnt: list[int]
    tp: list[int]
    tg: list[int]
    skip_shift: list[bool]
    skip_turn: list[bool]
    atk: int
    guarded: bool
    guard_add: int
    ignore: int
    winner: int
    statics: tuple[StaticTable, StaticTable]  # `_statics` of each card, looked up once
    triggers: tuple[TriggerTable, TriggerTable]  # `_triggers` of each card

    # -- construction --------------------------------------------------------------------------
    def _init(self, setup, cards: tuple[Card, Card], limit: int) -> None:
        self.setup = setup
        self._hist = None
        self.cards = cards
        self.statics = (_statics(cards[0]), _statics(cards[1]))
        self.triggers = (_triggers(cards[0]), _triggers(cards[1]))
        self.limit = limit
        self.rng = setup.rng()
        self.forced = ()
        self.flips = None  # linked log of coins: (prev, player, heads, purpose)
        self.phase = P_TOSS
        self.mover = -1
        self.first = -1
        self.turn = 0
        self.sshift_used = False
        self.gear = [0, 0]
        self.lit = [0, 0]
        self.burnt = [0, 0]
        self.tp = [0, 0]  # temporary power on each card (SH-24, SH-25)
        self.tg = [0, 0]
        self.skip_shift = [False, False]  # pending "skip shift phase" on that player
        self.skip_turn = [False, False]  # pending duo skip of that player's next turn
        self.atk = -1  # attack type index of the attack under way
        self.guarded = False
        self.guard_add = 0
        self.ignore = 0  # 1: ignore guarding, 2: ignore every bonus (SH-25)
        self.winner = -1  # -1 playing, 0/1 winner, 2 draw
        # SH-18: the toss is the first chance event; heads means seat 0 wins it.
        heads = self._coin(-1, "toss", None)
        self.toss_winner = 0 if heads else 1
        self.mover = self.toss_winner

    def clone(self) -> ShiftState:
        s = ShiftState.__new__(ShiftState)
        s.setup = self.setup
        s._hist = self._hist
        s.cards = self.cards
        s.statics = self.statics
        s.triggers = self.triggers
        s.limit = self.limit
        s.rng = self.rng.clone()
        s.forced = self.forced
        s.flips = self.flips
        s.phase = self.phase
        s.mover = self.mover
        s.first = self.first
        s.toss_winner = self.toss_winner
        s.turn = self.turn
        s.sshift_used = self.sshift_used
        s.gear = self.gear[:]
        s.lit = self.lit[:]
        s.burnt = self.burnt[:]
        s.tp = self.tp[:]
        s.tg = self.tg[:]
        s.skip_shift = self.skip_shift[:]
        s.skip_turn = self.skip_turn[:]
        s.atk = self.atk
        s.guarded = self.guarded
        s.guard_add = self.guard_add
        s.ignore = self.ignore
        s.winner = self.winner
        return s

    # -- chance --------------------------------------------------------------------------------
    def preload_flips(self, faces: str) -> None:
        """Test hook: the next coins come out as `faces` ("HTTH...") instead of from the Rng.

        A state with preloaded coins no longer replays from its seed; it is for scenarios.
        """
        bad = [c for c in faces.upper() if c not in "HT"]
        if bad:
            raise ValueError(f"coin faces are H or T, not {bad[0]!r}")
        self.forced = self.forced + tuple(c == "H" for c in faces.upper())

    def _coin(self, player: int, purpose: str, ev: list | None) -> bool:
        """One coin (SH-4, SH-20): from the preloaded faces if any, else the seeded Rng."""
        if self.forced:
            heads = self.forced[0]
            self.forced = self.forced[1:]
        else:
            heads = self.rng.coin()
        self.flips = (self.flips, player, heads, purpose)
        if ev is not None:
            ev.append(("flip", player, "H" if heads else "T", purpose))
        return heads

    def determinize(self, player: int, seed: int) -> ShiftState:
        """Everything on the table is public; only the coins to come are unknown: reseed them,
        and give the sample a seed of its own (the game's seed and actions replay the real
        coins to come). For search only: its record replays nothing real."""
        s = self.clone()
        rng = Rng(seed)
        st = self.setup
        s.setup = Setup(rng.next64() >> 1, st.options, st.names, st.created)
        s.rng = rng
        s.forced = ()
        return s

    def record_extra(self) -> dict:
        """Every coin of the game in order, beside the core record (SH-4, SH-39: chance events
        are always recorded; the seed reproduces them, the list lets people read them)."""
        return {"coins": [f"{'toss' if p < 0 else player_label(p)}: {face} ({purpose})"
                          for p, face, purpose in self.flip_log()]}

    def flip_log(self) -> list[tuple[int, str, str]]:
        """Every coin of the game so far, oldest first: (player or -1, "H"/"T", purpose)."""
        out: list[tuple[int, str, str]] = []
        cell = self.flips
        while cell is not None:
            cell, player, heads, purpose = cell
            out.append((player, "H" if heads else "T", purpose))
        out.reverse()
        return out

    # -- reading the position ------------------------------------------------------------------
    def spirit(self, p: int) -> int:
        return self.lit[p]

    def damage(self, p: int) -> int:
        return self.lit[p] + self.burnt[p]

    def _holds(self, c: Cond | None, owner: int) -> bool:
        if c is None:
            return True
        other = 1 - owner
        if c.gear is not None and LEVELS[self.gear[owner]] not in c.gear:
            return False
        if c.opponent_gear is not None and LEVELS[self.gear[other]] not in c.opponent_gear:
            return False
        dmg = self.lit[owner] + self.burnt[owner]
        if c.damage_min is not None and dmg < c.damage_min:
            return False
        if c.damage_max is not None and dmg > c.damage_max:
            return False
        if c.spirit_min is not None and self.lit[owner] < c.spirit_min:
            return False
        if c.opponent_damage_min is not None and \
                self.lit[other] + self.burnt[other] < c.opponent_damage_min:
            return False
        guarded = self.guarded if self.atk >= 0 else False
        return c.defender_guarded is None or c.defender_guarded == guarded

    def _constant(self, p: int, stat: str) -> int:
        """Constant text on `p`'s stat (SH-29): own ability and current-gear deltas aimed at
        itself, and the opponent's aimed at the opponent."""
        return self._const(p, 0 if stat == "power" else 1)

    def _const(self, p: int, k: int) -> int:
        """`_constant` with the stat as 0 (power) or 1 (guard): each card's constant text
        sorted once by gear, stat and aim (`_statics`), so a stat with none costs two
        lookups (observations and attacks ask for both stats of both players)."""
        tables = self.statics
        gear = self.gear
        o = 1 - p
        own = tables[p][gear[p]][k]
        other = tables[o][gear[o]][k + 2]
        if not own and not other:
            return 0
        total = 0
        for n, cond in own:
            if cond is None or self._holds(cond, p):
                total += n
        for n, cond in other:
            if cond is None or self._holds(cond, o):
                total += n
        return total

    def power(self, p: int) -> int:
        """`p`'s power now, floored at 0 (SH-29)."""
        g = self.cards[p].gears[self.gear[p]]
        v = g.power + self.tp[p] + self._const(p, 0)
        return v if v > 0 else 0

    def guard(self, p: int) -> int:
        """`p`'s guard now (with this attack's guarding and ignore rules), floored at 0."""
        g = self.cards[p].gears[self.gear[p]]
        if self.atk >= 0 and p != self.mover:
            if self.ignore == 2:
                return g.guard
            add = self.guard_add if self.ignore == 0 else 0
            v = g.guard + add + self.tg[p] + self._const(p, 1)
        else:
            v = g.guard + self.tg[p] + self._const(p, 1)
        return v if v > 0 else 0

    def figures(self) -> tuple[int, int, int, int]:
        """`(power(0), power(1), guard(0), guard(1))` in one call, for observations of many
        states at once (`batch.py`): the rules of `power` and `guard` with the numbers they
        share read once, and the constant text (`_const`) asked only where a card has some
        for the gears in play; during an attack (its guarding counts) `guard` itself."""
        cards = self.cards
        g0, g1 = self.gear
        t0 = self.statics[0][g0]
        t1 = self.statics[1][g1]
        a = cards[0].gears[g0]
        b = cards[1].gears[g1]
        tp = self.tp
        p0 = a.power + tp[0]
        if t0[0] or t1[2]:
            p0 += self._const(0, 0)
        p1 = b.power + tp[1]
        if t1[0] or t0[2]:
            p1 += self._const(1, 0)
        if self.atk >= 0:
            return (p0 if p0 > 0 else 0, p1 if p1 > 0 else 0, self.guard(0), self.guard(1))
        tg = self.tg
        d0 = a.guard + tg[0]
        if t0[1] or t1[3]:
            d0 += self._const(0, 1)
        d1 = b.guard + tg[1]
        if t1[1] or t0[3]:
            d1 += self._const(1, 1)
        return (p0 if p0 > 0 else 0, p1 if p1 > 0 else 0, d0 if d0 > 0 else 0,
                d1 if d1 > 0 else 0)

    def attack_mod(self) -> Mod | None:
        if self.atk < 0:
            return None
        return self.cards[self.mover].gears[self.gear[self.mover]].attacks[self.atk]

    # -- whose decision ------------------------------------------------------------------------
    def current_players(self) -> tuple[int, ...]:
        if self.phase == P_OVER:
            return ()
        if self.phase == P_DEFEND:
            return _SEATS[1 - self.mover]
        return _SEATS[self.mover]

    def legal_actions(self, player: int | None = None) -> list[int]:
        ph = self.phase
        m = self.mover
        # current_players(), inlined: a playout asks for this at every decision
        if ph == P_OVER or (player is not None and player != (1 - m if ph == P_DEFEND else m)):
            return []
        if ph == P_SHIFT:
            acts = []
            if self.turn != 1:
                lit = self.lit[m]
                for t, mod in enumerate(self.cards[m].gears[self.gear[m]].attacks):
                    if mod is not None and (mod.pattern or lit >= mod.cost):
                        acts.append(ATTACK + t)
            declarable = bool(acts)
            if not self.skip_shift[m]:
                acts.extend(NEIGHBOURS[self.gear[m]])
            if not declarable:
                acts.append(PASS)
            return acts
        if ph in _START_END:
            if self.lit[m] >= 1 and not self.sshift_used:
                return [PASS, *NEIGHBOURS[self.gear[m]]]
            return [PASS]
        if ph == P_DEFEND:
            return self._defences()
        if ph == P_CRIT:
            return [PASS, *NEIGHBOURS[self.gear[m]]]
        return [FIRST, SECOND]  # P_TOSS

    def _is_legal(self, a: int) -> bool:
        """`a in self.legal_actions()`, without building the list (apply asks every time)."""
        ph = self.phase
        m = self.mover
        if ph == P_DEFEND:
            d = 1 - m
            lit = self.lit[d]
            return a in DEFENCES[self.gear[d]][lit if lit < 3 else 3]
        if ph == P_SHIFT:
            if a < ATTACK:
                return a >= 0 and not self.skip_shift[m] and a in NEIGHBOURS[self.gear[m]]
            if a < FIRST or a == PASS:
                return a in self.legal_actions()
            return False
        if ph in _START_END:
            if a == PASS:
                return True
            return (a in NEIGHBOURS[self.gear[m]] and self.lit[m] >= 1
                    and not self.sshift_used)
        if ph == P_CRIT:
            return a == PASS or a in NEIGHBOURS[self.gear[m]]
        if ph == P_TOSS:
            return a in _TOSS_CHOICES
        return False

    def _defences(self) -> list[int]:
        d = 1 - self.mover
        lit = self.lit[d]
        return list(DEFENCES[self.gear[d]][lit if lit < 3 else 3])

    # -- applying ------------------------------------------------------------------------------
    def apply(self, action: int, player: int | None = None) -> list[Event]:
        ph = self.phase
        if ph == P_OVER:
            raise IllegalAction("SH-14", "the game is over")
        who = 1 - self.mover if ph == P_DEFEND else self.mover  # current_players()[0]
        if player is not None and player != who:
            raise IllegalAction("SH-8", f"it is {player_label(who)}'s decision, "
                                        f"not {player_label(player)}'s")
        if action.__class__ is not int or not self._is_legal(action):
            raise IllegalAction(*self._why_illegal(action))
        ev: list[Event] = []
        self._do(action, ev)
        self._hist = (self._hist, who, action)  # State._push, inlined
        self._settle(ev)
        return ev

    def _settle(self, ev: list[Event]) -> None:
        """Apply every decision that has a single legal option (SH-39)."""
        while True:
            ph = self.phase
            if ph in _START_END:
                m = self.mover
                if self.lit[m] and not self.sshift_used:
                    return
                self._do(PASS, ev)
                continue
            if ph in _NO_SETTLE:
                return
            if ph == P_DEFEND:  # legal_actions() without its copy: only the count matters
                d = 1 - self.mover
                lit = self.lit[d]
                acts: Sequence[int] = DEFENCES[self.gear[d]][lit if lit < 3 else 3]
            elif not self.skip_shift[self.mover]:
                # the shift phase (the one phase left): a mover free to shift has both
                # neighbouring gears (NEIGHBOURS: two for every gear), so never one option;
                # only a skipped shift phase can leave a single attack or a lone pass
                return
            else:
                acts = self.legal_actions()
            if len(acts) != 1:
                return
            self._do(acts[0], ev)

    def _do(self, a: int, ev: list[Event]) -> None:
        ph = self.phase
        m = self.mover
        if ph == P_TOSS:
            self.first = m if a == FIRST else 1 - m
            ev.append(("first", self.first, m))
            self.mover = 1 - self.first
            self._next_turn(ev)
        elif ph == P_START:
            if a != PASS:
                self._spirit_shift(a, ev)
            self.phase = P_SHIFT
        elif ph == P_SHIFT:
            self.skip_shift[m] = False  # a pending skip is used by this shift phase (SH-35)
            if a < ATTACK:
                ev.append(("shift", m, self.gear[m], a))
                self.gear[m] = a
                self._end_phase(ev)
            elif a == PASS:
                ev.append(("pass", m))
                self._end_phase(ev)
            else:
                self.atk = a - ATTACK
                mod = self.attack_mod()
                assert mod is not None
                ev.append(("declare", m, ATTACK_TYPES[self.atk], mod.summary))
                self.phase = P_DEFEND
        elif ph == P_DEFEND:
            self._attack(a, ev)
        elif ph == P_CRIT:
            if a != PASS:
                ev.append(("crit_shift", m, self.gear[m], a))
                self.gear[m] = a
            self._end_phase(ev)
        elif ph == P_END:
            if a != PASS:
                self._spirit_shift(a, ev)
            self._end_turn(ev)

    def _spirit_shift(self, to: int, ev: list[Event]) -> None:
        m = self.mover
        self.lit[m] -= 1
        self.burnt[m] += 1
        self.sshift_used = True
        ev.append(("spirit_shift", m, self.gear[m], to))
        self.gear[m] = to

    # -- turn flow -----------------------------------------------------------------------------
    def _next_turn(self, ev: list[Event]) -> None:
        """Hand the turn to the other player, skipping a duo-skipped turn (SH-35, SH-38)."""
        while True:
            self.turn += 1
            self.mover = 1 - self.mover
            if not self.skip_turn[self.mover]:
                break
            self.skip_turn[self.mover] = False
            ev.append(("skipped", self.mover, self.turn))
            if self._turn_limit(ev):
                return
        m = self.mover
        ev.append(("turn", m, self.turn))
        self.sshift_used = False
        if self.tp[m] or self.tg[m]:  # SH-24
            ev.append(("cleanup", m, self.tp[m], self.tg[m]))
            self.tp[m] = self.tg[m] = 0
        self._fire(m, "turn_start", ev)
        self.phase = P_START

    def _turn_limit(self, ev: list[Event]) -> bool:
        if self.turn >= self.limit:
            self.winner = 2
            self.phase = P_OVER
            ev.append(("draw", f"turn limit {self.limit}"))
            return True
        return False

    def _end_phase(self, ev: list[Event]) -> None:
        m = self.mover
        self._fire(m, "turn_end", ev)
        if self.phase != P_OVER:
            self.phase = P_END

    def _end_turn(self, ev: list[Event]) -> None:
        if not self._turn_limit(ev):
            self._next_turn(ev)

    # -- attacks -------------------------------------------------------------------------------
    def _attack(self, defence: int, ev: list[Event]) -> None:
        a = self.mover
        d = 1 - a
        mod = self.attack_mod()
        assert mod is not None
        # defence declaration (SH-9, SH-27, SH-28): spirit is burnt now and stays burnt
        active, mask, chosen, cost = _GUARDING[defence - GUARD]
        gears = self.cards[d].gears
        add = 0
        for g in chosen:
            add += gears[g].guard
        self.guard_add = add
        self.guarded = bool(chosen)
        self.lit[d] -= cost
        self.burnt[d] += cost
        ev.append(("guard", d, active, mask, self.guard_add))
        if self.guarded:
            self._fire(d, "guard_declared", ev)
        # activation (SH-5, SH-19, SH-20, SH-22, SH-23)
        if mod.pattern:
            heads = tails = 0
            in_order = True
            purposes = _purposes("activation", len(mod.pattern))
            for i, face in enumerate(mod.pattern):
                h = self._coin(a, purposes[i], ev)
                if h:
                    heads += 1
                else:
                    tails += 1
                if face != "W" and (face == "H") != h:
                    in_order = False
            activated = heads >= mod.pattern.count("H") and tails >= mod.pattern.count("T")
            crit = activated and in_order and mod.critical is not None
        elif self.lit[a] >= mod.cost:
            self.lit[a] -= mod.cost
            self.burnt[a] += mod.cost
            ev.append(("pay", a, mod.cost))
            activated = True
            crit = mod.critical is not None
        else:
            activated = crit = False
        ev.append(("activation", a, activated, crit, mod.critical or ""))
        # mod resolution: extra coins first, then the effects in order
        if activated:
            n = mod.extra_coins
            coins = [self._coin(a, p, ev) for p in _purposes("extra", n)] if n else []
            self._run(mod.effects, a, ev, coins)
        # damage resolution (SH-10, SH-29)
        power = self.power(a)
        guard = self.guard(d)
        hit = power > guard
        ev.append(("compare", a, power, guard, hit))
        if hit:
            self._damage(d, "attack", ev)
            if self.phase == P_OVER:
                return
            if activated:
                self._run(mod.on_hit, a, ev)
                if self.phase == P_OVER:
                    return
            self._fire(a, "hit_dealt", ev)
            self._fire(d, "hit_taken", ev)
        elif activated:
            self._run(mod.on_miss, a, ev)
        # downshift (SH-11, SH-31)
        if self.gear[a]:
            ev.append(("downshift", a, self.gear[a]))
            self.gear[a] = 0
        if self.guarded and self.gear[d]:
            ev.append(("downshift", d, self.gear[d]))
            self.gear[d] = 0
        # critical (SH-12, SH-32..SH-36)
        shift_crit = False
        if crit:
            kind = mod.critical
            ev.append(("critical", a, kind, hit))
            if kind == "damage":
                if hit:
                    self._damage(d, "damage critical", ev)
            elif kind == "heal":
                self._heal(a, 1, ev)
            elif kind == "duo":
                self.skip_turn[d] = True
            elif kind == "refresh":
                self._refresh(a, TOKENS, ev)
            else:
                shift_crit = True
        self.atk = -1
        self.guarded = False
        self.guard_add = 0
        self.ignore = 0
        if self.phase == P_OVER:
            return
        if shift_crit:
            self.phase = P_CRIT
        else:
            self._end_phase(ev)

    def _damage(self, p: int, source: str, ev: list[Event]) -> None:
        """One damage token (SH-13, SH-14, SH-33, SH-37)."""
        if self.lit[p] + self.burnt[p] >= TOKENS:
            self.winner = 1 - p
            self.phase = P_OVER
            ev.append(("win", 1 - p, source))
            return
        self.lit[p] += 1
        ev.append(("damage", p, self.lit[p] + self.burnt[p], source))
        self._fire(p, "damage_taken", ev)

    def _heal(self, p: int, n: int, ev: list[Event]) -> None:
        done = 0
        for _ in range(n):
            if self.burnt[p]:
                self.burnt[p] -= 1
            elif self.lit[p]:
                self.lit[p] -= 1
            else:
                break
            done += 1
        ev.append(("heal", p, done))

    def _refresh(self, p: int, n: int, ev: list[Event]) -> None:
        k = min(n, self.burnt[p])
        self.burnt[p] -= k
        self.lit[p] += k
        ev.append(("refresh", p, k))

    def _fire(self, p: int, on: str, ev: list[Event]) -> None:
        """`p`'s triggers for `on`: ability first, then current-gear deltas (SH-40), from the
        card's table (`_triggers`): a moment with none costs a lookup."""
        found = self.triggers[p][self.gear[p]].get(on)
        if found is None:
            return
        for source, t in found:
            if self._holds(t.cond, p):
                ev.append(("trigger", p, source, on))
                self._run(t.do, p, ev)
                if self.phase == P_OVER:
                    return

    def _run(self, ops: tuple[Op, ...], owner: int, ev: list[Event],
             coins: list[bool] | None = None) -> None:
        for op in ops:
            if self.phase == P_OVER:
                return
            if op.cond is not None and not self._holds(op.cond, owner):
                continue
            k = op.op
            target = 1 - owner if op.opp else owner
            if k == "power":
                self.tp[target] += op.n
                ev.append(("stat", target, "power", op.n))
            elif k == "guard":
                self.tg[target] += op.n
                ev.append(("stat", target, "guard", op.n))
            elif k == "flip":
                assert coins is not None
                mine, coins[:] = coins[:op.coins], coins[op.coins:]
                want = op.per == "H"
                for h in mine:
                    if h == want:
                        self._run(op.do, owner, ev)
            elif k == "heal":
                self._heal(owner, op.n, ev)
            elif k == "refresh":
                self._refresh(owner, op.n, ev)
            elif k == "burn_opponent":
                o = 1 - owner
                n = min(op.n, self.lit[o])
                self.lit[o] -= n
                self.burnt[o] += n
                ev.append(("burn", o, n))
            elif k == "ignore_guard":
                self.ignore = max(self.ignore, 2 if op.part == "bonuses" else 1)
                ev.append(("ignore_guard", owner, op.part))
            elif k == "extra_damage":
                for _ in range(op.n):
                    self._damage(1 - owner, "extra damage", ev)
                    if self.phase == P_OVER:
                        return
            elif k == "skip_shift_phase":
                self.skip_shift[1 - owner] = True
                ev.append(("skip_shift_phase", 1 - owner))

    # -- why an action is illegal --------------------------------------------------------------
    def _why_illegal(self, a: object) -> tuple[str, str]:
        if isinstance(a, bool) or not isinstance(a, int):
            return "SH-8", f"{a!r} is not a Shift action"
        ph = self.phase
        m = self.mover
        name = self._phase_title()
        if not (0 <= a <= PASS or GUARD <= a < GUARD + 80):
            return "SH-8", f"{a!r} is not a Shift action"
        text = self.notation(a)
        if ph == P_TOSS:
            return "SH-6", f"{text!r}: the toss winner chooses 'first' or 'second'"
        if a >= GUARD:
            if ph == P_DEFEND:
                return self._defence_problem(*guard_parts(a))
            return "SH-8", f"{text!r}: guarding is declared only when defending, not in {name}"
        if ph == P_DEFEND:
            return "SH-28", f"{text!r}: the defender now declares its guarding (e.g. 'guard none')"
        if a in (FIRST, SECOND):
            return "SH-6", f"{text!r}: going first or second was decided at the toss"
        here = RING[self.gear[m]]
        if a < ATTACK:
            if a not in NEIGHBOURS[self.gear[m]]:
                return "SH-16", f"{text!r}: gear {RING[a]} is not next to gear {here} on the ring"
            if ph in _START_END:
                if self.sshift_used:
                    return "SH-26", f"{text!r}: only one spirit shift per turn"
                return "SH-22", f"{text!r}: a spirit shift burns 1 spirit and you have none"
            if ph == P_SHIFT and self.skip_shift[m]:
                return "SH-35", f"{text!r}: a card effect bars your shift this shift phase"
            return "SH-7", f"{text!r}: no shift now"
        if a == PASS:
            return "SH-22", ("'pass': you may pass only on game turn 1 or when your gear offers "
                             "no attack you can declare; attack or shift")
        # attacks
        if ph != P_SHIFT:
            return "SH-8", f"{text!r}: an attack is declared in the shift phase, not in {name}"
        if self.turn == 1:
            return "SH-21", f"{text!r}: the first player cannot attack on the first turn"
        mod = self.cards[m].gears[self.gear[m]].attacks[a - ATTACK]
        if mod is None:
            return "SH-17", f"{text!r}: gear {here} has no {ATTACK_TYPES[a - ATTACK]} mod"
        return "SH-22", (f"{text!r}: the mod costs {mod.cost} spirit and you have "
                         f"{self.lit[m]}")

    def _defence_problem(self, active: int, mask: int) -> tuple[str, str]:
        d = 1 - self.mover
        cur = self.gear[d]
        if active >= 0 and LEVELS[active] >= LEVELS[cur]:
            return "SH-27", (f"active guard needs a gear below level {LEVELS[cur]} (you are in "
                             f"gear {RING[cur]}); gear {RING[active]} is level {LEVELS[active]}")
        if mask >> cur & 1:
            return "SH-27", f"spirit guard cannot use your current gear {RING[cur]}"
        if active >= 0 and mask >> active & 1:
            return "SH-27", f"gear {RING[active]} is already added by the active guard"
        return "SH-22", (f"spirit guarding with {mask.bit_count()} gear(s) burns "
                         f"{mask.bit_count()} spirit and you have {self.lit[d]}")

    # -- the end -------------------------------------------------------------------------------
    # -- for learners (encoding.py, docs/shift.md "For learners") ----------------
    def action_id(self, action: int, player: int | None = None) -> int:
        return enc.action_id(action)

    def id_action(self, action_id: int, player: int | None = None) -> int:
        return enc.id_action(action_id)

    def apply_id(self, action_id: int, player: int | None = None) -> list[Event]:
        """`apply(id_action(action_id))`, an id in range mapped to its code at once (0..9 are
        their own codes, a defence's is its id plus a constant): a learner's every step
        comes this way. Anything else goes through `id_action`, which refuses it."""
        if type(action_id) is int and 0 <= action_id < enc.NUM_ACTIONS:
            return self.apply(action_id if action_id < 10 else action_id + _DEFENCE_CODE,
                              player)
        return self.apply(enc.id_action(action_id), player)

    def legal_ids(self, player: int | None = None) -> list[int]:
        """The ids of `legal_actions(player)`, ascending: the codes 0..9 are their own ids,
        and a defence's id is its code less a constant, read from a table made once."""
        if self.phase == P_DEFEND:
            d = 1 - self.mover
            if player is not None and player != d:
                return []
            lit = self.lit[d]
            return list(_DEFENCE_IDS[self.gear[d]][lit if lit < 3 else 3])
        acts = self.legal_actions(player)  # a fresh list of codes 0..9
        acts.sort()
        return acts

    def observation_tensor(self, player: int) -> list[float]:
        """`enc.observation(self.view(player), player)`, built without the view (its fast
        path: the same values, tested)."""
        return enc.fast_observation(self, player)

    def observation_entries(self, player: int) -> dict[int, float]:
        return enc.fast_entries(self, player)

    def observation_array(self, player: int) -> array:
        return enc.fast_array(self, player)

    def action_targets(self, action: int, player: int | None = None) -> tuple[str, ...]:
        """The gears of the deciding player's card an action involves, as the page draws them
        (`gear:0:2L`): a shift names the gear it goes to (a ring neighbour, SH-16); an attack
        the current gear it is made with; a defence its active-guard gear first, then the
        gears it spirit-guards with (SH-9, SH-28). The toss, first, second and pass name
        none."""
        if type(action) is not int or self.phase == P_OVER:
            return ()
        p = self.current_players()[0] if player is None else player
        if not 0 <= p <= 1:
            return ()
        keys = _GEAR_KEY[p]
        if 0 <= action < ATTACK:
            return (keys[action],)
        if ATTACK <= action < FIRST:
            return (keys[self.gear[p]],)
        if GUARD <= action < GUARD + 80:
            active, mask = guard_parts(action)
            gears = ([active] if active >= 0 else []) + gears_in(mask)
            return tuple(keys[g] for g in gears)
        return ()

    def describe_action(self, action: int, player: int | None = None) -> str:
        """The command in words, with its cost where it has one."""
        if 0 <= action < ATTACK:
            spirit = " (a spirit shift: burns 1 spirit)" if self.phase in _START_END else ""
            return f"shift to gear {RING[action]}{spirit}"
        if ATTACK <= action < FIRST:
            return f"declare an attack with {self.notation(action).split()[-1]}"
        if action == FIRST:
            return "go first"
        if action == SECOND:
            return "go second"
        if action == PASS:
            return "decline: no shift, no attack"
        return self.notation(action)

    def reveals(self, event: Event) -> bool:
        """Only a coin shows something new (SH-4); everything else is on the table."""
        return event[0] == "flip"

    def _set_outcome(self, outcome: Outcome) -> None:
        self.winner = 3 + outcome.winners[0]  # 3, 4: that player won by a resignation
        self.phase = P_OVER

    @property
    def is_over(self) -> bool:
        """`outcome is not None`, read from the one field that says it (every step asks)."""
        return self.winner >= 0

    @property
    def outcome(self) -> Outcome | None:
        w = self.winner
        if w < 0:
            return None
        if w >= 3:
            return Outcome((1.0, 0.0) if w == 3 else (0.0, 1.0), "resignation", (w - 3,),
                           kind=Termination.RESIGNATION)
        if w == 2:
            return Outcome((0.5, 0.5), "turn limit", kind=Termination.TURN_LIMIT)
        return Outcome((1.0, 0.0) if w == 0 else (0.0, 1.0), "damage", (w,),
                       kind=Termination.ELIMINATION)
