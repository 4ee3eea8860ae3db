"""FieldShift's batch writers for the vector API (`batch`: `Game.write_observations` and
`Game.write_masks`): every row they write is, bit for bit, the single env's tensor of that
state and player (`observation_array`, the fast path `test_fieldshift_observation_cache`
holds to the view's definition) and the mask of its `legal_ids`. Checked at the default
options over whole games (both observers, turns with requests and violations, ended games),
over rows that held other values before, and through the vector itself with autoreset and
illegal actions."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the batch writers need boardct[rl] (numpy)")
pytest.importorskip("gymnasium", reason="the vector API needs boardct[rl]")

from boardct.adapters.vector import vector_env  # noqa: E402
from boardct.core import registry  # noqa: E402
from boardct.games.fieldshift.encoding import NUM_ACTIONS, SIZE  # noqa: E402

GAME = registry.get("fieldshift")


def _bits(a):
    return a.view(np.int32).tolist()


def _played(seeds, every=1):
    """States of whole random games at the defaults (each kept state a clone), with the
    player each is observed by: the player to decide, and now and then the other one; a
    game's last state by both."""
    states, players = [], []
    for seed in seeds:
        rnd = random.Random(seed)
        st = GAME.new(seed=seed, names=["a", "b"])
        k = 0
        while not st.is_over:
            p = st.current_players()[0]
            if k % every == 0:
                states.append(st.clone())
                players.append(p if k % 7 else 1 - p)
            st.apply_id(rnd.choice(st.legal_ids(p)), p)
            k += 1
        states += [st.clone(), st.clone()]
        players += [0, 1]
    return states, players


def _want(states, players):
    return np.array([np.frombuffer(st.observation_array(p), np.float32)
                     for st, p in zip(states, players, strict=True)])


def test_whole_games_at_the_defaults_are_written_as_the_single_env_writes_them():
    states, players = _played(range(6))
    assert len(states) > 1000 and any(st.is_over for st in states)
    for k in range(0, len(states), 16):
        rows, seats = states[k:k + 16], players[k:k + 16]
        out = np.full((len(rows), SIZE), 9.0, np.float32)  # stale values must all go
        assert GAME.write_observations(out, rows, seats) is True
        assert _bits(out) == _bits(_want(rows, seats)), f"batch at {k}"


def test_batches_of_other_sizes_and_single_rows_agree_too():
    states, players = _played([11], every=3)
    for n in (1, 3, 64):
        rows, seats = states[:n], players[:n]
        out = np.zeros((len(rows), SIZE), np.float32)
        GAME.write_observations(out, rows, seats)
        assert _bits(out) == _bits(_want(rows, seats))


def test_counts_too_large_for_a_byte_are_read_all_the_same():
    """A position set by hand may hold counts above 255 (crates, facilities): the writer's
    fast reading of the small values cannot take them and reads them one by one."""
    st = GAME.new(seed=3, names=["a", "b"])
    st.pv[0] = 300  # player 1's crates (CRATES at 0 of its block)
    st.pv[12 + 2] = 999  # player 2's second facility
    out = np.zeros((2, SIZE), np.float32)
    GAME.write_observations(out, [st, st], [0, 1])
    assert _bits(out) == _bits(_want([st, st], [0, 1]))
    assert out[0].max() == 1.0  # clipped as the single env clips


def test_masks_are_each_players_legal_ids_and_nothing_for_the_other_or_an_ended_game():
    states, players = _played(range(20, 24), every=2)
    for k in range(0, len(states), 16):
        rows, seats = states[k:k + 16], players[k:k + 16]
        out = np.full((len(rows), NUM_ACTIONS), 7, np.int8)
        assert GAME.write_masks(out, rows, seats) is True
        for mask, st, p in zip(out, rows, seats, strict=True):
            assert np.flatnonzero(mask).tolist() == st.legal_ids(p)
            assert set(mask.tolist()) <= {0, 1}
    ended = [st for st in states if st.is_over]
    out = np.ones((len(ended), NUM_ACTIONS), np.int8)
    GAME.write_masks(out, ended, [0] * len(ended))
    assert not out.any()


