"""The core API contract: simultaneous turns, views, records, clones, and property tests."""

from __future__ import annotations

import json
import random

from ctf2187_helpers import game, place
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from boardct.core import registry
from boardct.core.errors import BoardctError
from boardct.core.outcome import Termination
from boardct.core.records import Record, record_of, replay
from boardct.games.ctf2187.report import moderator_view
from boardct.games.ctf2187.units import Bot, CommandPost


def snapshot(st) -> tuple:
    bots = tuple(tuple(repr(getattr(b, s)) for s in Bot.__slots__) for b in st.bots)
    cps = tuple(tuple(getattr(c, s) for s in CommandPost.__slots__) for c in st.cps)
    return (bots, cps, tuple(st.occ), st.rng.s, st.turn, st.over, len(st.log),
            len(st.history()))


def play_random(st, rng: random.Random, max_turns: int = 50):
    turns = 0
    while st.current_players() and turns < max_turns * 20:
        for p in st.current_players():
            st.apply(rng.choice(st.legal_actions(p)), p)
        turns += 1
    return st


def test_simultaneous_turn_current_players_owe_sheets():
    st = game(names=("a", "b", "c", "d"))
    assert st.current_players() == (0, 1, 2, 3)
    st.apply(st.legal_actions(2)[0], 2)
    assert st.current_players() == (0, 1, 3)
    assert st.turn == 1
    for p in (0, 1, 3):
        st.apply(st.legal_actions(p)[0], p)
    assert st.turn == 2
    assert st.current_players() == (0, 1, 2, 3)


def test_commander_owes_a_sheet_per_bot():
    st = registry.get("ctf2187").new(seed=2, bots_per_team=4)
    assert len(st.bots) == 8 and st.current_players() == (0, 1)
    assert st.owed(0) == [1, 2, 3, 4]
    for num in (1, 2, 3):
        st.apply(st.sample_sheets(num)[1], 0)
    assert st.current_players() == (0, 1)
    st.apply(st.sample_sheets(4)[1], 0)
    assert st.current_players() == (1,)


def test_legal_actions_are_distinct_and_all_accepted():
    st = game()
    acts = st.legal_actions(0)
    assert len(acts) == len(set(acts)) >= 10
    for a in acts:
        c = st.clone()
        c.apply(a, 0)
        assert st.parse(st.notation(a)) == a


def test_prompt_names_player_bot_and_turn():
    st = game()
    assert st.prompt() == "Player 1 (Bot 1, turn 1 order sheet): "


def test_record_names_the_player_and_replays():
    st = game(names=("a", "b", "c", "d"))
    play_random(st, random.Random(3), max_turns=3)
    rec = record_of(st)
    assert rec.actions[0].startswith("player 1: BOT 1 TURN 1; P1 ")
    again = replay(Record.from_json(rec.to_json()))
    assert snapshot(again)[:5] == snapshot(st)[:5]


def test_view_shows_only_what_the_bot_sees():
    """A player sees its own Bot and its contacts. The spectator has no Bot: while the game
    goes on it sees none, nor the terrain (issue 15 item 9); after the end it sees everything."""
    st = game()
    place(st, 1, 2, 2, facing=2)
    place(st, 2, 19, 19, facing=6)   # 17 sectors away: beyond scanning range 15
    v = st.view(0)
    assert [b["bot"] for b in v["board"]["bots"]] == [1]
    assert v["board"]["contacts"] == []
    assert all(abs(int(c) - 2) <= 5 for row in [v["board"]["visual"][0]] for c in
               (row["x_from"], row["x_to"]))
    place(st, 2, 12, 12)
    assert [c["bot"] for c in st.view(0)["board"]["contacts"]] == [2]
    spectator = st.view(None)
    board = spectator["board"]
    assert board["bots"] == [] and "terrain" not in board and "contacts" not in board
    json.dumps(v)
    json.dumps(spectator)
    st.end("turn limit", Termination.TURN_LIMIT)
    after = st.view(None)
    assert len(after["board"]["bots"]) == 2 and "terrain" in after["board"]
    assert after["board"] == moderator_view(st)
    json.dumps(after)


def test_view_hides_other_players_sheets_and_distant_events():
    """Each player's log holds what its Bots saw; the whole log is the moderator's (and the
    spectator's only after the end: issue 15 item 9 — during the game it gets headers only)."""
    st = game(names=("a", "b", "c", "d"))
    place(st, 3, 19, 19)
    place(st, 4, 19, 17)
    place(st, 1, 2, 2)
    place(st, 2, 2, 4)
    st.apply(st.legal_actions(2)[0], 2)
    assert st.view(0)["board"]["submitted"] == []
    assert st.view(2)["board"]["submitted"] == [3]
    for p in (0, 1, 3):
        st.apply(st.legal_actions(p)[2], p)  # everybody holds still
    assert st.turn == 2
    assert len(st.view(0)["board"]["log"]) < len(moderator_view(st)["log"])
    assert not any(e[0] == "ap" and e[1] == 3 for e in st.view(0)["board"]["log"])
    assert st.view(None)["board"]["submitted"] == [] and st.view(None)["board"]["owed"] == []
    assert {e[0] for e in st.view(None)["board"]["log"]} == {"turn", "phase"}


def test_clone_is_independent():
    st = game()
    c = st.clone()
    before = snapshot(st)
    for p in c.current_players():
        c.apply(c.legal_actions(p)[1], p)
    assert c.turn == 2
    assert snapshot(st) == before


