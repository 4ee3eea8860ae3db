"""Properties over random play: only BoardctError on bad input, rejected actions change
nothing, clones are independent, records replay exactly, random games end cleanly."""

from __future__ import annotations

import random

from hills_helpers import HILLS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardct.core.errors import BoardctError
from boardct.core.records import Record, record_of, replay

WORDS = ["I", "R", "M", "move", "attack", "wait", "deimpede", "play", "artillery", "boost",
         "ammo", "survivors", "end", "E", "NE", "NW", "W", "SW", "SE", "x", "", "move E", "3"]


def snapshot(s):
    return (s.view(0), s.view(1), s.view(None), s.tiles[:], s.star[:], s.deck[:], s.hand[:],
            s.st[:], s.boosted, s.rng.s, s.out, len(s.history()))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), stars=st.integers(0, 35),
       steps=st.lists(st.tuples(st.booleans(), st.integers(0, 10_000),
                                st.lists(st.sampled_from(WORDS), max_size=5)), max_size=60))
def test_random_commands_valid_and_invalid(seed, stars, steps):
    s = HILLS.new(seed=seed, stars=stars)
    for legal, pick, words in steps:
        if s.is_over:
            break
        if legal:
            acts = s.legal_actions()
            a = acts[pick % len(acts)]
            copy = s.clone()
            s.apply(a)
            assert copy.legal_actions() == acts  # the clone did not move
            continue
        text = " ".join(words)
        before = snapshot(s)
        try:
            action = s.parse(text)
            s.apply(action)
        except BoardctError:
            assert snapshot(s) == before
        else:
            assert s.history()[-1][1] == action


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), codes=st.lists(st.integers(-5, 8000), max_size=40))
def test_arbitrary_codes_are_applied_only_when_legal(seed, codes):
    s = HILLS.new(seed=seed)
    for code in codes:
        if s.is_over:
            break
        legal = s.legal_actions()
        before = snapshot(s)
        try:
            s.apply(code)
        except BoardctError:
            assert snapshot(s) == before
            assert code not in legal
        else:
            canonical = s.history()[-1][1]
            assert canonical in legal


def play_random(seed: int, bias: float = 0.85, **options):
    rnd = random.Random(seed)
    s = HILLS.new(seed=seed, **options)
    while not s.is_over:
        acts = s.legal_actions()
        assert len(set(acts)) == len(acts) and acts[0] == 0
        a = rnd.choice(acts[1:]) if len(acts) > 1 and rnd.random() < bias else acts[0]
        events = s.apply(a)
        for e in events:
            assert s.describe(e)[-1] in ".!"  # every event kind has its own sentence
    return s


def test_many_complete_random_games_end_without_error():
    reasons = {}
    for seed in range(150):
        s = play_random(seed, bias=0.5 + (seed % 5) / 10)
        reasons[s.outcome.reason] = reasons.get(s.outcome.reason, 0) + 1
        assert s.current_players() == () and s.legal_actions() == [] and s.prompt() == ""
        assert sum(s.outcome.returns) == 1.0
    assert set(reasons) >= {"rout", "seize"}


def test_games_with_short_limits_and_other_options_end_cleanly():
    for seed in range(20):
        s = play_random(seed, bias=0.3, turn_limit=3, stars=35, deck="artillery:5,boost:5")
        assert s.outcome is not None


def test_record_replays_to_the_identical_state():
    for seed in range(25):
        s = play_random(seed)
        rec = record_of(s)
        again = replay(Record.from_json(rec.to_json()))
        assert snapshot(again) == snapshot(s)
        assert [again.notation(a) for _, a in again.history()] == rec.actions
    # and mid-game
    rnd = random.Random(1)
    s = HILLS.new(seed=77)
    for _ in range(60):
        s.apply(rnd.choice(s.legal_actions()))
    again = replay(record_of(s))
    assert snapshot(again) == snapshot(s)


def test_record_texts_are_canonical_notation():
    s = HILLS.new(seed=3)
    s.apply(s.parse("i MOVE e"))
    assert record_of(s).actions == ["I move E"]


def test_clone_is_independent():
    rnd = random.Random(2)
    s = HILLS.new(seed=5, stars=35)
    for _ in range(30):
        s.apply(rnd.choice(s.legal_actions()))
        c = s.clone()
        before = snapshot(s)
        while not c.is_over:
            c.apply(rnd.choice(c.legal_actions()))
        assert snapshot(s) == before


def test_evaluate_is_in_range_and_agrees_with_outcomes():
    for seed in range(30):
        rnd = random.Random(seed)
        s = HILLS.new(seed=seed)
        while not s.is_over:
            for p in (0, 1):
                v = HILLS.evaluate(s, p)
                assert -1.0 <= v <= 1.0
                assert abs(v + HILLS.evaluate(s, 1 - p)) < 1e-9
            s.apply(rnd.choice(s.legal_actions()))
        for p in (0, 1):
            expected = {1.0: 1.0, 0.0: -1.0, 0.5: 0.0}[s.outcome.returns[p]]
            assert HILLS.evaluate(s, p) == expected


def test_evaluate_prefers_material_and_seize_progress():
    from hills_helpers import position

    even = position()
    assert HILLS.evaluate(even, 0) == 0.0
    ahead = position(squads={"1R": (2, 0, 2)})
    assert HILLS.evaluate(ahead, 0) > 0.1
    seizing = position(squads={"0I": (2, 0, 6, True), "1I": (0, 2, 6), "1R": (1, 2, 6),
                               "1M": (-1, 2, 4)}, seize=(2, 0))
    assert HILLS.evaluate(seizing, 0) > HILLS.evaluate(ahead, 0)
