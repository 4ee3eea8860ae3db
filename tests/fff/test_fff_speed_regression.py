"""The whole-turn generator's output did not change when it was rewritten for speed
(issue 21): for 400 positions from random games, `legal_actions()` lists the same turns in the
same order as the generator before the rewrite.

`data/legal_digests.json` was recorded from the old code (commit 3bc2f5c, before the rewrite)
by playing random games (random.Random(20261125), uniformly random whole turns) and, at about
one turn in eight, keeping the FFF-32 position, the number of legal turns, and SHA-256 digests
(first 16 hex digits) of their canonical texts joined by newlines, in `legal_actions()` order
and sorted. The old generator is too long to keep here as a reference, hence the digests.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from fff_helpers import GAME

ROWS = json.loads((Path(__file__).parent / "data" / "legal_digests.json").read_text())["rows"]


def digest(texts: list[str]) -> str:
    return hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]


@pytest.mark.parametrize("chunk", range(8))
def test_legal_actions_equal_the_old_generators_in_order(chunk):
    assert len(ROWS) == 400
    for text, count, ordered, unordered in ROWS[chunk::8]:
        s = GAME.new(seed=0, position=text)
        texts = [s.notation(a) for a in s.legal_actions()]
        assert len(texts) == count, text
        assert digest(sorted(texts)) == unordered, text
        assert digest(texts) == ordered, text


def test_fast_generator_equals_the_reference_generator_on_fresh_positions():
    """Beyond the recorded digests: `legal_turns` equals `legal_turns_reference` (the
    dictionary-keyed `generate`, kept in movegen for `canonical`) turn for turn and in order,
    on 400 positions from other random games and on the hand-made small positions."""
    import random

    from test_fff_movegen import MID, SMALL

    from boardct.games.fff.movegen import legal_turns, legal_turns_reference

    rng = random.Random(4242)
    texts = list(SMALL.values()) + list(MID)
    while len(texts) < 400:  # a position every 7 to 30 turns of each random game
        s = GAME.new(seed=rng.randrange(1 << 30))
        while not s.is_over and len(texts) < 400:
            for _ in range(rng.randrange(7, 31)):
                if s.is_over:
                    break
                s.apply(rng.choice(s.legal_actions()))
            if not s.is_over:
                texts.append(s.position())
    for text in texts:
        s = GAME.new(seed=0, position=text)
        args = (s.main, s.ghost, s.pool, s.lost, s.cnt, s.turn)
        assert legal_turns(*args) == legal_turns_reference(*args), text
