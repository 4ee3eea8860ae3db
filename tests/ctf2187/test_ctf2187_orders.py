"""Every CTF 2187 order played through an order sheet (CTF-37), against figures worked out by
hand from the rulebook (section 4.2 Movement Orders, 4.3 Attack Orders) and our rulings.

Each test hands in real sheets (`BOT n TURN t; P1 ...`) for a turn and checks where the Bot
ends up, which way it faces, the AP it has left and its heat. The figures come from:

* AP: a Lancer (14 engines x 1.25 t, medium: 3.5 AP a ton, CTF-22/33) has 61 AP a turn;
  moving one sector costs 4 + the entered terrain's extra + 2 per level climbed, backward +2,
  each 45 degrees turned 2, a sprint twice the move per sector, kneel 3, stand 4 (kneeling) or
  6 (prone), a dodge 2, eject and self-destruct 0; weapons per CTF-32 (CTF-23).
* Heat: 1 per sector entered (2 sprinting), 1 per kneel, stand or dodge, the weapon's heat,
  1 per hit received (2 from a laser or PBC); turning 0. Cooling at each phase start removes
  3 + 1 per 3 functional engines: 7 for a Lancer (CTF-24).
* Facings 1-8 clockwise from +Y; a bearing is the facing nearest in angle to the line; face
  orders pivot the shorter way, move-toward orders turn 45 degrees toward it, then step
  (CTF-17, CTF-19).

Unless a test says otherwise, the order under test is in phase 5 and every other phase of
every sheet is "0 - 0 - -": phases 1-4 change nothing, heat is 0 when phase 5 starts, and
after phase 5 only the command posts act (out of reach here). The map is open ground of
elevation 1 (ctf2187_helpers.map_text), 20 sectors wide and 99 high, so that the command posts
(CTF-35: A1 2-34, A2 2-66, B1 19-34, B2 19-66) stand more than 10 sectors (their Large
Laser's reach) from the Bots near the bottom and fire only where a test means them to. Bot 1
(Player 1, team A) stands at 6-10 facing 3 (east), Bot 2 (Player 2, team B) at 13-10 facing
7, 7 sectors apart.
"""

from __future__ import annotations

import pytest
from ctf2187_helpers import Dice, events, game, map_text, place

from boardct.core import registry
from boardct.core.errors import IllegalAction, ParseError
from boardct.games.ctf2187.units import (
    DAMAGED,
    DEAD,
    DESTROYED,
    EJECTED,
    FUNCTIONAL,
    KNEELING,
    PRONE,
    STANDING,
    WRECKED,
)

AP = 61  # a Lancer's turn AP (CTF-22, CTF-33)
IDLE = "0 - 0 - -"


def sheet(num: int, turn: int = 1, **phases: str) -> str:
    """An order sheet in the CTF-37 text format, on one line (`;` ends a line): `p3="13 - 2
    - 0"` gives phase 3; every phase not given is "0 - 0 - -"."""
    rows = [f"P{p} {phases.get(f'p{p}', IDLE)}" for p in range(1, 6)]
    return "; ".join([f"BOT {num} TURN {turn}", *rows])


def play(st, sheets: dict[int, str], dice=()) -> list[tuple]:
    """Hand in `sheets` (by Bot; every other functional Bot idles all turn) as their players
    would, parsed from the text; the turn is processed by the last one. `dice`: the d6, d20
    and d100 results the turn draws, in order (ctf2187_helpers.Dice)."""
    if dice:
        st.rng = Dice(st.rng, list(dice))
    out: list[tuple] = []
    for b in st.bots:
        if b.status == FUNCTIONAL and b.sheet is None:
            text = sheets.get(b.num, sheet(b.num, st.turn))
            out += st.apply(st.parse(text, b.player), b.player)
    return out


def tall(cells: dict | None = None, **options) -> object:
    """A game of Lancers on the 20 x 99 map (open ground, `cells` otherwise)."""
    options.setdefault("bots_per_team", 1)
    return registry.get("ctf2187").new(seed=1, names=["ann", "bob"], designs="Lancer",
                                       map=map_text(cells, w=20, h=99), **options)


def duel(cells: dict | None = None, **spots) -> object:
    """The duel of Lancers on the tall map, Bot 1 at 6-10 facing 3, Bot 2 at 13-10 facing 7;
    `b1=(x, y, facing)` or `b2=...` place them elsewhere."""
    st = tall(cells)
    place(st, 1, *spots.get("b1", (6, 10, 3)))
    place(st, 2, *spots.get("b2", (13, 10, 7)))
    return st


def teams_of_two(**spots) -> object:
    """Two Lancers a side (Player 1: Bots 1, 2, team A; Player 2: Bots 3, 4, team B): Bot 1 at
    6-10 facing 3, its friend Bot 2 at 6-14, enemies Bot 3 at 13-14 and Bot 4 at 13-6."""
    st = tall(bots_per_team=2)
    where = {1: (6, 10, 3), 2: (6, 14, 3), 3: (13, 14, 7), 4: (13, 6, 7)}
    for num, spot in where.items():
        place(st, num, *spots.get(f"b{num}", spot))
    return st


def state_of(st, num: int) -> tuple:
    """(x, y, facing, AP left, heat) of Bot `num`."""
    b = st.bots[num - 1]
    return (b.x, b.y, b.facing, b.ap, b.heat)


def skipped(evs, num: int) -> list[tuple]:
    return [e for e in evs if e[0] == "skip" and e[1] == num]


# -- order 12: face toward a specific Bot ---------------------------------------------------------

