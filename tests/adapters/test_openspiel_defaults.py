"""The OpenSpiel bridge at full size: OpenSpiel's random simulation test at every game's default
options (with serialisation wherever the game is serialisable), clones through the engine's
own clone, chance as explicit chance nodes where the game lists it, a chance stream per
initial state, zero-sum returns, OpenSpiel's minimax and exploitability, and state strings
that tell states apart. (test_openspiel.py runs the same API at the small options.)"""

from __future__ import annotations

import copy
import random

import pytest

np = pytest.importorskip("numpy", reason="the OpenSpiel bridge needs boardct[openspiel]")
pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel bridge needs boardct[openspiel]"
                              " (the open_spiel package)")

from adapter_toys import game_ids, small  # noqa: E402

from boardct.adapters import openspiel  # noqa: E402
from boardct.core import registry  # noqa: E402
from boardct.core.errors import BoardctError  # noqa: E402
from boardct.games.hills import encoding as hills_enc  # noqa: E402
from boardct.games.hills.board import LAND  # noqa: E402
from boardct.games.hills.game import parse_deck_mix  # noqa: E402

GT = pyspiel.GameType


@pytest.fixture(scope="module", autouse=True)
def _registered():
    openspiel.register()


def _load(game_id: str, **params):
    return pyspiel.load_game(f"boardct_{game_id}", params)


def _step_random(state, rng: random.Random) -> None:
    if state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    elif state.is_simultaneous_node():
        state.apply_actions([rng.choice(state.legal_actions(p))
                             for p in range(state.get_game().num_players())])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def _played(game, actions: int, seed: int = 1):
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(actions):
        if state.is_terminal():
            break
        _step_random(state, rng)
    return state


def _setup_done(state, pick=lambda outcomes: outcomes[0]):
    while state.is_chance_node():
        state.apply_action(pick(state.legal_actions()))
    return state


# -- OpenSpiel's own test, at the options people play -----------------------------------------
@pytest.mark.parametrize("game_id", game_ids())
def test_random_simulation_test_passes_at_the_default_options(game_id):
    """Whole games at each game's defaults (FFF's 200-turn rule, Hills' 150 turns, FieldShift
    past the ~325 actions where the old clone overflowed the stack), cloned at every step;
    serialised too unless the chance is sampled (OpenSpiel asks such a game for an RNG state
    a Python game cannot give)."""
    game = _load(game_id)
    serialise = game.get_type().chance_mode != GT.ChanceMode.SAMPLED_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=2, serialize=serialise, verbose=False)


# -- clones -----------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", ["fff", "fieldshift", "hills"])
def test_a_long_game_clones_through_the_engines_clone(game_id, monkeypatch):
    """Hundreds of actions in (the old deep copy recursed once per action), OpenSpiel's clone
    and `copy.deepcopy` each call the engine's `clone()` once, and the copies go their own way."""
    state = _played(_load(game_id), 400, seed=3)
    assert len(state.history()) >= 300
    cls = type(state.inner)
    calls = []
    real = cls.clone

    def counted(self):
        calls.append(1)
        return real(self)

    monkeypatch.setattr(cls, "clone", counted)
    dup = state.clone()
    assert len(calls) == 1
    deep = copy.deepcopy(state)
    assert len(calls) == 2
    assert str(dup) == str(state) == str(deep) and dup.history() == state.history()
    monkeypatch.undo()
    if not dup.is_terminal():
        before = str(state)
        _step_random(dup, random.Random(0))
        assert str(state) == before and str(dup) != before


# -- chance nodes -----------------------------------------------------------------------------
def test_shift_toss_is_a_chance_node_of_two_equal_outcomes():
    """SH-18: the toss is the first chance event, heads (outcome 1) for seat 0."""
    for outcome, winner in ((1, 0), (0, 1)):
        state = _load("shift").new_initial_state()
        assert state.is_chance_node()
        assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
        state.apply_action(outcome)
        assert state.inner.toss_winner == winner


def test_shift_coins_in_play_are_chance_nodes():
    """SH-4, SH-20: every coin of a game, not only the toss, is a node of two outcomes."""
    game = _load("shift")
    rng = random.Random(5)
    state = game.new_initial_state()
    coins = 0
    while not state.is_terminal():
        if state.is_chance_node():
            assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
            coins += 1
        _step_random(state, rng)
    flips, cell = 0, state.inner.flips  # the engine's own log of coins: (prev, ...)
    while cell is not None:
        cell, flips = cell[0], flips + 1
    assert coins > 1 and coins == flips


