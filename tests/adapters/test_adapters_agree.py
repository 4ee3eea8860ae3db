"""A property over random states of every game: the three adapters hand a learner exactly the
core's legal ids and tensors for the player to act (issue 20: "for random states the legal
ids decode to exactly legal_actions()"; the core's own test checks the decoding, this one that
no adapter adds, drops or reorders anything on the way)."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy", reason="the adapters need boardct[rl] (numpy)")
pytest.importorskip("pettingzoo", reason="the PettingZoo adapter needs boardct[rl]")
pytest.importorskip("gymnasium", reason="the Gymnasium adapter needs boardct[rl]")
pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel bridge needs boardct[openspiel]")

from adapter_toys import game_ids, small  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from boardct.adapters import openspiel  # noqa: E402
from boardct.adapters.pettingzoo import env  # noqa: E402


@pytest.mark.parametrize("game_id", game_ids())
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 30))
def test_pettingzoo_and_openspiel_agree_with_the_core(game_id, seed, moves):
    openspiel.register()
    options = small(game_id)
    e = env(game_id, **options)
    # the same game as the environment's: its chance drawn inside from the seed, not offered
    # as chance nodes (`chance_nodes`, where the game lists its chance)
    listed = "chance_nodes" in pyspiel.load_game(f"boardct_{game_id}").get_parameters()
    sampled = {"chance_nodes": False} if listed else {}
    game = pyspiel.load_game(f"boardct_{game_id}", {**options, "seed": seed, **sampled})
    spiel = game.new_initial_state()
    rng = np.random.default_rng(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.reset(seed=seed)
    for _ in range(moves):
        if e.state.is_over:
            break
        core = e.state
        assert spiel.inner.observation_tensor(0) == core.observation_tensor(0)  # same game
        for p in core.current_players():
            legal = core.legal_ids(p)
            assert legal == sorted(set(legal))
            assert {core.action_id(core.id_action(i, p), p) for i in legal} == set(legal)
            agent = e.possible_agents[p]
            obs = e.observe(agent)
            assert np.flatnonzero(obs["action_mask"]).tolist() == legal
            assert obs["observation"].ravel().tolist() == pytest.approx(
                core.observation_tensor(p))
            assert spiel.legal_actions(p) == legal
        # one random step, the same in both
        p = core.current_players()[0]
        if e.agent_selection != e.possible_agents[p]:
            break  # (the AEC order is the core's; this guards the property's own logic)
        action = int(rng.choice(core.legal_ids(p)))
        e.step(action)
        if spiel.is_simultaneous_node():
            joint = [action if q == p else spiel.legal_actions(q)[-1]
                     for q in range(game.num_players())]
            # the others hand in orders too at a simultaneous node: mirror them in the env
            for q, a in enumerate(joint):
                if q != p and a != game.num_distinct_actions() - 1 and not e.state.is_over \
                        and q in e.state.current_players():
                    e.step(a)
            spiel.apply_actions(joint)
        else:
            spiel.apply_action(action)
        assert spiel.inner.history() == e.state.history()
