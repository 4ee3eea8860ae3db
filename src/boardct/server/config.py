"""Server settings: where the database is, where to listen, how many processes."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

DEFAULT_DB = "sqlite:///boardct.db"  # ./boardct.db, relative to the working folder
ENV_DB = "BOARDCT_DB"
ENV_SQLITE_SYNC = "BOARDCT_SQLITE_SYNC"  # NORMAL (default) or FULL: see db.make_engine
MAX_BODY = 64 * 1024  # bytes of one request body or websocket frame
# the limits (docs/server.md, "Quotas and limits"); each also from the environment, for the
# processes of `boardct serve --workers N`
ENV_QUOTAS = "BOARDCT_QUOTAS"  # "create=5/minute move=none": over quotas.RULES
ENV_QUOTA_STORAGE = "BOARDCT_QUOTA_STORAGE"  # memory:// (default) or redis://host:port
ENV_MAX_OPEN_GAMES = "BOARDCT_MAX_OPEN_GAMES"
ENV_MAX_SOCKETS = "BOARDCT_MAX_SOCKETS"
ENV_IDLE_TIMEOUT = "BOARDCT_IDLE_TIMEOUT"
ENV_TRUSTED_PROXIES = "BOARDCT_TRUSTED_PROXIES"  # addresses or networks, comma-separated
ENV_MAX_GAMES_IN_MEMORY = "BOARDCT_MAX_GAMES_IN_MEMORY"
ENV_SMTP_URL = "BOARDCT_SMTP_URL"  # notifications: see ServerConfig.smtp_url and the rest
ENV_PUBLIC_URL = "BOARDCT_PUBLIC_URL"
ENV_NOTICE_POLL = "BOARDCT_NOTICE_POLL"
ENV_NOTICE_BACKOFF = "BOARDCT_NOTICE_BACKOFF"
ENV_NOTICE_ATTEMPTS = "BOARDCT_NOTICE_ATTEMPTS"
ENV_NOTICE_LEASE = "BOARDCT_NOTICE_LEASE"
ENV_NOTICE_THROTTLE = "BOARDCT_NOTICE_THROTTLE"
ENV_NOTICE_SEND = "BOARDCT_NOTICE_SEND"
ENV_NOTICE_PRIVATE_URLS = "BOARDCT_NOTICE_PRIVATE_URLS"
MAX_OPEN_GAMES = 20  # unfinished games one guest (client address) may have made
MAX_SOCKETS = 32  # websockets open at once from one client address
IDLE_TIMEOUT = 120.0  # seconds a websocket may say nothing (the pages ping every 30 s)
MAX_GAMES_IN_MEMORY = 2000  # games held in memory; the idlest unwatched ones leave beyond it
GAME_IDLE = 600.0  # seconds after which an unwatched game leaves memory


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value.isdigit() else default


def _env_float(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, "").strip() or default)
    except ValueError:
        return default


def _env_quotas() -> dict[str, str]:
    from boardct.server.quotas import parse_overrides

    return parse_overrides(os.environ.get(ENV_QUOTAS, ""))


def _env_list(name: str) -> list[str]:
    return [x for x in os.environ.get(name, "").replace(",", " ").split() if x]


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
    # 60-100 ms, a pause every move in flight waits for; and pace the collector and the GIL's
    # hand-over (server/collector.py). For the process `boardct serve` runs; off for apps
    # made in a test process, whose objects are not the server's.
    freeze_gc: bool = False
    # quotas.RULES changed or switched off ("none"), by rule name: {"create": "5/minute"}
    quotas: dict[str, str] = field(default_factory=_env_quotas)
    quota_storage: str = field(
        default_factory=lambda: os.environ.get(ENV_QUOTA_STORAGE) or "memory://")
    max_open_games: int = field(
        default_factory=lambda: _env_int(ENV_MAX_OPEN_GAMES, MAX_OPEN_GAMES))  # 0: no cap
    max_sockets: int = field(
        default_factory=lambda: _env_int(ENV_MAX_SOCKETS, MAX_SOCKETS))  # 0: no cap
    idle_timeout: float = field(
        default_factory=lambda: _env_float(ENV_IDLE_TIMEOUT, IDLE_TIMEOUT))
    # the reverse proxies whose X-Forwarded-For / X-Forwarded-Proto are believed (addresses
    # or networks such as 10.0.0.0/8; "*": any); from anyone else they are ignored and the
    # client is the connection's peer
    trusted_proxies: list[str] = field(default_factory=lambda: _env_list(ENV_TRUSTED_PROXIES))
    max_games_in_memory: int = field(
        default_factory=lambda: _env_int(ENV_MAX_GAMES_IN_MEMORY, MAX_GAMES_IN_MEMORY))
    game_idle: float = GAME_IDLE
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
    # Notifications (server/notices.py, docs/server.md "Notifications"): the SMTP server of the
    # e-mails (smtp://user:pass@host:port?starttls=1&from=addr; None: no e-mail), the address
    # the links in notices start with, and the sender's pace: how often it looks for due
    # notices (seconds), the first retry's wait (doubled each time), the attempts before a
    # notice is marked failed, a sender's lease, the "your turn" throttle per game (minutes),
    # and whether this process sends at all
    smtp_url: str | None = field(default_factory=lambda: os.environ.get(ENV_SMTP_URL) or None)
    public_url: str = field(default_factory=lambda: os.environ.get(ENV_PUBLIC_URL, ""))
    notice_poll: float = field(default_factory=lambda: _env_float(ENV_NOTICE_POLL, 2.0))
    notice_backoff: float = field(default_factory=lambda: _env_float(ENV_NOTICE_BACKOFF, 30.0))
    notice_attempts: int = field(default_factory=lambda: _env_int(ENV_NOTICE_ATTEMPTS, 6))
    notice_lease: float = field(default_factory=lambda: _env_float(ENV_NOTICE_LEASE, 120.0))
    notice_throttle: int = field(default_factory=lambda: _env_int(ENV_NOTICE_THROTTLE, 30))
    notice_send: bool = field(
        default_factory=lambda: os.environ.get(ENV_NOTICE_SEND, "1").strip() not in ("0", ""))
    # notification URLs may name a host inside the server's own network (127.0.0.1, 10.x...):
    # off, as a player could otherwise make the server post to its neighbours
    notice_private_urls: bool = field(
        default_factory=lambda: os.environ.get(ENV_NOTICE_PRIVATE_URLS, "").strip() == "1")

