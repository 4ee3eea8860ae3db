"""Hills' observation as a float array (`State.observation_array`, what the learners'
environments hand out at every step) copies its global fields from remembered runs, made
once per combination of the values they are built from. These check, at the default options
and along many whole random games stepped in turn (so the remembered runs are met again
from other games and other seats), that the array is byte for byte the one written field by
field (`_write`, the entries' path) and the tensor made from `view(player)` (the
definition, `encoding.observation`)."""

from __future__ import annotations

import random
from array import array

from boardct.core import registry
from boardct.games.hills import encoding as enc


def _field_by_field(state, p: int) -> bytes:
    _, tail, floats = enc._board(state, p)
    return enc._write(state, p, floats[:], tail).tobytes()


def test_the_array_is_the_one_written_field_by_field_in_every_state_of_many_games():
    game = registry.get("hills")
    rnd = random.Random(5)
    games = [game.new(seed=seed, names=["a", "b"]) for seed in range(24)]
    checked = 0
    while any(not s.is_over for s in games):
        for state in games:  # stepped in turn: each game's state meets the others' runs
            for p in (0, 1):
                got = state.observation_array(p)
                assert got.typecode == "f"
                assert got.tobytes() == _field_by_field(state, p), f"seat {p}"
                checked += 1
            if not state.is_over:
                p = state.current_players()[0]
                state.apply_id(rnd.choice(state.legal_ids(p)), p)
    assert checked > 24 * 100  # whole games, not a few openings


def test_the_array_is_the_views_tensor_at_sampled_states_of_default_games():
    game = registry.get("hills")
    for seed in range(40, 52):
        rnd = random.Random(seed)
        state = game.new(seed=seed, names=["a", "b"])
        while not state.is_over:
            if rnd.random() < 0.2:
                for p in (0, 1):
                    want = array("f", enc.observation(state.view(p), p)).tobytes()
                    assert state.observation_array(p).tobytes() == want, f"seat {p}"
            p = state.current_players()[0]
            state.apply_id(rnd.choice(state.legal_ids(p)), p)


def test_each_array_is_fresh():
    """A learner may keep (or change) what it was handed: the next observation is not it."""
    state = registry.get("hills").new(seed=3, names=["a", "b"])
    first = state.observation_array(0)
    first[-1] = 0.5
    assert state.observation_array(0) is not first
    assert state.observation_array(0)[-1] != 0.5
