"""Issue 16: FieldShift as its author's own tool plays it. FS-11 (amended: range penalties add
and may go below 0; then nothing is in range, not even the same sector), FS-27 (amended: in SWP
`1ab`, b moves first) and FS-41 (an LSTD-armed Blade or Medic stays armed across a ruleset
switch; with a Medic armed, `3xt` revives t and x is ignored), as scenarios in every ruleset."""

import pytest
from fs_helpers import GAME, Pos, assert_hits_agree, op, play, rejected, tokens

from boardct.games.fieldshift.tables import IN_RANGE, LSTD, STDEX, TYPE_A, effective_range

RULESETS = ("lstd", "stdex", "type-a")


def hit(ruleset: str, attacker: str, target: str) -> str:
    """The HIT token: `3t` under LSTD (the attacker is selected), `3at` otherwise."""
    return f"3{target[1]}" if ruleset == "lstd" else f"3{attacker[1]}{target[1]}"


def listed(s, token: str) -> bool:
    return s.parse(token) in s.legal_actions()


# ---------------------------------------------------------------- FS-11 (amended): HIT
@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("attacker", ["+2", "+3", "+4"])
@pytest.mark.parametrize("ruins", [0, 9])
def test_fs11_range3_classes_in_the_same_ruins_cannot_hit_each_other(ruleset, attacker, ruins):
    """FS-11 (amended): 3 - 2 - 2 = -1 (Type-A: 2 - 2 - 2 = -2) reaches nothing, not even the
    attacker's own sector; the HIT is refused and legal_actions does not list it."""
    p = Pos(ruleset=ruleset).only((attacker, ruins), ("-3", ruins), ("-0", 5)).select(attacker)
    s = p.s
    token = hit(ruleset, attacker, "-3")
    assert not listed(s, token)
    err = rejected(s, token)
    assert "out of range" in str(err) and "FS-11" in str(err)
    assert "distance 0" in str(err) and "effective range -" in str(err)
    assert_hits_agree(s)


@pytest.mark.parametrize("ruleset, damage", [("lstd", 2), ("stdex", 2), ("type-a", 1)])
def test_fs11_longwatch_in_the_same_ruins_still_hits(ruleset, damage):
    """FS-11 (amended): the Longwatch keeps 5 - 2 - 2 = 1 in every ruleset; damage is the
    attack less 1 for the target's Ruins (Type-A attack 2)."""
    p = Pos(ruleset=ruleset).only(("+0", 9), ("-3", 9), ("-0", 5)).select("+0")
    s = p.s
    token = hit(ruleset, "+0", "-3")
    assert listed(s, token)
    assert_hits_agree(s)
    play(s, token)
    assert s.vit[op("-3")] == 5 - damage


@pytest.mark.parametrize("ruleset", RULESETS)
def test_fs11_blade_range_stays_0_in_the_ruins(ruleset):
    """FS-11: the Blade's range is 0 whatever the terrain: it hits in its own Ruins sector
    (no penalties apply to it), and nothing next door."""
    p = Pos(ruleset=ruleset).only(("+1", 0), ("-3", 0), ("-4", 1), ("-0", 5)).select("+1")
    s = p.s
    assert listed(s, hit(ruleset, "+1", "-3"))
    assert not listed(s, hit(ruleset, "+1", "-4"))
    assert_hits_agree(s)
    play(s, hit(ruleset, "+1", "-3"))
    assert s.vit[op("-3")] == 5 - (3 if ruleset != "type-a" else 2) + 1


def test_fs11_effective_ranges_in_the_ruins_per_ruleset():
    """FS-11 (amended), the arithmetic itself: both in Ruins, Longwatch 1, the Blade 0, the
    others -1 (LSTD, STDEX) and -2 (Type-A, shorter still); a range-3 class in Ruins reaches no
    sector at all, and from Tall grass into Ruins Type-A's 2 - 2 = 0 misses the next sector."""
    for rs in (LSTD, STDEX, TYPE_A):
        assert effective_range(rs, 0, 0, 0) == 1
        assert effective_range(rs, 1, 9, 9) == 0
        for cls in (2, 3, 4):
            assert effective_range(rs, cls, 0, 0) == (-2 if rs == TYPE_A else -1)
            assert IN_RANGE[rs][cls][0] == frozenset() and IN_RANGE[rs][cls][9] == frozenset()
        assert IN_RANGE[rs][0][9] == frozenset({6, 7, 8, 9})
    assert 0 in IN_RANGE[LSTD][2][1] and 0 not in IN_RANGE[TYPE_A][2][1]


