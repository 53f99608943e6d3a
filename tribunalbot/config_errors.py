"""What a config file did wrong, in words that help fix it.

Pydantic says "Extra inputs are not permitted"; a person wants to hear which key, and which
one they meant. Every problem is named by its dotted path (`providers.openai.modle`), an
unknown key gets the nearest known one (difflib), a secret typed into the file is told where
secrets go, and no value is ever repeated back: the value of a mistyped key may be a key.

Standard library and pydantic only; the settings module imports this one, never the reverse.
"""

from __future__ import annotations

import difflib
import re
import types
from collections.abc import Iterable, Sequence
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

# An environment variable's name as shells write one.
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# What API keys and tokens start with (OpenAI, Anthropic, OpenRouter, Groq, xAI, GitHub,
# GitLab, Slack, AWS).
_SECRET_PREFIX = re.compile(r"^(?:sk|rk|pk|gsk|xai|ghp|gho|ghu|ghs|ghr|github_pat|glpat|xox[abp]"
                            r"|AKIA)[-_]", re.I)


def looks_like_secret(value: str) -> bool:
    """Whether `value`, found where a variable's name goes, is more likely the secret itself:
    a key's prefix, a dot (Discord's tokens), or the length and mix of a random string."""
    value = value.strip()
    mixed = (re.search(r"[a-z]", value) and re.search(r"[A-Z]", value)
             and re.search(r"[0-9]", value))
    return bool(_SECRET_PREFIX.match(value) or "." in value or len(value) > 40
                or (mixed and len(value) >= 20))


def env_name_problem(value: str, example: str) -> str | None:
    """Why `value` cannot be the name of an environment variable (None: it can), never
    repeating it."""
    if looks_like_secret(value):
        return ("this looks like the secret itself, not the name of an environment variable "
                f"(the value is not shown): put the secret in a variable, e.g. `export "
                f"{example}=...`, and write its name here: \"{example}\"")
    if not ENV_NAME.fullmatch(value.strip()):
        return ("must be the name of an environment variable (letters, digits and _, not "
                f"starting with a digit), such as \"{example}\"")
    return None


def suggestion(word: str, choices: Iterable[str]) -> str | None:
    """The choice nearest to `word`, when one is near enough to be what was meant."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return close[0] if close else None


def describe(exc: ValidationError, root: type[BaseModel]) -> str:
    """Every problem of `exc` as `dotted.key: what is wrong`, joined in one line."""
    return "; ".join(_problem(root, err) for err in exc.errors())


def _problem(root: type[BaseModel], err: Any) -> str:
    loc = tuple(str(part) for part in err["loc"])
    key = ".".join(loc)
    message = str(err["msg"]).removeprefix("Value error, ")
    if err["type"] == "extra_forbidden" and loc:
        message = _unknown_key(root, loc)
    return f"{key}: {message}" if key else message


def _unknown_key(root: type[BaseModel], loc: tuple[str, ...]) -> str:
    name, where = loc[-1], loc[:-1]
    known = fields_at(root, where)
    if known is None:
        return "unknown key"
    secret = _secret_in_file(name, known, where)
    if secret is not None:
        return secret
    near = suggestion(name, known)
    if near is not None:
        return f"unknown key; did you mean `{'.'.join((*where, near))}`?"
    section = f"[{'.'.join(where)}]" if where else "the top level"
    return f"unknown key (the keys of {section} are: {', '.join(known)})"


def _secret_in_file(name: str, known: Sequence[str], where: tuple[str, ...]) -> str | None:
    """`api_key = "sk-…"`, `token = …`: secrets never live in the file; say where they go."""
    holder = f"{name}_env" if f"{name}_env" in known else None
    if holder is None and name in ("key", "token", "secret", "password"):
        holder = next((k for k in known if k.endswith("_env") and name in k), None)
    if holder is None:
        return None
    example = {"api_key_env": "OPENAI_API_KEY", "token_env": "DISCORD_TOKEN",
               "github_token_env": "GITHUB_TOKEN", "gitlab_token_env": "GITLAB_TOKEN"}.get(
        holder, holder.upper())
    return (f"secrets are never read from the file (the value is not shown): put it in an "
            f"environment variable and name the variable with "
            f"`{'.'.join((*where, holder))} = \"{example}\"`")


def fields_at(root: type[BaseModel], loc: Sequence[str]) -> list[str] | None:
    """The keys the settings accept at `loc` (None when `loc` is not a section)."""
    current: Any = root
    for part in loc:
        current = _unwrap(current)
        if isinstance(current, type) and issubclass(current, BaseModel):
            field = current.model_fields.get(part)
            if field is None:
                return None
            current = field.annotation
        elif get_origin(current) is dict:
            current = get_args(current)[1]  # `part` is a key of the table
        else:
            return None
    current = _unwrap(current)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return None


def _unwrap(annotation: Any) -> Any:
    """`X | None` and `Annotated[X, …]` as X."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _unwrap(get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        kept = [a for a in get_args(annotation) if a is not type(None)]
        return _unwrap(kept[0]) if len(kept) == 1 else annotation
    return annotation
