"""The Shift card format (SH-1..SH-3, SH-16, SH-17, shift-effects.md): definition, JSON Schema.

`CARD` is the one definition of a card file. `validate` checks a parsed TOML document against
it and returns every problem with its path; `card_schema()` turns it into the JSON Schema that
ships beside the cards (`card.schema.json`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from boardct.core.inputs import ascii_int
from boardct.games.shift.spec import (
    AnyOf,
    Bool,
    Enum,
    Field,
    Int,
    List,
    Problems,
    Ref,
    Str,
    Table,
    Tagged,
)

RING = ("1", "2L", "3", "2R")  # ring order of the four gears (SH-16)
LEVELS = (1, 2, 3, 2)
ATTACK_TYPES = ("alpha", "beta", "omega")
MOD_TYPES = (*ATTACK_TYPES, "delta")
CRITICALS = ("damage", "heal", "shift", "duo", "refresh")
TRIGGER_EVENTS = ("turn_start", "turn_end", "guard_declared", "hit_dealt", "hit_taken",
                  "damage_taken")
TARGETS = ("self", "opponent")

# Which ops each list accepts (shift-effects.md, "Where").
OPS = ("power", "guard", "flip", "heal", "refresh", "burn_opponent", "ignore_guard",
       "extra_damage", "skip_shift_phase")
EFFECT_OPS = ("power", "guard", "flip", "heal", "refresh", "burn_opponent", "ignore_guard",
              "skip_shift_phase")
ON_HIT_OPS = ("power", "guard", "heal", "refresh", "burn_opponent", "extra_damage",
              "skip_shift_phase")
ON_MISS_OPS = ("power", "guard", "heal", "refresh", "burn_opponent", "skip_shift_phase")
TRIGGER_OPS = ON_MISS_OPS
FLIP_DO_OPS = ("power", "guard", "heal", "refresh", "burn_opponent")

PATTERN_RE = r"[HTW]{1,6}"
SPIRIT_RE = r"spirit [1-5]"
# Texts are printed on the board and in `boardct cards show`: one line each, of bounded length
MAX_NAME_LEN = 40
MAX_TEXT_LEN = 400
SCHEMA_FILE = Path(__file__).with_name("card.schema.json")
SCHEMA_ID = "https://boardct.example/schemas/shift-card.schema.json"

# -- conditions -------------------------------------------------------------------------------
_gear_level = Int(1, 3, "a gear level")
_gear_cond = AnyOf((_gear_level, List(_gear_level, 1, 3)),
                   "a gear level 1-3, or a list of levels")
COND = Ref("condition", Table((
    Field("gear", _gear_cond),
    Field("opponent_gear", _gear_cond),
    Field("damage_min", Int(0, 5, "at least this many of your tokens in your damage zone")),
    Field("damage_max", Int(0, 5, "at most this many of your tokens in your damage zone")),
    Field("spirit_min", Int(0, 5, "at least this much spirit (lit tokens)")),
    Field("opponent_damage_min", Int(0, 5, "at least this many opponent damage tokens")),
    Field("defender_guarded", Bool("this attack's defender guarded (false outside attacks)")),
), "All keys must hold, from the owner's point of view. No OR or NOT."))


# -- ops --------------------------------------------------------------------------------------
def _op_table(name: str, doc: str, *fields: Field, cond: bool = True) -> Ref:
    all_fields = (Field("op", Enum((name,)), required=True), *fields)
    if cond:
        all_fields = (*all_fields, Field("if", COND))
    return Ref(f"op_{name}", Table(all_fields, doc))


_stat_n = Int(-5, 5, "the change, -5..5 but not 0", nonzero=True)
_target = Enum(TARGETS, "whose card (default self)")


def _build_shapes() -> tuple[tuple[str, Ref], ...]:
    shapes = [
        ("power", _op_table("power", "Temporary power until the card owner's next start phase.",
                            Field("n", _stat_n, required=True), Field("target", _target))),
        ("guard", _op_table("guard", "Temporary guard until the card owner's next start phase.",
                            Field("n", _stat_n, required=True), Field("target", _target))),
        ("heal", _op_table("heal", "Remove up to n of your damage tokens, burnt first.",
                           Field("n", Int(1, 5), required=True))),
        ("refresh", _op_table("refresh", "Up to n of your burnt tokens become lit.",
                              Field("n", Int(1, 5), required=True))),
        ("burn_opponent", _op_table("burn_opponent", "Burn up to n of the opponent's lit tokens.",
                                    Field("n", Int(1, 5), required=True))),
        ("ignore_guard", _op_table(
            "ignore_guard", "This attack's guard leaves out guarding, or is only the defender's "
            "printed gear guard (bonuses wins).",
            Field("part", Enum(("guarding", "bonuses")), required=True))),
        ("extra_damage", _op_table("extra_damage", "n more damage to the defender, one token "
                                   "at a time.", Field("n", Int(1, 2), required=True))),
        ("skip_shift_phase", _op_table(
            "skip_shift_phase", "The opponent's next played shift phase offers no shift; "
            "does not stack.")),
    ]
    flip_do = List(Ref("ops_flip_do", Tagged("op", tuple(shapes), FLIP_DO_OPS, "flip.do")), 1)
    shapes.insert(2, ("flip", _op_table(
        "flip", "Flip `coins` extra coins after a successful activation; run `do` once per "
                "coin showing `per`.",
        Field("coins", Int(1, 4), required=True), Field("per", Enum(("H", "T")), required=True),
        Field("do", flip_do, required=True), cond=False)))
    return tuple(shapes)


SHAPES = _build_shapes()


def _ops(allowed: tuple[str, ...], where: str, name: str, min_items: int = 0) -> List:
    return List(Ref(name, Tagged("op", SHAPES, allowed, where)), min_items)


EFFECTS = _ops(EFFECT_OPS, "effects", "ops_effects")
ON_HIT = _ops(ON_HIT_OPS, "on_hit", "ops_on_hit")
ON_MISS = _ops(ON_MISS_OPS, "on_miss", "ops_on_miss")
TRIGGER_DO = _ops(TRIGGER_OPS, "trigger do", "ops_trigger", 1)

STATIC = Ref("static", Table((
    Field("stat", Enum(("power", "guard")), required=True),
    Field("n", _stat_n, required=True),
    Field("target", _target),
    Field("if", COND),
), "A constant change, added each time the stat is read (never stored)."))

TRIGGER = Ref("trigger", Table((
    Field("on", Enum(TRIGGER_EVENTS), required=True),
    Field("if", COND),
    Field("do", TRIGGER_DO, required=True),
), "When `on` happens (and `if` holds), run `do`."))

# -- mods -------------------------------------------------------------------------------------
class _Activation(Str):
    """A `Str` with a pattern, whose messages say which part of an activation is wrong."""

    def check(self, value, path, out):
        if isinstance(value, str) and not re.fullmatch(self.pattern or "", value):
            words = value.split()
            if words and words[0].lower() == "spirit":
                if len(words) == 2 and ascii_int(words[1]) is not None:
                    out.append((path, f"spirit cost {words[1]} is out of range 1..5"))
                else:
                    out.append((path, f"{value!r}: write 'spirit N' with N 1-5"))
                return
            if value and re.fullmatch(r"[HTW]+", value):
                out.append((path, f"{value!r} has {len(value)} coins; a pattern has 1-6"))
                return
            bad = next((c for c in value if c not in "HTW"), None)
            if bad is not None and re.fullmatch(r"[HTWhtw]+", value):
                out.append((path, f"{value!r}: coin faces are written in capitals H, T, W"))
                return
        super().check(value, path, out)


ACTIVATION = _Activation("a flip pattern of 1-6 coins from H, T, W, or 'spirit N' with N 1-5",
                         pattern=f"{PATTERN_RE}|{SPIRIT_RE}",
                         pattern_help="a coin pattern (1-6 of H, T, W, e.g. \"HTW\") or "
                                      "'spirit N' (N 1-5)")

_text = Field("text", Str("the mod's printed text (shown to players)", max_len=MAX_TEXT_LEN))
ATTACK_MOD = Ref("attack_mod", Table((
    Field("type", Enum(ATTACK_TYPES), required=True),
    _text,
    Field("activation", ACTIVATION, required=True),
    Field("critical", Enum(CRITICALS, "the critical badge's kind")),
    Field("effects", EFFECTS),
    Field("on_hit", ON_HIT),
    Field("on_miss", ON_MISS),
), "An attack mod (alpha, beta, omega), chosen at attack declaration."))

_DELTA_FORBIDS = (
    ("activation", "a delta has no activation (SH-17)"),
    ("critical", "a delta has no critical (SH-17)"),
    ("effects", "a delta has statics and triggers, not effects"),
    ("on_hit", "a delta has statics and triggers, not on_hit"),
    ("on_miss", "a delta has statics and triggers, not on_miss"),
)
DELTA_MOD = Ref("delta_mod", Table((
    Field("type", Enum(("delta",)), required=True),
    _text,
    Field("statics", List(STATIC)),
    Field("triggers", List(TRIGGER)),
), "A delta: constant text, live while its gear is current, on either player's turn.",
    forbidden=_DELTA_FORBIDS))

MOD = Tagged("type", (("alpha", ATTACK_MOD), ("beta", ATTACK_MOD), ("omega", ATTACK_MOD),
                      ("delta", DELTA_MOD)), MOD_TYPES, "mods")


def _check_gear_mods(gear: dict, path: str, out: Problems) -> None:
    """SH-17: at least one attack mod, at most one of each attack type."""
    types = [m.get("type") for m in gear["mods"]]
    for t in ATTACK_TYPES:
        if types.count(t) > 1:
            out.append((f"{path}.mods", f"has {types.count(t)} {t} mods; a gear has at most "
                                        f"one of each attack type (SH-17)"))
    if not any(t in ATTACK_TYPES for t in types):
        out.append((f"{path}.mods", "has no attack mod; a gear needs at least one alpha, beta "
                                    "or omega (SH-17)"))


def _gear_schema_extra() -> tuple[tuple[str, Any], ...]:
    at_most_one = [{"contains": {"properties": {"type": {"const": t}}, "required": ["type"]},
                    "minContains": 0, "maxContains": 1} for t in ATTACK_TYPES]
    at_least_one = {"contains": {"properties": {"type": {"enum": list(ATTACK_TYPES)}},
                                 "required": ["type"]}, "minContains": 1}
    return (("allOf", [{"properties": {"mods": s}} for s in (*at_most_one, at_least_one)]),)


GEAR = Ref("gear", Table((
    Field("level", Int(1, 3, "1, 2, 3, 2 in ring order"), required=True),
    Field("power", Int(0, 9, "printed power"), required=True),
    Field("guard", Int(0, 9, "printed guard"), required=True),
    Field("mods", List(MOD, 1), required=True),
), "A gear: level, printed power and guard, and its mods.", extra=(_check_gear_mods,),
    schema_extra=_gear_schema_extra()))


def _check_ring(card: dict, path: str, out: Problems) -> None:
    for i, (gear, level) in enumerate(zip(card["gears"], LEVELS, strict=False)):
        if gear.get("level") != level:
            out.append((f"gears[{i}].level", f"is {gear.get('level')}, but gear {i + 1} of the "
                                              f"ring (gear {RING[i]}) must be level {level}; "
                                              f"gears are listed 1, 2L, 3, 2R (SH-16)"))


CARD = Table((
    Field("name", Str("the character's name", nonempty=True, max_len=MAX_NAME_LEN),
          required=True),
    Field("ability", Str("the ability's printed text", max_len=MAX_TEXT_LEN), required=True),
    Field("statics", List(STATIC)),
    Field("triggers", List(TRIGGER)),
    Field("gears", List(GEAR, 4, 4, "four gears in ring order: 1, 2L, 3, 2R (SH-16)"),
          required=True),
), "A Shift card.", extra=(_check_ring,))


def validate(doc: Any) -> Problems:
    """Every problem of a parsed card document, as (path, message), in document order."""
    out: Problems = []
    CARD.check(doc, "", out)
    return out


def warnings(doc: dict) -> Problems:
    """Legal but probably unintended (shift-effects.md, "Warn only"). `doc` must be valid."""
    out: Problems = []
    for gi, gear in enumerate(doc["gears"]):
        for mi, mod in enumerate(gear["mods"]):
            path = f"gears[{gi}].mods[{mi}]"
            act = mod.get("activation", "")
            if mod["type"] == "delta":
                continue
            if not act.startswith("spirit") and "H" not in act and "T" not in act:
                out.append((f"{path}.activation", f"{act!r} has no H or T: it always succeeds"))
            if act.startswith("spirit") and mod.get("critical") == "refresh":
                out.append((f"{path}.critical", "a refresh critical on a spirit mod refunds "
                                                "its own cost"))
            for key in ("effects", "on_hit", "on_miss"):
                for oi, op in enumerate(mod.get(key, [])):
                    if op["op"] == "power" and op.get("target") == "opponent":
                        out.append((f"{path}.{key}[{oi}]", "power on the opponent from an attack "
                                    "mod is cleaned at their start phase, before it can count"))
    return out


def card_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a card file, generated from `CARD`."""
    defs: dict[str, Any] = {}
    root = CARD.schema(defs)
    gears = root["properties"]["gears"]
    gears["prefixItems"] = [
        {"allOf": [{"$ref": "#/$defs/gear"}, {"properties": {"level": {"const": lvl}}}]}
        for lvl in LEVELS
    ]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Shift card",
        **root,
        "$defs": defs,
    }


def schema_text() -> str:
    return json.dumps(card_schema(), indent=2, sort_keys=False) + "\n"


def write_schema() -> Path:
    """Regenerate the shipped schema file (after a change to the definition above)."""
    SCHEMA_FILE.write_text(schema_text(), encoding="utf-8")
    return SCHEMA_FILE
