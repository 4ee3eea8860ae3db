"""Errors raised on user input. Front ends catch `BoardctError` and print its message.

Every error says what was wrong and where; raising one never changes a game state.
"""

from __future__ import annotations


class BoardctError(Exception):
    """Base of every error caused by input (commands, files, options)."""


class ParseError(BoardctError):
    """A command's text is not in the game's notation."""

    def __init__(self, message: str, text: str = "", position: int | None = None):
        self.text = text
        self.position = position
        super().__init__(message)


class IllegalAction(BoardctError):
    """A well-formed action the rules forbid here; `rule` names the rule (e.g. "FS-8")."""

    def __init__(self, rule: str, message: str):
        self.rule = rule
        self.reason = message
        super().__init__(f"{message} [{rule}]")


class RecordError(BoardctError):
    """A record or save file is malformed or does not replay; `where` names line or field."""

    def __init__(self, where: str, message: str, source: str = ""):
        self.where = where
        self.source = source
        prefix = f"{source}: " if source else ""
        super().__init__(f"{prefix}{where}: {message}")


class DataError(BoardctError):
    """A data file (card, table, map) has a wrong field; names file and path inside it."""

    def __init__(self, source: str, path: str, message: str):
        self.source = source
        self.path = path
        where = f"{source}: {path}" if path else source
        super().__init__(f"{where}: {message}")


class OptionError(BoardctError):
    """An unknown game option or a value out of its choices."""
