"""Issue 15: Shift's inputs are bounded and checked, and a bad one is a clear `BoardctError`.

Card files and the card options (`card1`, `card2`), the turn limit, and `boardct cards check`:
no traceback, no hang, no unbounded read, whatever the file or text.
"""

from __future__ import annotations

import contextlib
import sys

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shift_helpers import GAME, card, new, snapshot

from boardct.cli.main import cli
from boardct.core.errors import BoardctError, DataError, OptionError
from boardct.games.shift import cardformat
from boardct.games.shift.cards import (
    MAX_CARD_BYTES,
    CheckResult,
    check_file,
    check_text,
    load_file,
    resolve,
    shipped,
)
from boardct.games.shift.game import MAX_TURN_LIMIT

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BOM = "\ufeff"
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="/dev/zero is POSIX")


def problems(text: str) -> list[tuple[str, str]]:
    return check_text(text, "x.toml").problems


def shipped_text(name: str = "ember-duelist") -> str:
    return shipped()[name].read_text(encoding="utf-8")


# -- byte-order mark ---------------------------------------------------------------------------
def test_card_file_saved_with_a_byte_order_mark_loads(tmp_path):
    path = tmp_path / "notepad.toml"
    path.write_bytes(b"\xef\xbb\xbf" + shipped_text().encode("utf-8"))
    assert load_file(path).name == "Ember Duelist"
    assert check_file(path).problems == []


def test_card_text_with_a_byte_order_mark_checks():
    assert problems(BOM + shipped_text()) == []


# -- TOML that tomllib alone crashes on or lets through ----------------------------------------
def test_card_nested_thousands_deep_is_a_problem_not_a_recursion_error():
    result = check_text("name = " + "[" * 3000 + "]" * 3000, "deep.toml")
    assert result.card is None
    assert "nested more than" in result.problems[0][1]


def test_card_number_of_thousands_of_digits_is_a_problem_not_a_value_error():
    result = check_text(shipped_text().replace("power = 3", "power = " + "9" * 5000, 1), "x")
    assert result.card is None and result.problems


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "1e999"])
def test_card_infinite_or_nan_numbers_are_problems(value):
    result = check_text(f"{shipped_text()}\nextra = {value}\n", "x")
    assert result.card is None and result.problems


def test_card_lone_surrogate_in_text_is_a_problem():
    assert problems(shipped_text().replace("Ember Duelist", "Ember \ud800"))


def test_card_deep_but_legal_nesting_still_loads(tmp_path):
    flip = ('{ type = "alpha", activation = "H", effects = [ { op = "flip", coins = 1, '
            'per = "H", do = [ { op = "heal", n = 1, if = { gear = [1, 2] } } ] } ] }')
    assert check_file(card(tmp_path, m1=flip)).problems == []


# -- ASCII digits only -------------------------------------------------------------------------
@pytest.mark.parametrize("digit", ["\u00b2", "\u0663", "\uff13", "\u2463"])
def test_spirit_cost_in_non_ascii_digits_is_not_read_as_a_number(tmp_path, digit):
    """`'²'.isdigit()` is true; the message must not call it a cost out of range."""
    mod = f'{{ type = "alpha", activation = "spirit {digit}" }}'
    found = check_file(card(tmp_path, m1=mod)).problems
    assert found == [("gears[0].mods[0].activation", f"'spirit {digit}': write 'spirit N' "
                                                       "with N 1-5")]


def test_spirit_cost_out_of_range_is_still_named_as_such(tmp_path):
    mod = '{ type = "alpha", activation = "spirit 9" }'
    assert check_file(card(tmp_path, m1=mod)).problems == [
        ("gears[0].mods[0].activation", "spirit cost 9 is out of range 1..5")]


# -- printed texts -----------------------------------------------------------------------------
@pytest.mark.parametrize("bad", ["\\u001b[2J", "\\u0000", "\\u009b31m", "\\n", "\\t",
                                 "\\u007f"])
def test_card_texts_with_control_characters_are_refused(bad):
    """A card's name and texts are printed on the board: an escape sequence must not reach
    the terminal, a line break must not break the board. (`bad` is a TOML escape.)"""
    text = shipped_text()
    assert problems(text.replace('name = "Ember Duelist"', f'name = "Evil{bad}"'))[0][0] == \
        "name"
    assert problems(text.replace('ability = "', f'ability = "{bad}', 1))[0][0] == "ability"


def test_card_name_longer_than_the_limit_is_refused(tmp_path):
    name = "N" * (cardformat.MAX_NAME_LEN + 1)
    assert check_file(card(tmp_path, name=name)).problems == [
        ("name", f"is {len(name)} characters long; at most {cardformat.MAX_NAME_LEN}")]


def test_schema_refuses_what_the_validator_refuses():
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(cardformat.card_schema())
    import tomllib

    doc = tomllib.loads(shipped_text())
    for name in ("Evil\u001b[2J", "N" * 41, " "):
        assert list(validator.iter_errors({**doc, "name": name})), name
        assert cardformat.validate({**doc, "name": name}), name
    assert list(validator.iter_errors({**doc, "name": "Zoë Ember"})) == []


# -- files that are not card files -------------------------------------------------------------
def test_card_file_larger_than_the_limit_is_refused_without_reading_it_all(tmp_path):
    path = tmp_path / "huge.toml"
    path.write_text(shipped_text() + "#" * MAX_CARD_BYTES, encoding="utf-8")
    with pytest.raises(DataError, match="larger than"):
        load_file(path)


