"""The turn's caches (issue 21, engine speed) give exactly what the rules' plain reading gives.

While a turn is processed the engine keeps, per column and per row, the functional Bots whose
scanning range reaches it (who sees an event, CTF-15/CTF-21), and each Bot's nearest enemy
(CTF-19, CTF-36); a move shifts one Bot's reach, a Wreckage remakes them. Fire tracks' geometry
is shared by every map of a width, and a new map only finds where its terrain blocks (CTF-11,
CTF-27). The weapon a Bot fires by default is tried most damaging first (CTF-36). A sheet handed
in again skips only its own checks, never the Bot's (CTF-1, CTF-30). Each test compares the
fast answer with the slow one worked out here from the rules, in whole random games."""

from __future__ import annotations

import random

import pytest
from ctf2187_helpers import engine, game, place

from boardct.core import registry
from boardct.core.errors import IllegalAction
from boardct.games.ctf2187.geometry import arc, distance, track
from boardct.games.ctf2187.maps import generate_map
from boardct.games.ctf2187.sheet import TURN
from boardct.games.ctf2187.tables import weapon_ap
from boardct.games.ctf2187.units import DAMAGED, DESTROYED, FUNCTIONAL, WRECKED

CTF = registry.get("ctf2187")


def seen_by_rule(st, x: int, y: int) -> int:
    """CTF-21: the functional Bots within scanning range (Chebyshev) of (x, y), as a mask."""
    r = st.tables.scanning_range
    m = 0
    for b in st._bots:
        if b.status == FUNCTIONAL and distance(b.x, b.y, x, y) <= r:
            m |= 1 << b.num
    return m


def nearest_by_rule(st, b):
    """The nearest functional enemy within scanning range, the first in Bot order on a tie."""
    best, bd = None, None
    for o in st._bots:
        if o.team != b.team and o.status == FUNCTIONAL:
            d = distance(b.x, b.y, o.x, o.y)
            if d <= st.tables.scanning_range and (bd is None or d < bd):
                best, bd = o, d
    return best


class TurnChecker:
    """After every event the engine logs during a turn, compares the turn's caches with the
    rules: who sees every sector, and every functional Bot's nearest enemy."""

    def __init__(self, monkeypatch):
        self.checked = 0
        for name in ("log", "log_all", "log_seen", "log_own"):
            monkeypatch.setattr(engine, name, self._wrap(getattr(engine, name)))

    def _wrap(self, real):
        def logged(st, *args, **kwargs):
            real(st, *args, **kwargs)
            if engine._SCAN[0] is not st:  # not within a turn: nothing cached
                return
            for x in range(1, st.map.width + 1):
                for y in range(1, st.map.height + 1):
                    assert engine._scan_at(st, x, y) == seen_by_rule(st, x, y), (x, y)
            for b in st._bots:
                if b.status == FUNCTIONAL:
                    assert engine.nearest_enemy(st, b) is nearest_by_rule(st, b)
            self.checked += 1
        return logged


@pytest.mark.parametrize("options", [
    dict(names=["ann", "bob"], bots_per_team=4),
    dict(names=["ann", "bob", "cy"], teams=3, bots_per_team=2),
    dict(names=["ann", "bob"], bots_per_team=8),  # 36x36: Bots out of each other's sight
])
def test_ctf21_the_turns_sightings_and_nearest_enemies_match_the_rule_after_every_event(
        options, monkeypatch):
    checker = TurnChecker(monkeypatch)
    options = dict(options)
    names = options.pop("names")
    rnd = random.Random(len(names) * 10 + options["bots_per_team"])
    wrecked = moved = 0
    for _ in range(2):
        st = CTF.new(seed=rnd.randrange(1 << 30), names=names, turn_limit=4, **options)
        while not st.is_over:
            for p in st.current_players():
                for e in st.apply(rnd.choice(st.legal_actions(p)), p):
                    wrecked += e[0] == "wreck"
                    moved += e[0] == "move"
        assert engine._SCAN[0] is None  # the cache is the turn's own: gone after it
    assert checker.checked > 100 and moved > 0
    if options["bots_per_team"] == 4:
        assert wrecked > 0  # a Wreckage remade the sightings in these games


