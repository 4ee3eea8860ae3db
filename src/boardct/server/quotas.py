"""Rate limits of the server, on the `limits` library (a moving window in this process's
memory): `Quotas(config).hit(rule, key)` counts one request of `rule` for `key` (a client
address, a username) and raises `QuotaExceeded` when the rule's limit is reached. The HTTP
layer answers that with a 429 JSON error and a `Retry-After` header (app.py).

The rules and their limits come from the server configuration (`ServerConfig.quotas`,
`{"rule": "10 per 5 minutes"}` in the `limits` notation):
- "signup": sign-ups, by client address;
- "signin": sign-in attempts, by client address and, separately, by the username tried, so
  guessing one account's password is slowed down from any number of addresses.
"""

from __future__ import annotations

import math
import time

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

DEFAULT_QUOTAS = {
    "signup": "20 per hour",
    "signin": "10 per 5 minutes",
}


class QuotaExceeded(Exception):
    """A request over its rule's limit; `retry_after`: seconds until one more is allowed."""

    def __init__(self, rule: str, retry_after: int):
        super().__init__(f"too many requests ({rule}): try again in {retry_after} s")
        self.rule = rule
        self.retry_after = retry_after


class Quotas:
    """The rules of `config.quotas` (rule name -> a `limits` string), counted per key."""

    def __init__(self, config: object = None):
        rules = dict(DEFAULT_QUOTAS)
        rules.update(getattr(config, "quotas", None) or {})
        self.items: dict[str, RateLimitItem] = {name: parse(text) for name, text in rules.items()}
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    def hit(self, rule: str, key: str) -> None:
        """Count one request of `rule` for `key`; over the limit: `QuotaExceeded` (the
        request is then not counted). An unknown rule is a programming error (KeyError)."""
        item = self.items[rule]
        if self.limiter.hit(item, rule, key):
            return
        stats = self.limiter.get_window_stats(item, rule, key)
        retry = max(1, math.ceil(stats.reset_time - time.time()))
        raise QuotaExceeded(rule, retry)
