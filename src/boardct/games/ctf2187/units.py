"""Bots and command posts: the mutable pieces of a CTF 2187 state, cheap to copy."""

from __future__ import annotations

from boardct.games.ctf2187.tables import Design

STANDING, KNEELING, PRONE = 0, 1, 2
POSTURES = ("standing", "kneeling", "prone")
FUNCTIONAL, WRECKED = 0, 1
ALIVE, DEAD, EJECTED = 0, 1, 2
PILOT_STATES = ("alive", "killed", "ejected")
OK, DAMAGED, DESTROYED = 0, 1, 2
WEAPON_STATES = ("ok", "damaged", "destroyed")
TEAM_LETTERS = "ABCD"


def default_standing() -> tuple[int, ...]:
    """CTF-36: move 6 in phases 1 and 3, move 13 in 2, 4, 5; attack 2 with weapon 0."""
    out: list[int] = []
    for move in (6, 13, 6, 13, 13):
        out += [move, 0, 2, 0, 0]
    return tuple(out)


class Bot:
    """One Bot and its pilot. Lists are copied by `copy`; `design` is shared."""

    __slots__ = (
        "num", "team", "player", "design", "x", "y", "facing", "posture", "status", "pilot",
        "ap", "ap_start", "heat", "band", "cooled", "wounds", "armour", "internal", "engines",
        "weapons", "shut", "legless", "fallen", "last_by", "last_at", "vp", "standing", "sheet",
        "entered", "sprinted", "wreck_reason",
    )

    def __init__(self, num: int, team: int, player: int, design: Design, x: int, y: int,
                 facing: int):
        self.num = num
        self.team = team
        self.player = player
        self.design = design
        self.x = x
        self.y = y
        self.facing = facing
        self.posture = STANDING
        self.status = FUNCTIONAL
        self.pilot = ALIVE
        self.ap = 0
        self.ap_start = 0
        self.heat = 0
        self.band = 0
        self.cooled = 0
        self.wounds = 0
        self.armour = list(design.armour)
        self.internal = list(design.internal)
        # engine i sits in the front torso for the first half (rounded up), else the rear
        self.engines = [1] * design.engines
        self.weapons = [OK] * len(design.weapons)
        self.shut = False
        self.legless = False
        self.fallen = False
        self.last_by = 0
        self.last_at = 0
        self.vp = 0
        self.standing = default_standing()
        self.sheet: tuple[int, ...] | None = None
        self.entered = 0
        self.sprinted = False
        self.wreck_reason = ""

    def copy(self) -> Bot:
        b = Bot.__new__(Bot)
        b.num = self.num
        b.team = self.team
        b.player = self.player
        b.design = self.design
        b.x = self.x
        b.y = self.y
        b.facing = self.facing
        b.posture = self.posture
        b.status = self.status
        b.pilot = self.pilot
        b.ap = self.ap
        b.ap_start = self.ap_start
        b.heat = self.heat
        b.band = self.band
        b.cooled = self.cooled
        b.wounds = self.wounds
        b.armour = self.armour[:]
        b.internal = self.internal[:]
        b.engines = self.engines[:]
        b.weapons = self.weapons[:]
        b.shut = self.shut
        b.legless = self.legless
        b.fallen = self.fallen
        b.last_by = self.last_by
        b.last_at = self.last_at
        b.vp = self.vp
        b.standing = self.standing
        b.sheet = self.sheet
        b.entered = self.entered
        b.sprinted = self.sprinted
        b.wreck_reason = self.wreck_reason
        return b

    @property
    def functional(self) -> bool:
        return self.status == FUNCTIONAL

    def functional_engines(self) -> int:
        return sum(self.engines)

    def engine_tons100(self) -> int:
        return sum(self.engines) * self.design.engine_tons100

    @property
    def label(self) -> str:
        return f"Bot {self.num}"


class CommandPost:
    """A team's command post (CTF-34): structure points, all-round weapons, Ruins at 0."""

    __slots__ = ("team", "num", "x", "y", "structure")

    def __init__(self, team: int, num: int, x: int, y: int, structure: int):
        self.team = team
        self.num = num
        self.x = x
        self.y = y
        self.structure = structure

    def copy(self) -> CommandPost:
        c = CommandPost.__new__(CommandPost)
        c.team = self.team
        c.num = self.num
        c.x = self.x
        c.y = self.y
        c.structure = self.structure
        return c

    @property
    def operational(self) -> bool:
        return self.structure > 0

    @property
    def label(self) -> str:
        return f"{TEAM_LETTERS[self.team]}{self.num}"
