"""Server test fixtures.

- The real app through Starlette's TestClient, one SQLite file per test (`api`, `make_client`).
- Databases: SQLite always, PostgreSQL when `.ci/run` or the developer provides one
  (`BOARDCT_TEST_PG_URL`, `postgresql+psycopg://user@host:port/db`; each test gets a fresh
  database of its own on that server, dropped afterwards; without it the PostgreSQL cases skip
  and say why): `pg_url`, `sqlite_url`, and `db_url` (each storage test on both).
- A real `boardct serve` process on 127.0.0.1 (`serve`), for the multi-client, restart and kill
  tests.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the server tests need the `server` extra (fastapi)")
pytest.importorskip("sqlalchemy", reason="the server tests need the `server` extra")
pytest.importorskip("alembic", reason="the server tests need the `server` extra")

from server_live import ServerProcess, serving  # noqa: E402

from boardct.server.app import create_app  # noqa: E402
from boardct.server.config import ServerConfig  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # noqa: E402

API = "/api/v1"


class Api:
    """A thin client: REST calls with a seat's token, JSON answers."""

    def __init__(self, client: TestClient):
        self.client = client

    def h(self, token: str | None) -> dict:
        return {"Authorization": f"Bearer {token}"} if token else {}

    def get(self, path: str, token: str | None = None):
        return self.client.get(API + path, headers=self.h(token))

    def post(self, path: str, body=None, token: str | None = None, **kw):
        if body is None and "content" not in kw:
            body = {}
        return self.client.post(API + path, json=body, headers=self.h(token), **kw)

    def create(self, game: str, seats: list[dict] | None = None, **extra) -> dict:
        body = {"game": game, "seats": seats or [{"kind": "human", "name": "Ann"},
                                                 {"kind": "human", "name": "Bob"}]} | extra
        r = self.post("/games", body)
        assert r.status_code == 201, r.text
        return r.json()

    def state(self, gid: str, token: str | None = None) -> dict:
        r = self.get(f"/games/{gid}", token)
        assert r.status_code == 200, r.text
        return r.json()

    def move(self, gid: str, token: str | None, text: str, **extra):
        return self.post(f"/games/{gid}/moves", {"text": text} | extra, token)

    def settle(self) -> None:
        """Wait for the server's background work (broadcasts, agents' moves)."""
        app = self.client.app

        async def wait() -> None:
            for _ in range(200):
                await app.state.agents.settle()
                await app.state.service.settle()
                if not app.state.agents._tasks and not app.state.service._tasks:
                    return

        self.client.portal.call(wait)


# The tests play random games as fast as the machine answers, one seat often moving many
# times in a row (a Hills turn is several moves): the per-seat move quota, a flood guard of 20
# moves a second, would then fail them on a machine fast enough (it did in CI). It is off in
# these clients unless a test sets it; tests/server/test_quotas.py tests it.
NO_MOVE_QUOTA = {"move": "none"}


def make_client(db_path, agent_workers: int = 0, **settings) -> TestClient:
    """The app on a SQLite file; `settings`: other ServerConfig fields (quotas...). The move
    quota is off unless `quotas` names it (NO_MOVE_QUOTA)."""
    settings["quotas"] = NO_MOVE_QUOTA | settings.get("quotas", {})
    config = ServerConfig(db_url=f"sqlite:///{db_path}", agent_workers=agent_workers,
                          **settings)
    return TestClient(create_app(config))


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "boardct.db"


@pytest.fixture
def api(db_path) -> Iterator[Api]:
    with make_client(db_path) as client:
        yield Api(client)


# -- databases and live server processes (srvx) -----------------------------------------------
PG_ENV = "BOARDCT_TEST_PG_URL"
def _pg_admin_url(url: str) -> str:
    """The libpq URL (no SQLAlchemy driver suffix) of the maintenance database `postgres`."""
    base = url.replace("postgresql+psycopg://", "postgresql://", 1)
    return base.rsplit("/", 1)[0] + "/postgres"


def pg_skip_reason() -> str | None:
    """Why the PostgreSQL tests cannot run here (None: they can)."""
    url = os.environ.get(PG_ENV)
    if not url:
        return (f"PostgreSQL not available: {PG_ENV} is not set (.ci/run starts a private "
                "PostgreSQL and sets it)")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "PostgreSQL not available: psycopg is not installed (pip install '.[server]')"
    return None


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database for this test (dropped afterwards), as a
    SQLAlchemy URL; skips with the reason when no PostgreSQL is available."""
    reason = pg_skip_reason()
    if reason:
        print(reason)
        pytest.skip(reason)
    import psycopg

    base = os.environ[PG_ENV]
    name = "boardct_t_" + secrets.token_hex(6)
    try:
        with psycopg.connect(_pg_admin_url(base), autocommit=True, connect_timeout=10) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error as exc:
        reason = f"PostgreSQL not available: cannot create a test database ({exc})".strip()
        print(reason)
        pytest.skip(reason)
    yield base.rsplit("/", 1)[0] + "/" + name
    with contextlib.suppress(psycopg.Error), psycopg.connect(
            _pg_admin_url(base), autocommit=True, connect_timeout=10) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A SQLite database file of this test's own."""
    return f"sqlite:///{(tmp_path / 'boardct.db').as_posix()}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each storage test twice: on SQLite (always) and on PostgreSQL (skipped, with the
    reason, where there is none)."""
    if request.param == "sqlite":
        return f"sqlite:///{(tmp_path / 'boardct.db').as_posix()}"
    return request.getfixturevalue("pg_url")


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    """A factory: `serve(db_url, workers=1)` starts `boardct serve` and waits until it
    answers; every server it started is stopped at the end of the test."""
    yield from serving(tmp_path)
