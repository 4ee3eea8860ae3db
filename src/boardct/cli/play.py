"""`boardct play GAME` and `boardct replay RECORD`.

`play` knows no game: it is a group with one subcommand per registered game, built from the
game when it is asked for, so `boardct play GAME --help` shows that game's own flags
(`Game.play_flags`, such as a shortcut for an option) and `--classic` only where the game has
an earlier tool's screen (`Game.classic_screen`), beside the options every game has.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

import click

from boardct.cli.ext import BoardctGroup, SeedType, parse_options
from boardct.core import registry
from boardct.core.errors import BoardctError, OptionError
from boardct.core.game import Game
from boardct.core.options import PlayFlag

SEED = SeedType()


def launcher() -> ModuleType:
    """`boardct.cli.launch`, which starts games (and loads the terminal and the agents):
    imported when a game is played or its command built, so that `boardct` itself, its help
    and its other commands start without them."""
    from boardct.cli import launch

    return launch


def common_options(default_agent: str) -> list[click.Option]:
    """The options of every game's `play` command but --names (the game's flags come after
    --names, these after them); `default_agent`: the computer's when --vs names none."""
    return [
        click.Option(["--option", "-o", "options"], multiple=True, metavar="NAME=VALUE",
                     help="Any of the game's options (listed below), e.g. -o turn_limit=100."),
        click.Option(["--seed"], type=SEED, default=None, help="Seed of the game's chance."),
        click.Option(["--resume"], default=None, metavar="FILE|N",
                     help="Go on with a saved game (a boardct record or the game's own save "
                          "file), or game N of boardct history; its computer seats play on "
                          "unless --vs."),
        click.Option(["--vs"], default=None, metavar="SIDE[:AGENT]",
                     help="The computer plays SIDE (1 or 2) with AGENT (default "
                          f"{default_agent}), e.g. --vs 2, --vs 2:greedy, "
                          "--vs 1:mcts:time=5; --vs none: people play every seat."),
        click.Option(["--color"], type=click.Choice(["auto", "always", "never"]),
                     default="auto", show_default=True,
                     help="Colours for the sides and terrain."),
        click.Option(["--script"], default=None, metavar="FILE",
                     help="Read tokens one per line (# comments); print the final screen."),
        click.Option(["--trace"], is_flag=True, help="With --script: print every step."),
        click.Option(["--save"], default=None, metavar="FILE",
                     help="Keep the game's record in FILE, rewritten after every command."),
        click.Option(["--clear/--no-clear"], default=None,
                     help="Clear the terminal before each screen (default: when "
                          "interactive)."),
        click.Option(["--confirm/--no-confirm"], default=True, show_default=True,
                     help="Ask before carrying out a command that breaks a rule (in a game "
                          "that lets such commands be carried out and disputed); scripts never "
                          "ask."),
    ]


CLASSIC = "--classic"


def classic_option() -> click.Option:
    """`--classic`, offered by the games with an earlier tool's screen."""
    return click.Option([CLASSIC], is_flag=True,
                        help="The earlier tool's screen exactly: the board and the prompt, no "
                             "status line, no colours, no event lines.")


def flag_option(game: Game, flag: PlayFlag, taken: set[str]) -> click.Option:
    """The click option of one of `game`'s play flags; a flag that is not a long option, or
    clashes with an option of `play` or another flag, is the game's error, named."""
    dest = flag.dest
    if not flag.flag.startswith("--") or not dest.isidentifier() or not flag.options:
        raise BoardctError(f"{game.id}: the play flag {flag.flag!r} is not a long option "
                           "(--name) that sets one or more options")
    if flag.flag in taken or dest in taken:
        raise BoardctError(f"{game.id}: the play flag {flag.flag} clashes with an option of "
                           "boardct play")
    taken.update((flag.flag, dest))
    return click.Option([flag.flag, dest], nargs=len(flag.options), default=None,
                        metavar=flag.metavar or None, help=flag.help)


def play_params(game: Game, default_agent: str) -> list[click.Parameter]:
    """Every option of `boardct play GAME`: --names, the game's flags, the options every game
    has, and --classic where the game has an earlier tool's screen."""
    names = click.Option(["--names"], default=None, metavar="A [B]",
                         help="The players' names; with --vs only the people's "
                              "(--names Me --vs 2).")
    rest = common_options(default_agent) + ([classic_option()] if game.classic_screen else [])
    taken = {"--help", "-h", "help", CLASSIC}
    for opt in (names, *rest):
        taken.update((*opt.opts, *opt.secondary_opts, opt.name or ""))
    flags = [flag_option(game, flag, taken) for flag in game.play_flags]
    return [names, *flags, *rest]


