"""A game extends `boardct` from its own package: its commands (the module its
`frontends.cli` names, exposing `COMMANDS`), the flags it adds to `boardct play GAME`
(`Game.play_flags`), `--classic` where it has an earlier tool's screen, and the JSON Schema of
its views (`boardct schema GAME`). Made-up games registered by the tests show that nothing in
the CLI names a game."""

from __future__ import annotations

import importlib
import json
import sys
import types
from typing import ClassVar

import click
import jsonschema
import pytest
from click.testing import CliRunner

from boardct.cli.main import cli
from boardct.core import registry
from boardct.core.errors import BoardctError
from boardct.core.frontends import FrontEnds
from boardct.core.game import Game, Option, PlayFlag, Setup
from boardct.core.view import view_schema


class ToyGame(Game):
    """A game that is never played: setting one up reports the options it was given, which
    is all these tests need to see what `boardct play` made of the command line."""

    id: ClassVar[str] = "toy"
    title: ClassVar[str] = "Toy of the CLI tests"
    options: ClassVar[tuple[Option, ...]] = (
        Option("level", 1, "how hard", type=int, minimum=1, maximum=9),
        Option("width", 5, "columns", type=int, minimum=1, maximum=20),
        Option("height", 5, "rows", type=int, minimum=1, maximum=20),
    )
    play_flags: ClassVar[tuple[PlayFlag, ...]] = (
        PlayFlag("--level", ("level",), "How hard the toy is, 1 to 9.", "N"),
        PlayFlag("--size", ("width", "height"), "Columns and rows.", "W H"),
    )

    def initial_state(self, setup: Setup):
        raise BoardctError(f"toy set up with {sorted(setup.options.items())}")


def toy_game(game_id: str, cli_module: str | None = None, **attributes) -> Game:
    """A ToyGame class of its own under `game_id`, with `cli_module` as its CLI module."""
    cls = type(f"Toy_{game_id}", (ToyGame,),
               {"id": game_id, "frontends": FrontEnds(cli=cli_module), **attributes})
    return cls()


@pytest.fixture
def register():
    """Register made-up games for one test; the registry and the CLI's list of game commands
    are as before afterwards."""
    added = []

    def add(game: Game) -> Game:
        registry.register(game)
        added.append(game.id)
        cli.forget_game_commands()
        return game

    yield add
    for game_id in added:
        registry.unregister(game_id)
    cli.forget_game_commands()


@pytest.fixture
def cli_module(monkeypatch):
    """Make an importable module `name` holding `COMMANDS` (for one test)."""

    def make(name: str, commands) -> str:
        module = types.ModuleType(name)
        module.COMMANDS = commands
        monkeypatch.setitem(sys.modules, name, module)
        return name

    return make


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False, prog_name="boardct")


def reports_of_help() -> list[str]:
    """The lines `boardct --help` prints on standard error before a test registers a game
    (none, unless a game installed beside boardct's is broken)."""
    cli.forget_game_commands()
    return invoke("--help").stderr.splitlines()


def real_game_commands() -> dict[str, str]:
    """{command name: game id} of the commands boardct's own games bring."""
    out = {}
    for game in registry.all_games():
        if game.frontends.cli and game.package.startswith("boardct."):
            for command in importlib.import_module(game.frontends.cli).COMMANDS:
                out[command.name] = game.id
    return out


# -- a game's own commands ---------------------------------------------------------------------
def test_every_command_a_game_brings_is_listed_and_runs():
    commands = real_game_commands()
    assert len(commands) >= 2
    listing = invoke("--help").stdout
    for name in commands:
        assert f"\n  {name} " in listing
        result = invoke(name, "--help")
        assert result.exit_code == 0 and f"boardct {name}" in result.output


