"""`[logging]` and the redacting filter (issue 16, Found 5): level, format and file as the
operator sets them; no secret in any record's message, arguments, exception or stack."""

from __future__ import annotations

import io
import json
import logging
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tribunalbot.config import Config, ConfigError, LoggingSettings, load_config
from tribunalbot.logs import HIDDEN, RedactingFilter, Redactor, configure_logging, secrets_of

WEBHOOK_TOKEN = "Xy9_" + "w" * 64
INTERACTION_TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OjAxMjM0NTY3ODk" + "q" * 40
BOT_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456"


@pytest.fixture
def root() -> Iterator[logging.Logger]:
    """The root logger, put back as it was after the test."""
    logger = logging.getLogger()
    handlers, level = logger.handlers[:], logger.level
    yield logger
    for handler in logger.handlers[:]:
        if handler not in handlers:
            logger.removeHandler(handler)
            handler.close()
    for handler in logger.handlers:
        handler.filters = [f for f in handler.filters if not isinstance(f, RedactingFilter)]
    logger.setLevel(level)


def written(settings: LoggingSettings, secrets: list[str],
            emit: Callable[[logging.Logger], object]) -> str:
    stream = io.StringIO()
    configure_logging(settings, secrets, stream=stream)
    emit(logging.getLogger("tribunal.test"))
    return stream.getvalue()


@pytest.mark.parametrize(("text", "kept"), [
    (f"POST https://discord.com/api/v10/webhooks/123456/{WEBHOOK_TOKEN} with {{}} has "
     "returned 200", "/webhooks/123456/***"),
    (f"POST /interactions/987/{INTERACTION_TOKEN}/callback", "/interactions/987/***/callback"),
    (f"PATCH /webhooks/111/{INTERACTION_TOKEN}/messages/@original", "/webhooks/111/***/"),
    (f'has received {{"id": "5", "token": "{WEBHOOK_TOKEN}", "name": "Architect"}}',
     '"token": "***"'),
    (f"{{'type': 2, 'token': '{INTERACTION_TOKEN}'}}", "'token': '***'"),
    (f"Authorization: Bot {BOT_TOKEN}", "Bot ***"),
    ("Authorization: Bearer sk-proj-abcdefghijklmnop1234", "Bearer ***"),
    ("key sk-ant-api03-abcdefghijklmnopqrstu and gsk_abcdefghijklmnopqrstuvwx", "key *** and"),
    ("GET ?private_token=glpat-abcdefghij0123456789xy", "private_token=***"),
    ("token ghp_abcdefghijklmnopqrstuvwxyz0123456789 used", "token *** used"),
    ("postgresql://tribunal:hunter2secret@db:5432/t", "postgresql://tribunal:***@db"),
    (f"logged in with {BOT_TOKEN} at last", "with *** at"),
    (f"INSERT INTO webhooks VALUES (?,?,?) ('12', '{WEBHOOK_TOKEN}', '2026')",
     "('12', '***', '2026')"),
    ("GET https://h.example/v1/m?key=AIzaSyD-hunter2secret&alt=json", "?key=***&alt=json"),
    ("https://bucket.s3.amazonaws.com/o?X-Amz-Credential=AKIA1&X-Amz-Signature=abcdefghij0123456789xy",
     "X-Amz-Signature=***"),
    ("callback /cb?code=hunter2secret;state=1 and &sig=abcdefghijklmnop1234 auth", "?code=***;"),
])
def test_tokens_are_hidden_by_their_shape(text: str, kept: str) -> None:
    shown = Redactor()(text)
    assert kept in shown
    for secret in (WEBHOOK_TOKEN, INTERACTION_TOKEN, BOT_TOKEN, "hunter2secret",
                   "abcdefghijklmnop1234", "abcdefghij0123456789xy"):
        assert secret not in shown


def test_ordinary_text_is_left_alone() -> None:
    for text in ("game 3f2a1b posted 8 reviews in thread 1234", "GET /channels/55/messages",
                 "the token bucket refilled", "model gpt-4o-mini answered in 2.1 s",
                 "commands hash " + "3f9a" * 16, "id 123e4567-e89b-12d3-a456-426614174000",
                 "tribunal:vote:8aa432ce3648:3 by 1577449994942676993",
                 "ruff exited with code=1; retrying", "GET /search?q=key&page=2"):
        assert Redactor()(text) == text


