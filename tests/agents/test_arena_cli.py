"""`boardct arena`, `boardct balance`, `boardct bench --agent` and the ratings."""

import importlib.util
import json
import shutil
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardct.arena.ratings import bradley_terry, ratings_with_ci
from boardct.cli.main import cli


def run(*args):
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


# The charts come with the `report` extra (matplotlib); the commands refuse to start without it.
needs_charts = pytest.mark.skipif(
    importlib.util.find_spec("matplotlib") is None,
    reason='the charts need matplotlib: pip install "boardct[report]"')


@needs_charts
def test_arena_writes_records_results_report_and_charts(tmp_path):
    out = tmp_path / "arena"
    code, text = run("arena", "fieldshift", "--agents", "random", "greedy",
                     "--games", "2", "--out", str(out), "-o", "turn_limit=60")
    assert code == 0
    for name in ("report.md", "results.json", "results.csv", "summary.json", "scores.png",
                 "ratings.png", "lengths.png"):
        assert (out / name).exists(), name
    rows = json.loads((out / "results.json").read_text())
    assert [r["agents"] for r in rows] == [["random", "greedy"], ["greedy", "random"]]
    assert len(list((out / "records").glob("game-*.json"))) == 2
    report = (out / "report.md").read_text()
    assert "| random | — |" in report and "Bradley-Terry" in report
    summary = json.loads((out / "summary.json").read_text())
    first = summary["first_player_score"]
    low, high = summary["first_player_interval"]
    assert low <= first <= high
    assert (f"First player's score: {first:.1%} (wins plus half the draws, over all games; "
            f"95% interval {low:.1%} .. {high:.1%})") in report
    csv_lines = (out / "results.csv").read_text().splitlines()
    assert csv_lines[0].startswith("index,game,variant,seat1,seat2") and len(csv_lines) == 3


@needs_charts
def test_arena_records_replay(tmp_path):
    from boardct.core.records import load_state

    out = tmp_path / "arena"
    run("arena", "fieldshift", "--agents", "random greedy", "--games", "1", "--out", str(out),
        "-o", "turn_limit=40")
    state = load_state(out / "records" / "game-00000.json")
    assert state.is_over


def test_arena_refuses_bad_agents():
    code, text = run("arena", "fieldshift", "--agents", "random", "--games", "1")
    assert code == 2 and "two or more different agents" in text
    code, text = run("arena", "fieldshift", "--agents", "random", "--agents", "deep-blue")
    assert code == 2 and "unknown agent 'deep-blue'" in text


def test_arena_refuses_options_the_seats_cannot_play_before_any_game(tmp_path):
    out = tmp_path / "arena"
    code, text = run("arena", "ctf2187", "--agents", "random", "greedy", "--games", "1",
                     "-o", "teams=3", "--out", str(out))
    assert code == 2 and "3 teams need at least 3 players, not 2" in text
    assert "0/1" not in text and not out.exists()


def test_balance_refuses_a_variant_the_seats_cannot_play_before_any_game(tmp_path):
    out = tmp_path / "balance"
    code, text = run("balance", "ctf2187", "--variants", "teams=2", "--variants", "teams=3",
                     "--games", "1", "--out", str(out))
    assert code == 2 and "3 teams need at least 3 players, not 2" in text
    assert not out.exists()


