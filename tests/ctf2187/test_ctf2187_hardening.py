"""CTF 2187 input hardening (issue 15, items 1, 2, 3 and 5): every number in ASCII digits,
every option and file bounded, every table value in range, every bad file in the game folder a
one-line error that names it and changes nothing. Never a traceback."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from ctf2187_helpers import map_text
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as hs

from boardct.cli.main import cli
from boardct.core import registry
from boardct.core.errors import BoardctError, DataError, OptionError, ParseError, RecordError
from boardct.core.records import Record, record_of, replay
from boardct.games.ctf2187.maps import MAX_MAP_BYTES, parse_map
from boardct.games.ctf2187.sheet import SheetError
from boardct.games.ctf2187.state import MAX_BOTS_PER_TEAM, MAX_TURNS
from boardct.games.ctf2187.tables import DATA_DIR, build_tables, default_tables, load_tables

BOM = "\ufeff"
SHEET1 = "BOT 1 TURN 1\nP1 6 - 2 - 0\nP2 6 - 2 - 0\nP3 13 - 2 - 0\nP4 0 - 2 - 0\nP5 0 - 2 - 0\n"


def duel(**options):
    return registry.get("ctf2187").new(seed=1, names=["ann", "bob"], **options)


def run(*args, ok=True, input=None):
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    if ok:
        assert result.exit_code == 0, result.output
    else:
        assert result.exit_code == 2, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), \
            result.exception
    return result


def one_line_error(result, *names: str) -> str:
    """A refusal is one line `error: ...` that names the file(s); a sheet with several
    problems follows it with one indented line per problem (issue 17 item 5)."""
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    lines = result.output.strip().splitlines()
    assert lines[0].startswith("error: "), result.output
    assert all(ln.startswith("  ") for ln in lines[1:]), result.output
    assert len(lines) == 1 or "problems" in lines[0], result.output
    for name in names:
        assert name in lines[0], lines[0]
    assert "Traceback" not in result.output
    return "\n".join(lines)


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every file's bytes and every folder under `folder` (None for a folder)."""
    out: dict[str, bytes | None] = {}
    for p in sorted(folder.rglob("*")):
        out[str(p.relative_to(folder))] = None if p.is_dir() else p.read_bytes()
    return out


@pytest.fixture
def gamedir(tmp_path):
    d = tmp_path / "game"
    run("ctf2187", "new", d, "--players", "ann,bob", "--seed", 42, "--map-seed", 7)
    return d


def sheet_dir(d: Path) -> Path:
    return d / "sheets" / "turn-001"


# -- 1. ASCII digits only ------------------------------------------------------------------------


def test_sheet_superscript_bot_number_is_a_sheet_error_not_a_crash():
    with pytest.raises(SheetError) as info:
        duel().parse("BOT ² TURN 1")
    assert "field 2 (bot): '²' is not a bot number 1-2" in str(info.value)


@pytest.mark.parametrize("digit", ["²", "١", "１", "۱", "𝟏"])
def test_sheet_non_ascii_digits_refused_in_every_number_field(digit):
    st = duel()
    for text in (SHEET1.replace("BOT 1", f"BOT {digit}"),
                 SHEET1.replace("TURN 1", f"TURN {digit}"),
                 SHEET1.replace("P1 6 -", f"P1 {digit} -"),
                 SHEET1.replace("P5 0 - 2 - 0", f"P5 0 - 2 - {digit}")):
        with pytest.raises(SheetError) as info:
            st.parse(text)
        assert repr(digit) in str(info.value)


def test_sheet_huge_number_is_a_field_error():
    with pytest.raises(SheetError) as info:
        duel().parse(SHEET1.replace("P1 6 -", "P1 " + "9" * 5000 + " -"))
    assert "field 2 (move order)" in str(info.value)


def test_record_entry_player_number_in_ascii_digits_only():
    st = duel()
    with pytest.raises(ParseError):
        st.clone().apply_entry("player ١: BOT 1 TURN 1 MISSING")
    with pytest.raises(ParseError) as info:
        st.clone().apply_entry("player " + "9" * 5000 + ": BOT 1 TURN 1 MISSING")
    assert "there is no player" in str(info.value)
    assert st.clone().apply_entry("player 1: BOT 1 TURN 1 MISSING")  # ASCII still works


