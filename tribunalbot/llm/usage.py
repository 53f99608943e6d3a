"""One `CallRecord` per provider request, and a ledger that sums them for an operator."""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from tribunalbot.config import ModelPrice, ProviderSettings

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


class Tokens(Protocol):
    """What pricing reads of a call, or of many calls of one provider and model summed."""

    @property
    def provider(self) -> str: ...
    @property
    def model(self) -> str: ...
    @property
    def input_tokens(self) -> int: ...
    @property
    def cached_tokens(self) -> int: ...
    @property
    def output_tokens(self) -> int: ...


class UsageRow(Tokens, Protocol):
    """Many calls of one provider and model, summed (the store's `Spend`)."""

    @property
    def calls(self) -> int: ...
    @property
    def failed(self) -> int: ...


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

    @classmethod
    def of_model(cls, price: ModelPrice) -> Prices:
        return cls(price.input_per_mtok, price.cached_per_mtok, price.output_per_mtok)

    def cost(self, record: Tokens) -> float:
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
        return total_cost(self.records, prices)

    def summary(self, prices: Mapping[str, Prices] | None = None) -> str:
        """E.g. "52 calls, 180k tokens, 65% cached, $0.04" (the cost only when priced)."""
        failed = sum(1 for r in self.records if r.outcome != "ok")
        cost = self.cost(prices) if prices else None
        return usage_line(len(self.records), self.input_tokens, self.cached_tokens,
                          self.output_tokens, failed, cost)


def price_of(prices: Mapping[str, Prices], provider: str, model: str) -> Prices | None:
    """The model's own prices, else its provider's (keys as `prices_from_config` makes)."""
    return prices.get(f"{provider}/{model}") or prices.get(provider)


def total_cost(rows: Iterable[Tokens], prices: Mapping[str, Prices]) -> float | None:
    """USD for `rows`, or None when none of them is priced."""
    found = [(price_of(prices, r.provider, r.model), r) for r in rows]
    costs = [price.cost(r) for price, r in found if price is not None]
    return sum(costs) if costs else None


def summarize(rows: Iterable[UsageRow], prices: Mapping[str, Prices] | None = None) -> str:
    """The usage line of calls already summed per provider and model (from the store)."""
    rows = list(rows)
    cost = total_cost(rows, prices) if prices else None
    return usage_line(sum(r.calls for r in rows), sum(r.input_tokens for r in rows),
                      sum(r.cached_tokens for r in rows), sum(r.output_tokens for r in rows),
                      sum(r.failed for r in rows), cost)


def usage_line(calls: int, input_tokens: int, cached_tokens: int, output_tokens: int,
               failed: int = 0, cost: float | None = None) -> str:
    parts = [f"{calls} call{'s' if calls != 1 else ''}",
             f"{_compact(input_tokens + output_tokens)} tokens"]
    if input_tokens:
        parts.append(f"{round(100 * cached_tokens / input_tokens)}% cached")
    if failed:
        parts.append(f"{failed} failed")
    if cost is not None:
        parts.append(dollars(cost))
    return ", ".join(parts)


def dollars(cost: float) -> str:
    return f"${cost:.2f}" if cost >= 0.01 or cost == 0 else f"${cost:.4f}"


def prices_from_config(providers: Mapping[str, ProviderSettings]) -> dict[str, Prices]:
    """The configured prices, keyed by provider name, and by "provider/model" for a model
    priced on its own (unpriced providers are left out)."""
    found: dict[str, Prices] = {}
    for name, settings in providers.items():
        own = Prices.from_settings(settings)
        if own is not None:
            found[name] = own
        for model, price in settings.model_prices.items():
            found[f"{name}/{model}"] = Prices.of_model(price)
    return found


def _compact(n: int) -> str:
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f}M"
    if n >= 1000:
        return f"{round(n / 1000)}k"
    return str(n)
