"""Settings: one validated object, loaded once from TOML, passed down explicitly.

Secrets never live in the file: a provider names the environment variable holding its key.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Literal
from urllib.parse import quote, urlsplit

import platformdirs
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from tribunalbot.config_errors import describe, env_name_problem, suggestion
from tribunalbot.languages import DEFAULT_LANGUAGE, check_language

# The personas a route may name (tribunalbot/engine/personas.py; a test keeps them equal:
# the settings sit below the engine and cannot ask it).
PERSONA_KEYS = ("architect", "security_guardian", "performance_guru", "test_skeptic",
                "dx_advocate", "error_philosopher", "dependency_watcher", "simplicity_zealot",
                "ghost")


class Strict(BaseModel):
    # A value is never repeated in an error: a mistyped key's value may be a secret.
    model_config = ConfigDict(extra="forbid", hide_input_in_errors=True)


# What each `*_env` key's variable is usually called, for the messages.
ENV_EXAMPLES = {"api_key_env": "OPENAI_API_KEY", "token_env": "DISCORD_TOKEN",
                "application_id_env": "DISCORD_APPLICATION_ID",
                "github_token_env": "GITHUB_TOKEN", "gitlab_token_env": "GITLAB_TOKEN",
                "github_write_token_env": "GITHUB_WRITE_TOKEN",
                "gitlab_write_token_env": "GITLAB_WRITE_TOKEN"}


def env_name(value: str | None, info: ValidationInfo) -> str | None:
    """A `*_env` value names a variable; the secret it should name is refused without being
    repeated, in any message or log."""
    if value is None:
        return None
    problem = env_name_problem(value, ENV_EXAMPLES.get(info.field_name or "", "MY_SECRET"))
    if problem is not None:
        raise PydanticCustomError("env_name", problem)
    return value.strip()


class GameSettings(Strict):
    max_rounds: int = Field(3, ge=1, le=10)
    event_chance: float = Field(0.3, ge=0.0, le=1.0)
    vote_window_seconds: int = Field(120, ge=0, le=3600)
    word_budget: int = Field(180, ge=40, le=600)
    max_code_bytes: int = Field(40_000, ge=100, le=200_000)
    persona_attempts: int = Field(3, ge=1, le=5)
    # Seats each juror cross-examines a round: it accuses and votes among those only, and
    # every seat is examined by as many jurors (DESIGN §2.2). 0: everyone examines everyone,
    # and a capable model's jury then ends nearly every game in round 1.
    cross_examined: int = Field(3, ge=0, le=8)
    # The natural language of the reviewers' public text (the code's programming language
    # is GameSetup.language). English, the default, leaves the prompts as they always were.
    language: str = DEFAULT_LANGUAGE

    @field_validator("language")
    @classmethod
    def _language_name(cls, value: str) -> str:
        try:
            return check_language(value)
        except ValueError as exc:  # the message as it is, without pydantic's "Value error, "
            raise PydanticCustomError("language", str(exc)) from None


class ModelPrice(Strict):
    """USD per million tokens for one model; cached input falls back to the input price."""

    input_per_mtok: float = Field(0.0, ge=0)
    cached_per_mtok: float | None = Field(None, ge=0)
    output_per_mtok: float = Field(0.0, ge=0)


ProviderKind = Literal["openai", "anthropic", "ollama", "offline", "replay"]


class ProviderSettings(Strict):
    kind: ProviderKind
    base_url: str | None = None
    # kind = "replay": the folder of a recorded game (`play --record DIR`, `[debug]
    # record_dir`, or a model relay's queue), whose replies are played back by task.
    recording: Path | None = None
    api_key_env: str | None = None  # name of the environment variable, never the key itself
    model: str = ""
    # Calls in flight at once: as many as the operator's account allows (hundreds is fine).
    concurrency: int = Field(4, ge=1, le=1024)
    http2: bool = True  # HTTP/2 when the server offers it over https (ALPN)
    requests_per_minute: int | None = Field(None, ge=1)
    timeout_seconds: float = Field(120.0, gt=0)
    call_deadline_seconds: float = Field(300.0, gt=0)
    max_output_tokens: int = Field(900, ge=16)
    output_token_field: Literal["max_tokens", "max_completion_tokens"] | None = None
    structured_output: Literal["auto", "json_schema", "json_mode", "prompt"] = "auto"
    send_cache_key: bool = True  # OpenAI's prompt_cache_key; some servers reject unknown fields
    prime_then_fan_out: bool = False
    keep_alive: str = "30m"  # Ollama
    num_ctx: int = Field(16384, ge=512)  # Ollama; constant so the KV cache is reusable
    price_input_per_mtok: float | None = Field(None, ge=0)
    price_cached_per_mtok: float | None = Field(None, ge=0)
    price_output_per_mtok: float | None = Field(None, ge=0)
    # Prices of other models of this provider (an allow-listed model may cost more).
    model_prices: dict[str, ModelPrice] = Field(default_factory=dict)

    # A base_url's password (a proxy's user:password) comes from the environment, never the
    # file: give the user in base_url (http://USER@host/v1) and the variable's name here.
    base_url_password_env: str | None = None

    _api_key_env = field_validator("api_key_env", "base_url_password_env")(env_name)

    @field_validator("base_url")
    @classmethod
    def _no_password(cls, url: str | None) -> str | None:
        if url and re.match(r"^[a-z][a-z0-9+.-]*://[^:/@\s]*:[^@/\s]*@", url, re.I):
            raise ValueError("holds a password: give the user alone in base_url "
                             "(http://USER@host/v1) and the password in an environment "
                             "variable named by base_url_password_env")
        return url

    def api_key(self) -> str | None:
        return os.environ.get(self.api_key_env) if self.api_key_env else None

    def base_url_password(self) -> str | None:
        return os.environ.get(self.base_url_password_env) if self.base_url_password_env else None

    def request_url(self) -> str | None:
        """base_url as requests use it: with the password from the environment, if any."""
        password = self.base_url_password()
        if not self.base_url or not password or "@" not in self.base_url:
            return self.base_url
        scheme, rest = self.base_url.split("://", 1)
        user, host = rest.split("@", 1)
        return f"{scheme}://{user}:{quote(password, safe='')}@{host}"

    @property
    def priced(self) -> bool:
        return self.price_input_per_mtok is not None or self.price_output_per_mtok is not None


class PersonaRoute(Strict):
    provider: str
    model: str | None = None


class StorageSettings(Strict):
    database: Path | None = None  # default: the user's data directory
    # Instead of `database`: sqlite:///PATH, or postgresql://USER[:PASSWORD]@HOST[:PORT]/DB
    # (PostgreSQL with pgvector). Hidden from repr: it may hold a password (better: $PGPASSWORD).
    url: str | None = Field(None, repr=False)
    share_experience_across_guilds: bool = False
    experience_top_k: int = Field(5, ge=0, le=20)
    # Days a server's data is kept after it removed the bot (a re-invite within them keeps
    # it); then everything stored about the server is deleted. 0: at the next daily purge.
    purge_grace_days: int = Field(30, ge=0, le=365)

    @field_validator("url")
    @classmethod
    def _known_scheme(cls, url: str | None) -> str | None:
        if url is None:
            return None
        url = url.strip()
        scheme = url.split(":", 1)[0].lower() if "://" in url else ""
        if not scheme:
            raise ValueError("is not a URL: write sqlite:///PATH or postgresql://USER@HOST/"
                             "DATABASE (or give a file as storage.database)")
        if scheme not in ("sqlite", "postgresql", "postgres"):
            raise ValueError("must be sqlite:///PATH or postgresql://USER@HOST/DATABASE "
                             f"(got a URL with scheme {scheme!r})")
        if scheme == "sqlite":
            _check_sqlite_url(url)
        elif not (urlsplit(url).hostname or urlsplit(url).path.strip("/")):
            raise ValueError("names neither a host nor a database: write "
                             "postgresql://USER@HOST/DATABASE")
        return url

    @field_validator("database")
    @classmethod
    def _a_file(cls, path: Path | None) -> Path | None:
        if path is not None and str(path).strip() in ("", "."):
            raise ValueError("names no file: give a path such as \"tribunal.db\" (or leave it "
                             "out for the user data directory)")
        return path

    @model_validator(mode="after")
    def _one_location(self) -> StorageSettings:
        if self.url is not None and self.database is not None:
            raise ValueError("set storage.url or storage.database, not both")
        return self

    def location(self) -> Path | str | None:
        """Where the store is, as configured: `url` or `database` (None: the default file)."""
        return self.url if self.url is not None else self.database


def _check_sqlite_url(url: str) -> None:
    """sqlite:///tribunal.db is relative, sqlite:////var/lib/tribunal.db absolute; with two
    slashes the file name would be read as a host."""
    if not url.lower().startswith("sqlite:///"):
        rest = url.split("://", 1)[1].lstrip("/")
        raise ValueError(f"{url} has two slashes, so {rest or 'the path'} would be read as a "
                         f"host; a SQLite URL has three: sqlite:///{rest or 'tribunal.db'} "
                         "(relative) or sqlite:////var/lib/tribunal/tribunal.db (absolute)")
    if not url[len("sqlite:///"):].strip():
        raise ValueError("names no file: write sqlite:///PATH, such as sqlite:///tribunal.db")


APP_NAME = "tribunalbot"
DB_NAME = "tribunal.db"


def default_db_path() -> Path:
    """Where the database lives when the config does not say: the user's data directory."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / DB_NAME


