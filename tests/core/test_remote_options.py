"""Options that name files on this machine (issue 18): marked `local_file`, recognised from
their text alone, refused for remote clients before anything is read; `State.teammates`."""

from __future__ import annotations

import pytest

from boardct.core import registry
from boardct.core.errors import OptionError
from boardct.core.game import Option

FILE_OPTIONS = {("ctf2187", "map"), ("ctf2187", "tables"), ("fff", "position"),
                ("hills", "layout"), ("shift", "card1"), ("shift", "card2")}


def test_every_option_that_reads_a_file_is_marked():
    marked = {(g.id, o.name) for g in registry.all_games() for o in g.options if o.local_file}
    assert marked == FILE_OPTIONS


@pytest.mark.parametrize(("game", "name"), sorted(FILE_OPTIONS))
def test_a_path_is_refused_before_it_is_read(game, name, tmp_path, monkeypatch):
    target = tmp_path / "options.txt"
    target.write_text("SECRET")
    import boardct.core.inputs as inputs

    def no_reading(*_a, **_k):
        raise AssertionError("a remote option value was read")

    monkeypatch.setattr(inputs, "read_bytes", no_reading)
    g = registry.get(game)
    for value in (str(target), "relative/name.toml", "boardct.db", "C:\\\\x\\\\y"):
        with pytest.raises(OptionError, match="names a file on the server"):
            g.check_remote_options({name: value})


def test_content_and_builtin_values_are_allowed():
    registry.get("ctf2187").check_remote_options({"map": "", "tables": ""})
    registry.get("ctf2187").check_remote_options({"map": "line one\nline two"})
    registry.get("hills").check_remote_options({"layout": "hills-layout\n..."})
    registry.get("fff").check_remote_options({"position": "8/8 w 0 1 x"})
    shift = registry.get("shift")
    shift.check_remote_options({"card1": "ember-duelist", "card2": "Tide Warden"})
    assert "moth-regent" in shift.option("card1").remote_choices()
    with pytest.raises(OptionError, match="one of ember-duelist"):
        shift.check_remote_options({"card1": "/etc/passwd"})
    # a folder of tables is a file name whatever it holds
    with pytest.raises(OptionError):
        registry.get("ctf2187").check_remote_options({"tables": "a\nb"})


def test_plain_options_are_not_files():
    opt = Option("x", "", "help")
    assert not opt.local_file and not opt.names_file("/etc/passwd")
    assert opt.remote_choices() is None
    registry.get("fieldshift").check_remote_options({"ruleset": "lstd"})
    with pytest.raises(OptionError, match="no option"):
        registry.get("fieldshift").check_remote_options({"nosuch": 1})


def test_teammates_default_alone_and_ctf_by_team():
    fs = registry.get("fieldshift").new()
    assert [fs.teammates(p) for p in range(2)] == [(0,), (1,)]
    ctf = registry.get("ctf2187").new(names=["a", "b", "c", "d"])
    assert [ctf.teammates(p) for p in range(4)] == [(0, 1), (0, 1), (2, 3), (2, 3)]
    three = registry.get("ctf2187").new(names=["a", "b", "c"], teams=3)
    assert [three.teammates(p) for p in range(3)] == [(0,), (1,), (2,)]
