"""FieldShift at the table (issue 17 item 2): the status line under the FS-23 screen and the
rule a command would break in dispute mode (FS-18/FS-19), both core API (`State.status_line`,
`State.breach`) so that every front end can show them."""

import pytest
from fs_helpers import GAME, Pos, op, play

from boardct.core.game import Breach, State
from boardct.core.registry import get


def status(s) -> list[str]:
    """The status line's parts."""
    return s.status_line().split(" | ")


# -- the status line: ruleset, turn of the limit -------------------------------------------------
def test_status_line_at_the_start_names_the_ruleset_and_turn_1_of_the_fs22_limit():
    assert GAME.new(seed=0).status_line() == "Ruleset: LSTD | Turn 1 of 300"


def test_status_line_counts_single_player_turns_as_fs39_does():
    s = GAME.new(seed=0)
    play(s, "24", "29")
    assert status(s)[1] == "Turn 3 of 300"
    play(s, "13")  # SWC keeps the turn (FS-7): still turn 3
    assert status(s)[1] == "Turn 3 of 300"


def test_status_line_shows_the_turn_limit_option_and_no_limit():
    assert status(GAME.new(seed=0, turn_limit=40))[1] == "Turn 1 of 40"
    assert status(GAME.new(seed=0, turn_limit=0))[1] == "Turn 1 (no limit)"


@pytest.mark.parametrize("ruleset, name", [("stdex", "STDEX"), ("type-a", "STDEX Type-A")])
def test_status_line_names_the_ruleset_option(ruleset, name):
    assert status(GAME.new(seed=0, ruleset=ruleset))[0] == f"Ruleset: {name}"


def test_status_line_follows_an_accepted_ruleset_switch_fs20():
    s = GAME.new(seed=0)
    play(s, "05", "01")
    assert status(s)[0] == "Ruleset: STDEX"


# -- the status line: a pending request ----------------------------------------------------------
def test_status_line_shows_a_stdex_request_and_all_three_answers_fs37():
    s = GAME.new(seed=0)
    play(s, "05")
    assert status(s)[2] == ("Player 1 asks for STDEX: Player 2 answers 01 (accept), 00 (deny), "
                            "05 (accept, ask for Type-A)")


def test_status_line_shows_a_type_a_request_without_the_05_answer_fs37():
    s = GAME.new(seed=0)
    play(s, "05", "05")  # Player 2 accepts STDEX and asks for Type-A
    assert status(s)[:3] == ["Ruleset: STDEX", "Turn 1 of 300",
                             "Player 2 asks for STDEX Type-A: Player 1 answers 01 (accept), "
                             "00 (deny)"]


def test_status_line_shows_a_draw_offer_until_it_is_answered_fs20():
    s = GAME.new(seed=0)
    play(s, "24", "08")
    assert status(s)[2] == "Player 2 offers a draw: Player 1 answers 01 (agree) or 00"
    play(s, "00")
    assert s.status_line() == "Ruleset: LSTD | Turn 2 of 300"


def test_status_line_shows_a_disputable_violation_until_the_chance_passes_fs19():
    s = GAME.new(seed=0)
    play(s, "80")  # SKL on cooldown, carried out in dispute mode
    assert "Player 2 may dispute Player 1's rule violation with 06" in status(s)
    play(s, "29")  # Player 2 lets it pass; Player 1's next turn starts
    assert not any("dispute" in part for part in status(s))


def test_status_line_shows_a_readied_artillery_fs17():
    p = Pos().ready()
    play(p.s, "90")
    assert "Player 1's Artillery is ready" in status(p.s)


# -- the status line: Cyberwarfare on whom, by whom, for how long (FS-16, FS-29) ---------------
def test_status_line_counts_down_cyberwarfare_on_the_bound_players_turns():
    s = Pos().ready().s
    play(s, "82")  # Player 1's Technician +2: Player 2 is bound for their next 3 turns
    assert status(s)[-1] == "Cyberwarfare (+2) on Player 2: this turn and 2 more"
    play(s, "29")
    assert status(s)[-1] == "Cyberwarfare (+2) on Player 2: their next 2 turns"
    play(s, "24")
    assert status(s)[-1] == "Cyberwarfare (+2) on Player 2: this turn and 1 more"
    play(s, "28", "23")
    assert status(s)[-1] == "Cyberwarfare (+2) on Player 2: this turn"
    play(s, "27")
    assert not any("Cyberwarfare" in part for part in status(s))


def test_status_line_names_player_2s_technician_binding_player_1():
    p = Pos().ready().only(("+0", 0), ("-7", 9)).to_move(1)
    play(p.s, "87")
    assert status(p.s)[-1] == "Cyberwarfare (-7) on Player 1: this turn and 2 more"