def test_order_12_the_issues_reproduction_pivots_back_toward_bot_2_for_4_ap():
    """4.2 order 12, CTF-19, CTF-23. The default duel (seed 1, Lancers; Bot 1 at 4-10 facing
    3, Bot 2 at 17-10 idling, 13 sectors away: in scanning range, CTF-21). Phase 1 faces
    north (order 11 option 1: two steps left, 4 AP); phase 2 faces Bot 2 again: bearing 3,
    two steps right, 4 AP. 61 - 4 - 4 = 53; turning makes no heat."""
    st = game()
    assert [(b.x, b.y, b.facing) for b in st.bots] == [(4, 10, 3), (17, 10, 7)]
    evs = play(st, {1: "BOT 1 TURN 1; P1 11 1 0 - -; P2 12 2 0 - -; P3 0 - 0 - -; "
                       "P4 0 - 0 - -; P5 0 - 0 - -"})
    assert ("face", 1, 3, 1, 4) in evs and ("face", 1, 1, 3, 4) in evs
    assert not skipped(evs, 1)
    assert state_of(st, 1) == (4, 10, 3, AP - 8, 0)


@pytest.mark.parametrize("where,facing,new,cost", [
    ((13, 14), 3, 2, 2),   # offset (7, 4): 29.7 degrees off east, 15.3 off NE: bearing 2, 1 step
    ((8, 13), 3, 2, 2),    # (2, 3): 33.7 degrees off north, 11.3 off NE: bearing 2
    ((6, 20), 3, 1, 4),    # straight north: bearing 1, two steps left
    ((1, 10), 3, 7, 8),    # straight behind: four steps (either way the same 8 AP)
    ((1, 5), 3, 6, 6),     # (-5, -5): bearing 6, three steps right
    ((13, 10), 3, 3, 0),   # already facing it: nothing to do, nothing paid
])
def test_order_12_pivots_toward_an_enemy_bot_in_scanning_range(where, facing, new, cost):
    """4.2 order 12: "pivot and face the Bot (enemy or friendly) indicated in the Move
    Option"; CTF-19 bearing and shorter way, CTF-23 2 AP per 45 degrees, CTF-24 no heat."""
    st = duel(b1=(6, 10, facing), b2=(*where, 7))
    evs = play(st, {1: sheet(1, p5="12 2 0 - -")})
    assert state_of(st, 1) == (6, 10, new, AP - cost, 0)
    assert not skipped(evs, 1)


def test_order_12_pivots_toward_a_friendly_bot_too():
    """4.2 order 12: "(enemy or friendly)". Bot 2, Bot 1's teammate, stands straight north:
    two steps left, 4 AP."""
    st = teams_of_two()
    evs = play(st, {1: sheet(1, p5="12 2 0 - -")})
    assert ("face", 1, 3, 1, 4) in evs
    assert state_of(st, 1) == (6, 10, 1, AP - 4, 0)


def test_order_12_is_cancelled_at_no_cost_for_a_bot_out_of_scanning_range():
    """4.2 order 12: "If the specified Bot is out of scanner range ... the order is
    canceled"; CTF-21 scanning range 15: Bot 2 is 17 sectors away."""
    st = duel(b1=(2, 3, 3), b2=(19, 19, 7))
    evs = play(st, {1: sheet(1, p5="12 2 0 - -")})
    assert state_of(st, 1) == (2, 3, 3, AP, 0)
    assert [e[4] for e in skipped(evs, 1)] == ["no such target in scanning range (CTF-21)"]


def test_order_12_is_cancelled_at_no_cost_for_a_destroyed_bot():
    """4.2 order 12: "... or destroyed the order is canceled": Bot 3 (an enemy, north-east)
    is Wreckage."""
    st = teams_of_two()
    st.bots[2].status = WRECKED
    evs = play(st, {1: sheet(1, p5="12 3 0 - -")})
    assert state_of(st, 1) == (6, 10, 3, AP, 0)
    assert [e[3] for e in skipped(evs, 1)] == [12]


def test_order_12_cannot_name_the_bot_itself():
    """CTF-37: the move option of order 12 is another Bot's number; a sheet naming the Bot
    itself is rejected whole, by line and field, and nothing changes."""
    st = duel()
    with pytest.raises(ParseError, match="line 6, field 3"):
        st.parse(sheet(1, p5="12 1 0 - -"), 0)
    assert st.bots[0].sheet is None


# -- move orders 0-4: stay, forward, turn and forward, backward ----------------------------------

@pytest.mark.parametrize("order,spot,facing,cost", [
    (0, (6, 10), 3, 0),    # 4.2 order 0: remain in place, no AP, no heat
    (1, (7, 10), 3, 4),    # order 1: straight ahead into Open: 4 AP
    (2, (7, 9), 4, 6),     # order 2: 45 degrees right (2 AP), then forward south-east (4 AP)
    (3, (7, 11), 2, 6),    # order 3: 45 degrees left, then forward north-east
    (4, (5, 10), 3, 6),    # order 4: backward keeping the facing: 4 + 2 (CTF-23)
])
def test_move_orders_0_to_4_on_open_ground(order, spot, facing, cost):
    """4.2 orders 0-4; CTF-17 facing deltas, CTF-23 costs, CTF-24 heat: 1 per sector
    entered, none for standing still or turning."""
    st = duel()
    evs = play(st, {1: sheet(1, p5=f"{order} - 0 - -")})
    heat = 0 if order == 0 else 1
    assert state_of(st, 1) == (*spot, facing, AP - cost, heat)
    assert not skipped(evs, 1)


@pytest.mark.parametrize("token,cost", [
    (".1", 4),   # Open: no extra
    ("w1", 5),   # Light Woods: +1
    ("b1", 6),   # Light Buildings: +2
    ("c0", 6),   # Crater: +2, ground 0 (going down costs nothing)
    ("~0", 7),   # Lake: +3
    ("W1", 7),   # Heavy Woods: +3
    ("B1", 8),   # Heavy Buildings: +4
    ("R3", 8),   # Ridge of ground 3: no extra, two levels climbed: +4
])
def test_move_order_1_pays_the_entered_terrain_and_the_climb(token, cost):
    """4.2 order 1; CTF-23: 4 + the entered terrain's extra + 2 per level climbed."""
    st = duel({(7, 10): token})
    play(st, {1: sheet(1, p5="1 - 0 - -")})
    assert state_of(st, 1) == (7, 10, 3, AP - cost, 1)


