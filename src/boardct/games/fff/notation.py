"""The turn notation of FFF-30/31: reading text into a token tuple and writing it back.

An action is `()` for `pass`, else `(selection, token, ...)`: the selection from
`pieces.qcode`, then token codes from `pieces.TOKEN_CODE`. Reading checks only the form; the
rules are checked when the turn is played (`rules.play`).
"""

from __future__ import annotations

import re
from functools import partial

from boardct.core.errors import ParseError
from boardct.core.inputs import shown as _shown
from boardct.games.fff.pieces import (
    COLOURS,
    FACING_INDEX,
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
        "N NE E SE S SW W NW U, m (step) or an attack x, xD, xD/E")


def format_turn(action: tuple[int, ...]) -> str:
    if not action:
        return "pass"
    return " ".join([q_text(action[0])] + [TOKEN_TEXT[t] for t in action[1:]])


def _fail(text: str, index: int, start: int, token: str, why: str) -> ParseError:
    return ParseError(f"token {index + 1} '{shown(token)}' (column {start + 1}): {why}", text,
                      start)


def _colour_problem(tok: str) -> str:
    sign = "removal" if tok[0] == "-" else "addition"
    rest = tok[1:]
    if not rest:
        return f"a field {sign} needs a colour letter: r g b y p o c"
    if len(rest) == 1 and rest.lower() in COLOURS:
        return f"colour letters are lower-case: {tok[0]}{rest.lower()}"
    if rest.lower() == "cyan":
        return "cyan is not in the game (FFF-3); colours are r g b y p o c"
    return f"'{shown(rest)}' is not a colour; colours are r g b y p o c (one letter)"


def _facing_problem(word: str) -> str:
    if word.upper() in FACING_INDEX:
        return f"facings are upper-case: {word.upper()}"
    return f"'{shown(word)}' is not a facing (N NE E SE S SW W NW U)"


def _point_problem(tok: str) -> str:
    if tok in ("M", "move", "step"):
        return "a step is written m"
    if tok.upper() in FACING_INDEX:
        return f"facings are upper-case: {tok.upper()}"
    if tok[0] in "xX":
        if tok[0] == "X":
            return "attacks are written with a lower-case x"
        body = tok[1:]
        if "/" in body:
            d, _, e = body.partition("/")
            if d not in FACING_INDEX:
                return f"attacker facing: {_facing_problem(d)}"
            if e not in FACING_INDEX:
                return f"converted piece facing: {_facing_problem(e)}"
        return f"attacker facing: {_facing_problem(body)}"
    if _SQUARE.fullmatch(tok):
        return "only one piece is selected per turn, at the start"
    return "not a point (a facing N NE E SE S SW W NW U, m, x, xD or xD/E)"


def parse_turn(text: str) -> tuple[int, ...]:
    """Read one turn; a `ParseError` names the offending token and its column."""
    if not isinstance(text, str):
        raise ParseError(f"a turn is text, not {type(text).__name__}", str(text), 0)
    found = [(m.group(), m.start()) for m in _TOKEN.finditer(text)]
    if not found:
        raise ParseError(f"empty turn: {HELP}", text, 0)
    first, start = found[0]
    if first == "pass":
        if len(found) > 1:
            tok, pos = found[1]
            raise _fail(text, 1, pos, tok, "`pass` stands alone")
        return ()
    if first.lower() == "pass":
        raise _fail(text, 0, start, first, "the notation is case-sensitive: write pass")
    m = _SQUARE.fullmatch(first)
    if not m:
        if re.fullmatch(r"[A-H][1-8]~?", first):
            why = f"squares are lower-case: {first.lower()}"
        elif re.fullmatch(r"[a-zA-Z][0-9]+~?", first):
            why = "not a square of the board (a1 to h8)"
        else:
            why = f"a turn starts with a square such as d1, or pass ({HELP})"
        raise _fail(text, 0, start, first, why)
    out = [qcode(SQUARE_INDEX[m.group(1) + m.group(2)], bool(m.group(3)))]
    last = len(found) - 1
    for i in range(1, len(found)):
        tok, pos = found[i]
        code = TOKEN_CODE.get(tok)
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

