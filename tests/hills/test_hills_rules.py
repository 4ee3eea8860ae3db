"""Scenario tests of the turn, movement, combat and card rules (BSH-5..BSH-37)."""

from __future__ import annotations

import pytest
from hills_helpers import impeded, kinds, play, position, units, where

from boardct.core.errors import IllegalAction
from boardct.games.hills.board import INDEX

# Squads not named in a scenario stay on their HQ: player 0 at (-2,0), player 1 at (2,0).


def snapshot(s):
    return (s.view(0), s.view(1), s.deck[:], s.hand[:], s.st[:], s.boosted)


def rejected(s, command, rule):
    before = snapshot(s)
    with pytest.raises(IllegalAction) as err:
        s.apply(s.parse(command))
    assert err.value.rule == rule
    assert snapshot(s) == before
    return str(err.value)


# -- BSH-5: one squad per hex --------------------------------------------------------------------
def test_bsh5_cannot_move_onto_own_squad():
    s = position(squads={"0I": (0, 0, 6), "0R": (1, 0, 6)})
    msg = rejected(s, "I move E", "BSH-27")
    assert "own squad" in msg


def test_bsh5_own_hq_holds_any_number_of_own_squads():
    s = position(squads={"0I": (-1, 0, 6)})
    play(s, "I move W")
    assert where(s, "0I") == where(s, "0R") == where(s, "0M") == (-2, 0)


def test_bsh5_squad_at_zero_units_is_removed():
    s = position(squads={"0M": (0, 0, 4), "1I": (1, 0, 2)})
    play(s, "M attack E I")
    assert units(s)["1I"] == 0 and where(s, "1I") is None
    assert s.view(0)["board"]["squads"][3] == {"player": 1, "kind": "I", "units": 0}


# -- BSH-7: the turn -----------------------------------------------------------------------------
def test_bsh7_each_squad_acts_once():
    s = position()
    play(s, "I move E")
    msg = rejected(s, "I move E", "BSH-7")
    assert "already acted" in msg


def test_bsh7_turn_ends_by_itself_when_every_squad_has_acted():
    s = position()
    ev = play(s, "I move E", "R wait", "M wait")
    assert kinds(ev)[-3:] == ["auto-end", "end", "turn"]
    assert s.cur == 1 and s.tdone == [1, 0]


def test_bsh7_one_card_per_turn():
    s = position(squads={"1I": (1, 0, 6)}, hands=((0, 2, 0, 0), (0, 0, 0, 0)))
    play(s, "play artillery I")
    msg = rejected(s, "play artillery I", "BSH-7")
    assert "already played" in msg


def test_bsh7_action_of_the_other_player_is_refused():
    s = position()
    before = snapshot(s)
    with pytest.raises(IllegalAction, match="Player 1's turn"):
        s.apply(s.parse("I wait"), 1)
    assert snapshot(s) == before


# -- BSH-8: moving -------------------------------------------------------------------------------
def test_bsh8_move_reveals_the_tile_to_both():
    s = position(tiles={(-1, 0): "F"})
    assert s.view(1)["board"]["hexes"][INDEX[(-1, 0)]]["tile"] is None
    ev = play(s, "I move E")
    assert ev[0] == ("reveal", INDEX[(-1, 0)], 2, False)
    assert s.view(1)["board"]["hexes"][INDEX[(-1, 0)]]["tile"] == "F"
    assert s.describe(ev[0]) == "The tile at (-1,0) is revealed: forest."


def test_bsh8_mech_stays_when_the_revealed_tile_is_a_mountain():
    s = position(tiles={(-1, 0): "M"})
    ev = play(s, "M move E")
    assert kinds(ev) == ["reveal", "stopped"]
    assert where(s, "0M") == (-2, 0)
    rejected(s, "M move W", "BSH-7")


def test_bsh8_mech_entering_forest_is_impeded():
    s = position(tiles={(-1, 0): "F"})
    play(s, "M move E")
    assert impeded(s, "0M") and where(s, "0M") == (-1, 0)


