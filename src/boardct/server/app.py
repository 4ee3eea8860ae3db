"""The ASGI app: `create_app(config, extra_routers=...)`.

At start-up the database is migrated to head and the service, the websocket hub and the agent
runner are made and kept on `app.state` (`service`, `hub`, `agents`, `config`, `engine`).
Other modules add their routes with `extra_routers` (FastAPI routers) and their start-up work
with `on_startup` (async callables taking the app, run after the service exists). Every error
is JSON: `{"error": {"code", "message", "rule"}}`, never an HTML page or a 500 for input.

The games' own server modules (`Game.frontends.server`) are loaded when the app is built:
each gets its `ServerExtension` (server/ext.py) in `install(ext)`, and its routes are
included under the game's tag. One that fails to import or install is logged with its game
and left out; the server serves every game all the same (that game without its own routes).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import importlib.util
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from boardct.core import registry
from boardct.server.config import ServerConfig
from boardct.server.ext import ServerExtension
from boardct.server.quotas import QuotaExceeded, Quotas
from boardct.server.service import ServiceError

log = logging.getLogger("boardct.server")

HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
              405: "bad_request", 409: "conflict", 413: "too_large", 422: "bad_request",
              429: "too_many_requests"}
SWEEP_EVERY = 60.0  # seconds between two looks for idle games to drop from memory


def error(status: int, code: str, message: str, rule: str | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, "rule": rule}},
                        status_code=status)


class BodyLimit:
    """ASGI middleware: a request whose declared length is over the bound is answered 413
    before anything reads it (the routes also stop reading at the bound)."""

    def __init__(self, app, limit: int):
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            for key, value in scope.get("headers", ()):
                if key == b"content-length":
                    if not value.isdigit() or int(value) > self.limit:
                        resp = error(413, "too_large",
                                     f"a request body is at most {self.limit:,} bytes")
                        await resp(scope, receive, send)
                        return
        await self.app(scope, receive, send)


def game_servers() -> dict[str, ServerExtension]:
    """The server module of every registered game, installed: game id -> its extension.
    A module that fails to import or to install is logged with the game and the error and
    left out (its routes half added are not served); the other games are not affected."""
    out: dict[str, ServerExtension] = {}
    for game in registry.all_games():
        name = game.frontends.server
        if not name:
            continue
        ext = ServerExtension(game)
        try:
            module = importlib.import_module(name)
            module.install(ext)
        except Exception as exc:  # a game's module may fail in any way: say how, go on
            log.error("game %s: its server module %s failed to load, so its own routes and "
                      "state parts are not served: %s: %s", game.id, name,
                      type(exc).__name__, exc, exc_info=exc)
            continue
        out[game.id] = ext
    return out


def create_app(config: ServerConfig | None = None, extra_routers: Iterable = (),
               on_startup: Iterable[Callable[[FastAPI], Awaitable[None]]] = ()) -> FastAPI:
    """The server app for `config` (default: `ServerConfig()`, the database from
    BOARDCT_DB or ./boardct.db)."""
    from boardct.server import (
        account_api,
        api,
        collector,
        hints,
        moderation,
        presence,
        ratings,
        recent,
        timings,
        ws,
    )
    from boardct.server import extras as server_extras
    from boardct.server.accounts import Accounts
    from boardct.server.agents import AgentRunner
    from boardct.server.auth import CrossOriginGuard
    from boardct.server.db import make_engine, migrate
    from boardct.server.hub import Hub
    from boardct.server.notices import notice_settings
    from boardct.server.notices import router as notices_router
    from boardct.server.notices import start as start_notices
    from boardct.server.quotas import QuotaExceeded, Quotas
    from boardct.server.service import GameService

    config = config or ServerConfig()
    startups = list(on_startup)
    games = game_servers()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        engine = make_engine(config.db_url, config.sqlite_sync)
        if config.migrate:
            migrate(engine)
        hub = Hub()
        agents = AgentRunner(config.agent_workers)
        service = GameService(engine, agents=agents, hub=hub)
        service.max_cached = config.max_games_in_memory
        service.game_idle = config.game_idle
        app.state.engine, app.state.hub, app.state.agents = engine, hub, agents
        quotas: Quotas = app.state.quotas

        async def _open_games(game_id: str, _version: int) -> None:
            live = service.cached(game_id)
            if live is not None:
                quotas.open_games.changed(game_id, live.over)

        service.listeners.append(_open_games)
        app.state.service = service
        app.state.accounts = Accounts(service, config)  # sign-in, sessions, API tokens
        service.state_extras.append(recent.last_move_extra)  # the pages' last-move marks
        service.state_extras.append(presence.presence_extra)  # online, last seen
        ratings.install(service)  # rated games: the end moves the ratings, once
        for ext in games.values():
            ext.bind(service)
        for start in startups:
            await start(app)
        await service.resume_agents()
        # srvx: deadlines, worker fan-out (LISTEN/NOTIFY), offers, chat (server/extras.py)
        extras = await server_extras.start(app, service, config.db_url)
        notices = await start_notices(app, service, notice_settings(config))  # notifications
        # the collector's and the GIL's pace in the process `boardct serve` runs
        # (server/collector.py); an app made in another program leaves them alone
        pacing = (collector.Collector(short_switch=engine.dialect.name == "sqlite")
                  if config.freeze_gc else None)
        if pacing is not None:
            pacing.start()
        sweeper = asyncio.get_running_loop().create_task(_sweep(service))
        measuring = timings.start(service)  # BOARDCT_TIMINGS: where the latency goes
        try:
            yield
        finally:
            sweeper.cancel()
            if measuring is not None:
                await measuring.stop()
            if pacing is not None:
                await pacing.stop()
            await notices.stop()
            await extras.stop()  # srvx
            agents.close()
            service.close()
            engine.dispose()

    app = FastAPI(title="boardct server", version="1", lifespan=lifespan,
                  description="Remote play of the boardct games: see docs/server.md.",
                  openapi_tags=[{"name": ext.game.id,
                                 "description": f"{ext.game.title}: the game's own routes"}
                                for ext in games.values()])
    app.state.config = config
    app.state.quotas = Quotas(config)
    app.state.game_servers = games
    app.include_router(api.router)
    app.include_router(ws.router)
    app.include_router(account_api.router)
    app.include_router(presence.router)  # who is at the table
    app.include_router(server_extras.router)  # srvx: chat, offers
    app.include_router(ratings.router)  # leaderboards, players' profiles
    app.include_router(notices_router)  # notifications: preferences, contacts, unsubscribe
    app.include_router(moderation.router)  # a game's moderator
    app.include_router(hints.router)  # the computer's suggestion, with its win chance
    for ext in games.values():
        app.include_router(ext.router)
    for router in extra_routers:
        app.include_router(router)
    if config.web_pages and importlib.util.find_spec("boardct.server.web") is not None:
        from boardct.server.web import add_web_pages  # the browser pages

        add_web_pages(app)

    @app.exception_handler(ServiceError)
    async def _service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        return error(exc.status, exc.code, exc.message, exc.rule)

    @app.exception_handler(QuotaExceeded)
    async def _quota(_request: Request, exc: QuotaExceeded) -> JSONResponse:
        return JSONResponse(exc.to_json(), status_code=429,
                            headers={"Retry-After": str(exc.retry_after)})

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = HTTP_CODES.get(exc.status_code, "bad_request")
        message = exc.detail if isinstance(exc.detail, str) else code.replace("_", " ")
        return error(exc.status_code, code, message)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(x) for x in first.get("loc", ()))
        return error(400, "bad_request", f"{where}: {first.get('msg', 'invalid')}")

    @app.exception_handler(Exception)
    async def _internal(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error")
        return error(500, "internal", "the server failed; the game is unchanged")

    app.add_middleware(BodyLimit, limit=config.max_body)
    # no write from another site's page, whatever credential it carries (server/auth.py)
    app.add_middleware(CrossOriginGuard, trusted=tuple(config.trusted_origins))
    if config.trusted_proxies:
        # outermost: the client address every route and quota sees is the one the trusted
        # proxy gave (X-Forwarded-For), and the scheme (X-Forwarded-Proto) too
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(config.trusted_proxies))
    return app


async def _sweep(service: Any) -> None:
    """Now and then, drop the games nobody has used for a while from memory (they come back
    from the database when asked for): memory stays bounded by what is in use."""
    while True:
        await asyncio.sleep(SWEEP_EVERY)
        try:
            service.drop_idle()
        except Exception:  # the sweep never stops the server
            log.exception("dropping idle games")


ENV_AGENT_WORKERS = "BOARDCT_AGENT_WORKERS"


def app_from_env() -> FastAPI:
    """The app of one of several server processes (`boardct serve --workers N`, which uvicorn
    starts by this import path): its settings come from the environment (BOARDCT_DB,
    BOARDCT_AGENT_WORKERS) that `boardct serve` sets before starting them."""
    import os

    config = ServerConfig(freeze_gc=True)
    agents = os.environ.get(ENV_AGENT_WORKERS, "")
    if agents.isdigit():
        config.agent_workers = int(agents)
    return create_app(config)
