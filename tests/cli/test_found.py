"""Regressions found in review: a failed distillation, pings in the reveal, how history and
the doctor word a paused game and a server that answered with an error."""

from __future__ import annotations

import asyncio
import io
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from tests.engine.scripts import make_responder
from tribunalbot.config import Config
from tribunalbot.engine import events as ev
from tribunalbot.llm.base import LLMError, Prompt
from tribunalbot.llm.errors import ProviderUnavailable
from tribunalbot.llm.scripted import Reply, ScriptedLLM
from tribunalbot.store import connect_store
from tribunalbot.terminal.cli import main
from tribunalbot.terminal.doctor import run_doctor
from tribunalbot.terminal.screen import TerminalTable, transcript_line

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "user_lookup.py"


def _raise(exc: Exception) -> Callable[[], Reply]:
    def fail() -> Reply:
        raise exc
    return fail


DISTILL_FAILURES: dict[str, Callable[[], Reply]] = {
    "provider error": _raise(ProviderUnavailable("the provider went away (HTTP 503)")),
    "plain LLMError": _raise(LLMError("distillation refused")),
    "garbage reply": lambda: "this is not JSON {",
    "a bug": _raise(RuntimeError("unexpected None in distill")),
    "a value error": _raise(ValueError("bad facts")),
}


def _players_whose_distill(failure: Callable[[], Reply]) -> Callable[..., ScriptedLLM]:
    """A `build_llm` stand-in: scripted players for the game; the distill call fails."""
    play = make_responder()

    def respond(prompt: Prompt) -> Reply:
        return failure() if prompt.task.kind == "distill" else play(prompt)

    def build(*_args: Any, **_kwargs: Any) -> ScriptedLLM:
        return ScriptedLLM(respond)
    return build


async def _stored(db: Path) -> tuple[list[str], int]:
    store = await connect_store(db)
    try:
        games = await store.votes.recent_games(None, 5)
        rows = await store.db.fetchall("SELECT count(*) FROM experiences")
        return [g.status for g in games], int(rows[0][0])
    finally:
        await store.close()


