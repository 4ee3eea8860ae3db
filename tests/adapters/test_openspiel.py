"""The OpenSpiel bridge (issue 20 item 4): every game registered as boardct_<id> with the
right GameType, OpenSpiel's random simulation test for every game, observers from the core's
tensors, and OpenSpiel's MCTSBot and boardct's MCTS playing the bridged FieldShift."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the OpenSpiel bridge needs boardct[openspiel]")
pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel bridge needs boardct[openspiel]"
                              " (the open_spiel package)")

from adapter_toys import CARDS, ORDERS, game_ids, small  # noqa: E402

from boardct.adapters import openspiel  # noqa: E402
from boardct.agents import make as make_agent  # noqa: E402
from boardct.core import registry  # noqa: E402
from boardct.core.errors import BoardctError  # noqa: E402

GT = pyspiel.GameType


@pytest.fixture(scope="module", autouse=True)
def _registered():
    openspiel.register()
    openspiel.register([CARDS, ORDERS])


def _load(game_id: str, **params):
    return pyspiel.load_game(f"boardct_{game_id}", {**small(game_id), **params})


def sampled(game) -> bool:
    return game.get_type().chance_mode == GT.ChanceMode.SAMPLED_STOCHASTIC


@pytest.mark.parametrize("game_id", game_ids())
def test_random_simulation_test_passes_for_every_game(game_id):
    """OpenSpiel's own C++ random simulation test. Serialisation is checked too for the games
    without chance or with chance nodes; for sampled-stochastic games OpenSpiel's serialiser
    asks the game for its RNG state, which a Python game cannot provide (pyspiel exposes no
    such hook)."""
    game = _load(game_id)
    pyspiel.random_sim_test(game, num_sims=3, serialize=not sampled(game), verbose=False)


def test_random_simulation_test_with_two_bots_a_player():
    pyspiel.random_sim_test(_load("ctf2187", turn_limit=2, bots_per_team=2), num_sims=2,
                            serialize=False, verbose=False)


@pytest.mark.parametrize("game_id", game_ids())
def test_game_type_says_what_the_game_is(game_id):
    bgame = registry.get(game_id)
    gt = _load(game_id).get_type()
    assert gt.short_name == f"boardct_{game_id}"
    assert gt.dynamics == (GT.Dynamics.SIMULTANEOUS if bgame.simultaneous
                           else GT.Dynamics.SEQUENTIAL)
    listed = bgame.max_chance_outcomes(bgame.resolve_options({}), bgame.min_players) > 0
    assert gt.chance_mode == (GT.ChanceMode.DETERMINISTIC if not bgame.has_chance
                              else GT.ChanceMode.EXPLICIT_STOCHASTIC if listed
                              else GT.ChanceMode.SAMPLED_STOCHASTIC)
    assert gt.information == (GT.Information.PERFECT_INFORMATION if bgame.perfect_information
                              else GT.Information.IMPERFECT_INFORMATION)
    assert gt.reward_model == GT.RewardModel.TERMINAL
    assert gt.provides_observation_tensor and gt.provides_information_state_string
    # offered only where it is perfect recall (Hills' keeps a window of the last actions)
    assert gt.provides_information_state_tensor == (bgame.perfect_information
                                                    or bgame.perfect_recall_tensor)


@pytest.mark.parametrize("game_id", game_ids())
def test_tensors_and_actions_are_the_cores(game_id):
    game = _load(game_id, seed=6)
    state = game.new_initial_state()
    while state.is_chance_node():  # a game's setup draws (Hills' shuffles, Shift's toss)
        state.apply_action(state.legal_actions()[-1])
    inner = state.inner
    sim = registry.get(game_id).simultaneous
    assert game.num_distinct_actions() == inner.game_info().num_distinct_actions + (1 if sim else 0)
    assert list(game.observation_tensor_shape()) == list(inner.game_info().observation_shape)
    facts = inner.game_info()
    assert list(game.information_state_tensor_shape()) == list(facts.information_state_shape)
    for p in inner.current_players():
        assert state.legal_actions(p) == inner.legal_ids(p)
        assert state.observation_tensor(p) == pytest.approx(inner.observation_tensor(p))
        assert state.information_state_tensor(p) == pytest.approx(
            inner.information_state_tensor(p))
        assert state.observation_string(p) == inner.observation_string(p)


def test_parameters_reach_the_game_and_seed_fixes_the_chance():
    a = _load("shift", seed=3, turn_limit=7)
    assert a.new_initial_state().inner.setup.options["turn_limit"] == 7
    assert str(a.new_initial_state()) == str(a.new_initial_state())
    deals = {pyspiel.load_game("boardct_toy_cards", {"seed": s}).new_initial_state().inner.cards
             for s in range(20)}
    assert len(deals) > 1  # the seed parameter is the game's seed: other seeds, other deals


def test_a_bad_parameter_is_refused_with_its_name():
    with pytest.raises(Exception, match="turn_limit"):
        pyspiel.load_game("boardct_fieldshift", {"turn_limit": -3})


def test_idle_players_wait_at_a_simultaneous_node():
    game = pyspiel.load_game("boardct_toy_orders", {"players": 3})
    state = game.new_initial_state()
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    state.apply_actions([0, 1, 2])  # round 1: everyone picks
    wait = game.num_distinct_actions() - 1
    assert state.legal_actions(1) == [wait]  # player 2 sits out round 2
    assert state.action_to_string(1, wait) == "wait"
    assert state.legal_actions(0) == [0, 1, 2]
    state.apply_actions([0, wait, 0])
    assert state.inner.round == 2


def test_clone_is_independent():
    state = _load("fieldshift").new_initial_state()
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.history() == [] and len(clone.history()) == 1
    assert state.inner.history() == []


def test_resample_from_infostate_keeps_what_the_player_knows():
    state = pyspiel.load_game("boardct_toy_cards", {"seed": 4}).new_initial_state()
    state.apply_action(1)
    samples = [state.resample_from_infostate(0, lambda: 0.3) for _ in range(3)]
    for s in samples:
        assert s.information_state_tensor(0) == state.information_state_tensor(0)


def _play_mcts_match(openspiel_seat: int) -> tuple[list[float], int]:
    from open_spiel.python.algorithms import mcts

    game = _load("fieldshift", turn_limit=12, seed=2)
    bot = mcts.MCTSBot(game, uct_c=1.4, max_simulations=20,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                       random_state=np.random.RandomState(1))
    ours = make_agent("mcts:iters=20", seed=3)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        p = state.current_player()
        if p == openspiel_seat:
            action = bot.step(state)
        else:
            action = state.inner.action_id(ours.select(state.inner, p), p)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    return state.returns(), moves


@pytest.mark.parametrize("openspiel_seat", [0, 1])
def test_openspiel_mcts_and_boardct_mcts_play_fieldshift_to_the_end(openspiel_seat):
    returns, moves = _play_mcts_match(openspiel_seat)
    assert moves > 0 and sum(returns) == pytest.approx(0.0)  # zero-sum by default


def test_unknown_parameter_is_refused():
    with pytest.raises(Exception, match="colour"):
        pyspiel.load_game("boardct_shift", {"colour": "red"})


def test_register_an_unknown_game_is_refused():
    with pytest.raises(BoardctError, match="unknown game"):
        openspiel.register(["chess"])


def test_four_players_general_sum():
    game = _load("ctf2187", players=4, turn_limit=2)
    assert game.num_players() == 4
    assert game.get_type().utility == GT.Utility.GENERAL_SUM
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_openspiel_ismcts_plays_a_hidden_information_game_through_determinize():
    """OpenSpiel's information-set MCTS samples states with `resample_from_infostate` (the
    game's `determinize`): it plays the bridged Hills to the end."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = _load("hills", turn_limit=6, seed=2)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), 1.4,
                           10, random_state=np.random.RandomState(1))
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))  # chance nodes too
    assert sum(state.returns()) == pytest.approx(0.0)
