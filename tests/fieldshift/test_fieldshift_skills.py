"""FS-16 (skills and the skill cooldown) with FS-26, FS-29..FS-31, in LSTD, STDEX and Type-A."""

import pytest
from fs_helpers import GAME, Pos, line, op, play, rejected, tokens


def test_fs16_cooldown_shows_5_until_the_end_of_the_next_own_turn_ready_on_t_plus_6():
    p = Pos().only(("+2", 3), ("-0", 9)).ready()
    s = p.s
    play(s, "82")  # own turn t: Cyberwarfare (ends the turn)
    assert s.render().splitlines()[1] == "Skill Cooldown: 5"
    shown = []
    for _ in range(6):  # own turns t+1 .. t+6, as Player 1 sees them
        play(s, "29")
        shown.append(s.render().splitlines()[1])
        play(s, "23")
    assert shown == ["Skill Cooldown: 5", "Skill Cooldown: 4", "Skill Cooldown: 3",
                     "Skill Cooldown: 2", "Skill Cooldown: 1", "Skill Cooldown: [READY]"]


def test_fs16_initial_cooldown_ready_on_own_turn_6():
    s = GAME.new(seed=0)
    for _ in range(5):
        assert s.skill_cooldown(0) > 0
        play(s, "20", "29")
    assert s.skill_cooldown(0) == 0 and s.support_cooldown(0) == 0


# -- Longwatch
def test_fs16_longwatch_downs_the_next_enemy_mover_before_it_moves_any_range():
    p = Pos().only(("+0", 0), ("-3", 9), ("-0", 9)).ready()
    s = p.s
    play(s, "80")
    assert tokens(s, 0) == ["+0S"]
    play(s, "13", "24")
    assert s.vit[op("-3")] == 0 and s.loc[op("-3")] == 9
    assert s.crates(0) == 2 and tokens(s, 0) == ["+0"]
    play(s, "20", "10", "24")  # the next mover is not shot
    assert s.vit[op("-0")] == 5 and s.loc[op("-0")] == 4


def test_fs16_longwatch_needs_to_be_alive_and_deployed_when_it_fires():
    p = Pos().only(("+0", 0), ("+1", 0), ("-3", 9), ("-0", 9)).ready()
    s = p.s
    play(s, "80")
    s.cur = 0
    play(s, "60")  # retreat the Longwatch: the armed skill ends (FS-29)
    play(s, "13", "24")
    assert s.vit[op("-3")] == 5 and s.loc[op("-3")] == 4


def test_fs29_two_armed_longwatches_lowest_fires_one_shot_per_move():
    p = Pos(ruleset="stdex").only(("+0", 0), ("+5", 0), ("-3", 9), ("-4", 9), ("-0", 9))
    s = p.s
    s.skl[op("+0")] = s.skl[op("+5")] = 1
    s.cur = 1
    play(s, "234")
    assert s.vit[op("-3")] == 0 and s.skl[op("+0")] == 0 and s.skl[op("+5")] == 1


def test_fs27_swp_halves_are_separate_moves_for_the_longwatch():
    # FS-27 (amended): -4 (the third digit) moves first, so the Longwatch downs -4 before it
    # moves (it stays on 6); -3 still moves into -4's old sector.
    p = Pos(ruleset="stdex").only(("+0", 0), ("-3", 9), ("-4", 6), ("-0", 9)).to_move(1)
    s = p.s
    s.skl[op("+0")] = 1
    play(s, "134")
    assert s.loc[op("-4")] == 6 and s.vit[op("-4")] == 0
    assert s.loc[op("-3")] == 6 and s.vit[op("-3")] == 5


# -- Blade
def test_fs16_lstd_blade_arming_keeps_the_turn_then_the_hit_moves_and_strikes():
    p = Pos().only(("+1", 0), ("-3", 5), ("-0", 9)).ready()
    s = p.s
    play(s, "81")
    assert s.current_players() == (0,) and tokens(s, 0) == ["+1S"]
    play(s, "11", "33")
    assert s.vit[op("-3")] == 0  # 5 on a mountain: 7
    assert line(s, 5) == "Mount Sector 5: -3X5 +1"
    assert s.current_players() == (1,)


