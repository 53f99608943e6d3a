"""`tribunalbot init`: a first `tribunal.toml` and the `.env` holding its secrets.

On a terminal it asks for what no flag gave (the database, the provider, the bot token and
an API key, the last two unseen); in a script or a container the flags, standard input
(`--token-from-stdin`) and the environment give them, and nothing is asked. The settings it
writes are checked by the config's own model before anything is written, so they load; the
token is checked by its shape (tribunalbot/tokens.py) and never printed. Neither file is
ever overwritten: a config someone edited, or a secret, would be lost.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import re
import shlex
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import get_args

from pydantic import ValidationError

from tribunalbot.config import Config, DiscordSettings, ProviderKind, default_db_path
from tribunalbot.config_errors import describe
from tribunalbot.private import private_dir, write_private
from tribunalbot.terminal.exits import EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_USAGE, fail
from tribunalbot.tokens import bot_user_id, token_problem

CONFIG_NAME = "tribunal.toml"
SECRETS_NAME = ".env"
# Every kind a config takes but "replay" (a recording is played back, never set up).
KINDS = ("offline", *(k for k in get_args(ProviderKind) if k not in ("offline", "replay")))
# The variable each hosted kind's key is kept in, as config.example.toml names them.
KEY_VARIABLES = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
# What the questions offer as the model; any model the server serves will do.
SUGGESTED_MODELS = {"openai": "gpt-4.1-mini", "anthropic": "claude-sonnet-4-5",
                    "ollama": "qwen2.5-coder:7b"}
# What a line of .env cannot hold unquoted and mean the same to a shell, Compose and systemd.
_UNSAFE = re.compile(r"[\s'\"`$#\\]")
TRIES = 3  # a mistyped or mispasted secret is asked again, this many times in all


class InitError(Exception):
    """Why init stops, in words for the person running it (never a secret), and its exit
    status."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Provider:
    kind: str
    model: str
    base_url: str | None = None


def provider_choice(text: str) -> Provider:
    """`KIND/MODEL` (`offline` alone) as --provider takes it."""
    kind, _, model = text.strip().partition("/")
    kind = kind.strip().lower()
    if kind not in KINDS:
        raise argparse.ArgumentTypeError(_unknown_kind(kind))
    if kind == "offline":
        return Provider("offline", "offline")
    if not model.strip():
        raise argparse.ArgumentTypeError(
            f"give the model too, e.g. {kind}/{SUGGESTED_MODELS[kind]}")
    return Provider(kind, model.strip())


def _unknown_kind(kind: str) -> str:
    return f"unknown provider kind {kind!r}: choose one of {', '.join(KINDS)}"


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "init", help=f"write a first {CONFIG_NAME} and the {SECRETS_NAME} holding its secrets "
        "(asked on a terminal, else from flags and the environment)")
    parser.add_argument("--dir", type=Path, default=Path("."),
                        help=f"where to write {CONFIG_NAME} and {SECRETS_NAME} (default: here)")
    parser.add_argument("--database", metavar="FILE",
                        help="the SQLite database file (default: the user data directory)")
    parser.add_argument("--provider", type=provider_choice, metavar="KIND/MODEL",
                        help=f"the model provider games use: {', '.join(KINDS[1:])} with "
                        "a model (openai/gpt-4.1-mini), or offline (the default: no key, no "
                        "network)")
    parser.add_argument("--base-url", metavar="URL",
                        help="the provider's server, for an OpenAI-compatible one or an Ollama "
                        "elsewhere (default: the provider's own)")
    parser.add_argument("--token-from-stdin", action="store_true",
                        help="read the bot token from standard input's first line (default: "
                        "$DISCORD_TOKEN, else asked on a terminal); an API key comes from its "
                        "variable, e.g. $OPENAI_API_KEY")


def init_command(args: argparse.Namespace) -> int:
    try:
        return _init(args)
    except InitError as exc:
        return fail(str(exc), exc.code)
    except (KeyboardInterrupt, EOFError):
        return fail("interrupted: nothing was written", EXIT_INTERRUPTED)


def _init(args: argparse.Namespace) -> int:
    folder: Path = args.dir
    config_path, secrets_path = folder / CONFIG_NAME, folder / SECRETS_NAME
    _refuse_existing(folder, config_path, secrets_path)
    asking = sys.stdin.isatty()
    database = _database(args.database, asking)
    provider = _provider(args.provider, args.base_url, asking)
    settings = render_config(database, provider)
    check_settings(settings)
    token = _bot_token(args.token_from_stdin, asking)
    secrets = {DiscordSettings().token_env: token, **_api_key(provider.kind, asking)}
    _write(folder, config_path, secrets_path, settings, secrets)
    print(next_steps(config_path, secrets_path, bot_user_id(token) or "?"))
    return 0


