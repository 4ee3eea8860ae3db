"""Observations written from entries (`adapters/buffers.py`): the arrays the adapters hand out
are the games' own tensors, also when one buffer is reused along a game (nothing left over
from the state before), in PettingZoo, Gymnasium and OpenSpiel's observer alike."""

from __future__ import annotations

import random
from array import array

import pytest

np = pytest.importorskip("numpy", reason="the adapters need boardct[rl] (numpy)")
pytest.importorskip("pettingzoo", reason="the adapters need boardct[rl]")

from adapter_toys import game_ids  # noqa: E402

from boardct.adapters.buffers import write_entries, write_masks, write_rows  # noqa: E402
from boardct.adapters.pettingzoo import env  # noqa: E402
from boardct.core import registry  # noqa: E402


def test_a_reused_buffer_keeps_nothing_of_the_last_tensor():
    buf = np.full(6, 0.7, np.float32)
    assert write_entries(buf, {1: 1.0, 4: 0.25}).tolist() == [0, 1, 0, 0, 0.25, 0]
    assert write_entries(buf, {}).tolist() == [0.0] * 6


def test_batched_rows_and_masks_land_in_their_own_rows():
    rows = np.full((3, 4), 0.5, np.float32)
    write_rows(rows, [{0: 1.0}, {}, {3: 0.5, 1: 1.0}])
    assert rows.tolist() == [[1, 0, 0, 0], [0, 0, 0, 0], [0, 1, 0, 0.5]]
    masks = np.ones((3, 5), np.int8)
    write_masks(masks, [[4], [0, 2], []])
    assert masks.tolist() == [[0, 0, 0, 0, 1], [1, 0, 1, 0, 0], [0, 0, 0, 0, 0]]


def test_batched_float_arrays_and_a_mix_with_entries_land_in_their_own_rows():
    rows = np.full((3, 4), 0.5, np.float32)
    write_rows(rows, [array("f", [1, 0, 0, 0.25]), array("f", [0] * 4), array("f", [0, 1, 0, 0])])
    assert rows.tolist() == [[1, 0, 0, 0.25], [0, 0, 0, 0], [0, 1, 0, 0]]
    write_rows(rows, [{2: 1.0}, array("f", [0, 0, 0, 0.5]), {}])
    assert rows.tolist() == [[0, 0, 1, 0], [0, 0, 0, 0.5], [0, 0, 0, 0]]


@pytest.mark.parametrize("game_id", game_ids())
def test_an_observation_kept_by_a_learner_stays_as_it_was(game_id):
    """The AEC observation is fresh memory (the game's own float array where it writes one):
    later steps do not change a kept one, and writing into it changes no later one."""
    e = env(game_id)
    e.reset(seed=5)
    first, *_ = e.last()
    kept = first["observation"].copy()
    first["observation"][...] = 0.5  # a learner's in-place normalisation, say
    again, *_ = e.last()
    assert again["observation"].tolist() == kept.tolist()
    rng = random.Random(1)
    for _ in range(6):
        obs, _r, term, trunc, _i = e.last()
        if term or trunc:
            break
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert again["observation"].tolist() == kept.tolist()


@pytest.mark.parametrize("game_id", game_ids())
def test_pettingzoo_observations_are_the_games_tensors_along_a_whole_game(game_id):
    """Every step of a game at its default options (up to 300 actions), both kinds."""
    for kind in ("observation", "information_state"):
        e = env(game_id, observation=kind)
        e.reset(seed=12)
        rng = random.Random(3)
        for n, agent in enumerate(e.agent_iter()):
            obs, _r, term, trunc, _i = e.last()
            if term or trunc or n >= 300:
                break
            p = e.possible_agents.index(agent)
            tensor = (e.state.observation_tensor(p) if kind == "observation"
                      else e.state.information_state_tensor(p))
            assert obs["observation"].dtype == np.float32
            assert obs["observation"].reshape(-1).tolist() == np.float32(tensor).tolist()
            assert np.flatnonzero(obs["action_mask"]).tolist() == e.state.legal_ids(p)
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))


@pytest.mark.parametrize("game_id", game_ids())
def test_openspiels_observer_rewrites_its_tensor_in_place_as_the_games(game_id):
    pyspiel = pytest.importorskip("pyspiel", reason="needs boardct[openspiel]")
    from open_spiel.python.observation import make_observation

    from boardct.adapters import openspiel

    openspiel.register()
    game = pyspiel.load_game(f"boardct_{game_id}", {"seed": 5})
    observers = {
        "observation": make_observation(game),
        "information_state": make_observation(game, pyspiel.IIGObservationType(
            perfect_recall=True)),
    }
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(120):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        inner = state.inner
        for p in range(game.num_players()):
            for kind, obs in observers.items():
                obs.set_from(state, p)
                tensor = (inner.observation_tensor(p) if kind == "observation"
                          else inner.information_state_tensor(p))
                assert obs.tensor.tolist() == pytest.approx(tensor), (kind, p)
        if state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p))
                                 for p in range(game.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_a_state_put_in_from_outside_is_observed_with_its_own_mask():
    """The environments keep the legal ids of the state they reached; a state assigned to
    `env.state` (as the determinization tests do) is masked by its own."""
    e = env("fieldshift")
    e.reset(seed=2)
    agent = e.agent_selection
    first = e.observe(agent)["action_mask"].copy()
    other = registry.get("fieldshift").new(seed=2, names=["", ""])
    rng = random.Random(0)
    while other.current_players() == e.state.current_players() or not other.current_players():
        p = other.current_players()[0]
        other.apply_id(rng.choice(other.legal_ids(p)), p)
    e.state = other
    mask = e.observe(agent)["action_mask"]
    p = e.possible_agents.index(agent)
    expected = other.legal_ids(p) if p in other.current_players() else []
    assert np.flatnonzero(mask).tolist() == expected != np.flatnonzero(first).tolist()