@pytest.mark.parametrize("sector, damage", [(9, 4), (4, 7), (3, 5), (8, 5)])
def test_fs31_assassination_damage_by_terrain_in_every_ruleset(sector, damage):
    for ruleset in ("stdex", "type-a"):
        p = Pos(ruleset=ruleset).only(("+1", 0), ("-3", sector), ("-0", 9)).ready()
        p.s.vit[op("-3")] = 5
        p.s.vit[op("-3")] += 3  # room to read the damage
        play(p.s, "813")
        assert p.s.vit[op("-3")] == 8 - damage
        assert tokens(p.s, sector)[-1] == "+1"


def test_fs15_assassination_move_never_triggers_overwatch_or_longwatch():
    p = Pos().only(("+1", 0), ("-3", 5), ("-0", 9), ("-2", 3)).ready()
    s = p.s
    s.pv[12 + 11] = op("-2")  # -2 watches (in range of sector 5)
    s.skl[op("-0")] = 1  # -0 Longwatch armed
    play(s, "81", "11", "33")
    assert s.vit[op("+1")] == 5 and s.loc[op("+1")] == 5
    assert s.skl[op("-0")] == 1


def test_fs16_stdex_blade_arms_and_strikes_at_once_and_ends_the_turn():
    p = Pos(ruleset="stdex").only(("+1", 0), ("-3", 2), ("-0", 9)).ready()
    s = p.s
    play(s, "813")
    assert s.vit[op("-3")] == 0 and s.loc[op("+1")] == 2 and s.current_players() == (1,)
    assert s.skill_cooldown(0) == 5 and s.skl[op("+1")] == 0


def test_fs16_stdex_blade_target_must_be_a_living_deployed_enemy():
    p = Pos(ruleset="stdex").only(("+1", 0), ("-0", 9)).ready()
    err = rejected(p.s, "813")
    assert "-3" in str(err) and "reserve" in str(err)


def test_blade_armed_but_another_operator_selected_hits_normally():
    p = Pos().only(("+1", 0), ("+2", 3), ("-3", 5), ("-0", 9)).ready()
    s = p.s
    play(s, "81", "12", "33")
    assert s.vit[op("-3")] == 1 and s.skl[op("+1")] == 1  # 3 + 1 mountain; Blade still armed


# -- Technician
def test_fs16_cyberwarfare_binds_three_enemy_turns_shown_s3_s2_s1():
    p = Pos().only(("+2", 3), ("-0", 9), ("-3", 9)).ready()
    s = p.s
    play(s, "82")
    shown = []
    for _ in range(3):
        shown.append(tokens(s, 3))
        assert s.under_cyber(1)
        play(s, "29", "23")
    assert shown == [["+2S3"], ["+2S2"], ["+2S1"]]
    assert not s.under_cyber(1) and tokens(s, 3) == ["+2"]


def test_fs16_cyberwarfare_makes_skl_spt_and_deploy_violations_but_retreat_stays_legal():
    p = Pos(violations="reject").only(("+2", 3), ("-0", 9), ("-3", 9)).ready()
    s = p.s
    play(s, "82")
    assert "Cyberwarfare" in str(rejected(s, "80"))
    assert "Cyberwarfare" in str(rejected(s, "91"))
    assert "Cyberwarfare" in str(rejected(s, "65"))
    play(s, "63")
    assert s.loc[op("-3")] == -1


def test_fs16_cyberwarfare_ends_early_when_the_technician_bleeds_out():
    p = Pos().only(("+2", 3), ("-0", 9), ("-3", 4)).ready()
    s = p.s
    s.vit[op("+2")] = 1
    play(s, "82")
    play(s, "13", "32")  # -3 hits +2 (distance 1): down
    assert s.vit[op("+2")] == 0 and not s.under_cyber(1)


