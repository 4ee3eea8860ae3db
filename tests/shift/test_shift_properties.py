"""Properties over random games and random (valid and invalid) inputs."""

from __future__ import annotations

import itertools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shift_helpers import GAME, snapshot

from boardct.core.errors import BoardctError
from boardct.core.records import Record, record_of, replay
from boardct.games.shift.cards import shipped
from boardct.games.shift.state import ShiftState

CARDS = list(shipped())
PAIRS = list(itertools.product(CARDS, CARDS))

COMMANDS = ["first", "second", "pass", "stay", "shift 1", "shift 2L", "shift 3", "shift 2R",
            "attack alpha", "attack beta", "attack omega", "guard none", "guard active 1",
            "guard spirit 3", "guard active 1 spirit 2R 3", "guard spirit 1 2L 3 2R",
            "spirit shift 2L", "", "jump", "shift 7", "guard spirit", "attack", "2r"]

settings.register_profile("shift", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])


def random_game(seed: int, card1: str, card2: str, steps: int = 10_000,
                **options) -> ShiftState:
    rng = random.Random(seed)
    s = GAME.new(seed=seed, card1=card1, card2=card2, **options)
    assert isinstance(s, ShiftState)
    for _ in range(steps):
        if s.is_over:
            break
        for event in s.apply(rng.choice(s.legal_actions())):
            text = s.describe(event)
            assert text and text != " ".join(str(x) for x in event), event
    return s


def test_many_complete_random_games_for_every_pair_of_shipped_cards():
    ends = {"damage": 0, "turn limit": 0}
    for i, (c1, c2) in enumerate(PAIRS):
        for k in range(8):
            s = random_game(1000 * i + k, c1, c2)
            assert s.outcome is not None
            ends[s.outcome.reason] += 1
            assert s.current_players() == () and s.legal_actions() == []
            assert all(0 <= s.lit[p] + s.burnt[p] <= 5 for p in (0, 1))
    assert ends["damage"] > 0


def test_every_legal_action_is_unique_and_applies_and_round_trips_its_notation():
    rng = random.Random(5)
    for seed in range(40):
        s = GAME.new(seed=seed, card1=rng.choice(CARDS), card2=rng.choice(CARDS))
        while not s.is_over:
            acts = s.legal_actions()
            assert len(acts) == len(set(acts)) >= 2  # single options apply themselves (SH-39)
            for a in acts:
                assert s.parse(s.notation(a)) == a
                s.clone().apply(a)
            s.apply(rng.choice(acts))


def test_record_replays_to_the_identical_state():
    for seed in range(15):
        s = random_game(seed, CARDS[seed % len(CARDS)], CARDS[(seed * 5 + 1) % len(CARDS)],
                        steps=seed * 7)
        rec = Record.from_json(record_of(s).to_json())
        assert len(rec.extra["coins"]) == len(s.flip_log())
        assert rec.extra["coins"][0].startswith("toss: ")
        again = replay(rec)
        assert again.view(None) == s.view(None)
        assert again.flip_log() == s.flip_log()
        assert again.rng.s == s.rng.s


def test_same_seed_and_actions_give_the_same_game():
    a = random_game(77, "moth-regent", "iron-lantern")
    b = random_game(77, "moth-regent", "iron-lantern")
    assert a.view(None) == b.view(None) and a.flip_log() == b.flip_log()
    assert a.history() == b.history()


def test_evaluate_is_bounded_and_favours_the_winner():
    for seed in range(30):
        s = random_game(seed, "ember-duelist", "quill-of-ash", steps=seed * 5)
        for p in (0, 1):
            v = GAME.evaluate(s, p)
            assert -1.0 <= v <= 1.0
        if s.outcome is not None and s.outcome.winners:
            w = s.outcome.winners[0]
            assert GAME.evaluate(s, w) == 1.0 and GAME.evaluate(s, 1 - w) == -1.0


def test_evaluate_prefers_the_damage_lead():
    s = random_game(3, "tide-warden", "tide-warden", steps=3)
    s.burnt[1] = 3
    assert GAME.evaluate(s, 0) > 0 > GAME.evaluate(s, 1)


@settings(settings.get_profile("shift"))
@given(seed=st.integers(0, 2**32), pair=st.sampled_from(PAIRS), prefix=st.integers(0, 60),
       inputs=st.lists(st.one_of(st.integers(-3, 130), st.sampled_from(COMMANDS)), max_size=40))
def test_random_inputs_only_raise_boardct_errors_and_rejections_change_nothing(
        seed, pair, prefix, inputs):
    s = random_game(seed, *pair, steps=prefix)
    for item in inputs:
        if s.is_over:
            break
        before = snapshot(s)
        view = s.view(None)
        try:
            action = s.parse(item) if isinstance(item, str) else item
            s.apply(action)
        except BoardctError:
            assert snapshot(s) == before
            assert s.view(None) == view


@settings(settings.get_profile("shift"))
@given(seed=st.integers(0, 2**32), pair=st.sampled_from(PAIRS), prefix=st.integers(0, 80),
       more=st.integers(1, 30))
def test_clone_is_independent_of_the_original(seed, pair, prefix, more):
    s = random_game(seed, *pair, steps=prefix)
    before = snapshot(s)
    view = s.view(None)
    c = s.clone()
    assert c.view(None) == view
    rng = random.Random(seed)
    for _ in range(more):
        if c.is_over:
            break
        c.apply(rng.choice(c.legal_actions()))
    assert snapshot(s) == before and s.view(None) == view
    # and the original goes on exactly as the clone did
    s2 = s.clone()
    rng = random.Random(seed)
    for _ in range(more):
        if s2.is_over:
            break
        s2.apply(rng.choice(s2.legal_actions()))
    assert s2.view(None) == c.view(None)


def test_preloaded_coins_are_cloned_with_the_state():
    s = random_game(1, "ember-duelist", "tide-warden", steps=1)
    s.preload_flips("HT")
    c = s.clone()
    assert c.forced == s.forced == (True, False)
