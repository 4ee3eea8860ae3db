"""Offers and chat (issue 18 item 4, server/social.py), at the service level on SQLite and
PostgreSQL. The websocket side (a team's chat never reaches the other team's socket) is in
test_social_ws.py."""

from __future__ import annotations

import pytest
from srvx_helpers import run, service_for, started

from boardct.core import table
from boardct.server.service import ServiceError
from boardct.server.social import MAX_CHAT_CHARS


def _first(live, seat=None):
    seat = live.state.to_move if seat is None else seat
    return seat, live.state.notation(live.state.legal_actions(seat)[0])


# -- chat --------------------------------------------------------------------------------------
def test_team_chat_reaches_the_team_only_and_spectators_read_public_chat(db_url):
    """CTF 2187, four players in two teams (players 1-2, 3-4)."""
    async def go():
        service, extras, _ = await service_for(db_url)
        gid, _ = await started(service, "ctf2187", 4)
        await extras.chat(gid, 0, "flank left", "team")
        await extras.chat(gid, 3, "good luck all", "all")
        await extras.chat(gid, 2, "they go left", "team")
        seen = {seat: [m["text"] for m in await extras.read_chat(gid, seat)]
                for seat in (0, 1, 2, 3, None)}
        assert seen[0] == seen[1] == ["flank left", "good luck all"]
        assert seen[2] == seen[3] == ["good luck all", "they go left"]
        assert seen[None] == ["good luck all"]
        live = await service.get(gid)
        in_state = {s: [m["text"] for m in service.state_message(live, s)["chat"]]
                    for s in (0, 2, None)}
        assert in_state == {0: seen[0], 2: seen[2], None: seen[None]}
    run(go())


def test_chat_is_sent_as_written_bounded_and_spectators_cannot_write(db_url):
    async def go():
        service, extras, _ = await service_for(db_url)
        gid, _ = await started(service, "fieldshift", 2)
        msg = await extras.chat(gid, 0, "<script>alert(1)</script>\x00\x1b[2J", "all")
        # as written (escaping is the renderer's), control characters removed
        assert msg["text"] == "<script>alert(1)</script>[2J"
        for text, code in [("x" * (MAX_CHAT_CHARS + 1), "too_large"), ("   ", "bad_request"),
                           (42, "bad_request"), ("y" * 100_000, "too_large")]:
            with pytest.raises(ServiceError) as err:
                await extras.chat(gid, 1, text, "all")
            assert err.value.code == code
        with pytest.raises(ServiceError) as err:
            await extras.chat(gid, None, "hello", "all")
        assert err.value.code == "forbidden"
        with pytest.raises(ServiceError) as err:
            await extras.chat(gid, 0, "hello", "everyone")
        assert err.value.code == "bad_request"
        assert [m["text"] for m in await extras.read_chat(gid, 1)] == [msg["text"]]
    run(go())


def test_chat_survives_a_restart(db_url):
    async def go():
        service, extras, engine = await service_for(db_url)
        gid, _ = await started(service, "fieldshift", 2)
        await extras.chat(gid, 0, "gg", "all")
        again, extras2, _ = await service_for(db_url, engine)
        assert [m["text"] for m in await extras2.read_chat(gid, 1)] == ["gg"]
    run(go())


# -- offers ------------------------------------------------------------------------------------
def test_a_draw_accepted_by_every_other_seat_ends_the_game_drawn(db_url):
    async def go():
        service, extras, engine = await service_for(db_url)
        gid, _ = await started(service, "ctf2187", 4)
        offer = await extras.offer(gid, 1, "draw")
        live = await service.get(gid)
        assert [o["id"] for o in service.state_message(live, 3)["offers"]] == [offer["id"]]
        for seat in (0, 2):
            out = await extras.answer(gid, offer["id"], seat, True)
            assert out["status"] == "open" and not live.over  # seat 3 has not answered
        out = await extras.answer(gid, offer["id"], 3, True)
        await service.settle()
        assert out["status"] == "accepted"
        assert live.over and live.state.outcome.winners == ()
        assert live.entries[-1].text == "draw"
        again, _, _ = await service_for(db_url, engine)  # the draw replays from the log
        assert (await again.get(gid)).state.outcome.reason == "agreement"
    run(go())


