"""Alembic's environment: runs the migrations on the engine `db.migrate` hands over (or on
the URL in the configuration, for the `alembic` command)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

config = context.config
engine = config.attributes.get("engine")
if engine is None:  # the alembic command line: build one from the URL
    engine = create_engine(config.get_main_option("sqlalchemy.url"))

with engine.begin() as connection:
    context.configure(connection=connection, target_metadata=None,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()