def test_move_order_4_backward_into_light_woods_pays_both_extras():
    """4.2 order 4; CTF-23: 4 + 1 (Light Woods) + 2 (backward) = 7."""
    st = duel({(5, 10): "w1"})
    play(st, {1: sheet(1, p5="4 - 0 - -")})
    assert state_of(st, 1) == (5, 10, 3, AP - 7, 1)


def test_a_blocked_step_costs_nothing_but_the_turn_before_it_is_made():
    """4.2: a Bot cannot enter a sector holding another Bot; CTF-20: the turn of order 2
    still happens and is paid (2 AP), the step costs no AP and no heat."""
    st = duel(b2=(7, 9, 7))  # right where order 2 would go
    evs = play(st, {1: sheet(1, p5="2 - 0 - -")})
    assert state_of(st, 1) == (6, 10, 4, AP - 2, 0)
    assert [e[:4] for e in evs if e[0] == "blocked"] == [("blocked", 1, 7, 9)]


def test_the_map_edge_blocks_a_step_too():
    """4.2: nor the Barrier Wall (off the map); CTF-20: nothing is paid for order 1."""
    st = duel(b1=(1, 10, 7))
    play(st, {1: sheet(1, p5="1 - 0 - -")})
    assert state_of(st, 1) == (1, 10, 7, AP, 0)


# -- move orders 5-10: turn 45 degrees toward a Bot or command post, then step --------------------

def test_move_order_5_turns_toward_the_named_bot_and_steps():
    """4.2 order 5; CTF-19: Bot 2 at 13-14 bears 2 (offset (7, 4)): one step left (2 AP), then
    forward north-east into 7-11 (4 AP, 1 heat)."""
    st = duel(b2=(13, 14, 7))
    play(st, {1: sheet(1, p5="5 2 0 - -")})
    assert state_of(st, 1) == (7, 11, 2, AP - 6, 1)


def test_move_order_5_turns_only_45_degrees_at_a_time():
    """CTF-19: a move-toward order turns one step toward the bearing, never more: Bot 2 due
    south of Bot 1 facing east (bearing 5, two steps right) gives facing 4, a step south-east."""
    st = duel(b2=(6, 3, 7))
    play(st, {1: sheet(1, p5="5 2 0 - -")})
    assert state_of(st, 1) == (7, 9, 4, AP - 6, 1)


def test_move_order_5_toward_a_bot_straight_behind_turns_toward_its_side():
    """CTF-19: bearing directly behind: turn toward the target's side (R > 0 right, R < 0
    left, R = 0 right). Bot 2 due west of Bot 1 facing east: R = 0, right: facing 4."""
    st = duel(b2=(1, 10, 3))
    play(st, {1: sheet(1, p5="5 2 0 - -")})
    assert state_of(st, 1) == (7, 9, 4, AP - 6, 1)


def test_move_order_5_does_not_turn_when_already_on_the_bearing():
    st = duel()
    play(st, {1: sheet(1, p5="5 2 0 - -")})
    assert state_of(st, 1) == (7, 10, 3, AP - 4, 1)


@pytest.mark.parametrize("order", [5, 6, 7, 9])
def test_move_toward_orders_are_cancelled_at_no_cost_without_a_target_in_range(order):
    """4.2 orders 5-9: only toward a functional Bot in scanning range (CTF-21: 15 sectors;
    Bot 2 is 17 away), and 7 and 9 only with a memory of one: cancelled at no cost."""
    st = duel(b1=(2, 3, 3), b2=(19, 19, 7))
    if order in (7, 9):  # the memory is there; the Bot is out of range (CTF-21)
        st.bots[0].last_by = st.bots[0].last_at = 2
    opt = "2" if order == 5 else "-"
    evs = play(st, {1: sheet(1, p5=f"{order} {opt} 0 - -")})
    assert state_of(st, 1) == (2, 3, 3, AP, 0)
    assert [e[3] for e in skipped(evs, 1)] == [order]


def test_move_order_6_goes_toward_the_nearest_enemy():
    """4.2 order 6; CTF-21 nearest = least distance: Bot 4 at 13-6 and Bot 3 at 13-14 are both
    7 away, ties to the lowest number, Bot 3: bearing 2, one step left, step to 7-11."""
    st = teams_of_two()
    play(st, {1: sheet(1, p5="6 - 0 - -")})
    assert state_of(st, 1) == (7, 11, 2, AP - 6, 1)


def test_move_order_6_prefers_the_nearer_enemy():
    """4.2 order 6: Bot 4 moved to 11-7 (5 away) is now the nearest: offset (5, -3), bearing
    4, one step right, step to 7-9."""
    st = teams_of_two(b4=(11, 7, 7))
    play(st, {1: sheet(1, p5="6 - 0 - -")})
    assert state_of(st, 1) == (7, 9, 4, AP - 6, 1)


def test_move_order_7_goes_toward_the_last_enemy_bot_to_target_me():
    """4.2 order 7; CTF-21: "targeted" means hit by that Bot; the memory lasts across turns.
    Bot 4 (13-6) hit Bot 1 last: offset (7, -4), bearing 4, one step right, 7-9."""
    st = teams_of_two()
    st.bots[0].last_by = 4
    play(st, {1: sheet(1, p5="7 - 0 - -")})
    assert state_of(st, 1) == (7, 9, 4, AP - 6, 1)


def test_move_order_8_goes_toward_the_nearest_friendly_bot():
    """4.2 order 8: Bot 2 (the teammate) due north: bearing 1 is two steps left, a
    move-toward turns one (CTF-19): facing 2, step to 7-11."""
    st = teams_of_two()
    play(st, {1: sheet(1, p5="8 - 0 - -")})
    assert state_of(st, 1) == (7, 11, 2, AP - 6, 1)