def test_hills_setup_is_listed_chance_draw_by_draw():
    """BSH-6 and BSH-3: the first-player coin, then the shuffles of the land tiles, of the
    land hexes for the stars and of the deck, one chance node per draw; the coin decides who
    moves first, and the chosen outcomes decide the hidden tiles."""
    game = _load("hills")
    deck = sum(parse_deck_mix(registry.get("hills").option("deck").default))
    for first in (0, 1):
        state = game.new_initial_state()
        assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
        state.apply_action(first)
        assert len(_setup_done(state).history()) == 1 + 2 * (len(LAND) - 1) + (deck - 1)
        assert state.current_player() == first
    low = _setup_done(game.new_initial_state())
    high = _setup_done(game.new_initial_state(), pick=lambda outcomes: outcomes[-1])
    assert low.inner.tiles != high.inner.tiles


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_chance_nodes_false_is_boardcts_game_of_the_seed(seed):
    """`chance_nodes=False`: the listed chance drawn inside the engine from its seed instead,
    so the bridged Shift is boardct's Shift of that seed (its toss, SH-18, and its coins)."""
    game = _load("shift", seed=seed, chance_nodes=False)
    assert game.get_type().chance_mode == GT.ChanceMode.SAMPLED_STOCHASTIC
    assert game.max_chance_outcomes() == 0
    state = game.new_initial_state()
    assert not state.is_chance_node()
    core = registry.get("shift").new(seed=seed)
    rng = random.Random(seed)
    for _ in range(60):
        if core.is_over:
            break
        action = rng.choice(core.legal_ids(core.to_move))
        core.apply_id(action, core.to_move)
        state.apply_action(action)
    assert state.inner.history() == core.history()
    assert state.inner.flips == core.flips


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_hills_setup_through_chance_nodes_is_the_engines_setup_of_those_outcomes(seed):
    """The bridge skips running the setup again between the steps of a shuffle; the layout it
    reaches is the one the engine sets up from the same outcomes in one run."""
    from boardct.core.game import Setup
    from boardct.core.rng import ChanceScript, ListedRng

    rng = random.Random(seed)
    state = _setup_done(_load("hills").new_initial_state(), pick=rng.choice)
    script = ChanceScript()
    script.set(tuple(state.history()))
    hills = registry.get("hills")
    direct = hills.initial_state(Setup(0, hills.resolve_options({}), ("", ""),
                                       source=ListedRng(script)))
    assert script.pos == len(state.history())  # every outcome used, no draw more
    mine = state.inner
    for part in ("tiles", "star", "deck", "hand", "cur"):
        assert getattr(mine, part) == getattr(direct, part), part


def test_chance_games_serialise_mid_game_and_come_back_the_same():
    for game_id in ("shift", "hills"):
        game = _load(game_id)
        state = _played(game, 120, seed=2)
        text = pyspiel.serialize_game_and_state(game, state)
        game2, back = pyspiel.deserialize_game_and_state(text)
        assert str(back) == str(state)
        assert back.history() == state.history()
        assert back.is_chance_node() == state.is_chance_node()
        if not state.is_chance_node() and not state.is_terminal():
            assert back.legal_actions() == state.legal_actions()
            p = state.current_player()
            assert back.observation_string(p) == state.observation_string(p)


# -- a chance stream per initial state --------------------------------------------------------
def _chance_games() -> list[str]:
    return [g for g in game_ids() if registry.get(g).has_chance]


def _episodes(game_id: str, sampler_seed: int, n: int = 3) -> list[tuple]:
    """`n` episodes of one environment, the players' choices the same in each (a random
    generator seeded alike); for each, the chance it met: the outcomes of its chance nodes,
    or for sampled chance the engine's seed and board."""
    from open_spiel.python import rl_environment

    game = pyspiel.load_game(f"boardct_{game_id}", {**small(game_id), "seed": 11})
    env = rl_environment.Environment(
        game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=sampler_seed))
    seen = []
    for _ in range(n):
        ts, pick = env.reset(), random.Random(0).choice
        for _ in range(60):
            if ts.last():
                break
            legal = ts.observations["legal_actions"]
            if env.is_turn_based:
                ts = env.step([pick(legal[ts.observations["current_player"]])])
            else:
                ts = env.step([pick(legal[p]) for p in range(env.num_players)])
        state = env.get_state
        if game.get_type().chance_mode == GT.ChanceMode.EXPLICIT_STOCHASTIC:
            seen.append(tuple(pa.action for pa in state.full_history()
                              if pa.player == pyspiel.PlayerId.CHANCE))
        else:  # sampled inside the engine, from the initial state's own seed
            seen.append((state.inner.setup.seed, state.inner.render(None)))
    return seen


