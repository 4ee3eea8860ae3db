"""Data tables (CTF-2, CTF-6, CTF-22..CTF-34) and maps (CTF-1, CTF-35): values and errors."""

from __future__ import annotations

import pytest
from ctf2187_helpers import map_text

from boardct.core import registry
from boardct.core.errors import DataError, OptionError
from boardct.games.ctf2187.maps import generate_map, map_side, parse_map
from boardct.games.ctf2187.tables import DATA_DIR, build_tables, default_tables, turn_ap


def texts() -> dict[str, str]:
    return {k: (DATA_DIR / f"{k}.toml").read_text() for k in ("terrain", "weapons", "designs",
                                                               "rules")}


def test_ctf2_terrain_elevations_as_the_rulebook_lists():
    t = default_tables().terrain_by_key
    expect = {"open": ((1, 1), 0), "light_woods": ((1, 1), 1), "heavy_woods": ((1, 1), 1),
              "light_buildings": ((1, 1), 1), "heavy_buildings": ((1, 1), 2),
              "crater": ((0, 0), 0), "gully": ((0, 0), 0), "ridge": ((2, 4), 0),
              "hill": ((2, 4), 0), "lake": ((0, 0), 1)}
    assert {k: (v.ground, v.elevation) for k, v in t.items()} == expect


def test_ctf23_terrain_move_costs_and_ctf28_cover():
    t = default_tables().terrain_by_key
    assert [t[k].move_cost for k in ("open", "light_woods", "light_buildings", "heavy_woods",
                                     "heavy_buildings")] == [0, 1, 2, 3, 4]
    assert [t[k].cover for k in ("open", "light_woods", "lake", "heavy_woods",
                                 "heavy_buildings")] == [0, -10, -15, -20, -25]


def test_ctf32_weapons():
    w = default_tables().weapons
    assert (w["PBC"].damage, w["PBC"].optimum, w["PBC"].maximum, w["PBC"].ap, w["PBC"].heat) \
        == (10, 6, 12, 9, 9)
    assert w["MG"].tons100 == 50
    assert len(w) == 8


def test_ctf33_six_designs_light_to_assault_with_their_ap():
    t = default_tables()
    got = {d.name: (d.wclass, turn_ap(d, d.engines, t)) for d in t.designs}
    assert got == {"Scout": ("light", 70), "Striker": ("light", 65), "Warden": ("medium", 52),
                   "Lancer": ("medium", 61), "Bastion": ("heavy", 49),
                   "Titan": ("assault", 48)}


def test_ctf34_command_posts_table():
    t = default_tables()
    assert (t.cp_per_team, t.cp_structure, [w.key for w in t.cp_weapons]) == (2, 60, ["LL"])


@pytest.mark.parametrize("file,old,new,where,problem", [
    ("weapons", 'damage = 10', 'damage = "ten"', "weapons.toml: weapon[5].damage",
     "is not a whole number"),
    ("weapons", 'maximum = 12\nap = 9', 'maximum = 2\nap = 9', "weapons.toml: weapon[5].maximum",
     "below the optimum"),
    ("designs", 'tons = 25', 'tons = 27', "designs.toml: design[0].tons", "multiple of 5"),
    ("designs", '["head", "SL"], ["left_arm", "ML"]', '["head", "XL"], ["left_arm", "ML"]',
     "designs.toml: design[0].weapons[0]", "'XL' is not in weapons.toml"),
    ("terrain", 'char = "w"', 'char = "."', "terrain.toml: terrain[1].char", "used twice"),
    ("rules", '[2, 9, "front_torso"]', '[3, 9, "front_torso"]', "rules.toml: locations.front",
     "rolls [2] have no location"),
    ("rules", 'scanning_range = 15', 'scanning_range = -1', "rules.toml: sensors.scanning_range",
     "below 1"),
    ("rules", 'dodge = "half"', 'dodge = "some"', "rules.toml: heat.bands[2].dodge",
     "not one of full, half, none"),
    ("terrain", 'cover = -20', '', "terrain.toml: terrain[2].cover", "missing"),
])
def test_data_errors_name_file_path_and_problem(file, old, new, where, problem):
    t = texts()
    assert old in t[file]
    t[file] = t[file].replace(old, new, 1)
    with pytest.raises(DataError) as info:
        build_tables(t)
    assert str(info.value).startswith(where)
    assert problem in str(info.value)


def test_data_invalid_toml_names_the_file():
    t = texts()
    t["rules"] = "[costs\nmove = 4"
    with pytest.raises(DataError) as info:
        build_tables(t)
    assert str(info.value).startswith("rules.toml: not valid TOML")


def test_referee_tables_directory_overrides_shipped_values(tmp_path):
    text = texts()["weapons"].replace("damage = 10", "damage = 20", 1)
    (tmp_path / "weapons.toml").write_text(text)
    st = registry.get("ctf2187").new(seed=1, tables=str(tmp_path))
    assert st.tables.weapons["PBC"].damage == 20


def test_referee_bad_table_is_an_error_at_game_start(tmp_path):
    (tmp_path / "designs.toml").write_text("[[design]]\nname = 1\n")
    with pytest.raises(DataError) as info:
        registry.get("ctf2187").new(seed=1, tables=str(tmp_path))
    assert "designs.toml: design[0].name" in str(info.value)


# -- maps ------------------------------------------------------------------------------------------


