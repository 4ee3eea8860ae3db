"""FS-20 and FS-37: the AUX instruction and the request dialogues."""

import pytest
from fs_helpers import GAME, play, rejected

from boardct.core.game import RESUME, SUSPEND
from boardct.core.records import record_of


def test_fs20_deny_and_confirm_without_a_request_do_nothing():
    s = GAME.new(seed=0)
    before = s.snapshot()
    play(s, "00", "01", "04")
    assert s.snapshot() == before


def test_fs20_good_game_prints_good_game():
    s = GAME.new(seed=0)
    assert s.describe(play(s, "07")[0]) == "Good game"


def test_fs20_suspend_and_resume_are_events_for_the_front_end_and_not_recorded():
    s = GAME.new(seed=0)
    assert play(s, "02") == [(SUSPEND,)]
    assert play(s, "03") == [(RESUME,)]
    assert s.history() == []


def test_fs20_ruleset_request_accepted_switches_to_stdex_and_the_turn_goes_on():
    s = GAME.new(seed=0)
    play(s, "05")
    assert s.current_players() == (1,) and s.prompt() == "Player 2 response: "
    assert sorted(s.notation(a) for a in s.legal_actions()) == ["00", "01", "05"]
    play(s, "01")
    assert s.ruleset == 1 and s.current_players() == (0,) and s.prompt() == "Player 1: "
    play(s, "203")
    assert s.loc[0] == 3


def test_fs20_ruleset_request_denied_keeps_lstd():
    s = GAME.new(seed=0)
    play(s, "05", "00")
    assert s.ruleset == 0 and s.current_players() == (0,)


def test_fs20_counter_request_05_switches_to_stdex_and_asks_player_1_for_type_a():
    s = GAME.new(seed=0)
    play(s, "05", "05")
    assert s.ruleset == 1 and s.prompt() == "Player 1 response: "
    assert sorted(s.notation(a) for a in s.legal_actions()) == ["00", "01"]
    play(s, "001")
    assert s.ruleset == 2 and s.prompt() == "Player 1: "


def test_fs37_05_answers_only_a_stdex_request():
    s = GAME.new(seed=0, ruleset="stdex")
    play(s, "05")
    assert "01 (accept), 00 (deny)" in str(rejected(s, "05"))


def test_fs37_no_ruleset_after_type_a():
    s = GAME.new(seed=0, ruleset="type-a")
    assert "last ruleset" in str(rejected(s, "05"))


@pytest.mark.parametrize("token", ["20", "09", "06", "02", "08"])
def test_fs37_any_other_token_while_pending_is_rejected_and_the_request_stays(token):
    s = GAME.new(seed=0)
    play(s, "08")
    rejected(s, token)
    assert s.pending is not None


def test_fs20_draw_request_agreed_ends_the_game_drawn():
    s = GAME.new(seed=0)
    play(s, "08", "01")
    assert s.outcome.describe() == "draw (agreement)" and s.returns() == (0.5, 0.5)


def test_fs37_draw_denied_and_requests_may_be_repeated():
    s = GAME.new(seed=0)
    play(s, "08", "00", "08")
    assert s.pending == ("draw", 0, -1)


def test_fs20_concede_ends_the_game_as_a_loss():
    s = GAME.new(seed=0)
    play(s, "20", "09")
    assert s.outcome.describe() == "Player 1 wins (concession)"
    assert s.legal_actions() == [] and s.current_players() == ()
    with pytest.raises(Exception, match="over"):
        s.apply(s.parse("29"))


def test_fs20_requests_and_answers_are_part_of_the_record():
    s = GAME.new(seed=0)
    play(s, "05", "05", "01", "07")
    assert record_of(s).actions == ["05", "05", "01", "07"]
