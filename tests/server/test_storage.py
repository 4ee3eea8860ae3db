"""Storage on both databases (issue 18 items 1-2): every test here runs on SQLite and on a
real PostgreSQL (skipped with the reason where there is none). Games rebuilt from the log after
a restart, the compare-and-set race between two processes, move ids applied once, migrations
that keep the data."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import func, inspect, select
from sqlalchemy.orm import Session
from srvx_helpers import run, service_for, started

from boardct.server.db import migrate
from boardct.server.models import ActionRow
from boardct.server.service import ServiceError


def _first(live):
    seat = live.state.to_move
    return seat, live.state.notation(live.state.legal_actions(seat)[0])


def test_a_game_is_rebuilt_from_its_log_after_a_restart(db_url):
    async def go():
        service, _, engine = await service_for(db_url)
        gid, _ = await started(service, "hills", 2)
        live = await service.get(gid)
        for _ in range(6):
            await service.submit(gid, *_first(live))
        again, _, _ = await service_for(db_url, engine)  # nothing in memory
        back = await again.get(gid)
        assert back.version == live.version == 6
        for seat in (0, 1, None):  # the same game, hidden parts included
            assert back.state.view(seat) == live.state.view(seat)
        assert [e.text for e in back.entries] == [e.text for e in live.entries]
    run(go())


def test_two_processes_racing_for_one_version_one_wins_the_other_resyncs(db_url):
    async def go():
        one, _, engine = await service_for(db_url)
        two, _, _ = await service_for(db_url, engine)
        gid, _ = await started(one, "fieldshift", 2)
        a, b = await one.get(gid), await two.get(gid)
        seat, text = _first(a)
        other = b.state.notation(b.state.legal_actions(seat)[1])
        results = await asyncio.gather(one.submit(gid, seat, text, version=0),
                                       two.submit(gid, seat, other, version=0),
                                       return_exceptions=True)
        wins = [r for r in results if isinstance(r, dict)]
        losses = [r for r in results if isinstance(r, ServiceError)]
        assert len(wins) == 1 and len(losses) == 1, results
        assert losses[0].code == "conflict"

        def count(session: Session) -> int:
            return session.scalar(select(func.count()).select_from(ActionRow)
                                  .where(ActionRow.game == gid))

        assert await one.db(count) == 1
        assert a.version == b.version == 1  # the loser caught up with the winner's move
        assert a.state.history() == b.state.history()
    run(go())


def test_a_move_id_is_applied_once_even_through_another_process(db_url):
    async def go():
        one, _, engine = await service_for(db_url)
        two, _, _ = await service_for(db_url, engine)
        gid, _ = await started(one, "fieldshift", 2)
        a = await one.get(gid)
        await two.get(gid)
        seat, text = _first(a)
        ack = await one.submit(gid, seat, text, move_id="m-1")
        again = await two.submit(gid, seat, text, move_id="m-1")  # the resend lands elsewhere
        assert again["version"] == ack["version"] == 1
        assert (await two.get(gid)).version == 1
    run(go())


def test_migrations_run_twice_keep_the_games(db_url):
    async def go():
        service, _, engine = await service_for(db_url)
        gid, _ = await started(service, "fff", 2)
        await asyncio.to_thread(migrate, engine)  # a restart runs them again
        names = set(inspect(engine).get_table_names())
        assert {"games", "seats", "actions", "offers", "chat"} <= names
        again, _, _ = await service_for(db_url, engine)
        assert (await again.get(gid)).id == gid
    run(go())


@pytest.mark.parametrize("bad", ["nosuchgame", "x" * 40])
def test_an_unknown_game_is_not_found(db_url, bad):
    async def go():
        service, _, _ = await service_for(db_url)
        with pytest.raises(ServiceError) as err:
            await service.get(bad)
        assert err.value.code == "not_found"
    run(go())


def test_moves_in_many_games_at_once_are_each_committed_once(db_url):
    """Thirty games moving at the same instant (the load benchmark's bursts): every move is
    acknowledged and stored once, none refused as busy. SQLite's calls queue on the service's
    one database thread (several writer threads only met in SQLite's sleeping busy handler);
    PostgreSQL's run side by side."""
    async def go():
        service, _, _ = await service_for(db_url)
        games = [(await started(service, "fieldshift", 2))[0] for _ in range(30)]
        lives = [await service.get(gid) for gid in games]
        acks = await asyncio.gather(*(service.submit(gid, *_first(live), move_id=f"m-{gid}")
                                      for gid, live in zip(games, lives, strict=True)))
        assert [a["version"] for a in acks] == [1] * 30

        def count(session: Session) -> int:
            return session.scalar(select(func.count()).select_from(ActionRow)
                                  .where(ActionRow.game.in_(games)))

        assert await service.db(count) == 30
        again, _, _ = await service_for(db_url)  # what a restart reads back
        assert [(await again.get(gid)).version for gid in games] == [1] * 30
        service.close()
        again.close()
    run(go())



async def _finished(service) -> tuple[str, list[str]]:
    gid, tokens = await started(service, "fieldshift", 2)
    await service.end(gid, "resign", 0)
    return gid, tokens


def test_a_rematch_seat_waits_for_its_player_across_a_restart(db_url):
    """One player asks for the rematch, the server restarts, the other asks: they still get
    their own seat (nothing of a rematch is kept only in memory)."""
    async def go():
        service, _, engine = await service_for(db_url)
        gid, _ = await _finished(service)
        first = await service.rematch(gid, 0)
        assert first["seat"] == 1
        again, _, _ = await service_for(db_url, engine)  # a restart: nothing in memory
        second = await again.rematch(gid, 1)
        assert second["game_id"] == first["game_id"] and second["seat"] == 0
        new = await again.get(first["game_id"])
        assert again.seat_of(new, second["token"]) == 0
        assert again.seat_of(new, first["token"]) == 1
        with pytest.raises(ServiceError) as taken:  # once per seat
            await again.rematch(gid, 1)
        assert taken.value.code == "conflict"
    run(go())


def test_two_processes_asked_for_a_rematch_at_once_make_one(db_url):
    async def go():
        one, _, engine = await service_for(db_url)
        two, _, _ = await service_for(db_url, engine)
        gid, _ = await _finished(one)
        await two.get(gid)
        a, b = await asyncio.gather(one.rematch(gid, 0), two.rematch(gid, 1))
        assert a["game_id"] == b["game_id"] and {a["seat"], b["seat"]} == {0, 1}
        assert (await one.get(gid)).rematch == (await two.get(gid)).rematch == a["game_id"]
    run(go())
