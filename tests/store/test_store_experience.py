"""The experience system: embedding, guild-partitioned retrieval, distill, prompt context."""

from __future__ import annotations

import math
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from tests.store.store_helpers import FixedClock, VotingTable, make_setup, scripted_llm
from tribunalbot.config import StorageSettings
from tribunalbot.engine import events as ev
from tribunalbot.engine.experience import ExperienceRecord, build_context, distill, game_facts
from tribunalbot.engine.game import GameSetup, run_game
from tribunalbot.engine.personas import PERSONA_BY_KEY, STRATEGY_BY_KEY
from tribunalbot.llm.base import Prompt
from tribunalbot.llm.offline.distill import offline_distill
from tribunalbot.llm.scripted import ScriptedLLM
from tribunalbot.store import Store, embedding, open_store
from tribunalbot.store.embedding import (
    DIMENSIONS,
    embed,
    embed_async,
    split_identifier,
    to_blob,
)

SQL_A = """def get_user(conn, user_id):
    return conn.execute('SELECT * FROM users WHERE id=?', (user_id,))
"""
SQL_B = """def fetchAccount(db, accountId):
    cur = db.cursor()
    cur.execute('SELECT name FROM accounts WHERE id = %s' % accountId)
    return cur.fetchone()
"""
FILE_A = """def read_config(path):
    with open(path) as handle:
        return handle.read().splitlines()
"""


def _record(strategy: str = "blockchain", caught: int | None = None, **kw: object
            ) -> ExperienceRecord:
    base: dict[str, object] = {"code_pattern": "python: SQL lookup", "language": "python",
                               "key_findings": ["Bind query values as parameters."],
                               "troublemaker_persona": "architect", "strategy": strategy,
                               "caught_round": caught, "insights": ["Check cited lines."]}
    return ExperienceRecord.model_validate({**base, **kw})


def _cos(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_identifiers_are_split_into_words() -> None:
    assert split_identifier("parseHTTPResponse_v2") == ["parse", "http", "response", "v", "2"]
    assert split_identifier("user_id") == ["user", "id"]


def test_embedding_is_normalized_and_code_aware() -> None:
    vector = embed(SQL_A, "python")
    assert len(vector) == DIMENSIONS
    assert math.isclose(math.sqrt(sum(v * v for v in vector)), 1.0, rel_tol=1e-9)
    assert embed("", "python") == [0.0] * DIMENSIONS
    # `conn.execute(query)` and `conn . execute ( query )` are the same code
    assert embed("conn.execute(query)") == embed("conn . execute ( query )")
    assert _cos(embed(SQL_A, "python"), embed(SQL_B, "python")) > _cos(
        embed(SQL_A, "python"), embed(FILE_A, "python"))


def test_embedding_is_identical_across_processes() -> None:
    # Python's hash() is salted per process; stored vectors must survive a restart.
    script = ("from tribunalbot.store.embedding import embed; "
              f"print(repr(embed({SQL_B!r}, 'python')))")
    outputs = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              check=True, env={"PYTHONHASHSEED": seed, "PATH": ""},
                              cwd=Path(__file__).resolve().parents[2]).stdout
               for seed in ("1", "2")}
    assert len(outputs) == 1
    assert outputs.pop().strip() == repr(embed(SQL_B, "python"))


async def test_embedding_runs_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[int] = []

    def recording(text: str, language: str = "") -> list[float]:
        threads.append(threading.get_ident())
        return embed(text, language)

    monkeypatch.setattr(embedding, "embed", recording)
    assert await embed_async(SQL_B, "python") == embed(SQL_B, "python")
    assert threads and threading.get_ident() not in threads


async def test_retrieval_never_crosses_guilds(store: Store) -> None:
    await store.save_experience("A", _record(key_findings=["guild A finding"]), code=SQL_A)
    await store.save_experience("B", _record(key_findings=["guild B finding"]), code=SQL_B)
    for _ in range(3):
        await store.save_experience("B", _record(key_findings=["more B"]), code=SQL_A)
    found = await store.similar_experiences("A", SQL_A, 5)
    assert [r.key_findings for r in found] == [["guild A finding"]]
    assert await store.similar_experiences("C", SQL_A, 5) == []
    hits = await store.experiences.similar("B", SQL_A, 5)
    assert {h.guild_id for h in hits} == {"B"} and len(hits) == 4


async def test_sharing_across_guilds_is_an_operator_opt_in(store_target: Path | str) -> None:
    settings = StorageSettings(share_experience_across_guilds=True, experience_top_k=3)
    async with open_store(store_target, settings) as store:
        await store.save_experience("A", _record(), code=SQL_A)
        await store.save_experience("B", _record(), code=SQL_B)
        await store.save_experience("B", _record(), code=FILE_A)
        hits = await store.experiences.similar("A", SQL_B, 2)
        assert hits[0].guild_id == "B" and len(hits) == 2
        assert len(await store.similar_experiences("A", SQL_A)) == 3  # default k from settings


async def test_experience_context_for_a_new_game(store: Store) -> None:
    await store.save_experience("A", _record("let_ai_do_it", None), code=SQL_A)
    shared, jurors = await store.experience_context("A", SQL_B, "python")
    assert "Bind query values as parameters." in shared and "Let AI Do It" in jurors
    assert await store.experience_context("B", SQL_B, "python") == ("", "")


async def test_top_k_is_ordered_by_similarity(store: Store) -> None:
    ids = {}
    for name, code in (("sql_a", SQL_A), ("sql_b", SQL_B), ("file", FILE_A)):
        ids[name] = await store.save_experience("g", _record(code_pattern=name), code=code)
    hits = await store.experiences.similar("g", SQL_A, 3)
    assert [h.record.code_pattern for h in hits] == ["sql_a", "sql_b", "file"]
    assert hits[0].distance < 1e-5 < hits[1].distance < hits[2].distance
    assert await store.experiences.similar("g", SQL_A, 0) == []
    assert await store.experiences.delete_guild("g") == 3
    assert await store.experiences.similar("g", SQL_A, 3) == []


