"""`boardct admin` on SQLite and PostgreSQL, against a server app running on the same
database: an administrator made from the command line signs in; a disabled account cannot
sign in and its session and API token stop working at once; abandoned guest games are purged
(with their chat and offers) and nothing else is; bad input is one line and exit status 2."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import secrets
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="boardct admin needs the `server` extra")

from cli_helpers import run  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402

from boardct.server.app import create_app  # noqa: E402
from boardct.server.config import ServerConfig  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # noqa: E402

API = "/api/v1"
COOKIE = "boardct_session"
PASSWORD = "correct horse battery"
PG_ENV = "BOARDCT_TEST_PG_URL"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The test's own database: a SQLite file, and a fresh PostgreSQL database where
    $BOARDCT_TEST_PG_URL names a server (tests/server/conftest.py does the same)."""
    if request.param == "sqlite":
        yield f"sqlite:///{(tmp_path / 'boardct.db').as_posix()}"
        return
    base = os.environ.get(PG_ENV)
    if not base:
        pytest.skip(f"PostgreSQL not available: {PG_ENV} is not set")
    import psycopg

    admin = base.replace("postgresql+psycopg://", "postgresql://", 1).rsplit("/", 1)[0]
    name = "boardct_t_" + secrets.token_hex(6)
    with psycopg.connect(admin + "/postgres", autocommit=True, connect_timeout=10) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield base.rsplit("/", 1)[0] + "/" + name
    with contextlib.suppress(psycopg.Error), psycopg.connect(
            admin + "/postgres", autocommit=True, connect_timeout=10) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    config = ServerConfig(db_url=db_url, agent_workers=0, argon2_time_cost=1,
                          argon2_memory_kib=1024)
    with TestClient(create_app(config)) as c:
        yield c


def admin(db_url: str, *args: str, input: str | None = None) -> tuple[int, str]:
    return run("admin", "--db", db_url, *args, input=input)


def sign_in(c: TestClient, username: str, password: str = PASSWORD):
    r = c.post(f"{API}/account/signin", json={"username": username, "password": password})
    c.cookies.clear()
    return r


def sign_up(c: TestClient, username: str) -> str:
    r = c.post(f"{API}/account/signup", json={"username": username, "password": PASSWORD})
    assert r.status_code == 201, r.text
    c.cookies.clear()
    return r.cookies[COOKIE]


def me(c: TestClient, headers: dict):
    r = c.get(f"{API}/account", headers=headers)
    c.cookies.clear()
    return r


def test_help_lists_the_commands():
    code, out = run("admin", "--help")
    assert code == 0
    for name in ("create-admin", "list", "disable", "enable", "purge-guest-games"):
        assert name in out
    code, out = run("--help")
    assert "admin" in out


def test_an_administrator_made_on_the_command_line_signs_in(client, db_url):
    code, out = admin(db_url, "create-admin", "root", "--password-stdin",
                      input=PASSWORD + "\n")
    assert code == 0 and "made the administrator root" in out
    assert sign_in(client, "root").status_code == 200
    sign_up(client, "ann")
    code, out = admin(db_url, "create-admin", "ANN")  # an existing account: no password
    assert code == 0 and "ann is an administrator now" in out
    code, out = admin(db_url, "list")
    lines = {line.split()[1]: line.split()[2] for line in out.splitlines()[1:]}
    assert lines == {"root": "admin", "ann": "admin"}
    assert sign_in(client, "ann").status_code == 200  # the password unchanged


def test_the_password_is_asked_twice_when_not_given(client, db_url):
    code, out = admin(db_url, "create-admin", "root",
                      input=f"{PASSWORD}\n{PASSWORD}\n")
    assert code == 0, out
    assert sign_in(client, "root").status_code == 200


