"""Reading untrusted input: files, JSON, TOML and numbers, always bounded, always a clear error.

Everything a player or a file hands to boardct passes through here before a game sees it, so
that no input can crash a command with a traceback, exhaust memory, hang on `/dev/zero`, or
smuggle text that cannot be printed or saved. Every failure is an `InputError` (a
`BoardctError`) that says what was wrong and where.

- `read_text(path)` reads at most `limit` bytes of a regular file as UTF-8, dropping the
  byte-order mark that Windows Notepad writes.
- `parse_json` / `parse_toml` load a document and check its shape: nesting depth, numbers of
  bounded size and finite, text that is valid Unicode (no lone surrogates).
- `ascii_int` reads a whole number written with ASCII digits only: `str.isdigit()` accepts
  `²` and Arabic-Indic digits that `int()` refuses or reads differently.
"""

from __future__ import annotations

import json
import math
import os
import stat
import tomllib
from pathlib import Path
from typing import Any

from boardct.core.errors import BoardctError

BOM = "\ufeff"
MAX_FILE_BYTES = 4 * 1024 * 1024  # records, sheets, cards, tables, maps: all far smaller
MAX_DEPTH = 32  # deeper than any document boardct writes or reads
MAX_DIGITS = 40  # no number in any game needs more digits (seeds are 64-bit: 20 digits)
MAX_TEXT = 100_000  # characters in one string of a document


class InputError(BoardctError):
    """Input that cannot be read as asked: names the source and what was wrong."""

    def __init__(self, source: str, message: str, where: str = ""):
        self.source = source
        self.where = where
        self.reason = message
        super().__init__(": ".join(x for x in (source, where, message) if x))


def strip_bom(text: str) -> str:
    """The text without a leading UTF-8 byte-order mark."""
    return text[1:] if text.startswith(BOM) else text


def decode(data: bytes, source: str = "") -> str:
    """UTF-8 bytes as text (a byte-order mark dropped); names the first bad byte's offset."""
    try:
        return strip_bom(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InputError(source, f"not UTF-8 text (byte {exc.start})") from None


def read_bytes(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES,
               what: str = "file") -> bytes:
    """At most `limit` bytes of a regular file; anything else (a folder, a device, a file too
    large, a file that cannot be opened) is an `InputError` naming the path."""
    source = str(path)
    if "\x00" in source:
        raise InputError(repr(source), f"a {what} name cannot hold a NUL character")
    try:
        # stat before opening: opening a FIFO would wait for a writer, a device never ends
        mode = os.stat(path).st_mode
        if stat.S_ISDIR(mode):
            raise InputError(source, f"is a folder, not a {what}")
        if not stat.S_ISREG(mode):
            raise InputError(source, f"is not a regular {what}")
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except InputError:
        raise
    except (OSError, ValueError) as exc:
        raise InputError(source, getattr(exc, "strerror", None) or str(exc)) from None
    if len(data) > limit:
        raise InputError(source, f"{what} is larger than {limit:,} bytes")
    return data


def read_text(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES, what: str = "file") -> str:
    """A bounded UTF-8 text file, byte-order mark dropped."""
    return decode(read_bytes(path, limit, what), str(path))


def looks_like_path(value: str) -> bool:
    """Whether an option's value names a file rather than holding the text itself."""
    if not value or "\n" in value or "\x00" in value or len(value) > 4096:
        return False
    try:
        return Path(value).is_file()
    except (OSError, ValueError):  # a name too long for the file system, say
        return False


def shown(text: str, limit: int | None = 40, quote: bool = True) -> str:
    """Typed or read text as an error message may print it: escaped, so that no control
    character from a file, a record or a remote player reaches the terminal, and cut short
    (`limit` None: never cut). `quote`: always in Python quotes (a token); else as given, only
    the characters that are not printable written as Python escapes (a name, a line)."""
    if quote:
        text = repr(text)
    elif not text.isprintable():
        text = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)
    return text if limit is None or len(text) <= limit else text[:limit] + "..."


def ascii_int(text: str, max_digits: int = MAX_DIGITS) -> int | None:
    """`text` as a whole number if it is only ASCII digits (at most `max_digits`), else None."""
    if text and len(text) <= max_digits and text.isascii() and text.isdigit():
        return int(text)
    return None


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number of {len(text)} digits (at most {MAX_DIGITS})")
    return int(text)


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number boardct accepts")


def check_shape(doc: Any, source: str = "", max_depth: int = MAX_DEPTH) -> Any:
    """Check a loaded document without recursion: depth, finite numbers of bounded size, and
    strings that are valid Unicode of bounded length. Returns `doc`."""
    stack: list[tuple[Any, str, int]] = [(doc, "", 0)]
    while stack:
        node, where, depth = stack.pop()
        here = where or "document"
        if depth > max_depth:
            raise InputError(source, f"{here}: nested more than {max_depth} levels deep")
        if isinstance(node, dict):
            for key, value in node.items():
                _check_string(str(key), source, here)
                stack.append((value, f"{where}.{key}" if where else str(key), depth + 1))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                stack.append((value, f"{where}[{i}]", depth + 1))
        elif isinstance(node, str):
            _check_string(node, source, here)
        elif isinstance(node, bool):
            pass
        elif isinstance(node, int):
            if abs(node) >= 10 ** MAX_DIGITS:
                raise InputError(source, f"{here}: number too large")
        elif isinstance(node, float) and not math.isfinite(node):
            raise InputError(source, f"{here}: {node} is not a finite number")
    return doc


def _check_string(text: str, source: str, where: str) -> None:
    if len(text) > MAX_TEXT:
        raise InputError(source, f"{where}: text longer than {MAX_TEXT:,} characters")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError(source, f"{where}: not valid Unicode text (character "
                                 f"{exc.start + 1})") from None


def parse_json(text: str, source: str = "", max_depth: int = MAX_DEPTH) -> Any:
    """A JSON document, checked by `check_shape`. Broken JSON names its line and column."""
    try:
        doc = json.loads(strip_bom(text), parse_int=_bounded_int, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise InputError(source, f"not valid JSON ({exc.msg})",
                         f"line {exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise InputError(source, f"nested more than {max_depth} levels deep") from None
    except ValueError as exc:
        raise InputError(source, str(exc)) from None
    return check_shape(doc, source, max_depth)


def parse_toml(text: str, source: str = "", max_depth: int = MAX_DEPTH) -> dict[str, Any]:
    """A TOML document, checked by `check_shape` (so `inf` and `nan` are refused)."""
    try:
        doc = tomllib.loads(strip_bom(text))
    except tomllib.TOMLDecodeError as exc:
        raise InputError(source, f"not valid TOML ({exc})") from None
    except RecursionError:
        raise InputError(source, f"nested more than {max_depth} levels deep") from None
    except ValueError as exc:  # a number tomllib cannot convert (too many digits)
        raise InputError(source, f"not valid TOML ({exc})") from None
    checked: dict[str, Any] = check_shape(doc, source, max_depth)
    return checked
