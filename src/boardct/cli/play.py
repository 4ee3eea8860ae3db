"""`boardct play GAME` and `boardct replay RECORD`.

`play` knows no game: it is a group with one subcommand per registered game, built from the
game when it is asked for, so `boardct play GAME --help` shows that game's own flags
(`Game.play_flags`, such as a shortcut for an option) and `--classic` only where the game has
an earlier tool's screen (`Game.classic_screen`), beside the options every game has.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from boardct.agents import make as make_agent
from boardct.cli import history
from boardct.cli.ext import BoardctGroup, SeedType, parse_options
from boardct.cli.terminal import (
    Session,
    make_console,
    name_problem,
    prepare_streams,
    read_line,
    run_replay,
    shown,
    stdin_is_terminal,
    wants_color,
)
from boardct.core import registry
from boardct.core.errors import BoardctError, OptionError, RecordError
from boardct.core.game import Game, State
from boardct.core.inputs import InputError, ascii_int, read_text
from boardct.core.options import PlayFlag
from boardct.core.records import Record, load_state, record_of

MAX_SCRIPT_BYTES = 4 * 1024 * 1024  # a script of a 10,000-move game is far smaller

# The computer's default: a search that thinks about a second a move (less when the move is
# clear), the strongest opponent that still feels quick.
DEFAULT_OPPONENT = "mcts:time=1"

SEED = SeedType()


def parse_vs(spec: str, default_agent: str) -> tuple[int, str]:
    """`--vs 2`, `--vs 2:random` or `--vs random` (the computer takes Player 2)."""
    side, _, agent = spec.partition(":")
    number = ascii_int(side)  # ASCII digits only: `²`.isdigit() is True, int() refuses it
    if number is not None:
        return number - 1, agent or default_agent
    return 1, spec


def computer_name(spec: str) -> str:
    """The name of a computer's seat: "Computer (mcts)" for the spec "mcts:time=1"."""
    return f"Computer ({spec.partition(':')[0].strip() or 'agent'})"


def seat_names(given: tuple[str, ...] | None, players: int, computer: dict[int, str],
               script: bool) -> tuple[str, ...] | None:
    """Every seat's name. The names given fill every seat (as many names as seats) or the
    people's seats in order (as many as there are people); a computer's seat is named after
    its agent, "Computer (mcts)". Without --names the people, and only they, are asked at the
    keyboard (not in a script). None: no names at all (a script without --names or --vs)."""
    humans = [p for p in range(players) if p not in computer]
    if given is not None:
        if len(given) == players:
            names = dict(enumerate(given))
        elif computer and len(given) == len(humans):
            names = dict(zip(humans, given, strict=True))
        else:
            need = (f"{players}" if not computer else
                    f"{players} (every seat) or {len(humans)} (the people's seats)")
            hint = "" if computer else (" (or the people's only, with --vs SIDE: the "
                                        "computer's seat needs no name)")
            raise OptionError(f"--names: {len(given)} name(s) given, the game needs "
                              f"{need}{hint}")
        for p, name in names.items():
            problem = name_problem(name)
            if problem is not None:
                raise OptionError(f"--names: the name of Player {p + 1} "
                                  f"({shown(repr(name))}) {problem}")
    elif script:
        if not computer:
            return None
        names = {}
    else:
        names = dict(zip(humans, ask_names(humans), strict=True))
    return tuple(names.get(p) or (computer_name(computer[p]) if p in computer else "")
                 for p in range(players))


def computer_seats(vs: str | None, players: int, title: str) -> dict[int, str]:
    """The seats `--vs` gives the computer, with each one's agent spec (checked now, before
    any name is asked); `--vs none`: nobody (a resumed game's computer seats become people's)."""
    if vs is None or vs.strip().lower() == "none":
        return {}
    side, agent_name = parse_vs(vs, DEFAULT_OPPONENT)
    if not 0 <= side < players:
        raise OptionError(f"--vs: there is no Player {side + 1} in {title}")
    make_agent(agent_name)  # an unknown agent or parameter fails here, not after the names
    return {side: agent_name}


