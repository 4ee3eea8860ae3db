"""Scenario tests, one or more per ruling FFF-1..FFF-29 (rulings/force-field-factions.md).

Each sets up a position from FFF-32 text (fillers keep every size on the board), plays a turn
as a player types it, and checks the exact resulting position or the refusal and its rule.
"""

import pytest
from fff_helpers import GAME, field, pieces, play, rejected, setup, texts

from boardct.core.errors import IllegalAction
from boardct.games.fff.notation import parse_turn
from boardct.games.fff.position import INITIAL


# ---- FFF-1, FFF-2, FFF-3: board, pieces, pool ----------------------------------------------------
def test_fff1_initial_position_back_ranks_and_black_first():
    s = GAME.new(seed=0)
    assert s.position() == INITIAL
    assert s.current_players() == (0,)
    assert s.prompt() == "Player 1 (Black): "
    play(s, "d1 m")
    assert s.current_players() == (1,)
    assert field(s, 0).startswith("B3a1N,B2b1N,B1c1N,B1e1N,B2f1N,B1g1N,B3h1N,B2d2N,W3a8S")


def test_fff2_pieces_start_facing_the_opponent_and_turn_to_any_of_nine_directions():
    s = GAME.new(seed=0)
    assert all(p.endswith("N") for p in field(s, 0).split(",") if p[0] == "B")
    assert all(p.endswith("S") for p in field(s, 0).split(",") if p[0] == "W")
    for facing in ("NE", "E", "SE", "S", "SW", "W", "NW", "U"):
        t = GAME.new(seed=0)
        play(t, f"c1 {facing}")
        assert f"B1c1{facing}," in field(t, 0)


def test_fff3_pool_has_three_of_each_size_for_seven_colours_and_no_cyan():
    s = GAME.new(seed=0)
    assert field(s, 2) == "r33g33b33y33p33o33c33"
    err = rejected(s, "d1 +cyan")
    assert "cyan" in str(err) and "FFF-3" in str(err)


# ---- FFF-4: a turn ------------------------------------------------------------------------------
def test_fff4_remove_then_move_then_add_in_one_turn():
    s = setup("B2d4N:r")
    play(s, "d4 -r m +g")
    assert pieces(s) == "B2d5N:g"
    assert field(s, 2) == "r33g32b33y33p33o33c33"


def test_fff4_selecting_and_doing_nothing_is_the_pass():
    s = setup("B2d4N")
    assert s.parse("d4") == () == s.parse("pass")
    before = pieces(s)
    events = play(s, "d4")
    assert pieces(s) == before and field(s, 1) == "W"
    assert s.describe(events[0]) == "Black passes"


def test_fff4_only_own_pieces_can_be_selected():
    s = setup("B2d4N,W2e5S")
    rejected(s, "e5 m", "FFF-4", "Black has no piece on e5")
    rejected(s, "e6 m", "FFF-4")


def test_fff4_removal_must_come_first_and_addition_last():
    s = setup("B2d4N:r")
    err = rejected(s, "d4 m -r")
    assert "token 3 '-r' (column 6)" in str(err)
    err = rejected(s, "d4 +g m")
    assert "token 2 '+g'" in str(err)


# ---- FFF-5: movement points --------------------------------------------------------------------
def test_fff5_points_equal_pips():
    s = setup("B2d4N")
    rejected(s, "d4 m m m", "FFF-5", "only 2 movement points")
    play(s, "d4 m m")
    assert pieces(s) == "B2d6N"


def test_fff5_yellow_doubles_points():
    s = setup("B1d4N:y")
    play(s, "d4 m m")
    assert pieces(s) == "B1d6N:y"


def test_fff5_two_yellows_still_double_once():
    s = setup("B1d4N:yy")
    rejected(s, "d4 m m m", "FFF-5", "only 2 movement points")


def test_fff5_yellow_on_a_two_pip_gives_four_points():
    s = setup("B2d3N:y")
    play(s, "d3 m m m m")
    assert pieces(s) == "B2d7N:y"


