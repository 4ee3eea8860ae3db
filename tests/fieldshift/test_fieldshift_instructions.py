"""FS-9..FS-15 with FS-27/FS-28: MOV, SWP, HIT (range and damage), bleeding out, crates,
regroup and overwatch, as scenarios."""

import pytest
from fs_helpers import GAME, Pos, line, op, play, rejected, tokens


def test_fs9_mov_has_no_distance_limit():
    s = GAME.new(seed=0)
    play(s, "29")
    assert tokens(s, 9) == ["-0", "-1", "-2", "-3", "-4", "+0"]
    assert tokens(s, 0) == ["+1", "+2", "+3", "+4"]


def test_fs27_mov_to_own_sector_rejoins_the_end_of_the_list():
    s = GAME.new(seed=0)
    play(s, "20")
    assert tokens(s, 0) == ["+1", "+2", "+3", "+4", "+0"]
    assert s.current_players() == (1,)


def test_fs10_stdex_swp_exchanges_sectors_and_ends_the_turn():
    p = Pos(ruleset="stdex").only(("+0", 2), ("+3", 7), ("-0", 9))
    play(p.s, "103")
    assert tokens(p.s, 7) == ["+0"] and tokens(p.s, 2) == ["+3"]
    assert p.s.current_players() == (1,)


# FS-11 (amended): effective range = class range - 2 (attacker in Ruins) - 2 (target in Ruins)
# - 1 (target in Tall grass); the penalties add and may go below 0, and then nothing is in range,
# not even the same sector. Damage = attack + mountains - target's Ruins.
@pytest.mark.parametrize(
    "ruleset, attacker, a_at, t_at, hits, damage",
    [
        ("lstd", "+2", 3, 6, True, 3),  # plain to plain, distance 3 = range 3
        ("lstd", "+2", 3, 7, False, 0),  # distance 4
        ("type-a", "+2", 3, 6, False, 0),  # Type-A range 2
        ("type-a", "+2", 3, 5, True, 3),  # Type-A attack 2, +1 target on a mountain
        ("lstd", "+2", 6, 8, True, 3),  # grass: range 3 - 1 = 2
        ("lstd", "+2", 5, 8, False, 0),  # grass: distance 3 > 2
        ("lstd", "+2", 4, 5, True, 5),  # mountain to mountain: 3 + 1 + 1
        ("lstd", "+2", 4, 3, True, 4),  # from the mountain: +1
        ("lstd", "+0", 4, 9, False, 0),  # Longwatch: 5 - 2 (target in ruins) = 3 < 5
        ("lstd", "+2", 9, 9, False, 0),  # FS-11 amended: 3 - 2 - 2 < 0, not even the same sector
        ("lstd", "+0", 9, 9, True, 2),  # FS-11 amended: Longwatch 5 - 2 - 2 = 1; ruins -1 damage
        ("lstd", "+2", 0, 1, False, 0),  # from ruins into grass: 3 - 2 - 1 = 0 < 1
        ("lstd", "+1", 3, 3, True, 3),  # Blade: same sector
        ("lstd", "+1", 3, 4, False, 0),  # Blade range 0 whatever the terrain
        ("lstd", "+0", 0, 5, False, 0),  # Longwatch from ruins: 5 - 2 = 3 < 5
    ],
)
def test_fs11_range_and_damage_table(ruleset, attacker, a_at, t_at, hits, damage):
    p = Pos(ruleset=ruleset).only((attacker, a_at), ("-3", t_at), ("-0", 9)).select(attacker)
    s = p.s
    token = "33" if ruleset == "lstd" else f"3{attacker[1]}3"
    if not hits:
        assert "out of range" in str(rejected(s, token))
        return
    play(s, token)
    assert s.vit[op("-3")] == 5 - damage


def test_fs11_longwatch_reaches_five_sectors_on_open_ground():
    p = Pos().only(("+0", 2), ("-3", 7), ("-0", 9))
    play(p.s, "33")
    assert p.s.vit[op("-3")] == 2


