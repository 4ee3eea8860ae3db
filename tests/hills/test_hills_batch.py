"""Hills for a vector of games: the batch writer of observations (`Game.write_observations`,
games/hills/batch.py, rows joined from remembered pieces) and the legal ids made directly
(`legal_ids`). Every row must be, byte for byte, the tensor the single environment hands out
(`observation_array`, itself held to `encoding.observation(view)`), over whole games at the
default options, whatever the batch mixes: both observers, games that ended, clones of one game
at different points, a game met again after others, positions set up for a scenario."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the batch writer needs boardct[rl] (numpy)")

from boardct.core import registry  # noqa: E402
from boardct.games.hills import encoding as enc  # noqa: E402

HILLS = registry.get("hills")


def _rows_are_the_arrays(states, players, fill=9.0):
    """Write the batch into a buffer full of stale values; every row the state's array."""
    out = np.full((len(states), enc.SIZE), fill, np.float32)
    assert HILLS.write_observations(out, states, players) is True
    for row, st, p in zip(out, states, players, strict=True):
        want = np.frombuffer(st.observation_array(p), np.float32)
        assert row.view(np.int32).tolist() == want.view(np.int32).tolist()


def test_sixteen_default_games_stepped_together_are_written_row_for_row_to_their_ends():
    """16 games at the default options played to their ends (and replaced) in turn, the
    batch written at every step for the player to act and, at random, for the other seat:
    each row equals that player's `observation_array`."""
    rnd = random.Random(7)
    games = [HILLS.new(seed=seed, names=["a", "b"]) for seed in range(16)]
    finished = 0
    for _ in range(900):
        players = [(st.current_players() or (0,))[0] if rnd.random() < 0.8 else rnd.randrange(2)
                   for st in games]
        _rows_are_the_arrays(games, players)
        for i, st in enumerate(games):
            if st.is_over:
                finished += 1
                games[i] = HILLS.new(seed=rnd.randrange(1 << 30), names=["a", "b"])
                continue
            p = st.current_players()[0]
            st.apply_id(rnd.choice(st.legal_ids(p)), p)
    assert finished >= 16  # whole games, ended rows included, not a few openings


def test_the_games_a_vector_has_done_with_are_not_kept_by_the_writer(monkeypatch):
    """A vector replaces each game that ends; the writer forgets the rows and boards of games
    no longer in its batches beyond a spare (else hundreds of dead games stay alive for the
    garbage collector to walk), and the rows it writes stay right. (The spare made small
    here, so that a dozen games overflow it.)"""
    from boardct.games.hills import batch

    monkeypatch.setattr(batch, "_SPARE", 6)
    rnd = random.Random(5)
    games = [HILLS.new(seed=seed, names=["a", "b"]) for seed in range(4)]
    finished = 0
    while finished < 12:
        players = [(st.current_players() or (0,))[0] for st in games]
        out = np.zeros((len(games), enc.SIZE), np.float32)
        HILLS.write_observations(out, games, players)
        assert len(batch._ROWS) <= 3 * len(games) + batch._SPARE
        assert len(batch._BOARDS) <= 2 * len(games) + batch._SPARE
        for i, st in enumerate(games):
            if st.is_over:
                finished += 1
                games[i] = HILLS.new(seed=rnd.randrange(1 << 30), names=["a", "b"])
            else:
                p = st.current_players()[0]
                st.apply_id(rnd.choice(st.legal_ids(p)), p)
    batch._prune(games)
    assert {key >> 1 for key in batch._ROWS} <= {id(st) for st in games}
    assert set(batch._BOARDS) <= {id(st.tiles) for st in games}
    _rows_are_the_arrays(games, [(st.current_players() or (0,))[0] for st in games])


def test_a_batch_of_one_games_clones_at_different_points_is_written_right():
    """Clones share their game's tiles (the writer's board is remembered per game): a batch
    holding the same game at several points, in any order and for both seats, still
    writes each its own tiles turned and stars used."""
    rnd = random.Random(3)
    st = HILLS.new(seed=11, names=["a", "b"])
    history = []
    while not st.is_over:
        history.append(st.clone())
        p = st.current_players()[0]
        st.apply_id(rnd.choice(st.legal_ids(p)), p)
    history.append(st)
    assert sum(history[-1].rev) > sum(history[0].rev)  # tiles were turned on the way
    for _ in range(40):
        batch = rnd.sample(history, 12)
        _rows_are_the_arrays(batch, [rnd.randrange(2) for _ in batch])


