"""The BoardCT terminal for FieldShift: script mode, trace, save files, replay, bench (in
process, through click's runner) and the interactive path through a real pseudo-terminal."""

import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from cli_helpers import run, script

SECTORS_START = """\
Ruins Sector 0: +0 +1 +2 +3 +4
Grass Sector 1:
Plain Sector 2:
Plain Sector 3:
Mount Sector 4:
Mount Sector 5:
Plain Sector 6:
Plain Sector 7:
Grass Sector 8:
Ruins Sector 9: -0 -1 -2 -3 -4"""


def test_script_prints_only_the_final_screen_and_prompt(tmp_path):
    code, out = run("play", "fieldshift", "--names", "A", "B", "--color", "never",
                    "--script", script(tmp_path, "# opening", "", "24", "29", "13"))
    assert code == 0
    assert out.startswith("[Player 1: A]\nSkill Cooldown: 4\n")
    assert "Mount Sector 4: +0\n" in out and "Ruins Sector 9: -1 -2 -3 -4 -0\n" in out
    assert out.endswith("Ruins Sector 9: -1 -2 -3 -4 -0\n\n\nPlayer 1 (+3): \n")


def test_script_with_nothing_shows_the_initial_screen(tmp_path):
    code, out = run("play", "fieldshift", "--names", "A", "B", "--script",
                    script(tmp_path, "# nothing yet"))
    assert code == 0 and SECTORS_START in out and out.endswith("\n\n\nPlayer 1 (+0): \n")


def test_script_rejected_commands_are_skipped_and_exit_is_zero(tmp_path):
    code, out = run("play", "fieldshift", "--names", "A", "B", "--script",
                    script(tmp_path, "30", "3x", "24"))
    assert code == 0 and "Mount Sector 4: +0" in out and "Player 2 (-0): " in out
    assert "Rejected" not in out


def test_trace_prints_each_token_its_messages_and_the_board(tmp_path):
    code, out = run("play", "fieldshift", "--names", "A", "B", "--script",
                    script(tmp_path, "30", "24"), "--trace")
    assert code == 0
    assert "Player 1 (+0): 30\nRejected: -0 on sector 9 is out of range of +0 on sector 0" in out
    assert "Player 1 (+0): 24\n+0 moves from sector 0 to sector 4\n[Player 1: A]" in out
    assert out.count("[Player 1: A]") == 2  # one board per accepted token
    assert out.endswith("Player 2 (-0): \n")


def test_script_game_that_ends_prints_the_result_line(tmp_path):
    code, out = run("play", "fieldshift", "--names", "A", "B", "--script",
                    script(tmp_path, "24", "09", "29"))
    assert code == 0 and out.endswith("\n\n\nResult: A wins (concession)\n")


def test_script_ruleset_dialogue_and_stdex_commands(tmp_path):
    code, out = run("play", "fieldshift", "--names", "A", "B", "--script",
                    script(tmp_path, "05", "05", "01", "243", "209"))
    assert code == 0 and "Plain Sector 3: +4\n" in out and out.endswith("Player 1: \n")


def test_script_dispute_scenario(tmp_path):
    code, out = run("play", "fieldshift", "--names", "A", "B", "--script",
                    script(tmp_path, "80", "06"))
    assert code == 0 and out.endswith("Result: B wins (dispute)\n")
    assert "Ruins Sector 0: +0S +1 +2 +3 +4" in out


def test_script_reject_mode_and_type_a_options(tmp_path):
    code, out = run("play", "fieldshift", "--names", "A", "B", "--ruleset", "type-a",
                    "--violations", "reject", "--script", script(tmp_path, "800", "204"))
    assert code == 0 and "Mount Sector 4: +0" in out and "+0S" not in out


def test_script_suspend_writes_a_record_named_on_the_next_line(tmp_path):
    save = tmp_path / "saved.json"
    code, out = run("play", "fieldshift", "--names", "A", "B", "--script",
                    script(tmp_path, "24", "02", str(save), "29"))
    assert code == 0 and f"Game saved to {save}" in out
    doc = json.loads(save.read_text())
    assert doc["actions"] == ["24"] and doc["players"] == ["A", "B"]
    code, out = run("play", "fieldshift", "--resume", str(save), "--script",
                    script(tmp_path, "29"))
    assert code == 0 and "Ruins Sector 9: -1 -2 -3 -4 -0" in out


