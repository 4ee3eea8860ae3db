"""Server settings: where the database is, where to listen, how many processes."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

DEFAULT_DB = "sqlite:///boardct.db"  # ./boardct.db, relative to the working folder
ENV_DB = "BOARDCT_DB"
ENV_SQLITE_SYNC = "BOARDCT_SQLITE_SYNC"  # NORMAL (default) or FULL: see db.make_engine
MAX_BODY = 64 * 1024  # bytes of one request body or websocket frame


@dataclass
class ServerConfig:
    """What `create_app` needs. `db_url` is a SQLAlchemy URL: `sqlite:///path.db` or
    `postgresql+psycopg://user:pass@host/db`. `agent_workers` is the size of the process
    pool that plays agent seats (0: play them in a thread of this process, for tests on
    machines where a process pool cannot start)."""

    db_url: str = field(default_factory=lambda: os.environ.get(ENV_DB) or DEFAULT_DB)
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    agent_workers: int = 1
    max_body: int = MAX_BODY
    migrate: bool = True  # run the migrations to head at start-up
    sqlite_sync: str = field(
        default_factory=lambda: (os.environ.get(ENV_SQLITE_SYNC) or "NORMAL").upper())
    web_pages: bool = True  # serve the browser pages (boardct.server.web) where installed
    # After start-up, move everything alive (modules, classes, the loaded games: most of the
    # heap, and all of it lives as long as the server) out of the garbage collector's reach
    # (gc.freeze), so a full collection scans only what came later: 10-30 ms instead of
    # 60-100 ms, a pause every move in flight waits for. For the process `boardct serve`
    # runs; off for apps made in a test process, whose objects are not the server's.
    freeze_gc: bool = False
    # Rate limits (server/quotas.py): rule name -> a `limits` string such as "10 per minute";
    # the rules left out keep their defaults (quotas.DEFAULT_QUOTAS)
    quotas: dict[str, str] = field(default_factory=dict)
    # Accounts (server/accounts.py, docs/server.md): how long a browser session lasts, whether
    # its cookie is Secure (None: when the request came over HTTPS, as the scheme uvicorn sees
    # it, from the proxy's X-Forwarded-Proto when it trusts the proxy), the other origins
    # (scheme://host[:port]) a cookie-authenticated write may come from besides the server's
    # own, and the Argon2 cost of a password hash (the defaults are pwdlib's recommended ones;
    # tests lower them).
    session_days: int = 30
    secure_cookies: bool | None = None
    trusted_origins: tuple[str, ...] = ()
    argon2_time_cost: int = 3
    argon2_memory_kib: int = 65536