def test_shifting_a_bots_reach_gives_the_lines_made_afresh():
    st = game(bots_per_team=3)
    rnd = random.Random(5)
    r = st.tables.scanning_range
    for _ in range(200):
        b = st.bots[rnd.randrange(len(st.bots))]
        lines = engine._scan_lines(st)
        x0, y0 = b.x, b.y
        nx = max(1, min(st.map.width, x0 + rnd.choice((-1, 0, 1) * 3 + (-7, 9))))
        ny = max(1, min(st.map.height, y0 + rnd.choice((-1, 0, 1))))
        if st.occ[st.map.index(nx, ny)]:
            continue
        place(st, b.num, nx, ny)
        cols, rows = lines
        engine._shift(cols, x0, nx, r, 1 << b.num)
        engine._shift(rows, y0, ny, r, 1 << b.num)
        fresh = engine._scan_lines(st)
        assert cols[1:-1] == fresh[0][1:-1] and rows[1:-1] == fresh[1][1:-1]


def fire_track_by_rule(st, x0, y0, e0, x1, y1, e1):
    """CTF-11/CTF-27: the track's sectors up to the first whose height reaches the shot's."""
    out = []
    for x, y, h in track(x0, y0, e0, x1, y1, e1):
        out.append((x, y, h))
        if engine.sector_height(st, x, y) >= h:
            return out, True
    return out, False


def test_ctf27_tracks_on_new_maps_of_one_width_match_the_rule():
    """The geometry is shared by every map 20 wide; each map blocks tracks where its own
    ground, terrain and Bots do."""
    rnd = random.Random(11)
    checked = blocked = 0
    for seed in range(6):
        st = CTF.new(seed=seed, names=["ann", "bob"], bots_per_team=4, map_seed=seed + 1)
        assert st.map.width == 20
        for _ in range(150):
            x0, y0, x1, y1 = (rnd.randint(1, 20) for _ in range(4))
            e0, e1 = rnd.randint(0, 5), rnd.randint(0, 5)
            got = engine.fire_track(st, x0, y0, e0, x1, y1, e1)
            assert got == fire_track_by_rule(st, x0, y0, e0, x1, y1, e1)
            assert engine.fire_track(st, x0, y0, e0, x1, y1, e1) == got  # from the caches
            checked += 1
            blocked += got[1]
    assert checked == 900 and 0 < blocked < checked
    assert generate_map(1, 20, 20, st.tables) != generate_map(2, 20, 20, st.tables)


def best_weapon_by_rule(st, b, tx, ty) -> int:
    """CTF-36: the usable weapon (CTF-27) of most damage, the lowest number on a tie; -1."""
    best, dmg = -1, 0
    for i, (_, w) in enumerate(b.design.weapons):
        if not engine.weapon_usable(st, b, i, tx, ty) and w.damage > dmg:
            best, dmg = i, w.damage
    return best


def test_ctf36_the_default_weapon_matches_the_rule_whatever_the_bots_state():
    st = game(bots_per_team=2, designs="Lancer,Warden,Bastion,Striker")
    rnd = random.Random(3)
    picks = set()
    for _ in range(600):
        b = st.bots[rnd.randrange(len(st.bots))]
        b.facing = rnd.randint(1, 8)
        b.ap = rnd.randint(0, 30)
        b.shut = rnd.random() < 0.1
        b.weapons = [rnd.choice((0, 0, DAMAGED, DESTROYED)) for _ in b.weapons]
        tx, ty = rnd.randint(1, 20), rnd.randint(1, 20)
        pick = engine.best_weapon(st, b, tx, ty)
        assert pick == best_weapon_by_rule(st, b, tx, ty)
        picks.add(pick)
        if pick >= 0:  # the pick can pay for itself, damaged or not
            w = b.design.weapons[pick][1]
            assert weapon_ap(w, b.weapons[pick] == DAMAGED, st.tables) <= b.ap
            assert arc(b.facing, tx - b.x, ty - b.y) in engine.WEAPON_ARCS[
                b.design.weapons[pick][0]]
    assert -1 in picks and len(picks) >= 3


def test_ctf1_ctf30_a_sheet_handed_in_again_is_still_checked_against_its_bot():
    """The same menu sheet passes once; later it is refused for the other player (CTF-1) and
    for a Bot that is Wreckage (CTF-30), as any sheet is."""
    st = game(bots_per_team=2)
    sheet = st.legal_actions(0)[1]
    assert sheet[0] == TURN and sheet[1] == 1
    trial = st.clone()
    trial.apply(sheet, 0)  # passes its checks: remembered
    again = st.clone()
    with pytest.raises(IllegalAction, match="CTF-1"):
        again.apply(sheet, 1)
    again.bots[0].status = WRECKED
    with pytest.raises(IllegalAction, match="CTF-30"):
        again.apply(sheet, 0)
    assert again.bots[0].sheet is None
