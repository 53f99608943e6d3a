"""The operator's budgets (DESIGN §5.3): games per server per day, estimated dollars per
server per day, and estimated dollars per month for the whole bot.

They are checked before a game is started, so a refusal costs nothing. Days and months are
UTC. A game counts toward the day (and month) it started in, with all its calls, even those
made after midnight; games that ended early count too. Dollars are estimated from the
providers' configured prices; the offline provider is free, and any provider without prices
counts as free (the config refuses a dollar budget while a paid provider has no prices).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from tribunalbot.config import Config
from tribunalbot.llm.usage import Prices, dollars, prices_from_config, summarize, total_cost
from tribunalbot.store import Store
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

    async def refusal(self, guild: str, now: datetime | None = None) -> Refusal | None:
        """The first budget a new game in `guild` would go over, or None."""
        now = now or datetime.now(UTC)
        for check in (self._games_today, self._server_today, self._bot_this_month):
            found = await check(guild, now)
            if found is not None:
                return found
        return None

    async def _games_today(self, guild: str, now: datetime) -> Refusal | None:
        limit = self.limits.games_per_server_per_day
        if limit is None:
            return None
        started = await self.store.ops.games_since(day_start(now).isoformat(), guild)
        if started < limit:
            return None
        return Refusal("games_per_server_per_day", day_start(now) + timedelta(days=1),
                       f"This server has started {plural(started, 'game')} today, the most "
                       "this bot allows a server in a day.")

    async def _server_today(self, guild: str, now: datetime) -> Refusal | None:
        limit = self.limits.dollars_per_server_per_day
        if limit is None or await self.cost_since(day_start(now), guild) < limit:
            return None
        return Refusal("dollars_per_server_per_day", day_start(now) + timedelta(days=1),
                       f"This server has used its daily budget of {dollars(limit)} of "
                       "estimated model cost on this bot.")

    async def _bot_this_month(self, guild: str, now: datetime) -> Refusal | None:
        limit = self.limits.dollars_per_month
        if limit is None or await self.cost_since(month_start(now)) < limit:
            return None
        return Refusal("dollars_per_month", next_month(now),
                       f"This bot has used its monthly budget of {dollars(limit)} of "
                       "estimated model cost, shared by every server.")

    async def cost_since(self, since: datetime, guild: str | None = None) -> float:
        """Estimated USD of the games started since `since` (in `guild`, or everywhere)."""
        rows = await self.store.ops.spend_since(since.isoformat(), guild)
        return total_cost(rows, self.prices) or 0.0

    async def game_usage(self, game_id: str) -> str:
        """The game's usage line, e.g. "52 calls, 180k tokens, 65% cached, $0.04"."""
        return summarize(await self.store.ops.spend_of_game(game_id), self.prices)

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
