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
