"""Rule scenarios: the rulebook's own examples and one or more named scenarios per ruling."""

from __future__ import annotations

from fractions import Fraction

import pytest
from ctf2187_helpers import Dice, engine, events, fresh_log, game, place

from boardct.core.outcome import Termination
from boardct.games.ctf2187.geometry import FA, LS, RA, RS, arc, bearing
from boardct.games.ctf2187.units import (
    DAMAGED,
    DESTROYED,
    EJECTED,
    FUNCTIONAL,
    KNEELING,
    PRONE,
    STANDING,
    WRECKED,
)

# -- the rulebook's examples ---------------------------------------------------------------------


def test_rulebook_ridge3_standing_bot_fires_from_elevation_5():
    """4.7 / CTF-5: a Bot standing on a Ridge-3 fires from 3 + 2 = 5."""
    st = game({(8, 8): "R3"})
    b = place(st, 1, 8, 8)
    assert engine.bot_elevation(st, b) == 5


def test_rulebook_prone_bot_in_open_fires_from_2():
    st = game()
    b = place(st, 1, 8, 8, posture=PRONE)
    assert engine.bot_elevation(st, b) == 2


def test_rulebook_lake1_standing_bot_fires_from_2_blocked_by_light_woods_2():
    """4.7 / CTF-11: standing in a Lake-1 (ground 0) fires from 2; Light Woods of total
    elevation 2 on the way block the shot."""
    st = game({(5, 10): "~0", (6, 10): "w1"})
    shooter = place(st, 1, 5, 10, facing=3)
    target = place(st, 2, 9, 10, facing=7)
    e0 = engine.bot_elevation(st, shooter)
    assert e0 == 2
    path, blocked = engine.fire_track(st, 5, 10, e0, 9, 10, engine.bot_elevation(st, target))
    assert blocked
    assert path == [(6, 10, 2)]


def test_rulebook_same_shot_from_open_ground_clears_the_woods():
    st = game({(6, 10): "w1"})
    place(st, 1, 5, 10, facing=3)
    place(st, 2, 9, 10, facing=7)
    path, blocked = engine.fire_track(st, 5, 10, 3, 9, 10, 3)
    assert not blocked
    assert path == [(6, 10, 3), (7, 10, 3), (8, 10, 3)]


def test_rulebook_ratings_50_ton_and_100_ton_bots_with_100_vp(tmp_path):
    """4.8 / CTF-16: 100 VP rate 2.0 for a 50-ton Bot and 1.0 for a 100-ton Bot."""
    (tmp_path / "designs.toml").write_text(
        '[[design]]\nname = "Fifty"\ntons = 50\nengines = 10\nengine_tons = 1\n'
        'armour = [5,5,5,5,5,5]\ninternal = [5,5,5,5,5,5]\nweapons = [["head", "SL"]]\n'
        '[[design]]\nname = "Hundred"\ntons = 100\nengines = 10\nengine_tons = 2\n'
        'armour = [5,5,5,5,5,5]\ninternal = [5,5,5,5,5,5]\nweapons = [["head", "SL"]]\n')
    st = game(designs="Fifty", tables=str(tmp_path), names=("a", "b"))
    st2 = game(designs="Hundred", tables=str(tmp_path), names=("a", "b"))
    st.bots[0].vp = 100
    st2.bots[0].vp = 100
    assert st.bot_rating(st.bots[0]) == Fraction(2)
    assert st2.bot_rating(st2.bots[0]) == Fraction(1)


def test_rulebook_sprint_under_30_ap_becomes_move_forward():
    """4.2 order 21 / CTF-8: with fewer than 30 AP a sprint is a Move Forward."""
    st = game()
    b = place(st, 1, 8, 8, facing=3, ap=29)
    engine.do_move(st, b, 21, 0)
    assert (b.x, b.y) == (9, 8)
    assert b.ap == 29 - 4
    assert events(st, "sprintfail")
    assert b.heat == 1


