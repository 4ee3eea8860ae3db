"""CTF 2187 order sheets (CTF-37): parsing, checking and writing.

    BOT <n> TURN <t>          (or  BOT <n> STANDING  to change the standing orders)
    P1 <move> <move option> <attack> <attack option> <weapon>
    ... exactly five phase lines, `-` for an unused field

`#` starts a comment; blank lines and case are ignored. A `;` also ends a line, so a sheet can
be written on one line (records and the terminal use that form). `BOT <n> TURN <t> MISSING` is
the record of a sheet that did not arrive: the standing orders were used (CTF-14).

A sheet with any error is rejected whole; every error names its line and field. Only what can
be known from the sheet and the game's roster is checked here; posture, targets and AP are
checked when the turn is processed (CTF-37).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from boardct.core.errors import ParseError
from boardct.core.inputs import ascii_int, strip_bom

TURN, STANDING, MISSING = 0, 1, 2
PHASES = 5
FIELDS = ("phase", "move order", "move option", "attack order", "attack option", "weapon")

# Move orders that need an option (CTF-37): 5 and 12 a bot, 11 a direction, 19 engines (- = 4)
MOVE_NEEDS_BOT = (5, 12)
ATTACKS_WITH_WEAPON = (1, 2, 3, 4, 5)
EJECT_DEFAULT = 4
# A sheet is six short lines; with comments a few hundred characters. The bound keeps a pasted
# file or a hostile record entry from producing an error message of megabytes.
MAX_SHEET_CHARS = 20_000
MAX_ERRORS_SHOWN = 20  # a sheet of garbage lists its first errors, then how many more
MAX_NUMBER_DIGITS = 3  # bots, turns (turn_limit <= 999) and orders all fit in three digits


@dataclass(frozen=True, slots=True)
class Roster:
    """What a sheet is checked against: each bot's team and weapon count (bot n at n-1)."""

    teams: tuple[int, ...]
    weapons: tuple[int, ...]


class SheetError(ParseError):
    """A rejected order sheet; `errors` lists (line, field, message).

    The message gives one problem per line, so a player can go down the sheet fixing them: a
    single problem stays on the header's line (`order sheet rejected (CTF-37): line 2, ...`),
    several follow it, each on its own indented line. Long lists stop after the first
    MAX_ERRORS_SHOWN with how many more there are."""

    def __init__(self, errors: list[tuple[int, str, str]], text: str = ""):
        self.errors = errors
        lines = [f"line {ln}, {field}: {msg}" if field else f"line {ln}: {msg}"
                 for ln, field, msg in errors[:MAX_ERRORS_SHOWN]]
        if len(errors) > MAX_ERRORS_SHOWN:
            lines.append(f"and {len(errors) - MAX_ERRORS_SHOWN} more errors")
        head = "order sheet rejected (CTF-37):"
        message = f"{head} {lines[0]}" if len(lines) == 1 else \
            f"{head} {len(errors)} problems\n" + "\n".join(f"  {line}" for line in lines)
        super().__init__(message, text, errors[0][0] if errors else None)


def _lines(text: str) -> list[tuple[int, list[str]]]:
    out = []
    n = 0
    # a sheet saved by Windows Notepad starts with a byte-order mark: not part of the header
    for raw_line in strip_bom(text).replace("\r\n", "\n").split("\n"):
        for part in raw_line.split(";"):
            n += 1
            body = part.split("#", 1)[0].strip()
            if body:
                out.append((n, body.upper().split()))
    return out


def _num(tok: str) -> int | None:
    """A field's number: ASCII digits only (`str.isdigit()` also takes `²`, which `int()`
    refuses, and Arabic-Indic digits, which no sheet of this game is written in)."""
    return ascii_int(tok, MAX_NUMBER_DIGITS)


def check_phase(bot: int, order: Sequence[int], roster: Roster, ln: int
                ) -> list[tuple[int, str, str]]:
    """Errors in one phase's five numbers (move, option, attack, option, weapon); unused
    options are 0 (written `-`). `ln` is the sheet line the errors are reported on."""
    errors: list[tuple[int, str, str]] = []
    nbots = len(roster.teams)
    team = roster.teams[bot - 1]
    nweapons = roster.weapons[bot - 1]
    m, mo, a, ao, w = order

    def err(field: int, msg: str) -> None:
        errors.append((ln, f"field {field + 1} ({FIELDS[field]})", msg))

    if not 0 <= m <= 23:
        err(1, f"{m} is not a move order (0-23)")
    elif m in MOVE_NEEDS_BOT:
        if not 1 <= mo <= nbots:
            err(2, f"order {m} needs a bot number 1-{nbots}")
        elif mo == bot:
            err(2, f"order {m} cannot aim at the bot itself")
    elif m == 11:
        if not 1 <= mo <= 8:
            err(2, "order 11 needs a direction 1-8")
    elif m == 19:
        if not 0 <= mo <= 9:
            err(2, "order 19 needs an engine count 1-9 (or - for 4)")
    elif mo != 0:
        err(2, f"order {m} takes no option: write -")
    if not 0 <= a <= 6:
        err(3, f"{a} is not an attack order (0-6)")
    else:
        if a == 1:
            if not 1 <= ao <= nbots:
                err(4, f"attack 1 needs an enemy bot number 1-{nbots}")
            elif roster.teams[ao - 1] == team:
                err(4, f"bot {ao} is not an enemy")
        elif ao != 0:
            err(4, f"attack {a} takes no option: write -")
        if a in ATTACKS_WITH_WEAPON:
            if not 0 <= w <= nweapons:
                err(5, f"{w} is not a weapon of this bot (1-{nweapons}, or 0 for the best)")
        elif w != 0:
            err(5, f"attack {a} fires no weapon: write -")
    return errors


