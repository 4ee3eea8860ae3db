"""Turn processing scenarios: sequence, standing orders, heat, falling, CPs, reports, the end."""

from __future__ import annotations

from ctf2187_helpers import Dice, engine, events, game, place
from hypothesis import given, settings
from hypothesis import strategies as hs

from boardct.core.outcome import Termination
from boardct.games.ctf2187.geometry import track
from boardct.games.ctf2187.report import format_report, turn_report
from boardct.games.ctf2187.sheet import MISSING
from boardct.games.ctf2187.units import DAMAGED, FUNCTIONAL, PRONE, STANDING, WRECKED

HOLD = (0, 0, 0, 0, 0) * 5


def test_ctf13_turn_waits_for_every_sheet():
    st = game(names=("a", "b", "c", "d"))
    for p in (0, 1, 2):
        st.apply(st.legal_actions(p)[0], p)
    assert st.turn == 1 and st.log == []
    st.apply((MISSING, 4), 3)
    assert st.turn == 2 and events(st, "phase")


def test_ctf13_each_bot_moves_then_attacks():
    st = game()
    place(st, 1, 8, 8, facing=3, ap=60)
    place(st, 2, 12, 8, facing=7, ap=10)
    orders = {1: (1, 0, 2, 0, 0) * 5, 2: HOLD}
    engine.run_phase(st, 1, orders)
    kinds = [e[0] for e in events(st) if e[0] in ("move", "shot") and e[1] == 1]
    assert kinds[:2] == ["move", "shot"]


def test_ctf14_missing_sheet_uses_standing_orders():
    st = game()
    st.bots[1].standing = (11, 1) + (0,) * 3 + HOLD[5:]
    st.apply(st.parse("BOT 1 TURN 1; P1 0 - 0 - -; P2 0 - 0 - -; P3 0 - 0 - -; "
                      "P4 0 - 0 - -; P5 0 - 0 - -"), 0)
    st.apply(st.parse("default", 1), 1)
    assert st.turn == 2
    assert st.bots[1].facing == 1  # order 11 direction 1 from the standing orders
    assert ("ap", 2, 61, True) in events(st, "ap")
    assert ("ap", 1, 61, False) in events(st, "ap")


def test_ctf15_report_shows_only_what_the_bot_could_see():
    st = game(names=("a", "b", "c", "d"))
    place(st, 1, 2, 2, facing=1)
    place(st, 2, 16, 2, facing=1)
    place(st, 3, 19, 19, facing=5)
    place(st, 4, 2, 16, facing=5)
    for b in st.bots:
        b.standing = (1, 0, 0, 0, 0) + HOLD[5:]
        st.apply((MISSING, b.num), b.player)
    rep = turn_report(st, 1)
    movers = {e["data"][0] for e in rep["events"] if e["kind"] == "move"}
    assert movers == {1, 2, 4}  # bot 3, 17 sectors away, is out of scanning range
    assert [c["bot"] for c in rep["scanner"]["bots"]] == [2, 4]


def test_ctf38_report_sections_in_order():
    st = game()
    for p in (0, 1):
        st.apply(st.legal_actions(p)[0], p)
    text = format_report(turn_report(st, 1, "Dec 1"))
    heads = ["TURN RESULTS - turn 1", "STATUS", "SCANNER", "VISUAL SIGHTING DISPLAY",
             "PHASE LOG", "VICTORY POINTS", "STANDING ORDERS", "NEXT TURN 2  Deadline: Dec 1"]
    pos = [text.index(h) for h in heads]
    assert pos == sorted(pos)
    assert "Open-1" in text
    assert "Bot 1 (Lancer, 55 t medium)  Pilot: ann  Team A  Map 20x20" in text


def test_ctf15_visual_display_radius_5_and_codes():
    st = game({(9, 9): "w1", (3, 3): "R3"})
    b = place(st, 1, 8, 8)
    v = turn_report(st, 1)["visual"]
    assert (v["x_from"], v["x_to"], v["y_from"], v["y_to"]) == (3, 13, 13, 3)
    assert v["rows"][13 - 9][9 - 3] == "Lt.Wds-2"
    assert v["rows"][13 - 3][0] == "Ridge-3"
    assert b.num == 1