def test_a_disabled_account_is_refused_everywhere_until_enabled(client, db_url):
    cookie = sign_up(client, "ann")
    r = client.post(f"{API}/account/tokens", json={"name": "bot"},
                    headers={"Cookie": f"{COOKIE}={cookie}"})
    client.cookies.clear()
    token = r.json()["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    assert me(client, bearer).json()["account"]["username"] == "ann"
    code, out = admin(db_url, "disable", "ann")
    assert code == 0 and "disabled ann: 1 session(s) ended, 1 API token(s) revoked" in out
    # the running server refuses at once: the session is gone, the token revoked
    assert me(client, {"Cookie": f"{COOKIE}={cookie}"}).json() == {"account": None}
    assert me(client, bearer).status_code == 401
    r = sign_in(client, "ann")
    assert r.status_code == 403 and "disabled" in r.json()["error"]["message"]
    assert COOKIE not in r.cookies
    assert sign_in(client, "ann", "wrong password!").status_code == 401  # no hint without it
    assert "disabled" in admin(db_url, "list")[1]
    code, out = admin(db_url, "enable", "ann")
    assert code == 0 and "enabled ann" in out
    assert sign_in(client, "ann").status_code == 200
    assert me(client, bearer).status_code == 401  # its old token stays revoked


def _age(db_url: str, gid: str, days: float) -> None:
    """Make a game and its log `days` old."""
    when = dt.datetime.now(dt.UTC) - dt.timedelta(days=days)
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE games SET created = :t WHERE id = :g"), {"t": when, "g": gid})
        conn.execute(text("UPDATE actions SET at = :t WHERE game = :g"), {"t": when, "g": gid})
    engine.dispose()


def _games(db_url: str) -> set[str]:
    engine = create_engine(db_url)
    with engine.connect() as conn:
        found = set(conn.execute(text("SELECT id FROM games")).scalars())
    engine.dispose()
    return found


def test_purging_removes_only_abandoned_guest_games(client, db_url):
    def create(headers: dict | None = None, **body) -> dict:
        r = client.post(f"{API}/games", json={"game": "fieldshift"} | body,
                        headers=headers or {})
        assert r.status_code == 201, r.text
        client.cookies.clear()
        return r.json()

    old = create()  # a guest game, one move, a chat line, an offer, idle for 40 days
    tok = old["seats"][0]["token"]
    h = {"Authorization": f"Bearer {tok}"}
    st = client.get(f"{API}/games/{old['game_id']}", headers=h).json()
    r = client.post(f"{API}/games/{old['game_id']}/moves", json={"text": st["legal"][0]["text"]},
                    headers=h)
    assert r.status_code == 200, r.text
    r = client.post(f"{API}/games/{old['game_id']}/chat", json={"text": "anyone?"}, headers=h)
    assert r.status_code == 200, r.text
    r = client.post(f"{API}/games/{old['game_id']}/offers", json={"kind": "undo"}, headers=h)
    assert r.status_code == 200, r.text
    _age(db_url, old["game_id"], 40)
    fresh = create()  # a guest game played yesterday
    _age(db_url, fresh["game_id"], 1)
    over = create()  # a finished guest game
    r = client.post(f"{API}/games/{over['game_id']}/resign", json={},
                    headers={"Authorization": f"Bearer {over['seats'][0]['token']}"})
    assert r.status_code == 200, r.text
    _age(db_url, over["game_id"], 40)
    ann = sign_up(client, "ann")
    owned = create({"Cookie": f"{COOKIE}={ann}"})  # an account holds a seat
    _age(db_url, owned["game_id"], 40)
    everything = _games(db_url)

    code, out = admin(db_url, "purge-guest-games", "--days", "30", "--dry-run")
    assert code == 0 and old["game_id"] in out and "would delete 1" in out
    assert _games(db_url) == everything  # a dry run changes nothing
    code, out = admin(db_url, "purge-guest-games", "--days", "30")
    assert code == 0 and "deleted 1 abandoned" in out
    assert _games(db_url) == everything - {old["game_id"]}
    engine = create_engine(db_url)
    with engine.connect() as conn:
        for table in ("seats", "actions", "chat", "offers"):
            left = conn.execute(text(f"SELECT count(*) FROM {table} WHERE game = :g"),
                                {"g": old["game_id"]}).scalar_one()
            assert left == 0, table
    engine.dispose()
    code, out = admin(db_url, "purge-guest-games", "--days", "0.5")  # yesterday's goes too
    assert "deleted 1" in out and _games(db_url) == {over["game_id"], owned["game_id"]}


@pytest.mark.parametrize("args,message", [
    (("disable", "nobody"), "there is no account nobody"),
    (("enable", "nobody"), "there is no account nobody"),
    (("create-admin", "x"), "username"),
    (("purge-guest-games", "--days", "-1"), "-1"),
])
def test_bad_input_is_one_line_and_changes_nothing(db_url, args, message):
    code, out = admin(db_url, *args, input="")
    assert code == 2 and message in out, out
    assert "Traceback" not in out


def test_a_short_password_makes_no_administrator(db_url):
    code, out = admin(db_url, "create-admin", "root", "--password-stdin", input="short\n")
    assert code == 2 and "password" in out
    assert admin(db_url, "list")[1].strip() == "no accounts"


def test_a_bad_database_url_is_one_line():
    code, out = run("admin", "--db", "nonsense://", "list")
    assert code == 2 and out.startswith("error:")