def test_fff5_points_are_counted_after_the_removal():
    s = setup("B1d4N:y")
    rejected(s, "d4 -y m m", "FFF-5", "only 1 movement point")
    play(s, "d4 -y m")
    assert pieces(s) == "B1d5N"


# ---- FFF-6: what a point buys ------------------------------------------------------------------
def test_fff6_turn_and_step():
    s = setup("B2d4N")
    play(s, "d4 E m")
    assert pieces(s) == "B2e4E"


def test_fff6_upright_pieces_cannot_step():
    s = setup("B2d4U")
    rejected(s, "d4 m", "FFF-6", "points upright")


def test_fff6_step_blocked_by_a_piece_but_not_by_an_out_of_phase_one():
    s = setup("B2d4N,B1d5N,W1e5S:c")
    rejected(s, "d4 m", "FFF-20", "d5 is occupied by Black 1-pip")
    play(s, "d4 NE m")
    assert pieces(s) == "B1d5N,W1e5S:c,B2e5NE"


def test_fff6_no_step_off_the_board():
    s = setup("B2d8N")
    rejected(s, "d8 m", "FFF-20", "off the board")


# ---- FFF-7: nesting ------------------------------------------------------------------------------
def test_fff7_three_pip_pieces_carry_no_field():
    s = setup("B3d4N")
    rejected(s, "d4 +r", "FFF-7", "a 3-pip piece carries no field")


def test_fff7_two_pip_piece_takes_one_three_pip_field():
    s = setup("B2d4N")
    play(s, "d4 +r")
    assert pieces(s) == "B2d4N:r"
    assert field(s, 2).startswith("r32")
    t = setup("B2d4N:r")
    rejected(t, "d4 +g", "FFF-7", "at most 1 field")


def test_fff7_one_pip_piece_takes_a_two_pip_then_a_three_pip_of_one_colour():
    s = setup("B1d4N")
    play(s, "d4 +g")
    assert pieces(s) == "B1d4N:g" and field(s, 2).startswith("r33g23")
    s = setup("B1d4N:g")
    play(s, "d4 +g")
    assert pieces(s) == "B1d4N:gg" and field(s, 2).startswith("r33g22")
    s = setup("B1d4N:gg")
    rejected(s, "d4 +r", "FFF-7", "at most 2 fields")


def test_fff7_removal_takes_the_outermost_field():
    s = setup("B1d4N:gr")
    rejected(s, "d4 -g", "FFF-7", "outermost field of the piece on d4 is red")
    play(s, "d4 -r")
    assert pieces(s) == "B1d4N:g" and field(s, 2).startswith("r33g23")


def test_fff7_removing_with_no_field_is_refused():
    s = setup("B2d4N")
    rejected(s, "d4 -r", "FFF-7", "carries no field")


# ---- FFF-8: attack and defence -----------------------------------------------------------------
def test_fff8_plain_attack_one_against_one_captures():
    s = setup("B2d4N,W1d5S,W1h5S")
    rejected(s, "d4 x", "FFF-30", "captures (1 against 1): write it as xD")
    play(s, "d4 xN")
    assert pieces(s) == "B2d5N,W1h5S"


def test_fff8_upright_defender_has_defence_two():
    s = setup("B2d4N,W1d5U")
    rejected(s, "d4 xN", "FFF-30", "fails (1 against 2)")
    play(s, "d4 x")
    assert pieces(s) == "B2d4N,W1d5U"


def test_fff8_red_adds_to_attack():
    s = setup("B1d4N:r,W1d5U,W1h5S")
    play(s, "d4 xS")
    assert pieces(s) == "B1d5S:r,W1h5S"


def test_fff8_two_reds_against_blue_upright():
    s = setup("B1d4N:rr,W1d5U:b,W1h5S")  # 3 against 1 + 1 + 1 = 3
    play(s, "d4 xN")
    assert pieces(s) == "B1d5N:rr,W1h5S"
    t = setup("B1d4N:rr,W1d5U:bb,W1h5S")  # 3 against 4
    play(t, "d4 x")
    assert pieces(t) == "B1d4N:rr,W1d5U:bb,W1h5S"


