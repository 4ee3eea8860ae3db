"""Shift for learners (issue 20): coming coin flips never reach the observation, flipped
ones do; generic properties in tests/core/test_encoding.py."""

from __future__ import annotations

from boardct.core import registry
from boardct.games.shift import encoding as enc
from boardct.games.shift.actions import PASS, guard_action

GAME = registry.get("shift")


def new(**options):
    return GAME.new(seed=3, names=("a", "b"), **options)


def test_ids():
    s = new()
    assert s.game_info().num_distinct_actions == 90
    assert s.action_id(PASS) == 9
    assert s.action_id(guard_action(-1, 0)) == 10
    assert s.action_id(guard_action(3, 15)) == 89
    assert s.id_action(10) == guard_action(-1, 0)


def test_coming_flips_are_not_observed_past_ones_are():
    """Two copies whose next coins differ (SH-4) look the same until a coin is flipped, then
    differ in that coin."""
    s = new()
    heads, tails = s.clone(), s.clone()
    heads.preload_flips("H" * 40)
    tails.preload_flips("T" * 40)
    for p in (0, 1):
        assert heads.observation_tensor(p) == tails.observation_tensor(p)
    flips = len(heads.flip_log())
    for _ in range(60):
        if len(heads.flip_log()) > flips or heads.is_over:
            break
        acts = heads.legal_actions()
        pick = acts[0] if 4 in acts or len(acts) == 1 else acts[-1]
        for st in (heads, tails):
            if pick in st.legal_actions():
                st.apply(pick)
    assert len(heads.flip_log()) > flips, "a coin was flipped"
    assert heads.observation_tensor(0) != tails.observation_tensor(0)


def test_cards_are_in_the_observation():
    """Two card pairs give different observations at the start: the printed gears differ."""
    a = new()
    b = new(card1="iron-lantern", card2="moth-regent")
    assert a.observation_tensor(0) != b.observation_tensor(0)
    assert len(a.observation_tensor(0)) == enc.SIZE
