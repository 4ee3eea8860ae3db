"""FieldShift command tokens (FS-5, FS-25) as small ints.

A token is kept exactly as typed, so a record is the list of tokens players typed:
a two-digit token "ab" is the int 1000 + 10a + b, a three-digit token "abc" is 100a + 10b + c.
"""

from __future__ import annotations

from boardct.core.errors import ParseError
from boardct.core.inputs import shown
from boardct.games.fieldshift.tables import LSTD, RULESET_NAMES

TWO = 1000  # offset of two-digit tokens

AUX, SWC, MOV, HIT, RNF, WDR, RGP, OVW, SKL, SPT = range(10)
INSTRUCTION_NAMES = ("AUX", "SWC/SWP", "MOV", "HIT", "RNF", "WDR", "RGP", "OVW", "SKL", "SPT")
DENY, CONFIRM, SUSPEND_GAME, RESUME_GAME, INITIATE, REQ_RULESET, DISPUTE_CMD, GOOD_GAME, \
    REQ_DRAW, CONCEDE = range(10)

_DIGITS = frozenset("0123456789")


def two(instruction: int, target: int) -> int:
    return TWO + 10 * instruction + target


def three(instruction: int, middle: int, target: int) -> int:
    return 100 * instruction + 10 * middle + target


# every token's text, made once: a legal list writes some thirty of them a move
_TEXT = tuple(f"{c:03d}" for c in range(TWO)) + tuple(f"{c:02d}" for c in range(100))


def notation(code: int) -> str:
    if 0 <= code < TWO + 100:
        return _TEXT[code]
    if code >= TWO:
        return f"{code - TWO:02d}"
    return f"{code:03d}"


def parse(text: str, ruleset: int) -> int:
    """Check a token's form for the ruleset in force; the rules are checked by `apply`."""
    token = text.strip()
    if not token:
        raise ParseError("empty command: type two digits (three under STDEX), or 'help'", text)
    for i, ch in enumerate(token):
        if ch not in _DIGITS:
            raise ParseError(
                f"{shown(token)}: a command is digits only; character {i + 1} is {ch!r} [FS-5]",
                text, i)
    n = len(token)
    if ruleset == LSTD:
        if n != 2:
            raise ParseError(
                f"{shown(token)}: LSTD commands have two digits, instruction then target "
                f"(e.g. 35: HIT operator 5) [FS-5]", text)
        return TWO + int(token)
    if n == 2:
        if token[0] != "0":
            raise ParseError(
                f"{shown(token)}: {RULESET_NAMES[ruleset]} commands have three digits, "
                f"instruction, operator, target (e.g. 325: operator 2 hits 5); only AUX may have "
                f"two [FS-5]",
                text)
        return TWO + int(token)
    if n != 3:
        raise ParseError(
            f"{shown(token)}: {RULESET_NAMES[ruleset]} commands have three digits "
            f"(e.g. 325: operator 2 hits 5) [FS-5]", text)
    return int(token)