def test_rulebook_sprint_with_30_ap_moves_two_sectors_at_double_cost():
    st = game()
    b = place(st, 1, 8, 8, facing=3, ap=30)
    st.rng = Dice(st.rng, [100])  # no fall
    engine.do_move(st, b, 21, 0)
    assert (b.x, b.y) == (10, 8)
    assert b.ap == 30 - 16
    assert b.heat == 4
    assert b.entered == 2 and b.sprinted


def test_rulebook_kneeling_bot_may_only_use_orders_0_and_18():
    """4.2 order 20 / CTF-12."""
    st = game()
    b = place(st, 1, 8, 8, facing=3, posture=KNEELING, ap=50)
    for order in (1, 4, 11, 21, 22):
        engine.do_move(st, b, order, 1 if order == 11 else 0)
    assert (b.x, b.y, b.facing, b.ap) == (8, 8, 3, 50)
    assert len([e for e in events(st, "skip") if "kneeling" in e[4]]) == 5
    engine.do_move(st, b, 18, 0)
    assert b.posture == STANDING
    assert b.ap == 46


def test_rulebook_eject_default_threshold_is_4_engines():
    """4.2 order 19 / CTF-30: no option means 4 engines."""
    st = game()
    b = place(st, 1, 8, 8, ap=50)
    b.engines = [1] * 5 + [0] * 9
    engine.do_move(st, b, 19, 0)
    assert b.status == FUNCTIONAL
    b.engines = [1] * 4 + [0] * 10
    engine.do_move(st, b, 19, 0)
    assert b.status == WRECKED and b.pilot == EJECTED


def test_rulebook_eject_with_option_9():
    st = game()
    b = place(st, 1, 8, 8, ap=50)
    b.engines = [1] * 9 + [0] * 5
    engine.do_move(st, b, 19, 9)
    assert b.status == WRECKED


def test_rulebook_no_eject_from_a_prone_bot():
    st = game()
    b = place(st, 1, 8, 8, ap=50, posture=PRONE)
    b.legless = True
    b.engines = [1] + [0] * 13
    engine.do_move(st, b, 19, 0)
    assert b.status == FUNCTIONAL


def test_rulebook_self_destruct_needs_under_5_tons_of_engines():
    """4.3 order 6 / CTF-30: Lancer engines are 1.25 t; 4 work = 5 t: refused; 3 = 3.75 t."""
    st = game()
    b = place(st, 1, 8, 8, ap=50)
    b.engines = [1] * 4 + [0] * 10
    engine.do_attack(st, b, 6, 0, 0)
    assert b.status == FUNCTIONAL
    assert "under 5 tons" in events(st, "skip")[-1][4]
    b.engines = [1] * 3 + [0] * 11
    engine.do_attack(st, b, 6, 0, 0)
    assert b.status == WRECKED
    assert b.vp == 0


def test_rulebook_command_posts_fire_last_in_each_phase():
    """4.3 / CTF-13 / CTF-34: after every bot has moved and attacked, the CPs fire."""
    st = game()
    place(st, 1, 14, 10, facing=3)   # within the B CPs' Large Laser range
    place(st, 2, 16, 10, facing=7)
    orders = {1: (0, 0, 2, 0, 0) * 5, 2: (0, 0, 2, 0, 0) * 5}
    for b in st.bots:
        b.ap = 50
    engine.run_phase(st, 1, orders)
    log = events(st)
    kinds = [e[0] for e in log]
    cp_shots = [i for i, e in enumerate(log) if e[0] == "shot" and isinstance(e[1], str)]
    bot_shots = [i for i, e in enumerate(log) if e[0] == "shot" and isinstance(e[1], int)]
    assert cp_shots and bot_shots
    assert min(cp_shots) > max(bot_shots)
    assert kinds.index("order") < min(bot_shots)


# -- CTF-1 .. CTF-5: the field ------------------------------------------------------------------


def test_ctf1_teams_bots_and_command_posts():
    st = game(names=("a", "b", "c", "d"))
    assert [b.team for b in st.bots] == [0, 0, 1, 1]
    assert [b.player for b in st.bots] == [0, 1, 2, 3]
    assert [c.label for c in st.cps] == ["A1", "A2", "B1", "B2"]


