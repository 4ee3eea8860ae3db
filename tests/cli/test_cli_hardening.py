"""Issue 15 at the terminal: no input crashes it, no failure loses the game, no hand-over leaks.

Item 4 (bad bytes, bad names, saves that fail, closed input, signals, an output encoding that
cannot show a name), item 8 (the hand-over wipes the scrollback), item 9 (replays of unfinished
hidden-information games and what their save files say first) and the terminal side of item 6
(what is printed passes through `State.events_for` for the player who reads it).

In-process tests run the command through click's runner, whose standard input decodes strictly
as a UTF-8 terminal does (the C.UTF-8 locale of CI decodes with surrogateescape instead, which
hides the crash); signals and closed input go through a real process (pexpect).
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from cli_helpers import run, script
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from boardct.cli import terminal
from boardct.cli.terminal import MAX_LINE, Leave, Session, line_problem, name_problem
from boardct.core import registry
from boardct.core.game import MESSAGE
from boardct.core.records import HIDDEN_KEY, Record, record_of

POSIX_ONLY = pytest.mark.skipif(sys.platform == "win32",
                                reason="pexpect and POSIX signals need a POSIX system")


def saved_games(folder: Path, game: str = "fieldshift") -> list[dict]:
    return [json.loads(p.read_text(encoding="utf-8"))
            for p in sorted(folder.glob(f"boardct-{game}-*.json"))]


def no_tmp_files(folder: Path) -> bool:
    return not any(p.name.endswith(".tmp") for p in folder.rglob("*"))


class Keyboard:
    """A scripted player for `Session.run_interactive`: answers the prompts in order (EOFError
    when done) and writes each prompt into the console's output, as a terminal shows it."""

    def __init__(self, out: io.StringIO, answers: list[str]):
        self.out = out
        self.answers = list(answers)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        self.out.write(prompt)
        if not self.answers:
            raise EOFError
        answer = self.answers.pop(0)
        self.out.write(answer + "\n")
        return answer


def session(game_id: str, *, terminal_like: bool = False, **kwargs) -> tuple[Session, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, force_terminal=terminal_like, color_system=None,
                      highlight=False, soft_wrap=True)
    state = registry.get(game_id).new(seed=3, names=("A", "B"))
    return Session(state, console, **kwargs), out