def test_unreadable_script_exits_2(tmp_path):
    code, out = run("play", "fieldshift", "--script", str(tmp_path / "missing.txt"))
    assert code == 2 and "cannot read script" in out


def test_resume_earlier_tool_save_file(tmp_path):
    save = tmp_path / "fs_save_friday"
    save.write_text("0\nAlice\nBob\n24\n29\n")
    code, out = run("play", "fieldshift", "--resume", str(save), "--script",
                    script(tmp_path, "# just show it"))
    assert code == 0 and out.startswith("[Player 1: Alice]")
    assert "Mount Sector 4: +0" in out and out.endswith("Player 1 (+0): \n")


def test_resume_malformed_save_file_is_a_clear_error_with_status_2(tmp_path):
    save = tmp_path / "fs_save_bad"
    save.write_text("0\nAlice\nBob\n24\n2q\n")
    code, out = run("play", "fieldshift", "--resume", str(save), "--script",
                    script(tmp_path, "24"))
    assert code == 2
    assert "line 5" in out and "'2q'" in out and "Traceback" not in out


def test_unknown_game_and_bad_option_are_clear_errors():
    code, out = run("play", "chess", "--names", "A", "B")
    assert code == 2 and "unknown game 'chess'" in out
    code, out = run("play", "fieldshift", "--ruleset", "fast", "--names", "A", "B")
    assert code == 2 and "not one of lstd, stdex, type-a" in out


def test_vs_computer_in_script_mode_plays_the_other_side(tmp_path):
    code, out = run("play", "fieldshift", "--names", "A", "B", "--vs", "2", "--seed", "4",
                    "--script", script(tmp_path, "24", "20"), "--trace")
    assert code == 0
    # Who spoke, in order: the computer answers each of Player 1's commands (with one command,
    # or several when one keeps the turn, e.g. a selection) and hands the turn back.
    speakers = re.findall(r"^Player (\d) (?:\(computer\)|\(\+\d+\)): ", out, re.M)
    turns = re.sub(r"(2)+", "2", "".join(speakers))
    assert turns == "12121", out


def test_replay_final_prints_the_last_screen(tmp_path):
    save = tmp_path / "g.json"
    run("play", "fieldshift", "--names", "A", "B", "--save", str(save), "--script",
        script(tmp_path, "24", "29", "09"))
    code, out = run("replay", str(save), "--final")
    assert code == 0 and out.endswith("Result: B wins (concession)\n")


def test_replay_steps_forward_back_and_jumps(tmp_path):
    save = tmp_path / "g.json"
    run("play", "fieldshift", "--names", "A", "B", "--save", str(save), "--script",
        script(tmp_path, "24", "29", "13"))
    code, out = run("replay", str(save), input="n\nn\np\n3\nq\n")
    assert code == 0
    headers = re.findall(r"--- move .*? ---", out)  # piped input is not echoed
    assert headers == ["--- move 0 of 3 (start) ---", "--- move 1 of 3 (after 1: 24) ---",
                       "--- move 2 of 3 (after 2: 29) ---", "--- move 1 of 3 (after 1: 24) ---",
                       "--- move 3 of 3 (after 3: 13) ---"]


def test_bench_json_has_the_keys():
    code, out = run("bench", "fieldshift", "--seconds", "0.2", "--json")
    doc = json.loads(out)
    assert code == 0
    assert {"actions_per_s", "games_per_s", "clone_us", "legal_actions_us"} <= set(doc)
    assert doc["actions_per_s"] > 0 and doc["clone_us"] > 0


def test_help_in_script_mode_is_not_an_action(tmp_path):
    code, out = run("play", "fieldshift", "--names", "A", "B", "--script",
                    script(tmp_path, "help", "24"), "--trace")
    assert "HIT attack enemy operator" in out and "Player 2 (-0): " in out


# -- the interactive path, through a real pseudo-terminal --------------------------------------
pexpect = pytest.importorskip("pexpect") if sys.platform != "win32" else None


@pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a POSIX pseudo-terminal")
def test_interactive_hot_seat_session_through_a_pty(tmp_path):
    exe = shutil.which("boardct") or str(Path(sys.executable).with_name("boardct"))
    save = tmp_path / "friday.json"
    # the pty's size, 120 columns: a COLUMNS left in the environment (curses exports one)
    # would make the terminal wrap messages at its width instead
    child = pexpect.spawn(exe, ["play", "fieldshift", "--color", "never", "--no-clear"],
                          cwd=str(tmp_path), encoding="utf-8", timeout=20,
                          dimensions=(50, 120), env=dict(os.environ, COLUMNS="120", LINES="50"))
    child.expect_exact("Enter name of Player 1:")
    child.sendline("Alice")
    child.expect_exact("Enter name of Player 2:")
    child.sendline("Bob")
    child.expect_exact("[Player 1: Alice]")
    child.expect_exact(SECTORS_START.replace("\n", "\r\n"))
    child.expect_exact("Player 1 (+0):")
    child.sendline("24")
    child.expect_exact("+0 moves from sector 0 to sector 4")
    child.expect_exact("Mount Sector 4: +0")
    child.expect_exact("Player 2 (-0):")
    child.sendline("30")  # out of range: one line, no pause, same prompt
    child.expect_exact("Rejected: +0 on sector 4 is out of range of -0 on sector 9: "
                       "distance 5, effective range 3 [FS-11]")
    child.expect_exact("Player 2 (-0):")
    child.sendline("05")
    child.expect_exact("Player 2 requests a ruleset change (LSTD --> STDEX)")
    child.expect_exact("Player 1 response:")
    child.sendline("01")
    child.expect_exact("Ruleset changed to STDEX")
    child.expect_exact("Player 2:")
    child.sendline("203")
    child.expect_exact("Plain Sector 3: -0")
    child.expect_exact("Player 1:")
    child.sendline("02")
    child.expect_exact("Save the game to file [")
    child.sendline(str(save))
    child.expect_exact(f"Game saved to {save}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    doc = json.loads(save.read_text())
    assert doc["actions"] == ["24", "05", "01", "203"] and doc["players"] == ["Alice", "Bob"]

    child = pexpect.spawn(exe, ["play", "fieldshift", "--color", "never", "--no-clear",
                                "--resume", str(save)], cwd=str(tmp_path), encoding="utf-8",
                          timeout=20, dimensions=(50, 120),
                          env=dict(os.environ, COLUMNS="120", LINES="50"))
    child.expect_exact("[Player 1: Alice]")
    child.expect_exact("Plain Sector 3: -0")
    child.expect_exact("Player 1:")
    child.sendline("help")
    child.expect_exact("AUX: 00 deny, 01 confirm, 02 suspend")
    child.expect_exact("Player 1:")
    child.sendline("03")  # resume the same file from inside the game
    child.expect_exact("Path of the saved game:")
    child.sendline(str(save))
    child.expect_exact(f"Resumed {save}.")
    child.expect_exact("Player 1:")
    child.sendline("09")
    child.expect_exact("Result: Player 2 wins (concession)")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a POSIX pseudo-terminal")
@pytest.mark.parametrize("leave", ["sendeof", "sendintr"])  # Ctrl-D, Ctrl-C
def test_interactive_leaving_mid_game_keeps_the_game(tmp_path, leave):
    exe = shutil.which("boardct") or str(Path(sys.executable).with_name("boardct"))
    child = pexpect.spawn(exe, ["play", "fieldshift", "--names", "A", "B", "--no-clear",
                                "--color", "never"], cwd=str(tmp_path), encoding="utf-8",
                          timeout=20)
    child.expect_exact("Player 1 (+0):")
    child.sendline("24")
    child.expect_exact("Player 2 (-0):")
    getattr(child, leave)()
    child.expect_exact("Input ended; the game was saved to ")
    child.expect(pexpect.EOF)
    saved = list(tmp_path.glob("boardct-fieldshift-*.json"))
    assert len(saved) == 1 and json.loads(saved[0].read_text())["actions"] == ["24"]


# A complete LSTD game (greedy against random play, seed 0), ending by elimination after 25
# commands: the last command's events include the result.
ELIMINATION = ["26", "70", "34", "68", "30", "27", "30", "14", "29", "31", "23", "34", "62",
               "31", "23", "31", "83", "25", "33", "67", "33", "27", "37", "68", "37"]


def test_a_game_won_on_the_board_says_its_result_once_under_the_last_board():
    code, out = run("play", "fieldshift", "--names", "A", "B", "--seed", "0", "--vs", "none",
                    input="\n".join(ELIMINATION) + "\n")
    assert code == 0
    assert out.count("Result: A wins (elimination)") == 1, out[-1500:]
    assert out.rstrip().endswith("Result: A wins (elimination)")
