"""`boardct ctf2187`: the CTF 2187 moderator's workflow over a game directory.

    DIR/game.json                    the game record (seed, options, every sheet applied)
    DIR/map.txt                      the map, in the map file format (for the referee)
    DIR/sheets/turn-NNN/bot-K.txt    sheets handed in for the coming turn (validated)
    DIR/sheets/turn-NNN/bot-K.standing.txt   new standing orders
    DIR/results/turn-NNN/bot-K.txt|.json     turn results per bot (turn 000: the set-up)

Every file is written atomically (a temporary file, then a rename), and game.json is replaced
last: a failed or interrupted `process` leaves the previous turn intact, and running it again
processes the turn afresh.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import click

from boardct.core import registry
from boardct.core.errors import BoardctError, RecordError
from boardct.core.records import Record, replay
from boardct.games.ctf2187.maps import parse_map
from boardct.games.ctf2187.report import format_report, turn_report
from boardct.games.ctf2187.sheet import MISSING, STANDING
from boardct.games.ctf2187.state import CtfState
from boardct.games.ctf2187.tables import default_tables
from boardct.games.ctf2187.units import TEAM_LETTERS

GAME_FILE = "game.json"


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _load(directory: Path) -> tuple[CtfState, dict]:
    path = directory / GAME_FILE
    if not path.exists():
        raise BoardctError(f"{directory}: not a CTF 2187 game directory (no {GAME_FILE}; "
                           "start one with 'boardct ctf2187 new')")
    record = Record.load(path)
    if record.game != "ctf2187":
        raise RecordError("game", f"{record.game!r} is not a CTF 2187 game", str(path))
    state = replay(record, str(path))
    assert isinstance(state, CtfState)
    meta = record.extra.get("ctf2187", {})
    if not isinstance(meta, dict):
        raise RecordError("ctf2187", "not an object", str(path))
    return state, meta


def _save(directory: Path, state: CtfState, meta: dict) -> None:
    record = state.record()
    record.extra["ctf2187"] = meta
    record.save(directory / GAME_FILE)


def _turn_dir(directory: Path, kind: str, turn: int) -> Path:
    return directory / kind / f"turn-{turn:03d}"


def _player(state: CtfState, who: str) -> int:
    names = list(state.setup.names)
    for i, n in enumerate(names):
        if n and n.lower() == who.lower():
            return i
    if who.isdigit() and 1 <= int(who) <= len(names):
        return int(who) - 1
    shown = ", ".join(f"{i + 1} {n}" for i, n in enumerate(names))
    raise BoardctError(f"no player {who!r} in this game (players: {shown})")


def _pilot(state: CtfState, player: int) -> str:
    name = state.setup.names[player]
    return name or f"Player {player + 1}"


def _write_results(directory: Path, state: CtfState, turn: int, deadline: str | None) -> None:
    """All bots' reports for `turn`, written to a temporary directory renamed into place."""
    final = _turn_dir(directory, "results", turn)
    tmp = final.with_name(final.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    for b in state.bots:
        rep = turn_report(state, b.num, deadline)
        (tmp / f"bot-{b.num}.json").write_text(json.dumps(rep, indent=1) + "\n",
                                               encoding="utf-8")
        (tmp / f"bot-{b.num}.txt").write_text(format_report(rep), encoding="utf-8")
    if final.exists():
        shutil.rmtree(final)
    os.replace(tmp, final)


@click.group("ctf2187")
def command() -> None:
    """CTF 2187 moderator: start a game, take order sheets, process turns, mail results."""


@command.command("new")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--players", "players", multiple=True, required=True,
              help="Player names, comma-separated or repeated (one bot each by default).")
@click.option("--teams", type=int, default=2, show_default=True)
@click.option("--bots-per-team", type=int, default=0, show_default=True,
              help="0: one bot per player; else one commander per team or one pilot per bot.")
