"""The PettingZoo adapter: PettingZoo's own API and seed tests for every game, the Parallel
API test for the game with simultaneous orders, and the adapter's promises (issue 20 item 2):
each agent's reward from its own point of view, hidden things hidden, bad actions refused."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy", reason="the PettingZoo adapter needs boardct[rl] (numpy)")
pytest.importorskip("pettingzoo", reason="the PettingZoo adapter needs boardct[rl]")

from adapter_toys import CARDS, ORDERS, game_ids, small  # noqa: E402
from pettingzoo.test import (  # noqa: E402
    api_test,
    max_cycles_test,
    parallel_api_test,
    render_test,
    seed_test,
)
from pettingzoo.utils.conversions import parallel_to_aec  # noqa: E402

from boardct.adapters.pettingzoo import env, parallel_env  # noqa: E402
from boardct.core import registry  # noqa: E402
from boardct.core.errors import BoardctError, IllegalAction  # noqa: E402
from boardct.core.records import (  # noqa: E402, record_of
    Record,
    record_of,  # noqa: E402
    replay,
)


def _quiet(fn, *args, **kwargs):
    """PettingZoo's tests warn about style (a dict observation, an all-zero start); the
    assertions are what count."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def _play(e, seed: int, rng_seed: int = 0) -> int:
    """Play one game through the AEC API with random legal ids; the number of steps."""
    rng = np.random.default_rng(rng_seed)
    e.reset(seed=seed)
    steps = 0
    for agent in e.agent_iter():
        obs, _reward, term, trunc, _info = e.last()
        if term or trunc:
            e.step(None)
            continue
        assert e.observation_space(agent).contains(obs), f"{agent}'s observation out of bounds"
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps


@pytest.mark.parametrize("game_id", game_ids())
def test_pettingzoo_api_test_passes_for_every_game(game_id):
    _quiet(api_test, env(game_id, render_mode="ansi", **small(game_id)), num_cycles=300)


@pytest.mark.parametrize("game_id", game_ids())
def test_pettingzoo_seed_test_passes_for_every_game(game_id):
    _quiet(seed_test, lambda: env(game_id, **small(game_id)), num_cycles=100)


@pytest.mark.parametrize("game_id", game_ids())
def test_pettingzoo_render_test_passes_for_every_game(game_id, capsys):
    """Both modes: "human" prints the board (render returns None), "ansi" returns it."""
    _quiet(render_test, lambda render_mode=None: env(game_id, render_mode=render_mode,
                                                     **small(game_id)))
    assert capsys.readouterr().out.strip(), "render_mode='human' printed nothing"


class _EnvModule:
    """What `max_cycles_test` takes: a module-like object with `env` and `parallel_env`."""

    def __init__(self, game_id: str):
        self.game_id = game_id

    def parallel_env(self, **kwargs):
        # The test samples actions without the mask; by default the first illegal one would
        # end the game (PettingZoo's classic convention), so the test's games penalize them.
        # At the default options: a game must outlast the test's 4 cycles whatever is drawn
        # (the short games of `small` may end sooner when the draws happen to be legal).
        return parallel_env(self.game_id, illegal_action="penalize", **kwargs)

    def env(self, **kwargs):
        # max_cycles_test counts one action per agent a cycle, which the AEC environment of a
        # game of turns does not do (a player may act several times in a row); PettingZoo's
        # own conversion of the Parallel environment does.
        return parallel_to_aec(self.parallel_env(**kwargs))


@pytest.mark.parametrize("game_id", game_ids())
def test_pettingzoo_max_cycles_test_passes_for_every_game(game_id):
    _quiet(max_cycles_test, _EnvModule(game_id))