def saved_seats(path: str, players: int) -> dict[int, str]:
    """The computer seats a saved game records ("seats"): {} for a record without them or a
    save file of another format (a game's own)."""
    try:
        seats = Record.load(path).seats
    except RecordError:
        return {}
    if seats is None or len(seats) != players:
        return {}
    return {p: spec for p, spec in enumerate(seats) if spec is not None}


def make_computer(specs: dict[int, str], state: State, source: str) -> dict:
    """The agents of the computer seats, each seeded from the game's seed and its seat."""
    computer = {}
    for p, spec in specs.items():
        try:
            computer[p] = make_agent(spec, seed=state.setup.seed + p)
        except BoardctError as exc:
            raise OptionError(f"{source}: the computer of Player {p + 1}: {exc} (--vs chooses "
                              "another, --vs none lets people play every seat)") from None
    return computer


def game_options(game: Game, given: dict[str, str], **named: str | None) -> dict[str, str]:
    """Merge -o NAME=VALUE with the named shortcuts (--ruleset ...) the game understands."""
    options = dict(given)
    for key, value in named.items():
        if value is None:
            continue
        game.option(key)  # an OptionError names the game's options when it has no such one
        options[key] = value
    return options


def check_names(state: State, source: str) -> None:
    """Every name must be one a record can hold, or no save of the game could be written."""
    for p, name in enumerate(state.setup.names):
        problem = name_problem(name)
        if problem is not None:
            raise OptionError(f"{source}: the name of Player {p + 1} ({shown(repr(name))}) "
                              f"{problem}")


def ask_names(seats: list[int]) -> tuple[str, ...]:
    """The names of the people's `seats`, typed at the keyboard (a computer's seat is not
    asked for); a name that cannot be saved is asked again. Input that ends first is an
    OptionError (give --names)."""
    names = []
    for p in seats:
        while True:
            try:
                name = read_line(f"Enter name of Player {p + 1}: ").strip()
            except (EOFError, KeyboardInterrupt):
                raise OptionError("input ended before the players' names were given "
                                  "(give them with --names A B)") from None
            problem = name_problem(name)
            if problem is None:
                names.append(name)
                break
            click.echo(f"That name {problem}; type another.")
    return tuple(names)


def read_script(script: str) -> list[str] | None:
    """The script's lines (bounded, a byte-order mark dropped); None after telling why not."""
    try:
        return read_text(script, MAX_SCRIPT_BYTES, "script").splitlines()
    except InputError as exc:
        click.echo(f"error: cannot read script {shown(script)}: {exc.reason}", err=True)
        return None


def play_command(game: Game, names: tuple[str, ...] | None, options: dict[str, str],
                 seed: int | None, resume: str | None, vs: str | None, color: str,
                 script: str | None, trace: bool, save: str | None, clear: bool | None,
                 classic: bool = False, confirm: bool = True) -> int:
    """Play `game` at the terminal; `options` are the game's (from -o and the game's flags).
    The exit status."""
    if classic and not game.classic_screen:  # it would only hide the events of the game
        raise OptionError(no_classic(game))
    prepare_streams()
    console = make_console(color)
    use_color = wants_color(console, color) and not classic  # the earlier tool had none
    lines = None
    if script is not None:
        lines = read_script(script)
        if lines is None:
            return 2
    if resume is not None:
        path = history.resolve(resume, "--resume")
        state = load_state(path)
        if state.game.id != game.id:
            raise BoardctError(f"{path} is a {state.game.title} game, not {game.title}")
        check_names(state, path)
        players = len(state.setup.names)
        if vs is None:  # the seats the game was played with, unless --vs says otherwise
            specs = saved_seats(path, players)
            source = f"{path}: seats"
            for p, spec in sorted(specs.items()):
                console.print(f"Player {p + 1} is played by the computer ({shown(spec)}), as "
                              "before (--vs changes it).", markup=False)
        else:
            specs = computer_seats(vs, players, game.title)
            source = "--vs"
    else:
        players = game.min_players
        if names is not None and len(names) >= game.min_players:
            players = len(names)  # games for more players: one name a seat
        specs = computer_seats(vs, players, game.title)
        source = "--vs"
        seated = seat_names(names, players, specs, script is not None)
        state = game.new(seed=seed, names=seated, **options)
    computer = make_computer(specs, state, source)
    keeper = history.Keeper(history.history_dir(), live=lines is None)
    session = Session(state, console, color=use_color, computer=computer,
                      save_path=Path(save) if save else None, classic=classic,
                      confirm=confirm, history=keeper, specs=specs)
    if lines is not None:
        return session.run_script(lines, trace)
    if clear is None:
        clear = stdin_is_terminal() and console.is_terminal
    return session.run_interactive(read_line, clear=clear)


