"""Order sheets (CTF-37): the format, every error by line and field, canonical text."""

from __future__ import annotations

import pytest
from ctf2187_helpers import game

from boardct.core.errors import BoardctError, IllegalAction, ParseError
from boardct.games.ctf2187.report import moderator_view
from boardct.games.ctf2187.sheet import MISSING, STANDING, TURN, SheetError

GOOD = """# my orders
BOT 1 TURN 1
P1 6 - 2 - 0
p2 21 - 1 2 2      # sprint, then the PBC at Bot 2

P3 11 4 5 - 0
P4 19 - 0 - -
P5 12 2 6 - -
"""


def test_ctf37_good_sheet_parses_with_comments_blank_lines_and_case():
    st = game()
    action = st.parse(GOOD)
    assert action[:2] == (TURN, 1)
    assert action[2:7] == (6, 0, 2, 0, 0)
    assert action[7:12] == (21, 0, 1, 2, 2)
    assert action[12:17] == (11, 4, 5, 0, 0)
    assert action[17:22] == (19, 0, 0, 0, 0)
    assert action[22:27] == (12, 2, 6, 0, 0)


def test_ctf37_canonical_text_round_trips():
    st = game()
    action = st.parse(GOOD)
    text = st.notation(action)
    assert text == ("BOT 1 TURN 1; P1 6 - 2 - 0; P2 21 - 1 2 2; P3 11 4 5 - 0; "
                    "P4 19 - 0 - -; P5 12 2 6 - -")
    assert st.parse(text) == action


def test_ctf37_phases_in_any_order():
    st = game()
    text = "BOT 1 TURN 1\nP5 0 - 0 - -\nP4 0 - 0 - -\nP3 0 - 0 - -\nP2 0 - 0 - -\nP1 1 - 0 - -"
    assert st.parse(text)[2] == 1


def test_ctf37_standing_sheet():
    st = game()
    action = st.parse("BOT 2 STANDING\n" + "\n".join(f"P{i} 0 - 2 - 0" for i in range(1, 6)))
    assert action[:2] == (STANDING, 2)
    st.apply(action, 1)
    assert st.bots[1].standing == (0, 0, 2, 0, 0) * 5
    assert st.current_players() == (0, 1)  # standing orders do not answer the turn


def test_ctf37_missing_record_form():
    st = game()
    assert st.parse("BOT 2 TURN 1 MISSING") == (MISSING, 2)


def errors_of(text: str, st=None) -> list[tuple[int, str, str]]:
    st = st or game()
    with pytest.raises(SheetError) as info:
        st.parse(text)
    return info.value.errors


def test_ctf37_every_error_is_given_by_line_and_field():
    text = ("BOT 1 TURN 1\n"
            "P1 99 - 2 - 0\n"      # line 2: move order out of range
            "P2 13 4 2 - 0\n"      # line 3: option on an order that takes none
            "P3 0 - 1 1 2\n"       # line 4: attacking a friend (itself)
            "P4 0 - 2 - 7\n"       # line 5: no weapon 7
            "P5 x - 2 - 0\n")      # line 6: not a number
    errs = errors_of(text)
    assert [(ln, field) for ln, field, _ in errs] == [
        (2, "field 2 (move order)"), (3, "field 3 (move option)"),
        (4, "field 5 (attack option)"), (5, "field 6 (weapon)"), (6, "field 2 (move order)")]


def test_ctf37_missing_and_duplicate_phase_lines():
    errs = errors_of("BOT 1 TURN 1\nP1 0 - 0 - -\nP1 0 - 0 - -\nP2 0 - 0 - -")
    msgs = " | ".join(m for _, _, m in errs)
    assert "P1 was already given on line 2" in msgs
    assert "missing phase line(s) P3, P4, P5" in msgs


def test_ctf37_wrong_field_count():
    errs = errors_of("BOT 1 TURN 1\nP1 0 - 0\nP2 0 - 0 - -\nP3 0 - 0 - -\nP4 0 - 0 - -\n"
                     "P5 0 - 0 - -")
    assert errs[0][0] == 2 and "expected 6 fields" in errs[0][2]


def test_ctf37_bad_header():
    errs = errors_of("ROBOT 1\nP1 0 - 0 - -")
    assert errs[0][1] == "header"
    errs = errors_of("BOT 9 TURN 1\n" + "\n".join(f"P{i} 0 - 0 - -" for i in range(1, 6)))
    assert errs[0][1] == "field 2 (bot)"


def test_ctf37_sheet_for_another_turn_is_rejected():
    errs = errors_of("BOT 1 TURN 2\n" + "\n".join(f"P{i} 0 - 0 - -" for i in range(1, 6)))
    assert errs == [(1, "field 4 (turn)", "the sheet is for turn 2, the current turn is 1")]


def test_ctf37_weapon_needed_for_attacks_and_dash_elsewhere():
    errs = errors_of("BOT 1 TURN 1\nP1 0 - 2 - -\nP2 0 - 0 - 0\nP3 0 - 0 - -\n"
                     "P4 0 - 0 - -\nP5 0 - 0 - -")
    assert [(ln, f) for ln, f, _ in errs] == [(2, "field 6 (weapon)"), (3, "field 6 (weapon)")]


def test_ctf37_option_rules_for_orders_5_11_12_19():
    errs = errors_of("BOT 1 TURN 1\nP1 5 - 0 - -\nP2 11 9 0 - -\nP3 12 1 0 - -\n"
                     "P4 19 12 0 - -\nP5 1 - 0 - -")
    assert [ln for ln, _, _ in errs] == [2, 3, 4, 5]


def test_ctf37_error_message_names_line_and_field():
    with pytest.raises(ParseError) as info:
        game().parse("BOT 1 TURN 1\nP1 30 - 0 - -\nP2 0 - 0 - -\nP3 0 - 0 - -\n"
                     "P4 0 - 0 - -\nP5 0 - 0 - -")
    assert "line 2, field 2 (move order): 30 is not a move order (0-23)" in str(info.value)


def test_ctf37_sheet_for_someone_elses_bot_is_refused():
    st = game()
    action = st.parse("BOT 2 TURN 1; P1 0 - 0 - -; P2 0 - 0 - -; P3 0 - 0 - -; "
                      "P4 0 - 0 - -; P5 0 - 0 - -")
    with pytest.raises(IllegalAction) as info:
        st.apply(action, 0)
    assert info.value.rule == "CTF-1"


def test_ctf37_apply_checks_hand_made_actions():
    st = game()
    before = moderator_view(st)  # the whole picture (view(None) hides it mid-game)
    for bad in [(0, 1, 99) + (0,) * 24, (0, 1), (5, 1), "x", (0, 7) + (0,) * 25,
                (0, 1, 1, 3) + (0,) * 23]:
        with pytest.raises(BoardctError):
            st.apply(bad, 0)
    assert moderator_view(st) == before


def test_ctf37_default_keyword_uses_standing_orders():
    st = game()
    assert st.parse("default", 1) == (MISSING, 2)


def test_ctf37_later_valid_sheet_replaces_earlier():
    st = game(names=("a", "b", "c", "d"))
    st.apply(st.parse("BOT 1 TURN 1; P1 0 - 0 - -; P2 0 - 0 - -; P3 0 - 0 - -; "
                      "P4 0 - 0 - -; P5 0 - 0 - -"), 0)
    st.apply(st.parse("BOT 1 TURN 1; P1 1 - 0 - -; P2 0 - 0 - -; P3 0 - 0 - -; "
                      "P4 0 - 0 - -; P5 0 - 0 - -"), 0)
    assert st.bots[0].sheet[0] == 1