@posix_only
def test_card_option_naming_dev_zero_is_refused_at_once():
    with pytest.raises(DataError, match="not a regular"):
        GAME.new(seed=1, card1="/dev/zero")


def test_card_option_naming_a_folder_is_refused(tmp_path):
    folder = tmp_path / "cards.toml"
    folder.mkdir()
    with pytest.raises(DataError, match="is a folder"):
        GAME.new(seed=1, card2=str(folder))


def test_card_file_not_utf8_is_refused(tmp_path):
    path = tmp_path / "latin.toml"
    path.write_bytes(b'name = "caf\xe9"\n')
    with pytest.raises(DataError, match="not a UTF-8"):
        resolve(str(path))


@pytest.mark.parametrize("spec", ["a" * 5000, "a" * 5000 + ".toml", "bad\x00name",
                                  "bad\x00name.toml", "\ud800", "", " ", "\u001b[2J"])
def test_card_option_no_file_system_accepts_is_a_data_error(spec):
    with pytest.raises(DataError) as info:
        resolve(spec)
    assert len(str(info.value)) < 400 and "\x1b" not in str(info.value)


# -- options -----------------------------------------------------------------------------------
def test_turn_limit_has_a_maximum():
    assert GAME.option("turn_limit").maximum == MAX_TURN_LIMIT
    with pytest.raises(OptionError, match="above"):
        GAME.new(seed=1, turn_limit=10**9)
    with pytest.raises(OptionError, match="above"):
        GAME.new(seed=1, turn_limit=str(MAX_TURN_LIMIT + 1))
    assert not GAME.new(seed=1, turn_limit=MAX_TURN_LIMIT).is_over


@pytest.mark.parametrize("value", ["\u00b2", "\u0663", "1_0", "+5", "0x10", "5.0", "1e3"])
def test_turn_limit_in_anything_but_ascii_digits_is_refused(value):
    with pytest.raises(OptionError):
        GAME.new(seed=1, turn_limit=value)


def test_card_option_text_longer_than_the_option_limit_is_refused():
    with pytest.raises(OptionError, match="longer than"):
        GAME.new(seed=1, card1="x" * 200_000)


# -- boardct cards check -----------------------------------------------------------------------
def run_check(target: str):
    return CliRunner().invoke(cli, ["cards", "check", target])


def assert_clear_failure(result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.output


def test_cards_check_on_a_folder(tmp_path):
    assert_clear_failure(run_check(str(tmp_path)), "is a folder")


@posix_only
def test_cards_check_on_dev_zero():
    assert_clear_failure(run_check("/dev/zero"), "not a regular card file")


def test_cards_check_on_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "x.toml"
    path.write_bytes(b"\xff\xfe\x00n\x00a")
    assert_clear_failure(run_check(str(path)), "not a UTF-8")


def test_cards_check_on_a_missing_file(tmp_path):
    assert_clear_failure(run_check(str(tmp_path / "none.toml")), "none.toml")


def test_cards_check_on_deep_nesting(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text("a = " + "[" * 5000 + "]" * 5000, encoding="utf-8")
    assert_clear_failure(run_check(str(path)), "nested more than")


def test_cards_check_on_a_huge_number(tmp_path):
    path = tmp_path / "big.toml"
    path.write_text("a = " + "7" * 5000, encoding="utf-8")
    assert_clear_failure(run_check(str(path)))


def test_cards_check_on_a_bom_card_passes(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + shipped_text().encode("utf-8"))
    result = run_check(str(path))
    assert result.exit_code == 0 and "ok (Ember Duelist)" in result.output


def test_cards_show_of_an_unreadable_card_is_a_clear_error(tmp_path):
    result = CliRunner().invoke(cli, ["cards", "show", str(tmp_path / "none.toml")])
    assert_clear_failure(result, "none.toml")


# -- fuzz --------------------------------------------------------------------------------------
@FUZZ
@given(st.text(max_size=300))
def test_fuzz_check_text_never_raises(text):
    assert isinstance(check_text(text, "fuzz"), CheckResult)


@FUZZ
@given(st.binary(max_size=300))
def test_fuzz_card_file_of_random_bytes_is_a_card_or_a_data_error(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "card.toml"
    path.write_bytes(data)
    with contextlib.suppress(DataError):
        load_file(path)


@FUZZ
@given(st.text(max_size=200))
def test_fuzz_card_option_is_a_card_or_a_boardct_error(spec):
    with contextlib.suppress(BoardctError):
        GAME.new(seed=1, card1=spec)


TOKENS = ["shift", "attack", "guard", "active", "spirit", "none", "pass", "first", "second",
          "1", "2L", "3", "2R", "alpha", "beta", "omega", "\u00b2", "\u0663", "２", "\x00",
          "\ufeff", "\u001b", "", " "]


@FUZZ
@given(st.lists(st.sampled_from(TOKENS) | st.text(max_size=8), max_size=8),
       st.integers(0, 30))
def test_fuzz_commands_in_wrong_places_change_nothing(words, steps):
    s = new(seed=steps)
    for _ in range(steps):
        if s.is_over:
            break
        s.apply(s.legal_actions()[0])
    before = snapshot(s)
    text = " ".join(words)
    try:
        action = s.parse(text)
    except BoardctError:
        assert snapshot(s) == before
        return
    try:
        s.apply(action)
    except BoardctError:
        assert snapshot(s) == before