def test_bsh8_infantry_entering_forest_is_not_impeded():
    s = position(tiles={(-1, 0): "F"})
    play(s, "I move E")
    assert not impeded(s, "0I")


@pytest.mark.parametrize("kind", ["I", "R", "M"])
def test_bsh8_any_squad_entering_the_enemy_hq_is_impeded(kind):
    s = position(squads={"0" + kind: (1, 0, 3), "1I": (0, 2, 6), "1R": (1, 2, 6),
                         "1M": (-1, 2, 4)})
    play(s, f"{kind} move E")
    assert where(s, "0" + kind) == (2, 0) and impeded(s, "0" + kind)


def test_bsh8_move_onto_an_enemy_is_an_attack():
    s = position(squads={"0I": (0, 0, 6), "1R": (1, 0, 6)})
    assert s.parse("I move E") == s.parse("I attack E R")
    ev = play(s, "I move E")
    assert ev[0][0] == "attack"


# -- BSH-9 / BSH-26: impediment ------------------------------------------------------------------
def test_bsh9_impeded_squad_must_deimpede_first():
    s = position(squads={"0M": (0, 0, 4, True)})
    msg = rejected(s, "M move E", "BSH-26")
    assert "M deimpede" in msg
    rejected(s, "M wait", "BSH-26")
    play(s, "M deimpede")
    assert not impeded(s, "0M")
    rejected(s, "M move E", "BSH-7")


def test_bsh9_deimpede_only_when_impeded():
    s = position()
    rejected(s, "I deimpede", "BSH-9")


def test_bsh26_impeded_squad_cannot_attack():
    s = position(squads={"0M": (0, 0, 4, True), "1I": (1, 0, 6)})
    rejected(s, "M attack E I", "BSH-26")


def test_bsh26_player_may_end_without_deimpeding_and_the_state_lasts():
    s = position(squads={"0M": (0, 0, 4, True)})
    play(s, "end", "end")
    assert s.cur == 0 and impeded(s, "0M")
    assert "M deimpede" in [s.notation(a) for a in s.legal_actions()]


def test_bsh26_squad_that_becomes_impeded_acts_no_more_this_turn():
    s = position(tiles={(-1, 0): "F"}, hands=((0, 0, 0, 1), (0, 0, 0, 0)))
    play(s, "M move E")
    rejected(s, "M deimpede", "BSH-26")
    rejected(s, "play boost M", "BSH-34")


def test_bsh26_impeded_defender_retaliates_with_tile_bonus():
    # Rocketeer impeded on a mountain: Infantry deals 3 - 1 = 2, it answers 2 + 1 = 3.
    s = position(tiles={(1, 0): "M"}, squads={"0I": (0, 0, 6), "1R": (1, 0, 6, True)})
    play(s, "I attack E R")
    assert units(s)["1R"] == 4 and units(s)["0I"] == 3


# -- BSH-10 / BSH-12: combat ---------------------------------------------------------------------
@pytest.mark.parametrize("att,dfd,dmg", [("I", "I", 1), ("I", "R", 3), ("I", "M", 2),
                                         ("R", "I", 2), ("R", "R", 1), ("R", "M", 3),
                                         ("M", "I", 4), ("M", "R", 2), ("M", "M", 1)])
def test_bsh10_atk_table_on_plains(att, dfd, dmg):
    s = position(squads={"0" + att: (0, 0, 9), "1" + dfd: (1, 0, 9)})
    play(s, f"{att} attack E {dfd}")
    assert units(s)["1" + dfd] == 9 - dmg


def test_bsh10_squad_size_never_changes_atk():
    s = position(squads={"0R": (0, 0, 1), "1M": (1, 0, 9)})
    play(s, "R attack E M")
    assert units(s)["1M"] == 6


