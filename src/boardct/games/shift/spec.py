"""A tiny declarative schema language: one definition both validates data and yields JSON Schema.

The card format (`cardformat.py`) is written once in these terms, so the validator's error
paths (e.g. `gears[2].mods[0].activation`) and the shipped JSON Schema can never drift apart.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Problems = list[tuple[str, str]]  # (path inside the document, what is wrong)

# C0 and C1 control characters (Unicode category Cc): never part of a text a card prints
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_NO_CONTROL_SCHEMA = "[^\\u0000-\\u001f\\u007f-\\u009f]*"  # the same, as a JSON Schema pattern


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _kind(value: Any) -> str:
    """How a TOML value is called in messages."""
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


class Spec:
    """A node of the definition: checks a value and describes itself as JSON Schema."""

    doc: str = ""

    def check(self, value: Any, path: str, out: Problems) -> None:  # pragma: no cover
        raise NotImplementedError

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:  # pragma: no cover
        raise NotImplementedError

    def _with_doc(self, d: dict[str, Any]) -> dict[str, Any]:
        if self.doc:
            d["description"] = self.doc
        return d


@dataclass(frozen=True)
class Int(Spec):
    lo: int
    hi: int
    doc: str = ""
    nonzero: bool = False

    def check(self, value, path, out):
        if isinstance(value, bool) or not isinstance(value, int):
            out.append((path, f"expected a whole number {self.lo}..{self.hi}, found "
                              f"{_kind(value)} {value!r}"))
        elif not self.lo <= value <= self.hi or (self.nonzero and value == 0):
            extra = ", not 0" if self.nonzero else ""
            out.append((path, f"{value} is out of range {self.lo}..{self.hi}{extra}"))

    def schema(self, defs):
        d: dict[str, Any] = {"type": "integer", "minimum": self.lo, "maximum": self.hi}
        if self.nonzero:
            d["not"] = {"const": 0}
        return self._with_doc(d)


@dataclass(frozen=True)
class Bool(Spec):
    doc: str = ""

    def check(self, value, path, out):
        if not isinstance(value, bool):
            out.append((path, f"expected true or false, found {_kind(value)} {value!r}"))

    def schema(self, defs):
        return self._with_doc({"type": "boolean"})


@dataclass(frozen=True)
class Str(Spec):
    doc: str = ""
    pattern: str | None = None
    pattern_help: str = ""
    nonempty: bool = False

    max_len: int | None = None

    def check(self, value, path, out):
        if not isinstance(value, str):
            out.append((path, f"expected a text, found {_kind(value)} {value!r}"))
            return
        bad = _CONTROL.search(value)
        if bad is not None:
            # a card's texts are printed on the board: an escape sequence would drive the
            # player's terminal, a newline would break the board's layout
            out.append((path, f"character {bad.start() + 1} is a control character "
                              f"(U+{ord(bad.group()):04X}); texts are one line of printable "
                              f"characters"))
        elif self.max_len is not None and len(value) > self.max_len:
            out.append((path, f"is {len(value)} characters long; at most {self.max_len}"))
        elif self.nonempty and not value.strip():
            out.append((path, "must not be empty"))
        elif self.pattern is not None and not re.fullmatch(self.pattern, value):
            out.append((path, f"{value!r} is not {self.pattern_help}"))

    def schema(self, defs):
        d: dict[str, Any] = {"type": "string"}
        if self.nonempty:
            d["minLength"] = 1
        if self.max_len is not None:
            d["maxLength"] = self.max_len
        if self.pattern is not None:
            d["pattern"] = f"^(?:{self.pattern})$"
        elif self.nonempty:  # not only spaces, and no control character
            d["pattern"] = f"^(?=.*\\S){_NO_CONTROL_SCHEMA}$"
        else:
            d["pattern"] = f"^{_NO_CONTROL_SCHEMA}$"
        return self._with_doc(d)


@dataclass(frozen=True)
class Enum(Spec):
    values: tuple[Any, ...]
    doc: str = ""

    def check(self, value, path, out):
        if isinstance(value, bool) or value not in self.values:
            shown = ", ".join(str(v) for v in self.values)
            out.append((path, f"{value!r} is not one of {shown}"))

    def schema(self, defs):
        return self._with_doc({"enum": list(self.values)})


@dataclass(frozen=True)
class AnyOf(Spec):
    """The first alternative whose check passes; otherwise the first alternative's problems."""

    options: tuple[Spec, ...]
    doc: str = ""

    def check(self, value, path, out):
        first: Problems | None = None
        for opt in self.options:
            got: Problems = []
            opt.check(value, path, got)
            if not got:
                return
            if first is None:
                first = got
        out.extend(first or [])

    def schema(self, defs):
        return self._with_doc({"anyOf": [o.schema(defs) for o in self.options]})


