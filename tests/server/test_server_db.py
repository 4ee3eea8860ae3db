"""Storage: SQLite settings on every connection, the migration, the tables' guards."""

from __future__ import annotations

import datetime as dt

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from boardct.server.db import make_engine, migrate
from boardct.server.models import ActionRow, GameRow


@pytest.mark.parametrize("sync", ["NORMAL", "FULL"])
def test_every_sqlite_connection_gets_wal_and_a_busy_timeout(tmp_path, sync):
    engine = make_engine(f"sqlite:///{tmp_path / 'x.db'}", sync)
    conns = [engine.connect() for _ in range(3)]  # several pooled connections, each set up
    try:
        for c in conns:
            assert c.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert c.exec_driver_sql("PRAGMA busy_timeout").scalar() == 5000
            assert c.exec_driver_sql("PRAGMA synchronous").scalar() == {"NORMAL": 1,
                                                                         "FULL": 2}[sync]
    finally:
        for c in conns:
            c.close()
        engine.dispose()
    with pytest.raises(ValueError):
        make_engine("sqlite://", "OFF")


def test_the_migration_creates_the_tables_once_and_keeps_data(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'x.db'}")
    migrate(engine)
    cols = {c["name"] for c in sa.inspect(engine).get_columns("games")}
    assert {"deadline_at", "move_time", "on_timeout", "turn_deadline", "version",
            "seed"} <= cols
    now = dt.datetime.now(dt.UTC)
    with engine.begin() as conn:
        conn.execute(sa.insert(GameRow).values(id="g", game="fieldshift", options={}, seed="1",
                                               names=["a", "b"], created=now))
        conn.execute(sa.insert(ActionRow).values(game="g", seq=1, text="20", move_id="m",
                                                 at=now))
    migrate(engine)  # at head already: nothing happens, nothing is lost
    with engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(ActionRow)).scalar() == 1
    for seq, move_id in ((1, "other"), (2, "m")):  # unique (game, seq) and (game, move_id)
        with pytest.raises(IntegrityError), engine.begin() as conn:
            conn.execute(sa.insert(ActionRow).values(game="g", seq=seq, text="21",
                                                     move_id=move_id, at=now))
    engine.dispose()
