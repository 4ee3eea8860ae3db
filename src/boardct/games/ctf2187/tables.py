"""CTF 2187 data tables: terrain, weapons, designs and rule numbers, read from TOML.

The numbers behind the rulebook live in data files a referee can change without code
(CTF-2, CTF-6, CTF-8..CTF-10, CTF-22..CTF-34). Every file is checked when loaded: a wrong field
raises `DataError(file, path inside it, problem)`. Loaded tables are immutable and shared by
every state of a game.
"""

from __future__ import annotations

import builtins
import math
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from boardct.core.errors import DataError
from boardct.core.inputs import InputError, parse_toml, read_text

DATA_DIR = Path(__file__).parent  # the TOML tables sit beside the code (package data)
# Each shipped file is a few kilobytes; a referee's own stays far below this.
MAX_TABLE_BYTES = 1024 * 1024
# Bounds on the numbers a referee may set, each well beyond any sensible game, so that no table
# can make the engine's arithmetic, reports or loops blow up (a 10**30-point Bot, a weapon
# reaching across any map). Ranges of fire and sight stop at the largest map side (99).
BIG = 9_999  # points, heat, AP costs, structure
MAX_TONS = 1_000  # a design's tonnage; a weapon's or an engine unit's tons
MAX_RANGE = 99
MAX_TEXT = 40  # names, keys and display codes: shown in reports and boards

# Locations of a Bot (CTF-6), in this fixed order everywhere.
HEAD, FT, RT, LA, RA, LEGS = range(6)
LOCATION_KEYS = ("head", "front_torso", "rear_torso", "left_arm", "right_arm", "legs")
LOCATION_CODES = ("HD", "FT", "RT", "LA", "RA", "LG")
LOCATION_NAMES = ("head", "front torso", "rear torso", "left arm", "right arm", "legs")
CLASSES = ("light", "medium", "heavy", "assault")
ANGLES = ("front", "left", "right", "rear")


@dataclass(frozen=True, slots=True)
class Terrain:
    index: int
    key: str
    name: str
    code: str
    char: str
    ground: tuple[int, int]
    elevation: int
    move_cost: int
    cover: int
    blocks_fire: bool
    cooling: int


@dataclass(frozen=True, slots=True)
class Weapon:
    key: str
    name: str
    tons100: int  # hundredths of a ton, exact
    damage: int
    optimum: int
    maximum: int
    ap: int
    heat: int
    energy: bool


@dataclass(frozen=True, slots=True)
class Design:
    name: str
    tons: int
    wclass: str
    engines: int
    engine_tons100: int  # hundredths of a ton per engine unit
    armour: tuple[int, ...]
    internal: tuple[int, ...]
    weapons: tuple[tuple[int, Weapon], ...]  # (location index, weapon), numbered from 1


@dataclass(frozen=True, slots=True)
class HeatBand:
    low: int
    ap: int
    to_hit: int
    dodge: int  # 2 full, 1 half, 0 none
    fall: int
    shutdown: int
    wound: bool
    weapon_damage: int


@dataclass(frozen=True, slots=True)
class Tables:
    terrain: tuple[Terrain, ...]
    terrain_by_key: dict[str, Terrain]
    terrain_by_char: dict[str, Terrain]
    weapons: dict[str, Weapon]
    designs: tuple[Design, ...]
    class_tons: dict[str, tuple[int, int]]
    class_factor100: dict[str, int]  # AP per engine ton, in hundredths
    costs: dict[str, Any]
    heat: dict[str, int]
    bands: tuple[HeatBand, ...]
    to_hit: dict[str, int]
    locations: dict[str, tuple[int, ...]]  # angle -> 20 location indexes (roll 1..20)
    falling: dict[str, int]
    wounds_to_kill: int
    scanning_range: int
    visual_radius: int
    cp_per_team: int
    cp_structure: int
    cp_weapons: tuple[Weapon, ...]

    def design(self, name: str) -> Design:
        for d in self.designs:
            if d.name.lower() == name.lower():
                return d
        known = ", ".join(d.name for d in self.designs)
        raise DataError("designs", repr(name[:MAX_TEXT]), f"no such design (known: {known})")

    def band(self, heat: int) -> int:
        """Index of the heat band `heat` falls in."""
        i = 0
        for j, b in enumerate(self.bands):
            if heat >= b.low:
                i = j
        return i


def hundredths(value: float | int) -> int | None:
    """An exact number of hundredths, or None when the value has finer precision."""
    d = Decimal(str(value)) * 100
    if d != d.to_integral_value():
        return None
    return int(d)


