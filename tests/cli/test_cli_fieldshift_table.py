"""FieldShift at the table (issue 17 item 2), in the terminal: the status line between the FS-23
screen and the prompt, `--classic` (exactly the earlier tool's screen), and the question before a
command that breaks a rule in dispute mode (FS-19), with `--no-confirm` and script mode, which
never ask. In process through click's runner (piped input, every platform) and through a real
pseudo-terminal (pexpect, POSIX only)."""

import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from cli_helpers import run, script

from boardct.core import registry

QUESTION = "This breaks FS-16 (the skill is on cooldown (5)): carry it out? 01/00 "
CONSEQUENCE = "Player 2 may then dispute it with 06 on their turn and win (FS-19)."


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    """Piped input that ends mid-game saves the game in the current folder: keep it in tmp."""
    monkeypatch.chdir(tmp_path)


def screen_after(*tokens: str) -> str:
    """The FS-23 screen (board and its two empty lines) after `tokens`, as the engine draws it."""
    state = registry.get("fieldshift").new(seed=0, names=("A", "B"))
    for token in tokens:
        state.apply(state.parse(token))
    return state.render()


PLAY = ("play", "fieldshift", "--names", "A", "B", "--no-clear", "--color", "never")


# -- in process: piped input --------------------------------------------------------------------
def test_piped_play_asks_before_a_violation_and_a_denial_changes_nothing(tmp_path):
    save = tmp_path / "g.json"
    code, out = run(*PLAY, "--save", str(save), input="80\n00\n24\n")
    assert code == 0
    assert CONSEQUENCE + "\n" + QUESTION + "Not carried out; nothing changed.\n" \
        "Player 1 (+0): " in out  # the same player is asked for a command again
    assert "Rule violation" not in out
    assert json.loads(save.read_text())["actions"] == ["24"]


def test_piped_play_carries_out_a_confirmed_violation_and_the_opponent_may_dispute(tmp_path):
    save = tmp_path / "g.json"
    code, out = run(*PLAY, "--save", str(save), input="80\n01\n06\n")
    assert code == 0 and QUESTION in out
    assert "Rule violation by Player 1: the skill is on cooldown (5) (FS-16)" in out
    assert out.rstrip().endswith("Result: B wins (dispute)")
    assert json.loads(save.read_text())["actions"] == ["80", "06"]


def test_piped_play_asks_again_after_an_answer_that_is_neither_01_nor_00(tmp_path):
    code, out = run(*PLAY, input="80\nyes\n00\n")
    assert out.count(QUESTION) == 2 and "Answer 01 to carry it out or 00 not to." in out


def test_no_confirm_carries_out_a_violation_without_asking(tmp_path):
    code, out = run(*PLAY, "--no-confirm", input="80\n")
    assert "carry it out?" not in out
    assert "Rule violation by Player 1" in out and "Player 2 (-0): " in out


def test_a_lawful_command_is_never_questioned():
    code, out = run(*PLAY, input="24\n")
    assert "carry it out?" not in out and "+0 moves from sector 0 to sector 4" in out


def test_reject_mode_refuses_the_violation_and_asks_nothing_fs19():
    code, out = run(*PLAY, "--violations", "reject", input="80\n")
    assert "carry it out?" not in out
    assert "Rejected: rule violation: the skill is on cooldown (5) (FS-16) [FS-18]" in out


def test_classic_still_asks_before_a_violation():
    """--classic is the earlier tool's screen; the question is a dialogue, turned off by
    --no-confirm only."""
    code, out = run(*PLAY, "--classic", input="80\n00\n")
    assert QUESTION in out


def test_script_mode_never_asks_even_when_the_next_token_looks_like_an_answer(tmp_path):
    """80 breaks FS-16; were the script asked, the 00 after it would deny it. It is not asked:
    80 is carried out, and 00 is Player 2's AUX (nothing to answer)."""
    code, out = run(*PLAY, "--script", script(tmp_path, "80", "00"), "--trace")
    assert code == 0 and "carry it out?" not in out
    assert "Ruins Sector 0: +0S +1 +2 +3 +4" in out
    assert "Player 2 (-0): 00\nThere is no request to answer" in out