def test_status_line_drops_cyberwarfare_when_the_technician_retreats_fs29():
    s = Pos().ready().s
    play(s, "82", "29", "62")  # +2 retreats to reserve: its effect ends
    assert not any("Cyberwarfare" in part for part in status(s))


def test_status_line_is_empty_once_the_game_is_over():
    s = GAME.new(seed=0)
    play(s, "09")
    assert s.status_line() == ""


def test_status_line_never_touches_the_fs23_screen():
    s = GAME.new(seed=0)
    play(s, "80")
    screen = s.render()
    assert s.status_line() and s.status_line() not in screen
    assert screen.endswith("Ruins Sector 9: -0 -1 -2 -3 -4\n\n")  # FS-40's two empty lines


# -- breach: what a command would break in dispute mode (FS-18/FS-19) --------------------------
def test_breach_of_skl_on_cooldown_names_fs16_and_the_games_answers():
    s = GAME.new(seed=0)
    breach = s.breach(s.parse("80"), 0)
    assert breach == Breach("FS-16", "the skill is on cooldown (5)",
                            "Player 2 may then dispute it with 06 on their turn and win (FS-19).",
                            confirm="01", deny="00")
    assert breach.question() == ("This breaks FS-16 (the skill is on cooldown (5)): carry it "
                                 "out? 01/00 ")


def test_breach_changes_nothing():
    s = GAME.new(seed=0)
    before, hist = s.snapshot(), s._hist
    assert s.breach(s.parse("80"), 0) is not None
    assert s.snapshot() == before and s._hist is hist


def test_breach_of_a_lawful_command_is_none():
    s = GAME.new(seed=0)
    assert s.breach(s.parse("24"), 0) is None


def test_breach_of_a_command_apply_refuses_is_none_fs8():
    s = GAME.new(seed=0)
    assert s.breach(s.parse("30"), 0) is None  # out of range: refused, never carried out


def test_breach_in_reject_mode_is_none_as_apply_refuses_it_fs19():
    s = GAME.new(seed=0, violations="reject")
    assert s.breach(s.parse("80"), 0) is None


def test_breach_of_the_wrong_players_command_is_none():
    s = GAME.new(seed=0)
    assert s.breach(s.parse("80"), 1) is None


def test_breach_of_rnf_below_zero_crates_names_fs18():
    p = Pos().crates(0, 0)
    breach = p.s.breach(p.s.parse("40"), 0)
    assert breach.rule == "FS-18" and "below 0" in breach.what


def test_breach_of_a_double_violation_names_both_reasons_once_fs36():
    p = Pos().only(("+2", 3), ("-0", 9), ("-2", 9))
    p.s.skl[op("-2")] = 3  # Player 1 is under Cyberwarfare, and the skill is on cooldown
    p.s._resync()
    breach = p.s.breach(p.s.parse("82"), 0)
    assert breach.rule == "FS-16"
    assert breach.what == "the skill is on cooldown (5); SKL under enemy Cyberwarfare"


def test_breach_of_an_aux_command_or_an_answer_is_none():
    s = GAME.new(seed=0)
    assert s.breach(s.parse("06"), 0) is None  # a false dispute is not a violation
    play(s, "05")
    assert s.breach(s.parse("01"), 1) is None


@pytest.mark.parametrize("ruleset", ["lstd", "stdex", "type-a"])
def test_breach_agrees_with_what_apply_records_for_every_token(ruleset):
    """Every command token, in a position with violations to make: breach names a rule exactly
    when apply carries the command out with a violation event."""
    p = Pos(ruleset=ruleset).crates(0, 0).only(("+2", 4), ("+3", 4), ("-0", 5), ("-2", 9))
    p.s.skl[op("-2")] = 2
    p.s._resync()
    s = p.s
    found = 0
    for action in range(1100):
        if (action < 1000) != bool(s.ruleset):  # two digits under LSTD, three otherwise
            continue
        breach = s.breach(action, 0)
        trial = s.clone()
        try:
            events = trial.apply(action, 0)
        except Exception:
            assert breach is None, s.notation(action)
            continue
        broke = any(ev[0] == "violation" for ev in events)
        assert (breach is not None) == broke, s.notation(action)
        found += broke
    assert found >= 5  # RNF without crates, SKL on cooldown, SPT and deploying under Cyberwarfare


# -- the core defaults: other games show nothing extra and never ask --------------------------
def test_core_defaults_are_no_status_line_and_no_breach():
    state = get("fff").new(seed=1)
    assert State.status_line(state) == ""
    assert State.breach(state, state.legal_actions()[0]) is None
