"""`tribunalbot healthcheck`: the container's (or any supervisor's) health check, exit 0 when
healthy, 1 when not, with one line saying why.

With `[metrics]` on it asks the running bot's `/healthz` (the gateway is connected and the
database answers). With metrics off nothing can ask the bot itself, so it checks what can be
seen from beside it: the config loads (before this runs) and the database answers."""

from __future__ import annotations

from pathlib import Path

import httpx

from tribunalbot.config import Config, MetricsSettings, default_db_path
from tribunalbot.store import StoreError, probe_store
from tribunalbot.terminal.exits import fail

# A bot listening on every address is asked on the loopback of the same family.
ANY_ADDRESS = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}


def health_url(settings: MetricsSettings) -> str:
    host = ANY_ADDRESS.get(settings.host, settings.host)
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{settings.port}/healthz"


async def healthcheck_command(config: Config, db: Path | None, timeout: float) -> int:  # noqa: ASYNC109 (seconds, from the command line)
    if config.metrics.enabled:
        return await _ask_the_bot(health_url(config.metrics), timeout)
    target = db or config.storage.location() or default_db_path()
    try:
        await probe_store(target)
    except StoreError as exc:
        return fail(f"unhealthy: {exc}")
    print("healthy as far as can be seen: the config loads and the database answers "
          "(turn [metrics] on for the bot's own /healthz)")
    return 0


async def _ask_the_bot(url: str, timeout: float) -> int:  # noqa: ASYNC109
    try:
        async with httpx.AsyncClient(timeout=timeout) as client:
            answer = await client.get(url)
    except httpx.HTTPError as exc:
        return fail(f"unhealthy: the bot does not answer on {url} ({exc or type(exc).__name__})")
    if answer.status_code == 200:
        print(f"healthy: {answer.text.strip()}")
        return 0
    return fail(f"unhealthy ({answer.status_code}): {answer.text.strip()[:200]}")