@pytest.mark.parametrize("game_id", ["fieldshift", "fff"])
def test_aec_max_cycles_truncates_every_agent_after_that_many_rounds(game_id):
    """`max_cycles=3` with two agents: after 6 actions (whoever made them) every agent is
    truncated, sees so once, and is stepped off."""
    e = env(game_id, max_cycles=3)
    rng = np.random.default_rng(2)
    e.reset(seed=8)
    acted, seen_cut = 0, []
    for agent in e.agent_iter():
        obs, _r, term, trunc, _i = e.last()
        if term or trunc:
            assert trunc and not term
            seen_cut.append(agent)
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        acted += 1
    assert acted == 6 and sorted(seen_cut) == e.possible_agents
    assert not e.state.is_over  # cut short, not ended


def test_parallel_max_cycles_truncates_after_that_many_steps():
    pe = parallel_env("ctf2187", max_cycles=2)
    obs, _ = pe.reset(seed=5)
    rng = np.random.default_rng(0)
    for step in range(2):
        acts = {a: int(rng.choice(np.flatnonzero(o["action_mask"])))
                for a, o in obs.items() if o["action_mask"].any()}
        obs, _r, terms, truncs, _i = pe.step(acts)
        assert all(truncs.values()) == (step == 1) and not any(terms.values())
    assert pe.agents == []


@pytest.mark.parametrize("game_id", [g for g in game_ids() if registry.get(g).simultaneous])
def test_parallel_api_test_passes_for_the_simultaneous_games(game_id):
    _quiet(parallel_api_test, parallel_env(game_id, **small(game_id)), num_cycles=300)


def test_parallel_api_test_passes_with_several_bots_per_player():
    """Two Bots a player: a player may owe orders when another owes none (its mask is then
    all zeros and its action ignored)."""
    _quiet(parallel_api_test, parallel_env("ctf2187", turn_limit=2, bots_per_team=2),
           num_cycles=100)


def test_toys_pass_the_libraries_tests_too():
    _quiet(api_test, env(CARDS), num_cycles=50)
    _quiet(seed_test, lambda: env(CARDS), num_cycles=50)
    _quiet(api_test, env(ORDERS, players=3), num_cycles=50)
    _quiet(parallel_api_test, parallel_env(ORDERS, players=3), num_cycles=50)


@pytest.mark.parametrize("game_id", game_ids())
def test_observation_has_the_games_shape_and_mask_is_the_legal_ids(game_id):
    e = env(game_id, **small(game_id))
    e.reset(seed=5)
    st = e.state
    for agent in e.agents:
        p = int(agent.rsplit("_", 1)[1])
        obs = e.observe(agent)
        assert obs["observation"].dtype == np.float32
        assert obs["observation"].shape == tuple(st.game_info().observation_shape)
        assert obs["observation"].ravel().tolist() == pytest.approx(st.observation_tensor(p))
        legal = st.legal_ids(p) if p in st.current_players() else []
        assert np.flatnonzero(obs["action_mask"]).tolist() == legal
        assert obs["action_mask"].shape == (st.game_info().num_distinct_actions,)


def test_each_agent_is_rewarded_with_its_own_return():
    """The toy's cards and bets fix the winner; the winner's reward is 1 and the loser's 0,
    whichever seat wins (the pitfall: everyone credited with the last mover's result)."""
    seen = set()
    for seed in range(40):
        e = env(CARDS)
        _play(e, seed, rng_seed=seed)
        returns = e.state.returns()
        got = {}
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            if term or trunc:
                got[agent] = reward
                e.step(None)
            else:
                e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert got == {"player_0": returns[0], "player_1": returns[1]}
        seen.add(returns)
    assert (1.0, 0.0) in seen and (0.0, 1.0) in seen  # both seats have won


def test_reset_seed_is_the_games_seed_and_the_game_replays():
    e = env("shift", turn_limit=20)
    _play(e, seed=1234)
    st = e.state
    assert st.setup.seed == 1234
    replayed = replay(Record.from_json(record_of(st).to_json()))
    assert replayed.observation_tensor(0) == st.observation_tensor(0)
    assert replayed.returns() == st.returns()


def test_unseeded_resets_follow_the_last_seed():
    a, b = env("hills"), env("hills")
    a.reset(seed=9)
    b.reset(seed=9)
    a.reset()
    b.reset()
    assert a.state.setup.seed == b.state.setup.seed != 9


