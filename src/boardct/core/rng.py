"""The seeded random source every game draws its chance from.

SplitMix64 in pure Python: the whole state is one int, so cloning a game state that holds
an `Rng` costs one object, and a seed replays the same stream on every platform.
"""

from __future__ import annotations

import secrets
from collections.abc import MutableSequence, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


def fresh_seed() -> int:
    """A new random seed (recorded by the caller so the game still replays)."""
    return secrets.randbits(63)


class Rng:
    __slots__ = ("s",)

    def __init__(self, seed: int = 0):
        self.s = seed & _MASK

    def clone(self) -> Rng:
        r = Rng.__new__(Rng)
        r.s = self.s
        return r

    def next64(self) -> int:
        self.s = z = (self.s + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform int in [0, n), without modulo bias (`next64` inlined: games draw in their
        hot paths)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            self.s = z = (self.s + 0x9E3779B97F4A7C15) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z < limit:
                return z % n

    def randint(self, lo: int, hi: int) -> int:
        """Uniform int in [lo, hi], both ends included (a die: randint(1, 20)). The same
        draws as `lo + below(hi - lo + 1)`, inlined: games roll dice in their hot paths."""
        n = hi - lo + 1
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            self.s = z = (self.s + 0x9E3779B97F4A7C15) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z < limit:
                return lo + z % n

    def random(self) -> float:
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def coin(self) -> bool:
        """One fair coin: True is heads (the top bit of `next64`, inlined)."""
        self.s = z = (self.s + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return bool((z ^ (z >> 31)) >> 63)

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence[Any]) -> None:
        """Fisher-Yates from the end: item i swaps with item `below(i + 1)`. The draws are
        `below`'s, inlined (CTF 2187 shuffles its Bots every phase)."""
        s = self.s
        for i in range(len(seq) - 1, 0, -1):
            n = i + 1
            limit = (1 << 64) - ((1 << 64) % n)
            while True:
                s = z = (s + 0x9E3779B97F4A7C15) & _MASK
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                z ^= z >> 31
                if z < limit:
                    break
            self.s = s
            j = z % n
            seq[i], seq[j] = seq[j], seq[i]


class ChanceNeeded(Exception):  # noqa: N818 - a signal to the caller, not a failure
    """A `ListedRng` was asked for a draw its script does not hold: the draw has `outcomes`
    equally likely results (0 to outcomes - 1), and whoever runs the game must choose one
    and run the action again with it scripted (see `ListedRng`)."""

    def __init__(self, outcomes: int):
        super().__init__(f"a chance draw of {outcomes} equally likely outcomes is not chosen")
        self.outcomes = outcomes


class ChanceScript:
    """The outcomes a `ListedRng` hands out, chosen from outside the game: `outcomes` in order,
    then, when they run out, either `ChanceNeeded` (the default) or, with `fill`, outcome 0
    for every further draw, each draw noted in `unchosen` as (its size, whether the draw after
    it is surely the next step of the same shuffle, of size one less, whatever its outcome): a
    provisional state, the setup of a game whose chance is still being chosen. A runner need
    not run the setup again for a draw so chained. Every `ListedRng` cloned from one shares its
    script: a runner sets it before it applies an action and clears it after."""

    __slots__ = ("outcomes", "pos", "fill", "unchosen")

    def __init__(self) -> None:
        self.outcomes: tuple[int, ...] = ()
        self.pos = 0
        self.fill = False
        self.unchosen: list[tuple[int, bool]] = []

    def set(self, outcomes: tuple[int, ...], fill: bool = False) -> None:
        self.outcomes, self.pos, self.fill = outcomes, 0, fill
        self.unchosen = []

    def take(self, n: int, chained: bool = False) -> int:
        """The next outcome of a draw with `n` equally likely results (`chained`: a step of a
        shuffle that another step follows)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        pos = self.pos
        if pos < len(self.outcomes):
            k = self.outcomes[pos]
            self.pos = pos + 1
            if not 0 <= k < n:
                raise ValueError(f"chance outcome {k} is out of range for a draw of {n}")
            return k
        if self.fill:
            self.unchosen.append((n, chained))
            if len(self.unchosen) > LISTED_DRAW_CAP:
                raise ValueError(f"more than {LISTED_DRAW_CAP} chance draws in one step: too "
                                 "many to list as chance nodes")
            return 0
        raise ChanceNeeded(n)


# The most unchosen draws a provisional step may make (a shuffle of a long deck draws one per
# card); beyond it the game's chance is not one to list draw by draw.
LISTED_DRAW_CAP = 100_000


class ListedRng(Rng):
    """A random source whose every draw is one uniform choice among a few outcomes taken from a
    `ChanceScript`, so that a game's chance can be offered as chance nodes with listed outcomes
    and probabilities (the OpenSpiel bridge). `below(n)`, `randint`, `coin`, `choice` and each
    step of `shuffle` are one draw each; `next64` and `random` cannot be listed and raise.

    A game draws from it exactly where it draws from an `Rng`: a game that takes its source
    from `Setup.rng()` gets one when its runner puts it in the setup (`Setup.source`). A coin
    is outcome 1 for heads; `randint(lo, hi)` is `lo` plus the outcome."""

    __slots__ = ("script",)

    def __init__(self, script: ChanceScript, seed: int = 0):
        super().__init__(seed)
        self.script = script

    def clone(self) -> ListedRng:
        r = ListedRng.__new__(ListedRng)
        r.s = self.s
        r.script = self.script
        return r

    def next64(self) -> int:
        raise TypeError("a 64-bit draw has too many outcomes to list as a chance node")

    def random(self) -> float:
        raise TypeError("a real number draw has too many outcomes to list as a chance node")

    def below(self, n: int) -> int:
        return self.script.take(n)

    def randint(self, lo: int, hi: int) -> int:
        return lo + self.script.take(hi - lo + 1)

    def coin(self) -> bool:
        return self.script.take(2) == 1

    def shuffle(self, seq: MutableSequence[Any]) -> None:
        """Fisher-Yates from the end, as `Rng.shuffle`: item i swaps with item `below(i + 1)`."""
        take = self.script.take
        for i in range(len(seq) - 1, 0, -1):
            j = take(i + 1, i > 1)
            seq[i], seq[j] = seq[j], seq[i]
