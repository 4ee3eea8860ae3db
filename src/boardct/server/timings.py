"""Where a server's latency goes, measured while it runs (off unless asked for).

With `BOARDCT_TIMINGS=<file>` in its environment, a server process appends to that file, once
a second, one JSON line of what it saw in that second:

- `lag`: how late its event loop woke up for a timer asked every 10 ms (a long step of the
  loop: a big batch of work, a collection of the garbage collector, the GIL held by a thread);
  `busy`: the CPU time the loop's thread used in each of those 10 ms (above 10: work that ran
  without a break; unlike the lag, it does not grow when other processes take the cores);
- `gc`: the collector's pauses, by generation (count, total and longest, in ms; `cpu_max`:
  the longest in CPU time);
- `db_wait`, `db_write`, `db_back`: of each SQLite group commit (server/writes.py), the time
  its first move waited for the database thread, the time the thread took to write and commit
  the batch, and the time from the commit to the event loop's taking the result back;
  `batch`: moves per commit.

Every series is given as {n, p50, p99, max} in ms. `benchmarks/bench_server.py` sets the
variable for the server it starts and reports these beside the clients' latencies, so a tail
can be traced to its phase. Nothing here changes what the server does; the cost when on is a
timer every 10 ms and a few clock reads a commit, and nothing when off.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
import time
from pathlib import Path
from typing import Any

ENV_TIMINGS = "BOARDCT_TIMINGS"
TICK = 0.01  # seconds between two wake-ups of the lag monitor
WINDOW = 1.0  # seconds a line covers

log = logging.getLogger("boardct.server")


def summary(values: list[float]) -> dict[str, float | int]:
    """{n, p50, p99, max} of `values` (seconds), in ms."""
    if not values:
        return {"n": 0}
    values = sorted(values)
    n = len(values)
    return {"n": n, "p50": round(values[n // 2] * 1000, 2),
            "p99": round(values[min(n - 1, int(0.99 * n))] * 1000, 2),
            "max": round(values[-1] * 1000, 2)}


class Timings:
    """The series of one window, and the writer of its line."""

    def __init__(self, path: Path):
        self.path = path
        self.lag: list[float] = []
        self.busy: list[float] = []
        self.gc: dict[int, list[float]] = {}
        self.gc_cpu: dict[int, list[float]] = {}
        self.db_wait: list[float] = []
        self.db_write: list[float] = []
        self.db_back: list[float] = []
        self.batch: list[float] = []
        self._gc_start = self._gc_cpu = 0.0
        self._task: asyncio.Task | None = None

    # -- the sources -----------------------------------------------------------------------
    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_start, self._gc_cpu = time.perf_counter(), time.thread_time()
        else:
            gen = info.get("generation", -1)
            self.gc.setdefault(gen, []).append(time.perf_counter() - self._gc_start)
            self.gc_cpu.setdefault(gen, []).append(time.thread_time() - self._gc_cpu)

    def on_commit(self, moves: int, queued: float, started: float, ended: float,
                  back: float) -> None:
        """A group commit of `moves` moves: perf_counter() when its first move was queued,
        when the database thread started it, when it committed, when the loop took it back."""
        self.batch.append(moves / 1000)  # summary() reports ms: x 1000 gives the count back
        self.db_wait.append(started - queued)
        self.db_write.append(ended - started)
        self.db_back.append(back - ended)

    # -- the loop --------------------------------------------------------------------------
    def start(self, service: Any) -> None:
        gc.callbacks.append(self.on_gc)
        writer = getattr(service, "writer", None)
        if writer is not None:
            writer.observe = self.on_commit
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self.on_gc)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        window_end = time.perf_counter() + WINDOW
        while True:
            asked, cpu = time.perf_counter(), time.thread_time()
            await asyncio.sleep(TICK)
            now = time.perf_counter()
            self.lag.append(max(0.0, now - asked - TICK))
            self.busy.append(time.thread_time() - cpu)
            if now >= window_end:
                window_end = now + WINDOW
                self.flush()

    def flush(self) -> None:
        line = {"t": round(time.time(), 3), "pid": os.getpid(), "lag": summary(self.lag),
                "busy": summary(self.busy),
                "gc": {str(g): {"n": len(v), "total": round(sum(v) * 1000, 2),
                                "max": round(max(v) * 1000, 2),
                                "cpu_max": round(max(self.gc_cpu[g]) * 1000, 2),
                                "cpu_total": round(sum(self.gc_cpu[g]) * 1000, 2)}
                       for g, v in sorted(self.gc.items())},
                "db_wait": summary(self.db_wait), "db_write": summary(self.db_write),
                "db_back": summary(self.db_back), "batch": summary(self.batch)}
        self.lag, self.busy, self.gc, self.gc_cpu = [], [], {}, {}
        self.db_wait, self.db_write, self.db_back, self.batch = [], [], [], []
        try:
            with self.path.open("a", encoding="utf-8") as f:
                f.write(json.dumps(line) + "\n")
        except OSError as exc:  # a measurement never stops the server
            log.warning("timings: cannot write %s: %s", self.path, exc)


def start(service: Any) -> Timings | None:
    """Start measuring if BOARDCT_TIMINGS names a file (app.py, at start-up); None if not."""
    where = os.environ.get(ENV_TIMINGS)
    if not where:
        return None
    timings = Timings(Path(where))
    timings.start(service)
    return timings
