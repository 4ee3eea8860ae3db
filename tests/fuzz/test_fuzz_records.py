"""Fuzzing game records and `load_state` (issue 15 item 2): every game's records, edited as
JSON text, field by field (odd values: deep nesting, numbers of thousands of digits, lone
surrogates, floats out of range, tampered options and actions) and byte by byte, through
`Record.from_json`, `replay`, `Record.load` and `load_state`; a record that replays is shown,
recorded again and saved. Only `BoardctError` may escape."""

from __future__ import annotations

import json
import random

import fuzz_kit
from fuzz_kit import (
    INT_TEXTS,
    assert_ascii_numbers,
    attempt,
    fresh_name,
    fuzz,
    mutate,
    mutate_bytes,
    mutate_lines,
    pool,
    random_text,
    sandbox,
    scratch_file,
    time_limit,
)
from hypothesis import strategies as st

from boardct.core import registry
from boardct.core.records import Record, load_state, record_of, replay

RAW_VALUES = [
    "null", "true", "false", "0", "-1", "1", "2", "17", "1.5", "-0.0", "1e999", "-1e999",
    "NaN", "Infinity", "-Infinity", "1e-400", "9" * 20, "9" * 45, "9" * 4301, "-" + "9" * 5000,
    '"x"', '""', '" "', '"\\ud800"', '"A\\udcff"', '"\\u0000"', '"\\u001b[2J"', '"\\ufeff"',
    '"²"', '"٣"', '"1²"', '"' + "a" * 150_000 + '"', '"' + "9" * 5000 + '"', "[]", "{}",
    '["x"]', "[1, 2]", '{"a": 1}', "[" * 50 + "]" * 50, "[" * 100_000 + "]" * 100_000,
    '{"a":' * 3000 + "1" + "}" * 3000, '"boardct-record"', '"fieldshift"', '"ctf2187"',
    '"lstd"', '"type-a"', '"ember-duelist"', '"survivors:1"', '"Lancer"', '"."', '"/"',
]
SENTINEL = "@@fuzz-value@@"


def option_raw(draw, name: str) -> str:
    """A raw JSON value for option `name`; counts that allocate without bound, and names of
    endless files, only when hazards are on."""
    if fuzz_kit.HAZARDS:
        extra = ['"/dev/zero"', "10000000", '"survivors:100000000"', str(2**31)]
        if draw(st.integers(0, 3)) == 0:
            return draw(st.sampled_from(extra))
    if name == "bots_per_team":
        return draw(st.sampled_from(["-1", "0", "1", "2", "3", "12", '"2"', '"٣"', '"²"',
                                     "1.5", "null", "true", '"9' + "9" * 44 + '"']))
    if name == "deck":
        text = mutate(draw, "survivors:3,artillery:3,ammo:3,boost:3", ["survivors", "ammo"],
                      [])
        import re

        return json.dumps(re.sub(r"\d{6,}", "99999", text))
    if name in ("card1", "card2", "layout", "map", "tables", "position"):
        scratch = str(sandbox())
        return draw(st.sampled_from([*RAW_VALUES[:30], json.dumps(scratch),
                                     json.dumps(scratch + "/missing.toml"), '"/dev/null"']))
    return draw(st.one_of(st.sampled_from(RAW_VALUES),
                          st.sampled_from(INT_TEXTS).map(json.dumps)))


