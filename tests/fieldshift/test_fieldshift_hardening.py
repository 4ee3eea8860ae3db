"""Issue 15: FieldShift's inputs are bounded and checked (FS-5, FS-22, FS-24).

Commands, the turn limit and the earlier tool's save files: a bad one is a clear
`BoardctError`, never a traceback, a hang or an unbounded read; a rejected command changes
nothing; a save file that loads is one that can be saved again.
"""

from __future__ import annotations

import contextlib
import sys

import pytest
from fs_helpers import GAME
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardct.core.errors import BoardctError, OptionError, ParseError, RecordError
from boardct.core.records import Record, load_state, record_of, replay
from boardct.games.fieldshift import notation as nt
from boardct.games.fieldshift.game import MAX_TURN_LIMIT
from boardct.games.fieldshift.savefile import MAX_SAVE_BYTES
from boardct.games.fieldshift.tables import LSTD, STDEX

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="/dev/zero is POSIX")
NON_ASCII_DIGITS = ["\u00b2", "\u0663", "\uff13", "\u2463", "\u0e53", "\U0001d7d0"]
BOM = b"\xef\xbb\xbf"


def save(tmp_path, text: str | bytes, name: str = "fs_save_x"):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


# -- commands in ASCII digits only (FS-5) ------------------------------------------------------
@pytest.mark.parametrize("digit", NON_ASCII_DIGITS)
@pytest.mark.parametrize("ruleset", [LSTD, STDEX])
def test_fs5_commands_with_non_ascii_digits_are_parse_errors(digit, ruleset):
    for text in (f"{digit}4", f"2{digit}", f"2{digit}4", digit * 3):
        with pytest.raises(ParseError, match="digits only"):
            nt.parse(text, ruleset)


def test_fs5_error_messages_escape_control_characters_and_stay_short():
    for text in ("\x1b[2J", "2\x1b", "9" * 100_000, "\x00" * 100_000):
        with pytest.raises(ParseError) as info:
            nt.parse(text, LSTD)
        assert "\x1b" not in str(info.value) and "\x00" not in str(info.value)
        assert len(str(info.value)) < 300


# -- the turn limit (FS-22) --------------------------------------------------------------------
def test_fs22_turn_limit_has_a_maximum():
    assert GAME.option("turn_limit").maximum == MAX_TURN_LIMIT
    with pytest.raises(OptionError, match="above"):
        GAME.new(seed=1, turn_limit=10**9)
    assert not GAME.new(seed=1, turn_limit=MAX_TURN_LIMIT).is_over


@pytest.mark.parametrize("digit", NON_ASCII_DIGITS)
def test_fs22_turn_limit_in_non_ascii_digits_is_refused(digit):
    with pytest.raises(OptionError):
        GAME.new(seed=1, turn_limit=digit)


# -- the earlier tool's save files (FS-24) -----------------------------------------------------
def test_fs24_save_file_with_a_byte_order_mark_loads(tmp_path):
    path = save(tmp_path, BOM + b"1\r\nAlice\r\nBob\r\n203\r\n209\r\n")
    s = load_state(path)
    assert s.ruleset == 1 and s.setup.names == ("Alice", "Bob") and s.loc[0] == 3


@pytest.mark.parametrize("name", ["Al\x1b[2Jice", "Al\x00ice", "A\tB", "A" * 201])
def test_fs24_save_file_with_a_name_no_record_can_hold_is_refused(tmp_path, name):
    """Else the game loads and every save of it fails (records refuse such names)."""
    path = save(tmp_path, f"0\n{name}\nBob\n")
    with pytest.raises(RecordError) as info:
        load_state(path)
    assert info.value.where == "line 2" and "\x1b" not in str(info.value)


def test_fs24_loaded_save_can_be_saved_and_replayed(tmp_path):
    path = save(tmp_path, BOM + "0\nZoë\nBob\n24\n".encode())
    s = load_state(path)
    again = replay(Record.from_json(record_of(s).to_json()))
    assert again.setup.names == ("Zoë", "Bob") and again.snapshot() == s.snapshot()


