"""Alembic's environment: runs the migrations on the engine `db.migrate` hands over (or on
the URL in the configuration, for the `alembic` command)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

config = context.config
engine = config.attributes.get("engine")
if engine is None:  # the alembic command line: build one from the URL
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("alembic: no database URL (sqlalchemy.url) in the configuration")
    engine = create_engine(url)

# srvx: several server processes (`--workers N`) start together and each migrates; on
# PostgreSQL they take turns (a transaction-scoped advisory lock), so the second finds the
# schema already at head instead of creating the same tables again
MIGRATION_LOCK = 0x626F617264637401  # "boardct" + 1: any fixed 64-bit number

with engine.begin() as connection:
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
    context.configure(connection=connection, target_metadata=None,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()
