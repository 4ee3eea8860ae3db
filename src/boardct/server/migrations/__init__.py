"""Alembic migrations of the server database, run to head at start-up (db.migrate)."""