def test_ctf20_sprint_stops_before_blocked_second_sector():
    st = game()
    b = place(st, 1, 8, 8, facing=3, ap=40)
    place(st, 2, 10, 8)
    st.rng = Dice(st.rng, [100])
    engine.do_move(st, b, 21, 0)
    assert (b.x, b.y) == (9, 8) and b.ap == 32
    assert events(st, "blocked")[-1][2:4] == (10, 8)


def test_ctf22_bot_wrecked_before_its_slot_does_not_act():
    st = game()
    a = place(st, 1, 8, 8, facing=3, ap=0)
    t = place(st, 2, 10, 8, facing=7, ap=0)
    t.armour[0] = 0
    t.internal[0] = 1
    # bot 1 acts first (more AP after the turn start); its SL hits bot 2's head
    a.ap = 60
    t.ap = 10
    st.rng = Dice(st.rng, [1, 1])
    engine.run_phase(st, 1, {1: (0, 0, 1, 2, 1) * 5, 2: (1, 0, 0, 0, 0) * 5})
    assert t.status == WRECKED
    assert not [e for e in events(st, "move") if e[1] == 2]


def test_ctf24_heat_is_capped_at_50():
    st = game()
    b = place(st, 1, 8, 8)
    b.heat = 48
    engine.add_heat(st, b, 9)
    assert b.heat == 50


def test_ctf25_high_heat_shuts_weapons_down():
    st = game()
    a = place(st, 1, 8, 8, facing=3, ap=60)
    a.heat = 40  # 33 after cooling: band 30-39
    place(st, 2, 10, 8, facing=7, ap=0)
    st.rng = Dice(st.rng, [1])  # the shutdown d6
    engine.run_phase(st, 1, {1: (0, 0, 2, 0, 0) * 5, 2: HOLD})
    assert a.shut
    assert any("shut down" in e[2] for e in events(st, "heatfx"))
    assert not [e for e in events(st, "shot") if e[1] == 1]


def test_ctf25_top_band_wounds_and_damages_a_weapon():
    st = game()
    a = place(st, 1, 8, 8, ap=60)
    a.heat = 50  # 43 after cooling
    place(st, 2, 16, 8)
    st.rng = Dice(st.rng, [6, 1, 0])  # no shutdown; weapon damage d6 1; first weapon
    engine.run_phase(st, 1, {1: HOLD, 2: HOLD})
    assert a.wounds == 1 and a.weapons[0] == DAMAGED
    assert a.ap == 50


def test_ctf27_blocked_shot_pays_and_misses_without_a_roll():
    st = game({(10, 8): "B1"})
    a = place(st, 1, 8, 8, facing=3, ap=50)
    place(st, 2, 12, 8, facing=7)
    before = st.rng.s
    engine.do_attack(st, a, 1, 2, 2)
    shot = events(st, "shot")[-1]
    assert shot[10] is True and shot[9] == ((9, 8, 3), (10, 8, 3))
    assert a.ap == 41 and a.heat == 9
    assert st.rng.s == before


def test_ctf27_track_rounding_halves_toward_the_firer_and_heights_up():
    assert track(1, 1, 2, 3, 2, 3) == [(2, 1, 3)]   # y 1.5 -> 1 (toward firer), h 2.5 -> 3
    assert track(3, 2, 3, 1, 1, 2) == [(2, 2, 3)]   # reversed: y 1.5 -> 2, h 2.5 -> 3


def test_ctf28_attacker_modifiers_and_clamp():
    st = game()
    a = place(st, 1, 8, 8, facing=3, ap=60)
    t = place(st, 2, 9, 8, facing=7, ap=0, posture=PRONE)
    a.entered, a.sprinted, a.wounds = 1, True, 2
    st.rng = Dice(st.rng, [100])
    engine.do_attack(st, a, 1, 2, 2)  # PBC at range 1: 75 - 25 = 50
    assert events(st, "shot")[-1][6] == 50 - 10 - 10 - 10
    a.entered, a.sprinted, a.wounds = 0, False, 0
    t.posture = STANDING
    engine.do_attack(st, a, 1, 2, 1)  # SL at optimum 1: 75
    assert events(st, "shot")[-1][6] == 75


