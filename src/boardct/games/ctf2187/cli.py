"""`boardct ctf2187`: the CTF 2187 moderator's workflow over a game directory.

    DIR/game.json                    the game record (seed, options, every sheet applied)
    DIR/map.txt                      the map, in the map file format (for the referee)
    DIR/sheets/turn-NNN/bot-K.txt    sheets handed in for the coming turn (validated)
    DIR/sheets/turn-NNN/bot-K.standing.txt   new standing orders
    DIR/results/turn-NNN/bot-K.txt|.json     turn results per bot (turn 000: the set-up)

Every file is written atomically (a temporary file, then a rename), and game.json is replaced
last: a failed or interrupted `process` leaves the previous turn intact, and running it again
processes the turn afresh.

Everything read from the folder or the command line is untrusted: files are read with a size
bound, numbers in ASCII digits only, names and deadlines must be printable, and every problem is
a `BoardctError` naming the file (one line `error: ...`, exit status 2), never a traceback. A
command that fails changes nothing in the folder.

`boardct` adds these commands through `CtfGame.frontends.cli`; like every game's commands they
use only the CLI's extension point (`boardct.cli.ext`), the core and the game's engine.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

from boardct.cli.ext import AsciiInt, BoardctGroup, Seconds, click, decode_text, read_text, shown
from boardct.core import registry
from boardct.core.errors import BoardctError, RecordError
from boardct.core.inputs import MAX_FILE_BYTES, InputError, ascii_int, parse_json
from boardct.core.records import MAX_NAME, Record, record_of, replay
from boardct.games.ctf2187.maps import MAX_MAP_BYTES, parse_map
from boardct.games.ctf2187.marks import mark_board
from boardct.games.ctf2187.report import format_report, turn_report
from boardct.games.ctf2187.sheet import MAX_SHEET_CHARS, MISSING, STANDING
from boardct.games.ctf2187.state import (
    MAX_BOTS_PER_TEAM,
    MAX_SEED,
    MAX_TURNS,
    CtfState,
)
from boardct.games.ctf2187.tables import default_tables
from boardct.games.ctf2187.units import TEAM_LETTERS

GAME_FILE = "game.json"
MAX_SHEET_BYTES = 4 * MAX_SHEET_CHARS  # UTF-8 takes at most four bytes a character
MAX_RESULTS_BYTES = MAX_FILE_BYTES
MAX_DEADLINE = 200  # characters: "Friday 1 December, 18:00 UTC" and then some


def _check_deadline(text: str | None, where: str) -> str | None:
    """A deadline is printed in every report: printable text of bounded length (no escape
    sequences for the players' terminals)."""
    if text is None:
        return None
    if not isinstance(text, str) or len(text) > MAX_DEADLINE or not text.isprintable():
        raise BoardctError(f"{where}: a deadline is printable text of at most {MAX_DEADLINE} "
                           f"characters, not {str(text)[:40]!r}")
    return text


def _check_names(names: list[str]) -> None:
    """Player names go into game.json, every report and every prompt: printable, bounded,
    distinct, and never a bare number (PLAYER may be given as a player number)."""
    for name in names:
        if len(name) > MAX_NAME or not name.isprintable():
            raise BoardctError(f"player name {name[:40]!r}: a name is printable text of at most "
                               f"{MAX_NAME} characters")
        if name.isascii() and name.isdigit():
            raise BoardctError(f"player name {name!r}: a name cannot be a number (PLAYER may "
                               "be given as a player number)")
    if len({n.lower() for n in names}) != len(names):
        raise BoardctError("player names must differ")


def _write(path: Path, text: str) -> None:
    """Write atomically; on failure remove the temporary file and say which file failed."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        _remove(tmp)
        raise BoardctError(f"{shown(path)}: cannot write ({exc.strerror or exc})") from None
    except BaseException:
        _remove(tmp)
        raise


def _remove(path: Path) -> None:
    """Remove a file or folder we made, quietly (cleaning up after a failure)."""
    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        elif path.exists() or path.is_symlink():
            path.unlink()
    except OSError:
        pass


def _load(directory: Path) -> tuple[CtfState, dict]:
    path = directory / GAME_FILE
    try:
        found = path.exists()
    except OSError:  # a name too long for the file system
        found = False
    if not found:
        raise BoardctError(f"{shown(directory)}: not a CTF 2187 game directory (no {GAME_FILE}; "
                           "start one with 'boardct ctf2187 new')")
    source = shown(path)
    record = Record.load(path)  # bounded, and JSON nesting, numbers and text checked
    if record.game != "ctf2187":
        raise RecordError("game", f"{record.game[:40]!r} is not a CTF 2187 game", source)
    try:
        state = replay(record, source)
    except RecordError:
        raise
    except BoardctError as exc:  # the options set up no game: a map or tables file, say
        raise RecordError("options", str(exc), source) from None
    assert isinstance(state, CtfState)
    meta = record.extra.get("ctf2187", {})
    if not isinstance(meta, dict):
        raise RecordError("ctf2187", "not an object", source)
    _check_deadline(meta.get("deadline"), f"{source}: ctf2187.deadline")
    return state, meta


def _save(directory: Path, state: CtfState, meta: dict) -> None:
    record = record_of(state)
    record.extra["ctf2187"] = meta
    path = directory / GAME_FILE
    try:
        record.save(path)
    except OSError as exc:
        raise BoardctError(f"{shown(path)}: cannot write ({exc.strerror or exc})") from None


def _turn_dir(directory: Path, kind: str, turn: int) -> Path:
    return directory / kind / f"turn-{turn:03d}"


def _player(state: CtfState, who: str) -> int:
    """PLAYER as a name (any case) or a player number in ASCII digits (`²` is neither)."""
    names = list(state.setup.names)
    for i, n in enumerate(names):
        if n and n.lower() == who.lower():
            return i
    number = ascii_int(who.strip(), 3)
    if number is not None and 1 <= number <= len(names):
        return number - 1
    players = ", ".join(f"{i + 1} {n}" for i, n in enumerate(names))
    raise BoardctError(f"no player {who[:40]!r} in this game (players: {players})")


def _pilot(state: CtfState, player: int) -> str:
    name = state.setup.names[player]
    return name or f"Player {player + 1}"


def _write_results(directory: Path, state: CtfState, turn: int, deadline: str | None) -> None:
    """All bots' reports for `turn`, written to a temporary directory renamed into place."""
    final = _turn_dir(directory, "results", turn)
    tmp = final.with_name(final.name + ".tmp")
    try:
        _remove(tmp)  # left by an interrupted run (a file or a folder)
        tmp.mkdir(parents=True)
        for b in state.bots:
            rep = turn_report(state, b.num, deadline)
            (tmp / f"bot-{b.num}.json").write_text(json.dumps(rep, indent=1) + "\n",
                                                   encoding="utf-8")
            (tmp / f"bot-{b.num}.txt").write_text(format_report(rep), encoding="utf-8")
        _remove(final)
        os.replace(tmp, final)
    except OSError as exc:
        _remove(tmp)
        raise BoardctError(f"{shown(final)}: cannot write the results "
                           f"({exc.strerror or exc})") from None
    except BaseException:
        _remove(tmp)
        raise


@click.group("ctf2187", cls=BoardctGroup)
def command() -> None:
    """CTF 2187 moderator: start a game, take order sheets, process turns, mail results."""


DIRECTORY = click.Path(path_type=Path)  # checked by the commands, so errors are one line


@command.command("new")
@click.argument("directory", type=DIRECTORY)
@click.option("--players", "players", multiple=True, required=True,
              help="Player names, comma-separated or repeated (one bot each by default).")
@click.option("--teams", type=AsciiInt(2, 4), default=2, show_default=True)
@click.option("--bots-per-team", type=AsciiInt(0, MAX_BOTS_PER_TEAM), default=0,
              show_default=True,
              help="0: one bot per player; else one commander per team or one pilot per bot.")
@click.option("--designs", default=None, help="Bot designs per team, comma-separated.")
@click.option("--turns", type=AsciiInt(1, MAX_TURNS), default=10, show_default=True,
              help="Turn limit (CTF-39).")
@click.option("--seed", type=AsciiInt(0, MAX_SEED), default=None,
              help="Seed of all chance (default: random).")
@click.option("--map-seed", type=AsciiInt(0, MAX_SEED), default=None,
              help="Generate the map from this seed.")
@click.option("--map", "map_file", type=click.Path(path_type=Path),
              default=None, help="Load the map from a map file (docs/ctf2187.md).")
@click.option("--next-deadline", default=None, help="Deadline for turn 1 (shown in results).")
def new_cmd(directory: Path, players: tuple[str, ...], teams: int, bots_per_team: int,
            designs: str | None, turns: int, seed: int | None, map_seed: int | None,
            map_file: Path | None, next_deadline: str | None) -> None:
    """Start a game in DIRECTORY and write every bot's set-up report (turn 0)."""
    if map_seed is not None and map_file is not None:
        raise BoardctError("give --map-seed or --map, not both")
    try:
        existed = directory.exists()
        if existed and not directory.is_dir():
            raise BoardctError(f"{shown(directory)} is a file: choose a new directory")
        if existed and any(directory.iterdir()):
            raise BoardctError(f"{shown(directory)} is not empty: choose a new directory")
    except OSError as exc:
        raise BoardctError(f"{shown(directory)}: cannot use it ({exc.strerror or exc})"
                           ) from None
    names = [n.strip() for p in players for n in p.split(",") if n.strip()]
    _check_names(names)
    _check_deadline(next_deadline, "--next-deadline")
    options: dict = {"teams": teams, "bots_per_team": bots_per_team,
                     "turn_limit": turns}
    if designs:
        options["designs"] = designs
    if map_seed is not None:
        options["map_seed"] = map_seed
    if map_file is not None:
        text = read_text(map_file, MAX_MAP_BYTES, "map file")
        gmap = parse_map(text, default_tables(), shown(map_file))  # errors name the file
        options["map"] = gmap.to_text(default_tables())  # canonical: no comments, bounded
    state = registry.get("ctf2187").new(seed=seed, names=names, **options)
    assert isinstance(state, CtfState)
    meta = {"deadline": next_deadline}
    try:
        directory.mkdir(parents=True, exist_ok=True)
        _write(directory / "map.txt", state.map.to_text(state.tables))
        _write_results(directory, state, 0, next_deadline)
        _save(directory, state, meta)
    except OSError as exc:
        _undo_new(directory, existed)
        raise BoardctError(f"{shown(directory)}: cannot create the game "
                           f"({exc.strerror or exc})") from None
    except BaseException:
        _undo_new(directory, existed)
        raise
    click.echo(f"CTF 2187 game in {shown(directory)}: map {state.map.width}x{state.map.height}, "
               f"{len(state.bots)} bots, {state.turns} turns")
    for b in state.bots:
        click.echo(f"  Bot {b.num}  team {TEAM_LETTERS[b.team]}  {b.design.name:<8} "
                   f"{b.x}-{b.y}  {_pilot(state, b.player)}")


def _undo_new(directory: Path, existed: bool) -> None:
    """Take back a `new` that failed half-way: the folder was new or empty, so all in it is
    ours."""
    if not existed:
        _remove(directory)
        return
    try:
        for child in directory.iterdir():
            _remove(child)
    except OSError:
        pass


def _read_sheet_arg(sheet: str) -> tuple[str, str]:
    """(text, name) of the SHEET argument: a file, or `-` for standard input, read with a
    bound either way."""
    if sheet == "-":
        try:
            data = sys.stdin.buffer.read(MAX_SHEET_BYTES + 1)
        except (OSError, ValueError, AttributeError, RuntimeError):  # closed standard input
            raise BoardctError("standard input: cannot read the sheet") from None
        if len(data) > MAX_SHEET_BYTES:
            raise BoardctError(f"standard input: a sheet is at most {MAX_SHEET_BYTES:,} bytes")
        return decode_text(data, "standard input"), "standard input"
    return read_text(Path(sheet), MAX_SHEET_BYTES, "sheet"), shown(sheet)


@command.command("submit")
@click.argument("directory", type=DIRECTORY)
@click.argument("player")
@click.argument("sheet")
def submit_cmd(directory: Path, player: str, sheet: str) -> None:
    """Hand in PLAYER's order SHEET (a file, or - for standard input) for the coming turn.

    The sheet is checked now; a rejected sheet lists every error by line and field and is
    not stored. A later valid sheet for the same bot replaces an earlier one (CTF-37)."""
    state, _ = _load(directory)
    if state.is_over:
        raise BoardctError(f"the game is over: {state.describe_outcome()}")
    p = _player(state, player)
    text, source = _read_sheet_arg(sheet)
    try:
        action = state.parse(text, p)
    except BoardctError as exc:
        raise BoardctError(f"{source}: {exc}") from None
    if action[0] == MISSING:
        raise BoardctError("MISSING is written by the moderator, not handed in")
    state.clone()._check_action(action, p)  # ownership, wreckage: raises IllegalAction
    kind, num = action[0], action[1]
    name = f"bot-{num}.standing.txt" if kind == STANDING else f"bot-{num}.txt"
    _write(_turn_dir(directory, "sheets", state.turn) / name,
           state.notation(action).replace("; ", "\n") + "\n")
    what = "standing orders" if kind == STANDING else f"turn {state.turn} sheet"
    click.echo(f"accepted: Bot {num} {what} from {_pilot(state, p)}")


def _pending(directory: Path, state: CtfState) -> tuple[dict[int, Path], dict[int, Path]]:
    folder = _turn_dir(directory, "sheets", state.turn)
    turn_sheets: dict[int, Path] = {}
    standing: dict[int, Path] = {}
    for b in state.bots:
        p = folder / f"bot-{b.num}.txt"
        if p.exists():
            turn_sheets[b.num] = p
        s = folder / f"bot-{b.num}.standing.txt"
        if s.exists():
            standing[b.num] = s
    return turn_sheets, standing


def _apply_stored(state: CtfState, path: Path, num: int, kind: int | None) -> None:
    """Apply a sheet from the folder (`submit` checked it, but the file may since have been
    edited, truncated or replaced): it must be a sheet for the Bot its name gives, of its
    kind (STANDING, or a turn sheet); any problem names the file. Only the state in memory
    changes, and it is thrown away on error."""
    bot = state.bots[num - 1]
    text = read_text(path, MAX_SHEET_BYTES, "sheet")
    try:
        action = state.parse(text, bot.player)
        if action[0] == MISSING:
            raise BoardctError("MISSING is written by the moderator, not handed in")
        if action[1] != num:
            raise BoardctError(f"the sheet is for Bot {action[1]}, the file for Bot {num}")
        if (action[0] == STANDING) != (kind == STANDING):
            want = "standing orders" if kind == STANDING else "a turn sheet"
            raise BoardctError(f"the file should hold {want}")
        state.apply(action, bot.player)
    except BoardctError as exc:
        fix = "correct or remove the file, then process again"
        text = str(exc)  # several problems: one line each, the advice on a line of its own
        text = f"{text}\n  ({fix})" if "\n" in text else f"{text} ({fix})"
        raise BoardctError(f"{shown(path)}: {text}") from None


@command.command("status")
@click.argument("directory", type=DIRECTORY)
def status_cmd(directory: Path) -> None:
    """Show the turn, the deadline and which sheets are in."""
    state, meta = _load(directory)
    if state.is_over:
        click.echo(f"Game over after turn {state.log_turn}: {state.describe_outcome()}")
        return
    sheets, standing = _pending(directory, state)
    click.echo(f"Turn {state.turn} of {state.turns}; deadline: {meta.get('deadline') or 'not set'}")
    for b in state.bots:
        if not b.functional:
            note = "wreckage (no orders)"
        else:
            note = "sheet in" if b.num in sheets else "sheet MISSING"
        if b.num in standing:
            note += "; new standing orders"
        click.echo(f"  Bot {b.num:<2} team {TEAM_LETTERS[b.team]}  {_pilot(state, b.player):<12} "
                   f"{note}")


@command.command("process")
@click.argument("directory", type=DIRECTORY)
@click.option("--deadline", is_flag=True,
              help="The deadline has passed: missing sheets use the standing orders (CTF-14).")
@click.option("--next-deadline", default=None, help="Deadline of the next turn (in results).")
def process_cmd(directory: Path, deadline: bool, next_deadline: str | None) -> None:
    """Process the turn and write every bot's results. Without --deadline every functional
    bot's sheet must be in."""
    _check_deadline(next_deadline, "--next-deadline")
    state, meta = _load(directory)
    if state.is_over:
        raise BoardctError(f"the game is over: {state.describe_outcome()}")
    sheets, standing = _pending(directory, state)
    missing = [b for b in state.bots if b.functional and b.num not in sheets]
    if missing and not deadline:
        advice = "wait, or process with --deadline to use their standing orders"
        if len(missing) == 1:
            b = missing[0]
            raise BoardctError(f"sheets missing for Bot {b.num} ({_pilot(state, b.player)}): "
                               f"{advice}")
        raise BoardctError(f"sheets missing for {len(missing)} Bots ({advice}):\n" + "\n".join(
            f"  Bot {b.num} ({_pilot(state, b.player)})" for b in missing))
    turn = state.turn
    for num, path in sorted(standing.items()):
        if state.bots[num - 1].functional:
            _apply_stored(state, path, num, STANDING)
    for b in list(state.bots):
        if not b.functional or state.is_over:
            continue
        if b.num in sheets:
            _apply_stored(state, sheets[b.num], b.num, None)
        else:
            state.apply((MISSING, b.num), b.player)
    if state.turn == turn:  # pragma: no cover - every functional bot had a sheet applied
        raise BoardctError("the turn did not complete")
    meta = dict(meta)
    meta["deadline"] = next_deadline
    _write_results(directory, state, turn, next_deadline)
    _save(directory, state, meta)  # last: until here the previous turn stands
    used = ", ".join(f"Bot {b.num}" for b in missing) or "none"
    click.echo(f"Turn {turn} processed; standing orders used for: {used}")
    if state.is_over:
        click.echo(f"Game over: {state.describe_outcome()}")


@command.command("results")
@click.argument("directory", type=DIRECTORY)
@click.argument("player")
@click.option("--turn", "turn", type=AsciiInt(0, MAX_TURNS), default=None,
              help="Which turn (default: the last processed; 0 = the set-up).")
@click.option("--json", "as_json", is_flag=True, help="The results as JSON.")
def results_cmd(directory: Path, player: str, turn: int | None, as_json: bool) -> None:
    """Show PLAYER's turn results (one report per bot the player commands)."""
    state, _ = _load(directory)
    p = _player(state, player)
    last = state.log_turn
    if turn is None:
        turn = last
    if not 0 <= turn <= last:
        raise BoardctError(f"turn {turn} has no results yet (processed turns: 0-{last})")
    folder = _turn_dir(directory, "results", turn)
    docs = []
    for b in state.bots_of(p):
        path = folder / f"bot-{b.num}.{'json' if as_json else 'txt'}"
        docs.append(read_text(path, MAX_RESULTS_BYTES, "results"))
    if as_json:
        parsed = []
        for b, d in zip(state.bots_of(p), docs, strict=True):
            try:  # a truncated or edited results file: named, with its line and column
                parsed.append(parse_json(d, shown(folder / f"bot-{b.num}.json")))
            except InputError as exc:
                raise BoardctError(f"{exc} (process the turn again to rewrite it)") from None
        click.echo(json.dumps(parsed, indent=1))
    else:
        sys.stdout.flush()
        click.echo("\n".join(docs), nl=False)


@command.command("bench")
@click.option("--seconds", type=Seconds(), default=5.0, show_default=True)
@click.option("--seed", type=AsciiInt(0, MAX_SEED), default=1, show_default=True)
@click.option("--bots-per-team", type=AsciiInt(1, MAX_BOTS_PER_TEAM), default=4,
              show_default=True)
@click.option("--teams", type=AsciiInt(2, 4), default=2, show_default=True)
def bench_cmd(seconds: float, seed: int, bots_per_team: int, teams: int) -> None:
    """Turns processed per second with random legal order sheets (default: 2 teams x 4 bots,
    one commander per team) — the figure `boardct bench ctf2187` gives per sheet."""
    import random
    import time

    game = registry.get("ctf2187")
    rng = random.Random(seed)
    names = [f"p{i + 1}" for i in range(teams)]
    turns = games = sheets = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = game.new(seed=rng.randrange(1 << 30), names=names, teams=teams,
                         bots_per_team=bots_per_team)
        assert isinstance(state, CtfState)
        while True:
            players = state.current_players()
            if not players:
                break
            for p in players:
                state.apply(rng.choice(state.legal_actions(p)), p)
                sheets += 1
        turns += state.log_turn
        games += 1
    dt = time.perf_counter() - t0
    click.echo(f"CTF 2187 {teams}x{bots_per_team} bots: {turns / dt:,.1f} turns/s "
               f"({sheets / dt:,.0f} sheets/s, {games / dt:,.2f} games/s; {turns} turns in "
               f"{dt:.2f} s)")


COMMANDS = (command,)
# the terminal's marks of the computer's turn (boardct.cli.ext): what the viewer's Bots saw
__all__ = ["COMMANDS", "LEGEND", "mark_board"]


def _legend() -> str:
    """How to read the board at the terminal, for `help`: the terrain characters come from the
    shipped tables, so a new terrain type is listed with its own character."""
    from boardct.games.ctf2187.geometry import ARROWS
    from boardct.games.ctf2187.tables import default_tables

    terrain = ", ".join(f"{t.char} {t.name.lower()}"
                        for t in default_tables().terrain)
    arrows = ", ".join(f"{ARROWS[f]} {f}" for f in range(1, 9))
    return (
        "Reading the map (CTF 2187):\n"
        "  Each sector shows its terrain and its total elevation (ground + terrain), e.g. w2:\n"
        f"    {terrain}.\n"
        "  A Bot is its number and its facing (1 up, 3 right, 5 down, 7 left; even numbers the\n"
        f"    diagonals): {arrows}; k kneeling, p prone, x wreckage.\n"
        "  A command post is its team's letter and number (A1); in lower case once destroyed.\n"
        "  A blank sector is out of your Bots' sight (CTF-21); a spectator sees only the posts.\n"
        "  Bot line: sector x-y, facing, posture, AP next turn, heat, wounds, engines, victory\n"
        "    points, and whether its sheet is still owed.")


# How to read the board, shown by `help` at the terminal (boardct.cli.ext: a game's LEGEND).
LEGEND = _legend()
