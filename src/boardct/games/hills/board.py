"""The fixed parts of Battle for The Shifting Hills: map geometry, tiles, units, cards.

Hexes are numbered 0..36 in canonical order (by r, then q; BSH-19), so a hex is a small int
and every table below is a tuple indexed by it.
"""

from __future__ import annotations

RADIUS = 3

# Directions (BSH-19): axial deltas, q grows east, r grows south; pointy-top hexes.
DIR_NAMES = ("E", "NE", "NW", "W", "SW", "SE")
DIR_DELTAS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

HEXES: tuple[tuple[int, int], ...] = tuple(
    (q, r)
    for r in range(-RADIUS, RADIUS + 1)
    for q in range(-RADIUS, RADIUS + 1)
    if max(abs(q), abs(r), abs(q + r)) <= RADIUS
)
INDEX: dict[tuple[int, int], int] = {qr: i for i, qr in enumerate(HEXES)}
N_HEXES = len(HEXES)  # 37 (BSH-1)


def _neighbours(i: int) -> tuple[int, ...]:
    q, r = HEXES[i]
    return tuple(INDEX.get((q + dq, r + dr), -1) for dq, dr in DIR_DELTAS)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(i) for i in range(N_HEXES))
# (direction, hex) of each neighbour on the map, for the move generator's inner loop
NEIGHBOUR_PAIRS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((d, t) for d, t in enumerate(nb) if t >= 0) for nb in NEIGHBOURS
)

# Headquarters on the r = 0 diameter (BSH-20).
HQ = (INDEX[(-2, 0)], INDEX[(2, 0)])
LAND = tuple(i for i in range(N_HEXES) if i not in HQ)  # the 35 land hexes, canonical order

# Terrain codes. A land hex holds PLAINS, MOUNTAIN or FOREST; the two HQ hexes hold HQ_TILE.
PLAINS, MOUNTAIN, FOREST, HQ_TILE = 0, 1, 2, 3
TILE_LETTERS = ("P", "M", "F", "H")
TILE_NAMES = ("plains", "mountain", "forest", "headquarters")
TILE_COUNTS = (15, 10, 10)  # BSH-2
ATK_BONUS = (0, 1, 0, 0)  # BSH-12
DEF_BONUS = (0, 1, 1, 0)

# Units: a squad's kind. Each player owns one squad of each kind, so squad = player * 3 + kind.
INFANTRY, ROCKETEER, MECH = 0, 1, 2
KIND_LETTERS = ("I", "R", "M")
KIND_NAMES = ("Infantry", "Rocketeer", "Mech")
START_UNITS = (6, 6, 4)  # BSH-4
UNIT_CAP = 25  # BSH-4, BSH-22
# ATK[attacker kind][defender kind] (rulebook table).
ATK = ((1, 3, 2), (2, 1, 3), (4, 2, 1))

# Bonus cards (BSH-3, BSH-14, BSH-15).
SURVIVORS, ARTILLERY, AMMO, BOOST = 0, 1, 2, 3
CARD_WORDS = ("survivors", "artillery", "ammo", "boost")
CARD_NAMES = ("Survivors Found", "Artillery Strike", "Extra Ammo", "Boost")
DEFAULT_DECK = (3, 3, 3, 3)
DEFAULT_STARS = 8

# Input limits (options and layout files). A star draws one card and is used up (BSH-21), and
# at most the 35 land tiles carry a star (BSH-3), so no game draws more than 35 cards: more of
# one kind can never come into play. A deck holds at most 35 of each kind.
MAX_CARDS_PER_KIND = len(LAND)
MAX_DECK = MAX_CARDS_PER_KIND * len(CARD_WORDS)
# Turns per player (BSH-18): 5,000 is over thirty times the default, and a game that runs to it
# (a handful of actions a turn) stays inside what a record holds (core.records.MAX_ACTIONS).
MAX_TURN_LIMIT = 5_000


def coord_text(i: int) -> str:
    q, r = HEXES[i]
    return f"({q},{r})"