def test_fff8_blue_adds_to_defence():
    s = setup("B2d4N,W2d5S:b")
    rejected(s, "d4 xN", "FFF-30", "fails (1 against 2)")


def test_fff8_upright_pieces_cannot_attack():
    s = setup("B2d4U,W1d5S")
    rejected(s, "d4 x", "FFF-8", "points upright")


# ---- FFF-9: capture ------------------------------------------------------------------------------
def test_fff9_capture_returns_fields_counts_the_loss_and_attacker_moves_in_with_any_facing():
    s = setup("B2d4N,W1d5S:gr,W1h5S")
    play(s, "d4 xU")
    assert pieces(s) == "B2d5U,W1h5S"
    assert field(s, 2) == "r33g33b33y33p33o33c33"
    assert field(s, 3) == "000/100"
    assert field(s, 4) == "0"


# ---- FFF-10, FFF-24: green -----------------------------------------------------------------------
def test_fff10_green_pushes_the_line_and_attacker_moves_in():
    s = setup("B1d4N:g,W1d5S,W2d6S")
    play(s, "d4 xN")
    assert pieces(s) == "B1d5N:g,W1d6S,W2d7S"


def test_fff10_green_push_off_the_board_captures_the_last_piece():
    s = setup("B1d6N:g,W1d7S,W2d8S:r,W2h5S")
    play(s, "d6 xW")
    assert pieces(s) == "W2h5S,B1d7W:g,W1d8S"
    assert field(s, 3) == "000/010"
    assert field(s, 2).startswith("r33")  # the red field went back to the pool (FFF-18)
    assert field(s, 4) == "0"


def test_fff10_green_with_red_pushes_an_upright_defender():
    s = setup("B1d4N:gr,W1d5U")
    play(s, "d4 xN")
    assert pieces(s) == "B1d5N:gr,W1d6U"


def test_fff10_out_of_phase_pieces_in_the_line_are_not_pushed_and_do_not_stop_it():
    s = setup("B1d4N:g,W1d5S,W2d6S:c,W2d7S")
    play(s, "d4 xN")
    # d5's W1 is pushed to d6 beside the clear W2; the line d6..d7 is: d6 has no in-phase
    # piece, so the push ends there and d7 does not move.
    assert pieces(s) == "B1d5N:g,W2d6S:c,W1d6S,W2d7S"


def test_fff24_line_takes_pieces_of_either_side_along_a_diagonal():
    s = setup("B1c3NE:g,W1d4S,B2e5N")
    play(s, "c3 xNE")
    assert pieces(s) == "B1d4NE:g,W1e5S,B2f6N"


def test_fff24_pushing_own_piece_off_is_its_owners_loss():
    s = setup("B1d6N:g,W1d7S,B2d8N,B2a4N")
    play(s, "d6 xN")
    assert pieces(s) == "B2a4N,B1d7N:g,W1d8S"
    assert field(s, 3) == "010/000"


def test_fff24_a_push_that_takes_nothing_off_is_not_a_capture():
    s = setup("B1d4N:g,W1d5S", count=7)
    play(s, "d4 xN")
    assert field(s, 4) == "8"


def test_fff24_line_of_several_ends_at_the_first_empty_square():
    s = setup("B1d2N:g,W1d3S,W2d4S,B2d5N,W3d7S")
    play(s, "d2 xN")
    assert pieces(s) == "B1d3N:g,W1d4S,W2d5S,B2d6N,W3d7S"


# ---- FFF-11, FFF-25: purple ---------------------------------------------------------------------
def test_fff11_purple_converts_when_a_piece_of_that_size_was_lost():
    s = setup("B1d4N:p,W1d5S:y,W1h5S", lost="100/000")
    rejected(s, "d4 xN", "FFF-30", "converts")
    events = play(s, "d4 xE/W")
    assert pieces(s) == "B1d4E:p,B1d5W,W1h5S"
    assert field(s, 3) == "000/000"  # Black's count lowered; White's stays (FFF-25)
    assert field(s, 2).startswith("r33g33b33y33")  # the yellow field went back
    assert field(s, 4) == "0"  # a piece changed sides (FFF-28)
    assert "converts White 1-pip" in s.describe(events[-1])