def test_bsh12_attacker_on_mountain_gets_plus_one_atk():
    s = position(tiles={(0, 0): "M"}, squads={"0I": (0, 0, 6), "1R": (1, 0, 6)})
    play(s, "I attack E R")
    assert units(s)["1R"] == 2  # 3 + 1


def test_bsh12_forest_defender_gets_plus_one_def():
    s = position(tiles={(1, 0): "F"}, squads={"0I": (0, 0, 6), "1R": (1, 0, 6)})
    play(s, "I attack E R")
    assert units(s)["1R"] == 4  # 3 - 1
    assert units(s)["0I"] == 4  # forest gives no ATK: 2


def test_bsh10_damage_is_floored_at_zero():
    s = position(tiles={(1, 0): "F"}, squads={"0I": (0, 0, 6), "1I": (1, 0, 6)})
    ev = play(s, "I attack E I")
    assert ("attack", 0, 3, INDEX[(1, 0)], 0) in ev
    assert units(s)["1I"] == 6 and units(s)["0I"] == 5


def test_bsh10_attackers_tile_def_does_not_apply_to_retaliation():
    s = position(tiles={(0, 0): "F"}, squads={"0I": (0, 0, 6), "1M": (1, 0, 6)})
    play(s, "I attack E M")
    assert units(s)["0I"] == 2  # Mech vs Infantry 4, forest DEF ignored


def test_bsh10_attack_on_an_empty_hex_is_rejected():
    s = position(squads={"0I": (0, 0, 6)})
    rejected(s, "I attack E R", "BSH-10")


def test_bsh12_hq_gives_no_bonus():
    s = position(squads={"1I": (-1, 0, 6)}, to_move=0)
    play(s, "R attack E I")  # from the HQ: 2
    assert units(s)["1I"] == 4 and units(s)["0R"] == 3


# -- BSH-11 / BSH-31: moving in ------------------------------------------------------------------
def test_bsh11_attacker_moves_in_after_a_kill():
    s = position(squads={"0R": (0, 0, 6), "1M": (1, 0, 3)})
    ev = play(s, "R attack E M")
    assert "move-in" in kinds(ev) and "retaliate" not in kinds(ev)
    assert where(s, "0R") == (1, 0)


def test_bsh11_mech_does_not_move_in_onto_a_mountain():
    s = position(tiles={(1, 0): "M"}, squads={"0M": (0, 0, 4), "1I": (1, 0, 2)})
    play(s, "M attack E I")
    assert units(s)["1I"] == 0 and where(s, "0M") == (0, 0)


def test_bsh31_mech_moving_in_to_forest_is_impeded():
    s = position(tiles={(1, 0): "F"}, squads={"0M": (0, 0, 4), "1I": (1, 0, 2)})
    play(s, "M attack E I")
    assert where(s, "0M") == (1, 0) and impeded(s, "0M")


def test_bsh31_infantry_moving_in_to_the_enemy_hq_starts_seize():
    s = position(squads={"0I": (1, 0, 6), "1I": (2, 0, 1), "1R": (0, 2, 6), "1M": (1, 2, 4)})
    ev = play(s, "I attack E I")
    assert where(s, "0I") == (2, 0) and impeded(s, "0I") and s.seize == [1, 0]
    assert ("seize", 0, 1) in ev


def test_bsh31_kill_that_routs_still_moves_in_then_the_game_ends():
    s = position(squads={"0R": (0, 0, 6), "1I": None, "1R": None, "1M": (1, 0, 1)})
    ev = play(s, "R attack E M")
    assert where(s, "0R") == (1, 0)
    assert kinds(ev)[-2:] == ["move-in", "rout"]
    assert s.outcome.winners == (0,) and s.outcome.reason == "rout"
    assert s.current_players() == () and s.legal_actions() == []