def test_masks_in_every_ruleset_are_the_legal_ids():
    """STDEX and Type-A number their three-digit commands 100 up: the table of ids is the
    one `legal_ids` reads."""
    for ruleset in ("stdex", "type-a"):
        rnd = random.Random(ruleset)
        states, players = [], []
        st = GAME.new(seed=5, names=["a", "b"], ruleset=ruleset)
        while not st.is_over and len(states) < 200:
            p = st.current_players()[0]
            states.append(st.clone())
            players.append(p)
            st.apply_id(rnd.choice(st.legal_ids(p)), p)
        out = np.zeros((len(states), NUM_ACTIONS), np.int8)
        GAME.write_masks(out, states, players)
        assert [np.flatnonzero(m).tolist() for m in out] == [
            s.legal_ids(p) for s, p in zip(states, players, strict=True)]
        obs = np.zeros((len(states), SIZE), np.float32)
        GAME.write_observations(obs, states, players)
        assert _bits(obs) == _bits(_want(states, players))


def _exact(v, obs, infos):
    for i, st in enumerate(v.states):
        p = int(infos["player"][i])
        assert _bits(obs[i]) == _bits(np.frombuffer(st.observation_array(p), np.float32))
        legal = st.legal_ids(p) if not st.is_over else []
        assert np.flatnonzero(infos["action_mask"][i]).tolist() == legal


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_the_vector_over_long_games_with_autoreset_and_illegal_actions(mode):
    """16 games at the defaults stepped 400 times: games end (some by an illegal action:
    an id outside the mask, out of range, or not a number) and restart in their rows, and
    every row stays the single env's, bit for bit; an illegal action ends that game only."""
    v = vector_env("fieldshift", 16, copy=False, autoreset_mode=mode)
    obs, infos = v.reset(seed=7)
    rnd = np.random.default_rng(7)
    ended = illegal = 0
    for k in range(400):
        _exact(v, obs, infos)
        masks = infos["action_mask"]
        actions = [int(rnd.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks]
        bad = {}
        if k % 37 == 5:
            i = k % 16
            if masks[i].any():
                outside = np.flatnonzero(masks[i] == 0)
                bad[i] = [int(outside[k % len(outside)]), NUM_ACTIONS, -3][k % 3]
                actions[i] = bad[i]
        before = [st.clone() for st in v.states]
        obs, rewards, terms, _t, infos = v.step(np.array(actions, np.int64))
        ended += int(terms.sum())
        for i in bad:
            assert terms[i] and infos["illegal_action"][i] and rewards[i] == -1.0
            if mode == "next_step":  # the board is left as it was
                assert v.states[i].snapshot() == before[i].snapshot()
            illegal += 1
        if mode == "same_step" and terms.any():
            for i in np.flatnonzero(terms):
                assert infos["final_obs"][i].shape == (SIZE,)
    _exact(v, obs, infos)
    assert illegal >= 8 and ended > illegal  # games also ended by play (or turn limit)


def test_a_game_without_a_mask_writer_writes_nothing_and_says_so():
    game = registry.get("shift")
    out = np.full((1, 4), 5, np.int8)
    assert game.write_masks(out, [game.new(seed=1, names=["", ""])], [0]) is False
    assert (out == 5).all()


def test_the_vector_takes_numpy_ids_and_refuses_a_float_as_illegal():
    v = vector_env("fieldshift", 2, copy=False)
    _obs, infos = v.reset(seed=1)
    legal = [int(np.flatnonzero(m)[0]) for m in infos["action_mask"]]
    _o, _r, terms, _t, infos = v.step([np.int16(legal[0]), 1.5])
    assert terms.tolist() == [False, True] and infos["illegal_action"].tolist() == [False, True]
