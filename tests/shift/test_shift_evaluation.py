"""Shift's evaluation at a search's cut-off (games/shift/evaluation.py): what a search and
`greedy` read to tell positions apart, so what each property below protects is play."""

from __future__ import annotations

from shift_helpers import GAME
from test_shift_properties import random_game

from boardct.games.shift.state import P_END, P_SHIFT, ShiftState

RING_1, RING_2L, RING_3, RING_2R = range(4)


def position(dmg: tuple[int, int] = (0, 0), gears: tuple[int, int] = (0, 0), mover: int = 0,
             phase: int = P_SHIFT, turn: int = 10, lit: tuple[int, int] | None = None
             ) -> ShiftState:
    """Ember Duelist (seat 0) against Tide Warden (seat 1), the defaults, set up by hand:
    `dmg` tokens in each damage zone, burnt unless `lit` says how many are lit."""
    s = GAME.new(seed=1)
    assert isinstance(s, ShiftState)
    s.turn = turn
    s.mover = mover
    s.phase = phase
    s.gear = list(gears)
    lit = lit or (0, 0)
    s.lit = list(lit)
    s.burnt = [dmg[0] - lit[0], dmg[1] - lit[1]]
    return s


def test_the_evaluation_is_zero_sum_and_evaluate_all_gives_both_seats_at_once():
    for seed in range(20):
        s = random_game(seed, "ember-duelist", "tide-warden", steps=seed * 7)
        v0, v1 = GAME.evaluate(s, 0), GAME.evaluate(s, 1)
        assert v0 == -v1
        assert GAME.evaluate_all(s) == [v0, v1]


def test_every_hit_is_progress_and_a_big_lead_is_not_yet_a_win():
    """SH-14: the sixth damage wins. Each further hit is worth clearly more, the last one too:
    a lead that looked like a win made the search sit on it until the turn limit."""
    values = [GAME.evaluate(position(dmg=(0, d)), 0) for d in range(6)]
    gains = [b - a for a, b in zip(values, values[1:], strict=False)]
    assert all(g > 0.05 for g in gains), values
    assert values[-1] < 0.9 and 1.0 - values[-1] > 0.1


def test_the_turn_limit_fades_every_value_toward_the_draw():
    """SH-15, SH-38: near the limit a lead is worth less, so a player ahead presses on."""
    far = GAME.evaluate(position(dmg=(1, 4), turn=100), 0)
    near = GAME.evaluate(position(dmg=(1, 4), turn=195), 0)
    last = GAME.evaluate(position(dmg=(1, 4), turn=200), 0)
    assert far > near > last == 0.0


def test_an_attack_that_gets_through_is_worth_most_to_the_player_about_to_make_it():
    """SH-10, SH-27: Ember in gear 3 (power 4) against Tide Warden in gear 1 (guard 3, no lower
    gear to guard with, no spirit) hits; it is a threat on Ember's own turn, not after it
    (Tide Warden moves first and leaves gear 1)."""
    mine = GAME.evaluate(position(gears=(RING_3, RING_1), mover=0, phase=P_SHIFT), 0)
    theirs = GAME.evaluate(position(gears=(RING_3, RING_1), mover=0, phase=P_END), 0)
    level = GAME.evaluate(position(gears=(RING_1, RING_1), mover=0, phase=P_SHIFT), 0)
    assert mine > level and mine > theirs


def test_a_defender_with_spirit_to_guard_is_a_smaller_target():
    """SH-9, SH-27: one spirit lets Tide Warden in gear 1 spirit guard with gear 3 (guard 5)."""
    bare = GAME.evaluate(position(gears=(RING_3, RING_1), dmg=(0, 1), lit=(0, 0)), 0)
    spirit = GAME.evaluate(position(gears=(RING_3, RING_1), dmg=(0, 1), lit=(0, 1)), 0)
    assert bare > spirit
