"""`legal_actions()` remembers the last position asked for each side (issue 21): asking again
for an unchanged position copies the list instead of searching. A caller relies on three
things, checked here: every call returns its own list (changing it changes nothing else), the
answer follows every change of the position however it was made (apply, undo through a clone,
a list changed in place), and it is exactly the turns a fresh search gives, in order."""

from __future__ import annotations

import random

from fff_helpers import GAME, setup

from boardct.games.fff import movegen


def args(state) -> tuple:
    return (state.main, state.ghost, state.pool, state.lost, state.cnt, state.turn)


def test_each_call_returns_its_own_list_and_changing_it_changes_nothing():
    s = GAME.new(seed=0)
    first = s.legal_actions()
    want = list(first)
    first.clear()  # a caller filtering or sorting the list it was given
    second = s.legal_actions()
    assert second == want and len(second) == 815
    assert second is not first
    second.append((0,))
    second.reverse()
    assert s.legal_actions() == want


def test_the_answer_follows_apply_and_going_back_to_an_earlier_position():
    s = GAME.new(seed=0)
    start = s.legal_actions()
    before = s.clone()
    s.apply(s.parse("b1 m"))
    white = s.legal_actions()
    assert white != start
    assert white == movegen.fresh_turns(*args(s))
    # Back to the start position (a clone kept for undo): Black's turns again.
    assert before.legal_actions() == start
    s.apply(s.parse("g8 SW"))
    assert s.legal_actions() == movegen.fresh_turns(*args(s)) != start


def test_a_board_changed_in_place_is_not_answered_from_memory():
    """The memory is keyed by the position's content, not by the state object or its lists:
    a square list changed in place (as a position editor or a test might) is a new position."""
    s = setup("B2d4N,W1d6S")
    before = s.legal_actions()
    code = s.main[27]
    s.main[27] = 0  # the piece on d4 moved to e4, in place
    s.main[28] = code
    after = s.legal_actions()
    assert after == movegen.fresh_turns(*args(s))
    assert after != before


def test_positions_differing_only_in_the_pool_get_their_own_turns():
    """The same squares and pieces, but White's three 1-pips carry green fields in one position
    and red in the other: the pool's 2-pip green (then red) fields are all taken, so Black's
    1-pip may add red but not green in the first, and green but not red in the second."""
    green = setup("B1d4N,W1a8S:g,W1b8S:g,W1c8S:g")
    red = setup("B1d4N,W1a8S:r,W1b8S:r,W1c8S:r")
    for _ in range(2):  # and each asked again after the other
        g = {green.notation(t) for t in green.legal_actions()}
        r = {red.notation(t) for t in red.legal_actions()}
        assert "d4 +r" in g and "d4 +g" not in g
        assert "d4 +g" in r and "d4 +r" not in r


def test_remembered_turns_equal_fresh_ones_along_random_games_in_order():
    """Random games, each position asked twice, and sometimes an older position of either side
    asked again between them: every answer equals `fresh_turns` (the search without memory,
    itself checked against the reference generator and the recorded digests)."""
    rng = random.Random(2126)
    kept = []
    for _ in range(6):
        s = GAME.new(seed=rng.randrange(1 << 30))
        for _ in range(60):
            if s.is_over:
                break
            want = movegen.fresh_turns(*args(s))
            assert s.legal_actions() == want
            if kept and rng.random() < 0.3:
                old, old_want = rng.choice(kept)
                assert old.legal_actions() == old_want
            assert s.legal_actions() == want
            if rng.random() < 0.1:
                kept.append((s.clone(), want))
            s.apply(rng.choice(want))
