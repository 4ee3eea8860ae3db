"""The vector API (`boardct.adapters.vector`): N games stepped at once in self-play, with
Gymnasium's `VectorEnv` conventions: batched spaces, seeds s + i, infos as arrays with their
`_name` masks, autoreset at the next step (or the same step). Every game at its defaults: the
batched observations and masks are each game's own tensors and legal ids for the player to
act, which nothing else writes."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the vector API needs boardct[rl] (numpy)")
gym = pytest.importorskip("gymnasium", reason="the vector API needs boardct[rl]")

from adapter_toys import CARDS, ORDERS, game_ids  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402

from boardct.adapters.vector import vector_env  # noqa: E402
from boardct.core.errors import BoardctError  # noqa: E402


def _random_legal(masks, rng):
    """A random legal id per game; 0 for a game that ended (the next step restarts it and
    ignores the action: its mask is all zero, nothing being legal)."""
    return np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks])


def _check_batch(v, obs, infos):
    """Every game's row is its own state's tensor and legal ids for the player to act."""
    for i, st in enumerate(v.states):
        p = int(infos["player"][i])
        assert obs[i].reshape(-1).tolist() == pytest.approx(st.observation_tensor(p))
        legal = st.legal_ids(p) if not st.is_over and p in st.current_players() else []
        assert np.flatnonzero(infos["action_mask"][i]).tolist() == legal


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_at_its_defaults_batches_each_games_own_observation_and_mask(game_id):
    v = vector_env(game_id, 3)
    assert isinstance(v, VectorEnv) and v.num_envs == 3
    obs, infos = v.reset(seed=10)
    assert v.observation_space.contains(obs) and obs.shape == (3, *v.single_observation_space.shape)
    assert [st.setup.seed for st in v.states] == [10, 11, 12]  # seed s + i, as Gymnasium does
    rng = np.random.default_rng(0)
    for _ in range(12):
        _check_batch(v, obs, infos)
        obs, rewards, terms, truncs, infos = v.step(_random_legal(infos["action_mask"], rng))
        assert rewards.shape == terms.shape == truncs.shape == (3,)
        if terms.any():
            break
    _check_batch(v, obs, infos)


def test_a_seeded_run_replays_exactly():
    runs = []
    for _ in range(2):
        v = vector_env("shift", 4, turn_limit=6)
        obs, infos = v.reset(seed=3)
        rng = np.random.default_rng(5)
        seen, ended = [obs.tobytes()], 0
        for _ in range(60):  # several games a slot: the autoreset seeds replay too
            obs, rewards, terms, _t, infos = v.step(_random_legal(infos["action_mask"], rng))
            seen.append((obs.tobytes(), rewards.tolist(), terms.tolist()))
            ended += int(terms.sum())
        runs.append(seen)
        assert ended >= 4
    assert runs[0] == runs[1]


def _to_the_end(v, infos, rng, slot=0):
    """Step until game `slot` ends; its last (obs, rewards, terms, infos)."""
    for _ in range(500):
        out = v.step(_random_legal(infos["action_mask"], rng))
        obs, rewards, terms, _t, infos = out
        if terms[slot]:
            return obs, rewards, terms, infos
    raise AssertionError("the game did not end")


def test_the_reward_is_the_acting_players_return_and_infos_hold_every_seats():
    v = vector_env(CARDS, 2)
    _obs, infos = v.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(50):
        players = infos["player"].copy()
        states = list(v.states)
        _obs, rewards, terms, _t, infos = v.step(_random_legal(infos["action_mask"], rng))
        for i in np.flatnonzero(terms):
            returns = states[i].returns()  # the ended game (the slot restarts next step)
            assert infos["_returns"][i] and infos["returns"][i].tolist() == list(returns)
            assert rewards[i] == returns[players[i]]
        for i in np.flatnonzero(~terms):
            assert rewards[i] == 0.0


def test_next_step_autoreset_restarts_the_game_and_ignores_that_action():
    v = vector_env(CARDS, 1)
    assert v.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    _obs, infos = v.reset(seed=4)
    rng = np.random.default_rng(2)
    _obs, _r, _terms, infos = _to_the_end(v, infos, rng)
    ended = v.states[0]
    assert ended.is_over
    obs, rewards, terms, _t, infos = v.step(np.array([99]))  # ignored: a new game starts
    fresh = v.states[0]
    assert fresh is not ended and fresh.history() == [] and not fresh.is_over
    assert rewards[0] == 0.0 and not terms[0]
    assert obs[0].tolist() == pytest.approx(fresh.observation_tensor(int(infos["player"][0])))


def test_same_step_autoreset_gives_the_last_observation_in_infos():
    v = vector_env(CARDS, 1, autoreset_mode="same_step")
    _obs, infos = v.reset(seed=4)
    rng = np.random.default_rng(2)
    for _ in range(20):
        player = int(infos["player"][0])
        before = v.states[0]
        obs, _r, terms, _t, infos = v.step(_random_legal(infos["action_mask"], rng))
        if terms[0]:
            assert before.is_over and v.states[0] is not before
            assert infos["_final_obs"][0]
            assert infos["final_obs"][0].tolist() == pytest.approx(
                before.observation_tensor(player))
            assert v.states[0].history() == []
            return
    raise AssertionError("no game ended")


@pytest.mark.parametrize("bad", [7, -1])
@pytest.mark.parametrize("game_id", ["fieldshift", "hills"])
def test_an_illegal_id_ends_that_game_only_with_the_penalty(bad, game_id):
    """FieldShift writes its masks itself, Hills' are joined from its legal ids: either way
    an id outside the mask is refused."""
    v = vector_env(game_id, 2)
    obs, infos = v.reset(seed=6)
    legal = int(np.flatnonzero(infos["action_mask"][1])[0])
    first = np.flatnonzero(infos["action_mask"][0] == 0)
    wrong = int(first[0]) if bad == 7 else bad
    player = int(infos["player"][0])
    before = obs[0].copy()
    obs, rewards, terms, _t, infos = v.step(np.array([wrong, legal]))
    assert rewards[0] == -1.0 and terms[0] and infos["illegal_action"][0]
    assert infos["returns"][0][player] == -1.0
    assert v.states[0].history() == [] and (obs[0] == before).all()  # the board as it was
    assert not terms[1] and len(v.states[1].history()) == 1


def test_simultaneous_orders_are_given_one_player_at_a_time():
    v = vector_env(ORDERS, 1, players=3)
    _obs, infos = v.reset(seed=0)
    seen = []
    for _ in range(3):
        seen.append(int(infos["player"][0]))
        _obs, _r, _terms, _t, infos = v.step(np.array([seen[-1] % 3]))
    assert seen == [0, 1, 2]  # round one: each owes orders, each acts in turn
    assert v.states[0].current_players() == (0, 2)  # round two: the second player sits out


@pytest.mark.parametrize("game_id", ["fieldshift", "hills"])
def test_an_id_set_in_a_handed_out_mask_by_the_learner_stays_illegal(game_id):
    """With copy=False the learner holds the mask buffer itself: writing a 1 into it does not
    make that id legal (actions are checked against the masks as they were handed out)."""
    v = vector_env(game_id, 2, copy=False)
    _obs, infos = v.reset(seed=6)
    masks = infos["action_mask"]
    wrong = int(np.flatnonzero(masks[0] == 0)[0])
    legal = int(np.flatnonzero(masks[1])[0])
    masks[0, wrong] = 1
    _obs, rewards, terms, _t, infos = v.step(np.array([wrong, legal]))
    assert rewards[0] == -1.0 and terms[0] and infos["illegal_action"][0]
    assert v.states[0].history() == [] and not terms[1]


def test_copy_false_hands_out_the_buffers_themselves():
    v = vector_env("shift", 2, copy=False)
    obs, _ = v.reset(seed=1)
    again, _ = v.reset(seed=2)
    assert again is obs
    w = vector_env("shift", 2)
    a, _ = w.reset(seed=1)
    b, _ = w.reset(seed=2)
    assert a is not b


def test_action_masks_are_the_masks_as_bools():
    v = vector_env("hills", 3)
    _obs, infos = v.reset(seed=0)
    assert v.action_masks().dtype == bool
    assert (v.action_masks() == infos["action_mask"].astype(bool)).all()


@pytest.mark.parametrize("kwargs, message", [
    ({"num_envs": 0}, "num_envs"),
    ({"autoreset_mode": "later"}, "autoreset_mode"),
    ({"observation": "all"}, "not one of"),
    ({"render_mode": "human"}, "ansi"),
    ({"colour": "red"}, "colour"),
])
def test_bad_construction_says_what_was_wrong(kwargs, message):
    with pytest.raises(BoardctError, match=message):
        vector_env("shift", **{"num_envs": 2, **kwargs})


def test_step_before_reset_and_wrong_batch_are_refused():
    v = vector_env("shift", 2)
    with pytest.raises(BoardctError, match="reset"):
        v.step(np.array([0, 0]))
    v.reset(seed=0)
    with pytest.raises(BoardctError, match="3 actions for 2 games"):
        v.step(np.array([0, 0, 0]))


# -- the batch's observations and masks, written fast, are each game's own ----------------------
def _exact_batch(v, obs, infos):
    """Row i is, bit for bit, what the single-env path writes for game i's player (the
    game's float32 array or entries), and its mask is that player's legal ids exactly."""
    from boardct.adapters.buffers import observed

    size = obs[0].size
    for i, st in enumerate(v.states):
        p = int(infos["player"][i])
        want = observed(st, p, "observation", size)
        assert obs[i].reshape(-1).view(np.int32).tolist() == want.view(np.int32).tolist()
        legal = st.legal_ids(p) if not st.is_over and p in st.current_players() else []
        assert np.flatnonzero(infos["action_mask"][i]).tolist() == legal


@pytest.mark.parametrize("game_id", game_ids())
def test_many_games_at_their_defaults_are_observed_bit_for_bit_with_autoreset(game_id):
    """16 games at default options, played on after some end and restart (the rows of a
    restarted game, and of an ended one showing its last position, included)."""
    steps = 12 if game_id == "ctf2187" else 120
    v = vector_env(game_id, 16, copy=False)
    obs, infos = v.reset(seed=40)
    rng = np.random.default_rng(1)
    ended = 0
    for k in range(steps):
        _exact_batch(v, obs, infos)
        actions = _random_legal(infos["action_mask"], rng)
        if k == 3:
            actions[5] = -1  # never legal: that game ends (and restarts), whatever the game
        obs, _r, terms, _t, infos = v.step(actions)
        ended += int(terms.sum())
    _exact_batch(v, obs, infos)
    assert ended > 0  # the autoreset path was exercised


def test_fffs_batch_writer_equals_each_states_tensor_on_random_states():
    """FFF writes a batch in numpy (`Game.write_observations`): on random states at the
    default options (turns part-way through their steps, ended games, both observers) every
    row equals `observation_tensor` in float32, whatever the row held before."""
    game, states, players = _whole_games("fff", range(12), np.random.default_rng(3))
    assert any(st.part is not None for st in states) and any(st.is_over for st in states)
    _rows_equal_tensors(game, states, players)


def _whole_games(game_id, seeds, rng):
    """Every state of whole two-player games of `game_id` at the default options, random
    legal play, each state twice: as seen by each player, to the end."""
    from boardct.core import registry

    game = registry.get(game_id)
    states, players = [], []
    for seed in seeds:
        st = game.new(seed=seed, names=["", ""])
        while True:
            states += [st.clone(), st.clone()]
            players += [0, 1]
            if st.is_over:
                break
            p = st.current_players()[0]
            st.apply_id(int(rng.choice(st.legal_ids(p))), p)
    return game, states, players


def _ctf_states(seeds, rng):
    """Every state of whole CTF 2187 games, as seen by each player: at the start, after one
    player's orders are in (the other still to decide) and after each turn's resolution, to
    the end (some games end before the turn limit)."""
    return _whole_games("ctf2187", seeds, rng)


def _rows_equal_tensors(game, states, players):
    size = game.info({}, None).observation_shape[0]
    for k in range(0, len(states), 16):
        rows, seats = states[k:k + 16], players[k:k + 16]
        out = np.full((len(rows), size), 9.0, np.float32)  # stale values must all go
        assert game.write_observations(out, rows, seats) is True
        for row, st, p in zip(out, rows, seats, strict=True):
            want = np.array(st.observation_tensor(p), np.float32)
            assert row.view(np.int32).tolist() == want.view(np.int32).tolist()


def test_ctfs_batch_writer_equals_each_states_tensor_on_random_states():
    """CTF 2187 writes a batch in numpy (`Game.write_observations`: sectors in sight copied
    from a block per map, scaled values divided together): on every state of whole games at
    the default options (mid-turn, resolved turns, Wreckage, ended games, both players) every
    row equals `observation_tensor` in float32 bit for bit, whatever the row held before."""
    rng = np.random.default_rng(4)
    game, states, players = _ctf_states(range(14), rng)
    assert any(st.is_over for st in states) and any(st.turn > 5 for st in states)
    assert any(b.status != 0 for st in states for b in st._bots)  # some Bot is Wreckage
    assert any(st.current_players() == (1,) for st in states)  # player 0's sheet is in
    _rows_equal_tensors(game, states, players)


def test_ctfs_batch_rows_show_a_player_nothing_they_may_not_know():
    """Secrecy (CTF-21, CTF-41): a determinization for player p (unseen Bots' sectors, other
    players' orders, hidden terrain resampled: another map, the same setup) gives p's row bit
    for bit the row of the real state, the two written in the same batch; and each row still
    equals the single path's tensor."""
    rng = np.random.default_rng(8)
    game, states, players = _ctf_states(range(3), rng)
    size = game.info({}, None).observation_shape[0]
    pairs, seats = [], []
    for k, (st, p) in enumerate(zip(states, players, strict=True)):
        pairs += [st, st.determinize(p, 1000 + k)]
        seats += [p, p]
    assert any(a.map is not b.map for a, b in zip(pairs[::2], pairs[1::2], strict=True))
    for k in range(0, len(pairs), 16):
        out = np.zeros((len(pairs[k:k + 16]), size), np.float32)
        game.write_observations(out, pairs[k:k + 16], seats[k:k + 16])
        for real, other in zip(out[::2], out[1::2], strict=True):
            assert real.view(np.int32).tolist() == other.view(np.int32).tolist()
    _rows_equal_tensors(game, pairs, seats)


def _placed(st, num, x, y, **fields):
    """A copy of `st` with Bot `num` moved to sector (x, y) (free) and `fields` set on it."""
    st = st.clone()
    b = st.bots[num - 1]  # made private to the copy
    occ = st.occ
    occ[st.map.index(b.x, b.y)] = 0
    assert occ[st.map.index(x, y)] == 0
    b.x, b.y = x, y
    occ[st.map.index(x, y)] = num
    for name, value in fields.items():
        setattr(b, name, value)
    return st


def test_ctfs_batch_rows_do_not_show_a_bot_out_of_scanning_range():
    """CTF-21: another player's Bot beyond the scanning range is no contact: where it stands,
    how hot it runs and whether it is Wreckage change nothing in the row (while one in range
    shows); every row still the single path's tensor."""
    rng = np.random.default_rng(11)
    game, states, players = _ctf_states(range(2), rng)
    scan = states[0].tables.scanning_range
    base = next(st for st in states if st.turn == 3 and not st.is_over
                and all(b.status == 0 for b in st._bots))
    free = [(x, y) for y in (1, 2, 19, 20) for x in (1, 2, 3, 18, 19, 20)
            if base.occ[base.map.index(x, y)] == 0]
    near = next(xy for xy in free if xy[0] < 10 and xy[1] < 10)
    far = [xy for xy in free if max(abs(xy[0] - near[0]), abs(xy[1] - near[1])) > scan]
    assert len(far) >= 2
    mine = _placed(base, 1, *near)
    hidden = [_placed(mine, 2, *far[0]), _placed(mine, 2, *far[1], heat=17),
              _placed(mine, 2, *far[0], status=1)]
    seen = _placed(mine, 2, near[0] + 3, near[1] + 2)
    rows = hidden + [seen]
    size = game.info({}, None).observation_shape[0]
    out = np.zeros((len(rows), size), np.float32)
    game.write_observations(out, rows, [0] * len(rows))
    assert (out[0] == out[1]).all() and (out[0] == out[2]).all()
    assert not (out[0] == out[3]).all()  # the Bot in range is a contact
    _rows_equal_tensors(game, rows, [0] * len(rows))


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_ctf_vector_rows_stay_exact_over_many_games(mode):
    """16 CTF 2187 games at the default options over several games a slot: order entries,
    turns' resolution, games ending and restarting, illegal ids (out of the mask: the other
    player's Bot, or -1) ending a game, every row and mask the single path's bit for bit."""
    v = vector_env("ctf2187", 16, copy=False, autoreset_mode=mode)
    obs, infos = v.reset(seed=90)
    rng = np.random.default_rng(9)
    ended = illegal = resolved = 0
    for k in range(48):
        _exact_batch(v, obs, infos)
        actions = _random_legal(infos["action_mask"], rng)
        if k % 7 == 3:
            i = k % 16
            wrong = np.flatnonzero(infos["action_mask"][i] == 0)
            actions[i] = int(wrong[0]) if k % 2 and len(wrong) else -1
        turns = [st.turn for st in v.states]
        obs, _r, terms, _t, infos = v.step(actions)
        ended += int(terms.sum())
        illegal += int(infos.get("illegal_action", np.zeros(16, bool)).sum())
        resolved += sum(st.turn > t for st, t in zip(v.states, turns, strict=True))
        if mode == "same_step":
            for i in np.flatnonzero(terms):
                assert infos["final_obs"][i].shape == v.single_observation_space.shape
    _exact_batch(v, obs, infos)
    assert ended > 16 and illegal >= 4 and resolved > 100


def test_ctf_vector_rows_are_exact_with_teams_of_several_bots():
    """Four players in two teams, two Bots each (and a commander of three Bots): several own
    Bots a row, teammates' Bots as friendly contacts, every row the single path's."""
    for kwargs in ({"players": 4, "bots_per_team": 2}, {"players": 2, "bots_per_team": 3}):
        v = vector_env("ctf2187", 6, copy=False, **kwargs)
        obs, infos = v.reset(seed=5)
        rng = np.random.default_rng(5)
        for _ in range(30):
            _exact_batch(v, obs, infos)
            obs, _r, _terms, _t, infos = v.step(_random_legal(infos["action_mask"], rng))
        _exact_batch(v, obs, infos)
        assert any(st.turn > 3 for st in v.states)


def test_a_game_without_a_batch_writer_writes_nothing_and_says_so():
    out = np.full((1, 6), 5.0, np.float32)
    assert CARDS.write_observations(out, [CARDS.new(seed=1, names=["", ""])], [0]) is False
    assert (out == 5.0).all()


def test_masks_stay_right_when_most_sets_of_legal_ids_are_new(monkeypatch):
    """The mask rows are remembered per set of legal ids while most sets come again; where
    most are new (FieldShift, its own batch writer of masks set aside for the vector's
    generic path) the vector stops remembering and writes them directly: the masks are each
    player's legal ids on both sides of that switch."""
    from boardct.core import registry
    from boardct.core.game import Game

    game = registry.get("fieldshift")
    monkeypatch.setattr(game, "write_masks", Game.write_masks.__get__(game))
    v = vector_env(game, 16, copy=False)
    obs, infos = v.reset(seed=2)
    rng = np.random.default_rng(2)
    switched = False
    for _ in range(150):
        for i, st in enumerate(v.states):
            p = int(infos["player"][i])
            legal = st.legal_ids(p) if not st.is_over and p in st.current_players() else []
            assert np.flatnonzero(infos["action_mask"][i]).tolist() == legal
        obs, _r, _terms, _t, infos = v.step(_random_legal(infos["action_mask"], rng))
        switched = switched or not v._remember
    assert switched