def test_a_scenario_position_and_a_determinized_state_are_written_right():
    """`arrange` (tiles turned, squads placed, hands dealt: a new deck mix) and `determinize`
    (new tiles, deck and hands) give states the writer has not met: written from scratch."""
    from hills_helpers import position

    st = position(squads={"0I": (0, 0, 4, True), "1M": (1, 0, 3), "0R": None},
                  to_move=1, hands=((0, 1, 1, 1), (1, 0, 2, 0)), seize=(1, 0),
                  reveal=((0, 1), (-1, 1)))
    _rows_are_the_arrays([st, st, st.clone()], [0, 1, 1])
    game = HILLS.new(seed=5, names=["a", "b"])
    rnd = random.Random(5)
    for _ in range(60):
        p = game.current_players()[0]
        game.apply_id(rnd.choice(game.legal_ids(p)), p)
    _rows_are_the_arrays([game, game.determinize(0, 1), game.determinize(None, 2)], [0, 0, 1])


def test_a_row_shows_only_what_its_observer_may_know():
    """Secrecy: states that differ only in what player 0 cannot see (the face-down tiles
    and stars, the deck, the other hand: `determinize(0)` resamples exactly those) give
    player 0 the same row, in the same batch as the real state."""
    rnd = random.Random(9)
    game = HILLS.new(seed=21, names=["a", "b"])
    checked = 0
    while not game.is_over and checked < 30:
        if game.current_players() == (0,):
            samples = [game.determinize(0, seed) for seed in range(3)]
            assert any(s.tiles != game.tiles or s.hand != game.hand for s in samples)
            out = np.zeros((4, enc.SIZE), np.float32)
            HILLS.write_observations(out, [game, *samples], [0, 0, 0, 0])
            for row in out[1:]:
                assert row.tobytes() == out[0].tobytes()
            checked += 1
        p = game.current_players()[0]
        game.apply_id(rnd.choice(game.legal_ids(p)), p)
    assert checked >= 10


def test_the_vector_of_hills_games_hands_out_the_single_envs_rows_with_autoreset():
    """Through the vector API at the default options: 16 games for 400 steps, some ended by
    their play and one by an illegal id (autoreset at the next step); every row is bit for
    bit the single env's observation and every mask the legal ids."""
    from boardct.adapters.buffers import observed
    from boardct.adapters.vector import vector_env

    v = vector_env("hills", 16, copy=False)
    obs, infos = v.reset(seed=70)
    rng = np.random.default_rng(4)
    ended = illegal = 0
    for k in range(400):
        for i, st in enumerate(v.states):
            p = int(infos["player"][i])
            want = observed(st, p, "observation", enc.SIZE)
            assert obs[i].view(np.int32).tolist() == want.view(np.int32).tolist()
            legal = st.legal_ids(p) if not st.is_over else []
            assert np.flatnonzero(infos["action_mask"][i]).tolist() == legal
        actions = np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0
                            for m in infos["action_mask"]])
        if k % 97 == 5:
            actions[k % 16] = 139 if infos["action_mask"][k % 16].any() else 0  # out of range
        obs, _r, terms, _t, infos = v.step(actions)
        ended += int(terms.sum())
        illegal += int(infos.get("illegal_action", np.zeros(16, bool)).sum())
    assert ended > illegal >= 3  # games ended by play, and by illegal ids


def test_legal_ids_are_the_legal_actions_ids_in_every_state_of_many_games():
    """`legal_ids` makes the ids directly: the same as each legal action's id, ascending, for
    the player to act, the other seat (none) and no seat given, to the games' ends."""
    rnd = random.Random(12)
    checked = 0
    for seed in range(30):
        st = HILLS.new(seed=seed, names=["a", "b"])
        while True:
            for p in (0, 1, None):
                assert st.legal_ids(p) == sorted(enc.ID_OF[a] for a in st.legal_actions(p))
                checked += 1
            if st.is_over:
                break
            p = st.current_players()[0]
            st.apply_id(rnd.choice(st.legal_ids(p)), p)
    assert checked > 30 * 100


def test_legal_ids_in_scenarios_with_every_kind_of_action():
    """Cards in hand (Artillery, Extra Ammo, Boost), an impeded squad, enemies next to a
    squad, a boosted squad's extra move: each kind of id is made, as the codes are."""
    from hills_helpers import play, position

    st = position(squads={"0I": (0, 0, 5), "0R": (1, -1, 4, True), "1I": (1, 0, 3),
                          "1R": (0, 1, 2)},
                  to_move=0, hands=((0, 1, 1, 1), (0, 0, 0, 0)))
    kinds = set()
    for _ in range(4):
        ids = st.legal_ids(0)
        assert ids == sorted(enc.ID_OF[a] for a in st.legal_actions(0))
        kinds |= {enc.CODES[i] // 1000 for i in ids}
        boost = [a for a in st.legal_actions(0) if a // 1000 == 6]
        if boost:
            play(st, st.notation(boost[0]))
    assert {0, 1, 2, 3, 4, 5, 6, 7} <= kinds
