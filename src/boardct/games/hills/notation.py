"""Reading the action notation of BSH-38 (writing it is `actions.text`).

`S move D`, `S attack D T`, `S deimpede`, `S wait`, `play artillery T`, `play boost S`,
`play ammo S D T`, `end`; case-insensitive. T may be left out when the hex holds one enemy
squad, and `S move D` onto one enemy squad is the attack on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardct.core.errors import IllegalAction, ParseError
from boardct.games.hills import actions as A
from boardct.games.hills.board import DIR_NAMES, KIND_NAMES, NEIGHBOURS, coord_text
from boardct.games.hills.layout import shown

if TYPE_CHECKING:  # pragma: no cover
    from boardct.games.hills.state import HillsState

KINDS = {"i": 0, "infantry": 0, "r": 1, "rocketeer": 1, "m": 2, "mech": 2}
DIRS = {name.lower(): i for i, name in enumerate(DIR_NAMES)}
USAGE = ("S move D | S attack D [T] | S deimpede | S wait | play artillery T | play boost S | "
         "play ammo S D [T] | end  (S, T: I R M; D: E NE NW W SW SE)")


class _Words:
    """The words of a command with their columns, for errors that point at the culprit."""

    def __init__(self, text: str):
        self.text = text
        self.words: list[tuple[str, int]] = []
        i, n = 0, len(text)
        while i < n:
            if text[i].isspace():
                i += 1
                continue
            j = i
            while j < n and not text[j].isspace():
                j += 1
            self.words.append((text[i:j].lower(), i))
            i = j

    def fail(self, index: int, message: str) -> ParseError:
        col = self.words[index][1] if index < len(self.words) else len(self.text)
        return ParseError(f"{message} (column {col + 1} of {shown(self.text.strip(), 80)}; "
                          f"expected {USAGE})", self.text, col)

    def get(self, index: int, what: str, table: dict[str, int]) -> int:
        if index >= len(self.words):
            raise self.fail(index, f"missing {what}")
        word = self.words[index][0]
        if word not in table:
            raise self.fail(index, f"{shown(word)} is not {what}")
        return table[word]

    def done(self, index: int) -> None:
        if index < len(self.words):
            raise self.fail(index, f"unexpected {shown(self.words[index][0])} at the end")


def _target(state: HillsState, w: _Words, i: int, k: int, d: int) -> int:
    """Word i names the target, or (absent) the only enemy squad on the hex (BSH-38)."""
    if i < len(w.words):
        t = w.get(i, "a target squad (I, R or M)", KINDS)
        w.done(i + 1)
        return t
    sq = state.cur * 3 + k
    if state.units[sq] == 0:
        raise IllegalAction("BSH-5", f"your {KIND_NAMES[k]} has been destroyed")
    return state._enemy_at(sq, d, None) % 3


def parse(state: HillsState, text: str) -> int:
    w = _Words(text)
    if not w.words:
        raise ParseError(f"empty command (expected {USAGE})", text, 0)
    first = w.words[0][0]
    if first == "end":
        w.done(1)
        return A.END
    if first == "play":
        if len(w.words) < 2:
            raise w.fail(1, "missing card (artillery, boost or ammo)")
        card = w.words[1][0]
        if card == "survivors":
            raise IllegalAction("BSH-14", "Survivors Found is applied when drawn and is never "
                                "played")
        if card == "artillery":
            if len(w.words) == 2 and state.alive(1 - state.cur) == 1:
                u = state.units
                base = (1 - state.cur) * 3
                return A.artillery(next(t for t in range(3) if u[base + t]))
            t = w.get(2, "a target squad (I, R or M)", KINDS)
            w.done(3)
            return A.artillery(t)
        if card == "boost":
            k = w.get(2, "one of your squads (I, R or M)", KINDS)
            w.done(3)
            return A.boost(k)
        if card == "ammo":
            k = w.get(2, "one of your squads (I, R or M)", KINDS)
            d = w.get(3, "a direction", DIRS)
            return A.ammo(k, d, _target(state, w, 4, k, d))
        raise w.fail(1, f"{shown(card)} is not a card you can play (artillery, boost or ammo)")
    k = w.get(0, "a squad (I, R or M), 'play' or 'end'", KINDS)
    if len(w.words) < 2:
        raise w.fail(1, "missing action (move, attack, deimpede or wait)")
    verb = w.words[1][0]
    if verb == "deimpede":
        w.done(2)
        return A.deimpede(k)
    if verb == "wait":
        w.done(2)
        return A.wait(k)
    if verb == "move":
        d = w.get(2, "a direction", DIRS)
        w.done(3)
        sq = state.cur * 3 + k
        if state.units[sq] and state.out is None:
            h = NEIGHBOURS[state.pos[sq]][d]
            if h >= 0:
                there = state.squads_at(h, 1 - state.cur)
                if len(there) == 1:
                    return A.attack(k, d, there[0] % 3)
                if there:
                    raise IllegalAction("BSH-38", f"{coord_text(h)} holds several enemy "
                                        f"squads: use '{text.split()[0]} attack "
                                        f"{DIR_NAMES[d]} T' to name one")
        return A.move(k, d)
    if verb == "attack":
        d = w.get(2, "a direction", DIRS)
        return A.attack(k, d, _target(state, w, 3, k, d))
    raise w.fail(1, f"{shown(verb)} is not an action (move, attack, deimpede or wait)")