class _Reader:
    """Typed field access that names file and path on every error."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, path: str, message: str) -> DataError:
        return DataError(self.source, path, message)

    def table(self, doc: Any, key: str, path: str) -> dict:
        value = doc.get(key) if isinstance(doc, dict) else None
        where = f"{path}.{key}" if path else key
        if not isinstance(value, dict):
            raise self.fail(where, "missing or not a table")
        return value

    def array(self, doc: dict, key: str, path: str) -> list:
        where = f"{path}.{key}" if path else key
        value = doc.get(key)
        if not isinstance(value, list):
            raise self.fail(where, "missing or not an array")
        return value

    def int(self, doc: dict, key: str, path: str, lo: int | None = None,
            hi: int | None = BIG) -> int:
        where = f"{path}.{key}" if path else key
        if key not in doc:
            raise self.fail(where, "missing")
        value = doc[key]
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(where, f"{value!r} is not a whole number")
        if lo is not None and value < lo:
            raise self.fail(where, f"{value} is below {lo}")
        if hi is not None and value > hi:
            raise self.fail(where, f"{value} is above {hi}")
        return value

    # The methods named `int`, `str` and `bool` hide the builtins in this class's body: the
    # annotations below name them through `builtins`.
    def num100(self, doc: dict, key: str, path: str, positive: bool = True,
               hi: builtins.int = MAX_TONS) -> builtins.int:
        where = f"{path}.{key}" if path else key
        if key not in doc:
            raise self.fail(where, "missing")
        value = doc[key]
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise self.fail(where, f"{value!r} is not a number")
        h = hundredths(value)
        if h is None:
            raise self.fail(where, f"{value} has more than two decimals")
        if positive and h <= 0:
            raise self.fail(where, f"{value} must be above 0")
        if h > hi * 100:
            raise self.fail(where, f"{value} is above {hi}")
        return h

    def str(self, doc: dict, key: str, path: str, choices: tuple[str, ...] | None = None) -> str:
        where = f"{path}.{key}" if path else key
        value = doc.get(key)
        if not isinstance(value, str) or not value:
            raise self.fail(where, "missing or not a text")
        if len(value) > MAX_TEXT or not value.isprintable():
            raise self.fail(where, f"{value[:MAX_TEXT]!r} is not printable text of at most "
                            f"{MAX_TEXT} characters")
        if choices is not None and value not in choices:
            raise self.fail(where, f"{value!r} is not one of {', '.join(choices)}")
        return value

    def bool(self, doc: dict, key: builtins.str, path: builtins.str) -> bool:
        where = f"{path}.{key}" if path else key
        value = doc.get(key)
        if not isinstance(value, bool):
            raise self.fail(where, "missing or not true/false")
        return value

    def ints(self, doc: dict, key: builtins.str, path: builtins.str, n: builtins.int,
             lo: builtins.int = 0, hi: builtins.int = BIG) -> tuple[builtins.int, ...]:
        where = f"{path}.{key}" if path else key
        value = self.array(doc, key, path)
        if len(value) != n:
            raise self.fail(where, f"needs {n} numbers, found {len(value)}")
        for i, v in enumerate(value):
            if not isinstance(v, int) or isinstance(v, bool):
                raise self.fail(f"{where}[{i}]", f"{v!r} is not a whole number")
            if v < lo:
                raise self.fail(f"{where}[{i}]", f"{v} is below {lo}")
            if v > hi:
                raise self.fail(f"{where}[{i}]", f"{v} is above {hi}")
        return tuple(value)


def _parse(text: str, source: str) -> dict:
    """A TOML document through `core.inputs.parse_toml`: nesting, `inf`/`nan`, numbers of
    thousands of digits and a byte-order mark are handled there, as clear errors."""
    try:
        return parse_toml(text, source)
    except InputError as exc:
        raise DataError(source, exc.where, exc.reason) from None


def parse_terrain(doc: dict, source: str = "terrain.toml") -> tuple[Terrain, ...]:
    r = _Reader(source)
    entries = r.array(doc, "terrain", "")
    if not entries:
        raise r.fail("terrain", "no terrain types")
    out: list[Terrain] = []
    seen_keys: set[str] = set()
    seen_chars: set[str] = set()
    for i, e in enumerate(entries):
        p = f"terrain[{i}]"
        if not isinstance(e, dict):
            raise r.fail(p, "not a table")
        key = r.str(e, "key", p)
        if key in seen_keys:
            raise r.fail(f"{p}.key", f"{key!r} is used twice")
        char = r.str(e, "char", p)
        if len(char) != 1 or char.isspace() or char.isdigit() or char in "#":
            raise r.fail(f"{p}.char", f"{char!r} must be one character, not a digit, space or #")
        if char in seen_chars:
            raise r.fail(f"{p}.char", f"{char!r} is used twice")
        ground = r.ints(e, "ground", p, 2)
        if ground[0] > ground[1] or ground[1] > 9:
            raise r.fail(f"{p}.ground", f"{list(ground)} is not [lowest, highest] within 0-9")
        seen_keys.add(key)
        seen_chars.add(char)
        out.append(Terrain(i, key, r.str(e, "name", p), r.str(e, "code", p), char,
                           (ground[0], ground[1]),
                           r.int(e, "elevation", p, 0, 9), r.int(e, "move_cost", p, 0),
                           r.int(e, "cover", p, -100, 100), r.bool(e, "blocks_fire", p),
                           r.int(e, "cooling", p, 0)))
    if "open" not in seen_keys:
        raise r.fail("terrain", "the table needs an 'open' terrain (start sectors are Open)")
    return tuple(out)


def parse_weapons(doc: dict, source: str = "weapons.toml") -> dict[str, Weapon]:
    r = _Reader(source)
    out: dict[str, Weapon] = {}
    for i, e in enumerate(r.array(doc, "weapon", "")):
        p = f"weapon[{i}]"
        if not isinstance(e, dict):
            raise r.fail(p, "not a table")
        key = r.str(e, "key", p)
        if key in out:
            raise r.fail(f"{p}.key", f"{key!r} is used twice")
        optimum = r.int(e, "optimum", p, 1, MAX_RANGE)
        maximum = r.int(e, "maximum", p, 1, MAX_RANGE)
        if maximum < optimum:
            raise r.fail(f"{p}.maximum", f"{maximum} is below the optimum range {optimum}")
        out[key] = Weapon(key, r.str(e, "name", p), r.num100(e, "tons", p),
                          r.int(e, "damage", p, 1), optimum, maximum, r.int(e, "ap", p, 0),
                          r.int(e, "heat", p, 0), r.bool(e, "energy", p))
    if not out:
        raise r.fail("weapon", "no weapons")
    return out


def parse_rules(doc: dict, weapons: dict[str, Weapon], source: str = "rules.toml") -> dict:
    r = _Reader(source)
    wc = r.table(doc, "weight_classes", "")
    class_tons: dict[str, tuple[int, int]] = {}
    class_factor: dict[str, int] = {}
    for c in CLASSES:
        t = r.table(wc, c, "weight_classes")
        p = f"weight_classes.{c}"
        tons = r.ints(t, "tons", p, 2, 1, MAX_TONS)
        if tons[0] > tons[1]:
            raise r.fail(f"{p}.tons", f"{list(tons)} is not [lowest, highest]")
        class_tons[c] = (tons[0], tons[1])
        class_factor[c] = r.num100(t, "ap_per_engine_ton", p, hi=100)
    costs_t = r.table(doc, "costs", "")
    costs: dict[str, Any] = {k: r.int(costs_t, k, "costs", 0) for k in (
        "move", "climb_per_level", "backward", "turn", "kneel", "stand_from_kneeling",
        "stand_from_prone", "dodge", "sprint_minimum")}
    costs["damaged_weapon_factor100"] = r.num100(costs_t, "damaged_weapon_factor", "costs",
                                                 hi=10)
    heat_t = r.table(doc, "heat", "")
    heat = {k: r.int(heat_t, k, "heat", 0) for k in (
        "maximum", "sector", "sector_sprint", "kneel", "stand", "dodge", "hit", "hit_energy",
        "cooling")}
    heat["engines_per_cooling"] = r.int(heat_t, "engines_per_cooling", "heat", 1)
    bands: list[HeatBand] = []
    for i, b in enumerate(r.array(heat_t, "bands", "heat")):
        p = f"heat.bands[{i}]"
        if not isinstance(b, dict):
            raise r.fail(p, "not a table")
        low = r.int(b, "from", p, 0)
        if i == 0 and low != 0:
            raise r.fail(f"{p}.from", "the first band must start at 0")
        if bands and low <= bands[-1].low:
            raise r.fail(f"{p}.from", f"{low} does not rise above the previous band")
        dodge = {"full": 2, "half": 1, "none": 0}[r.str(b, "dodge", p, ("full", "half", "none"))]
        bands.append(HeatBand(low, r.int(b, "ap", p, 0), r.int(b, "to_hit", p, -100, 100), dodge,
                              r.int(b, "fall", p, 0, 100), r.int(b, "shutdown", p, 0, 6),
                              r.bool(b, "wound", p), r.int(b, "weapon_damage", p, 0, 6)))
    if not bands:
        raise r.fail("heat.bands", "no heat bands")
    th = r.table(doc, "to_hit", "")
    to_hit = {k: r.int(th, k, "to_hit", -100, 100) for k in (
        "at_optimum", "per_sector_closer", "beyond_optimum", "far", "target_kneeling_or_prone",
        "per_sector_target_moved", "dodge_per_5_ap", "dodge_max", "attacker_moved",
        "attacker_sprinted", "attacker_kneeling", "attacker_prone", "per_wound",
        "damaged_weapon", "at_command_post", "minimum", "maximum")}
    to_hit["dodge_min_ap"] = r.int(th, "dodge_min_ap", "to_hit", 0)
    if to_hit["minimum"] > to_hit["maximum"]:
        raise r.fail("to_hit.minimum", "is above to_hit.maximum")
    lt = r.table(doc, "locations", "")
    locations: dict[str, tuple[int, ...]] = {}
    for angle in ANGLES:
        p = f"locations.{angle}"
        rows = r.array(lt, angle, "locations")
        slots: list[int | None] = [None] * 20
        for i, row in enumerate(rows):
            q = f"{p}[{i}]"
            if (not isinstance(row, list) or len(row) != 3
                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in row[:2])
                    or not isinstance(row[2], str)):
                raise r.fail(q, "must be [lowest roll, highest roll, location]")
            lo, hi, loc = row
            if not 1 <= lo <= hi <= 20:
                raise r.fail(q, f"rolls {lo}-{hi} are not within 1-20")
            if loc not in LOCATION_KEYS:
                raise r.fail(q, f"{loc!r} is not one of {', '.join(LOCATION_KEYS)}")
            for roll in range(lo, hi + 1):
                if slots[roll - 1] is not None:
                    raise r.fail(q, f"roll {roll} is listed twice")
                slots[roll - 1] = LOCATION_KEYS.index(loc)
        missing = [i + 1 for i, s in enumerate(slots) if s is None]
        if missing:
            raise r.fail(p, f"rolls {missing} have no location")
        locations[angle] = tuple(s for s in slots if s is not None)
    ft = r.table(doc, "falling", "")
    falling = {k: r.int(ft, k, "falling", -100, 100) for k in (
        "sprint", "heavy_hit", "heavy_hit_damage", "per_5_ap", "ap_max", "minimum")}
    pilot = r.table(doc, "pilot", "")
    sensors = r.table(doc, "sensors", "")
    cp = r.table(doc, "command_posts", "")
    cp_weapons = []
    cp_keys = r.array(cp, "weapons", "command_posts")
    if len(cp_keys) > 9:
        raise r.fail("command_posts.weapons", "at most 9 weapons")
    for i, key in enumerate(cp_keys):
        if not isinstance(key, str) or key not in weapons:  # a list here is unhashable
            raise r.fail(f"command_posts.weapons[{i}]", f"{key!r} is not in weapons.toml")
        cp_weapons.append(weapons[key])
    return {
        "class_tons": class_tons, "class_factor100": class_factor, "costs": costs,
        "heat": heat, "bands": tuple(bands), "to_hit": to_hit, "locations": locations,
        "falling": falling,
        "wounds_to_kill": r.int(pilot, "wounds_to_kill", "pilot", 1, 99),
        "scanning_range": r.int(sensors, "scanning_range", "sensors", 1, MAX_RANGE),
        "visual_radius": r.int(sensors, "visual_radius", "sensors", 0, 20),
        "cp_per_team": r.int(cp, "per_team", "command_posts", 0, 2),
        "cp_structure": r.int(cp, "structure", "command_posts", 1),
        "cp_weapons": tuple(cp_weapons),
    }


def parse_designs(doc: dict, weapons: dict[str, Weapon], class_tons: dict[str, tuple[int, int]],
                  source: str = "designs.toml") -> tuple[Design, ...]:
    r = _Reader(source)
    out: list[Design] = []
    names: set[str] = set()
    for i, e in enumerate(r.array(doc, "design", "")):
        p = f"design[{i}]"
        if not isinstance(e, dict):
            raise r.fail(p, "not a table")
        name = r.str(e, "name", p)
        if "," in name:  # the designs option lists names separated by commas
            raise r.fail(f"{p}.name", f"{name!r}: a design name cannot hold a comma")
        if name.lower() in names:
            raise r.fail(f"{p}.name", f"{name!r} is used twice")
        names.add(name.lower())
        tons = r.int(e, "tons", p, 1, MAX_TONS)
        if tons % 5:
            raise r.fail(f"{p}.tons", f"{tons} is not a multiple of 5")
        wclass = next((c for c, (lo, hi) in class_tons.items() if lo <= tons <= hi), None)
        if wclass is None:
            raise r.fail(f"{p}.tons", f"{tons} t is in no weight class of rules.toml")
        engines = r.int(e, "engines", p, 1, 99)
        armour = r.ints(e, "armour", p, 6)
        internal = r.ints(e, "internal", p, 6, 1)
        wlist = []
        for j, w in enumerate(r.array(e, "weapons", p)):
            q = f"{p}.weapons[{j}]"
            if not (isinstance(w, list) and len(w) == 2 and all(isinstance(v, str) for v in w)):
                raise r.fail(q, "must be [location, weapon key]")
            loc, key = w
            if loc not in LOCATION_KEYS[:5]:
                raise r.fail(q, f"{loc!r} is not one of {', '.join(LOCATION_KEYS[:5])}")
            if key not in weapons:
                raise r.fail(q, f"{key!r} is not in weapons.toml")
            wlist.append((LOCATION_KEYS.index(loc), weapons[key]))
        if not wlist:
            raise r.fail(f"{p}.weapons", "a design needs at least one weapon")
        if len(wlist) > 9:
            raise r.fail(f"{p}.weapons", "at most 9 weapons (order sheets use one digit)")
        out.append(Design(name, tons, wclass, engines, r.num100(e, "engine_tons", p),
                          armour, internal, tuple(wlist)))
    if not out:
        raise r.fail("design", "no designs")
    return tuple(out)


def build_tables(texts: dict[str, str], paths: dict[str, str] | None = None) -> Tables:
    """Tables from the four files' texts (keys: terrain, weapons, designs, rules); `paths`
    names the files errors are reported against (default: `terrain.toml` and so on)."""
    sources = {k: f"{k}.toml" for k in ("terrain", "weapons", "designs", "rules")}
    sources |= paths or {}
    for k in sources:
        if k not in texts:
            raise DataError(sources[k], "", "file missing")
    terrain = parse_terrain(_parse(texts["terrain"], sources["terrain"]), sources["terrain"])
    weapons = parse_weapons(_parse(texts["weapons"], sources["weapons"]), sources["weapons"])
    rules = parse_rules(_parse(texts["rules"], sources["rules"]), weapons, sources["rules"])
    designs = parse_designs(_parse(texts["designs"], sources["designs"]), weapons,
                            rules["class_tons"], sources["designs"])
    return Tables(terrain, {t.key: t for t in terrain}, {t.char: t for t in terrain}, weapons,
                  designs, **rules)


def load_tables(directory: Path | str | None = None) -> Tables:
    """The tables in `directory` (default: the shipped data); a missing file is read from the
    shipped data, so a referee may override only the files they change."""
    texts = {}
    paths = {}
    for k in ("terrain", "weapons", "designs", "rules"):
        path = Path(directory) / f"{k}.toml" if directory is not None else None
        try:
            present = path is not None and path.exists()
        except (OSError, ValueError) as exc:  # a name too long for the file system, say
            raise DataError(str(directory), "", f"cannot read the tables ({exc})") from None
        if path is None or not present:
            path = DATA_DIR / f"{k}.toml"
        try:  # bounded: a tables directory holding a huge file (or a FIFO) is refused
            texts[k] = read_text(path, MAX_TABLE_BYTES, "table file")
        except InputError as exc:
            raise DataError(str(path), "", f"cannot read ({exc.reason})") from None
        if directory is not None and path.parent != DATA_DIR:
            paths[k] = str(path)  # a referee's file: errors name it in full
    return build_tables(texts, paths)


_DEFAULT: Tables | None = None


def default_tables() -> Tables:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_tables()
    return _DEFAULT


def turn_ap(design: Design, functional_engines: int, tables: Tables) -> int:
    """Turn action points (CTF-8, CTF-22): engine tons x class factor, exact, rounded down."""
    return (functional_engines * design.engine_tons100 * tables.class_factor100[design.wclass]
            ) // 10000


def weapon_ap(weapon: Weapon, damaged: bool, tables: Tables) -> int:
    """AP to fire (CTF-23): damaged weapons cost x1.5 rounded up."""
    if not damaged:
        return weapon.ap
    return math.ceil(weapon.ap * tables.costs["damaged_weapon_factor100"] / 100)
