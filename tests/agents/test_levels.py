"""The strength ladder (`level=1..5`, agents/levels.py) and hints that say how sure they are,
in every game, the sixth test game included: the specs parse wherever agents are named, every
level plays legal games, a seed and an iteration budget fix the move, and a hint's values are
probabilities, its best three legal and in the search's order."""

from __future__ import annotations

import pytest

from boardct.agents import LevelAgent, make
from boardct.agents.levels import LADDERS, LEVELS, kind_of, ladder, scaled
from boardct.arena.runner import GameSpec, play_game
from boardct.cli.launch import computer_seats
from boardct.core import registry, table
from boardct.core.errors import BoardctError, OptionError
from boardct.core.rng import Rng
from boardct.server.agents import check_spec

GAMES = [g.id for g in registry.all_games()]
# A search budget small enough for whole games in the suite: FFF's nodes hold ~800 turns.
ITERS = {"fff": 12}


def iters(game_id: str) -> int:
    return ITERS.get(game_id, 40)


def walk(state, steps: int, seed: int = 0):
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        for p in state.current_players():
            if not state.is_over and p in state.current_players():
                state.apply(rng.choice(state.legal_actions(p)), p)
    return state


# -- specs ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", range(1, LEVELS + 1))
def test_the_short_and_the_long_level_spec_are_one_agent(n):
    short, long = make(f"level={n}"), make(f"level:n={n}")
    assert isinstance(short, LevelAgent) and isinstance(long, LevelAgent)
    assert (short.n, short.scale) == (long.n, long.scale) == (n, 1.0)
    scaled_agent = make(f"level={n},scale=0.5")
    assert (scaled_agent.n, scaled_agent.scale) == (n, 0.5)


@pytest.mark.parametrize("spec", ["level=0", "level=6", "level=2.5", "level=x", "level:n=-1",
                                  "level=3,scale=0", "level=3,scale=-1", "level:n=2,depth=3",
                                  "level=3,n"])
def test_a_bad_level_is_a_clear_error(spec):
    with pytest.raises(BoardctError) as err:
        make(spec)
    assert "level" in str(err.value)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_has_five_levels_of_agents_that_build(game_id):
    game = registry.get(game_id)
    specs = ladder(game)
    assert len(specs) == LEVELS
    if not game.agent_levels:  # a game without a ladder of its own plays its kind's
        assert specs == LADDERS[kind_of(game)]
    for n, spec in enumerate(specs, start=1):
        assert make(f"level={n}").spec_for(game) == spec
        make(spec)  # each level's agent is one boardct builds


def test_the_top_level_is_a_search_of_about_a_cpu_second():
    for row in LADDERS.values():
        assert row[0] == "random" and "cpu=1" in row[-1].split(":", 1)[1].split(",")
    assert make("level=5").budget == 1.0


@pytest.mark.parametrize("n", range(1, LEVELS + 1))
def test_a_levels_bound_covers_every_games_own_row(n):
    """The server refuses an agent seat by the level's `budget` and `iters`: they are the most
    any installed game's level n thinks, a game's own row (Hills') included."""
    agent = make(f"level={n}")
    for game in registry.all_games():
        spec = make(agent.spec_for(game))
        assert float(getattr(spec, "budget", 0) or 0) <= agent.budget
        if float(getattr(spec, "budget", 0) or 0) == 0 and hasattr(spec, "iters"):
            assert spec.iters <= agent.iters


def test_the_upper_levels_are_the_strongest_search():
    """Levels 4 and 5 name `search` in every game, so an improvement to it carries over."""
    for game in registry.all_games():
        specs = ladder(game)
        assert specs[-2].startswith("search:") and specs[-1].startswith("search:")


def test_scale_multiplies_the_budgets_only():
    assert scaled("mcts:cpu=1,c=0.5", 0.1) == "mcts:cpu=0.1,c=0.5"
    assert scaled("mcts:iters=1000", 0.01) == "mcts:iters=10"
    assert scaled("mcts:iters=10", 0.001) == "mcts:iters=1"  # never none
    assert scaled("greedy:eps=0.5", 0.1) == "greedy:eps=0.5"
    assert scaled("random", 0.1) == "random"


def test_the_terminal_and_the_server_take_level_specs():
    assert computer_seats("2:level=3", 2, "T") == {1: "level=3"}
    assert computer_seats("level:n=1", 2, "T") == {1: "level:n=1"}
    with pytest.raises(BoardctError):
        computer_seats("2:level=9", 2, "T")
    assert check_spec("level=5") is None and check_spec("level:n=2") is None
    # a seat's thinking is bounded on the server: a level scaled past it is refused
    assert "at most" in (check_spec("level=5,scale=100") or "")
    assert isinstance(OptionError("x"), BoardctError)


def test_greedy_with_eps_plays_some_random_moves_and_eps_0_is_greedy():
    state = registry.get("fieldshift").new(seed=3, names=("A", "B"))
    p = state.current_players()[0]
    plain = [make("greedy", seed=s).select(state.clone(), p) for s in range(12)]
    assert plain == [make("greedy:eps=0", seed=s).select(state.clone(), p) for s in range(12)]
    noisy = {make("greedy:eps=1", seed=s).select(state.clone(), p) for s in range(40)}
    assert len(noisy) > len(set(plain))
    with pytest.raises(BoardctError):
        make("greedy:eps=2")