def test_known_values_go_whatever_their_shape(root: logging.Logger) -> None:
    out = written(LoggingSettings(level="DEBUG"), ["twin.plain-looking-value"], lambda log: (
        log.debug("the token is %s", "twin.plain-looking-value"),
        log.info("a dict %(who)s", {"who": "twin.plain-looking-value"})))
    assert "plain-looking-value" not in out and out.count(HIDDEN) == 2


def test_exceptions_and_stacks_are_redacted_too(root: logging.Logger) -> None:
    def emit(log: logging.Logger) -> None:
        try:
            raise RuntimeError(f"POST /webhooks/42/{WEBHOOK_TOKEN} failed with sk-live-secret"
                               " at https://h.example/m?key=plainkey123456&alt=json")
        except RuntimeError:
            log.exception("the call failed for %s", "sk-proj-abcdefghijklmnopqrstuv")
        log.warning("where", stack_info=True, extra={"x": 1})

    out = written(LoggingSettings(), ["sk-live-secret"], emit)
    assert "RuntimeError: POST /webhooks/42/*** failed with ***" in out
    for secret in (WEBHOOK_TOKEN, "sk-live-secret", "abcdefghijklmnopq", "plainkey123456"):
        assert secret not in out
    assert "Stack (most recent call last)" in out


def test_json_lines(root: logging.Logger) -> None:
    def emit(log: logging.Logger) -> None:
        log.info("game %s started", "abc123")
        try:
            1 / 0  # noqa: B018
        except ZeroDivisionError:
            log.error("it broke", exc_info=True)

    out = written(LoggingSettings(format="json"), [], emit)
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["message"] == "game abc123 started" and first["level"] == "INFO"
    assert first["logger"] == "tribunal.test" and first["time"].endswith("+00:00")
    assert "ZeroDivisionError" in second["exception"]


def test_the_level_holds(root: logging.Logger) -> None:
    out = written(LoggingSettings(level="warning"), [], lambda log: (
        log.info("quiet"), log.warning("loud")))
    assert "quiet" not in out and "loud" in out


def test_the_http_clients_request_lines_are_left_out_unless_debugging(
        root: logging.Logger) -> None:
    def emit(_log: logging.Logger) -> None:
        logging.getLogger("httpx").info("HTTP Request: POST http://model/v1 200 OK")
        logging.getLogger("httpx").warning("a connection was reset")

    at_info = written(LoggingSettings(level="info"), [], emit)
    assert "HTTP Request" not in at_info and "a connection was reset" in at_info
    assert "HTTP Request" in written(LoggingSettings(level="debug"), [], emit)


def test_a_file_instead_of_stderr_reopened_after_rotation(root: logging.Logger,
                                                          tmp_path: Path) -> None:
    path = tmp_path / "logs" / "bot.log"
    configure_logging(LoggingSettings(file=path), [])
    log = logging.getLogger("tribunal.test")
    log.info("before")
    path.rename(tmp_path / "logs" / "bot.log.1")  # what logrotate does
    log.info("after")
    assert "before" in (tmp_path / "logs" / "bot.log.1").read_text()
    assert "after" in path.read_text() and "before" not in path.read_text()
    # Owner-only whatever the umask, the reopened file too (issue 25: 0644 before).
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "logs").stat().st_mode) == 0o700


def test_configuring_again_replaces_the_handler(root: logging.Logger) -> None:
    first = configure_logging(LoggingSettings(), [], stream=io.StringIO())
    second = configure_logging(LoggingSettings(), [], stream=io.StringIO())
    assert second in root.handlers and first not in root.handlers


def test_the_secrets_come_from_the_variables_the_config_names() -> None:
    config = Config.model_validate({
        "providers": {"gpt": {"kind": "openai", "api_key_env": "MY_KEY", "model": "m"}},
        "discord": {"token_env": "BOT"}, "pull_requests": {"github_token_env": "GH"},
        "storage": {"url": "postgresql://u:p%40ssword@h/db"}})
    env = {"MY_KEY": "sk-one", "BOT": "tok", "GH": "ghp_x", "GITLAB_TOKEN": " gl ",
           "PGPASSWORD": "pg", "OTHER": "nope"}
    assert sorted(secrets_of(config, env)) == sorted(["sk-one", "tok", "ghp_x", "gl", "pg",
                                                      "p%40ssword", "p@ssword"])


def test_the_logging_section_is_checked(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('[logging]\nlevel = "LOUD"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert "logging.level" in str(caught.value)
    path.write_text('[logging]\nlevel = "debug"\nformat = "json"\nfile = "x.log"\n')
    settings = load_config(path).logging
    assert (settings.level, settings.format, settings.file) == ("DEBUG", "json", Path("x.log"))
