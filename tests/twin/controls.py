"""The Twin's knobs: rate limits, the clock and deadlines, a slow CDN, and what a moderator
does behind the bot's back. Mixed into `Twin` (tests call them as `twin.advance(...)`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from . import actions, payloads
from .model import Channel, Member

if TYPE_CHECKING:
    from .core import Core
    from .world import World


class _Identified(Protocol):
    @property
    def id(self) -> int: ...


# Twin records, discord.py objects and bare ids are all accepted where a thing is named.
HasId = _Identified | int


def thing_id(thing: HasId) -> int:
    return thing if isinstance(thing, int) else thing.id


class Controls:
    core: Core
    world: World

    # ---- rate limits -------------------------------------------------------------------------

    def set_rate_limit(self, rule: str, limit: int, window: float) -> None:
        """Change one of the per-resource limits in force by default:
        "webhook" 5 executes per 2 s per webhook, "channel" 30 messages per 60 s landing in one
        channel (shared by the bot and every webhook; a 429 with code 20028 and scope
        "shared", never announced in the headers), "route" 50 per 1 s for every other route
        per major parameter."""
        self.core.limiter.set_rule(rule, limit, window)

    def set_global_rate_limit(self, limit: int | None, window: float = 1.0) -> None:
        """The global limit, on by default at 50 requests per 1 s for the bot token (and,
        separately, for token-less requests such as webhook executes, per IP address).
        Interaction endpoints are exempt. `None` switches it off."""
        self.core.limiter.set_global(limit, window)

    def force_429(self, count: int = 1, *, method: str | None = None, path_contains: str = "",
                  retry_after: float = 0.05, is_global: bool = False) -> None:
        """Answer the next `count` matching requests with a 429, whatever the buckets say."""
        def matches(req_method: str, path: str) -> bool:
            return (method is None or method == req_method) and path_contains in path

        self.core.limiter.force_429(matches, count, retry_after, is_global)

    # ---- time --------------------------------------------------------------------------------

    def advance(self, seconds: float) -> list[Channel]:
        """Move the twin's clock forward: interaction windows and tokens age, rate-limit
        windows end, and threads idle for their auto_archive_duration are archived (with
        THREAD_UPDATE). Returns the threads that were archived."""
        self.world.clock.advance(seconds)
        archived = self.archive_idle_threads()
        self.world.touch()
        return archived

    def archive_idle_threads(self) -> list[Channel]:
        """Archive now every open thread idle for its auto_archive_duration (the twin also
        does this before each REST request). Returns the threads archived."""
        return actions.archive_idle_threads(self.core)

    def set_interaction_deadline(self, seconds: float) -> None:
        """The window for an interaction's first answer (default 3.0 s); later callbacks get
        404 10062 "Unknown interaction"."""
        self.core.interaction_deadline = seconds

    def set_interaction_token_lifetime(self, seconds: float) -> None:
        """How long an interaction token works for followups and @original (default 15 min);
        after it they answer 401 50027 "Invalid Webhook Token". 0 expires every token."""
        self.core.interaction_token_lifetime = seconds

    # ---- the world around the bot --------------------------------------------------------

    def set_cdn_latency(self, seconds: float) -> None:
        """Delay every attachment download from the twin's CDN by `seconds`."""
        self.core.cdn_latency = seconds

    def delete_message(self, channel: HasId, message: HasId) -> None:
        """A moderator deletes a message (any author): MESSAGE_DELETE goes out, and the
        message is gone from REST (10008) and from channel history."""
        target = self.world.channel(thing_id(channel))
        actions.delete(self.core, self.world.message(target, thing_id(message)))

    # ---- the bot's membership ----------------------------------------------------------------

    def remove_bot_from_guild(self, guild: HasId, *, outage: bool = False) -> Member | None:
        """A member kicks the bot, or Discord loses the guild for a while (`outage`).

        Removal: the bot's member is gone and GUILD_DELETE carries no `unavailable` key (as on
        Discord: discord.py then fires `on_guild_remove`). Outage: the bot stays a member and
        GUILD_DELETE says `unavailable: true` (`on_guild_unavailable`). Returns the removed
        member, to hand back to `add_bot_to_guild`."""
        target = self.world.guild(thing_id(guild))
        removed = None if outage else target.members.pop(self.world.app.id, None)
        data: dict[str, object] = {"id": str(target.id)}
        if outage:
            data["unavailable"] = True
        self.core.dispatch("GUILD_DELETE", data)
        return removed

    def add_bot_to_guild(self, guild: HasId, member: Member | None = None) -> None:
        """The bot is invited back (`member`: its old roles), or the guild is back after an
        outage (no member): GUILD_CREATE with the whole guild. A join's GUILD_CREATE has no
        `unavailable` key, an outage's end says `false`; discord.py fires `on_guild_join` or
        `on_guild_available` by that alone."""
        target = self.world.guild(thing_id(guild))
        if member is not None:
            target.members[self.world.app.id] = member
        data = payloads.guild_create(self.world, target)
        if member is not None:
            del data["unavailable"]
        self.core.dispatch("GUILD_CREATE", data)
