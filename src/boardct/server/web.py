"""The browser pages of `boardct serve`: the lobby `/`, the game page `/play/{game_id}`, the
replay page `/replay/{game_id}` and the static files under `/static/` (issue 19).

The pages are plain HTML, CSS and ES modules shipped as package data: no build step, nothing
loaded from another host. They know games only through the JSON API (protocol.md), so this
module holds no game-specific code and no game data: a page served here is the same for every
visitor, and all that differs per seat arrives later over the API with the seat's token.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

STATIC_DIR = Path(__file__).resolve().parent / "static"

# ES modules must be served as JavaScript; some Windows registries map .js to text/plain.
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("image/svg+xml", ".svg")
mimetypes.add_type("text/css", ".css")

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


def _page(name: str) -> Response:
    return FileResponse(STATIC_DIR / name, media_type="text/html", headers=PAGE_HEADERS)


class _StaticHeaders:
    """Adds the no-sniff and no-referrer headers to the static files (a thin ASGI wrapper)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(b"x-content-type-options", b"nosniff"),
                            (b"referrer-policy", b"no-referrer"),
                            (b"cache-control", b"no-cache")]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def add_web_pages(app: FastAPI) -> None:
    """Serve the pages on `app`. The game id in a page's path is not looked up here: the page
    asks the API, which answers not_found for an unknown game."""
    app.mount("/static", _StaticHeaders(StaticFiles(directory=STATIC_DIR)), name="static")

    @app.get("/", include_in_schema=False)
    def lobby_page() -> Response:
        return _page("index.html")

    @app.get("/play/{game_id}", include_in_schema=False)
    def play_page(game_id: str) -> Response:
        return _page("play.html")

    @app.get("/replay/{game_id}", include_in_schema=False)
    def replay_page(game_id: str) -> Response:
        return _page("replay.html")
