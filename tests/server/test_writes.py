"""A move's write (server/writes.py): the compare-and-set and the log entry in one commit,
compiled once per database; SQLite's group commit of the moves that wait for its one writer
thread. What a player relies on: an acknowledged move is in the database, a move whose game
moved on is refused and written nowhere, and one refused move never takes others with it."""

from __future__ import annotations

import asyncio
import concurrent.futures
import datetime as dt

import pytest
import sqlalchemy as sa

from boardct.server.db import make_engine, migrate
from boardct.server.models import ActionRow, GameRow
from boardct.server.service import GameService
from boardct.server.writes import MAX_BATCH, MoveWrite, MoveWriter, write_move, write_moves

NOW = dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.UTC)


def _games(engine: sa.Engine, n: int) -> list[str]:
    with engine.begin() as conn:
        for k in range(n):
            conn.execute(sa.insert(GameRow).values(id=f"g{k}", game="fieldshift", options={},
                                                   seed="1", names=["a", "b"], created=NOW,
                                                   status="playing", version=0))
    return [f"g{k}" for k in range(n)]


def _move(gid: str, expected: int = 0, move_id: str | None = None, **kw) -> MoveWrite:
    values = {"status": "playing", "result": None, "seat": 0, "text": "24",
              "move_id": move_id or f"{gid}-{expected}", "at": NOW} | kw
    return MoveWrite(gid, expected, **values)


def _log(engine: sa.Engine) -> list[tuple]:
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(
            sa.select(ActionRow.game, ActionRow.seq, ActionRow.text, ActionRow.move_id)
            .order_by(ActionRow.game, ActionRow.seq))]


def _versions(engine: sa.Engine) -> dict[str, int]:
    with engine.connect() as conn:
        return dict(conn.execute(sa.select(GameRow.id, GameRow.version)).all())


@pytest.fixture
def engine(db_url):
    engine = make_engine(db_url)
    migrate(engine)
    yield engine
    engine.dispose()


def test_a_move_is_written_with_its_version_status_result_and_entry(engine):
    [gid] = _games(engine, 1)
    result = {"returns": [1.0, 0.0], "reason": "x", "winners": [0]}
    with engine.connect() as conn:
        assert write_move(conn, _move(gid, status="over", result=result, text="09"))
    assert _log(engine) == [(gid, 1, "09", f"{gid}-0")]
    with engine.connect() as conn:
        row = conn.execute(sa.select(GameRow).where(GameRow.id == gid)).one()
        at = conn.execute(sa.select(ActionRow.at)).scalar_one()
    assert (row.version, row.status, row.result) == (1, "over", result)
    assert at.replace(tzinfo=dt.UTC) == NOW  # read back as SQLAlchemy writes it


def test_a_stale_version_or_a_repeated_move_id_is_refused_and_writes_nothing(engine):
    [gid] = _games(engine, 1)
    with engine.connect() as conn:
        assert write_move(conn, _move(gid, 0, "m1"))
        assert not write_move(conn, _move(gid, 0, "m2"))  # the game is at version 1 now
        assert not write_move(conn, _move(gid, 1, "m1"))  # m1 is in the log already
    assert _log(engine) == [(gid, 1, "24", "m1")]
    assert _versions(engine) == {gid: 1}


def test_one_commit_for_several_games_leaves_out_only_the_stale_move(engine):
    gids = _games(engine, 3)
    with engine.connect() as conn:
        assert write_move(conn, _move(gids[1], 0))
        got = write_moves(conn, [_move(gids[0], 0), _move(gids[1], 0, "late"),
                                 _move(gids[2], 0)])
    assert got == [True, False, True]
    assert _versions(engine) == {gids[0]: 1, gids[1]: 1, gids[2]: 1}
    assert [(g, s) for g, s, _, _ in _log(engine)] == [(gids[0], 1), (gids[1], 1), (gids[2], 1)]


def test_a_duplicate_entry_in_a_batch_rolls_back_and_each_move_is_written_alone(engine):
    gids = _games(engine, 2)
    with engine.connect() as conn:
        assert write_move(conn, _move(gids[0], 0, "dup"))
        # the second move of the batch reuses a move id of game 0's log: the INSERT fails
        # after the first move's statements ran; the batch is undone and redone one by one
        got = write_moves(conn, [_move(gids[1], 0), _move(gids[0], 1, "dup")])
    assert got == [True, False]
    assert _versions(engine) == {gids[0]: 1, gids[1]: 1}
    assert len(_log(engine)) == 2


def test_a_batch_of_games_is_two_statements_and_writes_what_one_by_one_would(engine):
    # each statement is a hand-over of the GIL by the database thread (and back): the
    # moves that need nothing else in their transaction go in with two statements in all
    gids = _games(engine, 16)
    result = {"returns": [1.0, 0.0], "reason": "x", "winners": [0]}
    moves = [_move(g, 0, seat=k % 2, text=f"t{k}",
                   **({"status": "over", "result": result} if k % 3 == 0 else {}))
             for k, g in enumerate(gids[:8])]  # one chunk (writes.CHUNKS)
    statements: list[str] = []

    def seen(conn, cursor, sql, *_args) -> None:
        statements.append(sql)

    sa.event.listen(engine, "before_cursor_execute", seen)
    with engine.connect() as conn:
        assert write_moves(conn, moves) == [True] * 8
    sa.event.remove(engine, "before_cursor_execute", seen)
    assert sum(sql.lstrip().upper().startswith(("UPDATE", "INSERT")) for sql in statements) == 2
    with engine.connect() as conn:  # the same moves in the other eight games, one by one
        for k, m in enumerate(moves):
            assert write_move(conn, MoveWrite(gids[8 + k], 0, m.status, m.result, m.seat,
                                              m.text, f"one-{k}", m.at))

    with engine.connect() as conn:
        by_game = {r[0]: tuple(r[1:]) for r in conn.execute(
            sa.select(GameRow.id, GameRow.version, GameRow.status, GameRow.result))}
        by_entry = {r[0]: tuple(r[1:]) for r in conn.execute(
            sa.select(ActionRow.game, ActionRow.seq, ActionRow.seat, ActionRow.text,
                      ActionRow.at))}
    games = [by_game[g] for g in gids]
    entries = [by_entry[g] for g in gids]
    assert games[:8] == games[8:] and entries[:8] == entries[8:]
    assert games[0] == (1, "over", result) and games[1] == (1, "playing", None)


