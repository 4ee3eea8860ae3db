"""Resigning in CTF 2187 (CTF-40): in a team game one player's resignation does not end the
game; their Bots follow their standing orders for the rest of it, as for a sheet that never
arrives (CTF-14); the team loses by resignation only when every one of its players has
resigned; with one player a team a resignation ends the game as before. Records replay it
(the "resign N" entry)."""

from __future__ import annotations

import random

import pytest

from boardct.core import registry, table
from boardct.core.errors import IllegalAction
from boardct.core.game import MESSAGE
from boardct.core.records import Record, record_of, replay
from boardct.games.ctf2187.sheet import MISSING, STANDING, TURN
from boardct.games.ctf2187.units import FUNCTIONAL, WRECKED

CTF = registry.get("ctf2187")
HOLD = (0, 0, 0, 0, 0) * 5
NAMES = ["ann", "bob", "cy", "dee"]  # teams (CTF-35, one Bot each): ann, bob A; cy, dee B


def two_v_two(seed: int = 3, **options):
    return CTF.new(seed=seed, names=NAMES, **options)


def hand_in_all(st, rnd: random.Random | None = None) -> list[tuple]:
    """Every sheet still owed: a random sample sheet each (HOLD without `rnd`)."""
    out: list[tuple] = []
    for p in st.current_players():
        for num in st.owed(p):
            sheet = rnd.choice(st.sample_sheets(num)) if rnd else (TURN, num, *HOLD)
            out += st.apply(sheet, p)
    return out


def dump(st) -> tuple:
    """Everything about the Bots and the command posts, and the turn, for comparing games."""
    return (st.turn, st.over, tuple((b.num, b.x, b.y, b.facing, b.posture, b.status, b.ap,
                                     b.heat, tuple(b.armour), tuple(b.internal), b.vp)
                                    for b in st.bots),
            tuple((c.label, c.structure) for c in st.cps), st.rng.s)


def test_a_resignation_in_a_team_game_leaves_the_game_going():
    """CTF-40: ann resigns; her team still has bob: the game goes on, she owes no sheet, the
    others still do, and everyone is told (a table message; `resigned` in every view)."""
    st = two_v_two()
    events = st.resign(0)
    assert not st.is_over
    assert events == [(MESSAGE, "Player 1 resigns; their Bots follow their standing orders "
                                "from now on (CTF-40).")]
    assert st.current_players() == (1, 2, 3) and st.owed(0) == []
    assert st.legal_actions(0) == []
    for viewer in (None, 0, 1, 2, 3):
        assert st.view(viewer)["board"]["resigned"] == [0]
        assert 0 not in st.to_move_seen(viewer)
    assert st.bots[0].status == FUNCTIONAL  # her Bot stays in the battle


def test_the_resigned_players_bots_follow_their_standing_orders_as_for_a_missing_sheet():
    """CTF-40 "as for a player whose sheet never arrives" (CTF-14): a game where ann resigns
    at the start plays exactly as one where ann hands in `default` (her standing orders,
    `BOT n TURN t MISSING`) every turn, the other players' sheets being the same, to the end."""
    resigned, missing = two_v_two(), two_v_two()
    resigned.resign(0)
    rnd_a, rnd_b = random.Random(9), random.Random(9)
    turns = 0
    while not missing.is_over:
        alive = missing.owed(0) != []
        if alive:
            missing.apply((MISSING, 1), 0)
        ev_missing = hand_in_all(missing, rnd_b)
        ev_resigned = hand_in_all(resigned, rnd_a)
        assert ev_resigned == ev_missing
        if alive:  # her Bot acted on its standing orders
            assert ("ap", 1, resigned.bots[0].ap_start, True) in ev_resigned
        assert dump(resigned) == dump(missing)
        turns += 1
    assert resigned.is_over and resigned.outcome == missing.outcome
    assert turns >= 3 and resigned.outcome.reason != "resignation"


def test_a_sheet_handed_in_before_resigning_stands_for_that_turn():
    """A choice where CTF-40 is silent: a sheet that arrived stands for its turn (only the
    sheets still owed are replaced by the standing orders); from the next turn on, standing
    orders."""
    st = two_v_two()
    kneel = (TURN, 1, 20, 0, 0, 0, 0, *HOLD[5:])
    st.apply(kneel, 0)
    st.resign(0)
    events = hand_in_all(st)
    assert ("ap", 1, st.bots[0].ap_start, False) in events  # its sheet, not standing orders
    assert ("posture", 1, "kneels", 3) in events
    events = hand_in_all(st)  # turn 2
    assert ("ap", 1, st.bots[0].ap_start, True) in events


