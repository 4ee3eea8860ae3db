"""The card format (SH-1..SH-3, SH-16, SH-17): shipped cards, validation errors, JSON Schema."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from shift_helpers import PLAIN, card

from boardct.core.errors import DataError
from boardct.games.shift import cardformat
from boardct.games.shift.cards import (
    CheckResult,
    check_file,
    check_text,
    load_file,
    resolve,
    shipped,
)


def problems_of(tmp_path, **kw) -> list[tuple[str, str]]:
    return check_file(card(tmp_path, **kw)).problems


def load_error(path) -> DataError:
    with pytest.raises(DataError) as info:
        load_file(path)
    return info.value


# -- shipped cards ----------------------------------------------------------------------------
def test_sh1_at_least_six_shipped_cards_all_load_cleanly():
    deck = shipped()
    assert len(deck) >= 6
    for stem, path in deck.items():
        result = check_file(path)
        assert result.problems == [], stem
        assert result.warnings == [], stem
        assert result.card is not None and result.card.name


def test_sh1_shipped_cards_together_cover_every_type_activation_critical_ability_and_delta():
    mods = [m for path in shipped().values() for g in load_file(path).gears for m in g.mods]
    cards = [load_file(p) for p in shipped().values()]
    assert {m.type for m in mods} == {"alpha", "beta", "omega", "delta"}
    assert any(m.pattern for m in mods) and any(m.cost for m in mods)
    assert any("W" in m.pattern for m in mods)
    assert {m.critical for m in mods} - {None} == {"damage", "heal", "shift", "duo", "refresh"}
    assert any(c.triggers for c in cards), "a triggered ability"
    assert any(c.statics for c in cards), "a constant ability"
    ops = {op.op for m in mods for op in (*m.effects, *m.on_hit, *m.on_miss)}
    ops |= {op.op for m in mods for t in m.triggers for op in t.do}
    ops |= {op.op for c in cards for t in c.triggers for op in t.do}
    assert ops == set(cardformat.OPS)
    events = {t.on for c in cards for t in c.triggers} | {t.on for m in mods for t in m.triggers}
    assert events == set(cardformat.TRIGGER_EVENTS)


def test_sh2_sh16_a_card_has_name_ability_and_four_gears_in_ring_order():
    c = load_file(shipped()["ember-duelist"])
    assert [g.level for g in c.gears] == [1, 2, 3, 2]
    assert [(g.power, g.guard) for g in c.gears] == [(2, 2), (3, 2), (4, 1), (2, 3)]
    beta = c.gears[0].attacks[1]
    assert beta is not None and beta.cost == 1 and beta.critical == "shift"
    assert c.gears[0].attacks[2] is None


def test_resolve_by_stem_name_or_path(tmp_path):
    assert resolve("moth-regent").name == "Moth Regent"
    assert resolve("Moth Regent").name == "Moth Regent"
    assert resolve("MOTH_REGENT").name == "Moth Regent"
    assert resolve(card(tmp_path, name="Home Made")).name == "Home Made"


def test_resolve_unknown_name_lists_the_shipped_cards():
    with pytest.raises(DataError) as info:
        resolve("no-such-card")
    assert "no shipped card of that name and no such file" in str(info.value)
    assert "ember-duelist" in str(info.value)


def test_a_plain_test_card_is_valid(tmp_path):
    assert problems_of(tmp_path) == []


# -- each class of malformed card -------------------------------------------------------------
def test_error_names_file_path_and_problem(tmp_path):
    path = card(tmp_path, m1='{ type = "alpha", activation = "HX" }')
    err = load_error(path)
    assert err.source == path
    assert err.path == "gears[0].mods[0].activation"
    assert str(err) == (f"{path}: gears[0].mods[0].activation: 'HX' is not a coin pattern "
                        "(1-6 of H, T, W, e.g. \"HTW\") or 'spirit N' (N 1-5)")


def test_not_toml(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text('name = "x"\nability = \n', encoding="utf-8")
    err = load_error(path)
    assert err.path == ""
    assert "not valid TOML" in str(err) and "line 2" in str(err)


def test_not_utf8(tmp_path):
    path = tmp_path / "latin.toml"
    path.write_bytes(b'name = "caf\xe9"\n')
    assert str(load_error(path)) == f"{path}: not a UTF-8 text file"


def test_missing_file(tmp_path):
    err = load_error(tmp_path / "nowhere.toml")
    assert str(tmp_path / "nowhere.toml") in str(err)


def test_missing_required_field(tmp_path):
    path = tmp_path / "noname.toml"
    path.write_text(PLAIN.format(name="x", ability="", top="", p1=1, g1=1, p2l=1, g2l=1, p3=1,
                                 g3=1, p2r=1, g2r=1, m1='{ type = "alpha", activation = "H" }',
                                 m2l='{ type = "alpha", activation = "H" }',
                                 m3='{ type = "alpha", activation = "H" }',
                                 m2r='{ type = "alpha", activation = "H" }')
                    .replace('name = "x"\n', ""), encoding="utf-8")
    assert check_file(path).problems == [("name", "missing (required)")]


def test_empty_name(tmp_path):
    assert problems_of(tmp_path, name=" ") == [("name", "must not be empty")]


def test_unknown_field_is_a_typo_not_ignored(tmp_path):
    probs = problems_of(tmp_path, m2l='{ type = "alpha", activation = "H", critcal = "duo" }')
    assert probs == [("gears[1].mods[0].critcal",
                      "unknown field (known fields: type, text, activation, critical, effects, "
                      "on_hit, on_miss)")]


def test_wrong_value_type(tmp_path):
    assert problems_of(tmp_path, p3='"4"') == [
        ("gears[2].power", "expected a whole number 0..9, found a text '4'")]
    assert problems_of(tmp_path, p3="true") == [
        ("gears[2].power", "expected a whole number 0..9, found true/false True")]


def test_printed_stat_out_of_range_sh17(tmp_path):
    assert problems_of(tmp_path, g1=10) == [("gears[0].guard", "10 is out of range 0..9")]


def test_wrong_number_of_gears_sh16(tmp_path):
    path = tmp_path / "three.toml"
    text = Path(card(tmp_path)).read_text(encoding="utf-8")
    path.write_text(text[: text.rindex("[[gears]]")], encoding="utf-8")
    assert check_file(path).problems == [("gears", "has 3 entries, expected exactly 4")]


def test_levels_out_of_ring_order_sh16(tmp_path):
    path = tmp_path / "order.toml"
    text = Path(card(tmp_path)).read_text(encoding="utf-8").replace("level = 3", "level = 9", 1)
    text = text.replace("level = 2", "level = 3", 1).replace("level = 9", "level = 2", 1)
    path.write_text(text, encoding="utf-8")
    assert check_file(path).problems == [
        ("gears[1].level", "is 3, but gear 2 of the ring (gear 2L) must be level 2; gears are "
                           "listed 1, 2L, 3, 2R (SH-16)"),
        ("gears[2].level", "is 2, but gear 3 of the ring (gear 3) must be level 3; gears are "
                           "listed 1, 2L, 3, 2R (SH-16)"),
    ]


@pytest.mark.parametrize("activation, message", [
    ("HX", "'HX' is not a coin pattern (1-6 of H, T, W, e.g. \"HTW\") or 'spirit N' (N 1-5)"),
    ("HHHHTTT", "'HHHHTTT' has 7 coins; a pattern has 1-6"),
    ("spirit 9", "spirit cost 9 is out of range 1..5"),
    ("spirit 0", "spirit cost 0 is out of range 1..5"),
    ("spirit", "'spirit': write 'spirit N' with N 1-5"),
    ("htw", "'htw': coin faces are written in capitals H, T, W"),
    ("", "'' is not a coin pattern (1-6 of H, T, W, e.g. \"HTW\") or 'spirit N' (N 1-5)"),
])
def test_bad_activation_sh17(tmp_path, activation, message):
    mod = f'{{ type = "omega", activation = "{activation}" }}'
    assert problems_of(tmp_path, m3=mod) == [("gears[2].mods[0].activation", message)]


def test_attack_mod_needs_an_activation_sh17(tmp_path):
    assert problems_of(tmp_path, m1='{ type = "beta" }') == [
        ("gears[0].mods[0].activation", "missing (required)")]


def test_delta_has_no_activation_nor_critical_sh17(tmp_path):
    mods = ('{ type = "alpha", activation = "H" }, '
            '{ type = "delta", activation = "HT", critical = "duo" }')
    assert problems_of(tmp_path, m1=mods) == [
        ("gears[0].mods[1].activation", "a delta has no activation (SH-17)"),
        ("gears[0].mods[1].critical", "a delta has no critical (SH-17)"),
    ]


def test_unknown_mod_type(tmp_path):
    assert problems_of(tmp_path, m1='{ type = "gamma", activation = "H" }') == [
        ("gears[0].mods[0].type", "'gamma' is not one of alpha, beta, omega, delta")]


def test_two_mods_of_one_attack_type_sh17(tmp_path):
    mods = '{ type = "beta", activation = "H" }, { type = "beta", activation = "T" }'
    assert problems_of(tmp_path, m2r=mods) == [
        ("gears[3].mods", "has 2 beta mods; a gear has at most one of each attack type (SH-17)")]


def test_gear_without_attack_mod_sh17(tmp_path):
    mods = '{ type = "delta", statics = [ { stat = "guard", n = 1 } ] }'
    assert problems_of(tmp_path, m3=mods) == [
        ("gears[2].mods", "has no attack mod; a gear needs at least one alpha, beta or omega "
                          "(SH-17)")]


def test_unknown_critical_kind_sh3(tmp_path):
    assert problems_of(tmp_path, m1='{ type = "alpha", activation = "H", critical = "mega" }') \
        == [("gears[0].mods[0].critical", "'mega' is not one of damage, heal, shift, duo, "
                                          "refresh")]


@pytest.mark.parametrize("where, op, allowed", [
    ("effects", '{ op = "extra_damage", n = 1 }', cardformat.EFFECT_OPS),
    ("on_hit", '{ op = "flip", coins = 1, per = "H", do = [ { op = "power", n = 1 } ] }',
     cardformat.ON_HIT_OPS),
    ("on_miss", '{ op = "extra_damage", n = 1 }', cardformat.ON_MISS_OPS),
])
def test_op_not_allowed_where_it_stands(tmp_path, where, op, allowed):
    mod = f'{{ type = "alpha", activation = "H", {where} = [ {op} ] }}'
    name = op.split('"')[1]
    assert problems_of(tmp_path, m1=mod) == [
        (f"gears[0].mods[0].{where}[0].op",
         f"{name!r} is not allowed in {where} (allowed: {', '.join(allowed)})")]


def test_ignore_guard_not_allowed_in_a_trigger(tmp_path):
    top = ('triggers = [ { on = "turn_start", do = [ { op = "ignore_guard", '
           'part = "guarding" } ] } ]')
    assert problems_of(tmp_path, top=top) == [
        ("triggers[0].do[0].op", "'ignore_guard' is not allowed in trigger do (allowed: power, "
                                 "guard, heal, refresh, burn_opponent, skip_shift_phase)")]


def test_unknown_op(tmp_path):
    mod = '{ type = "alpha", activation = "H", effects = [ { op = "teleport" } ] }'
    assert problems_of(tmp_path, m1=mod)[0] == (
        "gears[0].mods[0].effects[0].op",
        "'teleport' is not one of power, guard, flip, heal, refresh, burn_opponent, "
        "ignore_guard, skip_shift_phase")


def test_stat_change_of_zero_is_rejected(tmp_path):
    mod = '{ type = "alpha", activation = "H", effects = [ { op = "power", n = 0 } ] }'
    assert problems_of(tmp_path, m1=mod) == [
        ("gears[0].mods[0].effects[0].n", "0 is out of range -5..5, not 0")]


def test_flip_needs_do_and_takes_no_condition(tmp_path):
    mod = ('{ type = "alpha", activation = "H", effects = [ { op = "flip", coins = 2, per = "H",'
           ' if = { gear = 1 } } ] }')
    assert problems_of(tmp_path, m1=mod) == [
        ("gears[0].mods[0].effects[0].if", "unknown field (known fields: op, coins, per, do)"),
        ("gears[0].mods[0].effects[0].do", "missing (required)"),
    ]


def test_flip_do_cannot_nest_a_flip(tmp_path):
    mod = ('{ type = "alpha", activation = "H", effects = [ { op = "flip", coins = 1, per = "T",'
           ' do = [ { op = "flip", coins = 1, per = "H", do = [] } ] } ] }')
    probs = problems_of(tmp_path, m1=mod)
    assert probs[0][0] == "gears[0].mods[0].effects[0].do[0].op"
    assert "'flip' is not one of power, guard, heal, refresh, burn_opponent" in probs[0][1]


def test_unknown_trigger_event(tmp_path):
    top = 'triggers = [ { on = "sunrise", do = [ { op = "heal", n = 1 } ] } ]'
    assert problems_of(tmp_path, top=top) == [
        ("triggers[0].on", "'sunrise' is not one of turn_start, turn_end, guard_declared, "
                           "hit_dealt, hit_taken, damage_taken")]


def test_bad_condition(tmp_path):
    top = 'statics = [ { stat = "power", n = 1, if = { gear = 4, mood = "angry" } } ]'
    assert problems_of(tmp_path, top=top) == [
        ("statics[0].if.mood", "unknown field (known fields: gear, opponent_gear, damage_min, "
                               "damage_max, spirit_min, opponent_damage_min, defender_guarded)"),
        ("statics[0].if.gear", "4 is out of range 1..3"),
    ]


def test_condition_gear_may_be_a_list(tmp_path):
    top = 'statics = [ { stat = "power", n = 1, if = { gear = [2, 3] } } ]'
    c = load_file(card(tmp_path, top=top))
    cond = c.statics[0].cond
    assert cond is not None and cond.gear == (2, 3)


def test_several_problems_are_all_reported_by_check_and_counted_by_load(tmp_path):
    path = card(tmp_path, g1=10, p3=-1)
    assert check_file(path).problems == [("gears[0].guard", "10 is out of range 0..9"),
                                         ("gears[2].power", "-1 is out of range 0..9")]
    err = load_error(path)
    assert err.path == "gears[0].guard"
    assert "(and 1 more problem; see `boardct cards check" in str(err)


def test_warnings_do_not_reject_a_card(tmp_path):
    mods = ('{ type = "alpha", activation = "WW" }, '
            '{ type = "beta", activation = "spirit 2", critical = "refresh", '
            'effects = [ { op = "power", n = 1, target = "opponent" } ] }')
    result = check_file(card(tmp_path, m1=mods))
    assert result.problems == []
    assert [w[0] for w in result.warnings] == ["gears[0].mods[0].activation",
                                               "gears[0].mods[1].critical",
                                               "gears[0].mods[1].effects[0]"]


def test_check_text_never_raises_on_garbage():
    assert isinstance(check_text("[[[", "x"), CheckResult)
    assert check_text("gears = 3\nname = 1\n", "x").problems[0] == (
        "name", "expected a text, found a whole number 1")


# -- JSON Schema ------------------------------------------------------------------------------
def test_shipped_schema_equals_the_generated_one():
    assert json.loads(cardformat.SCHEMA_FILE.read_text(encoding="utf-8")) == \
        cardformat.card_schema()
    assert cardformat.SCHEMA_FILE.read_text(encoding="utf-8") == cardformat.schema_text()


def test_schema_follows_the_definition():
    schema = cardformat.card_schema()
    defs = schema["$defs"]
    assert schema["required"] == ["name", "ability", "gears"]
    assert [p["allOf"][1]["properties"]["level"]["const"]
            for p in schema["properties"]["gears"]["prefixItems"]] == [1, 2, 3, 2]
    assert defs["attack_mod"]["properties"]["critical"]["enum"] == list(cardformat.CRITICALS)
    assert defs["trigger"]["properties"]["on"]["enum"] == list(cardformat.TRIGGER_EVENTS)
    effects = [alt["$ref"] for alt in defs["ops_effects"]["oneOf"]]
    assert effects == [f"#/$defs/op_{op}" for op in cardformat.EFFECT_OPS]

    def refs(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "$ref":
                    yield v
                else:
                    yield from refs(v)
        elif isinstance(node, list):
            for v in node:
                yield from refs(v)

    for ref in refs(schema):
        assert ref.removeprefix("#/$defs/") in defs


def test_schema_agrees_with_the_validator(tmp_path):
    """With jsonschema installed: shipped cards pass the schema, malformed ones fail it."""
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(cardformat.card_schema())
    for path in shipped().values():
        assert list(validator.iter_errors(tomllib.loads(path.read_text("utf-8")))) == []
    bad = [
        {"m1": '{ type = "alpha", activation = "HX" }'},
        {"m1": '{ type = "beta", activation = "H" }, { type = "beta", activation = "T" }'},
        {"m3": '{ type = "delta" }'},
        {"m1": '{ type = "delta", activation = "H" }, { type = "alpha", activation = "H" }'},
        {"m1": '{ type = "alpha", activation = "H", effects = [ { op = "extra_damage", n = 1 } ]'
               ' }'},
        {"g1": 10},
        {"name": " "},
    ]
    for kw in bad:
        path = card(tmp_path, **kw)
        doc = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        assert cardformat.validate(doc) != []
        assert list(validator.iter_errors(doc)) != [], kw
