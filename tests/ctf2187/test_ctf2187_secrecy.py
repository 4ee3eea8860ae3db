"""CTF 2187 secrecy (issue 15, items 6 and 7): what each player is shown of a turn, and the
determinizations agents search, hold nothing the player's Bots could not see (CTF-15, CTF-21,
CTF-38).

The leak tests play whole random games (bounded for CI) and judge every event a player is
shown against an independent witness: where every Bot stood when the event was logged."""

from __future__ import annotations

import random
import re

import pytest
from ctf2187_helpers import engine, game, place

from boardct.core import registry, table
from boardct.core.game import MESSAGE
from boardct.games.ctf2187.maps import GameMap
from boardct.games.ctf2187.report import describe_event, plain, turn_report
from boardct.games.ctf2187.sheet import MISSING, STANDING, TURN
from boardct.games.ctf2187.units import FUNCTIONAL, WRECKED

CTF = registry.get("ctf2187")
HOLD = (0, 0, 0, 0, 0) * 5


def hold_all(st, player=None):
    """Every Bot (of `player`) hands in a sheet of no orders."""
    for b in st.bots:
        if b.status == FUNCTIONAL and (player is None or b.player == player):
            yield b.player, (TURN, b.num, *HOLD)


def finish_turn(st, sheets: dict[int, tuple] | None = None) -> list[tuple]:
    """Hand in the given sheets (by Bot), HOLD for every other Bot; the turn's events."""
    sheets = sheets or {}
    out: list[tuple] = []
    for b in st.bots:
        if b.status == FUNCTIONAL and b.sheet is None:
            out += st.apply(sheets.get(b.num, (TURN, b.num, *HOLD)), b.player)
    return out


# -- the witness: where every Bot was when each event was logged ---------------------------------

class Witness:
    """Records, for each event the engine logs, where every Bot stood at that moment."""

    def __init__(self, monkeypatch):
        self.at: dict[int, tuple] = {}
        for name in ("log", "log_all", "log_seen", "log_own"):
            real = getattr(engine, name, None)
            if real is not None:
                monkeypatch.setattr(engine, name, self._wrap(real))

    def _wrap(self, real):
        def logged(st, *args, **kwargs):
            real(st, *args, **kwargs)
            event = st.log[-1][1]
            self.at[id(event)] = tuple((b.num, b.player, b.x, b.y, b.status) for b in st.bots)
        return logged


# What only the Bot itself knows: its AP and heat, orders it could not carry out, items struck
# inside it, its pilot's wounds (CTF-38 lists what a report shows of others; docs/ctf2187.md).
OWN_ONLY = ("ap", "cool", "heatfx", "skip", "sprintfail", "blocked", "item", "wound")


def named_bots(e: tuple) -> set[int]:
    """Every Bot number an event names (0 is "an unseen Bot")."""
    kind = e[0]
    if kind in ("turn", "phase", "end", "ruins"):
        return set()
    if kind == "order":
        return set(e[1])
    if kind == "cphit":
        return {e[2]}
    if kind in ("shot", "hit"):
        return {v for v in (e[1], e[2]) if isinstance(v, int)}
    out = {e[1]} if isinstance(e[1], int) else set()
    if kind == "blocked":
        out |= {int(n) for n in re.findall(r"Bot (\d+)", str(e[4]))}
    return out


def could_see(snapshot: tuple, player: int, num: int, r: int, also=()) -> bool:
    """Bot `num` is the player's, or one of the player's functional Bots had it (or one of the
    sectors in `also`) in scanning range at that moment."""
    where = {n: (x, y) for n, _p, x, y, _s in snapshot}
    if any(n == num and p == player for n, p, _x, _y, _s in snapshot):
        return True
    spots = [where[num], *also]
    return any(p == player and s == FUNCTIONAL and max(abs(x - sx), abs(y - sy)) <= r
               for _n, p, x, y, s in snapshot for sx, sy in spots)


