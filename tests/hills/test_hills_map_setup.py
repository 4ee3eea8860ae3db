"""Map, setup and chance: BSH-1..BSH-6, BSH-19, BSH-20."""

from __future__ import annotations

import pytest
from hills_helpers import HILLS, play, position, where

from boardct.core.errors import OptionError
from boardct.games.hills.board import HEXES, HQ, INDEX, LAND, NEIGHBOURS
from boardct.games.hills.game import layout_of


def test_bsh1_map_is_a_radius_3_hexagon_of_37_hexes():
    assert len(HEXES) == 37
    assert all(max(abs(q), abs(r), abs(q + r)) <= 3 for q, r in HEXES)
    assert len(LAND) == 35


def test_bsh1_three_land_tiles_between_the_hqs_and_one_behind_each():
    between = [(-1, 0), (0, 0), (1, 0)]
    assert all(INDEX[c] in LAND for c in between)
    assert INDEX[(-3, 0)] in LAND and INDEX[(3, 0)] in LAND
    assert HEXES[HQ[0]] == (-2, 0) and HEXES[HQ[1]] == (2, 0)  # BSH-20


def test_bsh19_canonical_order_is_by_r_then_q():
    assert list(HEXES) == sorted(HEXES, key=lambda qr: (qr[1], qr[0]))
    assert HEXES[0] == (0, -3) and HEXES[-1] == (0, 3)


@pytest.mark.parametrize("word,target", [("E", (-1, 0)), ("NE", (-1, -1)), ("NW", (-2, -1)),
                                         ("W", (-3, 0)), ("SW", (-3, 1)), ("SE", (-2, 1))])
def test_bsh19_direction_deltas(word, target):
    s = position()
    play(s, f"I move {word}")
    assert where(s, "0I") == target


def test_bsh19_neighbours_off_the_map_are_missing():
    corner = INDEX[(3, -3)]
    assert sum(1 for n in NEIGHBOURS[corner] if n >= 0) == 3
    assert all(n >= 0 for n in NEIGHBOURS[INDEX[(0, 0)]])


def test_bsh2_tiles_are_15_plains_10_mountains_10_forest_all_face_down():
    s = HILLS.new(seed=5)
    tiles = [s.tiles[h] for h in LAND]
    assert (tiles.count(0), tiles.count(1), tiles.count(2)) == (15, 10, 10)
    view = s.view(0)
    assert [h["tile"] for h in view["board"]["hexes"] if h["tile"] is not None] == ["H0", "H1"]


def test_bsh2_the_shuffle_is_seeded():
    a, b, c = HILLS.new(seed=11), HILLS.new(seed=11), HILLS.new(seed=12)
    assert layout_of(a) == layout_of(b)
    assert layout_of(a) != layout_of(c)


def test_bsh3_defaults_8_stars_and_12_cards_three_of_each():
    s = HILLS.new(seed=2)
    assert sum(1 for h in LAND if s.star[h]) == 8
    assert sorted(s.deck) == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]


def test_bsh3_options_set_stars_and_deck_mix():
    s = HILLS.new(seed=2, stars=35, deck="ammo:2, boost:1")
    assert all(s.star[h] for h in LAND)
    assert sorted(s.deck) == [2, 2, 3]
    assert HILLS.new(seed=2, stars=0).view(0)["board"]["stars_total"] == 0


@pytest.mark.parametrize("opts,msg", [({"stars": 36}, "more than the 35"),
                                      ({"deck": "ammo=3"}, "CARD:COUNT"),
                                      ({"deck": "ammo:x"}, "not a whole number"),
                                      ({"deck": "ammo:1,ammo:2"}, "twice"),
                                      ({"first": "2"}, "not one of")])
def test_bsh3_bad_options_are_clear_errors(opts, msg):
    with pytest.raises(OptionError, match=msg):
        HILLS.new(seed=1, **opts)


def test_bsh20_stars_never_on_an_hq():
    for seed in range(40):
        s = HILLS.new(seed=seed, stars=35)
        assert s.star[HQ[0]] == 0 and s.star[HQ[1]] == 0


def test_bsh4_squads_start_on_their_hq():
    s = HILLS.new(seed=1)
    assert s.units == [6, 6, 4, 6, 6, 4]
    assert s.pos == [HQ[0]] * 3 + [HQ[1]] * 3


def test_bsh6_first_player_is_a_seeded_coin_or_an_option():
    firsts = {HILLS.new(seed=seed).cur for seed in range(30)}
    assert firsts == {0, 1}
    assert HILLS.new(seed=3).cur == HILLS.new(seed=3).cur
    assert all(HILLS.new(seed=seed, first="1").cur == 1 for seed in range(5))
    assert all(HILLS.new(seed=seed, first="0").cur == 0 for seed in range(5))
    assert HILLS.new(seed=3, first=1).cur == 1 and HILLS.new(seed=3, first=0).cur == 0


def test_bsh18_turn_limit_option_default_is_150():
    assert HILLS.option("turn_limit").default == 150
    assert HILLS.new(seed=1).view(0)["board"]["turn_limit"] == 150
