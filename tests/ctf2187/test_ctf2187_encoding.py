"""CTF 2187 for learners (issue 20): a fixed menu of order sheets per Bot numbers the actions;
the observation holds only what the player's own Bots see. Generic properties are in
tests/core/test_encoding.py."""

from __future__ import annotations

import pytest

from boardct.core import registry
from boardct.core.errors import IllegalAction
from boardct.games.ctf2187.sheet import MISSING, TURN
from boardct.games.ctf2187.state import EJECT_PLAN

GAME = registry.get("ctf2187")


def new(**options):
    return GAME.new(seed=4, names=("a", "b"), **options)


def test_the_menu_is_the_legal_actions():
    """Per owed Bot: default (standing orders, CTF-14), the 11 fixed plans and one plan per
    weapon; eject only for a Bot with four engines or fewer."""
    s = new()
    legal = s.legal_actions(0)
    assert legal[0] == (MISSING, 1)
    assert len(legal) == 1 + 11 + 4  # the Lancer has four weapons
    assert all(a[1] == 1 for a in legal)
    assert (TURN, 1, *EJECT_PLAN) not in legal
    assert s.game_info().num_distinct_actions == 2 * s.menu_size() == 2 * (13 + 4)
    assert s.legal_ids(1) == list(range(17, 17 + 16))


def test_the_menu_is_made_once_and_handed_out_as_a_fresh_list():
    """Each Bot's menu is kept once (its sheets then skip their own checks when handed in
    again): what `menu` returns is the caller's to change, and changing it changes nothing
    the next caller or an id sees."""
    s = new()
    menu = s.menu(1)
    assert s.id_action(3) is menu[3]  # the very sheet the menu lists
    menu[3] = None
    menu.clear()
    assert s.menu(1)[3] == s.id_action(3) == s.legal_actions(0)[3]
    assert len(s.menu(1)) == s.menu_size()
    s.apply_id(3, 0)
    s.apply_id(s.legal_ids(1)[0], 1)  # the turn is processed
    assert s.turn == 2 and s.id_action(3) is s.menu(1)[3]


def test_default_has_an_id_and_is_the_standing_orders():
    s = new()
    action = s.parse("default", 1)
    assert action == (MISSING, 2)
    assert s.action_id(action) == s.menu_size()
    assert s.id_action(s.menu_size()) == action


def test_eject_is_on_the_menu_once_engines_are_few():
    s = new()
    b = s.bots[0]
    assert (TURN, 1, *EJECT_PLAN) not in s.legal_actions(0)
    b.engines = [1, 1, 1, 1] + [0] * (len(b.engines) - 4)  # the rest shot away
    eject = (TURN, 1, *EJECT_PLAN)
    assert eject in s.legal_actions(0)
    assert s.id_action(s.menu_size() - 1) == eject


def test_a_sheet_off_the_menu_is_accepted_but_has_no_id():
    """CTF-37: any valid sheet may be handed in; only the menu's sheets are numbered."""
    s = new()
    text = "BOT 1 TURN 1; P1 1 - 2 - 1; P2 1 - 2 - 1; P3 1 - 2 - 1; P4 1 - 2 - 1; P5 1 - 2 - 1"
    sheet = s.parse(text, 0)
    with pytest.raises(IllegalAction, match="not on the menu"):
        s.action_id(sheet)
    s.apply(sheet, 0)  # still a good sheet


def test_ids_of_another_players_bot_are_refused():
    s = new()
    with pytest.raises(IllegalAction, match="commanded by Player 2"):
        s.id_action(s.menu_size(), 0)
    with pytest.raises(IllegalAction, match="commanded by Player 2"):
        s.action_id((MISSING, 2), 0)


def test_a_weapon_plan_for_a_missing_weapon_means_nothing():
    """Menus are as long as the best-armed design's; a Scout (3 weapons) has no 'weapon 4'."""
    s = GAME.new(seed=4, names=("a", "b"), designs="Scout,Lancer", bots_per_team=2)
    scout = next(b for b in s.bots if b.design.name == "Scout")
    base = (scout.num - 1) * s.menu_size()
    with pytest.raises(IllegalAction, match="has 3 weapons"):
        s.id_action(base + 12 + 3)
    assert s.id_action(base + 12 + 2)[0] == TURN


def test_the_other_sides_sheet_and_damage_are_not_observed():
    """Player 2 handing in a sheet, or damage to their Bot, is invisible to player 1."""
    s = new()
    before = s.observation_tensor(0), s.information_state_tensor(0)
    s.apply_id(s.legal_ids(1)[3], 1)
    assert (s.observation_tensor(0), s.information_state_tensor(0)) == before
    hurt = s.clone()
    hurt.bots[1].armour[0] -= 1
    assert hurt.observation_tensor(0) == s.observation_tensor(0)
    assert hurt.observation_tensor(1) != s.observation_tensor(1)


def test_own_sheet_shows_in_the_information_state_only():
    s = new()
    before = s.observation_tensor(0), s.information_state_tensor(0)
    s.apply_id(s.legal_ids(1)[0], 1)  # so that player 1's sheet does not end the turn
    s2 = s.clone()
    s2.apply_id(s2.legal_ids(0)[2], 0)  # ends the turn: the view changes a lot
    s3 = s.clone()
    assert s3.observation_tensor(0) == before[0]
    assert s3.information_state_tensor(0) == before[1]
    assert s2.information_state_tensor(0) != before[1]


def test_the_observation_follows_the_bots_sight():
    """Moving their own Bot changes what player 1 sees: its own plane and the sight planes."""
    s = new()
    before = s.observation_tensor(0)
    for p in (0, 1):
        s.apply(s.parse(f"BOT {p + 1} TURN 1; P1 1 - 0 - -; P2 1 - 0 - -; P3 0 - 0 - -; "
                        "P4 0 - 0 - -; P5 0 - 0 - -", p), p)
    assert s.observation_tensor(0) != before
