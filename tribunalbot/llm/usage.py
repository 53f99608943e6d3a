"""One `CallRecord` per provider request, and a ledger that sums them for an operator."""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass

from tribunalbot.config import ProviderSettings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CallRecord:
    game_id: str
    seat: int | None
    phase: str  # the task kind: speak, debate, vote, distill, probe
    provider: str
    model: str
    input_tokens: int = 0  # including the cached part
    cached_tokens: int = 0
    output_tokens: int = 0
    latency_ms: float = 0.0
    outcome: str = "ok"  # "ok" or the error kind (see errors.py)
    attempts: int = 1  # HTTP attempts, including transport retries


OnCall = Callable[[CallRecord], Awaitable[None] | None]


async def emit(on_call: OnCall | None, record: CallRecord) -> None:
    """Hand `record` to the callback; accounting never breaks a game, so failures are logged."""
    if on_call is None:
        return
    try:
        result = on_call(record)
        if inspect.isawaitable(result):
            await result
    except Exception:
        log.exception("usage callback failed for a %s call", record.provider)


@dataclass(frozen=True)
class Prices:
    """USD per million tokens. Cached input falls back to the input price when not given."""

    input: float = 0.0
    cached: float | None = None
    output: float = 0.0

    @classmethod
    def from_settings(cls, settings: ProviderSettings) -> Prices | None:
        if settings.price_input_per_mtok is None and settings.price_output_per_mtok is None:
            return None
        return cls(
            settings.price_input_per_mtok or 0.0,
            settings.price_cached_per_mtok,
            settings.price_output_per_mtok or 0.0,
        )

    def cost(self, record: CallRecord) -> float:
        uncached = max(record.input_tokens - record.cached_tokens, 0)
        cached_rate = self.input if self.cached is None else self.cached
        total = uncached * self.input + record.cached_tokens * cached_rate
        return (total + record.output_tokens * self.output) / 1_000_000


class UsageLedger:
    """Collects call records; pass the ledger itself as an adapter's `on_call`."""

    def __init__(self) -> None:
        self.records: list[CallRecord] = []

    def __call__(self, record: CallRecord) -> None:
        self.records.append(record)

    def add(self, records: Iterable[CallRecord]) -> None:
        self.records.extend(records)

    @property
    def input_tokens(self) -> int:
        return sum(r.input_tokens for r in self.records)

    @property
    def cached_tokens(self) -> int:
        return sum(r.cached_tokens for r in self.records)

    @property
    def output_tokens(self) -> int:
        return sum(r.output_tokens for r in self.records)

    def cost(self, prices: Mapping[str, Prices]) -> float | None:
        """Total USD, or None when no record's provider has prices."""
        costs = [prices[r.provider].cost(r) for r in self.records if r.provider in prices]
        return sum(costs) if costs else None

    def summary(self, prices: Mapping[str, Prices] | None = None) -> str:
        """E.g. "52 calls, 180k tokens, 65% cached, $0.04" (the cost only when priced)."""
        calls = len(self.records)
        parts = [f"{calls} call{'s' if calls != 1 else ''}"]
        parts.append(f"{_compact(self.input_tokens + self.output_tokens)} tokens")
        if self.input_tokens:
            parts.append(f"{round(100 * self.cached_tokens / self.input_tokens)}% cached")
        failed = sum(1 for r in self.records if r.outcome != "ok")
        if failed:
            parts.append(f"{failed} failed")
        cost = self.cost(prices) if prices else None
        if cost is not None:
            parts.append(f"${cost:.2f}" if cost >= 0.01 or cost == 0 else f"${cost:.4f}")
        return ", ".join(parts)


def prices_from_config(providers: Mapping[str, ProviderSettings]) -> dict[str, Prices]:
    """The configured prices, keyed by provider name (unpriced providers are left out)."""
    found = {name: Prices.from_settings(s) for name, s in providers.items()}
    return {name: p for name, p in found.items() if p is not None}


def _compact(n: int) -> str:
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f}M"
    if n >= 1000:
        return f"{round(n / 1000)}k"
    return str(n)