def test_fff11_purple_without_a_lost_piece_of_that_size_captures():
    s = setup("B1d4N:p,W2d5S,W2h5S", lost="100/000")
    rejected(s, "d4 xN/N", "FFF-30", "captures")
    play(s, "d4 xN")
    assert pieces(s) == "B1d5N:p,W2h5S"


def test_fff11_purple_with_green_converts_when_it_can():
    s = setup("B1d4N:pg,W1d5S,W1h5S", lost="100/000")
    play(s, "d4 xN/S")
    assert pieces(s) == "B1d4N:pg,B1d5S,W1h5S"


def test_fff11_purple_with_green_pushes_when_it_cannot_convert():
    s = setup("B1d4N:pg,W1d5S")
    play(s, "d4 xN")
    assert pieces(s) == "B1d5N:pg,W1d6S"


def test_fff25_a_piece_converted_away_counts_for_nobody():
    s = setup("B1d4N:p,W1d5S,W1h5S,W1a5S", lost="100/000")
    play(s, "d4 xN/N")
    assert field(s, 3) == "000/000"
    # White (two 1-pips left, none lost) cannot convert Black's 1-pips back.
    t = setup("W1d6S:p,B1d5N,B1h4N", side="W", lost="000/000")
    rejected(t, "d6 xN/N", "FFF-30", "captures")


# ---- FFF-12: orange -----------------------------------------------------------------------------
def test_fff12_orange_strips_on_a_one_short_attack():
    s = setup("B1d4N:o,W1d5S:by")
    play(s, "d4 xN")
    assert pieces(s) == "B1d4N:o,W1d5S"
    assert field(s, 2) == "r33g33b33y33p33o23c33"
    assert field(s, 4) == "1"  # a strip is no capture


def test_fff12_orange_does_nothing_when_two_short():
    s = setup("B1d4N:o,W1d5U:b")
    rejected(s, "d4 xN", "FFF-30", "fails (1 against 3)")
    play(s, "d4 x")
    assert pieces(s) == "B1d4N:o,W1d5U:b"


def test_fff12_orange_then_capture_in_one_turn():
    s = setup("B2d4N:o,W1d5S:b,W1h5S")
    play(s, "d4 xN xE")
    assert pieces(s) == "B2d5E:o,W1h5S"
    assert field(s, 3) == "000/100"


# ---- FFF-13: attacks cost points, may repeat -----------------------------------------------------
def test_fff13_failed_attacks_cost_their_points():
    s = setup("B2d4N,W1d5U")
    rejected(s, "d4 x x x", "FFF-5")
    play(s, "d4 x x")
    assert pieces(s) == "B2d4N,W1d5U"


def test_fff13_two_captures_in_one_turn():
    s = setup("B2d4N,W1d5S,W1d6S,W1h5S")
    play(s, "d4 xN xN")
    assert pieces(s) == "W1h5S,B2d6N"
    assert field(s, 3) == "000/200"


# ---- FFF-14, FFF-20, FFF-26: clear ---------------------------------------------------------------
def test_fff14_out_of_phase_piece_cannot_step_or_attack():
    s = setup("B1d4N:c,W1d5S")
    rejected(s, "d4~ m", "FFF-14", "out of phase")
    rejected(s, "d4~ x", "FFF-14", "out of phase")


def test_fff14_others_step_through_an_out_of_phase_piece():
    s = setup("B2d3N,W1d4S:c")
    play(s, "d3 m m")
    assert pieces(s) == "W1d4S:c,B2d5N"


def test_fff14_others_may_stop_on_its_square_and_cannot_attack_it():
    s = setup("B2d3N,W1d4S:c")
    rejected(s, "d3 x", "FFF-21", "holds only an out-of-phase piece")
    play(s, "d3 m")
    assert pieces(s) == "W1d4S:c,B2d4N"


