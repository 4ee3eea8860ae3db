"""CTF 2187's evaluation (evaluation.py): the chance of ending with the best rating (CTF-16,
CTF-39), which agents read at the end of their look-ahead. It must keep telling positions
apart when one side leads by a lot, and value what a lone Bot can still win from the command
posts (CTF-34)."""

from __future__ import annotations

import pytest
from ctf2187_helpers import game, place

from boardct.agents import make
from boardct.core import registry
from boardct.games.ctf2187 import evaluation
from boardct.games.ctf2187.units import KNEELING, WRECKED

CTF = registry.get("ctf2187")


def _lone_bot(turn: int = 7, behind: int = 70):
    """Bot 2 is Wreckage; Bot 1 stands 6 sectors from B's command post at 19-7, facing it,
    `behind` VP short of Bot 2's."""
    st = game()
    st.bots[1].status = WRECKED
    st.bots[1].vp = behind
    place(st, 1, 13, 9, facing=3)
    st.turn = turn
    return st


def test_values_are_in_range_and_zero_sum_between_two_teams():
    st = game()
    assert CTF.evaluate_all(st) == [0.0, 0.0]
    for vp in (5, 40, 120, 400):
        st.bots[0].vp = vp
        a, b = CTF.evaluate_all(st)
        assert -1 < b < 0 < a < 1
        assert abs(a + b) < 1e-12


def test_a_bigger_lead_is_always_worth_more_where_the_old_clamp_was_flat():
    """CTF-16: the rating decides. The evaluation before this one was clamped to +-1 from a
    lead of half a rating point, so a search saw no difference between its orders there."""
    st = game()
    last = -1.0
    for vp in range(0, 200, 10):
        st.bots[0].vp = vp
        value = CTF.evaluate(st, 0)
        assert value > last
        last = value


def test_the_same_lead_is_surer_near_the_turn_limit():
    st = game()
    st.bots[0].vp = 20
    early = CTF.evaluate(st, 0)
    st.turn = 10
    assert CTF.evaluate(st, 0) > early


def test_a_lone_bot_behind_on_rating_still_gains_from_every_point_of_post_damage():
    """The side that lost its Bots can only wait; the other can still take 2 VP a point of
    command post structure (CTF-16, CTF-34): each point it takes must count."""
    st = _lone_bot()
    before = CTF.evaluate(st, 0)
    st.bots[0].vp += 20
    st.cps[2].structure -= 10
    after = CTF.evaluate(st, 0)
    assert after > before + 0.05


def test_the_search_fires_at_the_posts_when_only_they_can_win_the_game():
    """A position of a game drawn in session 10's screens: Bot 2 wrecked Bot 1, the ratings are
    level with four turns left, and B's Bot faces A's posts 12 sectors off (the Missile Rack's
    and the Particle Beam Cannon's reach, CTF-32). Only post damage can break the tie, so the
    search must hand in a sheet that fires at the nearest enemy command post (attack 5), for
    nearly every seed. (Under the old clamped evaluation every sheet looked alike here, and the
    search picked sheets that never fire at a post for 5 of these 6 seeds.)"""
    firing = 0
    for seed in range(6):
        st = game()
        st.bots[0].status = WRECKED
        st.bots[0].vp = st.bots[1].vp = 70
        place(st, 2, 14, 10, facing=7)
        st.turn = 7
        orders = make("search:iters=60", seed=seed).select(st, 1)[2:]
        firing += any(orders[5 * ph + 2] == 5 for ph in range(5))
    assert firing >= 5


def test_reach_counts_targets_in_range_and_sight_only():
    """A Bot out of every weapon's range of everything has no reach; in range of a post, the
    reach is the post's (2 VP a point, CTF-16); a Heavy Building between takes the line of fire
    (CTF-27) and the reach with it."""
    st = game()
    assert evaluation.threats(st) == [0.0, 0.0]  # 13 sectors apart, posts 15 and more off
    place(st, 1, 8, 10)  # 11 from B's post at 19-7: PBC and MR at 45% (CTF-28, +10 at a post)
    a, b = evaluation.threats(st)
    assert a == pytest.approx(2 * (10 + 5) * 0.55)  # the post beats Bot 2, 9 sectors off
    assert b == pytest.approx((10 + 5) * 0.60)
    blocked = game({(12, 10): "B1"})
    place(blocked, 1, 8, 10)
    assert evaluation.threats(blocked)[1] == 0.0


def test_kneeling_in_woods_makes_a_bot_harder_to_reach():
    """CTF-28: a kneeling target -10, Heavy Woods cover -20."""
    open_ground = game()
    place(open_ground, 1, 8, 10)
    woods = game({(8, 10): "W1"})
    place(woods, 1, 8, 10, posture=KNEELING)
    assert evaluation.threats(woods)[1] < evaluation.threats(open_ground)[1]
    assert CTF.evaluate(woods, 0) > CTF.evaluate(open_ground, 0)


def test_standing_in_the_posts_fire_counts_against_a_bot():
    """CTF-34: each post's Large Laser (range 10) fires at the nearest enemy Bot in range. A Bot
    7 sectors from both of B's posts expects 60% of 8 points from each a phase; 11 sectors
    off, nothing; and the evaluation prefers the Bot out of their reach when nothing else
    differs (neither Bot can fire but Bot 1's Small Laser, out of range of everything)."""
    st = game()
    assert evaluation.exposure(st) == [0.0, 0.0]
    place(st, 1, 12, 10)  # 7 from 19-7 and 19-14 (CTF-17)
    assert evaluation.exposure(st) == pytest.approx([2 * 8 * 0.60, 0.0])
    place(st, 1, 8, 10)
    assert evaluation.exposure(st) == [0.0, 0.0]
    near, far = game(), game()
    place(near, 1, 12, 10)
    place(far, 1, 8, 10)
    for st in (near, far):
        st.bots[0].weapons = [0, 2, 2, 2]  # destroyed but the Small Laser (CTF-30)
        st.bots[1].weapons = [2, 2, 2, 2]
        assert evaluation.threats(st) == [0.0, 0.0]
    assert CTF.evaluate(far, 0) > CTF.evaluate(near, 0)