def check_shown(st, witness: Witness, events: list[tuple], player: int) -> int:
    """Every event the player is shown names only Bots the player could see then."""
    r = st.tables.scanning_range
    checked = 0
    for e in events:
        shown = st.events_for([e], player)
        if not shown:
            continue
        (s,) = shown
        if e[0] in ("sheet", "standing") + OWN_ONLY:
            assert st.bots[e[1] - 1].player == player, describe_event(st, s)
            continue
        snapshot = witness.at[id(e)]
        also = [(s[3], s[4])] if s[0] == "move" else []  # a move is seen from either end
        for num in named_bots(s) - {0}:
            assert could_see(snapshot, player, num, r, also if num == s[1] else ()), \
                f"Player {player + 1} is shown {describe_event(st, s)!r}"
        checked += 1
    return checked


CONFIGS = [
    dict(names=["ann", "bob"], bots_per_team=3),
    dict(names=["ann", "bob", "cy", "dee"], bots_per_team=2),  # a pilot per Bot
    dict(names=["ann", "bob", "cy"], teams=3, bots_per_team=2),
    dict(names=["ann", "bob"], bots_per_team=8),  # 28x28: Bots out of sight happen
]


@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_whole_random_games_show_each_player_only_what_its_bots_saw(config, monkeypatch):
    """Issue 15 item 6: the events of every turn, through `events_for`, and the view's log name
    no Bot the player's Bots could not see when it happened. Issue 15 item 9: the spectator
    sees only the turn and phase headers while the game goes on, everything once it is over."""
    witness = Witness(monkeypatch)
    options = dict(CONFIGS[config])
    names = options.pop("names")
    rnd = random.Random(config)
    checked = 0
    for _ in range(3):
        st = CTF.new(seed=rnd.randrange(1 << 30), names=names, turn_limit=10, **options)
        while not st.is_over:
            turn: list[tuple] = []
            for p in st.current_players():
                for num in st.owed(p):
                    turn += st.apply(rnd.choice(st.sample_sheets(num)), p)
            if st.is_over:
                assert st.events_for(turn, None) == turn
            else:
                assert st.events_for(turn, None) == [e for e in turn if e[0] in ("turn", "phase")]
            for p in range(len(names)):
                checked += check_shown(st, witness, turn, p)
                logged = [e for e in st.events_for(turn, p) if e[0] not in ("sheet",)]
                assert st.view(p)["board"]["log"] == [plain(e) for e in logged]  # JSON lists
    assert checked > 2000


# -- scenarios -----------------------------------------------------------------------------------

def test_a_command_post_firing_at_a_bot_out_of_sight_is_not_shown():
    """The issue's example: CP B1 fires at Bot 1 far from every Bot of Player 2's."""
    st = game()
    place(st, 1, 17, 7, facing=3)  # two sectors from CP B1 (19, 7)
    place(st, 2, 1, 20, facing=5)  # 18 from B1, 16 from Bot 1: out of scanning range (15)
    events = finish_turn(st)
    cp_shots = [e for e in events if e[0] == "shot" and e[1] == "B1"]
    assert cp_shots, "the scenario needs the CP to fire"
    assert not [e for e in st.events_for(events, 1) if e[0] == "shot" and e[1] == "B1"]
    assert [e for e in st.events_for(events, 0) if e[0] == "shot" and e[1] == "B1"]
    assert not [e for e in st.view(1)["board"]["log"] if e[0] == "shot" and e[1] == "B1"]


def test_the_action_order_lists_only_the_bots_a_player_could_see():
    st = game(names=("ann", "bob"), bots_per_team=2)  # ann: Bots 1, 2; bob: Bots 3, 4
    place(st, 1, 2, 2)
    place(st, 2, 3, 5)
    place(st, 3, 20, 20)  # 17 sectors from Bot 1, 15+ from Bot 2: out of range
    place(st, 4, 10, 4)
    events = finish_turn(st)
    orders = [e[1] for e in st.events_for(events, 0) if e[0] == "order"]
    assert orders and all(set(o) == {1, 2, 4} for o in orders)
    assert all(3 in e[1] for e in events if e[0] == "order")  # the moderator's (unfiltered)
    assert not [e for e in st.events_for(events, None) if e[0] == "order"]  # issue 15 item 9
    assert all(set(e[1]) == {1, 2, 4} for e in st.view(0)["board"]["log"] if e[0] == "order")