def test_move_order_8_without_a_friend_in_range_is_cancelled():
    """4.2 order 8: "If there are any functional friendly Bots in scanning range"; in a duel
    there are none ("nearest friendly" excludes oneself, CTF-21)."""
    st = duel()
    evs = play(st, {1: sheet(1, p5="8 - 0 - -")})
    assert state_of(st, 1) == (6, 10, 3, AP, 0)
    assert [e[3] for e in skipped(evs, 1)] == [8]


def test_move_order_9_goes_toward_the_last_enemy_bot_targeted():
    """4.2 order 9; CTF-21: Bot 1 last hit Bot 3 (13-14): bearing 2, one step left, 7-11."""
    st = teams_of_two()
    st.bots[0].last_at = 3
    play(st, {1: sheet(1, p5="9 - 0 - -")})
    assert state_of(st, 1) == (7, 11, 2, AP - 6, 1)


def test_move_order_10_goes_toward_the_nearest_friendly_command_post():
    """4.2 order 10: from 6-32, CP A1 at 2-34 is 4 away (A2 at 2-66, 34). Offset (-4, 2):
    26.6 degrees off west, 18.4 off north-west: bearing 8; facing 7, one step right; step to
    5-33. (B1 at 19-34 is 13 away: out of its laser's reach.)"""
    st = duel(b1=(6, 32, 7))
    play(st, {1: sheet(1, p5="10 - 0 - -")})
    assert state_of(st, 1) == (5, 33, 8, AP - 6, 1)


# -- move orders 11-17: pivot in place -------------------------------------------------------------

@pytest.mark.parametrize("direction,cost", [
    (3, 0), (4, 2), (2, 2), (5, 4), (1, 4), (6, 6), (8, 6), (7, 8),
])
def test_move_order_11_faces_the_given_direction_the_shorter_way(direction, cost):
    """4.2 order 11; CTF-19: pivot the shorter way, 2 AP per 45 degrees (CTF-23), no heat;
    already facing it costs nothing."""
    st = duel()
    play(st, {1: sheet(1, p5=f"11 {direction} 0 - -")})
    assert state_of(st, 1) == (6, 10, direction, AP - cost, 0)


def test_move_order_13_faces_the_nearest_enemy():
    """4.2 order 13: Bot 2 at 13-14 bears 2: one step left, 2 AP."""
    st = duel(b2=(13, 14, 7))
    play(st, {1: sheet(1, p5="13 - 0 - -")})
    assert state_of(st, 1) == (6, 10, 2, AP - 2, 0)


def test_move_order_13_without_an_enemy_in_range_is_cancelled():
    st = duel(b1=(2, 3, 3), b2=(19, 19, 7))
    evs = play(st, {1: sheet(1, p5="13 - 0 - -")})
    assert state_of(st, 1) == (2, 3, 3, AP, 0)
    assert [e[3] for e in skipped(evs, 1)] == [13]


def test_move_order_14_faces_the_last_enemy_bot_to_target_me():
    """4.2 order 14: Bot 4 at 13-6 hit Bot 1 last: offset (7, -4), bearing 4, one step right."""
    st = teams_of_two()
    st.bots[0].last_by = 4
    play(st, {1: sheet(1, p5="14 - 0 - -")})
    assert state_of(st, 1) == (6, 10, 4, AP - 2, 0)


def test_move_order_15_faces_the_nearest_friendly_bot():
    """4.2 order 15: the teammate due north: bearing 1, two steps left, 4 AP (a face order
    pivots all the way, CTF-19)."""
    st = teams_of_two()
    play(st, {1: sheet(1, p5="15 - 0 - -")})
    assert state_of(st, 1) == (6, 10, 1, AP - 4, 0)


def test_move_order_16_faces_the_last_enemy_bot_targeted():
    """4.2 order 16: Bot 1 last hit Bot 4 at 13-6: bearing 4, one step right."""
    st = teams_of_two()
    st.bots[0].last_at = 4
    play(st, {1: sheet(1, p5="16 - 0 - -")})
    assert state_of(st, 1) == (6, 10, 4, AP - 2, 0)


@pytest.mark.parametrize("order", [14, 16])
def test_face_orders_without_a_memory_are_cancelled_at_no_cost(order):
    """4.2 orders 14, 16: nobody has targeted Bot 1, Bot 1 has targeted nobody (CTF-21)."""
    st = teams_of_two()
    evs = play(st, {1: sheet(1, p5=f"{order} - 0 - -")})
    assert state_of(st, 1) == (6, 10, 3, AP, 0)
    assert [e[3] for e in skipped(evs, 1)] == [order]


def test_move_order_17_faces_the_nearest_friendly_command_post():
    """4.2 order 17: from 6-32 facing 7, CP A1 (2-34) bears 8: one step right, 2 AP."""
    st = duel(b1=(6, 32, 7))
    play(st, {1: sheet(1, p5="17 - 0 - -")})
    assert state_of(st, 1) == (6, 32, 8, AP - 2, 0)


# -- move orders 18-23: stand, eject, kneel, sprint, turn -----------------------------------------

def test_move_orders_20_then_18_kneel_and_stand_up():
    """4.2 orders 20 and 18; CTF-23 kneel 3, stand from kneeling 4; CTF-24 1 heat each. Kneel in
    phase 4 (heat 1), cooled to 0 at phase 5's start, stand in phase 5 (heat 1):
    61 - 3 - 4 = 54."""
    st = duel()
    evs = play(st, {1: sheet(1, p4="20 - 0 - -", p5="18 - 0 - -")})
    assert ("posture", 1, "kneels", 3) in evs and ("posture", 1, "stands up", 4) in evs
    assert ("cool", 1, 1, 0, 0) in evs  # phase 5 cooled the kneel's heat away
    assert state_of(st, 1) == (6, 10, 3, AP - 7, 1)
    assert st.bots[0].posture == STANDING


