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
after phase 5 only the command posts act (out of reach here). The duel's map is open ground
of elevation 1 (ctf2187_helpers.map_text); Bot 1 (Player 1, team A) stands at 6-10 facing 3
(east), Bot 2 (Player 2, team B) at 13-10 facing 7, 7 sectors apart and more than 10 sectors
(the command posts' Large Laser) from the other team's command posts at 2-7, 2-14 (A) and
19-7, 19-14 (B), so no command post fires unless a test means it to.
"""

from __future__ import annotations

import pytest
from ctf2187_helpers import Dice, game, place

from boardct.core.errors import ParseError
from boardct.games.ctf2187.units import FUNCTIONAL, WRECKED

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


def duel(**spots) -> object:
    """The duel of Lancers on open ground, Bot 1 at 6-10 facing 3, Bot 2 at 13-10 facing 7;
    `b1=(x, y, facing)` or `b2=...` place them elsewhere."""
    st = game()
    place(st, 1, *spots.get("b1", (6, 10, 3)))
    place(st, 2, *spots.get("b2", (13, 10, 7)))
    return st


def teams_of_two(**spots) -> object:
    """Two Lancers a side (Player 1: Bots 1, 2, team A; Player 2: Bots 3, 4, team B): Bot 1 at
    6-10 facing 3, its friend Bot 2 at 6-14, enemies Bot 3 at 13-14 and Bot 4 at 13-6."""
    st = game(bots_per_team=2)
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
