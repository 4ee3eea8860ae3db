"""Issue 15: untrusted input is read with bounds and fails with a clear `InputError`
(core/inputs.py), never a traceback, a hang or an unbounded read."""

from __future__ import annotations

import os
import sys

import pytest

from boardct.core.errors import BoardctError, OptionError
from boardct.core.game import Option
from boardct.core.inputs import (
    InputError,
    ascii_int,
    decode,
    parse_json,
    parse_toml,
    read_text,
)

# -- numbers -----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["²", "٣", "１２", "1²", "", " 1", "-1", "+1", "1_000", "١٢"])
def test_ascii_int_refuses_anything_but_ascii_digits(text):
    assert ascii_int(text) is None


def test_ascii_int_reads_ascii_digits_and_bounds_their_count():
    assert ascii_int("0042") == 42
    assert ascii_int("9" * 40) == int("9" * 40)
    assert ascii_int("9" * 41) is None


def test_superscript_two_is_a_digit_to_python_but_not_to_int():
    # the trap the issue names: isdigit() says yes, int() says no
    assert "²".isdigit()
    with pytest.raises(ValueError):
        int("²")


@pytest.mark.parametrize("value", ["²", "٣", "1e3", "10**7", ""])
def test_int_option_refuses_non_ascii_digits_with_an_option_error(value):
    opt = Option("turn_limit", 10, "help", type=int)
    with pytest.raises(OptionError, match="turn_limit"):
        opt.convert(value)


def test_int_option_reads_a_negative_number_against_its_minimum():
    opt = Option("n", 0, "help", type=int, minimum=-5)
    assert opt.convert("-3") == -3
    with pytest.raises(OptionError, match="below -5"):
        opt.convert("-6")


def test_int_option_maximum_is_enforced_for_text_and_numbers():
    opt = Option("bots", 1, "help", type=int, minimum=1, maximum=12)
    assert opt.convert("12") == 12
    with pytest.raises(OptionError, match="above 12"):
        opt.convert("13")
    with pytest.raises(OptionError, match="above 12"):
        opt.convert(10**7)


def test_int_option_refuses_true_and_false():
    opt = Option("turn_limit", 10, "help", type=int)
    with pytest.raises(OptionError, match="not a whole number"):
        opt.convert(True)


def test_text_option_length_is_bounded():
    opt = Option("map", "", "help")
    with pytest.raises(OptionError, match="longer than"):
        opt.convert("x" * 200_001)


# -- JSON --------------------------------------------------------------------------------------


def test_json_nested_deeper_than_python_can_recurse_is_a_clear_error():
    text = "[" * 100_000 + "]" * 100_000
    with pytest.raises(InputError, match="nested"):
        parse_json(text, "deep.json")


def test_json_nested_beyond_the_depth_limit_is_refused_by_the_shape_check():
    with pytest.raises(InputError, match="nested more than 32"):
        parse_json("[" * 40 + "]" * 40)
    assert parse_json("[" * 30 + "]" * 30) is not None


def test_json_number_of_thousands_of_digits_is_a_clear_error():
    with pytest.raises(InputError, match="digits"):
        parse_json('{"seed": ' + "7" * 5000 + "}")


@pytest.mark.parametrize("text", ['{"a": NaN}', '{"a": Infinity}', '{"a": -Infinity}', "1e999"])
def test_json_non_finite_numbers_are_refused(text):
    with pytest.raises(InputError):
        parse_json(text)


def test_json_lone_surrogate_is_refused_naming_the_field():
    with pytest.raises(InputError, match=r"players\[0\].*not valid Unicode"):
        parse_json('{"players": ["\\ud800"]}')


def test_broken_json_names_line_and_column():
    with pytest.raises(InputError) as info:
        parse_json('{\n  "a": }', "x.json")
    assert info.value.where == "line 2, column 8"
    assert str(info.value).startswith("x.json: line 2, column 8: not valid JSON")


def test_json_with_a_byte_order_mark_is_read():
    assert parse_json("\ufeff{\"a\": 1}") == {"a": 1}


# -- TOML --------------------------------------------------------------------------------------


def test_toml_deep_nesting_is_a_clear_error():
    text = "x = " + "[" * 5000 + "]" * 5000
    with pytest.raises(InputError, match="nested"):
        parse_toml(text, "deep.toml")


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "+inf"])
def test_toml_non_finite_numbers_are_refused_naming_the_key(value):
    with pytest.raises(InputError, match="engine_tons.*finite"):
        parse_toml(f"[bot]\nengine_tons = {value}\n", "t.toml")


def test_toml_huge_integer_is_a_clear_error():
    with pytest.raises(InputError):
        parse_toml("x = " + "9" * 5000)


def test_toml_with_a_byte_order_mark_is_read():
    assert parse_toml("\ufeffname = 'a'\n") == {"name": "a"}


# -- files -------------------------------------------------------------------------------------


def test_read_text_drops_the_byte_order_mark_of_windows_notepad(tmp_path):
    path = tmp_path / "f.txt"
    path.write_bytes(b"\xef\xbb\xbfhello\r\n")
    assert read_text(path) == "hello\r\n"


def test_read_text_names_the_first_byte_that_is_not_utf8(tmp_path):
    path = tmp_path / "f.txt"
    path.write_bytes(b"abc\xff")
    with pytest.raises(InputError, match=r"f\.txt: not UTF-8 text \(byte 3\)"):
        read_text(path)


def test_read_text_refuses_a_file_above_its_limit_without_reading_it_all(tmp_path):
    path = tmp_path / "big.txt"
    path.write_bytes(b"a" * 1001)
    with pytest.raises(InputError, match="larger than 1,000 bytes"):
        read_text(path, limit=1000)
    assert read_text(path, limit=1001) == "a" * 1001


def test_read_text_refuses_a_folder(tmp_path):
    with pytest.raises(InputError, match="is a folder"):
        read_text(tmp_path, what="card")


def test_read_text_of_a_missing_file_says_so(tmp_path):
    with pytest.raises(InputError, match="No such file"):
        read_text(tmp_path / "nope.txt")


def test_read_text_refuses_a_nul_in_the_file_name():
    with pytest.raises(InputError, match="NUL"):
        read_text("a\x00b")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero on this platform")
def test_read_text_refuses_dev_zero_at_once():
    with pytest.raises(InputError, match="not a regular"):
        read_text("/dev/zero")


@pytest.mark.skipif(sys.platform == "win32" or not hasattr(os, "mkfifo"),
                    reason="FIFOs are POSIX")
def test_read_text_does_not_wait_on_a_fifo(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="not a regular"):
        read_text(fifo)


def test_decode_errors_are_boardct_errors():
    with pytest.raises(BoardctError):
        decode(b"\xc3", "x")