def test_determinize_hides_other_sheets():
    """Other players' sheets are hidden: in a determinization each is resampled, handed in
    or not in the real game (see tests/ctf2187/test_ctf2187_secrecy.py)."""
    st = game()
    st.apply(st.legal_actions(1)[2], 1)
    sheets = {st.determinize(0, k).bots[1].sheet for k in range(8)}
    assert None not in sheets and len(sheets) > 2
    assert st.determinize(0, 1).current_players() == (0,)


def test_render_and_rich_render():
    st = game()
    text = st.render(0)
    assert "turn 1 of 10" in text and " 1>" in text
    assert "Bot 1 A Lancer at 4-10 facing 3" in text
    assert st.render_rich(None).plain.splitlines()[0] == text.splitlines()[0].replace(
        "Player 1", "spectator")


def test_evaluate_is_bounded():
    st = game()
    g = registry.get("ctf2187")
    assert g.evaluate(st, 0) == 0.0
    st.bots[0].vp = 80
    assert 0 < g.evaluate(st, 0) <= 1 and -1 <= g.evaluate(st, 1) < 0


CONFIGS = [
    ({"names": ["a", "b"], "bots_per_team": 1}),
    ({"names": ["a", "b"]}),
    ({"names": ["a", "b", "c"]}),
    ({"names": ["a", "b", "c", "d"]}),
    ({"names": ["a", "b", "c"], "teams": 3}),
    ({"names": ["a", "b", "c", "d"], "teams": 4, "bots_per_team": 2}),
    ({"names": ["a", "b"], "bots_per_team": 2, "designs": "Scout,Titan"}),
    ({"names": [str(i) for i in range(8)], "bots_per_team": 4}),
]


def test_complete_random_games_end_without_error():
    g = registry.get("ctf2187")
    rng = random.Random(11)
    for seed in range(16):
        options = dict(CONFIGS[seed % len(CONFIGS)])
        names = options.pop("names")
        st = g.new(seed=seed, names=names, **options)
        play_random(st, rng)
        assert st.outcome is not None
        assert st.current_players() == ()
        assert st.legal_actions() == []
        assert 1 <= st.log_turn <= 10
        assert len(st.outcome.returns) == len(names)


def test_benchmark_configuration_2x4_plays_to_the_end():
    st = registry.get("ctf2187").new(seed=4, bots_per_team=4, turn_limit=3)
    play_random(st, random.Random(1))
    assert st.outcome is not None and st.log_turn <= 3


TEXTS = hs.one_of(
    hs.text(max_size=40),
    hs.sampled_from(["default", "BOT 1 TURN 1", "BOT 2 STANDING", "BOT 1 TURN 1 MISSING",
                     "player 1: BOT 1 TURN 1 MISSING", "BOT 1 TURN 1; P1 1 - 2 - 9"]),
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 1000), steps=hs.lists(hs.tuples(hs.integers(0, 40), TEXTS),
                                                  max_size=25))
def test_property_random_valid_and_invalid_commands(seed, steps):
    """Only BoardctErrors; a rejected command changes nothing; records replay exactly."""
    st = registry.get("ctf2187").new(seed=seed, names=["a", "b", "c"])
    for pick, text in steps:
        players = st.current_players()
        if not players:
            break
        p = players[pick % len(players)]
        if pick % 3 == 0:
            before = snapshot(st)
            try:
                st.apply(st.parse(text, p), p)
            except BoardctError:
                assert snapshot(st) == before
            continue
        acts = st.legal_actions(p)
        st.apply(acts[pick % len(acts)], p)
    c = st.clone()
    again = replay(Record.from_json(record_of(st).to_json()))
    assert snapshot(again)[:5] == snapshot(st)[:5]
    assert snapshot(c) == snapshot(st)


@settings(max_examples=15, deadline=None)
@given(seed=hs.integers(0, 10_000), bad=hs.lists(hs.integers(-3, 30), min_size=0, max_size=30))
def test_property_hand_made_actions_only_boardct_errors(seed, bad):
    st = registry.get("ctf2187").new(seed=seed)
    before = snapshot(st)
    try:
        st.apply(tuple(bad), 0)
    except BoardctError:
        assert snapshot(st) == before


def test_view_shows_only_own_team_rating_until_the_end():
    """A player knows its own team's rating, the spectator none (issue 15 item 9); everyone
    knows every rating once the game is over (CTF-39)."""
    st = game()
    st.bots[1].vp = 30
    assert st.view(0)["board"]["teams"] == [{"team": "A", "rating": 0.0}]
    assert st.view(None)["board"]["teams"] == []
    assert "B 0.55" not in st.render(0) and "Ratings" not in st.render(None)
    st.end("turn limit", Termination.TURN_LIMIT)
    assert [t["team"] for t in st.view(0)["board"]["teams"]] == ["A", "B"]
    assert [t["team"] for t in st.view(None)["board"]["teams"]] == ["A", "B"]
    assert "B 0.55" in st.render(None)


def test_bot_copy_copies_every_slot():
    st = game()
    b = st.bots[0]
    for i, name in enumerate(Bot.__slots__):
        if not isinstance(getattr(b, name), list):
            setattr(b, name, ("marker", i))
    c = b.copy()
    assert all(getattr(c, n) == getattr(b, n) for n in Bot.__slots__)
    for name in ("armour", "internal", "engines", "weapons"):
        assert getattr(c, name) is not getattr(b, name)
