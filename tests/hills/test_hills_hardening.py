"""Issue 15: Battle for The Shifting Hills' inputs are bounded and checked (BSH-3, BSH-18,
BSH-38, BSH-39).

Options (deck, stars, turn limit, layout), layout files and commands: a bad one is a clear
`BoardctError`, never a traceback, a hang or an unbounded read; a rejected command changes
nothing.
"""

from __future__ import annotations

import contextlib
import sys
import time

import pytest
from hills_helpers import HILLS, layout
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardct.core.errors import BoardctError, DataError, OptionError
from boardct.core.records import Record, record_of, replay
from boardct.games.hills.board import MAX_CARDS_PER_KIND, MAX_DECK, MAX_TURN_LIMIT
from boardct.games.hills.game import MAX_LAYOUT_BYTES, layout_of, parse_deck_mix
from boardct.games.hills.layout import layout_text, parse_layout

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="/dev/zero is POSIX")
NON_ASCII_DIGITS = ["\u00b2", "\u0663", "\uff13", "\u2463", "\u0e53"]
LAYOUT = layout(deck=("boost", "ammo"))


def snapshot(s):
    return (s.view(0), s.view(1), s.view(None), s.tiles[:], s.star[:], s.deck[:], s.hand[:],
            s.st[:], s.boosted, s.rng.s, s.out, len(s.history()))


# -- the deck option (BSH-3) -------------------------------------------------------------------
def test_bsh3_huge_deck_count_is_refused_at_once_not_built():
    started = time.monotonic()
    with pytest.raises(OptionError, match=f"at most {MAX_CARDS_PER_KIND}"):
        HILLS.new(seed=1, deck="survivors:100000000")
    assert time.monotonic() - started < 1.0


def test_bsh3_deck_counts_up_to_the_limit_are_accepted():
    full = ",".join(f"{w}:{MAX_CARDS_PER_KIND}" for w in ("survivors", "artillery", "ammo",
                                                          "boost"))
    s = HILLS.new(seed=1, deck=full)
    assert len(s.deck) == MAX_DECK
    with pytest.raises(OptionError):
        HILLS.new(seed=1, deck=f"ammo:{MAX_CARDS_PER_KIND + 1}")


@pytest.mark.parametrize("digit", NON_ASCII_DIGITS)
def test_bsh3_deck_count_in_non_ascii_digits_is_refused(digit):
    """`int('٣')` is 3 and `'²'.isdigit()` is true: neither is a count."""
    with pytest.raises(OptionError, match="not a whole number"):
        parse_deck_mix(f"survivors:{digit}")


@pytest.mark.parametrize("count", ["1_0", "+3", "0x3", "3.0", "9" * 5000, ""])
def test_bsh3_deck_count_that_is_not_plain_ascii_digits_is_refused(count):
    with pytest.raises(OptionError) as info:
        parse_deck_mix(f"ammo:{count}")
    assert len(str(info.value)) < 300


def test_bsh3_negative_deck_count_is_named_as_such():
    with pytest.raises(OptionError, match="negative"):
        parse_deck_mix("ammo:-1")


def test_bsh3_deck_option_errors_escape_control_characters():
    with pytest.raises(OptionError) as info:
        parse_deck_mix("\x1b[2J:3")
    assert "\x1b" not in str(info.value)


# -- stars and turn limit ----------------------------------------------------------------------
def test_bsh3_stars_have_a_maximum_of_the_land_tiles():
    assert HILLS.option("stars").maximum == 35
    for value in (36, "36", 10**9):
        with pytest.raises(OptionError, match="more than the 35"):
            HILLS.new(seed=1, stars=value)


def test_bsh18_turn_limit_has_a_maximum():
    assert HILLS.option("turn_limit").maximum == MAX_TURN_LIMIT
    with pytest.raises(OptionError, match="above"):
        HILLS.new(seed=1, turn_limit=10**9)
    assert not HILLS.new(seed=1, turn_limit=MAX_TURN_LIMIT).is_over


@pytest.mark.parametrize("option", ["stars", "turn_limit"])
@pytest.mark.parametrize("digit", NON_ASCII_DIGITS)
def test_int_options_in_non_ascii_digits_are_refused(option, digit):
    with pytest.raises(OptionError):
        HILLS.new(seed=1, **{option: digit})


# -- layout files (BSH-39) ---------------------------------------------------------------------
def test_bsh39_layout_with_a_byte_order_mark_reads():
    assert parse_layout("\ufeff" + LAYOUT) == parse_layout(LAYOUT)


