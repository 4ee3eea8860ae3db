"""The `boardct` command: its own commands, and each registered game's.

The CLI knows no game. Games come from the registry; `boardct play GAME` builds each game's
flags from its `Game.play_flags` (`boardct.cli.play`), and a game's own commands come from the
module its `Game.frontends.cli` names (a sequence `COMMANDS` of click commands, written
against `boardct.cli.ext`). Those modules are imported when the command line first needs them
(`boardct --help` lists them; `boardct NAME` that is not one of the CLI's own looks them up),
so `boardct play GAME` imports only that game; a module that fails to import is reported in
one line and every other command still works.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import sys
import time
from collections.abc import Iterator
from typing import Any

import click

from boardct.cli import admin, arena, cmd_serve, history, play
from boardct.cli.ext import BoardctGroup, SeedType, parse_options
from boardct.core import registry
from boardct.core.view import view_schema

__all__ = ["BoardctCLI", "cli", "load_game_commands", "main", "parse_options"]

SEED = SeedType()


def load_game_commands(taken: set[str]) -> dict[str, click.Command]:
    """The commands every registered game adds (its `frontends.cli` module's `COMMANDS`), by
    name. A module that cannot be imported, or offers something that is not a click command,
    or a command whose name is `taken` (the CLI's own) or already another game's, is left out
    with one line on standard error: one broken game never stops the others."""
    out: dict[str, click.Command] = {}
    for game in registry.all_games():
        name = game.frontends.cli
        if not name:
            continue
        try:
            commands = tuple(importlib.import_module(name).COMMANDS)
            for cmd in commands:
                if not isinstance(cmd, click.Command) or not cmd.name:
                    raise TypeError(f"{cmd!r} in COMMANDS is not a named click command")
        except Exception as exc:  # a third-party game may fail in any way: say how, go on
            click.echo(f"boardct: the commands of {game.id} are left out: {name}: "
                       f"{type(exc).__name__}: {exc}", err=True)
            continue
        for cmd in commands:
            assert cmd.name is not None
            if cmd.name in taken or cmd.name in out:
                click.echo(f"boardct: the command {cmd.name!r} of {game.id} is left out: "
                           "the name is taken", err=True)
                continue
            out[cmd.name] = cmd
    return out


class BoardctCLI(BoardctGroup):
    """The `boardct` group: its own commands, then the games' (`load_game_commands`), loaded
    once, when a listing or a name that is not one of its own first needs them."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._game_commands: dict[str, click.Command] | None = None

    def game_commands(self) -> dict[str, click.Command]:
        if self._game_commands is None:
            self._game_commands = load_game_commands(set(self.commands))
        return self._game_commands

    def forget_game_commands(self) -> None:
        """Look the games' commands up again at the next need (after registering a game)."""
        self._game_commands = None

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(self.commands) | set(self.game_commands()))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        own = self.commands.get(cmd_name)
        return own if own is not None else self.game_commands().get(cmd_name)


@click.group(cls=BoardctCLI, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="boardct")
def cli() -> None:
    """boardct: board control tool for turn-based tactics games."""


@cli.command("games")
def games_cmd() -> None:
    """List the games boardct knows, with their options as `-o NAME=VALUE` sets them."""
    from boardct.cli.wrap import echo

    lines: list[str] = []
    for game in registry.all_games():
        if lines:
            lines.append("")
        lines.append(f"{game.id}  {game.title}  (boardct play {game.id})")
        for opt in game.options:
            kind = ("|".join(str(c) for c in opt.choices) if opt.choices
                    else opt.type.__name__.upper())
            lines.append(f"  -o {opt.name}={kind}")
            lines.append(f"      {opt.help} [default: {opt.default}]")
    echo(lines, pipe_width=80)  # a reference: 80 columns in a file too


@contextlib.contextmanager
def progress(what: str) -> Iterator[None]:
    """A line on standard error while a long measurement runs, with the time it has taken
    ("bench: fieldshift, random playouts for 5 CPU s... 3 s"), gone when it ends; only on a
    terminal (a pipe or a file gets nothing)."""
    from rich.console import Console
    from rich.text import Text

    console = Console(stderr=True, highlight=False)
    if not console.is_terminal:
        yield
        return
    start = time.monotonic()

    class Elapsed:
        def __rich__(self) -> Text:
            return Text(f"bench: {what}... {time.monotonic() - start:.0f} s")

    with console.status(Elapsed(), spinner="line"):
        yield


def _bench_seconds(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """A finite positive bound of at most an hour: `nan` or `inf` would never end."""
    if not (0 < value <= 3600):  # also false for nan
        raise click.BadParameter(f"{value} is not a number of seconds in (0, 3600]")
    return value


def _bench_iters(ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, ...]:
    """`1000,10000`: search budgets, each 1 to 1,000,000 iterations."""
    out = []
    for part in value.split(","):
        part = part.strip()
        if not (part.isascii() and part.isdigit()) or not 1 <= int(part) <= 1_000_000:
            raise click.BadParameter(f"{part!r} is not a whole number of iterations from 1 to "
                                     "1,000,000 (give a list such as 1000,10000)")
        out.append(int(part))
    return tuple(out)


@cli.command("bench")
@click.argument("game_id", metavar="[GAME]", required=False)
@click.option("--seconds", type=float, default=5.0, show_default=True, callback=_bench_seconds,
              help="CPU seconds of random playouts (with --agent: of searching).")
@click.option("--seed", type=SEED, default=1, show_default=True)
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
              help="A game option, e.g. -o ruleset=stdex.")
@click.option("--agent", default=None,
              help="Benchmark an agent instead: search iterations per CPU second, CPU seconds "
                   "per move and peak memory.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--all", "every", is_flag=True,
              help="Every game: engine figures and MCTS at each --iters budget (each search in "
                   "a fresh process, for its peak memory), median of --repeat runs; writes "
                   "bench.md and bench.json to --out.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="bench-out",
              show_default=True, help="With --all: the folder for bench.md and bench.json.")
@click.option("--repeat", type=click.IntRange(1, 25), default=3, show_default=True,
              help="With --all: runs per figure (the median is reported).")
@click.option("--iters", default="1000,10000", show_default=True, callback=_bench_iters,
              help="With --all: the MCTS budgets measured.")
def bench_cmd(game_id: str | None, seconds: float, seed: int, options: tuple[str, ...],
              agent: str | None, as_json: bool, every: bool, out_dir: str, repeat: int,
              iters: tuple[int, ...]) -> None:
    """Engine speed: random-playout actions per CPU second and per wall second (full
    legal_actions at every step), games/s, clone() and legal_actions() in CPU microseconds at
    a mid-game state. CPU figures hold on a busy machine; wall figures do not."""
    from boardct.arena import bench

    if every:
        _bench_all(game_id, seconds, seed, agent, as_json, out_dir, repeat, iters)
        return
    if game_id is None:
        raise click.UsageError("name a GAME (see `boardct games`), or give --all")
    if agent is not None:
        from boardct.cli.arena import bench_agent

        with progress(f"{agent} on {game_id}, {seconds:g} CPU s"):
            result = bench_agent(game_id, agent, seconds, seed, parse_options(options))
        if as_json:
            click.echo(json.dumps(result))
            return
        ips = result["iterations_per_cpu_s"]
        peak = result["peak_rss_mb"]
        click.echo(f"{result['agent']} on {game_id}: {result['seconds_per_move']:.3f} CPU s "
                   f"per move ({result['wall_seconds_per_move']:.3f} wall s) over "
                   f"{result['moves']} positions"
                   + (f", {ips:,.0f} search iterations per CPU second" if ips else "")
                   + (f", peak memory {peak:.1f} MB" if peak is not None
                      else f"; {bench.MEMORY_NOTE}"))
        return
    game = registry.get(game_id)
    with progress(f"{game.id}, {seconds:g} CPU s of random playouts"):
        result = bench.run(game, seconds=seconds, seed=seed, options=parse_options(options))
    if as_json:
        click.echo(json.dumps(result))
        return
    click.echo(f"{game.title}  options {result['options']}")
    click.echo(f"  random playouts   {result['actions_per_cpu_s']:>12,.0f} actions/CPU s "
               f"({result['actions_per_s']:,.0f} per wall s; {result['actions']:,} actions in "
               f"{result['cpu_seconds']} CPU s, {result['seconds']} wall s)")
    click.echo(f"  games             {result['games_per_cpu_s']:>12,.2f} games/CPU s")
    click.echo(f"  clone()           {result['clone_us']:>12.2f} us (CPU)")
    click.echo(f"  legal_actions()   {result['legal_actions_us']:>12.2f} us (CPU) "
               f"({result['legal_actions_at_mid']} actions at the mid-game state)")


def _bench_all(game_id: str | None, seconds: float, seed: int, agent: str | None,
               as_json: bool, out_dir: str, repeat: int, iters: tuple[int, ...]) -> None:
    """`bench --all`: one table over every game (or the one named), Markdown and JSON."""
    from pathlib import Path

    from boardct.arena import bench

    games = [registry.get(game_id)] if game_id else list(registry.all_games())
    spec = agent or bench.BENCH_AGENT
    if not spec.startswith("mcts"):
        raise click.BadParameter("bench --all measures an MCTS search: give an mcts spec",
                                 param_hint="--agent")
    folder = Path(out_dir)
    if folder.exists() and not folder.is_dir():
        raise click.BadParameter(f"{out_dir!r} is not a folder", param_hint="--out")

    def done(row: dict) -> None:
        if not as_json:
            click.echo(f"  {row['game']}: done", err=True)

    with progress(f"{len(games)} game(s), {repeat} run(s) of each figure"):
        table = bench.run_all(games, seconds=seconds, repeat=repeat, iters=iters, seed=seed,
                              agent=spec, progress=done)
    folder.mkdir(parents=True, exist_ok=True)
    text = bench.markdown(table)
    (folder / "bench.md").write_text(text, encoding="utf-8")
    (folder / "bench.json").write_text(json.dumps(table, indent=2) + "\n", encoding="utf-8")
    if as_json:
        click.echo(json.dumps(table))
    else:
        click.echo(text)
        click.echo(f"Written to {folder / 'bench.md'} and {folder / 'bench.json'}")


@cli.command("schema")
@click.argument("game_id", metavar="GAME")
def schema_cmd(game_id: str) -> None:
    """Print the JSON Schema of GAME's views (what a player or a spectator is shown), for
    bots and pages: the envelope every game shares, and the game's own board."""
    click.echo(json.dumps(view_schema(registry.get(game_id)), indent=2))


play.register_commands(cli)
history.register_commands(cli)
arena.register_commands(cli)
cli.add_command(cmd_serve.command)
cli.add_command(admin.command)


def main() -> None:
    try:
        cli.main(prog_name="boardct")
    except KeyboardInterrupt:
        click.echo("\ninterrupted", err=True)
        sys.exit(130)
