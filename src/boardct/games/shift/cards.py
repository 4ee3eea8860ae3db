"""Shift cards in memory: immutable, built from a validated TOML document; shipped cards.

A card is shared by every state of every game that uses it (never copied).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from boardct.core.errors import DataError
from boardct.core.inputs import InputError, ascii_int, parse_toml, read_bytes, strip_bom
from boardct.core.inputs import shown as _shown
from boardct.games.shift import cardformat as fmt

# a card name or path: as typed when printable
shown = functools.partial(_shown, limit=120, quote=False)

DECK_DIR = Path(__file__).with_name("deck")
# A card file is a few kilobytes (the shipped ones are under 4 KB); reading stops well before a
# file large enough to matter, or a device such as /dev/zero, could be read whole.
MAX_CARD_BYTES = 256 * 1024


@dataclass(frozen=True, slots=True)
class Cond:
    gear: tuple[int, ...] | None = None
    opponent_gear: tuple[int, ...] | None = None
    damage_min: int | None = None
    damage_max: int | None = None
    spirit_min: int | None = None
    opponent_damage_min: int | None = None
    defender_guarded: bool | None = None


@dataclass(frozen=True, slots=True)
class Op:
    op: str
    n: int = 0
    opp: bool = False  # target is the opponent of the op's owner
    coins: int = 0
    per: str = "H"
    do: tuple[Op, ...] = ()
    part: str = ""
    cond: Cond | None = None


@dataclass(frozen=True, slots=True)
class Static:
    stat: str  # "power" or "guard"
    n: int
    opp: bool
    cond: Cond | None


@dataclass(frozen=True, slots=True)
class Trigger:
    on: str
    cond: Cond | None
    do: tuple[Op, ...]


@dataclass(frozen=True, slots=True)
class Mod:
    type: str
    text: str
    pattern: str = ""  # coin pattern for flip activation; "" for spirit activation and deltas
    cost: int = 0  # spirit cost for spirit activation
    critical: str | None = None
    effects: tuple[Op, ...] = ()
    on_hit: tuple[Op, ...] = ()
    on_miss: tuple[Op, ...] = ()
    statics: tuple[Static, ...] = ()
    triggers: tuple[Trigger, ...] = ()
    summary: str = ""  # `mod_summary`, computed once when the card is built

    @property
    def activation(self) -> str:
        return self.pattern if self.pattern else f"spirit {self.cost}"

    @property
    def extra_coins(self) -> int:
        return sum(op.coins for op in self.effects if op.op == "flip")


@dataclass(frozen=True, slots=True)
class Gear:
    level: int
    power: int
    guard: int
    mods: tuple[Mod, ...]
    attacks: tuple[Mod | None, Mod | None, Mod | None]  # by ATTACK_TYPES index
    statics: tuple[Static, ...]  # of its deltas, in file order
    triggers: tuple[Trigger, ...]


@dataclass(frozen=True, slots=True)
class Card:
    name: str
    ability: str
    statics: tuple[Static, ...]
    triggers: tuple[Trigger, ...]
    gears: tuple[Gear, Gear, Gear, Gear]
    source: str


# -- building ---------------------------------------------------------------------------------
def _cond(d: dict | None) -> Cond | None:
    if not d:
        return None

    def levels(v):
        if v is None:
            return None
        return (v,) if isinstance(v, int) else tuple(v)

    return Cond(levels(d.get("gear")), levels(d.get("opponent_gear")), d.get("damage_min"),
                d.get("damage_max"), d.get("spirit_min"), d.get("opponent_damage_min"),
                d.get("defender_guarded"))


def _op(d: dict) -> Op:
    return Op(d["op"], d.get("n", 0), d.get("target") == "opponent", d.get("coins", 0),
              d.get("per", "H"), tuple(_op(x) for x in d.get("do", ())), d.get("part", ""),
              _cond(d.get("if")))


def _static(d: dict) -> Static:
    return Static(d["stat"], d["n"], d.get("target") == "opponent", _cond(d.get("if")))


def _trigger(d: dict) -> Trigger:
    return Trigger(d["on"], _cond(d.get("if")), tuple(_op(x) for x in d["do"]))


def _mod(d: dict) -> Mod:
    if d["type"] == "delta":
        return Mod("delta", d.get("text", ""),
                   statics=tuple(_static(s) for s in d.get("statics", ())),
                   triggers=tuple(_trigger(t) for t in d.get("triggers", ())))
    act = d["activation"]
    # `validate` passed it: "spirit N" with N an ASCII digit 1-5, or a coin pattern
    pattern, cost = ("", ascii_int(act.split()[1]) or 0) if act.startswith("spirit") else (act, 0)
    return Mod(d["type"], d.get("text", ""), pattern, cost, d.get("critical"),
               tuple(_op(x) for x in d.get("effects", ())),
               tuple(_op(x) for x in d.get("on_hit", ())),
               tuple(_op(x) for x in d.get("on_miss", ())))


def _summarized(m: Mod) -> Mod:
    object.__setattr__(m, "summary", mod_summary(m))
    return m


def _gear(d: dict) -> Gear:
    mods = tuple(_summarized(_mod(m)) for m in d["mods"])
    attacks = tuple(next((m for m in mods if m.type == t), None) for t in fmt.ATTACK_TYPES)
    deltas = [m for m in mods if m.type == "delta"]
    return Gear(d["level"], d["power"], d["guard"], mods, attacks,  # type: ignore[arg-type]
                tuple(s for m in deltas for s in m.statics),
                tuple(t for m in deltas for t in m.triggers))


def build(doc: dict, source: str) -> Card:
    """A card from a document that `validate` passed."""
    return Card(doc["name"].strip(), doc["ability"],
                tuple(_static(s) for s in doc.get("statics", ())),
                tuple(_trigger(t) for t in doc.get("triggers", ())),
                tuple(_gear(g) for g in doc["gears"]), source)  # type: ignore[arg-type]


# -- loading ----------------------------------------------------------------------------------
@dataclass
class CheckResult:
    source: str
    card: Card | None
    problems: list[tuple[str, str]]
    warnings: list[tuple[str, str]]


def check_text(text: str, source: str) -> CheckResult:
    """Parse and validate card text; never raises for bad content.

    `parse_toml` drops a byte-order mark (Windows Notepad writes one) and refuses what
    `tomllib` alone lets through or crashes on: deep nesting, `inf` and `nan`, numbers of
    thousands of digits, lone surrogates.
    """
    try:
        doc = parse_toml(text, source)
    except InputError as exc:
        return CheckResult(source, None, [("", exc.reason)], [])
    problems = fmt.validate(doc)
    if problems:
        return CheckResult(source, None, problems, [])
    return CheckResult(source, build(doc, source), [], fmt.warnings(doc))


def _read(path: Path) -> str:
    """The text of a card file: a regular file of at most `MAX_CARD_BYTES`, UTF-8."""
    try:
        data = read_bytes(path, MAX_CARD_BYTES, "card file")
    except InputError as exc:
        raise DataError(shown(str(path)), "", exc.reason) from None
    try:
        return strip_bom(data.decode("utf-8"))  # Windows Notepad starts files with a BOM
    except UnicodeDecodeError:
        raise DataError(shown(str(path)), "", "not a UTF-8 text file") from None


def check_file(path: str | Path) -> CheckResult:
    path = Path(path)
    return check_text(_read(path), str(path))


_CACHE: dict[tuple[str, int, int], Card] = {}


def load_file(path: str | Path) -> Card:
    """A card from a TOML file; a `DataError` naming the file, path and problem otherwise."""
    path = Path(path)
    try:
        st = path.stat()
        key = (str(path.resolve()), st.st_mtime_ns, st.st_size)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise DataError(shown(str(path)), "", getattr(exc, "strerror", None) or str(exc)) \
            from None
    card = _CACHE.get(key)
    if card is None:
        result = check_file(path)
        if result.problems:
            where, message = result.problems[0]
            more = len(result.problems) - 1
            if more:
                message += f" (and {more} more problem{'s' if more > 1 else ''}; " \
                           f"see `boardct cards check {path}`)"
            raise DataError(shown(str(path)), where, message)
        card = result.card
        assert card is not None
        _CACHE[key] = card
    return card


@functools.cache
def _deck() -> tuple[tuple[str, Path], ...]:
    return tuple((p.stem, p) for p in sorted(DECK_DIR.glob("*.toml")))


def shipped() -> dict[str, Path]:
    """The shipped cards: file stem (e.g. "ember-duelist") -> path, sorted by stem."""
    return dict(_deck())


def _key(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


_SHIPPED: dict[str, Card] = {}


def is_shipped(spec: str) -> bool:
    """Whether `resolve` finds `spec` among the shipped cards by its file stem (any case,
    spaces or hyphens) without looking for a file of that name."""
    deck = shipped()
    wanted = _key(spec)
    return spec in deck or any(_key(stem) == wanted for stem in deck)


def resolve(spec: str) -> Card:
    """A card from a shipped card's file stem or name (any case, spaces or hyphens), or a path."""
    card = _SHIPPED.get(spec)  # shipped files never change while running: no stat needed
    if card is not None:
        return card
    deck = shipped()
    if spec in deck:
        card = _SHIPPED[spec] = load_file(deck[spec])
        return card
    wanted = _key(spec)
    for stem, path in deck.items():
        if _key(stem) == wanted:
            return load_file(path)
    path = Path(spec)
    if path.suffix.lower() == ".toml" or _exists(path):
        return load_file(path)
    for path in deck.values():
        if _key(load_file(path).name) == wanted:
            return load_file(path)
    names = ", ".join(deck)
    raise DataError(shown(spec), "", f"no shipped card of that name and no such file "
                                      f"(shipped: {names})")


