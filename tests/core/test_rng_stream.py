"""The seeded source draws exactly the SplitMix64 stream it always drew (issue 21 inlined its
arithmetic into `below`, `randint` and `coin`): a record's seed must replay the same chance on
every version. The reference here is the plain algorithm, written out once."""

from __future__ import annotations

import pytest

from boardct.core.rng import Rng

MASK = (1 << 64) - 1


class Reference:
    """SplitMix64 with rejection sampling, as `Rng` was first written."""

    def __init__(self, seed: int) -> None:
        self.s = seed & MASK

    def next64(self) -> int:
        self.s = z = (self.s + 0x9E3779B97F4A7C15) & MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n


@pytest.mark.parametrize("seed", [0, 1, 42, 2**63 - 1, 2**64 + 5])
def test_draws_follow_the_reference_stream(seed: int) -> None:
    rng, ref = Rng(seed), Reference(seed)
    for n in (1, 2, 6, 20, 100, (1 << 63) + 5, (1 << 64) - 1):  # the last two reject often
        for _ in range(25):
            assert rng.below(n) == ref.below(n)
            assert rng.randint(1, n) == 1 + ref.below(n)
            assert rng.coin() == bool(ref.next64() >> 63)
    deck, expected = list(range(40)), list(range(40))
    rng.shuffle(deck)
    for i in range(39, 0, -1):
        j = ref.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert deck == expected
    assert rng.next64() == ref.next64()


def test_an_empty_range_is_refused() -> None:
    with pytest.raises(ValueError):
        Rng(1).below(0)
    with pytest.raises(ValueError):
        Rng(1).randint(5, 4)
