"""Rate limits as Discord applies them (api:topics/rate-limits.mdx; facts §3).

* Per-route buckets, counted per route + top-level resource (channel, guild, webhook
  id+token) but named by one `X-RateLimit-Bucket` hash per ROUTE: the same hash comes back for
  every channel, as on Discord, and clients key their state on hash + major parameter.
* Executing a webhook: 5 per 2 s per webhook (the route bucket of that endpoint).
* Messages landing in one channel: 30 per 60 s, shared by the bot and every webhook. It is a
  per-resource ("shared") limit that the headers do not announce, so a client meets it as a
  429 with code 20028, which is why the bot has to pace itself.
* Global: 50 requests per second per bot token, or per IP address for requests without an
  Authorization header (webhook executes); interaction endpoints are exempt.

A request refused by its route's bucket spends nothing; one refused by the shared channel
limit has already spent its place in the route's bucket.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field

from tests.virtual_clock import loop_epoch, loop_monotonic

SHARED_RULES = frozenset({"channel"})
USER_MESSAGE = "You are being rate limited."
# Discord's words for the channel write limit (discord-api-docs#8290, confirmed by staff).
CHANNEL_WRITE_MESSAGE = ("The write action you are performing on the channel has hit the "
                         "write rate limit.")
CHANNEL_WRITE_CODE = 20028


@dataclass
class Rule:
    limit: int
    window: float


@dataclass(frozen=True)
class Bucket:
    """One count a request spends: `rule` sets the limit, `route` names the bucket hash and
    `major` is the resource the count is kept for."""

    rule: str  # "route", "webhook", "channel"
    route: str  # e.g. "POST /channels/{channel_id}/messages"
    major: str


@dataclass
class _Window:
    started: float
    used: int = 0


@dataclass
class _Forced:
    matches: Callable[[str, str], bool]
    remaining: int
    retry_after: float
    is_global: bool


@dataclass
class Decision:
    allowed: bool
    headers: dict[str, str] = field(default_factory=dict)
    retry_after: float = 0.0
    is_global: bool = False
    message: str = USER_MESSAGE
    code: int | None = None  # only some limits carry one (the channel write limit: 20028)

    def body(self) -> dict[str, object]:
        body: dict[str, object] = {"message": self.message, "retry_after": self.retry_after,
                                   "global": self.is_global}
        if self.code is not None:
            body["code"] = self.code
        return body


def default_rules() -> dict[str, Rule]:
    return {
        "route": Rule(50, 1.0),      # any other route, per major parameter
        "webhook": Rule(5, 2.0),     # executing one webhook (facts §3.2)
        "channel": Rule(30, 60.0),   # messages landing in one channel, from any source
    }


def bucket_hash(route: str) -> str:
    # Stable per route and independent of the major parameter, like Discord's opaque hashes.
    return hashlib.sha1(route.encode(), usedforsecurity=False).hexdigest()[:32]


class RateLimiter:
    """Fixed windows per bucket, as Discord resets them: the window opens on first use."""

    def __init__(self, clock: Callable[[], float] = loop_monotonic) -> None:
        self.clock = clock
        self.rules = default_rules()
        self.global_rule: Rule | None = Rule(50, 1.0)  # per bot, or per IP without a token
        self._windows: dict[tuple[str, str, str], _Window] = {}
        self._global_windows: dict[str, _Window] = {}
        self._forced: list[_Forced] = []

    def set_rule(self, name: str, limit: int, window: float) -> None:
        if name not in self.rules:
            raise KeyError(f"no rate-limit rule {name!r}: one of {sorted(self.rules)}")
        self.rules[name] = Rule(limit, window)
        self._windows = {k: w for k, w in self._windows.items() if k[0] != name}

    def set_global(self, limit: int | None, window: float = 1.0) -> None:
        self.global_rule = None if limit is None else Rule(limit, window)
        self._global_windows = {}

    def force_429(self, matches: Callable[[str, str], bool], count: int, retry_after: float,
                  is_global: bool) -> None:
        self._forced.append(_Forced(matches, count, retry_after, is_global))

    def spend(self, bucket: Bucket) -> None:
        """Count a message that did not come through REST (a human's): it takes room in the
        bucket, up to its limit."""
        window = self._window(bucket, self.clock())
        window.used = min(window.used + 1, self.rules[bucket.rule].limit)

    def check(self, method: str, path: str, buckets: list[Bucket],
              global_key: str | None) -> Decision:
        """`global_key` names who the global limit counts ("bot", "ip:..."); None exempts
        the request (interaction endpoints)."""
        forced = self._take_forced(method, path)
        if forced is not None:
            return forced
        now = self.clock()
        if global_key is not None and self.global_rule is not None:
            blocked = self._check_global(global_key, now)
            if blocked is not None:
                return blocked
        windows = [(bucket, self._window(bucket, now)) for bucket in buckets]
        own = [(b, w) for b, w in windows if b.rule not in SHARED_RULES]
        shown = own[0] if own else None
        # The route's own buckets first; a request they let through is spent there even if
        # a shared limit then refuses it (the docs' resource example: Remaining 9 of 10).
        for group in (own, [(b, w) for b, w in windows if b.rule in SHARED_RULES]):
            for bucket, window in group:
                if window.used >= self.rules[bucket.rule].limit:
                    return self._refuse(bucket, window, shown, now)
            for _bucket, window in group:
                window.used += 1
        if shown is None:
            return Decision(True)
        return Decision(True, self._headers(*shown, now))

    def _refuse(self, bucket: Bucket, window: _Window, shown: tuple[Bucket, _Window] | None,
                now: float) -> Decision:
        retry = round(window.started + self.rules[bucket.rule].window - now, 3)
        # The headers always describe the route's own bucket, even when a shared limit refused
        # the request (the docs' "exceeded resource rate limit" example).
        headers = self._headers(*shown, now) if shown is not None else {}
        if bucket.rule in SHARED_RULES:
            return _limited(retry, "shared", headers, CHANNEL_WRITE_MESSAGE, CHANNEL_WRITE_CODE)
        return _limited(retry, "user", headers)

    def _take_forced(self, method: str, path: str) -> Decision | None:
        for forced in self._forced:
            if forced.remaining > 0 and forced.matches(method, path):
                forced.remaining -= 1
                scope = "global" if forced.is_global else "user"
                return _limited(forced.retry_after, scope, {})
        return None

    def _check_global(self, key: str, now: float) -> Decision | None:
        rule = self.global_rule
        assert rule is not None
        window = self._global_windows.get(key)
        if window is None or now >= window.started + rule.window:
            window = self._global_windows[key] = _Window(now)
        if window.used >= rule.limit:
            return _limited(round(window.started + rule.window - now, 3), "global", {})
        window.used += 1
        return None

    def _window(self, bucket: Bucket, now: float) -> _Window:
        key = (bucket.rule, bucket.route, bucket.major)
        window = self._windows.get(key)
        if window is None or now >= window.started + self.rules[bucket.rule].window:
            window = self._windows[key] = _Window(now)
        return window

    def _headers(self, bucket: Bucket, window: _Window, now: float) -> dict[str, str]:
        rule = self.rules[bucket.rule]
        reset_after = max(window.started + rule.window - now, 0.0)
        return {
            "X-RateLimit-Limit": str(rule.limit),
            "X-RateLimit-Remaining": str(max(rule.limit - window.used, 0)),
            "X-RateLimit-Reset": f"{loop_epoch() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket_hash(bucket.route),
        }


def _limited(retry_after: float, scope: str, headers: dict[str, str],
             message: str = USER_MESSAGE, code: int | None = None) -> Decision:
    retry_after = max(retry_after, 0.001)
    is_global = scope == "global"
    headers = {**headers, "Via": "1.1 google",  # without Via discord.py assumes a ban (#16)
               "Retry-After": str(max(1, math.ceil(retry_after))),  # whole seconds, rounded up
               "X-RateLimit-Scope": scope}
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    return Decision(False, headers, retry_after, is_global, message, code)
