"""Starting a game at the terminal from the arguments of `boardct play GAME` and `boardct
replay`: the seats, the players' names, the computer's players, a resumed game, a script.

The commands themselves are in `boardct.cli.play`, which imports this module only when a game
is played or its command built: the terminal (Rich) and the agents are not loaded when
`boardct` merely starts.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click
from rich.console import Console

from boardct.agents import make as make_agent
from boardct.cli import history
from boardct.cli.prompt import LineReader
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
from boardct.cli.wrap import wrap_line
from boardct.core.errors import BoardctError, OptionError, RecordError
from boardct.core.game import Game, State
from boardct.core.inputs import InputError, ascii_int, read_text
from boardct.core.records import Record, load_state, record_of

MAX_SCRIPT_BYTES = 4 * 1024 * 1024  # a script of a 10,000-move game is far smaller

# The computer's default: a search that thinks about a second a move (less when the move is
# clear), the strongest opponent that still feels quick.
DEFAULT_OPPONENT = "mcts:time=1"


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
               script: bool, read: Callable[[str], str] = read_line
               ) -> tuple[str, ...] | None:
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
        names = dict(zip(humans, ask_names(humans, read), strict=True))
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
    """Merge -o NAME=VALUE with the options set by the game's play flags (they win)."""
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


def ask_names(seats: list[int], read: Callable[[str], str] = read_line) -> tuple[str, ...]:
    """The names of the people's `seats`, typed at the keyboard (a computer's seat is not
    asked for); a name that cannot be saved is asked again. Input that ends first is an
    OptionError (give --names)."""
    names = []
    for p in seats:
        while True:
            try:
                name = read(f"Enter name of Player {p + 1}: ").strip()
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
    if classic and not game.classic_screen:
        raise OptionError(no_classic(game))
    prepare_streams()
    console = make_console(color)
    use_color = wants_color(console, color) and not classic  # the earlier tool had none
    reader = LineReader(game.id, plain=classic)
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
                tell(console, f"Player {p + 1} is played by the computer ({shown(spec)}), as "
                              "before (--vs changes it).")
        else:
            specs = computer_seats(vs, players, game.title)
            source = "--vs"
    else:
        players = game.min_players
        if names is not None and len(names) >= game.min_players:
            players = len(names)  # games for more players: one name a seat
        specs = computer_seats(vs, players, game.title)
        source = "--vs"
        check_options(game, options, players)  # a bad option fails before any name is asked
        seated = seat_names(names, players, specs, script is not None, reader)
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
    reader.private_seats = session.hands_over()  # nobody recalls another's secret orders
    return session.run_interactive(reader, clear=clear)


def check_options(game: Game, options: dict[str, str], players: int) -> None:
    """Every option checked as the game will take it, on a trial setup (seed 0, no names):
    a value out of range, a card or map that cannot be read, fails now, not after the
    players have typed their names."""
    game.new(seed=0, names=("",) * players, **options)


def tell(console: Console, text: str) -> None:
    """One message, cut between words to the terminal's width (whole into a pipe)."""
    for line in wrap_line(text, console.width if console.is_terminal else None):
        console.print(line, markup=False, highlight=False, soft_wrap=True)


def no_classic(game: Game) -> str:
    """Why `--classic` is refused for `game`: it would only hide the events of the game."""
    return f"--classic: {game.title} has no earlier tool's screen to show"


def replay(record: str, final: bool, color: str, reveal: bool) -> None:
    """Show the saved game `record` (a file or a number of `boardct history`) move by move,
    or only its final screen."""
    prepare_streams()
    state = load_state(history.resolve(record))
    console = make_console(color)
    use_color = wants_color(console, color)
    spectator = spectator_only(state, reveal)
    if spectator:
        tell(console, "This game is not over and its record holds hidden information: "
                      "showing only what a spectator sees (--reveal shows the players' "
                      "views).")
    session = Session(state, console, color=use_color, spectator=spectator)
    if final:
        session.show_board()
        session.print_end()
        return
    run_replay(state, console, use_color, LineReader(state.game.id), spectator=spectator)


def spectator_only(state: State, reveal: bool) -> bool:
    """Whether a replay shows only the spectator's view: an unfinished game of a game with
    hidden information or chance (its record's seed and actions reveal hands, tiles, coming
    flips and orders), unless --reveal. A finished game shows each player's view: nothing in
    it is secret any more."""
    return record_of(state).hidden and not state.is_over and not reveal
