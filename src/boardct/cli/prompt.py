"""The terminal's line editor: what the player types at the table, read with prompt_toolkit.

On a terminal (standard input and output both terminals, on POSIX and on Windows consoles)
a line is read by prompt_toolkit: the arrows move in the line and recall earlier lines, Ctrl-R
searches them, and Tab completes the table's commands and the legal moves in the game's
notation, each shown with its description. Earlier lines are kept per game in the data folder
(`prompt-history/GAME.txt`), except in a hot-seat game with hidden information: there each
seat recalls only its own lines of this session, and nothing is written, so the next player
cannot scroll up to the orders just typed.

Anywhere else (a pipe, a file, a test feeding lines, a terminal prompt_toolkit cannot drive)
lines are read by `terminal.read_line`, bounded, exactly as before: the fall-back is the
same function, not an imitation of it.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from boardct.cli.history import data_dir

PROMPT_HISTORY = "prompt-history"  # the data folder's sub-folder of typed lines, one file a game
MAX_COMPLETIONS = 5000  # legal moves offered by Tab: far more than any position has
MAX_HISTORY_BYTES = 1024 * 1024  # a history file larger than this is not loaded (started anew)

# What the table offers in every game (terminal.TABLE_WORDS and help), with its hint.
TABLE_COMPLETIONS = (
    ("help", "the game's commands and the table's"),
    ("moves", "the legal moves, grouped and in words"),
    ("hint", "the computer's suggestion"),
    ("preview ", "what a command would do (also ?CMD)"),
    ("undo", "take back your last move"),
    ("status", "where the game stands"),
    ("save", "save the game and play on"),
    ("quit", "save the game and leave"),
    ("resign", "concede the game"),
)

Moves = Callable[[], Iterable[tuple[str, str]]]  # (text, description) of each legal move


def both_terminals() -> bool:
    """Whether standard input and output are both terminals (prompt_toolkit's case)."""
    try:
        return (sys.stdin is not None and not sys.stdin.closed and sys.stdin.isatty()
                and sys.stdout is not None and not sys.stdout.closed and sys.stdout.isatty())
    except (ValueError, OSError, AttributeError):
        return False


def history_file(game_id: str) -> Path | None:
    """Where the lines typed in `game_id` are kept (None: no data folder)."""
    base = data_dir()
    return base / PROMPT_HISTORY / f"{game_id}.txt" if base is not None else None


def matches(typed: str, moves: Iterable[tuple[str, str]]) -> Iterator[tuple[str, str, str]]:
    """The completions of the line `typed`: (completion, shown, description) of each table
    command and legal move that starts with it, case ignored. After `preview ` or `?` the
    moves are completed with that prefix kept."""
    lead = typed.lstrip()
    low = lead.lower()
    prefix = ""
    if low.startswith("preview "):
        prefix, lead = lead[:8], lead[8:].lstrip()
    elif low.startswith("?"):
        prefix, lead = "?", lead[1:]
    low = lead.lower()
    if not prefix:
        for word, hint in TABLE_COMPLETIONS:
            if word.startswith(low) and word.strip() != low:
                yield word, word.strip(), hint
    for count, (text, words) in enumerate(moves):
        if count >= MAX_COMPLETIONS:
            break
        if text.lower().startswith(low) and text.lower() != low:
            yield prefix + text, text, "" if words == text else words


def stop_reading(exc: BaseException) -> bool:
    """End the line the editor is reading with `exc`, which its prompt then raises: what a
    signal handler does instead of raising `exc` itself, since an exception raised in the
    middle of the editor's event loop can leave that loop waiting for ever. False when no
    line is being edited (the caller raises `exc`)."""
    if "prompt_toolkit" not in sys.modules:
        return False
    from prompt_toolkit.application.current import get_app_or_none

    app = get_app_or_none()
    loop = getattr(app, "loop", None)
    if app is None or not app.is_running or loop is None or app.future is None \
            or app.future.done():
        return False

    def leave() -> None:
        if app.future is not None and not app.future.done():
            app.exit(exception=exc)

    try:
        loop.call_soon_threadsafe(leave)  # wakes the loop, wherever it waits
    except RuntimeError:  # the loop is closed: no line is being read any more
        return False
    return True


class LineReader:
    """Reads the player's lines: `reader(prompt)` for an answer (a name, yes or no, Enter),
    `reader.command(prompt, seat)` for a command at the table, which is remembered and
    completed. `moves` (set by the session) lists the legal moves for Tab."""

    def __init__(self, game_id: str, *, private_seats: bool = False, plain: bool = False,
                 fallback: Callable[[str], str] | None = None):
        from boardct.cli.terminal import read_line

        self.game_id = game_id
        self.private_seats = private_seats  # hot-seat with hidden information: see the module
        self.fallback = fallback or read_line
        self.moves: Moves = lambda: ()
        self._sessions: dict[Any, Any] = {}
        # `plain`: never edit (`--classic`, the earlier tool's screen byte for byte)
        self.editing = not plain and both_terminals() and self._available()

    @staticmethod
    def _available() -> bool:
        try:
            import prompt_toolkit  # noqa: F401
        except ImportError:  # pragma: no cover - a dependency; kept for broken installs
            return False
        return True

    def __call__(self, prompt: str) -> str:
        """An answer: edited like a command, but neither remembered nor completed."""
        if not self.editing:
            return self.fallback(prompt)
        return self._read(self._session(None), prompt, complete=False)

    def command(self, prompt: str, seat: int | None = None) -> str:
        """A command at the table of `seat` (the player who types it)."""
        if not self.editing:
            return self.fallback(prompt)
        key = seat if self.private_seats else "game"
        return self._read(self._session(key), prompt, complete=True)

    def _read(self, session: Any, prompt: str, complete: bool) -> str:
        try:
            return str(session.prompt(prompt, completer=self._completer() if complete else None))
        except (OSError, RuntimeError, ValueError):  # the terminal went away under us
            raise EOFError from None

    def _session(self, key: Any) -> Any:
        session = self._sessions.get(key)
        if session is None:
            session = self._sessions[key] = self._new_session(key)
        return session

    def _new_session(self, key: Any) -> Any:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import DummyHistory, FileHistory, InMemoryHistory

        # answers (None) are not remembered; a seat's commands in memory; the game's in a file
        history: Any = DummyHistory() if key is None else InMemoryHistory()
        if key == "game":
            path = history_file(self.game_id)
            with contextlib.suppress(OSError):
                if path is not None:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    if path.exists() and path.stat().st_size > MAX_HISTORY_BYTES:
                        path.unlink()
                    history = FileHistory(str(path))
        return PromptSession(history=history, complete_while_typing=False,
                             enable_history_search=False,
                             mouse_support=False)

    def _completer(self) -> Any:
        from prompt_toolkit.completion import Completer, Completion

        moves = self.moves

        class TableCompleter(Completer):
            def get_completions(self, document: Any, complete_event: Any) -> Iterator[Any]:
                typed = document.text_before_cursor
                for text, display, meta in matches(typed, moves()):
                    yield Completion(text, start_position=-len(typed), display=display,
                                     display_meta=meta)

        return TableCompleter()