def test_fs11_type_a_from_the_grass_cannot_reach_the_next_ruins():
    """FS-11 under Type-A: range 2 - 2 (target in Ruins) = 0, distance 1: refused, where LSTD
    and STDEX (3 - 2 = 1) hit."""
    for ruleset, hits in (("stdex", True), ("type-a", False)):
        p = Pos(ruleset=ruleset).only(("+2", 8), ("-3", 9), ("-0", 5))
        s = p.s
        assert listed(s, "323") == hits
        assert_hits_agree(s)
        if not hits:
            assert "effective range 0" in str(rejected(s, "323"))


def test_fs11_evaluation_sees_no_reach_between_range3_operators_in_the_same_ruins():
    """The evaluation reads the same range table: -2 in the Ruins with +0 reaches nothing, so
    it counts only 0.25 ("closing in") where the Longwatch counts 0.75. Under the old ruling
    both reached each other and the position was even (0.0)."""
    p = Pos().only(("+0", 9), ("-2", 9))
    s = p.s
    s._resync()
    # each side: 5 + 3 on the field, nine reserves at 5 + 1, half a point for its crate
    mine = 8 + 0.75 + 54 + 0.5
    theirs = 8 + 0.25 + 54 + 0.5
    assert GAME.evaluate(s, 0) == pytest.approx((mine - theirs) / (mine + theirs + 1))
    assert GAME.evaluate(s, 1) == pytest.approx(-GAME.evaluate(s, 0))


# ---------------------------------------------------------------- FS-11 (amended): overwatch
@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("start, end", [(1, 0), (0, 1), (5, 0)])
def test_fs11_overwatch_in_the_ruins_does_not_fire_at_a_mover_in_its_own_sector(
        ruleset, start, end):
    """FS-11/FS-15: the same range decides overwatch. A Medic watching from the Ruins reaches
    nothing, so an enemy entering or leaving its sector crosses no range boundary: no shot
    (under the old ruling its own sector was in range and it fired)."""
    p = Pos(ruleset=ruleset).only(("+3", 0), ("-3", start), ("-0", 9))
    s = p.s
    if ruleset == "lstd":
        play(s, "73")
        assert s.watcher(0) == op("+3")
        events = play(s, "13", f"2{end}")
    else:
        play(s, "703")
        assert s.watcher(0) == op("+3")
        events = play(s, f"23{end}")
    assert not [e for e in events if e[0] == "damage"]
    assert s.loc[op("-3")] == end and s.vit[op("-3")] == 5


@pytest.mark.parametrize("ruleset, damage", [("lstd", 2), ("type-a", 1)])
def test_fs11_longwatch_overwatch_in_the_ruins_still_fires_in_its_own_sector(ruleset, damage):
    """FS-11/FS-15: a watching Longwatch in the Ruins keeps range 1 there (5 - 2 - 2): a mover
    from 5 into its sector comes into range and is shot after the move."""
    p = Pos(ruleset=ruleset).only(("+0", 0), ("-3", 5), ("-0", 9))
    s = p.s
    if ruleset == "lstd":
        play(s, "70", "13", "20")
    else:
        play(s, "700", "230")
    assert s.loc[op("-3")] == 0 and s.vit[op("-3")] == 5 - damage
    assert s.watcher(0) == -1


# ---------------------------------------------------------------- FS-27 (amended): SWP order
def test_fs27_swp_1ab_moves_b_first_into_as_sector_then_a():
    """FS-27 (amended): in `1ab`, b (the third digit) moves first, into a's sector; then a into
    b's old sector. The events come in that order, and each joins the end of its new list."""
    p = Pos(ruleset="stdex").only(("+0", 2), ("+2", 2), ("+3", 7), ("+4", 7), ("-0", 9))
    s = p.s
    events = play(s, "103")
    moves = [e for e in events if e[0] == "move"]
    assert moves == [("move", op("+3"), 7, 2), ("move", op("+0"), 2, 7)]
    assert tokens(s, 2) == ["+2", "+3"] and tokens(s, 7) == ["+4", "+0"]


def test_fs27_swp_overwatch_shot_on_the_first_half_downs_b_and_a_still_moves():
    """FS-27 (amended) with FS-28: b (-2) leaves +2's range first and is shot to 0 before it
    moves, so it stays on 6; a (-1) still moves into b's old sector, and the spent watch does
    not fire again. (Under the old order -1 moved first and took the shot.)"""
    p = Pos(ruleset="stdex").only(("+2", 3), ("-0", 9), ("-1", 9), ("-2", 6))
    s = p.s
    s.vit[op("-2")] = 2
    play(s, "722", "112")
    assert s.loc[op("-2")] == 6 and s.vit[op("-2")] == 0
    assert s.loc[op("-1")] == 6 and s.vit[op("-1")] == 5
    assert tokens(s, 6) == ["-2X5", "-1"]


