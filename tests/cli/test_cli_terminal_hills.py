"""`boardct play hills`: script mode through the generic terminal, and the hand-over screen
that keeps each player's hand private in hot-seat play."""

import shutil
import sys
from pathlib import Path

import pytest
from cli_helpers import run


def test_hills_script_prints_the_final_screen_from_the_movers_side(tmp_path):
    path = tmp_path / "moves.txt"
    path.write_text("# Player 1 ends at once\nend\n")
    code, out = run("play", "hills", "--names", "A", "B", "--seed", "3", "--script", str(path))
    assert code == 0
    assert "Player 2's turn 1 of 150  (you are Player 2)" in out
    assert out.rstrip().endswith("Player 2 (turn 1, to act: I R M):")


def test_hills_trace_shows_rejections_in_one_line(tmp_path):
    path = tmp_path / "moves.txt"
    path.write_text("I fly E\nend\n")
    code, out = run("play", "hills", "--names", "A", "B", "--seed", "3", "--script", str(path),
                    "--trace")
    assert code == 0
    rejected = [ln for ln in out.splitlines() if ln.startswith("Rejected: ")]
    assert len(rejected) == 1 and "fly" in rejected[0]


@pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a POSIX pseudo-terminal")
def test_hills_hot_seat_hands_over_between_players(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    exe = shutil.which("boardct") or str(Path(sys.executable).with_name("boardct"))
    child = pexpect.spawn(exe, ["play", "hills", "--names", "Ann", "Ben", "--seed", "3",
                                "--color", "never", "--no-clear"], cwd=str(tmp_path),
                          encoding="utf-8", timeout=20, dimensions=(60, 140))
    child.expect_exact("Pass the keyboard to Ann (Player 1) and press Enter.")
    child.sendline("")
    child.expect_exact("(you are Player 1)")
    child.expect_exact("Player 1 (turn 1, to act: I R M):")
    child.sendline("end")
    # Ann reads what her last command did (filtered for her), if anything, then hides it
    if child.expect_exact(["Ann: press Enter to hide the screen.",
                           "Pass the keyboard to Ben (Player 2) and press Enter."]) == 0:
        child.sendline("")
        child.expect_exact("Pass the keyboard to Ben (Player 2) and press Enter.")
    child.sendline("")
    child.expect_exact("(you are Player 2)")
    child.expect_exact("Player 2 (turn 1, to act: I R M):")
    child.sendline("02")  # not a Hills command: refused, the game goes on
    child.expect_exact("Rejected: ")
    child.expect_exact("Player 2 (turn 1, to act: I R M):")  # the prompt again: then Ctrl-D
    child.sendeof()
    child.expect_exact("Input ended; the game was saved to ")
    child.expect(pexpect.EOF)
