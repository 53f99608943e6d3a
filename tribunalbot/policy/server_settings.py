"""What a server's admins may change, within the operator's limits (DESIGN §5.3).

Every value is checked with the config's own types and ranges; what multiplies calls or tokens
is capped by the operator; providers and models come from the operator's allow-lists; and the
value "default" puts a key back to the operator's setting. Stored values are checked again when
they are used, so a cap or an allow-list the operator tightens later applies at once. No
Discord here: the cog only renders what this module decides.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pydantic import TypeAdapter, ValidationError

from tribunalbot.config import Config, GameSettings
from tribunalbot.engine.personas import PERSONAS
from tribunalbot.languages import COMMON, check_language, english_only_notice, is_english
from tribunalbot.llm.registry import provider_problem

RESET = "default"
MAX_CHOICES = 25  # Discord's limit on autocomplete choices (discord.py does not truncate)
GAME_KEYS = tuple(GameSettings.model_fields)
GUILD_KEYS = ("allowed_channels", "provider", "model", "post_interval_seconds",
              "max_concurrent_games", "games_per_member_per_day")
KEYS = (*GAME_KEYS, *GUILD_KEYS)
HELP = {
    "max_rounds": "debate and vote rounds",
    "event_chance": "chance of a random event (0 to 1)",
    "vote_window_seconds": "seconds the human ballot stays open",
    "word_budget": "words per review",
    "max_code_bytes": "largest submission, in bytes",
    "persona_attempts": "tries for a reply that fits the persona",
    "cross_examined": "seats each reviewer examines a round (0: every other)",
    "language": "the language the reviewers write in (e.g. German, 日本語)",
    "allowed_channels": "channels where /review works (mentions or ids)",
    "provider": "the model provider",
    "model": "the provider's model",
    "post_interval_seconds": "seconds between posts in a game's thread",
    "max_concurrent_games": "games running at once in this server",
    "games_per_member_per_day": "games one member may start here in a day",
}
# A server may set a member's daily games when the operator sets no number: up to this.
MEMBER_QUOTA_CEILING = 1000
_CHANNEL = re.compile(r"<#(\d+)>|(\d+)")
_INT = TypeAdapter(int)
_FLOAT = TypeAdapter(float)


class SettingError(ValueError):
    """A value a server may not set; the message says what to give instead."""


class SettingRules:
    def __init__(self, config: Config) -> None:
        self.config = config

    # ---- what the operator allows --------------------------------------------------------

    def providers(self) -> list[str]:
        allowed = self.config.limits.allowed_providers
        return [p for p in (allowed or self.config.providers) if p in self.config.providers]

    def models(self, provider: str) -> list[str]:
        """The provider's own model first, then the allow-listed others."""
        own = self.config.providers[provider].model
        extra = self.config.limits.allowed_models.get(provider, [])
        return list(dict.fromkeys(m for m in (own, *extra) if m))

    def cap(self, key: str) -> int | None:
        """The most a server may set `key` to; never below the operator's own value."""
        limits, game = self.config.limits, self.config.game
        caps = {"max_rounds": limits.max_rounds, "persona_attempts": limits.max_persona_attempts,
                "word_budget": limits.max_word_budget, "max_code_bytes": game.max_code_bytes,
                "max_concurrent_games": self.config.discord.max_concurrent_games_per_guild,
                "games_per_member_per_day": (limits.games_per_member_per_day
                                             or MEMBER_QUOTA_CEILING)}
        if key not in caps:
            return None
        if key == "games_per_member_per_day":
            return caps[key]
        return max(caps[key], int(self.default(key)))

    def default(self, key: str) -> Any:
        if key in GAME_KEYS:
            return getattr(self.config.game, key)
        return {"allowed_channels": "every channel", "provider": self.config.default_provider,
                "model": "the provider's own",
                "post_interval_seconds": self.config.discord.post_interval_seconds,
                "max_concurrent_games": self.config.discord.max_concurrent_games_per_guild,
                "games_per_member_per_day": self.config.limits.games_per_member_per_day
                or "no limit",
                }[key]

    # ---- changing one key ----------------------------------------------------------------

    def change(self, key: str, raw: str, current: Mapping[str, Any]
               ) -> tuple[dict[str, Any], str]:
        """The overrides after setting `key` to `raw` ("default" resets it), and what to tell
        the admin. Raises SettingError."""
        if key not in KEYS:
            raise SettingError(f"Unknown setting `{key}`. Settings: {', '.join(KEYS)}.")
        text = _unquote(raw)
        updated = dict(current)
        if text.lower() == RESET or (key == "allowed_channels" and _is_empty_list(text)):
            updated.pop(key, None)
            told = f"`{key}` is back to the default ({_shown(self.default(key))})."
        else:
            updated[key] = self._checked(key, text, current)
            told = f"`{key}` is now `{_shown(updated[key])}`."
        if key == "provider" and not self._model_fits(updated):
            dropped = updated.pop("model")
            told += (f" The model `{dropped}` is not offered on {self.provider_of(updated)}, "
                     "so it is back to that provider's own.")
        if key in ("language", "provider"):
            told += self._english_only(updated)
        return updated, told

    def _english_only(self, overrides: Mapping[str, Any]) -> str:
        """Said plainly when the server's language will not be written: the offline
        reviewer writes English only (it does not pretend)."""
        language = self.game_settings(overrides).language
        provider = self.provider_of(overrides)
        if is_english(language) or self.config.providers[provider].kind != "offline":
            return ""
        others = [p for p in self.providers() if self.config.providers[p].kind != "offline"]
        then = (f" Choose a model provider with `provider` ({', '.join(others)})." if others
                else " This bot offers no model provider; its operator can add one.")
        return f"\nNote: this server plays on `{provider}`. {english_only_notice(language)}{then}"

    def _checked(self, key: str, text: str, current: Mapping[str, Any]) -> Any:
        if key in GAME_KEYS:
            return self._game_value(key, text)
        if key == "allowed_channels":
            return parse_channels(text)
        if key == "provider":
            return self._usable(_one_of(key, text, self.providers()))
        if key == "model":
            return _one_of(key, text, self.models(self.provider_of(current)))
        if key == "post_interval_seconds":
            return _number(_FLOAT, text, 0.5, 30.0, "Give seconds between 0.5 and 30.")
        cap = self.cap(key) or 1
        return _number(_INT, text, 1, cap,
                       f"Give a whole number from 1 to {cap} (the bot operator's cap).")

    def _usable(self, provider: str) -> str:
        """A provider games could be played on now: its key is set, its model named."""
        if provider_problem(self.config, provider) is None:
            return provider
        others = [p for p in self.providers()
                  if p != provider and provider_problem(self.config, p) is None]
        raise SettingError(f"`{provider}` cannot be used on this bot right now: its operator "
                           "has not finished setting it up. Choose one of: "
                           f"{', '.join(others) or '(none)'}.")

    def _game_value(self, key: str, text: str, *, clamp: bool = False) -> Any:
        try:
            value = getattr(GameSettings.model_validate(
                {**self.config.game.model_dump(), key: text}), key)
        except ValidationError as exc:
            raise SettingError(f"`{key}`: {exc.errors()[0]['msg']}.") from None
        cap = self.cap(key)
        if cap is not None and value > cap:
            if clamp:
                return cap
            raise SettingError(f"`{key}` can be at most {cap} here (the bot operator's cap).")
        return value

    def _model_fits(self, overrides: Mapping[str, Any]) -> bool:
        model = overrides.get("model")
        return model is None or model in self.models(self.provider_of(overrides))

    # ---- what stored overrides mean when a game starts -----------------------------------

    def game_settings(self, overrides: Mapping[str, Any]) -> GameSettings:
        """The operator's game settings with the server's overrides, held to today's caps (a
        value stored before the operator lowered a cap gets the cap); a value that no longer
        passes its type or range is left out."""
        chosen: dict[str, Any] = {}
        for key in GAME_KEYS:
            if key in overrides:
                try:
                    chosen[key] = self._game_value(key, str(overrides[key]), clamp=True)
                except SettingError:
                    continue
        base = self.config.game
        return GameSettings.model_validate({**base.model_dump(), **chosen}) if chosen else base

    def provider_of(self, overrides: Mapping[str, Any]) -> str:
        chosen = overrides.get("provider")
        return chosen if chosen in self.providers() else self.config.default_provider

    def model_of(self, overrides: Mapping[str, Any]) -> str | None:
        """The server's model if the operator still offers it; None: the provider's own."""
        provider = self.provider_of(overrides)
        model = overrides.get("model")
        if model in self.models(provider) and model != self.config.providers[provider].model:
            return str(model)
        return None

    def channels_of(self, overrides: Mapping[str, Any]) -> set[int]:
        """Channel ids /review is limited to (empty: all), whatever form they were stored in."""
        try:
            return {int(c) for c in parse_channels(_stored_text(overrides.get("allowed_channels")))}
        except SettingError:
            return set()

    def max_code_bytes(self, overrides: Mapping[str, Any]) -> int:
        return self.game_settings(overrides).max_code_bytes

    def number(self, overrides: Mapping[str, Any], key: str) -> float | None:
        """A stored guild-only number that still passes its check, else None."""
        if key not in overrides:
            return None
        try:
            return float(self._checked(key, str(overrides[key]), overrides))
        except SettingError:
            return None

    # ---- suggestions and the overview ----------------------------------------------------

    def key_choices(self, typed: str) -> list[tuple[str, str]]:
        """(label, key) pairs for the `key` option, matching what was typed so far."""
        found = [(f"{key}: {HELP[key]}"[:100], key) for key in KEYS if typed.lower() in key]
        return found[:MAX_CHOICES]

    def value_choices(self, key: str, typed: str, overrides: Mapping[str, Any]) -> list[str]:
        """The values a server may give `key`, where they can be listed, then "default"."""
        if key == "provider":
            values = self.providers()
        elif key == "model":
            values = self.models(self.provider_of(overrides))
        elif key in ("max_rounds", "persona_attempts", "max_concurrent_games"):
            values = [str(n) for n in range(1, (self.cap(key) or 1) + 1)]
        elif key == "cross_examined":
            values = [str(n) for n in range(len(PERSONAS))]
        elif key == "language":
            values = list(COMMON)
        else:
            values = []
        values = [v for v in values if typed.lower() in v.lower()]
        if key == "language" and not values:
            values = _typed_language(typed)
        return [*values[:MAX_CHOICES - 1], RESET]

    def describe(self, overrides: Mapping[str, Any]) -> str:
        lines = []
        for key in KEYS:
            cap = self.cap(key)
            limit = f", at most {cap}" if cap is not None else ""
            if key in overrides:
                value = f"**{_shown(overrides[key])}** (default {_shown(self.default(key))})"
            else:
                value = f"{_shown(self.default(key))} (default)"
            lines.append(f"`{key}`: {value}{limit}")
        lines.append(f"Models on {self.provider_of(overrides)}: "
                     f"{', '.join(self.models(self.provider_of(overrides))) or '(none)'}")
        return "\n".join(lines)


