"""The page routes and static files of `boardct serve`, without a browser: what each path
serves, the headers that keep an invite code and the pages on this host, and that nothing
is loaded from another host."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the page routes need the `server` extra (fastapi)")

from fastapi import FastAPI  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from boardct.server.web import STATIC_DIR, add_web_pages  # noqa: E402


@pytest.fixture
def client():
    app = FastAPI()
    add_web_pages(app)
    return TestClient(app)


@pytest.mark.parametrize("path,marker", [("/", "lobby.js"), ("/play/abc123", "play.js"),
                                         ("/replay/abc123", "replay.js")])
def test_pages_are_served_with_a_same_host_policy(client, path, marker):
    r = client.get(path)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert marker in r.text
    csp = r.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp
    # the first visit's address holds the invite code: it is never sent on as a referrer
    assert r.headers["referrer-policy"] == "no-referrer"


@pytest.mark.parametrize("name,ctype", [("app.js", "text/javascript"), ("style.css", "text/css"),
                                        ("games/hills.js", "text/javascript"),
                                        ("favicon.svg", "image/svg+xml")])
def test_static_files_have_their_types(client, name, ctype):
    r = client.get(f"/static/{name}")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith(ctype)
    assert r.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("path", ["/static/../web.py", "/static/%2e%2e/web.py",
                                  "/static/nothing.js"])
def test_nothing_outside_the_static_folder(client, path):
    assert client.get(path).status_code == 404


def test_every_game_has_a_renderer():
    from boardct.core.registry import all_games

    for game in all_games():
        assert (STATIC_DIR / "games" / f"{game.id}.js").is_file(), game.id


def test_nothing_is_loaded_from_another_host():
    loads = re.compile(r"""(src|href)\s*=\s*["']\s*(https?:)?//|from\s+["'](https?:)?//|"""
                       r"""import\(\s*["'](https?:)?//|url\(\s*["']?(https?:)?//""", re.I)
    for path in Path(STATIC_DIR).rglob("*"):
        if path.suffix in {".html", ".js", ".css"}:
            text = path.read_text(encoding="utf-8")
            assert not loads.search(text), f"{path.name} loads from another host"


def test_tokens_never_go_into_a_url():
    """The seat token travels in the Authorization header and the websocket hello only."""
    app_js = (STATIC_DIR / "app.js").read_text(encoding="utf-8")
    assert 'Authorization = "Bearer " + token' in app_js
    assert "token=" not in app_js
    for path in Path(STATIC_DIR).rglob("*.js"):
        assert "?token" not in path.read_text(encoding="utf-8"), path.name
