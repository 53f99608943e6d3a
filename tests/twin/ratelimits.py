"""Rate limits as Discord applies them: per-route buckets with X-RateLimit-* headers, the
per-webhook and per-channel message buckets, an optional global limit, and forced 429s."""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Rule:
    limit: int
    window: float


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

    def body(self) -> dict[str, object]:
        return {"message": "You are being rate limited.", "code": 0,
                "retry_after": self.retry_after, "global": self.is_global}


def default_rules() -> dict[str, Rule]:
    return {
        "route": Rule(50, 1.0),      # any other route, per major parameter
        "webhook": Rule(5, 2.0),     # executing one webhook (facts §3.2)
        "channel": Rule(30, 60.0),   # messages landing in one channel, from any source
    }


class RateLimiter:
    """Fixed windows per bucket, as Discord resets them: the window opens on first use."""

    def __init__(self) -> None:
        self.rules = default_rules()
        self.global_rule: Rule | None = None
        self._windows: dict[tuple[str, str], _Window] = {}
        self._global_window: _Window | None = None
        self._forced: list[_Forced] = []

    def set_rule(self, name: str, limit: int, window: float) -> None:
        self.rules[name] = Rule(limit, window)
        self._windows = {k: w for k, w in self._windows.items() if k[0] != name}

    def set_global(self, limit: int | None, window: float = 1.0) -> None:
        self.global_rule = None if limit is None else Rule(limit, window)
        self._global_window = None

    def force_429(self, matches: Callable[[str, str], bool], count: int, retry_after: float,
                  is_global: bool) -> None:
        self._forced.append(_Forced(matches, count, retry_after, is_global))

    def check(self, method: str, path: str, buckets: list[tuple[str, str]],
              counts_towards_global: bool) -> Decision:
        forced = self._take_forced(method, path)
        if forced is not None:
            return forced
        now = time.monotonic()
        if counts_towards_global and self.global_rule is not None:
            blocked = self._check_global(now)
            if blocked is not None:
                return blocked
        windows = [(name, ident, self._window(name, ident, now)) for name, ident in buckets]
        for name, ident, window in windows:
            rule = self.rules[name]
            if window.used >= rule.limit:
                retry = round(window.started + rule.window - now, 3)
                headers = _bucket_headers(name, ident, rule, window, now)
                return _limited(retry, False, "user", headers)
        for _name, _ident, window in windows:
            window.used += 1
        if not windows:
            return Decision(True)
        # Report the tightest bucket, as a client can only track one per request.
        name, ident, window = min(windows, key=lambda w: self.rules[w[0]].limit - w[2].used)
        return Decision(True, _bucket_headers(name, ident, self.rules[name], window, now))

    def _take_forced(self, method: str, path: str) -> Decision | None:
        for forced in self._forced:
            if forced.remaining > 0 and forced.matches(method, path):
                forced.remaining -= 1
                scope = "global" if forced.is_global else "user"
                return _limited(forced.retry_after, forced.is_global, scope, {})
        return None

    def _check_global(self, now: float) -> Decision | None:
        rule = self.global_rule
        assert rule is not None
        if self._global_window is None or now >= self._global_window.started + rule.window:
            self._global_window = _Window(now)
        if self._global_window.used >= rule.limit:
            retry = round(self._global_window.started + rule.window - now, 3)
            return _limited(retry, True, "global", {})
        self._global_window.used += 1
        return None

    def _window(self, name: str, ident: str, now: float) -> _Window:
        key = (name, ident)
        window = self._windows.get(key)
        if window is None or now >= window.started + self.rules[name].window:
            window = self._windows[key] = _Window(now)
        return window


def _limited(retry_after: float, is_global: bool, scope: str,
             headers: dict[str, str]) -> Decision:
    retry_after = max(retry_after, 0.001)
    headers = {**headers, "Via": "1.1 google",
               "Retry-After": str(max(1, math.ceil(retry_after))),  # whole seconds, rounded up
               "X-RateLimit-Scope": scope}
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    return Decision(False, headers, retry_after, is_global)


def _bucket_headers(name: str, ident: str, rule: Rule, window: _Window,
                    now: float) -> dict[str, str]:
    reset_after = max(window.started + rule.window - now, 0.0)
    digest = hashlib.sha1(f"{name}:{ident}".encode(), usedforsecurity=False).hexdigest()
    return {
        "X-RateLimit-Limit": str(rule.limit),
        "X-RateLimit-Remaining": str(max(rule.limit - window.used, 0)),
        "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": digest[:32],
    }