def check_orders(bot: int, orders: Sequence[int], roster: Roster
                 ) -> list[tuple[int, str, str]]:
    """Errors in 25 order numbers (5 phases); each error's line is its phase number."""
    if len(orders) != PHASES * 5:
        return [(1, "", f"{len(orders)} numbers: a sheet has five phases of five")]
    errors: list[tuple[int, str, str]] = []
    for ph in range(PHASES):
        errors += check_phase(bot, orders[ph * 5: ph * 5 + 5], roster, ph + 1)
    return errors


def parse_sheet(text: str, roster: Roster, turn: int | None = None
                ) -> tuple[int, int, tuple[int, ...]]:
    """(kind, bot, 25 order numbers) from a sheet's text; SheetError lists every problem.

    `turn`: the current turn; a TURN sheet for another turn is rejected.
    """
    if len(text) > MAX_SHEET_CHARS:
        raise SheetError([(1, "", f"an order sheet is at most {MAX_SHEET_CHARS:,} characters, "
                           f"this text has {len(text):,}")])
    lines = _lines(text)
    if not lines:
        raise SheetError([(1, "header", "empty sheet: expected 'BOT <n> TURN <t>' or "
                           "'BOT <n> STANDING'")], text)
    errors: list[tuple[int, str, str]] = []
    hl, head = lines[0]
    nbots = len(roster.teams)
    kind = TURN
    bot = 0
    if len(head) < 3 or head[0] != "BOT":
        raise SheetError([(hl, "header", "expected 'BOT <n> TURN <t>' or 'BOT <n> STANDING'")],
                         text)
    b = _num(head[1])
    if b is None or not 1 <= b <= nbots:
        errors.append((hl, "field 2 (bot)", f"{head[1]!r} is not a bot number 1-{nbots}"))
    else:
        bot = b
    if head[2] == "STANDING" and len(head) == 3:
        kind = STANDING
    elif head[2] == "TURN" and len(head) in (4, 5):
        t = _num(head[3])
        if t is None or t < 1:
            errors.append((hl, "field 4 (turn)", f"{head[3]!r} is not a turn number"))
        elif turn is not None and t != turn:
            errors.append((hl, "field 4 (turn)", f"the sheet is for turn {t}, the current "
                           f"turn is {turn}"))
        if len(head) == 5:
            if head[4] != "MISSING":
                errors.append((hl, "field 5", f"{head[4]!r}: only MISSING may follow the turn"))
            kind = MISSING
    else:
        errors.append((hl, "header", "expected 'BOT <n> TURN <t>' or 'BOT <n> STANDING'"))
    if kind == MISSING:
        if len(lines) > 1:
            errors.append((lines[1][0], "", "a MISSING record has no phase lines"))
        if errors:
            raise SheetError(errors, text)
        return MISSING, bot, ()
    orders: list[int | None] = [None] * (PHASES * 5)
    seen: dict[int, int] = {}
    for ln, toks in lines[1:]:
        fields_ok = True
        if len(toks) != 6:
            errors.append((ln, "", f"expected 6 fields 'P<phase> <move> <move option> <attack> "
                           f"<attack option> <weapon>', found {len(toks)}"))
            continue
        ptok = toks[0]
        if len(ptok) != 2 or ptok[0] != "P" or ptok[1] not in "12345":
            errors.append((ln, "field 1 (phase)", f"{ptok!r} is not P1-P5"))
            continue
        ph = int(ptok[1])
        if ph in seen:
            errors.append((ln, "field 1 (phase)", f"P{ph} was already given on line {seen[ph]}"))
            continue
        seen[ph] = ln
        for f in range(1, 6):
            tok = toks[f]
            val: int | None
            if tok == "-":
                val = 0
            else:
                val = _num(tok)
                if val is None:
                    errors.append((ln, f"field {f + 1} ({FIELDS[f]})",
                                   f"{tok!r} is not a number or -"))
                    fields_ok = False
                    continue
                if f in (2, 4) and val == 0:
                    errors.append((ln, f"field {f + 1} ({FIELDS[f]})", "0 is not an option: "
                                   "write - for none"))
                    fields_ok = False
                    continue
            orders[(ph - 1) * 5 + f - 1] = val
        if fields_ok and bot:
            # every field of the phase is set (a bad one clears fields_ok): no None in it
            errors.extend(check_phase(bot, orders[(ph - 1) * 5: ph * 5],  # type: ignore[arg-type]
                                      roster, ln))
        if fields_ok:
            # a weapon must be written for attacks 1-5 (0 = best); '-' there is an error
            a_tok, w_tok = toks[3], toks[5]
            a_val = _num(a_tok)
            if a_val in ATTACKS_WITH_WEAPON and w_tok == "-":
                errors.append((ln, "field 6 (weapon)", f"attack {a_val} needs a weapon number "
                               "(0 = the best)"))
            elif a_val in (0, 6) and w_tok == "0":
                errors.append((ln, "field 6 (weapon)", f"attack {a_val} fires no weapon: "
                               "write -"))
    missing = [f"P{p}" for p in range(1, PHASES + 1) if p not in seen]
    if missing:
        last = lines[-1][0]
        errors.append((last, "", f"missing phase line(s) {', '.join(missing)}: a sheet has "
                       "exactly five"))
    if errors:
        errors.sort(key=lambda e: e[0])
        raise SheetError(errors, text)
    return kind, bot, tuple(o or 0 for o in orders)