@pytest.mark.parametrize("command", [
    ("arena", "fieldshift", "--agents", "random", "greedy"),
    ("balance", "fieldshift", "--agent", "greedy"),
])
def test_a_command_that_draws_charts_says_how_to_install_matplotlib_before_playing(
        command, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed: ImportError
    out = tmp_path / "out"
    code, text = run(*command, "--games", "2", "--out", str(out))
    assert code == 2
    assert text.strip() == ('error: the charts need matplotlib, which is not installed: '
                            'pip install "boardct[report]"')
    assert not out.exists()  # no game was played


@needs_charts
def test_balance_reports_the_metrics_per_variant(tmp_path):
    out = tmp_path / "bal"
    code, text = run("balance", "fieldshift", "--agent", "greedy", "--games", "2",
                     "--variants", "ruleset=lstd", "--variants", "ruleset=type-a",
                     "--out", str(out))
    assert code == 0
    table = json.loads((out / "balance.json").read_text())
    assert list(table) == ["ruleset=lstd", "ruleset=type-a"]
    for m in table.values():
        assert m["games"] == 2
        assert 0 <= m["advantage"] <= 1 and 0 <= m["balance"] <= 1
        assert 0 <= m["drawishness"] <= 1 and 0 <= m["completion"] <= 1
        assert m["duration"] > 0 and 0 <= m["decisiveness"] <= 1
    assert (out / "balance.png").exists() and "| ruleset=lstd | 2 |" in text


def test_balance_defaults_to_every_fieldshift_ruleset():
    from boardct.cli.arena import variants_for
    from boardct.core import registry

    assert list(variants_for(registry.get("fieldshift"), ())) == ["lstd", "stdex", "type-a"]


def test_bench_agent_reports_iterations_and_seconds_per_move():
    code, text = run("bench", "fieldshift", "--agent", "mcts:iters=20", "--seconds", "0.2",
                     "--json")
    doc = json.loads(text)
    assert code == 0 and doc["iterations_per_s"] > 0 and doc["seconds_per_move"] > 0


def test_bradley_terry_orders_players_by_results():
    games = [(0, 1, 1.0)] * 8 + [(0, 1, 0.0)] * 2 + [(1, 2, 1.0)] * 7 + [(1, 2, 0.5)] * 3
    p = bradley_terry(3, games)
    assert p[0] > p[1] > p[2]
    rated = ratings_with_ci(3, games, samples=50)
    for elo, low, high in rated:
        assert low <= elo <= high
    assert rated[0][0] - rated[2][0] > 200


def test_vs_agent_by_name_in_play(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text("24\n")
    code, text = run("play", "fieldshift", "--names", "A", "B", "--vs", "2:mcts:iters=5",
                     "--seed", "1", "--script", str(path), "--trace")
    assert code == 0 and "Player 2 (computer): " in text


@pytest.mark.parametrize("spec", ["greedy", "random"])
def test_vs_agent_plays_every_game(spec, tmp_path):
    path = tmp_path / "s.txt"
    path.write_text("# the computer plays both sides\n")
    from boardct.core import registry

    for game in ("fieldshift", "hills", "shift", "fff"):
        first = registry.get(game).new(seed=2, names=("A", "B")).to_move + 1
        code, text = run("play", game, "--names", "A", "B", "--vs", f"{first}:{spec}",
                         "--seed", "2", "--script", str(path), "--trace")
        assert code == 0 and f"Player {first} (computer): " in text


@needs_charts
def test_arena_journals_each_game_and_resume_plays_only_the_missing_ones(tmp_path):
    out = tmp_path / "arena"
    args = ("arena", "fieldshift", "--agents", "random", "greedy", "--games", "4",
            "--out", str(out), "-o", "turn_limit=40", "--seed", "5")
    code, _ = run(*args)
    assert code == 0
    journal = out / "games.jsonl"
    lines = journal.read_text().splitlines()
    assert sorted(json.loads(x)["index"] for x in lines) == [0, 1, 2, 3]
    full = json.loads((out / "results.json").read_text())
    # A run killed after two games, the second line cut short.
    kept = [x for x in lines if json.loads(x)["index"] in (0, 2)]
    journal.write_text(kept[0] + "\n" + kept[1][:40])
    code, text = run(*args, "--resume")
    assert code == 0
    assert "Resuming: 1 of 4 games already played." in text
    assert "games.jsonl:2: cut short; that game is played again" in text
    def untimed(rows):
        return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]

    assert untimed(json.loads((out / "results.json").read_text())) == untimed(full)
    assert len(journal.read_text().splitlines()) == 4


@needs_charts
def test_arena_never_overwrites_finished_games(tmp_path):
    out = tmp_path / "arena"
    base = ("arena", "fieldshift", "--agents", "random", "greedy", "--games", "2",
            "--out", str(out), "-o", "turn_limit=30")
    assert run(*base, "--seed", "1")[0] == 0
    before = (out / "games.jsonl").read_text()
    code, text = run(*base, "--seed", "1")
    assert code == 2 and "already holds 2 finished games" in text and "--resume" in text
    code, text = run(*base, "--seed", "2", "--resume")  # not the schedule that made them
    assert code == 2 and "games.jsonl:1: a game of a different schedule" in text
    assert (out / "games.jsonl").read_text() == before


@needs_charts
@pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a POSIX pseudo-terminal")
def test_ctrl_c_stops_an_arena_at_once_keeping_the_finished_games(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    exe = shutil.which("boardct") or str(Path(sys.executable).with_name("boardct"))
    out = tmp_path / "arena"
    child = pexpect.spawn(exe, ["arena", "fieldshift", "--agents", "random", "mcts:iters=400",
                                "--games", "40", "--workers", "2", "--out", str(out)],
                          encoding="utf-8", timeout=60, dimensions=(30, 120))
    journal = out / "games.jsonl"
    deadline = time.monotonic() + 60
    while not (journal.is_file() and journal.read_text().count("\n") >= 1):
        assert time.monotonic() < deadline, "no game finished"
        time.sleep(0.2)
    child.sendintr()
    child.expect(pexpect.EOF, timeout=15)  # not the 40 games' worth of time
    child.close()
    assert child.exitstatus == 130 and "Traceback" not in child.before
    assert "run the same command with --resume" in child.before
    finished = journal.read_text().splitlines()
    assert 1 <= len(finished) < 40
    assert all(json.loads(line)["index"] in range(40) for line in finished)
