"""`boardct serve`: the game server (docs/server.md). Needs the `server` extra."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from boardct.core.errors import BoardctError

LEGACY_DB = Path("boardct.db")  # where the server kept its games before the data folder
WS_PING_INTERVAL, WS_PING_TIMEOUT = 60.0, 30.0  # seconds: websocket protocol pings (below)


def default_database() -> str:
    """The database when neither --db nor $BOARDCT_DB names one: `boardct.db` in the current
    folder where an earlier server left one there (its games stay), else `boardct.db` in
    boardct's data folder (platformdirs), so that a server started anywhere finds its games
    and leaves nothing in the folder it was started from."""
    from boardct.cli.history import data_dir

    folder = data_dir()
    if LEGACY_DB.is_file() or folder is None:
        return f"sqlite:///{LEGACY_DB}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BoardctError(f"cannot make the data folder {folder} for the database: "
                           f"{exc.strerror or exc} (give --db)") from None
    return f"sqlite:///{(folder / 'boardct.db').as_posix()}"


def sqlite_file(db_url: str) -> Path | None:
    """The file of a SQLite URL (None: another database, or SQLite in memory)."""
    try:
        from sqlalchemy.engine import make_url

        url = make_url(db_url)
    except Exception:
        return None
    if not url.drivername.startswith("sqlite") or not url.database or \
            url.database == ":memory:":
        return None
    return Path(url.database).resolve()


def check_workers(db_url: str, workers: int) -> int:
    """How many server processes to run: SQLite runs one process (its single writer would
    make several processes wait on each other), so asking for more says so and runs one."""
    if workers < 1:
        raise BoardctError("--workers is at least 1")
    if workers > 1 and db_url.startswith("sqlite"):
        click.echo(f"note: with SQLite the server runs one process, not {workers}; use "
                   "--db postgresql+psycopg://... for several workers", err=True)
        return 1
    return workers


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on.")
@click.option("--db", "db_url", default=None, metavar="URL",
              help="Database URL: sqlite:///FILE or postgresql+psycopg://user:password@host/"
                   "dbname. Default: $BOARDCT_DB, else boardct.db in boardct's data folder "
                   "(./boardct.db where one is already there); the server says which.")
@click.option("--workers", default=1, show_default=True, type=int,
              help="Server processes (several only with PostgreSQL).")
@click.option("--agent-workers", default=1, show_default=True, type=click.IntRange(0, 64),
              help="Processes that play the computer's seats.")
@click.option("--quota", "quotas", multiple=True, metavar="RULE=LIMITS",
              help="Change a quota, e.g. create=5/minute or move=none (docs/server.md; "
                   "repeatable).")
@click.option("--max-open-games", type=click.IntRange(0), default=None,
              help="Unfinished games one client may have made (0: no cap; default 20).")
@click.option("--max-sockets", type=click.IntRange(0), default=None,
              help="Websockets open at once from one client (0: no cap; default 32).")
@click.option("--idle-timeout", type=click.FloatRange(0), default=None,
              help="Seconds a silent websocket is kept (0: for ever; default 120).")
@click.option("--trusted-proxy", "trusted_proxies", multiple=True, metavar="ADDRESS",
              help="A reverse proxy whose X-Forwarded-For is believed (an address or a "
                   "network; repeatable). Without one the client is the connection's peer.")
@click.option("--max-games-in-memory", type=click.IntRange(1), default=None,
              help="Games held in memory at most (default 2000; the rest stay in the "
                   "database until asked for).")
@click.option("--smtp", "smtp_url", default=None, metavar="URL",
              help="Send notices by e-mail through this SMTP server: smtp://user:pass@host:port"
                   " (?starttls=1&from=address), or smtps://... (default: $BOARDCT_SMTP_URL; "
                   "none: no e-mail).")
def command(host: str, port: int, db_url: str | None, workers: int, agent_workers: int,
            quotas: tuple[str, ...], max_open_games: int | None, max_sockets: int | None,
            idle_timeout: float | None, trusted_proxies: tuple[str, ...],
            max_games_in_memory: int | None, smtp_url: str | None = None) -> None:
    """Serve games over HTTP and websockets: create games, invite players, play from
    browsers or scripts; agents play their seats. API: /docs."""
    try:
        import uvicorn

        from boardct.server.app import create_app
        from boardct.server.config import ENV_DB, MAX_BODY, ServerConfig
    except ImportError as exc:
        raise BoardctError(f"the server needs its extra: pip install \"boardct[server]\" "
                           f"({exc.name} is missing)") from None
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    config = ServerConfig(host=host, port=port, agent_workers=agent_workers, freeze_gc=True)
    if db_url:
        config.db_url = db_url
    elif not os.environ.get(ENV_DB):
        config.db_url = default_database()
    limits_env = limit_settings(config, quotas, max_open_games, max_sockets, idle_timeout,
                                trusted_proxies, max_games_in_memory)
    from boardct.server.config import ENV_SQLITE_SYNC
    from boardct.server.db import SYNC_MODES

    if config.sqlite_sync not in SYNC_MODES:
        raise BoardctError(f"{ENV_SQLITE_SYNC}: {config.sqlite_sync[:20]!r} is not one of "
                           f"{', '.join(SYNC_MODES)}")
    try:
        make_url(config.db_url)
    except ArgumentError:
        raise BoardctError(f"--db: {config.db_url[:80]!r} is not a database URL (e.g. "
                           "sqlite:///boardct.db or postgresql+psycopg://user@host/db)") from None
    config.workers = check_workers(config.db_url, workers)
    if smtp_url:
        from boardct.server.config import ENV_SMTP_URL
        from boardct.server.senders import SmtpSettings

        try:
            SmtpSettings.parse(smtp_url)
        except ValueError as exc:
            raise BoardctError(f"--smtp: {exc}") from None
        config.smtp_url = smtp_url
        os.environ[ENV_SMTP_URL] = smtp_url  # the processes of --workers N read it
    click.echo(f"boardct server on http://{host}:{port} (database {safe_url(config.db_url)})",
               err=True)
    where = sqlite_file(config.db_url)
    if where is not None:
        state = "using" if where.exists() else "creating"
        click.echo(f"note: {state} the SQLite database {where} (--db or ${ENV_DB} chooses "
                   "another)", err=True)
    # frames up to 4 x the bound reach the app, which answers them with a `too_large` error;
    # uvicorn closes the connection on anything larger
    ws_max = 4 * MAX_BODY
    # srvx: no per-message deflate: compressing every update cost about 15% of the server's
    # CPU in bench_server.py (zlib), the largest single item after the socket writes; the
    # messages are a few KB and a deployment's reverse proxy may compress instead
    ws_opts: dict[str, Any] = {"ws_max_size": ws_max, "ws_per_message_deflate": False,
                               # the app reads proxy headers, from the trusted proxies only
                               # (ServerConfig.trusted_proxies), not uvicorn (which would
                               # believe any local process)
                               "proxy_headers": False,
                               # the protocol's own pings, which close a dead connection: every
                               # 60 s rather than uvicorn's 20 (each is a frame, a timer and a
                               # task for every socket, and the sockets opened together ping
                               # together); the pages' `ping` and the idle timeout (120 s) are
                               # the heartbeat a silent client is closed by
                               "ws_ping_interval": WS_PING_INTERVAL,
                               "ws_ping_timeout": WS_PING_TIMEOUT}
    if config.workers > 1:
        # several processes: uvicorn imports the app in each; the settings travel in the
        # environment (PostgreSQL only, see check_workers)
        from boardct.server.app import ENV_AGENT_WORKERS

        os.environ[ENV_DB] = config.db_url
        os.environ[ENV_AGENT_WORKERS] = str(agent_workers)
        os.environ.update(limits_env)
        uvicorn.run("boardct.server.app:app_from_env", factory=True, host=host, port=port,
                    workers=config.workers, log_level="info", **ws_opts)
        return
    uvicorn.run(create_app(config), host=host, port=port, log_level="info", **ws_opts)


def limit_settings(config: Any, quotas: tuple[str, ...], max_open_games: int | None,
                   max_sockets: int | None, idle_timeout: float | None,
                   trusted_proxies: tuple[str, ...], max_games_in_memory: int | None
                   ) -> dict[str, str]:
    """Put the limits given on the command line into `config`; returns them as the
    environment variables the processes of `--workers N` read them from."""
    from boardct.server import config as cfg
    from boardct.server.quotas import parse_overrides, parse_rules

    env: dict[str, str] = {}
    if quotas:
        try:
            given = parse_overrides(" ".join(quotas))
            parse_rules(config.quotas | given)
        except ValueError as exc:
            raise BoardctError(f"--quota: {exc}") from None
        config.quotas = config.quotas | given
        env[cfg.ENV_QUOTAS] = " ".join(f"{k}={v}" for k, v in config.quotas.items())
    if max_open_games is not None:
        config.max_open_games = max_open_games
        env[cfg.ENV_MAX_OPEN_GAMES] = str(max_open_games)
    if max_sockets is not None:
        config.max_sockets = max_sockets
        env[cfg.ENV_MAX_SOCKETS] = str(max_sockets)
    if idle_timeout is not None:
        config.idle_timeout = idle_timeout
        env[cfg.ENV_IDLE_TIMEOUT] = repr(idle_timeout)
    if trusted_proxies:
        config.trusted_proxies = list(trusted_proxies)
        env[cfg.ENV_TRUSTED_PROXIES] = ",".join(trusted_proxies)
    if max_games_in_memory is not None:
        config.max_games_in_memory = max_games_in_memory
        env[cfg.ENV_MAX_GAMES_IN_MEMORY] = str(max_games_in_memory)
    return env


def safe_url(url: str) -> str:
    """The database URL without its password, for messages."""
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "(not a database URL)"