def _refuse_existing(folder: Path, *paths: Path) -> None:
    if folder.exists() and not folder.is_dir():
        raise InitError(f"--dir {folder} is a file, not a folder")
    for path in paths:
        if path.exists() or path.is_symlink():
            raise InitError(_exists(path))


def _exists(path: Path) -> str:
    return f"{path} exists already: init never overwrites it (move it away, or edit it)"


def _database(given: str | None, asking: bool) -> Path | None:
    """The database file as written to the config, absolute so that the bot finds the same
    file wherever it is started; None: the user data directory."""
    if given is None and asking:
        given = _ask(f"Database file (empty: {default_db_path()}): ")
    if not given or not given.strip():
        return None
    if "://" in given:
        raise InitError("--database takes a SQLite file's path; for PostgreSQL set storage.url "
                        f"in {CONFIG_NAME} afterwards (config.example.toml shows how)")
    return Path(given.strip()).expanduser().absolute()


def _provider(given: Provider | None, base_url: str | None, asking: bool) -> Provider:
    if given is None and asking:
        given = _ask_provider()
        if given.kind != "offline" and base_url is None:
            base_url = _ask("Server URL (empty: the provider's own): ") or None
    given = given or Provider("offline", "offline")
    if base_url and given.kind == "offline":
        raise InitError("--base-url is for a provider with a server; offline has none")
    return Provider(given.kind, given.model, base_url)


def _ask_provider() -> Provider:
    answer = _ask(f"Model provider ({', '.join(KINDS)}) [offline]: ") or "offline"
    kind, _, model = answer.partition("/")
    kind = kind.strip().lower()
    if kind not in KINDS:
        raise InitError(_unknown_kind(kind))
    if kind == "offline":
        return Provider("offline", "offline")
    suggested = SUGGESTED_MODELS[kind]
    return Provider(kind, model.strip() or _ask(f"Model [{suggested}]: ") or suggested)


def _ask(prompt: str) -> str:
    return input(prompt).strip()


def render_config(database: Path | None, provider: Provider) -> str:
    """The commented settings: only what was chosen, every other key at its default."""
    name = provider.kind
    discord = DiscordSettings()
    parts = [
        "# Tribunal's settings, written by `tribunalbot init`. Every key left out keeps its",
        "# default; config.example.toml documents them all. Secrets never go here: each *_env",
        f"# key names the variable holding one, kept in {SECRETS_NAME} beside this file.", "",
        "# The provider games use unless a server picks another.",
        f"default_provider = {_quoted(name)}", "",
        *_provider_section(provider),
        "[storage]",
        *_storage_lines(database), "",
        "[discord]",
        f"token_env = {_quoted(discord.token_env)}  # the variable holding the bot token",
        f"application_id_env = {_quoted(discord.application_id_env)}  # for `tribunalbot "
        "invite`", ""]
    return "\n".join(parts)


def _provider_section(provider: Provider) -> list[str]:
    if provider.kind == "offline":
        return ["# `offline` is built in: games play with no key and no network. Add a",
                "# provider (config.example.toml shows each kind) to use a model.", ""]
    lines = [f"[providers.{provider.kind}]", f"kind = {_quoted(provider.kind)}",
             f"model = {_quoted(provider.model)}"]
    if provider.base_url:
        lines.append(f"base_url = {_quoted(provider.base_url)}")
    if provider.kind in KEY_VARIABLES:
        lines.append(f"api_key_env = {_quoted(KEY_VARIABLES[provider.kind])}  # the variable's "
                     "name, never the key")
    return [*lines, ""]


def _storage_lines(database: Path | None) -> list[str]:
    if database is None:
        return [f"# database = {_quoted('/var/lib/tribunalbot/tribunal.db')}  # unset: "
                f"{default_db_path()}",
                "# The file and its folder are created at the first start."]
    return ["# Created, with its folder, at the first start.",
            f"database = {_quoted(str(database))}"]


