"""GameService: the games, their seats and the one path every move takes.

A game is stored as its setup (game id, options, seed, seats) and an append-only action log:
the data of a record. In memory each game's live `State` is cached with its version (the
number of log entries). A move is parsed and applied on a clone; then, in ONE transaction,
`UPDATE games SET version = version + 1 WHERE id = ? AND version = ?` (compare-and-set) and the
INSERT of the log entry are committed; only then is the clone swapped in, the move
acknowledged and the update broadcast. A lost compare-and-set (another process moved first)
reloads the game from the database and answers `conflict`; a move id already in the log
answers with its original acknowledgement and applies nothing.

Hook points for the rest of the server (deadlines, offers, chat, several workers):
- `listeners`: async callbacks `(game_id, version)` awaited after every commit;
- `refresh(game_id)`: load entries newer than the cached version (another worker's) and push
  them to this process's clients;
- `submit(game_id, seat, text, move_id=None, version=None, by_server=False)`: the one path of
  every move, whoever makes it (a person, an agent, a deadline);
- `end(game_id, outcome_kind, seat)`: resign-like endings, recorded as the record's
  "resign N" entry (or the game's own concession command).
- `state_extras`, `state_parts`: what other modules and the games' own server modules
  (server/ext.py) add to each seat's state message.
Unfinished games' seeds never leave this module except into agent worker processes.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, cast

from sqlalchemy import Connection, CursorResult, Engine, select, update
from sqlalchemy.orm import Session

from boardct.core import moves, registry
from boardct.core.errors import BoardctError, IllegalAction
from boardct.core.game import Event, Setup, State
from boardct.core.inputs import shown
from boardct.core.records import MAX_NAME, MAX_SEAT, Record
from boardct.core.rng import fresh_seed
from boardct.server import recent
from boardct.server.agents import check_spec
from boardct.server.live import (
    STATUS_OPEN,
    STATUS_OVER,
    STATUS_PLAYING,
    Entry,
    Live,
    Seat,
    ServiceError,
    iso,
    new_game_id,
    new_token,
    result_json,
    seen_lines,
    token_hash,
    unprintable,
    utcnow,
)
from boardct.server.messages import StatePart, state_message, update_state
from boardct.server.models import ActionRow, GameRow, SeatRow
from boardct.server.writes import MoveWrite, MoveWriter, write_move

log = logging.getLogger("boardct.server")

MAX_MOVE_TEXT = 16 * 1024  # characters of one action's text (far above any game's command)
MAX_MOVE_ID = 100
# the ids of the server's own moves start so (agents: "agent:<seat>:<version>"; deadlines
# and other server modules: "server:..."); a client may not use them
SERVER_MOVE_IDS = ("agent:", "server:")
DB_THREADS = 16  # database calls at once, besides SQLite (db.POOL_SIZE matches it)
MAX_CACHED = 2000  # games kept in memory (the least recently used unwatched ones leave beyond)
GAME_IDLE = 600.0  # seconds unused after which an unwatched game leaves memory (`drop_idle`)
END_KINDS = ("resign", "timeout")

Listener = Callable[[str, int], Awaitable[None]]


class GameService:
    """Games, seats and moves over a database `engine` (see the module docstring).

    `agents` (an `agents.AgentRunner`) plays agent seats; `hub` (a `hub.Hub`) pushes updates
    to connected clients. Both are optional so the service can be used alone."""

    def __init__(self, engine: Engine, agents: Any = None, hub: Any = None):
        self.engine = engine
        self.agents = agents
        self.hub = hub
        self.listeners: list[Listener] = []
        # awaited before a change is pushed to the pages (the same `(game_id, version)`), so
        # what they set is in the pushed messages: the deadline the next move has
        self.before_push: list[Listener] = []
        self.max_cached = MAX_CACHED
        self.game_idle = GAME_IDLE
        # functions (live, seat) -> dict of fields added to every state message for that
        # seat (offers, chat, deadlines); each must use only what that seat may know
        self.state_extras: list[Callable[[Live, int | None], dict[str, Any]]] = []
        # game id -> that game's own parts of its state messages (its server module's
        # `state_part`s, server/ext.py), under the message's `parts`; the same rule holds
        self.state_parts: dict[str, list[StatePart]] = {}
        # the games in memory, least recently used first, and when each was last used
        self._live: OrderedDict[str, Live] = OrderedDict()
        self._used: dict[str, float] = {}
        # called with each game loaded from the database (other modules' per-game data)
        self.on_load: list[Callable[[Live], Awaitable[None]]] = []
        # websocket message types other modules answer ("offer", "answer", "chat"):
        # type -> async handler(service, live, client, message); raise ServiceError to refuse
        self.ws_handlers: dict[str, Callable[..., Awaitable[None]]] = {}
        # called in the database thread, inside the transaction of the entry that ends a
        # game, with (connection, live, ended state): what must change exactly once with the
        # end (the ratings) commits or rolls back with it
        self.on_end: list[Callable[[Connection, Live, State], None]] = []
        # the notices' outbox (server/outbox.py), or None: its rows are written in the
        # transaction of the move that causes them
        self.outbox: Any = None
        # checks (live, seat, by_server) every move passes before it is tried: raise a
        # ServiceError to refuse it (a paused game: server/clocks.py)
        self.move_checks: list[Callable[[Live, int, bool], None]] = []
        # what a rematch keeps of its game beyond options and seats (that it is rated): each
        # hook (finished game) -> None or (rows to add in the creating transaction, `extra`)
        self.rematch_carry: list[Callable[[Live], tuple[Callable[[Session, str], None],
                                                        dict[str, Any]] | None]] = []
        self._load_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task] = set()
        # The database calls' threads. SQLite takes one writer at a time: several writer
        # threads only meet in its busy handler, which sleeps in steps of up to 100 ms (that
        # was the p99 of the load benchmark), so with SQLite every call runs on one thread,
        # in order. PostgreSQL takes concurrent transactions and most of a call is waiting
        # for its commit to reach the disk: DB_THREADS threads (the engine's pool is as big).
        sqlite = engine.dialect.name == "sqlite"
        self._executor = concurrent.futures.ThreadPoolExecutor(
            1 if sqlite else DB_THREADS, "boardct-db")
        # SQLite's moves that wait for that one thread are committed together (writes.py)
        self.writer = MoveWriter(engine, self._executor) if sqlite else None

    # -- database helpers ----------------------------------------------------------------------
    async def db(self, fn: Callable[[Session], Any]) -> Any:
        """Run `fn(session)` in a worker thread (the database never blocks the event loop)."""

        def run() -> Any:
            with Session(self.engine, expire_on_commit=False) as session:
                return fn(session)

        return await asyncio.get_running_loop().run_in_executor(self._executor, run)

    async def db_conn(self, fn: Callable[[Connection], Any]) -> Any:
        """Run `fn(connection)` in the database thread, without an ORM session (the move's
        write: Core statements only)."""

        def run() -> Any:
            with self.engine.connect() as conn:
                return fn(conn)

        return await asyncio.get_running_loop().run_in_executor(self._executor, run)

    def cached(self, game_id: str) -> Live | None:
        """The game if this process holds it in memory (None: not loaded here)."""
        return self._live.get(game_id)

    def cached_games(self) -> list[Live]:
        """Every game this process holds in memory."""
        return list(self._live.values())

    def close(self) -> None:
        """Finish the database calls under way and stop the database thread (at shutdown)."""
        self._executor.shutdown(wait=True)

    # -- creating ------------------------------------------------------------------------------
    async def create(self, game_id: str, options: dict[str, Any], seats: list[dict[str, Any]],
                     public: bool = False, move_time: float | None = None,
                     on_timeout: str | None = None, turn_deadline: float | None = None,
                     names_rotated_from: str | None = None, creator_seat: int | None = None,
                     account: int | None = None,
                     rows: Callable[[Session, str], None] | None = None,
                     extra: dict[str, Any] | None = None) -> dict:
        """A new game. `seats`: [{"kind": "human", "name": "Ann", "open": false} |
        {"kind": "agent", "agent": "mcts:time=1"}]; `open`: the lobby offers the seat to
        anyone (in a public game). `creator_seat`: the creator's own seat, theirs from now on
        (taken at creation, so never offered), and `account`'s if the creator is signed in.
        `rows(session, game_id)`: other modules' rows of the new game (rated), added in the
        transaction that creates it; `extra`: their per-game data in memory (`Live.extra`).
        Returns {"game_id", "seats": [{"seat", "kind", "name", "token"?, "invite"?}]}: the
        only time tokens and invite codes are seen in clear."""
        try:
            game = registry.get(game_id)
        except BoardctError as exc:
            raise ServiceError("bad_request", str(exc)) from None
        if not isinstance(options, dict):
            raise ServiceError("bad_request", "options: an object of NAME: value")
        for name, value in options.items():
            if unprintable(name) or len(name) > MAX_NAME or (
                    isinstance(value, str) and unprintable(value, lines=True)):
                raise ServiceError("bad_request", f"options: {shown(name[:40])}: printable "
                                                  "text only")
        try:
            game.check_remote_options(options)
            resolved = game.resolve_options(options)
        except BoardctError as exc:
            raise ServiceError("bad_request", str(exc)) from None
        if not isinstance(seats, list) or not game.min_players <= len(seats) <= game.max_players:
            raise ServiceError("bad_request", f"{game.id} is played by {game.min_players}-"
                               f"{game.max_players} seats")
        made: list[Seat] = []
        for i, spec in enumerate(seats):
            made.append(self._seat_from_json(i, spec))
        if creator_seat is not None:
            if (not isinstance(creator_seat, int) or isinstance(creator_seat, bool)
                    or not 0 <= creator_seat < len(made) or made[creator_seat].kind != "human"):
                raise ServiceError("bad_request", "creator_seat: the number of a person's "
                                                  "seat (0 for the first), or null")
            mine = made[creator_seat]
            mine.claimed, mine.open, mine.account = True, False, account
        names = tuple(s.name or (s.agent or "") for s in made)
        seed = fresh_seed()
        created = utcnow().replace(microsecond=0)
        setup = Setup(seed, resolved, names, iso(created) or "")
        try:
            state = game.initial_state(setup)
        except BoardctError as exc:
            raise ServiceError("bad_request", str(exc)) from None
        out_seats = []
        for s in made:
            shown_seat: dict[str, Any] = {"seat": s.seat, "kind": s.kind, "name": s.name}
            if s.kind == "human":
                token, invite = new_token(), new_token()
                s.token_hash, s.invite_hash = token_hash(token), token_hash(invite)
                shown_seat |= {"token": token, "invite": invite}
            else:
                shown_seat["agent"] = s.agent
            out_seats.append(shown_seat)
        gid = new_game_id()
        live = Live(gid, game, setup, bool(public), created, made, state, 0,
                    move_time=move_time, on_timeout=on_timeout, turn_deadline=turn_deadline)
        live.result = result_json(state)

        def insert(session: Session) -> None:
            session.add(GameRow(id=gid, game=game.id, options=resolved, seed=str(seed),
                                names=list(names), public=bool(public), status=live.status,
                                version=0, result=None, created=created, move_time=move_time,
                                on_timeout=on_timeout, turn_deadline=turn_deadline))
            session.flush()
            for s in made:
                session.add(SeatRow(game=gid, seat=s.seat, kind=s.kind, agent=s.agent,
                                    name=s.name, token_hash=s.token_hash,
                                    invite_hash=s.invite_hash,
                                    claimed=s.kind == "agent" or s.claimed,
                                    account=s.account, open=s.open))
            if rows is not None:
                session.flush()
                rows(session, gid)
            session.commit()

        await self.db(insert)
        if extra:
            live.extra.update(extra)
        self._keep(live)
        await self.after_change(live)
        return {"game_id": gid, "seats": out_seats}

    def _seat_from_json(self, i: int, spec: Any) -> Seat:
        if not isinstance(spec, dict):
            raise ServiceError("bad_request", f"seats[{i}]: an object {{\"kind\": \"human\", "
                                              "\"name\": ...} or {\"kind\": \"agent\", "
                                              "\"agent\": \"random\"}")
        kind = spec.get("kind", "human")
        name = spec.get("name") or ""
        if not isinstance(name, str) or len(name) > MAX_NAME or unprintable(name):
            raise ServiceError("bad_request", f"seats[{i}].name: printable text of at most "
                                              f"{MAX_NAME} characters")
        if kind == "human":
            offered = spec.get("open", False)
            if not isinstance(offered, bool):
                raise ServiceError("bad_request", f"seats[{i}].open: true or false")
            return Seat(i, "human", None, name.strip(), False, open=offered)
        if kind != "agent":
            raise ServiceError("bad_request", f"seats[{i}].kind: \"human\" or \"agent\", not "
                                              f"{shown(str(kind))}")
        agent = spec.get("agent") or "random"
        if not isinstance(agent, str) or len(agent) > MAX_SEAT or not agent.isprintable():
            raise ServiceError("bad_request", f"seats[{i}].agent: an agent spec such as "
                                              "\"random\" or \"mcts:time=1\"")

        problem = check_spec(agent)
        if problem:
            raise ServiceError("bad_request", f"seats[{i}].agent: {problem}")
        return Seat(i, "agent", agent, name.strip() or f"Computer ({agent})", True)

    # -- loading -------------------------------------------------------------------------------
    async def get(self, game_id: str) -> Live:
        """The live game, rebuilt from the database on first access (after a restart, or
        after it left memory: its setup and every log entry replayed). Unknown: `not_found`."""
        live = self._live.get(game_id)
        if live is not None:
            self._live.move_to_end(game_id)
            self._used[game_id] = time.monotonic()
            return live
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= 32 \
                or unprintable(game_id):
            raise ServiceError("not_found", "no such game")
        async with self._load_lock:
            cached = self._live.get(game_id)
            if cached is not None:
                return cached
            live = await self._load(game_id)
            self._keep(live)
        for hook in list(self.on_load):
            try:
                await hook(live)
            except Exception:  # another module's data; the game itself is loaded
                log.exception("after loading game %s", game_id)
        await self.after_change(live, notify=False)  # an agent to move after a restart
        return live

    def _keep(self, live: Live) -> None:
        """Hold `live` in memory (the most recently used), within `max_cached`."""
        self._live[live.id] = live
        self._live.move_to_end(live.id)
        self._used[live.id] = time.monotonic()
        self._evict()

    def _droppable(self, live: Live) -> bool:
        """Whether `live` may leave memory now: nobody watches it in this process and no
        move, load or broadcast of it is under way (its log is in the database: it comes back
        as it was when asked for)."""
        watched = self.hub is not None and self.hub.count(live.id)
        return not watched and not live.lock.locked() and not live.notify_lock.locked()

    def _drop(self, game_id: str) -> None:
        del self._live[game_id]
        self._used.pop(game_id, None)

    def _evict(self) -> None:
        """Keep at most `max_cached` games in memory: the least recently used games nobody
        watches leave first, finished or not (memory is bounded whatever the number of
        games; one is loaded again from the database when asked for)."""
        excess = len(self._live) - self.max_cached
        if excess <= 0:
            return
        for gid in list(self._live):
            if self._droppable(self._live[gid]):
                self._drop(gid)
                excess -= 1
                if excess <= 0:
                    return

    def drop_idle(self) -> int:
        """Drop from memory every unwatched game unused for `game_idle` seconds (the app
        calls it now and then). Returns how many left."""
        now = time.monotonic()
        gone = 0
        for gid in list(self._live):
            if now - self._used.get(gid, now) < self.game_idle:
                break  # least recently used first: the rest were used later
            if self._droppable(self._live[gid]):
                self._drop(gid)
                gone += 1
        return gone

    async def _load(self, game_id: str) -> Live:
        def read(session: Session):
            row = session.get(GameRow, game_id)
            if row is None:
                return None
            seats = session.scalars(select(SeatRow).where(SeatRow.game == game_id)
                                    .order_by(SeatRow.seat)).all()
            actions = session.scalars(select(ActionRow).where(ActionRow.game == game_id)
                                      .order_by(ActionRow.seq)).all()
            return row, list(seats), list(actions)

        got = await self.db(read)
        if got is None:
            raise ServiceError("not_found", "no such game")
        row, seat_rows, actions = got
        game = registry.get(row.game)
        setup = Setup(int(row.seed), dict(row.options), tuple(row.names),
                      iso(row.created) or "")
        state = game.initial_state(setup)
        seats = [Seat(s.seat, s.kind, s.agent, s.name, s.claimed, s.token_hash, s.invite_hash,
                      s.account, s.open) for s in seat_rows]
        live = Live(row.id, game, setup, row.public, row.created, seats, state, 0,
                    rematch=row.rematch, deadline_at=row.deadline_at, move_time=row.move_time,
                    on_timeout=row.on_timeout, turn_deadline=row.turn_deadline)
        self._replay_into(live, actions)
        return live

    def _replay_into(self, live: Live, actions: Sequence[Any]) -> None:
        """Apply log rows (with `seq`, `seat`, `text`, `move_id`: ActionRows or plain rows)."""
        for i, a in enumerate(actions):
            if a.seq != live.version + 1:
                raise RuntimeError(f"game {live.id}: log entry {a.seq} after {live.version}")
            # the newest entries' marks for the pages (recent.py): a clone for those only
            before = live.state.clone() if len(actions) - i <= recent.RELOADED else None
            done = moves.apply_entry(live.state, a.text)
            live.state, events = done.state, done.events
            live.version = a.seq
            live.add_entry(Entry(a.seq, a.seat, a.text, a.move_id,
                                 seen_lines(live.state, events, live.players())))
            if before is not None:
                recent.note_entry(live, live.entries[-1], before, events)
        live.result = result_json(live.state)

    async def refresh(self, game_id: str) -> int:
        """Load the log entries newer than the cached version (made by another worker
        process), apply them, and push the updates to this process's clients. Returns how many
        were new. A game not cached here needs nothing: it is loaded fresh when asked for."""
        live = self._live.get(game_id)
        if live is None:
            return 0
        async with live.lock:
            before = live.version
            await self._catch_up(live)
            new = live.version - before
        if new:
            await self.after_change(live, first=before + 1)
        return new

    async def apply_peer_entry(self, live: Live, version: int, seat: int | None, text: str,
                               move_id: str | None) -> bool:
        """Apply the log entry `version` that another process committed and notified (notify.py)
        when `live` is at the version before it: what `refresh` does, without reading the
        database. False, with nothing changed: another version by now, or an entry this
        process cannot apply (`refresh` reads the log then)."""
        async with live.lock:
            if live.version + 1 != version or (seat is not None
                                               and not 0 <= seat < len(live.seats)):
                return False
            before = live.state
            try:  # on a copy: nothing of `live` changes unless it all works
                done = moves.apply_entry(before.clone(), text)
                lines = seen_lines(done.state, done.events, live.players())
            except Exception:  # not applicable here: the database says what happened
                log.exception("a notified entry of game %s did not apply", live.id)
                return False
            live.state, live.version = done.state, version
            live.result = result_json(done.state)
            live.add_entry(Entry(version, seat, text, move_id, lines))
            recent.note_entry(live, live.entries[-1], before, done.events)
        await self.after_change(live, first=version)
        return True

    async def reload_seats(self, live: Live) -> None:
        """Read `live`'s seats again (another process changed them)."""
        async with live.lock:
            await self._reload_seats(live)

    async def _catch_up(self, live: Live) -> None:
        """Under the game's lock: apply every entry after the cached version."""
        since = live.version

        def read(session: Session):
            # plain rows, not ORM objects: with several workers this runs in every other
            # process after each move
            seats = session.execute(select(SeatRow.seat, SeatRow.claimed, SeatRow.name,
                                           SeatRow.token_hash, SeatRow.invite_hash,
                                           SeatRow.account, SeatRow.open)
                                    .where(SeatRow.game == live.id)).all()
            actions = session.execute(select(ActionRow.seq, ActionRow.seat, ActionRow.text,
                                             ActionRow.move_id)
                                      .where(ActionRow.game == live.id, ActionRow.seq > since)
                                      .order_by(ActionRow.seq)).all()
            return list(seats), list(actions)

        seats, actions = await self.db(read)
        self._set_seats(live, seats)
        self._replay_into(live, actions)

    @staticmethod
    def _set_seats(live: Live, rows: Sequence[Any]) -> None:
        for s in rows:
            if s.seat < len(live.seats):
                mine = live.seats[s.seat]
                mine.claimed, mine.name = s.claimed, s.name
                mine.token_hash, mine.invite_hash = s.token_hash, s.invite_hash
                mine.account, mine.open = s.account, s.open

    async def _reload_seats(self, live: Live) -> None:
        def read(session: Session) -> list[SeatRow]:
            return list(session.scalars(select(SeatRow).where(SeatRow.game == live.id)))

        self._set_seats(live, await self.db(read))

    async def resume_agents(self, limit: int = 1000) -> int:
        """At start-up: load the unfinished games that have an agent seat, so an agent whose
        turn it was when the server stopped moves without waiting for someone to look.
        Returns how many games were loaded."""

        def read(session: Session) -> list[str]:
            q = (select(GameRow.id).join(SeatRow, SeatRow.game == GameRow.id)
                 .where(GameRow.status != STATUS_OVER, SeatRow.kind == "agent")
                 .distinct().limit(limit))
            return list(session.scalars(q))

        ids = await self.db(read)
        for gid in ids:
            try:
                await self.get(gid)
            except Exception:  # one broken game never stops the server from starting
                log.exception("game %s could not be loaded", gid)
        return len(ids)

    # -- seats ---------------------------------------------------------------------------------
    async def authorize(self, game_id: str, token: str | None, account: int | None = None,
                        choice: int | None = None) -> tuple[Live, int | None]:
        """The game and the seat `token` holds in it (None: a spectator). The first use of a
        seat's creation token takes the seat (its invite is then void), so the lobby no longer
        offers it. Without a token, a signed-in `account` acts for its seat in the game (of
        several: `choice`, else the first; none: a spectator)."""
        live = await self.get(game_id)
        if not token and account is not None:
            seat = self.account_seat(live, account, choice)
            if seat is None:  # it may have come into the account through another process
                await self._reload_seats(live)
                seat = self.account_seat(live, account, choice)
        else:
            try:
                seat = self.seat_of(live, token)
            except ServiceError:
                # the seat may have been claimed through another server process: read the
                # seats again before refusing
                await self._reload_seats(live)
                seat = self.seat_of(live, token)
        if seat is not None and not live.seats[seat].claimed:
            mine = live.seats[seat]

            def take(session: Session) -> None:
                session.execute(update(SeatRow).where(SeatRow.game == live.id,
                                                      SeatRow.seat == seat)
                                .values(claimed=True, invite_hash=None))
                self._set_status(session, live.id)
                session.commit()

            await self.db(take)
            mine.claimed, mine.invite_hash = True, None
            if live.status == STATUS_PLAYING and (live.move_time is not None
                                                  or live.turn_deadline is not None):
                # the last seat taken starts the clock: every page connected before hears
                # of its deadline now (set before the push), not at the next move
                await self.after_change(live, resync=True)
        return live, seat

    @staticmethod
    def account_seat(live: Live, account: int, choice: int | None = None) -> int | None:
        """The seat of `live` that `account` holds (`choice` among several; None: none). A
        `choice` the account does not hold is `forbidden`."""
        held = [s.seat for s in live.seats if s.account == account]
        if choice is not None:
            if choice not in held:
                raise ServiceError("forbidden", f"seat {choice} of this game is not yours")
            return choice
        return held[0] if held else None

    @staticmethod
    def _set_status(session: Session, game_id: str) -> None:
        """"open" while a person's seat is free, then "playing" (an ended game stays over)."""
        free = session.scalars(select(SeatRow.seat).where(SeatRow.game == game_id,
                                                          SeatRow.kind == "human",
                                                          SeatRow.claimed.is_(False))).first()
        session.execute(update(GameRow).where(GameRow.id == game_id,
                                              GameRow.status != STATUS_OVER)
                        .values(status=STATUS_OPEN if free is not None else STATUS_PLAYING))

    def seat_of(self, live: Live, token: str | None) -> int | None:
        """The seat `token` holds in `live` (None: no token, a spectator). A token that holds
        no seat of this game is `unauthorized`."""
        if token is None or token == "":
            return None
        if not isinstance(token, str) or len(token) > 200:
            raise ServiceError("unauthorized", "not a seat token of this game")
        h = token_hash(token)
        for s in live.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return s.seat
        raise ServiceError("unauthorized", "not a seat token of this game")

    async def claim(self, code: str, name: str | None, account: int | None = None) -> dict:
        """Take the seat an invite code names: a new token for it, the creation token revoked,
        the invite used up; the seat is `account`'s (None: the guest's, by its token).
        Returns {"game_id", "seat", "token"}."""
        if not isinstance(code, str) or not 1 <= len(code) <= 200:
            raise ServiceError("not_found", "no such invite")
        if name is not None and (not isinstance(name, str) or len(name) > MAX_NAME
                                 or not name.isprintable()):
            raise ServiceError("bad_request", f"name: printable text of at most {MAX_NAME} "
                                              "characters")
        h = token_hash(code)
        token = new_token()

        def take(session: Session):
            row = session.scalars(select(SeatRow).where(SeatRow.invite_hash == h)).first()
            if row is None:
                return None
            values: dict[str, Any] = {"token_hash": token_hash(token), "invite_hash": None,
                                      "claimed": True, "account": account, "open": False}
            if name and name.strip():
                values["name"] = name.strip()
            # an UPDATE's result is a cursor result (its row count)
            done = cast("CursorResult[Any]", session.execute(
                update(SeatRow).where(SeatRow.game == row.game, SeatRow.seat == row.seat,
                                      SeatRow.invite_hash == h).values(**values)))
            if done.rowcount != 1:  # claimed by someone else a moment ago
                session.rollback()
                return None
            self._set_status(session, row.game)
            session.commit()
            return row.game, row.seat

        got = await self.db(take)
        if got is None:
            raise ServiceError("not_found", "no such invite (or it was already used)")
        gid, seat = got
        live = self._live.get(gid)
        if live is not None:
            async with live.lock:
                await self._catch_up(live)
            await self.after_change(live, resync=True)
            self.tell_seat_taken(live, seat, "invite")
        return {"game_id": gid, "seat": seat, "token": token}

    def tell_seat_taken(self, live: Live, seat: int, how: str) -> None:
        """Tell every client of the game that `seat` was taken (`how`: "lobby", "invite"),
        after the fresh state messages of `after_change` (the game's notify lock keeps the
        order). The other players see who joined, and how."""
        if self.hub is None:
            return
        hub = self.hub
        message = {"type": "seat_taken", "seat": seat, "name": live.seats[seat].name,
                   "how": how}

        async def tell() -> None:
            async with live.notify_lock:
                await hub.send_to(live.id, lambda _viewer: message)

        task = asyncio.get_running_loop().create_task(tell())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def take_seat(self, game_id: str, seat: Any, name: str | None,
                        account: int | None = None) -> dict:
        """Take a free person's seat of a PUBLIC game from the lobby, without its invite: a
        new token for it, the seat's invite and creation token void (as after a claim).
        Refused: a private game (its seats go by invite only), a seat its creator did not
        open, an agent's seat, a seat already taken, a game over. The seat is `account`'s
        (None: the guest's, by its token); the other players are told it was taken. Two
        people racing for one seat: the update is guarded by the seat still being unclaimed,
        so one wins and the other is told it is taken. Returns {"game_id", "seat", "token"}."""
        if name is not None and (not isinstance(name, str) or len(name) > MAX_NAME
                                 or not name.isprintable()):
            raise ServiceError("bad_request", f"name: printable text of at most {MAX_NAME} "
                                              "characters")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ServiceError("bad_request", "seat: a whole number")
        live = await self.get(game_id)  # not_found for an unknown game
        if not 0 <= seat < len(live.seats):
            raise ServiceError("not_found", f"no seat {seat} in this game")
        return await self._take_free_seat(live, seat, name, public_only=True, account=account)

    async def _take_free_seat(self, live: Live, seat: int, name: str | None,
                              public_only: bool, account: int | None = None) -> dict:
        """A new token for `seat` of `live` if it is a person's seat nobody has taken (its
        invite and creation token void, as after a claim). The update is guarded by the seat
        still being unclaimed, in the database: two takers racing, in one process or two,
        one wins and the other is told it is taken. `public_only`: refuse a private game (the
        lobby's Join, which also needs the seat open); a rematch seat is taken by the player
        who held the seat before it."""
        token = new_token()

        def take(session: Session) -> str | None:
            game = session.get(GameRow, live.id)
            if game is None or (public_only and not game.public):
                return "private"
            if game.status == STATUS_OVER:
                return "over"
            row = session.get(SeatRow, (live.id, seat))
            if row is None or row.kind != "human":
                return "agent"
            if public_only and not row.open:
                return "taken" if row.claimed else "closed"
            values: dict[str, Any] = {"token_hash": token_hash(token), "invite_hash": None,
                                      "claimed": True, "account": account, "open": False}
            if name and name.strip():
                values["name"] = name.strip()
            # an UPDATE's result is a cursor result (its row count)
            done = cast("CursorResult[Any]", session.execute(
                update(SeatRow).where(SeatRow.game == live.id, SeatRow.seat == seat,
                                      SeatRow.kind == "human", SeatRow.claimed.is_(False))
                .values(**values)))
            if done.rowcount != 1:  # taken (by invite or by another visitor) already
                session.rollback()
                return "taken"
            self._set_status(session, live.id)
            session.commit()
            return None

        problem = await self.db(take)
        if problem == "private":
            raise ServiceError("forbidden", "a private game's seats are taken by invite only")
        if problem == "over":
            raise ServiceError("game_over", "the game is over")
        if problem == "agent":
            raise ServiceError("forbidden", f"seat {seat} is played by the server")
        if problem == "taken":
            raise ServiceError("conflict", f"seat {seat} is already taken")
        if problem == "closed":
            raise ServiceError("forbidden", f"seat {seat} is not open to the lobby: its player "
                                            "is invited by the game's creator")
        async with live.lock:
            await self._catch_up(live)  # the seats too
        await self.after_change(live, resync=True)
        if public_only:
            self.tell_seat_taken(live, seat, "lobby")
        return {"game_id": live.id, "seat": seat, "token": token}

    # -- moves ---------------------------------------------------------------------------------
    async def submit(self, game_id: str, seat: int | None, text: str,
                     move_id: str | None = None, version: int | None = None,
                     by_server: bool = False) -> dict:
        """The one path every move takes (people, agents, deadlines): `seat` plays `text` in
        the game's notation. `version`: the version the mover saw (stale: `conflict`).
        `move_id`: a client's id for the move; one already applied returns its original
        acknowledgement and applies nothing. `by_server`: the server itself moves for the seat
        (an agent, a deadline's default action); otherwise agent seats cannot be moved for.
        Returns {"ack": true, "version", "events"} once the move is committed."""
        if seat is None:
            raise ServiceError("forbidden", "a spectator cannot act: send a seat token")
        if not isinstance(text, str) or not text.strip():
            raise ServiceError("bad_request", "text: the action in the game's notation")
        if len(text) > MAX_MOVE_TEXT:
            raise ServiceError("too_large", f"text: longer than {MAX_MOVE_TEXT:,} characters")
        if unprintable(text, lines=True):
            raise ServiceError("bad_request", "text: printable characters only (no NUL or "
                                              "other control characters)")
        self._check_move_id(move_id)
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            raise ServiceError("bad_request", "version: a whole number")
        if not by_server and move_id is not None and move_id.startswith(SERVER_MOVE_IDS):
            raise ServiceError("bad_request", "move_id: ids starting agent: or server: are "
                                              "the server's own")
        live = await self.get(game_id)
        async with live.lock:
            first = live.version + 1
            if not isinstance(seat, int) or not 0 <= seat < len(live.seats):
                raise ServiceError("bad_request", f"no seat {seat}")
            again = self._again(live, move_id, seat)
            if again is not None:
                return again
            if not by_server and live.seats[seat].kind != "human":
                raise ServiceError("forbidden", f"seat {seat} is played by the server")
            self._check_turn(live, seat, version, by_server)
            for check in self.move_checks:
                check(live, seat, by_server)
            before = live.state
            try:
                done = moves.submit(before.clone(), seat, text)
            except IllegalAction as exc:
                raise ServiceError("rejected", exc.reason, exc.rule) from None
            except BoardctError as exc:
                raise ServiceError("rejected", str(exc)) from None
            ack = await self.commit_and_tell(live, first, seat, done.entry, move_id,
                                              done.state, done.events)
            if live.entries and live.entries[-1].version == first and live.state is done.state:
                recent.note(live, live.entries[-1], before, done.action, done.events)
        await self.after_change(live, first=first)
        return ack

    async def commit_and_tell(self, live: Live, first: int, seat: int, entry: str,
                               move_id: str | None, trial: State, events: list[Event]) -> dict:
        """`commit`; when it loses the race, the entries it caught up on still reach this
        process's clients."""
        try:
            return await self.commit(live, seat, entry, move_id, trial, events)
        except ServiceError:
            if live.version >= first:
                await self.after_change(live, first=first)
            raise

    async def end(self, game_id: str, outcome_kind: str, seat: int, move_id: str | None = None
                  ) -> dict:
        """End the game for `seat` (resign-like endings: "resign", "timeout"): the game's own
        concession command where it has one (`moves.resign`), else the record's "resign N"
        entry. Returns the acknowledgement as `submit` does."""
        if outcome_kind not in END_KINDS:
            raise ServiceError("bad_request", f"an ending is one of {', '.join(END_KINDS)}")
        self._check_move_id(move_id)
        live = await self.get(game_id)
        async with live.lock:
            first = live.version + 1
            if not isinstance(seat, int) or not 0 <= seat < len(live.seats):
                raise ServiceError("bad_request", f"no seat {seat}")
            again = self._again(live, move_id, seat)
            if again is not None:
                return again
            if live.over:
                raise ServiceError("game_over", "the game is over")
            try:
                done = moves.resign(live.state.clone(), seat)
            except IllegalAction as exc:
                raise ServiceError("rejected", exc.reason, exc.rule) from None
            except BoardctError as exc:
                raise ServiceError("rejected", str(exc)) from None
            ack = await self.commit_and_tell(live, first, seat, done.entry, move_id,
                                              done.state, done.events)
        await self.after_change(live, first=first)
        return ack

    def _check_move_id(self, move_id: Any) -> None:
        if move_id is not None and (not isinstance(move_id, str) or not move_id
                                    or len(move_id) > MAX_MOVE_ID or unprintable(move_id)):
            raise ServiceError("bad_request", f"move_id: printable text of 1-{MAX_MOVE_ID} "
                                              "characters")

    def _again(self, live: Live, move_id: str | None, seat: int | None) -> dict | None:
        """The original acknowledgement of `seat`'s move `move_id` if it was applied. The id
        of another seat's move is refused: its acknowledgement is that seat's to read."""
        if move_id is None:
            return None
        e = live.entry_by_move_id(move_id)
        if e is None:
            return None
        if e.seat != seat:
            raise ServiceError("conflict", "this move id names another seat's move")
        return {"ack": True, "version": e.numbers.get(seat, e.version),
                "events": list(e.lines.get(seat, ())), "again": True}

    def _check_turn(self, live: Live, seat: int, version: int | None,
                    by_server: bool = False) -> None:
        """Refuse a move the seat may not make now. `version` is the version the mover saw:
        as the seat is shown versions (`Live.seen_version`) for a client, the game's own for
        the server's moves (deadlines)."""
        if live.over:
            raise ServiceError("game_over", "the game is over")
        if not 0 <= seat < len(live.seats):
            raise ServiceError("bad_request", f"no seat {seat}")
        mine = live.version if by_server else live.seen_version(seat)
        if version is not None and version != mine:
            raise ServiceError("conflict", f"the game is at version {mine}, not "
                                           f"{version}: resync")

    async def commit(self, live: Live, seat: int | None, entry: str, move_id: str | None,
                      trial: State, events: list[Event]) -> dict:
        """Under the game's lock: compare-and-set the version and append the entry in one
        transaction; then swap the state in. A lost race reloads and answers `conflict`."""
        expected = live.version
        result = result_json(trial)
        status = STATUS_OVER if trial.is_over else live.status
        ending = trial.is_over and not live.over
        now = utcnow()
        notices = (self.outbox.for_commit(live, seat, trial, events, expected + 1)
                   if self.outbox is not None else None)

        hooks = list(self.on_end) if ending else []

        def also(conn: Connection) -> None:
            # what commits with the move, in its transaction: the ratings of the game it ends
            # (`on_end`), the notices it causes (the outbox)
            for hook in hooks:
                hook(conn, live, trial)
            if notices is not None:
                notices(conn)

        move = MoveWrite(live.id, expected, status, result, seat, entry, move_id, now,
                         also if hooks or notices is not None else None)
        if self.writer is not None:  # SQLite: the group commit (writes.py)
            written = await self.writer.write(move)
        else:
            written = await self.db_conn(lambda conn: write_move(conn, move))
        if not written:
            await self._catch_up(live)
            again = self._again(live, move_id, seat)
            if again is not None:
                return again
            raise ServiceError("conflict", f"the game moved on (now version {live.version}): "
                                           "resync")
        live.state = trial
        live.version = expected + 1
        live.result = result
        e = Entry(live.version, seat, entry, move_id, seen_lines(trial, events, live.players()))
        live.add_entry(e)
        return {"ack": True, "version": e.numbers.get(seat, live.seen_version(seat)),
                "events": list(e.lines.get(seat, ()))}

    async def after_change(self, live: Live, first: int | None = None, notify: bool = True,
                            resync: bool = False) -> None:
        """After a commit (or a load): in a background task, so the mover's acknowledgement
        goes out first, push the updates from version `first` on to this process's clients,
        tell the listeners, and let agents move. The tasks of one game run in the order they
        were started (`notify_lock` is first come, first served), so updates keep their
        order. `resync`: no new entry but the seats changed (a claim): every client gets a
        fresh state message."""
        task = asyncio.get_running_loop().create_task(self._notify(live, first, notify,
                                                                   resync))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _notify(self, live: Live, first: int | None, notify: bool, resync: bool = False
                      ) -> None:
        async with live.notify_lock:
            try:
                if notify:
                    for hook in list(self.before_push):
                        try:
                            await hook(live.id, live.version)
                        except Exception:  # a hook never stops the push
                            log.exception("before_push failed for game %s", live.id)
                if resync and self.hub is not None:
                    await self.hub.send_to(live.id, lambda seat: self.state_message(live, seat))
                if notify and first is not None and first <= live.version \
                        and self.hub is not None:
                    await self.hub.broadcast(self, live, first)
                if notify:
                    for listener in list(self.listeners):
                        try:
                            await listener(live.id, live.version)
                        except Exception:  # a listener never undoes a committed move
                            log.exception("listener failed for game %s", live.id)
                if self.agents is not None:
                    self.agents.kick(self, live)
            except Exception:
                log.exception("after a change of game %s", live.id)

    async def push_state(self, game_id: str) -> None:
        """Send every client of the game a fresh state message (after a change that is not a
        log entry: a claimed seat, an offer, a deadline set)."""
        await self.after_change(await self.get(game_id), resync=True)

    async def settle(self) -> None:
        """Wait until every background task (broadcasts, listeners) has finished: for tests
        and for shutting down."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # -- reading -------------------------------------------------------------------------------
    def state_message(self, live: Live, seat: int | None) -> dict:
        """The state message for `seat` (messages.state_message with this service's extras
        and the games' parts)."""
        return state_message(live, seat, self.state_extras, self.state_parts)

    def update_state(self, live: Live, seat: int | None) -> dict:
        """What an update carries of `seat`'s state (messages.update_state)."""
        return update_state(live, seat, self.state_extras, self.state_parts)

    async def lobby(self) -> list[Live]:
        """The public games with a seat their creator opened to anyone still free."""

        def read(session: Session) -> list[str]:
            return list(session.scalars(
                select(GameRow.id).join(SeatRow, SeatRow.game == GameRow.id)
                .where(GameRow.public.is_(True), GameRow.status == STATUS_OPEN,
                       SeatRow.kind == "human", SeatRow.open.is_(True),
                       SeatRow.claimed.is_(False))
                .group_by(GameRow.id, GameRow.created)
                .order_by(GameRow.created.desc()).limit(200)))

        out = []
        for gid in await self.db(read):
            live = await self.get(gid)
            if live.status == STATUS_OPEN and any(s.open and not s.claimed for s in live.seats):
                out.append(live)
        return out

    async def mine(self, tokens: list[str]) -> list[tuple[Live, int]]:
        hashes = [token_hash(t) for t in tokens if isinstance(t, str) and 0 < len(t) <= 200]

        def read(session: Session) -> list[tuple[str, int]]:
            if not hashes:
                return []
            rows = session.execute(select(SeatRow.game, SeatRow.seat)
                                   .where(SeatRow.token_hash.in_(hashes)))
            return [(g, s) for g, s in rows]

        out = []
        for gid, seat in await self.db(read):
            out.append((await self.get(gid), seat))
        return out

    def record(self, live: Live) -> Record:
        """The game's record (seed and every action): only ever sent after the end."""
        return Record(game=live.game.id, seed=live.setup.seed, options=dict(live.setup.options),
                      players=list(live.setup.names), actions=[e.text for e in live.entries],
                      result=live.state.outcome.to_json() if live.state.outcome else None,
                      created=live.setup.created,
                      seats=[s.agent if s.kind == "agent" else None for s in live.seats])

    async def rematch(self, game_id: str, seat: int | None) -> dict:
        """The same game again with the seats rotated by one; the first caller creates it.
        Each player of the finished game gets their own token for their seat in it (seat
        `seat + 1`), once. All of it is in the database (the link, the seats), so a rematch
        survives a restart and works across server processes: no invite is kept in memory."""
        if seat is None:
            raise ServiceError("forbidden", "a spectator has no seat for a rematch")
        live = await self.get(game_id)
        if not live.over:
            raise ServiceError("forbidden", "a rematch comes after the end of the game")
        n = len(live.seats)
        async with live.lock:
            if live.rematch is None:
                live.rematch = await self.db(
                    lambda session: session.scalar(select(GameRow.rematch)
                                                   .where(GameRow.id == live.id)))
            if live.rematch is None:
                seats = []
                for i in range(n):
                    old = live.seats[(i - 1) % n]
                    seats.append({"kind": old.kind, "name": old.name, "agent": old.agent})
                carried = [c for hook in self.rematch_carry if (c := hook(live)) is not None]

                def rows(session: Session, gid: str) -> None:
                    for add, _ in carried:
                        add(session, gid)

                made = await self.create(live.game.id, dict(live.setup.options), seats,
                                         public=False, move_time=live.move_time,
                                         creator_seat=None,
                                         on_timeout=live.on_timeout,
                                         turn_deadline=live.turn_deadline,
                                         rows=rows if carried else None,
                                         extra={k: v for _, e in carried for k, v in e.items()})
                new_id = made["game_id"]

                def link(session: Session) -> str | None:
                    # guarded: another process may have linked its own rematch a moment ago
                    # (then that one is the rematch, and ours is never offered to anyone)
                    session.execute(update(GameRow).where(GameRow.id == live.id,
                                                          GameRow.rematch.is_(None))
                                    .values(rematch=new_id))
                    session.commit()
                    return session.scalar(select(GameRow.rematch)
                                          .where(GameRow.id == live.id))

                live.rematch = await self.db(link)
        new = await self.get(live.rematch)
        try:
            return await self._take_free_seat(new, (seat + 1) % n, None, public_only=False,
                                              account=live.seats[seat].account)
        except ServiceError as exc:
            if exc.code == "conflict":
                raise ServiceError("conflict", "your seat in the rematch was already taken"
                                   ) from None
            raise


async def table_entry(service: GameService, game_id: str, seat: int, entry: str) -> dict:
    """Commit a table entry ("draw", "undo N": an accepted offer) for `seat` the way a move is
    committed: applied on a copy through the core's one path, compare-and-set of the version
    with the log entry in one transaction, then broadcast. Refused (nothing changed) where the
    core refuses it."""
    live = await service.get(game_id)
    first = live.version + 1
    async with live.lock:
        if live.over:
            raise ServiceError("game_over", "the game is over")
        try:
            done = moves.apply_entry(live.state.clone(), entry)
        except BoardctError as exc:
            rule = getattr(exc, "rule", None)
            raise ServiceError("rejected", getattr(exc, "reason", str(exc)), rule) from None
        ack = await service.commit(live, seat, done.entry, None, done.state, done.events)
    await service.after_change(live, first=first)
    return ack
