"""A position of Battle for The Shifting Hills and its rules (BSH-1..BSH-37).

Squads are numbered player * 3 + kind (each player has one Infantry, Rocketeer and Mech), so
every per-squad table is a flat list of six entries. Hidden information (face-down tiles,
unrevealed stars, the deck, the hands) lives only here and leaves through `view(player)`.
Events returned by `apply` are public: they never name a drawn card, and a tile they name has
just been turned face up for both players; `events_for` passes exactly the kinds known to be
public.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar

from boardct.core.errors import IllegalAction
from boardct.core.game import (
    MESSAGE,
    RESUME,
    SUSPEND,
    Event,
    Game,
    Outcome,
    Setup,
    State,
    Termination,
)
from boardct.core.rng import Rng
from boardct.games.hills import actions as A
from boardct.games.hills import encoding as enc
from boardct.games.hills.board import (
    AMMO,
    ARTILLERY,
    ATK,
    ATK_BONUS,
    BOOST,
    CARD_NAMES,
    CARD_WORDS,
    DEF_BONUS,
    DIR_NAMES,
    FOREST,
    HEXES,
    HQ,
    INFANTRY,
    KIND_LETTERS,
    KIND_NAMES,
    LAND,
    MECH,
    MOUNTAIN,
    NEIGHBOUR_PAIRS,
    NEIGHBOURS,
    START_UNITS,
    SURVIVORS,
    TILE_LETTERS,
    TILE_NAMES,
    UNIT_CAP,
    coord_text,
)

if TYPE_CHECKING:  # pragma: no cover
    from rich.text import Text

    from boardct.games.hills.layout import Layout

# Per kind of squad and hex: (neighbour hex, move code, code of the attack on the enemy squad
# of kind 0 there; + kind for the others) for each neighbour on the map, in direction order
# (actions.py: 1000 + kind * 100 + direction * 10 a move, 2000 + ... + target an attack).
_STEPS: tuple[tuple[tuple[tuple[int, int, int], ...], ...], ...] = tuple(
    tuple(tuple((t, 1000 + k * 100 + d * 10, 2000 + k * 100 + d * 10) for d, t in pairs)
          for pairs in NEIGHBOUR_PAIRS)
    for k in range(3))
# For `_squad_options`, per hex h: _DIRBIT[h][x] is 1 << d when hex x is h's neighbour in
# direction d, else 0 (index -1, a destroyed squad's position, is the extra last entry: 0);
# _DIRBIT_OWN[p][h] the same with player p's own headquarters left out (own squads there do
# not block); _ON_MAP[h] the directions that stay on the map; _MOVES[k][mask] the move codes
# of a squad of kind k towards the directions in mask, in direction order (a code names the
# direction, not the hex, so one table serves every hex: one per hex held 1.1 MB).
_DIRBIT = tuple(tuple(sum(1 << d for d, t in pairs if t == x) for x in range(len(HEXES))) + (0,)
                for pairs in NEIGHBOUR_PAIRS)
_DIRBIT_OWN = tuple(tuple(tuple(0 if x == HQ[p] else b for x, b in enumerate(bits))
                          for bits in _DIRBIT) for p in (0, 1))
_ON_MAP = tuple(sum(1 << d for d, _ in pairs) for pairs in NEIGHBOUR_PAIRS)
_MOVES = tuple(tuple(tuple(1000 + k * 100 + d * 10 for d in range(6) if mask >> d & 1)
                     for mask in range(64)) for k in range(3))
# Per player: each squad's index with its deimpede and wait codes, for legal_actions.
_SQUADS = tuple(tuple((p * 3 + k, 3000 + k * 100, 4000 + k * 100) for k in range(3))
                for p in (0, 1))
# Per move or attack code from 1000 to 2999: (kind, direction, target kind), None when the kind
# or the direction is out of range (for `_resolve_fight`, which leaves those to `resolve`).
_FIGHT_CODES = tuple((a // 100 % 10, a // 10 % 10, a % 10)
                     if a // 100 % 10 < 3 and a // 10 % 10 < 6 else None
                     for a in range(1000, 3000))
_WAIT_DEIMPEDE = frozenset((3000, 3100, 3200, 4000, 4100, 4200))  # `resolve`'s fast path
_OWN_SQUADS = ((0, 1, 2), (3, 4, 5))  # per player (`range(p * 3, p * 3 + 3)`, made once)
# The board elements as the page draws them (`action_targets`): each hex, each player's squads.
_HEX_KEY = tuple(f"hex:{q},{r}" for q, r in HEXES)
_SQUAD_KEY = tuple(tuple(f"squad:{p}{letter}" for letter in KIND_LETTERS) for p in (0, 1))
_SEATS = ((0,), (1,))  # current_players() answers, made once: a playout asks every action
# The tables above in action ids (encoding.py: ids number the codes in ascending order), for
# `legal_ids`, which makes the legal ids directly rather than looking each code up: the moves
# and attacks (an attack's ids, like its codes, are consecutive in the target's kind), each
# squad's deimpede and wait ids, and the cards' ids. An attack's id with Extra Ammo is its id
# + _AMMO_SHIFT (the code + 5000); the attacks' ids start at _FIRST_ATTACK_ID.
_STEP_IDS = tuple(tuple(tuple((t, enc.ID_OF[move], enc.ID_OF[attack]) for t, move, attack in steps)
                        for steps in per_hex) for per_hex in _STEPS)
_MOVE_IDS = tuple(tuple(tuple(enc.ID_OF[a] for a in moves) for moves in per_mask)
                  for per_mask in _MOVES)
_SQUAD_IDS = tuple(tuple((sq, enc.ID_OF[deimpede], enc.ID_OF[wait]) for sq, deimpede, wait in own)
                   for own in _SQUADS)
_ARTILLERY_IDS = tuple(enc.ID_OF[5000 + t] for t in range(3))
_BOOST_IDS = tuple(enc.ID_OF[6000 + k * 100] for k in range(3))
_FIRST_ATTACK_ID = enc.ID_OF[2000]
_AMMO_SHIFT = enc.ID_OF[7000] - enc.ID_OF[2000]
assert all(enc.ID_OF[a + 5000] - enc.ID_OF[a] == _AMMO_SHIFT for a in enc.CODES if 2000 <= a < 3000)
assert enc.ID_OF[A.END] == 0
# A squad's standing in the current turn (BSH-7, BSH-34).
FRESH = 0  # has not acted
DONE = 1  # has acted; no further action (and Boost cannot give it one)
SPENT = 2  # its only action was a move/attack leaving it unimpeded: Boost may still give one
EXTRA = 3  # Boost gave it an extra action, which must be a move or an attack
STATUS_WORDS = ("ready", "done", "done", "extra move")


@dataclass(frozen=True)
class Info:
    """The public, unchanging facts of a game, shared by all its states."""

    tile_counts: tuple[int, int, int]  # land tiles of each type (P, M, F) on the whole map
    star_total: int
    deck_mix: tuple[int, int, int, int]  # cards of each kind in the whole deck
    turn_limit: int  # 0: none
    first: int


# Every kind of event `apply` makes, each one public: what a squad does and meets, a tile turned
# face up for both players ("reveal"), a card played (the discard pile is public), a star's
# draw without the card ("draw"; Survivors Found is applied and discarded at once, BSH-14).
PUBLIC_EVENTS = frozenset({
    "reveal", "stopped", "move", "move-in", "impeded", "deimpede", "wait", "seize",
    "seize-reset", "captured", "draw", "survivors", "deck-empty", "play", "attack", "ammo",
    "retaliate", "damage", "destroyed", "rout", "auto-end", "end", "turn", "turn-limit",
    MESSAGE, SUSPEND, RESUME,
})

# Events that tell nobody anything they could not know (for undo, `reveals`).
_QUIET_EVENTS = frozenset({"move", "move-in", "impeded", "deimpede", "wait", "seize",
                           "seize-reset", "auto-end", "end", "turn", MESSAGE})


def _who(p: int) -> str:
    return f"Player {p + 1}"


def _units(n: int) -> str:
    return f"{n} unit" if n == 1 else f"{n} units"


def _squad(sq: int) -> str:
    return f"{_who(sq // 3)}'s {KIND_NAMES[sq % 3]}"


class HillsState(State[int]):
    __slots__ = (
        "info", "rng", "tiles", "rev", "star", "pos", "units", "imp", "st", "boosted", "cur",
        "tdone", "card_played", "seize", "deck", "hand", "known", "discard", "out",
    )
    game: ClassVar[Game]

    # star[h]: 0 no star, 1 an unused star, 2 a star already used (BSH-13)
    info: Info
    rng: Rng
    tiles: list[int]
    rev: list[bool]
    star: list[int]
    pos: list[int]
    units: list[int]
    imp: list[bool]
    st: list[int]
    boosted: int
    cur: int
    tdone: list[int]
    card_played: bool
    seize: list[int]
    deck: list[int]  # the top is the end of the list
    hand: list[int]  # counts: hand[player * 4 + card]
    # What everyone can infer about each hand (BSH-24: a turn ends by itself only when no card
    # in hand can be played): known[player * 3 + j] counts the cards known to be anything (j=0),
    # anything but Artillery (j=1), or Extra Ammo (j=2). The three add up to the hand's size.
    known: list[int]
    discard: list[int]
    out: Outcome | None

    @classmethod
    def start(cls, setup, layout: Layout, turn_limit: int, rng: Rng) -> HillsState:
        s = cls.__new__(cls)
        s.setup = setup
        s._hist = None
        counts = [0, 0, 0]
        for h in LAND:
            counts[layout.tiles[h]] += 1
        mix = [0, 0, 0, 0]
        for c in layout.deck:
            mix[c] += 1
        limit = layout.turn_limit if layout.turn_limit is not None else turn_limit
        s.info = Info((counts[0], counts[1], counts[2]), sum(layout.stars),
                      (mix[0], mix[1], mix[2], mix[3]), limit, layout.first)
        s.rng = rng
        s.tiles = list(layout.tiles)
        s.rev = [h in HQ for h in range(len(HEXES))]
        s.star = [1 if x else 0 for x in layout.stars]
        s.pos = [HQ[0]] * 3 + [HQ[1]] * 3
        s.units = list(START_UNITS) * 2
        s.imp = [False] * 6
        s.st = [FRESH] * 6
        s.boosted = -1
        s.cur = layout.first
        s.tdone = [0, 0]
        s.card_played = False
        s.seize = [0, 0]
        s.deck = list(reversed(layout.deck))
        s.hand = [0] * 8
        s.known = [0] * 6
        s.discard = []
        s.out = None
        return s

    def clone(self) -> HillsState:
        c = HillsState.__new__(HillsState)
        c.setup = self.setup
        c._hist = self._hist
        c.info = self.info
        c.rng = self.rng.clone()
        c.tiles = self.tiles  # never changes after setup (determinize replaces it)
        c.rev = self.rev[:]
        c.star = self.star[:]
        c.pos = self.pos[:]
        c.units = self.units[:]
        c.imp = self.imp[:]
        c.st = self.st[:]
        c.boosted = self.boosted
        c.cur = self.cur
        c.tdone = self.tdone[:]
        c.card_played = self.card_played
        c.seize = self.seize[:]
        c.deck = self.deck[:]
        c.hand = self.hand[:]
        c.known = self.known[:]
        c.discard = self.discard[:]
        c.out = self.out
        return c

    # -- whose decision ------------------------------------------------------------------------
    def current_players(self) -> tuple[int, ...]:
        return () if self.out is not None else _SEATS[self.cur]

    @property
    def outcome(self) -> Outcome | None:
        return self.out

    # -- queries -------------------------------------------------------------------------------
    def squads_at(self, h: int, player: int) -> list[int]:
        """The squads of `player` on hex h."""
        pos = self.pos
        base = player * 3
        return [sq for sq in range(base, base + 3) if pos[sq] == h]

    def alive(self, player: int) -> int:
        u = self.units
        b = player * 3
        return (u[b] > 0) + (u[b + 1] > 0) + (u[b + 2] > 0)

    def _can_enter_empty(self, sq: int, t: int) -> bool:
        return not (sq % 3 == MECH and self.rev[t] and self.tiles[t] == MOUNTAIN)

    def _squad_options(self, sq: int, acts: list[int] | None, moves=_MOVES, steps=_STEPS
                       ) -> bool:
        """Append sq's moves and attacks to acts (if given; as codes, or as ids with the
        tables `_MOVE_IDS` and `_STEP_IDS`); whether it has any."""
        pos = self.pos
        h = pos[sq]
        if sq < 3:
            o0, o1, o2, e0, e1, e2 = pos
            own = _DIRBIT_OWN[0][h]
        else:
            e0, e1, e2, o0, o1, o2 = pos
            own = _DIRBIT_OWN[1][h]
        near = _DIRBIT[h]
        k = sq % 3
        if near[e0] or near[e1] or near[e2]:
            # an enemy next to it: attacks and moves interleave by direction, see the loop
            return self._squad_options_near_enemy(sq, acts, steps)
        # No enemy next to it (most calls): only moves, so the directions left open by own
        # squads (and, for a Mech, revealed mountains) pick a tuple of moves made once for
        # the map, in direction order, instead of testing each neighbour in turn.
        free = _ON_MAP[h] & ~(own[o0] | own[o1] | own[o2])
        if k == MECH and free:
            rev, tiles = self.rev, self.tiles
            for d, t in NEIGHBOUR_PAIRS[h]:
                if rev[t] and tiles[t] == MOUNTAIN:
                    free &= ~(1 << d)
        if acts is not None and free:
            acts += moves[k][free]
        return free != 0

    def _squad_options_near_enemy(self, sq: int, acts: list[int] | None, steps=_STEPS
                                  ) -> bool:
        """`_squad_options` of a squad with an enemy squad next to it, neighbour by neighbour."""
        pos = self.pos
        if sq < 3:
            o0, o1, o2, e0, e1, e2 = pos
            own_hq = HQ[0]
        else:
            e0, e1, e2, o0, o1, o2 = pos
            own_hq = HQ[1]
        k = sq % 3
        rev, tiles = self.rev, self.tiles
        found = False
        # (neighbour, move code, attack code on enemy squad 0) of this kind of squad on this
        # hex, made once for the map: the inner loop only compares
        for t, move, attack in steps[k][pos[sq]]:
            if t == e0 or t == e1 or t == e2:  # noqa: SIM109 - `in (e0, e1, e2)` builds a tuple per hex
                if acts is None:
                    return True
                found = True
                if t == e0:
                    acts.append(attack)
                if t == e1:
                    acts.append(attack + 1)
                if t == e2:
                    acts.append(attack + 2)
                continue
            if t != own_hq and (t == o0 or t == o1 or t == o2):  # noqa: SIM109 - as above
                continue
            if k == MECH and rev[t] and tiles[t] == MOUNTAIN:
                continue
            if acts is None:
                return True
            found = True
            acts.append(move)
        return found

    def _boost_eligible(self, sq: int) -> bool:
        return self.units[sq] > 0 and not self.imp[sq] and (
            self.st[sq] == FRESH or self.st[sq] == SPENT
        )

    def _has_action(self) -> bool:
        """Whether the player to move has anything but `end` (BSH-24)."""
        me = self.cur
        units, st = self.units, self.st
        own = _OWN_SQUADS[me]
        for sq in own:
            if units[sq] == 0:
                continue
            s = st[sq]
            if s == FRESH:
                return True
            if s == EXTRA and self._squad_options(sq, None):
                return True
        if not self.card_played:
            hand = self.hand
            if hand[me * 4 + ARTILLERY]:
                return True
            if hand[me * 4 + BOOST]:
                for sq in own:
                    if self._boost_eligible(sq):
                        return True
        return False

    def legal_actions(self, player: int | None = None) -> list[int]:
        if self.out is not None or (player is not None and player != self.cur):
            return []
        me = self.cur
        acts = [A.END]
        units, st, imp = self.units, self.st, self.imp
        card_ok = not self.card_played
        hand = self.hand
        with_ammo = card_ok and hand[me * 4 + AMMO] > 0
        for sq, deimpede, wait in _SQUADS[me]:
            if units[sq] == 0:
                continue
            s = st[sq]
            if s == FRESH:
                if imp[sq]:
                    acts.append(deimpede)
                    continue
            elif s != EXTRA:
                continue
            n = len(acts)
            self._squad_options(sq, acts)
            if with_ammo:
                for a in acts[n:]:
                    if a >= 2000:
                        acts.append(a + 5000)
            if s == FRESH:
                acts.append(wait)
        if card_ok:
            if hand[me * 4 + ARTILLERY]:
                ebase = (1 - me) * 3
                for t in range(3):
                    if units[ebase + t]:
                        acts.append(5000 + t)
            if hand[me * 4 + BOOST]:
                for k in range(3):
                    if self._boost_eligible(me * 3 + k):
                        acts.append(6000 + k * 100)
        return acts

    # -- checking an action (before anything changes) ------------------------------------------
    def _own_squad(self, k: int) -> int:
        sq = self.cur * 3 + k
        if self.units[sq] == 0:
            raise IllegalAction("BSH-5", f"your {KIND_NAMES[k]} has been destroyed")
        return sq

    def _check_can_fight(self, sq: int) -> None:
        """sq may take a move or an attack now."""
        name = KIND_NAMES[sq % 3]
        s = self.st[sq]
        if s == EXTRA:
            return
        if self.imp[sq]:
            if s == FRESH:
                raise IllegalAction("BSH-26", f"your {name} is impeded: its only action is "
                                    f"'{KIND_LETTERS[sq % 3]} deimpede'")
            raise IllegalAction("BSH-26", f"your {name} became impeded and cannot act again "
                                "this turn")
        if s != FRESH:
            hint = ""
            if s == SPENT and not self.card_played and self.hand[self.cur * 4 + BOOST]:
                hint = " (a Boost card would give it a second move)"
            raise IllegalAction("BSH-7", f"your {name} has already acted this turn{hint}")

    def _enemy_at(self, sq: int, d: int, t: int | None) -> int:
        """The enemy squad of kind t (None: the only one) on sq's neighbour in direction d."""
        h = NEIGHBOURS[self.pos[sq]][d]
        if h < 0:
            raise IllegalAction("BSH-10", f"there is no hex {DIR_NAMES[d]} of your "
                                f"{KIND_NAMES[sq % 3]} (off the map)")
        enemy = 1 - sq // 3
        there = self.squads_at(h, enemy)
        if t is None:
            if not there:
                raise IllegalAction("BSH-10", f"no enemy squad at {coord_text(h)}, "
                                    f"{DIR_NAMES[d]} of your {KIND_NAMES[sq % 3]}")
            if len(there) > 1:
                names = " or ".join(KIND_LETTERS[e % 3] for e in there)
                raise IllegalAction("BSH-38", f"{coord_text(h)} holds several enemy squads: "
                                    f"name the target ({names})")
            return there[0]
        e = enemy * 3 + t
        if e not in there:
            raise IllegalAction("BSH-10", f"there is no enemy {KIND_NAMES[t]} at "
                                f"{coord_text(h)}, {DIR_NAMES[d]} of your "
                                f"{KIND_NAMES[sq % 3]}")
        return e

    def _check_card(self, card: int) -> None:
        if self.card_played:
            raise IllegalAction("BSH-7", "a bonus card was already played this turn")
        if not self.hand[self.cur * 4 + card]:
            raise IllegalAction("BSH-13", f"you hold no {CARD_NAMES[card]} card")

    def resolve(self, action: int) -> tuple[int, int, int]:
        """Check an action for the player to move; return (canonical action, squad, target).

        Raises `IllegalAction` naming the rule. A move onto one enemy squad resolves to the
        attack on it (BSH-38)."""
        if self.out is not None:
            raise IllegalAction("BSH-16", f"the game is over: {self.out.describe()}")
        if type(action) is int and 1000 <= action < 3000:  # a move or an attack: the fast path
            fast = self._resolve_fight(action)
            if fast is not None:
                return fast
        elif type(action) is int:  # the other common ones, when the checks below would pass
            if action == A.END:
                return action, -1, -1
            if action in _WAIT_DEIMPEDE:  # a fresh squad waits (not impeded) or deimpedes
                sq = self.cur * 3 + action // 100 % 10
                if self.units[sq] and self.st[sq] == FRESH and self.imp[sq] == (action < 4000):
                    return action, sq, -1
        if not A.is_code(action):
            raise IllegalAction("BSH-38", f"{action!r} is not an action of this game")
        op, k, d, t = A.decode(action)  # END (0, an int) was answered above
        if op == A.ARTILLERY_OP:
            self._check_card(ARTILLERY)
            e = (1 - self.cur) * 3 + t
            if self.units[e] == 0:
                raise IllegalAction("BSH-32", f"the enemy {KIND_NAMES[t]} has been destroyed")
            return action, -1, e
        sq = self._own_squad(k)
        name = KIND_NAMES[k]
        if op == A.DEIMPEDE:
            if not self.imp[sq]:
                raise IllegalAction("BSH-9", f"your {name} is not impeded")
            if self.st[sq] != FRESH:
                raise IllegalAction("BSH-26", f"your {name} became impeded this turn; it "
                                    "deimpedes on your next turn")
            return action, sq, -1
        if op == A.WAIT:
            if self.imp[sq] and self.st[sq] == FRESH:
                raise IllegalAction("BSH-26", f"your {name} is impeded: its only action is "
                                    f"'{KIND_LETTERS[k]} deimpede'")
            if self.st[sq] == EXTRA:
                raise IllegalAction("BSH-34", f"your {name}'s extra action must be a move or "
                                    "an attack (or end the turn)")
            if self.st[sq] != FRESH:
                raise IllegalAction("BSH-7", f"your {name} has already acted this turn")
            return action, sq, -1
        if op == A.BOOST_OP:
            self._check_card(BOOST)
            if self.imp[sq]:
                raise IllegalAction("BSH-34", f"your {name} is impeded and cannot be boosted")
            if self.st[sq] == EXTRA:
                raise IllegalAction("BSH-34", f"your {name} already has an extra action")
            if self.st[sq] != FRESH and self.st[sq] != SPENT:
                raise IllegalAction("BSH-34", f"your {name} cannot be boosted: it waited, "
                                    "deimpeded, was impeded or stopped, or used its moves")
            return action, sq, -1
        if op == A.MOVE:
            self._check_can_fight(sq)
            h = NEIGHBOURS[self.pos[sq]][d]
            if h < 0:
                raise IllegalAction("BSH-27", f"your {name} cannot move {DIR_NAMES[d]}: "
                                    "that is off the map")
            enemies = self.squads_at(h, 1 - self.cur)
            if len(enemies) == 1:
                return A.attack(k, d, enemies[0] % 3), sq, enemies[0]
            if enemies:
                names = " or ".join(KIND_LETTERS[e % 3] for e in enemies)
                raise IllegalAction("BSH-38", f"{coord_text(h)} holds several enemy squads: "
                                    f"attack one of them by name ({names})")
            if h != HQ[self.cur] and self.squads_at(h, self.cur):
                raise IllegalAction("BSH-27", f"your {name} cannot move {DIR_NAMES[d]}: your "
                                    f"own squad is at {coord_text(h)}")
            if not self._can_enter_empty(sq, h):
                raise IllegalAction("BSH-27", f"a Mech cannot enter the mountain at "
                                    f"{coord_text(h)}")
            return action, sq, -1
        # attack, or attack with Extra Ammo
        if op == A.AMMO_OP:
            self._check_card(AMMO)
        self._check_can_fight(sq)
        e = self._enemy_at(sq, d, t)
        return action, sq, e

    def _resolve_fight(self, action: int) -> tuple[int, int, int] | None:
        """`resolve` of a well-formed, lawful move onto a hex with no enemy squad, or attack
        (the common case, checked here with few calls); None for anything else, which
        `resolve` then checks in full and explains. Nothing here is trusted: every rule the
        full check applies to such an action is applied here too."""
        decoded = _FIGHT_CODES[action - 1000]  # the caller checked 1000 <= action < 3000
        if decoded is None:
            return None
        k, d, t = decoded
        me = self.cur
        sq = me * 3 + k
        if self.units[sq] == 0:
            return None
        s = self.st[sq]
        if s != EXTRA and (s != FRESH or self.imp[sq]):  # _check_can_fight would refuse
            return None
        pos = self.pos
        h = NEIGHBOURS[pos[sq]][d]
        if h < 0:
            return None
        eb = 3 - me * 3  # the enemy's first squad
        if action < 2000:  # a move
            if t or h == pos[eb] or h == pos[eb + 1] or h == pos[eb + 2]:
                return None  # onto an enemy squad: an attack, or ambiguous (resolve says)
            ob = me * 3
            if h != HQ[me] and (h == pos[ob] or h == pos[ob + 1] or h == pos[ob + 2]):
                return None
            if k == MECH and self.rev[h] and self.tiles[h] == MOUNTAIN:
                return None
            return action, sq, -1
        if t >= 3 or pos[eb + t] != h:  # an attack names an enemy squad on that hex
            return None
        return action, sq, eb + t

    # -- carrying it out -----------------------------------------------------------------------
    def apply(self, action: int, player: int | None = None) -> list[Event]:
        if player is not None and self.out is None and player != self.cur:
            raise IllegalAction("BSH-7", f"it is {_who(self.cur)}'s turn, not {_who(player)}'s")
        action, sq, target = self.resolve(action)
        me = self.cur
        ev: list[Event] = []
        op = action // 1000
        if action == A.END:
            self._end_turn(ev)
        elif op == A.MOVE:
            self._move(sq, NEIGHBOURS[self.pos[sq]][action // 10 % 10], ev)
        elif op == A.ATTACK:
            self._attack(sq, target, False, ev)
        elif op == A.AMMO_OP:
            self._attack(sq, target, True, ev)
        elif op == A.DEIMPEDE:
            self.imp[sq] = False
            self.st[sq] = DONE
            ev.append(("deimpede", sq))
        elif op == A.WAIT:
            self.st[sq] = DONE
            ev.append(("wait", sq))
        elif op == A.ARTILLERY_OP:
            self._play(ARTILLERY, target, ev)
            self._damage(target, 1, ev)
            self._check_rout(ev)
        else:  # boost
            self._play(BOOST, sq, ev)
            if self.st[sq] == FRESH:
                self.boosted = sq
            else:
                self.st[sq] = EXTRA
        if self.out is None and action != A.END and not self._has_action():
            ev.append(("auto-end", me))
            self._learn_from_auto_end()
            self._end_turn(ev)
        self._hist = (self._hist, me, action)  # State._push, inlined
        return ev

    def _learn_from_auto_end(self) -> None:
        """The turn ended by itself without a card played: the hand holds no Artillery, and no
        Boost either if a squad could have been boosted (BSH-24)."""
        if self.card_played:
            return
        me = self.cur
        k = self.known
        b = me * 3
        for sq in _OWN_SQUADS[me]:  # any() of a generator costs more than the loop
            if self._boost_eligible(sq):
                k[b], k[b + 1], k[b + 2] = 0, 0, k[b] + k[b + 1] + k[b + 2]
                return
        k[b], k[b + 1] = 0, k[b] + k[b + 1]

    def _play(self, card: int, who: int, ev: list[Event]) -> None:
        me = self.cur
        self.card_played = True
        self.hand[me * 4 + card] -= 1
        # Which of the hand's cards was it? Assume the most constrained one that fits, so the
        # public facts stay true whatever the truth (they may only get weaker).
        k = self.known
        b = me * 3
        for j in ((0,) if card == ARTILLERY else (1, 0) if card == BOOST else (2, 1, 0)):
            if k[b + j]:
                k[b + j] -= 1
                break
        self.discard.append(card)
        ev.append(("play", me, card, who))

    def _after_fight(self, sq: int, prev: int, stopped: bool) -> None:
        """sq's turn standing after a move or an attack (BSH-34)."""
        if self.units[sq] == 0:
            return
        if prev == EXTRA or stopped or self.imp[sq]:
            self.st[sq] = DONE
        elif self.boosted == sq:
            self.st[sq] = EXTRA
            self.boosted = -1
        else:
            self.st[sq] = SPENT

    def _leave(self, sq: int, ev: list[Event]) -> None:
        p = sq // 3
        if sq % 3 == INFANTRY and self.seize[p] and self.pos[sq] == HQ[1 - p]:
            self.seize[p] = 0
            ev.append(("seize-reset", p))

    def _enter(self, sq: int, h: int, ev: list[Event]) -> None:
        """Squad sq has just entered hex h (a move or a move-in): impediment, Seize, star."""
        p, k = sq // 3, sq % 3
        if h == HQ[1 - p]:
            self.imp[sq] = True
            ev.append(("impeded", sq, h))
            if k == INFANTRY:
                self.seize[p] = 1
                ev.append(("seize", p, 1))
        elif k == MECH and self.tiles[h] == FOREST:
            self.imp[sq] = True
            ev.append(("impeded", sq, h))
        if self.star[h] == 1:
            self.star[h] = 2
            self._draw(sq, ev)

    def _draw(self, sq: int, ev: list[Event]) -> None:
        p = sq // 3
        if not self.deck:
            ev.append(("deck-empty", sq))
            return
        card = self.deck.pop()
        if card == SURVIVORS:
            u = self.units
            room = UNIT_CAP - u[p * 3] - u[p * 3 + 1] - u[p * 3 + 2]
            gain = max(0, min(1 if sq % 3 == MECH else 2, room))
            u[sq] += gain
            self.discard.append(card)
            ev.append(("survivors", sq, gain))
        else:
            self.hand[p * 4 + card] += 1
            self.known[p * 3] += 1
            ev.append(("draw", p, sq))

    def _move(self, sq: int, h: int, ev: list[Event]) -> None:
        prev = self.st[sq]
        if not self.rev[h]:
            self.rev[h] = True
            ev.append(("reveal", h, self.tiles[h], self.star[h] == 1))
        if sq % 3 == MECH and self.tiles[h] == MOUNTAIN:
            ev.append(("stopped", sq, h))
            self._after_fight(sq, prev, True)
            return
        frm = self.pos[sq]
        self._leave(sq, ev)
        self.pos[sq] = h
        ev.append(("move", sq, frm, h))
        self._enter(sq, h, ev)
        self._after_fight(sq, prev, False)

    def _damage(self, sq: int, n: int, ev: list[Event]) -> None:
        taken = min(n, self.units[sq])
        self.units[sq] -= taken
        ev.append(("damage", sq, taken, self.units[sq]))
        if self.units[sq] == 0:
            self._leave(sq, ev)
            self.pos[sq] = -1
            self.imp[sq] = False
            self.st[sq] = DONE
            if self.boosted == sq:
                self.boosted = -1
            ev.append(("destroyed", sq))

    def _attack(self, sq: int, e: int, ammo: bool, ev: list[Event]) -> None:
        prev = self.st[sq]
        if ammo:
            self._play(AMMO, sq, ev)
        a_hex, d_hex = self.pos[sq], self.pos[e]
        ka, kd = sq % 3, e % 3
        tiles = self.tiles
        hit = max(0, ATK[ka][kd] + ATK_BONUS[tiles[a_hex]] - DEF_BONUS[tiles[d_hex]])
        ev.append(("attack", sq, e, d_hex, hit))
        self._damage(e, hit, ev)
        if ammo and self.units[e]:
            ev.append(("ammo", sq, e))
            self._damage(e, hit, ev)
        if self.units[e]:
            back = ATK[kd][ka] + ATK_BONUS[tiles[d_hex]]
            ev.append(("retaliate", e, sq, back))
            self._damage(sq, back, ev)
        elif not self.squads_at(d_hex, e // 3) and self._can_enter_empty(sq, d_hex):
            self._leave(sq, ev)
            self.pos[sq] = d_hex
            ev.append(("move-in", sq, a_hex, d_hex))
            self._enter(sq, d_hex, ev)
        self._after_fight(sq, prev, False)
        self._check_rout(ev)

    def _check_rout(self, ev: list[Event]) -> None:
        for p in (1 - self.cur, self.cur):
            if not self.alive(p):
                w = 1 - p
                self.out = Outcome((1.0, 0.0) if w == 0 else (0.0, 1.0), "rout", (w,),
                                   kind=Termination.ELIMINATION)
                ev.append(("rout", p))
                return

    def _end_turn(self, ev: list[Event]) -> None:
        me = self.cur
        ev.append(("end", me))
        self.tdone[me] += 1
        limit = self.info.turn_limit
        if limit and self.tdone[0] >= limit and self.tdone[1] >= limit:
            self.out = Outcome((0.5, 0.5), "turn limit", kind=Termination.TURN_LIMIT)
            ev.append(("turn-limit", limit))
            return
        nxt = self.cur = 1 - me
        self.st = [FRESH] * 6
        self.boosted = -1
        self.card_played = False
        ev.append(("turn", nxt, self.tdone[nxt] + 1))
        if self.seize[nxt]:
            self.seize[nxt] += 1
            ev.append(("seize", nxt, self.seize[nxt]))
            if self.seize[nxt] >= 3:
                self.out = Outcome((1.0, 0.0) if nxt == 0 else (0.0, 1.0), "seize", (nxt,),
                                   kind=Termination.OBJECTIVE)
                ev.append(("captured", nxt))

    # -- text ----------------------------------------------------------------------------------
    def parse(self, text: str, player: int | None = None) -> int:
        from boardct.games.hills.notation import parse

        return parse(self, text)

    def notation(self, action: int) -> str:
        return A.text(action)

    def describe_action(self, action: int, player: int | None = None) -> str:
        """The command in words: "Infantry moves E", "Rocketeer attacks the Mech NW"."""
        op, k, d, t = A.decode(action)
        if action == A.END:
            return "end your turn"
        s, dn, tn = KIND_NAMES[k], DIR_NAMES[d], KIND_NAMES[t]
        if op == A.MOVE:
            return f"{s} moves {dn}"
        if op == A.ATTACK:
            return f"{s} attacks the enemy {tn} {dn}"
        if op == A.DEIMPEDE:
            return f"{s} frees itself"
        if op == A.WAIT:
            return f"{s} waits"
        if op == A.ARTILLERY_OP:
            return f"Artillery Strike on the enemy {tn}"
        if op == A.BOOST_OP:
            return f"Boost: {s} moves twice"
        return f"Extra Ammo: {s} attacks the enemy {tn} {dn} twice"

    def action_group(self, action: int) -> str:
        """By squad (I, R, M), cards under "play", and "end"."""
        return A.text(action).split()[0]

    def action_targets(self, action: int, player: int | None = None) -> tuple[str, ...]:
        """The board elements an action involves, as the page draws them: the acting squad
        first (`squad:0I`), then the hex it moves or attacks into (`hex:1,-1`, in the
        BSH-19 direction from where it stands) and the enemy squad it attacks there (`squad:1R`);
        an Artillery Strike names the enemy squad it strikes (BSH-15); ending the turn
        involves none."""
        if type(action) is not int or action <= 0 or not A.is_code(action) or self.out is not None:
            return ()
        op, k, d, t = A.decode(action)
        p = self.cur
        if op == A.ARTILLERY_OP:
            return (_SQUAD_KEY[1 - p][t],)
        squad = _SQUAD_KEY[p][k]
        if op not in (A.MOVE, A.ATTACK, A.AMMO_OP):
            return (squad,)
        here = self.pos[p * 3 + k]
        there = NEIGHBOURS[here][d] if here >= 0 else -1
        if there < 0:
            return (squad,)
        if op == A.MOVE:
            return (squad, _HEX_KEY[there])
        return (squad, _HEX_KEY[there], _SQUAD_KEY[1 - p][t])

    def event_targets(self, events: Sequence[Event], viewer: int | None) -> tuple[str, ...]:
        """The squads and hexes a turn's public events name: a squad that moved and the hex it
        moved to, an attacker, the hex it attacked and the squad there (BSH-19), a squad that
        took damage (`squad:1I`, `hex:1,0`, the page's names). Every Hills event a viewer
        gets is public (`events_for`), so the viewer changes nothing."""
        out: list[str] = []

        def add(key: str) -> None:
            if key not in out:
                out.append(key)

        for e in events:
            kind = e[0] if e else None
            try:
                if kind in ("move", "move-in"):  # (kind, squad, from hex, to hex)
                    add(_SQUAD_KEY[e[1] // 3][e[1] % 3])
                    add(_HEX_KEY[e[3]])
                elif kind == "attack":  # (attack, squad, enemy squad, enemy's hex, hit)
                    add(_SQUAD_KEY[e[1] // 3][e[1] % 3])
                    add(_HEX_KEY[e[3]])
                    add(_SQUAD_KEY[e[2] // 3][e[2] % 3])
                elif kind in ("ammo", "damage"):  # (kind, squad, ...)
                    add(_SQUAD_KEY[e[1] // 3][e[1] % 3])
            except (IndexError, TypeError):  # an event of another form names nothing here
                continue
        return tuple(out)

    def reveals(self, event: Event) -> bool:
        """A face-down tile turned up, a card drawn or played, and any fight (its result is
        chance) show something new; moving, waiting and ending a turn do not."""
        return event[0] not in _QUIET_EVENTS

    def _set_outcome(self, outcome: Outcome) -> None:
        self.out = outcome

    def events_for(self, events, player: int | None) -> list[Event]:
        """Every event Hills makes is public (PUBLIC_EVENTS: no drawn card is named, a tile only
        once it is face up for both), so each player and spectator sees them all. A kind not
        known to be public never reaches a player: a new private event must be filtered here
        before it can be shown."""
        if player is None:
            return list(events)
        return [e for e in events if e and e[0] in PUBLIC_EVENTS]

    def describe(self, event: Event) -> str:
        kind = event[0]
        if kind == "reveal":
            _, h, tile, starred = event
            star = " with a star" if starred else ""
            return f"The tile at {coord_text(h)} is revealed: {TILE_NAMES[tile]}{star}."
        if kind == "stopped":  # BSH-8, BSH-27: the Mech's action is spent where it stands
            return f"{_squad(event[1])} could not enter {coord_text(event[2])}: it is a " \
                   "mountain. The Mech stays, its action spent."
        if kind == "move":
            return f"{_squad(event[1])} moves {coord_text(event[2])} -> {coord_text(event[3])}."
        if kind == "move-in":
            return f"{_squad(event[1])} moves in to {coord_text(event[3])}."
        if kind == "impeded":
            return f"{_squad(event[1])} is impeded."
        if kind == "deimpede":
            return f"{_squad(event[1])} deimpedes."
        if kind == "wait":
            return f"{_squad(event[1])} waits."
        if kind == "seize":
            return f"{_who(event[1])}'s Seize counter: {event[2]} of 3."
        if kind == "seize-reset":
            return f"{_who(event[1])}'s Seize counter is reset."
        if kind == "captured":
            return f"{_who(event[1])} captures the enemy headquarters!"
        if kind == "draw":
            return f"{_squad(event[2])} finds a star: {_who(event[1])} draws a bonus card."
        if kind == "survivors":
            return f"{_squad(event[1])} finds a star: Survivors Found, +{event[2]} units."
        if kind == "deck-empty":
            return f"{_squad(event[1])} finds a star, but the bonus deck is empty."
        if kind == "play":
            _, p, card, who = event
            if card == ARTILLERY:
                return f"{_who(p)} plays Artillery Strike on {_squad(who)}."
            if card == BOOST:
                return f"{_who(p)} plays Boost on their {KIND_NAMES[who % 3]}."
            return f"{_who(p)} plays Extra Ammo with their {KIND_NAMES[who % 3]}'s attack."
        if kind == "attack":
            _, sq, e, h, hit = event
            return f"{_squad(sq)} attacks {_squad(e)} at {coord_text(h)} for {hit}."
        if kind == "ammo":
            return f"Extra Ammo: {_squad(event[1])} strikes {_squad(event[2])} again."
        if kind == "retaliate":
            return f"{_squad(event[1])} strikes back at {_squad(event[2])} for {event[3]}."
        if kind == "damage":
            _, sq, taken, left = event
            return f"{_squad(sq)} loses {_units(taken)} ({left} left)."
        if kind == "destroyed":
            return f"{_squad(event[1])} is destroyed."
        if kind == "rout":
            return f"{_who(event[1])} has no squads left."
        if kind == "auto-end":
            return f"{_who(event[1])} has nothing left to do."
        if kind == "end":
            return f"{_who(event[1])} ends the turn."
        if kind == "turn":
            return f"{_who(event[1])}'s turn {event[2]}."
        if kind == "turn-limit":
            return f"Both players have played {event[1]} turns: the game is a draw."
        return super().describe(event)

    def prompt(self) -> str:
        if self.out is not None:
            return ""
        me = self.cur
        ready = [KIND_LETTERS[k] for k in range(3)
                 if self.units[me * 3 + k] and self.st[me * 3 + k] in (FRESH, EXTRA)]
        left = " ".join(ready) if ready else "none"
        return f"Player {me + 1} (turn {self.tdone[me] + 1}, to act: {left}): "

    # -- views ---------------------------------------------------------------------------------
    def turn_number(self) -> int:
        """Player turns done by both, plus one (each player's own count is the board's
        `turns_done`; the limit counts those)."""
        return self.tdone[0] + self.tdone[1] + 1

    def board_view(self, player: int | None) -> dict:
        """The map (face-down tiles as None), the squads, what each player may know of the
        hands and the deck; `hands` holds only the viewer's own. `turn_player`: whose turn it
        is (None after the end)."""
        hexes = []
        for h, (q, r) in enumerate(HEXES):
            if self.rev[h]:
                tile = TILE_LETTERS[self.tiles[h]] + (str(HQ.index(h)) if h in HQ else "")
                hexes.append({"q": q, "r": r, "tile": tile, "star": self.star[h] == 1,
                              "star_used": self.star[h] == 2})
            else:
                hexes.append({"q": q, "r": r, "tile": None})
        squads = []
        for sq in range(6):
            entry = {"player": sq // 3, "kind": KIND_LETTERS[sq % 3], "units": self.units[sq]}
            if self.units[sq]:
                q, r = HEXES[self.pos[sq]]
                entry.update(q=q, r=r, impeded=self.imp[sq],
                             status=STATUS_WORDS[self.st[sq]] if sq // 3 == self.cur else "")
            squads.append(entry)
        hands: dict[str, list[str]] = {}
        if player is not None:
            hands[str(player)] = [CARD_WORDS[c] for c in range(4)
                                  for _ in range(self.hand[player * 4 + c])]
        revealed = [0, 0, 0]
        for h in LAND:
            if self.rev[h]:
                revealed[self.tiles[h]] += 1
        info = self.info
        return {
            "turn_player": self.cur if self.out is None else None,
            "first": info.first,
            "turns_done": list(self.tdone),
            "turn_limit": info.turn_limit,
            "card_played": self.card_played,
            "boosted": KIND_LETTERS[self.boosted % 3] if self.boosted >= 0 else None,
            "hexes": hexes,
            "squads": squads,
            "seize": list(self.seize),
            "hands": hands,
            "hand_sizes": [sum(self.hand[0:4]), sum(self.hand[4:8])],
            "hand_facts": [{"no_artillery": self.known[b + 1] + self.known[b + 2],
                            "only_ammo": self.known[b + 2]} for b in (0, 3)],
            "deck_size": len(self.deck),
            "discard": [CARD_WORDS[c] for c in self.discard],
            "tile_counts": dict(zip("PMF", info.tile_counts, strict=True)),
            "face_down": {
                "P": info.tile_counts[0] - revealed[0],
                "M": info.tile_counts[1] - revealed[1],
                "F": info.tile_counts[2] - revealed[2],
            },
            "stars_total": info.star_total,
            "stars_face_down": info.star_total - sum(1 for h in LAND
                                                     if self.rev[h] and self.star[h]),
            "deck_mix": dict(zip(CARD_WORDS, info.deck_mix, strict=True)),
        }

    # -- for learners (encoding.py, docs/hills.md "For learners") -----------------
    def action_id(self, action: int, player: int | None = None) -> int:
        return enc.action_id(action)

    def id_action(self, action_id: int, player: int | None = None) -> int:
        return enc.id_action(action_id)

    def legal_ids(self, player: int | None = None) -> list[int]:
        """`action_id` of each legal action, ascending: `legal_actions` step for step, made
        in ids (its tables in ids: `_MOVE_IDS`, `_STEP_IDS`, ...) rather than each code
        looked up, then sorted (a learner's every step; tests/hills/test_hills_batch.py
        holds the two to the same answers). No set: each id comes once, as each code does."""
        if self.out is not None or (player is not None and player != self.cur):
            return []
        me = self.cur
        ids = [0]  # end
        units, st, imp = self.units, self.st, self.imp
        card_ok = not self.card_played
        hand = self.hand
        with_ammo = card_ok and hand[me * 4 + AMMO] > 0
        for sq, deimpede, wait in _SQUAD_IDS[me]:
            if units[sq] == 0:
                continue
            s = st[sq]
            if s == FRESH:
                if imp[sq]:
                    ids.append(deimpede)
                    continue
            elif s != EXTRA:
                continue
            n = len(ids)
            self._squad_options(sq, ids, _MOVE_IDS, _STEP_IDS)
            if with_ammo:
                for a in ids[n:]:
                    if a >= _FIRST_ATTACK_ID:
                        ids.append(a + _AMMO_SHIFT)
            if s == FRESH:
                ids.append(wait)
        if card_ok:
            if hand[me * 4 + ARTILLERY]:
                ebase = (1 - me) * 3
                for t in range(3):
                    if units[ebase + t]:
                        ids.append(_ARTILLERY_IDS[t])
            if hand[me * 4 + BOOST]:
                for k in range(3):
                    if self._boost_eligible(me * 3 + k):
                        ids.append(_BOOST_IDS[k])
        ids.sort()
        return ids

    def apply_id(self, action_id: int, player: int | None = None) -> list[Event]:
        """`apply(id_action(action_id))`, the id's code looked up directly (a learner's every
        step); an id that is not a plain int in range goes through `enc.id_action`, which
        says what is wrong with it."""
        if type(action_id) is int and 0 <= action_id < enc.NUM_ACTIONS:
            return self.apply(enc.CODES[action_id], player)
        return self.apply(enc.id_action(action_id), player)

    def observation_tensor(self, player: int) -> list[float]:
        """`enc.observation(self.view(player), player)`, built without the view (its fast
        path: the same values, tested)."""
        return enc.fast_observation(self, player)

    def information_state_tensor(self, player: int) -> list[float]:
        return enc.fast_information_state(self, player)

    def observation_entries(self, player: int) -> dict[int, float]:
        return enc.fast_entries(self, player)

    def observation_array(self, player: int) -> array:
        return enc.fast_array(self, player)

    def information_state_entries(self, player: int) -> dict[int, float]:
        return enc.fast_information_entries(self, player)

    def information_state_string(self, player: int) -> str:
        """The observation string and every action of the game so far (every Hills action is
        public): perfect recall, unlike the tensor, which keeps the last `HISTORY`."""
        moves = "; ".join(f"Player {who + 1}: {self.notation(a)}" for who, a in self.history())
        return f"{self.observation_string(player)}\nactions: {moves}"

    def render(self, player: int | None = None) -> str:
        from boardct.games.hills.render import segments

        return "".join(text for text, _ in segments(self, player))

    def render_rich(self, player: int | None = None) -> Text:
        from rich.text import Text

        from boardct.games.hills.render import segments

        out = Text()
        for text, style in segments(self, player):
            out.append(text, style=style or None)
        return out

    def render_compact(self, player: int | None = None) -> Text:
        from rich.text import Text

        from boardct.games.hills.render import compact_segments

        out = Text()
        for text, style in compact_segments(self, player):
            out.append(text, style=style or None)
        return out

    # -- hidden information --------------------------------------------------------------------
    def determinize(self, player: int | None, seed: int) -> HillsState:
        """A full state `player` cannot tell from this one: the face-down tiles and their stars,
        the deck order and the opponent's hand resampled from `seed` (None: both hands), and
        a fresh seed in its setup (the real one would regenerate the hidden layout): it is for
        search only, its record replays nothing real."""
        c = self.clone()
        rng = Rng(seed)
        # the real seed (or a layout option, BSH-39) regenerates the whole hidden setup
        # (BSH-2, BSH-3): the sample gets its own seed and no layout
        st = self.setup
        options = {**st.options, "layout": ""} if st.options.get("layout") else st.options
        c.setup = Setup(rng.next64() >> 1, options, st.names, st.created)
        c.rng = rng
        down = [h for h in LAND if not self.rev[h]]
        bag: list[int] = []
        revealed = [0, 0, 0]
        stars_seen = 0
        for h in LAND:
            if self.rev[h]:
                revealed[self.tiles[h]] += 1
                stars_seen += self.star[h] != 0
        for t in range(3):
            bag += [t] * (self.info.tile_counts[t] - revealed[t])
        rng.shuffle(bag)
        tiles = self.tiles[:]
        for h, t in zip(down, bag, strict=True):
            tiles[h] = t
        c.tiles = tiles
        order = down[:]
        rng.shuffle(order)
        starred = set(order[: self.info.star_total - stars_seen])
        for h in down:
            c.star[h] = 1 if h in starred else 0
        # Cards: everything not in the discard or a known hand is in the deck or a hidden hand.
        pool = list(self.info.deck_mix)
        for card in self.discard:
            pool[card] -= 1
        hidden = [0, 1] if player is None else [1 - player]
        for p in (0, 1):
            if p not in hidden:
                for card in range(4):
                    pool[card] -= self.hand[p * 4 + card]
        cards = [card for card in range(4) for _ in range(pool[card])]
        rng.shuffle(cards)
        # Deal each hidden hand slot by slot, the most constrained first (only Extra Ammo,
        # then anything but Artillery, then anything but Survivors Found, BSH-14/BSH-24),
        # each from the shuffled unseen cards.
        allowed = ((ARTILLERY, AMMO, BOOST), (AMMO, BOOST), (AMMO,))
        for p in hidden:
            for card in range(4):
                c.hand[p * 4 + card] = 0
            for j in (2, 1, 0):
                for _ in range(self.known[p * 3 + j]):
                    i = next((i for i, x in enumerate(cards) if x in allowed[j]), -1)
                    if i < 0:  # pragma: no cover - the facts never exclude the truth
                        i = next(i for i, x in enumerate(cards) if x != SURVIVORS)
                    c.hand[p * 4 + cards.pop(i)] += 1
        rng.shuffle(cards)  # dealing around some cards biased the order: shuffle again
        c.deck = cards
        return c

    # -- scenarios -----------------------------------------------------------------------------
    def arrange(self, squads: dict[str, tuple] | None = None, *, to_move: int | None = None,
                reveal: tuple[tuple[int, int], ...] = (), hands: tuple[tuple[int, ...], ...]
                | None = None, seize: tuple[int, int] | None = None) -> HillsState:
        """Set up a position for a scenario (tests, tutorials), in place; returns self.

        squads maps "0I" (player digit, kind letter) to (q, r, units[, impeded]) or None for a
        destroyed squad; squads not named stay where they are. reveal turns tiles face up;
        hands gives each player's cards as counts (survivors, artillery, ammo, boost)."""
        from boardct.games.hills.board import INDEX

        for key, spec in (squads or {}).items():
            sq = int(key[0]) * 3 + KIND_LETTERS.index(key[1].upper())
            if spec is None:
                self.units[sq], self.pos[sq], self.imp[sq] = 0, -1, False
                continue
            q, r, n = spec[:3]
            h = INDEX[(q, r)]
            self.units[sq], self.pos[sq] = n, h
            self.imp[sq] = bool(spec[3]) if len(spec) > 3 else False
            self.rev[h] = True
        for q, r in reveal:
            self.rev[INDEX[(q, r)]] = True
        if hands is not None:
            self.hand = [n for counts in hands for n in counts]
            self.known = [sum(self.hand[0:4]) - self.hand[0], 0, 0,
                          sum(self.hand[4:8]) - self.hand[4], 0, 0]
            mix = [self.hand[c] + self.hand[4 + c] for c in range(4)]
            for card in self.deck + self.discard:
                mix[card] += 1
            # the dealt cards are extra
            self.info = replace(self.info, deck_mix=(mix[0], mix[1], mix[2], mix[3]))
        if seize is not None:
            self.seize = list(seize)
        if to_move is not None:
            self.cur = to_move
        self.st = [FRESH] * 6
        return self
