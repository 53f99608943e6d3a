"""Distilling a finished game fails as `DistillFailed`, never as a provider failure."""

from __future__ import annotations

import pytest

from tests.engine.scripts import FixedClock, RecordingTable, scripted, setup
from tribunalbot.engine.experience import DistillFailed, ExperienceRecord, distill
from tribunalbot.engine.game import run_game
from tribunalbot.llm.base import LLMError, Prompt
from tribunalbot.llm.errors import AuthError, InvalidReply, ProviderUnavailable
from tribunalbot.llm.scripted import ScriptedLLM


def _failing(error: Exception) -> ScriptedLLM:
    def respond(prompt: Prompt) -> str:
        raise error
    return ScriptedLLM(respond)


@pytest.mark.parametrize(("error", "down"), [
    (InvalidReply("the reply was empty"), False),
    (ProviderUnavailable("connection refused"), True),
    (AuthError("key refused"), True),
])
async def test_a_failed_distillation_is_told_apart_from_a_provider_failure(
        error: Exception, down: bool) -> None:
    game = setup(3)
    result = await run_game(game, scripted(), RecordingTable(), clock=FixedClock())
    with pytest.raises(DistillFailed) as caught:
        await distill(_failing(error), game, result.events)
    failed = caught.value
    assert not isinstance(failed, LLMError)  # "the provider failed" handlers do not catch it
    assert failed.cause is error and failed.__cause__ is error
    assert failed.provider_down is down
    assert failed.game_id == game.game_id and game.game_id in str(failed)


async def test_a_reply_that_is_not_a_record_fails_the_same_way() -> None:
    game = setup(4)
    result = await run_game(game, scripted(), RecordingTable(), clock=FixedClock())
    with pytest.raises(DistillFailed):  # ScriptedLLM raises InvalidReply for bad JSON
        await distill(ScriptedLLM(lambda _p: "not json"), game, result.events)
    good = await distill(ScriptedLLM(lambda _p: "{}"), game, result.events)
    assert isinstance(good, ExperienceRecord) and good.strategy  # facts come from the log