def test_ctf30_legless_bot_may_only_pivot():
    st = game()
    b = place(st, 1, 8, 8, facing=3, ap=50, posture=PRONE)
    b.legless = True
    engine.do_move(st, b, 1, 0)
    engine.do_move(st, b, 18, 0)
    assert (b.x, b.y, b.posture) == (8, 8, PRONE)
    engine.do_move(st, b, 22, 0)
    assert b.facing == 4


def test_ctf31_fall_chance_formula():
    st = game()
    b = place(st, 1, 8, 8, facing=3, ap=40)
    st.rng = Dice(st.rng, [8])
    engine.fall_check(st, b, 15, "after sprinting")  # 15 - 8 = 7%
    e = events(st, "fall")[-1]
    assert e[3:] == (7, 8, False) and b.posture == STANDING
    b.ap = 100
    st.rng = Dice(st.rng, [5])
    engine.fall_check(st, b, 15, "after sprinting")  # at least 5%
    assert events(st, "fall")[-1][3:] == (5, 5, True) and b.posture == PRONE and b.fallen


def test_ctf31_fallen_bot_loses_the_rest_of_its_phase():
    st = game()
    a = place(st, 1, 8, 8, facing=3, ap=60)
    place(st, 2, 12, 8, facing=7, ap=10)
    st.rng = Dice(st.rng, [1])  # the sprint's fall roll
    engine.run_phase(st, 1, {1: (21, 0, 2, 0, 0) * 5, 2: HOLD})
    assert a.posture == PRONE
    assert [e for e in events(st, "skip") if e[1] == 1 and e[2] == "attack"]


def test_ctf34_cp_fires_at_nearest_enemy_in_range_with_clear_line_and_gives_no_vp():
    st = game()
    place(st, 1, 12, 7, facing=3, ap=0)   # 7 from CP B1 at 19-7
    place(st, 2, 4, 10)
    st.rng = Dice(st.rng, [1, 2, 0])
    engine.cp_fire(st, st.cps[2])
    shot = events(st, "shot")[-1]
    assert shot[1] == "B1" and shot[2] == 1 and shot[4] == "LL"
    assert st.bots[1].vp == 0 and st.bots[0].last_by == 0


def test_ctf36_no_usable_weapon_cancels_the_attack():
    st = game()
    a = place(st, 1, 8, 8, facing=7, ap=60)  # facing away
    place(st, 2, 12, 8)
    engine.do_attack(st, a, 2, 0, 0)
    assert a.ap == 60 and "no weapon can fire" in events(st, "skip")[-1][4]


def test_ctf39_turn_limit_ends_the_game():
    st = game(turn_limit=1)
    for p in (0, 1):
        st.apply(st.legal_actions(p)[2], p)
    assert st.outcome is not None and st.outcome.reason.startswith("turn limit")
    assert st.current_players() == ()


def test_ctf39_ejected_pilot_keeps_vp_in_ratings():
    st = game()
    b = st.bots[0]
    b.vp = 55
    b.status = WRECKED
    st.end("turn limit", Termination.TURN_LIMIT)
    assert st.outcome.winners == (0,)
    assert "A 1.00" in st.outcome.reason
    assert st.bots[1].status == FUNCTIONAL


@settings(max_examples=60, deadline=None)
@given(x0=hs.integers(1, 20), y0=hs.integers(1, 20), x1=hs.integers(1, 20),
       y1=hs.integers(1, 20), e0=hs.integers(0, 6), e1=hs.integers(0, 6))
def test_ctf27_traced_fire_track_matches_the_reference_track(x0, y0, x1, y1, e0, e1):
    st = game({}, bots_per_team=1)
    st.occ = [0] * len(st.occ)  # clear the field: only open ground of height 1 remains
    path, blocked = engine.fire_track(st, x0, y0, e0 + 2, x1, y1, e1 + 2)
    assert not blocked
    assert path == track(x0, y0, e0 + 2, x1, y1, e1 + 2)
