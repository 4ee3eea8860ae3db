"""Shift's batch writer (`games/shift/batch.py`, the vector API's `Game.write_observations`):
it joins each tensor from parts remembered by a few of the state's numbers, so these check,
bit for bit against the single-env path (`observation_array`, the float32 array the
PettingZoo and Gymnasium environments hand out), that no part is ever stale or borrowed from
another state: over whole games at the default options and other cards, for both observers,
ended games included, in batches whose order changes, and through the vector API itself with
illegal actions and both autoreset modes."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the vector API needs boardct[rl] (numpy)")
pytest.importorskip("gymnasium", reason="the vector API needs boardct[rl]")

from boardct.adapters.vector import vector_env  # noqa: E402
from boardct.core import registry  # noqa: E402

SIZE = 168


def _bits(row) -> list[int]:
    return np.asarray(row, np.float32).reshape(-1).view(np.int32).tolist()


def _want(st, p) -> list[int]:
    return np.frombuffer(st.observation_array(p), np.float32).view(np.int32).tolist()


def _random_states(options: dict, games: int, seed: int) -> list:
    """Every state of `games` random games (both observers' turn comes: each is listed
    once; the ended positions too)."""
    game = registry.get("shift")
    rng = random.Random(seed)
    states = []
    for k in range(games):
        st = game.new(seed=seed * 1000 + k, names=["", ""], **options)
        while True:
            states.append(st.clone())
            if st.is_over:
                break
            p = st.current_players()[0]
            st.apply_id(rng.choice(st.legal_ids(p)), p)
    return states


@pytest.mark.parametrize("options", [
    {},  # the defaults: ember-duelist against tide-warden, 200 turns
    {"card1": "iron-lantern", "card2": "moth-regent"},
    {"card1": "quill-of-ash", "card2": "glass-cartographer", "turn_limit": 20},
])
def test_the_batch_writer_equals_each_states_array_for_both_observers(options):
    """Random games' every state, for both observers, in batches of 16 taken in play order
    and then shuffled (each place in the batch meeting other games' coins), written over
    stale values: every row is the state's own `observation_array`, bit for bit."""
    game = registry.get("shift")
    states = _random_states(options, 8, 3)
    assert any(st.is_over for st in states) and any(st.atk >= 0 for st in states)
    pairs = [(st, p) for st in states for p in (0, 1)]
    shuffled = pairs[:]
    random.Random(5).shuffle(shuffled)
    for batch in (pairs, shuffled):
        for k in range(0, len(batch), 16):
            chunk = batch[k:k + 16]
            out = np.full((len(chunk), SIZE), 7.0, np.float32)
            assert game.write_observations(out, [s for s, _ in chunk],
                                           [p for _, p in chunk]) is True
            for row, (st, p) in zip(out, chunk, strict=True):
                assert _bits(row) == _want(st, p)


def test_the_batch_writer_serves_two_card_sets_in_one_batch():
    """A batch may mix games of different cards and turn limits: each row keeps its own
    cards' printed gears and its own turn scale."""
    game = registry.get("shift")
    a = _random_states({}, 2, 7)
    b = _random_states({"card1": "moth-regent", "card2": "iron-lantern", "turn_limit": 7},
                       2, 8)
    mixed = [s for pair in zip(a, b, strict=False) for s in pair]
    for k in range(0, len(mixed), 10):
        chunk = mixed[k:k + 10]
        players = [i % 2 for i in range(len(chunk))]
        out = np.zeros((len(chunk), SIZE), np.float32)
        game.write_observations(out, chunk, players)
        for row, st, p in zip(out, chunk, players, strict=True):
            assert _bits(row) == _want(st, p)


def _exact(v, obs, infos):
    for i, st in enumerate(v.states):
        p = int(infos["player"][i])
        assert _bits(obs[i]) == _want(st, p), f"game {i}"
        legal = st.legal_ids(p) if not st.is_over and p in st.current_players() else []
        assert np.flatnonzero(infos["action_mask"][i]).tolist() == legal


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_long_vector_runs_at_the_defaults_are_the_single_envs_rows(mode):
    """16 games at the default options stepped 1,500 times (some 24,000 decisions, dozens of
    whole games, each place restarted by autoreset many times), with an illegal action now
    and then (that game ends at once and restarts): every row at every step is the
    single-env tensor of that game's player, bit for bit; a same-step final observation too."""
    v = vector_env("shift", 16, copy=False, autoreset_mode=mode)
    obs, infos = v.reset(seed=11)
    rng = np.random.default_rng(4)
    ended = illegal = 0
    for k in range(1500):
        _exact(v, obs, infos)
        masks = infos["action_mask"]
        actions = np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0
                            for m in masks])
        if k % 97 == 5:
            actions[k % 16] = 95 if k % 2 else -3  # never legal: out of range, or negative
        finals = [st.clone() for st in v.states]
        players = infos["player"].copy()
        obs, _r, terms, _t, infos = v.step(actions)
        ended += int(terms.sum())
        illegal += int(infos.get("illegal_action", np.zeros(16, bool)).sum())
        if mode == "same_step" and terms.any():
            for i in np.flatnonzero(terms):
                if not infos.get("illegal_action", np.zeros(16, bool))[i]:
                    st = finals[i]
                    p = st.current_players()[0]
                    st.apply_id(int(actions[i]), p)
                    assert _bits(infos["final_obs"][i]) == _want(st, int(players[i]))
    _exact(v, obs, infos)
    assert ended > 40 and illegal >= 10
