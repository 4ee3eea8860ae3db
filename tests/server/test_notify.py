"""LISTEN/NOTIFY fan-out between processes (server/notify.py), at the service level on a real
PostgreSQL: a change committed by one service reaches another service holding the game, which
does not echo it back. The same through real server processes is test_workers.py."""

from __future__ import annotations

import asyncio

from srvx_helpers import run, service_for, started

from boardct.server.notify import NullNotifier, PgNotifier, libpq_url, make_notifier


async def _until(pred, timeout: float = 15.0) -> bool:
    for _ in range(int(timeout / 0.05)):
        if pred():
            return True
        await asyncio.sleep(0.05)
    return pred()


def test_a_move_in_one_process_reaches_the_other(pg_url):
    async def go():
        one, ex1, engine = await service_for(pg_url)
        two, ex2, _ = await service_for(pg_url, engine)
        await ex1.notifier.start()
        await ex2.notifier.start()
        try:
            gid, _ = await started(one, "fieldshift", 2)
            there = await two.get(gid)
            here = await one.get(gid)
            seat = here.state.to_move
            await one.submit(gid, seat, here.state.notation(here.state.legal_actions(seat)[0]))
            await one.settle()
            assert await _until(lambda: there.version == 1)
            assert there.state.history() == here.state.history()
            await two.settle()
            await asyncio.sleep(0.3)
            assert ex1.notifier.received == 0  # process two did not echo the change back
            # chat and offers travel too (version -1: not a move)
            await ex2.chat(gid, 0, "hello from two", "all")
            assert await _until(lambda: any(
                m["json"]["text"] == "hello from two"
                for m in (here.extra.get("social") or {}).get("chat", [])))
        finally:
            await ex1.notifier.stop()
            await ex2.notifier.stop()
    run(go())


def test_an_agent_reply_made_by_the_process_that_caught_up_reaches_the_first(pg_url):
    """Process one takes a person's move; process two hears of it, catches up and plays its
    agent seat's reply: that reply is process two's own change and must reach process one."""
    async def go():
        from boardct.server.agents import AgentRunner

        one, ex1, engine = await service_for(pg_url)
        two, ex2, _ = await service_for(pg_url, engine)
        two.agents = AgentRunner(0)  # only process two plays agents
        await ex1.notifier.start()
        await ex2.notifier.start()
        try:
            gid, _ = await started(one, "fieldshift", [{"kind": "human"},
                                                       {"kind": "agent", "agent": "random"}])
            await two.get(gid)
            here = await one.get(gid)
            seat = here.state.to_move
            assert seat == 0
            await one.submit(gid, 0, here.state.notation(here.state.legal_actions(0)[0]))
            await one.settle()
            # the agent's reply, committed by process two, comes back to process one
            assert await _until(lambda: here.version >= 2 and here.state.to_move == 0
                                or here.over, timeout=30)
        finally:
            await ex1.notifier.stop()
            await ex2.notifier.stop()
            two.agents.close()
    run(go())


def test_notifier_choice_and_urls():
    assert isinstance(make_notifier("sqlite:///x.db", lambda g, v: None), NullNotifier)
    assert isinstance(make_notifier("postgresql+psycopg://u@h/db", lambda g, v: None),
                      PgNotifier)
    assert libpq_url("postgresql+psycopg://u:p@h:5/db") == "postgresql://u:p@h:5/db"
