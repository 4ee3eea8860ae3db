"""The database engine and the migrations run at start-up.

SQLite (the default) is set to WAL mode with a busy timeout on every new connection, through
an event listener, so a reader never blocks the writer and a writer waits for a lock rather
than failing at once. PostgreSQL is used through psycopg 3 (`postgresql+psycopg://`).
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, create_engine, event

BUSY_TIMEOUT_MS = 5000
# WAL pages between two checkpoints, which SQLite runs inside the commit that passes the mark
# (copying the pages into the database file and flushing it to disk: 10-100 ms on a busy
# disk, every move waiting for the database thread waits for it). The same hot pages (the
# games' rows, the log's last pages) are written again and again, so a checkpoint ten times
# rarer copies and flushes not much more; the WAL file stays below ~40 MB. SQLite's is 1,000.
WAL_AUTOCHECKPOINT = 10_000
POOL_SIZE = 16  # PostgreSQL connections kept open by one server process
MIGRATIONS = Path(__file__).resolve().parent / "migrations"


SYNC_MODES = ("NORMAL", "FULL")


def make_engine(url: str, sqlite_sync: str = "NORMAL") -> Engine:
    """An engine for `url`; SQLite connections get WAL, a busy timeout and foreign keys.

    `sqlite_sync`: NORMAL (the default) makes a commit survive a crash or kill of the server
    process (WAL is written before the commit returns), FULL also a crash of the machine or a
    power cut, at the cost of a disk flush per move (about 7 ms on the test machine, against
    0.01 ms)."""
    if sqlite_sync not in SYNC_MODES:
        raise ValueError(f"sqlite synchronous mode {sqlite_sync!r}: one of {SYNC_MODES}")
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False,
                                                  "timeout": BUSY_TIMEOUT_MS / 1000})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record) -> None:  # every new connection
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            cur.execute(f"PRAGMA synchronous={sqlite_sync}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute(f"PRAGMA wal_autocheckpoint={WAL_AUTOCHECKPOINT}")
            cur.close()

        return engine
    # a connection for each of the service's database threads (service.DB_THREADS), a few
    # more for the deadlines' and the notifier's own calls
    return create_engine(url, pool_pre_ping=True, pool_size=POOL_SIZE, max_overflow=8)


def alembic_config(engine: Engine):
    """An Alembic configuration pointing at the packaged migrations and `engine`."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    cfg.attributes["engine"] = engine
    return cfg


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the database to `revision` (a server upgrade never loses games: every schema
    change is a migration)."""
    from alembic import command

    command.upgrade(alembic_config(engine), revision)
