"""Notation, parse errors, the screen, the prompt, events in words and the view."""

from __future__ import annotations

import json

import pytest
from shift_helpers import at_turn, card, new, play

from boardct.core.errors import IllegalAction, ParseError
from boardct.games.shift.state import (
    ATTACK,
    FIRST,
    PASS,
    SECOND,
    ShiftState,
    guard_action,
)


@pytest.mark.parametrize("action, text", [
    (0, "shift 1"), (1, "shift 2L"), (2, "shift 3"), (3, "shift 2R"),
    (ATTACK, "attack alpha"), (ATTACK + 1, "attack beta"), (ATTACK + 2, "attack omega"),
    (FIRST, "first"), (SECOND, "second"), (PASS, "pass"),
    (guard_action(-1, 0), "guard none"),
    (guard_action(0, 0), "guard active 1"),
    (guard_action(-1, 0b1010), "guard spirit 2L 2R"),
    (guard_action(3, 0b0101), "guard active 2R spirit 1 3"),
])
def test_notation_and_parse_are_inverse(action, text):
    s = new()
    assert s.notation(action) == text
    assert s.parse(text) == action
    assert s.parse(text.upper()) == action


@pytest.mark.parametrize("text, action", [
    ("2l", 1), ("  shift   2r ", 3), ("alpha", ATTACK), ("stay", PASS), ("no", PASS),
    ("guard", guard_action(-1, 0)), ("noguard", guard_action(-1, 0)),
    ("guard spirit 3, 2L", guard_action(-1, 0b0110)),
    ("guard spirit 2R 1", guard_action(-1, 0b1001)),
])
def test_parse_accepts_short_forms(text, action):
    assert new().parse(text) == action


@pytest.mark.parametrize("text, message", [
    ("", "empty command; legal now: shift 2L, shift 2R, pass"),
    ("jump", "'jump' is not a Shift command; legal now: shift 2L, shift 2R, pass"),
    ("shift 5", "'shift 5': shift to which gear? write 'shift G' with G one of 1, 2L, 3, 2R"),
    ("shift", "'shift': shift to which gear? write 'shift G' with G one of 1, 2L, 3, 2R"),
    ("attack gamma", "'attack gamma': attack with which mod? write 'attack alpha', "
                     "'attack beta' or 'attack omega'"),
    ("guard active", "'guard active': active guard with which gear? write 'guard none', "
                     "'guard active G', 'guard spirit G [G...]' or 'guard active G spirit G "
                     "[G...]' with G one of 1, 2L, 3, 2R"),
    ("guard spirit 3 3", "'guard spirit 3 3': gear 3 named twice (SH-27)"),
    ("guard spirit 4", "'guard spirit 4': '4' is not a gear; write 'guard none', 'guard active "
                       "G', 'guard spirit G [G...]' or 'guard active G spirit G [G...]' with G "
                       "one of 1, 2L, 3, 2R"),
    ("spirit shift 2L", "'spirit shift 2L': a spirit shift is made in your start or end phase; "
                        "now it is the shift phase"),
    ("first please", "'first please' is not a Shift command; legal now: shift 2L, shift 2R, pass"),
])
def test_parse_errors_say_what_was_wrong(text, message):
    s = new()
    with pytest.raises(ParseError) as info:
        s.parse(text)
    assert str(info.value) == message


def test_spirit_shift_text_in_the_start_phase():
    s = at_turn(new(), 0)
    from boardct.games.shift.state import P_START

    s.phase = P_START
    assert s.parse("spirit shift 2L") == 1 == s.parse("spirit-shift 2l")


@pytest.mark.parametrize("action", ["shift 2L", None, 3.5, (1, 2), 999, -1, True, 10])
def test_apply_rejects_non_actions_with_a_rule(action):
    s = new()
    with pytest.raises(IllegalAction) as info:
        s.apply(action)
    assert info.value.rule.startswith("SH-")


def test_apply_names_the_player_whose_decision_it_is():
    s = new(first=0)
    with pytest.raises(IllegalAction) as info:
        s.apply(PASS, player=1)
    assert str(info.value) == "it is Player 1's decision, not Player 2's [SH-8]"
    assert s.legal_actions(1) == []


def test_illegal_guard_outside_a_defence():
    s = new()
    with pytest.raises(IllegalAction) as info:
        s.apply(s.parse("guard none"))
    assert str(info.value) == ("'guard none': guarding is declared only when defending, not in "
                               "the shift phase [SH-8]")


def test_first_or_second_after_the_toss():
    s = new()
    with pytest.raises(IllegalAction) as info:
        s.apply(s.parse("first"))
    assert info.value.rule == "SH-6"


