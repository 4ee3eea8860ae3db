"""Shift notation: the text of each action, and parsing commands (errors say what was wrong)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardct.core.errors import IllegalAction, ParseError
from boardct.games.shift.actions import (
    ATTACK,
    FIRST,
    GUARD,
    P_END,
    P_START,
    PASS,
    RING_INDEX,
    SECOND,
    SHIFT,
    gears_in,
    guard_action,
    guard_parts,
)
from boardct.games.shift.cardformat import ATTACK_TYPES, RING

if TYPE_CHECKING:  # pragma: no cover
    from boardct.core.game import State

    _Base = State[int]  # type checkers see the state this mixin is part of
else:
    _Base = object


class ShiftNotation(_Base):
    """Mixin of `ShiftState`: notation and parse."""

    __slots__ = ()
    phase: int  # what the mixin reads of `ShiftState`, declared for type checkers

    if TYPE_CHECKING:  # pragma: no cover
        def _phase_title(self) -> str: ...  # `ShiftText`'s

    def notation(self, action: int) -> str:
        a = action
        if isinstance(a, int) and not isinstance(a, bool):
            if 0 <= a < ATTACK:
                return f"shift {RING[a]}"
            if ATTACK <= a < FIRST:
                return f"attack {ATTACK_TYPES[a - ATTACK]}"
            if a == FIRST:
                return "first"
            if a == SECOND:
                return "second"
            if a == PASS:
                return "pass"
            if GUARD <= a < GUARD + 80:
                active, mask = guard_parts(a)
                parts = ["guard"]
                if active >= 0:
                    parts += ["active", RING[active]]
                if mask:
                    parts += ["spirit", *(RING[g] for g in gears_in(mask))]
                if len(parts) == 1:
                    parts.append("none")
                return " ".join(parts)
        raise IllegalAction("SH-8", f"{action!r} is not a Shift action")

    def parse(self, text: str, player: int | None = None) -> int:
        words = text.strip().lower().replace(",", " ").split()
        if not words:
            raise ParseError("empty command; " + self._hint(), text, 0)
        head = words[0]
        if head in ("first", "second") and len(words) == 1:
            return FIRST if head == "first" else SECOND
        if head in ("pass", "stay", "no", "none") and len(words) == 1:
            return PASS
        if head in ("shift", "spirit-shift", "spirit") or head in RING_INDEX:
            spirit = head in ("spirit-shift", "spirit")
            if head == "spirit":
                if len(words) < 2 or words[1] != "shift":
                    raise ParseError(f"{text.strip()!r}: did you mean 'spirit shift G'?", text, 0)
                rest = words[2:]
            else:
                rest = words if head in RING_INDEX else words[1:]
            if len(rest) != 1 or rest[0] not in RING_INDEX:
                raise ParseError(f"{text.strip()!r}: shift to which gear? write 'shift G' with G "
                                 f"one of 1, 2L, 3, 2R", text, 0)
            if spirit and self.phase not in (P_START, P_END):
                raise ParseError(f"{text.strip()!r}: a spirit shift is made in your start or end "
                                 f"phase; now it is {self._phase_title()}", text, 0)
            return SHIFT + RING_INDEX[rest[0]]
        if head == "attack" or head in ATTACK_TYPES:
            rest = words[1:] if head == "attack" else words
            if len(rest) != 1 or rest[0] not in ATTACK_TYPES:
                raise ParseError(f"{text.strip()!r}: attack with which mod? write 'attack alpha',"
                                 f" 'attack beta' or 'attack omega'", text, 0)
            return ATTACK + ATTACK_TYPES.index(rest[0])
        if head == "guard" or head == "noguard":
            return self._parse_guard(words[1:] if head == "guard" else ["none"], text)
        raise ParseError(f"{text.strip()!r} is not a Shift command; " + self._hint(), text, 0)

    def _parse_guard(self, words: list[str], text: str) -> int:
        usage = ("write 'guard none', 'guard active G', 'guard spirit G [G...]' or "
                 "'guard active G spirit G [G...]' with G one of 1, 2L, 3, 2R")
        if words in ([], ["none"]):
            return guard_action(-1, 0)
        active, mask, i = -1, 0, 0
        if words[0] == "active":
            if len(words) < 2 or words[1] not in RING_INDEX:
                raise ParseError(f"{text.strip()!r}: active guard with which gear? " + usage,
                                 text, 0)
            active = RING_INDEX[words[1]]
            i = 2
        if i < len(words):
            if words[i] != "spirit" or i + 1 == len(words):
                raise ParseError(f"{text.strip()!r}: expected 'spirit' and gears after "
                                 f"{' '.join(['guard', *words[:i]])!r}; " + usage, text, 0)
            for w in words[i + 1:]:
                if w not in RING_INDEX:
                    raise ParseError(f"{text.strip()!r}: {w!r} is not a gear; " + usage, text, 0)
                g = RING_INDEX[w]
                if mask >> g & 1:
                    raise ParseError(f"{text.strip()!r}: gear {RING[g]} named twice (SH-27)",
                                     text, 0)
                mask |= 1 << g
        return guard_action(active, mask)

    def _hint(self) -> str:
        opts = ", ".join(self.notation(a) for a in self.legal_actions())
        return f"legal now: {opts}" if opts else "the game is over"