def test_a_game_whose_commands_do_not_import_is_reported_in_one_line_and_the_rest_works(
        register):
    commands = real_game_commands()
    before = reports_of_help()
    register(toy_game("brokencli", "boardct_tests_no_such_package.cli"))
    result = invoke("--help")
    assert result.exit_code == 0
    lines = [line for line in result.stderr.splitlines() if line not in before]
    assert len(lines) == 1
    assert "brokencli" in lines[0] and "boardct_tests_no_such_package" in lines[0]
    assert "ModuleNotFoundError" in lines[0]
    for name in [*commands, "play", "games", "schema"]:
        assert f"\n  {name} " in result.stdout
    assert "brokencli" in invoke("games").stdout
    for name in commands:
        assert invoke(name, "--help").exit_code == 0


def test_a_games_commands_from_its_module_join_boardct(register, cli_module):
    @click.command("toy-hello")
    @click.argument("who")
    def hello(who: str) -> None:
        """Say hello from the toy."""
        click.echo(f"hello {who}")

    register(toy_game("toycmd", cli_module("boardct_tests_toy_cli", (hello,))))
    assert "toy-hello" in invoke("--help").stdout
    result = invoke("toy-hello", "you")
    assert result.exit_code == 0 and result.stdout == "hello you\n"


def test_a_game_command_that_fails_with_a_boardct_error_prints_one_line_exit_2(
        register, cli_module):
    @click.command("toy-fail")
    def fail() -> None:
        raise BoardctError("the toy is broken")

    register(toy_game("toyfail", cli_module("boardct_tests_toy_fail_cli", [fail])))
    result = invoke("toy-fail")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == "error: the toy is broken"  # after any report


def test_a_game_command_named_as_one_of_boardcts_own_is_left_out_with_a_line(
        register, cli_module):
    @click.command("play")
    def impostor() -> None:
        click.echo("not the real play")

    before = reports_of_help()
    register(toy_game("toyplay", cli_module("boardct_tests_toy_play_cli", (impostor,))))
    result = invoke("--help")
    assert result.exit_code == 0
    lines = [line for line in result.stderr.splitlines() if line not in before]
    assert len(lines) == 1 and "'play' of toyplay is left out" in lines[0]
    assert "not the real play" not in invoke("play", "--help").output


def test_commands_that_are_not_click_commands_are_reported(register, cli_module):
    register(toy_game("toyjunk", cli_module("boardct_tests_toy_junk_cli", ("play",))))
    result = invoke("games")  # boardct's own commands do not look at the games' commands
    assert result.exit_code == 0 and result.stderr == ""
    result = invoke("no-such-command")
    assert result.exit_code == 2
    assert "toyjunk" in result.stderr and "not a named click command" in result.stderr


# -- boardct play GAME: the game's own flags -----------------------------------------------------
def test_play_lists_every_game_by_title():
    result = invoke("play", "--help")
    assert result.exit_code == 0
    for game in registry.all_games():
        assert f"\n  {game.id}" in result.stdout and game.title in result.stdout


@pytest.mark.parametrize("game_id", registry.ids())
def test_play_help_of_a_game_shows_its_flags_options_and_classic_only_where_it_has_one(
        game_id):
    game = registry.get(game_id)
    result = invoke("play", game_id, "--help")
    assert result.exit_code == 0 and f"boardct play {game_id} [OPTIONS]" in result.stdout
    for flag in game.play_flags:
        assert flag.flag in result.stdout
    others = {f.flag for g in registry.all_games() for f in g.play_flags} - {
        f.flag for f in game.play_flags}
    for flag in others:
        assert flag not in result.stdout
    assert ("--classic" in result.stdout) == game.classic_screen
    options = result.stdout.partition(f"Options of {game_id} (-o NAME=VALUE):")[2]
    for opt in game.options:
        assert f"  {opt.name}=" in options
    for common in ("--names", "--option", "--seed", "--resume", "--vs", "--script", "--save"):
        assert common in result.stdout


def test_a_games_flags_set_its_options(register):
    register(toy_game("toyflags"))
    result = invoke("play", "toyflags", "--level", "3", "--size", "7", "4", "--names", "A",
                    "B")
    assert result.exit_code == 2
    assert "toy set up with [('height', 4), ('level', 3), ('width', 7)]" in result.stderr


