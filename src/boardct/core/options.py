"""A game's options, and the flags a game adds to `boardct play` for some of them.

Both are plain data: the engine declares them, and each front end turns them into its own
controls (click options at the terminal, fields in the lobby), so no game imports a front end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boardct.core.errors import OptionError
from boardct.core.inputs import MAX_TEXT as MAX_OPTION_TEXT
from boardct.core.inputs import ascii_int


@dataclass(frozen=True)
class Option:
    """A game option: name, default, help, and either fixed choices or a value type."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    type: type = str
    minimum: int | None = None
    maximum: int | None = None  # every number has one, so no record can ask for 10**7 bots
    # The value may name a file or folder on this machine (a map, tables, a layout, a card
    # file) that the game reads. A remote client (the server) must never make the machine read
    # a file, so front ends that take options from the network refuse a value for which
    # `names_file` is true and offer only `remote_choices` for such an option.
    local_file: bool = False

    def names_file(self, value: Any) -> bool:
        """Whether `value`, given for this option, would make the game read a file or folder
        on this machine. By default, for a `local_file` option, every non-empty value on one
        line (the games take text with a newline as the content itself); an option that knows
        its values better (built-in card names) overrides it. Decided from the text alone,
        without looking at the file system, so asking never touches a file."""
        if not self.local_file or not isinstance(value, str):
            return False
        text = value.strip()
        return bool(text) and "\n" not in text

    def remote_choices(self) -> tuple[Any, ...] | None:
        """The values of a `local_file` option that name no file (built-in cards), which a
        remote client may choose from; None: the option is not offered remotely at all."""
        return None

    def convert(self, value: Any) -> Any:
        """Check (and convert from text) a value given for this option."""
        if self.type is int and isinstance(value, str):
            number = ascii_int(value.strip().removeprefix("-"))
            if number is None:
                raise OptionError(f"option {self.name}: {value!r} is not a whole number")
            value = -number if value.strip().startswith("-") else number
        if self.type is bool and isinstance(value, str):
            low = value.lower()
            if low not in ("true", "false", "yes", "no", "1", "0"):
                raise OptionError(f"option {self.name}: {value!r} is not true or false")
            value = low in ("true", "yes", "1")
        if self.choices is not None and value not in self.choices:
            shown = ", ".join(str(c) for c in self.choices)
            raise OptionError(f"option {self.name}: {value!r} is not one of {shown}")
        if self.type is int and isinstance(value, bool):  # True is an int to Python, not to us
            raise OptionError(f"option {self.name}: {value!r} is not a whole number")
        if self.choices is None and not isinstance(value, self.type):
            raise OptionError(f"option {self.name}: {value!r} is not a {self.type.__name__}")
        if self.type is bool and not isinstance(value, bool):
            raise OptionError(f"option {self.name}: {value!r} is not true or false")
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"option {self.name}: {value!r} is below {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"option {self.name}: {value!r} is above {self.maximum}")
        if isinstance(value, str) and len(value) > MAX_OPTION_TEXT:
            raise OptionError(f"option {self.name}: longer than {MAX_OPTION_TEXT:,} characters")
        return value


@dataclass(frozen=True)
class PlayFlag:
    """A shortcut a game adds to `boardct play GAME` for some of its options: `--ruleset
    stdex` for `-o ruleset=stdex`, `--cards A B` for `-o card1=A -o card2=B` (one value per
    option named, in order). The terminal builds the click option from it; the game stays
    free of click."""

    flag: str  # "--ruleset"
    options: tuple[str, ...]  # the options it sets, one value each
    help: str
    metavar: str = ""

    @property
    def dest(self) -> str:
        """The Python name the flag's value goes to: "--ruleset" -> "ruleset"."""
        return self.flag.lstrip("-").replace("-", "_")

    def values(self, given: Any) -> dict[str, Any]:
        """The options set by the flag's value (a single value, or a tuple of as many values
        as options); {} for no value."""
        if given is None:
            return {}
        if len(self.options) == 1:
            return {self.options[0]: given}
        return dict(zip(self.options, given, strict=True))