@pytest.mark.parametrize("game_id", _chance_games())
def test_each_episode_meets_its_own_chance_and_the_seeds_replay_them(game_id):
    """Three episodes of one loaded game, with the same actions, meet different chance (chance
    nodes drawn by the environment's sampler; sampled chance from each initial state's own
    engine seed); the same seeds give the same three again."""
    first = _episodes(game_id, sampler_seed=7)
    assert len(set(first)) == 3
    assert _episodes(game_id, sampler_seed=7) == first


def test_initial_states_of_a_sampled_chance_game_take_the_seed_stream():
    """CTF 2187 (sampled chance): the first initial state is the game of `seed` itself, each
    later one another seed of its stream, so the same orders meet other dice; a new load
    replays the stream."""
    def three(seed):
        game = _load("ctf2187", seed=seed)
        out = []
        for _ in range(3):
            state, rng = game.new_initial_state(), random.Random(0)
            for _ in range(6):
                if not state.is_terminal():
                    state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(2)])
            out.append((state.inner.setup.seed, state.history(), state.inner.render(None)))
        return out

    a = three(5)
    assert a[0][0] == 5
    assert len({seed for seed, _, _ in a}) == 3
    assert len({board for _, _, board in a}) == 3
    assert three(5) == a


# -- returns ----------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", ["fieldshift", "shift", "hills"])
def test_two_player_games_are_zero_sum_with_the_constant_sum_form_on_request(game_id):
    zero = _load(game_id, **small(game_id))
    const = _load(game_id, **small(game_id), zero_sum=False)
    assert zero.get_type().utility == GT.Utility.ZERO_SUM
    assert (zero.min_utility(), zero.max_utility(), zero.utility_sum()) == (-1.0, 1.0, 0.0)
    assert const.get_type().utility == GT.Utility.CONSTANT_SUM
    assert (const.min_utility(), const.max_utility(), const.utility_sum()) == (0.0, 1.0, 1.0)
    for seed in range(3):
        a, b = _played(zero, 10_000, seed), _played(const, 10_000, seed)
        assert a.is_terminal() and b.history() == a.history()
        assert a.returns() == [2 * r - 1 for r in b.returns()]
        assert set(a.returns()) <= {-1.0, 0.0, 1.0} and sum(a.returns()) == 0.0


def test_four_seats_stay_general_sum():
    game = _load("ctf2187", players=4, turn_limit=2)
    assert game.get_type().utility == GT.Utility.GENERAL_SUM
    assert game.min_utility() == 0.0


# -- OpenSpiel's algorithms -------------------------------------------------------------------
def test_alpha_beta_search_solves_a_short_fieldshift():
    from open_spiel.python.algorithms import minimax

    game = _load("fieldshift", turn_limit=3)
    value, action = minimax.alpha_beta_search(game, maximum_depth=200)
    assert value in (-1.0, 0.0, 1.0)
    assert action in game.new_initial_state().legal_actions()


def test_exploitability_and_cfr_on_the_sixth_game_with_its_chance_listed():
    """Sealed Bids with three cards: imperfect information, its deck shuffle listed as chance
    nodes (SB-1). Uniform bidding is exploitable; CFR's average policy is much less so."""
    from open_spiel.python import policy
    from open_spiel.python.algorithms import cfr, exploitability

    game = _load("sealedbids", cards=3)
    assert game.get_type().chance_mode == GT.ChanceMode.EXPLICIT_STOCHASTIC
    turns = pyspiel.convert_to_turn_based(game)
    uniform = exploitability.exploitability(turns, policy.UniformRandomPolicy(turns))
    assert uniform > 0.1
    solver = cfr.CFRSolver(turns)
    for _ in range(15):
        solver.evaluate_and_update_policy()
    assert exploitability.exploitability(turns, solver.average_policy()) < uniform / 2


# -- information states and strings -----------------------------------------------------------
def test_hills_information_state_string_is_perfect_recall_and_its_tensor_not_offered():
    game = _load("hills")
    assert not game.get_type().provides_information_state_tensor
    state = _setup_done(game.new_initial_state())
    rng = random.Random(4)
    first = None
    for _ in range(hills_enc.HISTORY + 6):
        action = rng.choice(state.legal_actions())
        first = first or state.action_to_string(state.current_player(), action)
        state.apply_action(action)
    text = state.information_state_string(0)
    assert first in text.split("actions: ", 1)[1].split(";")[0]


def test_fff_mid_turn_states_read_differently():
    """Two FFF states one step apart inside one turn (the same player still to move) differ,
    and so do their strings."""
    game = _load("fff")
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(200):
        mover = state.current_player()
        outs = []
        for action in state.legal_actions()[:6]:
            child = state.clone()
            child.apply_action(action)
            if child.current_player() == mover:
                outs.append(child)
        if len(outs) >= 2:
            assert str(outs[0]) != str(outs[1])
            return
        state.apply_action(rng.choice(state.legal_actions()))
    pytest.fail("no mid-turn step found")


