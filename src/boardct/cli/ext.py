"""The extension point of the `boardct` command: what a game's own commands may use.

A game offers commands of its own (a moderator's workflow, a tool for its data files) in the
module its `Game.frontends.cli` names; that module exposes `COMMANDS`, a sequence of click
commands, and `boardct` adds them beside its own when it starts. Such a module imports this
module, the core and its own game's engine, never the terminal's internals, so the terminal
can change without breaking a game, and a game in a package of its own needs nothing more.

The same module may hold `LEGEND`, a text that says how to read the game's board at the
terminal (its tokens, letters and numbers): `help` at the table shows it after the game's
commands (`game_legend`). A game without one shows none. It may also hold
`mark_board(board, targets)`, which returns the board (a Rich `Text`) with the elements of
`targets` (`State.action_targets`: "sector:4") marked: the terminal marks the computer's last
move with it (`game_hook`). A game without it gets the move named under the board only. The
engine's `State.event_targets(events, viewer)` adds the board elements that the move's events
name as `viewer` saw them (filtered by `State.events_for` first: where a piece went, what it
hit), the same elements the pages mark. In a game with hidden information the move itself may
be secret (a sealed order), so there only those are marked, never its `action_targets`.

What is here: `click` itself (re-exported, so the game uses the same click as `boardct`); the
group and command classes that turn a `BoardctError` into the one-line message `error: ...`
and exit status 2, as every `boardct` command does; option types that read numbers only in
ASCII digits and within bounds; `-o NAME=VALUE` parsing; bounded reading of a text file whose
every problem is a `BoardctError` naming the file; and a path as it can be printed.
"""

from __future__ import annotations

import importlib
import math
import os
import re
from typing import Any

import click
from rich.text import Text

from boardct.core.errors import BoardctError
from boardct.core.inputs import MAX_FILE_BYTES, InputError, ascii_int, read_bytes, strip_bom

__all__ = [
    "MAX_FILE_BYTES",
    "AsciiInt",
    "BoardctCommand",
    "BoardctError",
    "BoardctGroup",
    "OneLineErrors",
    "SeedType",
    "Seconds",
    "click",
    "decode_text",
    "game_hook",
    "game_legend",
    "mark_span",
    "parse_options",
    "read_text",
    "shown",
]


