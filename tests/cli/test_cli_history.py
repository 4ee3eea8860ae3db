"""Issue 17 items 6 and 7: `--vs` with the people's names only, computer seats kept in the
record and restored on resume; every game played at the terminal kept in the history,
`boardct history` and `boardct replay N`; replays that say what each step did; a result
printed once.

Every test runs with its own $BOARDCT_DATA_DIR (tests/conftest.py), so the history read and
written here is the test's own and the real user folder is never touched.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from cli_helpers import run, script

from boardct.agents import make as make_agent
from boardct.cli import history
from boardct.core import registry
from boardct.core.errors import RecordError
from boardct.core.records import Record
from boardct.core.records import record_of as game_record

POSIX_ONLY = pytest.mark.skipif(sys.platform == "win32",
                                reason="pexpect needs a POSIX pseudo-terminal")


def record_of(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def history_files() -> list[Path]:
    return history.history_files(history.history_dir())


def boardct_exe() -> str:
    return shutil.which("boardct") or str(Path(sys.executable).with_name("boardct"))


# -- item 6: --vs with one name ----------------------------------------------------------------
@pytest.mark.parametrize(("game", "vs", "players", "seats"), [
    ("hills", "2:random", ["Me", "Computer (random)"], [None, "random"]),
    ("fieldshift", "1:random", ["Computer (random)", "Me"], ["random", None]),
])
def test_vs_with_one_name_names_the_people_and_the_computer_seat(tmp_path, game, vs, players,
                                                                 seats):
    save = tmp_path / "g.json"
    code, out = run("play", game, "--names", "Me", "--vs", vs, "--seed", "3", "--save", save,
                    "--script", script(tmp_path, "# nothing"))
    assert code == 0, out
    rec = record_of(save)
    assert rec["players"] == players and rec["seats"] == seats


def test_vs_with_the_default_agent_names_its_seat_after_mcts(tmp_path):
    save = tmp_path / "g.json"
    code, out = run("play", "hills", "--names", "Me", "--vs", "2", "--seed", "3", "--save",
                    save, "--script", script(tmp_path, "# nothing"))
    assert code == 0, out
    rec = record_of(save)
    assert rec["players"] == ["Me", "Computer (mcts)"] and rec["seats"] == [None, "mcts:time=1"]


def test_two_names_with_vs_still_name_both_seats(tmp_path):
    save = tmp_path / "g.json"
    code, out = run("play", "fieldshift", "--names", "A", "B", "--vs", "2:random", "--seed", "4",
                    "--save", save, "--script", script(tmp_path, "24"))
    assert code == 0, out
    rec = record_of(save)
    assert rec["players"] == ["A", "B"] and rec["seats"] == [None, "random"]


def test_one_name_without_vs_is_refused_and_says_how(tmp_path):
    code, out = run("play", "hills", "--names", "Me", "--script", script(tmp_path, "end"))
    assert code == 2
    assert "--names: 1 name(s) given, the game needs 2" in out and "--vs" in out


def test_three_names_and_a_stray_argument_are_refused(tmp_path):
    code, out = run("play", "hills", "--names", "A", "B", "C", "--script",
                    script(tmp_path, "end"))
    assert code == 2 and "not 3" in out
    code, out = run("play", "hills", "stray", "--script", script(tmp_path, "end"))
    assert code == 2 and "unexpected extra argument" in out


def test_an_unknown_agent_is_refused_before_any_name_is_asked():
    code, out = run("play", "fieldshift", "--vs", "2:nobody", input="Ann\n")
    assert code == 2 and "unknown agent 'nobody'" in out
    assert "Enter name" not in out


def test_no_name_is_asked_for_the_computer_seat(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    save = tmp_path / "g.json"
    code, out = run("play", "fieldshift", "--vs", "1:random", "--seed", "2", "--save", save,
                    "--no-clear", "--color", "never", input="Zed\n")
    assert code == 0
    assert "Enter name of Player 2: " in out
    assert "Enter name of Player 1" not in out
    assert "[Player 1: Computer (random)]" in out and "[Player 2: Zed]" in out
    assert record_of(save)["players"] == ["Computer (random)", "Zed"]


# -- item 6: the record keeps the seats, a resume restores them -------------------------------
def hills_record(**changes) -> dict:
    doc = game_record(registry.get("hills").new(seed=3, names=("Me", "Computer (mcts)"))).to_dict()
    doc.update(changes)
    return doc


def test_seats_round_trip_through_a_record():
    doc = hills_record(seats=[None, "mcts:time=1"])
    rec = Record.from_json(json.dumps(doc))
    assert rec.seats == [None, "mcts:time=1"] and "seats" not in rec.extra
    again = Record.from_json(rec.to_json())
    assert again.seats == [None, "mcts:time=1"] and again.to_dict() == rec.to_dict()


def test_a_record_without_seats_still_reads_and_writes_none():
    doc = hills_record()
    assert "seats" not in doc  # a state's own record does not know who played
    rec = Record.from_json(json.dumps(doc))
    assert rec.seats is None and "seats" not in rec.to_dict()


@pytest.mark.parametrize(("seats", "where"), [
    ([None], "seats"),  # one entry per player
    ("mcts", "seats"),
    ([None, 3], r"seats\[1\]"),
    ([None, ""], r"seats\[1\]"),
    ([None, "mcts\x1b[2J"], r"seats\[1\]"),
    ([None, "m" * 201], r"seats\[1\]"),
])
def test_bad_seats_are_a_record_error_naming_the_field(seats, where):
    with pytest.raises(RecordError, match=where):
        Record.from_json(json.dumps(hills_record(seats=seats)), "g.json")


def test_a_resumed_game_keeps_its_computer_seat(tmp_path):
    save = tmp_path / "g.json"
    run("play", "hills", "--names", "Me", "--vs", "2:random", "--seed", "3", "--save", save,
        "--script", script(tmp_path, "end"))
    first = record_of(save)
    assert first["seats"] == [None, "random"]
    code, out = run("play", "hills", "--resume", save, "--save", save, "--script",
                    script(tmp_path, "end", name="more.txt"), "--trace")
    assert code == 0, out
    assert "Player 2 is played by the computer (random), as before" in out
    assert "Player 2 (computer): played." in out  # the computer answered Player 1's end
    second = record_of(save)
    assert second["seats"] == [None, "random"]
    assert len(second["actions"]) > len(first["actions"]) + 1


def test_vs_given_again_overrides_the_saved_seats(tmp_path):
    save = tmp_path / "g.json"
    run("play", "hills", "--names", "Me", "--vs", "2:random", "--seed", "3", "--save", save,
        "--script", script(tmp_path, "end"))
    code, out = run("play", "hills", "--resume", save, "--vs", "none", "--save", save,
                    "--script", script(tmp_path, "end", name="more.txt"), "--trace")
    assert code == 0 and "(computer)" not in out
    assert record_of(save)["seats"] == [None, None]
    code, out = run("play", "hills", "--resume", save, "--vs", "1:random", "--save", save,
                    "--script", script(tmp_path, "# nothing", name="none.txt"))
    assert code == 0 and record_of(save)["seats"] == ["random", None]


def test_a_saved_seat_naming_an_unknown_agent_is_a_clear_error(tmp_path):
    save = tmp_path / "g.json"
    save.write_text(json.dumps(hills_record(seats=[None, "nobody"])), encoding="utf-8")
    code, out = run("play", "hills", "--resume", save, "--script", script(tmp_path, "end"))
    assert code == 2 and "Traceback" not in out
    assert "seats" in out and "unknown agent 'nobody'" in out and "--vs" in out


# -- item 7: the history ----------------------------------------------------------------------
def play_fieldshift_to_the_end(tmp_path, names=("Ann", "Ben")) -> tuple[int, str]:
    """Ann moves, Ben concedes (09): a game finished at the keyboard."""
    return run("play", "fieldshift", "--names", *names, "--seed", "1", "--no-clear",
               "--color", "never", input="24\n09\n")


def test_history_is_empty_at_first():
    code, out = run("history")
    assert code == 0 and "No games in the history yet" in out


def test_a_finished_game_is_kept_without_save_and_listed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = play_fieldshift_to_the_end(tmp_path)
    assert code == 0 and "Result: Player 1 wins (concession)" in out
    assert list(tmp_path.glob("*.json")) == []  # nothing written beside the player
    [kept] = history_files()
    assert record_of(kept)["result"]["winners"] == [0]
    code, out = run("history")
    assert code == 0
    [line] = [ln for ln in out.splitlines() if ln.strip().startswith("1 ")]
    assert "fieldshift" in line and "Ann v Ben" in line and "Ann wins (concession)" in line


def test_an_abandoned_game_is_kept_and_listed_as_unfinished(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run("play", "hills", "--names", "Me", "--vs", "2:random", "--seed", "3",
                    "--no-clear", "--color", "never", input="end\n")
    assert code == 0 and "Input ended; the game was saved to" in out
    [kept] = history_files()
    rec = record_of(kept)
    assert rec["result"] is None and rec["seats"] == [None, "random"]
    code, out = run("history")
    assert "Me v Computer (random)" in out and "unfinished" in out


def test_a_game_without_a_move_is_not_kept(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run("play", "fieldshift", "--names", "A", "B", "--no-clear", input="")
    assert history_files() == []


def test_a_scripted_game_is_kept_once_at_its_end(tmp_path):
    code, out = run("play", "fieldshift", "--names", "A", "B", "--script",
                    script(tmp_path, "24", "29", "09"))
    assert code == 0
    [kept] = history_files()
    assert record_of(kept)["actions"] == ["24", "29", "09"]


def test_history_lists_newest_first_and_replay_n_opens_that_game(tmp_path, monkeypatch):
    """Numbers are given in the order games start and never change: Ann's game, the first,
    is 1 and stays 1 when Cy's (2) is added, though Cy's is listed first (the newest)."""
    monkeypatch.chdir(tmp_path)
    play_fieldshift_to_the_end(tmp_path, ("Ann", "Ben"))
    code, out = run("history")
    assert [ln.split()[0] for ln in out.splitlines() if ln[:4].strip().isdigit()] == ["1"]
    run("play", "fieldshift", "--names", "Cy", "Dee", "--seed", "2", "--no-clear",
        input="24\n")  # abandoned
    old, new = sorted(history_files(), key=lambda p: "Cy" in p.read_text(encoding="utf-8"))
    os.utime(old, (1_000_000_000, 1_000_000_000))  # make the order certain
    code, out = run("history")
    rows = [ln.split() for ln in out.splitlines() if ln[:4].strip().isdigit()]
    assert [r[0] for r in rows] == ["2", "1"]
    assert "Cy" in " ".join(rows[0]) and "Ann" in " ".join(rows[1])
    code, out = run("replay", "1", "--final", "--color", "never")
    assert code == 0 and out.count("Result: Ann wins (concession)") == 1
    assert "[Player 1: Ann]" in out
    code, out = run("replay", "2", "--final", "--color", "never")
    assert code == 0 and "[Player 1: Cy]" in out and "Result:" not in out


def test_a_resumed_game_keeps_its_number_and_files_kept_before_numbers_get_them(
        tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run("play", "fieldshift", "--names", "Ann", "Ben", "--seed", "1", "--no-clear",
        input="24\n")  # abandoned: game 1
    [first] = history_files()
    assert first.name.startswith("1-")
    legacy = first.with_name("20200101-000000-fieldshift-0123456789.json")  # an older file
    legacy.write_text(first.read_text(encoding="utf-8"), encoding="utf-8")
    run("play", "fieldshift", "--resume", "1", "--no-clear", input="29\n")
    names = sorted(p.name for p in history_files())
    assert names[0].startswith("1-") and names[1].startswith("2-20200101-000000-")
    code, out = run("history")
    assert code == 0 and len([ln for ln in out.splitlines() if ln[:4].strip().isdigit()]) == 2


def test_replay_of_a_number_not_in_the_history_says_so():
    code, out = run("replay", "7")
    assert code == 2 and "there is no game 7 in the history (it is empty" in out


def test_resume_takes_a_history_number(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run("play", "fieldshift", "--names", "Cy", "Dee", "--seed", "2", "--no-clear",
        input="24\n")
    save = tmp_path / "on.json"
    code, out = run("play", "fieldshift", "--resume", "1", "--save", save, "--script",
                    script(tmp_path, "29"))
    assert code == 0, out
    assert record_of(save)["actions"] == ["24", "29"]
    # the same game played on replaces its entry in the history
    [kept] = history_files()
    assert record_of(kept)["actions"] == ["24", "29"]


def test_history_notes_an_unreadable_file_and_lists_the_rest(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    play_fieldshift_to_the_end(tmp_path)
    bad = history.history_dir() / "broken.json"
    bad.write_text("{not json", encoding="utf-8")
    os.utime(bad, (2_000_000_000, 2_000_000_000))  # the newest
    code, out = run("history")
    assert code == 0
    lines = out.splitlines()
    assert any(ln.strip().startswith("-  (cannot be read:") and "broken.json" in ln
               for ln in lines)  # a file the history did not write has no number
    assert any(ln.strip().startswith("1 ") and "Ann wins" in ln for ln in lines)
    code, out = run("replay", str(bad))
    assert code == 2 and "broken.json" in out and "Traceback" not in out


def test_history_limit_bounds_the_listing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    play_fieldshift_to_the_end(tmp_path, ("Ann", "Ben"))
    play_fieldshift_to_the_end(tmp_path, ("Cy", "Dee"))
    code, out = run("history", "--limit", "1")
    rows = [ln for ln in out.splitlines() if ln[:4].strip().isdigit()]
    assert len(rows) == 1 and "(1 older games not shown" in out
    code, out = run("history", "--all")
    assert len([ln for ln in out.splitlines() if ln[:4].strip().isdigit()]) == 2


def test_history_folder_is_the_data_dir_override(tmp_path, monkeypatch):
    monkeypatch.setenv(history.ENV_DATA_DIR, str(tmp_path / "mine"))
    code, out = run("history", "--path")
    assert code == 0 and out.strip() == str(tmp_path / "mine" / "history")


def test_history_in_an_unwritable_folder_warns_once_and_play_goes_on(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv(history.ENV_DATA_DIR, str(blocker))  # history/ cannot be made in it
    code, out = run("play", "fieldshift", "--names", "Ann", "Ben", "--seed", "1", "--no-clear",
                    "--color", "never", input="24\n29\n09\n")
    assert code == 0
    assert out.count("Warning: cannot keep this game in the history") == 1
    # warned at the first move (with what it did), and the game went on
    assert out.index("Player 1 (+0): ") < out.index("Warning: cannot keep") \
        < out.index("+0 moves from sector 0 to sector 4") < out.index("-0 moves from sector 9")
    assert "Result: Player 2 wins (concession)" in out


def test_history_in_an_unwritable_folder_warns_at_the_end_of_a_script(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv(history.ENV_DATA_DIR, str(blocker))
    code, out = run("play", "fieldshift", "--names", "A", "B", "--script",
                    script(tmp_path, "24", "29", "09"))
    assert code == 0
    assert out.count("Warning: cannot keep this game in the history") == 1
    assert "Result: B wins (concession)" in out


# -- item 7: replays say what each step did ---------------------------------------------------
def test_replay_shows_each_steps_events_in_words(tmp_path):
    save = tmp_path / "g.json"
    run("play", "fieldshift", "--names", "A", "B", "--save", save, "--script",
        script(tmp_path, "24", "29", "09"))
    code, out = run("replay", save, "--color", "never", input="\n\n\nq\n")
    assert code == 0
    step1 = out.split("--- move 1 of 3 (after 1: 24) ---")[1].split("--- move 2")[0]
    assert "  +0 moves from sector 0 to sector 4" in step1
    step3 = out.split("--- move 3 of 3 (after 3: 09) ---")[1]
    assert "  Result: Player 2 wins (concession)" in step3


def ctf_record(tmp_path: Path, finish: bool) -> Path:
    """A CTF 2187 duel played by random agents: to its end, or one turn of three."""
    state = registry.get("ctf2187").new(seed=5, names=["ann", "bob"],
                                        turn_limit=2 if finish else 3)
    agent = make_agent("random", seed=1)
    while not state.is_over and (finish or state.turn < 2):
        p = state.current_players()[0]
        state.apply(agent.select(state.clone(), p), p)
    path = tmp_path / "ctf.json"
    game_record(state).save(path)
    return path


def test_ctf2187_replay_final_prints_its_result_once(tmp_path):
    path = ctf_record(tmp_path, finish=True)
    code, out = run("replay", path, "--final", "--color", "never")
    assert code == 0
    assert out.count("Result: ") == 1 and out.rstrip().splitlines()[-1].startswith("Result: ")


def test_a_spectator_replay_shows_only_the_events_a_spectator_may_see(tmp_path):
    from boardct.core.records import replay

    path = ctf_record(tmp_path, finish=False)
    rec = Record.load(path)
    state = replay(rec, upto=0)
    shown_to_spectator, every = [], []
    for text in rec.actions:
        events = state.apply_entry(text)
        shown_to_spectator += [state.describe(e) for e in state.events_for(events, None)
                               if e[0] != "turn"]
        every += [state.describe(e) for e in events if e[0] != "turn"]
    assert set(every) - set(shown_to_spectator)  # the filter hides something here
    code, out = run("replay", path, "--color", "never",
                    input="\n" * (len(rec.actions) + 1) + "q\n")
    assert code == 0 and "showing only what a spectator sees" in out
    printed = [ln[2:] for ln in out.splitlines() if ln.startswith("  ") and ln[2:] in
               set(every)]
    assert printed and set(printed) <= set(shown_to_spectator)


# -- pty tests --------------------------------------------------------------------------------
@POSIX_ONLY
def test_pty_vs_with_one_name_asks_no_name_and_the_computer_plays(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(boardct_exe(), ["play", "hills", "--names", "Me", "--vs", "2:random",
                                          "--seed", "3", "--color", "never", "--no-clear"],
                          cwd=str(tmp_path), encoding="utf-8", timeout=20,
                          dimensions=(60, 140))
    child.expect_exact("(you are Player 1)")
    child.expect_exact("Player 1 (turn 1, to act: I R M):")
    assert "Enter name" not in child.before and "Pass the keyboard" not in child.before
    child.sendline("end")
    child.expect_exact("Player 2 (computer): played.")
    child.expect_exact("Player 1 (turn 2")
    child.sendeof()
    child.expect_exact("Input ended; the game was saved to ")
    child.expect(pexpect.EOF)


@POSIX_ONLY
def test_pty_names_are_asked_only_for_the_people(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(boardct_exe(), ["play", "fieldshift", "--vs", "1:random", "--seed",
                                          "2", "--color", "never", "--no-clear"],
                          cwd=str(tmp_path), encoding="utf-8", timeout=20,
                          dimensions=(50, 120))
    child.expect_exact("Enter name of Player 2:")
    assert "Player 1" not in child.before
    child.sendline("Zed")
    child.expect_exact("[Player 1: Computer (random)]")
    child.expect_exact("Player 2 (-0):")
    child.sendeof()
    child.expect(pexpect.EOF)


@POSIX_ONLY
def test_pty_history_lists_the_game_and_replay_opens_it(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(boardct_exe(), ["play", "fieldshift", "--names", "Ann", "Ben",
                                          "--seed", "1", "--color", "never", "--no-clear"],
                          cwd=str(tmp_path), encoding="utf-8", timeout=20,
                          dimensions=(50, 120))
    child.expect_exact("Player 1 (+0):")
    child.sendline("24")
    child.expect_exact("Player 2 (-0):")
    child.sendline("09")
    child.expect_exact("Result: Player 1 wins (concession)")
    child.expect(pexpect.EOF)

    listing = pexpect.spawn(boardct_exe(), ["history"], cwd=str(tmp_path), encoding="utf-8",
                            timeout=20, dimensions=(24, 100))
    listing.expect(r"\s1\s+fieldshift\s+\S+ \S+\s+Ann v Ben: Ann wins \(concession\)")
    listing.expect(pexpect.EOF)

    replay = pexpect.spawn(boardct_exe(), ["replay", "1", "--color", "never"],
                           cwd=str(tmp_path), encoding="utf-8", timeout=20,
                           dimensions=(50, 120))
    replay.expect_exact("--- move 0 of 2 (start) ---")
    replay.expect_exact("[Enter/n next, p previous, NUMBER jump, e end, q quit]")
    replay.sendline("")
    replay.expect_exact("--- move 1 of 2 (after 1: 24) ---")
    replay.expect_exact("  +0 moves from sector 0 to sector 4")
    replay.expect_exact("[Enter/n next, p previous, NUMBER jump, e end, q quit]")
    replay.sendline("q")
    replay.expect(pexpect.EOF)


def test_two_terminals_starting_at_once_never_share_a_number(tmp_path, monkeypatch):
    """The number is claimed (`.N.claim`, created exclusively) before the record is written:
    a second terminal that read the folder at the same moment takes the next number."""
    monkeypatch.chdir(tmp_path)
    folder = history.history_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / ".1.claim").touch()  # another terminal is writing game 1 now
    run("play", "fieldshift", "--names", "Ann", "Ben", "--seed", "1", "--no-clear",
        input="24\n")
    [mine] = history_files()
    assert mine.name.startswith("2-")
    assert not (folder / ".2.claim").exists()  # released once the record holds the number


def test_a_number_written_between_reading_the_folder_and_claiming_it_is_left_alone(
        tmp_path, monkeypatch):
    folder = tmp_path / "h"
    folder.mkdir()
    (folder / "1-20260101-000000-fieldshift-aaaaaaaaaa.json").write_text("{}")
    real_names = history._listing
    calls = []

    def stale_then_real(where):
        calls.append(where)
        if len(calls) == 1:  # the first read happened before the other terminal wrote 2
            names = real_names(where)
            (folder / "2-20260101-000001-fieldshift-bbbbbbbbbb.json").write_text("{}")
            return names
        return real_names(where)

    monkeypatch.setattr(history, "_listing", stale_then_real)
    path = history.numbered_path(folder, "20260101-000002-fieldshift-cccccccccc.json")
    assert path.name.startswith("3-")
    assert not (folder / ".2.claim").exists()  # the claim on the taken number was dropped
