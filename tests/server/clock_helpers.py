"""Helpers for the clock and moderator tests: the real app (HTTP and websocket through
Starlette's TestClient) on a given database, its deadline keeper driven by hand where a test
needs a deadline to fall due now, and the reminders the keeper sends, caught."""

from __future__ import annotations

import datetime as dt
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from srvx_helpers import expire

from boardct.server import clocks
from boardct.server.app import create_app
from boardct.server.config import ServerConfig
from conftest import Api

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@contextmanager
def app_on(db_url: str, **settings: Any) -> Iterator[Api]:
    """The app on `db_url` (agents play in a thread of the server process)."""
    config = ServerConfig(db_url=db_url, agent_workers=0, **settings)
    with TestClient(create_app(config)) as client:
        yield Api(client)


def service(api: Api) -> Any:
    return api.client.app.state.service


def keeper(api: Api) -> Any:
    return api.client.app.state.extras.deadlines


def run(api: Api, fn: Any, *args: Any) -> Any:
    """Run the coroutine function `fn(*args)` on the app's event loop."""
    return api.client.portal.call(fn, *args)


def live(api: Api, gid: str) -> Any:
    return run(api, service(api).get, gid)


def time_runs_out(api: Api, gid: str) -> int:
    """The game's deadline moved into the past, then one round of the keeper: how many
    deadlines it acted on (the keeper's own loop may have acted first: then 0)."""
    before = live(api, gid).version
    run(api, expire, service(api), gid)
    acted = run(api, keeper(api).tick)
    api.settle()
    assert acted == 1 or live(api, gid).version > before
    return acted


def deadline(state: dict) -> dt.datetime | None:
    return dt.datetime.fromisoformat(state["deadline"]) if state.get("deadline") else None


def log_lines(state: dict) -> list[str]:
    return [line for e in state["log"] for line in e["events"]]


@contextmanager
def caught_reminders() -> Iterator[list[tuple[str, int, float]]]:
    """The reminders sent meanwhile, as (game, seat, hours), instead of the default hook."""
    got: list[tuple[str, int, float]] = []
    before = clocks.reminder_hook
    clocks.set_reminder_hook(lambda _session, live, seat, hours: got.append((live.id, seat, hours)))
    try:
        yield got
    finally:
        clocks.set_reminder_hook(before)