def test_a_bots_report_lists_the_action_order_only_as_far_as_it_could_see():
    """CTF-15, CTF-38: a turn report (the folder workflow's results) is one Bot's sight."""
    st = game(names=("ann", "bob"), bots_per_team=2)
    place(st, 1, 2, 2)
    place(st, 2, 18, 2)  # 16 from Bot 1
    place(st, 3, 20, 20)
    place(st, 4, 10, 4)
    finish_turn(st)
    orders = [e["data"][0] for e in turn_report(st, 1)["events"] if e["kind"] == "order"]
    assert orders and all(set(o) == {1, 4} for o in orders)


def test_a_shot_at_a_bot_out_of_sight_does_not_name_or_place_it():
    """Bot 2, in Bot 1's sight, fires at Bot 3, out of it: Player 1 sees the shot, not whom
    it was at, nor the track, range or odds that would place Bot 3."""
    st = game(names=("ann", "bob", "cy"), teams=3)
    place(st, 1, 1, 10, facing=1)
    place(st, 2, 12, 10, facing=3)
    place(st, 3, 20, 10, facing=7)  # 19 from Bot 1, 8 from Bot 2
    attack = (TURN, 2, 0, 0, 1, 3, 0, *HOLD[5:])
    events = finish_turn(st, {2: attack})
    shots = [e for e in events if e[0] == "shot" and e[1] == 2]
    assert shots and shots[0][2] == 3
    seen = [e for e in st.events_for(events, 0) if e[0] == "shot" and e[1] == 2]
    assert seen and seen[0][2] == 0 and seen[0][9] == () and seen[0][5] == 0
    assert "an unseen Bot" in describe_event(st, seen[0])
    assert all(3 not in named_bots(e) for e in st.events_for(events, 0))
    assert [e for e in st.events_for(events, 2) if e[0] == "shot" and e[1] == 2][0][2] == 3


def test_ap_heat_skipped_orders_and_items_struck_reach_only_the_bot_itself():
    """Another Bot's AP, heat, failed orders (its sheet), items and wounds are not in the
    scanner (CTF-21, CTF-38): a Bot in sight shows what it does, not what it meant."""
    st = game()
    place(st, 1, 5, 5, facing=3)
    place(st, 2, 9, 5, facing=7)
    st.bots[1].heat = 45  # band 40+: AP lost, shutdown roll, a wound (CTF-25)
    kneel_then_move = (TURN, 2, 20, 0, 0, 0, 0, 1, 0, 0, 0, 0, *HOLD[10:])
    events = finish_turn(st, {2: kneel_then_move})
    private = [e for e in events if e[0] in OWN_ONLY and e[1] == 2]
    assert {"ap", "cool", "heatfx", "skip"} <= {e[0] for e in private}
    assert not [e for e in st.events_for(events, 0) if e[0] in OWN_ONLY and e[1] == 2]
    assert [e for e in st.events_for(events, 1) if e[0] in OWN_ONLY] == private
    assert ("posture", 2, "kneels", 3) in st.events_for(events, 0)  # what it does is seen


def test_a_sheet_handed_in_reaches_only_its_player():
    """Not even the spectator learns that a sheet is in (issue 15 item 9): it would tell
    which Bots still function."""
    st = game()
    events = st.apply((TURN, 2, *HOLD), 1)
    assert st.events_for(events, 0) == []
    assert st.events_for(events, 1) == [("sheet", 2, TURN)]
    assert st.events_for(events, None) == []
    standing = st.apply((STANDING, 1, *HOLD), 0)
    assert st.events_for(standing, 1) == [] and st.events_for(standing, 0) == [("standing", 1)]


def test_events_for_fails_closed_and_can_be_applied_twice():
    """An event that does not say who saw it is never shown to a player; a front end's own
    note passes; what a player was shown, filtered again for that player, is unchanged."""
    st = game()
    place(st, 2, 20, 20)
    events = finish_turn(st)
    forged = ("shot", 2, 1, 1, "LL", 3, 50, 10, True, (), False)
    assert st.events_for([forged, (MESSAGE, "saved")], 0) == [(MESSAGE, "saved")]
    once = st.events_for(events, 0)
    assert st.events_for(once, 0) == once
    assert not any(getattr(e, "named", None) for e in once)  # nothing about anyone else


# -- determinizations (item 7) -------------------------------------------------------------------

