"""FieldShift's rules: the state, its legal commands, and what each command does.

Layout (flat lists of small ints, so `clone()` is a handful of slice copies):
- operators are indexed p*10 + n (player p in 0..1, operator n in 0..9), with per-operator
  lists `vit` (vitality), `loc` (sector 0..9, RESERVE or DEAD), `bleed` (bleed-out timer, 0 when
  not bleeding), `skl` (armed skill: 0 none, 1 armed, or turns/charges left) and `stamp`
  (arrival order in a sector);
- per-player values live in `pv`, PV_SIZE ints per player at offset p*PV_SIZE.
Cooldowns and bleed timers set on a turn keep their full value until the end of the owner's
next turn (FS-16, FS-12): a "fresh" cooldown is not counted down at the end of the turn in
which it was set; a bleed timer set on its owner's own turn starts at 6 and shows as 5.
"""

from __future__ import annotations

from array import array
from typing import ClassVar

from boardct.core.errors import BoardctError, IllegalAction
from boardct.core.game import (
    MESSAGE,
    RESUME,
    SUSPEND,
    Breach,
    Event,
    Game,
    Outcome,
    Setup,
    State,
    Termination,
)
from boardct.games.fieldshift import encoding as enc
from boardct.games.fieldshift import notation as nt
from boardct.games.fieldshift.tables import (
    ARTILLERY,
    ASSASSINATE,
    BASE,
    BLADE,
    BLEED_TURNS,
    CLASS_NAMES,
    COMMAND,
    COOLDOWN,
    DAMAGE,
    DISPUTE,
    FACILITY_NAMES,
    IN_RANGE,
    LONGWATCH,
    LSTD,
    MEDBAY,
    MEDIC,
    REJECT,
    RULESET_NAMES,
    RULESETS,
    SIGN,
    SKILL_NAMES,
    SPECIALIST,
    STDEX,
    TECHNICIAN,
    TERRAIN,
    TERRAIN_NAMES,
    TYPE_A,
    VIOLATION_MODES,
    VITALITY,
    effective_range,
)

RESERVE, DEAD = -1, -2

# Per-player values: offsets inside a player's block of `pv`.
CRATES, FAC, SKCD, SPCD, SKFRESH, SPFRESH, ARTREADY, MEDCTR, SEL, WATCH = 0, 1, 4, 5, 6, 7, 8, 9, \
    10, 11
PV_SIZE = 12

# Canonical command lists, precomputed.
_TWO = nt.TWO
# the action id of every command token (`enc.action_id`), looked up by `legal_ids`
_ID_OF_TOKEN = [a - _TWO if a >= _TWO else a + 100 for a in range(_TWO + 100)]
ID_OF_TOKEN = _ID_OF_TOKEN  # a command token's action id (`enc.action_id`), for the batch writers
_TOKEN_OF_ID = [_TWO + i if i < 100 else i - 100 for i in range(1100)]  # `enc.id_action`
_SWC = tuple(_TWO + 10 + t for t in range(10))
_MOV = tuple(_TWO + 20 + t for t in range(10))
_HIT = tuple(_TWO + 30 + t for t in range(10))
_RNF = tuple(_TWO + 40 + f for f in range(3))
_WDR = tuple(_TWO + 50 + f for f in range(3))
_RGP = tuple(_TWO + 60 + t for t in range(10))
_OVW = tuple(_TWO + 70 + t for t in range(10))
_SKL = tuple(_TWO + 80 + t for t in range(10))
_SPT = tuple(_TWO + 90 + t for t in range(10))
_SPT3 = _SPT[:3]
_ANSWERS = (_TWO + 1, _TWO + 0)
_ANSWERS_STDEX = (_TWO + 1, _TWO + 0, _TWO + 5)
_DISPUTE = _TWO + 6
# Per 10-bit mask of operators: the bits set, and the LSTD commands naming each of them.
BITS = tuple(tuple(n for n in range(10) if m >> n & 1) for m in range(1024))
_SWC_BY_MASK = tuple(tuple(_SWC[n] for n in bits) for bits in BITS)
_HIT_BY_MASK = tuple(tuple(_HIT[n] for n in bits) for bits in BITS)
_RGP_BY_MASK = tuple(tuple(_RGP[n] for n in bits) for bits in BITS)
_OVW_BY_MASK = tuple(tuple(_OVW[n] for n in bits) for bits in BITS)
_SKL_BY_MASK = tuple(tuple(_SKL[n] for n in bits) for bits in BITS)
# The same, joined as legal_actions lists them, so the hot path joins fewer pieces.
_MOV_SWC_BY_MASK = tuple(_MOV + swc for swc in _SWC_BY_MASK)
_OVW_SKL_BY_MASK = tuple(o + k for o, k in zip(_OVW_BY_MASK, _SKL_BY_MASK, strict=True))
_RGP_OVW_BY_MASK = tuple(r + o for r, o in zip(_RGP_BY_MASK, _OVW_BY_MASK, strict=True))
_RGP_OVW_SKL_BY_MASK = tuple(r + o for r, o in zip(_RGP_BY_MASK, _OVW_SKL_BY_MASK, strict=True))
# The withdrawals offered, per 3-bit mask of the facilities holding crates.
_WDR_BY_FLAGS = tuple(tuple(_WDR[f] for f in range(3) if m >> f & 1) for m in range(8))
# The same for STDEX's three-digit commands.
_SWP3_BY_MASK = tuple(tuple(100 + 10 * a + c for a in bits for c in bits if c != a)
                      for bits in BITS)
