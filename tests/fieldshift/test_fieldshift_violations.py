"""FS-18/FS-19 with FS-32 and FS-36: rule violations in `dispute` and `reject` modes."""

from fs_helpers import GAME, Pos, op, play, rejected


def test_fs18_reject_mode_refuses_skl_on_cooldown_with_the_reason():
    s = GAME.new(seed=0, violations="reject")
    err = rejected(s, "80")
    assert "cooldown" in str(err) and "FS-18" in str(err)


def test_fs18_reject_mode_refuses_rnf_and_deploy_below_zero_crates():
    p = Pos(violations="reject").crates(0, 0)
    assert "below 0" in str(rejected(p.s, "40"))
    assert "balance is 0" in str(rejected(p.s, "65"))


def test_fs36_reject_mode_names_both_reasons_of_a_double_violation():
    p = Pos(violations="reject").only(("+2", 3), ("-0", 9), ("-2", 9))
    p.s.skl[op("-2")] = 3
    err = str(rejected(p.s, "82"))
    assert "cooldown" in err and "Cyberwarfare" in err


def test_fs19_dispute_mode_carries_out_the_violation_and_the_opponent_wins_by_disputing():
    s = GAME.new(seed=0)
    events = play(s, "80")  # Longwatch skill on cooldown: carried out
    assert s.skl[0] == 1 and any(e[0] == "violation" for e in events)
    assert 1006 in s.legal_actions()  # 06 is offered to Player 2
    play(s, "06")
    assert s.outcome.describe() == "Player 2 wins (dispute)"


def test_fs19_false_dispute_ends_the_disputers_turn():
    s = GAME.new(seed=0)
    play(s, "20")
    play(s, "06")
    assert s.current_players() == (0,) and s.outcome is None and s.turn == 2


def test_fs19_the_chance_to_dispute_passes_when_the_violators_next_turn_starts():
    s = GAME.new(seed=0)
    play(s, "80", "29", "20")  # violation, Player 2 does not dispute, Player 1 plays on
    assert 1006 not in s.legal_actions()
    play(s, "06")  # now a false dispute: Player 2's turn ends
    assert s.outcome is None and s.current_players() == (0,)


def test_fs19_reject_mode_dispute_is_always_false():
    s = GAME.new(seed=0, violations="reject")
    play(s, "20", "06")
    assert s.outcome is None and s.current_players() == (0,)


def test_fs32_a_carried_out_violating_skl_starts_the_cooldown():
    s = GAME.new(seed=0)
    play(s, "80")
    assert s.skill_cooldown(0) == 5
    play(s, "29", "20", "29")
    assert s.skill_cooldown(0) == 4


def test_fs36_all_violations_of_a_turn_stay_disputable():
    p = Pos().crates(0, 0)
    s = p.s
    play(s, "84")  # Quick draw on cooldown: keeps the turn
    play(s, "40")  # reinforce below zero
    assert [who for who, _ in s.violations] == [0, 0]
    assert s.crates(0) == -1 and s.render().splitlines()[3] == "Crates: -1"
    events = play(s, "06")
    assert events[0][0] == "dispute" and len(events[0][3]) == 2


def test_fs18_deploy_under_cyberwarfare_in_dispute_mode_is_carried_out():
    p = Pos().only(("+0", 0), ("-0", 9), ("-2", 9))
    p.s.skl[op("-2")] = 2
    play(p.s, "65")
    assert p.s.loc[op("+5")] == 0 and p.s.violations
