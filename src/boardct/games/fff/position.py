"""The position text of FFF-32, read with the checks of FFF-33.

`Board` holds what a position is (FFF-29): the square lists, side to move, pool, lost counts
and no-capture count. Reading reports the field and the item that is wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from boardct.core.errors import ParseError
from boardct.core.inputs import ascii_int, strip_bom
from boardct.games.fff.notation import shown
from boardct.games.fff.pieces import (
    BACK_RANK,
    COLOUR_NAMES,
    COLOURS,
    FACING_INDEX,
    GHOST,
    OWNER,
    OWNER_LETTERS,
    OWNER_NAMES,
    SIZE,
    SQUARE_INDEX,
    SQUARE_NAMES,
    START_COUNTS,
    make,
    piece_text,
)
from boardct.games.fff.rules import RELEASE

INITIAL = ("B3a1N,B2b1N,B1c1N,B2d1N,B1e1N,B2f1N,B1g1N,B3h1N,"
           "W3a8S,W2b8S,W1c8S,W2d8S,W1e8S,W2f8S,W1g8S,W3h8S "
           "B r33g33b33y33p33o33c33 000/000 0")

_PIECE = re.compile(r"([BW])([123])([a-h][1-8])(NE|NW|SE|SW|N|E|S|W|U)(?::([a-z]*))?")
_POOL = re.compile(r"(?:[rgbyopc][0-3][0-3]){7}")
_LOST = re.compile(r"([0-3])([0-3])([0-3])/([0-3])([0-3])([0-3])")
# The no-capture count (FFF-28) at most: far above any turn limit (`FFFGame` allows 10,000),
# and few enough digits that no number of thousands of digits reaches `int()`.
MAX_COUNT = 999_999


@dataclass
class Board:
    main: list[int]
    ghost: list[int]
    pool: list[int]
    lost: list[int]
    cnt: list[int]
    turn: int
    count: int


def counts(main: list[int], ghost: list[int]) -> list[int]:
    cnt = [0] * 6
    for lst in (main, ghost):
        for c in lst:
            if c:
                cnt[OWNER[c] * 3 + SIZE[c] - 1] += 1
    return cnt


def carried(main: list[int], ghost: list[int]) -> list[int]:
    """Fields on the board per pool index (colour * 2 + slot)."""
    out = [0] * 14
    for lst in (main, ghost):
        for c in lst:
            if c:
                for i in RELEASE[c]:
                    out[i] += 1
    return out


def initial_board() -> Board:
    main = [0] * 64
    for f, size in enumerate(BACK_RANK):
        main[f] = make(0, size, 0)
        main[56 + f] = make(1, size, 4)
    return Board(main, [0] * 64, [3] * 14, [0] * 6, counts(main, [0] * 64), 0, 0)


def write(b: Board) -> str:
    """The FFF-32 text: pieces a1..h8 (out-of-phase first), side, pool, lost, count."""
    pieces = []
    for sq in range(64):
        for c in (b.ghost[sq], b.main[sq]):
            if c:
                text = piece_text(c)
                base, _, fields = text.partition(":")
                pieces.append(f"{base[:2]}{SQUARE_NAMES[sq]}{base[2:]}"
                              + (f":{fields}" if fields else ""))
    pool = "".join(f"{COLOURS[c]}{b.pool[c * 2]}{b.pool[c * 2 + 1]}" for c in range(7))
    lost = "".join(map(str, b.lost[:3])) + "/" + "".join(map(str, b.lost[3:]))
    return f"{','.join(pieces) or '-'} {OWNER_LETTERS[b.turn]} {pool} {lost} {b.count}"


def read(text: str) -> Board:
    """Read an FFF-32 position, rejecting what FFF-33 forbids."""
    if not isinstance(text, str):
        raise ParseError("a position is text", str(text), 0)
    text = strip_bom(text.strip()).strip()  # a position file saved by Windows Notepad
    fields = text.split(" ")
    if len(fields) != 5 or not all(fields):
        raise ParseError(f"position: five fields separated by single spaces are needed (pieces, "
                         f"side to move, pool, lost counts, no-capture count); found "
                         f"{len(fields)}", text, 0)
    offsets = []
    pos = 0
    for f in fields:
        offsets.append(pos)
        pos += len(f) + 1

    def fail(field: int, message: str, where: int | None = None) -> ParseError:
        name = ("pieces", "side to move", "pool", "lost counts", "no-capture count")[field]
        at = offsets[field] if where is None else where
        return ParseError(f"position {name} (column {at + 1}): {message}", text, at)

    main, ghost = [0] * 64, [0] * 64
    if fields[0] != "-":
        at = offsets[0]
        for item in fields[0].split(","):
            m = _PIECE.fullmatch(item)
            if not m:
                raise fail(0, f"'{shown(item)}' is not a piece like B2d1N or W1c8S:gr", at)
            owner = OWNER_LETTERS.index(m.group(1))
            size = int(m.group(2))
            sq = SQUARE_INDEX[m.group(3)]
            colours = m.group(5) or ""
            if m.group(5) is not None and not colours:
                raise fail(0, f"'{item}': ':' must be followed by field colours", at)
            for ch in colours:
                if ch not in COLOURS:
                    raise fail(0, f"'{item}': '{ch}' is not a field colour (r g b y p o c)", at)
            limit = {3: 0, 2: 1, 1: 2}[size]
            if len(colours) > limit:
                raise fail(0, f"'{item}': a {size}-pip piece carries at most {limit} field"
                           f"{'s' if limit != 1 else ''} (FFF-7)", at)
            code = make(owner, size, FACING_INDEX[m.group(4)],
                        tuple(COLOURS.index(ch) for ch in colours))
            lst = ghost if GHOST[code] else main
            if lst[sq]:
                kind = "out-of-phase" if GHOST[code] else "in-phase"
                raise fail(0, f"'{item}': {m.group(3)} already holds an {kind} piece; a square "
                           f"holds at most one in-phase and one out-of-phase piece (FFF-26)", at)
            lst[sq] = code
            at += len(item) + 1
    side = fields[1]
    if side not in ("B", "W"):
        raise fail(1, f"'{shown(side)}' is not B or W")
    turn = OWNER_LETTERS.index(side)
    have = carried(main, ghost)
    if fields[2] == "-":
        pool = [3 - n for n in have]
    else:
        if not _POOL.fullmatch(fields[2]) or "".join(fields[2][::3]) != COLOURS:
            raise fail(2, f"'{shown(fields[2])}' is not r##g##b##y##p##o##c## (each colour's 2-pip "
                       "and 3-pip counts) or -")
        pool = []
        for c in range(7):
            pool.append(int(fields[2][c * 3 + 1]))
            pool.append(int(fields[2][c * 3 + 2]))
    for i in range(14):
        if pool[i] + have[i] != 3:
            raise fail(2, f"{COLOUR_NAMES[i // 2]} {2 + i % 2}-pip fields: {pool[i]} in the pool "
                       f"and {have[i]} carried make {pool[i] + have[i]}, not 3 (FFF-33)")
    m = _LOST.fullmatch(fields[3])
    if not m:
        raise fail(3, f"'{shown(fields[3])}' is not like 000/000 (Black's, then White's, for sizes "
                   "1, 2, 3)")
    lost = [int(g) for g in m.groups()]
    cnt = counts(main, ghost)
    for k in range(6):
        start = START_COUNTS[k % 3]
        if cnt[k] + lost[k] > start:
            raise fail(3, f"{OWNER_NAMES[k // 3]} has {cnt[k]} {k % 3 + 1}-pip piece"
                       f"{'s' if cnt[k] != 1 else ''} and a lost count of {lost[k]}: more than "
                       f"the {start} it started with (FFF-33)")
    count = ascii_int(fields[4], len(str(MAX_COUNT)))
    if count is None and re.fullmatch(r"[0-9]+", fields[4]):
        raise fail(4, f"{len(fields[4])} digits: the count is at most {MAX_COUNT:,}")
    if count is None:
        raise fail(4, f"'{shown(fields[4])}' is not a whole number (ASCII digits 0-9)")
    if count > MAX_COUNT:
        raise fail(4, f"{count} is more than {MAX_COUNT:,}")
    return Board(main, ghost, pool, lost, cnt, turn, count)