# -- Medic
def test_fs16_lstd_extend_arms_without_ending_the_turn_then_the_next_hit_revives():
    p = Pos().only(("+3", 3), ("+0", 3), ("-0", 9)).ready()
    s = p.down("+0", 3).s
    play(s, "83")
    assert s.current_players() == (0,) and tokens(s, 3) == ["+3S", "+0X3"]
    play(s, "30")
    assert tokens(s, 3) == ["+3", "+0"] and s.vit[0] == 5 and s.bleed[0] == 0
    assert s.current_players() == (1,)


def test_fs30_extend_hit_on_a_non_bleeding_target_is_rejected_and_the_medic_stays_armed():
    p = Pos().only(("+3", 3), ("+0", 3), ("-0", 9), ("-3", 3)).ready()
    s = p.s
    play(s, "83")
    assert "bleeding out" in str(rejected(s, "33"))
    assert s.skl[op("+3")] == 1


def test_fs30_armed_medic_takes_precedence_over_an_armed_blade():
    p = Pos().only(("+1", 3), ("+3", 3), ("+0", 3), ("-0", 9), ("-3", 5)).ready()
    s = p.down("+0").s
    s.skl[op("+1")] = 1
    s.skl[op("+3")] = 1
    play(s, "11", "30")  # the selected Blade's HIT 0 is the revive of +0
    assert s.vit[0] == 5 and s.skl[op("+1")] == 1 and s.loc[op("+1")] == 3


def test_fs16_stdex_extend_revives_at_once_and_ends_the_turn():
    p = Pos(ruleset="stdex").only(("+3", 3), ("+0", 3), ("-0", 9)).ready()
    s = p.down("+0", 2).s
    play(s, "830")
    assert s.vit[0] == 5 and s.current_players() == (1,) and s.skl[op("+3")] == 0


def test_fs16_stdex_extend_needs_a_bleeding_friendly_target():
    p = Pos(ruleset="stdex").only(("+3", 3), ("+0", 3), ("-0", 9)).ready()
    assert "bleeding out" in str(rejected(p.s, "830"))


# -- Specialist
def test_fs16_quick_draw_three_landed_hits_keep_the_turn_the_fourth_ends_it():
    p = Pos().only(("+4", 5), ("-0", 9), ("-3", 6), ("-4", 6)).ready()
    s = p.s
    s.vit[op("-3")] = s.vit[op("-4")] = 5
    play(s, "84")
    assert s.current_players() == (0,) and tokens(s, 5) == ["+4S3"]
    play(s, "33")
    assert tokens(s, 5) == ["+4S2"] and s.current_players() == (0,)
    play(s, "34")
    assert tokens(s, 5) == ["+4S1"]
    rejected(s, "30")  # out of range: not landed, no charge used
    assert tokens(s, 5) == ["+4S1"]
    play(s, "34")
    assert tokens(s, 5) == ["+4"] and s.current_players() == (0,)
    play(s, "33")
    assert s.current_players() == (1,)


def test_fs26_arming_the_specialist_never_ends_the_turn_under_stdex():
    p = Pos(ruleset="stdex").only(("+4", 5), ("-0", 9)).ready()
    play(p.s, "804")
    assert p.s.current_players() == (0,) and p.s.skl[op("+4")] == 3


def test_fs29_armed_skills_end_when_the_operator_leaves_the_field():
    p = Pos().only(("+4", 5), ("+0", 0), ("-0", 9)).ready()
    s = p.s
    play(s, "84", "64")
    assert s.skl[op("+4")] == 0
    s2 = Pos().only(("+4", 5), ("+0", 0), ("-0", 4)).to_move(1).s
    s2.skl[op("+4")] = 2
    play(s2, "34")  # -0 hits +4 from the next mountain: 3 + 1 + 1 = 5
    assert s2.skl[op("+4")] == 0 and s2.vit[op("+4")] == 0


def test_fs16_skl_on_an_operator_not_on_the_field_is_rejected():
    p = Pos().ready()
    assert "reserve" in str(rejected(p.s, "85"))