def test_fs12_down_operator_bleeds_gives_a_crate_and_cannot_be_targeted():
    p = Pos().only(("+2", 3), ("+0", 3), ("-3", 3), ("-0", 9)).select("+2")
    p.s.vit[op("-3")] = 2
    events = play(p.s, "33")
    assert ("down", op("-3"), 0) in events
    assert p.s.crates(0) == 2
    assert tokens(p.s, 3) == ["+2", "+0", "-3X5"]
    play(p.s, "29")  # Player 2: -0 moves on the spot
    assert "bleeding out" in str(rejected(p.s, "33"))


def test_fs12_timer_drops_only_at_the_end_of_its_owners_turns_then_the_operator_dies():
    p = Pos().only(("+2", 3), ("-3", 3), ("-0", 9)).select("+2")
    p.s.vit[op("-3")] = 1
    s = p.s
    play(s, "33")  # Player 1's turn ends: -3 shows X5
    assert tokens(s, 3) == ["+2", "-3X5"]
    shown = []
    for _ in range(5):
        play(s, "29")  # Player 2: -0 stays in the ruins
        shown.append([t for t in tokens(s, 3) if t.startswith("-")])
        play(s, "23")  # Player 1: +2 moves on the spot
    assert shown == [["-3X4"], ["-3X3"], ["-3X2"], ["-3X1"], []]
    assert s.loc[op("-3")] == -2


def test_fs12_hit_on_its_owners_own_turn_keeps_x5_through_that_turns_end():
    # Player 2's -3 is shot down by Player 1's overwatch while moving on its own turn.
    p = Pos().only(("+2", 3), ("-3", 5), ("-0", 9)).to_move(1).select("-3")
    s = p.s
    s.pv[11] = op("+2")  # +2 watches
    s.vit[op("-3")] = 2
    play(s, "26")  # -3 leaves +2's range (5 -> 6... distance 3 is in range; 7 is out)
    assert s.vit[op("-3")] == 2  # 5 -> 6 stays inside range 3: no shot
    p = Pos().only(("+2", 3), ("-3", 6), ("-0", 9)).to_move(1).select("-3")
    s = p.s
    s.pv[11] = op("+2")
    s.vit[op("-3")] = 2
    events = play(s, "27")  # inside -> outside: shot before the move, stays on 6
    assert ("down", op("-3"), 0) in events
    assert tokens(s, 6) == ["-3X5"]  # after the end of its owner's turn, still X5
    play(s, "23")
    assert tokens(s, 6) == ["-3X5"]
    play(s, "29")
    assert tokens(s, 6) == ["-3X4"]


def test_fs13_rnf_moves_one_crate_lstd_and_n_crates_stdex():
    s = GAME.new(seed=0)
    play(s, "41")
    assert s.crates(0) == 0 and s.facility(0, 1) == 1
    p = Pos(ruleset="stdex").crates(0, 3)
    play(p.s, "432")
    assert p.s.crates(0) == 0 and p.s.facility(0, 2) == 3
    assert p.s.render().splitlines()[4] == "Facility Crates: 0-0-3"


def test_fs13_stdex_wdr_takes_n_crates_back_and_keeps_the_turn():
    p = Pos(ruleset="stdex").crates(0, 0, (0, 3, 0))
    play(p.s, "521")
    assert p.s.crates(0) == 2 and p.s.facility(0, 1) == 1 and p.s.current_players() == (0,)
    assert "holds 1 crate" in str(rejected(p.s, "521"))


def test_fs14_retreat_gains_a_crate_even_with_none():
    p = Pos().crates(0, 0)
    play(p.s, "62")
    assert p.s.crates(0) == 1 and p.s.render().splitlines()[5] == "Reserve: 2 5 6 7 8 9"


def test_fs14_deploy_costs_a_crate_and_joins_the_end_of_the_base_list():
    s = GAME.new(seed=0)
    play(s, "67")
    assert s.crates(0) == 0 and tokens(s, 0) == ["+0", "+1", "+2", "+3", "+4", "+7"]


def test_fs14_bleeding_and_dead_operators_cannot_regroup():
    p = Pos().only(("+0", 3), ("+1", 3), ("-0", 9))
    p.s.vit[1] = 0
    p.s.bleed[1] = 3
    assert "bleeding" in str(rejected(p.s, "61"))
    p.s.loc[2] = -2
    assert "dead" in str(rejected(p.s, "62"))


