"""Several server processes migrate one fresh PostgreSQL database at the same moment
(`boardct serve --workers N` starts them together): they take turns, nobody fails."""

from __future__ import annotations

import os
import subprocess
import sys

from server_live import SRC
from sqlalchemy import inspect

from boardct.server.db import make_engine

SCRIPT = "import sys; from boardct.server.db import make_engine, migrate; " \
         "migrate(make_engine(sys.argv[1]))"


def test_concurrent_migrations_of_a_fresh_database_all_succeed(pg_url):
    env = dict(os.environ, PYTHONPATH=str(SRC))
    procs = [subprocess.Popen([sys.executable, "-c", SCRIPT, pg_url], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for _ in range(4)]
    outs = [p.communicate(timeout=120)[0] for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, "\n".join(outs)[-3000:]
    engine = make_engine(pg_url)
    assert {"games", "seats", "actions", "offers", "chat"} <= set(
        inspect(engine).get_table_names())
    engine.dispose()
