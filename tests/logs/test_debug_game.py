"""A whole game on the Discord twin with logging at DEBUG (issue 16, Found 5): discord.py's
records carry webhook tokens (in URLs and in the answer to a webhook's creation) and
interaction tokens (in callback URLs and gateway payloads); none of them, nor the bot token,
an API key or a pull request token, reaches what the configured handler writes."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from tests.bot.conftest import Arena, fast_config
from tests.bot.conftest import arena as arena
from tests.bot.test_game_e2e import is_reveal, play_review, vote_ids
from tests.logs.test_redaction import root as root
from tests.samples import CODE
from tests.twin.conftest import twin as twin
from tribunalbot.config import Config
from tribunalbot.logs import configure_logging, secrets_of

pytestmark = pytest.mark.twin
API_KEY = "sk-proj-" + "A1b2C3d4" * 6
GITHUB_TOKEN = "ghp_" + "Z9y8X7w6" * 5
GITLAB_TOKEN = "glpat-" + "Q1w2E3r4" * 3


class Raw(logging.Handler):
    """What discord.py's records said before any filter: the proof there was something to
    hide. It sits on the `discord` logger, whose handlers run before the root's."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def debug_config(log_file: Path) -> Config:
    base = fast_config().model_dump(mode="json", exclude_none=True)
    return Config.model_validate({
        **base,
        "providers": {**base["providers"], "spare": {
            "kind": "openai", "api_key_env": "SPARE_KEY", "model": "m",
            "base_url": "http://127.0.0.1:9/v1"}},
        "logging": {"level": "DEBUG", "format": "json", "file": str(log_file)}})


async def test_a_game_logged_at_debug_writes_no_secret(
        arena: Arena, root: logging.Logger, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    twin = arena.twin
    for name, value in (("DISCORD_TOKEN", twin.token), ("SPARE_KEY", API_KEY),
                        ("GITHUB_TOKEN", GITHUB_TOKEN), ("GITLAB_TOKEN", GITLAB_TOKEN)):
        monkeypatch.setenv(name, value)
    log_file = tmp_path / "bot.log"
    config = debug_config(log_file)
    configure_logging(config.logging, secrets_of(config))
    raw = Raw()
    logging.getLogger("discord").addHandler(raw)
    try:
        bot = arena.make_bot(config)
        await twin.start_client(bot)
        thread_id, ballot = await play_review(arena, code=CODE)
        seat = next(i for i in vote_ids(ballot) if i.startswith("tribunal:vote:"))
        await twin.click(twin.seeded.humans["bob"], ballot, seat)
        await twin.wait_for_message(thread_id, is_reveal, timeout=30)
        logging.getLogger("tribunalbot.test").debug("keys in play: %s %s %s", API_KEY,
                                                    GITHUB_TOKEN, GITLAB_TOKEN)
        await twin.stop_client(bot)
    finally:
        logging.getLogger("discord").removeHandler(raw)
    webhooks = [h.token for h in twin.world.webhooks.values() if h.token]
    interactions = [i.token for i in twin.world.interactions.values()]
    assert len(webhooks) >= 8 and len(interactions) >= 2
    said = "\n".join(raw.lines)
    assert any(t in said for t in webhooks) and any(t in said for t in interactions)
    lines = log_file.read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    assert len(records) > 100 and {r["logger"].split(".")[0] for r in records} >= {"discord"}
    text = "\n".join(lines)
    for secret in [twin.token, API_KEY, GITHUB_TOKEN, GITLAB_TOKEN, *webhooks, *interactions]:
        assert secret not in text
    assert "/webhooks/" in text and "/***" in text  # the URLs are still there, tokens not