def no_classic(game: Game) -> str:
    return f"--classic: {game.title} has no earlier tool's screen to show"


def common_options() -> list[click.Option]:
    """The options of every game's `play` command but --names (the game's flags come after
    --names, these after them)."""
    return [
        click.Option(["--option", "-o", "options"], multiple=True, metavar="NAME=VALUE",
                     help="Any game option, e.g. -o turn_limit=100 (`boardct games` lists "
                          "them)."),
        click.Option(["--seed"], type=SEED, default=None, help="Seed of the game's chance."),
        click.Option(["--resume"], default=None, metavar="FILE|N",
                     help="Go on with a saved game (a boardct record or the game's own save "
                          "file), or game N of boardct history; its computer seats play on "
                          "unless --vs."),
        click.Option(["--vs"], default=None, metavar="SIDE[:AGENT]",
                     help="The computer plays SIDE (1 or 2) with AGENT (default "
                          f"{DEFAULT_OPPONENT}), e.g. --vs 2, --vs 2:greedy, "
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


def play_params(game: Game) -> list[click.Parameter]:
    """Every option of `boardct play GAME`: --names, the game's flags, the options every game
    has, and --classic where the game has an earlier tool's screen."""
    names = click.Option(["--names"], default=None, metavar="A [B]",
                         help="The players' names; with --vs only the people's "
                              "(--names Me --vs 2).")
    rest = common_options() + ([classic_option()] if game.classic_screen else [])
    taken = {"--help", "-h", "help", CLASSIC}
    for opt in (names, *rest):
        taken.update((*opt.opts, *opt.secondary_opts, opt.name or ""))
    flags = [flag_option(game, flag, taken) for flag in game.play_flags]
    return [names, *flags, *rest]


def unknown_flag(game: Game, option: str) -> str | None:
    """What to say of an option `boardct play GAME` does not have, when it is one some other
    game has (another game's flag, --classic); None: click's own message will do."""
    if option == CLASSIC:
        return no_classic(game)
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
        opts = game_options(game, parse_options(options), **named)
        code = play_command(game, given, opts, values["seed"], values["resume"], values["vs"],
                            values["color"], values["script"], values["trace"],
                            values["save"], values["clear"], values.get("classic", False),
                            values["confirm"])
        sys.exit(code)

    return GamePlay(
        game, name=game.id, params=play_params(game), callback=play_cmd,
        context_settings={"allow_extra_args": True}, short_help=game.title,
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
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is not None:
                rows.append((name, cmd.get_short_help_str(formatter.width)))
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
        prepare_streams()
        state = load_state(history.resolve(record))
        console = make_console(color)
        use_color = wants_color(console, color)
        spectator = spectator_only(state, reveal)
        if spectator:
            console.print("This game is not over and its record holds hidden information: "
                          "showing only what a spectator sees (--reveal shows the players' "
                          "views).", markup=False)
        session = Session(state, console, color=use_color, spectator=spectator)
        if final:
            session.show_board()
            session.print_end()
            return
        run_replay(state, console, use_color, read_line, spectator=spectator)


def spectator_only(state: State, reveal: bool) -> bool:
    """Whether a replay shows only the spectator's view: an unfinished game of a game with
    hidden information or chance (its record's seed and actions reveal hands, tiles, coming
    flips and orders), unless --reveal. A finished game shows each player's view: nothing in
    it is secret any more."""
    return record_of(state).hidden and not state.is_over and not reveal