def test_fs27_swp_overwatch_shot_on_the_second_half():
    """FS-27 (amended): the armed Longwatch downs b (-2) as it starts its half, so b stays on 6;
    then a (-1) moves 9 -> 6, into +2's range, and the watch fires on a after its move. (Under
    the old order the Longwatch downed -1 and the watch shot -2 leaving for 9.)"""
    p = Pos(ruleset="stdex").only(("+0", 0), ("+2", 3), ("-0", 9), ("-1", 9), ("-2", 6))
    s = p.s
    s.skl[op("+0")] = 1
    events = play(s, "722", "112")
    sources = [(e[1], e[3]) for e in events if e[0] == "damage"]
    assert sources == [("longwatch", op("-2")), ("overwatch", op("-1"))]
    assert s.loc[op("-2")] == 6 and s.vit[op("-2")] == 0
    assert s.loc[op("-1")] == 6 and s.vit[op("-1")] == 2


# ---------------------------------------------------------------- FS-41
def _armed_then_switched(cls: str, switch: tuple[str, ...], ruleset: int):
    """An LSTD position where Player 1 arms its Blade (+1) or Medic (+3) (the turn goes on),
    then asks for the next ruleset and the answers in `switch` move the game to `ruleset`.
    +0 bleeds on sector 3, +2 stands there, +5 is in reserve, -3 is on sector 5."""
    p = Pos().only(("+3", 3), ("+1", 3), ("+2", 3), ("+0", 3), ("+4", 3), ("-3", 5), ("-0", 9))
    s = p.ready().down("+0", 3).down("+4", 2).s
    play(s, "1" + cls[1], "8" + cls[1], "05", *switch)
    assert s.ruleset == ruleset and s.current_players() == (0,)
    assert s.skl[op(cls)] == 1 and tokens(s, 3)[["+3", "+1"].index(cls)] == cls + "S"
    return s


SWITCHES = [(("01",), STDEX), (("05", "01"), TYPE_A)]


@pytest.mark.parametrize("switch, ruleset", SWITCHES)
@pytest.mark.parametrize("x, why", [("5", "reserve"), ("4", "bleeding"), ("0", "bleeding"),
                                    ("2", "living"), ("3", "the Medic")])
def test_fs41_armed_medic_revives_with_3xt_whatever_x_names(switch, ruleset, x, why):
    """FS-41: the Medic armed under LSTD stays armed after the switch; the next HIT `3xt` is the
    revive of t and x is ignored: a reserve (+5), bleeding (+4, or +0 itself) or living x is
    accepted alike. Before FS-41 a reserve or bleeding x was refused."""
    s = _armed_then_switched("+3", switch, ruleset)
    assert_hits_agree(s)
    assert listed(s, "300") and listed(s, "304") and not listed(s, "302")
    events = play(s, f"3{x}0")
    assert ("revive", op("+3"), op("+0")) in events
    assert s.vit[0] == 5 and s.bleed[0] == 0 and s.skl[op("+3")] == 0
    assert s.vit[op("+4")] == 0 and s.current_players() == (1,)


def test_fs41_switched_medic_revive_still_needs_a_bleeding_friendly_target():
    """FS-41 with FS-30: x is ignored but t is not: a living or reserve t is refused and the
    Medic stays armed; no other HIT is possible meanwhile."""
    s = _armed_then_switched("+3", ("01",), STDEX)
    assert "is not bleeding out" in str(rejected(s, "352"))
    assert "in reserve" in str(rejected(s, "325"))
    assert s.skl[op("+3")] == 1
    assert [a for a in s.legal_actions() if 300 <= a < 400] == [300, 304]


@pytest.mark.parametrize("switch, ruleset", SWITCHES)
def test_fs41_armed_blade_stays_armed_and_3bt_assassinates(switch, ruleset):
    """FS-41: the Blade armed under LSTD stays armed; its next HIT `31t` (b the Blade, as for any
    STDEX HIT) is the assassination, with no range limit: +1 moves to -3's Mountain, 7 damage."""
    s = _armed_then_switched("+1", switch, ruleset)
    assert_hits_agree(s)
    assert listed(s, "313") and listed(s, "310")
    events = play(s, "313")
    assert ("move", op("+1"), 3, 5) in events
    assert s.vit[op("-3")] == 0 and s.loc[op("+1")] == 5 and s.skl[op("+1")] == 0
