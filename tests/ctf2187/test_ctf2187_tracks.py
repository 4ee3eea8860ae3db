"""The fire tracks' caches (issue 21, engine speed): a track's geometry is cached per map width
and each sector's ground and terrain height (CTF-11) per map, shared by clones; what moves
(Bots, their posture and Wreckage, command posts and Ruins) is read shot by shot (CTF-11,
CTF-27)."""

from __future__ import annotations

from ctf2187_helpers import engine, game, place

from boardct.games.ctf2187.units import KNEELING, WRECKED

CLEAR = [(6, 10, 3), (7, 10, 3), (8, 10, 3)]


def test_ctf11_a_bot_stepping_into_a_cached_track_blocks_it_and_stepping_out_clears_it():
    st = game(bots_per_team=2)
    place(st, 1, 5, 10)
    place(st, 3, 9, 10)
    place(st, 2, 15, 15)
    assert engine.fire_track(st, 5, 10, 3, 9, 10, 3) == (CLEAR, False)  # now cached
    place(st, 2, 7, 10)  # a standing Bot of elevation 1 + 2 = 3 reaches the shot's 3
    assert engine.fire_track(st, 5, 10, 3, 9, 10, 3) == (CLEAR[:2], True)
    place(st, 2, 15, 15)
    assert engine.fire_track(st, 5, 10, 3, 9, 10, 3) == (CLEAR, False)


def test_ctf11_a_cached_track_reads_the_posture_and_wreckage_of_the_bot_in_it_now():
    st = game(bots_per_team=2)
    place(st, 1, 5, 10)
    place(st, 3, 9, 10)
    b = place(st, 2, 7, 10)
    assert engine.fire_track(st, 5, 10, 3, 9, 10, 3)[1]
    b.posture = KNEELING  # 1 + 1 = 2: under the shot
    assert engine.fire_track(st, 5, 10, 3, 9, 10, 3) == (CLEAR, False)
    b.posture = 0
    assert engine.fire_track(st, 5, 10, 3, 9, 10, 3)[1]
    b.status = WRECKED  # Wreckage stands at ground level (CTF-5)
    assert engine.fire_track(st, 5, 10, 3, 9, 10, 3) == (CLEAR, False)


def test_ctf11_terrain_that_blocks_is_cached_per_map_not_carried_to_another_map():
    woods = game({(6, 10): "w1"})
    open_ground = game()
    for _ in range(2):  # the second time from the cache
        assert engine.fire_track(woods, 5, 10, 2, 9, 10, 2) == ([(6, 10, 2)], True)
        assert engine.fire_track(open_ground, 5, 10, 2, 9, 10, 2)[1] is False


def test_clones_share_the_cached_track_but_each_reads_its_own_bots():
    st = game(bots_per_team=2)
    place(st, 1, 5, 10)
    place(st, 3, 9, 10)
    place(st, 2, 15, 15)
    assert engine.fire_track(st, 5, 10, 3, 9, 10, 3) == (CLEAR, False)
    other = st.clone()
    place(other, 2, 7, 10)
    assert engine.fire_track(other, 5, 10, 3, 9, 10, 3) == (CLEAR[:2], True)
    assert engine.fire_track(st, 5, 10, 3, 9, 10, 3) == (CLEAR, False)


def test_the_track_cache_is_bounded_and_emptied_tracks_come_back_the_same(monkeypatch):
    monkeypatch.setattr(engine, "_GEOMETRY_MAX", 3)
    monkeypatch.setattr(engine, "_GEOMETRY", {})
    st = game({(7, 12): "w1"})
    shots = [(5, 10, 2, 9, 10 + k, 2) for k in range(6)]  # (9, 14) passes the woods
    first = [engine.fire_track(st, *s) for s in shots]
    assert len(engine._GEOMETRY) <= 3
    assert [engine.fire_track(st, *s) for s in shots] == first
    assert any(blocked for _, blocked in first) and not all(blocked for _, blocked in first)
