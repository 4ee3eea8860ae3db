"""The search's own sheets in CTF 2187 (`CtfState.search_actions`, `search_plans`): every one is
lawful for its Bot whatever the design (CTF-37: the engine takes it), none repeats a sheet of
the numbered menu, they are offered only for the Bots the player owes, learners' action ids
and `legal_actions` stay the menu alone, and the search's choice is always a sheet the game
takes, from a seed the same one."""

from __future__ import annotations

import pytest

from boardct.agents import make
from boardct.core import registry
from boardct.core.errors import IllegalAction

GAME = registry.get("ctf2187")
DESIGNS = ("Scout", "Striker", "Warden", "Lancer", "Bastion", "Titan")


@pytest.mark.parametrize("design", DESIGNS)
def test_every_search_sheet_is_lawful_and_off_the_menu(design):
    state = GAME.new(seed=3, names=("A", "B"), designs=design)
    for p in (0, 1):
        menu = state.legal_actions(p)
        more = state.search_actions(p)
        assert more[:len(menu)] == menu  # the menu first, unchanged
        extra = more[len(menu):]
        nw = len(state._bots[menu[0][1] - 1].design.weapons)
        assert len(extra) == len(set(extra)) == 6 + nw
        assert not set(extra) & set(menu)
        for sheet in extra:
            trial = state.clone()
            trial.apply(sheet, p)  # CTF-37's check passes
            with pytest.raises(IllegalAction):
                state.action_id(sheet, p)  # not numbered for learners


def test_only_the_bots_the_player_owes_get_them():
    """A commander of two Bots (two players, two Bots a team): both Bots' sheets at first;
    once one Bot's sheet is in, only the other's."""
    state = GAME.new(seed=4, names=("A", "B"), bots_per_team=2)
    p = state.current_players()[0]
    owed = {s[1] for s in state.search_actions(p)}
    assert len(owed) == 2
    done = state.legal_actions(p)[0]
    state.apply(done, p)
    assert p in state.current_players()
    assert {s[1] for s in state.search_actions(p)} == owed - {done[1]}


def test_the_search_plays_sheets_the_game_takes_and_a_seed_fixes_them():
    state = GAME.new(seed=5, names=("A", "B"))
    chosen = []
    for _turn in range(3):
        for p in (0, 1):
            if state.is_over or p not in state.current_players():
                continue
            one = make("search:iters=60", seed=7).select(state, p)
            assert make("search:iters=60", seed=7).select(state, p) == one
            assert one in state.search_actions(p)
            state.apply(one, p)
            chosen.append(one)
    assert chosen
