"""Helpers for FieldShift scenario tests: build a position, type commands, read the screen."""

from __future__ import annotations

import pytest

from boardct.core import registry
from boardct.core.errors import BoardctError
from boardct.games.fieldshift.state import (
    ARTREADY,
    CRATES,
    FAC,
    PV_SIZE,
    RESERVE,
    SEL,
    SKCD,
    SPCD,
    FieldShiftState,
)
from boardct.games.fieldshift.tables import BASE, LSTD, MEDIC

GAME = registry.get("fieldshift")


def op(name: str) -> int:
    """'+3' -> 3 (player 1's operator 3), '-3' -> 13."""
    return (0 if name[0] == "+" else 10) + int(name[1:])


class Pos:
    """A FieldShift position under construction (a thin wrapper over the state)."""

    def __init__(self, ruleset="lstd", violations="dispute", names=("Alice", "Bob"), **options):
        self.s: FieldShiftState = GAME.new(seed=0, names=names, ruleset=ruleset,
                                           violations=violations, **options)

    def place(self, name: str, sector: int | None, vit: int | None = None) -> Pos:
        """Put an operator on a sector (end of its list), or in reserve with sector=None."""
        s, i = self.s, op(name)
        if sector is None:
            s.loc[i] = RESERVE
        else:
            s.loc[i] = sector
            s._stamp(i)
        if vit is not None:
            s.vit[i] = vit
        if s.pv[(i // 10) * PV_SIZE + SEL] == i and sector is None:
            s._resync()
            s._leave(i)
        return self

    def only(self, *names_at: tuple[str, int]) -> Pos:
        """Clear the field (everyone to reserve), then place these operators in order."""
        s = self.s
        for i in range(20):
            s.loc[i] = RESERVE
        for name, sector in names_at:
            self.place(name, sector)
        for p in range(2):
            s.pv[p * PV_SIZE + SEL] = next(
                (i for i in range(p * 10, p * 10 + 10) if s.loc[i] >= 0), -1)
        return self

    def down(self, name: str, timer: int = 5) -> Pos:
        """The operator is bleeding out with `timer` turns left (FS-12)."""
        i = op(name)
        self.s.vit[i] = 0
        self.s.bleed[i] = timer
        self.s._resync()
        self.s._leave(i)
        return self

    def ready(self, skill: bool = True, support: bool = True) -> Pos:
        for p in range(2):
            if skill:
                self.s.pv[p * PV_SIZE + SKCD] = 0
            if support:
                self.s.pv[p * PV_SIZE + SPCD] = 0
        return self

    def crates(self, player: int, n: int, fac: tuple[int, int, int] | None = None) -> Pos:
        self.s.pv[player * PV_SIZE + CRATES] = n
        if fac is not None:
            for f in range(3):
                self.s.pv[player * PV_SIZE + FAC + f] = fac[f]
        return self

    def gun(self, player: int) -> Pos:
        self.s.pv[player * PV_SIZE + ARTREADY] = 1
        return self

    def select(self, name: str) -> Pos:
        i = op(name)
        self.s.pv[(i // 10) * PV_SIZE + SEL] = i
        return self

    def to_move(self, player: int) -> Pos:
        self.s.cur = player
        return self


def play(s: FieldShiftState, *tokens: str) -> list[tuple]:
    """Type tokens in order; return every event. (The position may have been edited by hand:
    bring the state's derived masks in step first.)"""
    s._resync()
    events = []
    for t in tokens:
        events += s.apply(s.parse(t))
    return events


def rejected(s: FieldShiftState, token: str) -> BoardctError:
    """Type a token that must be refused; check nothing changed; return the error."""
    s._resync()
    before = s.snapshot()
    hist = s._hist
    with pytest.raises(BoardctError) as info:
        s.apply(s.parse(token))
    assert s.snapshot() == before
    assert s._hist is hist
    return info.value


def line(s: FieldShiftState, sector: int) -> str:
    """The screen line of one sector, e.g. 'Plain Sector 3: +0 -2v1'."""
    return s.render().splitlines()[14 + sector]


def tokens(s: FieldShiftState, sector: int) -> list[str]:
    return line(s, sector).split(":", 1)[1].split()


def hit_tokens(s: FieldShiftState) -> list[int]:
    """Every HIT token of the current ruleset (LSTD `3t`; STDEX and Type-A `3xt`)."""
    if s.ruleset == LSTD:
        return [s.parse(f"3{t}") for t in range(10)]
    return [300 + 10 * x + t for x in range(10) for t in range(10)]


def assert_hits_agree(s: FieldShiftState) -> None:
    """legal_actions and apply agree on every HIT token: the listed ones apply; the others are
    refused, except that with a Medic armed the middle digit is ignored (FS-41), so the listed
    `30t` stands for every `3xt`."""
    s._resync()
    legal = set(s.legal_actions())
    medic = s.skl[s.cur * 10 + MEDIC] or s.skl[s.cur * 10 + MEDIC + 5]  # armed (FS-30)
    for a in hit_tokens(s):
        try:
            s.clone().apply(a)
            ok = True
        except BoardctError:  # a refusal; anything else is a crash and fails the test
            ok = False
        canonical = 300 + a % 10 if medic and s.ruleset != LSTD else a
        assert ok == (canonical in legal), (s.notation(a), ok)


__all__ = ["BASE", "GAME", "Pos", "assert_hits_agree", "hit_tokens", "line", "op", "play",
           "rejected", "tokens"]
