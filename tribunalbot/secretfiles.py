"""The secrets the bot reads from its environment, and each one's value from a file instead.

A variable `NAME_FILE` names a file that holds NAME's value: what Docker and Compose secrets
(`/run/secrets/...`) and systemd credentials give a service. A secret given so is never in
the container's configuration (`docker inspect` shows every environment variable it was
started with) nor in a unit's environment; the bot reads it once at start.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from pathlib import Path
from urllib.parse import unquote, urlsplit

from tribunalbot.config import Config, ConfigError

FILE_SUFFIX = "_FILE"
# The bearer token a scrape of `/metrics` must show (tribunalbot/metrics/server.py); unset,
# the endpoint is open to whoever reaches its port.
METRICS_TOKEN_ENV = "TRIBUNAL_METRICS_TOKEN"


def secret_names(config: Config) -> list[str]:
    """The variables holding secrets: those the config names (the bot token, API keys, pull
    request tokens, read and write), $PGPASSWORD and the metrics' bearer token."""
    prs = config.pull_requests
    return [config.discord.token_env, prs.github_token_env, prs.gitlab_token_env,
            prs.github_write_token_env, prs.gitlab_write_token_env, "PGPASSWORD",
            METRICS_TOKEN_ENV, *(p.api_key_env for p in config.providers.values() if p.api_key_env)]


def secret_values(config: Config, environ: MutableMapping[str, str]) -> list[str]:
    """Every secret this process can know of: the values of `secret_names` and a password in
    the storage URL."""
    found = [environ[name].strip() for name in secret_names(config)
             if environ.get(name, "").strip()]
    password = urlsplit(config.storage.url).password if config.storage.url else None
    if password:
        found += [password, unquote(password)]
    return found


def load_secret_files(config: Config, environ: MutableMapping[str, str]) -> None:
    """For each secret whose `NAME_FILE` is set, NAME from that file (its last line break
    dropped). Raises ConfigError saying which variable and why (never the value)."""
    for name in dict.fromkeys(secret_names(config)):
        path = environ.get(name + FILE_SUFFIX, "").strip()
        if not path:
            continue
        if environ.get(name, "").strip():
            raise ConfigError(f"both {name} and {name}{FILE_SUFFIX} are set: give the secret "
                              "one way")
        try:
            value = Path(path).read_text(encoding="utf-8").rstrip("\r\n")
        except (OSError, UnicodeDecodeError) as exc:
            reason = getattr(exc, "strerror", None) or "not text"
            raise ConfigError(f"{name}{FILE_SUFFIX} names {path}, which cannot be read: "
                              f"{reason}") from None
        if not value.strip():
            raise ConfigError(f"{name}{FILE_SUFFIX} names {path}, which is empty")
        environ[name] = value