@click.option("--designs", default=None, help="Bot designs per team, comma-separated.")
@click.option("--turns", type=int, default=10, show_default=True, help="Turn limit (CTF-39).")
@click.option("--seed", type=int, default=None, help="Seed of all chance (default: random).")
@click.option("--map-seed", type=int, default=None, help="Generate the map from this seed.")
@click.option("--map", "map_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Load the map from a map file (docs/ctf2187.md).")
@click.option("--next-deadline", default=None, help="Deadline for turn 1 (shown in results).")
def new_cmd(directory: Path, players: tuple[str, ...], teams: int, bots_per_team: int,
            designs: str | None, turns: int, seed: int | None, map_seed: int | None,
            map_file: Path | None, next_deadline: str | None) -> None:
    """Start a game in DIRECTORY and write every bot's set-up report (turn 0)."""
    if map_seed is not None and map_file is not None:
        raise BoardctError("give --map-seed or --map, not both")
    if directory.exists() and any(directory.iterdir()):
        raise BoardctError(f"{directory} is not empty: choose a new directory")
    names = [n.strip() for p in players for n in p.split(",") if n.strip()]
    if len({n.lower() for n in names}) != len(names):
        raise BoardctError("player names must differ")
    options: dict = {"teams": teams, "bots_per_team": bots_per_team,
                     "turn_limit": turns}
    if designs:
        options["designs"] = designs
    if map_seed is not None:
        options["map_seed"] = map_seed
    if map_file is not None:
        try:
            options["map"] = map_file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise BoardctError(f"{map_file}: cannot read the map file ({exc})") from None
        parse_map(options["map"], default_tables(), str(map_file))  # errors name the file
        if "\n" not in options["map"]:
            options["map"] += "\n"
    state = registry.get("ctf2187").new(seed=seed, names=names, **options)
    assert isinstance(state, CtfState)
    directory.mkdir(parents=True, exist_ok=True)
    meta = {"deadline": next_deadline}
    _write(directory / "map.txt", state.map.to_text(state.tables))
    _write_results(directory, state, 0, next_deadline)
    _save(directory, state, meta)
    click.echo(f"CTF 2187 game in {directory}: map {state.map.width}x{state.map.height}, "
               f"{len(state.bots)} bots, {state.turns} turns")
    for b in state.bots:
        click.echo(f"  Bot {b.num}  team {TEAM_LETTERS[b.team]}  {b.design.name:<8} "
                   f"{b.x}-{b.y}  {_pilot(state, b.player)}")


@command.command("submit")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.argument("player")
@click.argument("sheet", type=click.File("rb"))
def submit_cmd(directory: Path, player: str, sheet) -> None:
    """Hand in PLAYER's order SHEET (a file, or - for standard input) for the coming turn.

    The sheet is checked now; a rejected sheet lists every error by line and field and is
    not stored. A later valid sheet for the same bot replaces an earlier one (CTF-37)."""
    state, _ = _load(directory)
    if state.is_over:
        raise BoardctError(f"the game is over: {state.outcome.describe()}")
    p = _player(state, player)
    try:
        text = sheet.read().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BoardctError(f"{sheet.name}: not a text file ({exc.reason} at byte "
                           f"{exc.start})") from None
    action = state.parse(text, p)
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


@command.command("status")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
def status_cmd(directory: Path) -> None:
    """Show the turn, the deadline and which sheets are in."""
    state, meta = _load(directory)
    if state.is_over:
        click.echo(f"Game over after turn {state.log_turn}: {state.outcome.describe()}")
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
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--deadline", is_flag=True,
              help="The deadline has passed: missing sheets use the standing orders (CTF-14).")
@click.option("--next-deadline", default=None, help="Deadline of the next turn (in results).")
def process_cmd(directory: Path, deadline: bool, next_deadline: str | None) -> None:
    """Process the turn and write every bot's results. Without --deadline every functional
    bot's sheet must be in."""
    state, meta = _load(directory)
    if state.is_over:
        raise BoardctError(f"the game is over: {state.outcome.describe()}")
    sheets, standing = _pending(directory, state)
    missing = [b for b in state.bots if b.functional and b.num not in sheets]
    if missing and not deadline:
        shown = ", ".join(f"Bot {b.num} ({_pilot(state, b.player)})" for b in missing)
        raise BoardctError(f"sheets missing for {shown}: wait, or process with --deadline to "
                           "use their standing orders")
    turn = state.turn
    for num, path in sorted(standing.items()):
        if state.bots[num - 1].functional:
            state.apply(state.parse(path.read_text(encoding="utf-8")), state.bots[num - 1].player)
    for b in list(state.bots):
        if not b.functional or state.is_over:
            continue
        if b.num in sheets:
            action = state.parse(sheets[b.num].read_text(encoding="utf-8"), b.player)
        else:
            action = (MISSING, b.num)
        state.apply(action, b.player)
    if state.turn == turn:  # pragma: no cover - every functional bot had a sheet applied
        raise BoardctError("the turn did not complete")
    meta = dict(meta)
    meta["deadline"] = next_deadline
    _write_results(directory, state, turn, next_deadline)
    _save(directory, state, meta)  # last: until here the previous turn stands
    used = ", ".join(f"Bot {b.num}" for b in missing) or "none"
    click.echo(f"Turn {turn} processed; standing orders used for: {used}")
    if state.is_over:
        click.echo(f"Game over: {state.outcome.describe()}")


@command.command("results")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.argument("player")
@click.option("--turn", "turn", type=int, default=None,
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
        try:
            docs.append(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise BoardctError(f"{path}: cannot read the results ({exc.strerror})") from None
    if as_json:
        click.echo(json.dumps([json.loads(d) for d in docs], indent=1))
    else:
        sys.stdout.flush()
        click.echo("\n".join(docs), nl=False)


@command.command("bench")
@click.option("--seconds", type=float, default=5.0, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--bots-per-team", type=int, default=4, show_default=True)
@click.option("--teams", type=int, default=2, show_default=True)
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