def test_ctf1_map_at_least_20x20_and_larger_with_more_bots():
    from boardct.core import registry

    g = registry.get("ctf2187")
    assert g.new(seed=1).map.width == 20
    big = g.new(seed=1, names=["a", "b"], bots_per_team=6)
    assert (big.map.width, big.map.height) == (28, 28)


def test_ctf3_cannot_enter_occupied_sector_or_the_map_edge():
    st = game()
    b = place(st, 1, 8, 8, facing=3, ap=50)
    place(st, 2, 9, 8)
    engine.do_move(st, b, 1, 0)
    assert (b.x, b.y, b.ap) == (8, 8, 50)
    assert events(st, "blocked")[-1][4] == "Bot 2"
    edge = place(st, 1, 20, 8, facing=3, ap=50)
    engine.do_move(st, edge, 1, 0)
    assert events(st, "blocked")[-1][4] == "the map edge"


def test_ctf3_wreckage_blocks_movement():
    st = game()
    b = place(st, 1, 8, 8, facing=3, ap=50)
    w = place(st, 2, 9, 8)
    w.status = WRECKED
    engine.do_move(st, b, 1, 0)
    assert (b.x, b.y) == (8, 8)
    assert "Wreckage" in events(st, "blocked")[-1][4]


@pytest.mark.parametrize("facing,dest", [(1, (8, 9)), (2, (9, 9)), (3, (9, 8)), (4, (9, 7)),
                                         (5, (8, 7)), (6, (7, 7)), (7, (7, 8)), (8, (7, 9))])
def test_ctf4_ctf17_facings_move_forward(facing, dest):
    st = game()
    b = place(st, 1, 8, 8, facing=facing, ap=50)
    engine.do_move(st, b, 1, 0)
    assert (b.x, b.y) == dest


def test_ctf5_wreckage_has_elevation_of_its_ground():
    st = game({(8, 8): "H3"})
    b = place(st, 1, 8, 8)
    b.status = WRECKED
    assert engine.bot_elevation(st, b) == 3


# -- CTF-6 .. CTF-11 -----------------------------------------------------------------------------


def test_ctf7_ctf18_arcs():
    assert arc(1, 0, 3) == FA
    assert arc(1, 2, 2) == FA       # the 45-degree line is forward
    assert arc(1, 3, 0) == RS
    assert arc(1, -3, -3) == LS     # the 135-degree line is a side
    assert arc(1, 0, -3) == RA
    assert arc(3, 2, -1) == FA


def test_ctf7_left_arm_cannot_fire_right_side():
    st = game()
    shooter = place(st, 1, 8, 8, facing=1, ap=50)
    place(st, 2, 11, 8)
    # Lancer weapons: 1 SL head, 2 PBC FT, 3 MR LA, 4 ML RA
    assert "arc" in engine.weapon_usable(st, shooter, 2, 11, 8)
    assert engine.weapon_usable(st, shooter, 3, 11, 8) == ""
    assert engine.weapon_usable(st, shooter, 0, 11, 8) == ""
    assert "arc" in engine.weapon_usable(st, shooter, 1, 11, 8)


def test_ctf8_ctf22_turn_ap_from_engines_and_class():
    st = game()
    b = st.bots[0]
    from boardct.games.ctf2187.tables import turn_ap

    assert turn_ap(b.design, 14, st.tables) == 61
    assert turn_ap(b.design, 13, st.tables) == 56  # 13 x 1.25 x 3.5 = 56.875


def test_ctf8_ctf22_higher_ap_acts_first():
    st = game()
    place(st, 1, 8, 8, ap=20)
    place(st, 2, 12, 8, ap=40)
    orders = {1: (0, 0, 0, 0, 0) * 5, 2: (0, 0, 0, 0, 0) * 5}
    engine.run_phase(st, 1, orders)
    assert events(st, "order")[-1][1] == (2, 1)


