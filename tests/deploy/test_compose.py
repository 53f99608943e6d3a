"""compose.yaml against the image, the config it mounts and the code: every variable it gives
the bot is one the bot reads, and its command, ports and volumes are the Dockerfile's and
the config's."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.deploy.files import (
    LIBRARY_READS,
    ROOT,
    compose,
    config_env_names,
    docker_env,
    env_template,
    instruction,
    last_exec_form,
    pyproject,
    seconds,
    variables_the_code_reads,
)
from tribunalbot.config import Config, load_config
from tribunalbot.discordbot.runner import SHUTDOWN_GRACE
from tribunalbot.secretfiles import FILE_SUFFIX, secret_names

BOT, DB = "bot", "db"


def service(name: str) -> dict[str, Any]:
    found: dict[str, Any] = compose()["services"][name]
    return found


def mounts(name: str) -> dict[str, str]:
    """Container path -> source (a named volume, or a path relative to compose.yaml)."""
    found = {}
    for volume in service(name)["volumes"]:
        source, target, *_ = volume.split(":")
        found[target] = source
    return found


def mounted_config() -> Config:
    target = service(BOT)["environment"]["TRIBUNAL_CONFIG"]
    return load_config(ROOT / mounts(BOT)[target])


def test_the_bot_service_runs_the_images_command() -> None:
    bot = service(BOT)
    assert bot["build"] == "." and (ROOT / "Dockerfile").is_file()
    assert bot["command"] == last_exec_form("CMD")
    assert bot["stop_signal"] == instruction("STOPSIGNAL")[0]
    assert bot["init"] is True  # SIGTERM reaches the bot even before its handlers exist


def test_the_stop_grace_period_is_above_the_bots_shutdown_grace() -> None:
    assert seconds(service(BOT)["stop_grace_period"]) >= SHUTDOWN_GRACE + 20


def test_the_bot_keeps_its_data_in_the_images_volume_and_named_volumes_hold_both() -> None:
    (volume,) = last_exec_form("VOLUME")
    assert mounts(BOT)[volume] in compose()["volumes"]
    assert mounts(DB)["/var/lib/postgresql/data"] in compose()["volumes"]
    assert docker_env()["XDG_DATA_HOME"] == volume


def test_the_mounted_config_loads_and_serves_metrics_on_the_published_port() -> None:
    config = mounted_config()
    (published,) = service(BOT)["ports"]
    host, outside, inside = published.split(":")
    assert host == "127.0.0.1"  # the host's loopback only
    assert config.metrics.enabled and config.metrics.host == "0.0.0.0"
    assert int(inside) == int(outside) == config.metrics.port
    assert instruction("EXPOSE") == [inside]
    assert ":ro" in next(v for v in service(BOT)["volumes"] if "/config/" in v)


def test_the_database_service_is_the_one_the_storage_url_names() -> None:
    url = urlsplit(mounted_config().storage.url or "")
    db = service(DB)
    assert url.scheme == "postgresql" and url.hostname == DB and url.password is None
    assert (url.username, url.path.lstrip("/")) == (db["environment"]["POSTGRES_USER"],
                                                   db["environment"]["POSTGRES_DB"])
    assert "pgvector" in db["image"]
    assert service(BOT)["depends_on"][DB]["condition"] == "service_healthy"


def read_by_the_bot(config: Config) -> set[str]:
    return config_env_names(config) | variables_the_code_reads() | set(LIBRARY_READS)


def test_every_variable_compose_gives_the_bot_is_one_the_bot_reads() -> None:
    bot = service(BOT)
    assert ".env" in (ROOT / ".gitignore").read_text().split()  # compose reads it; never
    assert ".env" in (ROOT / ".dockerignore").read_text().split()  # committed nor built in
    plain = {n for n in bot["environment"] if not n.endswith(FILE_SUFFIX)}
    assert plain - read_by_the_bot(mounted_config()) == set()


def test_the_secrets_reach_the_bot_as_files_never_as_its_variables() -> None:
    """`docker inspect` lists a container's variables to whoever may run it: the bot gets no
    env_file, and each secret of .env as a file under /run/secrets that NAME_FILE names."""
    bot, config = service(BOT), mounted_config()
    assert "env_file" not in bot
    names = set(secret_names(config))
    assert names & set(bot["environment"]) == set()
    sources = {name: spec["environment"] for name, spec in compose()["secrets"].items()}
    files = {n.removesuffix(FILE_SUFFIX): v for n, v in bot["environment"].items()
             if n.endswith(FILE_SUFFIX)}
    assert {config.discord.token_env, "PGPASSWORD"} <= set(files) <= names
    for name, path in files.items():
        secret = path.removeprefix("/run/secrets/")
        assert secret in bot["secrets"] and sources[secret] == name
    assert set(sources.values()) <= env_template()[0]  # each one a line of the template


def test_the_database_takes_its_password_from_the_same_secret() -> None:
    db = service(DB)
    assert "POSTGRES_PASSWORD" not in db["environment"]
    assert db["environment"]["POSTGRES_PASSWORD_FILE"] == "/run/secrets/pgpassword"
    assert db["secrets"] == ["pgpassword"] and "pgpassword" in service(BOT)["secrets"]


def test_the_bot_runs_read_only_without_capabilities() -> None:
    bot = service(BOT)
    assert bot["read_only"] is True and bot["cap_drop"] == ["ALL"]
    assert "no-new-privileges:true" in bot["security_opt"]
    # What it writes: its volume (the database, a log) and scratch in /tmp.
    assert "/data" in mounts(BOT) and bot["tmpfs"] == ["/tmp"]


def test_the_env_template_holds_the_secrets_the_config_needs() -> None:
    config = mounted_config()
    active, _ = env_template()
    assert {config.discord.token_env, "PGPASSWORD"} <= active


def test_every_variable_the_env_template_mentions_is_one_some_config_reads() -> None:
    """The commented-out ones are for providers and hosts the shipped example configures."""
    _, commented = env_template()
    example = load_config(ROOT / "config.example.toml")
    assert commented - read_by_the_bot(example) == set()
    assert "OPENAI_API_KEY" in commented


@pytest.mark.parametrize("name", sorted(LIBRARY_READS))
def test_each_variable_read_by_a_library_names_a_library_the_bot_installs(name: str) -> None:
    project = pyproject()["project"]
    installed = [*project["dependencies"], *project["optional-dependencies"]["postgres"]]
    library = LIBRARY_READS[name].split(":")[0]
    assert any(d.startswith(library) for d in installed)
