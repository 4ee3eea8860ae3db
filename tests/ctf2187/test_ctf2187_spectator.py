"""CTF 2187's spectator (issue 15 item 9; DESIGN: `view(None)` is exactly what someone with no
seat may know). While the game goes on the spectator sees only what is public — the map's
size, the turn and turn limit, the command posts (CTF-21), the turn and phase headers every
player sees, the result — and no Bot, standing order, sheet, terrain or rating. Once the game
is over nothing is secret and the spectator sees the whole picture (`report.moderator_view`).

Spectators are `boardct replay` of an unfinished game today, the web server's later."""

from __future__ import annotations

import json
import random
import re

import pytest
from ctf2187_helpers import game, place

from boardct.core import registry
from boardct.core.game import MESSAGE
from boardct.core.outcome import Termination
from boardct.games.ctf2187.maps import generate_map
from boardct.games.ctf2187.report import _cells, moderator_view, plain
from boardct.games.ctf2187.sheet import STANDING, TURN
from boardct.games.ctf2187.state import CtfState
from boardct.games.ctf2187.units import FUNCTIONAL

CTF = registry.get("ctf2187")
HOLD = (0, 0, 0, 0, 0) * 5
FIRE = (0, 0, 2, 0, 0) * 5  # hold still, fire at the nearest enemy with the best weapon
PUBLIC_KINDS = {"turn", "phase"}  # the headers every player sees
CP_LABEL = re.compile(r"\A ?[A-Da-d][1-9]\Z")
BOT_LINE = re.compile(r"^Bot \d+ [A-D] ", re.M)  # a Bot's line under the board


def battle() -> CtfState:
    """Two Bots close enough to shoot each other: after a turn of fire both teams have VP."""
    st = game(cells={(10, 12): "w1", (3, 3): "H3"})  # some terrain that is not Open
    place(st, 1, 8, 10, facing=3)
    place(st, 2, 12, 10, facing=7)
    for b in st.bots:
        st.apply((TURN, b.num, *FIRE), b.player)
    st.apply((STANDING, 1, *HOLD), 0)  # new standing orders, not the default
    assert st.turn == 2 and st.over is None and sum(b.vp for b in st.bots) > 0
    return st


def bot_secrets(st: CtfState) -> list[str]:
    """Strings that would give away a Bot: its sector and its design, quoted as JSON has them."""
    out = []
    for b in st.bots:
        out += [f'"{b.x}-{b.y}"', f'"{b.design.name}"']
    return out


def assert_public_only(st: CtfState) -> None:
    """view(None) holds nothing of any Bot, order, sheet, terrain or rating."""
    v = st.view(None)
    assert v["viewer"] is None and v["result"] is None
    board = v["board"]
    assert board["bots"] == [] and board["standing_orders"] == {} and board["submitted"] == []
    assert board["owed"] == [] and board["teams"] == []
    assert not {"terrain", "contacts", "visual"} & board.keys()
    assert {e[0] for e in v["board"]["log"]} <= PUBLIC_KINDS
    assert v["board"]["command_posts"] == moderator_view(st)["command_posts"]  # CTF-21: public
    text = json.dumps(v)
    assert not [s for s in bot_secrets(st) if s in text], text


def assert_board_public_only(st: CtfState) -> None:
    """render(None): the command posts on an empty map, no Bot line, no rating."""
    text = st.render(None)
    for row in _cells(st, None):
        for cell, _style in row:
            assert cell == "   " or CP_LABEL.match(cell), cell
    assert not BOT_LINE.search(text) and "Ratings" not in text and "Bot " not in text
    assert "(spectator)" in text and "Command posts:" in text
    assert st.render_rich(None).plain.splitlines() == text.splitlines()


# -- during the game -----------------------------------------------------------------------------

def test_the_spectator_view_holds_no_bot_order_terrain_or_rating_during_the_game():
    st = battle()
    assert_public_only(st)
    v = st.view(None)
    board = v["board"]
    assert v["turn"] == 2 and board["turns"] == 10 and board["map"] == {"width": 20, "height": 20}
    assert board["log_turn"] == 1 and [e[0] for e in board["log"]] == ["turn"] + ["phase"] * 5


def test_the_spectator_view_at_the_start_shows_the_command_posts_only():
    st = game()
    assert_public_only(st)
    assert [c["cp"] for c in st.view(None)["board"]["command_posts"]] == ["A1", "A2", "B1", "B2"]


def test_the_spectator_board_shows_command_posts_but_no_bot_terrain_or_rating():
    st = battle()
    assert_board_public_only(st)
    assert "hidden until the game is over" in st.render(None)


def test_the_spectator_is_shown_no_event_of_a_turn_but_its_headers():
    st = game()
    place(st, 1, 8, 10, facing=3)
    place(st, 2, 12, 10, facing=7)
    events = st.apply((TURN, 1, *FIRE), 0)
    assert st.events_for(events, None) == []  # not even that a sheet is in
    events += st.apply((TURN, 2, *FIRE), 1)
    assert any(e[0] == "shot" for e in events)
    shown = st.events_for(events, None)
    assert [e[0] for e in shown] == ["turn"] + ["phase"] * 5
    assert st.visible_log(None) == shown


def test_front_end_notes_reach_the_spectator():
    st = game()
    assert st.events_for([(MESSAGE, "saved")], None) == [(MESSAGE, "saved")]


def test_a_header_that_does_not_say_who_saw_it_is_not_shown_to_the_spectator():
    """Fail closed, as for a player: only headers the engine logged for every Bot pass."""
    st = game()
    assert st.events_for([("turn", 1), ("phase", 1, 1)], None) == []


