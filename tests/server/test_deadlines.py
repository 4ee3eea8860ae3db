"""Deadlines (issue 18 item 7, server/deadlines.py), at the service level on SQLite and
PostgreSQL: per-move limits with the loss or default outcome, CTF 2187's turn deadline with
standing orders for the missing sheets (CTF-14), deadlines kept in the database across a
restart, and several processes acting on one due deadline exactly once."""

from __future__ import annotations

from srvx_helpers import expire, run, service_for, started


def test_the_clock_starts_when_every_seat_is_taken_and_is_in_the_state_message(db_url):
    async def go():
        service, extras, _ = await service_for(db_url)
        made = await service.create("fieldshift", {}, [{"kind": "human"}, {"kind": "human"}],
                                    move_time=60, on_timeout="loss")
        gid = made["game_id"]
        await service.settle()
        await extras.deadlines.arm()
        live = await service.get(gid)
        assert live.deadline_at is None  # a free seat: nobody is playing yet
        for s in made["seats"]:
            await service.authorize(gid, s["token"])
        await extras.deadlines.arm()
        assert live.deadline_at is not None
        msg = service.state_message(live, 0)
        assert msg["deadline"] is not None and msg["move_time"] == 60
    run(go())


def test_move_time_loss_the_seat_to_move_loses(db_url):
    async def go():
        service, extras, _ = await service_for(db_url)
        gid, _ = await started(service, "fff", 2, move_time=30, on_timeout="loss")
        live = await service.get(gid)
        mover = live.state.to_move
        await expire(service, gid)
        assert await extras.deadlines.tick() == 1
        await service.settle()
        assert live.over
        assert mover not in live.state.outcome.winners
        assert live.deadline_at is None
    run(go())


def test_move_time_default_plays_the_first_legal_action_and_restarts_the_clock(db_url):
    async def go():
        service, extras, _ = await service_for(db_url)
        gid, _ = await started(service, "fieldshift", 2, move_time=30, on_timeout="default")
        live = await service.get(gid)
        await extras.deadlines.arm()
        first = live.state.notation(live.state.legal_actions(live.state.to_move)[0])
        await expire(service, gid)
        past = live.deadline_at
        assert await extras.deadlines.tick() == 1
        await service.settle()
        assert [e.text for e in live.entries] == [first]
        assert not live.over
        assert live.deadline_at is not None and live.deadline_at > past  # the next move's
    run(go())


def test_a_move_in_time_resets_the_deadline(db_url):
    async def go():
        service, extras, _ = await service_for(db_url)
        gid, _ = await started(service, "fieldshift", 2, move_time=30)
        await extras.deadlines.arm()
        live = await service.get(gid)
        before = live.deadline_at
        seat = live.state.to_move
        await service.submit(gid, seat, live.state.notation(live.state.legal_actions(seat)[0]))
        await service.settle()
        assert live.deadline_at > before
        assert await extras.deadlines.tick() == 0  # not due
    run(go())


def test_ctf2187_turn_deadline_missing_sheet_gets_standing_orders(db_url):
    """CTF-14: three of four sheets in, the deadline passes, the fourth Bot follows its
    standing orders and the turn is processed; the next turn gets a deadline of its own."""
    async def go():
        service, extras, _ = await service_for(db_url)
        gid, _ = await started(service, "ctf2187", 4, turn_deadline=600)
        await extras.deadlines.arm()
        live = await service.get(gid)
        first = live.deadline_at
        for p in range(3):
            sheet = live.state.notation(live.state.legal_actions(p)[0])
            await service.submit(gid, p, sheet)
        await service.settle()
        assert live.deadline_at == first  # the same turn: the same deadline
        assert live.state.current_players() == (3,)
        await expire(service, gid)
        assert await extras.deadlines.tick() == 1
        await service.settle()
        assert live.entries[-1].text == "player 4: BOT 4 TURN 1 MISSING"
        assert live.state.log_turn == 1
        assert sorted(live.state.current_players()) == [0, 1, 2, 3]  # turn 2 is open
        assert live.deadline_at is not None and live.deadline_at > first
    run(go())


def test_a_due_deadline_survives_a_restart(db_url):
    """The deadline is in the database: a new process (a new service on the same database,
    nothing in memory) finds it due and acts on it."""
    async def go():
        service, extras, engine = await service_for(db_url)
        gid, _ = await started(service, "fff", 2, move_time=30, on_timeout="loss")
        await extras.deadlines.arm()
        await expire(service, gid)
        again, extras2, _ = await service_for(db_url, engine)  # "after the restart"
        assert await extras2.deadlines.tick() == 1
        await again.settle()
        assert (await again.get(gid)).over
    run(go())


def test_two_processes_act_on_one_deadline_once(db_url):
    """Two processes find the same due game; the version's compare-and-set lets one act."""
    async def go():
        one, ex1, engine = await service_for(db_url)
        two, ex2, _ = await service_for(db_url, engine)
        gid, _ = await started(one, "fieldshift", 2, move_time=30, on_timeout="default")
        await ex1.deadlines.arm()
        await expire(one, gid)
        await two.get(gid)  # both hold the game in memory
        due = await ex1.deadlines.due()
        assert [g for g, _ in due] == [gid]
        done = [await ex1.deadlines.act(gid, due[0][1]), await ex2.deadlines.act(gid, due[0][1])]
        assert sorted(done) == [False, True]
        await one.settle()
        await two.settle()
        fresh, _, _ = await service_for(db_url, engine)
        assert (await fresh.get(gid)).version == 1
    run(go())
