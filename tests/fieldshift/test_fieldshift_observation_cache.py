"""FieldShift's fast observation remembers two things between calls: the stacking order of the
sectors, kept on the state (and copied to its clones) with the clock and the number of
operators off the board it was worked out at; and the bytes of each operator's, player's and
the game's fields. These check that neither goes stale where it could: on clones that go
separate ways, after deaths and retreats (operators leave the board without the clock
moving), and for the other observer. The reference is always the tensor built from
`view(player)` (the definition, `encoding.observation`)."""

from __future__ import annotations

import random
from array import array

from boardct.core import registry
from boardct.games.fieldshift import encoding as enc


def _agrees(state) -> None:
    for p in (0, 1):
        want = array("f", enc.observation(state.view(p), p)).tolist()
        assert state.observation_array(p).tolist() == want, f"seat {p}"
        assert state.observation_tensor(p) == enc.observation(state.view(p), p)


def _step(state, rnd: random.Random) -> None:
    p = state.current_players()[0]
    state.apply_id(rnd.choice(state.legal_ids(p)), p)


def test_clones_that_go_separate_ways_each_observe_their_own_stacks():
    """A state observed (its stacking order kept), cloned, and both played on differently:
    each observes its own board at every step, though both started from the kept order."""
    game = registry.get("fieldshift")
    for seed in range(12):
        rnd = random.Random(seed)
        state = game.new(seed=seed, names=["a", "b"])
        for _ in range(rnd.randrange(5, 60)):
            if state.is_over:
                break
            _step(state, rnd)
        if state.is_over:
            continue
        _agrees(state)  # the order is now kept on the state
        twin = state.clone()
        for _ in range(25):
            for s in (state, twin):
                if not s.is_over:
                    _step(s, rnd)
                    _agrees(s)


def test_operators_leaving_without_the_clock_moving_are_not_counted_in_a_stack():
    """Whole games observed at every step, with the stacking order checked directly: it
    is each operator's place among those in its sector by arrival, 0 off the board, whatever
    left the board (bled out, retreated, sent home) since the order was last worked out."""
    game = registry.get("fieldshift")
    left = 0
    for seed in range(30, 40):
        rnd = random.Random(seed)
        state = game.new(seed=seed, names=["a", "b"])
        for _ in range(300):
            if state.is_over:
                break
            before = sum(1 for w in state.loc if w < 0)
            clock = state.clock
            _step(state, rnd)
            if sum(1 for w in state.loc if w < 0) > before and state.clock == clock:
                left += 1  # an operator left the board and nothing arrived
            ranks = enc.ranks(state)
            for i in range(20):
                where = state.loc[i]
                expected = (sum(1 for j in range(20) if state.loc[j] == where
                                and state.stamp[j] < state.stamp[i]) if where >= 0 else 0)
                assert ranks[i] == expected, f"operator {i}, seed {seed}"
    assert left > 0, "the games never had an operator leave without an arrival: no check made"


def test_a_position_set_by_hand_is_worked_out_anew():
    """`_resync` (positions built by hand, as the rules tests do) drops the kept order."""
    state = registry.get("fieldshift").new(seed=1, names=["a", "b"])
    _agrees(state)
    state.loc[2], state.loc[13] = 3, 3  # +2 and -3 share sector 3, +2 arrived first
    state.stamp[2], state.stamp[13] = 40, 41
    state._resync()
    _agrees(state)
    assert enc.ranks(state)[13] == 1 and enc.ranks(state)[2] == 0


def test_every_state_of_many_default_games_stepped_in_turn_agrees():
    """Whole games at the default options, stepped in turn (each game's observation meets
    the remembered stacks, marks and bytes of the others): every state's array, for both
    seats, is the tensor made from the view."""
    game = registry.get("fieldshift")
    rnd = random.Random(11)
    games = [game.new(seed=seed, names=["a", "b"]) for seed in range(50, 62)]
    checked = 0
    while any(not s.is_over for s in games):
        for state in games:
            if not state.is_over:
                _agrees(state)
                checked += 1
                _step(state, rnd)
    assert checked > 12 * 100  # whole games, not a few openings