def test_fff14_removing_clear_on_a_shared_square_destroys_both():
    s = setup("W1d4S:c,B2d4N,W1h5S,B2h4N", side="W")
    events = play(s, "d4 -c")
    assert pieces(s) == "B2h4N,W1h5S"
    assert field(s, 3) == "010/100"
    assert field(s, 2) == "r33g33b33y33p33o33c33"
    assert "destroy each other" in s.describe(events[-1])


def test_fff14_going_out_of_phase_on_a_shared_square_destroys_both():
    s = setup("B1d3N,W1d4S:c,W1h5S,B1h4N")
    play(s, "d3 m +c")
    assert pieces(s) == "B1h4N,W1h5S"
    assert field(s, 3) == "100/100"


def test_fff14_clear_stepping_through_a_line_of_two_out_of_phase_pieces():
    s = setup("B1d2N:y,W1d3S:c,B2d4N:c")
    play(s, "d2 m m")
    assert pieces(s) == "W1d3S:c,B2d4N:c,B1d4N:y"


def test_fff20_out_of_phase_piece_may_turn_and_change_fields():
    s = setup("B1d4N:c,W1h5S")
    play(s, "d4~ E +r")
    assert pieces(s) == "B1d4E:cr,W1h5S"


def test_fff20_in_phase_piece_blocks_even_with_a_clear_piece_beside_it():
    s = setup("B2d3N,W1d4S:c,W2d4S")
    with pytest.raises(IllegalAction, match="d4 is occupied by White 2-pip") as info:
        s.apply(parse_turn("d3 m"))  # the step itself is refused; typed, it reads as xN
    assert info.value.rule == "FFF-20"
    assert s.parse("d3 m") == s.parse("d3 xN")
    play(s, "d3 xN")  # the attack hits the in-phase White 2-pip
    assert pieces(s) == "W1d4S:c,B2d4N"


def test_fff20_removing_clear_brings_the_piece_into_phase_so_it_can_move():
    s = setup("B2d4N:c")
    play(s, "d4~ -c m")
    assert pieces(s) == "B2d5N"


def test_fff26_dropping_one_of_two_clears_destroys_nothing():
    s = setup("W1d4S:cc,B2d4N", side="W")
    play(s, "d4~ -c")
    assert pieces(s) == "W1d4S:c,B2d4N"


def test_fff26_adding_a_second_clear_destroys_nothing():
    s = setup("W1d4S:c,B2d4N", side="W")
    play(s, "d4~ +c")
    assert pieces(s) == "W1d4S:cc,B2d4N"


def test_fff26_owners_do_not_matter_own_pieces_destroy_each_other():
    s = setup("B1d4N:c,B2d4N,B2h4N,B1h3N")
    play(s, "d4~ -c")
    assert pieces(s) == "B1h3N,B2h4N"
    assert field(s, 3) == "110/000"


def test_fff26_selecting_the_in_phase_piece_on_a_shared_square():
    s = setup("B1d4N:c,B2d4N")
    play(s, "d4 m")
    assert pieces(s) == "B1d4N:c,B2d5N"


# ---- FFF-15, FFF-27: the end ---------------------------------------------------------------------
def test_fff15_losing_the_last_piece_of_a_size_loses():
    s = setup("B2d4N,W1d5S")
    events = play(s, "d4 xE")
    assert s.outcome.winners == (0,)
    assert s.outcome.describe() == "Player 1 wins (elimination)"
    assert s.describe(events[-1]) == "Game over: Player 1 wins (elimination)"
    assert s.legal_actions() == [] and s.current_players() == () and s.prompt() == ""


def test_fff15_both_eliminated_at_once_is_a_draw():
    s = setup("B1d3N,W1d4S:c")
    play(s, "d3 m +c")
    assert s.outcome.is_draw and s.outcome.reason == "both eliminated"