def _field(value: int, used: bool) -> str:
    return str(value) if used else "-"


def phase_text(orders: Sequence[int], ph: int) -> str:
    m, mo, a, ao, w = orders[ph * 5: ph * 5 + 5]
    m_used = m in MOVE_NEEDS_BOT or m == 11 or (m == 19 and mo != 0)
    return (f"P{ph + 1} {m} {_field(mo, m_used)} {a} {_field(ao, a == 1)} "
            f"{_field(w, a in ATTACKS_WITH_WEAPON)}")


# Orders in a few words, for the list of sample sheets (`moves`); the help text gives them all.
MOVE_WORDS = {0: "stay", 1: "forward", 2: "turn right and forward", 3: "turn left and forward",
              4: "backward", 5: "toward bot {o}", 6: "toward nearest enemy",
              7: "toward the last to target it", 8: "toward nearest friend",
              9: "toward the last it targeted", 10: "toward nearest friendly CP",
              11: "face direction {o}", 12: "face bot {o}", 13: "face nearest enemy",
              14: "face the last to target it", 15: "face nearest friend",
              16: "face the last it targeted", 17: "face nearest friendly CP",
              18: "stand up", 19: "eject", 20: "kneel", 21: "sprint", 22: "turn right",
              23: "turn left"}
ATTACK_WORDS = {1: "fire at bot {o}", 2: "fire at nearest enemy",
                3: "fire at the last to target it", 4: "fire at the last it targeted",
                5: "fire at nearest enemy CP", 6: "self-destruct"}


def orders_words(orders: Sequence[int]) -> str:
    """A sheet's five phases in a few words: the moves, equal phases in a row said once, then
    the attacks the same way ("P1-P5 toward nearest enemy; fire at nearest enemy (best
    weapon) in P1-P5")."""
    def runs(words: list[str]) -> list[tuple[int, int, str]]:
        out: list[tuple[int, int, str]] = []
        for ph, w in enumerate(words):
            if out and out[-1][2] == w:
                out[-1] = (out[-1][0], ph, w)
            else:
                out.append((ph, ph, w))
        return out

    def span(a: int, b: int) -> str:
        return f"P{a + 1}" if a == b else f"P{a + 1}-P{b + 1}"

    moves, attacks = [], []
    for ph in range(PHASES):
        m, mo, a, ao, w = orders[ph * 5: ph * 5 + 5]
        moves.append(MOVE_WORDS.get(m, f"order {m}").format(o=mo))
        gun = "" if not a or a == 6 else " (best weapon)" if not w else f" (weapon {w})"
        attacks.append(ATTACK_WORDS.get(a, f"attack {a}").format(o=ao) + gun if a else "")
    said = ", ".join(f"{span(a, b)} {w}" for a, b, w in runs(moves))
    fire = [(a, b, w) for a, b, w in runs(attacks) if w]
    if fire:
        said += "; " + ", ".join(f"{w} in {span(a, b)}" for a, b, w in fire)
    return said


def sheet_text(kind: int, bot: int, orders: Sequence[int], turn: int, sep: str = "; ") -> str:
    """The canonical text of a sheet (one line with sep='; ', a file with sep='\\n')."""
    if kind == MISSING:
        return f"BOT {bot} TURN {turn} MISSING"
    head = f"BOT {bot} STANDING" if kind == STANDING else f"BOT {bot} TURN {turn}"
    return sep.join([head] + [phase_text(orders, ph) for ph in range(PHASES)])