@pytest.mark.parametrize("failure", DISTILL_FAILURES.values(), ids=DISTILL_FAILURES.keys())
def test_a_failed_distillation_still_finishes_the_game(
        failure: Callable[[], Reply], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("tribunalbot.terminal.play.build_llm", _players_whose_distill(failure))
    db = tmp_path / "t.db"
    code = main(["play", str(EXAMPLE), "--vote", "none", "--seed", "5", "--db", str(db)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "The Troublemaker was" in captured.out
    assert "the model provider failed" not in captured.err
    (note,) = captured.err.strip().splitlines()
    assert "finished" in note and "not be distilled" in note
    assert asyncio.run(_stored(db)) == (["finished"], 0)



def test_ctrl_c_during_the_distillation_still_stops_the_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    def interrupt() -> Reply:
        raise KeyboardInterrupt
    monkeypatch.setattr("tribunalbot.terminal.play.build_llm", _players_whose_distill(interrupt))
    code = main(["play", str(EXAMPLE), "--vote", "none", "--db", str(tmp_path / "t.db")])
    assert code == 130 and "interrupted" in capsys.readouterr().err


# ---- no pingable mention in the terminal or the transcript (found #9) ----------------------

PINGS = "<@123> <@!123> <@&5> <#77> @everyone @here @EVERYONE"
PINGABLE = re.compile(r"<(?:@[!&]?|#)\d+>|@(?:everyone|here)", re.I)
AT = datetime(2026, 1, 1, tzinfo=UTC)


def _loud_records() -> list[ev.Record]:
    """One record of every public kind, a mention in every text field."""
    seats = (1, 2)
    players = tuple(ev.PlayerInfo(seat=s, persona="ghost", name=f"P{s} {PINGS}") for s in seats)
    entry = ev.LedgerEntry(phase="speak", round=0, claim=PINGS, why_wrong=PINGS, kind=PINGS)
    vote = ev.HumanVote(user_id=PINGS, user_name=PINGS, seat=1, at=AT)
    score = ev.Score(user_id=PINGS, user_name=PINGS, seat=1, correct=True, points=2,
                     jury_missed_bonus=False, early_bonus=False)
    return [
        ev.GameStarted(game_id=PINGS, language=PINGS, code_lines=3, players=players,
                       max_rounds=1),
        ev.EventTriggered(event=PINGS, name=PINGS, announcement=PINGS),
        ev.PhaseStarted(phase="speak"),
        ev.Statement(seat=1, text=PINGS, notes=PINGS, planted=(entry,)),
        ev.Accusation(round=1, seat=1, target=2, quote=PINGS, text=PINGS),
        ev.AIVotes(round=1, votes=(ev.AIVote(seat=1, target=2, reason=PINGS),)),
        ev.Elimination(round=1, seat=2, tally={2: 1}, at=AT),
        ev.BallotOpened(ballot=ev.Ballot(game_id=PINGS, choices=players), at=AT),
        ev.BallotClosed(votes=(vote,), at=AT),
        ev.PhaseStarted(phase="reveal"),
        ev.Revealed(troublemaker=2, persona=PINGS, strategy=PINGS, strategy_name=PINGS,
                    caught_round=1, ledger=(entry,),
                    event_details={"event": PINGS, "seats": "1,2", "focus": PINGS, PINGS: PINGS},
                    scores=(score,), verdict=(PINGS, PINGS), struck=(PINGS,)),
        ev.GameAborted(reason=PINGS),
    ]


@pytest.mark.parametrize("colour", [False, True])
async def test_the_terminal_never_prints_a_pingable_mention(colour: bool) -> None:
    out = io.StringIO()
    table = TerminalTable(out, vote="none", colour=colour)
    for record in _loud_records():
        await table.show(record)
    text = out.getvalue()
    assert PINGABLE.findall(text) == []
    assert "The Troublemaker was" in text and "@\u200beveryone" in text  # it was all shown


def test_the_transcript_never_holds_a_pingable_mention(tmp_path: Path) -> None:
    lines = [transcript_line(record) for record in _loud_records()]
    written = [line for line in lines if line is not None]
    assert len(written) == len(_loud_records())
    assert [json.loads(line)["kind"] for line in written][-2] == "revealed"
    assert PINGABLE.findall("\n".join(written)) == []
    assert "notes" not in json.loads(written[3])  # still only the public part


def _loud(reply: Reply) -> Reply:
    """The scripted player's reply with mentions wherever it talks about line 2."""
    assert isinstance(reply, str)
    return re.sub(r"line 2", f"line 2 {PINGS}", reply, flags=re.I)


def test_a_game_full_of_mentions_reaches_neither_output_with_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    play = make_responder()
    monkeypatch.setattr("tribunalbot.terminal.play.build_llm",
                        lambda *_a, **_k: ScriptedLLM(lambda p: _loud(play(p))))
    transcript = tmp_path / "game.jsonl"
    assert main(["play", str(EXAMPLE), "--vote", "none", "--seed", "5", "--no-db",
                 "--transcript", str(transcript)]) == 0
    out = capsys.readouterr().out
    assert "The Troublemaker was" in out and "\u200b" in out
    assert PINGABLE.findall(out) == []
    assert PINGABLE.findall(transcript.read_text()) == []


# ---- history: a game cut short is paused, not running (found #12) -------------------------

def _debate_fails(prompt: Prompt) -> Reply:
    if prompt.task.kind == "debate":
        raise ProviderUnavailable("cannot connect to the provider")
    return make_responder()(prompt)


async def _add_other_games(db: Path) -> None:
    """A terminal game created but never started, and a Discord game under way in the bot."""
    from tests.store.store_helpers import make_setup

    store = await connect_store(db)
    try:
        await store.create_game(make_setup("never0started"), "", "terminal", "you")
        await store.create_game(make_setup("discord0live"), "42", "7", "u1")
        players = (ev.PlayerInfo(seat=1, persona="ghost", name="Ghost Reviewer"),)
        await store.game_sink("discord0live")(0, ev.GameStarted(
            game_id="discord0live", language="python", code_lines=3, players=players,
            max_rounds=1))
    finally:
        await store.close()


def test_history_shows_games_cut_short_as_paused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("tribunalbot.terminal.play.build_llm",
                        lambda *_a, **_k: ScriptedLLM(_debate_fails))
    db = tmp_path / "t.db"
    assert main(["play", str(EXAMPLE), "--vote", "none", "--seed", "5", "--db", str(db)]) == 1
    cut_short = capsys.readouterr().out.split("tribunalbot resume ")[1].split()[0]
    asyncio.run(_add_other_games(db))
    assert main(["history", "--db", str(db)]) == 0
    rows = {line.split()[0]: line for line in capsys.readouterr().out.splitlines() if line}
    for game in (cut_short, "never0started"):
        assert "paused (resumable)" in rows[game] and "running" not in rows[game]
    assert "running" in rows["discord0live"]  # the bot may be playing it right now
    assert "tribunalbot resume GAME_ID" in "\n".join(rows.values())


# ---- doctor: a server that answers HTTP 200 with an error is reachable (found #12) ---------

KEY_ENV = "TRIBUNAL_TEST_DOCTOR_KEY"
SECRET = "sk-test-D0ctorSecretValue4242"
MODELS = {"object": "list", "data": [{"id": "m", "object": "model"}]}
ERROR = {"error": {"message": f"model not found (key {SECRET} has no access)"}}
NO_CHOICES = {"id": "c1", "object": "chat.completion", "model": "m", "choices": []}


@asynccontextmanager
async def _server(models: dict[str, Any], chat: dict[str, Any]) -> AsyncIterator[str]:
    """A loopback OpenAI-compatible server that answers every request HTTP 200 with `models`
    (GET /v1/models) or `chat` (POST /v1/chat/completions)."""
    app = web.Application()
    app.router.add_get("/v1/models", _answer(models))
    app.router.add_post("/v1/chat/completions", _answer(chat))
    runner = web.AppRunner(app, shutdown_timeout=0.05)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        await runner.cleanup()


def _answer(body: dict[str, Any]) -> Callable[[web.Request], Awaitable[web.Response]]:
    async def handle(_request: web.Request) -> web.Response:
        return web.json_response(body)
    return handle


async def _doctor(models: dict[str, Any], chat: dict[str, Any]) -> str:
    async with _server(models, chat) as url:
        config = Config.model_validate({"default_provider": "p", "providers": {"p": {
            "kind": "openai", "base_url": url, "model": "m", "api_key_env": KEY_ENV,
            "timeout_seconds": 2.0}}})
        lines: list[str] = []

        async def no_wait(_seconds: float) -> None:
            return None
        assert await run_doctor(config, out=lines.append, sleep=no_wait) == 1
    (line,) = [line for line in lines if " p:" in line]
    return line


@pytest.mark.parametrize(("models", "chat", "said"), [
    (ERROR, ERROR, "model not found"),
    (MODELS, ERROR, "model not found"),
    (MODELS, NO_CHOICES, "empty"),
], ids=["everything", "the test request", "no choices"])
async def test_the_doctor_tells_an_error_answer_from_no_answer(
        models: dict[str, Any], chat: dict[str, Any], said: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)
    line = await _doctor(models, chat)
    assert line.startswith("FAIL")
    assert "not reachable" not in line
    assert "answered with an error: " in line and said in line.split("answered with an error")[1]
    assert SECRET not in line and SECRET[:12] not in line


async def test_the_doctor_still_says_when_nothing_answers() -> None:
    async with _server(MODELS, MODELS) as url:
        pass  # the port is closed once the server stops: nothing listens there any more
    config = Config.model_validate({"default_provider": "p", "providers": {"p": {
        "kind": "openai", "base_url": url, "model": "m", "timeout_seconds": 1.0}}})
    lines: list[str] = []
    assert await run_doctor(config, out=lines.append, max_attempts=1) == 1
    (line,) = [line for line in lines if " p:" in line]
    assert "not reachable" in line and "answered with an error" not in line
