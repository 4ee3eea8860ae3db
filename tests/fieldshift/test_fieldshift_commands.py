"""FS-5..FS-8, FS-25..FS-27: the command language, which commands end the turn, rejections."""

import pytest
from fs_helpers import GAME, Pos, op, play, rejected, tokens

from boardct.core.errors import IllegalAction, ParseError


@pytest.mark.parametrize("text", ["3", "355", "3a", "a3", "", "   ", "3 5", "-3", "٣٥", "3.5"])
def test_fs5_lstd_malformed_tokens_are_rejected_and_change_nothing(text):
    s = GAME.new(seed=0)
    before = s.snapshot()
    with pytest.raises(ParseError):
        s.parse(text)
    assert s.snapshot() == before


def test_fs5_message_names_the_bad_character():
    s = GAME.new(seed=0)
    with pytest.raises(ParseError, match="character 2 is 'x'"):
        s.parse("3x")


def test_fs25_surrounding_whitespace_is_ignored():
    s = GAME.new(seed=0)
    assert s.notation(s.parse("  24 \t")) == "24"


@pytest.mark.parametrize("text", ["24", "2405", "2"])
def test_fs5_stdex_needs_three_digits_except_aux(text):
    s = GAME.new(seed=0, ruleset="stdex")
    with pytest.raises(ParseError, match="three digits"):
        s.parse(text)


def test_fs5_stdex_accepts_two_digit_aux():
    s = GAME.new(seed=0, ruleset="stdex")
    play(s, "07")
    assert s.current_players() == (0,)


def test_fs5_integer_codes_of_the_wrong_length_are_refused_by_apply():
    s = GAME.new(seed=0, ruleset="stdex")
    with pytest.raises(IllegalAction, match="three digits"):
        s.apply(1024)  # the two-digit token "24"
    s = GAME.new(seed=0)
    with pytest.raises(IllegalAction, match="two digits"):
        s.apply(204)  # the three-digit token "204"
    with pytest.raises(IllegalAction):
        s.apply("24")


def test_fs6_swc_selects_and_keeps_the_turn():
    s = GAME.new(seed=0)
    play(s, "13")
    assert s.selected(0) == op("+3") and s.current_players() == (0,)
    assert s.prompt() == "Player 1 (+3): "
    play(s, "25")
    assert tokens(s, 5) == ["+3"]


def test_fs6_swc_to_a_reserve_operator_is_rejected():
    s = GAME.new(seed=0)
    err = rejected(s, "17")
    assert "+7" in str(err) and "reserve" in str(err)


def test_fs6_swc_to_a_bleeding_operator_is_rejected():
    p = Pos().only(("+0", 3), ("+1", 3), ("-0", 9))
    p.s.vit[1] = 0
    p.s.bleed[1] = 5
    assert "bleeding" in str(rejected(p.s, "11"))


def test_fs6_selection_moves_to_lowest_living_deployed_when_selected_retreats():
    s = GAME.new(seed=0)
    play(s, "13", "63")  # select +3, retreat it
    assert s.selected(0) == op("+0")


def test_fs6_selection_moves_when_selected_operator_is_shot_down():
    p = Pos().only(("+2", 6), ("+4", 0), ("-0", 9)).select("+2").to_move(1)
    p.s.vit[2] = 1
    play(p.s, "32")  # -0 in the ruins: range 5 - 2 = 3 reaches sector 6
    assert p.s.vit[2] == 0
    assert p.s.selected(0) == op("+4")
    assert p.s.prompt() == "Player 1 (+4): "


@pytest.mark.parametrize(
    "tokens_, ends",
    [
        (["11"], False),  # SWC
        (["20"], True),  # MOV
        (["40"], True),  # RNF
        (["61"], True),  # RGP retreat
        (["70"], True),  # OVW
        (["07"], False),  # AUX
        (["01"], False),  # answer with nothing pending
    ],
)
def test_fs7_which_commands_end_the_turn(tokens_, ends):
    s = GAME.new(seed=0)
    play(s, *tokens_)
    assert s.current_players() == ((1,) if ends else (0,))


def test_fs7_wdr_keeps_the_turn():
    p = Pos().crates(0, 0, (2, 0, 0))
    play(p.s, "50")
    assert p.s.current_players() == (0,) and p.s.crates(0) == 1 and p.s.facility(0, 0) == 1


def test_fs7_a_rejected_command_keeps_the_turn():
    s = GAME.new(seed=0)
    rejected(s, "55")  # no facility 5
    assert s.current_players() == (0,)


def test_fs8_target_out_of_range_is_rejected_with_the_numbers():
    s = GAME.new(seed=0)
    err = rejected(s, "30")
    assert "out of range" in str(err) and "distance 9" in str(err) and "FS-11" in str(err)


def test_fs8_facility_above_2_is_rejected():
    s = GAME.new(seed=0)
    assert "no facility 3" in str(rejected(s, "43"))
    assert "no facility 9" in str(rejected(s, "59"))


def test_fs8_withdraw_more_than_held_is_rejected():
    s = GAME.new(seed=0)
    assert "holds 0 crates" in str(rejected(s, "51"))


def test_fs8_targeting_a_reserve_or_dead_operator_is_rejected():
    p = Pos().only(("+0", 5), ("-0", 6), ("-1", 6))
    p.s.loc[op("-1")] = -2
    assert "reserve" in str(rejected(p.s, "32"))
    assert "dead" in str(rejected(p.s, "31"))


def test_fs8_swp_with_a_reserve_operator_is_rejected():
    s = GAME.new(seed=0, ruleset="stdex")
    assert "reserve" in str(rejected(s, "105"))


def test_fs27_swp_with_itself_is_rejected():
    s = GAME.new(seed=0, ruleset="stdex")
    assert "two different" in str(rejected(s, "111"))


def test_fs25_stdex_skl_naming_blade_or_medic_last_is_rejected():
    p = Pos(ruleset="stdex").ready()
    err = rejected(p.s, "801")
    assert "needs a target" in str(err)
    rejected(p.s, "803")


@pytest.mark.parametrize("token", ["404", "503", "400", "500"])
def test_fs25_zero_counts_and_bad_facilities_are_rejected(token):
    p = Pos(ruleset="stdex").crates(0, 3, (1, 1, 1))
    rejected(p.s, token)


def test_fs25_stdex_answers_may_have_three_digits_lstd_only_two():
    s = GAME.new(seed=0, ruleset="stdex")
    play(s, "05", "011")
    assert s.ruleset == 2
    s = GAME.new(seed=0)
    play(s, "05")
    with pytest.raises(ParseError):
        s.parse("011")


def test_fs13_stdex_counts_are_one_digit_so_legal_rnf_stops_at_nine():
    p = Pos(ruleset="stdex").crates(0, 11, (0, 12, 0))
    legal = {p.s.notation(a) for a in p.s.legal_actions()}
    assert {"490", "491", "492", "591"} <= legal
    assert not any(x.startswith("50") for x in legal)  # what 4(10)0 would have spilled into
    assert "590" not in legal  # the Artillery holds nothing


def test_legal_actions_offer_no_second_swc_in_a_row_but_apply_accepts_it():
    s = GAME.new(seed=0)
    play(s, "12")
    legal = {s.notation(a) for a in s.legal_actions()}
    assert not any(x.startswith("1") for x in legal) and "22" in legal
    play(s, "13")  # still a legal command when typed
    assert s.selected(0) == op("+3")
