"""The `boardct` command. Games are found through the registry; game-specific commands live
in modules `boardct.cli.cmd_<name>` that expose a click command named `command`."""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys

import click

from boardct.cli.play import SEED
from boardct.core import registry
from boardct.core.errors import BoardctError


def parse_options(pairs: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise click.BadParameter(f"{pair!r} is not NAME=VALUE", param_hint="--option")
        k, v = pair.split("=", 1)
        out[k.strip().replace("-", "_")] = v.strip()
    return out


class BoardctGroup(click.Group):
    """Turns every `BoardctError` into a one-line message and exit status 2."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except BoardctError as exc:
            click.echo(f"error: {exc}", err=True)
            ctx.exit(2)


@click.group(cls=BoardctGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="boardct")
def cli() -> None:
    """boardct: board control tool for FieldShift and other turn-based tactics games."""


@cli.command("games")
def games_cmd() -> None:
    """List the games boardct knows, with their options."""
    for game in registry.all_games():
        click.echo(f"{game.id:12} {game.title}")
        for opt in game.options:
            choices = "|".join(str(c) for c in opt.choices) if opt.choices else opt.type.__name__
            click.echo(f"    {opt.name}={opt.default}  ({choices}) {opt.help}")


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

    def progress(row: dict) -> None:
        if not as_json:
            click.echo(f"  {row['game']}: done", err=True)

    table = bench.run_all(games, seconds=seconds, repeat=repeat, iters=iters, seed=seed,
                          agent=spec, progress=progress)
    folder.mkdir(parents=True, exist_ok=True)
    text = bench.markdown(table)
    (folder / "bench.md").write_text(text, encoding="utf-8")
    (folder / "bench.json").write_text(json.dumps(table, indent=2) + "\n", encoding="utf-8")
    if as_json:
        click.echo(json.dumps(table))
    else:
        click.echo(text)
        click.echo(f"Written to {folder / 'bench.md'} and {folder / 'bench.json'}")


def _load_subcommands() -> None:
    from boardct.cli import arena, play

    play.register_commands(cli)
    arena.register_commands(cli)

    import boardct.cli as pkg

    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name.startswith("cmd_"):
            module = importlib.import_module(f"{pkg.__name__}.{info.name}")
            cli.add_command(module.command)


_load_subcommands()


def main() -> None:
    try:
        cli.main(prog_name="boardct")
    except KeyboardInterrupt:
        click.echo("\ninterrupted", err=True)
        sys.exit(130)