def test_bsh39_layout_file_saved_by_notepad_starts_a_game(tmp_path):
    path = tmp_path / "setup.txt"
    path.write_bytes(b"\xef\xbb\xbf" + LAYOUT.replace("\n", "\r\n").encode("utf-8"))
    assert layout_of(HILLS.new(seed=1, layout=str(path))).deck == (3, 2)
    assert layout_of(HILLS.load_file(str(path))).deck == (3, 2)


@pytest.mark.parametrize("digit", NON_ASCII_DIGITS)
def test_bsh39_tile_coordinates_in_non_ascii_digits_are_refused(digit):
    """`int('٠')` is 0: a layout must not read it as a coordinate."""
    text = LAYOUT.replace("tile 0 -3", f"tile {digit} -3")
    assert text != LAYOUT
    with pytest.raises(DataError, match="not a whole number"):
        parse_layout(text)


@pytest.mark.parametrize("word", ["1_0", "--3", "+-3", "-", "+", "9" * 5000, "٣"])
def test_bsh39_numbers_that_are_not_plain_ascii_digits_are_refused(word):
    text = LAYOUT.replace("tile 0 -3", f"tile 0 {word}")
    with pytest.raises(DataError) as info:
        parse_layout(text)
    assert len(str(info.value)) < 300


def test_bsh39_signed_coordinates_still_read():
    assert parse_layout(LAYOUT.replace("tile 0 -3", "tile +0 -3")) == parse_layout(LAYOUT)


def test_bsh39_turn_limit_above_the_maximum_is_refused():
    with pytest.raises(DataError, match="at most"):
        parse_layout(layout(limit=str(MAX_TURN_LIMIT + 1)))
    with pytest.raises(DataError):
        parse_layout(layout(limit="9" * 5000))
    assert parse_layout(layout(limit=str(MAX_TURN_LIMIT))).turn_limit == MAX_TURN_LIMIT


def test_bsh39_deck_larger_than_the_limit_is_refused():
    with pytest.raises(DataError, match=f"at most {MAX_DECK}"):
        parse_layout(layout(deck=("boost",) * 100_000))
    with pytest.raises(DataError, match=f"at most {MAX_CARDS_PER_KIND}"):
        parse_layout(layout(deck=("boost",) * (MAX_CARDS_PER_KIND + 1)))
    full = ("survivors", "artillery", "ammo", "boost") * MAX_CARDS_PER_KIND
    assert len(parse_layout(layout(deck=full)).deck) == MAX_DECK


def test_bsh39_layout_errors_escape_control_characters_and_stay_short():
    for bad in ("\x1b[2J 1", "deck \x1b[31m", "tile 0 -3 \x1b", "x" * 100_000):
        with pytest.raises(DataError) as info:
            parse_layout(LAYOUT + bad + "\n")
        assert "\x1b" not in str(info.value) and len(str(info.value)) < 400


def test_bsh39_written_layouts_still_round_trip():
    s = HILLS.new(seed=5)
    assert parse_layout(layout_text(layout_of(s))) == layout_of(s)


# -- the layout option naming a file -----------------------------------------------------------
@posix_only
def test_layout_option_naming_dev_zero_is_refused_at_once():
    with pytest.raises(DataError, match="not a regular"):
        HILLS.new(seed=1, layout="/dev/zero")


def test_layout_option_naming_a_folder_is_refused(tmp_path):
    with pytest.raises(DataError, match="is a folder"):
        HILLS.new(seed=1, layout=str(tmp_path))


def test_layout_option_naming_a_huge_file_is_refused(tmp_path):
    path = tmp_path / "huge.txt"
    path.write_text(LAYOUT + "#" * MAX_LAYOUT_BYTES, encoding="utf-8")
    with pytest.raises(DataError, match="larger than"):
        HILLS.new(seed=1, layout=str(path))


def test_layout_option_naming_a_non_utf8_file_is_refused(tmp_path):
    path = tmp_path / "latin.txt"
    path.write_bytes(LAYOUT.encode() + b"# caf\xe9\n")
    with pytest.raises(DataError, match="not UTF-8"):
        HILLS.new(seed=1, layout=str(path))


@pytest.mark.parametrize("value", ["bad\x00name", "\ud800", "x" * 5000, "\x1b[2J"])
def test_layout_option_naming_no_possible_file_is_a_data_error(value):
    with pytest.raises(DataError) as info:
        HILLS.new(seed=1, layout=value)
    assert "\x1b" not in str(info.value) and len(str(info.value)) < 500


