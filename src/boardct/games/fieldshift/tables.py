"""FieldShift's fixed tables (FS-1..FS-4, FS-11): terrain, classes, rulesets, and the range and
damage lookups precomputed for every (ruleset, class, attacker sector, target sector)."""

from __future__ import annotations

LSTD, STDEX, TYPE_A = 0, 1, 2
RULESETS = ("lstd", "stdex", "type-a")
RULESET_NAMES = ("LSTD", "STDEX", "STDEX Type-A")
# The earlier tool's save files write the ruleset as 0, 1 or -1 (FS-24).
OLD_TOOL_RULESET = {"0": LSTD, "1": STDEX, "-1": TYPE_A}

DISPUTE, REJECT = 0, 1
VIOLATION_MODES = ("dispute", "reject")

# FS-1: terrain per sector.
RUINS, GRASS, PLAIN, MOUNT = 0, 1, 2, 3
TERRAIN = (RUINS, GRASS, PLAIN, PLAIN, MOUNT, MOUNT, PLAIN, PLAIN, GRASS, RUINS)
TERRAIN_NAMES = ("Ruins", "Grass", "Plain", "Mount")
BASE = (0, 9)  # each player's base sector
SIGN = ("+", "-")

# FS-2: class = operator number mod 5.
LONGWATCH, BLADE, TECHNICIAN, MEDIC, SPECIALIST = range(5)
CLASS_NAMES = ("Longwatch", "Blade", "Technician", "Medic", "Specialist")
SKILL_NAMES = ("One shot, one kill", "Assassinate", "Cyberwarfare", "Extend", "Quick draw")

# FS-3: attack and class range per ruleset.
ATTACK = (3, 3, 2)
CLASS_RANGE = ((5, 0, 3, 3, 3), (5, 0, 3, 3, 3), (5, 0, 2, 2, 2))

FACILITY_NAMES = ("Artillery", "Medbay", "Command center")
ARTILLERY, MEDBAY, COMMAND = 0, 1, 2
VITALITY = 5
BLEED_TURNS = 5
COOLDOWN = 5


def effective_range(ruleset: int, cls: int, at: int, to: int) -> int:
    """FS-11 (amended): class range less the terrain penalties, which add and may take it below
    0. A negative range reaches nothing, not even the attacker's own sector: two range-3
    operators in the same Ruins cannot hit each other (3 - 2 - 2), a Longwatch there can
    (5 - 2 - 2 = 1). That is the manual's arithmetic and what its author's tool does. The Blade's
    range is 0 whatever the terrain: it always reaches its own sector and nothing else."""
    if cls == BLADE:
        return 0
    r = CLASS_RANGE[ruleset][cls]
    return r - 2 * (TERRAIN[at] == RUINS) - 2 * (TERRAIN[to] == RUINS) - (TERRAIN[to] == GRASS)


# IN_RANGE[ruleset][cls][attacker sector] = frozenset of target sectors in range (a negative
# effective range leaves the sector out: |distance| >= 0 > range). HIT, legal_actions, the
# overwatch trigger and the evaluation all read this one table, so they agree by construction.
IN_RANGE = tuple(
    tuple(
        tuple(
            frozenset(to for to in range(10) if abs(at - to) <= effective_range(rs, cls, at, to))
            for at in range(10)
        )
        for cls in range(5)
    )
    for rs in range(3)
)

# DAMAGE[ruleset][attacker sector][target sector] (FS-11).
DAMAGE = tuple(
    tuple(
        tuple(
            ATTACK[rs] + (TERRAIN[at] == MOUNT) + (TERRAIN[to] == MOUNT) - (TERRAIN[to] == RUINS)
            for to in range(10)
        )
        for at in range(10)
    )
    for rs in range(3)
)

# FS-16/FS-31: Assassinate deals 5 at the target's sector: Ruins 4, Mountains 7.
ASSASSINATE = tuple(
    5 + 2 * (TERRAIN[s] == MOUNT) - (TERRAIN[s] == RUINS) for s in range(10)
)