def test_script_output_keeps_the_fs23_screen_without_a_status_line(tmp_path):
    code, out = run(*PLAY, "--script", script(tmp_path, "24"))
    assert code == 0 and "Ruleset:" not in out
    assert out == screen_after("24") + "\nPlayer 2 (-0): \n"


def test_piped_play_prints_the_status_line_between_the_board_and_the_prompt():
    code, out = run(*PLAY, input="")
    assert out.startswith(screen_after() + "\nRuleset: LSTD | Turn 1 of 300\nPlayer 1 (+0): ")


def test_piped_classic_prints_exactly_the_earlier_tools_screens():
    """The earlier tool cleared the screen, printed the two player blocks, the ten sectors, two
    empty lines and the prompt: no event lines, no status line (FS-23, FS-40)."""
    code, out = run(*PLAY, "--classic", input="24\n29\n")
    first, second, third = screen_after(), screen_after("24"), screen_after("24", "29")
    assert out.startswith(first + "\nPlayer 1 (+0): " + second + "\nPlayer 2 (-0): " + third
                          + "\nPlayer 1 (+0): ")


# -- through a real pseudo-terminal ---------------------------------------------------------------
try:  # the tests above run everywhere; these need pexpect, which needs a POSIX terminal
    import pexpect
except ImportError:  # Windows, or the test tools not installed
    pexpect = None
posix_only = pytest.mark.skipif(sys.platform == "win32" or pexpect is None,
                                reason="pexpect needs a POSIX pseudo-terminal")


# the pty's size: a COLUMNS or LINES left in the environment would win over it (Rich reads them)
PTY_ENV = dict(os.environ, COLUMNS="160", LINES="60")


def spawn(tmp_path, *extra):
    exe = shutil.which("boardct") or str(Path(sys.executable).with_name("boardct"))
    return pexpect.spawn(exe, [*PLAY[:1], *PLAY[1:], *extra], cwd=str(tmp_path),
                         encoding="utf-8", timeout=20, dimensions=(60, 160),
                         env=PTY_ENV)


