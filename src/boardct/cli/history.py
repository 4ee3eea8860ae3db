"""The game history: every game played at the terminal is kept, finished or abandoned, without
`--save`, so that `boardct history` can list it and `boardct replay N` can open it.

Where: `history/` in the user's data folder (platformdirs' `user_data_dir("boardct")`), or in
the folder named by the environment variable `BOARDCT_DATA_DIR` (tests and portable installs
set it, so that nothing is written into the real user folder).

One file per game, a boardct record written atomically (`Record.save`); the file's name comes
from the game's id, start time and seed, so a game resumed and played on replaces its own
entry instead of adding another. Keeping the history never stops a game: a failure is
reported once as a warning and play goes on.

Reading is bounded: the folder is scanned for at most `MAX_SCANNED` names, and each record is
read with `Record.load`'s size limit; a file that cannot be read is listed as a note, with its
number, so the numbers always match `boardct replay N`.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import hashlib
import itertools
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import click
import platformdirs

from boardct.cli.wrap import echo
from boardct.core.errors import BoardctError, RecordError
from boardct.core.game import State
from boardct.core.inputs import ascii_int, shown
from boardct.core.records import Record

ENV_DATA_DIR = "BOARDCT_DATA_DIR"
HISTORY = "history"  # the sub-folder of the data folder
MAX_SCANNED = 100_000  # names looked at in the history folder: far more than anyone plays
DEFAULT_LISTED = 20  # games `boardct history` shows unless asked for more


# -- where ---------------------------------------------------------------------------------------
def data_dir() -> Path | None:
    """boardct's data folder: `$BOARDCT_DATA_DIR` when set, else platformdirs' user data
    folder (None where the platform gives none)."""
    override = os.environ.get(ENV_DATA_DIR, "").strip()
    if override:
        return Path(override).expanduser()
    try:
        return Path(platformdirs.user_data_dir("boardct", appauthor=False))
    except Exception:  # a broken environment must not stop a game
        return None


def history_dir() -> Path | None:
    """The folder that keeps the history (None: the platform has no data folder)."""
    base = data_dir()
    return base / HISTORY if base is not None else None


def entry_name(state: State) -> str:
    """`YYYYmmdd-HHMMSS-GAME-HASH.json`: the start time (UTC, from the record's `created`),
    the game and a digest of the seed and names. The same game, resumed, gets the same name."""
    created = state.setup.created or ""
    stamp = "".join(ch for ch in created[:19] if ch.isascii() and ch.isdigit())
    stamp = f"{stamp[:8]}-{stamp[8:14]}" if len(stamp) == 14 else "00000000-000000"
    key = "\x00".join([state.game.id, str(state.setup.seed), created, *state.setup.names])
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{stamp}-{state.game.id}-{digest}.json"


# -- keeping -------------------------------------------------------------------------------------
class Keeper:
    """Keeps one terminal session's game in the history. `live`: after every action (at the
    keyboard, so an abandoned game is kept even if the process is killed); otherwise only
    when `keep(final=True)` is called (scripts: a long script must not rewrite the record
    after each of its thousands of tokens). Warns once, then stays quiet."""

    def __init__(self, folder: Path | None, live: bool = True):
        self.folder = folder
        self.live = live
        self.warned = False
        self.kept: Path | None = None  # the last file written

    def keep(self, state: State, record: Callable[[], Record], final: bool = False) -> list[str]:
        """Write the game's record (built by `record`, only when written) into the history;
        the lines to show: one warning the first time it fails, else nothing."""
        if not (final or self.live) or not state.table_log():
            # a game without a move has nothing to replay; one whose moves were all taken
            # back is written all the same, so that its entry ends where the game is now
            return []
        try:
            if self.folder is None:
                raise OSError("this system has no user data folder")
            self.folder.mkdir(parents=True, exist_ok=True)
            path = self.kept or numbered_path(self.folder, entry_name(state))
            try:
                record().save(path)
            finally:
                if self.kept is None:
                    release_claim(path)
        except (OSError, ValueError) as exc:
            if self.warned:
                return []
            self.warned = True
            reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
            where = shown(str(self.folder), None, quote=False) if self.folder else "history"
            return [f"Warning: cannot keep this game in the history ({where}): "
                    f"{shown(reason, None, quote=False)}. Playing on; it will not be listed "
                    f"by boardct history (set {ENV_DATA_DIR} to another folder)."]
        self.kept = path
        return []


# -- numbers -------------------------------------------------------------------------------------
# NUMBER-ENTRY, the entry being `entry_name`'s YYYYmmdd-HHMMSS-GAME-HASH.json
_LEGACY = re.compile(r"[0-9]{8}-[0-9]{6}-.+\.json\Z")  # kept before numbers were given
_NUMBERED = re.compile(r"([0-9]{1,9})-([0-9]{8}-[0-9]{6}-.+\.json)\Z")


def number_of(name: str) -> int | None:
    """The history number a file name starts with (`12-20261128-...json`), or None."""
    m = _NUMBERED.match(name)
    return int(m.group(1)) if m else None


def _listing(folder: Path) -> list[str]:
    """Every name in the folder (records and claims), at most `MAX_SCANNED`."""
    try:
        with os.scandir(folder) as it:
            return [item.name for item in itertools.islice(it, MAX_SCANNED)]
    except OSError:
        return []


def _names(folder: Path) -> list[str]:
    return [name for name in _listing(folder) if name.endswith(".json")]


_CLAIM = re.compile(r"\.([0-9]{1,9})\.claim\Z")


def _taken(names: list[str]) -> list[int]:
    """The numbers `names` hold: records' and claims' (a claim is a game being written now,
    or one whose writer died before it wrote: that number is then skipped, never given
    twice)."""
    return [int(m.group(1)) for name in names
            if (m := _NUMBERED.match(name) or _CLAIM.match(name))]


def numbered_path(folder: Path, entry: str) -> Path:
    """Where the game whose entry name is `entry` is kept: its own file when it is already
    there (a resumed game keeps its number), else a new file numbered one past the highest
    number in the folder. A number once given never changes and is never given again while
    its file is there, so `boardct replay 7` is the same game however many are added.

    Two terminals may start games at the same moment: the new number is claimed first, by
    creating `.N.claim` exclusively (which only one process can do), then checked against
    the files written since the folder was read. The claim is released by `release_claim`
    once the record is written under that number."""
    names = _listing(folder)
    for name in names:
        m = _NUMBERED.match(name)
        if m and m.group(2) == entry:
            return folder / name
    while True:
        number = max(_taken(names), default=0) + 1
        claim = folder / f".{number}.claim"
        try:
            claim.open("x").close()
        except FileExistsError:
            names = _listing(folder)
            continue
        names = _listing(folder)
        if any(number_of(name) == number for name in names):
            # another process wrote this number between our two reads: leave it theirs
            claim.unlink(missing_ok=True)
            continue
        return folder / f"{number}-{entry}"


def release_claim(path: Path) -> None:
    """Drop the claim on `path`'s number (see `numbered_path`): its record now holds it."""
    number = number_of(path.name)
    if number is not None:
        with contextlib.suppress(OSError):
            (path.parent / f".{number}.claim").unlink(missing_ok=True)