def test_fff27_nothing_may_follow_the_winning_attack_but_its_facing_is_chosen():
    s = setup("B2d4N,W1d5S")
    rejected(s, "d4 xN m", "FFF-27", "game is over")
    rejected(s, "d4 xN +r", "FFF-27", "game is over")
    play(s, "d4 xSW")
    assert pieces(s) == "B2d5SW"


def test_fff27_eliminating_only_oneself_loses():
    s = setup("B1d4N:c,B2d4N")  # Black's only 1-pip
    play(s, "d4~ -c")
    assert s.outcome.winners == (1,)


def test_fff27_destroyed_piece_ends_the_turn():
    s = setup("B1d4N:c,W2d4S,B1h3N,W2h6S")
    rejected(s, "d4~ -c N", "FFF-27", "destroyed")


def test_fff27_a_finished_game_refuses_turns():
    s = setup("B2d4N,W1d5S")
    play(s, "d4 xN")
    rejected(s, "pass", "FFF-27")


# ---- FFF-16, FFF-28: the no-capture limit -------------------------------------------------------
def test_fff16_two_hundred_turns_without_capture_draw():
    s = setup("B2d4N", count=199)
    assert s.outcome is None
    play(s, "pass")
    assert s.outcome.is_draw and "200 turns without a capture" in s.outcome.reason


def test_fff28_a_capture_resets_the_count_and_passes_count():
    s = setup("B2d4N,W1d5S,W1h5S", count=150)
    play(s, "pass")
    assert field(s, 4) == "151"
    play(s, "pass", "d4 xN")
    assert field(s, 4) == "0"


def test_fff28_limit_is_an_option_and_zero_turns_it_off():
    s = setup("B2d4N", count=5, limit=6)
    play(s, "pass")
    assert s.outcome.is_draw
    t = setup("B2d4N", count=5000, limit=0)
    play(t, "pass")
    assert t.outcome is None
    assert GAME.option("turn_limit").default == 200


# ---- FFF-17, FFF-18, FFF-19 ----------------------------------------------------------------------
def test_fff17_north_is_toward_rank_8_and_east_toward_file_h():
    s = setup("B2d4N")
    play(s, "d4 m E")
    s.apply(())
    play(s, "d5 m")
    assert pieces(s) == "B2e5E"


def test_fff17_turning_to_the_current_facing_wastes_the_point():
    s = setup("B1d4N")
    assert s.parse("d4 N") == ()  # legal, same result as the pass
    rejected(s, "d4 N m", "FFF-5")


def test_fff17_pushed_and_stripped_pieces_keep_their_facing():
    s = setup("B1d4N:g,W1d5SE")
    play(s, "d4 xN")
    assert pieces(s) == "B1d5N:g,W1d6SE"
    t = setup("B1d4N:o,W1d5W:b")
    play(t, "d4 xN")
    assert pieces(t) == "B1d4N:o,W1d5W"


def test_fff18_a_size_missing_from_the_pool_cannot_be_taken_and_the_other_size_never_stands_in():
    s = setup("B2d4N,W2e6S:r,W2f6S:r,W2g6S:r")
    assert field(s, 2).startswith("r30")
    rejected(s, "d4 +r", "FFF-18", "no 3-pip red field")
    assert "d4 +r" not in texts(s)
    t = setup("B1d4N,W2e6S:r,W2f6S:r,W2g6S:r")
    play(t, "d4 +r")  # a 1-pip piece's first field is 2-pip: still there
    assert "B1d4N:r" in pieces(t)


def test_fff19_remove_and_add_the_same_colour_is_the_pass():
    s = setup("B2d4N:r")
    assert s.parse("d4 -r +r") == ()
    assert "d4 -r +r" not in texts(s)
    play(s, "d4 -r +g")
    assert pieces(s) == "B2d4N:g"


def test_fff19_unused_points_are_lost():
    s = setup("B2d4N")
    play(s, "d4 m")
    assert pieces(s) == "B2d5N" and field(s, 1) == "W"


