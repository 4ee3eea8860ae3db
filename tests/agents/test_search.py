"""The `search` agent: deterministic under a seed and an iteration budget, chance moves listed
as chance nodes whose outcomes are the engine's own, simultaneous orders decided by each
player. (That it never reads hidden state is checked with the other agents in test_agents.py
and test_agents_secrecy.py.)"""

from __future__ import annotations

import math

import pytest

from boardct.agents import make
from boardct.agents.search import ScriptedRng, SearchAgent, chance_outcomes
from boardct.arena.bench import mid_game_state
from boardct.core import registry
from boardct.core.rng import Rng
from boardct.games.shift.state import P_DEFEND

SHIFT = registry.get("shift")
CTF = registry.get("ctf2187")
BUDGET = {"fff": "iters=3,prior=0,depth=1", "ctf2187": "iters=12"}


def _defence_positions(count: int):
    """Shift positions where the defender owes its defence against a coin-flip attack (SH-9,
    SH-20): the moves whose chance the search lists."""
    found = []
    for seed in range(200):
        st = SHIFT.new(seed=seed)
        rng = Rng(seed)
        while not st.is_over and len(found) < count:
            p = st.current_players()[0]
            if st.phase == P_DEFEND and st.attack_mod().pattern:
                found.append(st.clone())
                break
            legal = st.legal_actions(p)
            st.apply(legal[rng.below(len(legal))], p)
        if len(found) >= count:
            break
    assert len(found) == count
    return found


@pytest.mark.parametrize("game_id", [g.id for g in registry.all_games()])
def test_a_seed_and_an_iteration_budget_give_the_same_move(game_id):
    game = registry.get(game_id)
    for k in range(2):
        state = mid_game_state(game, 21 + k, game.resolve_options(game.bench_options), depth=7)
        if state.is_over:
            continue
        p = state.current_players()[0]
        spec = "search:" + BUDGET.get(game_id, "iters=40")
        moves = {repr(make(spec, seed=k).select(state.clone(), p)) for _ in range(3)}
        assert len(moves) == 1


@pytest.mark.parametrize("game_id", ["fieldshift", "hills"])
def test_the_search_is_mcts_where_neither_chance_nodes_nor_orders_apply(game_id):
    """FieldShift (perfect information, no chance) and Hills (hidden information, sequential
    turns): `search` plays what `mcts` plays, with the same code."""
    game = registry.get(game_id)
    state = mid_game_state(game, 4, game.resolve_options({}), depth=6)
    p = state.current_players()[0]
    for seed in range(2):
        assert make("search:iters=60", seed=seed).select(state, p) == \
            make("mcts:iters=60", seed=seed).select(state, p)


def test_a_coin_attack_lists_every_outcome_with_probabilities_summing_to_one():
    """SH-20: each pattern coin is a chance event, H or T at even odds, flipped in order; the
    listing walks every sequence of faces once (extra coins only after a success)."""
    for st in _defence_positions(5):
        d = st.current_players()[0]
        pattern = st.attack_mod().pattern
        for defence in st.legal_actions(d):
            outs = chance_outcomes(st, d, defence)
            assert outs is not None
            keys = [k for k, _p, _s in outs]
            assert len(set(keys)) == len(keys)
            assert math.isclose(sum(p for _k, p, _s in outs), 1.0)
            assert all(len(k) >= len(pattern) for k in keys)
            assert {k[:len(pattern)] for k in keys} == {
                tuple((i >> j) & 1 for j in reversed(range(len(pattern))))
                for i in range(2 ** len(pattern))}
            for key, prob, _after in outs:
                assert math.isclose(prob, 0.5 ** len(key))


def test_each_listed_outcome_is_the_position_those_coins_give():
    """The outcome (H, T, ...) leads where the engine goes when its coins come out so
    (`preload_flips`, the engine's own scenario hook)."""
    for st in _defence_positions(3):
        d = st.current_players()[0]
        defence = st.legal_actions(d)[0]
        for key, _prob, after in chance_outcomes(st, d, defence):
            forced = st.clone()
            forced.preload_flips("".join("H" if k else "T" for k in key))
            forced.apply(defence, d)
            assert forced.view(0) == after.view(0)
            assert forced.flip_log() == after.flip_log()