def _number_the_unnumbered(folder: Path) -> None:
    """Files kept before the history numbered its games get numbers after the highest, in the
    order they were started (their names begin with the start time): once, then never
    again."""
    names = _names(folder)
    old = sorted(n for n in names if _LEGACY.match(n))
    if not old:
        return
    top = max((n for n in (number_of(name) for name in names) if n is not None), default=0)
    for offset, name in enumerate(old, 1):
        with contextlib.suppress(OSError):
            (folder / name).rename(folder / f"{top + offset}-{name}")


# -- listing -------------------------------------------------------------------------------------
@dataclass
class Entry:
    """One game in the history: its number (for good: see `numbered_path`) and file; `record`
    once read, or `problem` when it could not be."""

    number: int
    path: Path
    record: Record | None = None
    problem: str | None = None


def history_files(folder: Path | None) -> list[Path]:
    """The history's records, newest first (by the time each was last written); at most
    `MAX_SCANNED` names are looked at."""
    if folder is None:
        return []
    _number_the_unnumbered(folder)
    found: list[tuple[float, str, Path]] = []
    try:
        with os.scandir(folder) as it:
            for item in itertools.islice(it, MAX_SCANNED):
                if not item.name.endswith(".json"):
                    continue
                try:
                    if not item.is_file():
                        continue
                    found.append((item.stat().st_mtime, item.name, Path(item.path)))
                except OSError:
                    continue
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as exc:
        raise BoardctError(f"cannot read the history folder {shown(str(folder), None, quote=False)}"
                           f": {exc.strerror or exc}") from None
    found.sort(reverse=True)
    return [p for _, _, p in found]