def test_move_order_20_kneels_and_a_kneeling_bot_takes_only_orders_0_and_18():
    """4.2 order 20: "A Kneeling Bot cannot move"; CTF-12: orders other than 0 and 18 are
    skipped at no cost. Kneel in phase 4 (3 AP, heat 1, cooled at phase 5); order 1 in phase 5
    does nothing."""
    st = duel()
    evs = play(st, {1: sheet(1, p4="20 - 0 - -", p5="1 - 0 - -")})
    assert state_of(st, 1) == (6, 10, 3, AP - 3, 0)
    assert st.bots[0].posture == KNEELING
    assert [e[3] for e in skipped(evs, 1)] == [1]


def test_move_order_18_stands_a_prone_bot_up_for_6_ap():
    """4.2 order 18; CTF-23 stand from prone 6 AP, CTF-24 1 heat. In phase 1; phase 2's
    cooling removes that 1 heat (the "cool" event shows it)."""
    st = duel()
    st.bots[0].posture = PRONE
    evs = play(st, {1: sheet(1, p1="18 - 0 - -")})
    assert ("posture", 1, "stands up", 6) in evs and ("cool", 1, 1, 0, 0) in evs
    assert state_of(st, 1) == (6, 10, 3, AP - 6, 0)
    assert st.bots[0].posture == STANDING


def test_a_fallen_bot_stands_up_whatever_its_orders():
    """4.2 order 18: "automatically executed on the next turn phase after falling down
    regardless of the previously issued orders" (CTF-31): prone, with order 1 in phase 1."""
    st = duel()
    st.bots[0].posture = PRONE
    evs = play(st, {1: sheet(1, p1="1 - 0 - -")})
    assert ("posture", 1, "stands up", 6) in evs
    assert state_of(st, 1)[:4] == (6, 10, 3, AP - 6)


def test_move_order_18_when_standing_does_nothing_and_costs_nothing():
    """CTF-23: an order with nothing to do is free."""
    st = duel()
    play(st, {1: sheet(1, p5="18 - 0 - -")})
    assert state_of(st, 1) == (6, 10, 3, AP, 0)


@pytest.mark.parametrize("engines,option,ejects", [
    (4, "-", True),    # no option: 4 engines (4.2 order 19)
    (5, "-", False),
    (9, "9", True),    # "if a value of 9 is entered ... only Eject if ... 9 or fewer"
    (10, "9", False),
])
def test_move_order_19_ejects_at_or_below_the_engine_threshold(engines, option, ejects):
    """4.2 order 19; CTF-23 eject costs 0; CTF-30: the Bot becomes Wreckage, the pilot
    ejected. Turn AP come from the working engines (CTF-22): 4 x 1.25 t x 3.5 = 17,
    5 -> 21, 9 -> 39, 10 -> 43."""
    st = duel()
    st.bots[0].engines = [1] * engines + [0] * (14 - engines)
    play(st, {1: sheet(1, p5=f"19 {option} 0 - -")})
    ap = int(engines * 1.25 * 3.5)
    assert state_of(st, 1) == (6, 10, 3, ap, 0)
    b = st.bots[0]
    assert (b.status == WRECKED, b.pilot == EJECTED) == (ejects, ejects)


def test_move_order_19_is_refused_from_a_kneeling_bot():
    """4.2 order 19: "You may only Eject while your Bot is standing"."""
    st = duel()
    st.bots[0].engines = [1] * 4 + [0] * 10
    play(st, {1: sheet(1, p4="20 - 0 - -", p5="19 - 0 - -")})
    assert st.bots[0].status == FUNCTIONAL and st.bots[0].posture == KNEELING


def test_move_order_21_sprints_two_sectors_at_twice_the_cost_and_heat():
    """4.2 order 21; CTF-23 twice the move cost per sector: 2 x (4 + 4) = 16; CTF-24 2 heat
    per sector: 4. CTF-31 fall check after the sprint: 15 - 9 (45 AP left: -1 per 5) = 6%; the
    d100 shows 100: no fall."""
    st = duel()
    evs = play(st, {1: sheet(1, p5="21 - 0 - -")}, dice=[100])
    assert state_of(st, 1) == (8, 10, 3, AP - 16, 4)
    assert [e[3:] for e in evs if e[0] == "fall"] == [(6, 100, False)]


def test_move_order_21_with_a_fall():
    """CTF-31: the same sprint, the d100 shows 6: the Bot falls (prone) where it stopped."""
    st = duel()
    play(st, {1: sheet(1, p5="21 - 0 - -")}, dice=[6])
    assert state_of(st, 1) == (8, 10, 3, AP - 16, 4)
    assert st.bots[0].posture == PRONE


def test_move_order_21_under_30_ap_is_a_move_forward():
    """4.2 order 21: "must have a minimum of 30 Action Points ... If not ... #1 MOVE FORWARD".
    Four face orders of 4 steps (8 AP each) in phases 1-4 leave 61 - 32 = 29; the sprint
    becomes order 1: 4 AP, 1 heat, one sector, no fall check."""
    st = duel()
    about = {"p1": "11 7 0 - -", "p2": "11 3 0 - -", "p3": "11 7 0 - -", "p4": "11 3 0 - -"}
    evs = play(st, {1: sheet(1, p5="21 - 0 - -", **about)})
    assert ("sprintfail", 1, 29, 30) in evs
    assert state_of(st, 1) == (7, 10, 3, 29 - 4, 1)
    assert not [e for e in evs if e[0] == "fall"]


def test_move_order_21_stops_before_a_blocked_second_sector():
    """CTF-20: a sprint stops before a blocked second sector; the first is paid as a sprint
    (8 AP, 2 heat). Still a sprint: the fall check follows (15 - 10 = 5%, d100 100)."""
    st = duel(b2=(8, 10, 7))
    play(st, {1: sheet(1, p5="21 - 0 - -")}, dice=[100])
    assert state_of(st, 1) == (7, 10, 3, AP - 8, 2)


