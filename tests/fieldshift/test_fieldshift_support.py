"""FS-17 with FS-33..FS-35: Artillery, Medbay (support and passive), Command center, and the
support cooldown."""

from fs_helpers import Pos, op, play, rejected, tokens


def test_fs17_artillery_readies_then_the_next_spt_names_a_sector():
    p = Pos().only(("+0", 0), ("-0", 5), ("-3", 5), ("-4", 6)).ready().crates(0, 0, (2, 0, 0))
    s = p.s
    play(s, "90")
    assert s.artillery_ready(0) and s.support_cooldown(0) == 0 and s.current_players() == (1,)
    play(s, "29")  # Player 2 (selected -0) moves to 9
    events = play(s, "95")
    assert s.vit[op("-3")] == 2  # 1 + 2 crates, no terrain modifier on the mountain
    assert s.vit[op("-4")] == 5 and s.vit[op("-0")] == 5  # -0 left sector 5
    assert ("artillery", 0, 5, 3) in events
    assert not s.artillery_ready(0) and s.support_cooldown(0) == 5


def test_fs33_artillery_shot_gains_a_crate_per_kill_and_spares_own_operators():
    p = Pos().only(("+0", 4), ("-0", 4), ("-3", 4), ("-4", 9)).ready().gun(0).crates(0, 0)
    s = p.s
    s.vit[op("-0")] = 1
    s.vit[op("-3")] = 1
    play(s, "94")
    assert s.crates(0) == 2 and s.vit[op("+0")] == 5
    assert tokens(s, 4) == ["+0", "-0X5", "-3X5"]


def test_fs33_support_cooldown_uses_command_center_crates_at_the_shot():
    p = Pos().only(("+0", 0), ("-0", 9)).ready().gun(0).crates(0, 0, (0, 0, 3))
    play(p.s, "91")
    assert p.s.support_cooldown(0) == 2


def test_fs33_five_command_center_crates_make_support_ready_at_once():
    p = Pos().only(("+0", 0), ("+1", 0), ("-0", 9)).ready().crates(0, 0, (0, 0, 5))
    s = p.s
    s.vit[op("+1")] = 2
    play(s, "91")
    assert s.support_cooldown(0) == 0 and s.render().splitlines()[2] == "Support Cooldown: [READY]"


def test_fs33_readying_the_gun_on_cooldown_is_a_violation():
    p = Pos(violations="reject").only(("+0", 0), ("-0", 9))
    assert "cooldown" in str(rejected(p.s, "90"))


def test_fs33_the_shot_is_never_a_cooldown_violation_but_is_one_under_cyberwarfare():
    p = Pos(violations="reject").only(("+0", 0), ("-0", 9), ("-2", 9)).gun(0)
    s = p.s
    s.pv[5] = 4  # support cooldown running
    play(s, "95")
    p = Pos(violations="reject").only(("+0", 0), ("-0", 9), ("-2", 9)).gun(0)
    p.s.skl[op("-2")] = 2
    assert "Cyberwarfare" in str(rejected(p.s, "95"))


def test_fs17_medbay_support_heals_injured_deployed_by_two_capped_at_five():
    p = Pos().only(("+0", 0), ("+1", 3), ("+2", 3), ("-0", 9)).ready()
    s = p.s
    s.vit[op("+1")] = 4
    s.vit[op("+2")] = 1
    s.vit[op("+7")] = 1  # in reserve: not healed by the support
    play(s, "91")
    assert tokens(s, 3) == ["+1", "+2v3"] and s.vit[op("+7")] == 1
    assert s.support_cooldown(0) == 5


def test_fs34_medbay_support_with_nobody_injured_is_allowed_and_starts_the_cooldown():
    p = Pos().only(("+0", 0), ("-0", 9)).ready()
    play(p.s, "91")
    assert p.s.support_cooldown(0) == 5


def test_fs34_medbay_passive_heals_reserve_every_four_own_turns():
    p = Pos().only(("+0", 2), ("-0", 7))
    s = p.s
    s.vit[op("+6")] = 1
    seen = []
    for _ in range(4):
        play(s, "22", "27")
        seen.append(s.vit[op("+6")])
    assert seen == [1, 1, 1, 2]
    assert s.render().splitlines()[5] == "Reserve: 1 2 3 4 5 6v2 7 8 9"


def test_fs34_medbay_crates_shorten_the_period_then_raise_the_amount():
    p = Pos().only(("+0", 2), ("-0", 7)).crates(0, 0, (0, 3, 0))
    s = p.s
    s.vit[op("+6")] = 1
    play(s, "22", "27")
    assert s.vit[op("+6")] == 2  # period max(1, 4 - 3) = 1, amount 1
    p = Pos().only(("+0", 2), ("-0", 7)).crates(0, 0, (0, 5, 0))
    s = p.s
    s.vit[op("+6")] = 1
    play(s, "22")
    assert s.vit[op("+6")] == 4  # amount 1 + (5 - 3) = 3


def test_fs35_command_center_swaps_field_and_reserve_bleeding_stay():
    p = Pos().only(("+0", 3), ("+1", 5), ("+2", 5), ("-0", 9)).ready().down("+2")
    s = p.s
    s.loc[op("+9")] = -2  # dead: stays dead
    s.vit[op("+6")] = 3
    play(s, "92")
    assert tokens(s, 0) == ["+3", "+4", "+5", "+6v3", "+7", "+8"]
    assert tokens(s, 5) == ["+2X4"] and tokens(s, 3) == []  # its owner's turn ended
    assert s.render().splitlines()[5] == "Reserve: 0 1"
    assert s.crates(0) == 1 and s.selected(0) == op("+3")