def _exists(path: Path) -> bool:
    """Whether anything is at `path`; a name no file system accepts (too long, a NUL) is not."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


# -- text for people --------------------------------------------------------------------------
def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def cond_text(c: Cond | None) -> str:
    if c is None:
        return ""
    parts = []

    def lv(v):
        return "/".join(str(x) for x in v)

    if c.gear is not None:
        parts.append(f"in gear {lv(c.gear)}")
    if c.opponent_gear is not None:
        parts.append(f"opponent in gear {lv(c.opponent_gear)}")
    if c.damage_min is not None:
        parts.append(f"damage >= {c.damage_min}")
    if c.damage_max is not None:
        parts.append(f"damage <= {c.damage_max}")
    if c.spirit_min is not None:
        parts.append(f"spirit >= {c.spirit_min}")
    if c.opponent_damage_min is not None:
        parts.append(f"opponent damage >= {c.opponent_damage_min}")
    if c.defender_guarded is not None:
        parts.append("defender guarded" if c.defender_guarded else "defender did not guard")
    return "if " + " and ".join(parts)


def op_text(op: Op) -> str:
    who = "opponent " if op.opp else ""
    k = op.op
    if k in ("power", "guard"):
        s = f"{who}{k} {_signed(op.n)}"
    elif k == "flip":
        inner = ", ".join(op_text(x) for x in op.do)
        s = f"flip {op.coins}: per {op.per}, {inner}"
    elif k == "heal":
        s = f"heal {op.n}"
    elif k == "refresh":
        s = f"refresh {op.n} spirit"
    elif k == "burn_opponent":
        s = f"burn {op.n} opponent spirit"
    elif k == "ignore_guard":
        s = "ignore guarding" if op.part == "guarding" else "ignore guard bonuses"
    elif k == "extra_damage":
        s = f"+{op.n} damage"
    else:
        s = "opponent skips next shift phase"
    c = cond_text(op.cond)
    return f"{s} ({c})" if c else s


def static_text(s: Static) -> str:
    who = "opponent " if s.opp else ""
    c = cond_text(s.cond)
    base = f"{who}{s.stat} {_signed(s.n)}"
    return f"{base} ({c})" if c else base


_EVENT_WORDS = {"turn_start": "at the start of your turn", "turn_end": "at the end of your turn",
                "guard_declared": "when you guard", "hit_dealt": "when you hit",
                "hit_taken": "when hit", "damage_taken": "when damaged"}


def trigger_text(t: Trigger) -> str:
    c = cond_text(t.cond)
    head = _EVENT_WORDS[t.on] + (f" ({c})" if c else "")
    return f"{head}: " + ", ".join(op_text(x) for x in t.do)


def mod_summary(m: Mod) -> str:
    """A one-line summary generated from the mod's effects (what the engine will do)."""
    if m.type == "delta":
        parts = [static_text(s) for s in m.statics] + [trigger_text(t) for t in m.triggers]
        return "delta: " + "; ".join(parts)
    crit = f" [crit {m.critical}]" if m.critical else ""
    parts = [op_text(o) for o in m.effects]
    parts += [f"on hit: {op_text(o)}" for o in m.on_hit]
    parts += [f"on miss: {op_text(o)}" for o in m.on_miss]
    return f"{m.type} {m.activation}{crit}: " + ("; ".join(parts) if parts else "no effect")


def card_text(card: Card) -> str:
    """A card's full text for `boardct cards show`."""
    lines = [card.name, f"  Ability: {card.ability}"]
    for s in card.statics:
        lines.append(f"    constant: {static_text(s)}")
    for t in card.triggers:
        lines.append(f"    {trigger_text(t)}")
    for i, g in enumerate(card.gears):
        lines.append(f"  Gear {fmt.RING[i]} (level {g.level}): power {g.power}, guard {g.guard}")
        for m in g.mods:
            lines.append(f"    {mod_summary(m)}")
            if m.text:
                lines.append(f"      \"{m.text}\"")
    return "\n".join(lines)