def test_layout_option_inline_text_longer_than_the_option_limit_is_refused():
    with pytest.raises(OptionError, match="longer than"):
        HILLS.new(seed=1, layout=LAYOUT + "#" * 200_000)


# -- opening a file where saved games are opened -----------------------------------------------
@posix_only
def test_load_file_on_dev_zero_is_not_a_layout():
    assert HILLS.load_file("/dev/zero") is None


def test_load_file_on_a_folder_or_missing_file_is_not_a_layout(tmp_path):
    assert HILLS.load_file(str(tmp_path)) is None
    assert HILLS.load_file(str(tmp_path / "none.txt")) is None
    assert HILLS.load_file("bad\x00name") is None


def test_load_file_on_a_huge_layout_is_a_data_error(tmp_path):
    path = tmp_path / "huge.txt"
    path.write_text(LAYOUT + "#" * MAX_LAYOUT_BYTES, encoding="utf-8")
    with pytest.raises(DataError, match="at most"):
        HILLS.load_file(str(path))


def test_load_file_on_a_non_utf8_layout_is_a_data_error(tmp_path):
    path = tmp_path / "latin.txt"
    path.write_bytes(LAYOUT.encode() + b"# caf\xe9\n")
    with pytest.raises(DataError, match="not UTF-8"):
        HILLS.load_file(str(path))


def test_load_file_keeps_the_layout_inline_so_the_record_replays(tmp_path):
    path = tmp_path / "setup.txt"
    path.write_bytes(b"\xef\xbb\xbf" + LAYOUT.encode())
    s = HILLS.load_file(str(path))
    record = record_of(s)
    path.unlink()
    assert layout_of(replay(Record.from_json(record.to_json()))) == layout_of(s)


# -- commands (BSH-38) -------------------------------------------------------------------------
def test_bsh38_error_messages_escape_control_characters_and_stay_short():
    s = HILLS.new(seed=1)
    for text in ("\x1b[2J", "I \x1b[31m", "play \x1b", "I move " + "E" * 100_000):
        with pytest.raises(BoardctError) as info:
            s.parse(text)
        assert "\x1b" not in str(info.value) and len(str(info.value)) < 600


WORDS = ["I", "R", "M", "move", "attack", "wait", "deimpede", "play", "artillery", "boost",
         "ammo", "survivors", "end", "E", "NE", "NW", "W", "SW", "SE", "\u00b2", "\u0663",
         "\x00", "\ufeff", "\u001b", "i\u0307", "3", ""]


@FUZZ
@given(st.lists(st.sampled_from(WORDS) | st.text(max_size=6), max_size=6), st.integers(0, 20))
def test_fuzz_commands_in_wrong_places_change_nothing(words, steps):
    s = HILLS.new(seed=steps)
    for i in range(steps):
        if s.is_over:
            break
        legal = s.legal_actions()
        s.apply(legal[i * 5 % len(legal)])
    before = snapshot(s)
    try:
        s.apply(s.parse(" ".join(words)))
    except BoardctError:
        assert snapshot(s) == before


LAYOUT_WORDS = ["hills-layout", "1", "first", "0", "deck", "boost", "turn-limit", "none",
                "tile", "-3", "P*", "F", "#", "\n", " ", "\ufeff", "\u00b2", "\x00", "9" * 50]


@FUZZ
@given(st.lists(st.sampled_from(LAYOUT_WORDS) | st.text(max_size=8), max_size=30))
def test_fuzz_layouts_read_or_give_a_data_error(words):
    with contextlib.suppress(DataError):
        parse_layout(" ".join(words))


@FUZZ
@given(st.lists(st.sampled_from(LAYOUT.splitlines()) | st.text(max_size=12), max_size=40))
def test_fuzz_layout_lines_shuffled_and_broken_read_or_give_a_data_error(lines):
    with contextlib.suppress(DataError):
        parse_layout("\n".join(["hills-layout 1", *lines]))


@FUZZ
@given(st.text(max_size=80))
def test_fuzz_deck_option_gives_a_game_or_an_option_error(text):
    with contextlib.suppress(OptionError):
        HILLS.new(seed=1, deck=text)


@FUZZ
@given(st.binary(max_size=300))
def test_fuzz_layout_file_of_random_bytes_gives_a_game_or_a_boardct_error(tmp_path_factory,
                                                                          data):
    path = tmp_path_factory.mktemp("fuzz") / "layout.txt"
    path.write_bytes(b"hills-layout 1\n" + data)
    with contextlib.suppress(BoardctError):
        HILLS.new(seed=1, layout=str(path))
    with contextlib.suppress(BoardctError):
        HILLS.load_file(str(path))