def test_ctf9_ctf24_cooling_and_lake_bonus():
    st = game({(8, 8): "~0"})
    b = place(st, 1, 8, 8, ap=50)
    b.heat = 20
    other = place(st, 2, 14, 8, ap=50)
    other.heat = 20
    engine.run_phase(st, 1, {1: (0,) * 25, 2: (0,) * 25})
    assert other.heat == 20 - (3 + 14 // 3)
    assert b.heat == 20 - (3 + 14 // 3 + 4)


def test_ctf25_heat_band_costs_ap():
    st = game()
    b = place(st, 1, 8, 8, ap=50)
    b.heat = 20  # 20 - 7 = 13: band 10-19, lose 2 AP
    place(st, 2, 14, 8, ap=50)
    engine.run_phase(st, 1, {1: (0,) * 25, 2: (0,) * 25})
    assert b.heat == 13 and b.ap == 48


def test_ctf25_heat_never_kills_the_pilot():
    st = game()
    b = place(st, 1, 8, 8, ap=50)
    b.wounds = 2
    b.heat = 50
    place(st, 2, 14, 8, ap=50)
    engine.run_phase(st, 1, {1: (0,) * 25, 2: (0,) * 25})
    assert b.wounds == 2 and b.status == FUNCTIONAL


def test_ctf10_ctf29_hit_location_and_armour_then_internal():
    st = game()
    t = place(st, 2, 9, 8, facing=7)
    st.rng = Dice(st.rng, [2, 0])  # d20 2: front torso; then the item pick
    w = st.tables.weapons["PBC"]
    applied = engine.hit_bot(st, t, w, FA, 1)
    assert applied == 10
    assert t.armour[1] == 10 and t.internal[1] == 14
    st.rng = Dice(st.rng, [2, 0])
    engine.hit_bot(st, t, w, FA, 1)
    assert t.armour[1] == 0 and t.internal[1] == 14
    st.rng = Dice(st.rng, [2, 0])
    engine.hit_bot(st, t, w, FA, 1)
    assert t.internal[1] == 4
    assert events(st, "item")  # internal damage strikes an item


def test_ctf29_damage_passes_from_destroyed_arm_to_front_torso():
    st = game()
    t = place(st, 2, 9, 8, facing=7)
    t.armour[3] = 0
    t.internal[3] = 2
    st.rng = Dice(st.rng, [10])  # front table, 10: left arm
    applied = engine.hit_bot(st, t, st.tables.weapons["ML"], FA, 1)
    assert applied == 5
    assert t.internal[3] == 0
    assert t.armour[1] == 20 - 3
    assert t.weapons[2] == DESTROYED  # the MR in the left arm is lost with it


def test_ctf29_rear_attack_passes_to_rear_torso():
    st = game()
    t = place(st, 2, 9, 8, facing=7)
    t.armour[5] = 0
    t.internal[5] = 1
    st.rng = Dice(st.rng, [18, 100])  # rear table 18: legs; fall roll
    engine.hit_bot(st, t, st.tables.weapons["ML"], RA, 1)
    assert t.internal[5] == 0 and t.legless and t.posture == PRONE
    assert t.armour[2] == 10 - 4


def test_ctf30_head_destroyed_kills_the_pilot():
    st = game()
    t = place(st, 2, 9, 8, facing=7)
    t.armour[0] = 0
    t.internal[0] = 3
    st.rng = Dice(st.rng, [1])
    engine.hit_bot(st, t, st.tables.weapons["ML"], FA, 1)
    assert t.status == WRECKED and "pilot is dead" in t.wreck_reason


def test_ctf30_item_strike_damages_then_destroys_weapon():
    st = game()
    t = place(st, 2, 9, 8, facing=7)
    t.armour[4] = 0
    st.rng = Dice(st.rng, [14, 0])  # right arm; its one item, the ML
    engine.hit_bot(st, t, st.tables.weapons["MG"], FA, 1)
    assert t.weapons[3] == DAMAGED
    st.rng = Dice(st.rng, [14, 0])
    engine.hit_bot(st, t, st.tables.weapons["MG"], FA, 1)
    assert t.weapons[3] == DESTROYED


def test_ctf30_no_functional_engine_makes_wreckage():
    st = game()
    t = place(st, 2, 9, 8, facing=7)
    t.engines = [0] * 13 + [1]
    t.armour[2] = 0
    st.rng = Dice(st.rng, [4, 0])  # rear table 4: rear torso; pick the one engine
    engine.hit_bot(st, t, st.tables.weapons["SL"], RA, 1)
    assert t.status == WRECKED and t.wreck_reason == "no engine works"


def test_ctf26_three_wounds_kill():
    st = game()
    t = place(st, 2, 9, 8, facing=7)
    t.wounds = 2
    t.armour[0] = 0
    st.rng = Dice(st.rng, [1, 0])
    engine.hit_bot(st, t, st.tables.weapons["MG"], FA, 1)
    assert t.wounds == 3 and t.status == WRECKED


def test_ctf31_fallen_bot_stands_next_phase():
    st = game()
    b = place(st, 1, 8, 8, facing=3, posture=PRONE, ap=50)
    place(st, 2, 16, 8, ap=50)
    engine.run_phase(st, 2, {1: (1, 0, 0, 0, 0) * 5, 2: (0,) * 25})
    assert b.posture == STANDING and (b.x, b.y) == (8, 8)
    assert b.ap == 44


# -- CTF-17 .. CTF-23: orders --------------------------------------------------------------------


def test_ctf19_bearing_is_nearest_facing():
    assert bearing(0, 5) == 1
    assert bearing(5, 4) == 2
    assert bearing(5, 1) == 3
    assert bearing(-3, -3) == 6


def test_ctf19_move_toward_nearest_enemy_turns_once_then_moves():
    st = game()
    b = place(st, 1, 8, 8, facing=1, ap=50)
    place(st, 2, 14, 8)
    engine.do_move(st, b, 6, 0)
    assert b.facing == 2 and (b.x, b.y) == (9, 9)
    assert b.ap == 50 - 2 - 4


def test_ctf19_face_order_pivots_the_short_way():
    st = game()
    b = place(st, 1, 8, 8, facing=1, ap=50)
    engine.do_move(st, b, 11, 7)
    assert b.facing == 7 and b.ap == 46  # two 45-degree steps to the left


def test_ctf19_missing_target_cancels_at_no_cost():
    st = game()
    b = place(st, 1, 8, 8, facing=1, ap=50)
    engine.do_move(st, b, 7, 0)  # nobody ever targeted this bot
    assert (b.x, b.y, b.facing, b.ap) == (8, 8, 1, 50)


def test_ctf20_blocked_move_still_turns_and_pays_only_the_turn():
    st = game()
    b = place(st, 1, 8, 8, facing=1, ap=50)
    place(st, 2, 9, 9)
    engine.do_move(st, b, 2, 0)
    assert b.facing == 2 and (b.x, b.y) == (8, 8) and b.ap == 48


def test_ctf21_scanning_range_limits_targets():
    st = game()
    b = place(st, 1, 2, 2, facing=2, ap=50)
    place(st, 2, 19, 19)
    assert engine.nearest_enemy(st, b) is None
    place(st, 2, 17, 17)
    assert engine.nearest_enemy(st, b).num == 2


def test_ctf23_terrain_and_climb_costs():
    st = game({(9, 8): "H3"})
    b = place(st, 1, 8, 8, facing=3, ap=50)
    engine.do_move(st, b, 1, 0)
    assert b.ap == 50 - (4 + 0 + 2 * 2)


def test_ctf23_backward_costs_more():
    st = game({(7, 8): "w1"})
    b = place(st, 1, 8, 8, facing=3, ap=50)
    engine.do_move(st, b, 4, 0)
    assert (b.x, b.y) == (7, 8) and b.facing == 3
    assert b.ap == 50 - (4 + 1 + 2)


def test_ctf23_unaffordable_order_is_skipped_whole():
    st = game({(9, 8): "B1"})
    b = place(st, 1, 8, 8, facing=3, ap=7)
    engine.do_move(st, b, 1, 0)
    assert (b.x, b.y, b.ap) == (8, 8, 7)
    assert "not enough AP" in events(st, "skip")[-1][4]


# -- CTF-27 .. CTF-28: attacks -------------------------------------------------------------------


def test_ctf27_out_of_range_cancels_at_no_cost():
    st = game()
    b = place(st, 1, 8, 8, facing=3, ap=50)
    place(st, 2, 16, 8)
    engine.do_attack(st, b, 2, 0, 1)  # SL range 3
    assert b.ap == 50 and b.heat == 0
    assert "beyond the range" in events(st, "skip")[-1][4]


def test_ctf27_ctf28_shot_at_optimum_in_open():
    st = game()
    b = place(st, 1, 8, 8, facing=3, ap=50)
    t = place(st, 2, 14, 8, facing=7, ap=0)
    st.rng = Dice(st.rng, [99])  # a miss
    engine.do_attack(st, b, 1, 2, 2)  # PBC, optimum 6
    shot = events(st, "shot")[-1]
    assert shot[6] == 75 and shot[7] == 99 and shot[8] is False
    assert b.ap == 50 - 9 and b.heat == 9
    assert t.ap == 0


def test_ctf28_dodge_and_cover_modifiers():
    st = game({(14, 8): "W1"})
    b = place(st, 1, 8, 8, facing=3, ap=50)
    t = place(st, 2, 14, 8, facing=7, ap=30)
    st.rng = Dice(st.rng, [99])
    engine.do_attack(st, b, 1, 2, 2)
    shot = events(st, "shot")[-1]
    assert shot[6] == 75 - 20 - 6
    assert t.ap == 28 and t.heat == 1


def test_ctf28_best_weapon_is_most_damaging_usable():
    st = game()
    b = place(st, 1, 8, 8, facing=3, ap=50)
    place(st, 2, 10, 8)
    assert engine.best_weapon(st, b, 10, 8) == 1  # PBC (10) over ML (5) and SL (3)
    b.ap = 8
    assert engine.best_weapon(st, b, 10, 8) == 2  # MR (6 AP) then, not the 9-AP PBC


def test_ctf16_vp_for_damage_to_enemy_bot_and_double_for_cp():
    st = game()
    b = place(st, 1, 8, 8, facing=3, ap=50)
    t = place(st, 2, 10, 8, facing=7, ap=0)
    st.rng = Dice(st.rng, [1, 2, 0])  # hit, front torso, item
    engine.fire(st, b, 3, t)
    assert b.vp == 5
    cp = st.cps[2]
    applied = engine.hit_cp(st, cp, 8, 1)
    b.vp += 2 * applied
    assert cp.structure == 52 and b.vp == 21


def test_ctf16_memory_of_targeting():
    st = game()
    b = place(st, 1, 8, 8, facing=3, ap=50)
    t = place(st, 2, 10, 8, facing=7, ap=0)
    st.rng = Dice(st.rng, [1, 2, 0])
    engine.fire(st, b, 3, t)
    assert t.last_by == 1 and b.last_at == 2


def test_ctf34_cp_becomes_ruins_at_zero():
    st = game()
    cp = st.cps[0]
    engine.hit_cp(st, cp, 100, 2)
    assert cp.structure == 0 and not cp.operational
    assert events(st, "ruins")


def test_ctf39_elimination_ends_the_game():
    st = game()
    st.bots[1].status = WRECKED
    st.cps[2].structure = 0
    st.cps[3].structure = 0
    assert engine.check_end(st)
    assert st.outcome is not None and "elimination" in st.outcome.reason


def test_ctf39_equal_ratings_share_the_win_or_draw():
    st = game(names=("a", "b", "c"), teams=3)
    st.bots[0].vp = 10
    st.bots[1].vp = 10
    st.end("turn limit", Termination.TURN_LIMIT)
    assert st.outcome.winners == (0, 1)
    assert st.outcome.returns == (0.5, 0.5, 0.0)
    st2 = game()
    st2.end("turn limit", Termination.TURN_LIMIT)
    assert st2.outcome.winners == () and "ratings A 0.00, B 0.00" in st2.outcome.reason


def test_ctf36_default_standing_orders():
    st = game()
    assert st.bots[0].standing[:5] == (6, 0, 2, 0, 0)
    assert st.bots[0].standing[5:10] == (13, 0, 2, 0, 0)
    fresh_log(st)