def full_dump(st) -> tuple:
    """Everything a search could read from a state."""
    bots = tuple((b.num, b.x, b.y, b.facing, b.posture, b.status, b.pilot, b.ap, b.heat,
                  b.wounds, tuple(b.armour), tuple(b.internal), tuple(b.engines),
                  tuple(b.weapons), b.last_by, b.last_at, b.vp, b.standing, b.sheet, b.legless)
                 for b in st.bots)
    log = tuple((m, tuple(e)) for m, e in st.log)
    return (bots, tuple(st.occ), st.map, st.rng.s, st.setup.seed, st.turn, st.over, log,
            tuple(st.history()), tuple((c.x, c.y, c.structure) for c in st.cps))


def hidden_twin(st, player: int):
    """A copy of `st` that differs in everything `player` cannot see (and only that)."""
    t = st.clone()
    mine = st.bots_of(player)
    seen = {o.num for o in st.contacts(mine)}
    r = st.tables.scanning_range
    handed_in = False
    for b in t.bots:
        if b.player == player:
            continue
        b.standing = (0, 0, 0, 0, 0) * 4 + (20, 0, 0, 0, 0)
        b.heat, b.vp, b.last_by, b.wounds = b.heat + 7, b.vp + 5, player + 1, 1
        b.armour = [max(0, a - 2) for a in b.armour]
        if not handed_in and b.status == FUNCTIONAL and t.owed(player):  # the turn waits
            t.apply((TURN, b.num, 21, 0, 2, 0, 0, *HOLD[5:]), b.player)
            handed_in = True
        if b.num not in seen and b.status == FUNCTIONAL:
            free = [(x, y) for x in range(1, t.map.width + 1) for y in range(1, t.map.height + 1)
                    if not t.occ[t.map.index(x, y)]
                    and all(max(abs(x - m.x), abs(y - m.y)) > r for m in mine
                            if m.status == FUNCTIONAL)]
            if free:
                x, y = free[len(free) // 2]
                t.occ[t.map.index(b.x, b.y)] = 0
                b.x, b.y = x, y
                t.occ[t.map.index(x, y)] = b.num
    t.rng.s ^= 0x5555
    if not (st.setup.options["map"] or st.setup.options["map_seed"]):  # a hidden map
        terrain, ground = list(t.map.terrain), list(t.map.ground)
        vr = st.tables.visual_radius
        for i in range(len(terrain)):
            x, y = i % t.map.width + 1, i // t.map.width + 1
            if all(max(abs(x - m.x), abs(y - m.y)) > vr + 2 for m in mine) and not t.occ[i]:
                terrain[i] = t.tables.terrain_by_key["open"].index
                ground[i] = 1
        t.map = GameMap(t.map.width, t.map.height, tuple(terrain), tuple(ground))
    return t


def far_apart(turn: int = 3):
    """Bot 1 (Player 1) and Bot 2 (Player 2) out of each other's scanning range."""
    st = game(map_seed=0)
    place(st, 1, 1, 1, facing=2)
    place(st, 2, 20, 20, facing=6)
    st.turn = turn
    return st


def test_a_determinization_does_not_keep_a_bot_the_player_cannot_see():
    st = far_apart()
    spots = set()
    for k in range(12):
        d = st.determinize(0, k)
        b = d.bots[1]
        assert max(abs(b.x - 1), abs(b.y - 1)) > st.tables.scanning_range  # not in sight
        assert d.view(0) == st.view(0)
        spots.add((b.x, b.y))
    assert len(spots) > 3 and spots != {(20, 20)}


def test_an_unseen_bot_is_placed_within_reach_of_its_start():
    """Turn 1: a Bot out of sight can only be on its start sector (CTF-35)."""
    st = far_apart(turn=1)
    start = (20 + 1 - (20 // 2 - 6), 20 // 2)
    assert {(st.determinize(0, k).bots[1].x, st.determinize(0, k).bots[1].y)
            for k in range(5)} == {start}


def test_a_determinization_resamples_the_other_players_standing_orders():
    st = far_apart()
    st.bots[1].standing = (20, 0, 0, 0, 0) + HOLD[5:]  # kneel: view(0) never shows it
    orders = {st.determinize(0, k).bots[1].standing for k in range(16)}
    assert len(orders) > 2 and (20, 0, 0, 0, 0) + HOLD[5:] not in orders
    assert all(st.determinize(0, k).bots[0].standing == st.bots[0].standing for k in range(4))


def test_a_determinization_carries_the_damage_the_players_side_dealt():
    """The player knows its own VP (1 a point on a Bot, 2 on a command post, CTF-16) and every
    post's structure (CTF-21): what it took from the enemy Bot is on that Bot in every
    determinization, spread over the locations, the Bot still functional; where it truly
    landed stays hidden (the twins of test_a_determinization_is_a_function_of_the_players_view
    differ in it)."""
    st = game()
    total = sum(st.bots[1].armour) + sum(st.bots[1].internal)
    st.bots[0].vp = 50
    st.cps[2].structure -= 10  # 20 of the 50 VP came from B's first post
    st.bots[1].armour[1] -= 30  # the truth: all on the front torso
    for k in range(3):
        d = st.determinize(0, k)
        b = d.bots[1]
        assert sum(b.armour) + sum(b.internal) == total - 30
        assert b.armour[1] != st.bots[1].armour[1] and b.status == FUNCTIONAL
    st.bots[0].vp = 500  # more than the Bot has: every location keeps an internal point
    b = st.determinize(0, 1).bots[1]
    assert sum(b.armour) == 0 and b.internal == [1] * 6 and b.status == FUNCTIONAL
    st.bots[0].armour[2] -= 4  # the player's own Bot: as it is
    assert st.determinize(0, 1).bots[0].armour == st.bots[0].armour
    assert st.determinize(1, 1).bots[0].armour == list(st.bots[0].design.armour)  # Bob: no VP


def test_a_line_of_fire_blocked_out_of_sight_stays_blocked_in_a_determinization():
    """A player's report shows where a shot was stopped and at what height (CTF-27, CTF-38),
    beyond its Bots' visual radius too: every determinization's terrain there reaches that
    height, so a search does not fire into that hill turn after turn. Nothing else of the
    terrain out of sight is learned from it."""
    st = CTF.new(seed=5, names=["ann", "bob"])  # a generated map: out of sight is hidden
    assert (st.bots[0].x, st.bots[0].y) == (4, 10)  # 11 sectors from 15-7
    engine.log_seen(st, ("shot", 1, "B1", 2, "PBC", 15, 0, 0, False, ((15, 7, 9),), True),
                    1 << 1, None)
    for k in range(6):
        d = st.determinize(0, k)
        assert engine._map_tables(d)[2][d.map.index(15, 7)] >= 9
        assert d.view(0) == st.view(0)
    bob = st.determinize(1, 0)  # Bob's Bot did not see that shot
    assert engine._map_tables(bob)[2][bob.map.index(15, 7)] < 9


def test_a_determinization_resamples_the_terrain_out_of_sight():
    """The map generated from the game's seed is known only within the visual radius of the
    player's Bots (CTF-15) and at the start sectors (CTF-35)."""
    st = CTF.new(seed=5, names=["ann", "bob"])
    maps = {st.determinize(0, k).map for k in range(8)}
    assert len(maps) > 2 and st.map not in maps
    for k in range(4):
        assert st.determinize(0, k).view(0) == st.view(0)
    public = CTF.new(seed=5, names=["ann", "bob"], map_seed=77)  # the options show the map
    assert public.determinize(0, 1).map is public.map


def test_a_determinization_is_a_function_of_the_players_view():
    """Item 7: two states that differ only in what the player cannot see (unseen Bots'
    sectors, other Bots' orders, damage, heat, VP and memories, sheets handed in, the terrain
    out of sight, the random source) give the very same determinizations."""
    compared = 0
    for st in (far_apart(), CTF.new(seed=11, names=["ann", "bob"], bots_per_team=8)):
        for p in (0, 1):
            twin = hidden_twin(st, p)
            assert twin.view(p) == st.view(p)
            assert full_dump(twin) != full_dump(st)
            for k in range(3):
                assert full_dump(twin.determinize(p, k)) == full_dump(st.determinize(p, k))
                compared += 1
    assert compared == 12


def test_a_sheet_handed_in_is_not_in_a_determinization():
    """Neither its orders nor whether it was handed in: every other Bot has a resampled sheet,
    so the player's own last sheet processes the turn in a search."""
    st = game()
    real = (21, 0, 2, 0, 0, *HOLD[5:])
    st.apply((TURN, 2, *real), 1)
    for k in range(8):
        d = st.determinize(0, k)
        assert d.bots[1].sheet not in (None, real) and d.history() == []
        assert d.setup.seed != st.setup.seed and d.setup.options == st.setup.options
    fresh = game()
    assert fresh.determinize(0, 1).current_players() == (0,)


def test_determinizations_look_the_same_to_their_player_over_random_games():
    rnd = random.Random(7)
    compared = moved = 0
    for options in CONFIGS * 2:
        options = dict(options)
        names = options.pop("names")
        st = CTF.new(seed=rnd.randrange(1 << 30), names=names, turn_limit=8, **options)
        while not st.is_over:
            for p in range(len(names)):
                view, screen = st.view(p), st.render(p)
                seen = {o.num for o in st.contacts(st.bots_of(p))}
                for _ in range(2):
                    d = st.determinize(p, rnd.randrange(1 << 40))
                    assert d.view(p) == view and d.render(p) == screen
                    compared += 1
                    moved += any((a.x, a.y) != (b.x, b.y)
                                 for a, b in zip(d.bots, st.bots, strict=True)
                                 if a.player != p and a.num not in seen)
            for p in st.current_players():
                for num in st.owed(p):
                    st.apply(rnd.choice(st.sample_sheets(num)), p)
    assert compared > 300 and moved > 0


def test_a_determinization_keeps_the_headers_every_player_saw():
    """The turn and phase headers of the last turn are in every Bot's report (CTF-15): the
    player knows everyone saw them, so a determinization shows them to a spectator and to the
    other players just as the real game does; what only the player's Bots saw stays theirs."""
    st = far_apart(turn=1)
    for p in (0, 1):
        for num in st.owed(p):
            st.apply((MISSING, num), p)
    headers = st.visible_log(None)
    assert headers and {e[0] for e in headers} <= {"turn", "phase"}
    own = [e for e in st.visible_log(0) if e not in headers]
    for k in range(4):
        d = st.determinize(0, k)
        assert d.visible_log(None) == headers
        assert d.view(None)["board"]["log"] == st.view(None)["board"]["log"]
        assert [e for e in d.visible_log(1) if e in headers] == headers
        assert d.visible_log(0) == st.visible_log(0)
        assert not any(e in d.visible_log(1) for e in own if e not in headers)


def test_missing_sheets_still_use_standing_orders_in_the_real_game():
    """The resampled orders live only in determinizations: the real turn uses the real ones."""
    st = game()
    st.bots[1].standing = (11, 1, 0, 0, 0) + HOLD[5:]
    st.determinize(0, 1)
    st.apply((TURN, 1, *HOLD), 0)
    events = st.apply((MISSING, 2), 1)
    assert ("face", 2, 7, 1, 4) in [tuple(e) for e in events]


# -- what a player learns during a turn (CTF-41) ---------------------------------------------------

SEALED = [
    dict(names=["ann", "bob", "cy"], teams=3),
    dict(names=["ann", "bob", "cy", "dee"], teams=4),
    dict(names=["ann", "bob", "cy", "dee"]),  # two teams of two, a pilot each
    dict(names=["ann", "bob", "cy"], teams=3, bots_per_team=2),  # a commander a team
    dict(names=["ann", "bob", "cy", "dee"], bots_per_team=2),  # a pilot a Bot, two a team
]


def what_viewer_gets(st, viewer) -> list:
    """Everything a front end shows `viewer` (None: a spectator) of the state: the view, who is
    to decide as it may know it, the board, the terminal's status line; for a seat also its
    legal sheets and the learners' tensors (both built from the view)."""
    out = [st.view(viewer), st.to_move_seen(viewer), st.render(viewer),
           table.summary_line(st, viewer)]
    if viewer is not None:
        out += [st.legal_actions(viewer), st.observation_tensor(viewer),
                st.information_state_tensor(viewer)]
    return out


def maybe_resign(st, rnd: random.Random) -> None:
    """Now and then a player resigns whose team keeps another player (CTF-40)."""
    if rnd.random() > 0.08:
        return
    team = {b.player: b.team for b in st.bots}
    still = [p for p in team if not st.has_resigned(p)]
    can = [p for p in still if any(q != p and team[q] == team[p] for q in still)]
    if can:
        st.resign(rnd.choice(can))


@pytest.mark.parametrize("config", range(len(SEALED)))
def test_nobody_learns_before_processing_who_else_has_handed_in(config, monkeypatch):
    """CTF-41: before the turn is processed a player knows only whether their own sheet is in.
    In random 3- and 4-player games (sheets handed in in a random order, now and then a
    resignation), every sheet that does not complete the turn leaves what every other seat and
    the spectator are shown exactly as it was (view, `to_move_seen`, board, status line, legal
    sheets, tensors) and shows them no event. Once processed, each player's events name only
    their own Bots and Bots their Bots had in scanning range (the witness), the per-phase
    action order included (CTF-15, CTF-21)."""
    witness = Witness(monkeypatch)
    options = dict(SEALED[config])
    names = options.pop("names")
    viewers = [None, *range(len(names))]
    rnd = random.Random(100 + config)
    sealed = checked = 0
    for _ in range(20):
        st = CTF.new(seed=rnd.randrange(1 << 30), names=names, **options)
        while not st.is_over:
            maybe_resign(st, rnd)
            owing = [(p, num) for p in st.current_players() for num in st.owed(p)]
            rnd.shuffle(owing)
            turn: list[tuple] = []
            for p, num in owing:
                now = st.turn
                before = {v: what_viewer_gets(st, v) for v in viewers if v != p}
                events = st.apply(rnd.choice(st.sample_sheets(num)), p)
                turn += events
                if st.turn != now or st.is_over:
                    break  # this sheet completed the turn: what follows is public
                for v, seen in before.items():
                    assert st.events_for(events, v) == [], (v, p)
                    assert what_viewer_gets(st, v) == seen, (v, p)
                    assert p not in st.to_move_seen(v) or v is None or v != p
                sealed += 1
            for p in range(len(names)):
                checked += check_shown(st, witness, turn, p)
    assert sealed > 100 and checked > 10_000


def test_a_seat_sees_itself_to_move_only_while_it_owes_and_everyone_else_still_in():
    """`to_move_seen` (CTF-41): a seat is listed to itself while it owes a sheet; to others,
    and to a spectator, every player still in the game, handed in or not; a resigned player
    (CTF-40) no longer; nobody once the game is over."""
    st = CTF.new(seed=2, names=["ann", "bob", "cy", "dee"])
    assert [st.to_move_seen(v) for v in (None, 0, 2)] == [(0, 1, 2, 3)] * 3
    st.apply((TURN, 3, *HOLD), 2)
    assert st.to_move_seen(2) == (0, 1, 3)  # cy knows her own sheet is in
    assert st.to_move_seen(0) == st.to_move_seen(None) == (0, 1, 2, 3)
    assert st.current_players() == (0, 1, 3)  # the moderator's knowledge
    st.resign(1)
    assert st.to_move_seen(0) == (0, 2, 3) and st.to_move_seen(2) == (0, 3)
    assert st.to_move_seen(1) == (0, 2, 3)  # bob, resigned, decides nothing
    assert st.view(0)["to_move"] == [0, 2, 3] and st.view(None)["to_move"] == [0, 2, 3]
    st.resign(0)  # team A has resigned: the game is over
    assert st.is_over and all(st.to_move_seen(v) == () for v in (None, 0, 1, 2, 3))


def test_a_player_whose_bots_are_all_wreckage_is_still_listed_to_the_others():
    """Whose Bots still function is hidden (CTF-21): a player left with Wreckage only owes no
    sheet, yet the others and the spectator still see them listed, as before."""
    st = CTF.new(seed=2, names=["ann", "bob", "cy", "dee"])
    st.bots[3].status = WRECKED  # dee's only Bot
    assert 3 not in st.current_players()
    assert st.to_move_seen(3) == (0, 1, 2)
    assert st.to_move_seen(0) == st.to_move_seen(None) == (0, 1, 2, 3)
