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


@cli.command("bench")
@click.argument("game_id", metavar="GAME")
@click.option("--seconds", type=float, default=5.0, show_default=True,
              help="How long to run random playouts.")
@click.option("--seed", type=SEED, default=1, show_default=True)
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
              help="A game option, e.g. -o ruleset=stdex.")
@click.option("--agent", default=None,
              help="Benchmark an agent instead: search iterations and seconds per move, in CPU "
                   "seconds of this process.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def bench_cmd(game_id: str, seconds: float, seed: int, options: tuple[str, ...],
              agent: str | None, as_json: bool) -> None:
    """Engine speed: random-playout actions/s (full legal_actions at every step), games/s,
    clone() and legal_actions() in microseconds at a mid-game state."""
    from boardct.core import bench

    if agent is not None:
        from boardct.cli.arena import bench_agent

        result = bench_agent(game_id, agent, seconds, seed, parse_options(options))
        if as_json:
            click.echo(json.dumps(result))
        else:
            ips = result["iterations_per_s"]
            click.echo(f"{result['agent']} on {game_id}: {result['seconds_per_move']:.3f} CPU s "
                       f"per move over {result['moves']} positions"
                       + (f", {ips:,.0f} search iterations per CPU second" if ips else ""))
        return
    game = registry.get(game_id)
    result = bench.run(game, seconds=seconds, seed=seed, options=parse_options(options))
    if as_json:
        click.echo(json.dumps(result))
        return
    click.echo(f"{game.title}  options {result['options']}")
    click.echo(f"  random playouts   {result['actions_per_s']:>12,.0f} actions/s "
               f"({result['actions']:,} actions in {result['seconds']} s)")
    click.echo(f"  games             {result['games_per_s']:>12,.2f} games/s")
    click.echo(f"  clone()           {result['clone_us']:>12.2f} us")
    click.echo(f"  legal_actions()   {result['legal_actions_us']:>12.2f} us "
               f"({result['legal_actions_at_mid']} actions at the mid-game state)")


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
