"""Pieces, squares, facings and turn tokens of Force Field Factions as small integers.

A piece is one int (`code`) packing owner, size, facing and its nest of fields; lookup tables
give every property in one index, so the hot paths never build objects. Squares are
`rank * 8 + file` (a1 = 0, h1 = 7, a8 = 56). Token codes are numbered in ASCII order of their
text, so comparing token tuples compares turn texts (FFF-31 tie-break) without building them.
"""

from __future__ import annotations

BLACK, WHITE = 0, 1
OWNER_LETTERS = "BW"
OWNER_NAMES = ("Black", "White")

# FFF-3 / FFF-32 colour order: r g b y p o c.
COLOURS = "rgbypoc"
COLOUR_NAMES = ("red", "green", "blue", "yellow", "purple", "orange", "clear")
RED, GREEN, BLUE, YELLOW, PURPLE, ORANGE, CLEAR = range(7)

# FFF-2 facings; U is upright.
FACINGS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW", "U")
UP = 8
FACING_INDEX = {name: i for i, name in enumerate(FACINGS)}
_DELTAS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))

FILES = "abcdefgh"
SQUARE_NAMES = tuple(f"{FILES[s % 8]}{s // 8 + 1}" for s in range(64))
SQUARE_INDEX = {name: i for i, name in enumerate(SQUARE_NAMES)}

# NEXT[sq * 9 + facing]: the square ahead, or -1 (off the board, or upright).
NEXT: list[int] = []
for _sq in range(64):
    _f, _r = _sq % 8, _sq // 8
    for _d in range(9):
        if _d == UP:
            NEXT.append(-1)
            continue
        _df, _dr = _DELTAS[_d]
        _nf, _nr = _f + _df, _r + _dr
        NEXT.append(_nr * 8 + _nf if 0 <= _nf < 8 and 0 <= _nr < 8 else -1)

START_COUNTS = (3, 3, 2)  # pieces per player of sizes 1, 2, 3 (FFF-1)
BACK_RANK = (3, 2, 1, 2, 1, 2, 1, 3)


def make(owner: int, size: int, facing: int, fields: tuple[int, ...] = ()) -> int:
    """The code of a piece; `fields` are colour indices, inner to outer."""
    f0 = fields[0] + 1 if len(fields) > 0 else 0
    f1 = fields[1] + 1 if len(fields) > 1 else 0
    return 1 + owner + 2 * (size - 1) + 6 * facing + 54 * (f0 + 8 * f1)


NCODES = 1 + 54 * 64
OWNER = [0] * NCODES
SIZE = [0] * NCODES
FACING = [0] * NCODES
FIELDS: list[tuple[int, ...]] = [()] * NCODES
NFIELDS = [0] * NCODES
GHOST = [False] * NCODES  # out of phase: carries a clear field (FFF-14)
ATTACK = [0] * NCODES  # 1 + red fields (FFF-8)
DEFENCE = [0] * NCODES  # 1 (2 upright) + blue fields (FFF-8)
POINTS = [0] * NCODES  # pips, doubled by yellow (FFF-5)
HAS = [[False] * NCODES for _ in range(7)]  # HAS[colour][code]
BARE = [0] * NCODES  # the same piece with no fields
FACE0 = [0] * NCODES  # the code with facing N: code = FACE0[code] + 6 * facing

for _code in range(1, NCODES):
    _x = _code - 1
    _owner, _x = _x % 2, _x // 2
    _size, _x = _x % 3 + 1, _x // 3
    _facing, _x = _x % 9, _x // 9
    _f0, _f1 = _x % 8, _x // 8
    _fields = tuple(c - 1 for c in (_f0, _f1) if c)
    OWNER[_code], SIZE[_code], FACING[_code] = _owner, _size, _facing
    FIELDS[_code] = _fields
    NFIELDS[_code] = len(_fields)
    GHOST[_code] = CLEAR in _fields
    ATTACK[_code] = 1 + _fields.count(RED)
    DEFENCE[_code] = 1 + (_facing == UP) + _fields.count(BLUE)
    POINTS[_code] = _size * (2 if YELLOW in _fields else 1)
    for _c in _fields:
        HAS[_c][_code] = True
    BARE[_code] = make(_owner, _size, _facing)
    FACE0[_code] = _code - 6 * _facing


