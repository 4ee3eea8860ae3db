"""`boardct cards`: the Shift cards: list the shipped ones, show one, check a card file.

`boardct` adds these commands through `ShiftGame.frontends.cli`; like every game's commands
they use only the CLI's extension point (`boardct.cli.ext`), the core and the game's engine.
"""

from __future__ import annotations

from boardct.cli.ext import BoardctGroup, click
from boardct.games.shift import cardformat
from boardct.games.shift.cards import (
    card_text,
    check_file,
    load_file,
    resolve,
    shipped,
    shown,
)


@click.group("cards", cls=BoardctGroup)
def command() -> None:
    """Shift cards: list the shipped cards, show a card, check a card file."""


@command.command("list")
def list_cmd() -> None:
    """The shipped cards: the name to use with -o card1=NAME, the card's name, its ability."""
    for stem, path in shipped().items():
        card = load_file(path)
        click.echo(f"{stem:20} {card.name:20} {card.ability}")


@command.command("show")
@click.argument("card")
def show_cmd(card: str) -> None:
    """Show CARD (a shipped card's name or a TOML file): gears, mods and what they do."""
    click.echo(card_text(resolve(card)))


@command.command("check")
@click.argument("file")
@click.pass_context
def check_cmd(ctx: click.Context, file: str) -> None:
    """Validate a card FILE; print every problem with its place in the file.

    Exit status 0 when the card is valid (warnings allowed), 2 otherwise: also when FILE
    cannot be read as a card file (missing, a folder, a device, too large, not UTF-8).
    """
    # the file is read once, bounded (a folder or /dev/zero is a `DataError`, which the
    # group prints as one line with exit status 2)
    result = check_file(file)
    file = shown(file)
    for where, message in result.problems:
        click.echo(f"error: {file}: {where + ': ' if where else ''}{message}", err=True)
    for where, message in result.warnings:
        click.echo(f"warning: {file}: {where}: {message}", err=True)
    if result.problems:
        n = len(result.problems)
        click.echo(f"{file}: {n} problem{'s' if n > 1 else ''}", err=True)
        ctx.exit(2)
    assert result.card is not None
    click.echo(f"{file}: ok ({result.card.name})")


@command.command("schema")
@click.option("--write", is_flag=True,
              help="Regenerate the shipped card.schema.json instead of printing the schema.")
def schema_cmd(write: bool) -> None:
    """Print the JSON Schema of the card format (the shipped card.schema.json)."""
    if write:
        click.echo(f"wrote {cardformat.write_schema()}")
        return
    click.echo(cardformat.schema_text(), nl=False)


COMMANDS = (command,)