@pytest.mark.parametrize("order,facing", [(22, 4), (23, 2)])
def test_move_orders_22_and_23_turn_45_degrees(order, facing):
    """4.2 orders 22 (right) and 23 (left): 2 AP (CTF-23), no heat (CTF-24)."""
    st = duel()
    play(st, {1: sheet(1, p5=f"{order} - 0 - -")})
    assert state_of(st, 1) == (6, 10, facing, AP - 2, 0)


def test_turn_orders_wrap_around_from_8_to_1():
    """CTF-17: right turn = next number, left = previous, 8 <-> 1."""
    st = duel(b1=(6, 10, 8))
    play(st, {1: sheet(1, p4="22 - 0 - -", p5="23 - 0 - -")})
    evs = [e for _, e in st.log if e[0] == "face"]
    assert [(e[2], e[3]) for e in evs] == [(8, 1), (1, 8)]
    assert state_of(st, 1) == (6, 10, 8, AP - 4, 0)


# -- attack orders 0-6 and the weapon choices ------------------------------------------------------
# Lancer weapons (CTF-33): 1 SL head (LS+FA+RS), 2 PBC front torso (FA), 3 MR left arm (FA+LS),
# 4 ML right arm (FA+RS). CTF-32 damage, optimum/maximum, AP, heat: SL 3, 1/3, 2, 1;
# PBC 10, 6/12, 9, 9; MR 5, 6/12, 6, 2; ML 5, 3/6, 4, 3. The target (idling, standing, 61 AP)
# dodges every rolled shot: -12 to hit (-1 per 5 AP, at most -12), paying 2 AP and 1 heat
# (CTF-28, CTF-23, CTF-24).


def test_attack_order_0_fires_nothing():
    """4.3 order 0: no weapon, no AP, no heat, for either Bot."""
    st = duel()
    evs = play(st, {1: sheet(1, p5="0 - 0 - -")})
    assert not [e for e in evs if e[0] in ("shot", "dodge")]
    assert state_of(st, 1) == (6, 10, 3, AP, 0) and state_of(st, 2) == (13, 10, 7, AP, 0)


def test_attack_order_1_fires_the_chosen_weapon_at_the_named_bot_and_misses():
    """4.3 order 1 with weapon 2 (PBC) at 7 sectors: beyond optimum 6, within the midpoint
    9: 60%, the dodge -12: 48% (CTF-28). The d100 shows 100: a miss. The firer pays 9 AP and
    9 heat; the target 2 AP and 1 heat for its dodge."""
    st = duel()
    evs = play(st, {1: sheet(1, p5="0 - 1 2 2")}, dice=[100])
    shots = [e for e in evs if e[0] == "shot"]
    assert [(e[1], e[2], e[3], e[4], e[5], e[6], e[7], e[8]) for e in shots] == [
        (1, 2, 2, "PBC", 7, 48, 100, False)]
    assert state_of(st, 1) == (6, 10, 3, AP - 9, 9)
    assert state_of(st, 2) == (13, 10, 7, AP - 2, 1)


def test_attack_order_1_hits_a_location_and_heats_the_target():
    """The same shot, the d100 shows 1: a hit; the d20 shows 5, seen from the front (the
    firer is in the target's forward arc, CTF-18): front torso (CTF-29). 10 damage from the
    front torso's 20 armour; a PBC heats its target by 2 (CTF-24): target heat 1 (dodge) + 2.
    10 damage makes the target check for a fall (CTF-31: 20 - 10 = 10%, d100 100: no fall).
    Bot 1 gets 10 VP (CTF-16)."""
    st = duel()
    evs = play(st, {1: sheet(1, p5="0 - 1 2 2")}, dice=[1, 5, 100])
    assert [e[3:7] for e in evs if e[0] == "hit"] == [(5, "FT", (("FT", 10),), 10)]
    target = st.bots[1]
    assert target.armour[1] == 20 - 10 and target.vp == 0 and st.bots[0].vp == 10
    assert state_of(st, 1) == (6, 10, 3, AP - 9, 9)
    assert state_of(st, 2) == (13, 10, 7, AP - 2, 1 + 2)


def test_attack_order_1_at_a_friendly_bot_is_a_sheet_error():
    """4.3 order 1 attacks an *enemy* Bot; CTF-37: its option is an enemy Bot's number, so a
    sheet naming a teammate is rejected by line and field, and nothing is handed in."""
    st = teams_of_two()
    with pytest.raises(ParseError, match="line 6, field 5"):
        st.parse(sheet(1, p5="0 - 1 2 2"), 0)
    assert st.bots[0].sheet is None


def test_attack_order_1_at_a_bot_out_of_scanning_range_is_cancelled_at_no_cost():
    """4.3 order 1; CTF-21: attacks need their target functional and in scanning range (15;
    Bot 2 is 17 away); CTF-27: cancelled, nothing paid."""
    st = duel(b1=(2, 3, 3), b2=(19, 19, 7))
    evs = play(st, {1: sheet(1, p5="0 - 1 2 2")})
    assert state_of(st, 1) == (2, 3, 3, AP, 0)
    assert [e[3] for e in skipped(evs, 1)] == [1]


def test_attack_order_2_fires_at_the_nearest_enemy():
    """4.3 order 2 with weapon 3 (MR, left arm: FA+LS). Bot 3 (13-14) is 7 away, Bot 4 at
    12-6 only 6 (CTF-17): the nearest, in the forward arc (offset (6, -4), CTF-18), at the
    MR's optimum: 75 - 12 (dodge) = 63%. The firer pays 6 AP and 2 heat, Bot 4 2 AP and 1
    heat for its dodge."""
    st = teams_of_two(b4=(12, 6, 7))
    evs = play(st, {1: sheet(1, p5="0 - 2 - 3")}, dice=[100])
    assert [(e[2], e[4], e[5], e[6]) for e in evs if e[0] == "shot"] == [(4, "MR", 6, 63)]
    assert state_of(st, 1) == (6, 10, 3, AP - 6, 2)
    assert state_of(st, 4) == (12, 6, 7, AP - 2, 1)