def field_slot(size: int, depth: int) -> int:
    """Pool index offset for the field at nest depth `depth` (0 inner) of a piece of `size`:
    0 for a 2-pip field, 1 for a 3-pip field (FFF-7)."""
    return 1 if size == 2 or depth == 1 else 0


def addable_slot(code: int) -> int:
    """Which field size the piece would take next (0: 2-pip, 1: 3-pip), or -1 if none (FFF-7)."""
    size, n = SIZE[code], NFIELDS[code]
    if size == 3 or (size == 2 and n >= 1) or n >= 2:
        return -1
    return 1 if size == 2 or n == 1 else 0


def with_field(code: int, colour: int) -> int:
    """The piece with one more field (outermost) of `colour`."""
    return make(OWNER[code], SIZE[code], FACING[code], FIELDS[code] + (colour,))


def without_outer(code: int) -> int:
    return make(OWNER[code], SIZE[code], FACING[code], FIELDS[code][:-1])


ADDABLE = [addable_slot(c) if c else -1 for c in range(NCODES)]
WITH_FIELD = [[with_field(c, col) if c and ADDABLE[c] >= 0 else 0 for c in range(NCODES)]
              for col in range(7)]


def piece_text(code: int) -> str:
    """`B2N` or `W1SE:gr`: owner, size, facing, fields inner to outer (as in FFF-32)."""
    fields = "".join(COLOURS[c] for c in FIELDS[code])
    base = f"{OWNER_LETTERS[OWNER[code]]}{SIZE[code]}{FACINGS[FACING[code]]}"
    return f"{base}:{fields}" if fields else base


# ---- turn tokens (FFF-30) -------------------------------------------------------------------
# Kinds of the tokens after the selection.
K_ADD, K_REMOVE, K_TURN, K_STEP, K_FAIL, K_HIT, K_CONVERT = range(7)

_texts: list[tuple[str, int, int, int]] = []
for _c in range(7):
    _texts.append(("+" + COLOURS[_c], K_ADD, _c, 0))
    _texts.append(("-" + COLOURS[_c], K_REMOVE, _c, 0))
for _d in range(9):
    _texts.append((FACINGS[_d], K_TURN, _d, 0))
    _texts.append(("x" + FACINGS[_d], K_HIT, _d, 0))
    for _e in range(9):
        _texts.append((f"x{FACINGS[_d]}/{FACINGS[_e]}", K_CONVERT, _d, _e))
_texts.append(("m", K_STEP, 0, 0))
_texts.append(("x", K_FAIL, 0, 0))
_texts.sort()

TOKEN_TEXT = tuple(t[0] for t in _texts)
TOKEN_KIND = tuple(t[1] for t in _texts)
TOKEN_A = tuple(t[2] for t in _texts)
TOKEN_B = tuple(t[3] for t in _texts)
TOKEN_CODE = {t: i for i, t in enumerate(TOKEN_TEXT)}

T_ADD = tuple(TOKEN_CODE["+" + c] for c in COLOURS)
T_REMOVE = tuple(TOKEN_CODE["-" + c] for c in COLOURS)
T_TURN = tuple(TOKEN_CODE[f] for f in FACINGS)
T_HIT = tuple(TOKEN_CODE["x" + f] for f in FACINGS)
T_CONVERT = tuple(tuple(TOKEN_CODE[f"x{d}/{e}"] for e in FACINGS) for d in FACINGS)
T_STEP = TOKEN_CODE["m"]
T_FAIL = TOKEN_CODE["x"]


def qcode(sq: int, tilde: bool) -> int:
    """The selection token as an int ordered like its text (`a1` < `a1~` < `a2` < `b1`)."""
    return (sq % 8) * 16 + (sq // 8) * 2 + (1 if tilde else 0)


def q_square(q: int) -> int:
    return ((q % 16) // 2) * 8 + q // 16


def q_text(q: int) -> str:
    return SQUARE_NAMES[q_square(q)] + ("~" if q & 1 else "")