def edited_record(draw, game_id: str) -> bytes | str:
    """The record of a random position of the game, edited one of several ways."""
    state = draw(pool(game_id).any_position)
    doc = record_of(state).to_dict()
    if game_id == "ctf2187" and draw(st.booleans()):
        doc["ctf2187"] = {"deadline": None}  # as the moderator's game.json holds it
    text = json.dumps(doc, indent=1, ensure_ascii=False)
    kind = draw(st.sampled_from(["field", "field", "option", "actions", "actions", "text",
                                 "bytes", "random", "as is"]))
    if kind == "field":
        key = draw(st.sampled_from(sorted(doc)))
        value = doc[key]
        if isinstance(value, list) and value and draw(st.booleans()):
            value[draw(st.integers(0, len(value) - 1))] = SENTINEL
        elif isinstance(value, dict) and value and draw(st.booleans()):
            value[draw(st.sampled_from(sorted(value)))] = SENTINEL
        else:
            doc[key] = SENTINEL
        raw = draw(st.sampled_from(RAW_VALUES))
        return json.dumps(doc, indent=1).replace(json.dumps(SENTINEL), raw, 1)
    if kind == "option":
        game = registry.get(game_id)
        name = draw(st.sampled_from([o.name for o in game.options] + ["nonsense"]))
        doc["options"][name] = SENTINEL
        return json.dumps(doc).replace(json.dumps(SENTINEL), option_raw(draw, name), 1)
    if kind == "actions":
        acts = doc["actions"]
        op = draw(st.sampled_from(["edit", "edit", "drop", "double", "swap", "insert",
                                   "other game"]))
        if op == "other game":
            other = draw(st.sampled_from(fuzz_kit.GAME_IDS))
            acts.append(draw(pool(other).any_token))
        elif op == "insert" or not acts:
            acts.insert(draw(st.integers(0, len(acts))), draw(random_text()))
        else:
            i = draw(st.integers(0, len(acts) - 1))
            if op == "edit":
                acts[i] = mutate(draw, acts[i], pool(game_id).vocab, acts)
            elif op == "drop":
                del acts[i]
            elif op == "double":
                acts.insert(i, acts[i])
            else:
                j = draw(st.integers(0, len(acts) - 1))
                acts[i], acts[j] = acts[j], acts[i]
        return json.dumps(doc, ensure_ascii=draw(st.booleans()))
    if kind == "text":
        return mutate_lines(draw, text, ['"', ":", ",", "{", "}", "[", "]", "null"])
    if kind == "bytes":
        return mutate_bytes(draw, text.encode())
    if kind == "random":
        return draw(st.one_of(st.binary(max_size=200), random_text(),
                              random_text().map(lambda t: "{" + t)))
    return text


def read_record(draw, game_id: str) -> None:
    data = edited_record(draw, game_id)
    text = data if isinstance(data, str) else data.decode("utf-8", "surrogateescape")
    ok, record = attempt(Record.from_json, text, "record.json")
    if ok:
        ok, state = attempt(replay, record, "record.json")
        if ok:
            for i, action in enumerate(record.actions):
                assert_ascii_numbers(action, f"replay: actions[{i}]")
            with time_limit():
                for p in (None, *state.iter_players()):
                    state.render(p)
                    json.dumps(state.view(p))
                again = record_of(state)
                again.to_json()
            # a game that replays saves (names and options came through the checks)
            attempt(again.save, fresh_name(".json"))
    with scratch_file(data, ".json") as path:
        attempt(Record.load, path)
        ok, state = attempt(load_state, path)
        if ok:
            fuzz_kit.play_randomly(state, 2, random.Random(len(text)).randrange(99))


@fuzz("fieldshift", ci_examples=50)
def test_fieldshift_records_refused_cleanly(draw):
    read_record(draw, "fieldshift")


@fuzz("fff", ci_examples=50)
def test_fff_records_refused_cleanly(draw):
    read_record(draw, "fff")


@fuzz("hills", ci_examples=50)
def test_hills_records_refused_cleanly(draw):
    read_record(draw, "hills")


@fuzz("shift", ci_examples=50)
def test_shift_records_refused_cleanly(draw):
    read_record(draw, "shift")


@fuzz("ctf2187", ci_examples=40)
def test_ctf2187_records_refused_cleanly(draw):
    read_record(draw, "ctf2187")


@fuzz("any", ci_examples=50)
def test_any_file_given_as_a_saved_game_refused_cleanly(draw):
    """`load_state` (`--resume`, `replay`, the terminal's resume) on any file: random bytes,
    another game's layout or card or map, a folder, a missing file, a name with a NUL."""
    kind = draw(st.sampled_from(["bytes", "text", "folder", "missing", "nul", "other"]))
    if kind == "folder":
        attempt(load_state, sandbox())
        return
    if kind == "missing":
        attempt(load_state, sandbox() / "no" / "such.json")
        return
    if kind == "nul":
        attempt(load_state, str(sandbox() / "a\x00b.json"))
        return
    if kind == "other":
        from test_fuzz_ctf2187 import map_data
        from test_fuzz_hills import layout_data
        from test_fuzz_shift import card_data

        data = draw(st.sampled_from([layout_data, card_data, map_data]))(draw)
    elif kind == "bytes":
        data = draw(st.binary(max_size=400))
    else:
        data = draw(random_text(200))
    with scratch_file(data) as path:
        attempt(load_state, path)


@fuzz("any", ci_examples=10)
def test_record_with_a_byte_order_mark_loads_as_without(draw):
    """Issue 15 item 3: a record saved by Notepad (byte-order mark) loads as without it."""
    game_id = draw(st.sampled_from(fuzz_kit.GAME_IDS))
    state = draw(pool(game_id).any_position)
    text = record_of(state).to_json()
    with scratch_file("\ufeff" + text, ".json") as path:
        ok, got = attempt(load_state, path)
        assert ok, f"a record with a byte-order mark was refused: {got}"
        assert record_of(got).actions == record_of(state).actions
