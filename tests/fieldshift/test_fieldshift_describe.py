"""The words of FieldShift's legal list (`State.describe_action`, what `moves` and the pages'
move list show beside each token), read from the token and the position without applying the
command: each is the log's own line for the event the command makes (FS-5 tokens, FS-6
selection, FS-11 damage, FS-16 skills, FS-17 support, FS-37 answers)."""

import random

import pytest
from fs_helpers import GAME, Pos, play

from boardct.core.table import legal_moves
from boardct.games.fieldshift.state import FieldShiftState


def words(s: FieldShiftState, token: str) -> str:
    s._resync()
    return s.describe_action(s.parse(token), s.current_players()[0])


# -- named scenarios, LSTD --------------------------------------------------------------------
def test_mov_names_the_selected_operator_and_both_sectors_fs6():
    s = GAME.new(seed=0)
    assert words(s, "24") == "+0 moves from sector 0 to sector 4"
    play(s, "13")
    assert words(s, "27") == "+3 moves from sector 0 to sector 7"


def test_swc_says_who_is_selected_fs6():
    assert words(GAME.new(seed=0), "12") == "+2 selected"


def test_hit_gives_the_fs11_damage_and_the_vitality_left():
    # Plain to Plain: 3 damage (FS-11); from a Mountain to Ruins: 3 + 1 - 1
    s = Pos().only(("+0", 3), ("-0", 3)).select("+0").s
    assert words(s, "30") == "+0 hits -0 for 3: vitality 2"
    s = Pos().only(("+0", 4), ("-0", 0)).select("+0").place("-0", 0, vit=2).s
    assert words(s, "30") == "+0 hits -0 for 3: vitality 0"


def test_an_armed_blade_assassinates_for_the_target_sectors_damage_fs31():
    pos = Pos().only(("+1", 3), ("-2", 4)).select("+1")
    pos.s.skl[1] = 1
    assert words(pos.s, "32") == "+1 assassinates -2 for 7: vitality 0"


def test_an_armed_extend_turns_the_hit_into_a_revive_fs30():
    pos = Pos().only(("+3", 2), ("+0", 2), ("-0", 9)).select("+0").down("+0")
    pos.s.skl[3] = 1
    assert words(pos.s, "30") == "+3 revives +0 to full vitality"


def test_reinforce_withdraw_retreat_deploy_and_overwatch():
    s = Pos().crates(0, 2, (0, 1, 0)).s
    assert words(s, "41") == "Player 1 allocates 1 crate to the Medbay"
    assert words(s, "51") == "Player 1 withdraws 1 crate from the Medbay"
    assert words(s, "62") == "+2 retreats to reserve (+1 crate)"
    assert words(s, "67") == "+7 deploys from reserve (-1 crate)"
    assert words(s, "73") == "+3 is on overwatch"


def test_skill_and_support_name_what_they_start_fs16_fs17():
    s = Pos().ready().s
    assert words(s, "80") == "+0 (Longwatch) activates One shot, one kill"
    assert words(s, "91") == "Player 1 heals with the Medbay"
    s = Pos().ready().gun(0).crates(0, 0, (2, 0, 0)).s
    assert words(s, "94") == "Player 1's Artillery shells sector 4 (3 damage)"


def test_answers_to_a_pending_request_say_what_they_do_fs37():
    s = GAME.new(seed=0)
    play(s, "08")  # Player 1 asks for a draw
    assert words(s, "01") == "Player 2 accepts the draw: the game ends drawn"
    assert words(s, "00") == "Player 2 denies the draw"
    s = GAME.new(seed=0)
    play(s, "05")  # LSTD -> STDEX
    assert words(s, "01") == "Player 2 accepts: the ruleset changes to STDEX"
    assert words(s, "05") == ("Player 2 accepts the change to STDEX and asks for "
                              "STDEX Type-A")


def test_a_dispute_says_whether_it_is_upheld_and_why_fs19():
    s = Pos().crates(0, 0).s
    play(s, "40")  # Player 1 reinforces with no crate: a violation (FS-18), the turn passes
    said = words(s, "06")
    assert said.startswith("Player 2 disputes: upheld (reinforcing 1 with 0 crates")
    assert said == s.describe(play(s.clone(), "06")[0])
    fresh = GAME.new(seed=0)
    assert words(fresh, "06") == ("Player 1 disputes, but there is no violation: the turn "
                                  "ends")


# -- STDEX: the operator in the middle digit (FS-5, FS-25) -------------------------------------
def test_stdex_three_digit_commands_name_their_operator():
    s = Pos(ruleset="stdex").ready().s
    assert words(s, "224") == "+2 moves from sector 0 to sector 4"
    assert words(s, "113") == "+1 and +3 swap sectors"
    assert words(s, "421") == "Player 1 allocates 2 crates to the Medbay"


def test_stdex_blade_skill_names_its_target_fs25():
    s = Pos(ruleset="stdex").only(("+1", 3), ("-2", 4)).ready().s
    assert words(s, "812") == "+1 (Blade) activates Assassinate on -2"


# -- every legal command of many positions: the log's line of the event it makes ------------
def _positions(ruleset: str, seed: int, n: int = 120):
    rng = random.Random(seed)
    s = GAME.new(seed=seed, ruleset=ruleset)
    for _ in range(n):
        if s.is_over:
            return
        yield s
        p = s.current_players()[0]
        s.apply(rng.choice(s.legal_actions(p)), p)


def _fires(e: tuple) -> bool:
    """An event a command sets off before its own (a Longwatch's or a watch's shot at the
    mover, FS-15, FS-16): the preview shows those, not the list's words."""
    return e[0] == "longwatch" or (e[0] == "damage" and e[1] in ("overwatch", "longwatch"))


@pytest.mark.parametrize("ruleset, seed", [("lstd", 1), ("lstd", 2), ("stdex", 3),
                                           ("type-a", 4)])
def test_the_words_are_the_line_of_the_event_the_command_makes(ruleset, seed):
    checked = 0
    for s in _positions(ruleset, seed):
        p = s.current_players()[0]
        for m in legal_moves(s, p):
            events = s.clone().apply(m.action, p)
            if any(_fires(e) for e in events):
                continue
            lines = [s.describe(e) for e in events]
            said = m.words
            assert any(said.startswith(ln) or ln.startswith(said) for ln in lines), \
                (m.text, said, lines)
            checked += 1
    assert checked > 500
