"""A move's NOTIFY carries its log entry (server/notify.py): another process holding the
version before it applies the entry to the state it holds without reading the database, and
any other gap is still read from the database. A notification at the version a process holds
already is a change of seats, read again. At the service level on a real PostgreSQL (the same
through real server processes: test_workers.py)."""

from __future__ import annotations

import asyncio

from srvx_helpers import run, service_for, started

from boardct.server.notify import MAX_PAYLOAD, PgNotifier, _entry_of


async def _until(pred, timeout: float = 15.0) -> bool:
    for _ in range(int(timeout / 0.05)):
        if pred():
            return True
        await asyncio.sleep(0.05)
    return pred()


def _notifier() -> PgNotifier:
    return PgNotifier("postgresql+psycopg://u@h/db", lambda *a: None)


def test_the_payload_carries_the_entry_where_it_fits():
    n = _notifier()
    assert '"e":[0,"24","m1"]' in n.payload("g", 3, (0, "24", "m1"))
    assert '"e"' not in n.payload("g", 3)
    long = n.payload("g", 3, (0, "x" * MAX_PAYLOAD, None))
    assert '"e"' not in long and len(long) < 200  # too long: the version alone


def test_an_entry_that_is_not_one_is_ignored():
    assert _entry_of([1, "24", None]) == (1, "24", None)
    assert _entry_of([None, "resign 0", "x"]) == (None, "resign 0", "x")
    for bad in (None, [1, "24"], [True, "24", None], ["1", "24", None], [1, 24, None],
                [1, "24", 5], {"s": 1}):
        assert _entry_of(bad) is None


def test_a_move_reaches_the_other_process_without_a_database_read(pg_url):
    async def go():
        one, ex1, engine = await service_for(pg_url)
        two, ex2, _ = await service_for(pg_url, engine)
        reads = []
        real_catch_up = two._catch_up

        async def counted(live):
            reads.append(live.version)
            await real_catch_up(live)

        two._catch_up = counted
        await ex1.notifier.start()
        await ex2.notifier.start()
        try:
            gid, _ = await started(one, "fieldshift", 2)
            there = await two.get(gid)
            here = await one.get(gid)
            for k in range(4):
                seat = here.state.to_move
                text = here.state.notation(here.state.legal_actions(seat)[0])
                await one.submit(gid, seat, text, move_id=f"m{k}")
                await one.settle()
                assert await _until(lambda k=k: there.version == k + 1)
            assert there.state.history() == here.state.history()
            assert [e.move_id for e in there.entries] == ["m0", "m1", "m2", "m3"]
            assert [e.lines for e in there.entries] == [e.lines for e in here.entries]
            assert reads == []  # every move applied from its notification
            # a gap (notifications this process never heard): read from the database
            await ex2.notifier.stop()
            for k in (4, 5):
                seat = here.state.to_move
                await one.submit(gid, seat, here.state.notation(
                    here.state.legal_actions(seat)[0]), move_id=f"m{k}")
            await one.settle()
            last = here.entries[-1]
            await ex2._peer_changed(gid, 6, (last.seat, last.text, last.move_id))
            await two.settle()
            assert reads == [4] and there.version == 6
            assert there.state.history() == here.state.history()
        finally:
            await ex1.notifier.stop()
            await ex2.notifier.stop()
    run(go())


def test_a_seat_taken_in_one_process_is_read_again_by_the_other(pg_url):
    async def go():
        one, ex1, engine = await service_for(pg_url)
        two, ex2, _ = await service_for(pg_url, engine)
        await ex1.notifier.start()
        await ex2.notifier.start()
        try:
            made = await one.create("fieldshift", {}, [{"kind": "human", "name": "Ann"},
                                                       {"kind": "human", "name": "Bob"}])
            gid = made["game_id"]
            there = await two.get(gid)
            assert not there.seats[1].claimed
            await one.claim(made["seats"][1]["invite"], "Bea")
            await one.settle()
            assert await _until(lambda: there.seats[1].claimed and there.seats[1].name == "Bea")
        finally:
            await ex1.notifier.stop()
            await ex2.notifier.stop()
    run(go())
