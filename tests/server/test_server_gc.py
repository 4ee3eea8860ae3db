"""The server process keeps the garbage collector's full passes short (issue 18's load
target): after start-up everything alive then (modules, classes, loaded games) is frozen out of
the collector's reach, so a full pass scans only what came later (10-30 ms at 200 games
instead of 60-100 ms, a pause every move in flight waits for). Only the process `boardct serve`
runs does it; an app made inside another program (a test, an embedding) leaves that program's
collector alone."""

from __future__ import annotations

import gc
import time
import warnings

import pytest
from click.testing import CliRunner

from boardct.cli.main import cli
from boardct.server.app import create_app
from boardct.server.config import ServerConfig

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture
def unfrozen():
    gc.unfreeze()
    yield
    gc.unfreeze()  # what a test froze goes back to the collector


def test_a_server_process_freezes_what_it_started_with(tmp_path, unfrozen):
    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'b.db'}", agent_workers=0,
                          freeze_gc=True)
    with TestClient(create_app(config)) as client:
        assert gc.get_freeze_count() > 10_000  # the modules and classes at least
        assert client.get("/api/v1/catalog").status_code == 200


def test_an_app_made_in_another_program_leaves_its_collector_alone(tmp_path, unfrozen):
    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'b.db'}", agent_workers=0)
    with TestClient(create_app(config)) as client:
        assert client.get("/api/v1/catalog").status_code == 200
        assert gc.get_freeze_count() == 0


def test_boardct_serve_runs_its_app_with_the_start_up_freeze(tmp_path, monkeypatch):
    uvicorn = pytest.importorskip("uvicorn")
    ran = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: ran.update(app=app, **kw))
    db = f"sqlite:///{(tmp_path / 'b.db').as_posix()}"
    result = CliRunner().invoke(cli, ["serve", "--db", db, "--port", "0"])
    assert result.exit_code == 0, result.output
    assert ran["app"].state.config.freeze_gc is True
    assert ran["host"] == "127.0.0.1"


def test_a_server_process_paces_its_collector_and_gives_it_back(tmp_path, unfrozen):
    # young collections come from the event loop every PACE seconds, not only when the
    # allocation count says (it let the young objects alive pile up into long pauses); the
    # GIL's switch interval is short for the database thread; Python's own settings after
    import sys

    from boardct.server import collector

    before = gc.get_threshold(), sys.getswitchinterval()
    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'b.db'}", agent_workers=0,
                          freeze_gc=True)
    with TestClient(create_app(config)) as client:
        assert gc.get_threshold() == (max(before[0][0], collector.YOUNG), collector.MIDDLE,
                                      collector.OLD)
        assert sys.getswitchinterval() == min(before[1], collector.SWITCH_INTERVAL)
        young = gc.get_stats()[0]["collections"]
        time.sleep(6 * collector.PACE)
        assert gc.get_stats()[0]["collections"] - young >= 3
        assert client.get("/api/v1/catalog").status_code == 200
    assert (gc.get_threshold(), sys.getswitchinterval()) == before


def test_the_pace_reaches_the_middle_generation():
    # an explicit young collection never leads to the older ones by itself: the pace
    # collects the middle generation every MIDDLE + 1th time
    import asyncio

    from boardct.server import collector

    async def run() -> int:
        middle = gc.get_stats()[1]["collections"]
        task = asyncio.get_running_loop().create_task(collector._paced())
        await asyncio.sleep((collector.MIDDLE + 1) * 3 * collector.PACE)
        task.cancel()
        return gc.get_stats()[1]["collections"] - middle

    assert asyncio.run(run()) >= 2


def test_on_postgresql_the_switch_interval_stays_python_s(pg_url, unfrozen):
    # PostgreSQL's moves are written by a pool of threads, each handed the GIL as often: the
    # short interval that helps SQLite's one commit thread cost a fifth of the moves a second
    # there (bench_server.py, two workers, 1,000 games); the collector is paced all the same
    import sys

    from boardct.server import collector

    before = gc.get_threshold(), sys.getswitchinterval()
    config = ServerConfig(db_url=pg_url, agent_workers=0, freeze_gc=True)
    with TestClient(create_app(config)) as client:
        assert sys.getswitchinterval() == before[1]
        assert gc.get_threshold()[1:] == (collector.MIDDLE, collector.OLD)
        assert client.get("/api/v1/catalog").status_code == 200
    assert (gc.get_threshold(), sys.getswitchinterval()) == before