class OneLineErrors:
    """Turns every `BoardctError` raised by the command into a one-line message on standard
    error (`error: ...`) and exit status 2: bad input is the user's to fix, not a traceback.
    Mixed into a click command or group (`BoardctGroup`, `BoardctCommand`)."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)  # type: ignore[misc]
        except BoardctError as exc:
            click.echo(f"error: {exc}", err=True)
            ctx.exit(2)


class BoardctGroup(OneLineErrors, click.Group):
    """A click group whose commands report a `BoardctError` in one line, exit status 2:
    `boardct` itself, and a game's group of commands (`@click.group(NAME, cls=BoardctGroup)`),
    which so behaves the same when invoked on its own."""


class BoardctCommand(OneLineErrors, click.Command):
    """A single click command that reports a `BoardctError` in one line, exit status 2."""


def game_hook(module_name: str | None, name: str) -> Any:
    """The attribute `name` of a game's CLI module (`Game.frontends.cli`), or None when it
    has none, or the module cannot be loaded (the game is still played; `boardct` reports the
    module's failure where it loads its commands)."""
    if not module_name:
        return None
    try:
        module = importlib.import_module(module_name)
    except Exception:  # a third-party game may fail in any way: nothing, the game goes on
        return None
    return getattr(module, name, None)


def game_legend(module_name: str | None) -> str:
    """The `LEGEND` text of a game's CLI module, or "" (see `game_hook`)."""
    legend = game_hook(module_name, "LEGEND")
    return legend.rstrip("\n") if isinstance(legend, str) else ""


def mark_span(row: Text, start: int, end: int, left: str = ">", right: str = "<") -> Text:
    """`row` with the characters `start:end` in reverse video and, to show the mark without
    colours too, `left` and `right` written over the characters just outside them where
    those are blanks (or `[`/`]`, a cell's own brackets), so the columns never move."""
    out = row.copy()
    out.stylize("reverse", start, end)
    plain = out.plain
    for at, char in ((start - 1, left), (end, right)):
        if 0 <= at < len(plain) and plain[at] in " []" and len(char) == 1:
            out = out[:at] + Text(char, style="bold") + out[at + 1:]
    return out


def parse_options(pairs: tuple[str, ...]) -> dict[str, str]:
    """`-o NAME=VALUE` options as a dict; a dash in NAME is read as an underscore."""
    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise click.BadParameter(f"{pair!r} is not NAME=VALUE", param_hint="--option")
        k, v = pair.split("=", 1)
        out[k.strip().replace("-", "_")] = v.strip()
    return out


class AsciiInt(click.ParamType):
    """A whole number in ASCII digits within [minimum, maximum]. click's own INT takes `١٢`
    (Arabic-Indic digits), `1_000` and numbers of thousands of digits."""

    name = "integer"

    def __init__(self, minimum: int, maximum: int):
        self.minimum = minimum
        self.maximum = maximum

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number: int | None = value
        else:
            text = str(value).strip()
            number = ascii_int(text.removeprefix("-"))
            if number is not None and text.startswith("-"):
                number = -number
        if number is None:
            self.fail(f"{str(value)[:40]!r} is not a whole number (ASCII digits)", param, ctx)
        if not self.minimum <= number <= self.maximum:
            self.fail(f"{number} is not within {self.minimum}-{self.maximum}", param, ctx)
        return number


class SeedType(click.ParamType):
    """A seed written with ASCII digits (an optional minus sign), below 2**64: click's int
    reads `٣` as 3, and a seed of 50 digits makes a save file no record reader accepts."""

    name = "integer"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> int:
        if isinstance(value, int):
            return value
        text = str(value).strip()
        number = ascii_int(text.removeprefix("-"), max_digits=20)
        if number is None or number >= 2**64:
            self.fail(f"{value!r} is not a whole number of ASCII digits below 2**64", param, ctx)
        return -number if text.startswith("-") else number


class Seconds(click.ParamType):
    """A finite number of seconds within (0, maximum]: `inf` and `nan` would run for ever."""

    name = "seconds"
    _FORM = re.compile(r"[0-9]{1,7}(\.[0-9]{0,6})?|\.[0-9]{1,6}", re.ASCII)

    def __init__(self, maximum: float = 3600.0):
        self.maximum = maximum

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> float:
        if isinstance(value, float):
            number = value
        elif self._FORM.fullmatch(str(value).strip()):
            number = float(str(value).strip())
        else:
            self.fail(f"{str(value)[:40]!r} is not a number of seconds", param, ctx)
        if not (math.isfinite(number) and 0 < number <= self.maximum):
            self.fail(f"{number} is not within 0-{self.maximum:.0f} seconds", param, ctx)
        return number


def shown(path: os.PathLike[str] | str) -> str:
    """A path as it can be printed: bytes that are not UTF-8 in a file name (kept by Python as
    lone surrogates) come out as escapes instead of crashing the terminal's encoder."""
    return str(path).encode("utf-8", "backslashreplace").decode("utf-8")


def decode_text(data: bytes, source: str) -> str:
    """UTF-8 bytes read from `source` as text (a byte-order mark dropped); anything else is a
    `BoardctError` naming the source and the first bad byte."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BoardctError(f"{source}: not a text file (not UTF-8 at byte {exc.start})"
                           ) from None
    return strip_bom(text)


def read_text(path: os.PathLike[str] | str, limit: int = MAX_FILE_BYTES, what: str = "file"
              ) -> str:
    """A UTF-8 text file of at most `limit` bytes (byte-order mark dropped). Anything else (a
    folder, a device, a file too large, one that cannot be opened, bytes that are not UTF-8)
    is a `BoardctError` that names the file and says what `what` could not be read."""
    try:
        data = read_bytes(path, limit, what)
    except InputError as exc:
        raise BoardctError(f"{shown(path)}: cannot read the {what} ({exc.reason})") from None
    return decode_text(data, shown(path))
