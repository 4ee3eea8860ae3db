"""The browser pages of `boardct serve`: the lobby `/`, the game page `/play/{game_id}`, the
replay page `/replay/{game_id}`, the account page `/account` (sign in, my games, API tokens),
the leaderboards `/leaderboard/{game}` and the players' profiles `/players/{username}`,
the static files under `/static/`, and each game's own page files under
`/static/games/<game id>/`.

The pages are plain HTML, CSS and ES modules shipped as package data: no build step, nothing
loaded from another host. They know games only through the JSON API (protocol.md) and through
the renderer each game ships in its own package (`Game.frontends.web`, a folder holding
`renderer.js`), so this module holds no game-specific code and no game data: a page served
here is the same for every visitor, and all that differs per seat arrives later over the API
with the seat's token.
"""

from __future__ import annotations

import functools
import hashlib
import mimetypes
import re
from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from boardct.core import registry
from boardct.core.errors import BoardctError

STATIC_DIR = Path(__file__).resolve().parent / "static"

# ES modules must be served as JavaScript; some Windows registries map .js to text/plain.
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("image/svg+xml", ".svg")
mimetypes.add_type("text/css", ".css")
mimetypes.add_type("application/manifest+json", ".webmanifest")  # the web app manifest

# Everything from this host only; the websocket goes back to the same host. No inline script.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self' ws: wss:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
PAGE_HEADERS = {
    "Content-Security-Policy": CSP,
    # An invite code is in the address of the first visit: never send it to another site.
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}
# The static files' own headers (the pages' less the policy, which applies to documents).
STATIC_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
                  "Cache-Control": "no-cache"}

# What a game's web folder may serve, by suffix, with its content type: the renderer and what
# it imports or draws. Anything else in the package (its Python modules, its data) is never
# served, even from inside that folder.
GAME_FILE_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml",
                   ".png": "image/png", ".json": "application/json"}
# One name of a path inside the folder: no separators, no "..", no hidden files.
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}")


def _page(name: str) -> Response:
    return FileResponse(STATIC_DIR / name, media_type="text/html", headers=PAGE_HEADERS)


class _StaticHeaders:
    """Adds the no-sniff and no-referrer headers to the static files (a thin ASGI wrapper)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(b"x-content-type-options", b"nosniff"),
                            (b"referrer-policy", b"no-referrer"),
                            (b"cache-control", b"no-cache")]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


@functools.lru_cache(maxsize=256)
def game_file(game_id: str, path: str) -> tuple[bytes, str, str] | None:
    """The file `path` of the web folder that game `game_id` ships in its package, as
    (content, content type, ETag); None when there is no such game, the game has no web
    folder, or the path is not a file of a served type inside that folder. The path is
    checked name by name before anything is opened, so nothing outside the folder is
    reachable. Cached: a package's files do not change while the server runs."""
    names = path.split("/")
    if len(names) > 8 or not all(_NAME.fullmatch(n) for n in names):
        return None
    ctype = GAME_FILE_TYPES.get(Path(names[-1]).suffix.lower())
    if ctype is None:
        return None
    try:
        game = registry.get(game_id)
    except BoardctError:
        return None
    folder = game.frontends.web
    if not folder:
        return None
    try:
        node = resources.files(game.package).joinpath(*folder.split("/"), *names)
        if not node.is_file():
            return None
        content = node.read_bytes()
    except (OSError, ModuleNotFoundError, ValueError):
        return None
    etag = '"' + hashlib.sha256(content).hexdigest()[:32] + '"'
    return content, ctype, etag


def add_web_pages(app: FastAPI) -> None:
    """Serve the pages on `app`. The game id in a page's path is not looked up here: the page
    asks the API, which answers not_found for an unknown game."""

    # Before the /static mount, which would otherwise answer these paths (with a 404).
    @app.api_route("/static/games/{game_id}/{path:path}", methods=["GET", "HEAD"],
                   include_in_schema=False)
    def game_static(game_id: str, path: str, request: Request) -> Response:
        found = game_file(game_id, path)
        if found is None:
            return Response("Not Found", status_code=404, media_type="text/plain",
                            headers=STATIC_HEADERS)
        content, ctype, etag = found
        headers = {**STATIC_HEADERS, "ETag": etag}
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(content, media_type=ctype, headers=headers)

    app.mount("/static", _StaticHeaders(StaticFiles(directory=STATIC_DIR)), name="static")

    @app.get("/", include_in_schema=False)
    def lobby_page() -> Response:
        return _page("index.html")

    @app.get("/account", include_in_schema=False)
    def account_page() -> Response:
        return _page("account.html")

    @app.get("/play/{game_id}", include_in_schema=False)
    def play_page(game_id: str) -> Response:
        return _page("play.html")

    @app.get("/replay/{game_id}", include_in_schema=False)
    def replay_page(game_id: str) -> Response:
        return _page("replay.html")

    @app.get("/leaderboard", include_in_schema=False)
    @app.get("/leaderboard/{game}", include_in_schema=False)
    def leaderboard_page(game: str = "") -> Response:
        return _page("leaderboard.html")

    @app.get("/players/{username}", include_in_schema=False)
    def player_page(username: str) -> Response:
        return _page("player.html")