def test_the_spectator_filter_can_be_applied_twice():
    st = battle()
    once = st.events_for([e for _, e in st.log], None)
    assert once and st.events_for(once, None) == once


def test_the_spectator_view_is_the_same_whatever_the_bots_and_terrain_are():
    """view(None) depends on nothing hidden: moving every Bot, changing every order, sheet,
    VP and the terrain out of everyone's sight leaves it unchanged."""
    st = battle()
    twin = scrambled(st, random.Random(5))
    assert twin.view(None) == st.view(None)
    assert twin.render(None) == st.render(None)


def scrambled(st: CtfState, rnd: random.Random) -> CtfState:
    """A clone whose Bots, orders, sheets, VP and terrain are all different; the command posts,
    turn and public headers are kept."""
    c = st.clone()
    free = [(x, y) for x in range(1, c.map.width + 1) for y in range(1, c.map.height + 1)
            if not any((p.x, p.y) == (x, y) for p in c.cps)]
    rnd.shuffle(free)
    plans = CtfState.sample_plans(4)
    for b, (x, y) in zip(c.bots, free, strict=False):
        b.x, b.y, b.facing = x, y, rnd.randint(1, 8)
        b.standing = rnd.choice(plans)
        b.sheet = rnd.choice([None, rnd.choice(plans)]) if b.status == FUNCTIONAL else None
        b.vp = rnd.randrange(100)
        b.heat = rnd.randrange(30)
    c.map = generate_map(rnd.randrange(1 << 30), c.map.width, c.map.height, c.tables)
    every = c.every_bot_mask()
    c.log = [(m, e) for m, e in c.log if e[0] in PUBLIC_KINDS and m & every == every]
    return c


# -- after the end -------------------------------------------------------------------------------

def test_after_the_end_the_spectator_sees_everything():
    st = battle()
    raw = [e for _, e in st.log]
    st.end("turn limit", Termination.TURN_LIMIT)
    v = st.view(None)
    assert v["board"] == moderator_view(st)
    assert len(v["board"]["bots"]) == 2 and set(v["board"]["standing_orders"]) == {"1", "2"}
    assert len(v["board"]["teams"]) == 2 and v["board"]["terrain"] and v["result"] is not None
    assert st.visible_log(None) == raw and st.events_for(raw, None) == raw
    text = st.render(None)
    assert len(BOT_LINE.findall(text)) == 2 and "Ratings: A " in text and "Result:" in text
    assert any(cell.strip() and not CP_LABEL.match(cell)
               for row in _cells(st, None) for cell, _ in row)  # terrain and Bots drawn
    assert st.render_rich(None).plain.splitlines() == text.splitlines()


def test_a_game_played_to_its_turn_limit_shows_the_spectator_the_last_turn():
    st = game(turn_limit=1)
    place(st, 1, 8, 10, facing=3)
    place(st, 2, 12, 10, facing=7)
    events = st.apply((TURN, 1, *FIRE), 0) + st.apply((TURN, 2, *FIRE), 1)
    assert st.is_over
    assert st.events_for(events, None) == events
    assert any(e[0] == "shot" for e in st.view(None)["board"]["log"])


def test_moderator_view_is_the_whole_picture_during_the_game():
    """The moderator's own tools (and tests) read the whole state through an explicit function,
    never through view(None)."""
    st = battle()
    m = moderator_view(st)
    assert [b["bot"] for b in m["bots"]] == [1, 2] and m["terrain"]
    assert set(m["standing_orders"]) == {"1", "2"} and len(m["teams"]) == 2
    assert m["owed"] == [1, 2] and m["log"] == [plain(e) for _, e in st.log]
    json.dumps(m)


# -- whole random games ----------------------------------------------------------------------------

CONFIGS = [
    dict(names=["ann", "bob"]),
    dict(names=["ann", "bob", "cy", "dee"], bots_per_team=2),
    dict(names=["ann", "bob", "cy"], teams=3, bots_per_team=2),
]


@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_whole_random_games_show_the_spectator_nothing_of_any_bot(config):
    """At every step of whole random games, until the end, view(None), render(None) and the
    events through events_for(.., None) reveal nothing of any Bot; at the end, everything."""
    options = dict(CONFIGS[config])
    names = options.pop("names")
    rnd = random.Random(100 + config)
    steps = 0
    for _ in range(2):
        st = CTF.new(seed=rnd.randrange(1 << 30), names=names, turn_limit=6, **options)
        while not st.is_over:
            p = rnd.choice(st.current_players())
            num = rnd.choice(st.owed(p))
            events = st.apply(rnd.choice(st.sample_sheets(num)), p)
            if st.is_over:
                break
            assert_public_only(st)
            assert_board_public_only(st)
            assert {e[0] for e in st.events_for(events, None)} <= PUBLIC_KINDS
            if steps % 7 == 0:
                twin = scrambled(st, rnd)
                assert twin.view(None) == st.view(None)
            steps += 1
        assert st.view(None)["board"] == moderator_view(st)
        assert st.events_for(events, None) == events
    assert steps > 10


def test_a_spectators_determinization_does_not_keep_the_bots_where_they_are():
    """Issue 15 item 7 for the spectator: view(None) shows no Bot while the game goes on, so a
    determinization for None resamples every Bot and keeps no sheet handed in."""
    st = registry.get("ctf2187").new(seed=2, names=("A", "B"))
    for p in st.current_players():
        st.apply(st.sample_sheets(p + 1)[3], p)
    true = [(b.x, b.y) for b in st.bots]
    places = {tuple((b.x, b.y) for b in st.determinize(None, k).bots) for k in range(6)}
    assert tuple(true) not in places and len(places) > 1
    d = st.determinize(None, 1)
    assert all(b.sheet is None for b in d.bots)
    assert d.current_players() == st.current_players()
