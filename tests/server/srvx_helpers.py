"""Helpers for the service-level tests of deadlines, offers and chat: a `GameService` with the
extras installed (no HTTP), on a given database, and games whose seats are all taken."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

from boardct.server.db import make_engine, migrate
from boardct.server.extras import Extras
from boardct.server.service import GameService


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def service_for(url: str, engine: Any = None) -> tuple[GameService, Extras, Any]:
    """A fresh service (a fresh process, as far as the database knows) with the extras."""
    if engine is None:
        engine = make_engine(url)
        await asyncio.to_thread(migrate, engine)
    service = GameService(engine)
    extras = Extras(service, url, poll=0.05)
    extras.hook()
    return service, extras, engine


async def started(service: GameService, game: str, seats: int | list[dict],
                  **kw: Any) -> tuple[str, list[str | None]]:
    """A game with every human seat taken; (game id, token of each seat or None)."""
    if isinstance(seats, int):
        seats = [{"kind": "human", "name": f"P{i + 1}"} for i in range(seats)]
    made = await service.create(game, kw.pop("options", {}), seats, **kw)
    gid = made["game_id"]
    tokens = [s.get("token") for s in made["seats"]]
    for t in tokens:
        if t:
            await service.authorize(gid, t)
    await service.settle()
    return gid, tokens


async def expire(service: GameService, game_id: str) -> None:
    """Move the game's deadline into the past (as if its time had run out)."""
    from sqlalchemy import update
    from sqlalchemy.orm import Session

    from boardct.server.models import GameRow

    past = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)

    def write(session: Session) -> None:
        session.execute(update(GameRow).where(GameRow.id == game_id).values(deadline_at=past))
        session.commit()

    await service.db(write)
    live = await service.get(game_id)
    live.deadline_at = past