# -- item 4: bytes and characters that are not text ----------------------------------------------
def test_a_line_that_is_not_utf8_is_refused_and_the_game_goes_on(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run("play", "fieldshift", "--names", "A", "B", "--no-clear",
                    input=b"\xff\xfe\n24\n")
    assert code == 0 and "Traceback" not in out
    assert "Rejected: the line is not UTF-8 text; nothing changed." in out
    assert "+0 moves from sector 0 to sector 4" in out
    assert [g["actions"] for g in saved_games(tmp_path)] == [["24"]]


def test_a_line_with_an_escape_sequence_is_refused_and_never_echoed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run("play", "fieldshift", "--names", "A", "B", "--no-clear",
                    input="2\x1b[2J4\n24\n")
    assert code == 0 and "\x1b" not in out
    assert "Rejected: the line holds a control character (U+001B); nothing changed." in out


def test_a_line_longer_than_the_limit_is_refused_once_and_the_next_line_is_read(tmp_path,
                                                                               monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run("play", "fieldshift", "--names", "A", "B", "--no-clear",
                    input="9" * (3 * MAX_LINE) + "\n24\n")
    assert code == 0
    assert out.count(f"Rejected: a line of more than {MAX_LINE:,} characters") == 1
    assert [g["actions"] for g in saved_games(tmp_path)] == [["24"]]


def test_a_name_with_a_byte_that_is_not_utf8_is_refused_before_the_game(tmp_path):
    # click decodes the command line with surrogateescape: the byte arrives as "\udcff"
    code, out = run("play", "fieldshift", "--names", "\udcff", "B", "--script",
                    script(tmp_path, "24"))
    assert code == 2 and "Traceback" not in out
    assert "--names: the name of Player 1 ('\\udcff') is not UTF-8 text" in out


@pytest.mark.parametrize(("name", "why"), [("A\x1b[2J", "holds a control character"),
                                           ("x" * 201, "is longer than 200 characters")])
def test_names_are_checked_as_records_check_them(tmp_path, name, why):
    code, out = run("play", "fieldshift", "--names", name, "B", "--script",
                    script(tmp_path, "24"))
    assert code == 2 and why in out


def test_typed_names_that_cannot_be_saved_are_asked_again(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run("play", "fieldshift", "--no-clear",
                    input=b"A\x01\n\xff\nZo\xc3\xab\nBen\n24\n")
    assert code == 0
    assert "That name holds a control character; type another." in out
    assert "That name is not UTF-8 text; type another." in out
    assert [g["players"] for g in saved_games(tmp_path)] == [["Zoë", "Ben"]]


def test_names_given_when_input_ends_first_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run("play", "fieldshift", "--no-clear", input="Ann\n")
    assert code == 2 and "input ended before the players' names were given" in out


def test_a_save_file_with_a_name_no_record_can_hold_is_refused_on_resume(tmp_path):
    save = tmp_path / "fs_save_bad"
    save.write_text("0\nAl\x1bice\nBob\n24\n", encoding="utf-8")
    code, out = run("play", "fieldshift", "--resume", str(save), "--script",
                    script(tmp_path, "29"))
    # the save-file reader refuses it, naming the line, with the escape shown, not sent
    assert code == 2 and "fs_save_bad: line 2" in out and "player name" in out
    assert "\x1b" not in out


def test_line_and_name_checks():
    assert line_problem("24") is None and line_problem("I move E\t") is None
    assert "not UTF-8" in line_problem("2\udcff")
    assert "U+0000" in line_problem("a\x00b")
    assert name_problem("Zoë") is None and name_problem("") is None
    assert name_problem("\u2028") == "holds a control character"


def test_a_script_saved_with_a_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf24\n")
    code, out = run("play", "fieldshift", "--names", "A", "B", "--script", str(path))
    assert code == 0 and "Mount Sector 4: +0" in out


def test_a_script_that_is_not_utf8_is_a_clear_error(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"24\n\xff\n")
    code, out = run("play", "fieldshift", "--names", "A", "B", "--script", str(path))
    assert code == 2 and "cannot read script" in out and "not UTF-8 text" in out


def test_vs_with_a_digit_that_is_not_ascii_is_not_a_crash():
    code, out = run("play", "fieldshift", "--names", "A", "B", "--vs", "\u00b2:random",
                    "--script", os.devnull)
    assert code == 2 and "Traceback" not in out


def test_replay_jump_with_a_digit_that_is_not_ascii_is_an_unknown_key(tmp_path):
    save = tmp_path / "g.json"
    run("play", "fieldshift", "--names", "A", "B", "--save", str(save), "--script",
        script(tmp_path, "24"))
    code, out = run("replay", str(save), input="\u00b2\n1\nq\n")
    assert code == 0 and "Unknown key '\u00b2'." in out and "--- move 1 of 1" in out


def test_an_output_encoding_that_cannot_show_a_name_does_not_crash(tmp_path):
    env = dict(os.environ, PYTHONIOENCODING="ascii:strict",
               PYTHONPATH=str(Path(terminal.__file__).parents[2]))
    proc = subprocess.run([sys.executable, "-m", "boardct", "play", "fieldshift", "--names",
                           "Zoë", "Ben", "--script", script(tmp_path, "24")],
                          capture_output=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode("ascii", "replace")
    assert b"[Player 1: Zo\\xeb]" in proc.stdout


# -- item 4: saves that fail -----------------------------------------------------------------------
def test_save_into_a_missing_folder_warns_once_plays_on_and_keeps_the_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    missing = tmp_path / "no" / "such" / "dir" / "x.json"
    code, out = run("play", "fieldshift", "--names", "A", "B", "--no-clear", "--save",
                    str(missing), input="24\n29\n")
    assert code == 0 and "Traceback" not in out
    assert out.count(f"Warning: cannot keep the game in {missing}") == 1
    assert "Input ended; the game was saved to boardct-fieldshift-" in out
    assert [g["actions"] for g in saved_games(tmp_path)] == [["24", "29"]]
    assert no_tmp_files(tmp_path)


def test_save_to_a_folder_warns_and_leaves_no_tmp_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "afolder"
    folder.mkdir()
    code, out = run("play", "fieldshift", "--names", "A", "B", "--no-clear", "--save",
                    str(folder), input="24\n")
    assert code == 0 and f"Warning: cannot keep the game in {folder}" in out
    assert [g["actions"] for g in saved_games(tmp_path)] == [["24"]]
    assert no_tmp_files(tmp_path)


@pytest.mark.parametrize("answer", ["a\x00b", "folder", "no/such/dir/x.json"])
def test_the_save_dialogue_refuses_a_bad_file_name_and_the_game_goes_on(tmp_path, monkeypatch,
                                                                       answer):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    code, out = run("play", "fieldshift", "--names", "A", "B", "--script",
                    script(tmp_path, "24", "02", answer, "29", name="moves.txt"), "--trace")
    assert code == 0 and "Traceback" not in out
    assert "Could not save" in out and "the game goes on." in out
    assert "Player 1 (+0): 29" in out or "Player 2 (-0): 29" in out
    assert "Rejected" not in out.split("the game goes on.")[1].split("\n")[1]
    assert no_tmp_files(tmp_path)


def test_the_resume_dialogue_refuses_a_nul_and_a_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run("play", "fieldshift", "--names", "A", "B", "--script",
                    script(tmp_path, "24", "03", "a\x00b", "03", str(tmp_path), "29"), "--trace")
    assert code == 0 and "Traceback" not in out
    assert "Could not resume: a file name cannot hold a NUL character" in out
    assert "is a folder" in out


class SaveFails:
    """Record.save failing (PermissionError) for paths under the given folders, as a read-only
    folder does: root, who runs CI, may write anywhere, so chmod cannot show it."""

    def __init__(self, monkeypatch, *folders: Path):
        self.folders = [f.resolve() for f in folders]
        real = Record.save

        def save(record, path):
            where = Path(path).resolve()
            if any(where.is_relative_to(f) for f in self.folders):
                raise PermissionError(13, "Permission denied", str(path))
            return real(record, path)

        monkeypatch.setattr(Record, "save", save)


def test_an_unwritable_save_folder_falls_back_to_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    locked = tmp_path / "locked"
    locked.mkdir()
    SaveFails(monkeypatch, locked)
    code, out = run("play", "fieldshift", "--names", "A", "B", "--no-clear", "--save",
                    str(locked / "x.json"), input="24\n")
    assert code == 0 and "Permission denied" in out
    assert [g["actions"] for g in saved_games(tmp_path)] == [["24"]]


@pytest.mark.parametrize("data_dir", [True, False])
def test_when_the_current_folder_fails_the_game_goes_to_the_data_or_temp_folder(
        tmp_path, monkeypatch, data_dir):
    work, data, temp = tmp_path / "work", tmp_path / "data" / "boardct", tmp_path / "temp"
    work.mkdir()
    temp.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setattr(terminal, "user_data_dir", lambda: data if data_dir else None)
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(temp))
    SaveFails(monkeypatch, work)
    code, out = run("play", "fieldshift", "--names", "A", "B", "--no-clear", input="24\n")
    place = data if data_dir else temp
    assert code == 0 and "Could not save to boardct-fieldshift-" in out
    assert f"the game was saved to {place}" in out
    assert [g["actions"] for g in saved_games(place)] == [["24"]]


def test_when_no_place_can_hold_the_game_its_record_is_printed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(terminal, "user_data_dir", lambda: None)
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path))
    SaveFails(monkeypatch, tmp_path)
    code, out = run("play", "fieldshift", "--names", "A", "B", "--no-clear", input="24\n")
    assert code == 0 and "the game could not be saved anywhere" in out
    record = out[out.index('{\n "format"'):]
    assert json.loads(record)["actions"] == ["24"]


def test_saves_never_overwrite_another_games_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for _ in range(2):
        run("play", "fieldshift", "--names", "A", "B", "--no-clear", input="24\n")
    assert len(saved_games(tmp_path)) == 2


def test_an_unexpected_error_still_saves_the_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    state_cls = type(registry.get("fieldshift").new(seed=1))
    real = state_cls.describe

    def describe(self, event):
        if "sector 4" in real(self, event):
            raise RuntimeError("a bug in describe")
        return real(self, event)

    monkeypatch.setattr(state_cls, "describe", describe)
    code, out = run("play", "fieldshift", "--names", "A", "B", "--no-clear", input="24\n")
    assert code == 1 and "Traceback" not in out
    assert "Internal error (RuntimeError: a bug in describe); the game was saved to " in out
    assert [g["actions"] for g in saved_games(tmp_path)] == [["24"]]


def test_a_signal_while_the_state_changes_waits_for_the_next_read():
    s, _ = session("fieldshift")
    s._on_signal(signal.SIGTERM, None)  # not inside a read: only noted
    assert s._pending == signal.SIGTERM
    with pytest.raises(Leave):
        s._ask(lambda prompt: "24", "> ")
    s._interruptible = True
    with pytest.raises(Leave):  # inside a read: at once
        s._on_signal(signal.SIGTERM, None)


# -- item 4 through a real process: closed input, SIGTERM, SIGHUP ----------------------------------
def boardct_exe() -> str:
    return shutil.which("boardct") or str(Path(sys.executable).with_name("boardct"))


@POSIX_ONLY
@pytest.mark.parametrize("names", [True, False])
def test_closed_standard_input_ends_cleanly(tmp_path, names):
    pexpect = pytest.importorskip("pexpect")
    given_names = "--names A B " if names else ""
    child = pexpect.spawn("/bin/sh", ["-c", f"exec '{boardct_exe()}' play fieldshift "
                                            f"{given_names}--color never <&-"],
                          cwd=str(tmp_path), encoding="utf-8", timeout=30)
    child.expect(pexpect.EOF)
    out = child.before
    child.close()
    assert "Traceback" not in out and "Error" not in out
    if names:
        assert child.exitstatus == 0 and "Input ended before any move; nothing to save." in out
    else:
        assert child.exitstatus == 2 and "give them with --names A B" in out


@POSIX_ONLY
@pytest.mark.parametrize(("signum", "said"), [
    ("SIGTERM", "Stopped by SIGTERM; the game was saved to "),
    ("SIGHUP", "The terminal closed (SIGHUP); the game was saved to "),
])
def test_a_signal_saves_the_game_as_ctrl_d_does(tmp_path, signum, said):
    pexpect = pytest.importorskip("pexpect")
    sig = getattr(signal, signum)

    def as_a_terminal_gives_it() -> None:  # not ignored, even when the suite runs under nohup
        signal.signal(sig, signal.SIG_DFL)

    child = pexpect.spawn(boardct_exe(), ["play", "fieldshift", "--names", "A", "B",
                                          "--no-clear", "--color", "never"],
                          cwd=str(tmp_path), encoding="utf-8", timeout=30,
                          preexec_fn=as_a_terminal_gives_it)
    child.expect_exact("Player 1 (+0):")
    child.sendline("24")
    child.expect_exact("Player 2 (-0):")
    child.kill(sig)
    child.expect_exact(said.rstrip())  # at 80 columns the file name wraps to the next line
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 128 + sig
    assert [g["actions"] for g in saved_games(tmp_path)] == [["24"]]


@POSIX_ONLY
def test_a_byte_that_is_not_utf8_at_a_real_terminal_is_refused(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, PYTHONIOENCODING="utf-8:strict")  # as under en_US.UTF-8
    child = pexpect.spawn(boardct_exe(), ["play", "fieldshift", "--names", "A", "B",
                                          "--no-clear", "--color", "never"],
                          cwd=str(tmp_path), env=env, timeout=30)
    child.expect_exact(b"Player 1 (+0):")
    child.send(b"\xff\r")
    child.expect_exact(b"Rejected: the line is not UTF-8 text; nothing changed.")
    child.sendline(b"24")
    child.expect_exact(b"Player 2 (-0):")
    child.sendeof()
    child.expect_exact(b"Input ended; the game was saved to ")
    child.expect(pexpect.EOF)
    assert [g["actions"] for g in saved_games(tmp_path)] == [["24"]]


# -- item 8: the hand-over wipes the scrollback ----------------------------------------------------
def test_the_hand_over_clears_the_screen_and_the_scrollback(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    s, out = session("hills", terminal_like=True)
    keys = Keyboard(out, ["", "end", ""])
    s.run_interactive(keys)
    text = out.getvalue()
    hand_over = text.index("Pass the keyboard to B (Player 2)")
    assert "\x1b[2J\x1b[3J" in text[:hand_over]
    assert text.count("\x1b[3J") == 2  # one for each hand-over, before its prompt
    assert text[:hand_over].rindex("\x1b[3J") > text.index("(you are Player 1)")


def test_no_clearing_codes_go_to_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    s, out = session("hills")
    s.run_interactive(Keyboard(out, ["", "end", ""]))
    assert "\x1b" not in out.getvalue()


# -- item 9: what save files and replays reveal ----------------------------------------------------
@pytest.mark.parametrize(("game", "hidden", "extra"), [
    ("hills", True, ()), ("shift", True, ()), ("fieldshift", False, ()), ("fff", False, ()),
])
def test_terminal_saves_of_hidden_information_games_say_so_first(tmp_path, game, hidden, extra):
    save = tmp_path / "g.json"
    code, _ = run("play", game, "--names", "A", "B", "--seed", "3", "--save", str(save),
                  "--script", script(tmp_path, "# nothing"), *extra)
    assert code == 0
    first = next(iter(json.loads(save.read_text(encoding="utf-8"))))
    assert (first == HIDDEN_KEY) is hidden


def test_suspend_and_rescue_saves_say_so_first_too(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _ = run("play", "hills", "--names", "A", "B", "--seed", "3", "--no-clear",
                  input="\nI move E\n")
    assert code == 0
    (doc,) = saved_games(tmp_path, "hills")
    assert next(iter(doc)) == HIDDEN_KEY and doc["actions"]


def hills_save(tmp_path: Path, *moves: str, options: tuple[str, ...] = ()) -> Path:
    save = tmp_path / "hills.json"
    code, _ = run("play", "hills", "--names", "A", "B", "--seed", "3", *options, "--save",
                  str(save), "--script", script(tmp_path, *moves))
    assert code == 0
    return save


def test_replay_of_an_unfinished_hills_game_shows_only_the_spectator_view(tmp_path):
    save = hills_save(tmp_path, "end", "I move E")
    code, out = run("replay", str(save), "--final", "--color", "never")
    assert code == 0 and "(you are Player" not in out
    assert "showing only what a spectator sees" in out
    code, out = run("replay", str(save), "--color", "never", input="n\nn\nq\n")
    assert code == 0 and "(you are Player" not in out and "--- move 2 of 2" in out


def test_replay_reveal_shows_the_players_views(tmp_path):
    save = hills_save(tmp_path, "end", "I move E")
    code, out = run("replay", str(save), "--final", "--reveal", "--color", "never")
    assert code == 0 and "(you are Player 2)" in out and "spectator" not in out


def test_replay_of_a_finished_hills_game_shows_the_players_views(tmp_path):
    save = hills_save(tmp_path, "end", "end", options=("-o", "turn_limit=1"))
    code, out = run("replay", str(save), "--color", "never", input="1\nq\n")
    assert code == 0 and "Result:" not in out.split("--- move 1")[0]
    assert "(you are Player 2)" in out and "spectator" not in out


def test_replay_of_an_unfinished_ctf2187_game_shows_only_the_spectator_view(tmp_path):
    """Issue 15 item 9: the spectator's board of an unfinished CTF 2187 game shows the command
    posts only: no Bot (on the map or under it), no terrain, no rating; --reveal shows the
    player's view."""
    save = tmp_path / "ctf.json"
    state = registry.get("ctf2187").new(seed=2, names=("A", "B"))
    for p in state.current_players():  # a turn played: the Bots have moved
        for num in state.owed(p):
            state.apply(state.sample_sheets(num)[1], p)
    record_of(state).save(save)
    spectator = state.render(None)
    code, out = run("replay", str(save), "--final", "--color", "never")
    assert code == 0 and spectator in out and "showing only what a spectator sees" in out
    board = out[out.index("CTF 2187  turn"):].splitlines()
    rows = [line[4:] for line in board[2:2 + state.map.height]]
    cells = {row[i:i + 3].strip() for row in rows for i in range(0, len(row), 3)}
    assert cells <= {"", "A1", "A2", "B1", "B2"}  # no Bot mark, no terrain code
    assert not re.search(r"^Bot \d+ [A-D] ", out, re.M) and "Ratings" not in out
    assert not [b for b in state.bots if b.design.name in out
                or re.search(rf"(?<![\d-]){b.x}-{b.y}(?![\d-])", out)]
    code, out = run("replay", str(save), "--final", "--reveal", "--color", "never")
    assert code == 0 and state.render(0) in out and re.search(r"^Bot 1 A ", out, re.M)


def test_stepping_through_an_unfinished_ctf2187_game_never_prints_a_sheet_or_a_bot(tmp_path):
    """Issue 15 item 9: step by step, the spectator is not told the actions (order sheets) nor
    the prompt (which names the Bots still to hand in); --reveal tells both."""
    save = tmp_path / "ctf.json"
    state = registry.get("ctf2187").new(seed=2, names=("A", "B"))
    state.apply(state.sample_sheets(1)[3], 0)
    record_of(state).save(save)
    code, out = run("replay", str(save), "--color", "never", input="n\nq\n")
    assert code == 0 and "--- move 1 of 1 (after 1) ---" in out
    assert "BOT 1" not in out and "Bot 1" not in out and "The game goes on." in out
    code, out = run("replay", str(save), "--reveal", "--color", "never", input="n\nq\n")
    assert code == 0 and "BOT 1 TURN 1" in out


def test_replay_of_an_unfinished_shift_game_says_it_shows_the_spectator_view(tmp_path):
    save = tmp_path / "shift.json"
    record_of(registry.get("shift").new(seed=2, names=("A", "B"))).save(save)
    code, out = run("replay", str(save), "--final", "--color", "never")
    assert code == 0 and "showing only what a spectator sees" in out


def test_replay_of_a_perfect_information_game_says_nothing_of_secrets(tmp_path):
    save = tmp_path / "g.json"
    run("play", "fieldshift", "--names", "A", "B", "--save", str(save), "--script",
        script(tmp_path, "24"))
    code, out = run("replay", str(save), "--final")
    assert code == 0 and "spectator" not in out


# -- item 6, the terminal side: events pass through events_for for their reader --------------------
def spy_events_for(monkeypatch, game_id: str, tag: bool) -> list:
    """Replace the game's events_for by one that records who asked and, with `tag`, answers
    each viewer with a message naming them (a stand-in for the game's real filter)."""
    state_cls = type(registry.get(game_id).new(seed=1, names=("A", "B")))
    calls: list = []

    def events_for(self, events, player):
        calls.append(player)
        if tag:
            return [(MESSAGE, f"event for viewer {player}")]
        return []

    monkeypatch.setattr(state_cls, "events_for", events_for)
    return calls


def test_a_perfect_information_game_prints_what_events_for_returns(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    s, out = session("fieldshift")
    s.run_interactive(Keyboard(out, ["24"]))
    assert "+0 moves from sector 0 to sector 4" in out.getvalue()  # the default: all events

    calls = spy_events_for(monkeypatch, "fieldshift", tag=False)
    s, out = session("fieldshift")
    s.run_interactive(Keyboard(out, ["24"]))
    assert calls and set(calls) == {None}  # a spectator's eyes: nobody's secrets
    assert "moves from sector" not in out.getvalue()


def test_hot_seat_prints_each_players_own_events_around_the_hand_over(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spy_events_for(monkeypatch, "hills", tag=True)
    s, out = session("hills")
    keys = Keyboard(out, ["", "I move E", "end", "", ""])
    s.run_interactive(keys)
    text = out.getvalue()
    assert keys.prompts[3] == "A: press Enter to hide the screen. "
    before, after = text.split("Pass the keyboard to B (Player 2) and press Enter.")
    acting = before.split("): end")[1]
    assert "event for viewer 0" in acting and "event for viewer 1" not in acting
    assert "event for viewer 1" in after and "event for viewer 0" not in after
    # within a turn, no hand-over: the acting player's own events
    move = before.split("I move E")[1].split("(turn 1")[0]
    assert "event for viewer 0" in move and "event for viewer 1" not in move


def test_the_acting_players_lines_need_a_key_before_the_hand_over_only_if_any(tmp_path,
                                                                             monkeypatch):
    monkeypatch.chdir(tmp_path)
    spy_events_for(monkeypatch, "hills", tag=False)
    s, out = session("hills")
    keys = Keyboard(out, ["", "end", ""])
    s.run_interactive(keys)
    assert not any("hide the screen" in p for p in keys.prompts)
    assert keys.prompts[2] == "Pass the keyboard to B (Player 2) and press Enter. "


def test_the_computers_moves_in_a_hidden_information_game_show_only_the_humans_events(
        tmp_path, monkeypatch):
    from boardct.agents import make as make_agent

    monkeypatch.chdir(tmp_path)
    calls = spy_events_for(monkeypatch, "hills", tag=True)
    s, out = session("hills", computer={1: make_agent("random", seed=1)})
    first = s.state.current_players()[0]
    answers = ["end"] if first == 0 else []
    s.run_interactive(Keyboard(out, answers))
    text = out.getvalue()
    said = [ln for ln in text.splitlines() if ln.startswith("Player 2 (computer)")]
    assert said and set(said) == {"Player 2 (computer): played."}  # never its command
    assert "event for viewer 1" not in text and set(calls) == {0}


def test_a_game_without_its_filter_prints_no_events_rather_than_leak(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    state_cls = type(registry.get("hills").new(seed=1, names=("A", "B")))

    def events_for(self, events, player):
        raise NotImplementedError

    monkeypatch.setattr(state_cls, "events_for", events_for)
    s, out = session("hills")
    assert s.run_interactive(Keyboard(out, ["", "I move E"])) == 0
    assert "is revealed" not in out.getvalue() and "Internal error" not in out.getvalue()


# -- the input loop survives junk ------------------------------------------------------------------
JUNK_TOKENS = ["", "help", "?", "02", "03", "24", "09", "end", "I move E", "pass", ".", "..",
               "\x1b[2J", "\x00", "9" * (MAX_LINE + 1), "BOT 1 TURN 1", "\u00b2", "\ufeff24"]
junk_line = st.one_of(
    st.text(max_size=40),
    st.binary(max_size=24).map(lambda b: b.decode("utf-8", "surrogateescape")),
    st.sampled_from(JUNK_TOKENS),
    st.lists(st.sampled_from(JUNK_TOKENS[1:12]), max_size=4).map(" ".join),
)


@pytest.mark.parametrize("game_id", sorted(g.id for g in registry.all_games()))
@settings(max_examples=int(os.environ.get("BOARDCT_FUZZ_EXAMPLES", "25")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(junk_line, max_size=12))
def test_the_input_loop_survives_junk_lines(game_id, lines):
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        try:
            s, out = session(game_id)
            code = s.run_interactive(Keyboard(out, list(lines)))
        finally:
            os.chdir(here)
    text = out.getvalue()
    assert code == 0, text[-2000:]
    assert "Internal error" not in text and "Traceback" not in text
    record_of(s.state)  # the game in memory is still whole


def test_an_unexpected_error_in_a_script_still_saves_the_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    state_cls = type(registry.get("fieldshift").new(seed=1))
    real = state_cls.describe

    def describe(self, event):
        if "sector 9" in real(self, event):
            raise RuntimeError("a bug in describe")
        return real(self, event)

    monkeypatch.setattr(state_cls, "describe", describe)
    code, out = run("play", "fieldshift", "--names", "A", "B", "--script",
                    script(tmp_path, "24", "29"))
    assert code == 1 and "Internal error (RuntimeError: a bug in describe)" in out
    assert [g["actions"] for g in saved_games(tmp_path)] == [["24", "29"]]


@pytest.mark.parametrize("seed", ["\u0663", "\u00b2", "1" * 25, "18446744073709551616", "x"])
def test_a_seed_is_ascii_digits_below_2_to_the_64(tmp_path, seed):
    code, out = run("play", "fieldshift", "--names", "A", "B", "--seed", seed, "--script",
                    script(tmp_path, "24"))
    assert code == 2 and "is not a whole number of ASCII digits below 2**64" in out
    code, out = run("bench", "fieldshift", "--seed", seed, "--seconds", "0.1")
    assert code == 2 and "ASCII digits" in out


def test_a_seed_of_twenty_digits_and_a_negative_seed_still_play(tmp_path):
    for seed in ("18446744073709551615", "-7"):
        save = tmp_path / "g.json"
        code, _ = run("play", "shift", "--names", "A", "B", "--seed", seed, "--save",
                      str(save), "--script", script(tmp_path, "# nothing"))
        assert code == 0 and json.loads(save.read_text(encoding="utf-8"))["seed"] == int(seed)
        assert run("replay", str(save), "--final")[0] == 0
