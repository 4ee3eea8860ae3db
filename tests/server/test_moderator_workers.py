"""A moderator's pause made through one server process holds in another (several workers on
one database): the other process, catching up on the log, learns the pause from the
moderator's entry and refuses moves too; the resume frees them again."""

from __future__ import annotations

import datetime as dt

import pytest
from srvx_helpers import run, service_for, started

from boardct.server import clocks, moderation
from boardct.server.service import ServiceError


def test_a_pause_made_in_one_process_stops_moves_in_another(db_url):
    async def go():
        one, _, engine = await service_for(db_url)
        two, _, _ = await service_for(db_url, engine)
        gid, _ = await started(one, "fieldshift", 2, move_time=3600, on_timeout="loss")
        await clocks.save_settings(one, gid, clocks.ClockSettings(), 0, None)
        live_one = await one.get(gid)
        live_two = await two.get(gid)
        await two.settle()
        mover = live_two.state.current_players()[0]
        text = live_two.state.notation(live_two.state.legal_actions(mover)[0])

        # ten minutes left on the hour's clock: a fresh limit after the resume would show
        soon = dt.datetime.now(dt.UTC).replace(microsecond=0) + dt.timedelta(minutes=10)
        await moderation.set_deadline(one, live_one, soon, "deadline set")
        await one.settle()

        async def pause(live):
            await clocks.set_paused(one, live, True)

        await moderation.log_act(one, live_one, "game paused", pause)
        await one.settle()
        await two.refresh(gid)  # what the LISTEN/NOTIFY fan-out does
        await two.settle()
        assert clocks.is_paused(live_two) and live_two.deadline_at is None
        with pytest.raises(ServiceError) as refused:
            await two.submit(gid, mover, text)
        assert refused.value.code == "forbidden"

        async def resume(live):
            await clocks.set_paused(one, live, False)

        await moderation.log_act(one, live_one, "game resumed", resume)
        await one.settle()
        await two.refresh(gid)
        await two.settle()
        assert not clocks.is_paused(live_two) and live_two.deadline_at is not None
        # the time left when paused, as process one gave it back: not a fresh limit
        gap = clocks.aware(live_two.deadline_at) - clocks.aware(live_one.deadline_at)
        assert abs(gap.total_seconds()) < 1
        assert clocks.aware(live_two.deadline_at) - soon < dt.timedelta(minutes=1)
        ack = await two.submit(gid, mover, text)
        assert ack["ack"]
    run(go())
