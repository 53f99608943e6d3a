"""`tribunalbot invite`: the URL that adds the bot to a server with exactly the permissions
it uses, the application id from --client-id or the environment."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import discord
import pytest

from tribunalbot.terminal.cli import main

ROOT = Path(__file__).resolve().parents[2]
APP_ID = "1234567890123456789"
USED = {"view_channel", "send_messages", "send_messages_in_threads", "create_public_threads",
        "manage_webhooks", "embed_links", "attach_files", "read_message_history"}


def printed_url(capsys: pytest.CaptureFixture[str]) -> str:
    (line,) = [x for x in capsys.readouterr().out.splitlines() if x.startswith("https://")]
    return line


def test_the_url_asks_for_exactly_the_permissions_the_bot_uses(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISCORD_APPLICATION_ID", raising=False)
    assert main(["invite", "--client-id", APP_ID]) == 0
    url = printed_url(capsys)
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == "https://discord.com/oauth2/authorize"
    query = parse_qs(parts.query)
    assert query["client_id"] == [APP_ID]
    assert query["scope"] == ["bot applications.commands"]
    assert "scope=bot+applications.commands" in url
    granted = discord.Permissions(int(query["permissions"][0]))
    assert granted == discord.Permissions(**dict.fromkeys(USED, True))


def test_the_permissions_cover_what_review_checks_and_the_discord_page_lists() -> None:
    from tribunalbot.discordbot.cogs.review import NEEDED
    from tribunalbot.terminal.invite import BOT_PERMISSIONS, permission_names

    assert discord.Permissions(**dict.fromkeys(NEEDED, True)) <= BOT_PERMISSIONS
    page = " ".join((ROOT / "docs" / "discord.md").read_text().split())  # lines wrap anywhere
    discord_section = page[page.index("## 3. Add the bot to a server"):]
    for label in permission_names():
        assert label in discord_section, label
    assert "tribunalbot invite" in discord_section


def test_the_application_id_comes_from_the_variable_the_config_names(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text('[discord]\napplication_id_env = "MY_APP"\n')
    monkeypatch.setenv("MY_APP", APP_ID)
    assert main(["invite", "--config", str(config)]) == 0
    assert f"client_id={APP_ID}" in printed_url(capsys)


def test_without_an_id_it_says_where_to_find_one(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISCORD_APPLICATION_ID", raising=False)
    assert main(["invite"]) == 2
    err = capsys.readouterr().err
    assert "--client-id" in err and "DISCORD_APPLICATION_ID" in err
    assert "Application ID" in err


def test_an_id_that_is_not_a_snowflake_is_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["invite", "--client-id", "my-bot"]) == 2
    assert "'my-bot' is not an application id" in capsys.readouterr().err


def test_the_license_file_is_the_mit_license_the_package_declares() -> None:
    import tomllib

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["license"]
    assert declared == {"text": "MIT"}
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 the Tribunal authors" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in text