class DiscordSettings(Strict):
    token_env: str = "DISCORD_TOKEN"
    application_id_env: str = "DISCORD_APPLICATION_ID"  # for `tribunalbot invite`
    avatar_base_url: str | None = None
    # Discord lets about 30 messages a minute into one channel; 2 s keeps a game under it.
    post_interval_seconds: float = Field(2.0, ge=0.0, le=30.0)
    # At most this many messages land in a game's thread in any 60 s, the players' included,
    # so that players chatting in the thread do not push the bot into Discord's limit.
    max_thread_messages_per_minute: int = Field(25, ge=1, le=30)
    user_cooldown_seconds: int = Field(60, ge=0)
    max_concurrent_games_per_guild: int = Field(2, ge=1, le=20)
    # Several processes on one database: a game's lease lasts this long unrenewed, so a
    # process that died elsewhere hands its games over after at most this (DESIGN §8).
    lease_seconds: float = Field(30.0, ge=1.0, le=600.0)

    _token_env = field_validator("token_env", "application_id_env")(env_name)

    @field_validator("avatar_base_url")
    @classmethod
    def _fetchable(cls, url: str | None) -> str | None:
        """Optional: the avatars ship in the package. When set, Discord fetches each persona's
        image from it, so it must be an absolute http(s) URL (anything else is a 400)."""
        if url is None:
            return None
        parts = urlsplit(url.strip())
        if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
            raise ValueError(
                f"must be an http(s) URL Discord can fetch, such as "
                f"https://example.org/tribunal/avatars/ (got {url!r}); leave it out to use "
                "the avatars shipped with Tribunal")
        return url.strip()