def test_a_resigned_player_hands_in_nothing_and_cannot_resign_again():
    """CTF-40: she has left the game: a sheet (or new standing orders) from her is refused
    with the ruling, and so is a second resignation; nothing changes."""
    st = two_v_two()
    st.resign(0)
    before = (dump(st), record_of(st).to_json())
    for action in [(TURN, 1, *HOLD), (MISSING, 1), (STANDING, 1, *HOLD)]:
        with pytest.raises(IllegalAction, match="CTF-40"):
            st.apply(action, 0)
    with pytest.raises(IllegalAction, match="CTF-40"):
        st.resign(0)
    assert (dump(st), record_of(st).to_json()) == before


def test_the_last_sheet_owed_may_be_the_resigners_then_the_resignation_processes_the_turn():
    """When everyone else has handed in, the resignation leaves no sheet owed: the turn is
    processed at once, after the announcement, with the resigner's standing orders."""
    st = two_v_two()
    for p in (1, 2, 3):
        st.apply((TURN, p + 1, *HOLD), p)
    assert st.current_players() == (0,)
    events = st.resign(0)
    assert events[0][0] == MESSAGE and ("turn", 1) in events
    assert ("ap", 1, st.bots[0].ap_start, True) in events
    assert st.turn == 2 and st.current_players() == (1, 2, 3)


def test_a_team_loses_by_resignation_only_when_all_its_players_have_resigned():
    """CTF-40: ann resigns, the game goes on; bob too: team A has resigned, cy and dee win."""
    st = two_v_two()
    st.resign(0)
    hand_in_all(st)
    events = st.resign(1)
    out = st.outcome
    assert st.is_over and out.reason == "resignation" and out.winners == (2, 3)
    assert out.returns == (0.0, 0.0, 1.0, 1.0)
    assert events == [(MESSAGE, f"Player 2 resigns: {out.describe()}.")]


def test_a_resignation_on_each_team_leaves_the_battle_to_the_usual_end():
    """ann (team A) and dee (team B) resign; bob and cy fight on, their teammates' Bots on
    standing orders: the game ends at the turn limit, decided by the ratings (CTF-39)."""
    st = two_v_two(turn_limit=3)
    st.resign(0)
    st.resign(3)
    rnd = random.Random(4)
    while not st.is_over:
        assert st.current_players() == (1, 2) or not any(
            b.status == FUNCTIONAL for b in st.bots if b.player in (1, 2))
        hand_in_all(st, rnd)
    assert st.outcome.reason.startswith(("turn limit", "elimination", "no functional"))
    assert st.outcome.reason != "resignation"


def test_nobody_left_to_decide_the_turns_are_processed_to_the_end():
    """Every player still in the game has only Wreckage (bob, cy), the others resigned: no
    sheet will ever be owed again, so the turns run on standing orders to the end, at once."""
    st = two_v_two(turn_limit=4)
    st.bots[1].status = WRECKED  # bob's Bot
    st.bots[2].status = WRECKED  # cy's Bot
    st.resign(0)
    assert not st.is_over and st.current_players() == (3,)
    events = st.resign(3)
    assert st.is_over and st.outcome.reason != "resignation"
    assert [e[1] for e in events if e[0] == "turn"] == list(range(1, st.log_turn + 1))


@pytest.mark.parametrize("names,teams", [(["ann", "bob"], 2), (["ann", "bob", "cy"], 3)])
def test_with_one_player_a_team_a_resignation_ends_the_game_as_before(names, teams):
    """CTF-40: "In a game of one player per team, a resignation ends the game as before": the
    resigner's team loses, every other team's players share the win."""
    st = CTF.new(seed=1, names=names, teams=teams)
    st.resign(1)
    out = st.outcome
    assert st.is_over and out.reason == "resignation"
    assert out.winners == tuple(p for p in range(len(names)) if p != 1)


def test_a_commander_of_a_whole_team_resigning_ends_the_game():
    """One commander a team (bots_per_team=2, two players): the commander is the whole team."""
    st = CTF.new(seed=1, names=["ann", "bob"], bots_per_team=2)
    st.resign(0)
    assert st.is_over and st.outcome.winners == (1,)


def test_records_replay_a_resignation_that_left_the_game_going():
    """The record keeps "resign 1" where it happened; replaying it gives the same game."""
    st = two_v_two(turn_limit=3)
    rnd = random.Random(2)
    hand_in_all(st, rnd)
    st.apply((TURN, 2, *HOLD), 1)
    st.resign(0)
    while not st.is_over:
        hand_in_all(st, rnd)
    rec = record_of(st)
    assert "resign 1" in rec.actions
    again = replay(Record.from_json(rec.to_json()))
    assert dump(again) == dump(st) and again.outcome == st.outcome
    assert all(again.view(p) == st.view(p) for p in (None, 0, 1, 2, 3))


def test_no_undo_reaches_back_past_a_resignation():
    """An undo replays the actions it keeps; a resignation that left the game going is not
    one of them, so the table refuses (what was played before a resignation stands)."""
    st = two_v_two()
    st.apply((TURN, 3, *HOLD), 2)
    st.resign(0)
    assert "resigned" in table.undo_problem(st, 1)
    with pytest.raises(IllegalAction):
        table.undo(st, 1)
