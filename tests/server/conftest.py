"""Server test fixtures: databases (SQLite always, PostgreSQL when `.ci/run` or the developer
provides one) and a real `boardct serve` process on 127.0.0.1 for the multi-client, restart and
kill tests.

PostgreSQL comes from `BOARDCT_TEST_PG_URL` (`postgresql+psycopg://user@host:port/db`, set by
`.ci/run`); each test gets a fresh database of its own on that server, dropped afterwards.
Without it the PostgreSQL cases skip and say why.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from server_live import SRC, free_port

PG_ENV = "BOARDCT_TEST_PG_URL"
START_TIMEOUT = 90.0  # seconds: eight developers share two cores; a cold start can be slow


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


class ServerProcess:
    """`boardct serve` run as a real process (python -m boardct serve) on 127.0.0.1.

    `start()` waits until the server answers HTTP; `kill()` is SIGKILL (no clean shutdown:
    the durability test's crash), `stop()` a polite terminate; `start()` again reuses the same
    port and database, so a restart is `kill(); start()`."""

    def __init__(self, db: str, tmp: Path, workers: int = 1, port: int | None = None,
                 extra: tuple[str, ...] = (), env: dict[str, str] | None = None):
        self.db = db
        self.tmp = tmp
        self.workers = workers
        self.port = port or free_port()
        self.extra = extra
        self.env = env or {}
        self.proc: subprocess.Popen | None = None
        self.log_path = tmp / f"serve-{self.port}.log"
        self.starts = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        return [sys.executable, "-m", "boardct", "serve", "--host", "127.0.0.1",
                "--port", str(self.port), "--db", self.db, "--workers", str(self.workers),
                *self.extra]

    def start(self, timeout: float = START_TIMEOUT) -> ServerProcess:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
        env.update(self.env)
        self.starts += 1
        log = self.log_path.open("ab")
        log.write(f"--- start {self.starts}: {' '.join(self.command())}\n".encode())
        log.flush()
        self.proc = subprocess.Popen(self.command(), cwd=self.tmp, env=env, stdout=log,
                                     stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     start_new_session=sys.platform != "win32")
        log.close()
        self.wait_ready(timeout)
        return self

    def wait_ready(self, timeout: float = START_TIMEOUT) -> None:
        import httpx

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"boardct serve exited with {self.proc.returncode}:\n"
                                   + self.log())
            try:
                r = httpx.get(self.base_url + "/api/v1/catalog", timeout=2.0)
                if r.status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"boardct serve did not answer in {timeout:.0f} s:\n" + self.log())

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def _signal(self, sig: int) -> None:
        assert self.proc is not None
        if sys.platform == "win32":  # no process groups: the server process alone
            self.proc.kill() if sig == getattr(signal, "SIGKILL", None) else self.proc.terminate()
        else:  # its own session: uvicorn's worker processes get the signal too
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, sig)

    def kill(self) -> None:
        """SIGKILL: the server dies with no chance to flush or close anything."""
        if self.proc is not None and self.proc.poll() is None:
            self._signal(getattr(signal, "SIGKILL", signal.SIGTERM))
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        """A polite stop (SIGTERM), then SIGKILL if it does not go within 20 s."""
        if self.proc is not None and self.proc.poll() is None:
            self._signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    """A factory: `serve(db_url, workers=1)` starts `boardct serve` and waits until it
    answers; every server it started is stopped at the end of the test."""
    started: list[ServerProcess] = []

    def start(db: str, workers: int = 1, port: int | None = None,
              extra: tuple[str, ...] = (), env: dict[str, str] | None = None) -> ServerProcess:
        server = ServerProcess(db, tmp_path, workers=workers, port=port, extra=extra, env=env)
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()