class PullRequestSettings(Strict):
    """Reviewing a change: diffs pasted, attached or piped, and pull/merge requests fetched
    by their link. Tokens never live in the file: each host names the environment variable
    that holds one (optional: private repositories, a higher rate limit)."""

    github_token_env: str = "GITHUB_TOKEN"
    gitlab_token_env: str = "GITLAB_TOKEN"
    github_api_url: str = "https://api.github.com"
    gitlab_api_url: str = "https://gitlab.com/api/v4"
    gitlab_hosts: list[str] = Field(default_factory=lambda: ["gitlab.com"])
    timeout_seconds: float = Field(20.0, gt=0, le=300)  # each try, start to last byte
    attempts: int = Field(3, ge=1, le=10)  # tries per fetch, on time-outs and 5xx/429
    # The whole fetch, every try and every wait between them: a member waits no longer.
    deadline_seconds: float = Field(45.0, gt=0, le=900)
    # Off: a repository only the token can read is refused as private, so that no member of
    # any server can have the operator's token fetch code they could not see themselves.
    allow_private: bool = False
    # The largest diff read at all; a larger one is refused. What the game reviews of it is
    # cut to game.max_code_bytes (the most-changed files first).
    max_diff_bytes: int = Field(1_000_000, ge=100, le=50_000_000)
    # The verdict posted back as a review (docs/discord.md): off unless the operator turns it
    # on, only to the owners and repositories listed ("owner" or "owner/repo"; a GitLab group
    # covers its subgroups), and with tokens of its own: the read tokens above are never used
    # to write, so a bot that only reads keeps a token that cannot write.
    post_reviews: bool = False
    post_allow: list[str] = Field(default_factory=list)
    github_write_token_env: str = "GITHUB_WRITE_TOKEN"
    gitlab_write_token_env: str = "GITLAB_WRITE_TOKEN"

    _token_env = field_validator("github_token_env", "gitlab_token_env",
                                 "github_write_token_env", "gitlab_write_token_env")(env_name)

    @field_validator("post_allow")
    @classmethod
    def _allow_entries(cls, entries: list[str]) -> list[str]:
        for entry in entries:
            parts = entry.split("/")
            if not entry or entry != entry.strip() or any(p in ("", ".", "..") for p in parts):
                raise ValueError(f"post_allow entry {entry!r} is not an owner, a group or a "
                                 "repository path (\"owner\" or \"owner/repo\")")
        return entries

    @model_validator(mode="after")
    def _write_tokens_apart(self) -> PullRequestSettings:
        for host, read, write in (("github", self.github_token_env, self.github_write_token_env),
                                  ("gitlab", self.gitlab_token_env, self.gitlab_write_token_env)):
            if read == write:
                raise ValueError(f"{host}_write_token_env names {write}, the read token's "
                                 f"variable: a token that may write must have its own")
        return self

    def may_post_to(self, project: str) -> bool:
        """Whether reviews may be posted to `project` (owner/repo, group/…/project): posting
        is on and an entry of `post_allow` is the project or one of its owners. Names compare
        without case, as GitHub and GitLab compare them."""
        if not self.post_reviews:
            return False
        parts = project.casefold().split("/")
        return any(parts[:len(entry.split("/"))] == entry.casefold().split("/")
                   for entry in self.post_allow)


LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


class LoggingSettings(Strict):
    """Where the bot's log goes and how it looks (tribunalbot/logs.py). Every record is
    redacted first: tokens and keys never reach it."""

    level: LogLevel = "INFO"  # `tribunalbot bot`
    terminal_level: LogLevel = "WARNING"  # the terminal commands (play, doctor, stats…)
    format: Literal["text", "json"] = "text"  # json: one JSON object a line
    file: Path | None = None  # instead of stderr; rotating it is the operator's (logrotate)

    @field_validator("level", "terminal_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value


class LimitsSettings(Strict):
    """What the bot may spend and what a server's admins may choose (DESIGN §5.3). Dollars
    are estimates from the providers' prices; a budget left unset has no limit."""

    games_per_server_per_day: int | None = Field(50, ge=1)
    games_per_member_per_day: int | None = Field(20, ge=1)  # in each server; it may go lower
    dollars_per_server_per_day: float | None = Field(None, gt=0)
    dollars_per_month: float | None = Field(None, gt=0)  # every server together
    # Providers server admins may pick (default: every configured one) and, per provider,
    # the models beyond its own configured `model`, which is always allowed.
    allowed_providers: list[str] | None = None
    allowed_models: dict[str, list[str]] = Field(default_factory=dict)
    # Caps on the game settings that multiply calls or tokens; a server may go lower.
    max_rounds: int = Field(5, ge=1, le=10)
    max_persona_attempts: int = Field(3, ge=1, le=5)
    max_word_budget: int = Field(300, ge=40, le=600)


class LeaderboardSettings(Strict):
    """Who is ranked and which games count (DESIGN §2.6): a game with fewer human voters is
    practice (its reveal still shows its scores); a member needs `min_games` counted games
    on a board to be ranked there; boards run by calendar month in UTC unless `season` is
    "none", and the all-time board keeps every season."""

    min_games: int = Field(3, ge=1, le=100)
    min_human_voters: int = Field(2, ge=1, le=25)
    season: Literal["monthly", "none"] = "monthly"


class BalanceSettings(Strict):
    """Self-balancing difficulty (tribunalbot/engine/balance.py): the deal leans the
    Troublemaker's disguise and boldness one step at a time, only when the humans' last
    `window_games` voted games show with probability `confidence` that uniform dealing
    misses [target_low, target_high]; it steps back once that is no longer likely."""

    enabled: bool = True
    window_games: int = Field(40, ge=1, le=100)
    target_low: float = Field(0.40, ge=0.0, le=1.0)
    target_high: float = Field(0.60, ge=0.0, le=1.0)
    min_games: int = Field(8, ge=1, le=100)  # fewer voted games: the level holds (0: uniform)
    confidence: float = Field(0.97, ge=0.5, le=0.999)  # how sure the balance must be to lean
    max_weight_ratio: float = Field(3.0, ge=1.0, le=10.0)  # likeliest vs least likely disguise
    max_boldness: int = Field(2, ge=1, le=2)  # the lean moves within levels -this..+this

    @model_validator(mode="after")
    def _ordered(self) -> BalanceSettings:
        if self.target_low >= self.target_high:
            raise ValueError(f"target_low ({self.target_low}) must be below target_high "
                             f"({self.target_high})")
        if self.min_games > self.window_games:
            raise ValueError(f"min_games ({self.min_games}) cannot exceed window_games "
                             f"({self.window_games})")
        return self


class MetricsSettings(Strict):
    """A Prometheus endpoint (`/metrics`) and a health check (`/healthz`) served by the bot
    (tribunalbot/metrics/). Off by default; on, it listens on this host only unless `host`
    says otherwise (in a container, 0.0.0.0 with the port published to the host's loopback)."""

    enabled: bool = False
    host: str = "127.0.0.1"
    port: int = Field(9464, ge=0, le=65535)  # 0: any free port, logged at start

    @field_validator("host")
    @classmethod
    def _a_host(cls, host: str) -> str:
        host = host.strip()
        if not host or any(c in host for c in "/ @"):
            raise ValueError(f"must be a host name or address to listen on, such as "
                             f"127.0.0.1 or 0.0.0.0 (got {host!r})")
        return host


class DebugSettings(Strict):
    """What helps an operator report a bug. `record_dir`: every model call of every game is
    written under it, one folder a game (its id), to be replayed with a `replay` provider
    (llm/recording.py). The folders hold the code under review: keep them private."""

    record_dir: Path | None = None


def _default_providers() -> dict[str, ProviderSettings]:
    return {"offline": ProviderSettings(kind="offline", model="offline")}


class Config(Strict):
    default_provider: str = "offline"
    game: GameSettings = GameSettings()
    providers: dict[str, ProviderSettings] = Field(default_factory=_default_providers)
    personas: dict[str, PersonaRoute] = Field(default_factory=dict)
    storage: StorageSettings = StorageSettings()
    discord: DiscordSettings = DiscordSettings()
    limits: LimitsSettings = LimitsSettings()
    pull_requests: PullRequestSettings = PullRequestSettings()
    leaderboard: LeaderboardSettings = LeaderboardSettings()
    balance: BalanceSettings = BalanceSettings()
    logging: LoggingSettings = LoggingSettings()
    metrics: MetricsSettings = MetricsSettings()
    debug: DebugSettings = DebugSettings()

    @model_validator(mode="after")
    def _references_exist(self) -> Config:
        self.providers.setdefault("offline", ProviderSettings(kind="offline", model="offline"))
        if self.default_provider not in self.providers:
            known = ", ".join(sorted(self.providers))
            raise ValueError(f"default_provider {self.default_provider!r} is not a configured "
                             f"provider (known: {known})"
                             f"{_meant(self.default_provider, self.providers)}")
        for persona, route in self.personas.items():
            if persona not in PERSONA_KEYS:
                raise ValueError(
                    f"personas.{persona} is not a persona{_meant(persona, PERSONA_KEYS)} (the "
                    f"personas are: {', '.join(PERSONA_KEYS)})")
            if route.provider not in self.providers:
                raise ValueError(
                    f"personas.{persona}.provider {route.provider!r} is not configured"
                    f"{_meant(route.provider, self.providers)}"
                )
        self._check_limits()
        return self

    def _check_limits(self) -> None:
        limits = self.limits
        named = [*(limits.allowed_providers or []), *limits.allowed_models]
        unknown = sorted({name for name in named if name not in self.providers})
        if unknown:
            raise ValueError(f"limits names providers that are not configured: "
                             f"{', '.join(unknown)}")
        if limits.dollars_per_server_per_day is None and limits.dollars_per_month is None:
            return
        # A dollar budget over a provider without prices would count its calls as free.
        unpriced = sorted(name for name, p in self.providers.items()
                          if p.kind in ("openai", "anthropic") and not p.priced)
        if unpriced:
            raise ValueError(
                f"a dollar budget is set but provider(s) {', '.join(unpriced)} have no "
                "price_input_per_mtok/price_output_per_mtok (set them, 0 for a free server)")


def _meant(name: str, choices: Iterable[str]) -> str:
    near = suggestion(name, choices)
    return f"; did you mean `{near}`?" if near is not None else ""


class ConfigError(Exception):
    """A config file that cannot be used; the message names the key and the problem."""


def load_config(path: Path | None) -> Config:
    """Load and validate `path`; `None` gives the defaults (which run offline)."""
    if path is None:
        return Config()
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"config file {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"config file {path} cannot be read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {path} is not valid TOML: {exc}") from None
    try:
        return Config.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(f"config file {path}: {describe(exc, Config)}") from None