def test_attack_order_3_fires_at_the_last_enemy_bot_to_target_me():
    """4.3 order 3: Bot 4 hit Bot 1 last (CTF-21 memory), weapon 2 (PBC) at 7 sectors: 48%."""
    st = teams_of_two()
    st.bots[0].last_by = 4
    evs = play(st, {1: sheet(1, p5="0 - 3 - 2")}, dice=[100])
    assert [(e[2], e[4]) for e in evs if e[0] == "shot"] == [(4, "PBC")]
    assert state_of(st, 1) == (6, 10, 3, AP - 9, 9)


def test_attack_order_4_fires_at_the_last_enemy_bot_targeted():
    """4.3 order 4: Bot 1 last hit Bot 3; weapon 2 (PBC) at 7 sectors."""
    st = teams_of_two()
    st.bots[0].last_at = 3
    evs = play(st, {1: sheet(1, p5="0 - 4 - 2")}, dice=[100])
    assert [(e[2], e[4]) for e in evs if e[0] == "shot"] == [(3, "PBC")]
    assert state_of(st, 1) == (6, 10, 3, AP - 9, 9)


@pytest.mark.parametrize("order", [3, 4])
def test_attack_orders_3_and_4_without_a_memory_are_cancelled(order):
    """4.3 orders 3, 4: nobody to fire at (CTF-21, CTF-27): no AP, no heat."""
    st = duel()
    evs = play(st, {1: sheet(1, p5=f"0 - {order} - 2")})
    assert state_of(st, 1) == (6, 10, 3, AP, 0)
    assert [e[3] for e in skipped(evs, 1)] == [order]


def test_attack_order_5_fires_at_the_nearest_enemy_command_post_and_is_fired_on():
    """4.3 order 5. Bot 1 waits at 8-26 facing 3, 11 sectors from CP B1 (19-34): beyond its
    Large Laser (10). In phase 5 it moves forward to 9-26 (4 AP, 1 heat), 10 from B1, and
    fires weapon 2 (PBC) at it, B1 being the nearest enemy CP (B2 at 19-66) and in the forward
    arc (offset (10, 8), CTF-18): beyond the midpoint 9 of 6/12: 45, +10 at a command post, -5
    having moved (CTF-28): 50. The d100 shows 1: 10 damage, 60 -> 50 structure, 20 VP (2 a
    point, CTF-16); the PBC costs 9 AP and 9 heat. Command posts fire last (4.3): B1's Large
    Laser at Bot 1, 10 away (beyond the midpoint 8 of 5/10: 45), -5 for the sector Bot 1
    entered, its dodge -9 (48 AP: -1 per 5), paying 2 AP and 1 heat (CTF-34, CTF-28): 31; the
    d100 shows 100: a miss. 61 - 4 - 9 - 2 = 46 AP; heat 1 + 9 + 1 = 11."""
    st = duel(b1=(8, 26, 3))
    evs = play(st, {1: sheet(1, p5="1 - 5 - 2")}, dice=[1, 100])
    shots = [(e[1], e[2], e[4], e[5], e[6], e[8]) for e in evs if e[0] == "shot"]
    assert shots == [(1, "B1", "PBC", 10, 50, True), ("B1", 1, "LL", 10, 31, False)]
    assert st.cps[2].label == "B1" and st.cps[2].structure == 50 and st.bots[0].vp == 20
    assert state_of(st, 1) == (9, 26, 3, AP - 4 - 9 - 2, 11)


def test_attack_order_6_self_destructs_under_5_tons_of_engines():
    """4.3 order 6; CTF-30: needs functional engines under 5 tons: 3 Lancer engines (3.75 t)
    qualify; the Bot becomes Wreckage, the pilot dies; it costs nothing (CTF-23). Turn AP from
    3 engines: 3.75 x 3.5 = 13."""
    st = duel()
    st.bots[0].engines = [1] * 3 + [0] * 11
    play(st, {1: sheet(1, p5="0 - 6 - -")})
    b = st.bots[0]
    assert (b.status, b.pilot) == (WRECKED, DEAD)
    assert state_of(st, 1) == (6, 10, 3, 13, 0)


def test_attack_order_6_with_5_tons_of_engines_is_cancelled():
    """4.3 order 6: "less than 5 tons": 4 engines are 5 t exactly: skipped, nothing paid."""
    st = duel()
    st.bots[0].engines = [1] * 4 + [0] * 10
    evs = play(st, {1: sheet(1, p5="0 - 6 - -")})
    assert st.bots[0].status == FUNCTIONAL
    assert [e[3] for e in skipped(evs, 1)] == [6]
    assert state_of(st, 1) == (6, 10, 3, 17, 0)


@pytest.mark.parametrize("weapon,where,key,cost,heat,chance", [
    (1, (8, 10), "SL", 2, 1, 60 - 12),    # SL at 2: beyond optimum 1, within midpoint 2: 60
    (2, (13, 10), "PBC", 9, 9, 60 - 12),  # PBC at 7: beyond optimum 6, within midpoint 9
    (3, (12, 10), "MR", 6, 2, 75 - 12),   # MR at its optimum 6: 75
    (4, (9, 10), "ML", 4, 3, 75 - 12),    # ML at its optimum 3: 75
])
def test_each_weapon_costs_its_ap_and_heat(weapon, where, key, cost, heat, chance):
    """4.3: the weapon field chooses the weapon (CTF-37); CTF-32 AP and heat of one shot;
    CTF-28 to hit: 75 at the optimum, 60 beyond it up to the midpoint of optimum and maximum
    (rounded up), 45 beyond; the target's dodge -12."""
    st = duel(b2=(*where, 7))
    evs = play(st, {1: sheet(1, p5=f"0 - 1 2 {weapon}")}, dice=[100])
    assert [(e[3], e[4], e[6]) for e in evs if e[0] == "shot"] == [(weapon, key, chance)]
    assert state_of(st, 1) == (6, 10, 3, AP - cost, heat)


