"""The Gymnasium adapter: `check_env` for every game, registered as boardct/<Game>-v0, and the
adapter's promises (issue 20 item 3): the learner's own reward, the mask in `info`, the
learner's seat configurable, other seats played by a boardct agent."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy", reason="the Gymnasium adapter needs boardct[rl] (numpy)")
gym = pytest.importorskip("gymnasium", reason="the Gymnasium adapter needs boardct[rl]")

from adapter_toys import CARDS, ORDERS, game_ids, small  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from boardct.adapters.gymnasium import BoardctEnv, env_id, register_all  # noqa: E402
from boardct.core.errors import BoardctError  # noqa: E402


def _episode(e, seed: int, rng_seed: int = 0):
    """One episode with random legal ids; (last reward, last info, steps)."""
    rng = np.random.default_rng(rng_seed)
    _obs, info = e.reset(seed=seed)
    steps, done, reward = 0, False, 0.0
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _obs, reward, done, trunc, info = e.step(action)
        assert not trunc
        steps += 1
    return reward, info, steps


@pytest.mark.parametrize("game_id", game_ids())
def test_check_env_passes_for_every_game(game_id):
    """Through `gymnasium.make` of the registered id, so the checker also makes it anew with
    render_mode="ansi". It must not warn either."""
    e = gym.make(env_id(game_id), opponent="mcts:iters=5", **small(game_id))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(e.unwrapped)
    assert [str(w.message) for w in caught] == []


def test_every_game_is_registered_by_importing_the_module():
    ids = register_all()
    assert "boardct/FieldShift-v0" in ids and "boardct/CTF2187-v0" in ids
    assert len(ids) == len(game_ids())
    for name in ids:
        assert name in gym.registry


def test_make_by_module_path_needs_no_separate_import():
    e = gym.make("boardct.adapters.gymnasium:boardct/Shift-v0", opponent="random")
    obs, info = e.reset(seed=1)
    assert obs.shape == e.observation_space.shape and "action_mask" in info


def test_the_reward_is_the_learners_own_return_in_either_seat():
    """The known pitfall of such wrappers: the opponent's result reported as the learner's.
    With the learner in seat 1 its rewards must be the game's returns for seat 1."""
    for seat in (0, 1):
        e = BoardctEnv(CARDS, opponent="random", seat=seat)
        outcomes = set()
        for seed in range(40):
            reward, _info, _ = _episode(e, seed, rng_seed=seed)
            assert reward == e.state.returns()[seat]
            outcomes.add(reward)
        assert outcomes >= {0.0, 1.0}  # the learner both won and lost


def test_the_mask_in_info_is_the_learners_legal_ids():
    e = BoardctEnv("fieldshift", opponent="random", seat=1, turn_limit=10)
    _obs, info = e.reset(seed=4)
    assert e.state.current_players() == (1,)  # the opponent has moved first
    assert np.flatnonzero(info["action_mask"]).tolist() == e.state.legal_ids(1)
    assert info["seat"] == 1


def test_observation_is_the_learners_tensor():
    e = BoardctEnv("hills", opponent="random", seat=1)
    obs, _ = e.reset(seed=8)
    assert obs.dtype == np.float32
    assert obs.ravel().tolist() == pytest.approx(e.state.observation_tensor(1))


def test_an_illegal_action_ends_the_episode_with_the_penalty_and_changes_nothing():
    e = BoardctEnv(CARDS, opponent="random", illegal_reward=-2.0)
    obs, _ = e.reset(seed=3)
    _obs, reward, term, trunc, info = e.step(5)
    assert (reward, term, trunc) == (-2.0, True, False)
    assert info["illegal_action"] and info["legal_ids"] == [0, 1]
    assert e.state.history() == []


def test_simultaneous_orders_with_agents_on_the_other_seats():
    e = BoardctEnv(ORDERS, opponent="random", players=3, seat=2)
    reward, _info, steps = _episode(e, seed=2)
    assert steps == 3  # the learner owes a pick each round
    assert reward == e.state.returns()[2]


def test_seat_none_draws_the_seat_per_episode_reproducibly():
    e = BoardctEnv(CARDS, opponent="random", seat=None)
    e.reset(seed=11)
    seats = [e.reset()[1]["seat"] for _ in range(30)]
    assert set(seats) == {0, 1}
    e.reset(seed=11)
    assert [e.reset()[1]["seat"] for _ in range(30)] == seats


def test_a_seeded_episode_replays_exactly():
    e = BoardctEnv("shift", opponent="mcts:iters=10", turn_limit=20)
    first = _episode(e, seed=5, rng_seed=1)
    hist = e.state.history()
    second = _episode(e, seed=5, rng_seed=1)
    assert first[0] == second[0] and e.state.history() == hist
    assert e.state.setup.seed == 5


@pytest.mark.parametrize("kwargs, message", [
    ({"opponent": "genius"}, "unknown agent"),
    ({"opponent": "mcts:depth"}, "NAME=VALUE"),
    ({"seat": 2}, "seat 2"),
    ({"seat": True}, "seat True"),
    ({"observation": "all"}, "not one of"),
    ({"render_mode": "rgb_array"}, "ansi"),
])
def test_bad_construction_says_what_was_wrong(kwargs, message):
    with pytest.raises(BoardctError, match=message):
        BoardctEnv("shift", **kwargs)


def test_step_before_reset_and_after_the_end_is_refused():
    e = BoardctEnv(CARDS, opponent="random")
    with pytest.raises(BoardctError, match="reset"):
        e.step(0)
    _episode(e, seed=0)
    with pytest.raises(BoardctError, match="over"):
        e.step(0)
