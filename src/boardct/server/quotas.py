"""Quotas: how often one client may do each thing, counted by the `limits` library.

Every rule has a name and a limit in `limits`' notation ("10/minute;100/hour": each of them
holds); the default table is `RULES`, and the server's configuration may change or switch off
(`none`) any of them (`ServerConfig.quotas`, `boardct serve --quota create=5/minute`). A
caller counts one use with `Quotas.hit(rule, key)`, the key saying whose use it is (a client
address, an account, a seat: `key_of`); over the limit it raises `QuotaExceeded` with the
seconds to wait, which the HTTP layer answers `429` with `Retry-After` and the websocket with
a refusal carrying `retry_after`.

The counts live in the storage `ServerConfig.quota_storage` names (`memory://`, the default:
each server process counts its own; `redis://host:6379` shares them between the processes of
`--workers N`, with the `limits[redis]` extra).

Besides the rates: `OpenGames`, the cap on a guest's unfinished games (a client may not make
games faster than they end, then walk away from them), counted in this process.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage, Storage, storage_from_string
from limits.strategies import (
    FixedWindowRateLimiter,
    RateLimiter,
    SlidingWindowCounterRateLimiter,
)

# rule name -> limits ("N/period;M/period"). Keys: "create" per client address (or account),
# "move" and "chat" per seat (a game's seat token), "socket" (websocket connections opened)
# per client address; "signup" per client address, "signin" per client address and,
# counted apart, per username tried (so one account's password is not guessed from many
# addresses; server/accounts.py).
RULES: dict[str, str] = {
    "create": "20/minute;200/day",
    "move": "20/second;600/minute;6000/hour",
    "chat": "10/10 seconds;200/hour",
    "socket": "60/minute;600/hour",
    "signup": "20/hour",
    "signin": "10/5 minutes",
    # invitations mailed to an address (server/notices.py), per client address
    "invite": "10/hour;50/day",
    "hint": "10/minute;120/hour",  # per seat: each hint is a search of about a CPU second
}
OFF = ("none", "off", "")
# Rules counted in fixed windows (a count reset at the end of each window) rather than sliding
# ones: the move quota is a flood guard counted at every move, where a fixed window costs half
# as much (three limits a move: about 8 us against 16); a client may then make up
# to twice a limit across a window's end, which a flood guard allows. The other rules (sign-in
# guesses above all) keep sliding windows, which allow no such burst.
FIXED_WINDOW_RULES = frozenset({"move"})


def client_address(conn: Any) -> str:
    """The address of the client of a request or websocket: the connection's peer, or what
    a trusted reverse proxy said it is (`ServerConfig.trusted_proxies`: the proxy headers
    middleware has put it in the connection's scope; from anyone else they are ignored)."""
    client = conn.client
    return client.host if client is not None and client.host else "unknown"


class QuotaExceeded(Exception):
    """Over a quota: nothing was done; try again in `retry_after` seconds."""

    def __init__(self, rule: str, retry_after: int, message: str | None = None):
        super().__init__(message or f"too many requests ({rule}): try again in "
                                    f"{retry_after} s")
        self.rule = rule
        self.retry_after = retry_after

    def to_json(self) -> dict:
        """The JSON error every refusal has (the seconds to wait go in `Retry-After`)."""
        return {"error": {"code": "too_many_requests", "message": str(self), "rule": None}}


def parse_rules(overrides: Mapping[str, str] | None = None) -> dict[str, list[RateLimitItem]]:
    """The rule table: `RULES` with `overrides` applied ("none" switches a rule off). A limit
    `limits` cannot read is a ValueError naming the rule."""
    table = dict(RULES)
    table.update(overrides or {})
    out: dict[str, list[RateLimitItem]] = {}
    for name, text in table.items():
        if text.strip().lower() in OFF:
            out[name] = []
            continue
        try:
            out[name] = list(parse_many(text))
        except ValueError:
            raise ValueError(f"quota {name}: {text!r} is not a limit such as "
                             "\"10/minute;100/hour\"") from None
    return out


def parse_overrides(text: str) -> dict[str, str]:
    """`rule=limits` items separated by blanks ("create=5/minute move=none"), as the
    environment variable BOARDCT_QUOTAS and `boardct serve --quota` give them."""
    out: dict[str, str] = {}
    for item in text.split():
        name, sep, limit = item.partition("=")
        if not sep or not name:
            raise ValueError(f"quota {item!r}: RULE=LIMITS, e.g. create=5/minute")
        out[name] = limit
    return out


SWEEP_EVERY = 5.0  # seconds between two sweeps of the expired counts of the memory storage


class SweptMemoryStorage(MemoryStorage):
    """limits' memory storage, with its expired counts swept away every `SWEEP_EVERY`
    seconds rather than 10 ms after every count: each sweep is a new thread and a pass over
    every key, which at thousands of seats moving cost more than the moves. An expired count
    is ignored when read all the same (`MemoryStorage.get`): the sweep only frees memory."""

    def __init__(self, uri: str | None = None, **options: Any):
        self._next_sweep = 0.0
        super().__init__(uri, **options)

    def _MemoryStorage__schedule_expiry(self) -> None:  # the base class's private hook
        now = time.monotonic()
        if now >= self._next_sweep:
            self._next_sweep = now + SWEEP_EVERY
            MemoryStorage._MemoryStorage__schedule_expiry(self)  # type: ignore[attr-defined]


def make_storage(uri: str) -> Storage:
    """The storage `uri` names (`memory://`: `SweptMemoryStorage`)."""
    if uri.strip() in ("", "memory://"):
        return SweptMemoryStorage()
    storage = storage_from_string(uri)
    if not isinstance(storage, Storage):
        raise ValueError(f"quota storage {uri!r}: a synchronous storage (memory://, redis://...)")
    return storage


class Quotas:
    """The server's quotas (`config.quotas` over `RULES`, counted in
    `config.quota_storage`), and the cap on a guest's unfinished games."""

    def __init__(self, config: object | None = None):
        overrides = getattr(config, "quotas", None) or {}
        self.rules = parse_rules(overrides)
        self.storage = make_storage(getattr(config, "quota_storage", "memory://") or "")
        sliding = SlidingWindowCounterRateLimiter(self.storage)
        fixed = FixedWindowRateLimiter(self.storage)
        self.limiters: dict[str, RateLimiter] = {
            name: fixed if name in FIXED_WINDOW_RULES else sliding for name in self.rules}
        self.open_games = OpenGames(getattr(config, "max_open_games", 0) or 0)

    def hit(self, rule: str, key: str) -> None:
        """Count one use of `rule` by `key`; over any of the rule's limits: QuotaExceeded
        (and the use is not counted against the limits it did not break). A rule with no
        limits (switched off) always passes; an unknown rule name is a programming error."""
        items = self.rules[rule]
        limiter = self.limiters[rule]
        for item in items:
            if not limiter.hit(item, rule, key):
                reset = limiter.get_window_stats(item, rule, key).reset_time
                raise QuotaExceeded(rule, max(1, math.ceil(reset - time.time())))

    def clear(self) -> None:
        """Forget every count (tests, and a server's own reset)."""
        self.storage.reset()
        self.open_games.games.clear()


class OpenGames:
    """How many unfinished games each guest (a key: the client address, or an account) has
    made, to cap them at `cap` (0: no cap). A game stops counting when it ends, or when no
    move was made in it for `idle` seconds (an abandoned game does not lock its maker out for
    ever). In this process's memory, bounded by the cap times the keys seen."""

    IDLE = 24 * 3600.0

    def __init__(self, cap: int, idle: float = IDLE):
        self.cap = cap
        self.idle = idle
        self.games: dict[str, dict[str, float]] = {}  # key -> game id -> last activity
        self.owner: dict[str, str] = {}  # game id -> key

    def _live(self, key: str) -> dict[str, float]:
        mine = self.games.get(key, {})
        now = time.monotonic()
        for gid in [g for g, at in mine.items() if now - at > self.idle]:
            del mine[gid]
            self.owner.pop(gid, None)
        if not mine:
            self.games.pop(key, None)
        return mine

    def check(self, key: str) -> None:
        """Refuse (QuotaExceeded) a new game for `key` when it has `cap` unfinished ones."""
        if self.cap and len(self._live(key)) >= self.cap:
            raise QuotaExceeded("open games", int(min(self.idle, 3600)),
                                f"you have {self.cap} unfinished games: finish or resign "
                                "one before starting another")

    def add(self, key: str, game_id: str) -> None:
        if self.cap:
            self.games.setdefault(key, {})[game_id] = time.monotonic()
            self.owner[game_id] = key

    def changed(self, game_id: str, over: bool) -> None:
        """A move in `game_id` (or its end): it counts from now, or no longer."""
        key = self.owner.get(game_id)
        if key is None:
            return
        mine = self.games.get(key, {})
        if over:
            mine.pop(game_id, None)
            del self.owner[game_id]
            if not mine:
                self.games.pop(key, None)
        elif game_id in mine:
            mine[game_id] = time.monotonic()