def parse_channels(text: str) -> list[str]:
    """Channel ids from mentions (<#123>), bare ids, or a JSON list of numbers or strings."""
    tokens = [t for t in re.split(r"[\s,\[\]\"']+", text) if t]
    ids = []
    for token in tokens:
        match = _CHANNEL.fullmatch(token)
        if match is None:
            raise SettingError("Give channels as mentions or ids, e.g. `<#123> <#456>`; "
                               "`default` allows every channel.")
        ids.append(match.group(1) or match.group(2))
    return list(dict.fromkeys(ids))


def _typed_language(typed: str) -> list[str]:
    """Any language may be named ("Deutsch", "日本語"): what was typed, when no listed one
    matches it, is offered if it is a valid name."""
    try:
        return [check_language(typed)]
    except ValueError:
        return []


def _one_of(key: str, text: str, allowed: list[str]) -> str:
    if text in allowed:
        return text
    raise SettingError(f"`{text}` is not offered for `{key}` on this bot; choose one of: "
                       f"{', '.join(allowed)}.")


def _number(adapter: TypeAdapter[Any], text: str, low: float, high: float,
            explanation: str) -> Any:
    try:
        value = adapter.validate_python(text)
    except ValidationError:
        raise SettingError(explanation) from None
    if not low <= value <= high:
        raise SettingError(explanation)
    return value


def _unquote(raw: str) -> str:
    text = raw.strip()
    return text[1:-1].strip() if len(text) >= 2 and text[0] == text[-1] == '"' else text


def _is_empty_list(text: str) -> bool:
    return not re.sub(r"[\s,\[\]\"']+", "", text)


def _stored_text(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return "" if value is None else str(value)


def _shown(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(f"<#{v}>" for v in value)
    return str(value)
