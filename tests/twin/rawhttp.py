"""Plain HTTP against the twin for tests that must see exact statuses, headers and bodies,
without discord.py retrying 429s or raising on 4xx first."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import aiohttp

from .twin import Twin


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: Any


@dataclass
class Raw:
    twin: Twin
    http: aiohttp.ClientSession

    async def bot(self, method: str, path: str, body: Any = None,
                  params: dict[str, str] | None = None) -> Answer:
        """A request with the bot's token, like discord.py's HTTPClient."""
        return await self.call(method, path, body, params,
                               {"Authorization": f"Bot {self.twin.token}"})

    async def call(self, method: str, path: str, body: Any = None,
                   params: dict[str, str] | None = None,
                   headers: dict[str, str] | None = None,
                   data: aiohttp.FormData | None = None) -> Answer:
        """A request without a token unless `headers` carry one (webhooks, interactions)."""
        url = f"{self.twin.base_url}/api/v10{path}"
        async with self.http.request(method, url, json=body, params=params, data=data,
                                     headers=headers) as reply:
            raw = await reply.read()
            parsed = json.loads(raw) if raw else None
            return Answer(reply.status, dict(reply.headers), parsed)

    async def webhook(self, channel_id: int, name: str = "Personas") -> tuple[int, str]:
        made = await self.bot("POST", f"/channels/{channel_id}/webhooks", {"name": name})
        assert made.status == 200, made.body
        return int(made.body["id"]), str(made.body["token"])

    async def execute(self, hook: tuple[int, str], content: str, *,
                      params: dict[str, str] | None = None, **extra: Any) -> Answer:
        """Execute a webhook with ?wait=true (plus `params`); `extra` joins the body."""
        return await self.call("POST", f"/webhooks/{hook[0]}/{hook[1]}",
                               {"content": content, **extra}, {"wait": "true", **(params or {})})


@asynccontextmanager
async def raw_client(twin: Twin) -> AsyncIterator[Raw]:
    async with aiohttp.ClientSession() as http:
        yield Raw(twin, http)
