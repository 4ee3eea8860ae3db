"""Issue 15 item 2 and 9: records are read with limits and clear errors, written without stray
files, and warn first when they give away hidden information."""

from __future__ import annotations

import json
import os

import pytest

from boardct.core import registry
from boardct.core.errors import RecordError
from boardct.core.records import HIDDEN_KEY, MAX_ACTIONS, Record, load_state, record_of


def fieldshift_record_text(**changes) -> str:
    doc = record_of(registry.get("fieldshift").new(seed=3, names=("Ann", "Ben"))).to_dict()
    doc.update(changes)
    return json.dumps(doc)


def test_record_nested_deeper_than_python_recursion_is_a_record_error():
    text = '{"format": "boardct-record", "options": ' + "[" * 50_000 + "]" * 50_000 + "}"
    with pytest.raises(RecordError, match="nested"):
        Record.from_json(text, "deep.json")


def test_record_with_a_number_of_5000_digits_is_a_record_error():
    text = fieldshift_record_text().replace('"seed": 3', '"seed": ' + "1" * 5000)
    with pytest.raises(RecordError, match="digits"):
        Record.from_json(text, "big.json")


def test_record_with_a_lone_surrogate_name_is_refused_before_anything_prints_it():
    text = fieldshift_record_text().replace('"Ann"', '"\\ud800"')
    with pytest.raises(RecordError, match="Unicode"):
        Record.from_json(text, "s.json")


@pytest.mark.parametrize("name", ["\x1b[2J", "a\nb", "x" * 201, "tab\there"])
def test_record_player_names_must_be_printable_and_short(name):
    with pytest.raises(RecordError, match=r"players\[1\]"):
        Record.from_json(fieldshift_record_text(players=["Ann", name]))


def test_record_with_too_many_actions_is_refused_before_replaying():
    with pytest.raises(RecordError, match="actions: more than"):
        Record.from_json(fieldshift_record_text(actions=["20"] * (MAX_ACTIONS + 1)))


def test_record_file_with_a_byte_order_mark_loads(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + fieldshift_record_text().encode())
    state = load_state(path)
    assert state.game.id == "fieldshift" and state.setup.names == ("Ann", "Ben")


def test_record_file_that_is_not_utf8_says_so(tmp_path):
    path = tmp_path / "bad.json"
    path.write_bytes(b'{"format": "\xff"}')
    with pytest.raises(RecordError, match="not UTF-8"):
        load_state(path)


def test_a_folder_given_as_a_record_is_a_record_error(tmp_path):
    with pytest.raises(RecordError, match="is a folder"):
        load_state(tmp_path)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_dev_zero_as_a_record_is_refused_at_once():
    with pytest.raises(RecordError, match="not a regular"):
        load_state("/dev/zero")


def test_a_huge_record_file_is_refused_by_size(tmp_path, monkeypatch):
    import boardct.core.records as records

    monkeypatch.setattr(records, "MAX_RECORD_BYTES", 100)
    path = tmp_path / "big.json"
    path.write_text(fieldshift_record_text())
    with pytest.raises(RecordError, match="larger than 100 bytes"):
        load_state(path)


def test_a_failed_save_leaves_no_stray_tmp_file(tmp_path):
    state = registry.get("fieldshift").new(seed=1, names=("Ann", "Ben"))
    target = tmp_path / "game.json"
    target.mkdir()  # a folder where the file should go: the rename fails
    with pytest.raises(OSError):
        record_of(state).save(target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


# A record reveals something of a game with hidden parts or chance to come (its seed decides
# them); of a game with neither, nothing.
REVEALING = [g.id for g in registry.all_games() if not g.perfect_information or g.has_chance]
PLAIN = [g.id for g in registry.all_games() if g.perfect_information and not g.has_chance]


@pytest.mark.parametrize("game_id", REVEALING)
def test_record_of_a_game_with_hidden_information_says_so_in_its_first_field(game_id):
    game = registry.get(game_id)
    state = game.new(seed=5, names=tuple(f"P{i}" for i in range(game.min_players)))
    doc = json.loads(record_of(state).to_json())
    assert next(iter(doc)) == HIDDEN_KEY
    assert "hidden information" in doc[HIDDEN_KEY]
    # and it still reads back as a record
    assert Record.from_json(record_of(state).to_json()).game == game_id


@pytest.mark.parametrize("game_id", PLAIN)
def test_record_of_a_perfect_information_game_has_no_warning(game_id):
    game = registry.get(game_id)
    state = game.new(seed=5, names=tuple(f"P{i}" for i in range(game.min_players)))
    doc = json.loads(record_of(state).to_json())
    assert HIDDEN_KEY not in doc and next(iter(doc)) == "format"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_a_record_whose_option_names_a_device_is_a_record_error_naming_the_record(tmp_path):
    state = registry.get("ctf2187").new(seed=2, names=("A", "B"))
    doc = record_of(state).to_dict()
    doc["options"]["map"] = "/dev/zero"
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(RecordError) as info:
        load_state(path)
    assert str(info.value).startswith(f"{path}: options: ")