def test_ctf1_map_file_round_trips():
    t = default_tables()
    text = map_text({(1, 1): "R3", (20, 20): "~0", (5, 7): "W1"})
    m = parse_map(text, t)
    assert (m.width, m.height) == (20, 20)
    i = m.index(1, 1)
    assert t.terrain[m.terrain[i]].key == "ridge" and m.ground[i] == 3
    assert t.terrain[m.terrain[m.index(20, 20)]].key == "lake"
    assert parse_map(m.to_text(t), t) == m


@pytest.mark.parametrize("change,where,problem", [
    (lambda s: s.replace("MAP 20 20", "MAP 20"), "line 1", "MAP <width> <height>"),
    (lambda s: s.replace("MAP 20 20", "MAP 10 10"), "line 1", "20-99 sectors"),
    (lambda s: s.replace(".1 .1\n", ".1 .1 .1\n", 1), "line 2", "has 21 sectors"),
    (lambda s: s.replace(".1", "?1", 1), "line 2, sector 1-20", "not a terrain character"),
    (lambda s: s.replace(".1", "R9", 1), "line 2, sector 1-20", "ground elevation 2-4"),
    (lambda s: "\n".join(s.splitlines()[:-1]), "rows", "expected 20 rows"),
])
def test_map_file_errors_name_line_and_sector(change, where, problem):
    with pytest.raises(DataError) as info:
        parse_map(change(map_text()), default_tables(), "arena.map")
    assert str(info.value).startswith(f"arena.map: {where}")
    assert problem in str(info.value)


def test_generated_map_is_deterministic_and_has_features():
    t = default_tables()
    a = generate_map(7, 20, 20, t)
    assert a == generate_map(7, 20, 20, t)
    assert a != generate_map(8, 20, 20, t)
    keys = {t.terrain[i].key for i in a.terrain}
    assert {"open", "light_woods", "heavy_woods", "hill"} <= keys
    for i, ti in enumerate(a.terrain):
        lo, hi = t.terrain[ti].ground
        assert lo <= a.ground[i] <= hi


def test_ctf35_map_side_grows_with_bots():
    assert map_side(2) == 20 and map_side(8) == 20 and map_side(12) == 28


def test_ctf35_start_sectors_and_facing():
    st = registry.get("ctf2187").new(seed=3, names=["a", "b"], bots_per_team=2,
                                     map=map_text())
    assert [(b.x, b.y, b.facing) for b in st.bots] == [(4, 9, 3), (4, 11, 3), (17, 9, 7),
                                                       (17, 11, 7)]
    assert [(c.x, c.y) for c in st.cps] == [(2, 7), (2, 14), (19, 7), (19, 14)]


def test_ctf35_four_teams_start_on_four_sides():
    st = registry.get("ctf2187").new(seed=3, names=["a", "b", "c", "d"], teams=4,
                                     bots_per_team=1)
    assert [b.facing for b in st.bots] == [3, 7, 1, 5]
    assert len({(b.x, b.y) for b in st.bots}) == 4


def test_ctf35_start_sectors_are_forced_open():
    text = map_text({(4, 10): "B1", (2, 7): "~0"})
    st = registry.get("ctf2187").new(seed=3, map=text, bots_per_team=1)
    t = st.tables
    assert t.terrain[st.map.terrain[st.map.index(4, 10)]].key == "open"
    assert st.map.ground[st.map.index(2, 7)] == 1


def test_map_option_reads_a_file(tmp_path):
    p = tmp_path / "arena.map"
    p.write_text(map_text({(10, 10): "H4"}))
    st = registry.get("ctf2187").new(seed=3, map=str(p))
    assert st.map.ground[st.map.index(10, 10)] == 4


def test_options_errors():
    g = registry.get("ctf2187")
    with pytest.raises(OptionError):
        g.new(seed=1, names=["a", "b", "c"], bots_per_team=2)
    with pytest.raises(OptionError):
        g.new(seed=1, designs="Nope")
    with pytest.raises(DataError):
        g.new(seed=1, map="/no/such/map/file")


def test_ctf1_auto_roster_each_player_pilots_one_bot():
    g = registry.get("ctf2187")
    st = g.new(seed=1)
    assert [(b.team, b.player) for b in st.bots] == [(0, 0), (1, 1)]
    st = g.new(seed=1, bots_per_team=4)  # the benchmark battle: a commander per team
    assert len(st.bots) == 8 and [b.player for b in st.bots] == [0] * 4 + [1] * 4
    st = g.new(seed=1, names=["a", "b", "c"])
    assert [(b.team, b.player) for b in st.bots] == [(0, 0), (0, 1), (1, 2)]


def test_ctf6_design_engines_armour_internal_and_weapons_by_location():
    from boardct.games.ctf2187.tables import FT, HEAD, LA, RA, RT

    titan = default_tables().design("titan")
    assert (titan.tons, titan.wclass, titan.engines, titan.engine_tons100) == (100, "assault",
                                                                                16, 200)
    assert titan.armour == (9, 34, 16, 20, 20, 24)
    assert titan.internal == (6, 24, 16, 12, 12, 18)
    assert [(loc, w.key) for loc, w in titan.weapons] == [
        (HEAD, "ML"), (FT, "HAC"), (LA, "PBC"), (RA, "PBC"), (RT, "MR")]