@dataclass(frozen=True)
class List(Spec):
    item: Spec
    min: int = 0
    max: int | None = None
    doc: str = ""

    def check(self, value, path, out):
        if not isinstance(value, list):
            out.append((path, f"expected a list, found {_kind(value)} {value!r}"))
            return
        if len(value) < self.min or (self.max is not None and len(value) > self.max):
            want = (f"exactly {self.min}" if self.max == self.min
                    else f"{self.min}..{self.max}" if self.max is not None
                    else f"at least {self.min}")
            out.append((path, f"has {len(value)} entries, expected {want}"))
        for i, v in enumerate(value):
            self.item.check(v, f"{path}[{i}]", out)

    def schema(self, defs):
        d: dict[str, Any] = {"type": "array", "items": self.item.schema(defs)}
        if self.min:
            d["minItems"] = self.min
        if self.max is not None:
            d["maxItems"] = self.max
        return self._with_doc(d)


@dataclass(frozen=True)
class Ref(Spec):
    """A named definition (`$defs`), so the schema stays readable and shared parts appear once."""

    name: str
    target: Spec

    def check(self, value, path, out):
        self.target.check(value, path, out)

    def schema(self, defs):
        if self.name not in defs:
            defs[self.name] = None  # reserve: guards recursion and keeps order stable
            defs[self.name] = self.target.schema(defs)
        return {"$ref": f"#/$defs/{self.name}"}


@dataclass(frozen=True)
class Field:
    name: str
    spec: Spec
    required: bool = False


@dataclass(frozen=True)
class Table(Spec):
    """A TOML table with known keys. Unknown keys are errors (a typo must not pass silently).

    `forbidden` maps a key to the reason it may not appear (a clearer error than "unknown");
    `extra` holds checks across fields, run when the fields themselves are sound, and
    `schema_extra` their JSON Schema counterpart.
    """

    fields: tuple[Field, ...]
    doc: str = ""
    forbidden: tuple[tuple[str, str], ...] = ()
    extra: tuple[Callable[[dict, str, Problems], None], ...] = field(default=(), compare=False)
    schema_extra: tuple[tuple[str, Any], ...] = ()

    def check(self, value, path, out):
        if not isinstance(value, dict):
            out.append((path, f"expected a table, found {_kind(value)} {value!r}"))
            return
        known = {f.name: f for f in self.fields}
        forbidden = dict(self.forbidden)
        before = len(out)
        for key in value:
            if key in forbidden:
                out.append((_join(path, key), forbidden[key]))
            elif key not in known:
                names = ", ".join(known)
                out.append((_join(path, key), f"unknown field (known fields: {names})"))
        for f in self.fields:
            if f.name in value:
                f.spec.check(value[f.name], _join(path, f.name), out)
            elif f.required:
                out.append((_join(path, f.name), "missing (required)"))
        if len(out) == before:
            for fn in self.extra:
                fn(value, path, out)

    def schema(self, defs):
        d: dict[str, Any] = {
            "type": "object",
            "properties": {f.name: f.spec.schema(defs) for f in self.fields},
            "additionalProperties": False,
        }
        required = [f.name for f in self.fields if f.required]
        if required:
            d["required"] = required
        for key, val in self.schema_extra:
            d[key] = val
        return self._with_doc(d)


@dataclass(frozen=True)
class Tagged(Spec):
    """A table whose `tag` key (e.g. `op` or `type`) picks its shape; `allowed` limits the
    tags accepted here (the same shapes serve several places with different permissions)."""

    tag: str
    shapes: tuple[tuple[str, Spec], ...]  # (tag value, Ref to a Table)
    allowed: tuple[str, ...]
    where: str
    doc: str = ""

    def check(self, value, path, out):
        if not isinstance(value, dict):
            out.append((path, f"expected a table, found {_kind(value)} {value!r}"))
            return
        shapes = dict(self.shapes)
        tag = value.get(self.tag)
        if tag is None:
            out.append((_join(path, self.tag), f"missing (one of {', '.join(self.allowed)})"))
            return
        if not isinstance(tag, str) or tag not in shapes:
            out.append((_join(path, self.tag),
                        f"{tag!r} is not one of {', '.join(self.allowed)}"))
            return
        if tag not in self.allowed:
            out.append((_join(path, self.tag), f"{tag!r} is not allowed in {self.where} "
                                               f"(allowed: {', '.join(self.allowed)})"))
            return
        shapes[tag].check(value, path, out)

    def schema(self, defs):
        shapes = dict(self.shapes)
        alts: list[dict[str, Any]] = []
        for t in self.allowed:  # several tags may share a shape (alpha, beta, omega)
            alt = shapes[t].schema(defs)
            if alt not in alts:
                alts.append(alt)
        return self._with_doc({"oneOf": alts})