def _engine_of(game_id: str, history: list[tuple[int, int]]):
    """The engine's own game of these OpenSpiel steps ((player, action) pairs): its setup and
    moves run once, every draw taken in turn from the chance outcomes of the history."""
    from boardct.core.game import Setup
    from boardct.core.rng import ChanceScript, ListedRng

    script = ChanceScript()
    script.set(tuple(a for p, a in history if p == pyspiel.PlayerId.CHANCE))
    game = registry.get(game_id)
    engine = game.initial_state(Setup(0, game.resolve_options({}), ("", ""),
                                      source=ListedRng(script)))
    for p, a in history:
        if p >= 0:
            engine.apply_id(a, p)
    assert script.pos == len(script.outcomes)  # every outcome drawn, and no draw more
    return engine


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_shift_coins_of_either_face_give_the_engines_game_of_those_coins(seed):
    """SH-4, SH-20: a move that flips coins runs once with its coins to come as tails (outcome
    0), and again only when a coin comes up heads. Whatever the faces, the bridged game is the
    engine's game flipped those faces, in the main line and in clones taken at each coin that
    are given the other face (the first coin move of a loaded game is made in place: the state
    before it is rebuilt from its moves)."""
    game = _load("shift")
    rng = random.Random(seed)
    state = game.new_initial_state()
    others = 0
    while not state.is_terminal() and len(state.history()) < 400:
        if state.is_chance_node() and others < 12:
            pick = rng.choice(state.legal_actions())
            other = state.clone()
            other.apply_action(1 - pick)
            while other.is_chance_node():  # the rest of that move's coins, at random
                other.apply_action(rng.choice(other.legal_actions()))
            mine = _engine_of("shift", [(pa.player, pa.action) for pa in other.full_history()])
            assert other.inner.flips == mine.flips and other.inner.history() == mine.history()
            others += 1
            state.apply_action(pick)
        else:
            _step_random(state, rng)
        if not state.is_chance_node():
            mine = _engine_of("shift", [(pa.player, pa.action) for pa in state.full_history()])
            assert state.inner.flips == mine.flips
            assert state.inner.render(None) == mine.render(None)
    assert others == 12


def test_hills_moves_after_the_setup_are_the_engines():
    """Hills draws only in its setup (BSH-3, BSH-6): its moves through the bridge are the
    engine's moves of the game that setup made."""
    state = _played(_load("hills"), 600, seed=4)
    assert len(state.history()) > 300
    mine = _engine_of("hills", [(pa.player, pa.action) for pa in state.full_history()])
    assert state.inner.render(None) == mine.render(None)
    assert state.inner.history() == mine.history()


def test_fieldshift_ids_outside_legal_actions_are_refused():
    """FS-20, FS-37: the AUX commands a learner is not offered (00/01 answer a request, 02
    suspends, 09 concedes) are commands the engine takes at a table, but not OpenSpiel
    actions: applying one is refused with the legal ids named, whether or not
    `legal_actions()` was asked first, and changes nothing."""
    game = _load("fieldshift")
    state = game.new_initial_state()
    legal = state.legal_actions()
    before = str(state)
    for action in (0, 1, 2, 9):
        assert action not in legal
        for asked in (True, False):
            target = state if asked else pyspiel.deserialize_game_and_state(
                pyspiel.serialize_game_and_state(game, state))[1]
            with pytest.raises(BoardctError, match=f"action id {action} is not legal"):
                target.apply_action(action)
        assert str(state) == before and state.legal_actions() == legal
    state.apply_action(legal[0])  # a legal one still goes
    assert state.history() == [legal[0]]


@pytest.mark.parametrize("game_id", ["fieldshift", "shift"])
def test_an_illegal_action_is_refused_and_changes_nothing(game_id):
    """A clear error, and the state (and what it serialises to) stays as it was: an id past
    the game's, and for Shift one the toss winner may not choose (SH-6)."""
    game = _load(game_id)
    state = _setup_done(game.new_initial_state())
    before = str(state)
    bad = [game.num_distinct_actions()]
    if game_id == "shift":
        bad.append(next(a for a in range(game.num_distinct_actions())
                        if a not in state.legal_actions()))
    for action in bad:
        with pytest.raises(BoardctError) as refused:  # the engine's own error
            state.apply_action(action)
        assert str(refused.value)
        assert str(state) == before
    _, back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(back) == before