def test_fs15_overwatch_fires_when_an_enemy_moves_into_range_after_the_move():
    p = Pos().only(("+2", 3), ("-0", 9), ("-3", 9)).select("+2")
    s = p.s
    play(s, "72")
    assert tokens(s, 3) == ["+2W"]
    play(s, "13", "26")  # -3 moves 9 -> 6: into range of +2 (distance 3)
    assert s.vit[op("-3")] == 2
    assert tokens(s, 6) == ["-3v2"] and tokens(s, 3) == ["+2"]  # the watch is spent


def test_fs15_overwatch_fires_once_only():
    p = Pos().only(("+2", 3), ("-0", 9), ("-3", 9), ("-4", 9)).select("+2")
    s = p.s
    play(s, "72", "13", "26")
    play(s, "23")  # Player 1 passes by moving on the spot
    play(s, "14", "26")
    assert s.vit[op("-4")] == 5


def test_fs15_moving_within_range_does_not_trigger():
    p = Pos().only(("+2", 3), ("-0", 9), ("-3", 5)).select("+2")
    s = p.s
    play(s, "72", "13")
    events = play(s, "24")
    assert s.vit[op("-3")] == 5 and not [e for e in events if e[0] == "damage"]


def test_fs15_watch_expires_when_its_owners_next_turn_starts():
    p = Pos().only(("+2", 3), ("-0", 9), ("-3", 9)).select("+2")
    s = p.s
    play(s, "72", "29")
    assert s.watcher(0) == -1 and tokens(s, 3) == ["+2"]


def test_fs15_a_new_ovw_replaces_the_watcher():
    p = Pos().only(("+2", 3), ("+3", 3), ("-0", 9)).select("+2")
    s = p.s
    play(s, "72", "29", "73")
    assert s.watcher(0) == op("+3") and tokens(s, 3) == ["+2", "+3W"]


def test_fs28_inside_to_outside_shot_that_downs_the_mover_keeps_it_in_place():
    p = Pos().only(("+2", 3), ("-0", 9), ("-3", 5)).select("+2")
    s = p.s
    s.vit[op("-3")] = 2
    play(s, "72", "13", "27")
    assert s.loc[op("-3")] == 5 and s.vit[op("-3")] == 0
    assert s.crates(0) == 2


def test_fs28_inside_to_outside_survivor_completes_the_move():
    p = Pos().only(("+2", 3), ("-0", 9), ("-3", 5)).select("+2")
    s = p.s
    play(s, "72", "13", "27")
    assert s.loc[op("-3")] == 7 and s.vit[op("-3")] == 1  # 3 + 1 (target on a mountain)


def test_fs28_watch_ends_when_the_watcher_leaves_the_field():
    p = Pos().only(("+2", 3), ("+0", 0), ("-0", 9)).select("+2")
    s = p.s
    play(s, "72")
    s.cur = 0  # a second Player 1 command in the same position, for the test
    play(s, "62")
    assert s.watcher(0) == -1


def test_fs27_swp_halves_are_separate_moves_for_overwatch():
    # FS-27 (amended): in `112` -2 (the third digit) moves first, 6 -> 9, out of +2's range:
    # the watch fires on -2 before its move (it survives and completes it); -1's half, 9 -> 6
    # into range, finds the watch spent. (Under the old order -1 moved first and took the shot.)
    p = Pos(ruleset="stdex").only(("+2", 3), ("-0", 9), ("-1", 9), ("-2", 6))
    s = p.s
    play(s, "722")
    play(s, "112")
    assert s.vit[op("-2")] == 2 and s.vit[op("-1")] == 5
    assert s.loc[op("-1")] == 6 and s.loc[op("-2")] == 9


def test_fs27_mov_on_the_spot_cannot_trigger_overwatch():
    p = Pos().only(("+2", 3), ("-0", 9), ("-3", 5)).select("+2")
    s = p.s
    play(s, "72", "13")
    events = play(s, "25")
    assert s.vit[op("-3")] == 5 and not [e for e in events if e[0] == "damage"]
    assert line(s, 5) == "Mount Sector 5: -3"
