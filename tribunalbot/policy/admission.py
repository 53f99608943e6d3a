"""Who may start a game now (DESIGN §5.3, §8), decided and reserved at once.

The member's cooldown (any server) and daily quota (per server), the server's cap on games at
once and on games a day, and the dollar budgets are all read and the game's ticket written in
one store transaction that no other admission can interleave with, in any process
(`store.admissions` says how on each backend). That happens before anything is downloaded,
fetched or spent: many /review sent at once admit exactly what the limits allow.

A game not over holds, against the dollar budgets, what the last games finished on its
provider cost on average, less what it has spent so far: the next admission counts the money
the games already admitted are about to spend, not only what they spent.

A ticket is released (deleted) when its game is refused after admission or fails; a ticket
whose game was never stored (the process died on the way) stops counting after
`HOLD_MARGIN` beyond the longest fetch. No Discord here.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from tribunalbot.config import Config
from tribunalbot.policy.spending import Budget, day_start, month_start
from tribunalbot.store import Store, StoreError
from tribunalbot.store.admissions import Hold, Standing
from tribunalbot.wording import plural

log = logging.getLogger(__name__)
HOLD_MARGIN = timedelta(seconds=120)  # beyond the fetch deadline: convening, a slow store
RECENT_GAMES = 20  # the finished games a new game's cost is estimated from


@dataclass(frozen=True)
class Ticket:
    """A game's admitted place; `game_id` is the game it admits."""

    game_id: str
    guild_id: int
    member_id: int


@dataclass(frozen=True)
class Refused:
    limit: str  # the setting that refused: a [limits] or [discord] key
    text: str  # for the member, privately: which limit, and when it frees


@dataclass(frozen=True)
class Limits:
    """One server's limits for one admission (its overrides within the operator's caps)."""

    cooldown: float  # seconds between a member's games, any server
    cap: int  # games at once in the server
    member_quota: int | None  # games a member may start in the server a day
    provider: str  # the server's provider, for the estimate of a game's cost


class Admissions:
    def __init__(self, config: Config, store: Store, budget: Budget) -> None:
        self.config, self.store, self.budget = config, store, budget

    async def admit(self, game_id: str, guild_id: int, member_id: int, limits: Limits,
                    now: datetime | None = None) -> Ticket | Refused:
        """Reserve the game's place, or say which limit refuses it."""
        now = now or datetime.now(UTC)
        estimate = await self.estimate(limits.provider)
        whole_bot = self.config.limits.dollars_per_month is not None
        month = month_start(now) if whole_bot else None
        async with self.store.admissions.desk(str(guild_id), str(member_id),
                                              whole_bot=whole_bot) as desk:
            await desk.prune(now)
            standing = await desk.standing(now, day_start(now), month)
            refused = self.judge(standing, limits, now)
            if refused is None:
                await desk.hold(game_id, now, now + self.hold_for(), estimate)
        if refused is not None:
            log.info("game %s refused in server %s: %s", game_id, guild_id, refused.limit)
            return refused
        return Ticket(game_id, guild_id, member_id)

    def judge(self, standing: Standing, limits: Limits, now: datetime) -> Refused | None:
        """The first limit a new game would break, in the order a member can act on."""
        if standing.member_last is not None and limits.cooldown > 0:
            wait = (standing.member_last - now).total_seconds() + limits.cooldown
            if wait > 0:
                return Refused("user_cooldown_seconds",
                               f"You can start another game in {math.ceil(wait)} s.")
        if standing.running >= limits.cap:
            return Refused("max_concurrent_games",
                           f"{plural(limits.cap, 'game')} "
                           f"{'is' if limits.cap == 1 else 'are'} already running here; "
                           "wait for one to finish.")
        quota = limits.member_quota
        if quota is not None and standing.member_today >= quota:
            resets = int((day_start(now) + timedelta(days=1)).timestamp())
            return Refused("games_per_member_per_day",
                           f"You have started {plural(standing.member_today, 'game')} here "
                           f"today, the most a member may start in a day. It resets "
                           f"<t:{resets}:R>.")
        return self._over_budget(standing, now)

    def _over_budget(self, standing: Standing, now: datetime) -> Refused | None:
        today = day_start(now)
        server = (self.budget.cost(standing.spent_today)
                  + self._held([h for h in standing.holds if h.admitted_at >= today
                                and h.guild == standing.guild]))
        month = self.budget.cost(standing.spent_month) + self._held(standing.holds)
        refusal = self.budget.refusal(now, standing.started_today, server, month)
        return None if refusal is None else Refused(refusal.budget, refusal.text)

    def _held(self, holds: list[Hold]) -> float:
        """What the admitted games not over are still expected to spend."""
        return sum(max(h.estimate - self.budget.cost(h.spent), 0.0) for h in holds)

    async def estimate(self, provider: str) -> float:
        """The mean estimated cost of the last games finished on `provider` ($0 for a free
        one, or before any game finished)."""
        if self.config.limits.dollars_per_server_per_day is None and \
                self.config.limits.dollars_per_month is None:
            return 0.0  # nothing to hold it against
        games = await self.store.admissions.recent_costs(provider, RECENT_GAMES)
        return sum(self.budget.cost(g) for g in games) / len(games) if games else 0.0

    def hold_for(self) -> timedelta:
        """How long a ticket waits for its game to be stored: the longest fetch, and more."""
        return timedelta(seconds=self.config.pull_requests.deadline_seconds) + HOLD_MARGIN

    async def refuse(self, game_id: str, now: datetime | None = None) -> None:
        """The game was refused for what its member sent, after work was spent on it (a
        download, a fetch, a parse): its ticket keeps counting until the member's cooldown
        ends, so one member cannot repeat a refused megabyte back to back; then it no longer
        counts at all. Never raises, as `release`."""
        cooldown = timedelta(seconds=self.config.discord.user_cooldown_seconds)
        until = (now or datetime.now(UTC)) + cooldown
        await _quietly(game_id, "keep its refused ticket for the cooldown",
                       self.store.admissions.hold_until(game_id, until))

    async def release(self, game_id: str) -> None:
        """Free the place of a game refused after admission or failed: its cooldown and
        quota too. Never raises: a store that fails here is logged, and the ticket then
        stops counting when it expires (or at the game's end, for the cap)."""
        await _quietly(game_id, "release its admission", self.store.admissions.release(game_id))


async def _quietly(game_id: str, what: str, change: Awaitable[bool]) -> None:
    """Await a change to a ticket and log how it went; a failing store is logged, never
    raised: the member was already answered, and the ticket expires on its own."""
    try:
        if await change:
            log.info("game %s: did %s", game_id, what)
    except (StoreError, OSError) as exc:
        log.error("game %s: could not %s: %s", game_id, what, exc)
    except Exception:
        log.exception("game %s: could not %s", game_id, what)

