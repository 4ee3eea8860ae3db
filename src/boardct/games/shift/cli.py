"""`boardct cards`: the Shift cards: list the shipped ones, show one, check a card file; and
the mark the terminal puts on the board for the computer's last move (`mark_board`).

`boardct` adds these commands through `ShiftGame.frontends.cli`; like every game's commands
they use only the CLI's extension point (`boardct.cli.ext`), the core and the game's engine.
"""

from __future__ import annotations

import re

from rich.text import Text

from boardct.cli.ext import BoardctGroup, click, mark_span
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


# How to read the board, shown by `help` at the terminal (boardct.cli.ext: a game's LEGEND).
LEGEND = """\
Reading the cards (Shift):
  gear 1, 2L, 3, 2R   the four gears, a ring 1-2L-3-2R-1; > marks the current one.
                      Each shows its level, power and guard (compact board: >2L L2
                      3/2 is the current gear 2L, level 2, power 3, guard 2).
  alpha HW            a mod: its type (alpha, beta, omega attack; a delta always
                      applies) and its activation, a coin pattern: H heads, T
                      tails, W either. It succeeds with at least as many heads as
                      H and tails as T (SH-19).
  beta spirit 1       a mod activated by burning 1 spirit instead of coins.
  [crit damage]       its critical: when every coin shows its place's face.
  ooooo LL x          tokens: o in the stack, L lit in the damage zone (spirit to
                      burn), x burnt. Damage is every token in the zone; a player
                      dealt damage with 5 there loses (SH-13, SH-14).
  Last coins          the latest coin flips: the toss, then each player's (P1,
                      P2), heads H and tails T."""


_GEAR_LINE = re.compile(r"  [> ] gear (\S+)")
MARK = " <"  # after the gear's line, where the board has nothing


def mark_board(board: Text, targets: tuple[str, ...]) -> Text:
    """`board` with the gears of `targets` (`gear:0:2L`, the page's names: the gear shifted
    to, attacked with or guarding) marked on their card: the gear's line in reverse video,
    `*` before it and `<` after it (the mark shows without colours too). A board without the
    cards' gear lines (the compact one) is left as it is."""
    wanted = set()
    for target in targets:
        kind, _, rest = target.partition(":")
        player, _, gear = rest.partition(":")
        if kind == "gear" and player in ("0", "1") and gear:
            wanted.add((int(player), gear))
    if not wanted:
        return board
    rows = board.split("\n", allow_blank=True)
    card = -1  # whose card the lines are on: the n-th "  Ability:" line starts card n
    hit = False
    for k, row in enumerate(rows):
        plain = row.plain
        if plain.startswith("  Ability:"):
            card += 1
            continue
        found = _GEAR_LINE.match(plain)
        if found and (card, found.group(1)) in wanted:
            marked = mark_span(row, 2, len(plain.rstrip()), left="*", right=" ")
            marked.append(MARK, style="bold")
            rows[k] = marked
            hit = True
    return Text("\n").join(rows) if hit else board
