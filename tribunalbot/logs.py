"""Logging as the operator sets it (`[logging]`), with every secret taken out of every record.

At DEBUG, discord.py logs each REST call's URL and the payloads it sends and receives: webhook
URLs carry the webhook's token, interaction callbacks and follow-ups carry the interaction's
token, and the answer to a webhook's creation holds its token in the body. So a filter on each
of the root logger's handlers rewrites every record before it is written: its message with
its arguments merged in, its exception text and its stack. It hides the values the process
knows (the bot token, each configured API key, the pull request tokens, a database password)
and, since most tokens are not known in advance, anything shaped like one: the token segment
of a webhook or interaction URL, a `"token"`-like key's value in a payload, an Authorization
header, a URL's password, the shapes of Discord, OpenAI, Anthropic, Groq, GitHub and GitLab
credentials, and any long run of letters and digits that mixes both cases (a webhook token
stored as a bare database parameter has no key beside it).

JSON lines are written with the standard library: a record is five fields, not worth a
dependency. Rotating a log file is the operator's (logrotate, journald): the file handler
reopens the file when it has been moved, so a rotation loses nothing.
"""

from __future__ import annotations

import io
import json
import logging
import logging.handlers
import os
import re
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO, cast

from tribunalbot.config import Config, LoggingSettings
from tribunalbot.private import open_private, private_dir
from tribunalbot.secretfiles import secret_values

HIDDEN = "***"
MIN_SECRET = 6  # a shorter "secret" would hide common words; no real token is that short

_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # /webhooks/{id}/{token}, /interactions/{id}/{token}/callback, in URLs and routes
    (re.compile(r"(/(?:webhooks|interactions)/\d+/)[A-Za-z0-9._~%-]+"), rf"\g<1>{HIDDEN}"),
    # "token": "…", 'api_key': '…', token=… (JSON, Python reprs, query strings)
    (re.compile(r"""(["']?\b(?:[a-z_]*token|api[_-]?key|apikey|password|passwd|secret|"""
                r"""client_secret|private-token)["']?\s*[:=]\s*["']?)[^"'\s,;&})\]]+""", re.I),
     rf"\g<1>{HIDDEN}"),
    # Credentials a URL carries in its query: ?key=…, &sig=…, X-Amz-Signature=…, an OAuth
    # code=… (only after ? & or ;, so "exit code=1" in a sentence stays)
    (re.compile(r"([?&;](?:key|sig|signature|auth|code|x-amz-signature|x-amz-credential|"
                r"x-goog-signature|credential)=)[^&\s\"'#;]+", re.I), rf"\g<1>{HIDDEN}"),
    # Authorization: Bot …, Bearer …, Basic …
    (re.compile(r"\b(Bot|Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}"), rf"\g<1> {HIDDEN}"),
    # scheme://user:password@host
    (re.compile(r"(\b[a-z][a-z0-9+.-]*://[^:/\s@]*:)[^@\s/]+@", re.I), rf"\g<1>{HIDDEN}@"),
    # Discord bot tokens: base64 id . timestamp . HMAC
    (re.compile(r"\b[A-Za-z0-9_-]{23,28}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40}\b"), HIDDEN),
    # Interaction tokens are base64 of "interaction:…"
    (re.compile(r"\baW50ZXJhY3Rpb24[A-Za-z0-9._-]+"), HIDDEN),
    # Any other run of 40 or more URL-safe characters mixing capitals, small letters and
    # digits: a webhook token as a bare database parameter, a key of an unknown shape. Hex
    # hashes, ids and words never mix all three.
    (re.compile(r"(?<![A-Za-z0-9_-])(?=[A-Za-z0-9_-]*[a-z])(?=[A-Za-z0-9_-]*[A-Z])"
                r"(?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9_-]{40,}(?![A-Za-z0-9_-])"), HIDDEN),
    # OpenAI, Anthropic, OpenRouter, Groq keys; GitHub and GitLab tokens
    (re.compile(r"\b(?:sk|gsk|sk-ant|sk-or|sk-proj)[-_][A-Za-z0-9_-]{12,}"), HIDDEN),
    (re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}"
                r"|glpat-[A-Za-z0-9_-]{20,})"), HIDDEN),
)