_MOV3_BY_MASK = tuple(tuple(200 + 10 * a + s for a in bits for s in range(10)) for bits in BITS)
_RGP3_BY_MASK = tuple(tuple(600 + n for n in bits) for bits in BITS)
_OVW3_BY_MASK = tuple(tuple(700 + n for n in bits) for bits in BITS)
# (instruction, middle digit or -1 for a two-digit token, target) for every token code.
_DECODE = tuple((a // 100, a // 10 % 10, a % 10) for a in range(1000)) + tuple(
    (a // 10, -1, a % 10) for a in range(100))
# _DECODE per ruleset, None for a token of the wrong shape there (FS-5: LSTD commands have two
# digits, the others three; AUX has two in all), so that `apply` checks the shape with the
# same lookup that decodes the token.
_DECODE_IN = tuple(tuple(d if (d[1] < 0) == (not rs) or (d[1] < 0 and not d[0]) else None
                         for d in _DECODE) for rs in range(3))
_SWC_TOKENS = frozenset(_SWC)
_N_TOKENS = len(_DECODE)  # 1100: three-digit tokens, then two-digit ones


def _group(action: int) -> str:
    """The instruction a token names (`action_group`): SWC and SWP share one instruction."""
    ins = (action - _TWO) // 10 if action >= _TWO else action // 100
    if ins == nt.SWC:
        return "SWC" if action >= _TWO else "SWP"
    return nt.INSTRUCTION_NAMES[ins]


_GROUPS = tuple(_group(a) for a in range(_N_TOKENS))  # made once: a legal list names each
# The keys of the board elements as the page renderer draws them (`action_targets`), made once.
_OP_KEY = tuple(f"op:{SIGN[i // 10]}{i % 10}" for i in range(20))
_SECTOR_KEY = tuple(f"sector:{s}" for s in range(10))
_FAC_KEY = tuple(tuple(f"fac:{p}:{f}" for f in range(3)) for p in range(2))


def op_name(i: int) -> str:
    """'+3' for player 1's operator 3, '-3' for player 2's."""
    return f"{SIGN[i // 10]}{i % 10}"


_BLADE_MEDIC = (BLADE, MEDIC)  # made once: `in (BLADE, MEDIC)` builds its tuple each time
# Per player, for the LSTD legal_actions: own first operator, the enemy's, the places in `pv`
# of the selection, crates, the three facilities, the skill cooldown, the artillery's readiness
# and the support cooldown (each offset added once here, not on every call), the enemy
# Technician and own Medic (the other of each class is 5 further on), and the enemies'
# indices per mask.
_LSTD_AT = tuple((b, 10 - b, o + SEL, o + CRATES, o + FAC, o + FAC + 1, o + FAC + 2, o + SKCD,
                  o + ARTREADY, o + SPCD, 10 - b + TECHNICIAN, b + MEDIC,
                  tuple(tuple(10 - b + n for n in bits) for bits in BITS))
                 for b, o in ((0, 0), (10, PV_SIZE)))
_HIT_OF = _HIT + _HIT  # the HIT command naming operator i of either side: _HIT_OF[i]
# Per selected operator (0..19) and 10-bit mask of its side's active operators: MOV then the
# SWC commands of the others (the selected one is not offered to itself).
_MOV_SWC_BY_SEL = tuple(tuple(_MOV_SWC_BY_MASK[m & ~(1 << (sel % 10))] for m in range(1024))
                        for sel in range(20))
# The RNF and WDR commands, per (crates > 0)(artillery > 0)(medbay > 0)(command > 0): nested by
# bool, as legal_actions asks them.
_RNF_WDR = tuple(tuple(tuple(tuple((_RNF if c else ()) + _WDR_BY_FLAGS[a | m << 1 | k << 2]
                                   for k in (0, 1)) for m in (0, 1)) for a in (0, 1))
                 for c in (0, 1))
# The commands after RGP/OVW when not under Cyberwarfare, per (skill ready) * 3 + (support:
# 0 none, 1 the three facilities, 2 the artillery shot over any sector) and mask of own active
# operators: OVW, SKL if ready, SPT; and the same with this side's RGP (retreats) in front.
_OVW_TAIL = tuple(tuple(_OVW_BY_MASK[m] + (_SKL_BY_MASK[m] if ready else ())
                        + ((), _SPT3, _SPT)[spt] for m in range(1024))
                  for ready in (0, 1) for spt in (0, 1, 2))
_RGP_OVW_TAIL = tuple(tuple(r + t for r, t in zip(_RGP_BY_MASK, tail, strict=True))
                      for tail in _OVW_TAIL)
_REACH_LSTD = IN_RANGE[LSTD]
_SEATS = ((0,), (1,))  # current_players() answers, made once: a playout asks every action
# Per side's first index (0 or 10) and 10-bit mask of its operators: their indices.
_SIDE_OPS = {b: tuple(tuple(b + n for n in bits) for bits in BITS) for b in (0, 10)}
# Per player, where the end of a turn (in `apply`) finds what it counts down: skill and
# support freshness and cooldowns, the medbay counter, the medbay, the player's first operator
# and its side's operators by mask (`_SIDE_OPS[b]`); then the other player, their watch and
# their first Technician.
_TURN_END = tuple((o + SKFRESH, o + SKCD, o + SPFRESH, o + SPCD, o + MEDCTR, o + FAC + MEDBAY,
                   p * 10, _SIDE_OPS[p * 10], 1 - p, (1 - p) * PV_SIZE + WATCH,
                   (1 - p) * 10 + TECHNICIAN)
                  for p, o in ((0, 0), (1, PV_SIZE)))
# Per player, for `_rgp`: the first operator, the places of the watch, the selection and the
# crates in `pv`, and the enemy's first Technician.
_RGP_AT = tuple((p * 10, o + WATCH, o + SEL, o + CRATES, (1 - p) * 10 + TECHNICIAN)
                for p, o in ((0, 0), (1, PV_SIZE)))
# Per player, for `_mov`: the place of the selection in `pv`, the first operator, the enemy's
# two Longwatches and the enemy's watch.
_MOV_AT = tuple((o + SEL, p * 10, (1 - p) * 10 + LONGWATCH, (1 - p) * 10 + 5 + LONGWATCH,
                 (1 - p) * PV_SIZE + WATCH) for p, o in ((0, 0), (1, PV_SIZE)))


_OP_NAME = tuple(op_name(i) for i in range(20))
_OP_CLASS = tuple(CLASS_NAMES[i % 5] for i in range(20))
_TERRAIN_NAMES = tuple(TERRAIN_NAMES[t] for t in TERRAIN)
_SUPPORT_WORDS = ("readies the Artillery: the next SPT names a sector", "heals with the Medbay",
                  "swaps reserve and field with the Command center")


def _answer_words(pending: tuple[str, int, int], ins: int, x: int) -> str:
    """`describe_action` of an answer to the pending request (FS-37); empty: not an answer."""
    kind, requester, target = pending
    who = f"Player {2 - requester}"
    if ins != nt.AUX:
        return ""
    if x == nt.DENY:
        return f"{who} denies the {'draw' if kind == 'draw' else 'ruleset change'}"
    if x == nt.CONFIRM:
        if kind == "draw":
            return f"{who} accepts the draw: the game ends drawn"
        return f"{who} accepts: the ruleset changes to {RULESET_NAMES[target]}"
    if x == nt.REQ_RULESET and kind == "ruleset" and target == STDEX:
        return (f"{who} accepts the change to {RULESET_NAMES[STDEX]} and asks for "
                f"{RULESET_NAMES[TYPE_A]}")
    return ""


def _aux_words(state: FieldShiftState, p: int, x: int) -> str:
    """`describe_action` of an AUX command (FS-20, FS-37); empty: nothing more to say than
    its notation."""
    if x == nt.CONCEDE:
        return f"Player {p + 1} concedes the game"
    if x == nt.REQ_DRAW:
        return f"Player {p + 1} requests a draw"
    if x == nt.REQ_RULESET and state.ruleset != TYPE_A:
        return (f"Player {p + 1} requests a ruleset change ({RULESET_NAMES[state.ruleset]} "
                f"--> {RULESET_NAMES[state.ruleset + 1]})")
    if x == nt.DISPUTE_CMD:  # upheld only against a violation still open (FS-19)
        if state.mode == DISPUTE and state._violators(1 - p):
            reasons = "; ".join(r for who, rs in state.violations if who == 1 - p for r in rs)
            return f"Player {p + 1} disputes: upheld ({reasons})"
        return f"Player {p + 1} disputes, but there is no violation: the turn ends"
    if x == nt.GOOD_GAME:
        return "Good game"
    return ""


class FieldShiftState(State[int]):
    __slots__ = (
        "ruleset", "mode", "limit", "cur", "turn", "vit", "loc", "bleed", "skl", "stamp",
        "clock", "pv", "pending", "violations", "_outcome", "_left",
        "act", "res", "_ranks",
    )
    game: ClassVar[Game]  # set by the Game at import
    ruleset: int  # an index into RULESETS
    mode: int  # an index into VIOLATION_MODES
    limit: int
    cur: int
    turn: int
    vit: list[int]
    loc: list[int]
    bleed: list[int]
    skl: list[int]
    stamp: list[int]
    clock: int
    pv: list[int]
    # (kind, requester, target ruleset or -1): kind "ruleset" or "draw"; None: no request
    pending: tuple[str, int, int] | None
    violations: tuple[tuple[int, tuple[str, ...]], ...]  # (violator, reasons) (FS-36)
    _outcome: Outcome | None
    _left: bool
    act: int  # bit mask of the operators alive and deployed
    res: int  # bit mask of the operators alive in reserve
    # the observation's stacking order, remembered with what it holds for (`enc.ranks`):
    # (clock, operators off the board, each operator's place in its sector's stack)
    _ranks: tuple[int, int, list[int]] | None

    # ---------------------------------------------------------------- setup (FS-1..FS-4)
    @classmethod
    def initial(cls, setup: Setup) -> FieldShiftState:
        s = cls.__new__(cls)
        s.setup = setup
        s._hist = None
        s.ruleset = RULESETS.index(setup.options["ruleset"])
        s.mode = VIOLATION_MODES.index(setup.options["violations"])
        s.limit = setup.options["turn_limit"]
        s.cur = 0
        s.turn = 0
        s.vit = [VITALITY] * 20
        s.loc = [BASE[i // 10] if i % 10 < 5 else RESERVE for i in range(20)]
        s.bleed = [0] * 20
        s.skl = [0] * 20
        s.stamp = list(range(20))
        s.clock = 20
        block = [1, 0, 0, 0, COOLDOWN, COOLDOWN, 0, 0, 0, 0, 0, -1]
        s.pv = block + block
        s.pv[PV_SIZE + SEL] = 10
        s.pending = None  # (kind, requester, target ruleset): kind "ruleset" or "draw"
        s.violations = ()  # ((violator, reasons), ...) not yet expired (FS-36)
        s._outcome = None
        s._left = False
        s._ranks = None
        s._resync()
        return s

    def _resync(self) -> None:
        """Recompute the bit masks `act` (alive and deployed) and `res` (alive in reserve) from
        `vit` and `loc`; the rules keep them in step, this is for positions built by hand."""
        act = res = 0
        for i in range(20):
            if self.vit[i] > 0:
                if self.loc[i] >= 0:
                    act |= 1 << i
                elif self.loc[i] == RESERVE:
                    res |= 1 << i
        self.act = act
        self.res = res
        self._ranks = None  # a position set by hand: its stacking order worked out again

    def clone(self) -> FieldShiftState:
        s = FieldShiftState.__new__(FieldShiftState)
        s.setup = self.setup
        s._hist = self._hist
        s.ruleset = self.ruleset
        s.mode = self.mode
        s.limit = self.limit
        s.cur = self.cur
        s.turn = self.turn
        s.vit = self.vit[:]
        s.loc = self.loc[:]
        s.bleed = self.bleed[:]
        s.skl = self.skl[:]
        s.stamp = self.stamp[:]
        s.clock = self.clock
        s.pv = self.pv[:]
        s.pending = self.pending
        s.violations = self.violations
        s._outcome = self._outcome
        s._left = False
        s.act = self.act
        s.res = self.res
        s._ranks = self._ranks
        return s

    def search_key(self) -> tuple:
        """Every slot the rules and the evaluation read, as one tuple (not the history but for
        its last command, which decides whether a second switch is offered: FS-5 `_lstd`).
        MCTS reuses a position's move scores when a transposition reaches it again (a quarter
        of a 10,000-iteration search's expansions)."""
        h = self._hist
        return (self.cur, self.turn, self.clock, self.pending, self.violations, self.ruleset,
                self.mode, self.limit, self._outcome, None if h is None else h[2],
                self.act, self.res,
                array("i", self.vit + self.loc + self.bleed + self.skl + self.stamp
                      + self.pv).tobytes())

    # ---------------------------------------------------------------- queries
    def current_players(self) -> tuple[int, ...]:
        if self._outcome is not None:
            return ()
        if self.pending is not None:
            return _SEATS[1 - self.pending[1]]
        return _SEATS[self.cur]

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def selected(self, player: int) -> int:
        """The LSTD selected operator's index (p*10 + n), or -1."""
        return self.pv[player * PV_SIZE + SEL]

    def crates(self, player: int) -> int:
        return self.pv[player * PV_SIZE + CRATES]

    def facility(self, player: int, f: int) -> int:
        return self.pv[player * PV_SIZE + FAC + f]

    def skill_cooldown(self, player: int) -> int:
        return self.pv[player * PV_SIZE + SKCD]

    def support_cooldown(self, player: int) -> int:
        return self.pv[player * PV_SIZE + SPCD]

    def artillery_ready(self, player: int) -> bool:
        return bool(self.pv[player * PV_SIZE + ARTREADY])

    def watcher(self, player: int) -> int:
        return self.pv[player * PV_SIZE + WATCH]

    def bleed_timer(self, i: int) -> int:
        """The bleed-out turns shown for operator i (0 when not bleeding)."""
        return min(self.bleed[i], BLEED_TURNS)

    def is_active(self, i: int) -> bool:
        """Alive (vitality >= 1) and deployed on the field."""
        return self.vit[i] > 0 and self.loc[i] >= 0

    def under_cyber(self, player: int) -> bool:
        """Whether an enemy Technician's Cyberwarfare binds `player` (FS-16)."""
        q = (1 - player) * 10
        return self.skl[q + TECHNICIAN] > 0 or self.skl[q + 5 + TECHNICIAN] > 0

    def sector(self, s: int) -> list[int]:
        """Operators on sector s (living or bleeding), in arrival order."""
        loc = self.loc
        return sorted((i for i in range(20) if loc[i] == s), key=self.stamp.__getitem__)

    def _violators(self, player: int) -> bool:
        return any(who == player for who, _ in self.violations)

    # ---------------------------------------------------------------- legal commands
    def legal_actions(self, player: int | None = None) -> list[int]:
        """Every command that plays the game (FS-20 requests, suspend and concede are left to
        the front end), as canonical tokens; answers while a request is pending. For a
        `player` whose decision it is not: none (a learner's mask for the other seat is empty)."""
        if self._outcome is not None:
            return []
        pending = self.pending
        p = self.cur
        if pending is not None:
            if player is not None and player != 1 - pending[1]:
                return []
            return list(_ANSWERS_STDEX if pending[0] == "ruleset" and pending[2] == STDEX
                        else _ANSWERS)
        if player is not None and player != p:
            return []
        if self.ruleset != LSTD:
            b = p * 10
            o = p * PV_SIZE
            skl = self.skl
            q = 10 - b
            cyber = skl[q + TECHNICIAN] > 0 or skl[q + 5 + TECHNICIAN] > 0
            medic = skl[b + MEDIC] > 0 or skl[b + 5 + MEDIC] > 0
            ops = [b + n for n in BITS[(self.act >> b) & 1023]]
            foes = [q + n for n in BITS[(self.act >> q) & 1023]]
            out = self._legal_stdex(p, b, o, ops, foes, self.pv[o + CRATES], cyber, medic)
            if self.violations and self.mode == DISPUTE and self._violators(1 - p):
                out.append(_DISPUTE)
            return out
        # LSTD, inline: this is the hot path of every playout. The order of the commands is
        # part of the behaviour (a seeded agent picks by position): keep it.
        b, q, osel, ocrates, ofac0, ofac1, ofac2, oskcd, oart, ospcd, tech, med, foes_by = \
            _LSTD_AT[p]
        pv = self.pv
        skl = self.skl
        act = self.act
        sel = pv[osel]
        mine = (act >> b) & 1023
        hist = self._hist
        if hist is None or hist[2] not in _SWC_TOKENS:
            # a second SWC in a row could replace the first: not offered, so that no agent
            # can switch forever without ending its turn
            out = list(_MOV_SWC_BY_SEL[sel][mine])
        else:
            out = list(_MOV)
        loc = self.loc
        if skl[med] or skl[med + 5]:  # an armed Medic: the HIT revives (FS-30)
            # only one neither deployed nor in reserve (alive) can be bleeding out
            vit = self.vit
            for n in BITS[(~(act | self.res) >> b) & 1023]:
                if vit[b + n] == 0 and loc[b + n] >= 0:
                    out.append(_HIT[n])
        else:
            cls = sel % 5
            if cls == BLADE and skl[sel]:
                out += _HIT_BY_MASK[(act >> q) & 1023]
            else:
                reach = _REACH_LSTD[cls][loc[sel]]
                for t in foes_by[(act >> q) & 1023]:
                    if loc[t] in reach:
                        out.append(_HIT_OF[t])
        crates = pv[ocrates]
        out += _RNF_WDR[crates > 0][pv[ofac0] > 0][pv[ofac1] > 0][pv[ofac2] > 0]
        if skl[tech] or skl[tech + 5]:  # under Cyberwarfare (FS-16)
            out += _RGP_OVW_BY_MASK[mine]
        else:
            tail = (pv[oskcd] == 0) * 3 + (2 if pv[oart] else pv[ospcd] == 0)
            if crates > 0 and (res := (self.res >> b) & 1023):
                out += _RGP_BY_MASK[mine]
                out += _RGP_BY_MASK[res]
                out += _OVW_TAIL[tail][mine]
            else:
                out += _RGP_OVW_TAIL[tail][mine]
        if self.violations and self.mode == DISPUTE and self._violators(1 - p):
            out.append(_DISPUTE)
        return out

    def _legal_stdex(self, p, b, o, ops, foes, crates, cyber, medic) -> list[int]:
        pv, vit, loc, skl = self.pv, self.vit, self.loc, self.skl
        q = 10 - b
        mine = (self.act >> b) & 1023
        out = list(_SWP3_BY_MASK[mine])
        out += _MOV3_BY_MASK[mine]
        bleeding = [i for i in range(b, b + 10) if vit[i] == 0 and loc[i] >= 0] if (
            mine | ((self.res >> b) & 1023)) != 1023 else []
        if medic:
            # the revive is the next HIT command, its middle digit ignored (FS-30, FS-41): the
            # canonical token has 0 there, as every other ignored digit
            for i in bleeding:
                out.append(300 + i - b)
        else:
            rng = IN_RANGE[self.ruleset]
            for a in ops:
                base = 300 + 10 * (a - b)
                if (a - b) % 5 == BLADE and skl[a]:
                    for t in foes:
                        out.append(base + t - q)
                else:
                    reach = rng[(a - b) % 5][loc[a]]
                    for t in foes:
                        if loc[t] in reach:
                            out.append(base + t - q)
        for n in range(1, min(crates, 9) + 1):  # the count is one digit
            out.extend((400 + 10 * n, 401 + 10 * n, 402 + 10 * n))
        for f in range(3):
            for n in range(1, min(pv[o + FAC + f], 9) + 1):
                out.append(500 + 10 * n + f)
        out += _RGP3_BY_MASK[mine]
        if crates > 0 and not cyber:
            out += _RGP3_BY_MASK[(self.res >> b) & 1023]
        out += _OVW3_BY_MASK[mine]
        if not cyber:
            if pv[o + SKCD] == 0:
                for a in ops:
                    n = a - b
                    cls = n % 5
                    if cls == BLADE:
                        for t in foes:
                            out.append(800 + 10 * n + t - q)
                    elif cls == MEDIC:
                        for t in bleeding:
                            out.append(800 + 10 * n + t - b)
                    else:
                        out.append(800 + n)
            if pv[o + ARTREADY]:
                out.extend(range(900, 910))
            elif pv[o + SPCD] == 0:
                out.extend((900, 901, 902))
        return out

    # ---------------------------------------------------------------- notation
    def parse(self, text: str, player: int | None = None) -> int:
        return nt.parse(text, self.ruleset)

    def notation(self, action: int) -> str:
        return nt.notation(action)

    # ---------------------------------------------------------------- applying a command
    def apply(self, action: int, player: int | None = None) -> list[Event]:
        """Carry out one command token. Raises `IllegalAction`/`ParseError` and changes nothing
        when the command cannot happen; otherwise returns its events."""
        if self._outcome is not None:
            raise IllegalAction("FS-21", "the game is over")
        if type(action) is not int or action < 0:
            raise IllegalAction("FS-5", f"{action!r} is not a FieldShift command token")
        try:
            decoded = _DECODE_IN[self.ruleset][action]
        except IndexError:  # 1100 and above
            raise IllegalAction("FS-5", f"{action!r} is not a FieldShift command token") from None
        pending = self.pending
        if player is not None and player != (self.cur if pending is None else 1 - pending[1]):
            raise IllegalAction("FS-1", f"it is not Player {player + 1}'s decision")
        if decoded is None:  # the wrong number of digits for the ruleset
            if _DECODE[action][1] < 0:
                raise IllegalAction("FS-5", f"{nt.notation(action)}: {RULESET_NAMES[self.ruleset]} "
                                    "commands have three digits; only AUX may have two")
            raise IllegalAction("FS-5", f"{nt.notation(action)}: LSTD commands have two digits")
        ins, mid, tgt = decoded
        if pending is not None:
            return self._answer(pending, action, ins, tgt)
        events: list[Event]
        if ins:
            events = []
            ends = _HANDLERS[ins](self, mid, tgt, events)  # type: ignore[misc]  # ins > 0
        elif tgt == nt.DISPUTE_CMD and not (self.mode == DISPUTE
                                            and self._violators(1 - self.cur)):
            # a false dispute (FS-19): it ends the disputer's turn, as a command does
            events = [("dispute", self.cur, False, ())]
            ends = True
        else:
            return self._aux(action, tgt)
        issuer = self.cur
        self._hist = (self._hist, issuer, action)
        # End of the command (FS-38): end the turn if the command ends it (cooldowns,
        # bleeding, medbay, Cyberwarfare, turn counter; then the other player's turn starts,
        # and their watch and the chance to dispute them expire), then the win check, then
        # the turn limit. Written out here, the only place a turn ends: every command of a
        # playout passes here, and a call more costs some 2% of a playout.
        if ends:
            pv = self.pv
            (skfresh, skcd, spfresh, spcd, medctr, medbay, b, side_ops, q, qwatch,
             qtech) = _TURN_END[issuer]
            if pv[skfresh]:
                pv[skfresh] = 0
            elif pv[skcd]:
                pv[skcd] -= 1
            if pv[spfresh]:
                pv[spfresh] = 0
            elif pv[spcd]:
                pv[spcd] -= 1
            gone = (~(self.act | self.res) >> b) & 1023
            if gone:
                bleed = self.bleed
                for i in side_ops[gone]:
                    if bleed[i]:
                        bleed[i] -= 1
                        if bleed[i] == 0:
                            self.loc[i] = DEAD
                            events.append(("dies", i))
            n = pv[medctr] + 1
            c = pv[medbay]
            if n + c >= 4:  # FS-34: every max(1, 4 - c) turns (n >= 1 and c >= 0)
                pv[medctr] = 0
                amount = c - 2 if c > 3 else 1  # 1 + max(0, c - 3)
                vit = self.vit
                for i in side_ops[(self.res >> b) & 1023]:  # alive in reserve, in order
                    if vit[i] < VITALITY:
                        vit[i] = min(VITALITY, vit[i] + amount)
                        events.append(("heal", i, vit[i]))
            else:
                pv[medctr] = n
            skl = self.skl
            if skl[qtech]:
                skl[qtech] -= 1
            if skl[qtech + 5]:
                skl[qtech + 5] -= 1
            self.turn = turn = self.turn + 1
            self.cur = q
            pv[qwatch] = -1
            if self.violations:
                self.violations = tuple(v for v in self.violations if v[0] != q)
            events.append(("turn", q, turn))
            if self._left:
                self._left = False
                act = self.act
                if not (act & 1023 and act >> 10) and self._outcome is None:
                    self._check_win(issuer, events)
            if self.limit and turn >= self.limit and self._outcome is None:
                self._finish(Outcome((0.5, 0.5), "turn limit", kind=Termination.TURN_LIMIT), events)
        elif self._left:
            self._left = False
            act = self.act
            if not (act & 1023 and act >> 10) and self._outcome is None:
                self._check_win(issuer, events)
        return events

    # -- the pieces every instruction uses
    def _actor(self, mid: int) -> int:
        """The friendly operator acting: the selected one (LSTD) or the middle digit (FS-5/6)."""
        i = self.pv[self.cur * PV_SIZE + SEL] if mid < 0 else self.cur * 10 + mid
        if i < 0 or self.vit[i] <= 0 or self.loc[i] < 0:
            raise IllegalAction("FS-8", f"operator {op_name(i) if i >= 0 else '?'} "
                                f"{self._why_not_active(i)}")
        return i

    def _why_not_active(self, i: int) -> str:
        if i < 0:
            return "is not on the field"
        if self.loc[i] == DEAD:
            return "is dead"
        if self.loc[i] == RESERVE:
            return "is in reserve"
        if self.vit[i] == 0:
            return "is bleeding out"
        return "cannot act"

    def _enemy(self, tgt: int) -> int:
        t = (1 - self.cur) * 10 + tgt
        if not self.is_active(t):
            raise IllegalAction("FS-8", f"target {op_name(t)} {self._why_not_active(t)}")
        return t

    def _violation(self, reasons: list[str], events: list[Event]) -> None:
        """FS-18/19: refuse in reject mode; otherwise carry out and remember for a dispute."""
        if not reasons:
            return
        if self.mode == REJECT:
            raise IllegalAction("FS-18", "rule violation: " + "; ".join(reasons))
        self.violations = self.violations + ((self.cur, tuple(reasons)),)
        events.append(("violation", self.cur, tuple(reasons)))

    def _cyber_reason(self) -> str:
        return "under enemy Cyberwarfare (FS-16)"

    def _stamp(self, i: int) -> None:
        self.stamp[i] = self.clock
        self.clock += 1

    def _leave(self, i: int) -> None:
        """Operator i bleeds out or leaves the field: its skill effects end (FS-29), its watch
        ends (FS-28), the LSTD selection moves on (FS-6)."""
        self.skl[i] = 0
        self._left = True
        o = (i // 10) * PV_SIZE
        pv = self.pv
        if pv[o + WATCH] == i:
            pv[o + WATCH] = -1
        if pv[o + SEL] == i:  # callers have already taken i out of the `act` mask
            b = (i // 10) * 10
            mine = (self.act >> b) & 1023
            pv[o + SEL] = b + BITS[mine][0] if mine else -1

    def _damage(self, t: int, dmg: int, source: str, by: int, events: list[Event]) -> None:
        v = self.vit[t] - dmg
        if v < 0:
            v = 0
        self.vit[t] = v
        events.append(("damage", source, by, t, dmg, v))
        if v == 0:
            self._down(t, events)

    def _down(self, t: int, events: list[Event]) -> None:
        """FS-12: vitality 0 starts the bleed-out; the other player gains a crate."""
        self.vit[t] = 0
        self.act &= ~(1 << t)
        owner = t // 10
        self.bleed[t] = BLEED_TURNS + (owner == self.cur)
        self._leave(t)
        killer = 1 - owner
        self.pv[killer * PV_SIZE + CRATES] += 1
        events.append(("down", t, killer))

    def _move(self, i: int, dest: int, events: list[Event]) -> bool:
        """A MOV or one half of a SWP (FS-9/10/15/27/28, Longwatch FS-16). Returns whether the
        operator is still standing afterwards."""
        q = 1 - i // 10
        qb = q * 10
        skl, loc = self.skl, self.loc
        if skl[qb + LONGWATCH] or skl[qb + 5 + LONGWATCH]:
            lw = qb + LONGWATCH if skl[qb + LONGWATCH] else qb + 5 + LONGWATCH
            skl[lw] = 0
            events.append(("longwatch", lw, i))
            self._damage(i, self.vit[i], "longwatch", lw, events)
            return False
        src = loc[i]
        w = self.pv[q * PV_SIZE + WATCH]
        if w >= 0 and dest != src:
            reach = IN_RANGE[self.ruleset][w % 5][loc[w]]
            was, will = src in reach, dest in reach
            if was and not will:
                self.pv[q * PV_SIZE + WATCH] = -1
                self._damage(i, DAMAGE[self.ruleset][loc[w]][src], "overwatch", w, events)
                if self.vit[i] == 0:
                    return False
            elif will and not was:
                self.pv[q * PV_SIZE + WATCH] = -1
                loc[i] = dest
                self._stamp(i)
                events.append(("move", i, src, dest))
                self._damage(i, DAMAGE[self.ruleset][loc[w]][dest], "overwatch", w, events)
                return self.vit[i] > 0
        loc[i] = dest
        self.stamp[i] = self.clock
        self.clock += 1
        events.append(("move", i, src, dest))
        return True

    # ---------------------------------------------------------------- instructions
    def _swc_swp(self, mid: int, tgt: int, events: list[Event]) -> bool:
        b = self.cur * 10
        if mid < 0:  # LSTD SWC (FS-6)
            i = b + tgt
            if self.vit[i] <= 0 or self.loc[i] < 0:  # not is_active(i)
                raise IllegalAction("FS-6", f"cannot select {op_name(i)}: it "
                                    f"{self._why_not_active(i)}")
            self.pv[self.cur * PV_SIZE + SEL] = i
            events.append(("select", i))
            return False
        a, c = b + mid, b + tgt  # STDEX SWP (FS-10, FS-27)
        if a == c:
            raise IllegalAction("FS-27", f"SWP needs two different operators, not {op_name(a)} "
                                "twice")
        for i in (a, c):
            if not self.is_active(i):
                raise IllegalAction("FS-8", f"cannot swap {op_name(i)}: it "
                                    f"{self._why_not_active(i)}")
        sa, sc = self.loc[a], self.loc[c]
        events.append(("swap", a, c))
        # FS-27 (amended), as the author's tool does it: b (the third digit) moves first, into
        # a's sector, then a into b's old sector. Each half is a move of its own (a Longwatch
        # or a watch may fire on either); a b brought to 0 stays put and a still moves. Only the
        # mover can be hit, so a is still on the field for the second half.
        self._move(c, sa, events)
        self._move(a, sc, events)
        return True

    def _mov(self, mid: int, tgt: int, events: list[Event]) -> bool:
        # _actor(mid), its test inlined (it raises with the reason when the test fails)
        osel, b, lw, lw5, qwatch = _MOV_AT[self.cur]
        pv = self.pv
        i = pv[osel] if mid < 0 else b + mid
        loc = self.loc
        if i < 0 or self.vit[i] <= 0 or loc[i] < 0:
            i = self._actor(mid)
        skl = self.skl
        if skl[lw] or skl[lw5] or pv[qwatch] >= 0:
            self._move(i, tgt, events)
            return True
        # _move's last lines: with no Longwatch armed and no watch set nothing can fire
        src = loc[i]
        loc[i] = tgt
        self.stamp[i] = self.clock
        self.clock += 1
        events.append(("move", i, src, tgt))
        return True

    def _hit(self, mid: int, tgt: int, events: list[Event]) -> bool:
        p = self.cur
        b = p * 10
        skl = self.skl
        medic = b + MEDIC if skl[b + MEDIC] else (b + 5 + MEDIC if skl[b + 5 + MEDIC] else -1)
        if medic >= 0:
            # FS-30/FS-41: the armed Medic's revive takes this HIT, whoever makes it. Under LSTD
            # that is the selected operator; a Medic armed under LSTD stays armed across a switch
            # to STDEX, and then `3xt` revives t with x ignored: x is not the actor, so a reserve,
            # bleeding or dead x is no reason to refuse it (it is not even checked).
            return self._revive(medic, b + tgt, events)
        a = self._actor(mid)
        t = self._enemy(tgt)
        if a % 5 == BLADE and skl[a]:
            self._assassinate(a, t, events)
            return True
        la, lt = self.loc[a], self.loc[t]
        if lt not in IN_RANGE[self.ruleset][a % 5][la]:
            raise IllegalAction("FS-11", f"{op_name(t)} on sector {lt} is out of range of "
                                f"{op_name(a)} on sector {la}: distance {abs(la - lt)}, "
                                f"effective range {effective_range(self.ruleset, a % 5, la, lt)}")
        self._damage(t, DAMAGE[self.ruleset][la][lt], "hit", a, events)
        if a % 5 == SPECIALIST and skl[a]:  # Quick draw (FS-16)
            skl[a] -= 1
            events.append(("quickdraw", a, skl[a]))
            return False
        return True

    def _revive(self, medic: int, t: int, events: list[Event]) -> bool:
        if not (self.vit[t] == 0 and self.loc[t] >= 0):
            raise IllegalAction("FS-30", f"Extend is armed: the HIT must name a friendly "
                                f"operator who is bleeding out; {op_name(t)} "
                                f"{'is not' if self.loc[t] >= 0 else self._why_not_active(t)}"
                                f"{' bleeding out' if self.loc[t] >= 0 else ''}")
        self.skl[medic] = 0
        self.vit[t] = VITALITY
        self.act |= 1 << t
        self.bleed[t] = 0
        events.append(("revive", medic, t))
        return True

    def _assassinate(self, a: int, t: int, events: list[Event]) -> None:
        """FS-16/FS-31: the Blade moves to the target's sector (triggering nothing) and strikes."""
        self.skl[a] = 0
        dest = self.loc[t]
        src = self.loc[a]
        self.loc[a] = dest
        self._stamp(a)
        events.append(("move", a, src, dest))
        self._damage(t, ASSASSINATE[dest], "assassinate", a, events)

    def _count(self, mid: int) -> int:
        if mid < 0:
            return 1
        if mid == 0:
            raise IllegalAction("FS-25", "a crate count of 0 moves nothing; use 1 to 9")
        return mid

    def _facility(self, f: int) -> int:
        if f > 2:
            raise IllegalAction("FS-8", f"there is no facility {f}: 0 Artillery, 1 Medbay, "
                                "2 Command center")
        return f

    def _rnf(self, mid: int, tgt: int, events: list[Event]) -> bool:
        f = tgt if tgt <= 2 else self._facility(tgt)
        n = 1 if mid < 0 else self._count(mid)
        o = self.cur * PV_SIZE
        have = self.pv[o + CRATES]
        if have - n < 0:
            self._violation([f"reinforcing {n} with {have} crate{'s' * (have != 1)} takes the "
                             "balance below 0 (FS-18)"], events)
        self.pv[o + CRATES] -= n
        self.pv[o + FAC + f] += n
        events.append(("reinforce", self.cur, f, n))
        return True

    def _wdr(self, mid: int, tgt: int, events: list[Event]) -> bool:
        f = tgt if tgt <= 2 else self._facility(tgt)
        n = 1 if mid < 0 else self._count(mid)
        o = self.cur * PV_SIZE
        held = self.pv[o + FAC + f]
        if n > held:
            raise IllegalAction("FS-13", f"the {FACILITY_NAMES[f]} holds {held} "
                                f"crate{'s' * (held != 1)}; cannot withdraw {n}")
        self.pv[o + FAC + f] -= n
        self.pv[o + CRATES] += n
        events.append(("withdraw", self.cur, f, n))
        return False

    def _rgp(self, mid: int, tgt: int, events: list[Event]) -> bool:
        p = self.cur
        b, owatch, osel, ocrates, qt = _RGP_AT[p]
        i = b + tgt
        loc, pv = self.loc, self.pv
        if self.vit[i] > 0 and loc[i] >= 0:  # retreat: legal in all circumstances
            loc[i] = RESERVE
            self.act = act = self.act & ~(1 << i)
            self.res |= 1 << i
            # self._leave(i), inlined
            self.skl[i] = 0
            self._left = True
            if pv[owatch] == i:
                pv[owatch] = -1
            if pv[osel] == i:
                mine = (act >> b) & 1023
                pv[osel] = b + BITS[mine][0] if mine else -1
            pv[ocrates] += 1
            events.append(("retreat", i))
            return True
        if loc[i] != RESERVE:
            raise IllegalAction("FS-14", f"{op_name(i)} {self._why_not_active(i)} and cannot "
                                "regroup")
        have = pv[ocrates]
        skl = self.skl
        if have < 1 or skl[qt] or skl[qt + 5]:
            reasons = []
            if have < 1:
                reasons.append(f"deploying costs a crate and the balance is {have} (FS-18)")
            if self.under_cyber(p):
                reasons.append("deploying " + self._cyber_reason())
            self._violation(reasons, events)
        pv[ocrates] = have - 1
        loc[i] = BASE[p]
        self.res &= ~(1 << i)
        self.act |= 1 << i
        self.stamp[i] = clock = self.clock
        self.clock = clock + 1
        events.append(("deploy", i))
        return True

    def _ovw(self, mid: int, tgt: int, events: list[Event]) -> bool:
        i = self.cur * 10 + tgt
        if self.vit[i] <= 0 or self.loc[i] < 0:  # not is_active(i)
            raise IllegalAction("FS-15", f"{op_name(i)} {self._why_not_active(i)} and cannot "
                                "watch")
        self.pv[self.cur * PV_SIZE + WATCH] = i
        events.append(("overwatch", i))
        return True

    def _skl(self, mid: int, tgt: int, events: list[Event]) -> bool:
        p = self.cur
        b = p * 10
        o = p * PV_SIZE
        strike = -1
        if mid >= 0 and mid % 5 in _BLADE_MEDIC:  # STDEX 8bt / 8mt (FS-25)
            i, strike = b + mid, tgt
        else:
            i = b + tgt
            if mid >= 0 and tgt % 5 in _BLADE_MEDIC:
                raise IllegalAction("FS-25", f"under {RULESET_NAMES[self.ruleset]} the "
                                    f"{CLASS_NAMES[tgt % 5]}'s skill needs a target: "
                                    f"8{tgt}t (t: the target)")
        if not self.is_active(i):
            raise IllegalAction("FS-16", f"{op_name(i)} {self._why_not_active(i)} and cannot use "
                                "a skill")
        cls = i % 5
        target = -1
        if strike >= 0:  # check the target before anything happens
            if cls == BLADE:
                target = self._enemy(strike)
            else:
                target = b + strike
                if not (self.vit[target] == 0 and self.loc[target] >= 0):
                    raise IllegalAction("FS-16", f"Extend revives a friendly operator who is "
                                        f"bleeding out; {op_name(target)} is not")
        reasons = []
        if self.pv[o + SKCD]:
            reasons.append(f"the skill is on cooldown ({self.pv[o + SKCD]}) (FS-16)")
        if self.under_cyber(p):
            reasons.append("SKL " + self._cyber_reason())
        self._violation(reasons, events)
        self.pv[o + SKCD] = COOLDOWN
        self.pv[o + SKFRESH] = 1
        events.append(("skill", i))
        if cls == LONGWATCH:
            self.skl[i] = 1
            return True
        if cls == BLADE:
            if target >= 0:
                self._assassinate(i, target, events)
                return True
            self.skl[i] = 1
            return False
        if cls == TECHNICIAN:
            self.skl[i] = 3
            return True
        if cls == MEDIC:
            if target >= 0:
                self.skl[i] = 1
                return self._revive(i, target, events)
            self.skl[i] = 1
            return False
        self.skl[i] = 3  # Specialist: Quick draw; arming never ends the turn (FS-26)
        return False

    def _spt(self, mid: int, tgt: int, events: list[Event]) -> bool:
        p = self.cur
        o = p * PV_SIZE
        pv = self.pv
        skl = self.skl
        qt = 10 - p * 10 + TECHNICIAN
        cyber = skl[qt] > 0 or skl[qt + 5] > 0  # under_cyber(p)
        if pv[o + ARTREADY]:  # the shot: the digit is a sector (FS-17, FS-33)
            if cyber:
                self._violation(["SPT " + self._cyber_reason()], events)
            pv[o + ARTREADY] = 0
            dmg = 1 + pv[o + FAC + ARTILLERY]
            events.append(("artillery", p, tgt, dmg))
            # the enemies standing on the sector, in arrival order (`sector(tgt)` filtered):
            # a hit moves nobody and changes no one else's vitality, so the list holds
            q = (1 - p) * 10
            loc = self.loc
            hit = [q + n for n in BITS[(self.act >> q) & 1023] if loc[q + n] == tgt]
            if len(hit) > 1:
                hit.sort(key=self.stamp.__getitem__)
            for t in hit:
                self._damage(t, dmg, "artillery", -1, events)
            self._start_support_cooldown(o)
            return True
        f = self._facility(tgt)
        if pv[o + SPCD] or cyber:
            reasons = []
            if pv[o + SPCD]:
                reasons.append(f"support is on cooldown ({pv[o + SPCD]}) (FS-17)")
            if cyber:
                reasons.append("SPT " + self._cyber_reason())
            self._violation(reasons, events)
        events.append(("support", p, f))
        if f == ARTILLERY:
            pv[o + ARTREADY] = 1
            return True
        self._start_support_cooldown(o)
        b = p * 10
        vit, loc = self.vit, self.loc
        if f == MEDBAY:
            for n in BITS[(self.act >> b) & 1023]:  # alive and deployed, in order
                i = b + n
                if vit[i] < VITALITY:
                    vit[i] = min(VITALITY, vit[i] + 2)
                    events.append(("heal", i, vit[i]))
            return True
        # Command center (FS-35): those deployed leave first, then the reserve deploys in order.
        going = [b + n for n in BITS[(self.act >> b) & 1023]]
        coming = [b + n for n in BITS[(self.res >> b) & 1023]]
        for i in going:
            loc[i] = RESERVE
            self.act &= ~(1 << i)
            self.res |= 1 << i
            self._leave(i)
        stamp = self.stamp
        for i in coming:
            loc[i] = BASE[p]
            self.res &= ~(1 << i)
            self.act |= 1 << i
            stamp[i] = self.clock
            self.clock += 1
        if pv[o + SEL] < 0 and coming:
            pv[o + SEL] = coming[0]
        events.append(("reserveswap", p, tuple(going), tuple(coming)))
        return True

    def _start_support_cooldown(self, o: int) -> None:
        k = max(0, COOLDOWN - self.pv[o + FAC + COMMAND])
        self.pv[o + SPCD] = k
        self.pv[o + SPFRESH] = 1 if k else 0

    # ---------------------------------------------------------------- AUX (FS-20, FS-37)
    def _aux(self, action: int, x: int) -> list[Event]:
        p = self.cur
        if x == nt.SUSPEND_GAME:
            return [(SUSPEND,)]
        if x == nt.RESUME_GAME:
            return [(RESUME,)]
        events: list[Event] = []
        if x == nt.REQ_RULESET:
            if self.ruleset == TYPE_A:
                raise IllegalAction("FS-37", "STDEX Type-A is the last ruleset; there is no "
                                    "change to request")
            self.pending = ("ruleset", p, self.ruleset + 1)
            events.append(("request", "ruleset", p, self.ruleset + 1))
        elif x == nt.REQ_DRAW:
            self.pending = ("draw", p, -1)
            events.append(("request", "draw", p, -1))
        elif x == nt.CONCEDE:
            self._push(p, action)
            self._finish(Outcome(self._score(1 - p), "concession", (1 - p,),
                                           kind=Termination.RESIGNATION), events)
            return events
        elif x == nt.DISPUTE_CMD:  # a founded dispute (`apply` plays a false one)
            self._push(p, action)
            found = [r for who, r in self.violations if who == 1 - p]
            events.append(("dispute", p, True, tuple(x for r in found for x in r)))
            self._finish(Outcome(self._score(p), "dispute", (p,), kind=Termination.DISPUTE), events)
            return events
        elif x == nt.GOOD_GAME:
            events.append((MESSAGE, "Good game"))
        elif x in (nt.DENY, nt.CONFIRM):
            events.append((MESSAGE, "There is no request to answer"))
        else:  # 04: initiation is done before the program starts
            events.append((MESSAGE, "The game is already initiated"))
        self._push(p, action)
        return events

    def _answer(self, pending: tuple[str, int, int], action: int, ins: int, x: int
                ) -> list[Event]:
        kind, requester, target = pending
        responder = 1 - requester
        counter_ok = kind == "ruleset" and target == STDEX
        if ins != nt.AUX or x not in (nt.DENY, nt.CONFIRM, nt.REQ_RULESET) or (
                x == nt.REQ_RULESET and not counter_ok):
            allowed = "01 (accept), 00 (deny)" + (" or 05 (accept and ask for Type-A)"
                                                   if counter_ok else "")
            raise IllegalAction("FS-37", f"Player {responder + 1} must answer the "
                                f"{'ruleset change' if kind == 'ruleset' else 'draw'} "
                                f"request: {allowed}")
        events: list[Event] = []
        self._push(responder, action)
        self.pending = None
        if x == nt.DENY:
            events.append(("answer", responder, False))
            return events
        events.append(("answer", responder, True))
        if kind == "draw":
            self._finish(Outcome((0.5, 0.5), "agreement", kind=Termination.AGREEMENT), events)
            return events
        self.ruleset = target
        events.append(("ruleset", target))
        if x == nt.REQ_RULESET:
            self.pending = ("ruleset", responder, TYPE_A)
            events.append(("request", "ruleset", responder, TYPE_A))
        return events

    # ---------------------------------------------------------------- turn end and winning
    def _check_win(self, issuer: int, events: list[Event]) -> None:
        alive0 = self.act & 1023
        alive1 = self.act >> 10
        if alive0 and alive1:
            return
        if not alive0 and not alive1:
            winner = 1 - issuer
        else:
            winner = 0 if alive0 else 1
        self._finish(Outcome(self._score(winner), "elimination", (winner,),
                                   kind=Termination.ELIMINATION), events)

    @staticmethod
    def _score(winner: int) -> tuple[float, float]:
        return (1.0, 0.0) if winner == 0 else (0.0, 1.0)

    def _finish(self, outcome: Outcome, events: list[Event]) -> None:
        self._outcome = outcome
        self.pending = None
        events.append(("over", outcome.to_json()))  # plain data, as every event

    # ---------------------------------------------------------------- showing
    def turn_number(self) -> int:
        return self.turn

    def board_view(self, player: int | None = None) -> dict:
        """Everything (FieldShift has no hidden information), JSON-ready. `turn_player`: whose
        turn it is (the envelope's `to_move` says who decides now: the other player while a
        request waits for their answer). Built from tables made once (the server builds it
        for every seat after every move)."""
        vit, loc, bleed, skl, pv = self.vit, self.loc, self.bleed, self.skl, self.pv
        watch = (pv[WATCH], pv[PV_SIZE + WATCH])
        ops = []
        for i in range(20):
            where = loc[i]
            ops.append({
                "id": _OP_NAME[i], "player": i // 10, "number": i % 10,
                "class": _OP_CLASS[i], "vitality": vit[i],
                "sector": where if where >= 0 else None,
                "status": ("dead" if where == DEAD else "reserve" if where == RESERVE
                           else "bleeding" if vit[i] == 0 else "deployed"),
                "bleed": bleed[i] if bleed[i] < BLEED_TURNS else BLEED_TURNS,
                "skill": skl[i], "watching": watch[i // 10] == i,
            })
        players = []
        for p in range(2):
            o = p * PV_SIZE
            players.append({
                "name": self.setup.names[p], "crates": pv[o + CRATES],
                "facilities": pv[o + FAC:o + FAC + 3],
                "skill_cooldown": pv[o + SKCD], "support_cooldown": pv[o + SPCD],
                "artillery_ready": bool(pv[o + ARTREADY]),
                "selected": _OP_NAME[pv[o + SEL]] if pv[o + SEL] >= 0 else None,
                "under_cyberwarfare": self.under_cyber(p),
            })
        # the operators on each sector in arrival order (`sector(s)` for all ten at once)
        sectors: list[list[str]] = [[] for _ in range(10)]
        for i in sorted(range(20), key=self.stamp.__getitem__):
            if loc[i] >= 0:
                sectors[loc[i]].append(_OP_NAME[i])
        return {
            "ruleset": RULESETS[self.ruleset],
            "violations": VIOLATION_MODES[self.mode], "turn_player": self.cur,
            "turn_limit": self.limit, "terrain": list(_TERRAIN_NAMES),
            "players": players, "operators": ops,
            "sectors": sectors,
            "pending": None if self.pending is None else {
                "kind": self.pending[0], "requester": self.pending[1],
                "ruleset": RULESETS[self.pending[2]] if self.pending[2] >= 0 else None},
            "disputable": [{"player": who, "reasons": list(r)} for who, r in self.violations],
        }

    def render(self, player: int | None = None) -> str:
        from boardct.games.fieldshift.screen import board

        return board(self)

    def render_rich(self, player: int | None = None):
        from boardct.games.fieldshift.screen import board_rich

        return board_rich(self)

    def render_compact(self, player: int | None = None):
        from boardct.games.fieldshift.screen import board_compact

        return board_compact(self)

    def prompt(self) -> str:
        """FS-23/FS-40: 'Player 1 (+0): ' under LSTD, 'Player 1: ' otherwise, and
        'Player N response: ' while a request waits for an answer."""
        if self._outcome is not None:
            return ""
        if self.pending is not None:
            return f"Player {2 - self.pending[1]} response: "
        p = self.cur
        if self.ruleset == LSTD:
            s = self.pv[p * PV_SIZE + SEL]
            if s >= 0:
                return f"Player {p + 1} ({op_name(s)}): "
        return f"Player {p + 1}: "

    def status_line(self) -> str:
        from boardct.games.fieldshift.screen import status_line

        return status_line(self)

    def breach(self, action: int, player: int | None = None) -> Breach | None:
        """FS-18/FS-19: in dispute mode, the violation `action` would be (what `apply` would
        carry out and remember for a dispute), found by applying it to a copy, so that the
        question and the rules can never disagree. None when it is lawful, in reject mode
        (where `apply` refuses it), and when `apply` would refuse it anyway."""
        if self.mode != DISPUTE or self._outcome is not None or self.pending is not None:
            return None
        if type(action) is not int or not (0 <= action < 1100) or not _DECODE[action][0]:
            return None  # AUX never breaks a rule
        try:
            events = self.clone().apply(action, player)
        except BoardctError:
            return None
        reasons = next((ev[2] for ev in events if ev[0] == "violation"), ())
        if not reasons:
            return None
        rules: list[str] = []
        what = []
        for reason in reasons:  # each ends with its ruling, e.g. "... (FS-16)"
            text, _, rule = reason.rpartition(" (")
            rule = rule.rstrip(")")
            if not text or not rule.startswith("FS-"):
                text, rule = reason, "FS-18"
            if rule not in rules:
                rules.append(rule)
            what.append(text)
        p = self.cur
        return Breach(", ".join(rules), "; ".join(what),
                      f"Player {2 - p} may then dispute it with 06 on their turn and win (FS-19).",
                      confirm="01", deny="00")
    def describe_action(self, action: int, player: int | None = None) -> str:
        """What a command does, in the words the log uses for the event it makes ("+0 moves
        from sector 0 to sector 4", "+1 hits -3 for 2: vitality 3"), read from the token and
        the position without carrying it out: a legal list describes every command, and
        applying each one to a copy (the core's default) was most of the server's time a
        move. What a command may set off besides (a watch or a Longwatch firing, a bleed-out)
        is the preview's to show (`table.preview`)."""
        if type(action) is not int or not 0 <= action < _N_TOKENS:
            return str(action)
        decoded = _DECODE_IN[self.ruleset][action]
        if decoded is None or self._outcome is not None:
            return nt.notation(action)
        ins, mid, tgt = decoded
        pending = self.pending
        if pending is not None:
            return _answer_words(pending, ins, tgt) or nt.notation(action)
        p = self.cur
        b = p * 10
        o = p * PV_SIZE
        pv, loc = self.pv, self.loc
        if not ins:
            return _aux_words(self, p, tgt) or nt.notation(action)
        if ins == nt.MOV or ins == nt.HIT:
            if ins == nt.HIT:
                skl = self.skl
                medic = b + MEDIC if skl[b + MEDIC] else (
                    b + 5 + MEDIC if skl[b + 5 + MEDIC] else -1)
                if medic >= 0:  # the armed Extend takes the HIT (FS-30, FS-41)
                    return f"{_OP_NAME[medic]} revives {_OP_NAME[b + tgt]} to full vitality"
            i = pv[o + SEL] if mid < 0 else b + mid
            if i < 0:
                return nt.notation(action)
            if ins == nt.MOV:
                return f"{_OP_NAME[i]} moves from sector {loc[i]} to sector {tgt}"
            t = 10 - b + tgt
            la, lt = loc[i], loc[t]
            if la < 0 or lt < 0:
                return f"{_OP_NAME[i]} hits {_OP_NAME[t]}"
            if i % 5 == BLADE and self.skl[i]:  # the armed Assassinate (FS-16, FS-31)
                dmg, how = ASSASSINATE[lt], "assassinates"
            else:
                dmg, how = DAMAGE[self.ruleset][la][lt], "hits"
            return f"{_OP_NAME[i]} {how} {_OP_NAME[t]} for {dmg}: vitality " \
                   f"{max(0, self.vit[t] - dmg)}"
        if ins == nt.SWC:
            if mid < 0:
                return f"{_OP_NAME[b + tgt]} selected"
            return f"{_OP_NAME[b + mid]} and {_OP_NAME[b + tgt]} swap sectors"
        if ins == nt.RNF or ins == nt.WDR:
            n = 1 if mid < 0 else mid
            crates = f"{n} crate{'s' * (n != 1)}"
            if tgt > 2:
                return nt.notation(action)
            if ins == nt.RNF:
                return f"Player {p + 1} allocates {crates} to the {FACILITY_NAMES[tgt]}"
            return f"Player {p + 1} withdraws {crates} from the {FACILITY_NAMES[tgt]}"
        if ins == nt.RGP:
            i = b + tgt
            if loc[i] == RESERVE:
                return f"{_OP_NAME[i]} deploys from reserve (-1 crate)"
            return f"{_OP_NAME[i]} retreats to reserve (+1 crate)"
        if ins == nt.OVW:
            return f"{_OP_NAME[b + tgt]} is on overwatch"
        if ins == nt.SKL:
            strike = mid >= 0 and mid % 5 in _BLADE_MEDIC  # STDEX 8bt / 8mt (FS-25)
            i = b + (mid if strike else tgt)
            words = f"{_OP_NAME[i]} ({CLASS_NAMES[i % 5]}) activates {SKILL_NAMES[i % 5]}"
            if strike:  # the Blade's enemy, the Medic's friend
                words += f" on {_OP_NAME[10 - b + tgt if i % 5 == BLADE else b + tgt]}"
            return words
        # SPT: the Artillery's shot once readied (FS-17, FS-33), else a facility's support
        if pv[o + ARTREADY]:
            return f"Player {p + 1}'s Artillery shells sector {tgt} " \
                   f"({1 + pv[o + FAC + ARTILLERY]} damage)"
        if tgt > 2:
            return nt.notation(action)
        return f"Player {p + 1} {_SUPPORT_WORDS[tgt]}"

    def action_group(self, action: int) -> str:
        """`moves` groups FieldShift's commands by instruction (MOV, HIT, RNF...)."""
        if 0 <= action < _N_TOKENS:
            return _GROUPS[action]
        return _group(action)

    def action_targets(self, action: int, player: int | None = None) -> tuple[str, ...]:
        """The board elements a command involves, as the page draws them (`op:+1`,
        `sector:4`, `fac:0:2`), the one acting first: SWC the operator selected, SWP both;
        MOV the mover and its sector; HIT the attacker and the enemy hit, or, while a Medic's
        Extend is armed, that Medic and the friendly operator the HIT revives (FS-30, FS-41:
        the armed revive takes the HIT whoever is named); RNF/WDR the facility; RGP and OVW
        the operator; SKL the operator, and for a Blade's or Medic's STDEX skill its target
        (FS-25); SPT the facility, or the Artillery and the sector it shells once ready (FS-17,
        FS-33). AUX commands (answers, requests) involve no element: none."""
        if type(action) is not int or not 0 <= action < _N_TOKENS or self.pending is not None:
            return ()
        ins, mid, tgt = _DECODE[action]
        if not ins:
            return ()
        p = self.cur
        b = p * 10
        o = p * PV_SIZE
        if ins == nt.MOV:
            i = self.pv[o + SEL] if mid < 0 else b + mid
            return (_OP_KEY[i], _SECTOR_KEY[tgt]) if i >= 0 else (_SECTOR_KEY[tgt],)
        if ins == nt.HIT:
            skl = self.skl
            medic = b + MEDIC if skl[b + MEDIC] else (b + 5 + MEDIC if skl[b + 5 + MEDIC] else -1)
            if medic >= 0:
                return (_OP_KEY[medic], _OP_KEY[b + tgt])
            i = self.pv[o + SEL] if mid < 0 else b + mid
            foe = _OP_KEY[10 - b + tgt]
            return (_OP_KEY[i], foe) if i >= 0 else (foe,)
        if ins == nt.SWC:
            return (_OP_KEY[b + tgt],) if mid < 0 else (_OP_KEY[b + mid], _OP_KEY[b + tgt])
        if ins == nt.SKL:
            if mid >= 0 and mid % 5 in _BLADE_MEDIC:  # STDEX 8bt / 8mt: the skill's target
                target = 10 - b + tgt if mid % 5 == BLADE else b + tgt
                return (_OP_KEY[b + mid], _OP_KEY[target])
            return (_OP_KEY[b + tgt],)
        if ins == nt.RGP or ins == nt.OVW:
            return (_OP_KEY[b + tgt],)
        if ins == nt.SPT and self.pv[o + ARTREADY]:
            return (_FAC_KEY[p][ARTILLERY], _SECTOR_KEY[tgt])
        # RNF, WDR, SPT: a facility (a digit above 2 names none)
        return (_FAC_KEY[p][tgt],) if tgt <= 2 else ()

    # ---------------------------------------------------------------- for learners
    def action_id(self, action: int, player: int | None = None) -> int:
        return enc.action_id(action)

    def id_action(self, action_id: int, player: int | None = None) -> int:
        return enc.id_action(action_id)

    def legal_ids(self, player: int | None = None) -> list[int]:
        # each token's id looked up in a table (`enc.action_id`, tabled): no Python loop. No
        # set: `legal_actions` lists each command once (its groups are of distinct first
        # digits, and within a group each operator, target or count once), so no id repeats.
        return sorted(map(_ID_OF_TOKEN.__getitem__, self.legal_actions(player)))

    def apply_id(self, action_id: int, player: int | None = None) -> list[Event]:
        """`apply(id_action(action_id))`, the id's token looked up in a table (a learner's
        every step); an id that is not a plain int in range goes through `enc.id_action`,
        which says what is wrong with it."""
        if type(action_id) is int and 0 <= action_id < enc.NUM_ACTIONS:
            return self.apply(_TOKEN_OF_ID[action_id], player)
        return self.apply(enc.id_action(action_id), player)

    def observation_tensor(self, player: int) -> list[float]:
        """`enc.observation(self.view(player), player)`, built without the view (its fast
        path: the same values, tested)."""
        return enc.fast_observation(self, player)

    def observation_entries(self, player: int) -> dict[int, float]:
        return enc.fast_entries(self, player)

    def observation_array(self, player: int) -> array:
        return enc.fast_array(self, player)

    def resign_action(self, player: int) -> int:
        """Resigning is FieldShift's own concession, 09 (FS-20)."""
        return _TWO + nt.CONCEDE

    def describe(self, event: Event) -> str:
        from boardct.games.fieldshift.screen import describe

        return describe(self, event)

    def snapshot(self) -> tuple:
        """Every rules-relevant value, for equality checks (tests, replay verification)."""
        return (self.ruleset, self.mode, self.cur, self.turn, tuple(self.vit), tuple(self.loc),
                tuple(self.bleed), tuple(self.skl), tuple(self.sector(s) for s in range(10)),
                tuple(self.pv), self.pending, self.violations, self._outcome)


_HANDLERS = (
    None,
    FieldShiftState._swc_swp,
    FieldShiftState._mov,
    FieldShiftState._hit,
    FieldShiftState._rnf,
    FieldShiftState._wdr,
    FieldShiftState._rgp,
    FieldShiftState._ovw,
    FieldShiftState._skl,
    FieldShiftState._spt,
)

__all__ = ["FieldShiftState", "op_name", "RESERVE", "DEAD", "BoardctError"]
