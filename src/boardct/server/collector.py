"""How the process `boardct serve` runs Python's garbage collector (and its GIL hand-over),
so that no pause of it holds every move in flight for long.

- At start-up everything alive (modules, classes, the loaded games: most of the heap, and all
  of it lives as long as the server) is frozen out of the collector's reach (`gc.freeze`): a
  full collection scans only what came later.
- Young collections come every `PACE` seconds, from the event loop, rather than when the
  allocation count says: that count is allocations less deallocations, and a move keeps a few
  objects (its log entry, the game's new state) while freeing as many old ones (the game's
  previous state), so the count grew slowly while the young objects still alive piled up. A
  young collection walks every one of them: at a threshold of 20,000 one found 20,000-55,000
  at 1,000 games (30-100 ms, a pause every move in flight waited for); paced, it finds what
  the last `PACE` seconds kept (what a few hundred moves keep, a few ms). The count's
  threshold stays as a backstop (`YOUNG`), high enough that a move's own temporaries
  (thousands of objects: views, messages) do not set it off.
- The middle generation is collected every `MIDDLE + 1`th time instead (every 0.8 s: it
  holds what survived the young collections meanwhile, a few ms to walk), and everything
  older lives in the old generation, which only a full collection walks, whole: every
  `OLD + 1`th middle one (about every 3.3 minutes; its pause grows with the games held and
  their logs: the tail that is left). What moves on to the old generation and dies there (a
  game's state until its next move) is freed as it dies all the same (by its reference
  count): the full collections are for cycles, so their pace, not the old generation's
  growth, is what says how often they come.
- The GIL, on SQLite: the database thread (SQLite's group commits, server/writes.py) needs it
  back after each of its driver's calls; while the loop runs Python it waited up to Python's
  switch interval (5 ms) each time, several times a commit. `SWITCH_INTERVAL` bounds that
  wait (a hand-over costs microseconds, and happens only while that thread waits). Not on
  PostgreSQL: there the moves are written by the pool's threads, each of them handed the GIL
  as often, and at 1,000 games with two workers the short interval cost a fifth of the moves
  a second (`bench_server.py --db postgresql+psycopg://... --workers 2`: 634-673 moves/s at
  1 ms against 832-834 at Python's 5 ms).

An app made inside another program (a test, an embedding) leaves that program's collector
alone (`ServerConfig.freeze_gc` off).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import sys

PACE = 0.2  # seconds between two young collections
YOUNG = 10_000  # the allocation count's threshold, a backstop to the pace
MIDDLE, OLD = 3, 250  # young collections between two middle ones; middle between two full
SWITCH_INTERVAL = 0.001  # seconds the event loop's thread runs before handing the GIL over


class Collector:
    """The settings above while the server runs (`start`), Python's own again after (`stop`)."""

    def __init__(self, short_switch: bool = True) -> None:
        """`short_switch`: hand the GIL over every `SWITCH_INTERVAL` (SQLite's commit thread,
        above); False keeps Python's interval."""
        self.short_switch = short_switch
        self.thresholds = gc.get_threshold()
        self.switch_interval = sys.getswitchinterval()
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        gc.collect()  # garbage of the start-up is not kept
        gc.freeze()
        gc.set_threshold(max(self.thresholds[0], YOUNG), MIDDLE, OLD)
        if self.short_switch:
            sys.setswitchinterval(min(self.switch_interval, SWITCH_INTERVAL))
        self._task = asyncio.get_running_loop().create_task(_paced())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        gc.set_threshold(*self.thresholds)
        sys.setswitchinterval(self.switch_interval)


async def _paced() -> None:
    """A collection every PACE seconds: a young one, or the middle one every MIDDLE + 1th
    time, or a full one every OLD + 1th middle one (`gc.collect(0)` alone would never lead
    to the older ones: Python looks at their counts only in a collection the allocation
    count sets off)."""
    while True:
        await asyncio.sleep(PACE)
        if not gc.isenabled():
            continue
        _, young, middle = gc.get_count()  # collections since the middle / full one
        gc.collect(2 if middle >= OLD and young >= MIDDLE else 1 if young >= MIDDLE else 0)
