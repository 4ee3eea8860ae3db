"""Deadlines: per-move time limits, and turn deadlines for simultaneous games.

A game may be created with `move_time` (seconds each move may take), `on_timeout` ("loss" or
"default") and `turn_deadline` (seconds a simultaneous turn stays open). The moment the
current deadline falls due is the column `games.deadline_at`, so it lives in the database and
survives a restart; each server process runs one `DeadlineKeeper` task that looks for due
games there and acts through the service's one path for moves (`submit(..., by_server=True)`)
or endings (`end(..., "timeout", seat)`), with the version it read as the compare-and-set
guard: when several processes find the same due game, one acts and the others get `conflict`
and do nothing.

What happens at a deadline:
- Simultaneous games: every seat that still owes orders gets the game's `default` (what its
  rules say a missing order means), one entry per missing order, and the turn is processed;
  the next turn gets a new deadline. `on_timeout` does not apply: the game's rules say what a
  missing order means.
- Other games, `on_timeout="loss"`: the seat to move loses as if it had resigned (the record's
  `resign N` entry, or the game's own concession command).
- Other games, `on_timeout="default"`: the seat to move plays the game's own `default` action
  if its notation has one, else the first action of `legal_actions()` (the game's order, so
  the choice is deterministic and replays from the record like any other move).

When the deadline is set: after every change committed by this process (a service listener),
and when the last free seat is taken: `now + limit` once the game is playing (every human seat
taken), for a sequential game after every move, for a simultaneous game when a new turn opens
(the seats that owe orders are not a subset of those that owed them before). A game that is
open (a seat free) or over has none. The deadline is also in every state message (`deadline`),
pushed to every seat the moment it is set (a deadline set by `arm` too: the clients connected
before the last seat was taken learn it then).

The game's clock settings (server/clocks.py) add: reminders scheduled with each deadline (in
the same transaction) and sent by `tick`; a paused game has no deadline and is not armed; the
seats that let a deadline pass count a miss, and a person who missed the game's `miss_limit`
in a row is replaced by an agent or loses (`miss_action`), with the moderator's log entry.
Simultaneous games with `on_timeout="loss"`: the seats that owe orders concede (the game's own
concession), and what the turn still lacks gets the game's default.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from boardct.core.errors import BoardctError
from boardct.core.moves import MODERATOR_ENTRY
from boardct.server import clocks
from boardct.server.models import GameRow

log = logging.getLogger("boardct.server.deadlines")

POLL = 0.5  # seconds between looks for due games


def from_peer(live: Any, version: int) -> bool:
    """Whether `version` of `live` came from another process (notify.py: this process only
    caught up with it). The process that committed a change sets its deadline and tells the
    others; the others leave both alone. Marked per version, not per task, so that a move
    this process makes afterwards (an agent's reply) is its own again."""
    return version in live.extra.get("peer_versions", ())


def mark_peer(live: Any, first: int, last: int) -> None:
    """Record that versions first..last of `live` were caught up from another process."""
    seen = live.extra.setdefault("peer_versions", set())
    seen.update(range(first, last + 1))
    if len(seen) > 256:  # only the recent ones matter: listeners run right after the change
        for v in sorted(seen)[:-128]:
            seen.discard(v)


def limit_of(live: Any) -> float | None:
    """The seconds the current deadline gives: a turn's for simultaneous games, a move's
    otherwise (either setting serves when the other is not given)."""
    if live.game.simultaneous:
        return live.turn_deadline or live.move_time
    return live.move_time or live.turn_deadline


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def aware(when: dt.datetime | None) -> dt.datetime | None:
    """SQLite gives naive datetimes back; they were stored as UTC."""
    if when is not None and when.tzinfo is None:
        return when.replace(tzinfo=dt.UTC)
    return when


class DeadlineKeeper:
    """Sets deadlines after changes and acts on due ones (see the module docstring)."""

    def __init__(self, service: Any, poll: float = POLL):
        self.service = service
        self.poll = poll
        self._task: asyncio.Task | None = None
        self.processed = 0  # deadlines this process acted on (for tests and logs)

    # -- setting -------------------------------------------------------------------------------
    def next_deadline(self, live: Any, now: dt.datetime) -> tuple[dt.datetime | None, bool]:
        """(the deadline the game should have now, whether it changed)."""
        limit = limit_of(live)
        current = frozenset(live.state.current_players())
        before = live.extra.get("deadline_for")  # (version, seats owing) it was set for
        if clocks.is_paused(live):  # the moderator stopped the clock: nothing changes
            return live.deadline_at, False
        if limit is None or live.over or live.status != "playing" or not current:
            return None, live.deadline_at is not None
        if before is None:  # first look since a (re)start: keep a deadline already set
            if live.deadline_at is not None:
                live.extra["deadline_for"] = (live.version, current)
                return live.deadline_at, False
        else:
            version, seats = before
            if version == live.version and (live.deadline_at is not None or live.extra.get(
                    "deadline_cleared") == version):
                return live.deadline_at, False
            # (the same version with no deadline: the game just started again, its last free
            # seat taken after a moderator gave the seat to a newly invited player)
            if version < live.version and all(MODERATOR_ENTRY.match(e.text)
                                               for e in live.entries[version:live.version]):
                # only moderator's entries since: no move, the clock goes on as it was
                live.extra["deadline_for"] = (live.version, current)
                return live.deadline_at, False
            if live.game.simultaneous and live.deadline_at is not None and current <= seats:
                live.extra["deadline_for"] = (live.version, current)
                return live.deadline_at, False  # the same turn goes on: the same deadline
        live.extra["deadline_for"] = (live.version, current)
        return now + dt.timedelta(seconds=limit), True

    async def loaded(self, live: Any) -> None:
        """`service.on_load`: a game loaded again (after a restart) keeps the deadline it has
        for the position it is in, so the next move sets the next one (without this, the
        first look after a load took the move just made for the one the deadline was for)."""
        if live.deadline_at is not None and "deadline_for" not in live.extra:
            live.extra["deadline_for"] = (live.version,
                                          frozenset(live.state.current_players()))

    async def on_change(self, game_id: str, version: int) -> None:
        """Service listener: after a change this process committed, (re)set the deadline."""
        live = self.service.cached(game_id)
        if live is None or from_peer(live, version):
            return
        if limit_of(live) is None and live.deadline_at is None:
            return
        when, changed = self.next_deadline(live, utcnow())
        if not changed:
            return
        live.deadline_at = when

        def write(session: Session) -> None:
            done = session.execute(update(GameRow).where(GameRow.id == game_id,
                                                         GameRow.version == live.version)
                                   .values(deadline_at=when))
            if getattr(done, "rowcount", 1) == 1:
                clocks.schedule_reminders(session, live, when)
            session.commit()

        await self.service.db(write)

    def state_extra(self, live: Any, seat: int | None) -> dict[str, Any]:
        """The state message's `deadline` (ISO 8601, UTC: `Live.deadline`, none in an ended
        game) and the limits, for every seat."""
        when = aware(live.deadline)
        return {"deadline": when.isoformat(timespec="seconds") if when else None,
                "move_time": live.move_time, "turn_deadline": live.turn_deadline,
                "on_timeout": live.on_timeout} | clocks.state_extra(live, seat)

    # -- acting --------------------------------------------------------------------------------
    async def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="boardct-deadlines")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - one bad round must not stop the deadlines
                log.exception("deadline round failed")
            await asyncio.sleep(self.poll)

    async def due(self) -> list[tuple[str, int]]:
        """(game id, version) of the games whose deadline has passed."""
        now = utcnow()

        def read(session: Session) -> list[tuple[str, int]]:
            rows = session.execute(select(GameRow.id, GameRow.version)
                                   .where(GameRow.deadline_at.is_not(None),
                                          GameRow.deadline_at <= now,
                                          GameRow.status == "playing")
                                   .order_by(GameRow.deadline_at).limit(100))
            return [(g, v) for g, v in rows]

        return await self.service.db(read)

    async def arm(self) -> int:
        """Give a deadline to the playing games with a limit and none set: a game whose last
        free seat was just taken (the clock starts when everyone is there), or one whose
        deadline was set by nobody (a crash between a commit and its listener)."""

        def read(session: Session) -> list[tuple[str, int]]:
            rows = session.execute(select(GameRow.id, GameRow.version)
                                   .where(GameRow.status == "playing",
                                          GameRow.deadline_at.is_(None),
                                          (GameRow.move_time.is_not(None))
                                          | (GameRow.turn_deadline.is_not(None)),
                                          ~clocks.paused(GameRow.id))
                                   .limit(100))
            return [(g, v) for g, v in rows]

        armed = 0
        for game_id, version in await self.service.db(read):
            live = await self.service.get(game_id)
            if live.version != version or live.extra.get("deadline_cleared") == version:
                continue
            when, _changed = self.next_deadline(live, utcnow())
            if when is None:
                continue
            live.deadline_at = due = when  # `due`: a datetime here, as write's default

            def write(session: Session, gid: str = game_id, v: int = version,
                      when: dt.datetime = due, live: Any = live) -> None:
                done = session.execute(update(GameRow).where(GameRow.id == gid,
                                                             GameRow.version == v,
                                                             GameRow.deadline_at.is_(None))
                                       .values(deadline_at=when))
                if getattr(done, "rowcount", 1) == 1:
                    clocks.schedule_reminders(session, live, when)
                session.commit()

            await self.service.db(write)
            # every seat connected now learns it (those there before the last seat was taken)
            await self.service.push_state(game_id)
            armed += 1
        return armed

    async def tick(self) -> int:
        """One look for due games; acts on each. Returns how many were acted on. The reminders
        that fell due are sent first."""
        await self.arm()
        await clocks.fire_reminders(self.service)
        acted = 0
        for game_id, version in await self.due():
            try:
                if await self.act(game_id, version):
                    acted += 1
            except Exception:  # noqa: BLE001 - the next game's deadline still counts
                log.exception("deadline of game %s failed", game_id)
        return acted

    async def act(self, game_id: str, version: int) -> bool:
        """Carry out the due deadline of `game_id`, read at `version`. False: nothing done
        (another process did it, or the game moved on)."""
        from boardct.server.service import ServiceError

        live = await self.service.get(game_id)
        if live.version < version:
            await self.service.refresh(game_id)
        if live.version != version or live.over or clocks.is_paused(live):
            return False
        owing = sorted(live.state.current_players())
        try:
            losers = clocks.lose_on_this_miss(live, owing)
            if losers:  # the game's rule: the K-th deadline missed in a row loses
                await self._missed(live, losers)
                self.processed += 1
                return True
            if live.game.simultaneous:
                if live.on_timeout == "loss":
                    await self._concede(live, owing)
                done = await self._default_orders(live) or live.version > version
            elif live.on_timeout == "default":
                done = await self._default_move(live)
            else:
                seat = live.state.current_players()[0]
                await self.service.end(game_id, "timeout", seat)
                done = True
        except ServiceError as exc:
            if exc.code in ("conflict", "game_over"):
                return False
            raise
        except BoardctError as exc:  # no default action at all: say so, stop looking
            log.warning("deadline of game %s: %s", game_id, exc)
            done = False
        if done:
            self.processed += 1
            log.info("deadline of game %s processed at version %s", game_id, version)
            await self._missed(live, owing)
        else:  # nothing the server can do for it: do not look at it again and again
            await self._clear(live)
        return done

    async def _concede(self, live: Any, owing: list[int]) -> None:
        """`on_timeout="loss"` in a simultaneous turn: each seat that owes orders concedes."""
        for seat in owing:
            if live.over:
                return
            await self.service.end(live.id, "timeout", seat)

    async def _missed(self, live: Any, owing: list[int]) -> None:
        """Count the miss of each seat that let the deadline pass; apply the game's rule to
        those who reached its limit (moderation.py: a moderator's act by the server)."""
        reached = await clocks.count_missed(self.service, live, owing)
        if reached and not live.over:
            from boardct.server import moderation

            for seat in reached:
                if live.over:
                    break
                await moderation.missed_too_often(self.service, live, seat)

    async def _default_orders(self, live: Any) -> bool:
        """Every seat that still owes orders gets the game's default (its missing order)."""
        from boardct.server.service import ServiceError

        done = False
        owing = frozenset(live.state.current_players())
        for seat in sorted(owing):
            for _ in range(1000):  # one entry per missing order; bounded however many
                if live.over or seat not in live.state.current_players():
                    break
                ack = await self.service.submit(
                    live.id, seat, "default", version=live.version, by_server=True,
                    move_id=f"{clocks.SERVER_DEADLINE}{live.version}")
                if ack.get("again"):  # another process made this one: it acts, not this
                    raise ServiceError("conflict", "acted on by another process")
                done = True
                now = frozenset(live.state.current_players())
                if not now <= owing:  # the turn was processed: the next one is not due
                    return True
                owing = now
        return done

    async def _default_move(self, live: Any) -> bool:
        from boardct.server.service import ServiceError

        seat = live.state.current_players()[0]
        ack = await self.service.submit(live.id, seat, default_text(live.state, seat),
                                        version=live.version, by_server=True,
                                        move_id=f"{clocks.SERVER_DEADLINE}{live.version}")
        if ack.get("again"):  # made by another process: that one acted
            raise ServiceError("conflict", "acted on by another process")
        return True

    async def _clear(self, live: Any) -> None:
        live.deadline_at = None
        live.extra["deadline_cleared"] = live.version  # `arm` leaves it alone at this version

        def write(session: Session) -> None:
            session.execute(update(GameRow).where(GameRow.id == live.id)
                            .values(deadline_at=None))
            clocks.schedule_reminders(session, live, None)
            session.commit()

        await self.service.db(write)


def default_text(state: Any, seat: int) -> str:
    """The action a seat plays when its time runs out and `on_timeout` is "default": the
    game's own `default` if its notation has one, else its first legal action."""
    try:
        return state.notation(state.clone().parse("default", seat))
    except BoardctError:
        pass
    actions = state.legal_actions(seat)
    if not actions:
        raise BoardctError("no legal action to play at the deadline")
    return state.notation(actions[0])
