"""Fan-out between server processes sharing one PostgreSQL database.

With `--workers N` several processes serve the same games, but each websocket lives in one of
them. After a process commits a change to a game it NOTIFYs `(game_id, version)` on one
channel; every process LISTENs on it, and on a notification for a version newer than the one
it holds it calls `service.refresh(game_id)`, which reloads the game from the database and
sends its own websocket clients the update. PostgreSQL carries the messages: no extra service.

A move's notification also carries its log entry (seat, text, move id) where it fits in
PostgreSQL's payload: a process holding the version just before it applies the entry to the
state it holds, without reading the database (`service.apply_peer_entry`); any other gap is
read from the database as before. A notification at the version a process already holds is a
change of the seats (a claim, a seat taken): the seats are read again.

A notification can be lost (the listening connection drops and comes back): on reconnecting,
the listener asks for a refresh of every game it holds (`on_reconnect`), so nothing is missed
for good. A process also hears its own notifications; they are ignored by the process token in
the payload, and a stale or repeated notification costs one cheap version check in `refresh`.

SQLite has no LISTEN/NOTIFY; a SQLite server runs one process, and `Notifier` is then the
no-op `NullNotifier`.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("boardct.server.notify")

CHANNEL = "boardct_games"
RECONNECT_DELAY = 1.0  # seconds between attempts to get the listening connection back

# (game_id, version) or, for a move whose entry the notification carries, (game_id, version,
# (seat, text, move_id))
OnChange = Callable[..., Awaitable[None] | None]
Entry = tuple[int | None, str, str | None]
MAX_PAYLOAD = 7900  # bytes: PostgreSQL refuses a payload of 8,000 or more
OnReconnect = Callable[[], Awaitable[None] | None]


def libpq_url(sqlalchemy_url: str) -> str:
    """The psycopg (libpq) form of a SQLAlchemy PostgreSQL URL: no `+psycopg` driver part."""
    for prefix in ("postgresql+psycopg://", "postgresql+psycopg2://", "postgres://"):
        if sqlalchemy_url.startswith(prefix):
            return "postgresql://" + sqlalchemy_url[len(prefix):]
    return sqlalchemy_url


def is_postgres(url: str) -> bool:
    return url.startswith(("postgresql", "postgres:"))


async def _call(fn: Callable[..., Any], *args: Any) -> None:
    result = fn(*args)
    if inspect.isawaitable(result):
        await result


class NullNotifier:
    """The single-process notifier (SQLite, or one PostgreSQL worker): nothing to tell."""

    token = ""

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    def notify(self, game_id: str, version: int, entry: Entry | None = None) -> None:
        return None

    async def anotify(self, game_id: str, version: int, entry: Entry | None = None) -> None:
        return None


class PgNotifier:
    """LISTEN on `CHANNEL` with one asyncio psycopg connection; NOTIFY after each commit.

    `on_change(game_id, version)` runs for every other process's notification, in the event
    loop (it may be a coroutine function; a blocking one should hand its work to a thread).
    `notify` is synchronous and thread-safe (the service commits in worker threads): it sends
    the NOTIFY through its own short autocommit connection from a small pool."""

    def __init__(self, db_url: str, on_change: OnChange,
                 on_reconnect: OnReconnect | None = None, channel: str = CHANNEL):
        self.url = libpq_url(db_url)
        self.on_change = on_change
        self.on_reconnect = on_reconnect
        self.channel = channel
        self.token = secrets.token_hex(8)  # tells this process's own notifications apart
        self._task: asyncio.Task | None = None
        self._conn: Any = None
        self._send_conns: list[Any] = []
        self._stopping = False
        self.listening = asyncio.Event()
        self.received = 0

    def payload(self, game_id: str, version: int, entry: Entry | None = None) -> str:
        """The notification's text: the game, its version, this process; and the log entry
        of that version (`e`: seat, text, move id) when given and the whole fits."""
        doc: dict[str, Any] = {"g": game_id, "v": int(version), "p": self.token}
        if entry is not None:
            text = json.dumps(doc | {"e": list(entry)}, separators=(",", ":"))
            if len(text.encode("utf-8", "surrogatepass")) < MAX_PAYLOAD:
                return text
        return json.dumps(doc, separators=(",", ":"))

    # -- sending ---------------------------------------------------------------------------------
    def notify(self, game_id: str, version: int, entry: Entry | None = None) -> None:
        """Tell the other processes that `game_id` is now at `version` (after the commit),
        with the log entry of that version if given (`payload`).
        A failure is logged, never raised: the move is committed and acknowledged whatever
        happens here, and the other processes catch up at their next reconnect or refresh."""
        import psycopg

        conn = None
        try:
            conn = self._send_conns.pop() if self._send_conns else None
            if conn is None or conn.closed:
                conn = psycopg.connect(self.url, autocommit=True, connect_timeout=10)
            conn.execute("SELECT pg_notify(%s, %s)",
                         (self.channel, self.payload(game_id, version, entry)))
            if len(self._send_conns) < 4:
                self._send_conns.append(conn)
                conn = None
        except Exception as exc:  # noqa: BLE001 - a lost notification is not a lost move
            log.warning("NOTIFY for game %s failed: %s", game_id, exc)
        finally:
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.close()

    async def anotify(self, game_id: str, version: int, entry: Entry | None = None) -> None:
        await asyncio.to_thread(self.notify, game_id, version, entry)

    # -- listening -------------------------------------------------------------------------------
    async def start(self) -> None:
        """Start listening; returns once LISTEN is in place (or after 10 s of trying)."""
        self._stopping = False
        self._task = asyncio.create_task(self._listen_forever(), name="boardct-pg-listen")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.listening.wait(), timeout=10)

    async def stop(self) -> None:
        self._stopping = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
        while self._send_conns:
            with contextlib.suppress(Exception):
                self._send_conns.pop().close()

    async def _listen_forever(self) -> None:
        import psycopg

        first = True
        while not self._stopping:
            try:
                self._conn = await psycopg.AsyncConnection.connect(
                    self.url, autocommit=True, connect_timeout=10)
                await self._conn.execute(f'LISTEN "{self.channel}"')
                self.listening.set()
                if not first and self.on_reconnect is not None:
                    await _call(self.on_reconnect)  # what we missed while away
                first = False
                async for note in self._conn.notifies():
                    await self._handle(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - the database went away: try again
                self.listening.clear()
                log.warning("LISTEN connection lost (%s); reconnecting", exc)
                first = False
                if self._conn is not None:
                    with contextlib.suppress(Exception):
                        await self._conn.close()
                await asyncio.sleep(RECONNECT_DELAY)

    async def _handle(self, payload: str) -> None:
        try:
            data = json.loads(payload)
            game_id, version, token = str(data["g"]), int(data["v"]), str(data.get("p", ""))
        except (ValueError, KeyError, TypeError):
            log.warning("ignored a malformed notification: %.100r", payload)
            return
        if token == self.token:
            return
        self.received += 1
        entry = _entry_of(data.get("e"))
        try:
            if entry is None:
                await _call(self.on_change, game_id, version)
            else:
                await _call(self.on_change, game_id, version, entry)
        except Exception:  # noqa: BLE001 - one game's failure must not stop the listener
            log.exception("refreshing game %s after a notification failed", game_id)


def _entry_of(value: Any) -> Entry | None:
    """A notification's log entry `[seat, text, move_id]`, checked; None when it has none or
    it is not one (the receiver then reads the database)."""
    if not isinstance(value, list) or len(value) != 3:
        return None
    seat, text, move_id = value
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
        return None
    if not isinstance(text, str) or (move_id is not None and not isinstance(move_id, str)):
        return None
    return seat, text, move_id


def make_notifier(db_url: str, on_change: OnChange,
                  on_reconnect: OnReconnect | None = None) -> PgNotifier | NullNotifier:
    """A `PgNotifier` for PostgreSQL, a `NullNotifier` for SQLite."""
    if is_postgres(db_url):
        return PgNotifier(db_url, on_change, on_reconnect)
    return NullNotifier()
