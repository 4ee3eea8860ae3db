"""Issue 15: Force Field Factions' inputs are bounded and checked (FFF-30, FFF-32, FFF-33).

Turns, positions (as text or as a file named by the `position` option) and the turn limit: a
bad one is a clear `BoardctError`, never a traceback, a hang or an unbounded read, and a
rejected turn changes nothing.
"""

from __future__ import annotations

import contextlib
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardct.core import registry
from boardct.core.errors import BoardctError, OptionError, ParseError
from boardct.core.records import Record, record_of, replay
from boardct.games.fff.game import MAX_POSITION_BYTES, MAX_TURN_LIMIT
from boardct.games.fff.notation import parse_turn
from boardct.games.fff.position import INITIAL, MAX_COUNT, read

GAME = registry.get("fff")
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="/dev/zero is POSIX")
NON_ASCII_DIGITS = ["\u00b2", "\u0663", "\uff13", "\u2463", "\u0e53"]


def with_count(count: str) -> str:
    return INITIAL.rsplit(" ", 1)[0] + " " + count


# -- the no-capture count (FFF-28, FFF-32) -----------------------------------------------------
def test_fff32_count_of_thousands_of_digits_is_a_parse_error_not_a_value_error():
    with pytest.raises(ParseError, match="no-capture count"):
        read(with_count("9" * 5000))


def test_fff32_count_above_the_maximum_is_refused():
    with pytest.raises(ParseError, match="at most|more than"):
        read(with_count(str(MAX_COUNT + 1)))
    assert read(with_count(str(MAX_COUNT))).count == MAX_COUNT


@pytest.mark.parametrize("digit", NON_ASCII_DIGITS)
def test_fff32_count_in_non_ascii_digits_is_refused(digit):
    with pytest.raises(ParseError, match="not a whole number"):
        read(with_count(digit))


@pytest.mark.parametrize("count", ["-1", "+1", "1_0", "0x1", " "])
def test_fff32_count_that_is_not_plain_ascii_digits_is_refused(count):
    with pytest.raises(ParseError):
        read(with_count(count))


# -- byte-order mark ---------------------------------------------------------------------------
def test_fff32_position_text_with_a_byte_order_mark_reads():
    assert read("\ufeff" + INITIAL) == read(INITIAL)


def test_position_option_naming_a_notepad_file_starts_there(tmp_path):
    path = tmp_path / "start.txt"
    path.write_bytes(b"\xef\xbb\xbf" + with_count("7").encode("ascii") + b"\r\n")
    s = GAME.new(seed=0, position=str(path))
    assert s.position() == with_count("7")


# -- the position option naming a file ---------------------------------------------------------
def test_position_option_file_is_kept_inline_so_the_record_replays_without_it(tmp_path):
    path = tmp_path / "start.txt"
    path.write_text(with_count("3") + "\n", encoding="utf-8")
    s = GAME.new(seed=0, position=str(path))
    s.apply(s.parse("d1 m"))
    record = record_of(s)
    path.unlink()
    assert record.options["position"] == with_count("3")
    assert replay(Record.from_json(record.to_json())).position() == s.position()


@posix_only
def test_position_option_naming_dev_zero_is_refused_at_once():
    with pytest.raises(OptionError, match="not a regular"):
        GAME.new(seed=0, position="/dev/zero")


def test_position_option_naming_a_folder_is_refused(tmp_path):
    with pytest.raises(OptionError, match="is a folder"):
        GAME.new(seed=0, position=str(tmp_path))


def test_position_option_naming_a_huge_file_is_refused(tmp_path):
    path = tmp_path / "huge.txt"
    path.write_text(INITIAL + " " * MAX_POSITION_BYTES, encoding="utf-8")
    with pytest.raises(OptionError, match="larger than"):
        GAME.new(seed=0, position=str(path))


def test_position_option_naming_a_non_utf8_file_is_refused(tmp_path):
    path = tmp_path / "latin.txt"
    path.write_bytes(b"B3a1N \xe9")
    with pytest.raises(OptionError, match="not UTF-8"):
        GAME.new(seed=0, position=str(path))


@pytest.mark.parametrize("value", ["nosuchfile", "bad\x00name", "x" * 5000, "\u001b[2J"])
def test_position_option_neither_a_position_nor_a_file_is_an_option_error(value):
    with pytest.raises(OptionError) as info:
        GAME.new(seed=0, position=value)
    assert "\x1b" not in str(info.value) and len(str(info.value)) < 500