def test_one_refusal_closes_a_draw_offer(db_url):
    async def go():
        service, extras, _ = await service_for(db_url)
        gid, _ = await started(service, "fff", 2)
        offer = await extras.offer(gid, 0, "draw")
        assert (await extras.answer(gid, offer["id"], 1, False))["status"] == "declined"
        live = await service.get(gid)
        assert not live.over and service.state_message(live, 0)["offers"] == []
        with pytest.raises(ServiceError) as err:
            await extras.answer(gid, offer["id"], 1, True)
        assert err.value.code == "conflict"
    run(go())


def test_an_undo_taken_back_on_agreement_and_recorded(db_url):
    async def go():
        service, extras, engine = await service_for(db_url)
        gid, _ = await started(service, "fieldshift", 2)
        live = await service.get(gid)
        seat, text = _first(live)
        await service.submit(gid, seat, text)
        offer = await extras.offer(gid, seat, "undo")
        assert offer["count"] == 1
        await extras.answer(gid, offer["id"], 1 - seat, True)
        await service.settle()
        assert live.state.history() == [] and live.version == 2
        assert [e.text for e in live.entries] == [text, "undo 1"]
        again, _, _ = await service_for(db_url, engine)
        assert (await again.get(gid)).state.history() == []
    run(go())


def test_an_offer_lapses_when_the_game_moves_on(db_url):
    async def go():
        service, extras, _ = await service_for(db_url)
        gid, _ = await started(service, "fieldshift", 2)
        live = await service.get(gid)
        seat, text = _first(live)
        await service.submit(gid, seat, text)
        offer = await extras.offer(gid, seat, "undo")
        other, reply = _first(live)
        await service.submit(gid, other, reply)
        assert service.state_message(live, other)["offers"] == []
        with pytest.raises(ServiceError) as err:
            await extras.answer(gid, offer["id"], other, True)
        assert err.value.code == "conflict"
        assert len(live.state.history()) == 2  # nothing taken back
    run(go())


@pytest.mark.parametrize(("game", "seat", "kind", "code", "words"), [
    ("fieldshift", None, "draw", "forbidden", "spectator"),
    ("fieldshift", 0, "resign", "bad_request", "draw, undo"),
    ("fieldshift", 0, "draw", "forbidden", "command"),  # FieldShift: its own 08 request
    ("fieldshift", 0, "undo", "forbidden", "no move"),
])
def test_offers_refused_with_a_reason(db_url, game, seat, kind, code, words):
    async def go():
        service, extras, _ = await service_for(db_url)
        gid, _ = await started(service, game, 2)
        with pytest.raises(ServiceError) as err:
            await extras.offer(gid, seat, kind)
        assert err.value.code == code and words in err.value.message
    run(go())


def test_an_agent_opponent_accepts_no_offer_and_the_maker_cannot_answer(db_url):
    async def go():
        service, extras, _ = await service_for(db_url)
        gid, _ = await started(service, "fff", [{"kind": "human"},
                                                {"kind": "agent", "agent": "random"}])
        with pytest.raises(ServiceError) as err:
            await extras.offer(gid, 0, "draw")
        assert "agent" in err.value.message
        gid, _ = await started(service, "fff", 2)
        offer = await extras.offer(gid, 0, "draw")
        with pytest.raises(ServiceError) as err:
            await extras.answer(gid, offer["id"], 0, True)
        assert err.value.code == "forbidden"
        with pytest.raises(ServiceError) as err:
            await extras.offer(gid, 1, "draw")
        assert err.value.code == "conflict"  # one open draw offer at a time
        for bad in (None, "yes", 1):
            with pytest.raises(ServiceError) as err:
                await extras.answer(gid, offer["id"], 1, bad)
            assert err.value.code == "bad_request"
        with pytest.raises(ServiceError) as err:
            await extras.answer(gid, "nope", 1, True)
        assert err.value.code == "not_found"
    run(go())


def test_an_undo_of_a_move_that_revealed_something_is_refused(db_url):
    """Shift: a move whose coin flip was seen cannot be taken back (core/table.py)."""
    async def go():
        service, extras, _ = await service_for(db_url)
        gid, _ = await started(service, "shift", 2)
        live = await service.get(gid)
        for _ in range(40):  # play until a move shows something (the first few usually do)
            seat, text = _first(live)
            await service.submit(gid, seat, text)
            if table.undo_problem(live.state, 1) is not None:
                break
        else:
            pytest.fail("no Shift move in 40 revealed anything")
        with pytest.raises(ServiceError) as err:
            await extras.offer(gid, seat, "undo")
        assert err.value.code == "forbidden" and "cannot undo" in err.value.message
    run(go())