def _with_writer(engine: sa.Engine, play):
    """`await play(writer)` in a fresh event loop, `writer` a MoveWriter on `engine` with one
    database thread (shut down after, whatever happens)."""
    executor = concurrent.futures.ThreadPoolExecutor(1)

    async def main():
        return await play(MoveWriter(engine, executor))

    try:
        return asyncio.run(main())
    finally:
        executor.shutdown()


def test_the_group_commit_writes_waiting_moves_together_and_answers_each(sqlite_url):
    engine = make_engine(sqlite_url)
    migrate(engine)
    gids = _games(engine, 40)

    async def play(writer: MoveWriter) -> list[bool]:
        moves = [_move(g, 0) for g in gids] + [_move(gids[0], 0, "stale")]
        got = await asyncio.gather(*(writer.write(m) for m in moves))
        assert writer.written == len(moves)
        assert writer.batches < len(moves)  # those that waited went in together
        return list(got)

    got = _with_writer(engine, play)
    assert got == [True] * 40 + [False]
    assert _versions(engine) == dict.fromkeys(gids, 1)
    assert len(_log(engine)) == 40
    engine.dispose()


def test_moves_that_come_in_one_turn_of_the_loop_share_one_commit(sqlite_url):
    """Moves handed over while the database thread is idle wait for the loop's next turn, so
    those read in the same wake-up of the loop share a commit (each commit costs the server
    CPU of its own); one that comes alone is written at that next turn, without a timer."""
    engine = make_engine(sqlite_url)
    migrate(engine)
    gids = _games(engine, 6)
    sizes: list[int] = []

    async def play(writer: MoveWriter) -> list[bool]:
        writer.observe = lambda n, *_times: sizes.append(n)
        together = [writer.write(_move(g, 0)) for g in gids[:5]]  # no await between them
        got = [await f for f in together]
        got.append(await writer.write(_move(gids[5], 0)))  # alone
        return got

    got = _with_writer(engine, play)
    assert got == [True] * 6
    assert sizes == [5, 1]
    assert _versions(engine) == dict.fromkeys(gids, 1)
    engine.dispose()


def test_a_group_commit_takes_at_most_max_batch_moves_and_the_rest_follow(sqlite_url):
    # a saturated server's batches had grown to hundreds of moves: the first waited for all
    engine = make_engine(sqlite_url)
    migrate(engine)
    gids = _games(engine, 3 * MAX_BATCH + 5)
    sizes: list[int] = []

    async def play(writer: MoveWriter) -> list[bool]:
        writer.observe = lambda n, *_times: sizes.append(n)
        return list(await asyncio.gather(*(writer.write(_move(g, 0)) for g in gids)))

    got = _with_writer(engine, play)
    assert got == [True] * len(gids)
    assert max(sizes) == MAX_BATCH and sum(sizes) == len(gids)
    assert _versions(engine) == dict.fromkeys(gids, 1)
    engine.dispose()


def test_a_database_error_reaches_every_move_of_its_batch(sqlite_url):
    engine = make_engine(sqlite_url)
    migrate(engine)
    gids = _games(engine, 3)

    async def play(writer: MoveWriter) -> list[object]:
        def broken(moves, times):
            raise OSError("disk gone")

        writer._write = broken  # the database thread's write fails as a whole
        return await asyncio.gather(*(writer.write(_move(g, 0)) for g in gids),
                                    return_exceptions=True)

    got = _with_writer(engine, play)
    assert [type(e) for e in got] == [OSError] * 3  # no waiter is left hanging or told True
    assert _versions(engine) == dict.fromkeys(gids, 0)
    engine.dispose()


def test_one_seats_moves_at_once_one_is_played_and_written_the_rest_refused(sqlite_url):
    engine = make_engine(sqlite_url)
    migrate(engine)

    async def play() -> tuple[dict, list]:
        service = GameService(engine)
        made = await service.create("fieldshift", {}, [{"kind": "human"}, {"kind": "human"}])
        gid = made["game_id"]
        acks = await asyncio.gather(*(service.submit(gid, 0, "24", move_id=f"m{k}")
                                      for k in range(3)), return_exceptions=True)
        # the same seat's three tries at once: the first is played, the others are refused
        # as not its turn any more (nothing of theirs is written)
        await service.settle()
        service.close()
        return acks[0], acks[1:]

    first, others = asyncio.run(play())
    assert first["ack"] and first["version"] == 1
    assert all(not isinstance(a, dict) for a in others)
    assert [(s, t, m) for _, s, t, m in _log(engine)] == [(1, "24", "m0")]
    engine.dispose()