def text(raw: str) -> str:
    """What the pty showed, in lines; the line editor's control sequences (cursor, bracketed
    paste) before its prompt removed: they draw nothing."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", raw.replace("\r\n", "\n"))


@posix_only
def test_pty_status_line_sits_between_the_unchanged_fs23_board_and_the_prompt(tmp_path):
    child = spawn(tmp_path)
    child.expect_exact("Player 1 (+0):")
    assert text(child.before) == screen_after() + "\nRuleset: LSTD | Turn 1 of 300\n"
    child.sendline("24")
    child.expect_exact("Player 2 (-0):")
    assert text(child.before).endswith(screen_after("24") + "\nRuleset: LSTD | Turn 2 of 300\n")
    child.sendline("05")  # a pending request shows in the status line, above the response
    child.expect_exact("Player 1 response:")
    assert text(child.before).endswith(
        screen_after("24", "05") + "\nRuleset: LSTD | Turn 2 of 300 | Player 2 asks for "
        "STDEX: Player 1 answers 01 (accept), 00 (deny), 05 (accept, ask for Type-A)\n")
    child.sendline("00")
    child.expect_exact("Player 2 (-0):")
    child.sendline("09")
    child.expect(pexpect.EOF)
    child.close()


@posix_only
def test_pty_confirm_carries_out_the_violation(tmp_path):
    save = tmp_path / "g.json"
    child = spawn(tmp_path, "--save", str(save))
    child.expect_exact("Player 1 (+0):")
    child.sendline("80")
    child.expect_exact(CONSEQUENCE)
    child.expect_exact(QUESTION.rstrip())
    child.sendline("01")
    child.expect_exact("Rule violation by Player 1: the skill is on cooldown (5) (FS-16)")
    child.expect_exact("Ruins Sector 0: +0S +1 +2 +3 +4")
    child.expect_exact("Player 2 may dispute Player 1's rule violation with 06")
    child.expect_exact("Player 2 (-0):")
    child.sendline("06")
    child.expect_exact("Result: Player 2 wins (dispute)")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert json.loads(save.read_text())["actions"] == ["80", "06"]


@posix_only
def test_pty_deny_changes_nothing_and_the_same_player_moves(tmp_path):
    save = tmp_path / "g.json"
    child = spawn(tmp_path, "--save", str(save))
    child.expect_exact("Player 1 (+0):")
    child.sendline("80")
    child.expect_exact(QUESTION.rstrip())
    child.sendline("00")
    child.expect_exact("Not carried out; nothing changed.")
    child.expect_exact("Player 1 (+0):")
    assert "Rule violation" not in child.before and "[Player 1: A]" not in child.before
    assert json.loads(save.read_text())["actions"] == []  # the save kept: nothing was played
    child.sendline("24")
    child.expect_exact("Player 2 (-0):")
    child.sendline("09")
    child.expect(pexpect.EOF)
    child.close()
    assert json.loads(save.read_text())["actions"] == ["24", "09"]


@posix_only
def test_pty_no_confirm_does_not_ask(tmp_path):
    child = spawn(tmp_path, "--no-confirm")
    child.expect_exact("Player 1 (+0):")
    child.sendline("80")
    child.expect_exact("Player 2 (-0):")
    assert "carry it out?" not in child.before and "Rule violation by Player 1" in child.before
    child.sendline("09")
    child.expect(pexpect.EOF)
    child.close()


@posix_only
def test_pty_classic_prints_the_earlier_tools_screen_and_nothing_else(tmp_path):
    child = spawn(tmp_path, "--classic")
    child.expect_exact("Player 1 (+0): ")  # --classic reads lines plainly, as that tool did
    assert text(child.before) == screen_after() + "\n"
    child.sendline("24")
    child.expect_exact("Player 2 (-0): ")
    assert text(child.before) == "24\n" + screen_after("24") + "\n"  # the echo, then the screen
    child.sendline("09")
    child.expect_exact("Result: Player 1 wins (concession)")
    child.expect(pexpect.EOF)
    child.close()


@posix_only
def test_pty_classic_has_no_colours_even_when_asked_for(tmp_path):
    exe = shutil.which("boardct") or str(Path(sys.executable).with_name("boardct"))
    child = pexpect.spawn(exe, ["play", "fieldshift", "--names", "A", "B", "--no-clear",
                                "--classic", "--color", "always"], cwd=str(tmp_path),
                          encoding="utf-8", timeout=20, dimensions=(60, 160),
                         env=PTY_ENV)
    child.expect_exact("Player 1 (+0):")
    assert "\x1b[" not in child.before and text(child.before) == screen_after() + "\n"
    child.sendline("09")
    child.expect(pexpect.EOF)
    child.close()


def test_classic_is_refused_for_a_game_without_an_earlier_tools_screen():
    """--classic drops event lines; in Shifting Hills that would hide combat results."""
    code, out = run("play", "hills", "--names", "A", "B", "--classic")
    assert code == 2 and "--classic" in out and "Hills" in out


def test_piped_play_takes_enter_alone_as_no(tmp_path):
    save = tmp_path / "g.json"
    code, out = run(*PLAY, "--save", str(save), input="80\n\n24\n")
    assert out.count(QUESTION) == 1 and "Not carried out; nothing changed." in out
    assert json.loads(save.read_text())["actions"] == ["24"]


def test_three_answers_that_are_neither_01_nor_00_are_a_no_not_an_endless_question(tmp_path):
    """A stuck input (a key held down, a script fed to a live game) must not loop for ever:
    after three answers that are neither, nothing is carried out (found by the fuzz suite)."""
    save = tmp_path / "g.json"
    code, out = run(*PLAY, "--save", str(save), input="80\nx\ny\nz\n24\n")
    assert out.count(QUESTION) == 3 and "Not carried out; nothing changed." in out
    assert json.loads(save.read_text())["actions"] == ["24"]
