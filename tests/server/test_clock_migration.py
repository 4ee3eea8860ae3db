"""Migration 0005_clocks from the schema before it, on SQLite and PostgreSQL: a running game
with a deadline made before the migration keeps its deadline, gets the default reminders, is
played on and has no moderator (nobody created it with one); the downgrade takes the new
tables away again."""

from __future__ import annotations

import datetime as dt
import json

from clock_helpers import app_on, deadline
from sqlalchemy import create_engine, inspect, text

from boardct.core import registry
from boardct.server.db import migrate
from boardct.server.live import token_hash

NEW_TABLES = {"game_clocks", "deadline_reminders", "seat_misses"}


def test_a_game_with_a_deadline_from_before_the_migration_plays_on(db_url):
    engine = create_engine(db_url)
    migrate(engine, "0003_accounts")
    assert not NEW_TABLES & set(inspect(engine).get_table_names())
    options = json.dumps(registry.get("fieldshift").resolve_options({}))
    due = (dt.datetime.now(dt.UTC) + dt.timedelta(hours=5)).replace(microsecond=0)
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO games (id, game, options, seed, names, public, status, version, "
            "created, deadline_at, move_time, on_timeout) VALUES ('old1', 'fieldshift', "
            ":options, '7', '[\"A\", \"B\"]', false, 'playing', 0, CURRENT_TIMESTAMP, :due, "
            "86400, 'loss')"), {"options": options, "due": due})
        for seat in (0, 1):
            conn.execute(text(
                "INSERT INTO seats (game, seat, kind, name, token_hash, claimed) VALUES "
                f"('old1', {seat}, 'human', '', '{token_hash(f'tok{seat}')}', true)"))
    engine.dispose()
    with app_on(db_url) as api:  # migrates to head at start-up
        state = api.state("old1", "tok0")
        assert deadline(state) == due and state["reminders"] == [24.0, 1.0]
        assert state["paused"] is False and state["moderator"] is False
        assert api.get("/games/old1/moderator", "tok0").status_code == 403
        mover = state["to_move"][0]
        legal = api.get("/games/old1/legal", f"tok{mover}").json()["actions"]
        r = api.move("old1", f"tok{mover}", legal[0]["text"])
        assert r.status_code == 200, r.text
        api.settle()
        assert deadline(api.state("old1")) > due  # the next move's: a day ahead
    engine = create_engine(db_url)
    try:
        assert set(inspect(engine).get_table_names()) >= NEW_TABLES
        migrate_down(engine)
        assert not NEW_TABLES & set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def migrate_down(engine) -> None:
    """Alembic's downgrade to the schema before the clocks."""
    from alembic import command

    from boardct.server.db import alembic_config

    command.downgrade(alembic_config(engine), "0003_accounts")
