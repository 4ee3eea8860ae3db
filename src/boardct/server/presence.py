"""Who is here: each seat online (a page of it connected to this process) or when it was last
seen, for the pages' player line, as lichess shows it.

The websocket route tells this module when a seat's connection opens and closes (`joined`,
`left`). Every state message carries `presence` (`presence_extra`), and the pages ask for it
on its own, a small answer from memory, every few seconds (`GET /games/{id}/presence`): a
change of who is connected is not a change of the game, so it sends no websocket message (the
protocol's messages stay those of protocol.md). Each seat: `online`, and `last_seen` (ISO
8601, UTC) once it has been connected and left; an agent seat is always online. Nothing here
is secret: who is at the table is public. Kept in memory per process: with several server
processes a seat connected to another one shows as not online here.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from boardct.server.api import service_of
from boardct.server.live import Live, iso, utcnow

KEY = "presence"  # Live.extra key: seat -> [open connections, last seen or None]

router = APIRouter(prefix="/api/v1")


def _seats(live: Live) -> dict[int, list[Any]]:
    seats: dict[int, list[Any]] = live.extra.setdefault(KEY, {})
    return seats


def joined(live: Live, seat: int | None) -> None:
    """A page of `seat` connected (a spectator's changes nothing)."""
    if seat is not None:
        _seats(live).setdefault(seat, [0, None])[0] += 1


def left(live: Live, seat: int | None) -> None:
    """A page of `seat` disconnected: when it was its last, the seat is last seen now."""
    if seat is None:
        return
    entry = _seats(live).setdefault(seat, [1, None])
    entry[0] = max(0, entry[0] - 1)
    if entry[0] == 0:
        entry[1] = utcnow()


def presence_of(live: Live) -> list[dict[str, Any]]:
    """Per seat: online and last seen (module docstring)."""
    seats = _seats(live)
    out = []
    for s in live.seats:
        count, last = seats.get(s.seat, (0, None))
        agent = s.kind != "human"
        out.append({"seat": s.seat, "online": agent or count > 0,
                    "last_seen": None if agent else iso(last)})
    return out


def presence_extra(live: Live, seat: int | None) -> dict[str, Any]:
    """`presence` of a state message (the same for every seat)."""
    return {"presence": presence_of(live)}


@router.get("/games/{game_id}/presence")
async def presence(game_id: str, request: Request) -> dict:
    """{"presence": [{"seat", "online", "last_seen"}]}: who is at the table now; anyone who
    may see the game may ask (nothing in it is secret)."""
    live = await service_of(request).get(game_id)
    return {"presence": presence_of(live)}
