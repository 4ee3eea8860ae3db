"""A server asked to measure itself (`BOARDCT_TIMINGS=FILE`, server/timings.py) writes a line
a second of where its latency goes, which the load benchmark reads: its event loop's lag, the
collector's pauses, and each SQLite group commit's phases. Without the variable it writes
nothing and its group commit reports to nobody."""

from __future__ import annotations

import json
import time

from boardct.server.timings import ENV_TIMINGS
from conftest import Api, make_client


def _lines(path) -> list[dict]:
    return [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines()]


def test_a_measured_server_writes_its_loop_and_its_commits(tmp_path, monkeypatch):
    out = tmp_path / "timings.jsonl"
    monkeypatch.setenv(ENV_TIMINGS, str(out))
    with make_client(tmp_path / "b.db") as client:
        api = Api(client)
        game = api.create("fieldshift")
        gid, tokens = game["game_id"], [s["token"] for s in game["seats"]]
        state = api.state(gid, tokens[0])
        seat = 0 if state["my_turn"] else 1
        legal = api.state(gid, tokens[seat])["legal"]
        assert api.move(gid, tokens[seat], legal[0]["text"]).status_code == 200
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # a line a second: until one holds the commit
            if out.exists() and any(x["batch"]["n"] for x in _lines(out)):
                break
            time.sleep(0.2)
    lines = _lines(out)
    assert lines, "no line written"
    assert all(x["lag"]["n"] > 0 for x in lines)  # the loop's 10 ms timer fired
    committed = [x for x in lines if x["batch"]["n"]]
    assert committed, "the move's commit was not reported"
    assert committed[0]["batch"]["max"] == 1  # one move in that commit
    for phase in ("db_wait", "db_write", "db_back"):
        assert committed[0][phase]["n"] == 1 and committed[0][phase]["max"] >= 0


def test_an_unmeasured_server_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.delenv(ENV_TIMINGS, raising=False)
    with make_client(tmp_path / "b.db") as client:
        api = Api(client)
        api.create("fieldshift")
        assert client.app.state.service.writer.observe is None
    assert all(p.name.startswith("b.db") for p in tmp_path.iterdir())  # the database only