@pytest.mark.parametrize("where,facing,best", [
    ((11, 10), 3, "PBC"),   # 5 ahead: PBC (10) is in arc and range: the most damaging
    ((6, 5), 3, "ML"),      # 5 to the right side (RS): only the right arm's ML (5) reaches
    ((6, 15), 3, "MR"),     # 5 to the left side (LS): the left arm's MR (5) (SL: range 3)
    ((8, 11), 3, "PBC"),    # 2 ahead (offset (2, 1): FA): PBC, MR, ML and SL all reach
])
def test_weapon_0_picks_the_most_damaging_weapon_that_can_fire(where, facing, best):
    """CTF-36: weapon 0 is the most damaging weapon functional, in arc and range and
    affordable (ties: the lowest number); CTF-7 arcs by location, CTF-18 arcs."""
    st = duel(b1=(6, 10, facing), b2=(*where, 7))
    evs = play(st, {1: sheet(1, p5="0 - 1 2 0")}, dice=[100])
    assert [e[4] for e in evs if e[0] == "shot"] == [best]


def test_weapon_0_with_nothing_that_can_fire_is_cancelled():
    """CTF-36: no weapon reaches a target straight behind (only the rear torso fires RA, a
    Lancer has nothing there): cancelled at no cost."""
    st = duel(b2=(1, 10, 3))
    evs = play(st, {1: sheet(1, p5="0 - 1 2 0")})
    assert state_of(st, 1) == (6, 10, 3, AP, 0)
    assert [e[4] for e in skipped(evs, 1)] == ["no weapon can fire at the target (CTF-36)"]


@pytest.mark.parametrize("weapon,where,why", [
    (4, (13, 10), "beyond the range"),     # ML: 7 > 6
    (2, (6, 5), "out of the arc"),         # PBC (front torso) at a target on the right side
    (1, (10, 10), "beyond the range"),     # SL: 4 > 3
])
def test_a_weapon_that_cannot_fire_cancels_the_attack_at_no_cost(weapon, where, why):
    """4.5: "Otherwise your weapon won't be able to fire and your Attack Order will be
    canceled"; CTF-27: out of arc or beyond maximum range: no AP, no heat."""
    st = duel(b2=(*where, 7))
    evs = play(st, {1: sheet(1, p5=f"0 - 1 2 {weapon}")})
    assert state_of(st, 1) == (6, 10, 3, AP, 0)
    assert [why in e[4] for e in skipped(evs, 1)] == [True]


def test_a_destroyed_weapon_cannot_fire():
    """CTF-27: a destroyed weapon cancels the attack at no cost."""
    st = duel()
    st.bots[0].weapons[1] = DESTROYED
    evs = play(st, {1: sheet(1, p5="0 - 1 2 2")})
    assert state_of(st, 1) == (6, 10, 3, AP, 0)
    assert ["destroyed" in e[4] for e in skipped(evs, 1)] == [True]


def test_a_damaged_weapon_costs_half_as_much_again_and_hits_less():
    """4.6 "Damaged weapons require even more Action Points"; CTF-23: x1.5 rounded up, a PBC
    9 -> 14 AP; CTF-28: -10 to hit: 60 - 12 - 10 = 38. Heat as usual, 9."""
    st = duel()
    st.bots[0].weapons[1] = DAMAGED
    evs = play(st, {1: sheet(1, p5="0 - 1 2 2")}, dice=[100])
    assert [e[6] for e in evs if e[0] == "shot"] == [38]
    assert state_of(st, 1) == (6, 10, 3, AP - 14, 9)


def test_a_weapon_the_design_does_not_have_is_a_sheet_error():
    """CTF-37: the weapon is a number from the Bot's list (a Lancer has 4) or 0: weapon 5 is
    refused by line and field, and nothing is handed in."""
    st = duel()
    with pytest.raises(ParseError, match="line 6, field 6"):
        st.parse(sheet(1, p5="0 - 1 2 5"), 0)
    with pytest.raises(IllegalAction, match="CTF-37"):
        st.apply(("turn", 1) + (0,) * 20 + (0, 0, 1, 2, 5), 0)
    assert st.bots[0].sheet is None


def test_moving_then_firing_in_one_phase_pays_both_and_aims_worse():
    """4.2: "Move Orders ... always occur before that Bot's Attack Orders"; CTF-28: the
    attacker entered a sector this phase, -5. Order 1 (4 AP, 1 heat) to 7-10, then the PBC at
    Bot 2, 6 away (its optimum): 75 - 12 - 5 = 58. 61 - 4 - 9 = 48 AP, heat 1 + 9 = 10."""
    st = duel()
    evs = play(st, {1: sheet(1, p5="1 - 1 2 2")}, dice=[100])
    assert [(e[5], e[6]) for e in evs if e[0] == "shot"] == [(6, 58)]
    assert state_of(st, 1) == (7, 10, 3, AP - 13, 10)


def test_events_helper_sees_the_log():
    """The turn's log holds the order's events (the helpers read it the same way)."""
    st = duel()
    play(st, {1: sheet(1, p5="22 - 0 - -")})
    assert events(st, "face") == [("face", 1, 3, 4, 2)]


@pytest.mark.parametrize("order", [10, 17])
def test_orders_toward_a_friendly_command_post_with_none_left_are_cancelled(order):
    """4.2 orders 10 and 17 aim at the nearest *operational* friendly command post: with both
    of team A's in Ruins there is none, and the order is cancelled at no cost (CTF-19)."""
    st = duel(b1=(6, 32, 7))
    for c in st.cps[:2]:
        c.structure = 0
    evs = play(st, {1: sheet(1, p5=f"{order} - 0 - -")})
    assert state_of(st, 1) == (6, 32, 7, AP, 0)
    assert [e[3] for e in skipped(evs, 1)] == [order]