class Redactor:
    """Hides known secrets and token-shaped text in a string."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        # Longest first, so that a secret containing another is hidden whole.
        self.secrets = sorted({s for s in secrets if len(s) >= MIN_SECRET}, key=len,
                              reverse=True)

    def __call__(self, text: str) -> str:
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, HIDDEN)
        for pattern, replacement in _PATTERNS:
            text = pattern.sub(replacement, text)
        return text


class RedactingFilter(logging.Filter):
    """Rewrites each record it sees so that no secret is left in what a handler writes."""

    def __init__(self, redactor: Redactor) -> None:
        super().__init__()
        self.redact = redactor

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # arguments that do not fit the message
            message = f"{record.msg!r} {record.args!r}"
        record.msg, record.args = self.redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        record.exc_info = None  # the text above is what is written, never a fresh traceback
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


class JsonLines(logging.Formatter):
    """One JSON object a line: time (UTC), level, logger, message, and any exception."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, str] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname, "logger": record.name, "message": record.getMessage()}
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = record.stack_info
        return json.dumps(entry, ensure_ascii=False)


TEXT_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
# The HTTP client's own loggers: httpx writes an INFO line for every request it sends ("HTTP
# Request: POST ... 200 OK"), 25 lines a game that tell an operator nothing the usage rows
# and the bot's own warnings do not, and each costs the event loop its formatting, redaction
# and write. They speak at WARNING and above, unless the operator asked for DEBUG.
CHATTY_LOGGERS = ("httpx", "httpcore")


def secrets_of(config: Config, environ: dict[str, str] | None = None) -> list[str]:
    """Every secret this process can know of (tribunalbot/secretfiles.py says which)."""
    return secret_values(config, dict(os.environ if environ is None else environ))


def configure_logging(settings: LoggingSettings, secrets: Iterable[str] = (), *,
                      level: str | None = None, stream: TextIO | None = None) -> logging.Handler:
    """Replace the root logger's handlers with one (stderr, or `settings.file`) that writes
    `settings.format` at `level` (default `settings.level`), every record redacted. Returns
    the handler."""
    root = logging.getLogger()
    for old in root.handlers[:]:
        if getattr(old, "tribunal", False):  # ours from an earlier call; others stay
            root.removeHandler(old)
            old.close()
    handler = _handler(settings.file, stream)
    handler.tribunal = True  # type: ignore[attr-defined]
    handler.setFormatter(JsonLines() if settings.format == "json" else
                         logging.Formatter(TEXT_FORMAT))
    root.addHandler(handler)
    redacting = RedactingFilter(Redactor(secrets))
    for each in root.handlers:  # any other handler already there writes no secret either
        each.filters = [f for f in each.filters if not isinstance(f, RedactingFilter)]
        each.addFilter(redacting)
    root.setLevel(level or settings.level)
    quiet = logging.WARNING if root.level > logging.DEBUG else logging.NOTSET
    for name in CHATTY_LOGGERS:
        logging.getLogger(name).setLevel(quiet)
    return handler


ERROR_PREFIX = "tribunalbot: error: "
# The logger of the record that ends a command in JSON mode (report_fatal).
FATAL_LOGGER = "tribunalbot"


def json_logging() -> bool:
    """Whether the log configure_logging set up writes JSON lines."""
    handler = _ours()
    return handler is not None and isinstance(handler.formatter, JsonLines)


def report_fatal(message: str, *, exc_info: bool = False) -> None:
    """The error that ends a command. In JSON mode it is a CRITICAL record, redacted like
    every record: a collector that reads the log one JSON object a line meets no plain
    line it cannot parse. A JSON log kept in a file gets the record, and standard error
    still gets the plain line, for whoever started the command; in text mode only the
    plain line is written, as before."""
    as_json = json_logging()
    if as_json:
        logging.getLogger(FATAL_LOGGER).critical(message, exc_info=exc_info)
    if not as_json or isinstance(_ours(), logging.FileHandler):
        print(f"{ERROR_PREFIX}{message}", file=sys.stderr)


def _ours() -> logging.Handler | None:
    """The root logger's handler configure_logging added, if any."""
    return next((h for h in logging.getLogger().handlers if getattr(h, "tribunal", False)),
                None)


class _Stderr(logging.StreamHandler):  # type: ignore[type-arg]
    """Whatever sys.stderr is when a record is written (a test's capture, a redirect)."""

    def __init__(self) -> None:
        logging.Handler.__init__(self)

    @property  # type: ignore[override]
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, value: TextIO) -> None:  # StreamHandler.setStream: stderr stays stderr
        pass


def _handler(file: Path | None, stream: TextIO | None) -> logging.Handler:
    if file is None:
        return logging.StreamHandler(stream) if stream is not None else _Stderr()
    private_dir(file.parent)
    # Reopens the file when logrotate (or anyone) moved it away: rotation is the operator's.
    return _PrivateLog(file, encoding="utf-8")


class _PrivateLog(logging.handlers.WatchedFileHandler):
    """A watched log file, created owner-only (on rotation too): it records game ids,
    usernames and, at DEBUG, requests."""

    def _open(self) -> io.TextIOWrapper:
        return cast(io.TextIOWrapper, open_private(self.baseFilename, append=True))
