"""The per-map and per-tables tables the turn reads (issue 21, engine speed) hold exactly what
the rules' plain reading gives: each sector's height in a fire track's way and its cooling
(CTF-11, CTF-24), each heat level's band and whether the band has an effect (CTF-25)."""

from __future__ import annotations

import random

from ctf2187_helpers import engine, game

from boardct.core import registry
from boardct.games.ctf2187.units import FUNCTIONAL

CTF = registry.get("ctf2187")


def test_ctf11_ctf24_each_sectors_static_height_and_cooling_match_its_terrain():
    """Generated maps of several sizes and a map file: the height ground and terrain put in a
    track's way (the sector's height with nothing on it) and the terrain's extra cooling."""
    states = [CTF.new(seed=seed, names=["ann", "bob"], bots_per_team=n)
              for seed, n in ((3, 1), (4, 4), (5, 8))]
    states.append(game({(6, 10): "w1", (7, 10): "R3", (8, 10): "~0"}))
    for st in states:
        _, _, heights, cooling = engine._map_tables(st)
        st.occ[:] = [0] * len(st.occ)  # nothing on the map: sector_height is the map's own
        for y in range(1, st.map.height + 1):
            for x in range(1, st.map.width + 1):
                i = st.map.index(x, y)
                assert heights[i] == engine.sector_height(st, x, y), (x, y)
                assert cooling[i] == engine.terrain_at(st, x, y).cooling, (x, y)
        assert engine._map_tables(st)[2] is heights  # made once per map


def test_ctf25_the_band_of_each_heat_level_and_its_effects_match_the_table():
    t = game().tables
    _, reach, band_of, effects = engine._per_tables(t)
    assert reach == max(w.maximum for w in t.cp_weapons)
    assert band_of == tuple(t.band(h) for h in range(t.heat["maximum"] + 1))
    for band, has_effect in zip(t.bands, effects, strict=True):
        assert has_effect == bool(band.ap or band.shutdown or band.wound or band.weapon_damage)
    assert True in effects and False in effects


def test_ctf24_ctf25_cooling_at_each_phase_start_matches_the_rule_in_whole_games(monkeypatch):
    """At each phase start every functional Bot sheds cooling + engines / engines_per_cooling +
    its sector's terrain cooling, never more than its heat, and falls in the band of the heat
    left; a `cool` event tells it when it shed any or sits above the first band."""
    rnd = random.Random(9)
    real = engine.run_phase
    seen = {"bots": 0, "cold": 0, "hot": 0}

    def phase(st, number, orders):
        t = st.tables
        start = {b.num: (b.heat, sum(b.engines), b.x, b.y) for b in st._bots
                 if b.status == FUNCTIONAL}
        first = len(st.log)
        real(st, number, orders)
        cools = {e[1]: e for _, e in st.log[first:] if e[0] == "cool"}
        for num, (heat, engines, x, y) in start.items():
            b = st._bots[num - 1]
            cool = (t.heat["cooling"] + engines // t.heat["engines_per_cooling"]
                    + engine.terrain_at(st, x, y).cooling)
            assert b.cooled == min(cool, heat)
            assert b.band == t.band(heat - b.cooled)
            if b.cooled or b.band:
                assert cools[num] == ("cool", num, b.cooled, heat - b.cooled, b.band)
            else:
                assert num not in cools
            seen["bots"] += 1
            seen["cold" if heat == 0 else "hot"] += 1

    monkeypatch.setattr(engine, "run_phase", phase)
    for seed in range(3):
        st = CTF.new(seed=seed, names=["ann", "bob"], bots_per_team=4)
        while not st.is_over:
            for p in st.current_players():
                st.apply(rnd.choice(st.legal_actions(p)), p)
    assert seen["cold"] > 20 and seen["hot"] > 20
