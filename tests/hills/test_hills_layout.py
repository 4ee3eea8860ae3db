"""Layout files (BSH-39): exact hidden setups, written and read, with errors by line."""

from __future__ import annotations

import pytest
from hills_helpers import HILLS, layout, play

from boardct.core.errors import DataError
from boardct.core.records import load_state, record_of, replay
from boardct.games.hills.board import INDEX, LAND
from boardct.games.hills.game import layout_of
from boardct.games.hills.layout import layout_text, parse_layout

EXAMPLE = """hills-layout 1
# a comment line
FIRST 1
deck boost ammo   # top card first
turn-limit 7
""" + "\n".join(
    f"tile {q} {r} {'F*' if (q, r) == (1, -3) else 'm'}" for q, r in
    [(q, r) for r in range(-3, 4) for q in range(-3, 4)
     if max(abs(q), abs(r), abs(q + r)) <= 3 and (q, r) not in ((-2, 0), (2, 0))][::-1]
) + "\n\n"


def test_bsh39_layout_fixes_first_player_deck_limit_and_tiles():
    s = HILLS.from_layout(EXAMPLE)
    assert s.cur == 1 and s.info.turn_limit == 7
    assert s.deck == [2, 3]  # boost on top (end of the list)
    assert s.tiles[INDEX[(1, -3)]] == 2 and s.star[INDEX[(1, -3)]] == 1
    assert sum(1 for h in LAND if s.tiles[h] == 1) == 34
    assert s.view(0)["board"]["tile_counts"] == {"P": 0, "M": 34, "F": 1}


def test_bsh39_tiles_in_any_order_write_back_in_canonical_order():
    layout_obj = parse_layout(EXAMPLE)
    text = layout_text(layout_obj)
    lines = text.splitlines()
    assert lines[:4] == ["hills-layout 1", "first 1", "deck boost ammo", "turn-limit 7"]
    assert lines[4] == "tile 0 -3 M" and lines[5] == "tile 1 -3 F*" and lines[-1] == "tile 0 3 M"
    assert parse_layout(text) == layout_obj


def test_bsh39_seeded_setup_round_trips_through_a_layout_file():
    for seed in range(5):
        s = HILLS.new(seed=seed)
        text = layout_text(layout_of(s))
        t = HILLS.from_layout(text)
        assert layout_of(t) == layout_of(s)
        assert t.cur == s.cur and t.deck == s.deck and t.tiles == s.tiles


def test_bsh39_empty_deck_and_no_turn_limit():
    s = HILLS.from_layout(layout(deck=(), limit="none"))
    assert s.deck == [] and s.info.turn_limit == 0


def test_bsh39_layout_without_turn_limit_uses_the_option():
    assert HILLS.from_layout(layout()).info.turn_limit == 150
    assert HILLS.from_layout(layout(), turn_limit=9).info.turn_limit == 9


def test_bsh39_layout_file_by_path_and_by_load_file(tmp_path):
    path = tmp_path / "setup.txt"
    path.write_text(layout(tiles={(-1, 0): "F*"}, deck=("artillery",), first=1))
    s = HILLS.new(seed=4, layout=str(path))
    assert s.cur == 1 and s.deck == [1]
    loaded = load_state(path)
    assert loaded.game.id == "hills" and loaded.tiles == s.tiles
    # the record keeps the layout text itself, so it replays without the file
    play(loaded, "end", "I move E")
    record = record_of(loaded)
    path.unlink()
    again = replay(record)
    assert again.view(0) == loaded.view(0) and again.hand == loaded.hand


def _with(line_edit):
    lines = layout().splitlines()
    return "\n".join(line_edit(lines)) + "\n"


@pytest.mark.parametrize("text,where,fragment", [
    ("", "line 1", "starts with 'hills-layout 1'"),
    ("hills-layout 2\n", "line 1", "starts with"),
    (_with(lambda ls: ls[:1] + ls[2:]), "", "no 'first' line"),
    (_with(lambda ls: [ls[0], ls[1]] + ls[3:]), "", "no 'deck' line"),
    (_with(lambda ls: ls + ["first 1"]), "line 39", "'first' is given twice"),
    (_with(lambda ls: [ls[0], "first 2"] + ls[2:]), "line 2", "'first' takes 0 or 1"),
    (_with(lambda ls: [ls[0], ls[1], "deck boost joker"] + ls[3:]), "line 3",
     "unknown card 'joker'"),
    (_with(lambda ls: ls + ["turn-limit x"]), "line 39", "'x' is not a whole number"),
    (_with(lambda ls: ls + ["turn-limit 0"]), "line 39", "at least 1"),
    (_with(lambda ls: ls[:-1]), "", "1 land tiles are missing: (0,3)"),
    (_with(lambda ls: ls + ["tile 0 3 P"]), "line 39", "already given on line 38"),
    (_with(lambda ls: ls + ["tile 4 0 P"]), "line 39", "off the map"),
    (_with(lambda ls: ls + ["tile 2 0 P"]), "line 39", "is a headquarters"),
    (_with(lambda ls: ls[:-1] + ["tile 0 3 X"]), "line 38", "is not P, M or F"),
    (_with(lambda ls: ls[:-1] + ["tile 0 3"]), "line 38", "takes Q R T"),
    (_with(lambda ls: ls + ["river 1 2"]), "line 39", "unknown entry 'river'"),
])
def test_bsh39_bad_layout_files_name_the_line(text, where, fragment):
    with pytest.raises(DataError) as err:
        parse_layout(text, "setup.txt")
    assert err.value.path == where and err.value.source == "setup.txt"
    assert fragment in str(err.value)


def test_bsh39_missing_layout_file_is_a_clear_error(tmp_path):
    with pytest.raises(DataError, match="No such file"):
        HILLS.new(seed=1, layout=str(tmp_path / "nope.txt"))
