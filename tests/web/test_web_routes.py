"""The page routes and static files of `boardct serve`, without a browser: what each path
serves (each game's renderer from its own package), the headers that keep an invite code and
the pages on this host, and that nothing is loaded from another host."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the page routes need the `server` extra (fastapi)")

from fastapi import FastAPI  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from boardct.core.registry import all_games  # noqa: E402
from boardct.server.web import STATIC_DIR, add_web_pages  # noqa: E402


def web_folders() -> list[Path]:
    """Each game's web folder (its renderer and what it imports), as files on disk."""
    out = []
    for game in all_games():
        if game.frontends.web:
            out.append(Path(str(resources.files(game.package).joinpath(game.frontends.web))))
    return out


def page_files(suffixes: set[str]) -> list[Path]:
    """The server's own page files and every game's web files with these suffixes."""
    roots = [Path(STATIC_DIR), *web_folders()]
    return [p for root in roots for p in root.rglob("*") if p.suffix in suffixes]


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


def test_every_game_ships_a_renderer_in_its_package_and_it_is_served_from_there(client):
    """Each game's renderer is the file in its own package (`Game.frontends.web`), served at
    /static/games/<id>/renderer.js with the static files' headers; the server's own static
    folder holds no game's file."""
    games = all_games()
    assert games
    for game in games:
        assert game.frontends.web, f"{game.id} declares no web folder"
        shipped = resources.files(game.package).joinpath(game.frontends.web, "renderer.js")
        assert shipped.is_file(), game.id
        r = client.get(f"/static/games/{game.id}/renderer.js")
        assert r.status_code == 200, game.id
        assert r.content == shipped.read_bytes()
        assert r.headers["content-type"].startswith("text/javascript")
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["cache-control"] == "no-cache"
        # revalidated like the other static files: unchanged, it is not sent again
        again = client.get(f"/static/games/{game.id}/renderer.js",
                           headers={"If-None-Match": r.headers["etag"]})
        assert again.status_code == 304 and not again.content
    assert not (Path(STATIC_DIR) / "games").exists()


@pytest.mark.parametrize("path", [
    "/static/games/{id}/../state.py",  # normalised by the client: outside /static/games/{id}/
    "/static/games/{id}/%2e%2e/state.py",
    "/static/games/{id}/..%2fstate.py",
    "/static/games/{id}/..%5cstate.py",
    "/static/games/{id}/%2e%2e%2f%2e%2e%2fserver%2fstatic%2fapp.js",
    "/static/games/{id}/.hidden.js",
    "/static/games/{id}//renderer.js",
    "/static/games/{id}/state.py",  # inside the package, but not a served type
    "/static/games/{id}/web/renderer.js",  # the folder is the root: no second `web`
    "/static/games/{id}/nothing.js",
    "/static/games/no-such-game/renderer.js",
    "/static/games/%2e%2e/web.py",
])
def test_nothing_outside_a_games_web_folder(client, path):
    game = all_games()[0]
    r = client.get(path.format(id=game.id))
    assert r.status_code == 404, path


def test_nothing_is_loaded_from_another_host():
    loads = re.compile(r"""(src|href)\s*=\s*["']\s*(https?:)?//|from\s+["'](https?:)?//|"""
                       r"""import\(\s*["'](https?:)?//|url\(\s*["']?(https?:)?//""", re.I)
    files = page_files({".html", ".js", ".css"})
    assert len([p for p in files if p.name == "renderer.js"]) == len(all_games())
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert not loads.search(text), f"{path} loads from another host"


def test_renderers_import_the_shared_modules_by_their_absolute_path():
    """A renderer is served from /static/games/<id>/: it reaches the pages' helpers at
    /static/..., the same URLs the pages load, so both share one copy of each module."""
    for path in page_files({".js"}):
        if path.name != "renderer.js":
            continue
        imports = re.findall(r"""^import .* from ["']([^"']+)["'];""", path.read_text("utf-8"),
                             re.M)
        assert imports, path
        assert all(i.startswith("/static/") and i.endswith(".js") for i in imports), (path,
                                                                                       imports)


def test_tokens_never_go_into_a_url():
    """The seat token travels in the Authorization header and the websocket hello only."""
    app_js = (STATIC_DIR / "app.js").read_text(encoding="utf-8")
    assert 'Authorization = "Bearer " + token' in app_js
    assert "token=" not in app_js
    for path in page_files({".js"}):
        assert "?token" not in path.read_text(encoding="utf-8"), path.name
