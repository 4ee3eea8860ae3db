"""Fuzzing the terminal (issue 15 item 4), for every game: typed lines through
`Session.handle` (a refused line changes nothing), whole hot-seat sessions through
`Session.run_interactive` that end with the input (Ctrl-D) or Ctrl-C, and the `boardct play` /
`boardct replay` commands themselves with random bytes on standard input, as a script, or as
the file to resume or replay. Nothing may escape but a clean exit status.

Every target runs in a fresh scratch folder as the working folder: a save typed at a prompt,
or made when the input ends, lands there. Typed lines that would name a file elsewhere are
made relative first (`safe_answer`)."""

from __future__ import annotations

import io

import fuzz_kit
from fuzz_kit import (
    Snapshot,
    cli_run,
    command_text,
    fuzz,
    in_sandbox,
    mutate_bytes,
    pool,
    random_text,
    safe_answer,
    scratch_file,
    time_limit,
    with_surrogates,
)
from hypothesis import strategies as st
from rich.console import Console
from test_fuzz_records import edited_record

from boardct.agents import make as make_agent
from boardct.cli.terminal import Session, make_console
from boardct.core import registry

TERMINAL_WORDS = ["help", "?", "", " ", "02", "03", "quit", "exit", "q", "y", "n", "yes",
                  "save.json", "game.json", ".", "..", "sub/dir/x.json", "a\x00b", "\x04",
                  "\x03", "x" * 300, "no such file.json"]