def test_fff19_inner_fields_act_too():
    s = setup("B1d4N:rg,W1d5U")  # red inside green: attack 2 against 2, and it pushes
    play(s, "d4 xN")
    assert pieces(s) == "B1d5N:rg,W1d6U"


# ---- FFF-21, FFF-22, FFF-23 ----------------------------------------------------------------------
def test_fff21_own_pieces_empty_squares_and_the_edge_are_no_target():
    s = setup("B2d4N,B1d5N,B2a4W")
    rejected(s, "d4 x", "FFF-21", "own piece")
    rejected(s, "d4 E x", "FFF-21", "is empty")
    rejected(s, "a4 x", "FFF-21", "off the board")


def test_fff21_an_attack_that_cannot_succeed_is_legal_and_costs_its_point():
    s = setup("B1d4N,W2d5U:b")
    play(s, "d4 x")
    assert pieces(s) == "B1d4N,W2d5U:b" and field(s, 4) == "1"


def test_fff22_convert_before_push_before_capture_and_strip_only_by_one():
    s = setup("B1d4N:pg,W1d5U,W1h5S", lost="100/000")  # 1 against 2: fails by one, no orange
    rejected(s, "d4 xN", "FFF-30", "fails")
    t = setup("B1d4N:po,W1d5U:b,W1h5S", lost="100/000")  # fails by two
    rejected(t, "d4 xN", "FFF-30", "fails (1 against 3)")
    u = setup("B1d4N:po,W1d5U,W1h5S", lost="100/000")  # fails by one: orange strips
    play(u, "d4 xNE")
    assert pieces(u) == "B1d4NE:po,W1d5U,W1h5S"


def test_fff23_strip_of_a_bare_upright_defender_still_gives_the_attacker_a_facing():
    s = setup("B1d4N:o,W1d5U")
    play(s, "d4 xE")
    assert pieces(s) == "B1d4E:o,W1d5U"


def test_fff23_plain_failure_gives_no_new_facing():
    s = setup("B1d4N,W1d5U")
    rejected(s, "d4 xE", "FFF-30", "write it as x")


# ---- FFF-29: same position, one action -----------------------------------------------------------
def test_fff29_different_sequences_with_the_same_result_are_one_action():
    s = setup("B2d4N")
    assert s.parse("d4 NE E") == s.parse("d4 E")
    listed = texts(s)
    assert "d4 E" in listed and "d4 NE E" not in listed
    assert len(listed) == len(set(listed))


def test_fff29_two_pieces_converting_the_same_way_are_one_action():
    s = setup("B1c4E:p,B1e4W:p,W1d4S,W1h5S", lost="100/000")
    # Both can convert d4 and keep their own facing: the results are the same position.
    a = s.parse("c4 xE/N")
    b = s.parse("e4 xW/N")
    assert a == b and s.notation(a) == "c4 xE/N"
    assert "e4 xW/N" not in texts(s)


def test_fff10_attacker_moves_in_beside_an_out_of_phase_piece_on_the_defenders_square():
    s = setup("B1d4N:g,W1d5S,B2d5N:c")
    play(s, "d4 xN")
    assert pieces(s) == "B2d5N:c,B1d5N:g,W1d6S"


def test_fff11_converting_the_last_piece_of_a_size_wins():
    s = setup("B1d4N:p,W2d5S,B2h4N", lost="010/000")
    play(s, "d4 xN/S")
    assert pieces(s) == "B1d4N:p,B2h4N,B2d5S"
    assert s.outcome.winners == (0,) and s.outcome.reason == "elimination"


def test_fff27_pushing_off_ones_own_last_piece_of_a_size_loses():
    s = setup("B1d6N:g,W1d7S,B3d8N")  # Black's only 3-pip is pushed off
    play(s, "d6 xN")
    assert s.outcome.winners == (1,)


def test_fff14_a_piece_on_a_shared_square_can_step_away_from_the_out_of_phase_one():
    s = setup("W1d4S:c,B2d4N")
    play(s, "d4 m")
    assert pieces(s) == "W1d4S:c,B2d5N"