def _quoted(text: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's."""
    return json.dumps(text, ensure_ascii=False)


def check_settings(text: str) -> None:
    """Refuse settings the config would not load (a password in a server URL, say)."""
    try:
        Config.model_validate(tomllib.loads(text))
    except (tomllib.TOMLDecodeError, ValidationError) as exc:
        detail = describe(exc, Config) if isinstance(exc, ValidationError) else str(exc)
        raise InitError(f"these settings would not load: {detail}") from None


def _bot_token(from_stdin: bool, asking: bool) -> str:
    variable = DiscordSettings().token_env
    if from_stdin and not sys.stdin.isatty():
        return _checked_token(sys.stdin.readline().strip(), "standard input's first line")
    environ_token = _environ(variable)
    if environ_token and not from_stdin:
        print(f"Using the bot token in ${variable}.")
        return _checked_token(environ_token, variable)
    if not (asking or from_stdin):
        raise InitError(f"no bot token: set {variable}, pass --token-from-stdin, or run init "
                        "on a terminal to paste it")
    return _secret("Discord bot token (developer portal, your application, Bot; not shown): ",
                   lambda token: token_problem(token, "the pasted text"))


def _checked_token(token: str, source: str) -> str:
    problem = token_problem(token, source) if token else f"{source} is empty"
    if problem is not None:
        raise InitError(problem)
    return token


def _api_key(kind: str, asking: bool) -> dict[str, str]:
    """{variable: key} for a provider that needs a key; the key from its variable, else
    asked on a terminal."""
    variable = KEY_VARIABLES.get(kind)
    if variable is None:
        return {}
    key = _environ(variable)
    if key:
        problem = _key_problem(key, variable)
        if problem is not None:
            raise InitError(problem)
        print(f"Using the API key in ${variable}.")
        return {variable: key}
    if not asking:
        raise InitError(f"provider {kind} needs an API key: set {variable} (init keeps it in "
                        f"{SECRETS_NAME}), or run init on a terminal to paste it")
    return {variable: _secret(f"{kind} API key (not shown): ",
                              lambda key: _key_problem(key, "the pasted key"))}


def _key_problem(key: str, source: str) -> str | None:
    if _UNSAFE.search(key):
        return (f"{source} holds a space, quote, $, # or backslash, which no API key has: "
                "copy the key alone")
    return None


def _secret(prompt: str, problem_of: Callable[[str], str | None]) -> str:
    """A secret typed or pasted unseen, asked again while it is empty or malformed."""
    for _ in range(TRIES):
        value = getpass.getpass(prompt).strip()
        problem = problem_of(value) if value else "nothing was pasted"
        if problem is None:
            return value
        print(f"tribunalbot: {problem}", file=sys.stderr)
    raise InitError(f"no usable secret after {TRIES} tries: nothing was written")


def _environ(name: str) -> str:
    return os.environ.get(name, "").strip()


def _write(folder: Path, config_path: Path, secrets_path: Path, settings: str,
           secrets: dict[str, str]) -> None:
    """The settings, then the secrets owner-only; the settings are taken back if the secrets
    cannot be written, so that running init again is not refused."""
    try:
        private_dir(folder)  # a folder made for the secrets is the owner's alone
    except OSError as exc:
        raise InitError(f"cannot create the folder {folder}: {exc.strerror}",
                        EXIT_FAILURE) from None
    try:
        with config_path.open("x", encoding="utf-8") as out:
            out.write(settings)
    except FileExistsError:
        raise InitError(_exists(config_path)) from None
    except OSError as exc:
        raise InitError(f"cannot write {config_path}: {exc.strerror}", EXIT_FAILURE) from None
    try:
        write_private(secrets_path, render_secrets(secrets).encode())
    except OSError as exc:
        config_path.unlink(missing_ok=True)
        raise InitError(f"cannot write {secrets_path}: {exc.strerror}", EXIT_FAILURE) from None


def render_secrets(secrets: dict[str, str]) -> str:
    head = ["# Tribunal's secrets, written by `tribunalbot init`: readable by their owner alone;",
            "# keep them out of git and images. A shell (set -a; . ./.env; set +a), Compose",
            "# and systemd (EnvironmentFile=) read these lines as they are."]
    return "\n".join([*head, *(f"{name}={value}" for name, value in secrets.items()), ""])


def next_steps(config_path: Path, secrets_path: Path, bot_user: str) -> str:
    config, secrets = (shlex.quote(str(p.absolute())) for p in (config_path, secrets_path))
    return "\n".join([
        f"Wrote {config} (the settings) and {secrets} (the secrets, readable by you alone).",
        "", "Next:",
        "  1. Put the secrets in your shell's environment and check the setup:",
        f"       set -a; . {secrets}; set +a",
        f"       tribunalbot doctor --config {config}",
        "  2. Add the bot to a server: `tribunalbot invite --client-id APPLICATION_ID` prints",
        "     the link (the Application ID is on the developer portal's General Information",
        f"     page; for most bots it is the bot user's id, {bot_user}).",
        "  3. Start it, with the secrets in the environment as in 1:",
        f"       tribunalbot bot --config {config}"])
