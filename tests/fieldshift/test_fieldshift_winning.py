"""FS-21, FS-22, FS-38, FS-39: the win check and the turn limit."""

from fs_helpers import GAME, Pos, op, play


def test_fs21_a_player_with_no_living_deployed_operator_loses():
    p = Pos().only(("+2", 3), ("-3", 3))
    p.s.vit[op("-3")] = 3
    play(p.s, "33")
    assert p.s.outcome.describe() == "Player 1 wins (elimination)"
    assert p.s.returns() == (1.0, 0.0)


def test_fs21_all_operators_bleeding_out_is_a_loss():
    p = Pos().only(("+2", 3), ("-3", 3), ("-1", 9)).down("-1")
    p.s.vit[op("-3")] = 3
    play(p.s, "33")
    assert p.s.outcome.winners == (0,)


def test_fs21_retreating_everyone_loses():
    p = Pos().only(("+2", 3), ("-3", 3))
    play(p.s, "62")
    assert p.s.outcome.describe() == "Player 2 wins (elimination)"


def test_fs38_both_sides_empty_the_issuer_loses():
    p = Pos().only(("+0", 3), ("-0", 3)).ready()
    s = p.s
    for i in list(range(1, 10)) + list(range(11, 20)):
        s.loc[i] = -2
    s.loc[op("-0")] = 3
    s.vit[op("-0")] = 0
    s.bleed[op("-0")] = 1
    s.pv[12 + 0] = 0
    # Player 1's Command center swap takes +0 to reserve while -0 is bleeding: both empty.
    play(s, "92")
    assert s.outcome.describe() == "Player 2 wins (elimination)"


def test_fs38_end_of_turn_bookkeeping_still_runs_on_the_winning_command():
    p = Pos().only(("+2", 3), ("-3", 3))
    p.s.vit[op("-3")] = 3
    play(p.s, "33")
    assert p.s.turn == 1 and p.s.skill_cooldown(0) == 4


def test_fs22_fs39_turn_limit_draw_after_the_last_turn():
    s = GAME.new(seed=0, turn_limit=4)
    play(s, "23", "26", "21")
    assert s.outcome is None
    play(s, "29")
    assert s.outcome.describe() == "draw (turn limit)"


def test_fs39_a_winner_on_the_last_turn_beats_the_limit():
    p = Pos(turn_limit=1).only(("+2", 3), ("-3", 3))
    p.s.vit[op("-3")] = 3
    play(p.s, "33")
    assert p.s.outcome.describe() == "Player 1 wins (elimination)"


def test_fs39_false_disputes_count_as_turns():
    s = GAME.new(seed=0, turn_limit=2)
    play(s, "06", "06")
    assert s.outcome.describe() == "draw (turn limit)"


def test_fs22_default_limit_is_300():
    assert GAME.new(seed=0).limit == 300