@pytest.mark.parametrize("bad", [7, -1, 1.5, "1", None, True])
def test_an_illegal_action_is_refused_and_changes_nothing_when_asked_to_raise(bad):
    e = env(CARDS, illegal_action="raise")
    e.reset(seed=3)
    before = e.observe("player_0")["observation"].copy()
    with pytest.raises(IllegalAction, match="not legal for player 0"):
        e.step(bad)
    assert e.agent_selection == "player_0"
    assert (e.observe("player_0")["observation"] == before).all()
    assert e.state.history() == []


def test_an_opponents_hidden_card_is_not_in_the_observation():
    """Two states that differ only in the opponent's card (a determinization) give player 0
    the same observation; the opponent's own observation does tell them apart."""
    e = env(CARDS)
    differed = 0
    for seed in range(30):
        e.reset(seed=seed)
        mine = e.observe("player_0")["observation"]
        theirs = e.observe("player_1")["observation"]
        kept = e.state
        e.state = kept.determinize(0, seed + 100)
        assert (e.observe("player_0")["observation"] == mine).all()
        if e.state.cards[1] != kept.cards[1]:
            differed += 1
            assert (e.observe("player_1")["observation"] != theirs).any()
        e.state = kept
    assert differed > 5  # the determinizations did change the hidden card


@pytest.mark.parametrize("game_id", [g for g in game_ids()
                                     if not registry.get(g).perfect_information])
def test_hidden_information_games_observe_only_what_the_agent_may_know(game_id):
    e = env(game_id, **small(game_id))
    rng = np.random.default_rng(1)
    e.reset(seed=21)
    for _ in range(12):  # a few moves in, so there is history and hidden state
        agent = e.agent_selection
        obs = e.observe(agent)
        if e.terminations[agent]:
            break
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    st = e.state
    for p, agent in enumerate(e.possible_agents):
        mine = e.observe(agent)["observation"].copy()
        e.state = st.determinize(p, 77)
        assert (e.observe(agent)["observation"] == mine).all(), f"{agent} sees hidden state"
        e.state = st


def test_a_waiting_agent_has_an_empty_mask_and_its_action_is_ignored():
    """In the toy's second round player 1 owes nothing."""
    pe = parallel_env(ORDERS)
    obs, _ = pe.reset(seed=1)
    obs, *_ = pe.step({"player_0": 0, "player_1": 1})
    assert obs["player_1"]["action_mask"].tolist() == [0, 0, 0]
    assert obs["player_0"]["action_mask"].tolist() == [1, 1, 1]
    obs, *_ = pe.step({"player_0": 2, "player_1": 99})  # ignored: player 1 owes nothing
    assert pe.state.scores == (4, 2)


def test_parallel_step_checks_every_action_before_carrying_out_any():
    pe = parallel_env(ORDERS, illegal_action="raise")
    pe.reset(seed=1)
    with pytest.raises(IllegalAction):
        pe.step({"player_0": 0, "player_1": 5})
    with pytest.raises(BoardctError, match="player_1 owes an action"):
        pe.step({"player_0": 0})
    assert pe.state.history() == []


def test_parallel_env_of_a_game_of_turns_takes_the_movers_action_only():
    """Every game has a Parallel environment: in a game of turns the agent to move acts and
    the other's action (whatever it is) is ignored; its mask is all zero."""
    pe = parallel_env("fieldshift")
    obs, _ = pe.reset(seed=4)
    mover = pe.possible_agents[pe.state.current_players()[0]]
    other = next(a for a in pe.possible_agents if a != mover)
    assert not obs[other]["action_mask"].any() and obs[mover]["action_mask"].any()
    legal = int(np.flatnonzero(obs[mover]["action_mask"])[0])
    _obs, rewards, terms, truncs, _infos = pe.step({mover: legal, other: 1099})
    assert len(pe.state.history()) == 1 and not any(terms.values())
    assert rewards == dict.fromkeys(pe.possible_agents, 0.0)


