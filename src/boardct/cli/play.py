"""`boardct play GAME` and `boardct replay RECORD`."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from boardct.agents import make as make_agent
from boardct.cli.terminal import Session, make_console, run_replay, wants_color
from boardct.core import registry
from boardct.core.errors import BoardctError, OptionError
from boardct.core.game import Game
from boardct.core.records import load_state

# The computer's default: a search that thinks about a second a move (less when the move is
# clear), the strongest opponent that still feels quick.
DEFAULT_OPPONENT = "mcts:time=1"


def parse_vs(spec: str, default_agent: str) -> tuple[int, str]:
    """`--vs 2`, `--vs 2:random` or `--vs random` (the computer takes Player 2)."""
    side, _, agent = spec.partition(":")
    if side.isdigit():
        return int(side) - 1, agent or default_agent
    return 1, spec


def game_options(game: Game, given: dict[str, str], **named: str | None) -> dict[str, str]:
    """Merge -o NAME=VALUE with the named shortcuts (--ruleset ...) the game understands."""
    options = dict(given)
    for key, value in named.items():
        if value is None:
            continue
        game.option(key)  # an OptionError names the game's options when it has no such one
        options[key] = value
    return options


def read_line(prompt: str) -> str:
    return input(prompt)


def play_command(game_id: str, names: tuple[str, str] | None, ruleset: str | None,
                 violations: str | None, cards: tuple[str, str] | None,
                 options: dict[str, str], seed: int | None, resume: str | None,
                 vs: str | None, color: str, script: str | None, trace: bool,
                 save: str | None, clear: bool | None) -> int:
    game = registry.get(game_id)
    named = {"ruleset": ruleset, "violations": violations}
    if cards:
        named.update(card1=cards[0], card2=cards[1])
    opts = game_options(game, options, **named)
    console = make_console(color)
    use_color = wants_color(console, color)
    lines = None
    if script is not None:
        try:
            lines = Path(script).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            reason = getattr(exc, "strerror", None) or str(exc)
            click.echo(f"error: cannot read script {script}: {reason}", err=True)
            return 2
    if resume is not None:
        state = load_state(resume)
        if state.game.id != game.id:
            raise BoardctError(f"{resume} is a {state.game.title} game, not {game.title}")
    else:
        if names is None and script is None:
            names = tuple(input(f"Enter name of Player {p + 1}: ").strip()
                          for p in range(game.min_players))
        state = game.new(seed=seed, names=names, **opts)
    computer = {}
    if vs is not None:
        side, agent_name = parse_vs(vs, DEFAULT_OPPONENT)
        if not 0 <= side < len(state.setup.names):
            raise OptionError(f"--vs: there is no Player {side + 1} in {game.title}")
        computer[side] = make_agent(agent_name, seed=state.setup.seed + side)
    session = Session(state, console, color=use_color, computer=computer,
                      save_path=Path(save) if save else None)
    if lines is not None:
        return session.run_script(lines, trace)
    if clear is None:
        clear = sys.stdin.isatty() and console.is_terminal
    return session.run_interactive(read_line, clear=clear)


def register_commands(cli: click.Group) -> None:
    @cli.command("play")
    @click.argument("game_id", metavar="GAME")
    @click.option("--names", nargs=2, default=None, metavar="A B", help="The players' names.")
    @click.option("--ruleset", default=None, help="FieldShift: lstd, stdex or type-a.")
    @click.option("--violations", default=None,
                  help="FieldShift: dispute (carried out, disputable) or reject.")
    @click.option("--cards", nargs=2, default=None, metavar="A B",
                  help="Shift: the two cards (shipped names or TOML files).")
    @click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
                  help="Any game option, e.g. -o turn_limit=100.")
    @click.option("--seed", type=int, default=None, help="Seed of the game's chance.")
    @click.option("--resume", default=None, metavar="FILE",
                  help="Go on with a saved game (a boardct record or an fs_save_ file).")
    @click.option("--vs", default=None, metavar="SIDE[:AGENT]",
                  help="The computer plays SIDE (1 or 2) with AGENT (default "
                       f"{DEFAULT_OPPONENT}), e.g. --vs 2, --vs 2:greedy, "
                       "--vs 1:mcts:time=5.")
    @click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto",
                  show_default=True, help="Colours for the sides and terrain.")
    @click.option("--script", default=None, metavar="FILE",
                  help="Read tokens one per line (# comments); print the final screen.")
    @click.option("--trace", is_flag=True, help="With --script: print every step.")
    @click.option("--save", default=None, metavar="FILE",
                  help="Keep the game's record in FILE, rewritten after every command.")
    @click.option("--clear/--no-clear", default=None,
                  help="Clear the terminal before each screen (default: when interactive).")
    def play_cmd(game_id, names, ruleset, violations, cards, options, seed, resume, vs, color,
                 script, trace, save, clear):
        """Play GAME in the terminal: hot-seat, against the computer, or from a script."""
        from boardct.cli.main import parse_options

        code = play_command(game_id, names, ruleset, violations, cards, parse_options(options),
                            seed, resume, vs, color, script, trace, save, clear)
        sys.exit(code)

    @cli.command("replay")
    @click.argument("record", metavar="RECORD")
    @click.option("--final", is_flag=True, help="Print the final screen and exit.")
    @click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto",
                  show_default=True)
    def replay_cmd(record, final, color):
        """Show a saved game (a boardct record or an fs_save_ file) move by move."""
        state = load_state(record)
        console = make_console(color)
        use_color = wants_color(console, color)
        session = Session(state, console, color=use_color)
        if final:
            session.show_board()
            console.print(session.end_line(), markup=False)
            return
        run_replay(state, console, use_color, read_line)
