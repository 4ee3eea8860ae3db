"""FS-24 and the record format: a record replays to the identical state; malformed or
tampered records and old save files fail with an error naming the line or field."""

import json
import random

import pytest
from fs_helpers import GAME, play

from boardct.core.errors import RecordError
from boardct.core.records import Record, load_state, record_of, replay


def random_game(seed: int, ruleset: str = "lstd", violations: str = "dispute", steps: int = 400):
    rng = random.Random(seed)
    s = GAME.new(seed=seed, names=("Ann", "Ben"), ruleset=ruleset, violations=violations)
    for _ in range(steps):
        if s.is_over:
            break
        s.apply(rng.choice(s.legal_actions()))
    return s


@pytest.mark.parametrize("ruleset", ["lstd", "stdex", "type-a"])
def test_fs24_record_round_trip_replays_to_the_identical_state(ruleset, tmp_path):
    s = random_game(7, ruleset, steps=250)
    path = record_of(s).save(tmp_path / "game.json")
    again = load_state(path)
    assert again.snapshot() == s.snapshot()
    assert again.render() == s.render()


def test_record_of_a_finished_game_keeps_the_result(tmp_path):
    s = GAME.new(seed=1, names=("Ann", "Ben"))
    play(s, "20", "09")
    doc = json.loads(record_of(s).to_json())
    assert doc["format"] == "boardct-record" and doc["version"] == 1
    assert doc["game"] == "fieldshift" and doc["players"] == ["Ann", "Ben"]
    assert doc["actions"] == ["20", "09"]
    assert doc["result"] == {"winners": [0], "reason": "concession", "returns": [1.0, 0.0],
                             "kind": "resignation"}
    assert doc["options"] == {"ruleset": "lstd", "violations": "dispute", "turn_limit": 300}


def test_record_keeps_the_tokens_as_typed_including_ignored_middle_digits():
    s = GAME.new(seed=1, ruleset="stdex")
    play(s, "773", "07", "011")
    assert record_of(s).actions == ["773", "07", "011"]


def _doc(**changes):
    s = GAME.new(seed=1, names=("Ann", "Ben"))
    play(s, "24", "26", "09")
    doc = json.loads(record_of(s).to_json())
    doc.update(changes)
    return doc


@pytest.mark.parametrize(
    "changes, where",
    [
        ({"format": "other"}, "format"),
        ({"version": "1"}, "version"),
        ({"version": 99}, "version"),
        ({"game": 3}, "game"),
        ({"game": "chess"}, "game"),
        ({"seed": None}, "seed"),
        ({"players": "Ann"}, "players"),
        ({"players": ["Ann"]}, "players"),
        ({"actions": "24 26"}, "actions"),
        ({"actions": ["24", 26]}, "actions[1]"),
        ({"actions": ["24", "2x"]}, "actions[1]"),
        ({"actions": ["24", "06", "06", "30"]}, "actions[3]"),
        ({"options": {"ruleset": "fast"}}, "options"),
        ({"options": {"colour": 1}}, "options"),
        ({"result": {"winners": [0], "reason": "concession"}}, "result"),
        ({"result": "won"}, "result"),
        ({"actions": ["24", "09", "26"]}, "actions[2]"),
    ],
)
def test_malformed_or_tampered_records_name_the_field(changes, where):
    doc = _doc(**changes)
    with pytest.raises(RecordError) as info:
        replay(Record.from_dict(doc, "game.json"), "game.json")
    assert info.value.where == where
    assert str(info.value).startswith("game.json: ")


def test_broken_json_names_line_and_column(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{\n "format": "boardct-record",\n "version": 1,,\n}\n')
    with pytest.raises(RecordError, match=r"line 3, column 15"):
        load_state(path)


def test_missing_and_binary_files_are_clear_errors(tmp_path):
    with pytest.raises(RecordError, match="No such file"):
        load_state(tmp_path / "nope.json")
    path = tmp_path / "bin"
    path.write_bytes(b"\xff\xfe\x00\x01")
    with pytest.raises(RecordError):
        load_state(path)


def test_fs24_old_tool_save_file_replays_under_its_ruleset(tmp_path):
    path = tmp_path / "fs_save_friday"
    path.write_text("1\nAlice\nBob\n203\n209\n\n703\n")
    s = load_state(path)
    assert s.ruleset == 1 and s.setup.names == ("Alice", "Bob")
    assert s.loc[0] == 3 and s.loc[10] == 9 and s.watcher(0) == 3
    assert s.render().splitlines()[0] == "[Player 1: Alice]"


def test_fs24_old_tool_type_a_is_minus_one(tmp_path):
    path = tmp_path / "fs_save_x"
    path.write_text("-1\nA\nB\n")
    assert load_state(path).ruleset == 2


def test_fs24_first_command_that_does_not_apply_stops_the_load_naming_its_line(tmp_path):
    path = tmp_path / "fs_save_bad"
    path.write_text("0\nAlice\nBob\n24\n29\n34\n")
    with pytest.raises(RecordError) as info:
        load_state(path)
    assert info.value.where == "line 6" and "'34'" in str(info.value)
    assert "out of range" in str(info.value)


def test_fs24_malformed_old_save_header(tmp_path):
    path = tmp_path / "fs_save_hdr"
    path.write_text("0\nAlice\n")
    with pytest.raises(RecordError, match="line 3: expected the two player names"):
        load_state(path)
    path.write_text("LSTD\nA\nB\n")
    with pytest.raises(RecordError, match="neither a boardct record"):
        load_state(path)
