"""A base_url's password comes from the environment, never the config file, and never reaches
a message: the file's password is refused at load, the requests carry the environment's."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tribunalbot.config import ProviderSettings
from tribunalbot.llm.errors import AuthError
from tribunalbot.llm.http import shown_url
from tribunalbot.llm.openai_compat import OpenAICompatLLM
from tribunalbot.llm.registry import settings_problem


def test_a_password_in_base_url_is_refused_with_what_to_do() -> None:
    with pytest.raises(ValidationError, match="base_url_password_env"):
        ProviderSettings(kind="openai", model="m",
                         base_url="http://tribunal:pr0xyPassw0rdQ7@127.0.0.1:9/v1")


def test_the_password_comes_from_the_environment_and_is_never_shown(
        monkeypatch: pytest.MonkeyPatch) -> None:
    settings = ProviderSettings(kind="openai", model="m", base_url="http://tribunal@proxy:8/v1",
                                base_url_password_env="PROXY_PASSWORD")
    assert isinstance(settings_problem("p", settings), AuthError)  # unset: said, not sent
    monkeypatch.setenv("PROXY_PASSWORD", "s3cr/t@!")
    assert settings_problem("p", settings) is None
    assert settings.request_url() == "http://tribunal:s3cr%2Ft%40%21@proxy:8/v1"
    llm = OpenAICompatLLM.create("p", settings)
    assert llm.ctx.shown_url == "http://tribunal@proxy:8/v1"
    assert "s3cr/t@!" in llm.ctx.secrets  # redacted from any message that echoes it
    assert shown_url("https://a:b@h/v1") == "https://a@h/v1"
    assert shown_url("https://h/v1") == "https://h/v1"