def unknown_flag(game: Game, option: str) -> str | None:
    """What to say of an option `boardct play GAME` does not have, when it is one some other
    game has (another game's flag, --classic); None: click's own message will do."""
    if option == CLASSIC:
        return launcher().no_classic(game)
    owners = [g for g in registry.all_games()
              if g.id != game.id and any(f.flag == option for f in g.play_flags)]
    if not owners:
        return None
    flag = next(f for f in owners[0].play_flags if f.flag == option)
    where = f"{option} is a flag of {', '.join(g.id for g in owners)}"
    for name in flag.options:
        try:
            game.option(name)
        except OptionError as exc:
            return f"{where}; {exc}"
    settings = " ".join(f"-o {name}=VALUE" for name in flag.options)
    return f"{where}; for {game.id} give {settings}"


class GamePlay(click.Command):
    """`boardct play GAME`: one game's play command (`game_play_command`)."""

    def __init__(self, game: Game, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game = game

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The game's options after click's: what -o NAME=VALUE may set."""
        rows = []
        for opt in self.game.options:
            kind = ("|".join(str(c) for c in opt.choices) if opt.choices is not None
                    else opt.type.__name__.upper())
            rows.append((f"{opt.name}={kind}", f"{opt.help}  [default: {opt.default}]"))
        if rows:
            with formatter.section(f"Options of {self.game.id} (-o NAME=VALUE)"):
                formatter.write_dl(rows)
        super().format_epilog(ctx, formatter)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as exc:
            hint = unknown_flag(self.game, exc.option_name)
            if hint is None:
                raise
            raise click.UsageError(hint, ctx) from None


def game_play_command(game: Game) -> GamePlay:
    """The `play` subcommand of `game`."""
    launch = launcher()

    # `--names A B` and `--names Me`: click options take a fixed number of values, so the
    # command takes one and finds the others among the extra arguments after it.
    @click.pass_context
    def play_cmd(ctx: click.Context, names: str | None, options: tuple[str, ...],
                 **values: Any) -> None:
        if ctx.args and names is None:
            raise click.UsageError(f"Got unexpected extra argument(s) ({' '.join(ctx.args)})")
        given = (names, *ctx.args) if names is not None else None
        named: dict[str, Any] = {}
        for flag in game.play_flags:
            named.update(flag.values(values.pop(flag.dest)))
        opts = launch.game_options(game, parse_options(options), **named)
        code = launch.play_command(
            game, given, opts, values["seed"], values["resume"], values["vs"], values["color"],
            values["script"], values["trace"], values["save"], values["clear"],
            values.get("classic", False), values["confirm"])
        sys.exit(code)

    return GamePlay(
        game, name=game.id, params=play_params(game, launch.DEFAULT_OPPONENT),
        callback=play_cmd, context_settings={"allow_extra_args": True}, short_help=game.title,
        help=f"Play {game.id} ({game.title}) in the terminal: hot-seat, against the computer, "
             "or from a script.")


class PlayGroup(BoardctGroup):
    """`boardct play GAME [OPTIONS]`: a subcommand per registered game, built when asked for
    (so playing one game imports only it)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return registry.ids()

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in registry.ids():
            return None
        try:
            return game_play_command(registry.get(cmd_name))
        except BoardctError:  # a game that does not load: `resolve_command` says why
            return None

    def resolve_command(self, ctx: click.Context, args: list[str]
                        ) -> tuple[str | None, click.Command | None, list[str]]:
        if args and not args[0].startswith("-") and self.get_command(ctx, args[0]) is None:
            game_play_command(registry.get(args[0]))  # raises: unknown game, or why not
        return super().resolve_command(ctx, args)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0].startswith("-") and args[0] not in ctx.help_option_names:
            raise click.UsageError(f"name the game first: boardct play GAME {args[0]} ... "
                                   f"(games: {', '.join(registry.ids())})", ctx)
        return super().parse_args(ctx, args)

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return [self.subcommand_metavar or "GAME"]

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The games, by id and title (without building their commands)."""
        rows = []
        for name in self.list_commands(ctx):
            try:
                rows.append((name, registry.get(name).title))
            except BoardctError:
                rows.append((name, "(cannot be loaded: boardct play " + name + " says why)"))
        if rows:
            with formatter.section("Games"):
                formatter.write_dl(rows)


def register_commands(cli: click.Group) -> None:
    """`play` (a subcommand per game) and `replay`."""

    @cli.group("play", cls=PlayGroup, subcommand_metavar="GAME [OPTIONS]...")
    def play_group() -> None:
        """Play GAME in the terminal: hot-seat, against the computer, or from a script.
        `boardct play GAME --help` shows the game's options, its own flags among them."""

    @cli.command("replay")
    @click.argument("record", metavar="RECORD")
    @click.option("--final", is_flag=True, help="Print the final screen and exit.")
    @click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto",
                  show_default=True)
    @click.option("--reveal", is_flag=True,
                  help="Unfinished games with hidden information or chance: show each "
                       "player's view, hand included (by default only what a spectator sees).")
    def replay_cmd(record, final, color, reveal):
        """Show a saved game move by move: RECORD is a file (a boardct record or a game's own
        save file) or the number of a game in `boardct history` (1: the newest)."""
        launcher().replay(record, final, color, reveal)
