"""The operator's budgets (DESIGN §5.3): games per server per day, estimated dollars per
server per day, and estimated dollars per month for the whole bot.

They are checked before a game is started, so a refusal costs nothing, and reserved with the
other limits in one transaction (`policy.admission`), so games started at once cannot all
slip under one budget. Days and months are
UTC. A game counts toward the day (and month) it started in, with all its calls, even those
made after midnight; games that ended early count too. Dollars are estimated from the
providers' configured prices; the offline provider is free, and any provider without prices
counts as free (the config refuses a dollar budget while a paid provider has no prices).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from tribunalbot.config import Config
from tribunalbot.llm.usage import (
    Prices,
    Tokens,
    dollars,
    prices_from_config,
    summarize,
    total_cost,
)
from tribunalbot.store import Store
from tribunalbot.store.ops import Spend
from tribunalbot.wording import plural


@dataclass(frozen=True)
class Refusal:
    budget: str  # the limits key that refused
    resets_at: datetime
    reason: str

    @property
    def text(self) -> str:
        # A Discord timestamp: each reader sees "in 5 hours" in their own time.
        return f"{self.reason} It resets <t:{int(self.resets_at.timestamp())}:R>."


def price_book(config: Config) -> dict[str, Prices]:
    """The configured prices, with every unpriced offline provider at $0."""
    prices = prices_from_config(config.providers)
    for name, settings in config.providers.items():
        if settings.kind == "offline":
            prices.setdefault(name, Prices())
    return prices


def day_start(now: datetime) -> datetime:
    return now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


def month_start(now: datetime) -> datetime:
    return day_start(now).replace(day=1)


def next_month(now: datetime) -> datetime:
    start = month_start(now)
    return (start + timedelta(days=32)).replace(day=1)


class Budget:
    def __init__(self, config: Config, store: Store) -> None:
        self.limits, self.store = config.limits, store
        self.prices = price_book(config)

    def refusal(self, now: datetime, started_today: int, server_today: float,
                bot_month: float) -> Refusal | None:
        """The first budget a new game would go over, given the server's games started
        today and the dollars spent (and held) today by the server and this month by the
        whole bot; None when there is room. `policy.admission` reads these figures under
        the admission lock, so no other game can slip in between."""
        games = self.limits.games_per_server_per_day
        if games is not None and started_today >= games:
            return Refusal("games_per_server_per_day", day_start(now) + timedelta(days=1),
                           f"This server has started {plural(started_today, 'game')} today, "
                           "the most this bot allows a server in a day.")
        daily = self.limits.dollars_per_server_per_day
        if daily is not None and server_today >= daily:
            return Refusal("dollars_per_server_per_day", day_start(now) + timedelta(days=1),
                           f"This server has used its daily budget of {dollars(daily)} of "
                           "estimated model cost on this bot.")
        monthly = self.limits.dollars_per_month
        if monthly is not None and bot_month >= monthly:
            return Refusal("dollars_per_month", next_month(now),
                           f"This bot has used its monthly budget of {dollars(monthly)} of "
                           "estimated model cost, shared by every server.")
        return None

    def cost(self, rows: Iterable[Tokens]) -> float:
        return total_cost(list(rows), self.prices) or 0.0

    async def cost_since(self, since: datetime, guild: str | None = None) -> float:
        """Estimated USD of the games started since `since` (in `guild`, or everywhere)."""
        rows = await self.store.ops.spend_since(since.isoformat(), guild)
        return total_cost(rows, self.prices) or 0.0

    async def game_usage(self, game_id: str) -> str:
        """The game's usage line, e.g. "52 calls, 180k tokens, 65% cached, $0.04". Every
        call made is in it: those cut short (a restart, a phase stopped by a failed call)
        are named, their input estimated; what a resumed game asked again counts again."""
        line = summarize(await self.store.ops.spend_of_game(game_id), self.prices)
        cut = await self.store.ops.cut_short_in_game(game_id)
        return f"{line} ({cut} cut short)" if cut else line

    async def month_report(self, guild: str, now: datetime | None = None) -> str:
        """This server's month so far, and today's count against its budgets."""
        now = now or datetime.now(UTC)
        month = month_start(now).isoformat()
        games = await self.store.ops.games_since(month, guild)
        usage = summarize(await self.store.ops.spend_since(month, guild), self.prices)
        lines = [f"This month: **{plural(games, 'game')}**, {usage} (estimated)"]
        today = await self.store.ops.games_since(day_start(now).isoformat(), guild)
        limits = []
        if self.limits.games_per_server_per_day is not None:
            limits.append(f"{today} of {self.limits.games_per_server_per_day} games")
        if self.limits.dollars_per_server_per_day is not None:
            spent = await self.cost_since(day_start(now), guild)
            limits.append(f"{dollars(spent)} of {dollars(self.limits.dollars_per_server_per_day)}")
        if limits:
            lines.append("Today: " + ", ".join(limits))
        return "\n".join(lines)


# ---- the operator's view of what was spent (`tribunalbot stats --costs`) ---------------------

TERMINAL_LABEL = "terminal games"
GONE_LABEL = "servers removed since"


@dataclass(frozen=True)
class SpendLine:
    """One row of the report: a server or a provider/model, over one period."""

    label: str
    calls: int
    usage: str  # the usage line every reveal shows: "52 calls, 180k tokens, 65% cached, $0.04"
    cost: float | None  # None: no price configured for any of its models
    games: int | None = None  # servers only


@dataclass(frozen=True)
class SpendPeriod:
    title: str
    servers: list[SpendLine]
    models: list[SpendLine]
    total: SpendLine


async def spend_periods(store: Store, prices: dict[str, Prices], now: datetime | None = None,
                        guild: str | None = None) -> list[SpendPeriod]:
    """This month (UTC) and all time, per server and per provider/model, estimated from the
    stored token counts and the configured prices. `guild`: that server alone."""
    now = now or datetime.now(UTC)
    month = month_start(now)
    return [await _period(store, prices, f"This month ({month:%Y-%m}, UTC)", month, guild),
            await _period(store, prices, "All time", None, guild)]


async def _period(store: Store, prices: dict[str, Prices], title: str,
                  since: datetime | None, guild: str | None) -> SpendPeriod:
    stamp = since.isoformat() if since is not None else None
    rows = [(g, s) for g, s in await store.ops.spend_by_guild(stamp)
            if guild is None or g == guild]
    games = await store.ops.games_by_guild(stamp)
    by_guild: dict[str | None, list[Spend]] = {}
    by_model: dict[str, list[Spend]] = {}
    for owner, spend in rows:
        by_guild.setdefault(owner, []).append(spend)
        by_model.setdefault(f"{spend.provider}/{spend.model}", []).append(spend)
    servers = [_line(_server_label(g), spends, prices, games.get(g or "", 0) if g is not None
                     else None) for g, spends in sorted(by_guild.items(), key=_server_order)]
    models = [_line(label, spends, prices) for label, spends in sorted(by_model.items())]
    counted = sum(n for g, n in games.items() if guild is None or g == guild)
    total = _line("total", [s for _, s in rows], prices, counted)
    return SpendPeriod(title, servers, models, total)


def _server_order(item: tuple[str | None, list[Spend]]) -> tuple[int, str]:
    guild = item[0]
    return (2, "") if guild is None else (1, "") if guild == "" else (0, guild)


def _server_label(guild: str | None) -> str:
    return GONE_LABEL if guild is None else TERMINAL_LABEL if guild == "" else guild


def _line(label: str, spends: list[Spend], prices: dict[str, Prices],
          games: int | None = None) -> SpendLine:
    return SpendLine(label, sum(s.calls for s in spends), summarize(spends, prices),
                     total_cost(spends, prices), games)
