"""A move's write to the database: the compare-and-set of the game's version (with its status
and result) and the INSERT of its log entry, in one transaction, committed before the move is
acknowledged (service.py).

The two statements are compiled once per database (`Prepared`) and run through the driver,
without an ORM session: they run once a move, and the ORM's bookkeeping and SQLAlchemy's
per-call compilation lookups were most of their CPU time (held under the GIL the event loop
needs).

SQLite takes one writer at a time, and the server gives it one database thread. Moves that
arrive while that thread is writing wait for it, and are then written together, in ONE
transaction (`MoveWriter`, a group commit, of at most MAX_BATCH moves): under load one commit,
one hand-over to the thread and one wake-up of the event loop serve several moves, and their
statements are two in all (`batch_sql`: the database thread takes the GIL back after each
statement, and waited for it while the loop ran Python, two statements a move). Each move is
still acknowledged only after the commit that holds it has returned; a move whose
compare-and-set fails is left out of the commit (its game moved on in another process) and
the others go on; any error of the batch rolls it back and each move is written alone, as if
it had come alone.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import datetime as dt
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import (
    Connection,
    CursorResult,
    Engine,
    Integer,
    Table,
    and_,
    bindparam,
    case,
    insert,
    literal_column,
    or_,
    update,
)
from sqlalchemy.exc import IntegrityError

from boardct.server.models import ActionRow, GameRow


class Prepared:
    """A Core statement compiled once for one database's dialect and run through its driver
    (`Connection.exec_driver_sql`): its text, the order of its parameters where the driver
    takes them by position, and the type conversions SQLAlchemy would apply (JSON to text,
    SQLite's date-times)."""

    def __init__(self, statement: Any, dialect: Any):
        compiled = statement.compile(dialect=dialect)
        self.sql = str(compiled)
        self.order: list[str] | None = list(compiled.positiontup or ()) \
            if compiled.positional else None
        self.convert = {name: proc for name, bind in compiled.binds.items()
                        if (proc := bind.type.dialect_impl(dialect).bind_processor(dialect))}

    def run(self, conn: Connection, values: dict[str, Any]) -> CursorResult[Any]:
        """Execute with `values` (by parameter name; not changed)."""
        params = dict(values)
        for name, proc in self.convert.items():
            params[name] = proc(params[name])
        return conn.exec_driver_sql(self.sql, params if self.order is None
                                    else tuple(params[n] for n in self.order))


_MOVE_SQL: dict[str, tuple[Prepared, Prepared]] = {}


def move_sql(dialect: Any) -> tuple[Prepared, Prepared]:
    """The two statements of a move for `dialect`, compiled once: the compare-and-set of the
    game's version (with its status and result) and the INSERT of the log entry."""
    made = _MOVE_SQL.get(dialect.name)
    if made is None:
        # the mapped classes' tables (declarative types `__table__` as any FROM clause)
        games, actions = cast(Table, GameRow.__table__), cast(Table, ActionRow.__table__)
        bump = (update(games)
                .where(games.c.id == bindparam("gid"), games.c.version == bindparam("expected"))
                .values(version=bindparam("new"), status=bindparam("status"),
                        result=bindparam("result")))
        append = insert(actions).inline().values(  # inline: no RETURNING of the new id
            game=bindparam("gid"), seq=bindparam("new"), seat=bindparam("seat"),
            text=bindparam("text"), move_id=bindparam("move_id"), at=bindparam("at"))
        made = _MOVE_SQL[dialect.name] = (Prepared(bump, dialect), Prepared(append, dialect))
    return made


_BATCH_SQL: dict[tuple[str, int], tuple[Prepared, Prepared]] = {}


def batch_sql(dialect: Any, n: int) -> tuple[Prepared, Prepared]:
    """The two statements of `n` moves of `n` different games at once, for `dialect`,
    compiled once per `n`: one compare-and-set of every game's version (each with its status
    and result: `CASE id WHEN ...`), one INSERT of every log entry (several VALUES rows).
    Parameters: `g{i}`, `e{i}`, `s{i}`, `r{i}` of the games, `n{i}`, `st{i}`, `t{i}`, `m{i}`,
    `a{i}` of the entries (`batch_params`)."""
    made = _BATCH_SQL.get((dialect.name, n))
    if made is None:
        games, actions = cast(Table, GameRow.__table__), cast(Table, ActionRow.__table__)
        gid = [bindparam(f"g{i}", type_=games.c.id.type) for i in range(n)]
        bump = (update(games)
                .where(or_(*(and_(games.c.id == gid[i],
                                  games.c.version == bindparam(f"e{i}", type_=Integer()))
                             for i in range(n))))
                .values(version=games.c.version + literal_column("1"),
                        status=case(*((games.c.id == gid[i],
                                       bindparam(f"s{i}", type_=games.c.status.type))
                                      for i in range(n)), else_=games.c.status),
                        result=case(*((games.c.id == gid[i],
                                       bindparam(f"r{i}", type_=games.c.result.type))
                                      for i in range(n)), else_=games.c.result)))
        append = insert(actions).values([{
            "game": bindparam(f"g{i}", type_=actions.c.game.type),
            "seq": bindparam(f"n{i}", type_=actions.c.seq.type),
            "seat": bindparam(f"st{i}", type_=actions.c.seat.type),
            "text": bindparam(f"t{i}", type_=actions.c.text.type),
            "move_id": bindparam(f"m{i}", type_=actions.c.move_id.type),
            "at": bindparam(f"a{i}", type_=actions.c.at.type)} for i in range(n)])
        made = _BATCH_SQL[(dialect.name, n)] = (Prepared(bump, dialect),
                                                Prepared(append, dialect))
    return made


def batch_params(moves: list[MoveWrite]) -> dict[str, Any]:
    """The parameters of `batch_sql(dialect, len(moves))` for `moves`."""
    out: dict[str, Any] = {}
    for i, m in enumerate(moves):
        out |= {f"g{i}": m.gid, f"e{i}": m.expected, f"s{i}": m.status, f"r{i}": m.result,
                f"n{i}": m.expected + 1, f"st{i}": m.seat, f"t{i}": m.text,
                f"m{i}": m.move_id, f"a{i}": m.at}
    return out


@dataclass(frozen=True)
class MoveWrite:
    """One move to write: game `gid` goes from version `expected` to the next, with its new
    `status` and `result`, and the log entry (`seat`, `text`, `move_id`, `at`); `also`, if
    given, writes what must commit with the move in its transaction (the notices it causes,
    the ratings of the game it ends): statements on the connection, never a commit."""

    gid: str
    expected: int
    status: str
    result: dict | None
    seat: int | None
    text: str
    move_id: str | None
    at: dt.datetime
    also: Callable[[Connection], None] | None = None

    def bump(self) -> dict[str, Any]:
        return {"gid": self.gid, "expected": self.expected, "new": self.expected + 1,
                "status": self.status, "result": self.result}

    def append(self) -> dict[str, Any]:
        return {"gid": self.gid, "new": self.expected + 1, "seat": self.seat,
                "text": self.text, "move_id": self.move_id, "at": self.at}


def write_moves(conn: Connection, moves: list[MoveWrite]) -> list[bool | Exception]:
    """Write `moves` (of different games) in one transaction on `conn` and commit. For each:
    True, False when its compare-and-set failed or its entry is already in the log (the same
    move id or version committed by another process: that move is not written), or the error
    that stopped it. When the transaction fails with several moves in it, each is written
    alone."""
    bump, append = move_sql(conn.dialect)
    done: list[bool | Exception] = []
    try:
        together = _write_together(conn, moves)
        for k, m in enumerate(moves):
            if k in together:
                done.append(True)
                continue
            if bump.run(conn, m.bump()).rowcount != 1:  # the game moved on: nothing changed
                done.append(False)
                continue
            append.run(conn, m.append())
            if m.also is not None:
                m.also(conn)
            done.append(True)
        conn.commit()
        return done
    except IntegrityError:
        conn.rollback()
        if len(moves) == 1:
            return [False]
    except Exception as exc:  # the database's error, for the move's waiter
        conn.rollback()
        if len(moves) == 1:
            return [exc]
    return [write_moves(conn, [m])[0] for m in moves]


def _write_together(conn: Connection, moves: list[MoveWrite]) -> set[int]:
    """Write the moves of `moves` that need nothing else in their transaction (`also` None)
    with two statements for each chunk of them (`batch_sql`, CHUNKS moves; a last one left
    over goes alone), in the transaction `write_moves` then commits; their indexes in
    `moves`. Nothing (an empty set, the transaction rolled back) when they are fewer than
    two, or two of them are of the same game, or any of their compare-and-sets fails or any
    entry is already in the log: `write_moves` then writes each alone, and says which. Each
    statement is a hand-over of the GIL by the database thread and back, which the loop's
    Python can make wait: two a chunk, not two a move."""
    plain = [k for k, m in enumerate(moves) if m.also is None]
    if len(plain) < 2 or len({moves[k].gid for k in plain}) < len(plain):
        return set()
    written: set[int] = set()
    try:
        for size in CHUNKS:  # statements of a few sizes only: each is compiled once
            while len(plain) - len(written) >= size:
                chunk = plain[len(written):len(written) + size]
                bump, append = batch_sql(conn.dialect, size)
                params = batch_params([moves[k] for k in chunk])
                if bump.run(conn, params).rowcount != size:
                    raise _Stale
                append.run(conn, params)
                written.update(chunk)
        return written
    except (IntegrityError, _Stale):
        conn.rollback()
        return set()


class _Stale(Exception):
    """A compare-and-set of a batch failed: `write_moves` writes its moves one by one."""


CHUNKS = (64, 32, 16, 8, 4, 2)  # moves a `batch_sql` statement writes (compiled once each)


def write_move(conn: Connection, move: MoveWrite) -> bool:
    """`write_moves` of one move: True once committed, False when its compare-and-set
    failed; the database's error is raised."""
    got = write_moves(conn, [move])[0]
    if isinstance(got, Exception):
        raise got
    return got


MAX_BATCH = 128  # moves in one group commit at most (MoveWriter)


class MoveWriter:
    """The group commit of SQLite (module docstring): `write` hands a move to the database
    thread, or, while that thread is writing, queues it for the next batch."""

    def __init__(self, engine: Engine, executor: concurrent.futures.Executor):
        for size in CHUNKS:  # compiled now (tens of ms), not in the database thread under load
            batch_sql(engine.dialect, size)
        self.engine = engine
        self.executor = executor
        # the moves waiting, each with its waiter and when it came (when measuring)
        self._queue: list[tuple[MoveWrite, asyncio.Future[bool], float]] = []
        self._busy = False
        # A move that comes while the database thread is idle is not handed to it at once but
        # at the loop's next turn (`_gathered`), so that the moves that came with it (read in
        # the same wake-up of the loop) share its commit: a commit costs about 0.12 ms of CPU
        # besides its moves' own (the hand-over to the thread and back, the pool, SQLite's
        # commit: 4 moves a commit cost 0.14 ms a move against 0.17 at 2). No timer: a timer's
        # wake-up costs more CPU than it would save.
        self._gathering: asyncio.Handle | None = None
        self.batches = 0  # transactions committed (tests and benchmarks read them)
        self.written = 0  # moves handed to them
        # called after each commit with (moves, queued, started, committed, taken back),
        # perf_counter() times: server/timings.py, when measuring
        self.observe: Callable[[int, float, float, float, float], None] | None = None

    def write(self, move: MoveWrite) -> asyncio.Future[bool]:
        """Await it: True once `move` is committed, False when its compare-and-set failed.
        Handed to the database thread at the loop's next turn, or after the commit under way."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._queue.append((move, done,
                            time.perf_counter() if self.observe is not None else 0.0))
        if not self._busy and self._gathering is None:
            self._gathering = asyncio.get_running_loop().call_soon(self._gathered)
        return done

    def _gathered(self) -> None:
        self._gathering = None
        if not self._busy and self._queue:
            self._flush()

    def _flush(self) -> None:
        if self._gathering is not None:
            self._gathering.cancel()
            self._gathering = None
        # at most MAX_BATCH moves a commit: a saturated server's batches had grown to
        # hundreds of moves, each commit then holding the first of them for as long as
        # writing them all took, and their acks and broadcasts came back at once (the
        # loop then ran for hundreds of ms without a break); the rest wait for the next
        batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
        self._busy = True
        moves = [m for m, _, _ in batch]
        times = [batch[0][2], 0.0, 0.0]  # its first move queued, started, committed
        # The thread hands the batch's outcome back itself (`_write_back`), rather than
        # through run_in_executor's asyncio future chained to the executor's: that chain
        # (two futures, their callbacks, a hop through the loop) cost the event loop more
        # than the rest of a commit's bookkeeping, at every commit.
        loop = asyncio.get_running_loop()
        job = self.executor.submit(self._write_back, loop, batch, moves, times)

        def never_ran(job: concurrent.futures.Future) -> None:
            if job.cancelled():
                _tell(loop, self._finished, batch, None, times)

        job.add_done_callback(never_ran)

    def _write_back(self, loop: asyncio.AbstractEventLoop,
                    batch: list[tuple[MoveWrite, asyncio.Future[bool], float]],
                    moves: list[MoveWrite], times: list[float]) -> None:
        """In the database thread: write the batch, then hand what came of it (the
        outcome of each move, or the error that stopped them all) to the event loop."""
        got: list[bool | Exception] | BaseException
        try:
            got = self._write(moves, times)
        except BaseException as exc:  # for the moves' waiters
            got = exc
        _tell(loop, self._finished, batch, got, times)

    def _write(self, moves: list[MoveWrite], times: list[float]) -> list[bool | Exception]:
        times[1] = time.perf_counter()
        try:
            with self.engine.connect() as conn:
                return write_moves(conn, moves)
        finally:
            times[2] = time.perf_counter()

    def _finished(self, batch: list[tuple[MoveWrite, asyncio.Future[bool], float]],
                  got: list[bool | Exception] | BaseException | None,
                  times: list[float]) -> None:
        """In the event loop: each move's waiter learns its outcome (None: the batch never
        ran, the executor was shut down first: its waiters are cancelled)."""
        self._busy = False
        self.batches += 1
        self.written += len(batch)
        if self.observe is not None:
            self.observe(len(batch), times[0], times[1], times[2], time.perf_counter())
        for k, (_, done, _) in enumerate(batch):
            if done.done():  # its waiter was cancelled
                continue
            if got is None:
                done.cancel()
            elif isinstance(got, BaseException):
                done.set_exception(got)
            else:
                outcome = got[k]
                if isinstance(outcome, Exception):
                    done.set_exception(outcome)
                else:
                    done.set_result(outcome)
        if self._queue:
            self._flush()


def _tell(loop: asyncio.AbstractEventLoop, callback: Callable[..., None], *args: Any) -> None:
    """Run `callback(*args)` in `loop` (from another thread); nothing if the loop is closed
    (the server is gone: no one waits)."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(callback, *args)
