"""The moderator workflow end to end: boardct ctf2187 new | submit | status | process | results."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from ctf2187_helpers import map_text

from boardct.cli.main import cli
from boardct.games.ctf2187 import engine


def run(*args, ok=True):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    if ok:
        assert result.exit_code == 0, result.output
    else:
        assert result.exit_code == 2, result.output
    return result


def sheet(bot: int, turn: int, lines: list[str]) -> str:
    return f"# orders for bot {bot}\nBOT {bot} TURN {turn}\n" + "\n".join(lines) + "\n"


ADVANCE = ["P1 6 - 2 - 0", "P2 6 - 2 - 0", "P3 13 - 2 - 0", "P4 6 - 2 - 0", "P5 13 - 2 - 0"]
HOLD = ["P1 0 - 2 - 0", "P2 0 - 2 - 0", "P3 20 - 2 - 0", "P4 0 - 2 - 0", "P5 18 - 2 - 0"]


@pytest.fixture
def gamedir(tmp_path):
    d = tmp_path / "game"
    out = run("ctf2187", "new", d, "--players", "ann,bob", "--players", "cy,dee", "--seed", 42,
              "--map-seed", 7, "--next-deadline", "1 December")
    assert "4 bots" in out.output and "Bot 3  team B" in out.output
    return d


def submit(tmp_path, d, player, text, ok=True):
    f = tmp_path / f"sheet-{player}.txt"
    f.write_text(text)
    return run("ctf2187", "submit", d, player, f, ok=ok)


def test_end_to_end_three_turns_four_players(tmp_path, gamedir):
    d = gamedir
    assert (d / "results" / "turn-000" / "bot-1.txt").exists()
    setup = run("ctf2187", "results", d, "ann", "--turn", "0").output
    assert "Deadline: 1 December" in setup and "VISUAL SIGHTING DISPLAY" in setup

    # turn 1: dee sends nothing; bob's first sheet is malformed, then corrected
    submit(tmp_path, d, "ann", sheet(1, 1, ADVANCE))
    bad = submit(tmp_path, d, "bob", sheet(2, 1, ["P1 6 - 2 - 0", "P2 25 - 2 - 0",
                                                   "P3 13 - 1 1 0", "P4 6 - 2 - 0"]), ok=False)
    assert "line 4, field 2 (move order): 25 is not a move order (0-23)" in bad.output
    assert "line 5, field 5 (attack option): bot 1 is not an enemy" in bad.output
    assert "missing phase line(s) P5" in bad.output
    assert not (d / "sheets" / "turn-001" / "bot-2.txt").exists()
    other = submit(tmp_path, d, "bob", sheet(1, 1, HOLD), ok=False)
    assert "Bot 1 is commanded by Player 1, not Player 2 [CTF-1]" in other.output
    submit(tmp_path, d, "bob", sheet(2, 1, HOLD))
    submit(tmp_path, d, "cy", sheet(3, 1, ADVANCE))
    status = run("ctf2187", "status", d).output
    assert "Turn 1 of 10" in status
    assert "dee          sheet MISSING" in status and "ann          sheet in" in status
    refused = run("ctf2187", "process", d, ok=False)
    assert "sheets missing for Bot 4 (dee)" in refused.output
    out = run("ctf2187", "process", d, "--deadline", "--next-deadline", "8 December").output
    assert "Turn 1 processed; standing orders used for: Bot 4" in out

    rec = json.loads((d / "game.json").read_text())
    assert "player 4: BOT 4 TURN 1 MISSING" in rec["actions"]
    assert "player 2: BOT 2 TURN 1; P1 0 - 2 - 0; P2 0 - 2 - 0; P3 20 - 2 - 0; " \
           "P4 0 - 2 - 0; P5 18 - 2 - 0" in rec["actions"]

    text = run("ctf2187", "results", d, "dee").output
    assert text.startswith("CTF 2187 - TURN RESULTS - turn 1\nBot 4 (Warden")
    for section in ("STATUS", "SCANNER", "VISUAL SIGHTING DISPLAY", "PHASE LOG",
                    "VICTORY POINTS", "STANDING ORDERS", "NEXT TURN 2  Deadline: 8 December"):
        assert section in text
    assert "Bot 4 has 52 AP this turn and follows its standing orders (no sheet arrived)" in text
    doc = json.loads(run("ctf2187", "results", d, "dee", "--json").output)
    assert doc[0]["turn"] == 1 and doc[0]["bot"] == 4
    assert doc[0]["standing_orders"][0] == "BOT 4 STANDING"
    kinds = [e["kind"] for e in doc[0]["events"]]
    assert kinds[:1] == ["turn"] and kinds.count("phase") >= 1

    # turns 2 and 3: everyone but ann relies on standing orders in turn 2; dee changes hers
    submit(tmp_path, d, "dee", "BOT 4 STANDING\n" + "\n".join(HOLD))
    submit(tmp_path, d, "ann", sheet(1, 2, HOLD))
    run("ctf2187", "process", d, "--deadline")
    turn2 = run("ctf2187", "results", d, "dee").output
    assert "Bot 4 kneels (3 AP)" in turn2 and "Bot 4 stands up (4 AP)" in turn2  # new standing
    for who, num in (("ann", 1), ("bob", 2), ("cy", 3), ("dee", 4)):
        state_line = f"BOT {num} TURN 3"
        submit(tmp_path, d, who, f"{state_line}\n" + "\n".join(ADVANCE))
    run("ctf2187", "process", d)
    rec = json.loads((d / "game.json").read_text())
    assert "player 4: BOT 4 STANDING; P1 0 - 2 - 0; P2 0 - 2 - 0; P3 20 - 2 - 0; " \
           "P4 0 - 2 - 0; P5 18 - 2 - 0" in rec["actions"]
    status = run("ctf2187", "status", d).output
    assert "Turn 4 of 10" in status or "Game over" in status
    for turn in (1, 2, 3):
        assert "TURN RESULTS - turn" in run("ctf2187", "results", d, "cy", "--turn", turn).output
    assert "has no results yet" in run("ctf2187", "results", d, "cy", "--turn", 4,
                                       ok=False).output


def test_interrupted_processing_leaves_previous_turn_intact(tmp_path, gamedir, monkeypatch):
    d = gamedir
    before = (d / "game.json").read_bytes()

    def boom(st):
        raise KeyboardInterrupt

    monkeypatch.setattr(engine, "process_turn", boom)
    result = CliRunner().invoke(cli, ["ctf2187", "process", str(d), "--deadline"])
    assert result.exit_code != 0
    assert (d / "game.json").read_bytes() == before
    assert "Turn 1 of 10" in run("ctf2187", "status", d).output
    monkeypatch.undo()
    run("ctf2187", "process", d, "--deadline")
    assert "Turn 2 of 10" in run("ctf2187", "status", d).output


def test_failed_results_write_keeps_previous_turn(tmp_path, gamedir, monkeypatch):
    d = gamedir
    before = (d / "game.json").read_bytes()
    import boardct.games.ctf2187.cli as mod

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(mod, "format_report", broken)
    result = CliRunner().invoke(cli, ["ctf2187", "process", str(d), "--deadline"])
    assert result.exit_code != 0
    assert (d / "game.json").read_bytes() == before


def test_new_with_map_file_and_errors(tmp_path):
    m = tmp_path / "arena.map"
    m.write_text(map_text({(10, 10): "H4"}))
    d = tmp_path / "g"
    run("ctf2187", "new", d, "--players", "a,b", "--map", m, "--seed", 1)
    assert (d / "map.txt").read_text().splitlines()[0] == "MAP 20 20"
    assert "is not empty" in run("ctf2187", "new", d, "--players", "a,b", ok=False).output
    bad = tmp_path / "bad.map"
    bad.write_text("MAP 20 20\n.1 .1\n")
    out = run("ctf2187", "new", tmp_path / "g2", "--players", "a,b", "--map", bad, ok=False)
    assert "bad.map: rows: expected 20 rows of sectors, found 1" in out.output
    assert "no player 'zed'" in run("ctf2187", "results", d, "zed", ok=False).output
    assert "not a CTF 2187 game directory" in run("ctf2187", "status", tmp_path,
                                                  ok=False).output


def test_corrupt_game_file_is_a_clear_error(tmp_path, gamedir):
    (gamedir / "game.json").write_text("{ not json")
    out = run("ctf2187", "status", gamedir, ok=False).output
    assert "game.json: line 1" in out


def test_bench_reports_turns_per_second():
    out = run("ctf2187", "bench", "--seconds", "0.2").output
    assert out.startswith("CTF 2187 2x4 bots: ") and "turns/s" in out


def test_submit_binary_file_is_a_clear_error(tmp_path, gamedir):
    f = tmp_path / "sheet.bin"
    f.write_bytes(b"\xff\xfe\x00BOT")
    out = run("ctf2187", "submit", gamedir, "ann", f, ok=False).output
    assert "not a text file" in out


def test_new_gives_each_player_one_bot_unless_told_otherwise(tmp_path):
    """CTF-1: each player pilots one Bot, so `new --players ann,bob` is a duel of one Bot each
    (docs/ctf2187.md, "Options"); `--bots-per-team 4` makes each a commander of four (the
    benchmark's configuration, which is not the default)."""
    duel = run("ctf2187", "new", tmp_path / "duel", "--players", "ann,bob", "--seed", 1).output
    assert "2 bots" in duel and "Bot 1  team A" in duel and "Bot 2  team B" in duel
    four = run("ctf2187", "new", tmp_path / "four", "--players", "ann,bob", "--seed", 1,
               "--bots-per-team", 4).output
    assert "8 bots" in four
    assert [ln.split()[-1] for ln in four.splitlines() if ln.startswith("  Bot")] == \
        ["ann"] * 4 + ["bob"] * 4