@pytest.mark.parametrize("bad", [7, 1.5, None])
def test_an_illegal_action_ends_the_game_as_pettingzoos_classic_games_do(bad, caplog):
    """PettingZoo's classic games (TerminateIllegalWrapper): the agent who made the illegal
    move gets -1, the others 0, every agent is terminated, the board is left as it was."""
    e = env(CARDS)
    e.reset(seed=3)
    e.step(bad)
    assert "Illegal move" in caplog.text  # PettingZoo's own warning, through its logger
    assert e.terminations == {"player_0": True, "player_1": True}
    assert e.rewards == {"player_0": -1.0, "player_1": 0.0}
    assert e.infos["player_0"]["illegal_action"] is True
    assert e.state.history() == [] and not e.state.is_over
    rewards = {}
    for agent in e.agent_iter():  # each agent sees the end once, then is stepped off
        _obs, rewards[agent], term, _trunc, _info = e.last()
        assert term
        e.step(None)
    assert rewards == {"player_1": 0.0, "player_0": -1.0}
    assert e.agents == []


def test_an_illegal_action_penalized_leaves_the_turn_with_the_agent():
    e = env("fieldshift", illegal_action="penalize", illegal_reward=-0.25)
    e.reset(seed=3)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    e.step(bad)
    _obs, reward, term, trunc, info = e.last()
    assert (e.agent_selection, reward, term, trunc) == (agent, -0.25, False, False)
    assert info["illegal_action"] is True and e.state.history() == []
    e.step(int(np.flatnonzero(mask)[0]))  # a legal one is played as ever
    assert len(e.state.history()) == 1 and e.infos[agent] == {}


def test_an_illegal_order_in_the_parallel_env_ends_the_game_for_everyone(caplog):
    pe = parallel_env(ORDERS)
    pe.reset(seed=1)
    _obs, rewards, terms, _truncs, infos = pe.step({"player_0": 0, "player_1": 5})
    assert "Illegal move" in caplog.text
    assert rewards == {"player_0": 0.0, "player_1": -1.0}
    assert all(terms.values()) and infos["player_1"]["illegal_action"] is True
    assert pe.agents == [] and pe.state.history() == []


@pytest.mark.parametrize("kwargs, message", [
    ({"render_mode": "rgb_array"}, "ansi"),
    ({"max_cycles": 0}, "max_cycles"),
    ({"illegal_action": "ignore"}, "illegal_action"),
    ({"observation": "everything"}, "not one of"),
    ({"turn_limit": "many"}, "turn_limit"),
    ({"colour": "red"}, "no option 'colour'"),
    ({"players": 3}, "played by 2-2 players"),
    ({"players": "2"}, "whole number"),
])
def test_bad_construction_says_what_was_wrong(kwargs, message):
    with pytest.raises(BoardctError, match=message):
        env("shift", **kwargs)


def test_unknown_game_lists_the_known_ones():
    with pytest.raises(BoardctError, match="known: .*fieldshift"):
        env("chess")


def test_render_ansi_is_the_games_board():
    e = env("fieldshift", render_mode="ansi")
    e.reset(seed=2)
    assert e.render() == e.state.render(None)


def test_information_state_observation_option():
    e = env(CARDS, observation="information_state")
    e.reset(seed=0)
    e.step(1)
    e.step(0)
    assert e.observe("player_0")["observation"].tolist() == pytest.approx(
        e.state.information_state_tensor(0))
    assert e.observation_space("player_0")["observation"].shape == (10,)


def test_four_players_in_two_teams():
    """CTF 2187 seats up to 16: every seat is an agent, each rewarded with its team's share."""
    _quiet(api_test, env("ctf2187", players=4, turn_limit=2), num_cycles=100)
    _quiet(parallel_api_test, parallel_env("ctf2187", players=4, turn_limit=2), num_cycles=100)
    e = env("ctf2187", players=4, turn_limit=2)
    _play(e, seed=3)
    assert len(e.possible_agents) == 4
