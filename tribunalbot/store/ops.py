"""Operational tables: LLM call accounting, per-guild settings, reusable webhooks (one per
persona per channel, plus the shared one older versions made, kept as the fallback)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

from tribunalbot.llm.usage import Tokens
from tribunalbot.store.db import Db
from tribunalbot.store.games import now_iso


class CallLike(Tokens, Protocol):
    """The attributes of `llm.usage.CallRecord` the store keeps: its tokens, and these."""

    @property
    def game_id(self) -> str: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def phase(self) -> str: ...
    @property
    def latency_ms(self) -> float: ...
    @property
    def outcome(self) -> str: ...


@dataclass(frozen=True)
class UsageTotals:
    calls: int
    failed: int
    input_tokens: int
    cached_tokens: int
    output_tokens: int
    latency_ms: float


SHARED = ""  # the persona key of a channel's shared webhook


@dataclass(frozen=True)
class Spend:
    """The calls of one provider and model, summed (`llm.usage.summarize` prices them)."""

    provider: str
    model: str
    calls: int
    failed: int
    input_tokens: int
    cached_tokens: int
    output_tokens: int


_SPEND_COLUMNS = (
    "c.provider, c.model, count(*), "
    # A call cut short (outcome 'cancelled') did not fail: the usage line names it apart.
    "coalesce(sum(CASE WHEN c.outcome NOT IN ('ok', 'cancelled') THEN 1 ELSE 0 END), 0), "
    "coalesce(sum(c.input_tokens), 0), coalesce(sum(c.cached_tokens), 0), "
    "coalesce(sum(c.output_tokens), 0)")


@dataclass(frozen=True)
class Webhook:
    channel_id: str
    guild_id: str
    webhook_id: str
    token: str
    persona: str = SHARED  # whose webhook it is: a Persona.key, or SHARED


class OpsRepo:
    def __init__(self, db: Db) -> None:
        self._db = db

    def record_call(self, call: CallLike) -> None:
        """Queue the call's row; the reply goes on to the game at once. The row is committed
        with the next write (on SQLite, with or before every write queued after it: no event
        a reply made is stored without the reply's call), and every read of the calls below
        waits for it."""
        self._db.defer(
            "INSERT INTO llm_calls (game_id, seat, phase, provider, model, input_tokens, "
            "cached_tokens, output_tokens, latency_ms, outcome, at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            [(call.game_id or "", call.seat, call.phase, call.provider, call.model,
              call.input_tokens, call.cached_tokens, call.output_tokens, float(call.latency_ms),
              call.outcome, now_iso())],
        )

    async def usage(self, game_id: str | None = None) -> UsageTotals:
        where, params = ("WHERE game_id = ?", (game_id,)) if game_id is not None else ("", ())
        await self._db.flush()
        row = await self._db.fetchone(
            "SELECT count(*), coalesce(sum(CASE WHEN outcome != 'ok' THEN 1 ELSE 0 END), 0), "
            "coalesce(sum(input_tokens), 0), "
            "coalesce(sum(cached_tokens), 0), coalesce(sum(output_tokens), 0), "
            f"coalesce(sum(latency_ms), 0) FROM llm_calls {where}",
            params,
        )
        assert row is not None  # an aggregate always returns one row
        return UsageTotals(int(row[0]), int(row[1]), int(row[2]), int(row[3]), int(row[4]),
                           float(row[5]))

    async def cut_short_in_game(self, game_id: str) -> int:
        """The game's calls given up before their answer (outcome 'cancelled')."""
        row = await self._db.fetchone(
            "SELECT count(*) FROM llm_calls WHERE game_id = ? AND outcome = 'cancelled'",
            (game_id,))
        return int(row[0]) if row else 0

    async def spend_of_game(self, game_id: str) -> list[Spend]:
        await self._db.flush()
        rows = await self._db.fetchall(
            f"SELECT {_SPEND_COLUMNS} FROM llm_calls c WHERE c.game_id = ? "
            "GROUP BY c.provider, c.model ORDER BY c.provider, c.model", (game_id,))
        return [_spend(row) for row in rows]

    async def spend_since(self, since: str, guild: str | None = None) -> list[Spend]:
        """The calls of the Discord games started at or after `since` (ISO, UTC) in `guild`,
        or in every guild when None. A game's calls count toward when it started, so a game
        that runs past midnight belongs to the day it began."""
        where, params = ("g.guild_id = ?", (guild,)) if guild is not None else (
            "g.guild_id != ''", ())
        await self._db.flush()
        rows = await self._db.fetchall(
            f"SELECT {_SPEND_COLUMNS} FROM games g JOIN llm_calls c ON c.game_id = g.id "
            f"WHERE {where} AND g.created_at >= ? GROUP BY c.provider, c.model "
            "ORDER BY c.provider, c.model", (*params, since))
        return [_spend(row) for row in rows]

    async def spend_by_guild(self, since: str | None = None
                             ) -> list[tuple[str | None, Spend]]:
        """Every call since `since` (ISO, UTC; None: all time), summed per guild, provider
        and model. A call counts toward when its game started; a call whose game is gone
        (its server purged) counts toward when it was made, under the guild None."""
        when = "WHERE coalesce(g.created_at, c.at) >= ?" if since is not None else ""
        await self._db.flush()
        rows = await self._db.fetchall(
            f"SELECT g.guild_id, {_SPEND_COLUMNS} FROM llm_calls c "
            f"LEFT JOIN games g ON g.id = c.game_id {when} "
            "GROUP BY g.guild_id, c.provider, c.model ORDER BY g.guild_id, c.provider, c.model",
            (since,) if since is not None else ())
        return [(None if row[0] is None else str(row[0]), _spend(row[1:])) for row in rows]

    async def games_by_guild(self, since: str | None = None) -> dict[str, int]:
        """Games started since `since` (None: all time) in each guild, however they ended."""
        when = "WHERE created_at >= ?" if since is not None else ""
        rows = await self._db.fetchall(
            f"SELECT guild_id, count(*) FROM games {when} GROUP BY guild_id",
            (since,) if since is not None else ())
        return {str(row[0]): int(row[1]) for row in rows}

    async def games_since(self, since: str, guild: str) -> int:
        """Games `guild` started at or after `since`, however they ended."""
        row = await self._db.fetchone(
            "SELECT count(*) FROM games WHERE guild_id = ? AND created_at >= ?", (guild, since))
        return int(row[0]) if row else 0

    async def guild_settings(self, guild: str) -> dict[str, Any] | None:
        """The guild's stored overrides (a JSON object), or None when it has none."""
        row = await self._db.fetchone("SELECT settings FROM guild_settings WHERE guild_id = ?",
                                      (guild,))
        if row is None:
            return None
        value = json.loads(row[0])
        return value if isinstance(value, dict) else None

    async def set_guild_settings(self, guild: str, settings: dict[str, Any]) -> None:
        await self._db.execute(
            "INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (?,?,?) "
            "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings, "
            "updated_at = excluded.updated_at",
            (guild, json.dumps(settings, sort_keys=True), now_iso()),
        )

    async def webhook(self, channel_id: str, persona: str = SHARED) -> Webhook | None:
        row = await self._db.fetchone(
            "SELECT channel_id, guild_id, webhook_id, token, persona FROM webhooks "
            "WHERE channel_id = ? AND persona = ?",
            (channel_id, persona),
        )
        return Webhook(*row) if row else None

    async def webhooks(self, channel_id: str) -> list[Webhook]:
        """Every webhook stored for a channel, the shared one (if any) first."""
        rows = await self._db.fetchall(
            "SELECT channel_id, guild_id, webhook_id, token, persona FROM webhooks "
            "WHERE channel_id = ? ORDER BY persona",
            (channel_id,),
        )
        return [Webhook(*row) for row in rows]

    async def save_webhook(self, hook: Webhook) -> None:
        await self._db.execute(
            "INSERT INTO webhooks (channel_id, persona, guild_id, webhook_id, token, created_at) "
            "VALUES (?,?,?,?,?,?) ON CONFLICT (channel_id, persona) DO UPDATE SET "
            "webhook_id = excluded.webhook_id, token = excluded.token, "
            "guild_id = excluded.guild_id",
            (hook.channel_id, hook.persona, hook.guild_id, hook.webhook_id, hook.token,
             now_iso()),
        )

    async def delete_webhook(self, channel_id: str, persona: str = SHARED) -> None:
        """Forget a webhook Discord says is gone (404), so the next game creates a new one."""
        await self._db.execute("DELETE FROM webhooks WHERE channel_id = ? AND persona = ?",
                               (channel_id, persona))


def _spend(row: tuple[Any, ...]) -> Spend:
    return Spend(str(row[0]), str(row[1]), *(int(v) for v in row[2:7]))
