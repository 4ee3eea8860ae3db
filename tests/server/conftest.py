"""Server tests: the real app through Starlette's TestClient, one SQLite file per test."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi", reason="the server tests need the `server` extra (fastapi)")
pytest.importorskip("sqlalchemy", reason="the server tests need the `server` extra")
pytest.importorskip("alembic", reason="the server tests need the `server` extra")

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


def make_client(db_path, agent_workers: int = 0) -> TestClient:
    config = ServerConfig(db_url=f"sqlite:///{db_path}", agent_workers=agent_workers)
    return TestClient(create_app(config))


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "boardct.db"


@pytest.fixture
def api(db_path) -> Iterator[Api]:
    with make_client(db_path) as client:
        yield Api(client)
