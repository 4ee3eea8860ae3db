"""benchmarks/seat_balance.py, the seat-balance table of docs/rl.md: each seat's wins, the draws
and the turn limits of self-play games at a game's options, with Wilson intervals."""

from __future__ import annotations

import json
import subprocess

import pytest

from repo_scripts import load_script, run_script


@pytest.fixture(scope="module")
def seat_balance():
    return load_script("benchmarks/seat_balance.py")


def test_every_game_is_counted_once_as_a_seat_win_or_a_draw(seat_balance):
    row = seat_balance.seat_balance("fieldshift", "random", 12, 3, {})
    assert row["games"] == 12 and sum(row["seat_wins"]) + row["draws"] == 12
    assert row["options"] == "defaults"
    for wins, (low, high) in zip(row["seat_wins"], row["seat_win_interval"], strict=True):
        assert low <= wins / 12 <= high


def test_shift_ember_against_tide_favours_player_two_and_the_default_mirror_does_not(
        seat_balance):
    """The figure docs/rl.md warns learners about: the Tide Warden (card2) beats the Ember
    Duelist (card1) under random play, which is why Shift's default cards are the Ember
    Duelist in both seats (SH-1 leaves the cards to us); that default is even."""
    tide = seat_balance.seat_balance("shift", "random", 60, 1,
                                     {"card1": "ember-duelist", "card2": "tide-warden"})
    assert tide["options"] == {"card1": "ember-duelist", "card2": "tide-warden"}
    assert tide["seat_wins"][1] > 4 * tide["seat_wins"][0]
    assert tide["seat_win_interval"][1][0] > 0.7
    default = seat_balance.seat_balance("shift", "random", 60, 1, {})
    assert default["options"] == "defaults"
    low0, high0 = default["seat_win_interval"][0]
    assert low0 < 0.5 < high0


def test_wilson_intervals_hold_the_share_and_stay_in_zero_one(seat_balance):
    assert seat_balance.wilson(0, 10)[0] == 0.0 and seat_balance.wilson(10, 10)[1] == 1.0
    low, high = seat_balance.wilson(361, 400)
    assert low < 361 / 400 < high and high - low < 0.07
    assert seat_balance.wilson(0, 0) == (0.0, 1.0)


def _run(*args: str) -> subprocess.CompletedProcess:
    return run_script("benchmarks/seat_balance.py", *args)


def test_the_command_prints_the_table_and_writes_the_rows(tmp_path):
    out = tmp_path / "rows.json"
    run = _run("--game", "shift", "--games", "6", "-o", "shift:card1=tide-warden",
               "--json", str(out))
    assert run.returncode == 0, run.stderr
    assert "| game | agent | games | seat 1 wins | seat 2 wins |" in run.stdout
    assert "shift {'card1': 'tide-warden'}" in run.stdout
    (row,) = json.loads(out.read_text(encoding="utf-8"))
    assert row["games"] == 6 and row["agent"] == "random"


@pytest.mark.parametrize("option", ["card1=tide-warden", "chess:card1=x", "shift:card1"])
def test_a_malformed_option_is_refused_before_any_game(option):
    run = _run("--game", "shift", "--games", "2", "-o", option)
    assert run.returncode == 2
    assert "want GAME:NAME=VALUE" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize("args, message", [
    (["--game", "chess"], "chess"),
    (["--game", "shift", "-o", "shift:nonsense=1"], "nonsense"),
    (["--game", "shift", "-o", "shift:turn_limit=many"], "turn_limit"),
    (["--game", "shift", "-o", "shift:card1=no-such-card"], "no-such-card"),
])
def test_an_unknown_game_option_or_value_is_refused_before_any_game(args, message):
    run = _run(*args, "--games", "2")
    assert run.returncode == 2
    assert message in run.stderr and "Traceback" not in run.stderr