# -- BSH-13 / BSH-14 / BSH-21 / BSH-22 / BSH-25: stars and cards ---------------------------------
def test_bsh13_first_entry_draws_a_card_and_uses_up_the_star():
    s = position(tiles={(-1, 0): "P*"}, deck=("artillery", "boost"))
    ev = play(s, "I move E")
    assert ("draw", 0, 0) in ev
    assert s.hand[0:4] == [0, 1, 0, 0] and len(s.deck) == 1
    assert s.view(1)["board"]["hands"] == {"1": []} and s.view(1)["board"]["hand_sizes"] == [1, 0]
    assert s.view(0)["board"]["hands"] == {"0": ["artillery"]}
    play(s, "end", "end", "I move NE", "R move E")
    assert where(s, "0R") == (-1, 0) and len(s.deck) == 1  # the star is used up


def test_bsh13_draw_event_never_names_the_card():
    s = position(tiles={(-1, 0): "P*"}, deck=("boost",))
    ev = play(s, "I move E")
    text = " ".join(s.describe(e) for e in ev)
    assert "boost" not in text.lower() and "draws a bonus card" in text


@pytest.mark.parametrize("kind,gain", [("I", 2), ("R", 2), ("M", 1)])
def test_bsh14_survivors_found_applies_at_once(kind, gain):
    s = position(tiles={(-1, 0): "P*"}, deck=("survivors",))
    ev = play(s, f"{kind} move E")
    assert units(s)["0" + kind] == {"I": 6, "R": 6, "M": 4}[kind] + gain
    assert ("survivors", "IRM".index(kind), gain) in ev
    assert s.hand[0:4] == [0, 0, 0, 0] and s.discard == [0]
    assert not s.card_played  # BSH-25: not the turn's card


@pytest.mark.parametrize("total,gain", [(24, 1), (25, 0), (23, 2)])
def test_bsh22_survivors_within_the_25_unit_cap(total, gain):
    s = position(tiles={(-1, 0): "P*"}, deck=("survivors",),
                 squads={"0I": (-2, 0, total - 10), "0R": (-2, 0, 6), "0M": (-2, 0, 4)})
    play(s, "I move E")
    assert units(s)["0I"] == total - 10 + gain


def test_bsh21_star_with_an_empty_deck_draws_nothing_and_is_used_up():
    s = position(tiles={(-1, 0): "P*"})
    ev = play(s, "I move E")
    assert ("deck-empty", 0) in ev and s.star[INDEX[(-1, 0)]] == 2
    assert s.view(0)["board"]["hexes"][INDEX[(-1, 0)]]["star"] is False


def test_bsh21_discard_and_deck_size_are_public():
    s = position(squads={"1I": (1, 0, 6)}, hands=((0, 1, 0, 0), (0, 0, 0, 0)),
                 deck=("ammo", "boost"))
    play(s, "play artillery I")
    assert s.view(1)["board"]["discard"] == ["artillery"] and s.view(1)["board"]["deck_size"] == 2


def test_bsh25_card_drawn_this_turn_may_be_played_this_turn():
    s = position(tiles={(-1, 0): "P*"}, deck=("artillery",))
    play(s, "I move E", "play artillery R")
    assert units(s)["1R"] == 5


def test_bsh25_card_before_any_squad_acts():
    s = position(hands=((0, 1, 0, 0), (0, 0, 0, 0)))
    play(s, "play artillery M")
    assert units(s)["1M"] == 3 and s.st[:3] == [0, 0, 0]


def test_bsh13_cannot_play_a_card_not_held():
    s = position()
    msg = rejected(s, "play artillery I", "BSH-13")
    assert "no Artillery Strike" in msg


# -- BSH-15 / BSH-32 / BSH-33 / BSH-34: the cards ------------------------------------------------
def test_bsh32_artillery_hits_any_enemy_for_exactly_one_ignoring_def():
    s = position(tiles={(1, 1): "M"}, squads={"1M": (1, 1, 4, True)},
                 hands=((0, 1, 0, 0), (0, 0, 0, 0)))
    ev = play(s, "play artillery M")
    assert units(s)["1M"] == 3
    assert s.describe(ev[0]) == "Player 1 plays Artillery Strike on Player 2's Mech."