@pytest.mark.parametrize("game_id", ["shift", "ctf2187", "fieldshift"])
def test_search_with_eps_plays_a_share_at_random_and_eps_0_is_the_search(game_id):
    """`search:eps=E` (CTF 2187's level 4) plays a share E of its decisions at random, without
    searching them, and the others as the search does: its coins are a stream of their own,
    so with `eps=0` every move from a seed is the plain search's."""
    state = walk(registry.get(game_id).new(seed=4, names=("A", "B")), 3, seed=4)
    p = state.current_players()[0]
    spec = "search:iters=20"
    plain = [make(spec, seed=s).select(state.clone(), p) for s in range(6)]
    assert plain == [make(spec + ",eps=0", seed=s).select(state.clone(), p) for s in range(6)]
    legal = state.legal_actions(p)
    noisy = []
    for s in range(30):
        agent = make(spec + ",eps=1", seed=s)
        noisy.append(agent.select(state.clone(), p))
        assert agent.last_iterations == 0  # not searched
    assert set(noisy) <= set(legal) and len(set(noisy)) > len(set(plain))
    half = make(spec + ",eps=0.5", seed=9)
    searched = []
    for _ in range(40):
        half.select(state.clone(), p)
        searched.append(half.last_iterations > 0)
    assert 8 <= sum(searched) <= 32  # about half of them searched
    one, two = make(spec + ",eps=0.5", seed=9), make(spec + ",eps=0.5", seed=9)
    assert [one.select(state.clone(), p) for _ in range(6)] == \
        [two.select(state.clone(), p) for _ in range(6)]  # a seed fixes the moves
    for bad in ("search:eps=1.5", "search:eps=-0.1"):
        with pytest.raises(BoardctError):
            make(bad)


# -- play ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("n", range(1, LEVELS + 1))
def test_every_level_plays_a_legal_game(game_id, n):
    """A whole game of the level against level 3 at the game's small options, the level's
    budgets cut to a hundredth (the top level: 0.01 CPU s a move); every action goes through
    `moves.act`, which refuses an illegal one."""
    game = registry.get(game_id)
    me = f"level:n={n},scale=0.01"
    res = play_game(GameSpec(0, game_id, dict(game.small_options), (me, "level:n=3"), 11 + n))
    assert res.length > 0 and res.ending
    assert len(res.returns) == 2 and all(0.0 <= r <= 1.0 for r in res.returns)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_fixed_seed_and_an_iteration_budget_give_the_same_move(game_id):
    state = walk(registry.get(game_id).new(seed=7, names=("A", "B")), 3)
    p = state.current_players()[0]
    spec = f"mcts:iters={iters(game_id)}"
    first = make(spec, seed=5).select(state.clone(), p)
    assert first in state.legal_actions(p)
    assert all(make(spec, seed=5).select(state.clone(), p) == first for _ in range(2))
    # the levels whose budget is not CPU time are a function of the seed too (a level of
    # `cpu=` seconds, Shift's and CTF 2187's level 3, searches as far as the machine's speed
    # lets it: the same seed and position may then end on another move, as in any engine)
    fixed = [n for n, lv in enumerate(ladder(registry.get(game_id)), 1) if "cpu=" not in lv]
    assert fixed[:2] == [1, 2]
    for n in fixed:
        one = make(f"level={n}", seed=9).select(state.clone(), p)
        assert make(f"level={n}", seed=9).select(state.clone(), p) == one


# -- hints -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_a_hints_values_are_probabilities_and_its_best_three_legal_and_in_order(game_id):
    state = walk(registry.get(game_id).new(seed=5, names=("A", "B")), 2)
    p = state.current_players()[0]
    spec = f"mcts:iters={iters(game_id) * 3}"
    agent = make(spec, seed=3)
    got = table.hint(state, agent, p, seed=3, label=spec)
    legal = state.legal_actions(p)
    assert got.value is not None and 0.0 <= got.value <= 1.0
    assert 1 <= len(got.best) <= table.HINT_MOVES
    assert got.best[0][0] == got.action  # the suggestion is the first of the best
    for action, text, value in got.best:
        assert action in legal and text == state.notation(action)
        assert 0.0 <= value <= 1.0
    ranked = agent.ranked(10)
    visits = [n for _a, _v, n in ranked]
    assert visits == sorted(visits, reverse=True)  # the order the search chooses by
    assert [a for a, _v, _n in ranked[:len(got.best)]] == [a for a, _t, _v in got.best]
    assert all(0.0 <= v <= 1.0 for _a, v, _n in ranked)
    lines = got.lines()
    if len(got.best) > 1:
        assert any(ln.startswith("  best moves: ") for ln in lines)


def test_a_move_that_wins_at_once_is_hinted_as_a_near_certain_win():
    """The win chance means what it says: where the search sees a win, it is near 1, and where
    the player's every move loses, near 0 (FieldShift, from a random game's last moves)."""
    game = registry.get("fieldshift")
    rng = Rng(1)
    for seed in range(40):
        state = game.new(seed=seed, names=("A", "B"))
        trail = []
        while not state.is_over:
            trail.append(state.clone())
            p = state.current_players()[0]
            state.apply(rng.choice(state.legal_actions(p)), p)
        winner = state.outcome.winners
        if len(winner) != 1:
            continue
        last = trail[-1]
        mover = last.current_players()[0]
        if mover != winner[0]:
            continue
        got = table.hint(last, make("mcts:iters=200", seed=1), mover, seed=1)
        assert got.value is not None and got.value > 0.9
        return
    pytest.skip("no random game ended on the winner's own move")


def test_the_level_agent_reports_its_search_for_hints():
    state = registry.get("fieldshift").new(seed=2, names=("A", "B"))
    p = state.current_players()[0]
    top = make("level=5,scale=0.02", seed=4)
    got = table.hint(state, top, p, seed=4, label="level=5")
    assert got.value is not None and len(got.best) == table.HINT_MOVES
    low = make("level=2", seed=4)  # greedy does not search: just the move
    got = table.hint(state, low, p, seed=4, label="level=2")
    assert got.value is None and got.best == [] and got.action in state.legal_actions(p)