def read_entry(number: int, path: Path) -> Entry:
    """The entry with its record read (bounded), or the reason it cannot be."""
    try:
        return Entry(number, path, Record.load(path))
    except RecordError as exc:
        return Entry(number, path, problem=str(exc))


def result_text(record: Record) -> str:
    """The result with the players' names: "Me wins (elimination)", "draw (agreement)", or
    "unfinished"."""
    result = record.result
    if not result:
        return "unfinished"
    winners = result.get("winners") or []
    reason = result.get("reason")
    why = f" ({reason})" if isinstance(reason, str) and reason else ""
    if not isinstance(winners, list) or not winners:
        return f"draw{why}"
    names = []
    for w in winners:
        ok = isinstance(w, int) and not isinstance(w, bool) and 0 <= w < len(record.players)
        names.append((record.players[w] or f"Player {w + 1}") if ok else f"Player {w}")
    verb = "wins" if len(names) == 1 else "win"
    return f"{' and '.join(names)} {verb}{why}"


def players_text(record: Record) -> str:
    return " v ".join(name or f"Player {p + 1}" for p, name in enumerate(record.players))


def date_text(record: Record, path: Path) -> str:
    """When the game was last played, in local time: the record's `saved`, else the file's."""
    try:
        when = _dt.datetime.fromisoformat(record.saved or record.created or "")
        if when.tzinfo is None:
            when = when.replace(tzinfo=_dt.UTC)
    except ValueError:
        try:
            when = _dt.datetime.fromtimestamp(path.stat().st_mtime, _dt.UTC)
        except OSError:
            return "?"
    return when.astimezone().strftime("%Y-%m-%d %H:%M")


def listing(items: list[Entry], total: int) -> list[str]:
    """The lines of `boardct history`: one game a line, the players and the result last, so
    that a narrow terminal wraps only them (`wrap.echo` indents their continuation)."""
    if not items:
        return ["No games in the history yet: finished and abandoned games are kept here."]
    out = [f"{'#':>4}  {'game':10}  {'date':16}  players: result"]
    for e in items:
        if e.record is None:  # a file of another name has no number: its name is shown
            number = f"{e.number:>4}" if e.number else "   -"
            out.append(f"{number}  (cannot be read: {shown(e.problem or '', 160, False)})")
            continue
        rec = e.record
        out.append(f"{e.number:>4}  {shown(rec.game, 10, False):10}  {date_text(rec, e.path):16}"
                   f"  {shown(players_text(rec), 60, False)}: "
                   f"{shown(result_text(rec), 80, False)}")
    if total > len(items):
        out.append(f"({total - len(items)} older games not shown: --all, or --limit N)")
    out.append("Open one with: boardct replay NUMBER; an unfinished one goes on with: "
               "boardct play GAME --resume NUMBER. A game keeps its number for good.")
    return out


def entry_number(path: Path) -> int:
    """The number of a history file (0: a file of another name, which has none)."""
    return number_of(path.name) or 0


def resolve(text: str, what: str = "RECORD") -> str:
    """A RECORD or --resume argument: a history number (ASCII digits, as `boardct history`
    lists it) becomes that game's file; anything else is a path (write `./3` for a file
    named 3)."""
    number = ascii_int(text.strip())
    if number is None:
        return text
    files = history_files(history_dir())
    for path in files:
        if number_of(path.name) == number:
            return str(path)
    held = f"it holds {len(files)}" if files else "it is empty"
    raise BoardctError(f"{what} {number}: there is no game {number} in the history "
                       f"({held}; see boardct history; a file named {number} is "
                       f"./{number})")


def register_commands(cli: click.Group) -> None:
    @cli.command("history")
    @click.option("--limit", type=click.IntRange(1, MAX_SCANNED), default=DEFAULT_LISTED,
                  show_default=True, help="How many of the newest games to list.")
    @click.option("--all", "show_all", is_flag=True, help="List every game kept.")
    @click.option("--path", "show_path", is_flag=True, help="Print the history folder and exit.")
    def history_cmd(limit: int, show_all: bool, show_path: bool) -> None:
        """List the games played here, newest first: number, game, date, players, result.
        Finished and abandoned games are kept without --save, in the user's data folder
        (or $BOARDCT_DATA_DIR/history)."""
        folder = history_dir()
        if show_path:
            click.echo(str(folder) if folder is not None else "(no user data folder)")
            return
        files = history_files(folder)
        items = [read_entry(entry_number(p), p) for p in (files if show_all else files[:limit])]
        echo(listing(items, len(files)))