@pytest.mark.parametrize("digit", NON_ASCII_DIGITS)
def test_fs24_save_file_command_in_non_ascii_digits_names_its_line(tmp_path, digit):
    path = save(tmp_path, f"0\nAlice\nBob\n24\n2{digit}\n")
    with pytest.raises(RecordError) as info:
        load_state(path)
    assert info.value.where == "line 5" and "digits only" in str(info.value)


@pytest.mark.parametrize("first", ["\u00b9", "\u0661", "-\u0661", "\uff10"])
def test_fs24_ruleset_line_in_non_ascii_digits_is_not_a_save_file(tmp_path, first):
    path = save(tmp_path, f"{first}\nAlice\nBob\n")
    with pytest.raises(RecordError, match="neither a boardct record"):
        load_state(path)


def test_fs24_save_file_larger_than_the_limit_is_refused(tmp_path):
    path = save(tmp_path, "0\nAlice\nBob\n" + "\n" * MAX_SAVE_BYTES)
    with pytest.raises(RecordError, match="at most"):
        load_state(path)
    with pytest.raises(RecordError, match="at most"):
        GAME.load_file(str(path))


def test_fs24_save_file_not_utf8_is_refused(tmp_path):
    path = save(tmp_path, b"0\nAl\xe9\nBob\n")
    with pytest.raises(RecordError, match="not UTF-8|not a text"):
        load_state(path)


def test_fs24_error_naming_a_long_command_stays_short(tmp_path):
    path = save(tmp_path, "0\nAlice\nBob\n" + "2" * 100_000 + "\n")
    with pytest.raises(RecordError) as info:
        load_state(path)
    assert info.value.where == "line 4" and len(str(info.value)) < 600


@posix_only
def test_load_file_on_dev_zero_is_not_a_save():
    assert GAME.load_file("/dev/zero") is None


def test_load_file_on_a_folder_or_a_bad_name_is_not_a_save(tmp_path):
    assert GAME.load_file(str(tmp_path)) is None
    assert GAME.load_file("bad\x00name") is None
    assert GAME.load_file("x" * 5000) is None


# -- fuzz --------------------------------------------------------------------------------------
JUNK = st.one_of(st.text(max_size=6),
                 st.sampled_from(["24", "024", "35", "06", "\u00b2", "\u0663", "\ufeff24", "",
                                  "\x00", "2\u0663", "\uff12\uff14", "-1", "+24", "2_4"]))


@FUZZ
@given(st.lists(JUNK, max_size=10), st.sampled_from(["lstd", "stdex", "type-a"]))
def test_fuzz_commands_in_wrong_places_change_nothing(texts, ruleset):
    s = GAME.new(seed=len(texts), ruleset=ruleset)
    for text in texts:
        if s.is_over:
            break
        before, hist = s.snapshot(), s._hist
        try:
            s.apply(s.parse(text))
        except BoardctError:
            assert s.snapshot() == before and s._hist is hist


@FUZZ
@given(st.sampled_from(["0", "1", "-1", "\ufeff0"]), st.text(max_size=12),
       st.text(max_size=12), st.lists(JUNK, max_size=8))
def test_fuzz_save_files_load_or_give_a_record_error(tmp_path_factory, ruleset, a, b, lines):
    path = tmp_path_factory.mktemp("fuzz") / "fs_save_fuzz"
    path.write_text("\n".join([ruleset, a, b, *lines]), encoding="utf-8",
                    errors="surrogatepass")
    with contextlib.suppress(RecordError):
        load_state(path)


@FUZZ
@given(st.binary(max_size=200))
def test_fuzz_save_file_of_random_bytes_loads_or_gives_a_record_error(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "fs_save_bytes"
    path.write_bytes(b"0\n" + data)
    with contextlib.suppress(RecordError):
        load_state(path)