def test_a_flag_overrides_the_same_option_given_with_o(register):
    register(toy_game("toyover"))
    result = invoke("play", "toyover", "-o", "level=2", "--level", "5", "-o", "width=9",
                    "--names", "A", "B")
    assert "('level', 5)" in result.stderr and "('width', 9)" in result.stderr


def test_a_flags_value_is_checked_as_its_option_is(register):
    register(toy_game("toycheck"))
    result = invoke("play", "toycheck", "--level", "12", "--names", "A", "B")
    assert result.exit_code == 2
    assert result.stderr == "error: option level: 12 is above 9\n"


def test_another_games_flag_is_refused_naming_whose_it_is(register):
    register(toy_game("toyown"))
    register(toy_game("toyother", play_flags=(PlayFlag("--colour", ("colour",), "A colour."),)))
    result = invoke("play", "toyown", "--colour", "red", "--names", "A", "B")
    assert result.exit_code == 2
    assert "--colour is a flag of toyother; toyown has no option 'colour'" in result.output


def test_an_unknown_flag_is_a_usage_error_with_the_games_help_named(register):
    register(toy_game("toyunknown"))
    result = invoke("play", "toyunknown", "--lvl", "3")
    assert result.exit_code == 2
    assert "No such option" in result.output and "--level" in result.output
    assert "boardct play toyunknown --help" in result.output


def test_classic_is_offered_only_by_a_game_with_an_earlier_tools_screen(register):
    register(toy_game("toyplain"))
    register(toy_game("toyclassic", classic_screen=True))
    assert "--classic" not in invoke("play", "toyplain", "--help").stdout
    assert "--classic" in invoke("play", "toyclassic", "--help").stdout
    result = invoke("play", "toyplain", "--classic", "--names", "A", "B")
    assert result.exit_code == 2
    assert "--classic: Toy of the CLI tests has no earlier tool's screen" in result.output


@pytest.mark.parametrize("flag", ["--seed", "--names", "--classic", "-o", "--help"])
def test_a_flag_that_clashes_with_plays_own_options_is_the_games_error(register, flag):
    register(toy_game("toyclash", play_flags=(PlayFlag(flag, ("level",), "Clash."),)))
    result = invoke("play", "toyclash", "--names", "A", "B")
    assert result.exit_code == 2
    assert "toyclash: the play flag" in result.stderr and flag in result.stderr
    assert invoke("play", "--help").exit_code == 0  # the other games are still listed


def test_an_unknown_game_is_named_with_the_known_ones():
    result = invoke("play", "nosuchgame", "--names", "A", "B")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: unknown game 'nosuchgame' (known: ")


def test_options_before_the_game_ask_for_the_game_first():
    result = invoke("play", "--seed", "3", registry.ids()[0])
    assert result.exit_code == 2
    assert "name the game first: boardct play GAME --seed" in result.output


def test_playing_one_game_loads_no_other_game():
    """`boardct play GAME` builds only that game's command: the other games' packages are not
    imported (start-up time)."""
    import subprocess

    games = registry.all_games()
    target = games[0]
    code = ("import sys\n"
            "from boardct.cli.main import cli\n"
            "try:\n"
            f"    cli.main(['play', {target.id!r}, '--help'], standalone_mode=False)\n"
            "except SystemExit:\n"
            "    pass\n"
            "print(' '.join(sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    loaded = set(out.split())
    assert target.package in loaded
    assert [g.id for g in games[1:] if g.package in loaded] == []


# -- boardct schema GAME ----------------------------------------------------------------------
@pytest.mark.parametrize("game_id", registry.ids())
def test_schema_prints_the_json_schema_of_the_games_views(game_id):
    game = registry.get(game_id)
    result = invoke("schema", game_id)
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema == view_schema(game)
    jsonschema.Draft202012Validator.check_schema(schema)
    state = game.new(seed=1)
    for viewer in (None, 0):
        jsonschema.validate(state.view(viewer), schema)


def test_schema_of_an_unknown_game_is_a_one_line_error():
    result = invoke("schema", "nosuchgame")
    assert result.exit_code == 2 and result.stderr.startswith("error: unknown game")
