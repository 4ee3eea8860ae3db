"""Sealed Bids' own `boardct` command: `boardct sealed rules`. It uses only the CLI's
extension point (`boardct.cli.ext`) and the game's engine."""

from __future__ import annotations

from boardct.cli.ext import BoardctGroup, click
from boardct_sealed import game


@click.group("sealed", cls=BoardctGroup)
def command() -> None:
    """Sealed Bids: its rules."""


@command.command("rules")
def rules_cmd() -> None:
    """Print the rules of Sealed Bids (SB-1 to SB-6)."""
    doc = game.__doc__ or ""
    start = doc.index("Rules")
    click.echo(doc[start:doc.index("It is the tests'")].rstrip())


COMMANDS = (command,)