def test_a_move_without_chance_has_one_sure_outcome():
    st = _defence_positions(1)[0]
    d = st.current_players()[0]
    after = st.clone()
    after.apply(st.legal_actions(d)[0], d)
    m = after.current_players()[0]
    for action in after.legal_actions(m):
        if action >= 4 and action <= 6:  # an attack: its coins wait for the defence
            continue
        outs = chance_outcomes(after, m, action)
        assert outs is not None and [(k, p) for k, p, _s in outs] == [((), 1.0)]


def test_chance_that_cannot_be_listed_is_sampled():
    """A 64-bit or real draw has too many outcomes to list: the listing gives up (None) and
    the search samples the move, as it does past `chance` outcomes."""
    r = ScriptedRng((1,), seed=3, fill=True)
    assert r.coin() is True and r.log == [(2, 1)]
    r.random()
    assert r.log[-1] == (0, 0)
    st = _defence_positions(1)[0]
    d = st.current_players()[0]
    assert chance_outcomes(st, d, st.legal_actions(d)[0], cap=1) is None


def test_the_search_tree_holds_chance_nodes_weighted_by_probability():
    """After a search from a defence, each root move's outcomes are listed with their
    probabilities and have been visited about in proportion to them."""
    st = _defence_positions(2)[1]
    d = st.current_players()[0]
    agent = SearchAgent(seed=1, iters=400, early=0)
    agent.select(st, d)
    root = agent._last[1]
    for edge in root.edges.values():
        assert edge.outs is not None
        assert math.isclose(sum(o.prob for o in edge.outs.values()), 1.0)
        seen = sum(o.n for o in edge.outs.values())
        for o in edge.outs.values():
            assert abs(o.n - o.prob * seen) <= 1.0 + 1e-9


def test_ctf_orders_of_the_others_are_withdrawn_on_a_determinization_only():
    """CTF 2187: a determinization hands in a sample sheet for the others (whether they have
    handed in is hidden, CTF-41); `open_orders` withdraws it so the search decides it."""
    state = mid_game_state(CTF, 3, CTF.resolve_options({}), depth=8)
    assert state.current_players() == (0, 1)
    d = state.determinize(0, 5)
    assert d.current_players() == (0,)
    assert d.open_orders(0) is True
    assert d.current_players() == (0, 1)
    assert state.current_players() == (0, 1) and d.view(0)["board"] == d.view(0)["board"]
    assert d.open_orders(0) is False


def test_ctf_search_decides_both_players_orders_at_the_root():
    state = mid_game_state(CTF, 3, CTF.resolve_options({}), depth=8)
    agent = SearchAgent(seed=2, iters=40, early=0)
    action = agent.select(state, 0)
    root = agent._last[1]
    assert action in state.legal_actions(0)
    assert set(root.stats) == {0, 1}
    assert sum(n for n, _w in root.stats[1].values()) > 40 // 2


def test_search_parameters_are_checked():
    from boardct.core.errors import BoardctError

    with pytest.raises(BoardctError, match="chance >= 0"):
        make("search:chance=-1")
    agent = make("search:cpu=0.5,pw=2,sprior=1,seed=4")
    assert (agent.budget, agent.pw, agent.sprior) == (0.5, 2.0, 1)


@pytest.mark.parametrize("game_id", ["shift", "hills", "ctf2187"])
def test_a_hint_from_the_search_gives_a_share_and_a_line(game_id):
    """The table's hint reads `report()`: the chosen move's value is a share of the reward
    (0..1), and the expected line starts with the move hinted."""
    from boardct.core.table import hint

    game = registry.get(game_id)
    state = mid_game_state(game, 6, game.resolve_options({}), depth=9)
    p = state.current_players()[0]
    h = hint(state, make("search:iters=60", seed=3), p, seed=9, label="search:iters=60")
    assert h.value is not None and 0.0 <= h.value <= 1.0
    assert h.line[0] == h.text