def test_hot_seat_superscript_sheet_is_rejected_and_the_game_goes_on(tmp_path):
    script = tmp_path / "moves.txt"
    script.write_text("BOT ² TURN 1\n" + SHEET1.replace("\n", "; ").rstrip("; ") + "\n",
                      encoding="utf-8")
    result = CliRunner().invoke(cli, ["play", "ctf2187", "--names", "ann", "bob", "--seed", "1",
                                      "--script", str(script), "--trace", "--color", "never"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    rejected = [ln for ln in result.output.splitlines() if ln.startswith("Rejected: ")]
    assert len(rejected) == 1 and "'²' is not a bot number" in rejected[0]
    assert "Player 2 (Bot 2, turn 1 order sheet)" in result.output


def test_map_ground_digit_in_ascii_only():
    bad = map_text({(1, 1): ".²"})
    with pytest.raises(DataError) as info:
        parse_map(bad, default_tables(), "arena.map")
    assert "arena.map: line 21, sector 1-1: '.²' is not a terrain character" in str(info.value)
    with pytest.raises(DataError):
        parse_map(map_text({(1, 1): ".١"}), default_tables())


@pytest.mark.parametrize("header", ["MAP ٢٠ ٢٠", "MAP ²0 20", "MAP 2_0 20", "MAP +20 20",
                                    "MAP " + "9" * 5000 + " 20", "MAP -20 20"])
def test_map_header_numbers_in_ascii_digits_only(header):
    text = map_text().replace("MAP 20 20", header, 1)
    with pytest.raises(DataError) as info:
        parse_map(text, default_tables(), "arena.map")
    assert str(info.value).startswith("arena.map: line 1: width and height must be whole")


def test_cli_player_number_in_ascii_digits_only(gamedir):
    out = one_line_error(run("ctf2187", "results", gamedir, "²", ok=False))
    assert "no player '²'" in out
    one_line_error(run("ctf2187", "results", gamedir, "١", ok=False))
    assert "TURN RESULTS - turn 0" in run("ctf2187", "results", gamedir, "2").output


@pytest.mark.parametrize("args", [("--turns", "١٠"), ("--turns", "1_0"), ("--teams", "²"),
                                  ("--seed", "9" * 5000), ("--bots-per-team", "١")])
def test_cli_number_options_in_ascii_digits_only(tmp_path, args):
    d = tmp_path / "g"
    result = run("ctf2187", "new", d, "--players", "ann,bob", *args, ok=False)
    assert "is not a whole number" in result.output
    assert not d.exists()


def test_cli_results_turn_in_ascii_digits_only(gamedir):
    assert "is not a whole number" in run("ctf2187", "results", gamedir, "ann", "--turn", "٠",
                                          ok=False).output


# -- 2. options, the map and tables options, game.json -------------------------------------------


@pytest.mark.parametrize("name,value", [("bots_per_team", 10 ** 7),
                                        ("bots_per_team", MAX_BOTS_PER_TEAM + 1),
                                        ("turn_limit", MAX_TURNS + 1), ("turn_limit", 10 ** 30),
                                        ("map_seed", 1 << 64), ("map_seed", -1)])
def test_every_number_option_is_bounded(name, value):
    opt = registry.get("ctf2187").option(name)
    assert opt.maximum is not None and opt.minimum is not None
    with pytest.raises(OptionError) as info:
        opt.convert(value)
    assert f"option {name}" in str(info.value)


def test_largest_options_still_make_a_game():
    game = registry.get("ctf2187")
    st = game.new(seed=1, names=["ann", "bob"], bots_per_team=MAX_BOTS_PER_TEAM,
                  turn_limit=MAX_TURNS, map_seed=(1 << 64) - 1)
    assert len(st.bots) == 2 * MAX_BOTS_PER_TEAM and st.turns == MAX_TURNS
    st = game.new(seed=1, names=["ann", "bob", "cy", "dee"], teams=4, bots_per_team=5)
    assert len(st.bots) == 20 and st.map.width <= 99


def test_record_asking_for_ten_million_bots_is_refused_without_allocating():
    rec = Record("ctf2187", 1, {"bots_per_team": 10 ** 7}, ["ann", "bob"], [])
    with pytest.raises(RecordError) as info:
        replay(rec, "game.json")
    assert "game.json: options: option bots_per_team: 10000000 is above 10" in str(info.value)


def test_map_option_naming_a_huge_file_is_refused_unread(tmp_path):
    big = tmp_path / "huge.map"
    with open(big, "wb") as fh:
        fh.truncate(MAX_MAP_BYTES + 1)
    with pytest.raises(DataError) as info:
        duel(map=str(big))
    assert "huge.map" in str(info.value) and "larger than" in str(info.value)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_map_option_naming_dev_zero_is_refused_unread():
    with pytest.raises(DataError) as info:
        duel(map="/dev/zero")
    assert "/dev/zero: cannot read the map file (is not a regular map file)" in str(info.value)


@pytest.mark.parametrize("value", ["no/such/file.map", "a" * 5000, "x\x00y"])
def test_map_option_naming_no_readable_file_is_a_data_error(value):
    with pytest.raises(DataError):
        duel(map=value)


@pytest.mark.parametrize("value", ["no/such/dir", "a" * 5000, "x\x00y"])
def test_tables_option_naming_no_directory_is_a_data_error(value):
    with pytest.raises(DataError) as info:
        duel(tables=value)
    assert "the tables option must name a directory" in str(info.value)


def test_tables_option_with_a_huge_table_file_is_refused_unread(tmp_path):
    with open(tmp_path / "terrain.toml", "wb") as fh:
        fh.truncate(3 * 1024 ** 3)  # sparse: three gigabytes that take no disk
    with pytest.raises(DataError) as info:
        load_tables(tmp_path)
    assert "terrain.toml" in str(info.value) and "larger than" in str(info.value)


@pytest.mark.skipif(sys.platform == "win32" or not os.path.exists("/dev/zero"),
                    reason="needs /dev/zero and symbolic links")
def test_tables_option_with_a_table_linked_to_dev_zero_is_refused(tmp_path):
    (tmp_path / "rules.toml").symlink_to("/dev/zero")
    with pytest.raises(DataError) as info:
        load_tables(tmp_path)
    assert "rules.toml: cannot read (is not a regular table file)" in str(info.value)


def test_map_with_more_rows_than_its_header_stops_at_the_first_extra_row():
    text = map_text() + ".1 " * 20 + "\n" + "junk\n" * 50_000
    with pytest.raises(DataError) as info:
        parse_map(text, default_tables(), "arena.map")
    assert "arena.map: line 22: more than the 20 rows" in str(info.value)


def test_map_text_too_large_is_refused():
    with pytest.raises(DataError) as info:
        parse_map("#" * (MAX_MAP_BYTES + 1), default_tables(), "arena.map")
    assert "a map is at most" in str(info.value)


def write_game(d: Path, mutate) -> None:
    doc = json.loads((d / "game.json").read_text(encoding="utf-8"))
    mutate(doc)
    (d / "game.json").write_text(json.dumps(doc), encoding="utf-8")


@pytest.mark.parametrize("text,problem", [
    ('{"a":' * 5000 + "1" + "}" * 5000, "nested more than"),
    ('{"format": "boardct-record", "seed": ' + "7" * 5000 + "}", "digits"),
    ('{"format": "boardct-record", "players": ["\\ud800"]}', "not valid Unicode"),
    ("{", "not valid JSON"),
    ("", "not valid JSON"),
    ("\x00\x01", "not valid JSON"),
])
def test_hostile_game_json_is_a_one_line_error(gamedir, text, problem):
    (gamedir / "game.json").write_text(text, encoding="utf-8")
    before = snapshot(gamedir)
    for cmd in (("status", gamedir), ("results", gamedir, "ann"), ("process", gamedir),
                ("submit", gamedir, "ann", "-")):
        out = one_line_error(run("ctf2187", *cmd, ok=False, input=SHEET1), "game.json")
        assert problem in out
    assert snapshot(gamedir) == before


def test_game_json_of_bytes_that_are_not_utf8_is_a_one_line_error(gamedir):
    (gamedir / "game.json").write_bytes(b"\xff\xfe{}")
    one_line_error(run("ctf2187", "status", gamedir, ok=False), "game.json")


def test_game_json_asking_for_ten_million_bots_is_a_one_line_error(gamedir):
    write_game(gamedir, lambda doc: doc["options"].update(bots_per_team=10 ** 7))
    out = one_line_error(run("ctf2187", "status", gamedir, ok=False), "game.json")
    assert "option bots_per_team: 10000000 is above 10" in out


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_game_json_map_option_naming_dev_zero_is_a_one_line_error(gamedir):
    write_game(gamedir, lambda doc: doc["options"].update(map="/dev/zero"))
    out = one_line_error(run("ctf2187", "status", gamedir, ok=False), "game.json")
    assert "/dev/zero" in out


@pytest.mark.parametrize("deadline", ["\x1b[2J", "a\nb", "x" * 201, 7, ["1 May"]])
def test_game_json_deadline_must_be_printable_text(gamedir, deadline):
    write_game(gamedir, lambda doc: doc["ctf2187"].update(deadline=deadline))
    out = one_line_error(run("ctf2187", "status", gamedir, ok=False), "game.json")
    assert "ctf2187.deadline" in out


# -- 3. TOML tables ------------------------------------------------------------------------------


def texts() -> dict[str, str]:
    return {k: (DATA_DIR / f"{k}.toml").read_text(encoding="utf-8")
            for k in ("terrain", "weapons", "designs", "rules")}


def test_table_nested_too_deep_is_a_data_error_not_recursion():
    t = texts()
    t["terrain"] = "x = " + "[" * 5000 + "]" * 5000 + "\n" + t["terrain"]
    with pytest.raises(DataError) as info:
        build_tables(t)
    assert str(info.value).startswith("terrain.toml") and "nested" in str(info.value)


@pytest.mark.parametrize("value", ["inf", "+inf", "-inf", "nan"])
def test_table_infinite_engine_tons_is_a_data_error_not_overflow(value):
    t = texts()
    t["designs"] = t["designs"].replace("engine_tons = ", f"engine_tons = {value} # ", 1)
    with pytest.raises(DataError) as info:
        build_tables(t)
    assert str(info.value).startswith("designs.toml")


def test_table_number_of_thousands_of_digits_is_a_data_error():
    t = texts()
    t["weapons"] = t["weapons"].replace("damage = 10", "damage = " + "1" * 5000, 1)
    with pytest.raises(DataError) as info:
        build_tables(t)
    assert str(info.value).startswith("weapons.toml")


@pytest.mark.parametrize("file,old,new,where", [
    ("designs", "engine_tons = ", "engine_tons = 1e300 # ", "design[0].engine_tons"),
    ("designs", "tons = 25", "tons = 1000000000000000000000000025", "design[0].tons"),
    ("designs", "armour = [4,", "armour = [100000000000000000000,", "design[0].armour"),
    ("weapons", "damage = 10", "damage = 100000000", "weapon[5].damage"),
    ("weapons", "maximum = 12", "maximum = 1000000", "].maximum: 1000000 is above 99"),
    ("rules", "scanning_range = 15", "scanning_range = 100000", "sensors.scanning_range"),
    ("rules", "structure = 60", "structure = 10000000000000000000000000000", "structure"),
    ("rules", "wounds_to_kill = ", "wounds_to_kill = 1000000 # ", "pilot.wounds_to_kill"),
])
def test_table_values_feeding_arithmetic_are_range_checked(file, old, new, where):
    t = texts()
    assert old in t[file]
    t[file] = t[file].replace(old, new, 1)
    with pytest.raises(DataError) as info:
        build_tables(t)
    assert str(info.value).startswith(f"{file}.toml: ") and where in str(info.value)
    assert "above" in str(info.value)


def test_table_command_post_weapon_that_is_not_a_key_is_a_data_error():
    t = texts()
    t["rules"] = t["rules"].replace('weapons = ["LL"]', "weapons = [[1]]", 1)
    with pytest.raises(DataError) as info:
        build_tables(t)
    assert "rules.toml: command_posts.weapons[0]" in str(info.value)


@pytest.mark.parametrize("name", ["Bad\x1b[2J", "Lan,cer", "x" * 41, "a\nb"])
def test_table_design_names_printable_short_and_without_commas(name):
    t = texts()
    t["designs"] = t["designs"].replace('name = "Scout"', f"name = {json.dumps(name)}", 1)
    with pytest.raises(DataError) as info:
        build_tables(t)
    assert "designs.toml: design[" in str(info.value) and ".name" in str(info.value)


def test_table_files_with_a_byte_order_mark_are_accepted(tmp_path):
    for k, text in texts().items():
        (tmp_path / f"{k}.toml").write_text(BOM + text, encoding="utf-8")
    assert load_tables(tmp_path).scanning_range == default_tables().scanning_range


def test_table_override_errors_name_the_referees_file(tmp_path):
    (tmp_path / "weapons.toml").write_text("[[weapon]]\nkey = 1\n", encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_tables(tmp_path)
    assert str(info.value).startswith(str(tmp_path / "weapons.toml") + ": weapon[0].key")


@pytest.mark.parametrize("data", [b"", b"\x00" * 100, b"\xff\xfe\xfa", os.urandom(2000),
                                  b"[" * 100_000, b"a = " + b"9" * 100_000])
def test_table_files_of_hostile_bytes_are_data_errors(tmp_path, data):
    (tmp_path / "rules.toml").write_bytes(data)
    with pytest.raises(DataError) as info:
        load_tables(tmp_path)
    assert "rules.toml" in str(info.value)


def test_unknown_design_name_is_shown_escaped():
    with pytest.raises(OptionError) as info:
        duel(designs="Lancer,\x1b[2J")
    assert "\x1b" not in str(info.value) and "\\x1b[2J" in str(info.value)


# -- byte-order marks in sheets and maps ---------------------------------------------------------


def test_sheet_with_a_byte_order_mark_is_accepted():
    st = duel()
    assert st.parse(BOM + SHEET1)[:3] == (0, 1, 6)


def test_map_file_with_a_byte_order_mark_is_accepted(tmp_path):
    m = tmp_path / "arena.map"
    m.write_text(BOM + map_text({(10, 10): "H4"}), encoding="utf-8")
    assert parse_map(m.read_text(encoding="utf-8"), default_tables()).width == 20
    d = tmp_path / "g"
    run("ctf2187", "new", d, "--players", "a,b", "--map", m, "--seed", 1)
    assert (d / "map.txt").read_text(encoding="utf-8").startswith("MAP 20 20")
    assert duel(map=str(m)).map.width == 20


def test_submit_sheet_with_a_byte_order_mark_is_accepted(tmp_path, gamedir):
    f = tmp_path / "sheet.txt"
    f.write_bytes(BOM.encode("utf-8") + SHEET1.encode("utf-8"))
    assert "accepted: Bot 1" in run("ctf2187", "submit", gamedir, "ann", f).output


# -- 5. the folder commands ----------------------------------------------------------------------


def test_submit_sheet_not_utf8_is_one_line_naming_the_file(tmp_path, gamedir):
    f = tmp_path / "sheet.bin"
    f.write_bytes(b"BOT 1 TURN 1\n\xff\xfe")
    before = snapshot(gamedir)
    out = one_line_error(run("ctf2187", "submit", gamedir, "ann", f, ok=False), "sheet.bin")
    assert "not a text file (not UTF-8 at byte 13)" in out
    assert snapshot(gamedir) == before


def test_submit_a_folder_as_the_sheet_is_one_line_naming_it(tmp_path, gamedir):
    folder = tmp_path / "sheets-folder"
    folder.mkdir()
    before = snapshot(gamedir)
    out = one_line_error(run("ctf2187", "submit", gamedir, "ann", folder, ok=False),
                         "sheets-folder")
    assert "is a folder" in out
    assert snapshot(gamedir) == before


def test_submit_a_missing_sheet_is_one_line_naming_it(tmp_path, gamedir):
    one_line_error(run("ctf2187", "submit", gamedir, "ann", tmp_path / "nope.txt", ok=False),
                   "nope.txt")


def test_submit_a_sheet_of_gigabytes_is_refused_unread(tmp_path, gamedir):
    f = tmp_path / "huge.txt"
    with open(f, "wb") as fh:
        fh.write(SHEET1.encode())
        fh.truncate(2 * 1024 ** 3)  # sparse
    before = snapshot(gamedir)
    out = one_line_error(run("ctf2187", "submit", gamedir, "ann", f, ok=False), "huge.txt")
    assert "larger than" in out
    assert snapshot(gamedir) == before


def test_submit_a_large_sheet_on_standard_input_is_refused(gamedir):
    out = one_line_error(run("ctf2187", "submit", gamedir, "ann", "-", ok=False,
                             input="#" * 200_000))
    assert "standard input" in out


def test_submit_sheet_on_standard_input_still_works(gamedir):
    assert "accepted: Bot 1" in run("ctf2187", "submit", gamedir, "ann", "-",
                                    input=SHEET1).output


def test_submit_rejected_sheet_names_the_file(tmp_path, gamedir):
    f = tmp_path / "orders.txt"
    f.write_text("BOT ² TURN 1\n", encoding="utf-8")
    out = one_line_error(run("ctf2187", "submit", gamedir, "ann", f, ok=False), "orders.txt")
    assert "'²' is not a bot number" in out


@pytest.mark.skipif(sys.platform == "win32", reason="closing standard input with a shell")
def test_submit_from_closed_standard_input_is_one_line(gamedir):
    exe = shutil.which("sh")
    if exe is None:
        pytest.skip("needs sh")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    command = (f'"{sys.executable}" -c "from boardct.cli.main import main; main()" '
               f'ctf2187 submit "{gamedir}" ann - <&-')
    proc = subprocess.run([exe, "-c", command], capture_output=True, text=True, env=env,
                          timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip() == "error: standard input: cannot read the sheet"


def test_process_sheet_not_utf8_is_one_line_and_changes_nothing(gamedir):
    run("ctf2187", "submit", gamedir, "ann", "-", input=SHEET1)
    (sheet_dir(gamedir) / "bot-1.txt").write_bytes(b"BOT 1 TURN 1\n\x80\n")
    before = snapshot(gamedir)
    out = one_line_error(run("ctf2187", "process", gamedir, "--deadline", ok=False),
                         "bot-1.txt")
    assert "not a text file" in out
    assert snapshot(gamedir) == before


def test_process_folder_where_a_sheet_should_be_is_one_line(gamedir):
    (sheet_dir(gamedir) / "bot-2.txt").mkdir(parents=True)
    before = snapshot(gamedir)
    out = one_line_error(run("ctf2187", "process", gamedir, "--deadline", ok=False),
                         "bot-2.txt")
    assert "is a folder" in out
    assert snapshot(gamedir) == before


def test_process_sheet_of_gigabytes_is_refused_unread(gamedir):
    sheet_dir(gamedir).mkdir(parents=True)
    with open(sheet_dir(gamedir) / "bot-1.txt", "wb") as fh:
        fh.truncate(2 * 1024 ** 3)
    before = snapshot_names(gamedir)
    out = one_line_error(run("ctf2187", "process", gamedir, "--deadline", ok=False),
                         "bot-1.txt")
    assert "larger than" in out
    assert snapshot_names(gamedir) == before


def snapshot_names(folder: Path) -> list[tuple[str, int]]:
    """Names and sizes only: for folders holding a sparse file too large to read."""
    return [(str(p.relative_to(folder)), p.stat().st_size) for p in sorted(folder.rglob("*"))]


@pytest.mark.parametrize("text,problem", [
    ("", "empty sheet"),
    ("BOT 1 TURN", "expected 'BOT <n> TURN <t>'"),  # truncated
    (SHEET1.replace("BOT 1", "BOT 2"), "the sheet is for Bot 2, the file for Bot 1"),
    (SHEET1.replace("TURN 1", "TURN 7"), "the current turn is 1"),
    ("BOT 1 TURN 1 MISSING", "MISSING"),
    ("\x00" * 50, "expected"),
])
def test_process_edited_or_truncated_sheet_is_one_line_naming_it(gamedir, text, problem):
    sheet_dir(gamedir).mkdir(parents=True)
    (sheet_dir(gamedir) / "bot-1.txt").write_text(text, encoding="utf-8")
    before = snapshot(gamedir)
    out = one_line_error(run("ctf2187", "process", gamedir, "--deadline", ok=False),
                         "bot-1.txt")
    assert problem in out
    assert snapshot(gamedir) == before
    assert "Turn 1 of 10" in run("ctf2187", "status", gamedir).output


def test_process_standing_file_holding_a_turn_sheet_is_refused(gamedir):
    sheet_dir(gamedir).mkdir(parents=True)
    (sheet_dir(gamedir) / "bot-1.standing.txt").write_text(SHEET1, encoding="utf-8")
    before = snapshot(gamedir)
    out = one_line_error(run("ctf2187", "process", gamedir, "--deadline", ok=False),
                         "bot-1.standing.txt")
    assert "should hold standing orders" in out
    assert snapshot(gamedir) == before


def test_results_file_truncated_is_one_line_naming_it(gamedir):
    path = gamedir / "results" / "turn-000" / "bot-1.json"
    path.write_text(path.read_text(encoding="utf-8")[:100], encoding="utf-8")
    before = snapshot(gamedir)
    out = one_line_error(run("ctf2187", "results", gamedir, "ann", "--json", ok=False),
                         "bot-1.json")
    assert "not valid JSON" in out
    assert snapshot(gamedir) == before


@pytest.mark.parametrize("suffix", ["txt", "json"])
def test_results_file_not_utf8_or_a_folder_is_one_line(gamedir, suffix):
    path = gamedir / "results" / "turn-000" / f"bot-1.{suffix}"
    path.write_bytes(b"\xc3\x28 broken")
    args = ("--json",) if suffix == "json" else ()
    out = one_line_error(run("ctf2187", "results", gamedir, "ann", *args, ok=False),
                         f"bot-1.{suffix}")
    assert "not a text file" in out
    path.unlink()
    path.mkdir()
    one_line_error(run("ctf2187", "results", gamedir, "ann", *args, ok=False), f"bot-1.{suffix}")


def test_results_json_deeply_nested_is_one_line(gamedir):
    path = gamedir / "results" / "turn-000" / "bot-1.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    out = one_line_error(run("ctf2187", "results", gamedir, "ann", "--json", ok=False),
                         "bot-1.json")
    assert "nested" in out


@pytest.mark.parametrize("names", ["ann\x1b[2J,bob", "ann,b\x07ob", "ann,\u202ebob",
                                   "ann," + "b" * 201, "ann,2", "ann,ANN"])
def test_new_refuses_names_that_would_break_the_game_file(tmp_path, names):
    d = tmp_path / "g"
    one_line_error(run("ctf2187", "new", d, "--players", names, ok=False))
    assert not d.exists()


def test_new_names_unlike_a_player_number_still_work(tmp_path):
    d = tmp_path / "g"
    run("ctf2187", "new", d, "--players", "ann,²", "--seed", 1)
    assert "TURN RESULTS" in run("ctf2187", "results", d, "²").output  # a name, not a number


@pytest.mark.parametrize("deadline", ["\x1b[31mred", "x" * 201, "line\nbreak"])
def test_deadlines_must_be_printable(tmp_path, gamedir, deadline):
    d = tmp_path / "g"
    one_line_error(run("ctf2187", "new", d, "--players", "a,b", "--next-deadline", deadline,
                       ok=False), "--next-deadline")
    assert not d.exists()
    before = snapshot(gamedir)
    one_line_error(run("ctf2187", "process", gamedir, "--deadline", "--next-deadline", deadline,
                       ok=False), "--next-deadline")
    assert snapshot(gamedir) == before


def test_new_into_a_file_is_one_line(tmp_path):
    f = tmp_path / "taken"
    f.write_text("mine", encoding="utf-8")
    out = one_line_error(run("ctf2187", "new", f, "--players", "a,b", ok=False), "taken")
    assert "is a file" in out
    assert f.read_text(encoding="utf-8") == "mine"


def test_new_map_file_that_is_a_folder_or_huge_is_one_line(tmp_path):
    folder = tmp_path / "maps"
    folder.mkdir()
    one_line_error(run("ctf2187", "new", tmp_path / "g", "--players", "a,b", "--map", folder,
                       ok=False), "maps")
    huge = tmp_path / "huge.map"
    with open(huge, "wb") as fh:
        fh.truncate(2 * 1024 ** 3)
    out = one_line_error(run("ctf2187", "new", tmp_path / "g", "--players", "a,b", "--map",
                             huge, ok=False), "huge.map")
    assert "larger than" in out
    assert not (tmp_path / "g").exists()


def test_new_map_file_with_comments_stores_the_canonical_map(tmp_path):
    m = tmp_path / "arena.map"
    m.write_text("# my arena\n" + "# " + "x" * 200_000 + "\n" + map_text({(3, 3): "W1"}),
                 encoding="utf-8")
    d = tmp_path / "g"
    run("ctf2187", "new", d, "--players", "a,b", "--map", m, "--seed", 1)
    rec = json.loads((d / "game.json").read_text(encoding="utf-8"))
    assert rec["options"]["map"].startswith("MAP 20 20\n") and "#" not in rec["options"]["map"]
    assert "Turn 1 of 10" in run("ctf2187", "status", d).output


@pytest.mark.parametrize("args", [("--bots-per-team", 11), ("--turns", 1000), ("--turns", 0),
                                  ("--teams", 5), ("--seed", -1), ("--map-seed", 1 << 64)])
def test_new_number_options_out_of_range_create_nothing(tmp_path, args):
    d = tmp_path / "g"
    result = run("ctf2187", "new", d, "--players", "ann,bob", *args, ok=False)
    assert "is not within" in result.output
    assert not d.exists()


@pytest.mark.parametrize("seconds", ["nan", "inf", "-1", "0", "1e999", "3601", "١"])
def test_bench_seconds_must_be_a_finite_bound(seconds):
    result = run("ctf2187", "bench", "--seconds", seconds, ok=False)
    assert "--seconds" in result.output


def test_bench_bots_per_team_is_bounded():
    result = run("ctf2187", "bench", "--seconds", "0.1", "--bots-per-team", 10 ** 7, ok=False)
    assert "is not within 1-10" in result.output


def test_write_failure_during_submit_names_the_file_and_leaves_no_temporary(gamedir):
    (gamedir / "sheets").write_text("not a folder", encoding="utf-8")  # blocks sheets/turn-001
    before = snapshot(gamedir)
    out = one_line_error(run("ctf2187", "submit", gamedir, "ann", "-", ok=False, input=SHEET1),
                         "bot-1.txt")
    assert "cannot write" in out
    assert snapshot(gamedir) == before


def test_write_failure_during_process_names_the_results_and_changes_nothing(gamedir):
    (gamedir / "results" / "turn-001.tmp").mkdir()
    (gamedir / "results" / "turn-001").write_text("in the way", encoding="utf-8")
    run("ctf2187", "process", gamedir, "--deadline")  # a stale .tmp and a file in the way
    assert (gamedir / "results" / "turn-001" / "bot-1.txt").exists()
    assert not (gamedir / "results" / "turn-001.tmp").exists()


@pytest.mark.parametrize("data", [os.urandom(3000), b"\x00" * 3000, b"BOT 1 TURN 1\n" * 3000,
                                  ("P1 " + "9" * 4000).encode(), b"\r\n" * 5000,
                                  "BOT 1 TURN 1 ; P1 ² ١ ３ 𝟏 -".encode()])
def test_hostile_sheets_never_crash_submit_or_process(tmp_path, gamedir, data):
    f = tmp_path / "s.txt"
    f.write_bytes(data)
    before = snapshot(gamedir)
    one_line_error(run("ctf2187", "submit", gamedir, "ann", f, ok=False))
    assert snapshot(gamedir) == before
    sheet_dir(gamedir).mkdir(parents=True)
    (sheet_dir(gamedir) / "bot-1.txt").write_bytes(data)
    before = snapshot(gamedir)
    one_line_error(run("ctf2187", "process", gamedir, "--deadline", ok=False), "bot-1.txt")
    assert snapshot(gamedir) == before


# -- fuzz: nothing but the documented errors, no state changed by a rejection ----------------------

TOKENS = ["BOT", "TURN", "STANDING", "MISSING", "default", "player", ":", "P1", "P2", "P3", "P4",
          "P5", "P6", "-", "0", "1", "2", "3", "5", "6", "11", "13", "19", "21", "23", "24", "99",
          "999", "1000", "9" * 50, "9" * 5000, "-1", "²", "١", "１", "𝟏", "#", ";", "\n", "\r\n",
          " ", "\t", BOM, "\x00", "\x1b[2J", "\ud800", "é", "MAP", "20", ".1", "w1", "R3", "~0",
          ".²", "H9", "Z1"]
FUZZ = settings(max_examples=int(os.environ.get("CTF_FUZZ_EXAMPLES", "150")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])
texts_of_tokens = hs.lists(hs.sampled_from(TOKENS) | hs.text(max_size=8), max_size=40).map(
    lambda parts: " ".join(parts))
hostile_text = texts_of_tokens | hs.text(max_size=200) | hs.binary(max_size=200).map(
    lambda b: b.decode("utf-8", "replace"))


def fingerprint(st) -> str:
    return json.dumps(st.view(None), sort_keys=True) + repr(record_of(st).actions)


@FUZZ
@given(text=hostile_text, player=hs.sampled_from([None, 0, 1]))
@example(text="BOT ² TURN 1", player=0)
@example(text="player ²: BOT 1 TURN 1 MISSING", player=None)
def test_fuzz_sheets_and_record_entries_raise_only_boardct_errors(text, player):
    st = duel()
    for attempt in (lambda: st.apply(st.parse(text, player), player),
                    lambda: st.apply_entry(text),
                    lambda: st.apply_entry(f"player 1: {text}")):
        snap = fingerprint(st)
        try:
            attempt()
        except BoardctError:
            assert fingerprint(st) == snap  # a rejection changes nothing


@FUZZ
@given(rows=hs.lists(texts_of_tokens, max_size=25), head=hs.sampled_from(
    ["MAP 20 20", "MAP 20 21", "MAP ²0 20", "MAP 100 20", "", "map 20 20", BOM + "MAP 20 20"]))
@example(rows=[" ".join([".²"] * 20)] * 20, head="MAP 20 20")
def test_fuzz_map_texts_raise_only_data_errors(rows, head):
    text = head + "\n" + "\n".join(rows)
    for t in (text, map_text() + text, map_text().replace(".1", rows[0] if rows else "", 1)):
        try:
            parse_map(t, default_tables(), "arena.map")
        except DataError as exc:
            assert str(exc).startswith("arena.map")


HOSTILE_VALUES = ["inf", "-inf", "nan", "-1", "0", "1e300", "9" * 60, '"x"', "[[1]]", "{a = 1}",
                  "true", "1979-05-27", '"\\u0000"', "[" * 200 + "]" * 200, "0.001", '"é,é"']


@FUZZ
@given(file=hs.sampled_from(["terrain", "weapons", "designs", "rules"]), data=hs.data())
def test_fuzz_table_values_raise_only_data_errors(file, data):
    import re

    t = texts()
    spots = [m.start(1) for m in re.finditer(r"= *([^\n#]+)", t[file])]
    where = data.draw(hs.sampled_from(spots))
    value = data.draw(hs.sampled_from(HOSTILE_VALUES) | hs.integers().map(str))
    end = t[file].find("\n", where)
    t[file] = t[file][:where] + value + t[file][end:]
    try:
        build_tables(t)
    except DataError as exc:  # a changed key may be reported where another file uses it
        assert str(exc).split(":")[0] in ("terrain.toml", "weapons.toml", "designs.toml",
                                          "rules.toml")
