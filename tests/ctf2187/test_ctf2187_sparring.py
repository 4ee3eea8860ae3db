"""CTF 2187's `sparring` agent (games/ctf2187/agents.py), levels 1 and 2 of its strength
ladder: it holds still and holds fire a share `hold` of its decisions, else hands in a
random sheet of the menu; every sheet is legal for a Bot its player owes, in a one-Bot game
and in a game of several Bots a player; it is found by name before any game is loaded."""

from __future__ import annotations

import subprocess
import sys

import pytest

from boardct.agents import make
from boardct.arena.runner import GameSpec, play_game
from boardct.core import registry
from boardct.core.errors import BoardctError
from boardct.games.ctf2187.agents import holds_still

GAME = registry.get("ctf2187")


def _turn(state, agents):
    """Every player hands in every sheet they owe, each chosen by its player's agent."""
    while not state.is_over and state.current_players():
        p = state.current_players()[0]
        action = agents[p].select(state, p)
        assert action in state.legal_actions(p)
        state.apply(action, p)
        yield p, action


def test_hold_1_holds_still_with_every_bot_and_fires_at_nothing():
    state = GAME.new(seed=5, names=("A", "B", "C", "D"), bots_per_team=2, turn_limit=2)
    agents = [make("sparring:hold=1", seed=p) for p in range(4)]
    played = list(_turn(state, agents))
    assert played and all(holds_still(a) for _p, a in played)
    bots = [a[1] for _p, a in played]
    assert len(set(bots)) > 1  # several Bots, each with its own sheet


def test_hold_0_is_a_random_sheet_of_the_menu_and_half_holds_about_half():
    state = GAME.new(seed=6, names=("A", "B"))
    p = state.current_players()[0]
    legal = state.legal_actions(p)
    never = [make("sparring:hold=0", seed=s).select(state, p) for s in range(60)]
    assert set(never) <= set(legal) and len(set(never)) > 5
    assert sum(holds_still(a) for a in never) < 15  # one sheet of the menu's ~16
    half = make("sparring:hold=0.5", seed=7)
    held = sum(holds_still(half.select(state, p)) for _ in range(200))
    assert 80 <= held <= 130


def test_a_seed_fixes_its_sheets():
    state = GAME.new(seed=8, names=("A", "B"))
    p = state.current_players()[0]
    one, two = make("sparring:hold=0.5", seed=3), make("sparring:hold=0.5", seed=3)
    assert [one.select(state, p) for _ in range(20)] == [two.select(state, p) for _ in range(20)]


@pytest.mark.parametrize("spec", ["sparring:hold=2", "sparring:hold=-1", "sparring:hold=x",
                                  "sparring:fire=1"])
def test_a_bad_sparring_spec_is_a_clear_error(spec):
    with pytest.raises(BoardctError) as err:
        make(spec)
    assert "sparring" in str(err.value)


def test_levels_1_and_2_play_whole_games_at_the_default_options():
    res = play_game(GameSpec(0, "ctf2187", {}, ("level=1", "level=2"), 21))
    assert res.length > 0 and res.ending and sorted(res.returns) in ([0.0, 1.0], [0.5, 0.5])


def test_the_agent_is_found_by_name_before_any_game_is_loaded():
    """`make("sparring")` in a fresh process: the registry of agents loads the installed
    games (whose packages may register agents of their own) when a name is not yet known."""
    code = ("from boardct.agents.base import make; "
            "print(type(make('sparring:hold=0.9')).__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "SparringAgent"
