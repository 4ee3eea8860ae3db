"""FS-1..FS-4 (setup) and FS-23/FS-40 (the screen), asserted as exact text."""

from fs_helpers import GAME, Pos, line, play, tokens

INITIAL = """\
[Player 1: Alice]
Skill Cooldown: 5
Support Cooldown: 5
Crates: 1
Facility Crates: 0-0-0
Reserve: 5 6 7 8 9

[Player 2: Bob]
Skill Cooldown: 5
Support Cooldown: 5
Crates: 1
Facility Crates: 0-0-0
Reserve: 5 6 7 8 9

Ruins Sector 0: +0 +1 +2 +3 +4
Grass Sector 1:
Plain Sector 2:
Plain Sector 3:
Mount Sector 4:
Mount Sector 5:
Plain Sector 6:
Plain Sector 7:
Grass Sector 8:
Ruins Sector 9: -0 -1 -2 -3 -4


Player 1 (+0): """


def screen(s) -> str:
    return s.render() + "\n" + s.prompt()


def test_fs1_fs2_fs4_initial_screen_is_exact():
    s = GAME.new(seed=3, names=("Alice", "Bob"))
    assert screen(s) == INITIAL


def test_fs4_initial_values():
    s = GAME.new(seed=3)
    for p in range(2):
        assert s.crates(p) == 1
        assert [s.facility(p, f) for f in range(3)] == [0, 0, 0]
        assert s.skill_cooldown(p) == 5 and s.support_cooldown(p) == 5
    assert s.selected(0) == 0 and s.selected(1) == 10
    assert all(v == 5 for v in s.vit)
    assert s.current_players() == (0,)


def test_fs23_empty_names_print_bare_player_blocks():
    s = GAME.new(seed=3)
    lines = s.render().splitlines()
    assert lines[0] == "[Player 1]" and lines[7] == "[Player 2]"


def test_fs40_prompt_without_selection_under_stdex():
    s = GAME.new(seed=3, ruleset="stdex")
    assert s.prompt() == "Player 1: "


def test_fs40_prompt_while_request_pending():
    s = GAME.new(seed=3)
    play(s, "05")
    assert s.prompt() == "Player 2 response: "


def test_fs23_operator_markers_injured_watch_and_skill():
    p = Pos().only(("+0", 3), ("+2", 3), ("-3", 7), ("-4", 7)).ready()
    s = p.s
    s.vit[2] = 3
    s.vit[13] = 0
    s.bleed[13] = 4
    s.pv[0 * 12 + 11] = 2  # +2 watches
    s.skl[0] = 1  # Longwatch armed
    s.skl[14] = 2  # Quick draw, two charges left
    assert tokens(s, 3) == ["+0S", "+2v3W"]
    assert tokens(s, 7) == ["-3X4", "-4S2"]


def test_fs23_reserve_lists_injured_in_index_order_without_sign():
    p = Pos().only(("+0", 0), ("-0", 9))
    s = p.s
    s.vit[7] = 3
    s.vit[1] = 4
    lines = s.render().splitlines()
    assert lines[5] == "Reserve: 1v4 2 3 4 5 6 7v3 8 9"


def test_fs40_negative_balance_prints_minus():
    p = Pos().crates(0, -1)
    assert p.s.render().splitlines()[3] == "Crates: -1"


def test_fs23_ready_cooldowns_print_ready():
    p = Pos().ready()
    lines = p.s.render().splitlines()
    assert lines[1] == "Skill Cooldown: [READY]"
    assert lines[2] == "Support Cooldown: [READY]"


def test_fs23_arrival_order_in_a_sector():
    s = GAME.new(seed=3)
    play(s, "23", "21", "14", "23")  # +0 to 3; -0 to 1; +4 selected and to 3
    assert tokens(s, 3) == ["+0", "+4"]
    assert line(s, 1) == "Grass Sector 1: -0"


def test_fs40_result_line_replaces_prompt():
    s = GAME.new(seed=3)
    play(s, "09")
    assert s.prompt() == ""
    assert s.outcome.describe() == "Player 2 wins (concession)"


def test_render_rich_has_same_text_as_plain():
    s = GAME.new(seed=3, names=("A", "B"))
    assert s.render_rich().plain == s.render()
