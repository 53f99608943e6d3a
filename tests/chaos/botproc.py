"""The real bot in a process of its own, pointed at a Discord twin: `python -m
tests.chaos.botproc` (cwd = the project root). The chaos tests kill and restart it.

Everything it needs comes from the environment (see `Env`), so the test process can start
the same bot again after a kill: the same database, game id and seed every time."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl

from tests import orphans
from tests.twin.clients import client_options as twin_client_options
from tribunalbot import ids
from tribunalbot.bot import run_bot
from tribunalbot.config import load_config

PREFIX = "TRIBUNAL_CHAOS_"
# A bot outliving its test is a bug of the harness; this caps the damage.
MAX_LIFETIME_SECONDS = 175.0
LEASE_SECONDS = 3.0


@dataclass(frozen=True)
class Env:
    base_url: str  # the twin's http://127.0.0.1:PORT
    gateway_url: str  # the twin's ws://127.0.0.1:PORT/gateway
    workdir: Path  # config file and database
    guild_id: int
    game_id: str
    seed: int
    vote_window: int
    max_rounds: int
    shard: tuple[int, int] | None = None  # (id, count): one process of several
    store_url: str = ""  # a PostgreSQL store (storage.url); "" is the workdir's SQLite file
    settings: str = ""  # the whole config file, instead of `config_toml`'s
    lease_seconds: float = LEASE_SECONDS  # `config_toml`'s

    @classmethod
    def read(cls) -> Env:
        get = os.environ.__getitem__
        shard = os.environ.get(PREFIX + "SHARD")
        return cls(get(PREFIX + "BASE_URL"), get(PREFIX + "GATEWAY_URL"),
                   Path(get(PREFIX + "WORKDIR")), int(get(PREFIX + "GUILD")),
                   get(PREFIX + "GAME_ID"), int(get(PREFIX + "SEED")),
                   int(get(PREFIX + "VOTE_WINDOW")), int(get(PREFIX + "MAX_ROUNDS")),
                   _shard(shard) if shard else None, os.environ.get(PREFIX + "STORE", ""),
                   os.environ.get(PREFIX + "SETTINGS", ""),
                   float(os.environ.get(PREFIX + "LEASE", LEASE_SECONDS)))

    def variables(self) -> dict[str, str]:
        """The inverse of `read`, for the test process that spawns the bot."""
        found = {PREFIX + "BASE_URL": self.base_url, PREFIX + "GATEWAY_URL": self.gateway_url,
                 PREFIX + "WORKDIR": str(self.workdir), PREFIX + "GUILD": str(self.guild_id),
                 PREFIX + "GAME_ID": self.game_id, PREFIX + "SEED": str(self.seed),
                 PREFIX + "VOTE_WINDOW": str(self.vote_window),
                 PREFIX + "MAX_ROUNDS": str(self.max_rounds),
                 PREFIX + "LEASE": str(self.lease_seconds)}
        if self.shard is not None:
            found[PREFIX + "SHARD"] = f"{self.shard[0]}/{self.shard[1]}"
        if self.store_url:
            found[PREFIX + "STORE"] = self.store_url
        if self.settings:
            found[PREFIX + "SETTINGS"] = self.settings
        return found

    def shard_options(self) -> dict[str, Any]:
        if self.shard is None:
            return {}
        return {"shard_ids": [self.shard[0]], "shard_count": self.shard[1]}


def _shard(text: str) -> tuple[int, int]:
    shard_id, count = text.split("/")
    return int(shard_id), int(count)


def config_toml(env: Env) -> str:
    # Fast and deterministic: no pacing, no random event, short window, few rounds.
    return (f"[game]\nvote_window_seconds = {env.vote_window}\nevent_chance = 0.0\n"
            f"max_rounds = {env.max_rounds}\n\n"
            "[discord]\npost_interval_seconds = 0.0\nuser_cooldown_seconds = 0\n"
            # Leases checked every third of this (every second by default): a takeover a
            # test waits for comes quickly.
            f"lease_seconds = {env.lease_seconds}\n"
            + (f'\n[storage]\nurl = "{env.store_url}"\n' if env.store_url else ""))


def point_discord_py_at(env: Env) -> None:
    # The same two redirects as the twin's own start_client (facts §9.1).
    discord.http.Route.BASE = f"{env.base_url}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(env.gateway_url)


def fix_identity(env: Env) -> None:
    """The game id and seed the test expects (no game id: each game its own). The `/review`
    extension imports both names at load time (load_extension executes it afresh), so the
    source module is what must change."""
    if not env.game_id:
        return
    ids.new_game_id = lambda: env.game_id
    ids.new_seed = lambda: env.seed
    review = sys.modules.get("tribunalbot.discordbot.cogs.review")
    if review is not None:
        review.new_game_id = ids.new_game_id  # type: ignore[attr-defined]
        review.new_seed = ids.new_seed  # type: ignore[attr-defined]


def exit_with_parent(limit: float = MAX_LIFETIME_SECONDS) -> None:
    """Leave when the parent process is gone (even SIGKILLed), or at `limit`."""
    orphans.exit_with_parent(limit)


def client_options() -> dict[str, Any]:
    return twin_client_options()


def main() -> int:
    env = Env.read()
    exit_with_parent()
    point_discord_py_at(env)
    fix_identity(env)
    # Several processes may share the workdir (and its database): one config file each.
    path = env.workdir / f"tribunal-{env.guild_id}.toml"
    path.write_text(env.settings or config_toml(env), encoding="utf-8")
    config = load_config(path)
    db = None if env.store_url else env.workdir / "bot.db"  # a URL comes from the config
    return run_bot(config, db, env.guild_id, **client_options(), **env.shard_options())


if __name__ == "__main__":
    sys.exit(main())