def test_screen_of_a_fixed_position(tmp_path):
    mod = ('{ type = "alpha", activation = "HT", critical = "duo", effects = [ { op = "power", '
           'n = 1 } ] }')
    s = new(card(tmp_path, name="Left", m1=mod), card(tmp_path, name="Right"), first=1,
            names=("Ann", "Bob"))
    at_turn(s, 0)
    s.lit[0], s.burnt[0] = 1, 1
    s.tg[1] = 2
    s.gear[1] = 1
    s.skip_shift[1] = True
    s.forced = ()
    s.flips = None
    s.preload_flips("HT")
    play(s, "attack alpha")
    assert s.render() == "\n".join([
        "Shift: turn 2 of 200 (Player 2 went first)",
        "Player 1 (Ann) [Left]",
        "  Ability: ",
        "  > gear 1  (level 1)  power 2  guard 2",
        "        alpha HT [crit duo]: power +1",
        "    gear 2L (level 2)  power 3  guard 2",
        "        alpha H: no effect",
        "    gear 3  (level 3)  power 4  guard 3",
        "        alpha H: no effect",
        "    gear 2R (level 2)  power 3  guard 4",
        "        alpha H: no effect",
        "    now: power 2, guard 2",
        "    tokens: stack ooo  lit L  burnt x   (damage 2/5, spirit 1)",
        "Player 2 (Bob) [Right] (to decide)",
        "  Ability: ",
        "    gear 1  (level 1)  power 2  guard 2",
        "        alpha H: no effect",
        "  > gear 2L (level 2)  power 3  guard 2",
        "        alpha H: no effect",
        "    gear 3  (level 3)  power 4  guard 3",
        "        alpha H: no effect",
        "    gear 2R (level 2)  power 3  guard 4",
        "        alpha H: no effect",
        "    now: power 3, guard 4 (temporary guard +2)",
        "    tokens: stack ooooo  lit -  burnt -   (damage 0/5, spirit 0)"
        "  [skips next shift phase]",
        "Player 2 [Right], defend against Player 1's alpha (HT); their power 2 before the mod, "
        "your guard 4 before guarding: declare your guarding  Options: guard none, "
        "guard active 1",
    ])
    assert s.prompt() == "Player 2 [Right] (defend): "


def test_screen_shows_coins_and_result(tmp_path):
    s = at_turn(new(card(tmp_path, name="Big", p1=9), card(tmp_path, name="Small")), 0)
    s.burnt[1] = 5
    s.preload_flips("T")
    play(s, "attack alpha")
    screen = s.render()
    assert "Last coins: toss:" in screen and screen.endswith(
        "P1:T\nResult: Player 1 wins (damage)")
    assert s.prompt() == ""
    assert str(s.render_rich()) == screen


@pytest.mark.parametrize("phase, prompt", [
    ("start", "Player 1 [Ember Duelist] (start phase, spirit shift or pass): "),
    ("shift", "Player 1 [Ember Duelist] (shift phase): "),
    ("crit", "Player 1 [Ember Duelist] (critical shift or stay): "),
    ("end", "Player 1 [Ember Duelist] (end phase, spirit shift or pass): "),
])
def test_prompt_says_whose_decision_and_what(phase, prompt):
    from boardct.games.shift import state as st

    s = at_turn(new(), 0)
    s.phase = st.PHASE_NAMES.index(phase)
    assert s.prompt() == prompt


def test_toss_screen_and_prompt():
    from boardct.core import registry

    s = registry.get("shift").new(seed=3)
    assert isinstance(s, ShiftState)
    who = s.toss_winner + 1
    assert s.prompt() == f"Player {who} [{s.cards[s.toss_winner].name}] (first or second): "
    assert s.render().endswith("won the toss: go first or second?  Options: first, second")


def test_events_read_as_sentences(tmp_path):
    s = at_turn(new(card(tmp_path, name="A", p1=4), card(tmp_path, name="B")), 0)
    s.preload_flips("H")
    lines = play(s, "attack alpha")
    assert lines == [
        "Player 1 attacks with alpha H: no effect",
        "Player 2 does not guard",
        "Player 1 flips: heads (activation 1/1)",
        "Player 1's mod activates",
        "Power 4 against guard 2: hit",
        "Player 2 takes 1 damage (attack); damage zone 1/5",
        "Turn 3: Player 2 to play",
    ]


def test_view_is_json_and_public():
    s = at_turn(new(), 0)
    v = s.view(0)
    assert v["board"] == s.view(1)["board"] == s.view(None)["board"]  # all of it public
    assert {k: x for k, x in v.items() if k != "viewer"} == \
        {k: x for k, x in s.view(None).items() if k != "viewer"}
    json.dumps(v)
    assert v["board"]["phase"] == "shift" and v["to_move"] == [0]
    assert v["board"]["players"][1]["card"] == "Tide Warden"
    assert v["board"]["legal"] == ["attack alpha", "shift 2L", "shift 2R"]  # beta costs 1 spirit