def test_bsh32_artillery_kill_resets_seize_and_may_rout():
    s = position(squads={"1I": (-2, 0, 1, True), "1R": None, "1M": None, "0I": (0, 0, 6),
                         "0R": (0, 1, 6), "0M": (0, -1, 4)},
                 seize=(0, 2), hands=((0, 1, 0, 0), (0, 0, 0, 0)))
    ev = play(s, "play artillery I")
    assert ("seize-reset", 1) in ev and s.seize == [0, 0]
    assert s.outcome.winners == (0,) and s.outcome.reason == "rout"


def test_bsh33_extra_ammo_strikes_twice_then_one_retaliation():
    s = position(squads={"0I": (0, 0, 6), "1R": (1, 0, 7)}, hands=((0, 0, 1, 0), (0, 0, 0, 0)))
    ev = play(s, "play ammo I E R")
    assert units(s)["1R"] == 1 and units(s)["0I"] == 4
    assert kinds(ev).count("retaliate") == 1 and s.card_played and s.discard == [2]


def test_bsh33_second_hit_skipped_when_the_first_kills():
    s = position(squads={"0I": (0, 0, 6), "1R": (1, 0, 3)}, hands=((0, 0, 1, 0), (0, 0, 0, 0)))
    ev = play(s, "play ammo I E")
    assert kinds(ev).count("damage") == 1 and "ammo" not in kinds(ev)
    assert where(s, "0I") == (1, 0)


def test_bsh33_ammo_is_the_squads_action_and_the_turns_card():
    s = position(squads={"0I": (0, 0, 6), "1R": (1, 0, 9)},
                 hands=((0, 1, 1, 0), (0, 0, 0, 0)))
    play(s, "play ammo I E R")
    rejected(s, "I attack E R", "BSH-7")
    rejected(s, "play artillery R", "BSH-7")


