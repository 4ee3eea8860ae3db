"""The turn notation of FFF-30/31: reading text into a token tuple and writing it back.

An action is `()` for `pass`, else `(selection, token, ...)`: the selection from
`pieces.qcode`, then token codes from `pieces.TOKEN_CODE`. Reading checks only the form; the
rules are checked when the turn is played (`rules.play`).

Writing is canonical (FFF-31) and records keep it. Reading forgives what cannot be misread:
case does not matter (`D4`, `ne`, `Xne/sw`, `+R`, `PASS` read as `d4`, `NE`, `xNE/SW`, `+r`,
`pass`), because the tokens stay distinct in any case, and `up` is U, the rulebook's word
for upright (FFF-2). Only ASCII letters fold, so no other script's letter passes for one.
"""

from __future__ import annotations

import re
from functools import partial

from boardct.core.errors import ParseError
from boardct.core.inputs import shown as _shown
from boardct.games.fff.pieces import (
    COLOUR_NAMES,
    COLOURS,
    FACINGS,
    K_ADD,
    K_REMOVE,
    SQUARE_INDEX,
    TOKEN_CODE,
    TOKEN_KIND,
    TOKEN_TEXT,
    q_text,
    qcode,
)

shown = partial(_shown, limit=60, quote=False)  # inside the message's own quotes

_TOKEN = re.compile(r"\S+")
_SQUARE = re.compile(r"([a-h])([1-8])(~?)")
HELP = ("a turn is `pass` or `Q [-C] P... [+C]`: Q a square such as d1 (d1~ for your "
        "out-of-phase piece), -C/+C a field colour r g b y p o c, each P a facing "
        "N NE E SE S SW W NW U, m (step) or an attack x, xD, xD/E (any case)")

# Facings as read, by their lower-case text: the nine of FFF-2 and `up` for U.
_FACING_READ = {f.lower(): f for f in FACINGS} | {"up": "U"}


def _read_table() -> dict[str, int]:
    """Every accepted spelling of a token after the selection, lower-cased, to its code."""
    table = {t.lower(): code for t, code in TOKEN_CODE.items()}
    if len(table) != len(TOKEN_CODE):  # pragma: no cover - guards the forgiving reading
        raise AssertionError("two FFF tokens differ only in case")
    for word, facing in _FACING_READ.items():
        table.setdefault(word, TOKEN_CODE[facing])
        table.setdefault("x" + word, TOKEN_CODE["x" + facing])
        for word2, facing2 in _FACING_READ.items():
            table.setdefault(f"x{word}/{word2}", TOKEN_CODE[f"x{facing}/{facing2}"])
    return table


READ_CODE = _read_table()


def _folded(tok: str) -> str:
    """`tok` lower-cased if it is ASCII; other text is left as it is (and then matches no
    token), so that e.g. the Kelvin sign does not read as a `k`."""
    return tok.lower() if tok.isascii() else tok


def format_turn(action: tuple[int, ...]) -> str:
    """The text of a token tuple, each token in its FFF-30 spelling (what records keep)."""
    if not action:
        return "pass"
    return " ".join([q_text(action[0])] + [TOKEN_TEXT[t] for t in action[1:]])


def _fail(text: str, index: int, start: int, token: str, why: str) -> ParseError:
    return ParseError(f"token {index + 1} '{shown(token)}' (column {start + 1}): {why}", text,
                      start)


def _colour_problem(tok: str) -> str:
    sign = "removal" if tok[0] == "-" else "addition"
    rest = _folded(tok[1:])
    if not rest:
        return f"a field {sign} needs a colour letter: r g b y p o c"
    if rest == "cyan":
        return "cyan is not in the game (FFF-3); colours are r g b y p o c"
    for letter, name in zip(COLOURS, COLOUR_NAMES, strict=True):
        if rest == name:
            return f"a colour is one letter: {tok[0]}{letter} for {name}"
    return f"'{shown(tok[1:])}' is not a colour; colours are r g b y p o c (one letter)"


def _facing_problem(word: str) -> str:
    return f"'{shown(word)}' is not a facing (N NE E SE S SW W NW U)"


def _point_problem(tok: str) -> str:
    low = _folded(tok)
    if low in ("move", "step", "mv"):
        return "a step is written m"
    if low[0] == "x":
        body = low[1:]
        if "/" in body:
            d, _, e = body.partition("/")
            if d not in _FACING_READ:
                return f"attacker facing: {_facing_problem(tok[1:1 + len(d)])}"
            if e not in _FACING_READ:
                return f"converted piece facing: {_facing_problem(tok[2 + len(d):])}"
        return f"attacker facing: {_facing_problem(tok[1:])}"
    if _SQUARE.fullmatch(low):
        return "only one piece is selected per turn, at the start"
    return "not a point (a facing N NE E SE S SW W NW U, m, x, xD or xD/E)"


def parse_turn(text: str) -> tuple[int, ...]:
    """Read one turn, in any case; a `ParseError` names the offending token and its column."""
    if not isinstance(text, str):
        raise ParseError(f"a turn is text, not {type(text).__name__}", str(text), 0)
    found = [(m.group(), m.start()) for m in _TOKEN.finditer(text)]
    if not found:
        raise ParseError(f"empty turn: {HELP}", text, 0)
    first, start = found[0]
    low = _folded(first)
    if low == "pass":
        if len(found) > 1:
            tok, pos = found[1]
            raise _fail(text, 1, pos, tok, "`pass` stands alone")
        return ()
    m = _SQUARE.fullmatch(low)
    if not m:
        if re.fullmatch(r"[a-z][0-9]+~?", low):
            why = "not a square of the board (a1 to h8)"
        else:
            why = f"a turn starts with a square such as d1, or pass ({HELP})"
        raise _fail(text, 0, start, first, why)
    out = [qcode(SQUARE_INDEX[m.group(1) + m.group(2)], bool(m.group(3)))]
    last = len(found) - 1
    for i in range(1, len(found)):
        tok, pos = found[i]
        code = READ_CODE.get(_folded(tok))
        if tok[0] in "+-":
            if code is None:
                raise _fail(text, i, pos, tok, _colour_problem(tok))
            if TOKEN_KIND[code] == K_REMOVE and i != 1:
                raise _fail(text, i, pos, tok, "a field is removed first, right after the "
                            "square (FFF-4)")
            if TOKEN_KIND[code] == K_ADD and i != last:
                raise _fail(text, i, pos, tok, "a field is added last, after every point "
                            "(FFF-4)")
        elif code is None:
            raise _fail(text, i, pos, tok, _point_problem(tok))
        out.append(code)
    return tuple(out)
