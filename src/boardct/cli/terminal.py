"""The terminal front end: hot-seat play, play against the computer, scripts and replays.

It knows games only through the core API: `render`/`render_rich`, `prompt`, `parse`, `apply`,
`describe`, `events_for`, `outcome` and the game's `help_text`. Help at the table (`moves`,
`hint`, `preview CMD`/`?CMD`, `undo`, `status`, `save`, `quit`, `resign`) is `core.table`'s,
offered in every game after the game's own commands; a line the game reads is the game's.
A game's suspend and resume commands arrive as the core's SUSPEND and RESUME events; the
terminal asks for the file.

A referee that crashes or leaks cannot be trusted with a game, so the terminal:
- reads input bounded, and refuses (one line, nothing changed) what is not UTF-8 text, holds
  control characters, or is longer than `MAX_LINE`;
- prints what happened only through `State.events_for`, for the player who reads it (in
  hot-seat games with hidden information: the acting player before the hand-over, the next one
  after it), and wipes the scrollback at the hand-over, not just the screen;
- never loses a game: a save that fails (a missing folder, a read-only one, a bad file name) is
  reported and play goes on; when the game ends by Ctrl-D, Ctrl-C, SIGTERM, SIGHUP (the window
  closed) or an unexpected error, the game is saved, in the save file or else in the current
  folder, the user data folder or the temporary folder, and the player is told where.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import io
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.cells import cell_len
from rich.console import Console
from rich.control import Control, ControlType
from rich.segment import Segment
from rich.text import Text

from boardct.agents import make as make_agent
from boardct.agents.base import Agent
from boardct.cli.ext import game_hook, game_legend
from boardct.cli.history import Keeper, data_dir
from boardct.cli.prompt import stop_reading
from boardct.cli.wrap import reflow, wrap_lines
from boardct.core import inputs, moves, table
from boardct.core.errors import BoardctError
from boardct.core.game import MESSAGE, RESUME, SUSPEND, Event, State
from boardct.core.inputs import ascii_int
from boardct.core.records import MAX_NAME, Record, load_state, record_of, replay
from boardct.core.rng import fresh_seed

Ask = Callable[[str], str]

QUIET_EVENTS = frozenset({"turn"})  # shown by the screen itself
MAX_LINE = 4096  # characters in one typed line: no command or file name needs more
NOT_UTF8 = "\udcff"  # what `read_line` returns for a line it could not decode at all
# The signals that end a game at the terminal, which is then saved as Ctrl-D saves it: SIGHUP
# when the terminal window closes (POSIX), SIGBREAK when the console closes (Windows).
LEAVING_SIGNALS = ("SIGTERM", "SIGHUP", "SIGBREAK")
# How often a question is asked again after an answer that is neither yes nor no: then the
# answer is no, so that nothing is carried out on a guess and a stuck input cannot loop.
CONFIRM_TRIES = 3
# Who gives `hint`s: the top of the strength ladder (agents/levels.py), the strongest search
# at about a CPU second a move (less when the move is clear).
DEFAULT_HINT_AGENT = "level=5"


class _Wipe(Control):
    """Home, clear the screen (ESC[2J) and the scrollback (ESC[3J). Rich's `Console.clear`
    sends only 2J, which leaves the previous player's screen in the scrollback of GNOME
    Terminal, Windows Terminal and others. Rich's legacy Windows console renders the CLEAR
    and HOME codes of the segment through the console API instead of the text."""

    def __init__(self) -> None:
        super().__init__(ControlType.HOME, ControlType.CLEAR)
        self.segment = Segment("\x1b[H\x1b[2J\x1b[3J", None, self.segment.control)


class Leave(BaseException):  # not an error: the player's terminal is going away
    """A signal that ends the game at the terminal (SIGTERM, SIGHUP): save it and leave.
    A BaseException, so that no `except Exception` on the way swallows it."""

    def __init__(self, signum: int):
        self.signum = signum
        super().__init__(signal_name(signum))


def signal_name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


# -- input and output streams -------------------------------------------------------------------
def prepare_streams(stdin: bool = True) -> None:
    """Make the standard streams unable to crash the terminal: output that the terminal's
    encoding cannot show is written escaped (`\\xeb`) instead of raising, and input bytes that
    are not UTF-8 arrive as lone surrogates (which `line_problem` refuses) instead of raising
    UnicodeDecodeError in the middle of a game."""
    streams = [(sys.stdout, "backslashreplace"), (sys.stderr, "backslashreplace")]
    if stdin:
        streams.append((sys.stdin, "surrogateescape"))
    for stream, errors in streams:
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is None:
            continue
        with contextlib.suppress(ValueError, OSError, io.UnsupportedOperation):
            reconfigure(errors=errors)


def stdin_is_terminal() -> bool:
    """Whether standard input is a terminal; False when it is closed (`<&-`) or absent."""
    stdin = sys.stdin
    try:
        return stdin is not None and not stdin.closed and stdin.isatty()
    except (ValueError, OSError, AttributeError):
        return False


def read_line(prompt: str) -> str:
    """One line typed by the player, without its line end. EOFError when input has ended or
    standard input is closed or broken. A line longer than `MAX_LINE` is read in bounded
    pieces, its rest dropped, and returned over-long so that it is refused; a line that cannot
    be decoded at all is returned as `NOT_UTF8`."""
    stdin = sys.stdin
    if stdin is None or getattr(stdin, "closed", False):
        raise EOFError
    try:
        if stdin_is_terminal():
            return input(prompt)  # keeps line editing; the terminal bounds a line itself
        out = sys.stdout
        if out is not None:
            out.write(prompt)
            out.flush()
        line = stdin.readline(MAX_LINE + 1)
        if not line:
            raise EOFError
        if len(line) > MAX_LINE and not line.endswith("\n"):
            rest = line
            while rest and not rest.endswith("\n"):  # drop the rest, a bounded piece at a time
                rest = stdin.readline(MAX_LINE)
        return line.rstrip("\r\n")
    except UnicodeDecodeError:
        return NOT_UTF8
    except (OSError, ValueError, RuntimeError):  # the terminal went away; input() lost stdin
        raise EOFError from None


def is_unicode(text: str) -> bool:
    """False for text holding lone surrogates: bytes that were not UTF-8 on input."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def line_problem(text: str) -> str | None:
    """Why a typed line cannot be a command or an answer (None: it can). Lines reach the games
    only as printable Unicode text of bounded length: the same text a record can hold."""
    if len(text) > MAX_LINE:
        return f"a line of more than {MAX_LINE:,} characters"
    if not is_unicode(text):
        return "the line is not UTF-8 text"
    for ch in text:
        if not ch.isprintable() and ch != "\t":
            return f"the line holds a control character (U+{ord(ch):04X})"
    return None


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's name (None: it can): the rule records keep (printable
    text of at most `MAX_NAME` characters), so that every save of the game can be written and
    read back."""
    if not is_unicode(name):
        return "is not UTF-8 text"
    if len(name) > MAX_NAME:
        return f"is longer than {MAX_NAME} characters"
    if not name.isprintable():
        return "holds a control character"
    return None


def shown(text: str) -> str:
    """`text` safe to print: characters that are not printable (escape sequences a parse error
    may quote back, lone surrogates) are written as Python escapes, nothing cut."""
    return inputs.shown(text, None, quote=False)


def fits(board: Text, size: tuple[int, int]) -> bool:
    """Whether `board` and the prompt line under it fit a screen of `size` (columns, lines).
    Blank lines at its end count: they are printed too."""
    columns, rows = size
    lines = board.plain.split("\n")
    return len(lines) + 1 <= rows and all(cell_len(line) <= columns for line in lines)


def wants_color(console: Console, color: str) -> bool:
    """`--color always`, or `auto` on a terminal that shows colour."""
    return color == "always" or (color == "auto" and console.is_terminal
                                 and console.color_system is not None)


def make_console(color: str, file=None) -> Console:
    """Rich console for `--color auto|always|never` (Rich also handles Windows terminals)."""
    if color == "always":
        return Console(file=file, force_terminal=True, highlight=False, soft_wrap=True)
    if color == "never":  # no colours, but still a terminal: the hand-over wipes the screen
        return Console(file=file, no_color=True, color_system=None, highlight=False,
                       soft_wrap=True)
    return Console(file=file, highlight=False, soft_wrap=True)


# -- keeping the game ----------------------------------------------------------------------------
def default_save_name(state: State, folder: Path | None = None) -> str:
    """`boardct-GAME-YYYYmmdd-HHMMSS.json`, with `-2`, `-3`... when `folder` (default: the
    current one) already holds that name: a save never overwrites another game's file."""
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    base = f"boardct-{state.game.id}-{stamp}"
    name = f"{base}.json"
    where = folder if folder is not None else Path()
    for n in range(2, 1000):
        try:
            if not (where / name).exists():
                return name
        except OSError:  # a folder that cannot be looked into: the save will say why
            return name
        name = f"{base}-{n}.json"
    return name


def user_data_dir() -> Path | None:
    """boardct's data folder: platformdirs' user data folder, or $BOARDCT_DATA_DIR (None
    where the platform gives none)."""
    return data_dir()


def save_places(state: State, first: Path | None) -> list[Path]:
    """Where a game is saved, in order: the file asked for, a new file in the current folder,
    in the user data folder, in the temporary folder."""
    places = [first] if first is not None else []
    places.append(Path(default_save_name(state)))
    data = user_data_dir()
    if data is not None:
        places.append(data / default_save_name(state, data))
    with contextlib.suppress(OSError):  # no temporary folder at all
        temp = Path(tempfile.gettempdir())
        places.append(temp / default_save_name(state, temp))
    out: list[Path] = []
    for p in places:
        if p not in out:
            out.append(p)
    return out


def path_problem(name: str) -> str | None:
    """Why `name` cannot be a file name (None: it may be one)."""
    if "\x00" in name:
        return "a file name cannot hold a NUL character"
    problem = line_problem(name)
    return problem.replace("the line", "the name") if problem is not None else None


def save_record(state: State, path: Path, seats: list[str | None] | None = None) -> None:
    """Write the game's record to `path` (Record.save is atomic and leaves no stray `.tmp`),
    with who plays each seat (`seats`, see `Session.seats`) so that a resume keeps them.
    Raises OSError or ValueError (a NUL in the name, text the file system cannot hold)."""
    record_of(state, seats).save(path)


def reason_of(exc: BaseException) -> str:
    return shown(getattr(exc, "strerror", None) or str(exc) or type(exc).__name__)


def keep_game(state: State, first: Path | None,
              seats: list[str | None] | None = None) -> tuple[Path | None, list[str]]:
    """Save the game in the first of `save_places` that works. Returns the path (None: no
    place worked) and one line per place that failed."""
    failed = []
    data = user_data_dir()
    for path in save_places(state, first):
        try:
            if data is not None and path.parent == data:
                data.mkdir(parents=True, exist_ok=True)  # the first rescue on this machine
            save_record(state, path, seats)
        except (OSError, ValueError) as exc:
            failed.append(f"Could not save to {shown(str(path))}: {reason_of(exc)}.")
            continue
        return path, failed
    return None, failed


# -- what happened, for whom -----------------------------------------------------------------------
@dataclass
class Said:
    """What one action (or message) said: public `lines`, then the action's `events` as they
    are kept until someone reads them, with the state right after them (`after`), so that
    each reader gets only what `events_for` lets them see."""

    lines: list[str] = field(default_factory=list)
    events: Sequence[Event] = ()
    after: State | None = None

    def for_viewer(self, viewer: int | None) -> list[str]:
        out = list(self.lines)
        if self.events and self.after is not None:
            try:
                seen = self.after.events_for(self.events, viewer)
            except NotImplementedError:
                seen = []  # a game without its filter yet: say nothing rather than leak
            out += [self.after.describe(ev) for ev in seen if ev[0] not in QUIET_EVENTS]
        return out


def tell(said: Sequence[Said], viewer: int | None) -> list[str]:
    """The lines `viewer` (None: a spectator) may read about `said`."""
    out: list[str] = []
    for s in said:
        out += s.for_viewer(viewer)
    return out


@dataclass
class Step:
    """What one typed line did: `kind` is ok, rejected, help, suspended or resumed. `lines` are
    what the player who typed it sees; `said` keeps them (with the events) for other readers."""

    kind: str
    lines: list[str] = field(default_factory=list)
    path: Path | None = None
    said: list[Said] = field(default_factory=list)
    player: int | None = None


class Session:
    """One game at the terminal: the state, who the computer plays, and how to show things.
    `spectator` shows every board as a spectator sees it (replays of unfinished games with
    hidden information)."""

    def __init__(self, state: State, console: Console, *, color: bool = False,
                 computer: dict[int, Agent] | None = None, save_path: Path | None = None,
                 spectator: bool = False, classic: bool = False, confirm: bool = True,
                 history: Keeper | None = None, specs: dict[int, str] | None = None):
        self.state = state
        self.classic = classic  # the earlier tool's screen: board and prompt, nothing more
        self.confirm = confirm  # ask before carrying out a command that breaks a rule
        self._script = False  # script mode: nobody to ask
        self.console = console
        self.color = color
        self.computer = computer or {}
        self.save_path = save_path
        self.spectator = spectator
        self.history = history  # keeps the game in `boardct history` (None: not kept)
        self.specs = specs or {}  # the agent spec of each computer seat, for the record
        self._save_warned = False  # the --save file failed and the player was told
        self._save_failed = False  # the last save to --save failed
        self._interruptible = False  # inside a read or an agent's thought: safe to leave now
        self._pending: int | None = None  # a signal that came while the state was changing
        self.hint_agent = DEFAULT_HINT_AGENT  # who gives `hint`s, and its seed (below)
        self.hint_seed: int | None = None  # None: a fresh seed per session (not the game's)
        self._completions: tuple[object, list[tuple[str, str]]] = (None, [])
        self.last_move: str | None = None  # the computer's last move, shown under the board
        self.last_targets: tuple[str, ...] = ()  # and the board elements it involved

    # -- showing -------------------------------------------------------------------------------
    def eyes(self, player: int | None) -> int | None:
        """Whose secrets `player` may see on screen: nobody's in perfect-information games."""
        if self.spectator or self.state.game.perfect_information:
            return None
        return player

    def viewer(self) -> int | None:
        """Whose eyes the board is drawn for: nobody's secrets in perfect-information games."""
        if self.spectator or self.state.game.perfect_information:
            return None
        humans = [p for p in self.state.iter_players() if p not in self.computer]
        if len(humans) == 1:
            return humans[0]
        players = self.state.current_players()
        return players[0] if players else None

    def show_board(self) -> None:
        """The board, never wrapped: on a terminal too small for it (with the prompt under
        it), the game's compact board instead (`State.render_compact`)."""
        viewer = self.viewer()
        board = self.state.render_rich(viewer) if self.color else Text(self.state.render(viewer))
        if self.console.is_terminal and not fits(board, self.console.size):
            board = self.state.render_compact(viewer)
            if not self.color:
                board = Text(board.plain)
        if self.last_targets and not self.classic:
            board = self.mark_last_move(board)
        if self.console.is_terminal:  # a line still too wide is cut between words
            width = self.console.width
            rows = board.split("\n", allow_blank=True)
            if any(cell_len(row.plain) > width for row in rows):
                board = Text("\n").join(part for row in rows for part in
                                        row.wrap(self.console, width, overflow="fold"))
        self.console.print(board, soft_wrap=True)

    def show_status(self) -> None:
        """The game's status line, between the board and the prompt (not with --classic)."""
        line = "" if self.classic else self.state.status_line()
        if line:
            self.say([line], "bold")

    def end_line(self) -> str:
        out = self.state.outcome
        if out is not None:  # the players by name, as `boardct history` calls them (the
            # earlier tool's screen, --classic, said "Player N")
            return f"Result: {out.describe(() if self.classic else self.state.setup.names)}"
        # a game's prompt may name what a spectator may not know (who is still to hand in)
        return "The game goes on." if self.spectator else self.state.prompt()

    def print_end(self) -> None:
        """Print `end_line` under the board, but a result only once: some games' boards
        already end with the same "Result: ..." line."""
        line = self.end_line()
        if self.state.is_over and any(row.startswith("Result: ") for row in
                                      self.state.render(self.viewer()).splitlines()):
            return  # the game's own screen says it (FieldShift's, as the earlier tool did)
        self.say([line])

    def say(self, lines: list[str], style: str | None = None, block: bool = False) -> None:
        """Messages and event lines: on a terminal they wrap between words to its width
        (never mid-word, as the terminal itself would), continuations indented under the text
        they continue; written to a file or a pipe each stays one line."""
        style = style if self.color else None
        width = self.console.width if self.console.is_terminal else None
        texts = [shown(text) for text in lines]
        # a pre-formatted block (`help`) is re-flowed; anything else is wrapped line by line
        for part in reflow(texts, width) if block else wrap_lines(texts, width):
            self.console.print(Text(part, style=style or ""), soft_wrap=True)

    def wipe(self) -> None:
        """Clear the screen and the terminal's scrollback (the hand-over between players)."""
        self.console.control(_Wipe())

    def player_name(self, player: int) -> str:
        return self.state.setup.names[player] or f"Player {player + 1}"

    # -- one line of input ---------------------------------------------------------------------
    def handle(self, text: str, ask: Ask) -> Step:
        """Apply one typed line. Dialogue answers (a file name) are read with `ask`."""
        problem = line_problem(text)
        if problem is not None:
            return Step("rejected", [f"Rejected: {problem}; nothing changed."])
        token = text.replace("\t", " ").strip()
        if token.lower() in ("help", "?"):
            return Step("help", help_lines(self.state))
        at_table = self._table_command(token, ask)
        if at_table is not None:
            return at_table
        players = self.state.current_players()
        if not players:
            return Step("rejected", ["The game is over."])
        player = players[0]
        try:
            action = self.state.parse(token, player)
            refused = self._confirm_breach(action, player, ask)
            if refused is not None:
                return refused
            before = self.state.clone()
            events = moves.act(self.state, player, action, entry=False).events
        except BoardctError as exc:
            return Step("rejected", [f"Rejected: {exc}"])
        for ev in events:
            if ev[0] == SUSPEND:
                return self._suspend(ask)
            if ev[0] == RESUME:
                return self._resume(ask)
        said = self._played(before, player, action, events)
        return Step("ok", said.for_viewer(self.eyes(player)), said=[said], player=player)

    def _confirm_breach(self, action, player: int, ask: Ask) -> Step | None:
        """Before carrying out a command that breaks a rule (in a game whose violations are
        carried out and may be disputed), ask the person: a slip of the finger must not hand
        the opponent a winning dispute. None: go on (lawful, confirmed, --no-confirm, or a
        script, which never asks); else the Step of a denial, which changes nothing."""
        if not self.confirm or self._script:
            return None
        breach = self.state.breach(action, player)
        if breach is None:
            return None
        if breach.consequence:
            self.say([breach.consequence])
        for _ in range(CONFIRM_TRIES):
            answer = ask(breach.question()).strip()
            if answer == breach.confirm:
                return None
            if answer == breach.deny or not answer:  # Enter alone: the safe answer
                break
            self.say([f"Answer {breach.confirm} to carry it out or {breach.deny} not to."])
        return Step("rejected", ["Not carried out; nothing changed."])

    # -- help at the table (core/table.py) -----------------------------------------------------
    def _table_command(self, token: str, ask: Ask) -> Step | None:
        """`moves`, `hint`, `preview CMD`/`?CMD`, `undo`, `status`, `save`, `quit`, `resign`;
        None when `token` is none of them, or when the game reads it as one of its own
        commands (a game's own words win)."""
        word, _, rest = token.partition(" ")
        word = word.lower()
        if token.startswith("?") and len(token) > 1:
            word, rest = "preview", token[1:]
        if word not in TABLE_WORDS or self._game_reads(token):
            return None
        try:
            return getattr(self, f"_cmd_{word}")(rest.strip(), ask)
        except BoardctError as exc:
            return Step("rejected", [f"Rejected: {exc}"])

    def _game_reads(self, token: str) -> bool:
        players = self.state.current_players()
        if not players:
            return False
        try:
            self.state.parse(token, players[0])
        except BoardctError:
            return False
        return True

    def _deciding(self) -> int:
        players = self.state.current_players()
        if not players:
            raise BoardctError("the game is over")
        return players[0]

    def _cmd_moves(self, rest: str, ask: Ask) -> Step:
        if self.state.is_over:
            return Step("help", ["No legal moves: the game is over."])
        return Step("help", table.moves_lines(self.state, self._deciding(), rest))

    def _cmd_hint(self, rest: str, ask: Ask) -> Step:
        if rest:
            return Step("rejected", ["Rejected: 'hint' takes nothing after it."])
        player = self._deciding()
        if self.hint_seed is None:
            self.hint_seed = fresh_seed()
        self._interruptible = True  # the agent thinks on a copy: safe to leave now
        try:
            self._raise_pending()
            seed = self.hint_seed + len(self.state.history())
            with self.thinking(None, "The computer is thinking of a hint"):
                got = table.hint(self.state, make_agent(self.hint_agent, seed=seed), player,
                                 seed=seed, label=self.hint_agent)
        finally:
            self._interruptible = False
        return Step("help", got.lines())

    def _cmd_preview(self, rest: str, ask: Ask) -> Step:
        if not rest:
            return Step("rejected", ["Rejected: preview what? e.g. 'preview CMD' or '?CMD'."])
        player = self._deciding()
        action = self.state.parse(rest, player)
        return Step("help", table.preview(self.state, action, player,
                                          seed=len(self.state.history())).lines())

    def _cmd_status(self, rest: str, ask: Ask) -> Step:
        own = self.state.status_line()
        line = table.summary_line(self.state, self.eyes(self.viewer()))
        return Step("help", [line] + ([own] if own else []))

    def _save_to(self, rest: str) -> tuple[Path | None, list[str]]:
        problem = path_problem(rest) if rest else None
        if problem is not None:
            return None, [f"Could not save: {problem}; the game goes on."]
        path = Path(rest) if rest else self.save_path or Path(default_save_name(self.state))
        try:
            save_record(self.state, path, self.seats())
        except (OSError, ValueError) as exc:
            return None, [f"Could not save to {shown(str(path))}: {reason_of(exc)}; the game "
                          "goes on."]
        return path, []

    def _cmd_save(self, rest: str, ask: Ask) -> Step:
        path, lines = self._save_to(rest)
        if path is None:
            return Step("rejected", lines)
        return Step("help", [f"Game saved to {path}. Resume with: boardct play "
                             f"{self.state.game.id} --resume {path}"], path)

    def _cmd_quit(self, rest: str, ask: Ask) -> Step:
        if self.state.is_over:
            return Step("suspended", ["The game is over; goodbye."])
        path, lines = self._save_to(rest)
        if path is None:
            return Step("rejected", lines)
        return Step("suspended", [f"Game saved to {path}. Resume with: boardct play "
                                  f"{self.state.game.id} --resume {path}"], path)

    def seat(self, player: int) -> str:
        """"Ann (Player 1)", or "Player 1" for a player without a name."""
        name = self.state.setup.names[player]
        return f"{name} (Player {player + 1})" if name else f"Player {player + 1}"

    def _agrees(self, ask: Ask, who: int, question: str) -> bool:
        """Ask `who` a yes/no question, answered with the game's confirm/deny words (or y/n);
        an empty answer is no, and so is a third answer that is neither."""
        yes, no = self.state.game.confirm_words
        for _ in range(CONFIRM_TRIES):
            answer = ask(f"{self.seat(who)}, {question} {yes}/{no} ").strip().lower()
            if answer in (yes, "yes", "y") and answer != no:
                return True
            if answer in (no, "no", "n", ""):
                return False
            self.say([f"Answer {yes} (yes) or {no} (no)."])
        return False

    def _cmd_resign(self, rest: str, ask: Ask) -> Step:
        if rest:
            return Step("rejected", ["Rejected: 'resign' takes nothing after it."])
        player = self._deciding()
        if player in self.computer:
            return Step("rejected", ["Rejected: it is the computer's decision."])
        if not self._agrees(ask, player, "resign the game?"):
            return Step("rejected", ["Not resigned; the game goes on."])
        before = self.state.clone()
        done = moves.resign(self.state, player)  # the game's own concession where it has one
        action, events = done.action, done.events
        if action is not None:
            said = self._played(before, player, action, events)
        else:
            said = Said([], list(events), self.state.clone())
            said.lines += self.autosave()
        return Step("ok", said.for_viewer(self.eyes(player)), said=[said], player=player)

    def _cmd_undo(self, rest: str, ask: Ask) -> Step:
        if rest:
            return Step("rejected", ["Rejected: 'undo' takes nothing after it."])
        if self.state.is_over:
            return Step("rejected", ["Rejected: the game is over."])
        done = self.state.history()
        if not done:
            return Step("rejected", ["Rejected: no move has been made yet."])
        mover, count, refused = self._undo_asker(done)
        if refused is not None:
            return Step("rejected", [refused])
        problem = table.undo_problem(self.state, count)
        if problem is not None:
            return Step("rejected", [f"Rejected: cannot undo: {problem}."])
        what = "their move" if count == 1 else f"their move and the reply ({count} actions)"
        for other in self.state.iter_players():
            if other == mover or other in self.computer:
                continue
            if not self._agrees(ask, other, f"allow {self.seat(mover)} to take back {what}?"):
                return Step("rejected", [f"{self.player_name(other)} said no; nothing was "
                                         "taken back."])
        self.state = moves.take_back(self.state, count).state
        lines = [f"Taken back: {count} action{'s' if count != 1 else ''}."] + self.autosave()
        return Step("ok", lines, said=[Said(list(lines))], player=mover)

    def _undo_asker(self, done: list) -> tuple[int, int, str | None]:
        """Who asks to take back what: the player to decide asks to take back their own last
        move and everything since (the reply); the other players are asked. In a game
        without hidden information a player who has not moved yet may instead ask, for the
        player who just moved, to take that move back (the keyboard is shared and the board
        open). Never anyone else's hidden action: (asker, count, why not)."""
        asker = self._deciding()
        if asker in self.computer:
            return asker, 0, "Rejected: it is the computer's decision."
        count = table.undo_count(self.state, asker, {p for p in self.state.iter_players()
                                                     if p != asker})
        if count:
            taken = done[len(done) - count:]
            if not self.state.game.perfect_information and any(
                    who != asker and who not in self.computer for who, _ in taken):
                return asker, 0, ("Rejected: that would take back another player's hidden "
                                  "move; only its player may ask for that.")
            return asker, count, None
        if self.computer or not self.state.game.perfect_information:
            return asker, 0, "Rejected: you have made no move to take back."
        return done[-1][0], 1, None

    def _played(self, before: State, player: int, action, events: list,
                lines: list[str] | None = None) -> Said:
        """After an action: tell the agents, keep the save file, and keep what happened for
        whoever reads it next."""
        for agent in self.computer.values():
            agent.observe(before, player, action)
        said = Said(list(lines or ()), list(events), self.state.clone())
        said.lines += self.autosave()
        return said

    def _answer(self, ask: Ask, prompt: str) -> tuple[str, str | None]:
        name = ask(prompt)
        problem = path_problem(name)
        return name.strip(), problem

    def _suspend(self, ask: Ask) -> Step:
        default = default_save_name(self.state)
        name, problem = self._answer(ask, f"Save the game to file [{default}]: ")
        if problem is not None:
            return Step("rejected", [f"Could not save: {problem}; the game goes on."])
        path = Path(name or default)
        try:
            save_record(self.state, path, self.seats())
        except (OSError, ValueError) as exc:
            return Step("rejected", [f"Could not save to {shown(str(path))}: {reason_of(exc)}; "
                                     "the game goes on."])
        return Step("suspended", [f"Game saved to {path}. Resume with: boardct play "
                                  f"{self.state.game.id} --resume {path}"], path)

    def _resume(self, ask: Ask) -> Step:
        name, problem = self._answer(ask, "Path of the saved game: ")
        if problem is not None:
            return Step("rejected", [f"Could not resume: {problem}; the game goes on."])
        if not name:
            return Step("rejected", ["No file named; the game goes on."])
        try:
            state = load_state(name)
        except BoardctError as exc:
            return Step("rejected", [f"Could not resume: {exc}"])
        if state.game.id != self.state.game.id:
            return Step("rejected", [f"Could not resume: {name} is a {state.game.title} game"])
        for p, who in enumerate(state.setup.names):
            bad = name_problem(who)
            if bad is not None:
                return Step("rejected", [f"Could not resume: the name of Player {p + 1} {bad}"])
        self.state = state
        lines = [f"Resumed {name}."] + self.autosave()
        return Step("resumed", lines, Path(name), [Said(lines)])

    def computer_moves(self) -> list[Said]:
        """Let the computer decide while it is its turn; what it did, for whoever reads it.
        In games with hidden information the computer's command itself is not shown (it may
        be a secret order sheet): only the events the reader may see. At the keyboard a
        line with the time spent shows while it thinks, and goes when it has moved."""
        said: list[Said] = []
        self.last_move, self.last_targets = None, ()
        while True:
            players = self.state.current_players()
            if not players or players[0] not in self.computer:
                return said
            p = players[0]
            agent = self.computer[p]
            self._interruptible = True  # the agent thinks on a copy: safe to leave now
            try:
                self._raise_pending()
                with self.thinking(p):
                    action = agent.select(self.state.clone(), p)
            finally:
                self._interruptible = False
            text = self.state.notation(action)
            words = self.state.describe_action(action, p)
            before = self.state.clone()
            targets = tuple(before.action_targets(action, p))  # named where it was chosen
            events = moves.act(self.state, p, action, entry=False).events
            # with sealed simultaneous orders not even "played." is said: who else has
            # handed in is the moderator's alone (CTF 2187, CTF-41); the events say what
            # each reader may know once the turn is processed
            head = ([] if self.state.game.simultaneous
                    else [f"Player {p + 1} (computer): {text}"]
                    if self.state.game.perfect_information
                    else [f"Player {p + 1} (computer): played."])
            if self.state.game.perfect_information and not self.state.game.simultaneous:
                plain = "" if words == text else f" ({words})"
                # a turn of several actions (a FieldShift select, then its order) is named
                # whole, as it is marked whole
                if self.last_move is None:
                    self.last_move = f"{self.player_name(p)} played {text}{plain}"
                else:
                    self.last_move += f", {text}{plain}"
            else:  # the move may be secret: only what the reader's events name is marked
                targets = ()
            targets += self.seen_targets(events)  # where it went, what it hit
            # a turn of several actions (Hills) is marked whole
            self.last_targets += tuple(t for t in targets if t not in self.last_targets)
            said.append(self._played(before, p, action, events, head))

    @contextlib.contextmanager
    def thinking(self, player: int | None, what: str = "") -> Iterator[None]:
        """"NAME is thinking... 3 s" (or `what`) on one line that goes away after, at the
        keyboard only (a script, a pipe or a file gets nothing: there is nobody to wait)."""
        if self._script or not self.console.is_terminal:
            yield
            return
        start = time.monotonic()
        said = what or f"{self.player_name(player if player is not None else 0)} is thinking"

        class Elapsed:
            def __rich__(self) -> Text:
                return Text(f"{said}... {time.monotonic() - start:.0f} s")

        with self.console.status(Elapsed(), spinner="line"):
            yield

    def seen_targets(self, events: Sequence[Event]) -> tuple[str, ...]:
        """The board elements the computer's move involved as far as the reader of the board
        saw them (where a piece went, what it hit): the engine's `State.event_targets` given
        only the events `events_for` lets that reader see (none by default)."""
        eyes = self.eyes(self.viewer())
        try:
            found = self.state.event_targets(self.state.events_for(events, eyes), eyes)
            return tuple(t for t in found if isinstance(t, str))
        except Exception:  # a game's drawing aid must never stop the game
            return ()

    def mark_last_move(self, board: Text) -> Text:
        """The board with the computer's last move marked by the game's `mark_board`, where
        its CLI module has one (`boardct.cli.ext`); a mark that fails leaves the board as it
        is."""
        mark = game_hook(self.state.game.frontends.cli, "mark_board")
        if not callable(mark):
            return board
        try:
            marked = mark(board, self.last_targets)
        except Exception:  # a game's drawing aid must never stop the game
            return board
        return marked if isinstance(marked, Text) else board

    def show_last_move(self) -> None:
        """The computer's move, named, under the board it was made on (perfect information:
        the move is public)."""
        if self.last_move and not self.classic:
            self.say([f"> {self.last_move}"], "bold")

    def seats(self) -> list[str | None]:
        """Who plays each seat, as records keep it: None for a person, the agent's spec
        ("mcts:time=1") for the computer."""
        return [(self.specs.get(p) or self.computer[p].name) if p in self.computer else None
                for p in self.state.iter_players()]

    def record(self) -> Record:
        """The game's record, with its seats."""
        return record_of(self.state, self.seats())

    def autosave(self) -> list[str]:
        """Keep the --save file and the history up to date (see `save_file`, `keep_history`)."""
        return self.save_file() + self.keep_history()

    def keep_history(self, final: bool = False) -> list[str]:
        """Keep the game in `boardct history` (after each action at the keyboard; at the end
        of a script). A failure is a warning, once: the game goes on."""
        if self.history is None:
            return []
        return self.history.keep(self.state, self.record, final=final)

    def save_file(self) -> list[str]:
        """Keep the --save file up to date. A failure never stops the game: the player is
        warned once (the lines returned), and the game is saved elsewhere when they leave."""
        if self.save_path is None:
            return []
        try:
            save_record(self.state, self.save_path, self.seats())
        except (OSError, ValueError) as exc:
            self._save_failed = True
            if self._save_warned:
                return []
            self._save_warned = True
            return [f"Warning: cannot keep the game in {shown(str(self.save_path))}: "
                    f"{reason_of(exc)}. Playing on; when you leave, the game is saved "
                    "elsewhere and you are told where."]
        self._save_failed = False
        return []

    # -- script mode ---------------------------------------------------------------------------
    def run_script(self, lines: list[str], trace: bool) -> int:
        """Apply script tokens (commands and dialogue answers); print the final screen, or with
        `trace` every token, its messages and the board after it. An unexpected error saves
        the game, as at the keyboard."""
        try:
            return self._run_script(lines, trace)
        except Exception as exc:  # a bug must not lose the game either
            return self._leave(f"Internal error ({type(exc).__name__}: {shown(str(exc))})", 1,
                               always=True)
        finally:
            self._history_at_end()

    def _history_at_end(self) -> None:
        """However the session ends, the game is kept in the history (a warning if not)."""
        with contextlib.suppress(OSError, ValueError):  # printing fails: the terminal is gone
            self.say(self.keep_history(final=True))

    def _run_script(self, lines: list[str], trace: bool) -> int:
        tokens = iter(script_tokens(lines))
        self._script = True

        def ask(prompt: str) -> str:
            answer = next(tokens, "")
            if trace:
                self.console.print(f"{prompt}{shown(answer)}", markup=False)
            return answer

        warning = self.autosave()
        self.say(warning)
        self._trace_computer(trace)
        for token in tokens:
            if self.state.is_over:
                if trace:
                    self.console.print(f"(game over: {shown(repr(token))} ignored)", markup=False)
                continue
            if trace:
                self.console.print(f"{self.state.prompt()}{shown(token)}", markup=False)
            step = self.handle(token, ask)
            if trace:
                self.say(step.lines, "red" if step.kind == "rejected" else None)
            else:
                self.say([ln for ln in step.lines if ln.startswith("Warning: ")])
            if step.kind == "suspended":
                if not trace:
                    self.say(step.lines)
                return 0
            self._trace_computer(trace)
            if trace and step.kind != "help":
                self.show_board()
        if not trace:
            self.show_board()
        self.print_end()
        return 0

    def _trace_computer(self, trace: bool) -> None:
        lines = tell(self.computer_moves(), self.eyes(self.viewer()))
        if trace and lines:
            self.say(lines)
            self.show_board()

    # -- interactive play ----------------------------------------------------------------------
    def run_interactive(self, read: Ask, clear: bool = False) -> int:
        """Play at the keyboard until the game ends or the player leaves. However it ends (Ctrl-D,
        Ctrl-C, SIGTERM, SIGHUP, an unexpected error), an unfinished game is saved first, and
        the game is kept in the history."""
        try:
            return self._run_interactive(read, clear)
        finally:
            self._history_at_end()

    def _run_interactive(self, read: Ask, clear: bool) -> int:
        with self._signals():
            try:
                return self._play(read, clear)
            except (EOFError, KeyboardInterrupt):
                return self._leave("Input ended")
            except Leave as exc:
                why = ("The terminal closed (SIGHUP)" if exc.signum == getattr(signal, "SIGHUP", -1)
                       else f"Stopped by {signal_name(exc.signum)}")
                return self._leave(why, 128 + exc.signum)
            except Exception as exc:  # a bug must not lose the game either
                return self._leave(f"Internal error ({type(exc).__name__}: {shown(str(exc))})",
                                   1, always=True)

    def hands_over(self) -> bool:
        """Whether the keyboard passes between people who may not see each other's screen:
        a game with hidden information and more than one person at this terminal."""
        humans = [p for p in self.state.iter_players() if p not in self.computer]
        return not (self.state.game.perfect_information or self.spectator) and len(humans) > 1

    def completions(self) -> list[tuple[str, str]]:
        """The legal moves of the player to decide, in the game's notation with their words,
        for the line editor's Tab (computed once a position; none when the game is over)."""
        players = self.state.current_players()
        if not players or players[0] in self.computer:
            return []
        key = (id(self.state), len(self.state.table_log()), players[0])
        if self._completions[0] != key:
            try:
                found = [(m.text, m.words) for m in table.legal_moves(self.state, players[0])]
            except BoardctError:
                found = []
            self._completions = (key, found)
        return self._completions[1]

    def _play(self, read: Ask, clear: bool) -> int:
        handover = self.hands_over()
        humans = [p for p in self.state.iter_players() if p not in self.computer]
        shown_for: int | None = None
        # what each person has not yet read, kept until their screen is drawn (a hand-over
        # game: the incoming player reads every public event of the other's whole turn)
        unseen: dict[int, list[Said]] = {p: [] for p in humans} if handover else {}
        if hasattr(read, "moves"):
            read.moves = self.completions  # Tab completes the legal moves of the position

        def ask(prompt: str) -> str:
            return self._ask(read, prompt)

        def command(prompt: str, seat: int | None) -> str:
            editor = getattr(read, "command", None)
            if editor is None:
                return self._ask(read, prompt)
            return self._ask(lambda text: editor(text, seat), prompt)

        pending: list[Said] = [Said(self.autosave())] + self.computer_moves()
        printed = 0  # how many of `pending` the player has already read (their own move)
        while True:
            for p in unseen:
                unseen[p] += pending
            if clear:
                self.console.clear()
                printed = 0
            if handover and not self.state.is_over:
                current = self.state.current_players()[0]
                if current != shown_for:
                    if shown_for is not None:
                        mine = tell(pending, shown_for)
                        unseen[shown_for] = []  # read now, before the hand-over
                        if mine:  # what the acting player's last action did, for their eyes
                            self.say(mine)
                            ask(f"{self.player_name(shown_for)}: press Enter to hide the "
                                "screen. ")
                    self.wipe()
                    ask(f"Pass the keyboard to {self.player_name(current)} (Player "
                        f"{current + 1}) and press Enter. ")
                    shown_for = current
                    if clear:
                        self.console.clear()
            viewer = self.viewer()
            if self.classic:  # the earlier tool printed no event lines (FS-23)
                self.say([line for said in pending[printed:] for line in said.lines])
            else:
                if not self.state.is_over and viewer in unseen:
                    lines = tell(unseen[viewer], self.eyes(viewer))
                else:
                    lines = tell(pending[printed:], self.eyes(viewer))
                if self.state.is_over:  # the result is said once, under the final board
                    end = self.end_line()
                    lines = [ln for ln in lines if ln != end]
                self.say(lines)
            if viewer in unseen:
                unseen[viewer] = []
            pending = []
            printed = 0
            self.show_board()
            self.show_last_move()
            self.show_status()
            if self.state.is_over:
                self.print_end()
                self.say(self.autosave())
                if self._save_failed:
                    return self._leave("The game is over but its save file failed")
                return 0
            while True:
                seat = self.state.current_players()[0]
                step = self.handle(command(self.state.prompt(), seat), ask)
                if step.kind == "rejected":
                    self.say(step.lines, "red")
                    continue
                if step.kind == "help":
                    self.say(step.lines, block=True)
                    continue
                if step.kind == "suspended":
                    self.say(step.lines)
                    return 0
                pending = list(step.said)
                if self._computer_next() and not self.classic:
                    # the player's own move is read before the computer thinks about it
                    self.say(tell(pending, self.eyes(self.viewer())))
                    printed = len(pending)
                pending += self.computer_moves()
                break

    def _computer_next(self) -> bool:
        players = self.state.current_players()
        return bool(players) and players[0] in self.computer

    def _ask(self, read: Ask, prompt: str) -> str:
        """`read`, during which a signal ends the game at once (elsewhere it waits until the
        state is whole again)."""
        self._interruptible = True
        try:
            self._raise_pending()
            return read(prompt)
        finally:
            self._interruptible = False

    def _raise_pending(self) -> None:
        signum, self._pending = self._pending, None
        if signum is None:
            return
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise Leave(signum)

    def _on_signal(self, signum: int, frame) -> None:
        if not self._interruptible:
            self._pending = signum  # the state is changing: leave at the next read
            return
        self._interruptible = False
        exc: BaseException = KeyboardInterrupt() if signum == signal.SIGINT else Leave(signum)
        if stop_reading(exc):  # the line editor's prompt raises it, once its loop is left
            return
        raise exc

    @contextlib.contextmanager
    def _signals(self) -> Iterator[None]:
        """While playing, SIGINT, SIGTERM, SIGHUP (and SIGBREAK on Windows) end the game by
        saving it. Only the main thread may set handlers; a signal already ignored (nohup)
        stays ignored."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        old = {}
        for name in ("SIGINT", *LEAVING_SIGNALS):
            sig = getattr(signal, name, None)
            if sig is None:
                continue
            try:
                if signal.getsignal(sig) == signal.SIG_IGN:
                    continue
                old[sig] = signal.signal(sig, self._on_signal)
            except (ValueError, OSError):
                continue
        try:
            yield
        finally:
            for sig, handler in old.items():
                with contextlib.suppress(ValueError, OSError, TypeError):
                    signal.signal(sig, handler)

    def _leave(self, why: str, code: int = 0, always: bool = False) -> int:
        """The game ends here: keep an unfinished game (or a finished one whose save file
        failed) and tell the player where it is. Printing may fail (the terminal is gone);
        the saving is done first."""
        self._interruptible = False
        over = self.state.is_over
        if over and not self._save_failed and not always:
            return code
        if not self.state.history():
            with contextlib.suppress(OSError, ValueError):
                self.say(["", f"{why} before any move; nothing to save."])
            return code
        path, lines = keep_game(self.state, self.save_path, self.seats())
        if path is None:
            lines.append(f"{why}; the game could not be saved anywhere. Its record follows: "
                         "copy it into a file to keep it.")
        elif over:
            lines.append(f"{why}; the game was saved to {path}. Replay it with: boardct "
                         f"replay {path}")
        else:
            lines.append(f"{why}; the game was saved to {path}. Resume with: boardct play "
                         f"{self.state.game.id} --resume {path}")
        with contextlib.suppress(OSError, ValueError):
            self.say([""] + lines)
            if path is None:
                self.console.print(record_of(self.state).to_json(), markup=False)
        return code


TABLE_WORDS = frozenset({"moves", "hint", "preview", "undo", "status", "save", "quit", "resign"})

TABLE_HELP = """\
At the table (every game; the game's own commands come first):
  moves [GROUP]    the legal moves, grouped and in words (GROUP: one group in full)
  hint             the computer's suggestion, its evaluation and the line it expects
  preview CMD      what CMD would do, without doing it (also ?CMD); with chance or hidden
                   information: the outcomes and their odds, from what you can see
  undo             take back your last move and the reply; the other must agree {yes}/{no}
                   (right after a move, the one who made it may ask)
  status           where the game stands
  save [FILE]      save the game and play on
  quit [FILE]      save the game and leave
  resign           concede the game (you are asked to confirm)"""


KEYS_HELP = [
    "Keys (at a terminal): Left/Right edit the line, Up/Down recall earlier lines, Ctrl-R",
    "  searches them, Tab completes a command or a legal move (with what it does).",
]


def help_lines(state: State) -> list[str]:
    """`help`: the game's own command reference, how to read its board (the legend of its CLI
    module, where it has one), then the commands at the table and the line editor's keys."""
    own = (state.game.help_text or "No command reference.").rstrip("\n").split("\n")
    legend = game_legend(state.game.frontends.cli)
    if legend:
        own += [""] + legend.split("\n")
    yes, no = state.game.confirm_words
    return own + [""] + TABLE_HELP.format(yes=yes, no=no).split("\n") + [""] + KEYS_HELP


def script_tokens(lines: list[str]) -> Iterator[str]:
    """Tokens one per line; blank lines and # comments are skipped."""
    for line in lines:
        text = line.split("#", 1)[0].strip()
        if text:
            yield text


# -- replay ----------------------------------------------------------------------------------
@dataclass
class Replayed:
    """A game stepped through from its record: every position from the start (`frames`), and
    for each step the action's text, who acted and the events it caused (`said[k]` holds the
    events of the step into `frames[k + 1]`, with that state, for `Said.for_viewer`)."""

    frames: list[State]
    texts: list[str]
    actors: list[int]
    said: list[Said]


def positions(state: State) -> Replayed:
    """Every position of a finished or saved game from the start, and the steps between."""
    record = record_of(state)
    start = replay(record, upto=0)
    frames, said = [start], []
    cur = start.clone()
    for text in record.actions:
        table_entry = record.version >= 2 and moves.is_table_entry(text)
        done = moves.apply_entry(cur, text, table=record.version >= 2)
        cur = done.state
        events: list[Event] = ([(MESSAGE, f"({text.strip()})")] if table_entry
                               else done.events)
        after = cur.clone()
        frames.append(after)
        said.append(Said(events=list(events), after=after))
    actors = [p for p, _ in cur.history()]
    if len(actors) != len(record.actions):  # a game whose entries are not one action each:
        actors = [-1] * len(record.actions)  # show the steps as a spectator sees them
    return Replayed(frames, list(record.actions), actors, said)


def step_lines(session: Session, replayed: Replayed, k: int) -> list[str]:
    """What step k (the step into position k) did, in words: its events as `describe` puts
    them, filtered by `events_for` for the player who acted (a spectator in spectator mode,
    anyone in a perfect-information game)."""
    if k < 1:
        return []
    actor = replayed.actors[k - 1]
    return replayed.said[k - 1].for_viewer(session.eyes(actor if actor >= 0 else None))


def run_replay(state: State, console: Console, color: bool, read: Ask,
               spectator: bool = False) -> int:
    """Step through a game: Enter or n next, p previous, a number jumps there, e end, q quit.
    Each step shows what it did in words, then the board. With `spectator`, every position
    and event is shown as a spectator sees it."""
    replayed = positions(state)
    frames, texts = replayed.frames, replayed.texts
    k = 0
    session = Session(frames[0], console, color=color, spectator=spectator)
    while True:
        session.state = frames[k]
        # a spectator is not told the moves of a game with hidden information (they may be
        # secret orders); the boards and the events show what became public
        last = "start" if not k else f"after {k}" if spectator else f"after {k}: {texts[k - 1]}"
        session.say([f"--- move {k} of {len(texts)} ({last}) ---"])
        session.say(["  " + line for line in step_lines(session, replayed, k)])
        session.show_board()
        session.print_end()
        try:
            cmd = read("[Enter/n next, p previous, NUMBER jump, e end, q quit] ").strip().lower()
        except EOFError:
            return 0
        number = ascii_int(cmd)
        if cmd in ("", "n"):
            k = min(k + 1, len(texts))
        elif cmd == "p":
            k = max(k - 1, 0)
        elif cmd == "e":
            k = len(texts)
        elif cmd == "q":
            return 0
        elif number is not None:
            k = max(0, min(number, len(texts)))
        else:
            session.say([f"Unknown key {repr(cmd[:40])}."])
