"""`boardct cards list|show|check|schema`, the game's options, and the generic bench."""

from __future__ import annotations

import json

from click.testing import CliRunner
from shift_helpers import card

from boardct.cli.main import cli
from boardct.games.shift import cardformat
from boardct.games.shift.cards import shipped


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_cards_list_names_every_shipped_card():
    result = run("cards", "list")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert len(lines) == len(shipped())
    assert lines[0].split()[:3] == ["ember-duelist", "Ember", "Duelist"]


def test_cards_show_by_name_and_by_path(tmp_path):
    result = run("cards", "show", "Tide Warden")
    assert result.exit_code == 0
    assert result.output.splitlines()[:3] == [
        "Tide Warden",
        "  Ability: Your guard is +1 while you have 3 or more damage.",
        "    constant: guard +1 (if damage >= 3)",
    ]
    assert "Gear 3 (level 3): power 3, guard 5" in result.output
    path = card(tmp_path, name="Home Made")
    assert run("cards", "show", path).output.startswith("Home Made\n")


def test_cards_show_unknown_is_an_error():
    result = run("cards", "show", "nobody")
    assert result.exit_code == 2
    assert "error: nobody: no shipped card of that name and no such file" in result.output


def test_cards_check_a_good_card():
    path = str(shipped()["quill-of-ash"])
    result = run("cards", "check", path)
    assert result.exit_code == 0
    assert result.output == f"{path}: ok (Quill of Ash)\n"


def test_cards_check_lists_every_problem_and_fails(tmp_path):
    path = card(tmp_path, g1=10, m3='{ type = "omega", activation = "spirit 7" }')
    result = run("cards", "check", path)
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"error: {path}: gears[0].guard: 10 is out of range 0..9",
        f"error: {path}: gears[2].mods[0].activation: spirit cost 7 is out of range 1..5",
        f"{path}: 2 problems",
    ]


def test_cards_check_prints_warnings_but_passes(tmp_path):
    path = card(tmp_path, m1='{ type = "alpha", activation = "WW" }')
    result = run("cards", "check", path)
    assert result.exit_code == 0
    assert f"warning: {path}: gears[0].mods[0].activation: 'WW' has no H or T: it always " \
           f"succeeds" in result.output


def test_cards_check_missing_file(tmp_path):
    result = run("cards", "check", str(tmp_path / "none.toml"))
    assert result.exit_code == 2
    assert "No such file or directory" in result.output


def test_cards_schema_prints_the_shipped_schema():
    result = run("cards", "schema")
    assert result.exit_code == 0
    assert json.loads(result.output) == json.loads(cardformat.SCHEMA_FILE.read_text("utf-8"))


def test_games_lists_the_card_options():
    result = run("games")
    assert "shift  Shift, the single-card duel  (boardct play shift)" in result.output
    shift = result.output[result.output.index("shift  Shift"):]
    assert "  -o card1=STR\n" in shift and "[default: ember-duelist]" in shift
    assert "  -o turn_limit=INT\n" in shift and "[default: 200]" in shift
    assert max(len(line) for line in result.output.splitlines()) <= 80


def test_a_bad_card_option_is_a_clear_error(tmp_path):
    from boardct.core import registry
    from boardct.core.errors import DataError

    path = card(tmp_path, p1=12)
    try:
        registry.get("shift").new(seed=1, card1=path)
    except DataError as exc:
        assert str(exc) == f"{path}: gears[0].power: 12 is out of range 0..9"
    else:
        raise AssertionError("no error")


def test_bench_runs_on_shift():
    result = run("bench", "shift", "--seconds", "0.3", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["game"] == "shift" and data["games"] > 0


def test_play_shift_from_a_script_with_cards_by_name_and_path(tmp_path):
    import pytest

    if "play" not in cli.commands:
        pytest.skip("the generic terminal is not installed")
    path = card(tmp_path, name="Home Made")
    script = tmp_path / "moves.txt"
    script.write_text("first\nshift 3\nshift 2L\n", encoding="utf-8")
    result = run("play", "shift", "--seed", "3", "--cards", "moth-regent", path,
                 "--script", str(script), "--trace")
    assert result.exit_code == 0, result.output
    assert "Rejected: 'shift 3': gear 3 is not next to gear 1 on the ring [SH-16]" in \
        result.output
    assert "Player 2 shifts from 1 to 2L" in result.output
    assert result.output.rstrip().endswith("Player 1 [Moth Regent] (shift phase):")