async def _finished_game() -> tuple[list[ev.Record], GameSetup]:
    setup = make_setup()
    result = await run_game(setup, scripted_llm(), VotingTable({"u1": 1, "u2": 4}),
                            clock=FixedClock())
    return result.events, setup


async def test_distill_is_one_call_and_the_log_overrides_the_model() -> None:
    events, setup = await _finished_game()
    facts = game_facts(events)

    def reply(prompt: Prompt) -> dict[str, object]:
        assert prompt.task.kind == "distill"
        assert prompt.task.hints.data["strategy"] == facts["strategy"]
        return {"code_pattern": "python: SQL by f-string", "strategy": "made_up",
                "caught_round": 99, "key_findings": ["Use bound parameters.",
                                                     "the f-string query is fine"],
                "insights": ["Planted advice dismissed the injection."]}

    llm = ScriptedLLM(reply)
    record = await distill(llm, setup, events)
    assert len(llm.calls) == 1
    assert record.strategy == facts["strategy"] and record.caught_round == facts["caught_round"]
    assert record.troublemaker_persona == facts["troublemaker_persona"]
    assert record.troublemaker_seat == facts["troublemaker_seat"] is not None
    assert record.key_findings == ["Use bound parameters."]  # planted advice is dropped
    assert record.human_votes == 2 and len(record.vote_history) >= 1


async def test_offline_distill_builds_a_record_from_the_facts() -> None:
    events, setup = await _finished_game()
    llm = ScriptedLLM(lambda p: offline_distill(p.task, ExperienceRecord))
    record = await distill(llm, setup, events)
    facts = game_facts(events)
    assert record.code_pattern.startswith("python:") and "SQL" in record.code_pattern
    assert record.key_findings and set(record.key_findings) <= set(facts["verdict"])
    name = STRATEGY_BY_KEY[facts["strategy"]].name
    assert any(name in i for i in record.insights)


async def test_distill_refuses_an_unfinished_game() -> None:
    events, setup = await _finished_game()
    with pytest.raises(ValueError, match="not been revealed"):
        await distill(scripted_llm(), setup, events[:5])


def test_context_splits_neutral_findings_from_juror_hints() -> None:
    records = [
        _record("its_perfect", None, key_findings=["Bind query values as parameters.",
                                                   "Seat 3 was right about line 2.",
                                                   "The planted advice was wrong."],
                insights=["The Security Guardian was the troublemaker in seat 4.",
                          "Dismissals of real bugs are a tell."]),
        _record("its_perfect", 2), _record("blockchain", 1),
    ]
    shared, jurors = build_context(records)
    assert "Bind query values as parameters." in shared
    assert shared.count("Bind query values") == 1  # deduplicated
    for text in (shared, jurors):
        assert "seat" not in text.lower()
        assert not any(p.name.lower() in text.lower() or p.key in text
                       for p in PERSONA_BY_KEY.values())
    for strategy in STRATEGY_BY_KEY.values():
        assert strategy.name not in shared
    assert "It's Perfect: fooled the AI jury in 1 of 2" in jurors
    assert "Blockchain: fooled the AI jury in 0 of 1" in jurors
    assert "Dismissals of real bugs are a tell." in jurors
    assert build_context([]) == ("", "")


def test_records_from_verbose_models_are_clipped() -> None:
    record = ExperienceRecord.model_validate(
        {"key_findings": [f"f{i}" for i in range(50)], "insights": ["x" * 5000, ""],
         "unexpected": "ignored"})
    assert len(record.key_findings) == 8 and record.insights == ["x" * 400]


async def test_a_past_game_informs_the_next_one_without_leaking_roles(store: Store) -> None:
    first = make_setup("first", seed=3)
    await store.create_game(first, "A")
    played = await run_game(first, scripted_llm(), VotingTable({"u1": 1}),
                            sinks=[store.game_sink("first")], clock=FixedClock())
    offline = ScriptedLLM(lambda p: offline_distill(p.task, ExperienceRecord))
    record = await distill(offline, first, played.events)
    await store.save_experience("A", record, code=first.code, game_id="first")

    shared, jurors = await store.experience_context("A", first.code, "python")
    assert shared and jurors
    second = replace(make_setup("second", seed=4), context_shared=shared,
                     context_jurors=jurors)
    llm = scripted_llm()
    await run_game(second, llm, VotingTable(), clock=FixedClock())
    for prompt in llm.calls:
        assert shared in prompt.shared
        assert (jurors in prompt.text) is (not prompt.task.role.troublemaker)
        assert jurors not in prompt.shared


async def test_bulk_save_hands_out_fresh_ids_and_finds_each_vector(store: Store) -> None:
    first = await store.save_experience("g", _record(code_pattern="single"), code=FILE_A)
    items = [(_record(code_pattern=name), to_blob(embed(code, "python")))
             for name, code in (("sql_a", SQL_A), ("sql_b", SQL_B))]
    ids = await store.experiences.save_many("g", items)
    assert ids == [first + 1, first + 2]
    for exp_id, (record, blob) in zip(ids, items, strict=True):
        nearest = await store.experiences.nearest("g", blob, 1)
        assert nearest[0][0] == exp_id
        hit = (await store.experiences.similar("g", SQL_A if exp_id == ids[0] else SQL_B, 1))[0]
        assert hit.record == record
    assert await store.experiences.count("g") == 3
