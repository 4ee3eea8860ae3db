"""Who is here: each seat online (a page of it connected to this process) or when it was last
seen, for the pages' player line, as lichess shows it.

The websocket route tells this module when a seat's connection opens and closes (`joined`,
`left`); every connected page then gets a fresh state message, whose `presence` field
(`presence_extra`) lists each seat: `online`, and `last_seen` (ISO 8601, UTC) once it has been
connected and left. An agent seat is always online. Nothing here is secret: who is connected
is public at a table. Kept in memory per process: with several server processes a seat
connected to another process shows as not online here (the pages say "last seen" only for
what this process saw).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardct.server.live import Live, iso, utcnow

if TYPE_CHECKING:  # pragma: no cover
    from boardct.server.service import GameService

KEY = "presence"  # Live.extra key: seat -> [open connections, last seen or None]


def _seats(live: Live) -> dict[int, list[Any]]:
    seats: dict[int, list[Any]] = live.extra.setdefault(KEY, {})
    return seats


async def joined(service: GameService, live: Live, seat: int | None) -> None:
    """A page of `seat` connected (a spectator's changes nothing)."""
    if seat is None:
        return
    entry = _seats(live).setdefault(seat, [0, None])
    entry[0] += 1
    if entry[0] == 1:
        await _push(service, live)


async def left(service: GameService, live: Live, seat: int | None) -> None:
    """A page of `seat` disconnected: when it was its last, the seat is last seen now."""
    if seat is None:
        return
    entry = _seats(live).setdefault(seat, [1, None])
    entry[0] = max(0, entry[0] - 1)
    if entry[0] == 0:
        entry[1] = utcnow()
        await _push(service, live)


async def _push(service: GameService, live: Live) -> None:
    """A fresh state message to every page of the game, in order with the updates (under the
    game's notify lock, as the service's own pushes)."""
    if service.hub is not None:
        async with live.notify_lock:
            await service.hub.send_to(live.id, lambda seat: service.state_message(live, seat))


def presence_extra(live: Live, seat: int | None) -> dict[str, Any]:
    """`presence` of a state message: per seat, online and last seen (module docstring)."""
    seats = _seats(live)
    out = []
    for s in live.seats:
        count, last = seats.get(s.seat, (0, None))
        agent = s.kind != "human"
        out.append({"seat": s.seat, "online": agent or count > 0,
                    "last_seen": None if agent else iso(last)})
    return {"presence": out}