def test_position_option_inline_text_longer_than_the_option_limit_is_refused():
    with pytest.raises(OptionError, match="longer than"):
        GAME.new(seed=0, position=INITIAL + " " * 200_000)


# -- the turn limit (FFF-16, FFF-28) -----------------------------------------------------------
def test_fff16_turn_limit_has_a_maximum():
    assert GAME.option("turn_limit").maximum == MAX_TURN_LIMIT
    with pytest.raises(OptionError, match="above"):
        GAME.new(seed=0, turn_limit=10**9)
    assert not GAME.new(seed=0, turn_limit=MAX_TURN_LIMIT).is_over


@pytest.mark.parametrize("value", NON_ASCII_DIGITS)
def test_fff16_turn_limit_in_non_ascii_digits_is_refused(value):
    with pytest.raises(OptionError):
        GAME.new(seed=0, turn_limit=value)


# -- turns (FFF-30) ----------------------------------------------------------------------------
@pytest.mark.parametrize("digit", NON_ASCII_DIGITS)
def test_fff30_square_with_a_non_ascii_digit_is_a_parse_error(digit):
    with pytest.raises(ParseError):
        parse_turn(f"d{digit} m")


def test_fff30_error_messages_escape_control_characters_and_stay_short():
    for text in ("d1 \x1b[2J", "\x1b[31md1", "d1 " + "m" * 100_000, "d1 +\x1b"):
        with pytest.raises(ParseError) as info:
            parse_turn(text)
        assert "\x1b" not in str(info.value) and len(str(info.value)) < 600


def test_fff32_error_messages_escape_control_characters_and_stay_short():
    pieces, rest = INITIAL.split(" ", 1)
    for bad in (f"\x1b[2J {rest}", f"{pieces} \x1b {rest.split(' ', 1)[1]}",
                f"{'B' * 100_000} {rest}", with_count("\x1b")):
        with pytest.raises(ParseError) as info:
            read(bad)
        assert "\x1b" not in str(info.value) and len(str(info.value)) < 600


# -- fuzz --------------------------------------------------------------------------------------
TOKENS = ["pass", "d1", "d2", "d1~", "m", "x", "xN", "xE/W", "N", "NE", "U", "+r", "-c", "+y",
          "d\u00b2", "\u0663", "\x00", "\ufeff", "\u001b", "DD", "-", "/", "~", "+"]


@FUZZ
@given(st.lists(st.sampled_from(TOKENS) | st.text(max_size=6), max_size=8),
       st.integers(0, 12))
def test_fuzz_turns_in_wrong_places_are_refused_and_change_nothing(words, steps):
    s = GAME.new(seed=steps)
    for i in range(steps):
        legal = s.legal_actions()
        s.apply(legal[i * 7 % len(legal)])
    before = (s.position(), s.history(), s.outcome)
    try:
        s.apply(s.parse(" ".join(words)))
    except BoardctError:
        assert (s.position(), s.history(), s.outcome) == before


FIELD_TOKENS = ["B3a1N", "W1c8S:gr", "B", "W", "r33g33b33y33p33o33c33", "-", "000/000",
                "0", "9" * 50, "\u00b2", "\ufeff", ",", ":", " ", "\x00", "\u001b"]


@FUZZ
@given(st.lists(st.sampled_from(FIELD_TOKENS) | st.text(max_size=10), max_size=7))
def test_fuzz_positions_read_or_give_a_parse_error(parts):
    with contextlib.suppress(ParseError):
        read(" ".join(parts))


@FUZZ
@given(st.text(max_size=120))
def test_fuzz_position_option_gives_a_game_or_a_boardct_error(text):
    with contextlib.suppress(BoardctError):
        GAME.new(seed=0, position=text)


@FUZZ
@given(st.binary(max_size=200))
def test_fuzz_position_file_of_random_bytes_gives_a_game_or_a_boardct_error(tmp_path_factory,
                                                                            data):
    path = tmp_path_factory.mktemp("fuzz") / "position.txt"
    path.write_bytes(data)
    with contextlib.suppress(BoardctError):
        GAME.new(seed=0, position=str(path))