def test_bsh33_ammo_needs_an_attack():
    s = position(squads={"0I": (0, 0, 6)}, hands=((0, 0, 1, 0), (0, 0, 0, 0)))
    rejected(s, "play ammo I E R", "BSH-10")
    assert not any(a // 1000 == 7 for a in s.legal_actions())


def test_bsh34_boost_gives_a_fresh_squad_two_moves():
    s = position(hands=((0, 0, 0, 1), (0, 0, 0, 0)))
    play(s, "play boost R", "R move E", "R move E")
    assert where(s, "0R") == (0, 0)
    rejected(s, "R move E", "BSH-7")


def test_bsh34_boost_after_a_move():
    s = position(hands=((0, 0, 0, 1), (0, 0, 0, 0)))
    play(s, "R move E", "play boost R", "R move NE")
    assert where(s, "0R") == (0, -1)


def test_bsh34_extra_action_may_be_an_attack_and_move_in_does_not_use_it():
    s = position(squads={"0R": (-1, 0, 6), "1M": (0, 0, 3), "1I": (1, 0, 1)},
                 hands=((0, 0, 0, 1), (0, 0, 0, 0)))
    play(s, "play boost R", "R attack E M")
    assert where(s, "0R") == (0, 0)
    play(s, "R attack E I")
    assert where(s, "0R") == (1, 0) and units(s)["1I"] == 0


def test_bsh34_extra_action_must_be_a_move_not_a_wait():
    s = position(hands=((0, 0, 0, 1), (0, 0, 0, 0)))
    play(s, "play boost R", "R move E")
    rejected(s, "R wait", "BSH-34")


def test_bsh34_boosted_squad_that_waits_loses_it():
    s = position(hands=((0, 0, 0, 1), (0, 0, 0, 0)))
    play(s, "play boost R", "R wait")
    rejected(s, "R move E", "BSH-7")


def test_bsh34_boosted_squad_impeded_by_its_first_move_loses_it():
    s = position(tiles={(-1, 0): "F"}, hands=((0, 0, 0, 1), (0, 0, 0, 0)))
    play(s, "play boost M", "M move E")
    rejected(s, "M move E", "BSH-26")


def test_bsh34_boost_not_on_a_squad_that_waited():
    s = position(hands=((0, 0, 0, 1), (0, 0, 0, 0)))
    play(s, "I wait")
    rejected(s, "play boost I", "BSH-34")


def test_bsh34_boost_not_on_an_impeded_squad():
    s = position(squads={"0M": (0, 0, 4, True)}, hands=((0, 0, 0, 1), (0, 0, 0, 0)))
    rejected(s, "play boost M", "BSH-34")


def test_bsh34_boost_does_not_carry_to_the_next_turn():
    s = position(hands=((0, 0, 0, 1), (0, 0, 0, 0)))
    play(s, "play boost R", "end", "end", "R move E")
    rejected(s, "R move E", "BSH-7")
    assert s.boosted == -1


def test_bsh27_mech_stopped_by_a_mountain_cannot_move_again_even_boosted():
    s = position(tiles={(-1, 0): "M"}, hands=((0, 0, 0, 1), (0, 0, 0, 0)))
    play(s, "play boost M", "M move E")
    rejected(s, "M move NE", "BSH-7")


# -- BSH-16 / BSH-35: rout -----------------------------------------------------------------------
def test_bsh35_mover_whose_last_squad_dies_to_retaliation_loses():
    s = position(squads={"0I": (0, 0, 2), "0R": None, "0M": None, "1M": (1, 0, 6)})
    ev = play(s, "I attack E M")
    assert ev[-1] == ("rout", 0)
    assert s.outcome.winners == (1,) and s.outcome.describe() == "Player 2 wins (rout)"


def test_bsh16_game_over_refuses_further_actions():
    s = position(squads={"0I": (0, 0, 2), "0R": None, "0M": None, "1M": (1, 0, 6)})
    play(s, "I attack E M")
    with pytest.raises(IllegalAction, match="game is over"):
        s.apply(0)


# -- BSH-17 / BSH-36: seize ----------------------------------------------------------------------
def seize_position():
    return position(squads={"0I": (1, 0, 6), "1I": (0, 2, 6), "1R": (1, 2, 6),
                            "1M": (-1, 2, 4)})


def test_bsh17_infantry_holding_the_enemy_hq_for_three_turns_wins():
    s = seize_position()
    ev = play(s, "I move E")
    assert s.seize == [1, 0]
    ev = play(s, "end", "end")
    assert ("seize", 0, 2) in ev and s.outcome is None
    ev = play(s, "I deimpede", "end", "end")
    assert ev[-2:] == [("seize", 0, 3), ("captured", 0)]
    assert s.outcome.winners == (0,) and s.outcome.reason == "seize"


def test_bsh17_leaving_resets_the_counter():
    s = seize_position()
    play(s, "I move E", "end", "end", "I deimpede")
    assert s.seize == [2, 0]
    s = seize_position()
    play(s, "I move E", "end", "end")
    s.imp[0] = False  # deimpeded earlier: now it walks out
    ev = play(s, "I move W")
    assert ("seize-reset", 0) in ev and s.seize == [0, 0]
    play(s, "end", "end")
    assert s.seize == [0, 0]


def test_bsh17_dying_resets_the_counter():
    s = seize_position()
    play(s, "I move E", "end")
    s.arrange({"1M": (2, -1, 4), "0I": (2, 0, 3, True)}, to_move=1)
    ev = play(s, "M attack SE I")
    assert ("destroyed", 0) in ev and ("seize-reset", 0) in ev and s.seize == [0, 0]


def test_bsh36_rocketeer_on_the_enemy_hq_starts_no_counter():
    s = position(squads={"0R": (1, 0, 6), "1I": (0, 2, 6), "1R": (1, 2, 6), "1M": (-1, 2, 4)})
    play(s, "R move E")
    assert impeded(s, "0R") and s.seize == [0, 0]


def test_bsh36_second_boosted_move_into_the_hq_starts_the_counter():
    s = position(squads={"0I": (0, 0, 6), "1I": (0, 2, 6), "1R": (1, 2, 6), "1M": (-1, 2, 4)},
                 hands=((0, 0, 0, 1), (0, 0, 0, 0)))
    play(s, "play boost I", "I move E", "I move E")
    assert where(s, "0I") == (2, 0) and s.seize == [1, 0]


def test_bsh36_both_players_may_have_a_counter():
    s = position(squads={"0I": (1, 0, 6), "1I": (-1, 0, 6), "0R": (0, 2, 6), "0M": (1, 2, 4),
                         "1R": (0, -2, 6), "1M": (1, -2, 4)})
    play(s, "I move E", "end", "I move W")
    assert s.seize == [1, 1]


def test_bsh23_enemy_hq_holds_one_visitor_never_with_its_owner():
    s = position(squads={"0I": (2, 0, 6, True), "0R": (1, 0, 6), "1I": (0, 2, 6),
                         "1R": (1, 2, 6), "1M": (-1, 2, 4)}, seize=(1, 0))
    rejected(s, "R move E", "BSH-27")


# -- BSH-30: an HQ holding several enemy squads --------------------------------------------------
def test_bsh30_attacker_names_one_of_several_squads_on_an_hq():
    s = position(squads={"0R": (1, 0, 6)})
    msg = rejected(s, "R move E", "BSH-38")
    assert "several enemy squads" in msg
    with pytest.raises(IllegalAction, match="name the target"):
        s.parse("R attack E")
    play(s, "R attack E M")
    assert units(s) == {"0I": 6, "0R": 4, "0M": 4, "1I": 6, "1R": 6, "1M": 1}


def test_bsh30_no_move_in_while_other_enemies_remain_on_the_hq():
    s = position(squads={"0R": (1, 0, 6), "1M": (2, 0, 2)})
    play(s, "R attack E M")
    assert units(s)["1M"] == 0 and where(s, "0R") == (1, 0)


# -- BSH-24: ending the turn ---------------------------------------------------------------------
def test_bsh24_end_at_any_time_even_before_acting():
    s = position()
    ev = play(s, "end")
    assert ev == [("end", 0), ("turn", 1, 1)] and s.cur == 1


def test_bsh24_holding_a_playable_card_the_player_must_end_explicitly():
    s = position(hands=((0, 1, 0, 0), (0, 0, 0, 0)))
    play(s, "I wait", "R wait", "M wait")
    assert s.cur == 0
    assert [s.notation(a) for a in s.legal_actions()] == [
        "end", "play artillery I", "play artillery R", "play artillery M"]


def test_bsh24_an_unplayable_ammo_card_does_not_hold_the_turn():
    s = position(hands=((0, 0, 1, 0), (0, 0, 0, 0)))
    play(s, "I wait", "R wait", "M wait")
    assert s.cur == 1


def test_bsh24_a_boost_with_an_eligible_squad_holds_the_turn():
    s = position(hands=((0, 0, 0, 1), (0, 0, 0, 0)))
    play(s, "I move E", "R wait", "M wait")
    assert s.cur == 0 and "play boost I" in [s.notation(a) for a in s.legal_actions()]
    play(s, "play boost I", "I move E")
    assert s.cur == 1


# -- BSH-27: rejected moves ----------------------------------------------------------------------
def test_bsh27_move_off_the_map_is_rejected():
    s = position(squads={"0I": (-3, 0, 6)})
    msg = rejected(s, "I move W", "BSH-27")
    assert "off the map" in msg


def test_bsh27_mech_onto_a_revealed_mountain_is_rejected_but_face_down_is_legal():
    s = position(tiles={(-1, 0): "M", (-1, -1): "M"}, reveal=((-1, 0),))
    rejected(s, "M move E", "BSH-27")
    assert s.parse("M move NE") in s.legal_actions()


# -- BSH-28: stars and stopped Mechs -------------------------------------------------------------
def test_bsh28_mech_stopped_by_a_starred_mountain_draws_nothing():
    s = position(tiles={(-1, 0): "M*"}, deck=("artillery",))
    ev = play(s, "M move E")
    assert "draw" not in kinds(ev) and s.star[INDEX[(-1, 0)]] == 1 and len(s.deck) == 1
    assert s.view(1)["board"]["hexes"][INDEX[(-1, 0)]]["star"] is True
    play(s, "I move E")
    assert s.hand[0:4] == [0, 1, 0, 0]


def test_bsh28_move_in_draws_from_a_star():
    s = position(tiles={(1, 0): "P*"}, deck=("boost",),
                 squads={"0R": (0, 0, 6), "1M": (1, 0, 1)})
    s.star[INDEX[(1, 0)]] = 1  # a star nobody has used (placed by the scenario)
    play(s, "R attack E M")
    assert s.hand[0:4] == [0, 0, 0, 1]


# -- BSH-18 / BSH-37: the turn limit -------------------------------------------------------------
def test_bsh37_draw_when_both_players_completed_the_limit():
    s = position(limit="2")
    play(s, "end", "end", "end")
    assert s.outcome is None
    ev = play(s, "end")
    assert ev[-1] == ("turn-limit", 2)
    assert s.outcome.is_draw and s.outcome.returns == (0.5, 0.5)
    assert s.outcome.describe() == "draw (turn limit)"


def test_bsh37_a_pending_seize_does_not_complete():
    s = position(limit="2", squads={"0I": (1, 0, 6), "1I": (0, 2, 6), "1R": (1, 2, 6),
                                    "1M": (-1, 2, 4)})
    play(s, "I move E", "end", "end")
    assert s.seize == [2, 0]
    play(s, "end", "end")
    assert s.outcome.reason == "turn limit"


def test_bsh18_turn_limit_option_zero_means_none():
    s = position(turn_limit=0, limit=None)
    for _ in range(400):
        play(s, "end")
    assert s.outcome is None


def test_bsh37_turns_ended_automatically_count():
    s = position(limit="1")
    play(s, "I wait", "R wait", "M wait", "I wait", "R wait", "M wait")
    assert s.outcome.reason == "turn limit"


# -- more named scenarios ------------------------------------------------------------------------
def test_bsh15_each_card_in_one_turn_sequence():
    """Artillery: one enemy squad loses 1; Boost: two moves; Extra Ammo: stage 1 twice."""
    s = position(squads={"0I": (0, 0, 6), "1R": (1, 0, 8), "1M": (2, 0, 4)},
                 hands=((0, 1, 1, 1), (0, 0, 0, 0)))
    play(s, "play artillery M")
    assert units(s)["1M"] == 3
    play(s, "end", "end", "play ammo I E R")
    assert units(s)["1R"] == 2
    play(s, "end", "end", "play boost M", "M move E", "M move NE")
    assert where(s, "0M") == (0, -1)


def test_bsh23_a_squad_destroyed_in_stage_1_deals_no_retaliation():
    s = position(squads={"0R": (0, 0, 1), "1M": (1, 0, 3)})
    ev = play(s, "R attack E M")
    assert "retaliate" not in kinds(ev) and units(s)["0R"] == 1


def test_bsh24_turn_ends_by_itself_after_the_last_playable_card():
    s = position(hands=((0, 1, 0, 0), (0, 0, 0, 0)))
    play(s, "I wait", "R wait", "M wait")
    assert s.cur == 0
    ev = play(s, "play artillery R")
    assert ("auto-end", 0) in ev and s.cur == 1


def test_bsh24_a_boost_with_no_eligible_squad_does_not_hold_the_turn():
    s = position(hands=((0, 0, 0, 1), (0, 0, 0, 0)))
    play(s, "I wait", "R wait")
    assert s.cur == 0
    play(s, "M wait")
    assert s.cur == 1