def terminal(color: bool) -> tuple[Console, io.TextIOWrapper]:
    """A console writing UTF-8 to bytes, strictly, as a real terminal's standard output does
    (text that cannot be written fails here as it would there)."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict", newline="")
    return make_console("always" if color else "never", file=out), out


def typed_line(draw, game_id: str, state) -> str:
    kind = draw(st.integers(0, 5))
    if kind == 0:
        text = draw(st.sampled_from(TERMINAL_WORDS))
    elif kind == 1:
        # no lone surrogates: a typed line reaches the session decoded (bytes that are not
        # UTF-8 are the business of the command-line target, which sends real bytes)
        text = draw(random_text())
    else:
        text = command_text(draw, pool(game_id), state)
    return safe_answer(text)


def session_state(draw, game_id: str):
    """A position from the pool, or a new game with names of any text."""
    if draw(st.integers(0, 3)) == 0:
        game = registry.get(game_id)
        n = game.min_players if game_id != "ctf2187" else draw(st.integers(2, 4))
        names = [draw(with_surrogates(random_text(12))) for _ in range(n)]
        ok, state = fuzz_kit.attempt(game.new, seed=draw(st.integers(0, 99)), names=names)
        if ok:
            return state
    return draw(pool(game_id).any_position).clone()


def handle_lines(draw, game_id: str) -> None:
    """Typed lines through `Session.handle`; a refused line (or help) changes nothing."""
    state = session_state(draw, game_id)
    console, _ = terminal(draw(st.booleans()))
    with in_sandbox() as folder:
        save = folder / "autosave.json" if draw(st.booleans()) else None
        session = Session(state, console, color=False, save_path=save)
        answers = iter(draw(st.lists(st.builds(safe_answer, st.sampled_from(TERMINAL_WORDS)),
                                     max_size=3)))

        def ask(prompt: str) -> str:
            return next(answers, "")

        for _ in range(draw(st.integers(1, 6))):
            line = typed_line(draw, game_id, session.state)
            before = Snapshot(session.state)
            fuzz_kit.LAST_CALL[0] = (session.handle, (line,), {})
            with time_limit():
                step = session.handle(line, ask)
                session.say(step.lines)
            if step.kind in ("rejected", "help"):
                before.check(session.state, f"handle({line[:200]!r})")
            if step.kind == "suspended":
                return


def interactive(draw, game_id: str) -> None:
    """A whole hot-seat session: lines typed until the input ends (EOF or Ctrl-C), hand-over
    screens, dialogues, a computer player now and then; the game left is saved."""
    state = session_state(draw, game_id)
    color = draw(st.booleans())
    console, _ = terminal(color)
    computer = {}
    if draw(st.integers(0, 3)) == 0:
        side = draw(st.sampled_from(list(state.iter_players())))
        computer[side] = make_agent("random", seed=side)
    lines = [typed_line(draw, game_id, state) for _ in range(draw(st.integers(0, 10)))]
    end = draw(st.sampled_from([EOFError, EOFError, KeyboardInterrupt]))
    feed = iter(lines)

    def read(prompt: str) -> str:
        line = next(feed, None)
        if line is None:
            raise end
        return line

    with in_sandbox() as folder:
        save = folder / "autosave.json" if draw(st.booleans()) else None
        session = Session(state, console, color=color, computer=computer, save_path=save)
        fuzz_kit.LAST_CALL[0] = (session.run_interactive, (lines,), {"end": end})
        with time_limit():
            try:
                code = session.run_interactive(read, clear=draw(st.booleans()))
            except KeyboardInterrupt as exc:  # would end the test run itself
                raise AssertionError("Ctrl-C escaped the session: a traceback, the game "
                                     "lost") from exc
        assert isinstance(code, int)


def command_line(draw, game_id: str) -> None:
    """`boardct play GAME` with bytes on standard input (not all UTF-8), or a script file of
    such bytes; `boardct play --resume` and `boardct replay` of an edited record."""
    state = draw(pool(game_id).any_position)
    lines = [command_text(draw, pool(game_id), state).encode("utf-8", "surrogatepass")
             for _ in range(draw(st.integers(0, 8)))]
    data = b"\n".join(safe_answer(x.decode("utf-8", "surrogateescape")).encode(
        "utf-8", "surrogateescape") for x in lines)
    if draw(st.booleans()):
        data = mutate_bytes(draw, data)
    names = ["A", draw(st.sampled_from(["B", "é", "Ünïcødé", "٣", "a b", "x" * 100]))]
    base = ["play", game_id, "--names", *names, "--color",
            draw(st.sampled_from(["never", "always"])), "--seed", "3"]
    how = draw(st.sampled_from(["stdin", "stdin", "script", "trace", "resume", "replay"]))
    with in_sandbox():
        if how == "stdin":
            cli_run([*base, "--no-clear"], stdin=data)
        elif how in ("script", "trace"):
            with scratch_file(data, ".txt") as path:
                cli_run([*base, "--script", str(path), *(["--trace"] if how == "trace" else [])])
        else:
            record = edited_record(draw, game_id)
            with scratch_file(record, ".json") as path:
                if how == "resume":
                    cli_run(["play", game_id, "--resume", str(path), "--color", "never",
                             "--no-clear"], stdin=data)
                else:
                    cli_run(["replay", str(path), "--final", "--color", "never"])


def _targets(game_id: str, ci: int) -> tuple:
    a = fuzz(game_id, ci, f"test_{game_id}_terminal_lines_refused_cleanly_and_change_nothing")(
        lambda draw: handle_lines(draw, game_id))
    b = fuzz(game_id, ci // 2, f"test_{game_id}_terminal_sessions_end_cleanly")(
        lambda draw: interactive(draw, game_id))
    c = fuzz(game_id, ci // 3, f"test_{game_id}_play_and_replay_commands_end_cleanly")(
        lambda draw: command_line(draw, game_id))
    return a, b, c


(test_fieldshift_terminal_lines_refused_cleanly_and_change_nothing,
 test_fieldshift_terminal_sessions_end_cleanly,
 test_fieldshift_play_and_replay_commands_end_cleanly) = _targets("fieldshift", 40)
(test_fff_terminal_lines_refused_cleanly_and_change_nothing,
 test_fff_terminal_sessions_end_cleanly,
 test_fff_play_and_replay_commands_end_cleanly) = _targets("fff", 30)
(test_hills_terminal_lines_refused_cleanly_and_change_nothing,
 test_hills_terminal_sessions_end_cleanly,
 test_hills_play_and_replay_commands_end_cleanly) = _targets("hills", 40)
(test_shift_terminal_lines_refused_cleanly_and_change_nothing,
 test_shift_terminal_sessions_end_cleanly,
 test_shift_play_and_replay_commands_end_cleanly) = _targets("shift", 40)
(test_ctf2187_terminal_lines_refused_cleanly_and_change_nothing,
 test_ctf2187_terminal_sessions_end_cleanly,
 test_ctf2187_play_and_replay_commands_end_cleanly) = _targets("ctf2187", 30)
